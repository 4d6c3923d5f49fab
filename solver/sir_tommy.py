"""Solve, maximise, analyse and explain Sir Tommy voor twee: the kernel's search (every line it
finds replayed by the reference rules), the most cards a player can hold in a win by branch and
bound, and short reasons why a position is lost.

Short reasons, each a proof on its own:
- stock and hand empty and no row top fits a foundation of either player;
- a card y that neither player can ever take, because for each player either no foundation
  can reach y's rank any more, or every foundation that could must first take a card of some
  rank s and every card of rank s still off the foundations lies beneath y in y's row (so it
  can only be played after y). With a full deck "no foundation can reach" never holds while
  a card of that rank is left (4 foundations, 4 cards a rank), so the buried cards carry it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from puzzles import sir_tommy as rules
from puzzles.cards import card_name, rank
from puzzles.sir_tommy import PLAYERS, SUPER_WINNER, EndTurn, Play, Position, turns

from ._native import SirTommyKernel
from .result import UNKNOWN, UNWINNABLE, WINNABLE, AnalyseResult, Budget, Explanation, MoveVerdict, SolveResult, Stats
from .words import a_rank

NAME = rules.NAME
SOLVE_OPTIONS = frozenset({"maximise"})
TABLE_ENTRIES = 1 << 22  # 160 MiB of 40-byte keys
MOVE_LABELS = {WINNABLE: "keeps winnable", UNWINNABLE: "loses"}

_kernel = None


def kernel() -> SirTommyKernel:
    """The process's kernel; its table is reused across searches of the same deal."""
    global _kernel
    if _kernel is None:
        _kernel = SirTommyKernel(TABLE_ENTRIES)
    return _kernel


def tops(position: Position, player: str) -> list[int]:
    return [rank(pile[-1]) if pile else 0 for pile in position.foundations_of(player)]


def line_from_kernel(start: Position, kernel_line) -> tuple[list, Position]:
    """The kernel's moves as reference moves, each applied by the rules; an end-phase play by
    the player not to move is preceded by the mover's end of turn. Returns the moves and the
    final position, which must be won."""
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
    if not position.is_won():
        raise AssertionError("sir-tommy: kernel line does not win when replayed by the reference rules")
    return moves, position


def search(position: Position, budget: Budget, goal: tuple[str, int] | None = None):
    """One kernel search within `budget`: (verdict, moves, final position or None, stats). With
    `goal` (player, target) only wins leaving that player at least `target` cards count."""
    if position.is_won():
        ok = goal is None or position.held(goal[0]) >= goal[1]
        return (WINNABLE if ok else UNWINNABLE), [], position if ok else None, Stats(method="rules")
    maximise = (PLAYERS.index(goal[0]), goal[1]) if goal else None
    verdict, line, nodes, seconds, _ = kernel().solve(
        list(position.stock), list(position.hand), [list(r) for r in position.rows], tops(position, "U"),
        tops(position, "D"), PLAYERS.index(position.to_move), position.top_rank, maximise,
        budget.nodes_left(), budget.seconds_left(),
    )
    budget.nodes_used += nodes
    stats = Stats(nodes=nodes, seconds=seconds, method="dfs")
    if verdict != WINNABLE:
        return verdict, [], None, stats
    moves, end = line_from_kernel(position, line)
    return verdict, moves, end, stats


@dataclass
class Maximum:
    """The most cards `player` can hold in a win: `held` is reached by the solution's line;
    `proven` says no win gives more (else the budget ran out first)."""

    player: str
    held: int
    proven: bool

    @property
    def super_winner(self) -> bool | None:
        """Whether `player` can be the super-winner (30 or more cards); None when not known."""
        if self.held >= SUPER_WINNER:
            return True
        return False if self.proven else None

    def to_json(self) -> dict:
        return {"player": self.player, "held": self.held, "proven_optimal": self.proven,
                "super_winner_possible": self.super_winner}


@dataclass
class SirTommyResult(SolveResult):
    """A solve result whose solution is shown turn by turn (see `turns`)."""

    start: Position | None = None
    held: dict = field(default_factory=dict)
    maximum: Maximum | None = None

    def to_json(self) -> dict:
        data = super().to_json()
        data["solution"] = [turn.to_json() for turn in turns(self.start, self.solution)]
        data["held"] = self.held
        if self.maximum is not None:
            data["maximise"] = self.maximum.to_json()
        return data

    def lines(self) -> list[str]:
        lines = [f"verdict: {self.verdict}"]
        if self.maximum is not None:
            m = self.maximum
            proven = "proven optimal" if m.proven else "not proven optimal: the budget ran out"
            lines.append(f"most cards {m.player} can hold in a win: {m.held} ({proven})")
            super_word = {True: "yes", False: "no", None: "not known"}[m.super_winner]
            lines.append(f"{m.player} can be the super-winner ({SUPER_WINNER}+ cards): {super_word}")
        if self.solution:
            lines.append(f"solution (U holds {self.held['U']}, D holds {self.held['D']}):")
            lines += [f"{n:3}. {turn}" for n, turn in enumerate(turns(self.start, self.solution), start=1)]
        if self.explanation:
            lines.append(f"why: {self.explanation}")
        if self.verdict == UNKNOWN:
            lines.append("the search hit its budget; raise --time-limit or --node-limit to decide it")
        return lines + [self.stats.line()]


def solve(position: Position, budget: Budget | None = None, maximise: str | None = None) -> SirTommyResult:
    """Is the deal or position winnable, and how; with `maximise` ("U" or "D"): the most cards
    that player can hold in a win, by raising the target one past each win found until the
    kernel proves no win reaches it (or the budget runs out)."""
    budget = budget or Budget()
    verdict, moves, end, stats = search(position, budget)
    maximum = None
    if verdict == WINNABLE and maximise:
        maximum = Maximum(maximise, end.held(maximise), False)
        while not budget.exhausted():
            found, better, better_end, more = search(position, budget, (maximise, maximum.held + 1))
            stats.nodes += more.nodes
            stats.seconds += more.seconds
            if found == WINNABLE:
                moves, end = better, better_end
                maximum.held = end.held(maximise)
            else:
                maximum.proven = found == UNWINNABLE
                break
        stats.method = "dfs+bound"
    return SirTommyResult(
        game=NAME, verdict=verdict, starters=["U"] if verdict == WINNABLE else [], solution=moves,
        starter="U" if moves else None, explanation=short_reason(position) if verdict == UNWINNABLE else None,
        stats=stats, start=position, held={p: end.held(p) for p in PLAYERS} if end else {}, maximum=maximum,
    )


def analyse(position: Position, budget: Budget | None = None, progress=iter) -> AnalyseResult:
    """For every play and every way to end the turn now: does it keep the game winnable?"""
    budget = budget or Budget()
    total, verdicts = Stats(), []
    for move in progress(position.legal_moves()):
        after = position.apply(move)
        verdict, _, _, stats = search(after, budget)
        total.nodes += stats.nodes
        total.seconds += stats.seconds
        reason = short_reason(after) if verdict == UNWINNABLE else None
        verdicts.append(MoveVerdict(move, MOVE_LABELS.get(verdict, UNKNOWN), reason))
    whole = search(position, budget)
    total.nodes += whole[3].nodes
    total.seconds += whole[3].seconds
    return AnalyseResult(game=NAME, verdict=whole[0], moves=verdicts, stats=total)


def explain(position: Position, budget: Budget | None = None) -> Explanation:
    """Why the deal or position cannot be won (or that it can): short reasons, else the
    exhaustive search's word."""
    budget = budget or Budget()
    verdict, _, _, stats = search(position, budget)
    if verdict == WINNABLE:
        return Explanation(WINNABLE, ["Winnable; `winnable solve` prints a winning line."], "none")
    if verdict == UNKNOWN:
        return Explanation(UNKNOWN, ["Not decided within the budget, so there is nothing to explain yet."], "none")
    found = reasons(position)
    if found:
        return Explanation(UNWINNABLE, found, "rules")
    return Explanation(
        UNWINNABLE,
        [f"No short reason found; the exhaustive search refuted every line of play ({stats.nodes} positions)."],
        "search",
    )


# --- short reasons ------------------------------------------------------------------------------


def off_foundations(position: Position) -> list[int]:
    return list(position.stock) + list(position.hand) + [c for row in position.rows for c in row]


def route_blocked(position: Position, player: str, y: int, beneath: list[int], remaining: list[int]) -> str | None:
    """Why `player` can never take card `y`, whose row holds `beneath` under it; None if they
    might. Ranks between a foundation's top and y's rank must all come first."""
    t = rank(y)
    piles = tops(position, player)
    if player == "U":
        open_tops = [p for p in piles if p < t]
        steps = range(max(open_tops, default=t) + 1, t)
    else:
        open_tops = [p or position.top_rank + 1 for p in piles if p == 0 or p > t]
        steps = range(t + 1, min(open_tops, default=t))
    if not open_tops:
        return f"every {player} foundation is past {a_rank(t)}"
    for s in steps:
        left = [c for c in remaining if rank(c) == s]
        if left and all(c in beneath for c in left):
            return (f"every {player} foundation must take {a_rank(s)} before it, and "
                    f"{'all of ' if len(left) > 1 else ''}{' '.join(card_name(c) for c in left)} lie{'' if len(left) > 1 else 's'} beneath it")
    return None


def reasons(position: Position) -> list[str]:
    """Sentences that each prove the position lost (possibly none)."""
    if position.is_won():
        return []
    found = []
    if position.is_lost():
        found.append("The stock is empty and no row top fits a foundation of either player.")
    remaining = off_foundations(position)
    for number, row in enumerate(position.rows, start=1):
        for depth, y in enumerate(row):
            why = [route_blocked(position, player, y, list(row[:depth]), remaining) for player in PLAYERS]
            if all(why):
                found.append(f"{card_name(y)} in row {number} can never be played: for U {why[0]}; for D {why[1]}.")
    return found


def short_reason(position: Position) -> str | None:
    found = reasons(position)
    return found[0] if found else None
