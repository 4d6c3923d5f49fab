"""Every benchmark still runs: each on a couple of seeds with small limits, checked for its
table's rows, not for any speed (speed targets live in the benchmarks' own tables)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.registry import GAMES

ROOT = Path(__file__).parent.parent
BENCHMARKS = ROOT / "benchmarks"

RUNS = [
    (["run.py", "stapelen", "--seeds", "1-2", "--time-limit", "5"], "decided"),
    (["the_game.py", "--players", "2", "--seeds", "1-2", "--time-limit", "2"], "heuristic wins"),
    (["the_game_extreme.py", "--seeds", "1-2", "--time-limit", "1"], "mean cards left"),
    (["the_game_stuck.py", "--seeds", "1-3", "--cuts", "4", "--time-limit", "1", "--analyse-limit", "1"],
     "cut 4: analyses decided"),
    (["sir_tommy.py", "--seeds", "1-2", "--time-limit", "5", "--maximise", "U"], "optimum proven"),
    (["quick_and_easy.py", "--players", "1", "--seeds", "1-3", "--time-limit", "5"], "heuristic wins"),
    (["sir_tommy_analyse.py", "--seeds", "1-2", "--turns", "4", "--time-limit", "5"], "moves decided"),
    (["pictures.py", "--seeds", "1-2"], "quick-and-easy"),
    (["etalage.py", "--players", "3", "--seeds", "1-2", "--values", "4", "--time-limit", "2"], "exact"),
    (["etalage.py", "--players", "3", "--seeds", "1-2", "--values", "4", "--time-limit", "2", "--cooperative",
      "--cooperative-limit", "2"], "cooperative best > guarantee  6/6"),
    # seed 7 on values 1-5: the guarantees the README shows (checked by brute force)
    (["etalage.py", "--players", "3", "--seeds", "7", "--values", "5", "--time-limit", "5", "--each"],
     "seed 7: guarantees 7, 5, 10 ("),
    (["etalage.py", "--players", "3", "--seeds", "1", "--values", "4", "--from-trick", "2", "--along",
      "--time-limit", "2"], "(10, every move on)"),
]


def test_the_etalage_benchmark_makes_the_table_it_is_asked_for():
    # its table row gives the size of the kernel's table as made (the peak memory row cannot
    # show it here: a process started from this one begins with this one's peak)
    for table_mib in (16, 512):
        done = subprocess.run([sys.executable, "etalage.py", "--players", "3", "--seeds", "1", "--values", "4",
                               "--time-limit", "2", "--table-mib", str(table_mib)], cwd=BENCHMARKS,
                              capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == 0, done.stderr
        assert f", table {table_mib} MiB" in done.stdout, done.stdout


@pytest.mark.parametrize("args, row", RUNS, ids=[run[0][0] for run in RUNS])
def test_benchmark_prints_its_table(args, row):
    done = subprocess.run([sys.executable, *args], cwd=BENCHMARKS, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})  # this checkout's code
    assert done.returncode == 0, done.stderr
    assert row in done.stdout, done.stdout


@pytest.mark.parametrize("name", GAMES)
def test_the_general_benchmark_runs_every_game(name):
    """run.py is the README's benchmark for any game: The Game's starters are numbers, and it
    raised a TypeError joining them."""
    done = subprocess.run([sys.executable, "run.py", name, "--seeds", "1", "--time-limit", "1"], cwd=BENCHMARKS,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert "seeds             1-1 (1 deal)" in done.stdout, done.stdout


@pytest.mark.parametrize("args, message", [
    (["run.py", "nosuchgame", "--seeds", "1-2"], "error: unknown game 'nosuchgame'"),
    (["run.py", "twaalven", "--seeds", "1-2", "--time-limit", "-1"], "give a number of seconds above 0"),
    (["run.py", "twaalven", "--seeds", "1-2", "--node-limit", str(2**70)], "give a whole number of nodes"),
    (["the_game.py", "--players", "6", "--seeds", "1-1"], "error: 6 players; The Game is for 1 to 5"),
    (["sir_tommy.py", "--rows", "0", "--seeds", "1-1"], "error: --rows 0: the number of rows must be 1 to 8"),
    (["the_game_stuck.py", "--seeds", "1-1", "--cuts", "-100"], "give a whole number of at least 1"),
    (["survey.py", "--count", "0"], "give a whole number of at least 1"),
    (["survey.py", "--jobs", "100000"], "'100000': give a whole number from 1 to"),
    (["etalage.py", "--threads", "0"], "'0': give a whole number from 1 to"),
    (["run.py", "twaalven", "--seeds", "1", "--node-limit", "1_000"], "'1_000': give a whole number of nodes"),
    (["survey.py", "--count", "\u0663"], "'\u0663': give a whole number of at least 1"),
    (["etalage.py", "--players", "\uff14"], "argument --players: invalid decimal value"),
])
def test_a_benchmark_given_bad_input_says_so_in_one_line(args, message):
    """These ended in tracebacks (exit 1), or took a time limit of -1 and printed a table of
    figures it left meaningless."""
    done = subprocess.run([sys.executable, *args], cwd=BENCHMARKS, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr
