"""The Game on the shared engine: the fewest cards left, over every starter of a deal.

The Rust kernel (`TheGameKernel`) runs a beam search over whole turns and then exact searches
for each number of cards left from its proven lower bound up; every line it reports is replayed
here by the reference rules (`puzzles/the_game.py`) and must end the game with the cards left it
claims. A hit budget leaves the best line found and the bound proven so far: `unknown` unless the
line wins (`winnable`) or the bound is above 0 (`unwinnable`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from puzzles import the_game as rules
from puzzles.the_game import EndTurn, Play, Position

from ..._native import TheGameKernel
from ...contract import GameEntry, Option
from ...engine import Engine, verdict_of_moves
from ...result import (
    MOVE_LABELS, UNKNOWN, WINNABLE, AnalyseResult, Budget, MoveVerdict, Objective, OptimumResult, Stats,
)
from ...words import NO_LINE_FOUND, amount, bound_proof, listed
from . import picture, reasons

CARDS_LEFT = Objective("cards_left", "lower_bound", minimise=True, winning=0, words="fewest cards left")


@dataclass(frozen=True)
class StarterPlay:
    """A first play of a deal, named with the starter who makes it (`analyse` of a deal lists
    the first plays of every starter)."""

    player: int
    play: Play | EndTurn

    def __str__(self) -> str:
        return f"player {self.player}: {self.play}"

    def to_json(self) -> dict:
        return {"player": self.player, **self.play.to_json()}


@dataclass
class Search:
    """The best the kernel found from one start: cards left, the proven bound and the line."""

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

    @property
    def searched(self) -> bool:
        """False when the budget left this start no time or no node to search: its cards left
        are then only every card still in play, not a line's."""
        return self.nodes > 0 or self.optimal

    def summary(self) -> str:
        """The start as `solve` lists the starters: 'player 2 1 (bound 0)'."""
        if not self.searched:
            return f"player {self.start.to_move} not searched (no budget left)"
        return f"player {self.start.to_move} {self.cards_left}{'' if self.optimal else f' (bound {self.lower_bound})'}"


@dataclass
class TheGameResult(OptimumResult):
    """The fewest cards left over the starters tried, with each starter's own result."""

    by_starter: tuple[Search, ...] = ()

    def head_lines(self) -> list[str]:
        lines = super().head_lines()
        if len(self.by_starter) > 1:
            lines.append("by starter: " + ", ".join(s.summary() for s in self.by_starter))
        return lines

    def line_title(self) -> str:
        return f"line of play (player {self.starter} starts):"


class TheGameEngine(Engine):
    """The Game's engine; The Game: Extreme's subclasses it with its own rules module and the
    instructions passed to the kernel (`kernel_rules`)."""

    name = rules.NAME
    rules = rules

    #: 256 MiB of 64-byte entries of proven bounds
    table_slot_bytes = 64
    table_slots = 1 << 22

    def new_kernel(self, table_entries: int) -> TheGameKernel:
        """The kernel; its table is reused across calls on the same draw pile."""
        return TheGameKernel(table_entries)

    def starts(self, position: Position) -> list[Position]:
        if position.to_move is not None:
            return [position]
        return [position.start(player) for player in range(1, position.players + 1)]

    def turns(self, start: Position, moves: list) -> list:
        return self.rules.turns(start, moves)

    def kernel_rules(self, start: Position) -> dict:
        """The kernel's arguments beyond The Game's: none here (Extreme adds its marks)."""
        return {}

    def search(self, start: Position, budget: Budget, beam_widths: list[int] | None = None) -> Search:
        """The kernel's best line and bound from a position with a player to move, replayed.
        `beam_widths` replaces the kernel's own (tests use it to go straight to the exact search)."""
        if start.is_over():
            return Search(start, start.cards_left, start.cards_left, [], beam=start.cards_left)
        if budget.nodes_spent():  # not searched: every card left, and the cards that must stay
            return Search(start, start.cards_left, len(self.never_played(start)), [], beam=start.cards_left)
        options = {} if beam_widths is None else {"beam_widths": beam_widths}
        best, bound, _, pairs, nodes, seconds, beam = self.kernel().solve(
            [list(h) for h in start.hands], list(start.draw), list(start.piles), start.to_move - 1, start.played,
            start.expert, start.hand_size, start.top, budget.kernel_node_limit(), budget.seconds_left(), **options,
            **self.kernel_rules(start),
        )
        budget.nodes_used += nodes
        moves = [EndTurn() if card == 0 else Play(card, pile, start.instruction(card)) for card, pile in pairs]
        end = self.rules.replay(start, moves)  # raises if the kernel proposed an illegal move
        if not moves and not end.is_over():
            # stopped before any line ended the game: no line, and only the trivial upper bound
            return Search(start, start.cards_left, bound, [], nodes, seconds, beam)
        if not end.is_over() or end.cards_left != best:
            raise AssertionError(f"{self.name}: kernel line does not end the game with {best} cards left when replayed")
        return Search(start, best, bound, moves, nodes, seconds, beam)

    def solve(self, position: Position, budget: Budget | None = None) -> TheGameResult:
        """The fewest cards left from the position, or from the deal over every starter (stopping
        at the first starter that wins). The budget is shared out among the starters still to try."""
        budget = budget or Budget()
        self.set_up(budget)
        tried: list[Search] = []
        candidates = self.starts(position)
        for index, start in enumerate(candidates):
            part = budget.part(len(candidates) - index)
            tried.append(self.search(start, part))
            budget.spend(part)
            if tried[-1].cards_left == 0:
                break
        best = min(tried, key=lambda s: (s.cards_left, s.start.to_move))
        bound = 0 if best.cards_left == 0 else min(s.lower_bound for s in tried)
        method = "rules" if all(s.start.is_over() for s in tried) else "beam+bnb"
        return TheGameResult(
            game=self.name, verdict=CARDS_LEFT.verdict(best.cards_left, bound),
            starters=[s.start.to_move for s in tried if s.cards_left == 0], solution=best.moves,
            starter=best.start.to_move, explanation=None,
            stats=Stats(sum(s.nodes for s in tried), sum(s.seconds for s in tried), method),
            start=best.start, turns=self.turns(best.start, best.moves),
            details={"by_starter": [
                {"player": s.start.to_move, "cards_left": s.cards_left, "lower_bound": s.lower_bound,
                 "beam_cards_left": s.beam, "searched": s.searched}
                for s in tried
            ]},
            objective=CARDS_LEFT, value=best.cards_left, bound=bound, by_starter=tuple(tried),
        )

    def analyse(self, position: Position, budget: Budget | None = None, progress: Callable = iter) -> AnalyseResult:
        """For every legal play (of each starter, for a deal): the fewest cards left found after
        it and the bound proven. Plays that lead to the same position (the same card on either
        of two piles at the same top) get one search and one answer, under the first of them. The time is shared in passes: each open
        play gets an equal share of what is left, and the plays still open after a pass get
        the rest, until every value is proven or the budget is spent (the kernel keeps its
        proven bounds between passes)."""
        budget = budget or Budget()
        self.set_up(budget)
        starts = self.starts(position)
        after, moves = {}, []
        for start in starts:
            for move in start.legal_moves():
                key = self.rules.canonical(start.apply(move))
                if key not in after:
                    after[key] = start.apply(move)
                    moves.append((start, StarterPlay(start.to_move, move) if len(starts) > 1 else move))
        if not moves:
            return self.analyse_over(position, budget, CARDS_LEFT)
        found: dict[tuple, Search] = {}
        total = Stats(method="beam+bnb")

        def search_part(key, parts: int) -> Search:
            part = budget.part(parts)
            search = self.search(after[key], part)
            budget.spend(part)  # a node limit binds the passes together, or they would never end
            return search

        for key in progress(list(after)):
            found[key] = search_part(key, len(after) - len(found))
        while not budget.exhausted():
            still_open = [key for key, search in found.items() if not search.optimal]
            if not still_open:
                break
            for index, key in enumerate(progress(still_open)):
                found[key] = search_part(key, len(still_open) - index)
        for search in found.values():
            total.nodes += search.nodes
            total.seconds += search.seconds
        best_value = min((s.cards_left for s in found.values()), default=None)
        verdicts = []
        for start, move in moves:
            search = found[self.rules.canonical(start.apply(getattr(move, "play", move)))]
            others = [s for key, s in found.items() if s is not search]
            if all(search.cards_left <= s.lower_bound for s in others):
                best = True
            elif search.lower_bound > best_value:
                best = False
            else:
                best = None
            verdict = CARDS_LEFT.verdict(search.cards_left, search.lower_bound)
            verdicts.append(MoveVerdict(move, MOVE_LABELS[verdict], None, search.cards_left, search.lower_bound, best))
        return AnalyseResult(self.name, verdict_of_moves(UNKNOWN, verdicts), verdicts, total, CARDS_LEFT)

    def facts(self, position: Position) -> list[str]:
        """Why cards must remain, each checkable from `position`: the cards no pile can take
        again (Extreme adds the cards its instructions keep from being played)."""
        return reasons.dead_card_reasons(position)

    def never_played(self, position: Position) -> set[int]:
        """The cards `facts` says can never be played: each stays to the end of every line."""
        return set(rules.dead_cards(position))

    def clogged(self, end: Position) -> str | None:
        """At the end of a line with cards left: why the player to move has no turn."""
        return reasons.clogged(end)

    def clog_bound(self, position: Position, never: set[int]) -> tuple[int, int, list[int]] | None:
        """The kernel's clog bound, as `reasons.clog_bound` (solo games of The Game)."""
        return reasons.clog_bound(position, never)

    def optimum_reasons(self, position: Position, result: TheGameResult, budget: Budget) -> list[str]:
        """Cards that can never be played, the hand clogged at the end of the best line, and the
        lower bound: the count of those cards, which a player can check, unless the search has
        proven more (in words only: the result keeps the search's bound)."""
        facts = self.facts(position)
        if result.verdict == WINNABLE and position.is_won():
            return facts + ["won already: every card is played, so `winnable solve` prints no line"]
        if result.verdict == WINNABLE:
            return facts + [f"winnable: player {result.starter} starting, every card can be played "
                            "(`winnable solve` shows how)"]
        end = self.rules.replay(result.start, result.solution)
        if not end.is_over():  # the budget ran out before any line ended the game: no line, no end
            facts.append(NO_LINE_FOUND)
        else:
            facts.append(f"the best line found (player {result.starter} starting) ends after "
                         f"{amount(len(result.turns), 'turn')} with {amount(result.value, 'card')} left")
        clogged = self.clogged(end)
        if clogged:
            facts.append(f"there {clogged}")
        if result.solution:  # (else the line's end is the position itself, whose facts are above)
            facts += [f"at that point {fact}" for fact in self.facts(end)]
        never = sorted(self.never_played(position))
        clog = self.clog_bound(position, set(never))

        def best(bound: int) -> str:
            return ", so the best line found leaves the fewest" if bound == result.value else ""

        if clog and len(never) < clog[0] and result.bound <= clog[0]:  # (the clog is the whole proof)
            bound, draws, cards = clog
            when = "now" if not draws else f"once {amount(draws, 'more card')} {'is' if draws == 1 else 'are'} drawn"
            facts.append(
                f"no line leaves fewer than {amount(bound, 'card')}: {listed([str(c) for c in cards])} can never be "
                f"played (above), and they fill {len(cards)} places of the hand of {position.hand_size} {when}"
                f"; from then on no turn can play "
                f"{position.minimum_while_drawing} while cards remain to draw, and each turn before draws at most "
                f"the cards it plays, so the game ends with a full hand and at least "
                f"{amount(bound - position.hand_size, 'card')} still to draw{best(bound)}")
        elif result.bound > len(never):
            facts.append(f"no line leaves fewer than {amount(result.bound, 'card')}: {bound_proof(result.optimal, result.stats.method)}")
        elif never:
            facts.append(f"no line leaves fewer than {amount(len(never), 'card')}: "
                         f"{', '.join(map(str, never))} can never be played (above){best(len(never))}")
        else:
            facts.append("not decided within the budget: no line leaving fewer cards was found, none was ruled out")
        return facts


GAME = GameEntry(
    rules=rules,
    engine=TheGameEngine(),
    picture=picture.picture,
    options=(
        Option("players", "the-game: players", low=1, high=rules.MAX_PLAYERS, default=1),
        Option("expert", "the-game: expert rules (at least 3 cards a turn)"),
        Option("smaller_hand", "the-game: hands one card smaller"),
    ),
    formats="""\
the-game: 'hand 1: 7 94 52 4 19 40 49 35' per player and 'draw: 16 17 90 ...'
(next card first, '-' for none). A position adds 'piles: 1 1 100 100' (up1 up2
down1 down2), 'to-move: 1' and 'played: 0' (cards played this turn); optional
'variant: expert', 'hand-size: 7', 'cards: 2-30'.""",
    json_fields="""\
the-game: also cards_left, lower_bound, optimal and by_starter; a turn is
{"player": 1, "plays": [{"card": 45, "pile": "up1"}], "drew": [17, 88]}.
analyse --json adds cards_left, lower_bound, optimal and best to each move.""",
    test_variants=({}, {"players": 3}, {"players": 2, "expert": True}, {"expert": True, "smaller_hand": True}),
)
