"""docs/api.md, "The view", over HTTP: a seat's view says what its cards are worth (`me.score`,
`me.swaps`, `me.swap_all` at Thirty-One; `me.rank_counts` at Cheat) in every answer that carries
a view, and what a listed swap says it scores is what the seat holds once it is made; another
seat's view carries only that seat's own, and a spectator's or the host's none."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.api.tables import Table, Tables, auth


async def keep_if_dealing(tables: Tables, table: Table) -> dict[str, Any]:
    """The spectator's view once the dealer has kept (the first turn is on)."""
    view = await tables.view(table)
    if view["thirty_one"]["phase"] == "dealer_choice":
        r = await tables.send(table, view["dealer"], {"type": "keep"})
        assert r.status_code == 200, r.text
        view = await tables.view(table)
    assert view["thirty_one"]["phase"] == "turns"
    return view


async def test_the_seat_on_turn_sees_its_score_and_every_swap_with_its_score(
    tables: Tables,
) -> None:
    table = await tables.ready("thirty_one", 3, seed=40)
    spectator = await keep_if_dealing(tables, table)
    turn, middle = spectator["turn"], spectator["thirty_one"]["table"]
    mine = await tables.view(table, table.players[turn])
    me = mine["me"]
    assert set(me) == {"id", "seat", "hand", "score", "swaps", "swap_all"}
    assert isinstance(me["score"], int | float)
    assert [(s["give"], s["take"]) for s in me["swaps"]] == [
        (give, take) for give in me["hand"] for take in middle
    ]
    assert (me["swap_all"] is not None) == ("swap_all" in mine["legal"])
    for seat in range(3):
        if seat == turn:
            continue
        theirs = (await tables.view(table, table.players[seat]))["me"]
        assert theirs["seat"] == seat and (theirs["swaps"], theirs["swap_all"]) == ([], None)
        assert not set(theirs["hand"]) & set(me["hand"])
        assert isinstance(theirs["score"], int | float)
    for token in (None, table.host):
        assert (await tables.view(table, token))["me"] is None

    # The swap's listed score is the score of the hand it leaves, as the answer to it says.
    best = max(me["swaps"], key=lambda s: s["score"])
    r = await tables.send(table, turn, {"type": "swap", "give": best["give"], "take": best["take"]})
    assert r.status_code == 200, r.text
    after = r.json()["game"]["me"]
    assert after["score"] == best["score"]
    assert (after["swaps"], after["swap_all"]) == ([], None)  # no longer on turn


async def test_a_cheat_seat_sees_the_count_of_each_rank_in_its_hand(tables: Tables) -> None:
    table = await tables.ready("cheat", 3, options={"chroniclers": True}, seed=40)
    for seat, token in enumerate(table.players):
        me = (await tables.view(table, token))["me"]
        assert me["seat"] == seat
        ranks = Counter(card if card.startswith("X") else card[:-1] for card in me["hand"])
        assert me["rank_counts"] == dict(ranks) and sum(ranks.values()) == len(me["hand"])
    for token in (None, table.host):
        r = await tables.client.get(f"/v1/games/{table.id}", headers=auth(token))
        assert r.json()["me"] is None and "rank_counts" not in r.text


async def test_the_join_and_start_answers_carry_the_seats_facts(tables: Tables) -> None:
    table = await tables.create("thirty_one", seed=41)
    joined = await tables.join(table)
    assert joined["game"]["me"] == {
        "id": joined["game"]["me"]["id"],
        "seat": 0,
        "hand": [],
        "score": None,
        "swaps": [],
        "swap_all": None,
    }
    await tables.join(table)
    started = await tables.start(table)  # the host's answer: a spectator's view
    assert started["me"] is None
    for seat, token in enumerate(table.players):
        me = (await tables.view(table, token))["me"]
        assert me["seat"] == seat and len(me["hand"]) == 3 and me["score"] is not None
