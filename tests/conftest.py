"""What the tests share: random walks through any game's legal moves, files that cannot be
written, and processes with little memory."""

from __future__ import annotations

import os
import random
import resource
import shutil
import subprocess
from contextlib import contextmanager

import pytest


def random_walk(position, steps: int, rng: random.Random):
    """`position` after up to `steps` random legal moves (fewer if the game ends first)."""
    for _ in range(steps):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.apply(rng.choice(moves))
    return position


@contextmanager
def read_only(path):
    """`path` (a file or a directory) cannot be written in the block: by its mode or, for root,
    whom modes do not stop, by `chattr +i`; the test is skipped where neither stops writes."""
    mode = os.stat(path).st_mode
    os.chmod(path, mode & ~0o222)
    immutable = False
    try:
        if os.access(path, os.W_OK):
            immutable = bool(shutil.which("chattr")) and subprocess.run(["chattr", "+i", str(path)]).returncode == 0
            if not immutable:
                pytest.skip("running as root, whom a read-only mode does not stop, and chattr +i fails here")
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        os.chmod(path, mode)


def memory_limit(size: int):
    """A subprocess `preexec_fn`: the process (and the workers it starts) may map `size` bytes."""
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (size, size))
