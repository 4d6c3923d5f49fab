"""Ctrl-C during a kernel search, in a process of its own."""

from __future__ import annotations

import subprocess
import sys


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
