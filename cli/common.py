"""What every winnable command shares: exit codes, how GAME/FILE/--seed, the games' options and
budgets are given, reading input, error reporting, JSON output and progress bars.

The games' options and format help come from the registry (`solver.registry.GAMES`): a game
declares them in its entry, and every command that takes a deal offers them."""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import sys
import threading
import time

import click

from puzzles.errors import WinnableError
from puzzles.text import decimal
from solver.batch.files import new_file_folder
from solver.contract import GameEntry, Option
from solver.parallel import MAX_JOBS, usable_cores
from solver.registry import GAMES
from solver.registry import game as lookup
from solver.result import machine_mib

EXIT_CODES = """\b
Exit codes:
  0    the command ran; the verdict (winnable, unwinnable or unknown) is in its output
       (also when the reader of its output closed the pipe early, as `| head` does)
  1    an internal error (a bug in winnable: please report it)
  2    bad input or usage: a malformed deal or position, an unknown game, a missing file,
       an option out of range
  130  interrupted (Ctrl-C, or kill: SIGTERM)"""

INPUT_HELP = "\b\nA deal or position comes from FILE ('-' reads standard input) or from --seed N.\n" + "\n".join(
    entry.formats for entry in GAMES.values()
)
JSON_HELP = "\b\n" + "\n".join(entry.json_fields for entry in GAMES.values())
#: The most bytes a deal or position may have: a thousand times any game's text, and little
#: enough memory that a wrong file (or /dev/zero) is refused before it is read whole.
MAX_INPUT_BYTES = 1 << 20

class InputError(click.ClickException):
    """Bad input: one clear line on stderr and exit code 2, no traceback."""

    exit_code = 2

    def format_message(self) -> str:
        return self.message


def checked(function, *args, **kwargs):
    """function(*args, **kwargs), with bad input (WinnableError) as one line and exit code 2."""
    try:
        return function(*args, **kwargs)
    except WinnableError as error:
        raise InputError(str(error)) from None


def game_choice(name: str) -> GameEntry:
    return checked(lookup, name)


def variant_of(entry, given: dict) -> str:
    """The label of the variant the user chose (the game's rules and solve options they gave)."""
    return entry.variant_label({**checked(entry.checked, given, "rules"), **checked(entry.checked, given, "solve")})


def shown(path: str) -> str:
    """A path as a user can read it, whatever bytes it holds."""
    return click.format_filename(path)


def cannot_write(path: str, error: OSError) -> InputError:
    """The one line for `error` writing `path`. A file is written beside `path` first and then
    put in its place (solver.batch.files.replacing): an error that names that new file, not
    `path`, is about making a file in `path`'s directory, whether `path` exists or not."""
    if error.filename is not None and path not in (error.filename, error.filename2):
        folder = new_file_folder(path)
        return InputError(f"cannot write {shown(path)}: cannot make a new file in {shown(folder)} ({error.strerror})")
    return InputError(f"cannot write {shown(path)}: {error.strerror}")


def read_text(source: str) -> str:
    """The text of FILE, or of standard input for '-': UTF-8, with or without a byte-order mark.
    At most MAX_INPUT_BYTES are read, so a huge or endless input is refused, not read whole."""
    where = "standard input" if source == "-" else shown(source)
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(source, "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise InputError(f"cannot read {where}: {error.strerror}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"{where}: more than {MAX_INPUT_BYTES // 2**20} MiB; a deal or position is a few KB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(f"{where}: line {line}: not UTF-8 text (byte 0x{data[error.start]:02x})") from None


def load(entry: GameEntry, source: str | None, seed: int | None, variant: dict):
    """The deal or position named by FILE or --seed, parsed by the game's rules with `variant`."""
    if source is None and seed is None:
        raise click.UsageError("give a FILE ('-' for standard input) or --seed N")
    if source is not None and seed is not None:
        raise click.UsageError("give a FILE or --seed N, not both")
    if seed is not None:
        return checked(entry.rules.deal, seed, **variant)
    text = read_text(source)
    where = "standard input" if source == "-" else shown(source)
    try:
        return entry.rules.parse(text, **variant)
    except WinnableError as error:
        raise InputError(f"{where}: {error}") from None


class Whole(click.IntRange):
    """A whole number within bounds, as every integer option takes: a value that is not one is
    called "not a valid integer" (click's range type says "not a valid integer range")."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            try:
                value = decimal(value)
            except ValueError:
                self.fail(f"{value!r} is not a valid integer.", param, ctx)
        return super().convert(value, param, ctx)


def merged(options: list[Option]) -> click.Option:
    """One click option for every game's option of one name: an integer range spanning all
    of them, the union of the choices, or a flag; the help lists each game's own."""
    first = options[0]
    if any(option.kind != first.kind for option in options):
        raise AssertionError(f"games declare {first.flag} as different kinds of option")
    help_text = "; ".join(option.describe() for option in options) + "."
    if first.kind == "flag":
        return click.option(first.flag, first.name, is_flag=True, default=None, help=help_text)
    if first.kind == "int":
        low, high = min(o.low for o in options), max(o.high for o in options)
        return click.option(first.flag, first.name, type=Whole(low, high), help=help_text)
    choices = sorted({choice for option in options for choice in option.choices})
    return click.option(first.flag, first.name, type=click.Choice(choices), help=help_text)


def declared(target: str) -> dict[str, list[Option]]:
    """Every registered game's options for `target` ("rules" or "solve"), by name."""
    by_name: dict[str, list[Option]] = {}
    for entry in GAMES.values():
        for option in entry.options:
            if option.target == target:
                by_name.setdefault(option.name, []).append(option)
    return by_name


def with_game_options(*targets: str):
    """A decorator adding the games' options for `targets`; the command receives the ones the
    user gave as one dict, `given`."""

    def decorate(callback):
        names = [name for target in targets for name in declared(target)]

        @functools.wraps(callback)
        def with_given(**kwargs):
            values = {name: kwargs.pop(name) for name in names}
            given = kwargs.pop("given", {})  # the options of an outer decorator of this kind
            given.update((name, value) for name, value in values.items() if value not in (None, False))
            return callback(given=given, **kwargs)

        command = with_given
        for target in reversed(targets):
            for options in reversed(declared(target).values()):
                command = merged(options)(command)
        return command

    return decorate


def source_options(callback):
    """GAME, FILE, --seed and the games' variant options: how every command names its deal or
    position. The command receives the variant options the user gave as one dict, `given`."""
    command = with_game_options("rules")(callback)
    command = click.option("--seed", type=Whole(0, 2**64 - 1), help="Use the seeded deal N.")(command)
    command = click.argument("source", metavar="[FILE]", required=False)(command)
    return click.argument("game_name", metavar="GAME")(command)


class Seconds(click.ParamType):
    """A time limit in seconds: a positive number, or 'inf' (no limit); NaN and values of 0 or
    less are refused."""

    name = "SECONDS"

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            seconds = value
        else:
            try:
                seconds = float(value)
            except (TypeError, ValueError):
                self.fail(f"{value!r} is not a number of seconds (or 'inf' for no limit)", param, ctx)
        if math.isnan(seconds) or seconds <= 0:
            self.fail(f"{value!r}: the time limit must be a number of seconds above 0 (or 'inf' for no limit)",
                      param, ctx)
        return seconds


def table_sizes() -> str:
    """The games' own table sizes, for --memory's help: '32 to 256'."""
    sizes = [round(entry.engine.table_mib()) for entry in GAMES.values() if entry.engine.table_slot_bytes]
    return f"{min(sizes)} to {max(sizes)}"


def fits_in_memory(table_mib: int | None, processes: int = 1) -> None:
    """InputError when `processes` tables of `table_mib` MiB would not fit in the machine's
    memory: asked for, the allocation would succeed and the system kill the process later."""
    machine = machine_mib()
    if table_mib is None or machine is None or table_mib * processes <= machine:
        return
    each = f" for each of {processes} workers" if processes > 1 else ""
    raise InputError(f"--memory {table_mib}{each}: more than this machine's {machine} MiB")


def budget_options(command):
    command = click.option(
        "--memory", "table_mib", type=Whole(1, 1 << 20), metavar="MIB",
        help=f"MiB at most for the search's table of proven positions (default: the game's own, {table_sizes()} "
             "MiB; survey and generate: each worker's). Long searches revisit more positions than it holds, and a "
             "larger one saves them work (a whole 3-player Etalage deal: 4096).",
    )(command)
    command = click.option(
        "--node-limit", type=Whole(0, 2**64 - 1), default=0, show_default=True,
        help="Stop a kernel search after this many nodes (0: no limit); the verdict is then 'unknown'.",
    )(command)
    command = click.option(
        "--time-limit", type=Seconds(), default=30.0, show_default=True,
        help="Stop after this many seconds ('inf': no limit); the verdict is then 'unknown'.",
    )(command)
    return click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")(command)


def jobs_option(command):
    return click.option(
        "--jobs", type=Whole(1, MAX_JOBS), default=usable_cores(), show_default="the usable cores",
        help=f"Worker processes, 1 to {MAX_JOBS}.",
    )(command)


def emit_json(payload: dict) -> None:
    click.echo(json.dumps(payload, indent=2))


#: Seconds a search runs before `searching` shows its bar: quick answers show none.
SEARCHING_BAR_AFTER = 1.0


@contextlib.contextmanager
def searching(time_limit: float | None):
    """While `solve` or `explain` searches, on a terminal (stderr): a bar of the seconds used
    against `time_limit` (or a count of them without one), shown only once the search has run
    `SEARCHING_BAR_AFTER` seconds; silent when piped. The kernels release the GIL, so a thread
    can keep it moving."""
    from tqdm import tqdm

    total = None if time_limit is None or math.isinf(time_limit) else time_limit
    bar = tqdm(total=total, desc="searching", unit="s", disable=None, leave=False, delay=SEARCHING_BAR_AFTER,
               bar_format="{desc}: {n:.0f}/{total:.0f} s |{bar}|" if total else "{desc}: {n:.0f} s")
    if bar.disable:
        yield
        return
    done = threading.Event()

    def tick():
        started = time.monotonic()
        while not done.wait(0.25):
            elapsed = time.monotonic() - started
            bar.update((min(elapsed, total) if total else elapsed) - bar.n)

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
        bar.close()


def progress(items=None, total: int | None = None, unit: str = "moves"):
    """A tqdm bar on a terminal (stderr), silent when piped; wraps `items` or counts to `total`.
    An empty list (a later pass with nothing left open) shows no bar."""
    from tqdm import tqdm

    if isinstance(items, list) and not items:
        return items

    return tqdm(items, total=total, desc=unit if items is not None else None, unit=unit.split()[-1],
                disable=None, leave=False, smoothing=0.1)
