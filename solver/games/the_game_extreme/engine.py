"""The Game: Extreme on The Game's engine: the same kernel, given the instruction marks and the
turn so far (its pile, a three, a stop), and the Extreme reference rules (`puzzles/the_game_extreme.py`)
to replay every line it reports."""

from __future__ import annotations

from puzzles import the_game_extreme as rules
from puzzles.the_game_extreme import KINDS, Position

from ...contract import GameEntry, Option
from ..the_game.engine import TheGameEngine
from . import picture, reasons

#: The kernel's number of the turn's pile before its first play (0-3 are piles, MIXED is 4).
NO_PILE = 5


class TheGameExtremeEngine(TheGameEngine):
    name = rules.NAME
    rules = rules

    def kernel_rules(self, start: Position) -> dict:
        """The marks as (card, instruction number from 1 in KINDS order) and the turn so far."""
        marks = [(card, KINDS.index(kind) + 1) for card, kind in start.marks]
        turn_pile = NO_PILE if start.turn_pile is None else start.turn_pile
        return {"marks": marks, "turn": (turn_pile, start.three, start.stopped)}

    def facts(self, position: Position) -> list[str]:
        """The Game's dead cards, then the cards the instructions keep from ever being played."""
        return super().facts(position) + [why for _, why in reasons.never_played(position)]

    def never_played(self, position: Position) -> set[int]:
        """The Game's dead cards and those of the instructions' reasons."""
        return super().never_played(position).union(*(cards for cards, _ in reasons.never_played(position)))

    def clog_bound(self, position: Position, never: set[int]) -> None:
        """None: a draw-one can leave a hand short, so a clogged hand need not end the game."""
        return None

    def clogged(self, end: Position) -> str | None:
        """The Game's clogged hand, naming the instructions that keep it from making a turn."""
        return reasons.clogged(end)


GAME = GameEntry(
    rules=rules,
    engine=TheGameExtremeEngine(),
    picture=picture.picture,
    options=(
        Option("players", "the-game-extreme: players", low=1, high=rules.MAX_PLAYERS, default=1),
        Option("expert", "the-game-extreme: expert rules (at least 3 cards a turn)"),
        Option("smaller_hand", "the-game-extreme: hands one card smaller"),
    ),
    formats="""\
the-game-extreme: The Game's format with each card that carries an instruction
written card!instruction (45!stop 72!skull 13!three 88!no-talk 30!no-backwards
61!same-pile 9!draw-one), 4 of each in a deal; mid-turn a 'this-turn: up1' line
names the pile of the turn's cards ('mixed' for several), with 'three' / 'stop'
when one was played.""",
    json_fields="""\
the-game-extreme: as the-game; each play that carries an instruction adds
"instruction": "stop".""",
    # Solo only: the kernel's own tests cover 1-3 players.
    test_variants=({},),
)
