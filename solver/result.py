"""What every command returns, for every game: verdicts, budgets, statistics, and the two result
kinds of `solve` (a decision, or an optimum with its proven bound), analyses and explanations.

Every result renders itself: `lines()` is the text the command prints, `to_json()` its `--json`.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable, TypeVar

from puzzles.errors import WinnableError

T = TypeVar("T")

WINNABLE, UNWINNABLE, UNKNOWN = "winnable", "unwinnable", "unknown"
#: What analyse says of a move, by the verdict of the position after it.
KEEPS, LOSES = "keeps winnable", "loses"
MOVE_LABELS = {WINNABLE: KEEPS, UNWINNABLE: LOSES, UNKNOWN: UNKNOWN}

#: stats.method, the one list (README, "--json"): what decided the verdict.
METHODS = {
    "rules": "the position given is already won or already over",
    "invariant": "refuted by counting alone, before any search",
    "dfs": "the Rust kernel's exhaustive depth-first search",
    "cp-sat": "the CP-SAT model",
    "dfs+cp-sat": "the kernel, then the CP-SAT model for what it left open",
    "beam+bnb": "a beam search for a good line, then branch and bound to prove the optimum",
    "alpha-beta": "the kernel's alpha-beta search of a game between players",
}


def joined_method(methods: list[str]) -> str:
    """One method word for several searches of one command: the single one, or "dfs+cp-sat"
    when both took part (METHODS lists every value)."""
    distinct = set(methods)
    if distinct <= {"rules"} or not distinct:
        return "rules"
    distinct.discard("rules")
    if len(distinct) == 1:
        return distinct.pop()
    if distinct <= {"dfs", "invariant", "cp-sat", "dfs+cp-sat"}:
        return "dfs+cp-sat" if distinct & {"cp-sat", "dfs+cp-sat"} else "dfs"
    raise AssertionError(f"no single method word for {sorted(distinct)}")


#: What a survey stores of each player, for games that value every player (`player_values`);
#: the cooperative best and its bound are null where not searched.
PLAYER_KEYS = ("player", "guaranteed", "guaranteed_bound", "cooperative_best", "cooperative_bound")
#: Seconds above which a time limit means none: a year.
NO_TIME_LIMIT_ABOVE = 365 * 24 * 3600.0


def machine_mib() -> int | None:
    """The machine's memory in MiB, where the system tells it."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
    except (AttributeError, ValueError, OSError):
        return None


@dataclass
class Budget:
    """Node and time limits shared by every search one command makes.

    `time_limit` None, infinity or anything above a year (`1e300` typed for "forever") means no
    time limit, `node_limit` 0 no node limit. The clock starts when the budget is made.
    `table_mib` caps the kernel's table of proven positions (`Engine.set_up` sizes it); None
    keeps the table the engine has, or makes the game's own size.

    The node limit binds the whole command: a search whose budget has no node left is not
    started (`nodes_spent`; its result is the game's "not searched"), since the kernels read a
    limit of 0 as none. A part of a budget (`part`) counts on from its parent's count
    (`nodes_before`), so that a part of a spent budget is spent too.
    """

    time_limit: float | None = 30.0
    node_limit: int = 0
    started: float = field(default_factory=time.perf_counter)
    nodes_used: int = 0
    #: the nodes already counted when this budget was made (a part starts at its parent's
    #: count); `spend` adds back only the nodes used since
    nodes_before: int = 0
    table_mib: int | None = None

    def __post_init__(self):
        if self.time_limit is not None and self.time_limit > NO_TIME_LIMIT_ABOVE:
            self.time_limit = None
        if self.table_mib is not None and self.table_mib < 1:
            raise WinnableError(f"a table of {self.table_mib} MiB: at least 1")
        memory = machine_mib() if self.table_mib is not None else None
        if memory is not None and self.table_mib > memory:
            # asked for, the allocation would abort the process, or the system kill it later
            raise WinnableError(f"a table of {self.table_mib} MiB: more than this machine's {memory} MiB")

    def seconds_left(self) -> float | None:
        if self.time_limit is None:
            return None
        return max(0.0, self.time_limit - (time.perf_counter() - self.started))

    def share(self, parts: int) -> float | None:
        """An equal share of the time left among `parts` searches still to run."""
        left = self.seconds_left()
        return None if left is None else left / max(1, parts)

    def nodes_left(self) -> int | None:
        """Nodes the searches may still use; None when there is no node limit."""
        if self.node_limit == 0:
            return None
        return max(0, self.node_limit - self.nodes_used)

    def nodes_spent(self) -> bool:
        """No node left: the next search must not start (a kernel would read a limit of 0 as none)."""
        return self.nodes_left() == 0

    def kernel_node_limit(self) -> int:
        """The node limit to hand a kernel for the next search: the nodes left, or 0 for none
        (the kernels' convention). Asking it of a spent budget is a bug: that search must not
        start."""
        left = self.nodes_left()
        if left == 0:
            raise AssertionError("a search was started on a spent node budget")
        return left or 0

    def models_may_run(self) -> bool:
        """May a CP-SAT phase run now? It counts no nodes, so under a node limit it needs a
        time limit to stop it: with a node limit and no time limit only the kernels search."""
        left = self.seconds_left()
        if left is None:
            return self.node_limit == 0
        return left > 0

    def exhausted(self) -> bool:
        out_of_time = self.time_limit is not None and self.seconds_left() == 0
        return out_of_time or self.nodes_spent()

    def part(self, parts: int, fraction: float = 1.0) -> Budget:
        """A budget of one of `parts` equal shares of the time left, with all the nodes left;
        or of `fraction` of that share and of those nodes (at least one, while one is left).
        It counts on from this budget's nodes, so a part of a spent budget is spent. Add its
        nodes back with `spend`."""
        share = self.share(parts)
        if fraction < 1.0 and share is not None:
            share *= fraction
        if self.node_limit == 0:
            return Budget(time_limit=share, table_mib=self.table_mib)
        nodes = self.nodes_left()
        if fraction < 1.0 and nodes:
            nodes = max(1, int(nodes * fraction))
        used = self.nodes_used
        return Budget(time_limit=share, node_limit=used + nodes, nodes_used=used, nodes_before=used,
                      table_mib=self.table_mib)

    def spend(self, part: Budget) -> None:
        self.nodes_used += part.nodes_used - part.nodes_before

    def untimed(self, set_up: Callable[[], T]) -> T:
        """`set_up()` with this budget's clock stopped: the time limit bounds searching, and set-up
        such as allocating a kernel's table (up to a second or more on a busy machine) is not."""
        began = time.perf_counter()
        made = set_up()
        self.started += time.perf_counter() - began
        return made


@dataclass
class Stats:
    nodes: int = 0
    seconds: float = 0.0
    method: str = "dfs"  # one of METHODS

    def add(self, other: Stats) -> None:
        """Counts another search of the same command in these statistics (start a total with
        method "")."""
        self.nodes += other.nodes
        self.seconds += other.seconds
        self.method = joined_method([self.method, other.method]) if self.method else other.method

    def to_json(self) -> dict:
        return {"nodes": self.nodes, "seconds": round(self.seconds, 6), "method": self.method}

    def line(self) -> str:
        return f"stats: {self.nodes} nodes, {self.seconds:.6f} s, method {self.method}"


@dataclass
class SolveResult:
    """A decision: is this deal or position winnable, by which starters, and how?

    `solution` is the line of moves from `start` (the deal with `starter` to move, or the
    position itself); `turns` is the same line as the game shows it, turn by turn (the moves
    themselves for games whose every move is a turn).
    """

    game: str
    verdict: str
    starters: list[str]
    solution: list
    starter: object  # the player to move first in `solution` (str or int, as the game names players)
    explanation: str | None
    stats: Stats
    start: object = None
    turns: list = field(default_factory=list)
    #: game-specific fields of the JSON (documented per game), e.g. Sir Tommy's "held"
    details: dict = field(default_factory=dict)
    #: the starters whose own search the budget left undecided (neither a win found nor every
    #: line refuted), where the players choose who starts: not among `starters`, yet not lost
    undecided: list = field(default_factory=list)

    def __post_init__(self):
        if not self.turns:
            self.turns = list(self.solution)

    @property
    def score(self) -> int | None:
        """What a survey stores as the deal's score: None for a decision."""
        return None

    @property
    def score_bound(self) -> int | None:
        """What a survey stores as the proven bound on the score: None for a decision."""
        return None

    @property
    def player_values(self) -> list[dict] | None:
        """What a survey stores as each player's values (a dict of PLAYER_KEYS each, JSON-ready),
        for games that value every player; None for the others."""
        return None

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "verdict": self.verdict,
            "starters": self.starters,
            "undecided_starters": self.undecided,
            "starter": self.starter,
            "solution": [turn.to_json() for turn in self.turns],
            "explanation": self.explanation,
            **self.details,
            "stats": self.stats.to_json(),
        }

    def head_lines(self) -> list[str]:
        lines = [f"verdict: {self.verdict}"]
        if self.starters:
            lines.append(f"winning starter(s): {self.starters_text()}")
        return lines

    def starters_text(self) -> str:
        """The winning starters, and those the budget left undecided: 'T (F undecided)'."""
        undecided = f" ({', '.join(map(str, self.undecided))} undecided)" if self.undecided else ""
        return ", ".join(map(str, self.starters)) + undecided

    def line_title(self) -> str:
        return f"solution ({self.starter} starts):" if self.starter is not None else "solution:"

    def open_note(self) -> str | None:
        """What to do when the budget left the answer open."""
        if self.verdict == UNKNOWN:
            return "the search hit its budget; raise --time-limit or --node-limit to decide it"
        if self.undecided:
            who = " or ".join(map(str, self.undecided))
            return f"the search hit its budget with {who} starting; raise --time-limit or --node-limit to decide it"
        return None

    def lines(self) -> list[str]:
        """The text `solve` prints: verdict, winning starters, the numbered line, why, stats."""
        lines = self.head_lines()
        if self.turns:
            lines.append(self.line_title())
            lines += [f"{number:3}. {turn}" for number, turn in enumerate(self.turns, start=1)]
        if self.explanation:
            lines.append(f"why: {self.explanation}")
        note = self.open_note()
        return lines + ([note] if note else []) + [self.stats.line()]


@dataclass(frozen=True)
class Objective:
    """What an optimisation counts, and how its result is named in text and JSON."""

    value_key: str  # the JSON key of the best value found, e.g. "cards_left"
    bound_key: str  # the JSON key of the proven bound, e.g. "lower_bound"
    minimise: bool
    #: the value of a win (0 cards left, all 50 played); None when winning is not the question
    winning: int | None
    #: words: "fewest cards left", "most cards played"
    words: str

    def better(self, a: int, b: int) -> bool:
        return a < b if self.minimise else a > b

    def verdict(self, value: int | None, bound: int) -> str:
        """Winnable when the line found wins, unwinnable when the proven bound rules a win
        out, unknown otherwise."""
        if self.winning is None:
            raise AssertionError("this objective has no winning value")
        if value == self.winning:
            return WINNABLE
        return UNWINNABLE if self.better(self.winning, bound) else UNKNOWN


@dataclass
class OptimumResult(SolveResult):
    """An optimisation: the best value a line reaches (`value`, reached by `solution`), the
    bound proven so far (`bound`: no line does better) and whether they meet (`optimal`)."""

    objective: Objective | None = None
    value: int | None = None
    bound: int | None = None

    @property
    def optimal(self) -> bool:
        return self.value is not None and self.value == self.bound

    @property
    def score(self) -> int | None:
        return self.value

    @property
    def score_bound(self) -> int | None:
        return self.bound

    def to_json(self) -> dict:
        data = super().to_json()
        stats = data.pop("stats")
        data.update({self.objective.value_key: self.value, self.objective.bound_key: self.bound,
                     "optimal": self.optimal, "stats": stats})
        return data

    def head_lines(self) -> list[str]:
        found = f"{self.objective.words}: {self.value} (optimal)" if self.optimal else \
            f"{self.objective.words} found: {self.value} (proven bound {self.bound})"
        return super().head_lines() + [found]

    def open_note(self) -> str | None:
        if self.optimal:
            return None
        return "the search hit its budget; raise --time-limit or --node-limit to prove the optimum"


@dataclass
class MoveVerdict:
    """One legal move and what is proven of the position after it: its verdict and, for an
    optimisation, the best value found after it and its proven bound."""

    move: object
    verdict: str  # KEEPS, LOSES or UNKNOWN
    reason: str | None = None
    value: int | None = None
    bound: int | None = None
    best: bool | None = None  # an optimisation: whether no other move is proven better

    def to_json(self, objective: Objective | None = None) -> dict:
        data = {"move": self.move.to_json(), "notation": str(self.move), "verdict": self.verdict, "reason": self.reason}
        if objective is not None:
            data.update({objective.value_key: self.value, objective.bound_key: self.bound,
                         "optimal": self.value is not None and self.value == self.bound, "best": self.best})
        return data

    def line(self, objective: Objective | None = None) -> str:
        text = f"{str(self.move):40} {self.verdict}"
        if objective is not None:
            proof = "optimal" if self.value == self.bound else f"bound {self.bound}"
            text += f"  {objective.value_key.replace('_', ' ')}: {self.value} ({proof}){'  <- best' if self.best else ''}"
        return text + (f"  ({self.reason})" if self.reason else "")


@dataclass
class AnalyseResult:
    """Every legal move of a position (of each starter, for a deal), with its verdict."""

    game: str
    verdict: str
    moves: list[MoveVerdict]
    stats: Stats
    objective: Objective | None = None

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "verdict": self.verdict,
            "moves": [m.to_json(self.objective) for m in self.moves],
            "stats": self.stats.to_json(),
        }

    def lines(self) -> list[str]:
        """The text `analyse` prints: the verdict, then each move with its verdict and reason."""
        lines = [f"verdict: {self.verdict}"] + [m.line(self.objective) for m in self.moves]
        return (lines if self.moves else lines + ["no legal moves"]) + [self.stats.line()]


@dataclass
class SatResult:
    """What a CP-SAT model says of a position: the verdict and, when winnable, the line."""

    verdict: str
    moves: list = field(default_factory=list)
    seconds: float = 0.0


@dataclass(frozen=True)
class Refutation:
    """A proof tree that a position is lost: after each legal move (`replies`), either a short
    reason settles the position, or every next move is refuted in turn. `move` is the move that
    leads to this node (None at the root)."""

    move: object = None
    reason: str | None = None
    replies: tuple[Refutation, ...] = ()

    def lines(self, indent: str = "") -> list[str]:
        """The tree in words, a line per move and its replies indented below it."""
        lines = []
        for reply in self.replies:
            lines.append(indent + reply.line())
            lines += reply.lines(indent + "  ")
        return lines

    def line(self) -> str:
        """This node in words: the move that leads here, and why the position after it is lost."""
        if self.reason is not None:
            return f"After {self.move}: {self.reason}"
        return f"After {self.move}, every next move loses:"

    def walk(self, depth: int = 0):
        """(depth, node) for every node below this one, parents before their replies."""
        for reply in self.replies:
            yield depth + 1, reply
            yield from reply.walk(depth + 1)

    def to_json(self) -> dict:
        move = {"move": None, "notation": None} if self.move is None else {
            "move": self.move.to_json(), "notation": str(self.move)}
        return {**move, "reason": self.reason, "replies": [reply.to_json() for reply in self.replies]}


@dataclass
class Explanation:
    """Why a deal or position is lost (or that it is not), as sentences a player can check.
    `proofs` holds the proof trees the sentences spell out, one per start they refute, as
    (start position, tree), and `spelled` the indices of the reasons those trees produced."""

    verdict: str
    reasons: list[str]
    method: str  # "rules", "search", "cp-sat core" or "none"
    proofs: list[tuple[object, Refutation]] = field(default_factory=list)
    spelled: list[int] = field(default_factory=list)
    game: str = ""  # the game's name, which Engine.explain sets

    def unspelled_reasons(self) -> list[str]:
        """The reasons no proof tree spells out (a page that draws the trees lists only these)."""
        return [reason for i, reason in enumerate(self.reasons) if i not in self.spelled]

    def to_json(self) -> dict:
        proofs = [{"to_move": start.to_move, **tree.to_json()} for start, tree in self.proofs]
        return {"game": self.game, "verdict": self.verdict, "reasons": self.reasons, "method": self.method,
                "proofs": proofs}

    def lines(self) -> list[str]:
        """The text `explain` prints: the verdict, then one line per reason."""
        return [f"verdict: {self.verdict}"] + [f"- {reason}" for reason in self.reasons]
