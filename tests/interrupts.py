"""Ctrl-C during a kernel search or a CP-SAT solve, in a process of its own."""

from __future__ import annotations

import random
import subprocess
import sys

from ortools.sat.python import cp_model


def seconds_until_interrupted(setup: str, call: str) -> float:
    """Runs `setup` then `call` (one line of Python each) in a new interpreter that sends itself
    SIGINT half a second in; the seconds from the start of the call to its KeyboardInterrupt."""
    script = (
        "import os, signal, threading, time\n"
        f"{setup}\n"
        "threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
        "start = time.perf_counter()\n"
        "try:\n"
        f"    {call}\n"
        "except KeyboardInterrupt:\n"
        "    print(f'interrupted after {time.perf_counter() - start:.1f} s')\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert run.stdout.startswith("interrupted after"), run.stdout + run.stderr
    return float(run.stdout.split()[2])


def market_split(rows: int, columns: int, seed: int = 1) -> cp_model.CpModel:
    """A market split model (Cornuejols and Dawande): `rows` equations over `columns` 0/1
    variables with random weights below 100, each summing to half its row. With columns =
    10 (rows - 1) it has almost surely no solution, and branch and bound needs hours to prove
    it: a CP-SAT solve of it lasts to its time limit on any machine (60 s here with 2 workers)."""
    rng = random.Random(seed)
    model = cp_model.CpModel()
    chosen = [model.new_bool_var(f"x{j}") for j in range(columns)]
    for _ in range(rows):
        weights = [rng.randrange(100) for _ in chosen]
        model.add(sum(w * x for w, x in zip(weights, chosen)) == sum(weights) // 2)
    return model
