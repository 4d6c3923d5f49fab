"""Speed and scale of a game's solver over a range of seeded deals, printed as a table.

    python benchmarks/run.py twaalven --seeds 1-1000 [--time-limit 10] [--node-limit 0]

Per deal it times `solve` as the API runs it (both starters, solution replayed), and reports the
decided and winnable shares, the distribution of seconds per deal, the kernel's nodes per second
(search time inside the kernel only), which method decided, and the process's peak memory.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections import Counter

from bench_table import node_limit, print_rows, run, seconds_rows, summary, time_limit
from solver.registry import game
from solver.result import UNKNOWN, WINNABLE, Budget
from solver.batch.survey import seed_range
from solver.words import amount


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("game")
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1-1000"))
    parser.add_argument("--time-limit", type=time_limit, default=10.0)
    parser.add_argument("--node-limit", type=node_limit, default=0)
    args = parser.parse_args()

    entry = game(args.game)
    entry.engine.set_up(Budget(args.time_limit, args.node_limit))  # the table, made off the clock as the commands do
    seconds, verdicts, methods, starters = [], Counter(), Counter(), Counter()
    nodes = kernel_seconds = 0.0
    slowest = (0.0, None)
    for seed in args.seeds:
        position = entry.rules.deal(seed)
        start = time.perf_counter()
        result = entry.engine.solve(position, Budget(args.time_limit, args.node_limit))
        elapsed = time.perf_counter() - start
        seconds.append(elapsed)
        slowest = max(slowest, (elapsed, seed))
        verdicts[result.verdict] += 1
        methods[result.stats.method] += 1
        if result.starters or result.verdict != WINNABLE:
            starters["+".join(map(str, result.starters)) or "none"] += 1
        nodes += result.stats.nodes
        kernel_seconds += result.stats.seconds

    count = len(seconds)
    seconds.sort()
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows = [
        ("game", entry.title),
        ("seeds", f"{args.seeds.start}-{args.seeds.stop - 1} ({amount(count, 'deal')})"),
        ("decided", f"{100 * (count - verdicts[UNKNOWN]) / count:.1f}%"),
        ("winnable", f"{100 * verdicts[WINNABLE] / count:.1f}%"),
        ("verdicts", ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items()))),
        ("winning starters", ", ".join(f"{s} {n}" for s, n in sorted(starters.items())) or "-"),
        ("decided by", ", ".join(f"{m} {n}" for m, n in sorted(methods.items()))),
        *seconds_rows(seconds, slowest[1]),
        ("nodes", f"{int(nodes)}"),
        ("kernel nodes/s", f"{nodes / kernel_seconds:,.0f}" if kernel_seconds else "-"),
        ("peak memory", f"{peak_mib:.0f} MiB"),
    ]
    print_rows(rows)


if __name__ == "__main__":
    run(main)
