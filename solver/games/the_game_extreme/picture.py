"""The Game: Extreme as a picture: The Game's, with each instruction card tinted and its
instruction's sign under the number."""

from __future__ import annotations

from functools import partial

from puzzles.the_game_extreme import Position

from ...pictures import Face, Picture, number_face
from ..the_game import picture as base

SIGNS = {"stop": "■", "skull": "☠", "three": "×3", "no-talk": "…", "no-backwards": "↛", "same-pile": "=",
         "draw-one": "+1"}


def face(position: Position, card: int) -> Face:
    kind = position.instruction(card)
    if kind is None:
        return number_face(card)
    return Face(str(card), str(card), SIGNS[kind], ink="#b71c1c", fill="#ffe0e0")


def picture(position: Position) -> Picture:
    drawn = base.picture(position, partial(face, position))
    drawn.title = drawn.title.replace("The Game:", "The Game: Extreme:", 1)
    return drawn
