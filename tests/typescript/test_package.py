"""The TypeScript client installs the way frontends install packages (issue 40): `dist/` is
committed and is what the sources compile to, `npm pack` builds it (prepack) and packs the
package alone, `npm install` takes it from the repository's folder and from the tarball with no
build, and the README's example runs exactly as written from the tarball in a scratch project,
against the live service with the limits a token meets in production. A browser bundler takes
it too: its types resolve as a bundler resolves them, and esbuild bundles it for the browser.

npm runs offline here (`--offline`): the package has no runtime dependency, and the compiler
and Node's types come from the package's own install (`npm ci`), not from the registry."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from tests.conftest import serving
from tests.typescript.node import (
    DIST,
    PACKAGE,
    bin_of,
    copy_of_package,
    differences,
    installed,
    node_or_skip,
    run,
)

pytestmark = pytest.mark.node

HINT = "run `make ts-build` (or `npm run build` in sdk/typescript) and commit sdk/typescript/dist"
README_URL = "http://127.0.0.1:8000"
NPM_QUIET = ["--offline", "--no-audit", "--no-fund", "--loglevel=error"]


def _npm() -> str:
    installed()  # skips, in one line, where there is no Node or npm
    return "npm"


def _scratch_project(folder: Path) -> Path:
    """A new project as a newcomer makes one: `npm init -y`, then ES modules."""
    folder.mkdir(parents=True)
    run([_npm(), "init", "-y"], cwd=folder)
    run([_npm(), "pkg", "set", "type=module"], cwd=folder)
    return folder


@pytest.fixture(scope="module")
def tarball(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`npm pack` in a copy of the package without dist/: its prepack builds dist/."""
    here = tmp_path_factory.mktemp("pack")
    copy = copy_of_package(here / "package")
    run([_npm(), "pack", "--pack-destination", str(here), "--loglevel=error"], cwd=copy)
    (packed,) = here.glob("*.tgz")
    return packed


@pytest.fixture(scope="module")
def from_tarball(tarball: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch project with the package installed from the packed tarball."""
    project = _scratch_project(tmp_path_factory.mktemp("scratch") / "my-bot")
    run([_npm(), "install", *NPM_QUIET, str(tarball)], cwd=project)
    return project


def _compile(project: Path, *flags: str) -> None:
    """The package's own TypeScript compiler, with Node's types from its install (a newcomer
    installs both into the project: `npm install --save-dev typescript @types/node`)."""
    run([bin_of("tsc"), *flags, "--typeRoots", str(installed() / "@types")], cwd=project)


def test_the_committed_dist_is_what_the_sources_compile_to(tmp_path: Path) -> None:
    copy = copy_of_package(tmp_path / "package")
    run([node_or_skip(), "build.mjs"], cwd=copy)
    assert differences(copy / "dist", DIST) == [], HINT


def test_npm_pack_builds_dist_and_packs_the_package_alone(tarball: Path, tmp_path: Path) -> None:
    with tarfile.open(tarball) as packed:
        names = sorted(m.name.removeprefix("package/") for m in packed.getmembers() if m.isfile())
        packed.extractall(tmp_path, filter="data")
    assert {"package.json", "README.md", "LICENSE", "dist/index.js", "dist/index.d.ts"} <= set(
        names
    )
    assert [n for n in names if n.split("/")[0] not in ("dist", "package.json")] == [
        "LICENSE",
        "README.md",
    ]
    assert differences(tmp_path / "package" / "dist", DIST) == [], HINT


def test_installed_from_the_repository_folder_it_runs_with_no_build(tmp_path: Path) -> None:
    project = _scratch_project(tmp_path / "my-app")
    run([_npm(), "install", *NPM_QUIET, str(PACKAGE)], cwd=project)
    script = (
        'import * as k from "@kronikas/client";'
        "console.log(JSON.stringify(["
        "typeof k.connect, typeof k.createGame, typeof k.follow, typeof k.SeatSocket]));"
    )
    done = run([node_or_skip(), "--input-type=module", "-e", script], cwd=project)
    assert json.loads(done.stdout) == ["function"] * 4


def test_the_readme_example_runs_as_written_from_the_tarball(
    from_tarball: Path, redis_url: str, tmp_path: Path
) -> None:
    """Against a service with the default limits a token meets in production: the example
    waits out the 429s a fast two-seat match draws."""
    readme = (PACKAGE / "README.md").read_text(encoding="utf-8")
    # tests/snippets.py leaves this README to this test, which runs its one TypeScript block:
    # a second one would go unrun, unseen.
    assert readme.count("```ts\n") == 1 and "```typescript" not in readme
    example = readme.split("```ts\n", 1)[1].split("```\n", 1)[0]
    assert README_URL in example and len(example.splitlines()) < 70
    (from_tarball / "bot.ts").write_text(example, encoding="utf-8")
    # The README's own command: `npx tsc <flags> && node bot.js`.
    (command,) = [line for line in readme.splitlines() if line.startswith("npx tsc ")]
    compile_it, run_it = command.removeprefix("npx tsc ").split(" && ")
    assert run_it == "node bot.js"
    _compile(from_tarball, *compile_it.split())
    defaults = {"RATE_LIMIT_PER_S": "20", "RATE_LIMIT_BURST": "40", "READ_LIMIT_PER_S": "30"}
    defaults |= {"READ_LIMIT_BURST": "60", "STREAMS_PER_TOKEN": "10"}
    defaults |= {"ADDRESS_LIMIT_PER_S": "100", "ADDRESS_LIMIT_BURST": "200"}  # one address
    with serving(redis_url, tmp_path / "service.log", **defaults) as service:
        env = {"KRONIKAS_URL": service.url}
        done = run([node_or_skip(), *run_it.split()[1:]], cwd=from_tarball, env=env, timeout=180)
    assert "winners: [" in done.stdout, done.stdout


BROWSER_ENTRY = """\
import { connect, follow, getGame, SeatSocket, unwrap } from "@kronikas/client";
import type { GameEvent, GameView } from "@kronikas/client";

const client = connect({ baseUrl: location.origin });
const seen: GameEvent[] = [];
export async function show(gameId: string): Promise<GameView> {
  follow({ baseUrl: location.origin, gameId, onEvent: (event) => void seen.push(event) });
  return unwrap(getGame({ client, path: { game_id: gameId } }));
}
export const socket = (gameId: string, token: string) =>
  new SeatSocket({ baseUrl: location.origin, gameId, token });
"""


PAGE_TSCONFIG = {
    "compilerOptions": {
        "module": "esnext",
        "moduleResolution": "bundler",
        "target": "es2022",
        "lib": ["es2022", "dom"],
        "types": [],
        "strict": True,
        "noEmit": True,
    },
    "files": ["page.ts"],
}
"""A frontend's settings, as Vite's templates have them: a bundler resolves the imports."""


def test_a_browser_bundler_takes_the_package_with_its_types(from_tarball: Path) -> None:
    (from_tarball / "page.ts").write_text(BROWSER_ENTRY, encoding="utf-8")
    (from_tarball / "tsconfig.page.json").write_text(json.dumps(PAGE_TSCONFIG), encoding="utf-8")
    run([bin_of("tsc"), "-p", "tsconfig.page.json"], cwd=from_tarball)
    bundle = from_tarball / "page.bundle.js"
    esbuild = [bin_of("esbuild"), "page.ts", "--bundle", "--platform=browser", "--format=esm"]
    run([*esbuild, f"--outfile={bundle}", "--log-level=warning"], cwd=from_tarball)
    # One file with no import left (a Node built-in would not resolve for the browser).
    lines = bundle.read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if line.startswith("import ")] == []
    assert any(line.startswith("var SeatSocket = class") for line in lines)
