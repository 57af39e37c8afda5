"""The worked example's searching Cheat bot (`kronikas_bots.cheat.search`): its deals of the cards a
seat cannot see never contradict what the seat saw, and it plays whole matches of legal actions
through the environments' decision driver. How strong it is, `benchmarks/search_bot.py` prints."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest
from kronikas_bots.cheat.determinise import ASIDE, PALE, Seen, deck_of, sample, world
from kronikas_bots.cheat.search import CheatSearch, SearchPolicy

from kronikas_rules import cheat
from kronikas_rules.envs import Driver, cheat_v0, random_policy
from kronikas_rules.envs.cheat import ENCODING
from kronikas_rules.table import Table

TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {"chroniclers": True}),
    (4, {"decks": 2, "chroniclers": True, "max_play": 3}),
    (5, {"decks": 2, "rounds": 2}),
]
"""Seats and options: one deck and two, with and without the Chroniclers."""


def _plays_on_pile(deal: cheat.Deal, seen: Seen) -> list[tuple[str, ...]]:
    """The pile's cards cut into its plays, as the seat counted them."""
    out, at = [], 0
    for play in seen.plays:
        out.append(deal.pile[at : at + play.count])
        at += play.count
    assert at == len(deal.pile)
    return out


def _where(deal: cheat.Deal, plays: list[tuple[str, ...]], place: tuple[str, int]) -> tuple:
    kind, i = place
    if kind == "hand":
        return deal.hands[i]
    if kind == "play":
        return plays[i]
    return deal.set_aside


def _public(view: cheat.CheatGameView) -> dict[str, Any]:
    """What a seat's view says but the deal's commitment and openings (a made-up deal has none)."""
    data = msgspec.to_builtins(view)
    for key in ("openings", "id", "version", "legal", "seeded"):
        data.pop(key)
    for key in ("commitment", "scheme"):
        data["cheat"].pop(key, None)
    for key in ("rounds", "reveal"):
        data["options"].pop(key, None)
    return data


def _check_seat(table: Table, seat: int, rng: random.Random) -> None:
    state = table.state
    assert isinstance(state, cheat.ToPlay | cheat.Window)
    deal = state.deal
    view = table.view(seat)
    assert isinstance(view, cheat.CheatGameView)
    events = table.events_for(seat)
    seen = Seen.of(seat, events)
    plays = _plays_on_pile(deal, seen)
    # What the seat knows never rules the truth out.
    for known in seen.tracked:
        assert any(known.card in _where(deal, plays, p) for p in known.places), known
    dealt = sample(view, seen, rng, honest=[0.7] * len(seen.plays))
    # The sample keeps to it: each place as full as the view says, each known card where it
    # may be, the Pale Chronicler in no play whose window closed uncalled.
    for known in seen.tracked:
        assert any(known.card in dealt[p] for p in known.places), known
    for i, play in enumerate(seen.plays):
        if play.closed and play.cards is None:
            assert PALE not in dealt["play", i]
    assert len(dealt[ASIDE]) == view.cheat.set_aside  # type: ignore[union-attr]
    made = world(view, seen, dealt, rounds_left=False)
    every = Counter(c for hand in made.deal.hands for c in hand)
    assert every + Counter(made.deal.pile) + Counter(made.deal.set_aside) == deck_of(view.options)
    # And the seat sees the made-up deal exactly as it sees the real one.
    assert _public(cheat.ENGINE.view(made, seat, "x", 0)) == _public(view)
    own = [card for play in seen.plays if play.cards is not None for card in play.cards]
    assert Counter(own) <= Counter(deal.pile)


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_a_seats_sampled_deal_never_contradicts_what_it_saw(
    players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(players)
    for seed in range(3):
        table = Table("cheat", players, options=options, seed=seed)
        for _ in range(150):
            if table.finished:
                break
            for seat in range(players):
                _check_seat(table, seat, rng)
            mover = rng.choice(sorted(table.to_act()))
            moves = [
                m
                for m in table.legal_moves(mover)
                if isinstance(m, cheat.Play | cheat.Call | cheat.Accept)
            ]
            table.play(mover, rng.choice(moves))


@pytest.mark.parametrize("players", [2, 3])
def test_the_search_bot_plays_matches_to_their_end_with_legal_actions(players: int) -> None:
    for seed in range(3):
        search = CheatSearch(samples=2, horizon=20, rng=random.Random(seed))
        policies = [random_policy] * players
        policies[seed % players] = SearchPolicy(search)
        table = Table("cheat", players, seed=seed)
        driver = Driver(table, ENCODING, seed=seed)
        # The driver refuses any action its decision's mask does not allow.
        driver.play_out(policies, most=50_000)
        assert table.finished and search.decisions > 0


def test_the_search_bot_steps_the_pettingzoo_environment() -> None:
    env = cheat_v0.env(players=2)
    env.reset(seed=3)
    policy = SearchPolicy(CheatSearch(samples=2, horizon=20, rng=random.Random(3)))
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        seat_policy = policy if agent == "player_0" else random_policy
        action = seat_policy(observation, info["seat"])
        assert observation["action_mask"][action] == 1
        env.step(action)
    assert sorted(final.values()) in ([-1.0, 1.0], [0.0, 0.0])
