"""The random sources: secure shuffles are fair permutations, seeded ones repeat."""

from __future__ import annotations

from collections import Counter

from kronikas_rules import proofs
from kronikas_rules.cards import make_deck
from kronikas_rules.randomness import SecureRandomness, SeededRandomness

DECK = make_deck(1, ("XC", "XP"))


def test_a_secure_shuffle_is_a_permutation_with_a_matching_commitment() -> None:
    shuffle = SecureRandomness().shuffle(DECK, 1)
    assert sorted(shuffle.deck) == sorted(DECK)
    assert shuffle.commitment == proofs.Tree(shuffle.deck, shuffle.salts).root
    assert len(shuffle.salts) == len(DECK) == len(set(shuffle.salts))
    assert all(len(salt) == 32 and int(salt, 16) >= 0 for salt in shuffle.salts)


def test_secure_shuffles_differ_and_put_every_card_everywhere_evenly() -> None:
    source = SecureRandomness()
    shuffles = [source.shuffle(DECK, 1).deck for _ in range(3400)]
    assert len(set(shuffles)) == len(shuffles)
    # Each card's count in the first and last places: 100 expected from 3,400 deals of 34
    # cards. Bounds of ±50 fail by chance with a probability under 1e-6 per count.
    for place in (0, len(DECK) - 1):
        counts = Counter(deck[place] for deck in shuffles)
        assert set(counts) == set(DECK)
        assert all(50 <= n <= 150 for n in counts.values()), counts


def test_a_seeded_shuffle_repeats_for_the_same_seed_and_round_only() -> None:
    first = SeededRandomness(7).shuffle(DECK, 1)
    assert SeededRandomness(7).shuffle(DECK, 1) == first
    assert SeededRandomness(7).shuffle(DECK, 2).deck != first.deck
    assert SeededRandomness(8).shuffle(DECK, 1).deck != first.deck


def test_the_secure_first_dealer_is_any_seat_evenly() -> None:
    """The first dealer of a table without a seed: each of n seats about 1/n of the time.
    Bounds of ±200 around 1,000 lie more than 6 standard deviations out (under 1e-9 a
    count by chance)."""
    source = SecureRandomness()
    for seats in (2, 4, 9):
        counts = Counter(source.pick(seats) for _ in range(1000 * seats))
        assert set(counts) == set(range(seats))
        assert all(800 <= n <= 1200 for n in counts.values()), (seats, counts)


def test_a_seeded_first_dealer_repeats_for_its_seed_and_differs_between_seeds() -> None:
    for seats in (2, 5, 9):
        dealers = [SeededRandomness(seed).pick(seats) for seed in range(200)]
        assert dealers == [SeededRandomness(seed).pick(seats) for seed in range(200)]
        assert set(dealers) == set(range(seats)), "every seat deals first for some seed"
