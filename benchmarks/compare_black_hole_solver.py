"""Our All in a Row and Black Hole solver beside Shlomi Fish's black-hole-solver (C), deal by deal.

    python benchmarks/compare_black_hole_solver.py --solver PATH/black-hole-solve [--seeds 1-1000]

PATH is an already-built `black-hole-solve` binary (this project ships neither its code nor a way
to build it). For every seed and game the script writes the deal in that solver's board format
(`Foundations: AS` or `-`, then one line per column, bottom card first), then runs, interleaved
(the order alternates by seed): our engine in-process (`solve`, solution replayed, timed by the
wall clock; the kernel's own seconds too), and their binary as a subprocess, once as it comes and
once with `--rank-reach-prune`. Their time is the whole subprocess; a trivial run (`--version`)
is timed apart to show the process start-up inside it. Every verdict pair is compared; their
winning lines are replayed by our reference rules, so a disagreement says which side is wrong.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_table import run, summary, time_limit
from puzzles.cards import card_name, parse_card
from puzzles.lines import replay
from puzzles.text import amount
from solver.registry import GAMES
from solver.batch.report import percentile
from solver.result import UNKNOWN, UNWINNABLE, WINNABLE, Budget
from solver.batch.survey import seed_range

#: our game name -> theirs
THEIR_GAME = {"black-hole": "black_hole", "all-in-a-row": "all_in_a_row"}
THEIR_VERDICT = {"Solved!": WINNABLE, "Unsolved!": UNWINNABLE, "Intractable!": UNKNOWN}
THEIR_MOVE = re.compile(r"Move a card from stack (\d+) to the foundations\s+Info: Card moved is (\S\S)")
THEIR_STATES = re.compile(r"Total number of states checked is (\d+)")


def board_text(position) -> str:
    """The position in black-hole-solver's board format."""
    top = card_name(position.foundation[-1]) if position.foundation else "-"
    columns = [" ".join(card_name(c) for c in column) for column in position.columns]
    return "\n".join([f"Foundations: {top}", *columns]) + "\n"


@dataclass
class Runs:
    """One solver configuration's verdicts, wall seconds and search counts over the seeds."""

    label: str
    verdicts: dict = field(default_factory=dict)  # seed -> verdict
    seconds: dict = field(default_factory=dict)  # seed -> wall seconds
    counts: list = field(default_factory=list)  # nodes or states checked

    def add(self, seed: int, verdict: str, seconds: float, count: int) -> None:
        self.verdicts[seed], self.seconds[seed] = verdict, seconds
        self.counts.append(count)

    def row(self) -> list[str]:
        times = sorted(self.seconds.values())
        slowest = max(self.seconds, key=self.seconds.get)
        decided = sum(v != UNKNOWN for v in self.verdicts.values())
        won = sum(v == WINNABLE for v in self.verdicts.values())
        return [
            self.label, f"{decided}/{len(times)}", str(won),
            f"{1000 * statistics.median(times):.3f}", f"{1000 * percentile(times, 0.99):.3f}",
            f"{1000 * times[-1]:.1f} ({slowest})", f"{sum(times):.3f}",
            f"{statistics.median(self.counts):.0f}", f"{sum(self.counts)}",
        ]


def run_theirs(solver: str, game: str, board: Path, flags: list[str]) -> tuple[str, float, int, list]:
    """Verdict, wall seconds, states checked and winning line (column, card) of one run."""
    start = time.perf_counter()
    done = subprocess.run([solver, "--game", THEIR_GAME[game], *flags, str(board)], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    first = done.stdout.split("\n", 1)[0].strip()
    if first not in THEIR_VERDICT:
        raise RuntimeError(f"{solver} on {board}: unexpected output {done.stdout[:200]!r} {done.stderr[:200]!r}")
    states = THEIR_STATES.search(done.stdout)
    line = [(int(c), parse_card(card)) for c, card in THEIR_MOVE.findall(done.stdout)]
    return THEIR_VERDICT[first], seconds, int(states[1]) if states else 0, line


def their_line_wins(game, position, line) -> bool:
    """Whether their line, replayed by our reference rules, wins."""
    try:
        return replay(position, [game.rules.Move(card, column) for column, card in line]).is_won()
    except Exception:  # an illegal move under our rules: the line does not win
        return False


def startup_seconds(command: list[str], repeats: int = 30) -> float:
    """Median wall seconds of a run that does no work."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_mib(command: list[str]) -> float:
    """Peak resident memory of `command`, measured from a small helper process: a child forked
    from this (large) process would report our own pages before its exec."""
    probe = "import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True); " \
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    done = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True)
    return int(done.stdout) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--solver", required=True, help="path to a built black-hole-solve binary")
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1-1000"))
    parser.add_argument("--games", default="black-hole,all-in-a-row")
    parser.add_argument("--time-limit", type=time_limit, default=60.0, help="our budget per deal, seconds")
    parser.add_argument("--boards", type=Path, help="keep the board files here (default: a temporary folder)")
    args = parser.parse_args()
    games = args.games.split(",")
    for name in games:  # checked before any folder is made (a bad name left an empty one behind)
        if name not in THEIR_GAME:
            parser.error(f"--games {name!r}: black-hole-solve plays {', '.join(THEIR_GAME)}")
    if not (os.path.isfile(args.solver) and os.access(args.solver, os.X_OK)):
        parser.error(f"--solver {args.solver!r}: not an executable file")
    if args.boards is not None and args.boards.exists() and not args.boards.is_dir():
        parser.error(f"--boards {str(args.boards)!r}: a file, not a folder")

    folder = args.boards or Path(tempfile.mkdtemp(prefix="bhs-boards-"))
    folder.mkdir(parents=True, exist_ok=True)
    their_startup = startup_seconds([args.solver, "--version"])
    start = time.perf_counter()
    for name in games:  # our one-off cost: the kernel and its table
        GAMES[name].engine.solve(GAMES[name].rules.deal(0))
    our_startup = time.perf_counter() - start

    header = ["solver", "decided", "winnable", "median ms", "p99 ms", "max ms (seed)", "total s",
              "median nodes", "total nodes"]
    problems, their_peak = [], {}
    for name in games:
        game = GAMES[name]
        ours, kernel = Runs("winnable (in-process)"), Runs("  its kernel alone")
        theirs = {flag: Runs(f"black-hole-solve {flag}".strip()) for flag in ("", "--rank-reach-prune")}
        last_line = {}  # their label -> winning line of the current seed
        for seed in args.seeds:
            position = game.rules.deal(seed)
            board = folder / f"{name}-{seed}.board"
            board.write_text(board_text(position))

            def run_ours():
                began = time.perf_counter()
                result = game.engine.solve(position, Budget(args.time_limit))
                ours.add(seed, result.verdict, time.perf_counter() - began, result.stats.nodes)
                kernel.add(seed, result.verdict, result.stats.seconds, result.stats.nodes)

            def run_their(flag):
                verdict, seconds, states, line = run_theirs(args.solver, name, board, [flag] if flag else [])
                theirs[flag].add(seed, verdict, seconds, states)
                last_line[theirs[flag].label] = line
                if verdict == WINNABLE and not their_line_wins(game, position, line):
                    problems.append(f"{name} seed {seed}: {theirs[flag].label}: its line does not win under our rules")

            steps = [run_ours, lambda: run_their(""), lambda: run_their("--rank-reach-prune")]
            for step in steps if seed % 2 else steps[::-1]:
                step()
            for runs in theirs.values():
                if runs.verdicts[seed] != ours.verdicts[seed]:
                    # our winning lines are replayed by the reference rules inside solve, theirs above
                    right = "ours" if WINNABLE in (ours.verdicts[seed], runs.verdicts[seed]) else "neither shown"
                    if runs.verdicts[seed] == WINNABLE:
                        right = "theirs" if their_line_wins(game, position, last_line[runs.label]) else "ours"
                    problems.append(
                        f"{name} seed {seed}: winnable says {ours.verdicts[seed]}, {runs.label} says "
                        f"{runs.verdicts[seed]}; the replayed winning line shows {right} right"
                    )

        slowest = {flag: max(runs.seconds, key=runs.seconds.get) for flag, runs in theirs.items()}
        their_peak[name] = max(
            peak_mib([args.solver, "--game", THEIR_GAME[name], *([flag] if flag else []), str(folder / f"{name}-{seed}.board")])
            for flag, seed in slowest.items()
        )
        rows = [header, ours.row(), kernel.row(), *(runs.row() for runs in theirs.values())]
        widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
        count = len(args.seeds)
        print(f"\n{game.title}, seeds {args.seeds.start}-{args.seeds.stop - 1} ({amount(count, 'deal')}), "
              "wall time per deal")
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())

    own_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    their_mib = ", ".join(f"{name} {mib:.1f} MiB" for name, mib in their_peak.items())
    print("\nnodes: ours = kernel nodes; theirs = states checked (expanded positions)")
    print(f"process start-up: black-hole-solve --version {1000 * their_startup:.3f} ms per run (inside each of its times);")
    print(f"  ours: first solve per game (import done; kernel and table allocated) {1000 * our_startup:.1f} ms, not counted")
    print(f"peak memory: ours {own_mib:.0f} MiB (whole Python process); black-hole-solve on its slowest deal: {their_mib}")
    print(f"boards: {folder}")
    print(f"disagreements and failed replays: {len(problems)}")
    for problem in problems:
        print(f"  {problem}")


if __name__ == "__main__":
    run(main)
