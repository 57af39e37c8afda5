"""Seat bots at a table through the SDK and play it to the end."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar, cast

import httpx
from kronikas_client import AuthenticatedClient, Client
from kronikas_client.api.games import (
    create_game,
    get_game,
    join_game,
    list_events,
    seat_house_player,
    send_command,
    start_game,
)
from kronikas_client.events import GameEvent
from kronikas_client.models import (
    Back,
    CommandResult,
    Created,
    EventPage,
    HouseSeated,
    Joined,
    JoinRequest,
    Problem,
)
from kronikas_client.types import UNSET, Response, Unset

from .base import Bot, View, moves
from .games import GAMES, VIEWS, Command, game_of
from .proofs import OpeningCheck

T = TypeVar("T")
P = ParamSpec("P")

BOT_KINDS = tuple(dict.fromkeys(kind for game in GAMES.values() for kind in game.bots))
"""The bots of ours a seat may be (every game has a "good" and a "random" one)."""
HOUSE = "house"
SEAT_KINDS = (*BOT_KINDS, HOUSE)
"""What a seat of `--bots` may be: a bot of ours, or a house player (the service plays it)."""


class ApiError(Exception):
    """The service answered with a problem (or nothing it documents)."""

    def __init__(self, what: str, problem: Problem | None) -> None:
        self.problem = problem
        text = f"{problem.status} {problem.code}: {problem.detail}" if problem else "no answer"
        super().__init__(f"{what}: {text}")


def _wait_retry(response: Response[Any]) -> bool:
    """Sleep as long as a 429 asks; True when the call should be made again."""
    if response.status_code != 429:
        return False
    raw = response.headers.get("Retry-After", "1")
    time.sleep(float(raw) if raw.replace(".", "", 1).isdigit() else 1.0)
    return True


def answered(call: Callable[P, Response[T]], *args: P.args, **kwargs: P.kwargs) -> Response[T]:
    """Make an SDK call, and make it again after each 429 once its `Retry-After` has passed (a
    429 changed nothing): the first answer that is not a 429."""
    while _wait_retry(response := call(*args, **kwargs)):
        pass
    return response


def _answer(what: str, request: Callable[[], Response[Any]]) -> object:
    parsed: object = answered(request).parsed
    if parsed is None or isinstance(parsed, Problem):
        raise ApiError(what, parsed)
    return parsed


def call(what: str, request: Callable[[], Response[T | Problem]]) -> T:
    """Make an SDK call, waiting out 429s: the answer, or ApiError carrying the problem."""
    return cast(T, _answer(what, request))


def call_view(what: str, request: Callable[[], Response[Any]]) -> View:
    """`call()` for the routes that answer with a view of a table, of any game the bots play."""
    parsed = _answer(what, request)
    assert isinstance(parsed, VIEWS), parsed
    return parsed


def make_bot(game: str, kind: str, rng: random.Random) -> Bot[Any, Command]:
    """A bot of a kind ("good" or "random") for a game (a table's kind, one of `games.KINDS`)."""
    bots = game_of(game).bots
    try:
        return bots[kind](random.Random(rng.random()))
    except KeyError:
        raise ValueError(f"no {kind!r} bot for {game!r}; kinds: {', '.join(bots)}") from None


@dataclass
class Seat:
    """One bot in one seat: its own authenticated client (a spectator's plain one), the events
    it has seen (the latest not yet taken from `new_events`), and the check of every opening
    they and its views bring."""

    bot: Bot[Any, Command]
    client: AuthenticatedClient | Client
    game_id: str
    seat: int
    check: OpeningCheck
    version: int = 0
    view: View | None = None
    new_events: list[GameEvent] = field(default_factory=list)

    def seen(self, events: list[GameEvent], view: View | None) -> None:
        """Feed the bot and the check new events, then the view after them (if any)."""
        for event in events:
            self.bot.observe(event)
        self.check.events(events)
        if view is not None:
            self.view = view
            self.check.view(view)

    def refresh(self, wait: float = 0.0) -> View:
        """Feed the bot the events since last time (waiting up to `wait` seconds for one), and
        read the seat's view."""
        page: EventPage = call(
            "list_events",
            lambda: list_events.sync_detailed(
                self.game_id, client=self.client, after=self.version, wait=wait
            ),
        )
        self.new_events.extend(page.events)
        if page.events:
            self.version = page.events[-1].version
        view = None
        if self.view is None or page.events:
            view = call_view(
                "get_game",
                lambda: get_game.sync_detailed(self.game_id, client=self.client),
            )
        self.seen(page.events, view)
        assert self.view is not None
        return self.view

    def send(self, command: Command | Back) -> CommandResult | Problem:
        """Send a command at the version the bot decided on; the result or the refusal."""
        assert self.view is not None and isinstance(self.client, AuthenticatedClient)
        response = answered(
            send_command.sync_detailed,
            self.game_id,
            client=self.client,
            body=command,
            if_match=f'"{self.view.version}"',
        )
        parsed = response.parsed
        if isinstance(parsed, CommandResult | Problem):
            return parsed
        raise ApiError("send_command", None)


class Spectator:
    """Eyes for a table the house plays alone: it sees what anyone may see and never acts."""

    name = "spectator"

    def observe(self, event: GameEvent) -> None:
        pass

    def act(self, view: Any) -> Command | None:
        return None


HOUSE_PATIENCE = 60.0
"""How long a table may wait for the house to move before the driver gives up (seconds; a
game's house pause, such as the option `house_pause_seconds`, is at most 30)."""


@dataclass
class Table:
    """A table of seated bots, and of house players the service plays, on one service."""

    url: str
    game: str
    seats: list[Seat]
    game_id: str
    rng: random.Random
    timeout: float = 30.0
    house: list[int] = field(default_factory=list)
    watcher: Seat | None = None
    _waiting: tuple[int, float] | None = field(default=None, init=False, repr=False)

    @property
    def eyes(self) -> Seat:
        """The seat whose events and view the driver follows: the first bot's, or a
        spectator's when the house plays every seat."""
        if self.seats:
            return self.seats[0]
        assert self.watcher is not None
        return self.watcher

    @classmethod
    def create(
        cls,
        url: str,
        game: str,
        bots: Sequence[Bot[Any, Command] | None],
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> Table:
        """Create a table, seat the players in order and start it: a bot joins, and for None
        the host seats a house player (the service plays that seat; no token is handed out)."""
        anyone = Client(base_url=url, timeout=_timeout())
        body = game_of(game).create(options or {}, _seed(seed))
        created: Created = call(
            "create_game", lambda: create_game.sync_detailed(client=anyone, body=body)
        )
        game_id = created.game.id
        host = AuthenticatedClient(base_url=url, token=created.host_token, timeout=_timeout())
        seats = []
        house = []
        for i, bot in enumerate(bots):
            if bot is None:
                request = JoinRequest(name=f"{HOUSE}-{i}")
                seated: HouseSeated = call(
                    "seat_house_player",
                    lambda request=request: seat_house_player.sync_detailed(  # type: ignore[misc]
                        game_id, client=host, body=request
                    ),
                )
                house.append(seated.seat)
                continue
            request = JoinRequest(name=f"{bot.name}-{i}")
            joined: Joined = call(
                "join_game",
                lambda request=request: join_game.sync_detailed(  # type: ignore[misc]
                    game_id, client=anyone, body=request
                ),
            )
            client = AuthenticatedClient(base_url=url, token=joined.token, timeout=_timeout())
            check = _check(game, f"{bot.name} bot in seat {joined.seat}")
            seats.append(Seat(bot, client, game_id, joined.seat, check))
        call_view(
            "start_game",
            lambda: start_game.sync_detailed(game_id, client=host),
        )
        watcher = (
            None if seats else Seat(Spectator(), anyone, game_id, -1, _check(game, "spectator"))
        )
        return cls(url, game, seats, game_id, rng or random.Random(), house=house, watcher=watcher)

    def step(self) -> bool:
        """Let one seat act, or wait for the house to move; False once the match is over."""
        views = [seat.refresh() for seat in self.seats]
        first = views[0] if views else self.eyes.refresh()
        if first.status == "finished":
            return False
        wishes: list[tuple[Seat, Command]] = []
        for seat, view in zip(self.seats, views, strict=True):
            if moves(view):
                command = seat.bot.act(view)
                if command is not None:
                    wishes.append((seat, command))
        races = game_of(self.game).races
        callers = [w for w in wishes if isinstance(w[1], races)]
        if callers:
            # Moves made out of turn race each other; the service takes the first to arrive.
            chosen = self.rng.choice(callers)
        else:
            turn = first.turn
            movers = [w for w in wishes if w[0].seat == turn]
            if not movers:
                if turn is not None and _house_plays(first, turn):
                    self._await_house(first, turn)
                    return True
                raise RuntimeError(f"seat {turn} is on turn but its bot did nothing")
            chosen = movers[0]
        seat, command = chosen
        result = seat.send(command)
        if isinstance(result, Problem) and result.code != "version_mismatch":
            what = f"{seat.bot.name} bot in seat {seat.seat} sent {command.to_dict()}"
            raise ApiError(what, result)
        return True

    def _await_house(self, view: View, turn: int) -> None:
        """The house is on turn (it may pause for the others' moves out of turn, or a long chain
        of its moves goes on through deadlines): wait for the table's next event."""
        now = time.monotonic()
        if self._waiting is None or self._waiting[0] != view.version:
            self._waiting = (view.version, now)
        elif now - self._waiting[1] > HOUSE_PATIENCE:
            raise RuntimeError(f"the house in seat {turn} did not move in {HOUSE_PATIENCE:.0f} s")
        self.eyes.refresh(wait=2.0)

    def play(self, on_events: Callable[[list[GameEvent], View], None] | None = None) -> View:
        """Play until the match ends; `on_events` sees the new events of the first bot's seat
        (of a spectator when the house plays every seat) after each step."""
        while True:
            going = self.step()
            eyes = self.eyes
            view = eyes.view
            assert view is not None
            if eyes.new_events:
                if on_events is not None:
                    on_events(eyes.new_events, view)
                eyes.new_events = []
            if not going:
                return view


NOT_NOW = frozenset({"version_mismatch", "not_your_turn"})
"""Refusals that only say the seat's view was stale: the bot decides again on the next one."""


def play_seat(
    url: str,
    game_id: str,
    token: str,
    bot: Bot[Any, Command] | None = None,
    wait: float = 10.0,
    on_events: Callable[[list[GameEvent], View], None] | None = None,
) -> View:
    """Play one seat, given its token (an arena's seat, or one joined elsewhere), to the end of
    the match, whoever plays the other seats: the final view. Without `bot`, a "good" bot of
    the table's game. When the seat's clock ran out and the house played it (`away`), the
    seat comes back first. Each opening the seat is sent is checked (`proofs.OpeningCheck`)."""
    client = AuthenticatedClient(base_url=url, token=token, timeout=_timeout())
    first = call_view("get_game", lambda: get_game.sync_detailed(game_id, client=client))
    if first.me is None:
        raise ValueError(f"the token holds no seat at table {game_id}")
    chosen = bot or make_bot(first.kind, "good", random.Random())
    seat = Seat(chosen, client, game_id, first.me.seat, _check(first.kind, f"seat {first.me.seat}"))
    seat.seen([], first)
    while True:
        view = seat.refresh()
        if seat.new_events and on_events is not None:
            on_events(seat.new_events, view)
        seat.new_events = []
        if view.status == "finished":
            return view
        command = _choice(seat, view)
        if command is not None:
            result = seat.send(command)
            if not isinstance(result, Problem) or result.code in NOT_NOW:
                continue
            what = f"{chosen.name} bot in seat {seat.seat} sent {command.to_dict()}"
            raise ApiError(what, result)
        seat.refresh(wait=wait)  # nothing to do now: until something happens (or `wait`)


def _choice(seat: Seat, view: View) -> Command | Back | None:
    """What the seat sends now: `back` when the house plays it, else its bot's move, if any."""
    players = view.players
    if "back" in (view.legal or []) and 0 <= seat.seat < len(players) and players[seat.seat].away:
        return Back()
    return seat.bot.act(view) if moves(view) else None


def _check(game: str, who: str) -> OpeningCheck:
    """A seat's check of the openings it receives, with its game's cards shown face up."""
    rules = game_of(game)
    return OpeningCheck(who, rules.seen, rules.shown)


def _house_plays(view: View, seat: int) -> bool:
    """Whether the house plays a seat now: a house player's, a left player's, or an away one."""
    if not 0 <= seat < len(view.players):
        return False
    player = view.players[seat]
    return player.house or player.away


def _seed(seed: int | None) -> int | Unset:
    return UNSET if seed is None else seed


def _timeout() -> httpx.Timeout:
    return httpx.Timeout(30.0)
