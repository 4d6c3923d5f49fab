"""Pinned outputs of solve, explain and analyse for a few deals of every game, so that a change
of format shows as a diff. `python -m tests.golden.regenerate [GAME ...]` rewrites the files
under tests/golden/<game>/ (review the diff before committing); tests/test_golden.py compares.

Each game's outputs are made in a fresh process, in a fixed order: the kernels keep their tables
between calls, and a table filled by other work could lead a search to another winning line.
Timings and node counts in the stats lines are left out; everything else is pinned.
"""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).parent
#: game -> the commands pinned (each run with --time-limit 60 and, for input, a file of HERE).
CASES = {
    "twaalven": [("solve", "--seed", "7"), ("explain", "--seed", "3087"), ("explain", "--seed", "998"),
                 ("analyse", "--seed", "998")],
    "stapelen": [("solve", "--seed", "1"), ("explain", "--seed", "1"), ("analyse", "--seed", "2")],
    "all-in-a-row": [("solve", "--seed", "1"), ("explain", "--seed", "2"), ("analyse", "--seed", "1")],
    "black-hole": [("solve", "--seed", "1"), ("explain", "--seed", "17"), ("analyse", "--seed", "1")],
    "the-game": [("solve", "--seed", "7", "--players", "2"), ("explain", "--seed", "1"),
                 ("analyse", "the-game-small.txt")],
    "the-game-extreme": [("solve", "--seed", "3"), ("explain", "the-game-extreme-small.txt"),
                         ("analyse", "the-game-extreme-small.txt")],
    "sir-tommy": [("solve", "--seed", "1"), ("explain", "sir-tommy-buried.txt"), ("analyse", "--seed", "2")],
    "etalage": [("solve", "--seed", "7", "--values", "5"), ("explain", "--seed", "3", "--values", "5"),
                ("analyse", "etalage-record.txt")],
    "quick-and-easy": [("solve", "--seed", "7", "--players", "3"), ("explain", "--seed", "129", "--players", "1"),
                       ("analyse", "quick-and-easy-late.txt")],
}
STATS = re.compile(r"^stats: \d+ nodes, [\d.]+ s, method (\S+)$", re.M)


def name_of(case: tuple[str, ...]) -> str:
    """The file a case's output is pinned in: 'solve-seed-7.txt'."""
    return "-".join(word.lstrip("-").replace(".txt", "") for word in case) + ".txt"


def outputs(game: str) -> dict[str, str]:
    """The pinned text of each case of `game`, made in this process."""
    from click.testing import CliRunner

    from cli.commands import main

    found = {}
    for case in CASES[game]:
        args = [case[0], game, *(str(HERE / word) if word.endswith(".txt") else word for word in case[1:])]
        result = CliRunner().invoke(main, [*args, "--time-limit", "60"])
        if result.exit_code != 0:
            raise AssertionError(f"{' '.join(args)}: exit {result.exit_code}\n{result.output}")
        found[name_of(case)] = STATS.sub(r"stats: method \1", result.output)
    return found


def fresh_outputs(game: str) -> dict[str, str]:
    """`outputs(game)` made in a fresh process."""
    run = subprocess.run([sys.executable, "-m", "tests.golden.regenerate", "--print", game],
                         capture_output=True, text=True, check=True, cwd=HERE.parents[1])
    return json.loads(run.stdout)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--print"]:
        print(json.dumps(outputs(argv[1])))
        return
    for game in argv or CASES:
        folder = HERE / game
        folder.mkdir(exist_ok=True)
        for name, text in fresh_outputs(game).items():
            (folder / name).write_text(text, encoding="utf-8")
            print(folder / name)


if __name__ == "__main__":
    main(sys.argv[1:])
