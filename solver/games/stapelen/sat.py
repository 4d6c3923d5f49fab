"""CP-SAT model of a Stapelen position: at which turn is each card placed, and on what?

The N remaining cards are placed in turns 0..N-1, one per turn; turn s is played by the player
to move when s is even, else by the other (a card's "side": the parity of its turn). A card is
placed after every card above it in its column. Where it goes is a successor chain: each card
has exactly one predecessor, which is

- a remaining card one rank lower (K before A) placed earlier by the same player,
- a foundation's current top one rank lower, of the player who places the card, or
- an empty foundation of that player (a start; at most as many as that player has empty),

and every card and foundation top has at most one successor. Following the chains from each
foundation then gives every card its foundation, and at its turn the card lands exactly on its
predecessor, so a solution is a legal winning line and every winning line is a solution.

Empty foundations carry no identity in the model (starts are only counted), so their
permutations do not appear at all. The other freedom, which predecessor a card gets when several
would do, is cut down to one canonical choice (first come, first served; see `_build`); for a
player's foundations with equal tops that is "the lowest-numbered one first".

`core` relaxes the model to "a line of play that places at least the assumed cards" and
asks CP-SAT for a small set of cards no line of play can all place.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from puzzles.cards import rank
from puzzles.stapelen import PLAYERS, Move, Position, other, previous_rank

from ...result import WINNABLE, SatResult
from ...sat_core import checked_solve, new_solver, shrink_core, verdict

# One worker without the LP relaxation: on full deals and on hard partly played positions this
# beat two workers (default_lp + feasibility jump) by a wide margin; probing in presolve cost
# more than it saved.
WORKERS = 1
PARAMETERS = {"linearization_level": 0, "cp_model_probing_level": 0}


@dataclass
class _Model:
    model: cp_model.CpModel
    turns: int
    #: players[s]: who plays turn s
    players: list[str]
    #: x[card, s]: the card is placed at turn s (only for turns its column allows)
    x: dict[tuple[int, int], cp_model.IntVar]
    #: pred[d]: (what d lies on, literal); what is ("card", c), ("top", side, f) or ("start", side)
    pred: dict[int, list[tuple[tuple, cp_model.IntVar]]]
    #: placed[card]: the card is placed at all (core model only; the assumption literals)
    placed: dict[int, cp_model.IntVar]


def _sides(position: Position) -> dict[int, str]:
    """Side 0 is the player to move, side 1 the other."""
    return {0: position.to_move, 1: other(position.to_move)}


def _build(position: Position, core: bool) -> _Model:
    """The model; with `core`, cards may stay (only cards under an assumption must be placed)
    and the game may stop early, so that infeasibility under assumptions is a core."""
    model = cp_model.CpModel()
    cards = [(card, col, depth) for col, column in enumerate(position.columns) for depth, card in enumerate(column)]
    turns = len(cards)
    sides = _sides(position)
    players = [sides[s % 2] for s in range(turns)]
    column_of = {card: col for card, col, _ in cards}
    depth_of = {card: depth for card, _, depth in cards}
    piles = {side: position.foundations_of(sides[side]) for side in (0, 1)}
    empty = {side: sum(1 for pile in piles[side] if not pile) for side in (0, 1)}

    # Variables. A card has `above` cards over it, all placed at earlier turns; in a full line
    # the `depth` cards under it are placed later, which bounds its turn from above.
    x, turn, side, placed = {}, {}, {}, {}
    for card, col, depth in cards:
        above = len(position.columns[col]) - 1 - depth
        last = turns - 1 if core else turns - 1 - depth
        turn[card] = model.new_int_var(min(above, last), last, f"turn_{card}")
        side[card] = model.new_bool_var(f"side_{card}")
        for s in range(above, last + 1):
            x[card, s] = model.new_bool_var(f"x_{card}_{s}")
        if core:
            placed[card] = model.new_bool_var(f"placed_{card}")
    # Predecessor options of each card; a slot is what can take one successor: a foundation
    # top ("top", side, foundation) or a card ("card", c).
    pred: dict[int, list[tuple[tuple, cp_model.IntVar]]] = {card: [] for card, _, _ in cards}
    slot_rank = {("card", card): rank(card) for card, _, _ in cards}
    for s in (0, 1):
        for f, pile in enumerate(piles[s]):
            if pile:
                slot_rank["top", s, f] = rank(pile[-1])
    for d, _, _ in cards:
        for slot, r in slot_rank.items():
            beneath_d = slot[0] == "card" and column_of[slot[1]] == column_of[d] and depth_of[slot[1]] < depth_of[d]
            if r == previous_rank(rank(d)) and not beneath_d:
                pred[d].append((slot, model.new_bool_var(f"pred_{d}_{slot}")))
        for s in (0, 1):
            if empty[s]:
                pred[d].append((("start", s), model.new_bool_var(f"start_{s}_{d}")))
    active = [model.new_bool_var(f"active_{s}") for s in range(turns)] if core else []

    def side_is(s: int, card: int) -> cp_model.IntVar:
        return side[card] if s else side[card].Not()

    def if_placed(*cards_: int) -> list[cp_model.IntVar]:
        """The enforcement literals a constraint on these cards needs in the core model."""
        return [placed[c] for c in cards_] if core else []

    # Constraints: each card at one turn (core: at one turn if placed, else at none), and its
    # side is the parity of that turn.
    by_turn: dict[int, list[cp_model.IntVar]] = {s: [] for s in range(turns)}
    for card, _, _ in cards:
        at = [(s, var) for (c, s), var in x.items() if c == card]
        for s, var in at:
            by_turn[s].append(var)
        if core:
            model.add(sum(var for _, var in at) == placed[card])
        else:
            model.add_exactly_one(var for _, var in at)
        model.add(turn[card] == sum(s * var for s, var in at)).only_enforce_if(if_placed(card))
        model.add(side[card] == sum(var for s, var in at if s % 2))
    # Each turn places exactly one card (core: the active turns, a prefix).
    for s in range(turns):
        if core:
            model.add(sum(by_turn[s]) == active[s])
            if s:
                model.add_implication(active[s], active[s - 1])
        else:
            model.add_exactly_one(by_turn[s])
    if core:
        length = model.new_int_var(0, turns, "active_turns")
        model.add(length == sum(active))
        model.add(sum(placed.values()) == length)
        for card, _, _ in cards:
            model.add(turn[card] < length).only_enforce_if(placed[card])
    # Column order: the upper card first.
    for column in position.columns:
        for lower, upper in zip(column, column[1:]):
            if core:
                model.add_implication(placed[lower], placed[upper])
            model.add(turn[upper] < turn[lower]).only_enforce_if(if_placed(lower))
    # Successor chains: one predecessor per placed card; a card predecessor comes earlier from
    # the same side; a top or a start belongs to the side that places the card. Each slot has
    # at most one successor; `after[slot]` is its turn (`turns`: none).
    successors: dict[tuple, list[tuple[int, cp_model.IntVar]]] = {slot: [] for slot in slot_rank}
    starts: dict[int, list[tuple[int, cp_model.IntVar]]] = {0: [], 1: []}
    for d, options in pred.items():
        literals = [lit for _, lit in options]
        if core:
            model.add(sum(literals) == placed[d])
        else:
            model.add_exactly_one(literals)
        for what, lit in options:
            if what[0] == "card":
                c = what[1]
                if core:
                    model.add_implication(lit, placed[c])
                model.add(turn[d] >= turn[c] + 2).only_enforce_if(lit)
                model.add(side[d] == side[c]).only_enforce_if(lit)
                successors[what].append((d, lit))
            else:
                model.add_implication(lit, side_is(what[1], d))
                (successors[what] if what[0] == "top" else starts[what[1]]).append((d, lit))
    after = {}
    for slot, options in successors.items():
        model.add_at_most_one(lit for _, lit in options)
        after[slot] = model.new_int_var(0, turns, f"after_{slot}")
        model.add(after[slot] == turns).only_enforce_if([lit.Not() for _, lit in options])
        for d, lit in options:
            model.add(after[slot] == turn[d]).only_enforce_if(lit)
    for s in (0, 1):
        if starts[s]:
            model.add(sum(lit for _, lit in starts[s]) <= empty[s])

    # Symmetry breaking and dominance. With the turns fixed, a line stays legal when two slots
    # of one rank and side swap their successors' chains, when a successor moves from a slot to
    # an earlier free one, and when a card that starts an empty foundation moves onto an earlier
    # free slot instead. So keep only lines where the earlier slot (tops first, by foundation
    # number; then cards by turn) takes the earlier successor, none at all counting as latest,
    # and where no card starts a foundation while an earlier slot of its side stays free. For
    # foundations with equal tops this is the usual "lowest-numbered one first".
    before_cache: dict[tuple[int, int], cp_model.IntVar] = {}

    def before(c: int, d: int) -> cp_model.IntVar:
        """A literal for "card c is placed before card d"."""
        if (c, d) not in before_cache:
            lit = before_cache[c, d] = model.new_bool_var(f"before_{c}_{d}")
            model.add(turn[c] < turn[d]).only_enforce_if(lit)
            model.add(turn[c] >= turn[d]).only_enforce_if(lit.Not())
        return before_cache[c, d]

    same_cache: dict[frozenset, cp_model.IntVar] = {}

    def same_side(c: int, d: int) -> cp_model.IntVar:
        """A literal for "cards c and d are placed by the same player"."""
        key = frozenset((c, d))
        if key not in same_cache:
            lit = same_cache[key] = model.new_bool_var(f"same_{c}_{d}")
            model.add(side[c] == side[d]).only_enforce_if(lit)
            model.add(side[c] != side[d]).only_enforce_if(lit.Not())
        return same_cache[key]

    for a, r in slot_rank.items():
        for b, r_b in slot_rank.items():
            if a == b or r != r_b:
                continue
            if a[0] == "top" and b[0] == "top":
                if a[1] == b[1] and a[2] < b[2]:
                    model.add(after[a] <= after[b])
            elif a[0] == "top":
                model.add(after[a] <= after[b]).only_enforce_if([side_is(a[1], b[1]), *if_placed(b[1])])
            elif b[0] == "card":
                c1, c2 = a[1], b[1]
                model.add(after[a] <= after[b]).only_enforce_if([before(c1, c2), same_side(c1, c2), *if_placed(c1, c2)])
    for s in (0, 1):
        for d, lit in starts[s]:
            for slot, r in slot_rank.items():
                if r != previous_rank(rank(d)):
                    continue
                if slot[0] == "top" and slot[1] == s:
                    model.add(after[slot] < turns).only_enforce_if(lit)
                elif slot[0] == "card" and slot[1] != d:
                    c = slot[1]
                    model.add(after[slot] < turns).only_enforce_if([lit, before(c, d), side_is(s, c), *if_placed(c)])

    # Redundant: the cards of one rank on one side need as many predecessors of that side
    # (cards one rank lower, tops one rank lower, starts).
    if not core:
        for r in range(1, 14):
            for s in (0, 1):
                needing = [var for (c, t), var in x.items() if rank(c) == r and t % 2 == s]
                if not needing:
                    continue
                lower = [var for (c, t), var in x.items() if rank(c) == previous_rank(r) and t % 2 == s]
                giving = [lit for d, options in pred.items() if rank(d) == r
                          for what, lit in options if what[0] != "card" and what[1] == s]
                model.add(sum(needing) <= sum(lower) + sum(giving))
    return _Model(model, turns, players, x, pred, placed)


def _decode(position: Position, m: _Model, solver: cp_model.CpSolver) -> list[Move]:
    """The winning line in turn order: follow each card's predecessor to its foundation (a
    start goes to the side's lowest-numbered empty foundation not yet started)."""
    column_of = {card: col for col, column in enumerate(position.columns) for card in column}
    order = sorted((s, card) for (card, s), var in m.x.items() if solver.boolean_value(var))
    if [s for s, _ in order] != list(range(m.turns)):
        raise AssertionError(f"CP-SAT placed cards at turns {[s for s, _ in order]}")
    sides = _sides(position)
    piles = {p: [list(pile) for pile in position.foundations_of(p)] for p in PLAYERS}
    foundation_of: dict[int, int] = {}
    moves = []
    for s, card in order:
        player = m.players[s]
        (what,) = [what for what, lit in m.pred[card] if solver.boolean_value(lit)]
        if what[0] == "card":
            f = foundation_of[what[1]]
        elif what[0] == "top":
            f = what[2]
        else:
            f = next(i for i, pile in enumerate(piles[player]) if not pile)
        if what[0] != "card" and sides[what[1]] != player:
            raise AssertionError(f"CP-SAT puts {card} of {player} on the other player's foundation")
        pile = piles[player][f]
        moves.append(Move(player, card, column_of[card], f, pile[-1] if pile else None))
        pile.append(card)
        foundation_of[card] = f
    return moves


def solve(position: Position, time_limit: float | None = None) -> SatResult:
    """Winnable (with a line), unwinnable, or unknown within `time_limit` seconds (None: no limit)."""
    started = time.perf_counter()
    if position.remaining == 0:
        return SatResult(WINNABLE, seconds=time.perf_counter() - started)
    m = _build(position, core=False)
    # Search: decide the cards turn by turn, as a game is played (a few tens of percent faster
    # on full deals and on hard positions than CP-SAT's own choice).
    by_turn = sorted(m.x.items(), key=lambda item: (item[0][1], item[0][0]))
    m.model.add_decision_strategy([var for _, var in by_turn], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    solver = new_solver(time_limit, WORKERS, **PARAMETERS)
    found = verdict(checked_solve(solver, m.model))
    moves = _decode(position, m, solver) if found == WINNABLE else []
    return SatResult(found, moves, time.perf_counter() - started)


def core(position: Position, time_limit: float | None = None) -> tuple[list[int], bool] | None:
    """A small set of cards that no line of play from `position` places all of, and whether it
    is minimal (the greedy shrinking finished: dropping any one card lets one line of play
    place all the others); None if every card can be placed or the time runs out."""
    m = _build(position, core=True)
    cards = [card for column in position.columns for card in column]
    return shrink_core(m.model, m.placed, cards, time_limit, **PARAMETERS)
