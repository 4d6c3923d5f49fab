"""The shared engine: proof trees in explanations."""

import pytest

from puzzles import RULES
from solver.registry import GAMES
from solver.result import UNWINNABLE, WINNABLE, Budget


def top_level_moves(lines: list[str]) -> list[str]:
    """The moves a proof tree's unindented lines refute."""
    moves = []
    for line in lines:
        if line.startswith("After "):
            moves.append(line[len("After "):].split(":")[0].split(", every")[0])
    return moves


def test_black_hole_seed_17_is_explained_move_by_move():
    entry = GAMES["black-hole"]
    position = entry.rules.deal(17)
    explanation = entry.engine.explain(position, Budget())
    assert explanation.verdict == UNWINNABLE and explanation.method == "rules"
    refuted = top_level_moves(explanation.reasons)
    assert sorted(refuted) == sorted(str(m) for m in position.legal_moves())
    for move in position.legal_moves():
        after = position.apply(move)
        assert entry.engine.solve(after).verdict == UNWINNABLE
