"""All in a Row and Black Hole: the reference rules of the one-player games that build one
foundation a rank up or down from the top card, K and A adjacent.

- All in a Row: 13 columns of 4; the foundation starts empty and takes any first card.
- Black Hole: 17 columns of 3; the foundation starts with the ace of spades.
Any top card one rank away from the foundation's top may be played; won when every card is on
the foundation, lost when no top card fits.

Text format: the column lines of the shared tableau format; a position adds
`foundation: AS 2H 3D` (the cards played, in order).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import DECK_SIZE, card_name, check_card_ids, parse_card, rank, shuffled
from .errors import IllegalMoveError, IllegalPositionError, ParseError, quoted
from .lines import reference_solve, replay  # noqa: F401  (part of each game's rules)
from .tableau import format_columns, read_layout, require_full_deal, seeded_columns
from .text import NUMBER, amount

ACE_OF_SPADES = 0


def adjacent(below: int, card: int) -> bool:
    """One rank apart, K and A adjacent."""
    return (rank(below) - rank(card)) % 13 in (1, 12)


@dataclass(frozen=True)
class Move:
    """Play `card` from `column` (0-based) onto the foundation."""

    card: int
    column: int

    def __str__(self) -> str:
        return f"{card_name(self.card)} (col {self.column + 1})"

    _PATTERN = re.compile(rf"^\s*(\S+)\s*\(col ({NUMBER})\)\s*$")

    @classmethod
    def parse(cls, text: str) -> Move:
        match = cls._PATTERN.match(text)
        if not match:
            raise ParseError(f"{quoted(text)} is not a move like '7H (col 3)'")
        return cls(parse_card(match[1]), int(match[2]) - 1)

    def to_json(self) -> dict:
        return {"card": card_name(self.card), "column": self.column + 1}


@dataclass(frozen=True)
class Position:
    """Columns (bottom card first) and the foundation's cards in the order played."""

    columns: tuple[tuple[int, ...], ...]
    foundation: tuple[int, ...] = ()
    #: one player: nobody to name as the one to move
    to_move = None

    @property
    def remaining(self) -> int:
        return sum(len(column) for column in self.columns)

    def legal_moves(self) -> list[Move]:
        top = self.foundation[-1] if self.foundation else None
        return [
            Move(cards[-1], column)
            for column, cards in enumerate(self.columns)
            if cards and (top is None or adjacent(top, cards[-1]))
        ]

    def is_legal(self, move: Move) -> bool:
        """`move` takes the top card of its column and that card fits on the foundation."""
        cards = self.columns[move.column] if 0 <= move.column < len(self.columns) else ()
        fits = not self.foundation or adjacent(self.foundation[-1], move.card)
        return bool(cards) and cards[-1] == move.card and fits

    def apply(self, move: Move) -> Position:
        """The position after `move`; IllegalMoveError if it is not legal here."""
        if not isinstance(move, Move):  # another game's move with the same fields was applied
            raise IllegalMoveError(f"{move!r} is not a move of this game")
        if not self.is_legal(move):
            raise IllegalMoveError(f"{move} is not a legal move here")
        columns = list(self.columns)
        columns[move.column] = columns[move.column][:-1]
        return Position(tuple(columns), self.foundation + (move.card,))

    def is_won(self) -> bool:
        return self.remaining == 0

    def is_lost(self) -> bool:
        return not self.is_won() and not self.legal_moves()


@dataclass(frozen=True)
class OneFoundationGame:
    """One game of this family: its name, layout and how its foundation starts."""

    NAME: str
    TITLE: str
    COLUMNS: int
    DEPTH: int
    #: the card the foundation starts with (Black Hole: AS), or None for any first card
    starter: int | None

    Move = Move
    Position = Position

    @property
    def deck(self) -> list[int]:
        """The cards dealt to the columns."""
        return [c for c in range(DECK_SIZE) if c != self.starter]

    def start(self) -> tuple[int, ...]:
        return () if self.starter is None else (self.starter,)

    def deal(self, seed: int) -> Position:
        """The seeded deal: the deck (less the starter card) shuffled, card k to column k % C."""
        return Position(seeded_columns(shuffled(self.deck, seed), self.COLUMNS), self.start())

    def check_position(self, position: Position) -> None:
        """Raises IllegalPositionError unless the position can arise in the game."""
        if len(position.columns) != self.COLUMNS:
            raise IllegalPositionError(f"{amount(len(position.columns), 'column')}; {self.TITLE} has {self.COLUMNS}")
        for c, column in enumerate(position.columns):
            if len(column) > self.DEPTH:
                raise IllegalPositionError(f"column {c + 1} holds {len(column)} cards; at most {self.DEPTH}")
        pile = position.foundation
        check_card_ids([c for column in position.columns for c in column] + list(pile))
        if self.starter is not None and pile[:1] != (self.starter,):
            raise IllegalPositionError(f"the foundation must start with {card_name(self.starter)}")
        for below, card in zip(pile, pile[1:]):
            if not adjacent(below, card):
                raise IllegalPositionError(
                    f"foundation: {card_name(card)} cannot follow {card_name(below)} (one rank up or down, K and A adjacent)"
                )
        cards = [c for column in position.columns for c in column] + list(pile)
        duplicates = {c for c in cards if cards.count(c) > 1}
        if duplicates:
            raise IllegalPositionError(f"card {card_name(min(duplicates))} appears twice")
        if len(cards) != DECK_SIZE:
            missing = " ".join(card_name(c) for c in range(DECK_SIZE) if c not in cards)
            raise IllegalPositionError(
                f"{amount(len(cards), 'card')} in columns and on the foundation; all 52 must be there (missing: {missing})"
            )

    def parse(self, text: str) -> Position:
        """A deal (full columns) or a position (columns plus `foundation: …`)."""
        layout = read_layout(text, self.TITLE, self.COLUMNS, self.DEPTH, {"foundation": "foundation: AS 2H 3D"})
        if "foundation" in layout.fields:
            foundation = tuple(layout.cards_of_field("foundation"))
        else:
            if self.starter in layout.seen:
                raise ParseError(
                    f"{card_name(self.starter)} starts the foundation in {self.TITLE}, so a deal has it in no column",
                    layout.seen[self.starter],
                )
            require_full_deal(layout, self.deck, self.DEPTH, "a position mid-game needs a 'foundation: …' line")
            foundation = self.start()
        position = Position(tuple(layout.columns), foundation)
        self.check_position(position)
        return position

    def format_position(self, position: Position) -> str:
        lines = format_columns(position.columns)
        if position.foundation != self.start():
            lines.append("foundation: " + " ".join(card_name(c) for c in position.foundation))
        return "\n".join(lines) + "\n"


ALL_IN_A_ROW = OneFoundationGame("all-in-a-row", "All in a Row", 13, 4, None)
BLACK_HOLE = OneFoundationGame("black-hole", "Black Hole", 17, 3, ACE_OF_SPADES)
