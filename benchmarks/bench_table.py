"""What every benchmark script shares: seconds-per-deal rows and an aligned two-column table,
the budget options checked as the command line checks them, and `run`, which ends a script on
Ctrl-C or bad input with one line (exit 130 or 2) rather than a traceback."""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from typing import Callable

import click

from puzzles.cards import MASK64
from puzzles.errors import WinnableError
from puzzles.text import decimal
from solver.batch.report import percentile
from solver.batch.survey import wilson


def summary(doc: str) -> str:
    """A script's first paragraph with its lines joined: the --help description (its first line
    alone stopped mid-sentence)."""
    return " ".join(doc.split("\n\n")[0].split())


def seconds_rows(seconds: list[float], slowest_seed: int | None) -> list[tuple[str, str]]:
    """Median, p90, p99, max (with its seed) and total of per-deal seconds, sorted ascending."""
    return [
        ("median s/deal", f"{statistics.median(seconds):.6f}"),
        ("p90 s/deal", f"{percentile(seconds, 0.90):.6f}"),
        ("p99 s/deal", f"{percentile(seconds, 0.99):.6f}"),
        ("max s/deal", f"{seconds[-1]:.6f} (seed {slowest_seed})"),
        ("total s", f"{sum(seconds):.3f}"),
    ]


def share(count: int, total: int) -> str:
    """A rate with its Wilson 95% interval: '78.0% [68.9, 85.0]'."""
    low, high = wilson(count, total)
    return f"{100 * count / total:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def print_rows(rows: list[tuple[str, str]]) -> None:
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}", flush=True)


def time_limit(text: str) -> float:
    """An argparse type: seconds above 0, or inf for no limit (0, below it or nan left every
    answer unknown without a word)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0 (or inf for no limit)")
    return value


def node_limit(text: str) -> int:
    """An argparse type: a node limit, 0 (none) to 2**64 - 1 (above it the kernel overflowed)."""
    try:
        value = decimal(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MASK64:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number of nodes, 0 for no limit")
    return value


def at_least(low: int, most: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `low` (and at most `most`, if given)."""
    def whole(text: str) -> int:
        try:
            value = decimal(text)
        except ValueError:
            value = low - 1
        if value < low or (most is not None and value > most):
            wanted = f"of at least {low}" if most is None else f"from {low} to {most}"
            raise argparse.ArgumentTypeError(f"{text!r}: give a whole number {wanted}")
        return value
    return whole


def run(main: Callable[[], None]) -> None:
    """Runs a script's `main`: Ctrl-C ends it with 'interrupted' (exit 130), bad input that only
    the game or the command finds (an unknown game, --players out of range) with its one line
    (exit 2), each without a traceback."""
    try:
        main()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except (WinnableError, click.ClickException) as error:
        print(f"error: {error.format_message() if isinstance(error, click.ClickException) else error}",
              file=sys.stderr)
        sys.exit(2)
