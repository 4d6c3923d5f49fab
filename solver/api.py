"""winnable from Python: the commands' work as functions over the game registry.

    >>> from solver import api
    >>> api.solve("twaalven", api.deal("twaalven", 7)).verdict
    'winnable'

Every function names its game by its command-line name (`api.games()`), takes a game's variant
options as keywords (`players=3`, `rows=6`, ...) where it deals or parses (`solve` takes only the
search's own, such as Sir Tommy's `maximise="U"`), and a budget as
`time_limit` (seconds; None: no limit), `node_limit` (0: no limit) and `table_mib` (the MiB of
the search's table; None: the game's own size). Bad input raises a
`puzzles.errors.WinnableError` (a ValueError) whose message says what is wrong and where.
See docs/api.md.
"""

from __future__ import annotations

from dataclasses import fields

from puzzles.cards import MASK64
from puzzles.errors import IllegalPositionError, ParseError, WinnableError

from .registry import GAMES, game
from .result import AnalyseResult, Budget, Explanation, SolveResult


def budget(time_limit: float | None, node_limit: int, table_mib: int | None) -> Budget:
    """A search budget from a caller's limits, checked as the command line checks its options:
    a time limit of zero, below it or not a number would only leave every answer unknown."""
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and not isinstance(time_limit, bool)
                                       and time_limit > 0):
        raise WinnableError(f"time_limit {time_limit!r}: give a number of seconds above 0, or None for no limit")
    if not (isinstance(node_limit, int) and not isinstance(node_limit, bool) and 0 <= node_limit <= MASK64):
        # above 2**64 - 1 (the command line's most) the kernel raised an OverflowError
        raise WinnableError(f"node_limit {node_limit!r}: give a whole number of nodes, 0 for no limit")
    if not (table_mib is None or isinstance(table_mib, int) and not isinstance(table_mib, bool)):
        # '64' or 64.0 failed with a TypeError sizing the table
        raise WinnableError(f"table_mib {table_mib!r}: give a whole number of MiB, or None for the game's own")
    return Budget(time_limit, node_limit, table_mib=table_mib)


def checked(entry, given: dict, target: str) -> dict:
    """The options of `given` for `target` ("rules": the deal's, "solve": the search's), each
    checked. One of the other kind raises: it would be dropped unread (solve(..., expert=True)
    once solved the position under the rules it already carried, without a word)."""
    chosen = entry.checked(given, target)
    for name in given.keys() - chosen.keys():
        kind, where = ("search", "api.solve") if target == "rules" else ("deal", "api.deal or api.parse")
        raise WinnableError(f"{name}={given[name]!r} is an option of the {kind}: give it to {where}")
    return chosen


def position_of(entry, position):
    """`position` if it is one of the game's (from `deal` or `parse`) and one the game can reach:
    text, None or another game's position otherwise failed deep in the search, with an
    AttributeError at best, and games that share a class (All in a Row's 13 columns given to
    Black Hole) with the kernel's plain ValueError."""
    if type(position) is not entry.rules.Position:
        kind = type(position)
        raise WinnableError(f"{entry.name} takes a position from api.deal or api.parse, "
                            f"not a {kind.__module__}.{kind.__qualname__}")
    field = next((f.name for f in fields(position) if mutable(getattr(position, f.name))), None)
    if field is not None:  # shared with the caller, it was changed by the search (a row came back with cards)
        raise IllegalPositionError(f"the position's {field} holds a list, set or dict; positions hold tuples "
                                   "(dataclasses.replace with tuples, as deal and parse make them)")
    entry.rules.check_position(position)
    return position


def mutable(value) -> bool:
    """Whether `value` is or holds (in tuples) a list, set or dict."""
    if isinstance(value, (list, set, dict, bytearray)):
        return True
    return isinstance(value, tuple) and any(mutable(item) for item in value)


def games() -> list[str]:
    """The games winnable knows, by command-line name."""
    return list(GAMES)


def deal(name: str, seed: int, **variant):
    """The seeded deal `seed` of game `name` (a reference-rules position)."""
    entry = game(name)
    if isinstance(seed, bool):  # True dealt seed 1
        raise WinnableError(f"seed {seed!r}: give a whole number")
    return entry.rules.deal(seed, **checked(entry, variant, "rules"))


def parse(name: str, text: str, **variant):
    """A deal or position of game `name` from its text format."""
    entry = game(name)
    if not isinstance(text, str):  # bytes or None failed in the parser (a TypeError, an AttributeError)
        raise ParseError(f"api.parse takes the text of a deal or position (a str), not a {type(text).__qualname__}")
    return entry.rules.parse(text.removeprefix("\ufeff"), **checked(entry, variant, "rules"))  # a file's BOM, as FILE


def solve(name: str, position, time_limit: float | None = 30.0, node_limit: int = 0, table_mib: int | None = None,
          **options) -> SolveResult:
    """Is the deal or position winnable, by whom and how? An optimisation game (The Game)
    answers with an OptimumResult: its value, proven bound and whether they meet."""
    entry = game(name)
    return entry.engine.solve(position_of(entry, position), budget(time_limit, node_limit, table_mib),
                              **checked(entry, options, "solve"))


def explain(name: str, position, time_limit: float | None = 30.0, node_limit: int = 0,
            table_mib: int | None = None, **options) -> Explanation:
    """Why the deal or position cannot be won (or that it can), in sentences a player can check."""
    entry = game(name)
    no_options(entry, options, "explain")
    return entry.engine.explain(position_of(entry, position), budget(time_limit, node_limit, table_mib))


def analyse(name: str, position, time_limit: float | None = 30.0, node_limit: int = 0,
            table_mib: int | None = None, **options) -> AnalyseResult:
    """Every legal move with what it leads to: keeps winnable, loses, or unknown."""
    entry = game(name)
    no_options(entry, options, "analyse")
    return entry.engine.analyse(position_of(entry, position), budget(time_limit, node_limit, table_mib))


def no_options(entry, options: dict, function: str) -> None:
    """WinnableError for any option given to `function`, which takes none (a TypeError said
    only 'unexpected keyword argument'): where it belongs, if anywhere."""
    for name, value in options.items():
        option = entry.option(name)
        where = ("api.deal or api.parse" if option.target == "rules" else "api.solve") if option else None
        raise WinnableError(f"api.{function} takes no option {name}={value!r}"
                            + (f": it is an option of {where}" if where else f"; {entry.name} has no such option"))
