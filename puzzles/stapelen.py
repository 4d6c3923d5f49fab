"""Stapelen (Stacking): the reference rules.

Two cooperating players, A and B, each with three foundations of their own, take turns moving
one top card of the 13 columns onto one of their own foundations: an empty foundation takes any
card, otherwise the card must be one rank higher than the foundation's top, K followed by A.
All 52 cards on foundations wins; the player to move with no legal card loses (docs/games/stapelen.md). The
players are symmetric, so a deal is analysed with A to move first.

Text format: the 13 column lines of the shared tableau format, then for a position
    A: 3S 4H, -, QC KD      # A's three foundations, comma-separated, bottom card first
    B: 5D, -, 7C 8H
    to-move: B              # turns alternate: B has placed as many cards as A, or one fewer
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import DECK_SIZE, card_name, check_card_ids, parse_card, rank, shuffled_deck
from .errors import IllegalMoveError, IllegalPositionError, ParseError, quoted
from .lines import reference_solve, replay  # noqa: F401  (part of each game's rules)
from .tableau import format_columns, read_layout, require_full_deal, seeded_columns
from .text import NUMBER, amount

NAME = "stapelen"
TITLE = "Stapelen"
COLUMNS = 13
DEPTH = 4
PLAYERS = ("A", "B")
FOUNDATIONS = 3

Foundation = tuple[int, ...]


def follows(below: int, card: int) -> bool:
    """Whether `card` may lie on `below`: one rank higher, K followed by A."""
    return rank(below) % 13 + 1 == rank(card)


def previous_rank(r: int) -> int:
    """The rank a card of rank `r` lies on: one lower, K below A."""
    return (r - 2) % 13 + 1


def other(player: str) -> str:
    return "B" if player == "A" else "A"


@dataclass(frozen=True)
class Move:
    """`player` moves `card` from `column` onto their foundation `foundation` (0-based), whose
    top was `onto` (None: the foundation was empty)."""

    player: str
    card: int
    column: int
    foundation: int
    onto: int | None

    def __str__(self) -> str:
        target = f"on {card_name(self.onto)}" if self.onto is not None else "(empty)"
        return f"{self.player}: {card_name(self.card)} (col {self.column + 1}) -> {self.player}{self.foundation + 1} {target}"

    _PATTERN = re.compile(rf"^\s*([AB]):\s*(\S+)\s*\(col ({NUMBER})\)\s*->\s*([AB])([0-9])\s+(?:on\s+(\S+)|\(empty\))\s*$")

    @classmethod
    def parse(cls, text: str) -> Move:
        """The inverse of `str`: `B: 4D (col 2) -> B2 on 3S` or `A: 7H (col 5) -> A1 (empty)`."""
        match = cls._PATTERN.match(text)
        if not match or match[1] != match[4]:
            raise ParseError(f"{quoted(text)} is not a move like 'B: 4D (col 2) -> B2 on 3S'")
        player, card, column, _, foundation, onto = match.groups()
        return cls(player, parse_card(card), int(column) - 1, int(foundation) - 1,
                   parse_card(onto) if onto else None)

    def to_json(self) -> dict:
        return {"player": self.player, "card": card_name(self.card), "column": self.column + 1,
                "foundation": self.foundation + 1}


EMPTY_FOUNDATIONS = {"A": ((),) * FOUNDATIONS, "B": ((),) * FOUNDATIONS}


@dataclass(frozen=True)
class Position:
    """Columns (bottom card first), each player's three foundations (bottom card first) and the
    player to move."""

    columns: tuple[tuple[int, ...], ...]
    foundations: tuple[tuple[Foundation, ...], tuple[Foundation, ...]] = (EMPTY_FOUNDATIONS["A"], EMPTY_FOUNDATIONS["B"])
    to_move: str = "A"

    @property
    def remaining(self) -> int:
        return sum(len(column) for column in self.columns)

    def foundations_of(self, player: str) -> tuple[Foundation, ...]:
        return self.foundations[PLAYERS.index(player)]

    def legal_moves(self) -> list[Move]:
        player = self.to_move
        moves = []
        for column, cards in enumerate(self.columns):
            if not cards:
                continue
            card = cards[-1]
            for f, pile in enumerate(self.foundations_of(player)):
                if not pile or follows(pile[-1], card):
                    moves.append(Move(player, card, column, f, pile[-1] if pile else None))
        return moves

    def apply(self, move: Move) -> Position:
        """The position after `move`; IllegalMoveError if it is not legal here."""
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move} is not a legal move here")
        columns = list(self.columns)
        columns[move.column] = columns[move.column][:-1]
        index = PLAYERS.index(move.player)
        piles = list(self.foundations[index])
        piles[move.foundation] = piles[move.foundation] + (move.card,)
        foundations = list(self.foundations)
        foundations[index] = tuple(piles)
        return Position(tuple(columns), tuple(foundations), other(move.player))

    def is_won(self) -> bool:
        return self.remaining == 0

    def is_lost(self) -> bool:
        return not self.is_won() and not self.legal_moves()


def is_fresh(position: Position) -> bool:
    """A deal nobody has touched: every card still in the columns, so either player may start."""
    return position.remaining == DECK_SIZE


def check_position(position: Position, lines_given: tuple[str, ...] = PLAYERS) -> None:
    """Raises IllegalPositionError unless the position can arise in the game; a player left out
    of `lines_given` (a text without their foundation line) adds that hint where the cards
    placed do not add up."""
    unlisted = "".join(f"; without the '{p}:' line {p}'s foundations are empty" for p in PLAYERS if p not in lines_given)
    if len(position.columns) != COLUMNS:
        raise IllegalPositionError(f"{amount(len(position.columns), 'column')}; {TITLE} has {COLUMNS}")
    for c, column in enumerate(position.columns):
        if len(column) > DEPTH:
            raise IllegalPositionError(f"column {c + 1} holds {len(column)} cards; at most {DEPTH}")
    if position.to_move not in PLAYERS:
        raise IllegalPositionError(f"to-move {quoted(str(position.to_move))} is not A or B")
    if len(position.foundations) != len(PLAYERS):  # edited with dataclasses.replace: foundations_of failed
        raise IllegalPositionError(f"foundations for {amount(len(position.foundations), 'player')}; {TITLE} has {len(PLAYERS)}")
    check_card_ids(c for column in position.columns for c in column)
    check_card_ids(c for piles in position.foundations for pile in piles for c in pile)
    placed = {}
    for player in PLAYERS:
        piles = position.foundations_of(player)
        if len(piles) != FOUNDATIONS:
            raise IllegalPositionError(f"{player} has {amount(len(piles), 'foundation')}; each player has {FOUNDATIONS}")
        for f, pile in enumerate(piles):
            for below, card in zip(pile, pile[1:]):
                if not follows(below, card):
                    raise IllegalPositionError(
                        f"foundation {player}{f + 1}: {card_name(card)} cannot lie on {card_name(below)} "
                        "(each card is one rank higher, K followed by A)"
                    )
        placed[player] = sum(len(p) for p in piles)
    cards = [c for column in position.columns for c in column]
    cards += [c for piles in position.foundations for pile in piles for c in pile]
    duplicates = {c for c in cards if cards.count(c) > 1}
    if duplicates:
        raise IllegalPositionError(f"card {card_name(min(duplicates))} appears twice")
    if len(cards) != DECK_SIZE:
        missing = " ".join(card_name(c) for c in range(DECK_SIZE) if c not in cards)
        raise IllegalPositionError(f"{amount(len(cards), 'card')} in columns and on foundations; every one of the 52 must be there (missing: {missing}){unlisted}")
    mover, waiting = position.to_move, other(position.to_move)
    if placed[waiting] - placed[mover] not in (0, 1):
        raise IllegalPositionError(
            f"{mover} is to move with {amount(placed[mover], 'card')} placed and {waiting} with {placed[waiting]}; "
            f"turns alternate, so {waiting} has placed as many as {mover} or one more{unlisted}"
        )


def deal(seed: int) -> Position:
    """The seeded deal: as Twaalven en veertienen, card k to column k % 13, depth k // 13."""
    return Position(seeded_columns(shuffled_deck(seed), COLUMNS))


def parse(text: str) -> Position:
    """A deal (13 columns of 4) or a position (columns, foundation lines `A: …` and `B: …`, and
    `to-move: A|B`)."""
    usage = {"a": "A: 3S 4H, -, QC", "b": "B: -, -, 7C", "to-move": "to-move: A|B"}
    layout = read_layout(text, TITLE, COLUMNS, DEPTH, usage)
    foundations = []
    for player in PLAYERS:
        if player.lower() not in layout.fields:
            foundations.append(EMPTY_FOUNDATIONS[player])
            continue
        value, line = layout.fields[player.lower()]
        piles = [p.strip() for p in value.split(",")]
        if len(piles) != FOUNDATIONS:
            raise ParseError(f"{player} lists {amount(len(piles), 'foundation')}; give {FOUNDATIONS}, comma-separated ('-' for empty)", line)
        cards = [() if p == "-" else tuple(parse_card(t, line) for t in p.split()) for p in piles]
        layout.note_cards([c for pile in cards for c in pile], line)
        foundations.append(tuple(cards))
    to_move = layout.to_move(PLAYERS)
    if to_move is None:
        require_full_deal(layout, list(range(DECK_SIZE)), DEPTH, "a position mid-game needs a 'to-move: A|B' line")
        to_move = "A"
    position = Position(tuple(layout.columns), tuple(foundations), to_move)
    check_position(position, tuple(p for p in PLAYERS if p.lower() in layout.fields))
    return position


def format_position(position: Position) -> str:
    """The text form `parse` reads back (foundation lines only once a card has been placed)."""
    lines = format_columns(position.columns)
    if position.remaining < DECK_SIZE or position.to_move != "A":
        for player in PLAYERS:
            piles = (" ".join(card_name(c) for c in pile) or "-" for pile in position.foundations_of(player))
            lines.append(f"{player}: {', '.join(piles)}")
        lines.append(f"to-move: {position.to_move}")
    return "\n".join(lines) + "\n"
