"""The Game: Extreme as a picture: The Game's, with each instruction card tinted and its
instruction's sign under the number, and mid-turn a note of the turn so far."""

from __future__ import annotations

from functools import partial

from puzzles.the_game import PILES
from puzzles.the_game_extreme import MIXED, Position

from ...pictures import Face, Picture, number_face
from ..the_game import picture as base

SIGNS = {"stop": "■", "skull": "☠", "three": "×3", "no-talk": "…", "no-backwards": "↛", "same-pile": "=",
         "draw-one": "+1"}


def face(position: Position, card: int) -> Face:
    kind = position.instruction(card)
    if kind is None:
        return number_face(card)
    return Face(str(card), str(card), SIGNS[kind], ink="#b71c1c", fill="#ffe0e0")


def turn_note(position: Position) -> str:
    """What a position's `this-turn:` line says, in words: where the turn's cards went, a three
    played (the turn has exactly 3 cards) and a stop that ended it."""
    where = "on two piles or more" if position.turn_pile == MIXED else f"on {PILES[position.turn_pile]}"
    return "this turn: " + ", ".join([where] + ["a three, so exactly 3 cards"] * position.three
                                     + ["ended by a stop"] * position.stopped)


def picture(position: Position) -> Picture:
    drawn = base.picture(position, partial(face, position))
    drawn.title = drawn.title.replace("The Game:", "The Game: Extreme:", 1)
    return drawn.note(turn_note(position)) if position.turn_pile is not None else drawn
