"""Where shuffles come from: the secure system generator, or a seed for reproducible tables
(the same seed deals the same cards and salts, in the service and offline alike)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from kronikas_rules.cards import Card
from kronikas_rules.common import Shuffle
from kronikas_rules.proofs import SALT_BYTES


class SecureRandomness:
    """Shuffles with the operating system's cryptographically secure generator."""

    def __init__(self) -> None:
        self._rng = secrets.SystemRandom()

    def shuffle(self, cards: Sequence[Card], round: int) -> Shuffle:
        # Fisher–Yates on 64 secure bits a position, drawn from the OS in one call (SystemRandom
        # makes a system call for every draw). Reducing 64 bits modulo at most 64 biases a
        # position by less than 2**-58: no deal is measurably likelier than another.
        deck = list(cards)
        draws = secrets.token_bytes(8 * len(deck))
        for i in range(len(deck) - 1, 0, -1):
            j = int.from_bytes(draws[8 * i : 8 * i + 8], "big") % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        noise, width = secrets.token_bytes(SALT_BYTES * len(deck)).hex(), 2 * SALT_BYTES
        return Shuffle.committed(deck, [noise[i : i + width] for i in range(0, len(noise), width)])

    def pick(self, n: int) -> int:
        return self._rng.randrange(n)


class SeededRandomness:
    """Deals reproducibly: the same seed and round number always give the same shuffle, and the
    same salts (drawn from the seed after the shuffle): a seeded deal's commitment hides nothing
    from whoever knows or guesses the seed."""

    def __init__(self, seed: int) -> None:
        self._seed = seed

    def shuffle(self, cards: Sequence[Card], round: int) -> Shuffle:
        rng = random.Random(f"kronikas:{self._seed}:deal:{round}")
        deck = list(cards)
        rng.shuffle(deck)
        return Shuffle.committed(deck, [rng.randbytes(SALT_BYTES).hex() for _ in deck])

    def pick(self, n: int) -> int:
        return random.Random(f"kronikas:{self._seed}:dealer").randrange(n)
