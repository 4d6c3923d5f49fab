"""Sir Tommy voor twee on the shared engine: the kernel's search first, the CP-SAT model (`sat`)
for what it leaves open and for the most cards a player can hold in a win (every line either
finds is replayed by the reference rules), and the short reasons of `reasons`, else a CP-SAT
unsat core, for why a position is lost."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from puzzles import sir_tommy as rules
from puzzles.cards import rank
from puzzles.sir_tommy import FOUNDATIONS, PLAYERS, SUPER_WINNER, EndTurn, Play, Position

from ..._native import SirTommyKernel
from ...contract import GameEntry, Option
from ...engine import Engine, verdict_of_moves
from ...result import (
    MOVE_LABELS, UNKNOWN, UNWINNABLE, WINNABLE, AnalyseResult, Budget, MoveVerdict, Objective, OptimumResult,
    SolveResult, Stats,
)
from . import picture, reasons

#: The kernel's share of the time left before CP-SAT takes over, and its time with no limit.
DFS_SHARE = 0.1
DFS_SECONDS = 3.0
#: The first CP-SAT run's seconds when maximising; each further run gets twice as long.
SAT_FIRST_SECONDS = 4.0


def held_title(result: SolveResult) -> str:
    held = result.details["held"]
    return f"solution (U holds {held['U']}, D holds {held['D']}):"


@dataclass
class SirTommyResult(SolveResult):
    """A decision, its line shown turn by turn with each player's cards at the end."""

    def line_title(self) -> str:
        return held_title(self)


@dataclass
class MostHeld(OptimumResult):
    """The most cards `player` can hold in a win: `value` is reached by the solution's line,
    `bound` is proven (no win gives more)."""

    player: str = "U"

    @property
    def super_winner(self) -> bool | None:
        """Whether `player` can be the super-winner (30 or more cards); None when not known."""
        if self.value >= SUPER_WINNER:
            return True
        return False if self.bound < SUPER_WINNER else None

    def head_lines(self) -> list[str]:
        super_word = {True: "yes", False: "no", None: "not known"}[self.super_winner]
        return super().head_lines() + [f"{self.player} can be the super-winner ({SUPER_WINNER}+ cards): {super_word}"]

    def line_title(self) -> str:
        return held_title(self)

    def to_json(self) -> dict:
        data = super().to_json()
        data["maximise"] = {"player": self.player, "held": self.value, "proven_optimal": self.optimal,
                            "super_winner_possible": self.super_winner}
        return data


def most_held_objective(player: str) -> Objective:
    return Objective("most_held", "upper_bound", minimise=False, winning=None,
                     words=f"most cards {player} can hold in a win")


class SirTommyEngine(Engine):
    name = rules.NAME
    sat_module = f"{__package__}.sat"
    core_verbs = ("plays", "played")

    #: 160 MiB of 40-byte keys of lost positions
    table_slot_bytes = 40
    table_slots = 1 << 22

    def new_kernel(self, table_entries: int) -> SirTommyKernel:
        """The kernel; its table is reused across searches of the same deal."""
        return SirTommyKernel(table_entries)

    # --- hooks ----------------------------------------------------------------------------------

    def turns(self, start: Position, moves: list) -> list:
        return rules.turns(start, moves)

    def reasons(self, position: Position) -> list[str]:
        return reasons.reasons(position)

    def core(self, position: Position, time_limit: float | None):
        return self.sat.core(position, time_limit)

    def where(self, position: Position, card: int) -> str:
        return reasons.where(position, card)

    # --- the search -----------------------------------------------------------------------------

    def line_from_kernel(self, start: Position, kernel_line) -> tuple[list, Position]:
        """The kernel's moves as reference moves, each applied by the rules; an end-phase play
        by the player not to move is preceded by the mover's end of turn. Returns the moves and
        the final position, which must be won."""
        moves, position = [], start
        for kind, player, card, row, foundation, placed in kernel_line:
            if kind == 0:
                mover = PLAYERS[player]
                if mover != position.to_move:
                    moves.append(EndTurn(position.to_move))
                    position = position.apply(moves[-1])
                pile = position.foundations_of(mover)[foundation]
                move = Play(mover, card, -1 if row == 255 else row, foundation, pile[-1] if pile else None)
            else:
                move = EndTurn(position.to_move, tuple(sorted(placed, key=lambda p: p[1])))
            position = position.apply(move)  # raises if the kernel proposed an illegal move
            moves.append(move)
        return moves, won_end(position, [], "kernel")

    def dfs(self, position: Position, budget: Budget, time_limit: float | None, seed: int = 0):
        """One kernel search within `budget` and `time_limit` seconds, its restart runs' orders
        drawn from `seed`: (verdict, moves, final position or None, stats)."""
        if position.is_won():
            return WINNABLE, [], position, Stats(method="rules")
        if budget.nodes_spent():  # not searched
            return UNKNOWN, [], None, Stats(method="dfs")
        verdict, line, nodes, seconds = self.kernel().solve(
            list(position.stock), list(position.hand), [list(r) for r in position.rows],
            reasons.tops(position, "U"), reasons.tops(position, "D"), PLAYERS.index(position.to_move),
            position.top_rank, budget.kernel_node_limit(), time_limit, seed,
        )
        budget.nodes_used += nodes
        stats = Stats(nodes=nodes, seconds=seconds, method="dfs")
        if verdict != WINNABLE:
            return verdict, [], None, stats
        moves, end = self.line_from_kernel(position, line)
        return verdict, moves, end, stats

    def search(self, position: Position, budget: Budget):
        """Is the position winnable: the kernel for its share of the time, then CP-SAT for the
        rest (the kernel decides almost every 4-row deal in milliseconds; CP-SAT proves fewer
        rows lost where the kernel would search for hours). A node limit binds the kernel only,
        and with no time limit beside it CP-SAT does not run (it could not be stopped).
        Returns (verdict, moves, final position or None, stats)."""
        left = budget.seconds_left()
        verdict, moves, end, stats = self.dfs(position, budget, DFS_SECONDS if left is None else left * DFS_SHARE)
        if verdict != UNKNOWN or not budget.models_may_run():
            return verdict, moves, end, stats
        answer = self.sat.solve(position, budget.seconds_left())
        stats.seconds += answer.seconds
        stats.method = "dfs+cp-sat"
        return answer.verdict, answer.moves, answer.end, stats

    def solve(self, position: Position, budget: Budget | None = None, maximise: str | None = None) -> SolveResult:
        """Is the deal or position winnable, and how; with `maximise` ("U" or "D"): the most
        cards that player can hold in a win, by CP-SAT started from the first win found. The
        starter is the player to move: U for a deal, the one the position names otherwise."""
        budget = budget or Budget()
        self.set_up(budget)
        verdict, moves, end, stats = self.search(position, budget)
        common = dict(
            game=self.name, verdict=verdict, starters=[position.to_move] if verdict == WINNABLE else [],
            explanation=self.short_reason(position) if verdict == UNWINNABLE else None, stats=stats, start=position,
        )
        if verdict != WINNABLE or not maximise:
            return SirTommyResult(solution=moves, starter=position.to_move if moves else None, turns=self.turns(position, moves),
                                  details={"held": {p: end.held(p) for p in PLAYERS} if end else {}}, **common)
        held, bound, moves, end = self.most_cards(position, maximise, moves, end, budget, stats)
        return MostHeld(solution=moves, starter=position.to_move, turns=self.turns(position, moves),
                        details={"held": {p: end.held(p) for p in PLAYERS}},
                        objective=most_held_objective(maximise), value=held, bound=bound, player=maximise, **common)

    def most_cards(self, position: Position, player: str, moves: list, end: Position, budget: Budget, stats: Stats):
        """The most cards `player` can hold in a win, starting from the win `moves` (ending in
        `end`): CP-SAT runs of doubling length, each with a new random seed and the best line so
        far as a hint, until one proves its answer optimal or the budget runs out (a single long
        run has a heavy tail: on seed 149 one took over 60 s where others take 3). Returns the
        most held found, the proven upper bound, its line and the won position it reaches."""
        held = end.held(player)
        bound = position.held(player) + position.remaining()  # every card not on the other's foundations
        limit, attempt = SAT_FIRST_SECONDS, 0
        while held < bound and budget.models_may_run():
            left = budget.seconds_left()
            answer = self.sat.solve(position, limit if left is None else min(limit, left), player, held,
                               hint=moves, seed=attempt)
            stats.seconds += answer.seconds
            stats.method = "dfs+cp-sat"
            if answer.verdict == UNWINNABLE:
                raise AssertionError("sir-tommy CP-SAT model refutes a win the kernel found and the rules replayed")
            if answer.bound is not None:
                bound = min(bound, answer.bound)
            if answer.verdict == WINNABLE:
                moves, end, held = answer.moves, answer.end, answer.held
                if answer.proven:
                    bound = held
            limit, attempt = 2 * limit, attempt + 1
        return held, bound, moves, end

    def analyse(self, position: Position, budget: Budget | None = None, progress: Callable = iter) -> AnalyseResult:
        """For every play and every way to end the turn now: does it keep the game winnable?
        Moves that reach the same position up to the order of rows and of foundations (a card
        on one empty row or another) get one answer, under the first of them. Moves whose
        positions are the same up to suits as well (one placing TC where another places TH) are
        searched once: suits never matter, so a win of one, its cards, rows and foundations
        renamed, is a win of the other (replayed by the rules), and a loss of one the other's.

        The position is searched first, with a quarter of the time: if it is lost, every move
        loses; if it is won, its line's first move keeps it winnable. Then each other move gets
        the kernel alone for an equal share of half the time left (most are decided in
        milliseconds); the moves still open get kernel rounds (`kernel_rounds`) for half the
        time then left, and what is still open an equal share of the rest for the kernel and
        CP-SAT, so that no hard move starves the others. (On 4 rows the kernel's rounds decide
        far more than CP-SAT; with fewer rows CP-SAT proves positions lost that the kernel
        cannot.)"""
        budget = budget or Budget()
        self.set_up(budget)
        whole, line, _, total = self.search_part(position, budget, 4)
        after = {}
        for move in sorted(position.legal_moves(), key=lowest_rows_first):
            reached = position.apply(move)
            after.setdefault(rules.canonical(reached), (move, reached))
        after = dict(after.values())
        moves = list(after)
        twins = {}
        for move in moves:
            twins.setdefault(suit_form(after[move]).key, []).append(move)
        # found[m]: the verdict of m's twins and, when won, a position of their form and its win
        found = {group[0]: (whole, None, []) for group in twins.values() if whole == UNWINNABLE}
        if line:
            reached = position.apply(line[0])
            found[twins[suit_form(reached).key][0]] = (WINNABLE, reached, line[1:])
        searched = [group[0] for group in twins.values() if group[0] not in found]
        for done, move in enumerate(progress(searched)):
            left = budget.seconds_left()
            verdict, win, _, stats = self.dfs(after[move], budget, None if left is None else left / 2 / (len(searched) - done))
            found[move] = (verdict, after[move], win)
            total.add(stats)
        left = budget.seconds_left()
        if left is not None:
            self.kernel_rounds([move for move in searched if found[move][0] == UNKNOWN], after, found, budget, total,
                               left / 2)
        open_moves = [move for move in searched if found[move][0] == UNKNOWN]
        for done, move in enumerate(progress(open_moves)):
            verdict, win, _, stats = self.search_part(after[move], budget, len(open_moves) - done)
            found[move] = (verdict, after[move], win)
            total.add(stats)
        verdict = {}
        for group in twins.values():
            verdict_of_twins, source, win = found[group[0]]
            for move in group:
                if verdict_of_twins == WINNABLE:
                    won_end(after[move], renamed(win, source, after[move]), "renamed twin")
                verdict[move] = verdict_of_twins
        verdicts = [
            MoveVerdict(move, MOVE_LABELS[verdict[move]],
                        self.short_reason(after[move]) if verdict[move] == UNWINNABLE else None)
            for move in moves
        ]
        return AnalyseResult(self.name, verdict_of_moves(whole, verdicts), verdicts, total)

    def kernel_rounds(self, moves: list, after: dict, found: dict, budget: Budget, total: Stats, seconds: float):
        """Kernel searches of the open `moves` (reaching positions `after[move]`) for `seconds`,
        in rounds: each gives every move still open twice the time of the round before (the
        first a quarter of an equal share), with restart orders of a new seed, since the time a
        move needs varies a thousandfold between near twins. Fills in `found` as `analyse` keeps
        it, and `total`."""
        end = budget.seconds_left() - seconds
        limit, seed = seconds / max(1, len(moves)) / 4, 1
        while moves and budget.seconds_left() > end and not budget.exhausted():
            for move in moves:
                time_limit = min(limit, budget.seconds_left() - end)
                if time_limit <= 0:
                    break
                verdict, win, _, stats = self.dfs(after[move], budget, time_limit, seed)
                found[move] = (verdict, after[move], win)
                total.add(stats)
            moves = [move for move in moves if found[move][0] == UNKNOWN]
            limit, seed = 2 * limit, seed + 1

    def search_part(self, position: Position, budget: Budget, parts: int):
        """`search` within one of `parts` equal shares of the time `budget` has left (and all its
        nodes left); the nodes used count against `budget`."""
        part = budget.part(parts)
        found = self.search(position, part)
        budget.spend(part)
        return found


def won_end(start: Position, moves: list, source: str) -> Position:
    """The position `moves` reach from `start` by the reference rules, which must be won (an
    illegal move raises); `source` names where the line came from."""
    position = start
    for move in moves:
        position = position.apply(move)
    if not position.is_won():
        raise AssertionError(f"sir-tommy: {source} line does not win when replayed by the reference rules")
    return position


@dataclass(frozen=True)
class SuitForm:
    """A position with suits and the order of rows and of each player's foundations left out
    (`key`), and what is in each place of that form: the cards (stock, hand by rank, rows,
    foundations), the rows and the foundations in the form's order."""

    key: tuple
    cards: tuple
    rows: tuple
    piles: tuple


def suit_form(position: Position) -> SuitForm:
    def ranks(cards) -> tuple:
        return tuple(rank(card) for card in cards)

    rows = tuple(sorted(range(len(position.rows)), key=lambda r: ranks(position.rows[r])))
    piles = tuple(tuple(sorted(range(FOUNDATIONS), key=lambda f: ranks(side[f]))) for side in position.foundations)
    hand = sorted(position.hand, key=rank)
    cards = (*position.stock, *hand, *(c for r in rows for c in position.rows[r]),
             *(c for order, side in zip(piles, position.foundations) for f in order for c in side[f]))
    key = (position.to_move, ranks(position.stock), ranks(hand), tuple(ranks(position.rows[r]) for r in rows),
           tuple(tuple(ranks(side[f]) for f in order) for order, side in zip(piles, position.foundations)))
    return SuitForm(key, cards, rows, piles)


def renamed(moves: list, source: Position, target: Position) -> list:
    """`moves`, a line from `source`, as the same line from `target`, a position of the same
    `suit_form`: each card, row and foundation becomes the one in its place in `target`."""
    a, b = suit_form(source), suit_form(target)
    card, row = dict(zip(a.cards, b.cards)), dict(zip(a.rows, b.rows))
    pile = {player: dict(zip(x, y)) for player, x, y in zip(PLAYERS, a.piles, b.piles)}
    return [
        Play(m.player, card[m.card], m.source if m.source < 0 else row[m.source], pile[m.player][m.foundation],
             None if m.onto is None else card[m.onto])
        if isinstance(m, Play) else EndTurn(m.player, tuple((card[c], row[r]) for c, r in m.placements))
        for m in moves
    ]


def lowest_rows_first(move) -> tuple:
    """Plays first, then ends of turn by the rows they use, so that of the moves reaching the same
    position the one shown places its cards on the lowest rows."""
    return (isinstance(move, EndTurn), tuple(row for _, row in getattr(move, "placements", ())))


GAME = GameEntry(
    rules=rules,
    engine=SirTommyEngine(),
    picture=picture.picture,
    options=(
        Option("rows", "sir-tommy: rows", low=1, high=rules.MAX_ROWS, default=rules.DEFAULT_ROWS),
        Option("maximise", "sir-tommy: the most cards this player can hold in a win", choices=("U", "D"),
               target="solve"),
    ),
    formats="""\
sir-tommy: a deal is the stock, top card first, any whitespace. A position has
one line per row (bottom first, '-' empty) and the lines
  stock: 7S 2D ...   (top first, '-' empty)   U: AS 2S, AH, -, -   (bottom first)
  hand: 3S           (drawn, not yet played)  D: KC, -, -, -
  to-move: U|D       (leave out hand: at the start of a turn; the mover draws)""",
    json_fields="""\
sir-tommy: a turn is {"player": "U"|"D", "drew": ["4H", ...], "plays": [{"card",
"from": "drawn"|"row N", "foundation": N}], "placed": [{"card", "row"}]} (end-phase
turns: no drew/placed; a pass: no plays; the first turn from a position with
hand: no drew); analyse's "move" is one play {"card", "from", "foundation"} or the
end of a turn {"placed": [...]}, its player in "notation"; "held" gives each player's
cards at the end ({} without a line); with --maximise, once a win is found, also
most_held, upper_bound, optimal and "maximise": {"player", "held", "proven_optimal",
"super_winner_possible"}.""",
    test_variants=({}, {"rows": 6}, {"rows": 2}),
)
