"""What the tests share: random walks through any game's legal moves."""

from __future__ import annotations

import random


def random_walk(position, steps: int, rng: random.Random):
    """`position` after up to `steps` random legal moves (fewer if the game ends first)."""
    for _ in range(steps):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.apply(rng.choice(moves))
    return position
