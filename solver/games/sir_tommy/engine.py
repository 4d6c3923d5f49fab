"""Solve, maximise, analyse and explain Sir Tommy voor twee: the kernel's search first, the
CP-SAT model (`sir_tommy_sat`) for what it leaves open and for the most cards a player can hold
in a win (every line either finds is replayed by the reference rules), and reasons why a
position is lost: short ones below, else a CP-SAT unsat core.

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

from . import sir_tommy_sat
from ._native import SirTommyKernel
from .result import UNKNOWN, UNWINNABLE, WINNABLE, AnalyseResult, Budget, Explanation, MoveVerdict, SolveResult, Stats
from .words import a_rank, core_sentence

NAME = rules.NAME
SOLVE_OPTIONS = frozenset({"maximise"})
TABLE_ENTRIES = 1 << 22  # 160 MiB of 40-byte keys
MOVE_LABELS = {WINNABLE: "keeps winnable", UNWINNABLE: "loses"}
#: The kernel's share of the time left before CP-SAT takes over, and its time with no limit.
DFS_SHARE = 0.1
DFS_SECONDS = 3.0
#: The first CP-SAT run's seconds when maximising; each further run gets twice as long.
SAT_FIRST_SECONDS = 4.0

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


def dfs(position: Position, budget: Budget, time_limit: float | None):
    """One kernel search within `budget` and `time_limit` seconds: (verdict, moves, final
    position or None, stats)."""
    if position.is_won():
        return WINNABLE, [], position, Stats(method="rules")
    verdict, line, nodes, seconds = kernel().solve(
        list(position.stock), list(position.hand), [list(r) for r in position.rows], tops(position, "U"),
        tops(position, "D"), PLAYERS.index(position.to_move), position.top_rank,
        budget.nodes_left(), time_limit,
    )
    budget.nodes_used += nodes
    stats = Stats(nodes=nodes, seconds=seconds, method="dfs")
    if verdict != WINNABLE:
        return verdict, [], None, stats
    moves, end = line_from_kernel(position, line)
    return verdict, moves, end, stats


def search(position: Position, budget: Budget):
    """Is the position winnable: the kernel for its share of the time, then CP-SAT for the
    rest (the kernel decides almost every 4-row deal in milliseconds; CP-SAT proves fewer
    rows lost where the kernel would search for hours). A node limit binds the kernel only.
    Returns (verdict, moves, final position or None, stats)."""
    left = budget.seconds_left()
    verdict, moves, end, stats = dfs(position, budget, DFS_SECONDS if left is None else left * DFS_SHARE)
    if verdict != UNKNOWN or budget.exhausted():
        return verdict, moves, end, stats
    answer = sir_tommy_sat.solve(position, time_limit=budget.seconds_left())
    stats.seconds += answer.seconds
    stats.method = "dfs+cp-sat"
    return answer.verdict, answer.moves, answer.end, stats


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
    that player can hold in a win, by CP-SAT started from the first win found."""
    budget = budget or Budget()
    verdict, moves, end, stats = search(position, budget)
    maximum = None
    if verdict == WINNABLE and maximise:
        maximum, moves, end = most_cards(position, maximise, moves, end, budget, stats)
    return SirTommyResult(
        game=NAME, verdict=verdict, starters=["U"] if verdict == WINNABLE else [], solution=moves,
        starter="U" if moves else None, explanation=short_reason(position) if verdict == UNWINNABLE else None,
        stats=stats, start=position, held={p: end.held(p) for p in PLAYERS} if end else {}, maximum=maximum,
    )


def most_cards(position: Position, player: str, moves: list, end: Position, budget: Budget, stats: Stats):
    """The most cards `player` can hold in a win, starting from the win `moves` (ending in
    `end`): CP-SAT runs of doubling length, each with a new random seed and the best line so
    far as a hint, until one proves its answer optimal or the budget runs out (a single long
    run has a heavy tail: on seed 149 one took over 60 s where others take 3). Returns the
    Maximum, its line and the won position it reaches."""
    best = Maximum(player, end.held(player), end.held(player) == most_held(position, player))
    limit, attempt = SAT_FIRST_SECONDS, 0
    while not best.proven and not budget.exhausted():
        left = budget.seconds_left()
        answer = sir_tommy_sat.solve(position, player, best.held, limit if left is None else min(limit, left),
                                     hint=moves, seed=attempt)
        stats.seconds += answer.seconds
        stats.method = "dfs+cp-sat"
        if answer.verdict == UNWINNABLE:
            raise AssertionError("sir-tommy CP-SAT model refutes a win the kernel found and the rules replayed")
        if answer.verdict == WINNABLE:
            moves, end = answer.moves, answer.end
            best = Maximum(player, answer.held, answer.proven or answer.held >= answer.bound)
        limit, attempt = 2 * limit, attempt + 1
    return best, moves, end


def most_held(position: Position, player: str) -> int:
    """Cards `player` would hold if they took every card not on the other's foundations."""
    return position.held(player) + position.remaining()


def analyse(position: Position, budget: Budget | None = None, progress=iter) -> AnalyseResult:
    """For every play and every way to end the turn now: does it keep the game winnable?

    The position is searched first, with a quarter of the time: if it is lost, every move
    loses; if it is won, its line's first move keeps it winnable. Then each other move gets the
    kernel alone for an equal share of half the time left (most are decided in milliseconds),
    and the moves still open get an equal share of the rest for the kernel and CP-SAT, so that
    no hard move starves the others."""
    budget = budget or Budget()
    whole, line, _, total = search_part(position, budget, 4)
    after = {move: position.apply(move) for move in position.legal_moves()}
    moves = list(after)
    verdict = {}
    for done, move in enumerate(progress(moves)):
        if whole == UNWINNABLE or (line and move == line[0]):
            verdict[move] = whole
            continue
        left = budget.seconds_left()
        found, _, _, stats = dfs(after[move], budget, None if left is None else left / 2 / (len(moves) - done))
        verdict[move] = found
        total.nodes += stats.nodes
        total.seconds += stats.seconds
    open_moves = [move for move in moves if verdict[move] == UNKNOWN]
    for done, move in enumerate(open_moves):
        verdict[move], _, _, stats = search_part(after[move], budget, len(open_moves) - done)
        total.nodes += stats.nodes
        total.seconds += stats.seconds
    verdicts = [
        MoveVerdict(move, MOVE_LABELS.get(verdict[move], UNKNOWN),
                    short_reason(after[move]) if verdict[move] == UNWINNABLE else None)
        for move in moves
    ]
    return AnalyseResult(game=NAME, verdict=whole, moves=verdicts, stats=total)


def search_part(position: Position, budget: Budget, parts: int):
    """`search` within one of `parts` equal shares of the time `budget` has left (and all its
    nodes left); the nodes used count against `budget`."""
    left = budget.seconds_left()
    part = Budget(time_limit=None if left is None else left / parts, node_limit=budget.nodes_left())
    found = search(position, part)
    budget.nodes_used += part.nodes_used
    return found


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
    core = sir_tommy_sat.unsat_core(position, budget.seconds_left())
    if core is not None:
        return Explanation(UNWINNABLE, [core_sentence(position, *core, "plays", "played", where)], "cp-sat core")
    return Explanation(
        UNWINNABLE,
        [f"No short reason found, and CP-SAT found no small core within the time ({stats.method} proved it lost)."],
        "search",
    )


def where(position: Position, card: int) -> str:
    """Where a card is: '8H (row 2, top)', '3C (row 1, 2 beneath the top)', 'QS (hand)',
    '5C (stock, drawn in turn 4 from now)'."""
    for number, row in enumerate(position.rows, start=1):
        if card in row:
            depth = row.index(card)
            place = "top" if depth == len(row) - 1 else f"{len(row) - 1 - depth} beneath the top"
            return f"{card_name(card)} (row {number}, {place})"
    if card in position.hand:
        return f"{card_name(card)} (hand)"
    return f"{card_name(card)} (stock, drawn in turn {1 + position.stock.index(card) // rules.DRAW} from now)"


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
