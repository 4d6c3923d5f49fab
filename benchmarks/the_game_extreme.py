"""The Game: Extreme beside The Game on the same seeded deals (the same card order, without the
instructions), as a table: what the instructions cost.

    python benchmarks/the_game_extreme.py --players 1 --seeds 1-200 [--expert] [--time-limit 10]

Per deal both are solved with the same time limit. Win rates carry Wilson 95% intervals; a
deal counts as won only with a winning line found, as lost only with the bound proven, so the
"decided" row says how far the rates can be trusted.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from bench_table import print_rows, run, share, summary, time_limit
from puzzles import the_game as base
from puzzles import the_game_extreme as rules
from puzzles.text import amount, decimal
from solver.batch.report import percentile
from solver.batch.survey import seed_range
from solver.games.the_game.engine import GAME as BASE_GAME
from solver.games.the_game_extreme.engine import GAME
from solver.result import UNKNOWN, WINNABLE, Budget


def measure(engine, deals: list, time_limit: float) -> dict:
    seconds, left, slowest = [], [], (0.0, None)
    decided = wins = optimal = nodes = 0
    kernel_seconds = 0.0
    engine.set_up(Budget(time_limit))  # the table, made off the clock as the commands do (The Game's was timed)
    for seed, deal in deals:
        start = time.perf_counter()
        result = engine.solve(deal, Budget(time_limit))
        elapsed = time.perf_counter() - start
        seconds.append(elapsed)
        slowest = max(slowest, (elapsed, seed))
        decided += result.verdict != UNKNOWN
        wins += result.verdict == WINNABLE
        optimal += result.optimal
        left.append(result.value)
        nodes += result.stats.nodes
        kernel_seconds += result.stats.seconds
    seconds.sort()
    count = len(deals)
    return {
        "decided": f"{100 * decided / count:.1f}%",
        "optimum proven": f"{100 * optimal / count:.1f}%",
        "wins": share(wins, count),
        "mean cards left": f"{statistics.mean(left):.2f}",
        "median s/deal": f"{statistics.median(seconds):.3f}",
        "p99 s/deal": f"{percentile(seconds, 0.99):.3f}",
        "max s/deal": f"{seconds[-1]:.3f} (seed {slowest[1]})",
        "kernel nodes/s": f"{nodes / kernel_seconds:,.0f}" if kernel_seconds else "-",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--players", type=decimal, default=1)
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1-200"))
    parser.add_argument("--expert", action="store_true")
    parser.add_argument("--time-limit", type=time_limit, default=10.0)
    args = parser.parse_args()

    extreme_deals = [(seed, rules.deal(seed, players=args.players, expert=args.expert)) for seed in args.seeds]
    base_deals = [(seed, base.deal(seed, players=args.players, expert=args.expert)) for seed in args.seeds]
    extreme = measure(GAME.engine, extreme_deals, args.time_limit)
    plain = measure(BASE_GAME.engine, base_deals, args.time_limit)
    rows = [
        ("game", f"{rules.TITLE} beside {base.TITLE}, {args.players} player(s){', expert' if args.expert else ''}"),
        ("seeds", f"{args.seeds.start}-{args.seeds.stop - 1} ({amount(len(extreme_deals), 'deal')}), "
                  f"time limit {args.time_limit} s each"),
    ]
    rows += [(name, f"extreme {extreme[name]}; the game {plain[name]}") for name in extreme]
    rows.append(("peak memory", f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"))
    print_rows(rows)


if __name__ == "__main__":
    run(main)
