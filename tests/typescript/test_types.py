"""The TypeScript client's types, checked by the TypeScript compiler (issue 28): events, views
and commands narrow on their tag; the reference web table reads the wire as the generated types
say; and the committed generated code is what the generator makes of the committed document."""

from __future__ import annotations

from pathlib import Path

from tests.typescript.node import PACKAGE, ROOT, bin_of, differences, run

GENERATED = PACKAGE / "src" / "gen"
HINT = "run `make sdk` and commit sdk/typescript/src/gen"


def test_a_switch_on_type_narrows_every_event_view_and_command() -> None:
    # test/narrowing.ts names every event type, with `never` in the default: a new or renamed
    # event type, or a field an event no longer has, fails this compile.
    run([bin_of("tsc"), "-p", "test/tsconfig.json"])


def test_the_web_table_reads_the_wire_as_the_generated_types_say() -> None:
    # web/*.js are `// @ts-check`ed with JSDoc imports of the generated types: a renamed field
    # of a view, an event or an answer fails here, before a browser test walks that path.
    run([bin_of("tsc"), "-p", str(ROOT / "tests" / "typescript" / "web.tsconfig.json")], cwd=ROOT)


def test_committed_typescript_client_is_what_the_generator_produces(tmp_path: Path) -> None:
    fresh = tmp_path / "gen"
    run([bin_of("openapi-ts")], env={"KRONIKAS_TS_OUT": str(fresh)})
    assert differences(fresh, GENERATED) == [], HINT
