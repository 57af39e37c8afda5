"""A person against the house, through the generated SDK alone, on the real service process."""

from __future__ import annotations

import time

import pytest
from kronikas_client import AuthenticatedClient, Client
from kronikas_client.api.games import (
    create_game,
    get_game,
    join_game,
    seat_house_player,
    send_command,
    start_game,
)
from kronikas_client.models import (
    Accept,
    Call,
    CheatGameView,
    CheatOptions,
    CommandResult,
    CreateCheatGame,
    Created,
    CreateThirtyOneGame,
    Exchange,
    HouseSeated,
    Joined,
    JoinRequest,
    Keep,
    Leave,
    Pass,
    Play,
    Problem,
    Show,
    Swap,
    SwapAll,
    ThirtyOneGameView,
    ThirtyOneOptions,
)

from tests.conftest import ServiceProcess

View = CheatGameView | ThirtyOneGameView
Command = Accept | Call | Exchange | Keep | Pass | Play | Show | Swap | SwapAll

BODIES: dict[str, CreateCheatGame | CreateThirtyOneGame] = {
    "cheat": CreateCheatGame(seed=31, options=CheatOptions(rounds=2)),
    # A few circuits at most, so that a person who only swaps still sees each round end.
    "thirty_one": CreateThirtyOneGame(seed=32, options=ThirtyOneOptions(lives=2, max_circuits=3)),
}
MOVES = 400
"""More of the person's moves than any of these matches takes."""


def against_the_house(
    url: str, kind: str, house_first: bool
) -> tuple[str, AuthenticatedClient, int, View]:
    """A started table of one person and one house player (seated first or second): its id, the
    person's client and seat, and the table at the start."""
    anyone = Client(base_url=url)
    created = create_game.sync(client=anyone, body=BODIES[kind])
    assert isinstance(created, Created), created
    game_id = created.game.id
    host = AuthenticatedClient(base_url=url, token=created.host_token)

    def seat_house() -> None:
        seated = seat_house_player.sync(game_id, client=host, body=JoinRequest(name="Ház"))
        assert isinstance(seated, HouseSeated), seated

    if house_first:
        seat_house()
    joined = join_game.sync(game_id, client=anyone, body=JoinRequest(name="Ember"))
    assert isinstance(joined, Joined), joined
    if not house_first:
        seat_house()
    started = start_game.sync(game_id, client=host)
    assert isinstance(started, CheatGameView | ThirtyOneGameView), started
    person = AuthenticatedClient(base_url=url, token=joined.token)
    return game_id, person, joined.seat, started


def view_of(game_id: str, client: AuthenticatedClient | Client) -> View:
    view = get_game.sync(game_id, client=client)
    assert isinstance(view, CheatGameView | ThirtyOneGameView), view
    return view


def legal_moves(view: View) -> list[Command]:
    """The seat's moves of the game, in the order of `legal` (which also lists `leave` and
    `back`, not moves of the game): a type may still refuse some of its moves (a swap in
    Thirty-One's last circuit must leave 21 or more), so each swap is one candidate."""
    if view.me is None:
        return []
    hand = view.me.hand
    moves: list[Command] = []
    for kind in view.legal or []:
        match kind:
            case "play":
                moves.append(Play(cards=hand[:1]))
            case "accept":
                moves.append(Accept())
            case "call":
                moves.append(Call())
            case "keep":
                moves.append(Keep())
            case "exchange":
                moves.append(Exchange())
            case "swap":
                assert isinstance(view, ThirtyOneGameView) and view.thirty_one is not None
                table = view.thirty_one.table
                moves += [Swap(give=give, take=take) for give in hand for take in table]
            case "swap_all":
                moves.append(SwapAll())
            case "pass":
                moves.append(Pass())
            case "show":
                moves.append(Show())
            case "leave" | "back":
                pass
            case _:
                raise AssertionError(f"an unknown command type {kind!r}")
    return moves


def play_first_legal_move(game_id: str, person: AuthenticatedClient, view: View) -> CommandResult:
    """The first of the seat's legal moves that the service takes."""
    for command in legal_moves(view):
        result = send_command.sync(game_id, client=person, body=command)
        if isinstance(result, CommandResult):
            return result
        assert isinstance(result, Problem) and result.code == "illegal_move", (command, result)
    raise AssertionError(f"no legal move was taken: {view.legal}")


def waits_for(view: View, seat: int) -> bool:
    """The match is over, or the table waits for `seat`: the house has no move left to make."""
    return view.status.value == "finished" or view.turn == seat


@pytest.mark.parametrize("house_first", [True, False], ids=["house-first", "person-first"])
@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
def test_a_person_plays_a_whole_match_against_the_house(
    service: ServiceProcess, kind: str, house_first: bool
) -> None:
    game_id, person, seat, started = against_the_house(service.url, kind, house_first)
    # The house moves in the request that makes it its turn: the start already did.
    assert waits_for(started, seat), started
    assert [p.house for p in started.players] == [p.seat != seat for p in started.players]
    moves = 0
    for _ in range(MOVES):
        view = view_of(game_id, person)
        if view.status.value == "finished":
            break
        assert view.turn == seat, "the table waits for the house after its request ended"
        result = play_first_legal_move(game_id, person, view)
        moves += 1
        # The answer already holds the house's moves: the table waits for the person again.
        assert waits_for(result.game, seat), result.game
        assert result.version == result.game.version >= view.version + 1
    else:
        raise AssertionError(f"the match did not end in {MOVES} moves")
    final = view_of(game_id, Client(base_url=service.url))
    assert final.status.value == "finished" and final.winners and moves > 0
    assert [(p.house, p.left, p.away) for p in final.players] == [
        (p.seat != seat, False, False) for p in final.players
    ]


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
def test_a_person_who_leaves_a_started_match_leaves_it_to_the_house_to_finish(
    service: ServiceProcess, kind: str
) -> None:
    game_id, person, seat, _ = against_the_house(service.url, kind, house_first=False)
    view = view_of(game_id, person)
    assert "leave" in (view.legal or [])
    if view.turn == seat:  # a move of their own first
        play_first_legal_move(game_id, person, view)
    left = send_command.sync(game_id, client=person, body=Leave())
    assert isinstance(left, CommandResult), left
    first = left.events[0]
    assert first.type_ == f"{kind}.player_left"
    assert first.data.seat == seat and first.data.started is True
    # Nobody is left to ask: the house plays both seats to the end, within a bounded wait.
    spectator = Client(base_url=service.url)
    deadline = time.monotonic() + 30
    final = view_of(game_id, spectator)
    while final.status.value != "finished" and time.monotonic() < deadline:
        time.sleep(0.1)
        final = view_of(game_id, spectator)
    assert final.status.value == "finished", f"stuck at version {final.version}"
    assert final.winners
    me = final.players[seat]
    assert (me.left, me.house, me.away) == (True, True, False)
    # The token still reads the table; every command from it is refused.
    mine = view_of(game_id, person)
    assert mine.me is not None and mine.me.seat == seat and not mine.legal
    refused = send_command.sync(game_id, client=person, body=Leave())
    assert isinstance(refused, Problem) and refused.status == 409
    assert refused.code == "game_over"
