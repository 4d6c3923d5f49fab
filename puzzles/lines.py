"""Lines of play over any game's Position (legal_moves, apply, is_won): replay and the plain
exhaustive search that the kernels are tested against."""

from __future__ import annotations


def replay(start, moves):
    """Applies `moves` in order, each checked by the rules; returns the final position."""
    position = start
    for move in moves:
        position = position.apply(move)
    return position


def reference_solve(position):
    """A winning line by plain exhaustive search (memoising only lost positions), or None when
    there is none. Exponential: meant for small positions in tests."""
    lost = set()

    def search(pos):
        if pos.is_won():
            return []
        if pos in lost:
            return None
        for move in pos.legal_moves():
            line = search(pos.apply(move))
            if line is not None:
                return [move, *line]
        lost.add(pos)
        return None

    return search(position)
