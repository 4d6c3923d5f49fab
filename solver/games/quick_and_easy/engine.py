"""The Game: Quick & Easy on the shared engine: the most cards played, over every starter.

The Rust kernel (`quick_and_easy_solve`, solver/native/src/games/quick_and_easy.rs) searches
single plays and turn ends depth first for the exact most cards played, memoised on the exact
position in a capped table, and stops at the first line playing all 50 cards. Every line it
reports is replayed here by the reference rules and must end the game with the cards it claims.
A search that runs out of budget keeps the best line found and the bound `cards not dead`
(dead: no pile can ever take them again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from puzzles import quick_and_easy as rules
from puzzles.quick_and_easy import DECK, EndTurn, Play, Position, card_name, value

from ..._native import quick_and_easy_solve
from ...contract import GameEntry, Option
from ...engine import Engine, verdict_of_moves
from ...result import (
    MOVE_LABELS, UNKNOWN, WINNABLE, AnalyseResult, Budget, MoveVerdict, Objective, OptimumResult, Stats,
)
from ...words import NO_LINE_FOUND, amount, bound_proof
from . import picture

ALL = len(DECK)
CARDS_PLAYED = Objective("cards_played", "upper_bound", minimise=False, winning=ALL, words="most cards played")
#: The kernel's word for an empty pile, and for the card of 'end turn' in a line.
NO_TOP = 255


def step(position: Position, move) -> int:
    """How much a move costs the piles: the values a play skips (a colour trick back: below
    zero), and for ending the turn a middling cost, so that cheap second plays come first. The
    kernel tries moves in this order; the benchmark's heuristic player plays by it."""
    if isinstance(move, EndTurn):
        return 2
    top = position.piles[move.pile]
    if top is None:
        return value(move.card) - 1 if move.pile == 0 else 10 - value(move.card)
    return value(move.card) - value(top) if move.pile == 0 else value(top) - value(move.card)


@dataclass
class Search:
    """The best found from one start: cards played, the proven upper bound and the line."""

    start: Position
    cards_played: int
    upper_bound: int
    moves: list
    nodes: int = 0
    seconds: float = 0.0

    @property
    def optimal(self) -> bool:
        return self.cards_played >= self.upper_bound

    def joined(self, again: Search) -> Search:
        """This search and another from the same start together: the better line, the tighter
        bound, the work of both."""
        best = max(self, again, key=lambda s: s.cards_played)
        return Search(self.start, best.cards_played, min(self.upper_bound, again.upper_bound), best.moves,
                      self.nodes + again.nodes, self.seconds + again.seconds)


def kernel_search(start: Position, budget: Budget, table_entries: int) -> Search:
    """The kernel's most cards played from a position with a player to move, and its line,
    keeping at most `table_entries` exact values. A spent budget leaves the best line found and
    the bound `cards not dead`."""
    if start.is_over():
        return Search(start, start.cards_played, start.cards_played, [])
    if budget.nodes_spent():  # not searched: no card played, and the bound `cards not dead`
        return Search(start, start.cards_played, ALL - len(rules.dead_cards(start)), [])
    played, exact, pairs, nodes, seconds = quick_and_easy_solve(
        [list(hand) for hand in start.hands], list(start.draw), [NO_TOP if top is None else top for top in start.piles],
        start.to_move - 1, start.played, start.pro, budget.kernel_node_limit(), budget.seconds_left(), table_entries,
    )
    budget.nodes_used += nodes
    moves = [EndTurn() if card == NO_TOP else Play(card, pile) for card, pile in pairs]
    bound = played if exact else max(played, ALL - len(rules.dead_cards(start)))
    return Search(start, played, bound, moves, nodes, seconds)


@dataclass
class QuickAndEasyResult(OptimumResult):
    """The most cards played over the starters tried, with each starter's own result."""

    by_starter: tuple[Search, ...] = ()

    def line_title(self) -> str:
        return f"line of play (player {self.starter} starts):"


class QuickAndEasyEngine(Engine):
    name = rules.NAME
    #: Each search's table of exact values, a hash map: 56-byte entries and a control byte a
    #: slot, at most 7 entries to 8 slots; 228 MiB at most (past it the search goes on
    #: without storing).
    table_slot_bytes = 57
    table_slot_entries = 7 / 8
    table_slots = 1 << 22

    def starts(self, position: Position) -> list[Position]:
        if position.to_move is not None:
            return [position]
        return [position.start(player) for player in range(1, position.players + 1)]

    def turns(self, start: Position, moves: list) -> list:
        return rules.turns(start, moves)

    def replayed(self, found: Search) -> Search:
        """The search's line checked by the rules: it must end the game with the cards it claims."""
        end = rules.replay(found.start, found.moves)
        if found.moves and (end.legal_moves() or end.cards_played != found.cards_played):
            raise AssertionError(f"{self.name}: a line does not end the game with {found.cards_played} played")
        return found

    def solve(self, position: Position, budget: Budget | None = None) -> QuickAndEasyResult:
        """The most cards played from the position, or from the deal over every starter (stopping
        at the first starter that wins); the budget is shared among the starters."""
        budget = budget or Budget()
        tried = []
        candidates = self.starts(position)
        entries = self.table_entries(budget.table_mib)
        for index, start in enumerate(candidates):
            part = budget.part(len(candidates) - index)
            tried.append(self.replayed(kernel_search(start, part, entries)))
            budget.spend(part)
            if tried[-1].cards_played == ALL:
                break
        best = max(tried, key=lambda s: (s.cards_played, -s.start.to_move))
        bound = ALL if best.cards_played == ALL else max(s.upper_bound for s in tried)
        return QuickAndEasyResult(
            game=self.name, verdict=CARDS_PLAYED.verdict(best.cards_played, bound),
            starters=[s.start.to_move for s in tried if s.cards_played == ALL], solution=best.moves,
            starter=best.start.to_move, explanation=None,
            stats=Stats(sum(s.nodes for s in tried), sum(s.seconds for s in tried),
                        "rules" if all(s.start.is_over() for s in tried) else "dfs"),
            start=best.start, turns=self.turns(best.start, best.moves),
            details={"by_starter": [
                {"player": s.start.to_move, "cards_played": s.cards_played, "upper_bound": s.upper_bound}
                for s in tried]},
            objective=CARDS_PLAYED, value=best.cards_played, bound=bound, by_starter=tuple(tried),
        )

    def analyse(self, position: Position, budget: Budget | None = None, progress: Callable = iter) -> AnalyseResult:
        """For every legal play or turn end (of each starter, for a deal): the most cards played
        after it, with its bound; plays reaching the same position get one answer. Each gets an
        equal share of the time left, and those still open share what that pass left over (an
        open play early in the list had the smallest share)."""
        budget = budget or Budget()
        after, moves, starts = {}, [], self.starts(position)
        for start in starts:
            for move in start.legal_moves():
                key = rules.canonical(start.apply(move))
                if key not in after:
                    after[key] = start.apply(move)
                    moves.append(StarterMove(start.to_move, move) if len(starts) > 1 else move)
        if not moves:
            return self.analyse_over(position, budget, CARDS_PLAYED)
        found, entries = {}, self.table_entries(budget.table_mib)

        def search_part(key, parts: int) -> Search:
            part = budget.part(parts)
            search = self.replayed(kernel_search(after[key], part, entries))
            budget.spend(part)
            return search

        for index, key in enumerate(progress(list(after))):
            found[key] = search_part(key, len(after) - index)
        still_open = [] if budget.exhausted() else [key for key, search in found.items() if not search.optimal]
        for index, key in enumerate(progress(still_open)):  # what the first pass left over, from scratch
            if budget.exhausted():
                break
            found[key] = found[key].joined(search_part(key, len(still_open) - index))
        best_value = max((s.cards_played for s in found.values()), default=None)
        verdicts = []
        for move, key in zip(moves, after):
            search = found[key]
            others = [s for k, s in found.items() if k != key]
            best = True if all(search.cards_played >= s.upper_bound for s in others) else (
                False if search.upper_bound < best_value else None)
            verdict = CARDS_PLAYED.verdict(search.cards_played, search.upper_bound)
            verdicts.append(MoveVerdict(move, MOVE_LABELS[verdict], None, search.cards_played, search.upper_bound, best))
        total = Stats(sum(s.nodes for s in found.values()), sum(s.seconds for s in found.values()), "dfs")
        return AnalyseResult(self.name, verdict_of_moves(UNKNOWN, verdicts), verdicts, total, CARDS_PLAYED)

    def optimum_reasons(self, position: Position, result: QuickAndEasyResult, budget: Budget) -> list[str]:
        """Cards no pile can take again, the hand stuck at the end of the best line, the bound."""
        facts = [dead_card_reason(position, card) for card in rules.dead_cards(position)]
        if result.verdict == WINNABLE and position.is_won():
            return facts + [f"won already: all {ALL} cards are played, so `winnable solve` prints no line"]
        if result.verdict == WINNABLE:
            return facts + [f"winnable: player {result.starter} starting, all {ALL} cards can be played "
                            "(`winnable solve` shows how)"]
        end = rules.replay(result.start, result.solution)
        before = result.start.cards_played
        if not end.is_over():  # the budget ran out before any line ended the game: no line, no end
            facts.append(NO_LINE_FOUND)
        else:
            facts.append(f"the best line found (player {result.starter} starting) plays "
                         f"{amount(result.value - before, 'card')} in {amount(len(result.turns), 'turn')}"
                         + (f", {result.value} in all" if before else ""))
            if not end.is_won():
                stuck = "neither card fits either pile" if len(end.hand) > 1 else "it fits neither pile"
                facts.append(f"there player {end.to_move} holds {' '.join(map(card_name, end.hand))} with piles at "
                             f"{pile_words(end)}, and {stuck}")
            facts += [f"at that point {dead_card_reason(end, card)}" for card in rules.dead_cards(end)]
        if result.bound < ALL:
            facts.append(f"no line plays more than {result.bound} cards: {bound_proof(result.optimal, result.stats.method)}")
        return facts


@dataclass(frozen=True)
class StarterMove:
    """A first move of a deal, named with the starter who makes it."""

    player: int
    move: Play | EndTurn

    def __str__(self) -> str:
        return f"player {self.player}: {self.move}"

    def to_json(self) -> dict:
        return {"player": self.player, **self.move.to_json()}


def pile_words(position: Position) -> str:
    return ", ".join(f"{name} {'empty' if top is None else card_name(top)}"
                     for name, top in zip(rules.PILES, position.piles))


def dead_card_reason(position: Position, card: int) -> str:
    return (f"{card_name(card)} can never be played: with piles at {pile_words(position)}, no card still to "
            f"play can turn either pile so that {card_name(card)} fits (a higher value going up, a lower going "
            "down, or the colour of the top)")


GAME = GameEntry(
    rules=rules,
    engine=QuickAndEasyEngine(),
    picture=picture.picture,
    options=(
        Option("players", "quick-and-easy: players (1: the solo extension)", low=1, high=rules.MAX_PLAYERS, default=2),
        Option("pro", "quick-and-easy: the professional variant (exactly one card a turn)"),
    ),
    formats="""\
quick-and-easy: 'hand 1: 7R 3G' per player (cards: value 1-10, then a colour
R Y G B P) and 'draw: 10B 2Y ...' (next card first, '-' for none). A position adds
'piles: - 4B' (ascending top, descending top, '-' empty), 'to-move: 1' and
'played: 0'; optional 'variant: pro'.""",
    json_fields="""\
quick-and-easy: also cards_played, upper_bound, optimal and by_starter; a turn is
{"player": 1, "plays": [{"card": "7R", "pile": "up"}], "drew": ["3G"]}.
analyse --json adds cards_played, upper_bound, optimal and best to each move.""",
    test_variants=({}, {"players": 1}, {"players": 4, "pro": True}),
)
