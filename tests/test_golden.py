"""solve, explain and analyse print exactly the pinned outputs (tests/golden/): a change of
format shows here as a diff. After a deliberate change, `python -m tests.golden.regenerate GAME`
rewrites them; review the diff."""

import pytest

from solver.registry import GAMES
from tests.golden.regenerate import CASES, HERE, fresh_outputs


@pytest.mark.parametrize("game", CASES)
def test_outputs_match_the_pinned_files(game):
    for name, text in fresh_outputs(game).items():
        pinned = (HERE / game / name).read_text(encoding="utf-8")
        assert text == pinned, f"{game}/{name} changed; rerun `python -m tests.golden.regenerate {game}` if meant"


def test_every_registered_game_has_pinned_outputs():
    """A new game adds its cases to CASES (docs/adding-a-game.md): without them no output of it
    was pinned, and `regenerate.py GAME` failed with a KeyError in its subprocess."""
    assert set(CASES) == set(GAMES)
