"""Result types shared by every game: verdicts, budgets, statistics and what solve/analyse return."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

WINNABLE, UNWINNABLE, UNKNOWN = "winnable", "unwinnable", "unknown"


@dataclass
class Budget:
    """Node and time limits shared by every search one command makes.

    `node_limit` 0 means no node limit. The clock starts when the budget is made.
    """

    time_limit: float | None = 30.0
    node_limit: int = 0
    started: float = field(default_factory=time.perf_counter)
    nodes_used: int = 0

    def seconds_left(self) -> float | None:
        if self.time_limit is None:
            return None
        return max(0.0, self.time_limit - (time.perf_counter() - self.started))

    def nodes_left(self) -> int:
        """Nodes the next search may use; 0 means unlimited (kernel convention)."""
        if self.node_limit == 0:
            return 0
        return max(1, self.node_limit - self.nodes_used)

    def exhausted(self) -> bool:
        out_of_time = self.time_limit is not None and self.seconds_left() == 0
        return out_of_time or (self.node_limit != 0 and self.nodes_used >= self.node_limit)


@dataclass
class Stats:
    nodes: int = 0
    seconds: float = 0.0
    method: str = "dfs"  # "dfs", "cp-sat", "invariant", or "dfs+cp-sat"

    def to_json(self) -> dict:
        return {"nodes": self.nodes, "seconds": round(self.seconds, 6), "method": self.method}

    def line(self) -> str:
        return f"stats: {self.nodes} nodes, {self.seconds:.6f} s, method {self.method}"


@dataclass
class SolveResult:
    """The answer to "is this deal or position winnable, and how?"."""

    game: str
    verdict: str
    starters: list[str]
    solution: list  # moves from the start, in the game's Move type
    starter: str | None  # who moves first in `solution`
    explanation: str | None
    stats: Stats

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "verdict": self.verdict,
            "starters": self.starters,
            "starter": self.starter,
            "solution": [move.to_json() for move in self.solution],
            "explanation": self.explanation,
            "stats": self.stats.to_json(),
        }

    def lines(self) -> list[str]:
        """The text `solve` prints: verdict, winning starters, the numbered line, why, stats."""
        lines = [f"verdict: {self.verdict}"]
        if self.starters:
            lines.append(f"winning starter(s): {', '.join(self.starters)}")
        if self.solution:
            lines.append(f"solution ({self.starter} starts):" if self.starter else "solution:")
            lines += [f"{number:3}. {move}" for number, move in enumerate(self.solution, start=1)]
        if self.explanation:
            lines.append(f"why: {self.explanation}")
        if self.verdict == UNKNOWN:
            lines.append("the search hit its budget; raise --time-limit or --node-limit to decide it")
        return lines + [self.stats.line()]


@dataclass
class MoveVerdict:
    move: object
    verdict: str  # "keeps winnable", "loses", "unknown"
    reason: str | None = None

    def to_json(self) -> dict:
        return {"move": self.move.to_json(), "notation": str(self.move), "verdict": self.verdict, "reason": self.reason}


@dataclass
class AnalyseResult:
    game: str
    verdict: str
    moves: list[MoveVerdict]
    stats: Stats

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "verdict": self.verdict,
            "moves": [m.to_json() for m in self.moves],
            "stats": self.stats.to_json(),
        }

    def lines(self) -> list[str]:
        """The text `analyse` prints: the verdict, then each move with its verdict and reason."""
        lines = [f"verdict: {self.verdict}"]
        for verdict in self.moves:
            reason = f"  ({verdict.reason})" if verdict.reason else ""
            lines.append(f"{str(verdict.move):40} {verdict.verdict}{reason}")
        return lines if self.moves else lines + ["no legal moves"]


@dataclass
class SatResult:
    """What a CP-SAT model says of a position: the verdict and, when winnable, the line."""

    verdict: str
    moves: list = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Explanation:
    """Why a deal or position is lost (or that it is not), as sentences a player can check."""

    verdict: str
    reasons: list[str]
    method: str  # "rules", "search", "cp-sat core" or "none"

    def to_json(self) -> dict:
        return {"verdict": self.verdict, "reasons": self.reasons, "method": self.method}

    def lines(self) -> list[str]:
        """The text `explain` prints: the verdict, then one line per reason."""
        return [f"verdict: {self.verdict}"] + [f"- {reason}" for reason in self.reasons]
