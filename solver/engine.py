"""The search flow every game shares: the Rust kernel within a budget, CP-SAT for what it leaves
open, every winning line replayed by the reference rules, and solve/analyse built on that.

A game supplies a `GameEngine`: how to hand a position to its kernel and read the kernel's line
back as moves, its CP-SAT solve (optional) and its short reasons why a position is lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from puzzles.lines import replay

from ._native import Kernel
from .result import UNKNOWN, UNWINNABLE, WINNABLE, AnalyseResult, Budget, Explanation, MoveVerdict, SolveResult, Stats

MOVE_LABELS = {WINNABLE: "keeps winnable", UNWINNABLE: "loses"}
#: How far ahead, and in how many lines at most, `explain` spells out a proof tree.
REFUTATION_DEPTH = 8
REFUTATION_LINES = 60


@dataclass
class GameEngine:
    name: str
    #: position -> (columns, to_move as 0/1, foundation tops): the kernel's view of a position
    to_kernel: Callable
    #: (position, (a, b)) -> the move the kernel's pair denotes in that position
    from_kernel: Callable
    #: position -> the positions to search: the given one, or a deal with each starter
    starts: Callable = lambda position: [position]
    #: (position, time_limit) -> object with verdict, moves and seconds; None: no CP-SAT model
    sat_solve: Callable | None = None
    #: position -> the sentences found that say why it is lost (possibly none)
    reasons: Callable = lambda position: []
    #: for games whose players are interchangeable: all of them win when one start does
    symmetric_players: tuple[str, ...] = ()
    table_entries: int = 1 << 22

    def __post_init__(self):
        self._kernel = None

    def kernel(self) -> Kernel:
        """The process's kernel for this game; its table is reused across calls."""
        if self._kernel is None:
            self._kernel = Kernel(self.name, self.table_entries)
        return self._kernel

    def line_from_kernel(self, start, pairs) -> list:
        """The kernel's line as moves, each applied by the reference rules; it must win."""
        moves, position = [], start
        for pair in pairs:
            move = self.from_kernel(position, pair)
            position = position.apply(move)  # raises if the kernel proposed an illegal move
            moves.append(move)
        if not position.is_won():
            raise AssertionError(f"{self.name}: kernel line does not win when replayed by the reference rules")
        return moves

    def decide(self, start, budget: Budget) -> tuple[str, list, Stats]:
        """Verdict and winning line for one position within `budget`: DFS, then CP-SAT."""
        columns, to_move, tops = self.to_kernel(start)
        verdict, pairs, nodes, seconds = self.kernel().solve(
            columns, to_move, tops, budget.nodes_left(), budget.seconds_left()
        )
        budget.nodes_used += nodes
        stats = Stats(nodes=nodes, seconds=seconds, method="invariant" if nodes == 0 else "dfs")
        if verdict == WINNABLE:
            return verdict, self.line_from_kernel(start, pairs), stats
        if verdict == UNWINNABLE or self.sat_solve is None:
            return verdict, [], stats
        seconds_left = budget.seconds_left()
        if seconds_left is not None and seconds_left <= 0:
            return UNKNOWN, [], stats
        sat = self.sat_solve(start, seconds_left)
        stats.seconds += sat.seconds
        stats.method = "dfs+cp-sat"
        if sat.verdict == WINNABLE and not replay(start, sat.moves).is_won():
            raise AssertionError(f"{self.name}: CP-SAT line does not win when replayed by the reference rules")
        return sat.verdict, sat.moves, stats

    def solve(self, position, budget: Budget | None = None) -> SolveResult:
        """Is the deal (every starter) or position winnable, and how?"""
        budget = budget or Budget()
        total = Stats(method="")
        winners, solution, starter, verdicts = [], [], None, []
        for start in self.starts(position):
            verdict, line, stats = self.decide(start, budget)
            verdicts.append(verdict)
            total.nodes += stats.nodes
            total.seconds += stats.seconds
            if stats.method not in total.method.split("+"):
                total.method = "+".join(filter(None, [total.method, stats.method]))
            if verdict == WINNABLE:
                winners.append(getattr(start, "to_move", None))
                if not solution:
                    solution, starter = line, winners[-1]
        if winners:
            overall = WINNABLE
        elif all(v == UNWINNABLE for v in verdicts):
            overall = UNWINNABLE
        else:
            overall = UNKNOWN
        if winners and self.symmetric_players:
            winners = list(self.symmetric_players)
        return SolveResult(
            game=self.name, verdict=overall, starters=[w for w in winners if w is not None],
            solution=solution, starter=starter,
            explanation=self.short_reason(position) if overall == UNWINNABLE else None, stats=total,
        )

    def short_reason(self, position) -> str | None:
        found = self.reasons(position)
        return found[0] if found else None

    def explain(self, position, budget: Budget | None = None) -> Explanation:
        """Why the deal or position cannot be won, or that it can."""
        result = self.solve(position, budget)
        if result.verdict == WINNABLE:
            return Explanation(WINNABLE, ["Winnable; `winnable solve` prints a winning line."], "none")
        if result.verdict == UNKNOWN:
            return Explanation(UNKNOWN, ["Not decided within the budget, so there is nothing to explain yet."], "none")
        found = self.reasons(position)
        if found:
            return Explanation(UNWINNABLE, found, "rules")
        tree = self.refutation(position)
        if tree is not None:
            return Explanation(UNWINNABLE, tree, "rules")
        nodes = result.stats.nodes
        return Explanation(
            UNWINNABLE,
            [f"No short reason found; the exhaustive search refuted every line of play ({nodes} positions)."],
            "search",
        )

    def refutation(self, position, depth: int = 0, indent: str = "", room: list | None = None) -> list[str] | None:
        """A small proof tree for a lost position with no short reason: every legal move,
        each followed by why the position after it is lost, up to REFUTATION_DEPTH moves ahead
        and REFUTATION_LINES lines. None when the tree does not fit."""
        room = room if room is not None else [REFUTATION_LINES]
        starts = self.starts(position)
        lines = []

        def add(line: str) -> bool:
            room[0] -= 1
            lines.append(line)
            return room[0] >= 0

        for start in starts:
            if len(starts) > 1 and not add(f"{indent}With {start.to_move} starting:"):
                return None
            for move in start.legal_moves():
                after = start.apply(move)
                reason = self.short_reason(after)
                if reason is not None:
                    if not add(f"{indent}After {move}: {reason}"):
                        return None
                    continue
                if depth + 1 >= REFUTATION_DEPTH or not add(f"{indent}After {move}, every next move loses:"):
                    return None
                deeper = self.refutation(after, depth + 1, indent + "  ", room)
                if deeper is None:
                    return None
                lines += deeper
        return lines or None

    def analyse(self, position, budget: Budget | None = None, progress=iter) -> AnalyseResult:
        """For every legal move (of each starter, for a deal): does it keep the game winnable?
        Losing moves get a short reason where one is found. `progress` wraps the move list."""
        budget = budget or Budget()
        total = Stats()
        verdicts = []
        moves = [(start, move) for start in self.starts(position) for move in start.legal_moves()]
        for start, move in progress(moves):
            after = start.apply(move)
            verdict, _, stats = self.decide(after, budget)
            total.nodes += stats.nodes
            total.seconds += stats.seconds
            reason = self.short_reason(after) if verdict == UNWINNABLE else None
            verdicts.append(MoveVerdict(move, MOVE_LABELS.get(verdict, UNKNOWN), reason))
        whole = self.solve(position, budget)
        total.nodes += whole.stats.nodes
        total.seconds += whole.stats.seconds
        return AnalyseResult(game=self.name, verdict=whole.verdict, moves=verdicts, stats=total)
