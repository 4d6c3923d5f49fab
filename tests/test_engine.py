"""The shared engine: proof trees in explanations, verdicts of moves, budgets."""

import time

import pytest

import solver.engine
from puzzles.lines import replay
from solver._native import Kernel
from solver.registry import GAMES
from solver.engine import ALREADY_WON, verdict_of_moves
from solver.result import KEEPS, LOSES, UNKNOWN, UNWINNABLE, WINNABLE, Budget, MoveVerdict


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


def test_analyse_never_contradicts_its_moves():
    """When the whole position's own search is left undecided, its moves decide it: a move that
    keeps the game winnable makes the position winnable, and when every move loses it is lost
    (issue 11: All in a Row said 'unknown' over a move that 'keeps winnable')."""
    keeps, loses, open_ = (MoveVerdict(None, label) for label in (KEEPS, LOSES, "unknown"))
    assert verdict_of_moves(UNKNOWN, [loses, keeps, open_]) == WINNABLE
    assert verdict_of_moves(UNKNOWN, [loses, loses]) == UNWINNABLE
    assert verdict_of_moves(UNKNOWN, [loses, open_]) == UNKNOWN
    assert verdict_of_moves(UNKNOWN, []) == UNKNOWN
    assert verdict_of_moves(WINNABLE, [loses, keeps]) == WINNABLE


def test_cp_sat_runs_only_when_a_clock_can_stop_it():
    """CP-SAT counts no nodes: under a node limit with no time limit it does not run (Stapelen's
    model ran for hours after a node-limited kernel), and a limit above a year is no limit."""
    assert Budget(time_limit=1e300).time_limit is None and Budget(time_limit=float("inf")).time_limit is None
    assert not Budget(time_limit=1e19, node_limit=100).models_may_run()
    assert Budget(time_limit=None, node_limit=0).models_may_run()
    assert Budget(time_limit=5, node_limit=100).models_may_run()
    entry = GAMES["stapelen"]
    result = entry.engine.solve(entry.rules.deal(1), Budget(time_limit=1e300, node_limit=50))
    assert result.verdict == UNKNOWN and result.stats.method == "dfs"


def test_making_a_kernel_is_not_search_time(monkeypatch):
    """A command makes its game's kernel off the budget's clock, before it shares the budget out:
    allocating the table (up to a second or more on a busy machine) once took the first search's
    share of the time."""
    def slow_kernel(name: str, table_entries: int) -> Kernel:
        time.sleep(0.5)
        return Kernel(name, 1 << 16)

    monkeypatch.setattr(solver.engine, "Kernel", slow_kernel)
    entry = GAMES["twaalven"]
    budget = Budget(time_limit=0.4)
    assert type(entry.engine)().solve(entry.rules.deal(7), budget).verdict == WINNABLE
    assert budget.seconds_left() > 0.2


@pytest.mark.parametrize("name", [name for name, entry in GAMES.items() if entry.engine.proves_unwinnable])
def test_explain_calls_a_won_position_won_already(name):
    """A test deal played to its end by its winning line: solve prints no line there, so explain
    must not point to one (it said "`winnable solve` prints a winning line"). Every game that
    can be lost, and so won (not Etalage), from the registry: a list of names left new games out."""
    entry = GAMES[name]
    variant = entry.test_variants[0]
    solved = (entry.engine.solve(entry.rules.deal(seed, **variant), Budget(time_limit=30)) for seed in entry.test_seeds)
    result = next((result for result in solved if result.verdict == WINNABLE), None)
    if result is None:
        pytest.skip(f"no test seed of {name} is winnable")
    won = replay(result.start, result.solution)
    reasons = entry.engine.explain(won, Budget(time_limit=30)).reasons
    assert reasons[-1] in (ALREADY_WON, "won already: every card is played, so `winnable solve` prints no line",
                           "won already: all 50 cards are played, so `winnable solve` prints no line")
