"""docs/api.md, "The view" and "Events": what each viewer sees of a Thirty-One table."""

from __future__ import annotations

import typing

import msgspec

from kronikas_rules import proofs
from kronikas_rules import thirty_one as t
from kronikas_rules.common import DealsOpened, DeckRevealed
from kronikas_rules.seating import PlayerJoined
from tests.unit.thirty_one.helpers import dealt, given, h, lobby, opens

HANDS = {0: h("7H 8B 9L"), 1: h("AH KH 7L"), 2: h("10B UB 9B")}
TABLE = h("AL KL 8A")
DEAL = dealt(HANDS, TABLE, dealer=2, n=3)
SHOWN = [
    *lobby(3),
    DEAL,
    t.ThirtyOneHandKept(seat=2, turn=0),
    t.ThirtyOneHandShown(seat=0, hand=h("7H 8B 9L"), turn=1),
]

API_FIELDS = {
    "id",
    "kind",
    "status",
    "version",
    "options",
    "seeded",
    "round",
    "dealer",
    "turn",
    "winners",
    "players",
    "me",
    "legal",
    "thirty_one",
    "last_round",
    "deadline",
    "openings",
}


def wire(value: object) -> dict[str, object]:
    decoded = msgspec.json.decode(msgspec.json.encode(value))
    assert isinstance(decoded, dict)
    return decoded


def test_the_view_has_every_api_field_and_no_cheat_block() -> None:
    body = wire(t.view(given(*SHOWN).state, 1, "g-1", 7))
    assert set(body) == API_FIELDS
    assert body["kind"] == "thirty_one"
    assert "cheat" not in body
    assert body["id"] == "g-1"
    assert body["version"] == 7
    assert body["status"] == "playing"
    assert body["options"] == {
        "lives": 3,
        "max_circuits": 20,
        "chronicler": False,
        "turn_seconds": None,
        "reveal": "never",
    }
    assert body["seeded"] is False
    assert body["round"] == 1
    assert body["dealer"] == 2
    assert body["turn"] == 1
    assert body["winners"] == []
    assert body["players"] == [
        {
            "id": f"p{s}",
            "name": f"Player {s}",
            "seat": s,
            "hand_size": 3,
            "lives": 3,
            "out": False,
            "house": False,
            "away": False,
            "left": False,
        }
        for s in range(3)
    ]
    assert body["me"] == {
        "id": "p1",
        "seat": 1,
        "hand": ["AH", "KH", "7L"],
        "score": 21,
        "swaps": [{"give": "7L", "take": take, "score": 21} for take in ("AL", "KL", "8A")],
        "swap_all": 21,
    }
    assert body["legal"] == ["swap", "swap_all", "pass", "leave"]
    assert body["thirty_one"] == {
        "table": ["AL", "KL", "8A"],
        "phase": "last_circuit",
        "shown_by": 0,
        "shown": [["7H", "8B", "9L"], None, None],
        "circuit": None,
        "passed": [],
        "commitment": DEAL.commitment,
        "scheme": "merkle-sha256",
        "deck_size": 32,
    }
    assert body["last_round"] is None
    assert body["deadline"] is None
    # seat 1's hand, the table and seat 0's shown hand, by position
    seen = sorted(opens(DEAL, [*HANDS[1], *TABLE, *HANDS[0]]), key=lambda o: o.position)
    assert body["openings"] == msgspec.json.decode(msgspec.json.encode(seen))


def test_a_spectator_sees_no_hand_and_no_legal_moves() -> None:
    view = t.view(given(*SHOWN).state, None, "g", 7)
    assert view.me is None
    assert view.legal is None
    body = msgspec.json.encode(view).decode()
    for card in ("AH", "KH", "7L", "10B", "UB", "9B"):
        assert card not in body


def test_a_seat_sees_only_its_own_hand() -> None:
    view = t.view(given(*lobby(3), DEAL).state, 0, "g", 5)
    assert view.me is not None
    assert view.me.hand == HANDS[0]
    body = msgspec.json.encode(view).decode()
    for card in (*HANDS[1], *HANDS[2]):
        assert f'"{card}"' not in body
    assert view.thirty_one is not None
    assert view.thirty_one.phase == "dealer_choice"
    assert view.legal == ["leave"]


def test_scores_on_the_wire_show_thirty_and_a_half() -> None:
    result = t.ThirtyOneRoundResult(
        round=1,
        hands=[h("KH KL KB"), h("7H 8B 9L")],
        scores=[t.wire_score(61), t.wire_score(0)],
        lost_life=[1],
        out=[],
        three_aces=None,
    )
    assert b'"scores":[30.5,0.0]' in msgspec.json.encode(result)


def test_the_deal_shows_a_viewer_only_their_own_hand_the_table_and_the_commitment() -> None:
    mine = t.redact(DEAL, 1)
    assert isinstance(mine, t.ThirtyOneRoundDealt)
    assert mine.hands == [None, HANDS[1], None]
    assert mine.table == TABLE
    assert mine.commitment == DEAL.commitment
    assert mine.deck is None
    assert mine.salt is None
    assert mine.salts is None
    assert (mine.scheme, mine.deck_size) == (proofs.SCHEME, 32)
    spectator = t.redact(DEAL, None)
    assert isinstance(spectator, t.ThirtyOneRoundDealt)
    assert spectator.hands == [None, None, None]
    assert spectator.deck is None
    assert spectator.salts is None


def test_shows_swaps_round_ends_and_the_revealed_deck_are_public() -> None:
    public: list[t.Event] = [
        PlayerJoined(player_id="p1", name="A", seat=1),
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOneHandExchanged(seat=2, table=h("7H 8H 9H"), turn=0),
        t.ThirtyOneCardSwapped(seat=0, give="7H", take="AL", turn=1),
        t.ThirtyOneHandsSwapped(seat=0, table=h("7H 8H 9H"), turn=1),
        t.ThirtyOnePassed(seat=1, turn=2),
        t.ThirtyOneHandShown(seat=0, hand=h("7H 8H 9H"), turn=1),
        DeckRevealed(round=1, salt=DEAL.salt, deck=DEAL.deck),
        t.ThirtyOneMatchEnded(winners=[1]),
        t.ThirtyOneCardSwapped(seat=0, give="7H", take="AL", turn=1, openings=opens(DEAL, ["7H"])),
        t.ThirtyOneHandShown(seat=0, hand=HANDS[0], turn=1, openings=opens(DEAL, HANDS[0])),
        DealsOpened(openings=opens(DEAL, DEAL.deck or [])),
    ]
    for event in public:
        for viewer in (None, 0, 1, 2):
            assert t.redact(event, viewer) == event


def test_events_round_trip_and_accept_unknown_fields() -> None:
    history = [*SHOWN, t.ThirtyOnePassed(seat=1, turn=2)]
    decoder = msgspec.json.Decoder(t.Event)
    for event in history:
        assert decoder.decode(msgspec.json.encode(event)) == event
    body = b'{"type": "passed", "seat": 1, "turn": 2, "added_later": true}'
    assert decoder.decode(body) == t.ThirtyOnePassed(seat=1, turn=2)


def test_every_wire_type_has_a_unique_name_and_events_have_past_tense_tags() -> None:
    tags = [
        "game_created",
        "player_joined",
        "round_dealt",
        "hand_kept",
        "hand_exchanged",
        "card_swapped",
        "hands_swapped",
        "passed",
        "hand_shown",
        "round_ended",
        "deck_revealed",
        "match_ended",
        "deals_opened",
        "player_left",
        "seat_away",
        "seat_back",
    ]
    events = typing.get_args(t.Event)
    assert [e.__struct_config__.tag for e in events] == tags
    for event in events:
        assert event.__struct_config__.frozen
        assert not event.__struct_config__.forbid_unknown_fields
