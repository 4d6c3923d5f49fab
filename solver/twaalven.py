"""Solve and analyse Twaalven en veertienen: the Rust DFS first, CP-SAT for what it leaves open.

Every line either search finds is replayed by the reference rules before it is returned.
"""

from __future__ import annotations

from puzzles import twaalven as rules
from puzzles.twaalven import Move, Position

from . import twaalven_explain, twaalven_sat
from ._native import TwaalvenKernel
from .result import UNKNOWN, UNWINNABLE, WINNABLE, AnalyseResult, Budget, MoveVerdict, SolveResult, Stats

NAME = rules.NAME

_kernel: TwaalvenKernel | None = None


def kernel() -> TwaalvenKernel:
    """The process's kernel; its table (32 MiB by default) is reused across calls."""
    global _kernel
    if _kernel is None:
        _kernel = TwaalvenKernel()
    return _kernel


def line_from_columns(start: Position, column_pairs: list[tuple[int, int]]) -> list[Move]:
    """Turns the kernel's (column, column) line into moves, replaying each by the reference rules."""
    moves, position = [], start
    for ca, cb in map(sorted, column_pairs):
        move = Move(position.to_move, (position.columns[ca][-1], position.columns[cb][-1]), (ca, cb))
        position = position.apply(move)  # raises if the kernel proposed an illegal move
        moves.append(move)
    if not position.is_won():
        raise AssertionError("kernel line does not win when replayed by the reference rules")
    return moves


def decide(start: Position, budget: Budget) -> tuple[str, list[Move], Stats]:
    """Verdict and winning line for a position with a player to move, within `budget`."""
    verdict, pairs, nodes, seconds = kernel().solve(
        [list(c) for c in start.columns], 0 if start.to_move == "T" else 1,
        budget.nodes_left(), budget.seconds_left(),
    )
    budget.nodes_used += nodes
    stats = Stats(nodes=nodes, seconds=seconds, method="invariant" if nodes == 0 else "dfs")
    if verdict == WINNABLE:
        return verdict, line_from_columns(start, pairs), stats
    if verdict == UNWINNABLE:
        return verdict, [], stats
    seconds_left = budget.seconds_left()
    if seconds_left is not None and seconds_left <= 0:
        return UNKNOWN, [], stats
    sat = twaalven_sat.solve(start, time_limit=seconds_left)
    stats.seconds += sat.seconds
    stats.method = "dfs+cp-sat"
    if sat.verdict == WINNABLE and not rules.replay(start, sat.moves).is_won():
        raise AssertionError("CP-SAT line does not win when replayed by the reference rules")
    return sat.verdict, sat.moves, stats


def starters_of(position: Position) -> list[Position]:
    """The positions to search: the given one, or a deal with each possible starter."""
    if position.to_move is not None:
        return [position]
    return [position.start(player) for player in rules.PLAYERS]


def solve(position: Position, budget: Budget | None = None) -> SolveResult:
    """Is the deal (either starter) or position winnable, and how?"""
    budget = budget or Budget()
    total = Stats(method="")
    winners, solution, verdicts = [], [], []
    for start in starters_of(position):
        verdict, line, stats = decide(start, budget)
        verdicts.append(verdict)
        total.nodes += stats.nodes
        total.seconds += stats.seconds
        if stats.method not in total.method.split("+"):
            total.method = "+".join(filter(None, [total.method, stats.method]))
        if verdict == WINNABLE:
            winners.append(start.to_move)
            solution = solution or line
    if winners:
        overall = WINNABLE
    elif all(v == UNWINNABLE for v in verdicts):
        overall = UNWINNABLE
    else:
        overall = UNKNOWN
    explanation = None
    if overall == UNWINNABLE:
        explanation = twaalven_explain.short_reason(position)
    return SolveResult(
        game=NAME, verdict=overall, starters=winners, solution=solution,
        starter=winners[0] if winners else None, explanation=explanation, stats=total,
    )


def explain(position: Position, budget: Budget | None = None):
    """Why the deal or position cannot be won (or that it can), in checkable words."""
    return twaalven_explain.explain(position, budget or Budget())


def analyse(position: Position, budget: Budget | None = None, progress=iter) -> AnalyseResult:
    """For every legal move of the player to move (each starter, for a deal): does it keep the
    game winnable? Losing moves get a short reason where one is found. `progress` wraps the
    list of moves (e.g. in a progress bar)."""
    budget = budget or Budget()
    total = Stats()
    verdicts = []
    moves = [(start, move) for start in starters_of(position) for move in start.legal_moves()]
    for start, move in progress(moves):
        after = start.apply(move)
        verdict, _, stats = decide(after, budget)
        total.nodes += stats.nodes
        total.seconds += stats.seconds
        label = {WINNABLE: "keeps winnable", UNWINNABLE: "loses"}.get(verdict, UNKNOWN)
        reason = twaalven_explain.short_reason(after) if verdict == UNWINNABLE else None
        verdicts.append(MoveVerdict(move, label, reason))
    whole = solve(position, budget)
    total.nodes += whole.stats.nodes
    total.seconds += whole.stats.seconds
    return AnalyseResult(game=NAME, verdict=whole.verdict, moves=verdicts, stats=total)
