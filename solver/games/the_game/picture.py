"""The Game as a picture: the four piles with their direction, each hand, the draw pile's count."""

from __future__ import annotations

from typing import Callable

from puzzles.the_game import PILES, Position, start_piles
from puzzles.text import amount

from ...pictures import Face, Picture, number_face, place, who_moves


def picture(position: Position, face: Callable[[int], Face] = number_face) -> Picture:
    """The piles, each hand and the draw pile's count; `face` draws a card (Extreme marks its
    instructions)."""
    mover = who_moves(position.to_move, position.players, position.played)
    drawn = Picture(f"The Game: {amount(position.cards_left, 'card')} left, {mover}")
    starts = start_piles(position.top)
    drawn.row("piles", [
        place(face(top), f"{name} {'↑' if pile < 2 else '↓'}") if top != first else place(None, f"{name} {'↑' if pile < 2 else '↓'}")
        for pile, (name, top, first) in enumerate(zip(PILES, position.piles, starts))])
    for number, hand in enumerate(position.hands, start=1):
        drawn.row(f"hand {number}", [place(face(card)) for card in sorted(hand)] or [place(None, "-")])
    return drawn.note(f"draw pile: {amount(len(position.draw), 'card')}" + (f", next {position.draw[0]}" if position.draw else ""))
