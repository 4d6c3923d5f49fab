"""Twaalven en veertienen (Twelves and Fourteens): the reference rules.

Two cooperating players take pairs of free cards from 13 columns of 4: T takes pairs summing to
12 (Q+K counts as twelve for T), F pairs summing to 14; A=1, J=11, Q=12, K=13. The two cards
come from different columns; turns alternate; no passing. All 52 cards taken wins; the player to
move having no pair loses. The players choose who starts (docs/games/twaalven.md).

This module is the oracle the Rust kernel is tested against: it parses, formats, lists legal
moves, applies them and replays solutions, and holds a plain exhaustive search for small cases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from .cards import DECK_SIZE, card_name, check_card_ids, parse_card, rank, shuffled_deck
from .errors import IllegalMoveError, IllegalPositionError, ParseError, quoted
from .lines import reference_solve, replay  # noqa: F401  (part of each game's rules)
from .tableau import format_columns, read_layout, require_full_deal, seeded_columns
from .text import NUMBER, amount

NAME = "twaalven"
TITLE = "Twaalven en veertienen"
COLUMNS = 13
DEPTH = 4
PLAYERS = ("T", "F")

#: The pair types of each player as rank pairs.
PAIRS = {
    "T": ((12, 13), (1, 11), (2, 10), (3, 9), (4, 8), (5, 7), (6, 6)),
    "F": ((1, 13), (2, 12), (3, 11), (4, 10), (5, 9), (6, 8), (7, 7)),
}


def pair_type(player: str, first: int, second: int) -> tuple[int, int] | None:
    """The pair type (sorted rank pair) if the two cards are a pair for `player`, else None."""
    ranks = tuple(sorted((rank(first), rank(second))))
    return ranks if ranks in PAIRS[player] else None


def other(player: str) -> str:
    return "F" if player == "T" else "T"


def counts_for(r: list[int], qk: int | Fraction) -> dict[tuple[int, int], int | Fraction]:
    """The pair counts that use up rank counts `r` (r[1..13]) exactly, given the number of Q-K
    pairs: each rank lies in one T type and one F type, so the types chain every rank (7 —5-7— 5
    —5-9— 9 … Q —2-Q— 2 … 8 —6-8— 6) and fixing one count fixes the rest. Exact with ints or
    Fractions; a count may come out negative or a half, when no split exists for that Q-K count."""
    ak = r[13] - qk
    aj = r[1] - ak
    three_j = r[11] - aj
    three_nine = r[3] - three_j
    five_nine = r[9] - three_nine
    five_seven = r[5] - five_nine
    two_q = r[12] - qk
    two_ten = r[2] - two_q
    four_ten = r[10] - two_ten
    four_eight = r[4] - four_ten
    six_eight = r[8] - four_eight
    return {
        (12, 13): qk, (1, 11): aj, (2, 10): two_ten, (3, 9): three_nine, (4, 8): four_eight,
        (5, 7): five_seven, (6, 6): Fraction(r[6] - six_eight, 2),
        (1, 13): ak, (2, 12): two_q, (3, 11): three_j, (4, 10): four_ten, (5, 9): five_nine,
        (6, 8): six_eight, (7, 7): Fraction(r[7] - five_seven, 2),
    }


def pair_split(r: list[int], turns: dict[str, int]) -> dict[tuple[int, int], int] | None:
    """How many pairs of each type split cards of rank counts `r` (r[1..13]) into `turns[p]`
    pairs of player p's types, or None when no split exists. Tries every Q-K count."""
    for qk in range(min(r[12], r[13]) + 1):
        need = counts_for(r, qk)
        if any(n < 0 or n != int(n) for n in need.values()):
            continue
        if all(sum(need[t] for t in PAIRS[p]) == turns[p] for p in PLAYERS):
            return {t: int(n) for t, n in need.items()}
    return None


@dataclass(frozen=True)
class Move:
    """One turn: `player` takes `cards` from `columns` (0-based internally, 1-based in text)."""

    player: str
    cards: tuple[int, int]
    columns: tuple[int, int]

    def __str__(self) -> str:
        (a, b), (ca, cb) = self.cards, self.columns
        return f"{self.player}: {card_name(a)} (col {ca + 1}) + {card_name(b)} (col {cb + 1})"

    _PATTERN = re.compile(rf"^\s*([TF]):\s*(\S+)\s*\(col ({NUMBER})\)\s*\+\s*(\S+)\s*\(col ({NUMBER})\)\s*$")

    @classmethod
    def parse(cls, text: str) -> Move:
        """The inverse of `str`: `T: 9H (col 4) + 3C (col 11)`."""
        match = cls._PATTERN.match(text)
        if not match:
            raise ParseError(f"{quoted(text)} is not a move like 'T: 9H (col 4) + 3C (col 11)'")
        player, a, ca, b, cb = match.groups()
        return cls(player, (parse_card(a), parse_card(b)), (int(ca) - 1, int(cb) - 1))

    def to_json(self) -> dict:
        return {
            "player": self.player,
            "cards": [card_name(c) for c in self.cards],
            "columns": [c + 1 for c in self.columns],
        }


@dataclass(frozen=True)
class Position:
    """Columns of card ids (bottom card first) and the player to move.

    `to_move` is None for a fresh deal, where the players still choose who starts.
    """

    columns: tuple[tuple[int, ...], ...]
    to_move: str | None = None

    @property
    def remaining(self) -> int:
        return sum(len(column) for column in self.columns)

    def tops(self) -> list[tuple[int, int]]:
        """(column, card) for every non-empty column."""
        return [(c, column[-1]) for c, column in enumerate(self.columns) if column]

    def start(self, starter: str) -> Position:
        """This deal with `starter` to move first."""
        return Position(self.columns, starter)

    def legal_moves(self) -> list[Move]:
        player = self._mover()
        tops = self.tops()
        moves = []
        for i, (ca, a) in enumerate(tops):
            for cb, b in tops[i + 1:]:
                if pair_type(player, a, b):
                    moves.append(Move(player, (a, b), (ca, cb)))
        return moves

    def apply(self, move: Move) -> Position:
        """The position after `move`; IllegalMoveError if it is not legal here."""
        if not isinstance(move, Move):  # another game's move failed on its fields (an AttributeError)
            raise IllegalMoveError(f"{move!r} is not a move of {TITLE}")
        player = self._mover()
        ca, cb = move.columns
        legal = (
            move.player == player
            and ca != cb
            and all(0 <= c < COLUMNS and self.columns[c] for c in move.columns)
            and (self.columns[ca][-1], self.columns[cb][-1]) == move.cards
            and pair_type(player, *move.cards)
        )
        if not legal:
            raise IllegalMoveError(f"{move} is not a legal move here")
        columns = list(self.columns)
        columns[ca] = columns[ca][:-1]
        columns[cb] = columns[cb][:-1]
        return Position(tuple(columns), other(player))

    def is_won(self) -> bool:
        return self.remaining == 0

    def is_lost(self) -> bool:
        return not self.is_won() and not self.legal_moves()

    def _mover(self) -> str:
        if self.to_move is None:
            raise IllegalPositionError("a deal has no player to move yet: choose a starter first")
        return self.to_move


def check_position(position: Position) -> None:
    """Raises IllegalPositionError unless the position can arise in the game."""
    columns = position.columns
    if len(columns) != COLUMNS:
        raise IllegalPositionError(f"{amount(len(columns), 'column')}; {TITLE} has {COLUMNS}")
    check_card_ids(c for column in columns for c in column)
    seen = set()
    for c, column in enumerate(columns):
        if len(column) > DEPTH:
            raise IllegalPositionError(f"column {c + 1} holds {len(column)} cards; at most {DEPTH}")
        for card in column:
            if card in seen:
                raise IllegalPositionError(f"card {card_name(card)} appears twice")
            seen.add(card)
    if position.to_move not in (None, *PLAYERS):
        raise IllegalPositionError(f"to-move {quoted(str(position.to_move))} is not T or F")
    gone = DECK_SIZE - len(seen)
    if position.to_move is None and gone:
        raise IllegalPositionError(f"{amount(len(seen), 'card')}; a deal has {DECK_SIZE}")
    if gone % 2:
        raise IllegalPositionError(
            f"{amount(gone, 'card')} gone ({len(seen)} remain); every turn takes two, so an even number must be gone"
        )
    if gone:
        check_cards_gone(position, sorted(set(range(DECK_SIZE)) - seen))


def check_cards_gone(position: Position, gone: list[int]) -> None:
    """The cards gone must be the pairs of the turns played: the player to move has played as
    many turns as the other or one fewer, each turn two cards of the mover's pair types, and
    each from a different column. Any such pairs can be stacked on the columns in some order, so
    these two conditions are all a position needs (docs/positions.md)."""
    turns = len(gone) // 2
    taken = {position.to_move: turns // 2, other(position.to_move): (turns + 1) // 2}
    r = [0] * 14
    for card in gone:
        r[rank(card)] += 1
    if pair_split(r, taken) is None:
        names = f" ({' '.join(card_name(c) for c in gone)})" if len(gone) <= 12 else ""
        raise IllegalPositionError(
            f"the {len(gone)} cards gone{names} cannot be the pairs of the turns played: with {position.to_move} to move,"
            f" those were {taken['T']} T pair(s) and {taken['F']} F pair(s)")
    emptied = [DEPTH - len(column) for column in position.columns]
    most = max(emptied)
    if most > turns:
        column = emptied.index(most) + 1
        raise IllegalPositionError(
            f"column {column} lost {most} cards in {amount(turns, 'turn')}; a turn takes from two different columns")


def deal(seed: int) -> Position:
    """The seeded deal: card k of the shuffled deck to column k % 13, depth k // 13."""
    return Position(seeded_columns(shuffled_deck(seed), COLUMNS))


def parse(text: str) -> Position:
    """A deal or position from text: 13 column lines (bottom card first, `-` for empty) and,
    for a position, a line `to-move: T` or `to-move: F`. `#` starts a comment."""
    layout = read_layout(text, TITLE, COLUMNS, DEPTH, {"to-move": "to-move: T|F"})
    to_move = layout.to_move(PLAYERS)
    if to_move is None:
        require_full_deal(layout, list(range(DECK_SIZE)), DEPTH, "a position mid-game needs a 'to-move: T|F' line")
    position = Position(tuple(layout.columns), to_move)
    check_position(position)
    return position


def format_position(position: Position) -> str:
    """The text form `parse` reads back."""
    lines = format_columns(position.columns)
    if position.to_move is not None:
        lines.append(f"to-move: {position.to_move}")
    return "\n".join(lines) + "\n"
