"""The Sir Tommy CP-SAT model against the plain reference search on reduced decks (the most
cards a player can hold, unsat cores; verdicts are checked beside the kernel in test_sir_tommy_kernel), its lines
replayed, and known results of seeded deals: with four rows either player can hold all 52."""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from ortools.sat.python import cp_model

from puzzles import sir_tommy as st
from solver.games.sir_tommy.engine import GAME
from solver.games.sir_tommy import sat
from solver.result import UNWINNABLE, Budget
from solver.sat_core import checked_solve, new_solver
from tests.sir_tommy.test_kernel import SMALL, TINY, held_score, in_end_phase, partly_played, replays_to_a_win

engine = GAME.engine


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TINY, st_.integers(0, 8), st_.sampled_from(["U", "D"]))
def test_model_maximum_matches_the_reference_best_win(shape, moves, player):
    position = partly_played(shape, moves)
    best = st.best_win(position, held_score(player))
    answer = sat.solve(position, 30, player)
    if best is None:
        assert answer.verdict == UNWINNABLE
        return
    assert answer.proven and answer.held == best[0] == answer.bound
    assert replays_to_a_win(position, answer.moves).held(player) == best[0]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SMALL, st_.integers(0, 6))
def test_an_unsat_core_exactly_when_the_position_is_lost(shape, moves):
    """The core model lets cards stay off the foundations: all of them assumed played is the
    whole game, so a core exists exactly when there is no win."""
    position = in_end_phase(shape, moves)
    found = sat.core(position, time_limit=30)
    assert (found is None) == (st.reference_solve(position) is not None)
    if found is not None:
        core, minimal = found
        assert core and minimal


@pytest.mark.parametrize("player", ["U", "D"])
def test_either_player_can_hold_all_52_cards_of_seed_2(player):
    result = engine.solve(st.deal(2), Budget(time_limit=60), maximise=player)
    assert result.value == 52 and result.optimal and result.super_winner
    end = replays_to_a_win(st.deal(2), result.solution)
    assert end.held(player) == result.details["held"][player] == 52


def test_with_two_rows_seed_3_gives_u_at_most_51_cards():
    result = engine.solve(st.deal(3, rows=2), Budget(time_limit=120), maximise="U")
    assert result.value == 51 and result.optimal
    assert replays_to_a_win(st.deal(3, rows=2), result.solution).held("U") == 51


def test_cp_sat_proves_what_the_kernel_leaves_open():
    """One row: the kernel's share of the time runs out, CP-SAT proves the deal lost and
    `explain` names a card no line of play gets onto a foundation."""
    deal = st.deal(1, rows=1)
    result = engine.solve(deal, Budget(time_limit=10))
    assert result.verdict == UNWINNABLE and result.stats.method == "dfs+cp-sat"
    explanation = engine.explain(deal, Budget(time_limit=60))
    assert explanation.verdict == UNWINNABLE and explanation.method == "cp-sat core"
    assert "no line of play plays" in explanation.reasons[0]


def test_a_spent_node_limit_leaves_cp_sat_its_time():
    """A node limit binds the kernels only (as in every game): CP-SAT still decides the deal, and
    --maximise still proves its optimum, within the time limit. Both used to stop with the
    kernel's nodes, as 'unknown'."""
    result = engine.solve(st.deal(1, rows=1), Budget(time_limit=30, node_limit=1))
    assert result.verdict == UNWINNABLE and result.stats.method == "dfs+cp-sat" and result.stats.nodes == 1
    deal = st.deal(2)
    spent = engine.solve(deal, Budget(time_limit=30)).stats.nodes  # the first win's nodes: all there are
    best = engine.solve(deal, Budget(time_limit=30, node_limit=spent), maximise="U")
    assert best.stats.nodes == spent and best.value == 52 and best.optimal


def satisfies_the_model(position: st.Position, moves: list) -> bool:
    """Whether the winning line `moves`, fixed in the model as `_add_hint` writes it (each
    card's play time and player, each laid card's row), leaves the model feasible."""
    built = sat._build(position, "U", replays_to_a_win(position, moves).held("U"))
    sat._add_hint(built, position, moves)
    hint = built.model.proto.solution_hint
    for index, value in zip(hint.vars, hint.values):
        built.model.add(built.model.get_int_var_from_proto_index(index) == value)
    built.model.clear_hints()
    return checked_solve(new_solver(30, 1), built.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


@pytest.mark.parametrize("seed", [1, 2, 3, 30])
def test_a_kernel_line_as_hint_satisfies_the_model(seed):
    """A hint the model rejects (its rows named against the symmetry breaking) wastes the hint
    and makes CP-SAT print 'Infeasible LNS solution' to the user's terminal."""
    position = st.deal(seed)
    verdict, moves, end, _ = engine.dfs(position, Budget(time_limit=30), 10)
    assert satisfies_the_model(position, moves)


# A-5 of hearts and spades, 3 rows, two of them empty (random play from a reduced deal): its
# wins lay cards on the full row before the empty ones, or on the empty ones in either order.
ROWS_EMPTY_AND_NOT = """\
-
-
3S AH 3H 5H 4H 2H
stock: AS
hand: 2S 4S 5S
"""


def winning_lines(position: st.Position, line: tuple = (), after_end: bool = False):
    """Every winning line, but for passes in a row in the end phase (as `best_win`)."""
    if position.is_won():
        yield list(line)
    for move in position.legal_moves():
        passing = isinstance(move, st.EndTurn) and position.end_phase
        if not (passing and after_end):
            yield from winning_lines(position.apply(move), line + (move,), passing)


def test_every_winning_line_satisfies_the_model():
    """The model must hold every real win, or its infeasibility would not prove a loss: here
    with rows empty and not (the symmetry breaking renames only the empty ones), one line in
    150 of the 15,600 wins, each fixed in the model."""
    position = st.parse(ROWS_EMPTY_AND_NOT, rows=3)
    lines = list(winning_lines(position))
    assert len(lines) == 15600
    for moves in lines[::150]:
        assert satisfies_the_model(position, moves), [str(m) for m in moves]


def test_a_run_stopped_before_any_solution_claims_no_bound():
    """Stopped in presolve, CP-SAT's objective bound is its unset default, 0: no bound on the
    most cards held, which is at least the 20 demanded here."""
    answer = sat.solve(st.deal(2), time_limit=1e-6, maximise="D", at_least=20)
    assert answer.verdict != UNWINNABLE
    assert answer.bound is None or answer.bound >= 20
