"""Names: NFKC-normalised, never blank-rendering or a tower of marks, and one of a kind at a
table ignoring case (`name_taken`, a rule of the table like `game_full`)."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.tables import Table, Tables, auth

Client = AsyncTestClient[Litestar]
KINDS = ["cheat", "thirty_one"]


async def join(client: Client, table: Table, name: str) -> Any:
    return await client.post(f"/v1/games/{table.id}/players", json={"name": name})


async def names(tables: Tables, table: Table) -> list[str]:
    return [p["name"] for p in (await tables.view(table))["players"]]


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("Ｉｌｏｎａ", "Ilona"),  # fullwidth letters
        ("Zoe\u0308", "Zoë"),  # a combining mark composed
        ("  Kis   Ilona ", "Kis Ilona"),  # spaces trimmed, runs made one
        ("Ilona\u00a0Kis", "Ilona Kis"),  # a no-break space is a space
        ("ﬁona", "fiona"),  # a ligature taken apart
    ],
)
async def test_a_name_is_kept_in_its_nfkc_form(
    tables: Tables, client: Client, sent: str, kept: str
) -> None:
    table = await tables.create("cheat")
    r = await join(client, table, sent)
    assert r.status_code == 201, r.text
    assert await names(tables, table) == [kept]


BLANK = {
    "Hangul filler": "\u3164",
    "Hangul choseong filler": "\u115f",
    "Hangul jungseong filler": "\u1160",
    "halfwidth Hangul filler": "\uffa0",
    "braille blank": "\u2800",
    "fillers around spaces": "\u3164 \u3164",
    "a filler after a letter": "A\u3164",
    "zero-width space": "\u200b",
    "zero-width joiners": "\u200d\u200d",
    "word joiner": "\u2060",
    "soft hyphen": "\u00ad",
    "ideographic spaces": "\u3000\u3000",
    "only combining marks": "\u0301\u0302",
    "a mark on a space": "A \u0301",
    "three marks on one letter": "x\u0301\u0302\u0303",
    "a tower of marks": "Z" + "\u0336\u0334\u0337" * 5,
    "over 32 once normalised": "\ufdfa\ufdfa",  # each is 18 characters in NFKC
}


@pytest.mark.parametrize("name", list(BLANK))
async def test_a_name_that_renders_blank_or_stacks_marks_is_422(
    tables: Tables, client: Client, name: str
) -> None:
    table = await tables.create("cheat")
    r = await join(client, table, BLANK[name])
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "invalid_request"
    assert await names(tables, table) == []


SCRIPTS = ["Łucja", "x\u0301\u0302", "क्षि", "❤️", "山田 花子", "O'Neil-Smith"]


@pytest.mark.parametrize("name", SCRIPTS)
async def test_names_of_every_script_are_taken(tables: Tables, client: Client, name: str) -> None:
    table = await tables.create("cheat")
    assert (await join(client, table, name)).status_code == 201


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("second", ["ilona", "ILONA", "Ｉｌｏｎａ", " Ilona "])
async def test_a_name_already_at_the_table_ignoring_case_is_409_name_taken(
    tables: Tables, client: Client, kind: str, second: str
) -> None:
    table = await tables.create(kind)
    await tables.join(table, "Ilona")
    version = (await tables.view(table))["version"]
    r = await join(client, table, second)
    assert r.status_code == 409, r.text
    assert r.json()["code"] == "name_taken"
    assert (await tables.view(table))["version"] == version


async def test_case_folding_goes_past_lower_case(tables: Tables, client: Client) -> None:
    table = await tables.create("cheat")
    await tables.join(table, "Strauß")
    assert (await join(client, table, "STRAUSS")).json()["code"] == "name_taken"


@pytest.mark.parametrize("kind", KINDS)
async def test_a_house_player_may_not_take_a_name_at_the_table(
    tables: Tables, client: Client, kind: str
) -> None:
    table = await tables.create(kind)
    await tables.join(table, "Ilona")
    r = await client.post(
        f"/v1/games/{table.id}/house-players", json={"name": "ilona"}, headers=auth(table.host)
    )
    assert r.status_code == 409 and r.json()["code"] == "name_taken", r.text
    r = await client.post(
        f"/v1/games/{table.id}/house-players", json={"name": "House"}, headers=auth(table.host)
    )
    assert r.status_code == 201
    assert (await join(client, table, "HOUSE")).json()["code"] == "name_taken"


@pytest.mark.parametrize("kind", KINDS)
async def test_a_name_is_free_again_once_its_player_left_the_lobby(
    tables: Tables, client: Client, kind: str
) -> None:
    table = await tables.create(kind)
    await tables.join(table, "Ilona")
    await tables.join(table, "Bence")
    left = await tables.send(table, 0, {"type": "leave"})
    assert left.status_code == 200, left.text
    assert (await join(client, table, "ilona")).status_code == 201
    assert await names(tables, table) == ["Bence", "ilona"]
