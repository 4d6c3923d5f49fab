"""Sir Tommy voor twee over seeded deals, printed as a table: verdicts, time per deal, nodes per
second and memory; with --maximise, how often the most cards a player can hold is proven.

    python benchmarks/sir_tommy.py --seeds 1-1000 [--rows 4] [--time-limit 10]
    python benchmarks/sir_tommy.py --seeds 1-200 --maximise U --time-limit 60

--rows 6 tests the seed's claim that with six rows "the game always comes out".
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections import Counter

from bench_table import print_rows, run, seconds_rows, summary, time_limit
from puzzles import sir_tommy as rules
from puzzles.text import amount, decimal
from solver.games.sir_tommy.engine import GAME
from solver.result import UNKNOWN, WINNABLE, Budget
from solver.batch.survey import seed_range

engine = GAME.engine


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1-1000"))
    parser.add_argument("--rows", type=decimal, default=rules.DEFAULT_ROWS)
    parser.add_argument("--time-limit", type=time_limit, default=10.0)
    parser.add_argument("--maximise", choices=["U", "D"])
    args = parser.parse_args()

    seconds, verdicts = [], Counter()
    nodes = kernel_seconds = 0.0
    slowest, unknown = (0.0, None), []
    proven, held, supers = 0, [], Counter()
    engine.set_up(Budget(args.time_limit))  # the table, made off the clock as the commands do
    for seed in args.seeds:
        position = rules.deal(seed, rows=args.rows)
        start = time.perf_counter()
        result = engine.solve(position, Budget(args.time_limit), maximise=args.maximise)
        elapsed = time.perf_counter() - start
        seconds.append(elapsed)
        slowest = max(slowest, (elapsed, seed))
        verdicts[result.verdict] += 1
        if result.verdict == UNKNOWN:
            unknown.append(seed)
        nodes += result.stats.nodes
        kernel_seconds += result.stats.seconds
        if args.maximise and result.verdict == WINNABLE:
            proven += result.optimal
            held.append(result.value)
            supers[result.super_winner] += 1

    count = len(seconds)
    seconds.sort()
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows = [
        ("game", f"{rules.TITLE}, {args.rows} rows" + (f", maximise {args.maximise}" if args.maximise else "")),
        ("seeds", f"{args.seeds.start}-{args.seeds.stop - 1} ({amount(count, 'deal')}), "
                  f"time limit {args.time_limit:g} s"),
        ("decided", f"{100 * (count - verdicts[UNKNOWN]) / count:.1f}%"),
        ("winnable", f"{100 * verdicts[WINNABLE] / count:.1f}%"),
        ("verdicts", ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items()))),
        ("undecided seeds", " ".join(map(str, unknown[:20])) + (" …" if len(unknown) > 20 else "") or "-"),
        *seconds_rows(seconds, slowest[1]),
        ("nodes", f"{int(nodes)}"),
        ("nodes/s", f"{nodes / kernel_seconds:,.0f} (kernel nodes over kernel and CP-SAT seconds)" if kernel_seconds else "-"),
        ("peak memory", f"{peak_mib:.0f} MiB"),
    ]
    if held:
        rows += [
            ("optimum proven", f"{proven} of {len(held)} winnable ({100 * proven / len(held):.1f}%)"),
            (f"most cards {args.maximise}", f"median {statistics.median(held):g}, max {max(held)}"),
            ("super-winner possible", f"yes {supers[True]}, no {supers[False]}, not known {supers[None]}"),
        ]
    print_rows(rows)


if __name__ == "__main__":
    run(main)
