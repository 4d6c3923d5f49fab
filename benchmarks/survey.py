"""Speed of the batch commands, printed as a table.

    python benchmarks/survey.py [--game twaalven] [--seeds 1-10000] [--jobs 2] [--count 100]

Runs `winnable survey` over the seeds into a fresh database and `winnable generate --count N`
(any difficulty, then --difficulty hard) into a fresh directory, in this process after the
imports, as the commands run them. The survey's overhead share is
(wall * jobs - sum of the stored per-deal seconds) / (wall * jobs): the part of the workers'
time not spent dealing and solving (the pool, the database, idle workers at the end).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from contextlib import closing, redirect_stdout

from bench_table import at_least, print_rows, run, summary
from cli.batch import generate, survey
from solver import parallel


def timed(command, args: list[str]) -> float:
    """The wall time of a command, run as its console script runs it; KeyboardInterrupt when it
    was interrupted (it ended with exit code 130, and the script went on to the next). The
    command's own word on what it kept names the benchmark's temporary folder, removed on the
    way out, so a line after it says so."""
    start = time.perf_counter()
    with open(os.devnull, "w") as quiet, redirect_stdout(quiet):
        if command.main(args, standalone_mode=False) == 130:
            print("(that folder was the benchmark's own and is removed: nothing to resume)", file=sys.stderr)
            raise KeyboardInterrupt
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--game", default="twaalven")
    parser.add_argument("--seeds", default="1-10000")
    parser.add_argument("--jobs", type=at_least(1, parallel.MAX_JOBS), default=2)
    parser.add_argument("--count", type=at_least(1), default=100)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as work:
        db = os.path.join(work, "results.sqlite")
        wall = timed(survey, [args.game, "--seeds", args.seeds, "--db", db, "--jobs", str(args.jobs)])
        with closing(sqlite3.connect(db)) as connection:
            deals, solving, slowest = connection.execute("SELECT count(*), sum(seconds), max(seconds) FROM deals").fetchone()
        any_wall = timed(generate, [args.game, "--count", str(args.count), "--out", os.path.join(work, "any"),
                                    "--jobs", str(args.jobs)])
        hard_wall = timed(generate, [args.game, "--count", str(args.count), "--difficulty", "hard",
                                     "--out", os.path.join(work, "hard"), "--jobs", str(args.jobs)])
    capacity = wall * args.jobs
    rows = [
        ("survey", f"{args.game} seeds {args.seeds}, --jobs {args.jobs}"),
        ("deals", f"{deals}"),
        ("wall s", f"{wall:.2f}"),
        ("deals/s", f"{deals / wall:,.0f}"),
        ("sum of per-deal s", f"{solving:.2f} (slowest deal {slowest:.2f} s)"),
        ("overhead share", f"{100 * (capacity - solving) / capacity:.1f}%"),
        ("overhead per deal", f"{1e6 * (capacity - solving) / deals:.0f} µs of worker time"),
        (f"generate --count {args.count}", f"{any_wall:.2f} s"),
        (f"generate --count {args.count} --difficulty hard", f"{hard_wall:.2f} s"),
    ]
    print_rows(rows)


if __name__ == "__main__":
    run(main)
