"""The games winnable knows, by command-line name: each pairs its reference rules with its engine.

A game joins by adding one entry here; every command (deal, solve, explain, analyse) then works
for it. Its rules provide NAME, TITLE, parse(text), deal(seed) and format_position(position); its
engine provides solve, analyse and explain, each taking (position, budget).
"""

from __future__ import annotations

from dataclasses import dataclass

from puzzles import RULES
from puzzles.errors import UnknownGameError

from . import one_foundation, sir_tommy, stapelen, the_game, twaalven


@dataclass(frozen=True)
class GameEntry:
    name: str
    rules: object
    engine: object

    @property
    def title(self) -> str:
        return self.rules.TITLE


ENGINES = {twaalven.NAME: twaalven, stapelen.NAME: stapelen, **one_foundation.ENGINES, the_game.NAME: the_game, sir_tommy.NAME: sir_tommy}
GAMES = {name: GameEntry(name, RULES[name], engine) for name, engine in ENGINES.items()}


def game(name: str) -> GameEntry:
    """The registry entry for `name`; UnknownGameError naming the known games otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGameError(f"unknown game {name!r}; known games: {known}") from None
