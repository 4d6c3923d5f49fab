"""Twaalven en veertienen (Twelves and Fourteens): the reference rules.

Two cooperating players take pairs of free cards from 13 columns of 4: T takes pairs summing to
12 (Q+K counts as twelve for T), F pairs summing to 14; A=1, J=11, Q=12, K=13. The two cards
come from different columns; turns alternate; no passing. All 52 cards taken wins; the player to
move having no pair loses. The players choose who starts (RULES.md).

This module is the oracle the Rust kernel is tested against: it parses, formats, lists legal
moves, applies them and replays solutions, and holds a plain exhaustive search for small cases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import DECK_SIZE, card_name, parse_card, rank, shuffled_deck
from .errors import IllegalMoveError, IllegalPositionError, ParseError
from .lines import reference_solve, replay  # noqa: F401  (part of each game's rules)
from .tableau import format_columns, read_layout, require_full_deal, seeded_columns

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


@dataclass(frozen=True)
class Move:
    """One turn: `player` takes `cards` from `columns` (0-based internally, 1-based in text)."""

    player: str
    cards: tuple[int, int]
    columns: tuple[int, int]

    def __str__(self) -> str:
        (a, b), (ca, cb) = self.cards, self.columns
        return f"{self.player}: {card_name(a)} (col {ca + 1}) + {card_name(b)} (col {cb + 1})"

    _PATTERN = re.compile(r"^\s*([TF]):\s*(\S+)\s*\(col (\d+)\)\s*\+\s*(\S+)\s*\(col (\d+)\)\s*$")

    @classmethod
    def parse(cls, text: str) -> Move:
        """The inverse of `str`: `T: 9H (col 4) + 3C (col 11)`."""
        match = cls._PATTERN.match(text)
        if not match:
            raise ParseError(f"{text!r} is not a move like 'T: 9H (col 4) + 3C (col 11)'")
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
        raise IllegalPositionError(f"{len(columns)} columns; {TITLE} has {COLUMNS}")
    seen = set()
    for c, column in enumerate(columns):
        if len(column) > DEPTH:
            raise IllegalPositionError(f"column {c + 1} holds {len(column)} cards; at most {DEPTH}")
        for card in column:
            if card in seen:
                raise IllegalPositionError(f"card {card_name(card)} appears twice")
            seen.add(card)
    if position.to_move not in (None, *PLAYERS):
        raise IllegalPositionError(f"to-move {position.to_move!r} is not T or F")
    gone = DECK_SIZE - len(seen)
    if position.to_move is None and gone:
        raise IllegalPositionError(f"{len(seen)} cards; a deal has {DECK_SIZE}")
    if gone % 2:
        raise IllegalPositionError(
            f"{gone} cards gone ({len(seen)} remain); every turn takes two, so an even number must be gone"
        )


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
