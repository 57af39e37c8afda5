"""The decision driver and the games' encodings: every action the mask allows is accepted by the
rules, every move the rules allow is reachable through the mask, and matches end with rewards
from places."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import numpy as np
import pytest

from kronikas_rules.cheat.commands import Accept, Call, Play
from kronikas_rules.cheat.events import CheatCalled, CheatCardsPlayed, CheatPlayAccepted
from kronikas_rules.envs import Driver, encoding_of, house_policy, random_policy
from kronikas_rules.envs import cheat as cheat_env
from kronikas_rules.envs import thirty_one as thirty_one_env
from kronikas_rules.envs.decisions import IllegalAction, place_rewards
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.table import Table

CASES = [
    ("cheat", 2, {}),
    ("cheat", 3, {"chroniclers": True, "max_play": 2}),
    ("cheat", 5, {"decks": 2, "chroniclers": True, "rounds": 2}),
    ("cheat", 2, {"max_plays": 20}),
    ("thirty_one", 2, {}),
    ("thirty_one", 4, {"chronicler": True, "lives": 1, "max_circuits": 2}),
]


def _accepted(driver: Driver, command: msgspec.Struct) -> bool:
    """Whether the rules accept `command` from the current seat now (decided, not applied)."""
    table, current = driver.table, driver.current
    assert current is not None
    try:
        table.engine.decide(table.state, command, current.seat, SeededRandomness(0))
    except Exception:
        return False
    return True


@pytest.mark.parametrize(("kind", "players", "options"), CASES)
def test_every_action_the_mask_allows_is_accepted(kind: str, players: int, options: dict) -> None:
    encoding = encoding_of(kind)
    for seed in range(3):
        driver = Driver(Table(kind, players, options=options, seed=seed), encoding, seed=seed)
        chooser = random.Random(seed)
        while driver.current is not None:
            seat = driver.current.seat
            info = driver.info(seat)
            mask = driver.mask(seat)
            assert mask.dtype == np.int8 and mask.any()
            for action in np.flatnonzero(mask):
                resolved = encoding.resolve(info, int(action))
                if resolved.command is not None:
                    assert _accepted(driver, resolved.command), (seat, resolved.command)
            for action in np.flatnonzero(mask == 0):
                with pytest.raises(IllegalAction):  # raised before anything moves
                    driver.act(int(action))
            driver.act(int(chooser.choice(np.flatnonzero(mask))))
        assert driver.finished
        assert sum(driver.rewards()) == pytest.approx(0)


@pytest.mark.parametrize(("kind", "players", "options"), CASES)
def test_the_house_plays_every_seat_to_the_end(kind: str, players: int, options: dict) -> None:
    driver = Driver(Table(kind, players, options=options, seed=7), encoding_of(kind), seed=7)
    driver.play_out([house_policy] * players)
    assert driver.finished
    rewards = driver.rewards()
    assert max(rewards) == 1.0 and sum(rewards) == pytest.approx(0)


def test_a_cheat_play_is_any_multiset_of_the_hand_up_to_max_play() -> None:
    driver = Driver(
        Table("cheat", 5, options={"decks": 2, "max_play": 3}, seed=11),
        cheat_env.ENCODING,
        seed=11,
    )
    assert driver.current is not None and driver.current.kind == "play"
    seat = driver.current.seat
    hand = Counter(driver.table.view(seat).me.hand)  # type: ignore[attr-defined]
    reachable: set[tuple[str, ...]] = set()

    def walk(picks: tuple[str, ...]) -> None:
        driver.picks = picks
        driver._infos, driver._masks = {}, {}
        mask = driver.mask(seat)
        for action in np.flatnonzero(mask):
            if action == cheat_env.DONE:
                reachable.add(tuple(sorted(picks)))
            elif action < cheat_env.C:
                walk((*picks, cheat_env.CODES[action]))

    walk(())
    legal = {tuple(sorted(m.cards)) for m in driver.table.legal_moves(seat) if hasattr(m, "cards")}
    assert reachable == legal
    assert all(Counter(play) <= hand for play in reachable)


def test_the_challenge_window_asks_each_other_seat_from_the_next_player() -> None:
    driver = Driver(Table("cheat", 4, seed=5), cheat_env.ENCODING, seed=5)
    first = driver.current
    assert first is not None and first.kind == "play"
    driver.act(cheat_env.INDEX[driver.table.view(first.seat).me.hand[0]])  # type: ignore[attr-defined]
    driver.act(cheat_env.DONE)
    order = [d.seat for d in driver.queue]
    kinds = [d.kind for d in driver.queue]
    n = 4
    assert order == [(first.seat + k) % n for k in (1, 2, 3)] + [(first.seat + 1) % n]
    assert kinds == ["answer", "answer", "answer", "play"]
    driver.act(cheat_env.LET_GO)
    driver.act(cheat_env.CALL)  # the second seat calls: the window closes
    called = driver.table.events[-2]
    assert isinstance(called, CheatCalled) and called.caller == (first.seat + 2) % n
    assert driver.current is not None and driver.current.kind == "play"


def test_thirty_one_masks_are_exactly_the_legal_moves() -> None:
    for seed in range(5):
        driver = Driver(Table("thirty_one", 3, seed=seed), thirty_one_env.ENCODING, seed=seed)
        chooser = random.Random(seed)
        while driver.current is not None:
            seat = driver.current.seat
            info = driver.info(seat)
            mask = driver.mask(seat)
            commands = {
                msgspec.json.encode(thirty_one_env.resolve(info, int(a)).command)
                for a in np.flatnonzero(mask)
            }
            legal = {
                msgspec.json.encode(m)
                for m in driver.table.legal_moves(seat)
                if type(m).__name__ not in ("Leave", "Back")
            }
            assert commands == legal
            driver.act(int(chooser.choice(np.flatnonzero(mask))))


def test_random_policies_draw_from_each_seats_rng() -> None:
    def run() -> list[msgspec.Struct]:
        driver = Driver(Table("cheat", 3, seed=2), cheat_env.ENCODING, seed=9)
        driver.play_out([random_policy] * 3)
        return driver.table.events

    assert msgspec.json.encode(run()) == msgspec.json.encode(run())


def test_place_rewards_share_ties_and_sum_to_zero() -> None:
    assert place_rewards([7, 3]) == [1.0, -1.0]
    assert place_rewards([5, 5]) == [0.0, 0.0]
    assert place_rewards([4, 3, 3, 0]) == [1.0, 0.0, 0.0, -1.0]


def test_a_copied_driver_goes_on_as_the_original_would() -> None:
    driver = Driver(Table("cheat", 3, seed=4), cheat_env.ENCODING, seed=4)
    for _ in range(25):
        seat = driver.current.seat  # type: ignore[union-attr]
        driver.act(random_policy(driver.observe(seat), driver.info(seat)))
    replayed = Table("cheat", 3, seed=4)
    for event_seat, command in _commands(driver.table):
        replayed.play(event_seat, command)
    copied = driver.copy(replayed)
    for one in (driver, copied):
        one.play_out([random_policy] * 3)
    assert msgspec.json.encode(copied.table.events) == msgspec.json.encode(driver.table.events)


def _commands(table: Table) -> list[tuple[int, msgspec.Struct]]:
    """The commands that made a Cheat table's events (plays, calls and accepts, by seat)."""
    out: list[tuple[int, msgspec.Struct]] = []
    for event in table.events:
        match event:
            case CheatCardsPlayed(seat=seat, cards=cards):
                out.append((seat, Play(cards=list(cards or ()))))
            case CheatCalled(caller=caller):
                out.append((caller, Call()))
            case CheatPlayAccepted(seat=seat):
                out.append((seat, Accept()))
    return out
