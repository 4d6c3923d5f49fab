"""The contract between winnable's commands and its games: what a game's rules, positions and
engine provide (as Protocols), the options a game declares, and its registry entry.

A game joins with a `GameEntry` in its engine module (`solver/games/<game>/engine.py`), imported
and listed in `solver/registry.py`; every command then works for it, and the command line builds its
options and help from the entries (see docs/adding-a-game.md).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

from puzzles.errors import WinnableError, quoted
from puzzles.text import decimal

from .result import AnalyseResult, Budget, Explanation, SolveResult


class Move(Protocol):
    """A move (or turn): `str` is its notation; `to_json` what `--json` prints of it."""

    def to_json(self) -> dict: ...


class Position(Protocol):
    """A deal or position of the reference rules (`puzzles/`). `to_move` is None for a deal
    whose starter the players still choose (and for one-player games)."""

    def legal_moves(self) -> list: ...

    def apply(self, move) -> Position: ...

    def is_won(self) -> bool: ...


class Rules(Protocol):
    """A game's reference rules: a module of `puzzles/`. `deal` and `parse` take the game's
    variant options (see `Option`) as keywords."""

    NAME: str
    TITLE: str

    def deal(self, seed: int, **variant) -> Position: ...

    def parse(self, text: str, **variant) -> Position: ...

    def format_position(self, position: Position) -> str: ...


class Engine(Protocol):
    """What the commands ask of a game (`solver.engine.Engine` implements the shared flows)."""

    def solve(self, position: Position, budget: Budget, **options) -> SolveResult: ...

    def analyse(self, position: Position, budget: Budget, progress: Callable = iter) -> AnalyseResult: ...

    def explain(self, position: Position, budget: Budget) -> Explanation: ...


@dataclass(frozen=True)
class Option:
    """An option a game declares. `target` "rules": a variant, passed to the rules' `deal` and
    `parse` (and stored with survey rows); "solve": passed to the engine's `solve`.

    `low`/`high` bound an integer option; `choices` lists a choice option's values; neither
    makes a flag (a bool, False unless given)."""

    name: str  # the keyword, e.g. "smaller_hand"; the command line says --smaller-hand
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    default: Any = None
    target: str = "rules"

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def kind(self) -> str:
        return "int" if self.low is not None else "choice" if self.choices else "flag"

    def describe(self) -> str:
        """'players, 1-5 (default 1)'."""
        text = self.help
        if self.kind == "int":
            text += f", {self.low}-{self.high}"
        elif self.kind == "choice":
            text += f": {' or '.join(self.choices)}"
        return text + (f" (default {self.default})" if self.default not in (None, False) else "")

    def check(self, value, game: str):
        """The value if this game accepts it; WinnableError naming the option otherwise."""
        whole = isinstance(value, numbers.Integral) and not isinstance(value, bool)
        if self.kind == "int" and not (whole and self.low <= value <= self.high):
            raise WinnableError(f"{self.flag} {value!r}: {game} takes {self.low} to {self.high}")
        if self.kind == "flag" and not isinstance(value, bool):  # 'no' would read as true
            raise WinnableError(f"{self.flag} {value!r}: a flag is True or False")
        if self.kind == "choice" and value not in self.choices:
            raise WinnableError(f"{self.flag} {value}: {game} takes {' or '.join(self.choices)}")
        return value


def variant_comment(label: str) -> str:
    """The comment line that names a variant's options (its label, see
    `GameEntry.variant_label`) in a deal's file, whose text does not always carry them (Sir
    Tommy's rows): '# variant: rows=2 (solve this file with --rows 2)'."""
    flags = " ".join("--" + word.replace("=", " ") for word in label.split())
    return f"# variant: {label} (solve this file with {flags})"


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its rules and engine, the options it takes, and the help text of its
    deal and position formats. `test_variants` and `test_seeds` are what the conformance suite runs."""

    rules: Rules
    engine: Engine
    options: tuple[Option, ...] = ()
    formats: str = ""  # the deal and position text formats, for --help
    json_fields: str = ""  # the game's own fields of `solve --json`, for --help
    test_variants: tuple[dict, ...] = ({},)
    #: The seeds the conformance and picture suites solve in every test variant: deals the
    #: engine decides within seconds (the first is the one the command tests run).
    test_seeds: tuple[int, ...] = (1, 2, 3)
    #: position -> solver.pictures.Picture (`winnable show`, replay pages); None: no pictures
    picture: Callable[[Any], Any] | None = None

    @property
    def name(self) -> str:
        return self.rules.NAME

    @property
    def title(self) -> str:
        return self.rules.TITLE

    def option(self, name: str) -> Option | None:
        return next((option for option in self.options if option.name == name), None)

    def checked(self, given: dict, target: str) -> dict:
        """The options of `given` (name -> value, only those the user gave) for `target`
        ("rules" or "solve"), each checked; WinnableError for an option of another game or a
        value out of range."""
        chosen = {}
        for name, value in given.items():
            option = self.option(name)
            if option is None:
                raise WinnableError(f"{'--' + name.replace('_', '-')} does not apply to {self.name}")
            if option.target == target:
                chosen[name] = option.check(value, self.name)
        return chosen

    def variant_label(self, variant: dict) -> str:
        """How a variant is named in survey rows and reports: '' for the standard rules, else
        'players=3 expert' (options in declaration order, defaults left out). Solve options
        count too ('players=4 guarantees-only'): they change what a row holds, so rows searched
        with them are kept and reported apart."""
        words = []
        for option in self.options:
            value = variant.get(option.name, option.default)
            if value in (None, False) or value == option.default:
                continue
            words.append(option.name.replace("_", "-") if value is True else f"{option.name.replace('_', '-')}={value}")
        return " ".join(words)

    def variant_of(self, label: str, target: str = "rules") -> dict:
        """The options for `target` ("rules" or "solve") of the variant a label names (the
        inverse of `variant_label`); WinnableError if it names none."""
        variant = {}
        for word in label.split():
            name, equals, value = word.partition("=")
            option = self.option(name.replace("-", "_"))
            if option is None or (option.kind == "flag") == bool(equals):
                raise WinnableError(f"{quoted(label)} is not a variant of {self.name}")
            try:
                variant[option.name] = True if not equals else decimal(value) if option.kind == "int" else value
            except ValueError:
                raise WinnableError(f"{quoted(label)} is not a variant of {self.name}") from None
        return self.checked(variant, target)


def registry_of(entries: Iterable[GameEntry]) -> dict[str, GameEntry]:
    """The entries by command-line name; AssertionError on a name given twice."""
    games: dict[str, GameEntry] = {}
    for entry in entries:
        if entry.name in games:
            raise AssertionError(f"game {entry.name!r} registered twice")
        games[entry.name] = entry
    return games
