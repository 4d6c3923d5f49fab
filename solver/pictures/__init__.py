"""Pictures of positions: cards that look like cards, laid out the way the table is, as SVG.

A game's renderer (`solver/games/<game>/picture.py`, named by its registry entry) turns a
position into a `Picture`: labelled blocks, each a row of cards or a tableau of columns. This
module knows nothing of any game: it draws faces (a card's text, symbol and colours), empty
places, marks (a coloured frame: a card a reason names, or a move that keeps or loses), and lays
the blocks out. Every face is drawn once as a group in `<defs>` and placed with `<use>`, so a
page of many positions (`solver.pictures.page`) shares one set of drawings.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from puzzles.cards import card_name
from puzzles.text import amount

CARD_W, CARD_H = 46, 64
GAP = 10
#: How much of a covered card shows in a column.
STEP = 22
LABEL_W = 124
#: Frame colours of marks.
MARKS = {"named": "#e6007e", "keeps": "#2ca02c", "loses": "#d62728"}
#: Colours a game may name by their letter (The Game editions, Etalage).
COLOURS = {"R": "#c62828", "Y": "#d4a600", "G": "#2e7d32", "B": "#1565c0", "P": "#7b1fa2", "O": "#ef6c00"}
SUIT_SYMBOLS = {"S": ("♠", "#111"), "H": ("♥", "#c62828"), "D": ("♦", "#c62828"), "C": ("♣", "#111")}


@dataclass(frozen=True)
class Face:
    """What a card shows: `name` as the game writes it (for marks found in text), the big
    `text`, a `symbol` below it, the text colour and the card's fill."""

    name: str
    text: str
    symbol: str = ""
    ink: str = "#111"
    fill: str = "#fff"

    @property
    def key(self) -> str:
        """The id of the face's drawing: letters, digits and dashes only."""
        return "f-" + re.sub(r"[^A-Za-z0-9]", lambda m: f"_{ord(m.group()):x}", self.name)

    def drawing(self) -> str:
        """The face drawn once, in card coordinates, as a group that `<use>` places."""
        text = html.escape(self.text)
        lines = [f'<g id="{self.key}">',
                 f'<rect x="1" y="1" width="{CARD_W - 2}" height="{CARD_H - 2}" rx="5" fill="{self.fill}" '
                 'stroke="#555" stroke-width="1.2"/>',
                 ]
        if self.symbol:
            # four characters (an Extreme card's `58+1`) at 15 px run past the card's edge
            size = 15 if len(self.text + self.symbol) <= 3 else 13
            lines.append(f'<text x="4" y="17" font-size="{size}" font-weight="bold" fill="{self.ink}">{text}'
                         f'{html.escape(self.symbol)}</text>')
            lines.append(f'<text x="{CARD_W / 2}" y="{CARD_H - 12}" font-size="26" text-anchor="middle" '
                         f'fill="{self.ink}">{html.escape(self.symbol)}</text>')
        else:
            lines.append(f'<text x="{CARD_W / 2}" y="{CARD_H / 2 + 10}" font-size="22" font-weight="bold" '
                         f'text-anchor="middle" fill="{self.ink}">{text}</text>')
        lines.append("</g>")
        return "".join(lines)


def standard_face(name: str) -> Face:
    """A standard card written rank then suit (`TS`, `7H`): rank and suit symbol, red or black."""
    rank, suit = name[:-1], name[-1]
    symbol, ink = SUIT_SYMBOLS[suit]
    return Face(name, "10" if rank == "T" else rank, symbol, ink)


def number_face(number: int) -> Face:
    """A numbered card (The Game): the number, large."""
    return Face(str(number), str(number), ink="#0d47a1", fill="#fff8e1")


def colour_face(name: str) -> Face:
    """A card written value then colour letter (`7R`): the value on the colour."""
    return Face(name, name[:-1], ink="#fff", fill=COLOURS[name[-1].upper()])


@dataclass(frozen=True)
class Place:
    """A card place: a face, or an empty place with a caption ('up', 'empty'), and a mark."""

    face: Face | None
    caption: str = ""
    mark: str | None = None


def who_moves(to_move: int | None, players: int, played: int = 0) -> str:
    """A title's word on the turn: the player to move and the cards they have played this turn
    (else mid-turn looks like the start of a turn), or for a deal of several players whose
    players choose who starts, that (a one-player deal is player 1's)."""
    if to_move is None and players > 1:
        return "the players choose who starts"
    mover = f"player {to_move or 1} to move"
    return f"{mover} ({amount(played, 'card')} played this turn)" if played else mover


def place(face: Face | None, caption: str = "") -> Place:
    return Place(face, caption)


def pile_top(pile: tuple[int, ...]) -> Place:
    """A pile of standard cards (a foundation) as its top card captioned with its count, or an
    empty place."""
    return place(standard_face(card_name(pile[-1])), amount(len(pile), "card")) if pile else place(None, "empty")


@dataclass
class Picture:
    """A position as labelled blocks: rows of card places and tableaux of columns."""

    title: str
    blocks: list[tuple[str, str, list]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def row(self, label: str, places: list[Place]) -> Picture:
        self.blocks.append(("row", label, list(places)))
        return self

    def columns(self, label: str, columns: list[list[Place]]) -> Picture:
        """Columns side by side, each from its bottom card down to its free card (drawn whole)."""
        self.blocks.append(("columns", label, [list(column) for column in columns]))
        return self

    def note(self, line: str) -> Picture:
        self.notes.append(line)
        return self

    def faces(self) -> list[Face]:
        found = []
        for kind, _, items in self.blocks:
            for item in (p for column in items for p in column) if kind == "columns" else items:
                if item.face is not None:
                    found.append(item.face)
        return found

    def marked(self, names: set[str], mark: str = "named") -> Picture:
        """The picture with every card whose name is in `names` framed with `mark`."""
        def framed(p: Place) -> Place:
            return Place(p.face, p.caption, mark) if p.face is not None and p.face.name in names else p
        blocks = []
        for kind, label, items in self.blocks:
            items = [[framed(p) for p in column] for column in items] if kind == "columns" else [framed(p) for p in items]
            blocks.append((kind, label, items))
        return Picture(self.title, blocks, list(self.notes))

    def body(self) -> tuple[str, int, int]:
        """The SVG elements that place the cards (`<use>` of each face's drawing), and the size."""
        parts, y, width = [], 30, 0
        parts.append(f'<text x="{GAP}" y="20" font-size="15" font-weight="bold">{html.escape(self.title)}</text>')
        for kind, label, items in self.blocks:
            parts.append(f'<text x="{GAP}" y="{y + 20}" font-size="13" fill="#333">{html.escape(label)}</text>')
            x0 = GAP + LABEL_W
            if kind == "row":
                for i, item in enumerate(items):
                    parts.append(_place_svg(item, x0 + i * (CARD_W + GAP // 2), y))
                width = max(width, x0 + len(items) * (CARD_W + GAP // 2))
                y += CARD_H + GAP + (12 if any(item.face is not None and item.caption for item in items) else 0)
            else:
                tallest = 0
                for c, column in enumerate(items):
                    x = x0 + c * (CARD_W + GAP // 2)
                    for d, item in enumerate(column or [Place(None, "-")]):
                        parts.append(_place_svg(item, x, y + d * STEP))
                    tallest = max(tallest, (max(len(column), 1) - 1) * STEP + CARD_H)
                width = max(width, x0 + len(items) * (CARD_W + GAP // 2))
                y += tallest + GAP
        for line in self.notes:
            parts.append(f'<text x="{GAP}" y="{y + 14}" font-size="13">{html.escape(line)}</text>')
            y += 20
        return "".join(parts), max(width + GAP, 9 * len(self.title) + 2 * GAP), y + GAP

    def svg(self) -> str:
        """A standalone SVG document of the picture."""
        body, width, height = self.body()
        return svg_document(body, width, height, defs(self.faces()))


def _place_svg(item: Place, x: float, y: float) -> str:
    if item.face is None:
        # a word a line: `down1 ↓` on one line is wider than the place and runs into the next
        words = item.caption.split() or [""]
        top = y + CARD_H / 2 + 4 - (len(words) - 1) * 13 / 2
        lines = "".join(f'<tspan x="{x + CARD_W / 2}" y="{top + 13 * i}">{html.escape(word)}</tspan>'
                        for i, word in enumerate(words))
        shape = (f'<rect x="{x + 1}" y="{y + 1}" width="{CARD_W - 2}" height="{CARD_H - 2}" rx="5" fill="none" '
                 f'stroke="#999" stroke-dasharray="4 3"/>'
                 f'<text font-size="11" text-anchor="middle" fill="#777">{lines}</text>')
    else:
        shape = f'<use href="#{item.face.key}" x="{x}" y="{y}"/>'
        if item.caption:
            shape += (f'<text x="{x + CARD_W / 2}" y="{y + CARD_H + 11}" font-size="10" text-anchor="middle" '
                      f'fill="#555">{html.escape(item.caption)}</text>')
    if item.mark:
        shape += (f'<rect x="{x - 2}" y="{y - 2}" width="{CARD_W + 4}" height="{CARD_H + 4}" rx="7" fill="none" '
                  f'stroke="{MARKS[item.mark]}" stroke-width="3" class="mark-{item.mark}"/>')
    return shape


def defs(faces) -> str:
    """The drawings of these faces, each once."""
    unique = {face.key: face for face in faces}
    return "<defs>" + "".join(face.drawing() for face in unique.values()) + "</defs>"


def svg_document(body: str, width: int, height: int, definitions: str = "", description: str = "") -> str:
    """An SVG document; `description` (the position in the game's text format) goes in `<desc>`."""
    desc = f"<desc>{html.escape(description)}</desc>" if description else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">{desc}'
            f'<rect width="100%" height="100%" fill="#f4f1e8"/>{definitions}{body}</svg>')


#: Numbers that count, measure or name a player rather than name a card ("player 2", "4 cards
#: left", "each exactly 10 from the last", "the hand of 6"): The Game's cards are bare numbers,
#: and these framed cards 2, 4, 10 and 6.
COUNTS = re.compile(r"\b(?:players?|must play|can play|fewer than|more than|at least|at most|exactly|holds only"
                    r"|has played|hand of)\s+\d+\b"
                    r"|\b\d+\s+(?:cards?|turns?|points?|moves?|players?|rows?|columns?|places?|more)\b", re.IGNORECASE)


def names_in(text: str, picture: Picture) -> set[str]:
    """The card names of the picture that the text mentions as whole words, leaving out the
    numbers that count (`COUNTS`)."""
    words = set(re.findall(r"[A-Za-z0-9♠♥♦♣]+", COUNTS.sub(" ", text)))
    return {face.name for face in picture.faces() if face.name in words}
