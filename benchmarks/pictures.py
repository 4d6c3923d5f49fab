"""Pictures: how long a picture takes to draw, and how big a replay page grows, as a table.

    python benchmarks/pictures.py [--seeds 1-20]

For every registered game: the median and max time to draw a seeded deal as SVG (the renderer
and the drawing core, in this process), and the size of the replay page of the seed-1 line
(`solve --html`), with its number of steps.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from bench_table import print_rows, run, summary
from cli.pictures import write_line_page
from solver.batch.survey import seed_range
from solver.registry import GAMES
from solver.result import Budget


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1-20"))
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, entry in GAMES.items():
            times = []
            for seed in args.seeds:
                deal = entry.rules.deal(seed)
                start = time.perf_counter()
                entry.picture(deal).svg()
                times.append(time.perf_counter() - start)
            # a deal the engine decides within seconds (a full Etalage deal or Extreme's seed 1
            # would take all 30 s): the conformance suite's first
            deal = entry.rules.deal(entry.test_seeds[0], **entry.test_variants[0])
            result = entry.engine.solve(deal, Budget(time_limit=30))
            page = os.path.join(folder, f"{name}.html")
            write_line_page(page, entry, result, result.to_json())
            rows.append((name, f"draw median {1000 * statistics.median(times):.1f} ms, max {1000 * max(times):.1f} ms; "
                               f"page of {len(result.solution)} steps ({len(result.turns)} turns): "
                               f"{os.path.getsize(page) / 1024:.0f} KiB"))
    print_rows(rows)


if __name__ == "__main__":
    run(main)
