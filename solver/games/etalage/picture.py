"""Etalage as a picture: the display, the trick so far, each hand with its score."""

from __future__ import annotations

from puzzles.etalage import Position, card_name

from ...pictures import Picture, colour_face, place


def picture(position: Position) -> Picture:
    if position.is_over():
        turn = "the game is over"
    elif position.distributing:
        turn = f"player {position.leader} led, player {position.to_move} to pick"
    else:
        turn = f"player {position.leader} leads, player {position.to_move} to play"
    drawn = Picture(f"Etalage: {position.players} players, {turn}")
    drawn.row("display", [place(colour_face(card_name(c))) for c in position.display] or [place(None, "empty")])
    drawn.row("trick", [place(colour_face(card_name(c))) for c in position.trick] or [place(None, "none")])
    for number, (hand, score) in enumerate(zip(position.hands, position.scores), start=1):
        drawn.row(f"hand {number} ({score} pts)", [place(colour_face(card_name(c))) for c in hand] or [place(None, "-")])
    return drawn
