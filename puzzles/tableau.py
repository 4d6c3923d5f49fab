"""The text format shared by the column games (Twaalven en veertienen, Stapelen, All in a Row,
Black Hole): one line per column, cards separated by spaces, bottom (covered) card first, `-` for
an empty column; `name: value` lines for whatever else a position needs; `#` starts a comment.

This module reads that text into columns and fields and checks what every game needs: known card
names, no card twice (with both line numbers), the number of columns and their depth, and for a
fresh deal that every card of the deck is there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import card_name, parse_card
from .errors import ParseError, quoted
from .text import amount


@dataclass
class Layout:
    """Columns and fields as read, with the line each came from, for error messages."""

    columns: list[tuple[int, ...]] = field(default_factory=list)
    column_lines: list[int] = field(default_factory=list)
    #: field name (lower case) -> (value, line number)
    fields: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: every card read so far -> the line it is on
    seen: dict[int, int] = field(default_factory=dict)

    def note_cards(self, cards, line: int) -> None:
        """Records cards read on `line`; ParseError if one was already read elsewhere."""
        for card in cards:
            if card in self.seen:
                raise ParseError(f"duplicate card {card_name(card)} (also on line {self.seen[card]})", line)
            self.seen[card] = line

    def to_move(self, players: tuple[str, ...]) -> str | None:
        """The player named by a `to-move:` line (one of `players`), or None when there is none."""
        if "to-move" not in self.fields:
            return None
        value, line = self.fields["to-move"]
        if value.upper() not in players:
            raise ParseError(f"to-move {quoted(value)} must be {' or '.join(players)}", line)
        return value.upper()

    def cards_of_field(self, name: str) -> list[int]:
        """The cards a field lists (`-` for none), recorded as seen."""
        value, line = self.fields[name]
        cards = [] if value == "-" else [parse_card(token, line) for token in value.split()]
        self.note_cards(cards, line)
        return cards


def read_layout(text: str, title: str, columns: int, depth: int, known_fields: dict[str, str],
                unit: str = "column", hint: str = "") -> Layout:
    """Reads column lines and the fields in `known_fields` (name -> usage shown in errors).

    Field values are returned as text; cards in them are checked by `Layout.cards_of_field`.
    Errors call a line of cards a `unit` (Sir Tommy's are rows) and end a wrong count with `hint`
    (how to set the count, where a game lets the user choose it).
    """
    layout = Layout()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        if colon:
            name = key.strip().lower()
            if name not in known_fields:
                usage = ", ".join(f"'{u}'" for u in known_fields.values())
                raise ParseError(f"unknown field {quoted(key.strip())} (known: {usage})", number)
            if name in layout.fields:
                raise ParseError(f"a second {quoted(key.strip())} line (first on line {layout.fields[name][1]})", number)
            layout.fields[name] = (value.strip(), number)
            continue
        if len(layout.columns) == columns:
            extra = ordinal(columns + 1)
            article = "an" if extra.startswith(("8", "11", "18")) else "a"
            raise ParseError(f"{article} {extra} {unit}; {title} has {columns} {unit}s{hint}", number)
        cards = () if line == "-" else tuple(parse_card(token, number) for token in line.split())
        if len(cards) > depth:
            raise ParseError(f"{len(cards)} cards in one {unit}; at most {depth}", number)
        layout.note_cards(cards, number)
        layout.columns.append(cards)
        layout.column_lines.append(number)
    if len(layout.columns) != columns:
        raise ParseError(f"{amount(len(layout.columns), unit)}; {title} has {columns} (one line each){hint}")
    return layout


def require_full_deal(layout: Layout, deck: list[int], depth: int, hint: str) -> None:
    """A fresh deal: every card of `deck` present, every column `depth` deep."""
    if len(layout.seen) != len(deck):
        missing = " ".join(card_name(c) for c in deck if c not in layout.seen)
        raise ParseError(f"{amount(len(layout.seen), 'card')}; a deal has {len(deck)} (missing: {missing}); {hint}")
    for column, number in zip(layout.columns, layout.column_lines):
        if len(column) != depth:
            raise ParseError(f"a column of {amount(len(column), 'card')}; a deal has {depth} in each; {hint}", number)


def format_columns(columns) -> list[str]:
    """One line per column, as `read_layout` reads them."""
    return [" ".join(card_name(c) for c in column) or "-" for column in columns]


def seeded_columns(deck: list[int], columns: int) -> tuple[tuple[int, ...], ...]:
    """Card k of `deck` to column k % columns, depth k // columns (bottom first)."""
    return tuple(tuple(deck[c::columns]) for c in range(columns))


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
