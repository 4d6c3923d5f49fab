"""CP-SAT model of a Twaalven en veertienen position: at which turn is each card taken?

The N = remaining/2 turns are steps 0..N-1; step s is played by the player to move when s is
even, else by the other. A card is taken at one step, after every card above it in its column,
and each step takes two cards whose ranks form a pair of that step's player. The counting
invariant (how many pairs of each type remain, `pairs.required_pairs`) is added as a
redundant constraint; it is what refutes most lost positions at once.

`core` relaxes the model to "a line of play that takes at least the assumed cards" and asks
CP-SAT for a small set of cards no line of play can all take.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from puzzles.cards import rank
from puzzles.twaalven import PAIRS, PLAYERS, Move, Position, other

from ...result import UNWINNABLE, WINNABLE, SatResult
from ...sat_core import checked_solve, new_solver, shrink_core, verdict
from .pairs import required_pairs

WORKERS = 2


@dataclass
class _Model:
    model: cp_model.CpModel
    steps: int
    players: list[str]
    # x[card, s]: the card is taken at step s (only for steps the card's depth allows).
    x: dict[tuple[int, int], cp_model.IntVar]
    # taken[card]: the card is taken at all (core model only; the assumption literals).
    taken: dict[int, cp_model.IntVar]


def _build(position: Position, core: bool) -> _Model:
    """The model; with `core`, cards may stay (only cards under an assumption must be taken)
    and the game may stop early, so that infeasibility under assumptions is a core."""
    model = cp_model.CpModel()
    cards = [(card, col, depth) for col, column in enumerate(position.columns) for depth, card in enumerate(column)]
    steps = len(cards) // 2
    players = [position.to_move if s % 2 == 0 else other(position.to_move) for s in range(steps)]

    # Variables. A card has `above` cards over it, all taken at earlier steps; in a full line
    # the `depth` cards under it are taken later, which bounds its step from above. A card
    # with no step in range gets no x variables, so it cannot be taken.
    x, step, taken = {}, {}, {}
    for card, col, depth in cards:
        above = len(position.columns[col]) - 1 - depth
        last = steps - 1 if core else steps - 1 - depth
        step[card] = model.new_int_var(min(above, last), last, f"step_{card}")
        for s in range(above, last + 1):
            x[card, s] = model.new_bool_var(f"x_{card}_{s}")
        if core:
            taken[card] = model.new_bool_var(f"taken_{card}")
    y = {(s, t): model.new_bool_var(f"y_{s}_{t[0]}_{t[1]}") for s in range(steps) for t in PAIRS[players[s]]}
    active = [model.new_bool_var(f"active_{s}") for s in range(steps)] if core else []
    by_card: dict[int, list[tuple[int, cp_model.IntVar]]] = {card: [] for card, _, _ in cards}
    by_step_rank: dict[tuple[int, int], list[cp_model.IntVar]] = {}
    for (card, s), var in x.items():
        by_card[card].append((s, var))
        by_step_rank.setdefault((s, rank(card)), []).append(var)

    # Constraints: each card at one step (core: at one step if taken, else at none).
    for card, at in by_card.items():
        when = sum(s * var for s, var in at)
        if core:
            model.add(sum(var for _, var in at) == taken[card])
            model.add(step[card] == when).only_enforce_if(taken[card])
        else:
            model.add_exactly_one(var for _, var in at)
            model.add(step[card] == when)
    # Column order: the upper card first (strictly, so a step never takes two of one column).
    for column in position.columns:
        for lower, upper in zip(column, column[1:]):
            if core:
                model.add_implication(taken[lower], taken[upper])
                model.add(step[upper] < step[lower]).only_enforce_if(taken[lower])
            else:
                model.add(step[upper] < step[lower])
    # Each step takes one pair type of its player (core: the active steps, a prefix), and its
    # cards are exactly that pair's ranks.
    for s in range(steps):
        types = PAIRS[players[s]]
        if core:
            model.add(sum(y[s, t] for t in types) == active[s])
            if s:
                model.add_implication(active[s], active[s - 1])
        else:
            model.add_exactly_one(y[s, t] for t in types)
        for r in range(1, 14):
            model.add(sum(by_step_rank.get((s, r), [])) == sum(t.count(r) * y[s, t] for t in types))

    # Redundant: the counting invariant fixes how often each pair type is taken in a win.
    # The core model gets its aggregate form: the cards taken, rank by rank, are used up by the
    # pairs of the active steps, so that assuming every card is as strong as the full model.
    times = {t: sum(y[s, t] for s in range(steps) if (s, t) in y) for player in PLAYERS for t in PAIRS[player]}
    if core:
        lines = model.new_int_var(0, steps, "active_steps")
        model.add(lines == sum(active))
        model.add(sum(taken.values()) == 2 * lines)
        for card, _, _ in cards:
            model.add(step[card] < lines).only_enforce_if(taken[card])
        for r in range(1, 14):
            of_rank = [taken[card] for card, _, _ in cards if rank(card) == r]
            model.add(sum(of_rank) == sum(t.count(r) * n for t, n in times.items()))
        for player in PLAYERS:
            own = [active[s] for s in range(steps) if players[s] == player]
            model.add(sum(times[t] for t in PAIRS[player]) == sum(own))
    else:
        for t, count in required_pairs(position, position.to_move).items():
            model.add(times[t] == count)
    return _Model(model, steps, players, x, taken)


def _decode(position: Position, m: _Model, solver: cp_model.CpSolver) -> list[Move]:
    """The winning line in turn order, read from the x variables and checked for shape."""
    column_of = {card: col for col, column in enumerate(position.columns) for card in column}
    at_step: list[list[int]] = [[] for _ in range(m.steps)]
    for (card, s), var in m.x.items():
        if solver.boolean_value(var):
            at_step[s].append(card)
    moves = []
    for s, taken in enumerate(at_step):
        columns = sorted(column_of[card] for card in taken)
        if len(taken) != 2 or columns[0] == columns[1]:
            raise AssertionError(f"CP-SAT step {s} takes {len(taken)} cards from columns {columns}")
        first, second = sorted(taken, key=column_of.get)
        moves.append(Move(m.players[s], (first, second), (column_of[first], column_of[second])))
    return moves


def solve(position: Position, time_limit: float | None = None) -> SatResult:
    """Winnable (with a line), unwinnable, or unknown within `time_limit` seconds (None: no limit)."""
    started = time.perf_counter()
    if required_pairs(position, position.to_move) is None:
        return SatResult(UNWINNABLE, seconds=time.perf_counter() - started)
    m = _build(position, core=False)
    solver = new_solver(time_limit, WORKERS)
    found = verdict(checked_solve(solver, m.model))
    moves = _decode(position, m, solver) if found == WINNABLE else []
    return SatResult(found, moves, time.perf_counter() - started)


def core(position: Position, time_limit: float | None = None) -> tuple[list[int], bool] | None:
    """A small set of cards that no line of play from `position` takes all of, and whether it
    is minimal (the greedy shrinking finished: dropping any one card makes all the others
    takeable in one line of play); None if every card can be taken or the time runs out."""
    m = _build(position, core=True)
    return shrink_core(m.model, m.taken, [card for column in position.columns for card in column], time_limit)
