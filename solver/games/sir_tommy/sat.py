"""CP-SAT model of a Sir Tommy voor twee position: when is each card played, by whom, and on
which row does it wait? It proves the most cards a player can hold in a win (or that there is
no win at all) where the DFS cannot, and names small sets of cards no win can give a player.

Time. Turn 0 is the current turn (its mover holds the hand), turn k >= 1 draws stock cards
3(k-1)..3k-1, movers alternating; turn E, after the last draw, is the end phase, where either
player may play at any moment (passing is free). Each card gets a play time T in one turn's
slot [k*SLOT, k*SLOT + SLOT - 2]; a card drawn in turn k and not played in it is placed on a
row at k*SLOT + SLOT - 1, after every play of that turn.

Constraints, each a rule of the game (so a solution is a legal winning line and every winning
line is a solution):
- a card is played in a turn no earlier than the one that draws it; in turns before E only by
  that turn's mover; a drawn card not played in its own turn waits on exactly one row;
- rows are stacks: if y is laid on a row where x still waits, y is played before x (cards laid
  in the same turn can always be stacked in the order they will leave, so they need nothing);
- foundations: a player's foundations are interchangeable, so they are their counts per rank:
  a player may play a rank-r card exactly when they hold more cards of the rank before r (on
  U's side r-1, on D's r+1; four of the "rank" before the first) than of rank r.
Symmetry breaking: rows empty now are used in order of first use.
Objective (optional): the most cards one player holds at the end.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from puzzles.cards import rank
from puzzles.sir_tommy import DRAW, FOUNDATIONS, EndTurn, Play, Position, other

from ...result import UNKNOWN, UNWINNABLE, WINNABLE, SatResult
from ...sat_core import checked_solve, new_solver, shrink_core

SLOT = 64
WORKERS = 2


@dataclass
class _Model:
    model: cp_model.CpModel
    cards: list[int]
    #: the end phase's turn
    end: int
    play_time: dict[int, cp_model.IntVar]
    #: on_row[card][r]: the card waits on row r (only drawn cards; row cards are fixed)
    on_row: dict[int, dict[int, cp_model.IntVar]]
    #: by_u[card]: U plays the card (else D)
    by_u: dict[int, cp_model.IntVar]
    held: cp_model.LinearExpr | None = None
    #: played[card]: the card reaches a foundation (core model only; the assumption literals)
    played: dict[int, cp_model.IntVar] = field(default_factory=dict)


def counts(position: Position, player: str) -> list[int]:
    """counts[r]: cards of rank r on `player`'s foundations (index 0..top_rank+1)."""
    found = [0] * (position.top_rank + 2)
    for pile in position.foundations_of(player):
        for card in pile:
            found[rank(card)] += 1
    return found


def _build(position: Position, maximise: str | None = None, at_least: int | None = None,
           core: bool = False) -> _Model:
    """The model; with `core`, a card may stay off the foundations for good (turn E + 1,
    "never"), so that the cards assumed played form an unsat core when they cannot all be."""
    model = cp_model.CpModel()
    top = position.top_rank
    drawn_at: dict[int, int] = {}
    if position.end_phase:
        movers, end = [], 0
    else:
        turns = 1 + -(-len(position.stock) // DRAW)
        movers = [position.to_move if k % 2 == 0 else other(position.to_move) for k in range(turns)]
        end = turns
        for card in position.hand:
            drawn_at[card] = 0
        for i, card in enumerate(position.stock):
            drawn_at[card] = 1 + i // DRAW
    row_cards = [(card, r, depth) for r, row in enumerate(position.rows) for depth, card in enumerate(row)]
    for card, _, _ in row_cards:
        drawn_at[card] = 0
    cards = sorted(drawn_at)
    fixed_row = {card: r for card, r, _ in row_cards}
    depth_of = {card: depth for card, _, depth in row_cards}

    # --- variables
    play_time, in_turn, on_row, by_u, played = {}, {}, {}, {}, {}
    last = end + 1 if core else end
    for card in cards:
        first = drawn_at[card]
        play_time[card] = model.new_int_var(first * SLOT, last * SLOT + SLOT - 2, f"T{card}")
        in_turn[card] = {k: model.new_bool_var(f"turn{card}_{k}") for k in range(first, last + 1)}
        if core:
            played[card] = ~in_turn[card][last]
        by_u[card] = model.new_bool_var(f"U{card}")
        if card not in fixed_row:
            on_row[card] = {r: model.new_bool_var(f"row{card}_{r}") for r in range(len(position.rows))}

    # --- when and by whom
    model.add_all_different(play_time.values())
    for card in cards:
        model.add_exactly_one(in_turn[card].values())
        for k, lit in in_turn[card].items():
            model.add_linear_constraint(play_time[card], k * SLOT, k * SLOT + SLOT - 2).only_enforce_if(lit)
            if k < end:
                model.add(by_u[card] == int(movers[k] == "U")).only_enforce_if(lit)
        if card in on_row:  # drawn: played in its own turn or waits on one row
            model.add_exactly_one([in_turn[card][drawn_at[card]], *on_row[card].values()])

    # --- rows are stacks
    for lower in cards:
        for upper in cards:
            if lower == upper:
                continue
            if lower in fixed_row and upper in fixed_row:
                if fixed_row[lower] == fixed_row[upper] and depth_of[lower] < depth_of[upper]:
                    model.add(play_time[upper] < play_time[lower])
                continue
            if upper in fixed_row or (lower not in fixed_row and drawn_at[lower] >= drawn_at[upper]):
                continue  # a drawn card is laid on another only if drawn in a later turn
            laid = (drawn_at[upper] + 1) * SLOT - 1
            still_there = model.new_bool_var(f"wait{lower}_{upper}")
            model.add(play_time[lower] > laid).only_enforce_if(still_there)
            model.add(play_time[lower] < laid).only_enforce_if(~still_there)
            rows_of_lower = (
                {fixed_row[lower]: None} if lower in fixed_row else on_row[lower]
            )
            for r, lower_lit in rows_of_lower.items():
                enforce = [still_there, on_row[upper][r]] + ([lower_lit] if lower_lit is not None else [])
                model.add(play_time[upper] < play_time[lower]).only_enforce_if(enforce)

    # --- foundations as counts per rank
    found = {"U": counts(position, "U"), "D": counts(position, "D")}
    found["U"][0] = FOUNDATIONS
    found["D"][top + 1] = FOUNDATIONS
    of_rank = {r: [c for c in cards if rank(c) == r] for r in range(0, top + 2)}
    before: dict[tuple[int, int], cp_model.IntVar] = {}

    def earlier(x: int, y: int) -> cp_model.IntVar:
        """x is played before y."""
        if (x, y) not in before:
            lit = model.new_bool_var(f"before{x}_{y}")
            model.add(play_time[x] < play_time[y]).only_enforce_if(lit)
            model.add(play_time[y] < play_time[x]).only_enforce_if(~lit)
            before[x, y], before[y, x] = lit, ~lit
        return before[x, y]

    def by_before(player: str, x: int, y: int) -> cp_model.IntVar:
        """`player` plays x, before y."""
        lit = model.new_bool_var("")
        own = by_u[x] if player == "U" else ~by_u[x]
        model.add_bool_and([own, earlier(x, y)]).only_enforce_if(lit)
        model.add_bool_or([~own, ~earlier(x, y)]).only_enforce_if(~lit)
        return lit

    for card in cards:
        r = rank(card)
        for player, step in (("U", -1), ("D", +1)):
            needed = r + step
            if found[player][needed] == FOUNDATIONS and not of_rank[needed]:
                continue  # four of the rank before: room whatever came before
            own = [by_u[card] if player == "U" else ~by_u[card]] + ([played[card]] if core else [])
            supply = sum(by_before(player, x, card) for x in of_rank[needed])
            rivals = sum(by_before(player, x, card) for x in of_rank[r] if x != card)
            model.add(found[player][needed] + supply >= found[player][r] + rivals + 1).only_enforce_if(*own)

    # --- symmetry breaking: rows empty now, in order of first use
    empty = [r for r, row in enumerate(position.rows) if not row]
    in_laying_order = sorted(on_row, key=lambda c: (drawn_at[c], c))
    for previous, row in zip(empty, empty[1:]):
        for i, card in enumerate(in_laying_order):
            model.add(on_row[card][row] <= sum(on_row[c][previous] for c in in_laying_order[:i]))

    # --- objective
    built = _Model(model, cards, end, play_time, on_row, by_u, played=played)
    if maximise:
        mine = [by_u[c] if maximise == "U" else ~by_u[c] for c in cards]
        built.held = position.held(maximise) + sum(mine)
        if at_least is not None:
            model.add(built.held >= at_least)
        model.maximize(built.held)
    return built


@dataclass
class SatAnswer(SatResult):
    """What the model proves: `verdict`, the line and the won position it reaches; with
    maximise, the best held found and whether it is proven optimal (`proven`), and `bound`,
    CP-SAT's upper bound on it."""

    end: Position | None = None
    held: int | None = None
    bound: int | None = None
    proven: bool = False


def solve(position: Position, time_limit: float | None = None, maximise: str | None = None,
          at_least: int | None = None, hint: list | None = None, seed: int = 0) -> SatAnswer:
    """Solves the model: a winning line (replayed by the rules), and with `maximise` the most
    cards that player can hold, at least `at_least` (infeasible = no win reaches it). `hint`
    is a winning line to start from; `seed` CP-SAT's random seed."""
    start = time.perf_counter()
    built = _build(position, maximise, at_least)
    if hint:
        _add_hint(built, position, hint)
    solver = new_solver(time_limit, WORKERS, random_seed=seed)
    status = checked_solve(solver, built.model)
    seconds = time.perf_counter() - start
    if status == cp_model.INFEASIBLE:
        return SatAnswer(UNWINNABLE, proven=True, seconds=seconds)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # no bound: stopped before it finds a solution (before presolve ends, say), CP-SAT can
        # report the objective bound's unset default, 0, below the `at_least` the model demands
        return SatAnswer(UNKNOWN, seconds=seconds)
    moves, end = line(built, position, solver)
    held = end.held(maximise) if maximise else None
    bound = int(solver.best_objective_bound + 1e-6) if maximise else None
    return SatAnswer(WINNABLE, moves, seconds, end, held, bound, status == cp_model.OPTIMAL)


def line(built: _Model, position: Position, solver: cp_model.CpSolver) -> list:
    """The solution as reference moves, each applied by the rules (IllegalMoveError would mean
    a wrong model): turn by turn the plays in time order, then the placements. Returns the
    moves and the won position they reach."""
    when = {c: solver.value(built.play_time[c]) for c in built.cards}
    moves, now = [], position
    for k in range(built.end + 1):
        plays = sorted((c for c in built.cards if when[c] // SLOT == k), key=when.get)
        for card in plays:
            player = "U" if solver.value(built.by_u[card]) else "D"
            if player != now.to_move:  # end phase: the other player's turn comes by a pass
                moves.append(EndTurn(now.to_move))
                now = now.apply(moves[-1])
            moves.append(_play(now, player, card))
            now = now.apply(moves[-1])
        if k < built.end and not now.is_won():
            left = list(now.hand)
            rows = {c: next(r for r, lit in built.on_row[c].items() if solver.value(lit)) for c in left}
            # rows in turn (as `legal_moves` lists them); on each, the card leaving last first
            left.sort(key=lambda c: (rows[c], -when[c]))
            moves.append(EndTurn(now.to_move, tuple((c, rows[c]) for c in left)))
            now = now.apply(moves[-1])
    if not now.is_won():
        raise AssertionError("sir-tommy CP-SAT line does not win when replayed by the reference rules")
    return moves, now


def _play(position: Position, player: str, card: int) -> Play:
    """The play of `card` (in hand or a row top) onto the first of `player`'s foundations it fits."""
    source = -1 if card in position.hand else next(r for r, row in enumerate(position.rows) if row and row[-1] == card)
    for f, pile in enumerate(position.foundations_of(player)):
        candidate = Play(player, card, source, f, pile[-1] if pile else None)
        try:
            position.apply(candidate)
            return candidate
        except ValueError:
            continue
    raise AssertionError(f"sir-tommy CP-SAT model plays a card that fits no foundation: {card}")


def _add_hint(built: _Model, position: Position, moves: list) -> None:
    """Hints the model with a known winning line (as reference moves). Rows empty now are
    renamed in order of first use, as the symmetry breaking wants them."""
    empty = [r for r, row in enumerate(position.rows) if not row]
    renamed: dict[int, int] = {}
    turn, order = 0, 0
    for move in moves:
        if isinstance(move, Play):
            built.model.add_hint(built.play_time[move.card], turn * SLOT + order)
            built.model.add_hint(built.by_u[move.card], move.player == "U")
            order += 1
        elif turn < built.end:
            for card, row in sorted(move.placements):  # the model's order of first use
                if row in empty and row not in renamed:
                    renamed[row] = empty[len(renamed)]
                built.model.add_hint(built.on_row[card][renamed.get(row, row)], True)
            turn, order = turn + 1, 0


def core(position: Position, time_limit: float | None = None) -> tuple[list[int], bool] | None:
    """A small set of cards that no line of play from `position` gets all onto foundations,
    and whether it is minimal (the greedy shrinking finished); None if every card can be
    played or the time runs out first."""
    built = _build(position, core=True)
    return shrink_core(built.model, built.played, built.cards, time_limit)
