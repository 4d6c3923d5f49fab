"""The flows every game shares, on hooks each game's engine overrides.

`Engine` holds what every command does the same way for every game: `explain` (solve, then the
game's short reasons, its CP-SAT unsat core, a small proof tree, or the search's word), the
analysis of every legal move, and the starts of a deal whose players choose who begins.
`DecisionEngine` adds the search flow of a win-or-lose game: the Rust kernel within a budget,
CP-SAT for what it leaves open, and every winning line replayed by the reference rules.
Optimisation games (The Game and its editions) override `solve` and `analyse` and answer with
`OptimumResult`s; `explain` then asks them for `optimum_reasons`.
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from typing import Callable

from puzzles.lines import replay

from ._native import Kernel
from .result import (
    KEEPS, LOSES, MOVE_LABELS, UNKNOWN, UNWINNABLE, WINNABLE, AnalyseResult, Budget, Explanation, MoveVerdict,
    Objective, OptimumResult, Refutation, SatResult, SolveResult, Stats,
)
from .words import core_sentence, where

#: How far ahead, and in how many lines at most, `explain` spells out a proof tree.
REFUTATION_DEPTH = 8
REFUTATION_LINES = 60
NOT_DECIDED = "Not decided within the budget, so there is nothing to explain yet."
#: What explain says of a position already won: solve has no line to print there.
ALREADY_WON = "Won already: nothing is left to play, so `winnable solve` prints no line."
#: What explain says of a start lost with no short reason: the exhaustive search's word alone.
SEARCH_REFUTED = "the exhaustive search refuted every line"


class Engine:
    """A game's engine: the shared flows, and the hooks a game overrides (below)."""

    name: str = ""
    #: the players, when the players of a deal choose who starts (each is tried)
    starters: tuple = ()
    #: CP-SAT unsat cores in words: a win "takes" every card; without one, the rest can be "taken"
    core_verbs: tuple[str, str] = ("takes", "taken")
    #: The kernel's table of proven positions: the bytes of one slot (an entry, or a bucket of
    #: entries), the entries a slot holds, and the slots of the game's own size. The kernels
    #: make a power of two of slots. 0 bytes: the game keeps no table.
    table_slot_bytes: int = 0
    table_slot_entries: float = 1
    table_slots: int = 0
    #: the name of the game's CP-SAT module (`solve(position, time_limit)`, `core(position,
    #: time_limit)`), if any: imported when a model first runs, since OR-Tools takes half a
    #: second to import and most commands run none
    sat_module: str | None = None
    #: False for a game whose verdict is never `unwinnable` (Etalage: nobody wins alone), so
    #: that `generate --unwinnable` is refused rather than solving every seed for nothing
    proves_unwinnable: bool = True

    def __init__(self):
        self._kernel = None
        self._kernel_entries = self.table_entries()

    @property
    def sat(self):
        """The game's CP-SAT module (see `sat_module`), or None. Reading it imports the module:
        ask `sat_module` whether the game has one (`self.sat is None` cost half a second)."""
        return None if self.sat_module is None else importlib.import_module(self.sat_module)

    # --- hooks --------------------------------------------------------------------------------

    def solve(self, position, budget: Budget | None = None, **options) -> SolveResult:
        raise NotImplementedError

    def new_kernel(self, table_entries: int):
        """The game's Rust kernel with a table of `table_entries`, made once by `kernel` (None:
        the game keeps none)."""
        return None

    def starts(self, position) -> list:
        """The positions a deal is searched from: one per starter when the players choose who
        starts and the position names no player to move yet, else the position itself."""
        if self.starters and position.to_move is None:
            return [position.start(player) for player in self.starters]
        return [position]

    def turns(self, start, moves: list) -> list:
        """The line as the game shows it, turn by turn (default: every move is a turn)."""
        return list(moves)

    def reasons(self, position) -> list[str]:
        """Sentences that each prove the position lost (possibly none)."""
        return []

    def core(self, position, time_limit: float | None) -> tuple[list[int], bool] | None:
        """A CP-SAT unsat core: cards no line of play gets all of, and whether the set is
        minimal; None when the game has no model, or none is found in time."""
        return None

    def where(self, position, card: int) -> str:
        """Where a card lies, for sentences: 'QC (col 1, top)'."""
        return where(position, card)

    def winnable_reasons(self, position, result: SolveResult) -> tuple[list[str], str]:
        """What explain says of a winnable deal or position (who can start, and for a deal that
        some starters lose, why they do), and its method: none when no starter loses, rules
        when a short reason proves some starter's loss, else search (the search refuted them)."""
        if not self.starters or position.to_move is not None:
            mover = f" with {position.to_move} to move" if position.to_move is not None else ""
            return [f"Winnable{mover}; `winnable solve` prints a winning line."], "none"
        undecided = list(map(str, result.undecided))
        losers = [player for player in self.starters if str(player) not in result.starters + undecided]
        if not losers and not undecided:
            return ["Winnable whoever starts; `winnable solve` prints a winning line."], "none"
        who = " or ".join(map(str, result.starters))
        only = "" if undecided else " only"
        found = [f"Winnable{only} with {who} starting; `winnable solve` prints a winning line."]
        found += [f"With {player} starting it is not decided within the budget; raise --time-limit or "
                  "--node-limit to decide it." for player in undecided]
        method = "search" if losers else "none"
        for loser in losers:
            why = self.short_reason(position.start(loser))
            if why:
                method = "rules"
            found.append(f"With {loser} starting it is lost: {why}" if why else
                         f"With {loser} starting it is lost; {SEARCH_REFUTED}.")
        return found, method

    def optimum_reasons(self, position, result: OptimumResult, budget: Budget) -> list[str]:
        """What explain says of an optimisation's result (optimisation games override it)."""
        raise NotImplementedError

    # --- shared flows ---------------------------------------------------------------------------

    def kernel(self):
        """The process's kernel for this game, made on first use; its table is reused across calls."""
        if self._kernel is None:
            self._kernel = self.new_kernel(self._kernel_entries)
        return self._kernel

    def forget_kernel(self) -> None:
        """Drops the kernel and its table: the next search makes them anew (a process forked
        from one that has searched starts with that one's)."""
        self._kernel = None

    def table_entries(self, mib: int | None = None) -> int:
        """The entries of the largest table the kernels make within `mib` MiB (a power of two of
        slots, at least one); None: the game's own size."""
        if not self.table_slot_bytes:
            return 0
        slots = self.table_slots if mib is None else 1 << max(0, ((mib << 20) // self.table_slot_bytes).bit_length() - 1)
        return int(slots * self.table_slot_entries)

    def table_mib(self, mib: int | None = None) -> float:
        """The MiB the table of `table_entries(mib)` takes."""
        return self.table_entries(mib) / self.table_slot_entries * self.table_slot_bytes / 2**20

    def set_up(self, budget: Budget) -> None:
        """Makes the kernel, with the table size `budget.table_mib` asks (None: the table made
        already, or the game's own size), off `budget`'s clock. Every command calls it before
        it shares out its budget: made inside the first search, the table's allocation took
        that search's share of the time (a starter reported unsearched, a verdict that changed
        from run to run)."""
        wanted = self._kernel_entries if budget.table_mib is None else self.table_entries(budget.table_mib)
        if wanted != self._kernel_entries:
            self._kernel, self._kernel_entries = None, wanted
        budget.untimed(self.kernel)

    def short_reason(self, position) -> str | None:
        found = self.reasons(position)
        return found[0] if found else None

    def explain(self, position, budget: Budget | None = None) -> Explanation:
        """Why the deal or position cannot be won, or that it can (and by whom), naming the game."""
        return replace(self.explanation(position, budget or Budget()), game=self.name)

    def explanation(self, position, budget: Budget) -> Explanation:
        """`explain`'s answer, its game not yet named."""
        result = self.solve(position, budget)
        if isinstance(result, OptimumResult):
            method = "rules" if result.verdict == WINNABLE else "search"
            return Explanation(result.verdict, self.optimum_reasons(position, result, budget), method)
        if result.verdict == WINNABLE and position.is_won():
            return Explanation(WINNABLE, [ALREADY_WON], "none")
        if result.verdict == WINNABLE:
            return Explanation(WINNABLE, *self.winnable_reasons(position, result))
        if result.verdict == UNKNOWN:
            return Explanation(UNKNOWN, [NOT_DECIDED], "none")
        found = self.reasons(position)
        if found:
            return Explanation(UNWINNABLE, found, "rules")
        starts = self.starts(position)
        lines, methods, proofs, spelled = [], [], [], []
        for start in starts:
            found, method, tree = self.lost_reason(start, budget)
            if len(starts) > 1:
                found[0] = f"With {start.to_move} starting: {found[0]}"
            if tree is not None:
                proofs.append((start, tree))
                spelled += range(len(lines), len(lines) + len(found))
            lines += found
            methods.append(method)
        method = next(m for m in ("cp-sat core", "rules", "search") if m in methods)
        return Explanation(UNWINNABLE, lines, method, proofs, spelled)

    def lost_reason(self, start, budget: Budget) -> tuple[list[str], str, Refutation | None]:
        """Why one start is lost, best first: a short reason, the CP-SAT unsat core, a proof
        tree of short reasons a few moves deep (also returned), or the exhaustive search's word."""
        text = self.short_reason(start)
        if text is not None:
            return [text], "rules", None
        core = self.core(start, budget.seconds_left()) if budget.models_may_run() else None
        if core is not None:
            return [core_sentence(start, *core, *self.core_verbs, name=self.where)], "cp-sat core", None
        tree = self.refutation(start)
        if tree is not None:
            return tree.lines(), "rules", tree
        return [f"No short reason found; {SEARCH_REFUTED} of play."], "search", None

    def refutation(self, position, depth: int = 0, room: list | None = None) -> Refutation | None:
        """A small proof tree for a lost position with no short reason: every legal move,
        each followed by why the position after it is lost, up to REFUTATION_DEPTH moves ahead
        and REFUTATION_LINES moves in all. None when the tree does not fit."""
        room = room if room is not None else [REFUTATION_LINES]
        replies = []
        for move in position.legal_moves():
            room[0] -= 1
            if room[0] < 0:
                return None
            after = position.apply(move)
            reason = self.short_reason(after)
            if reason is not None:
                replies.append(Refutation(move, reason))
                continue
            deeper = self.refutation(after, depth + 1, room) if depth + 1 < REFUTATION_DEPTH else None
            if deeper is None:
                return None
            replies.append(Refutation(move, replies=deeper.replies))
        return Refutation(replies=tuple(replies)) if replies else None

    def analyse(self, position, budget: Budget | None = None, progress: Callable = iter) -> AnalyseResult:
        """For every legal move (of each starter, for a deal): does it keep the game winnable?
        The whole position is searched first with a quarter of the time; then every move gets
        an equal share of what is left, and the moves still open share what their first pass
        left over (an open move early in the list had the smallest share). Losing moves get a
        short reason where one is found."""
        budget = budget or Budget()
        self.set_up(budget)
        whole = self.solve(position, budget.part(4))
        total = Stats(method="")
        total.add(whole.stats)
        budget.nodes_used += whole.stats.nodes
        moves = [(start, move) for start in self.starts(position) for move in start.legal_moves()]
        after = [start.apply(move) for start, move in moves]  # each move applied once
        first = self.first_moves(whole)
        verdicts: dict[int, str] = {}

        def search(index: int, parts: int) -> None:
            part = budget.part(parts)
            found = self.solve(after[index], part)
            budget.spend(part)
            total.add(found.stats)
            verdicts[index] = found.verdict

        for index, (start, move) in enumerate(progress(moves)):
            if whole.verdict == UNWINNABLE or (start.to_move, move) in first:
                verdicts[index] = whole.verdict
            else:
                search(index, len(moves) - index)
        still_open = [] if budget.exhausted() else [index for index, verdict in verdicts.items() if verdict == UNKNOWN]
        for done, index in enumerate(progress(still_open)):
            if budget.exhausted():
                break
            search(index, len(still_open) - done)
        labelled = [MoveVerdict(move, MOVE_LABELS[verdicts[index]],
                                self.short_reason(after[index]) if verdicts[index] == UNWINNABLE else None)
                    for index, (_, move) in enumerate(moves)]
        return AnalyseResult(self.name, verdict_of_moves(whole.verdict, labelled), labelled, total)

    def analyse_over(self, position, budget: Budget, objective: Objective | None = None) -> AnalyseResult:
        """The analysis of a position without legal moves: its verdict is solve's (the rules'
        alone: the game is over), as `analyse` gives it in every game, with no moves."""
        over = self.solve(position, budget)
        return AnalyseResult(self.name, over.verdict, [], over.stats, objective)

    def first_moves(self, result: SolveResult) -> set:
        """(mover, move) of the first move of the solution: it keeps the game winnable."""
        return {(result.start.to_move, result.solution[0])} if result.solution else set()


def verdict_of_moves(whole: str, moves: list[MoveVerdict]) -> str:
    """The position's verdict, given its own search's and its moves': a move that keeps it
    winnable makes it winnable, and when every move loses it is lost."""
    if whole != UNKNOWN or not moves:
        return whole
    if any(m.verdict == KEEPS for m in moves):
        return WINNABLE
    return UNWINNABLE if all(m.verdict == LOSES for m in moves) else UNKNOWN


class DecisionEngine(Engine):
    """A win-or-lose game searched by the column games' kernel (`solver._native.Kernel`),
    with an optional CP-SAT model for what the kernel's budget leaves open."""

    #: 32 MiB of 8-byte keys of lost positions
    table_slot_bytes = 8
    table_slots = 1 << 22

    # --- hooks ----------------------------------------------------------------------------------

    def to_kernel(self, position) -> tuple[list, int, list]:
        """The kernel's view of a position: (columns, player to move as 0/1, foundation tops)."""
        raise NotImplementedError

    def from_kernel(self, position, pair: tuple[int, int]):
        """The move the kernel's pair of numbers denotes in `position`."""
        raise NotImplementedError

    def core(self, position, time_limit: float | None):
        return None if self.sat_module is None else self.sat.core(position, time_limit)

    def symmetric_starters(self, position) -> tuple:
        """The players who can each start `position`, interchangeable by the rules, so that when
        one start wins every one of them can; () where the position fixes who moves (default)."""
        return ()

    # --- the search -----------------------------------------------------------------------------

    def new_kernel(self, table_entries: int) -> Kernel:
        return Kernel(self.name, table_entries)

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
        if start.is_won():
            return WINNABLE, [], Stats(method="rules")
        if budget.nodes_spent():  # not searched: unknown, unless CP-SAT decides it below
            verdict, pairs, stats = UNKNOWN, [], Stats(method="dfs")
        else:
            columns, to_move, tops = self.to_kernel(start)
            verdict, pairs, nodes, seconds = self.kernel().solve(
                columns, to_move, tops, budget.kernel_node_limit(), budget.seconds_left()
            )
            budget.nodes_used += nodes
            stats = Stats(nodes=nodes, seconds=seconds, method="invariant" if nodes == 0 else "dfs")
        if verdict == WINNABLE:
            return verdict, self.line_from_kernel(start, pairs), stats
        if verdict == UNWINNABLE or self.sat_module is None or not budget.models_may_run():
            return verdict, [], stats
        sat: SatResult = self.sat.solve(start, budget.seconds_left())
        stats.seconds += sat.seconds
        stats.method = "dfs+cp-sat"
        if sat.verdict == WINNABLE and not replay(start, sat.moves).is_won():
            raise AssertionError(f"{self.name}: CP-SAT line does not win when replayed by the reference rules")
        return sat.verdict, sat.moves, stats

    def solve(self, position, budget: Budget | None = None) -> SolveResult:
        """Is the deal (every starter) or position winnable, and how?"""
        budget = budget or Budget()
        self.set_up(budget)
        total = Stats(method="")
        winners, undecided, solution, start_of_line, verdicts = [], [], [], None, []
        for start in self.starts(position):
            verdict, line, stats = self.decide(start, budget)
            verdicts.append(verdict)
            total.add(stats)
            if verdict == UNKNOWN and start.to_move is not None and position.to_move is None:
                undecided.append(start.to_move)
            if verdict == WINNABLE:
                winners.append(start.to_move)
                if start_of_line is None:
                    solution, start_of_line = line, start
        if winners:
            overall = WINNABLE
        elif all(v == UNWINNABLE for v in verdicts):
            overall = UNWINNABLE
        else:
            overall = UNKNOWN
        symmetric = self.symmetric_starters(position)
        if winners and symmetric:
            winners, undecided = list(symmetric), []
        elif overall == UNKNOWN and symmetric:  # each could start, so the budget left both open
            undecided = list(symmetric)
        start = start_of_line if start_of_line is not None else position
        return SolveResult(
            game=self.name, verdict=overall, starters=[w for w in winners if w is not None],
            solution=solution, starter=start.to_move if start_of_line is not None else None,
            explanation=self.short_reason(position) if overall == UNWINNABLE else None, stats=total,
            start=start, turns=self.turns(start, solution), undecided=undecided,
        )
