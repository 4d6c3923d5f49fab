"""The games winnable knows, by command-line name: one line per game, each naming the game's
entry (its rules, engine, options and formats; see `contract.GameEntry`)."""

from __future__ import annotations

from puzzles.errors import UnknownGameError, quoted

from .contract import GameEntry, registry_of
from .games.etalage import engine as etalage
from .games.one_foundation import engine as one_foundation
from .games.quick_and_easy import engine as quick_and_easy
from .games.sir_tommy import engine as sir_tommy
from .games.stapelen import engine as stapelen
from .games.the_game import engine as the_game
from .games.the_game_extreme import engine as the_game_extreme
from .games.twaalven import engine as twaalven

GAMES: dict[str, GameEntry] = registry_of([
    twaalven.GAME,
    stapelen.GAME,
    one_foundation.ALL_IN_A_ROW_GAME,
    one_foundation.BLACK_HOLE_GAME,
    the_game.GAME,
    the_game_extreme.GAME,
    sir_tommy.GAME,
    etalage.GAME,
    quick_and_easy.GAME,
])


def game(name: str) -> GameEntry:
    """The registry entry for `name`; UnknownGameError naming the known games otherwise."""
    if not isinstance(name, str):  # None raised a TypeError quoting it, a list one hashing it
        raise UnknownGameError(f"a game is named by a str (see api.games()), not a {type(name).__qualname__}")
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(GAMES)
        raise UnknownGameError(f"unknown game {quoted(name)}; known games: {known}") from None
