"""The games winnable knows, by command-line name: each pairs its reference rules with its engine.

A game joins by adding one entry here; every command (deal, solve, explain, analyse) then works
for it. A rules module provides NAME, TITLE, parse(text), deal(seed) and format_position(position);
an engine module provides solve, explain and analyse, each taking (position, budget).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from puzzles import RULES
from puzzles.errors import UnknownGameError

from . import twaalven


@dataclass(frozen=True)
class GameEntry:
    name: str
    rules: ModuleType
    engine: ModuleType

    @property
    def title(self) -> str:
        return self.rules.TITLE


GAMES = {engine.NAME: GameEntry(engine.NAME, RULES[engine.NAME], engine) for engine in (twaalven,)}


def game(name: str) -> GameEntry:
    """The registry entry for `name`; UnknownGameError naming the known games otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGameError(f"unknown game {name!r}; known games: {known}") from None
