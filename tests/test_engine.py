"""The shared engine: proof trees in explanations, and one conformance check over every game."""

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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_conforms(name):
    """pgx-style conformance: seeded deals format and parse back, every legal move applies and
    changes the position, a found solution replays to a won position with no moves left, and
    the JSON of every move names what its str names."""
    entry = GAMES[name]
    rules = RULES[name]
    for seed in range(1, 6):
        deal = rules.deal(seed)
        assert rules.parse(rules.format_position(deal)) == deal
        result = entry.engine.solve(deal, Budget(time_limit=60))
        assert result.verdict in (WINNABLE, UNWINNABLE)
        if result.verdict != WINNABLE:
            assert result.solution == []
            continue
        position = result.start  # the deal, with the starter chosen where the players choose
        for move in result.solution:
            assert move in position.legal_moves()
            assert type(move).parse(str(move)) == move
            following = position.apply(move)
            assert following != position and hash(following) == hash(position.apply(move))
            position = following
        assert position.is_won() and not position.legal_moves()
        assert rules.parse(rules.format_position(position)) == position
