"""Quick & Easy as a picture: the two piles with their direction, each hand, the draw count."""

from __future__ import annotations

from puzzles.quick_and_easy import PILES, Position, card_name
from puzzles.text import amount

from ...pictures import Picture, colour_face, place, who_moves


def picture(position: Position) -> Picture:
    mover = who_moves(position.to_move, position.players, position.played)
    drawn = Picture(f"The Game: Quick & Easy: {position.cards_played} played, {mover}")
    drawn.row("piles", [place(colour_face(card_name(top)), f"{name} {arrow}") if top is not None
                        else place(None, f"{name} {arrow}")
                        for name, arrow, top in zip(PILES, "↑↓", position.piles)])
    for number, hand in enumerate(position.hands, start=1):
        drawn.row(f"hand {number}", [place(colour_face(card_name(c))) for c in hand] or [place(None, "-")])
    return drawn.note(f"draw pile: {amount(len(position.draw), 'card')}")
