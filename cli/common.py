"""What every winnable command shares: exit codes, how GAME/FILE/--seed and budgets are given,
error reporting, JSON output and progress bars."""

from __future__ import annotations

import functools
import json
import sys

import click

from puzzles.errors import WinnableError
from solver.registry import game as lookup

EXIT_CODES = """\b
Exit codes:
  0    the command ran; the verdict (winnable, unwinnable or unknown) is in its output
  1    an internal error (a bug in winnable: please report it)
  2    bad input or usage: a malformed deal or position, an unknown game, a missing file
  130  interrupted (Ctrl-C)"""

INPUT_HELP = """\b
A deal or position comes from FILE ('-' reads standard input) or from --seed N.
One line per column, cards separated by spaces, bottom (covered) card first,
free card last, '-' for an empty column; '#' starts a comment. A position
mid-game adds lines:
  twaalven                  to-move: T|F
  stapelen                  A: 3S 4H, -, QC    (A's three foundations, bottom first)
                            B: -, -, 7C
                            to-move: A|B
  all-in-a-row, black-hole  foundation: AS 2H 3D   (the cards played, in order)
the-game has no columns: 'hand 1: 7 94 52 4 19 40 49 35' per player and
'draw: 16 17 90 ...' (next card first, '-' for none); a position adds
'piles: 1 1 100 100' (up1 up2 down1 down2), 'to-move: 1' and 'played: 0' (cards
played this turn); optional 'variant: expert', 'hand-size: 7', 'cards: 2-30'.
Its solve --json gives cards_left, lower_bound, optimal, starter, by_starter and
solution as turns {"player": 1, "plays": [{"card": 45, "pile": "up1"}],
"drew": [17, 88]}; analyse --json gives per move cards_left, lower_bound, optimal.
sir-tommy: a deal is the stock, top card first, any whitespace. A position
has one line per row (bottom first, '-' empty) and the lines
  stock: 7S 2D …     (top first, '-' empty)   U: AS 2S, AH, -, -   (bottom first)
  hand: 3S           (drawn, not yet played)  D: KC, -, -, -
  to-move: U|D       (leave out hand: at the start of a turn; the mover draws)"""


class InputError(click.ClickException):
    """Bad input: one clear line on stderr and exit code 2, no traceback."""

    exit_code = 2

    def format_message(self) -> str:
        return self.message


def game_choice(name: str):
    try:
        return lookup(name)
    except WinnableError as error:
        raise InputError(str(error)) from None


def load(entry, source: str | None, seed: int | None, variant: dict | None = None):
    """The deal or position named by FILE or --seed, parsed by the game's rules.

    `variant` holds the variant options the user gave (see `source_options`); a game takes only
    those in its rules' VARIANTS.
    """
    if (source is None) == (seed is None):
        raise click.UsageError("give either a FILE ('-' for standard input) or --seed N, not both")
    variant = variant or {}
    foreign = sorted(set(variant) - getattr(entry.rules, "VARIANTS", frozenset()))
    if foreign:
        raise InputError(f"{option_name(foreign[0])} does not apply to {entry.name}")
    try:
        if seed is not None:
            return entry.rules.deal(seed, **variant)
        if source == "-":
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
        return entry.rules.parse(text, **variant)
    except OSError as error:
        raise InputError(f"cannot read {source}: {error.strerror}") from None
    except WinnableError as error:
        where = "standard input" if source == "-" else source or f"seed {seed}"
        raise InputError(f"{where}: {error}") from None


def option_name(keyword: str) -> str:
    return "--" + keyword.replace("_", "-")


VARIANT_OPTIONS = {
    "players": click.option("--players", type=click.IntRange(1, 5), help="the-game: players, 1-5 (default 1)."),
    "expert": click.option("--expert", is_flag=True, help="the-game: expert rules (at least 3 cards a turn)."),
    "smaller_hand": click.option("--smaller-hand", is_flag=True, help="the-game: hands one card smaller."),
    "rows": click.option("--rows", type=click.IntRange(1), help="sir-tommy: number of rows (default 4)."),
}


def source_options(callback):
    """GAME, FILE, --seed and the variant options: how every command names its deal or position.

    The command receives the variant options the user gave as one dict, `variant`.
    """

    @functools.wraps(callback)
    def with_variant(**kwargs):
        given = {name: kwargs.pop(name) for name in VARIANT_OPTIONS}
        variant = {name: value for name, value in given.items() if value not in (None, False)}
        return callback(variant=variant, **kwargs)

    command = with_variant
    for option in reversed(VARIANT_OPTIONS.values()):
        command = option(command)
    command = click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="Use the seeded deal N.")(command)
    command = click.argument("source", metavar="[FILE]", required=False)(command)
    return click.argument("game_name", metavar="GAME")(command)


def budget_options(command):
    command = click.option(
        "--node-limit", type=click.IntRange(0), default=0, show_default=True,
        help="Stop after this many search nodes (0: no limit); the verdict is then 'unknown'.",
    )(command)
    command = click.option(
        "--time-limit", type=click.FloatRange(0, min_open=True), default=30.0, show_default=True,
        help="Stop after this many seconds; the verdict is then 'unknown'.",
    )(command)
    return click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")(command)


def emit_json(payload: dict) -> None:
    click.echo(json.dumps(payload, indent=2))


def progress(items=None, total: int | None = None, unit: str = "moves"):
    """A tqdm bar on a terminal (stderr), silent when piped; wraps `items` or counts to `total`."""
    from tqdm import tqdm

    return tqdm(items, total=total, desc=unit if items is not None else None, unit=unit.split()[-1],
                disable=None, leave=False, smoothing=0.1)
