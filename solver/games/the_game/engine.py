"""Solve, analyse and explain The Game: the fewest cards left, over every starter of a deal.

The Rust kernel (`TheGameKernel`) runs a beam search over whole turns and then exact searches
for each number of cards left from its proven lower bound up; every line it reports is replayed
here by the reference rules (`puzzles/the_game.py`) and must end the game with the cards left it
claims. A hit budget leaves the best line found and the bound proven so far: `unknown` unless the
line wins (`winnable`) or the bound is above 0 (`unwinnable`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from puzzles import the_game as rules
from puzzles.the_game import PILES, EndTurn, Play, Position

from ._native import TheGameKernel
from .result import UNKNOWN, UNWINNABLE, WINNABLE, Budget, Explanation, Stats

NAME = rules.NAME
#: 48-byte entries: 192 MiB of proven bounds.
TABLE_ENTRIES = 1 << 22
_kernel: list[TheGameKernel] = []


def kernel() -> TheGameKernel:
    """The process's kernel; its table is reused across calls on the same draw pile."""
    if not _kernel:
        _kernel.append(TheGameKernel(TABLE_ENTRIES))
    return _kernel[0]


@dataclass
class Turn:
    """One player's turn in a line: the plays in order (with whether each was a backwards
    trick) and the cards drawn after it (none when the game ended during the turn)."""

    player: int
    plays: list[tuple[Play, bool]]
    drew: tuple[int, ...] = ()

    def to_json(self) -> dict:
        return {"player": self.player, "plays": [play.to_json() for play, _ in self.plays], "drew": list(self.drew)}

    def __str__(self) -> str:
        plays = ", ".join(f"{p.card} {PILES[p.pile]}{' (backwards)' if back else ''}" for p, back in self.plays)
        drew = f"; drew {' '.join(map(str, self.drew))}" if self.drew else ""
        return f"player {self.player}: {plays or 'no plays'}{drew}"


def turns_of(start: Position, moves: list) -> list[Turn]:
    """The line grouped into turns, replayed by the reference rules."""
    turns, position, turn = [], start, None
    for move in moves:
        if turn is None:
            turn = Turn(position.to_move, [])
            turns.append(turn)
        if isinstance(move, Play):
            turn.plays.append((move, rules.is_backwards(move.pile, position.piles[move.pile], move.card)))
        else:
            turn.drew = position.drawn()
            turn = None
        position = position.apply(move)
    return turns


@dataclass
class Solution:
    """The best the search found from one start: cards left, the proven bound and the line."""

    start: Position
    cards_left: int
    lower_bound: int
    moves: list
    nodes: int = 0
    seconds: float = 0.0
    beam: int = 0  # the fewest cards left the beam search found before the exact search

    @property
    def optimal(self) -> bool:
        return self.lower_bound >= self.cards_left


@dataclass
class TheGameResult:
    """What `solve` returns: the fewest cards left found over the starters tried, the proven
    lower bound (the least over starters), whether it is optimal, and the line."""

    game: str
    verdict: str
    cards_left: int
    lower_bound: int
    starter: int | None
    start: Position  # the position the solution starts from (a deal with `starter` to move)
    solution: list  # moves (Play, EndTurn) from `start`
    turns: list[Turn]
    per_starter: list[Solution] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)

    @property
    def optimal(self) -> bool:
        return self.lower_bound >= self.cards_left

    @property
    def starters(self) -> list[str]:
        """Starters with a winning line (for the shared survey)."""
        return [str(s.start.to_move) for s in self.per_starter if s.cards_left == 0]

    @property
    def score(self) -> int:
        return self.cards_left

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "verdict": self.verdict,
            "cards_left": self.cards_left,
            "lower_bound": self.lower_bound,
            "optimal": self.optimal,
            "starter": self.starter,
            "by_starter": [
                {"player": s.start.to_move, "cards_left": s.cards_left, "lower_bound": s.lower_bound,
                 "beam_cards_left": s.beam}
                for s in self.per_starter
            ],
            "solution": [turn.to_json() for turn in self.turns],
            "stats": self.stats.to_json(),
        }

    def lines(self) -> list[str]:
        proof = "optimal" if self.optimal else f"proven lower bound {self.lower_bound}"
        lines = [f"verdict: {self.verdict}", f"fewest cards left found: {self.cards_left} ({proof})"]
        if len(self.per_starter) > 1:
            tried = ", ".join(
                f"player {s.start.to_move} {s.cards_left}{'' if s.optimal else f' (bound {s.lower_bound})'}"
                for s in self.per_starter
            )
            lines.append(f"by starter: {tried}")
        if self.solution:
            lines.append(f"line of play (player {self.starter} starts):")
            lines += [f"{number:3}. {turn}" for number, turn in enumerate(self.turns, start=1)]
        if self.verdict == UNKNOWN:
            lines.append("the search hit its budget; raise --time-limit or --node-limit to prove the optimum")
        return lines + [self.stats.line()]


def starts(position: Position) -> list[Position]:
    """The given position, or a deal with each player as starter."""
    if position.to_move is not None:
        return [position]
    return [position.start(player) for player in range(1, position.players + 1)]


def search(start: Position, node_limit: int = 0, time_limit: float | None = None, beam_widths=None) -> Solution:
    """The kernel's best line and bound from a position with a player to move, replayed."""
    options = {} if beam_widths is None else {"beam_widths": list(beam_widths)}
    best, bound, _, pairs, nodes, seconds, beam = kernel().solve(
        [list(h) for h in start.hands], list(start.draw), list(start.piles), start.to_move - 1, start.played,
        start.expert, start.hand_size, start.top, node_limit, time_limit, **options,
    )
    moves = [EndTurn() if card == 0 else Play(card, pile) for card, pile in pairs]
    end = rules.replay(start, moves)  # raises if the kernel proposed an illegal move
    if not moves and not end.is_over():
        # stopped before any line ended the game: no line, and only the trivial upper bound
        return Solution(start, start.cards_left, bound, [], nodes, seconds, beam)
    if not end.is_over() or end.cards_left != best:
        raise AssertionError(f"{NAME}: kernel line does not end the game with {best} cards left when replayed")
    return Solution(start, best, bound, moves, nodes, seconds, beam)


def verdict_of(cards_left: int, lower_bound: int) -> str:
    if cards_left == 0:
        return WINNABLE
    return UNWINNABLE if lower_bound > 0 else UNKNOWN


def solve(position: Position, budget: Budget | None = None) -> TheGameResult:
    """The fewest cards left from the position, or from the deal over every starter (stopping
    at the first starter that wins). The budget is shared out among the starters still to try."""
    budget = budget or Budget()
    tried: list[Solution] = []
    candidates = starts(position)
    for index, start in enumerate(candidates):
        seconds = budget.seconds_left()
        share = None if seconds is None else seconds / (len(candidates) - index)
        solution = search(start, budget.nodes_left(), share)
        budget.nodes_used += solution.nodes
        tried.append(solution)
        if solution.cards_left == 0:
            break
    best = min(tried, key=lambda s: (s.cards_left, s.start.to_move))
    bound = 0 if best.cards_left == 0 else min(s.lower_bound for s in tried)
    stats = Stats(sum(s.nodes for s in tried), sum(s.seconds for s in tried), "beam+bnb")
    return TheGameResult(
        game=NAME, verdict=verdict_of(best.cards_left, bound), cards_left=best.cards_left, lower_bound=bound,
        starter=best.start.to_move, start=best.start, solution=best.moves, turns=turns_of(best.start, best.moves),
        per_starter=tried, stats=stats,
    )


@dataclass
class PlayResult:
    """The best result found after one legal move, and the bound proven for it."""

    starter: int
    move: object
    cards_left: int
    lower_bound: int

    @property
    def optimal(self) -> bool:
        return self.lower_bound >= self.cards_left

    def to_json(self) -> dict:
        return {
            "player": self.starter, "move": self.move.to_json(), "notation": str(self.move),
            "cards_left": self.cards_left, "lower_bound": self.lower_bound, "optimal": self.optimal,
        }


@dataclass
class TheGameAnalysis:
    """What `analyse` returns: for each legal move, the fewest cards left found after it."""

    game: str
    moves: list[PlayResult]
    stats: Stats

    def to_json(self) -> dict:
        return {"game": self.game, "moves": [m.to_json() for m in self.moves], "stats": self.stats.to_json()}

    def lines(self) -> list[str]:
        if not self.moves:
            return ["no legal moves: the game is over"]
        best = min(m.cards_left for m in self.moves)
        lines = []
        for m in self.moves:
            proof = "optimal" if m.optimal else f"bound {m.lower_bound}"
            mark = "  <- best" if m.cards_left == best else ""
            lines.append(f"player {m.starter}: {str(m.move):16} {m.cards_left:2} cards left ({proof}){mark}")
        return lines + [self.stats.line()]


def analyse(position: Position, budget: Budget | None = None, progress=None) -> TheGameAnalysis:
    """For every legal move (of each starter, for a deal): the fewest cards left found after it,
    each search getting an equal share of what is left of the budget."""
    budget = budget or Budget()
    moves = [(start, move) for start in starts(position) for move in start.legal_moves()]
    results, stats = [], Stats(method="beam+bnb")
    for index, (start, move) in enumerate((progress or iter)(moves)):
        after = start.apply(move)
        seconds = budget.seconds_left()
        share = None if seconds is None else seconds / (len(moves) - index)
        if after.is_over():
            solution = Solution(after, after.cards_left, after.cards_left, [])
        else:
            solution = search(after, budget.nodes_left(), share)
        budget.nodes_used += solution.nodes
        stats.nodes += solution.nodes
        stats.seconds += solution.seconds
        results.append(PlayResult(start.to_move, move, solution.cards_left, solution.lower_bound))
    return TheGameAnalysis(NAME, results, stats)


def dead_card_reason(position: Position, card: int) -> str:
    """Why no pile can take `card` again, in terms a player can check."""
    remaining = set(position.draw).union(*position.hands)
    low = rules.lowest_reach(position.piles[:2], remaining)
    high = rules.highest_reach(position.piles[2:], remaining)
    up = " and ".join(map(str, position.piles[:2]))
    down = " and ".join(map(str, position.piles[2:]))
    return (
        f"{card} can never be played: the ascending piles (at {up}) can come back no lower than {low} "
        f"and the descending piles (at {down}) no higher than {high}, since no chain of cards still to play, "
        f"each exactly 10 from the last, leads further back"
    )


def clogged(position: Position) -> str | None:
    """At the end of a game with cards left: the hand that could not play the minimum."""
    if not position.is_over() or position.is_won():
        return None
    fits = sorted({c for c in position.hand for p, t in enumerate(position.piles) if rules.accepts(p, t, c)})
    playable = ", ".join(map(str, fits)) or "none of them"
    return (
        f"player {position.to_move} holds {' '.join(map(str, sorted(position.hand)))} with piles at "
        f"{' '.join(map(str, position.piles))} and must play {position.minimum}; the cards that fit: {playable}"
    )


def explain(position: Position, budget: Budget | None = None) -> Explanation:
    """Why cards must remain, as facts a player can check: cards no pile can take again, the
    hand that is clogged at the end of the best line, and the proven lower bound."""
    facts = [dead_card_reason(position, c) for c in rules.dead_cards(position)]
    result = solve(position, budget)
    if result.verdict == WINNABLE:
        facts.append(f"winnable: player {result.starter} starting, every card can be played (`winnable solve` shows how)")
        return Explanation(WINNABLE, facts, "rules")
    end = rules.replay(result.start, result.solution)
    facts.append(f"the best line found (player {result.starter} starting) ends after {len(result.turns)} turns "
                 f"with {result.cards_left} cards left")
    reason = clogged(end)
    if reason:
        facts.append(f"there {reason}")
    facts += [f"at that point {dead_card_reason(end, c)}" for c in rules.dead_cards(end)]
    if result.lower_bound > 0:
        facts.append(f"no line leaves fewer than {result.lower_bound} cards: "
                     f"{'the exhaustive search proved it' if result.optimal else 'proven so far'}")
    else:
        facts.append("not decided within the budget: no line leaving fewer cards was found, none was ruled out")
    return Explanation(result.verdict, facts, "search")
