"""The Game: Quick & Easy: the exact solver beside a heuristic player on the same seeded deals.

    python benchmarks/quick_and_easy.py --players 2 --seeds 1-1000 [--pro] [--time-limit 10]

The heuristic player plays the cheapest card (the smallest step of a pile, colour tricks that
take a pile back first), then a second one if it costs at most 2, and tries every starter. Win
rates carry Wilson 95% intervals; unknown deals count as not won for the solver's point rate.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from bench_table import print_rows, run, share, summary, time_limit
from puzzles import quick_and_easy as rules
from puzzles.quick_and_easy import EndTurn
from puzzles.text import amount, decimal
from solver.batch.report import percentile
from solver.batch.survey import seed_range
from solver.games.quick_and_easy.engine import GAME, step
from solver.result import UNKNOWN, WINNABLE, Budget

engine = GAME.engine
#: A second card is played when it moves its pile by at most this much.
SMALL_STEP = 2


def heuristic_played(deal) -> int:
    """The most cards the heuristic player plays over every starter."""
    best = 0
    for starter in range(1, deal.players + 1):
        position = deal.start(starter)
        while position.legal_moves():
            moves = position.legal_moves()
            cheapest = min(moves, key=lambda move: step(position, move))
            if position.played and (isinstance(cheapest, EndTurn) or step(position, cheapest) > SMALL_STEP):
                cheapest = EndTurn()
            position = position.apply(cheapest)
        best = max(best, position.cards_played)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--players", type=decimal, default=2)
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1-1000"))
    parser.add_argument("--pro", action="store_true")
    parser.add_argument("--time-limit", type=time_limit, default=10.0)
    args = parser.parse_args()

    seconds, played, heuristic, nodes, search_seconds = [], [], [], 0, 0.0
    decided = wins = heuristic_wins = 0
    slowest = (0.0, None)
    for seed in args.seeds:
        deal = rules.deal(seed, players=args.players, pro=args.pro)
        start = time.perf_counter()
        result = engine.solve(deal, Budget(args.time_limit))
        elapsed = time.perf_counter() - start
        seconds.append(elapsed)
        slowest = max(slowest, (elapsed, seed))
        decided += result.verdict != UNKNOWN
        wins += result.verdict == WINNABLE
        nodes += result.stats.nodes
        search_seconds += result.stats.seconds
        played.append(result.value)
        heuristic.append(heuristic_played(deal))
        heuristic_wins += heuristic[-1] == len(rules.DECK)
    count = len(seconds)
    seconds.sort()
    print_rows([
        ("game", f"{rules.TITLE}, {args.players} player(s){', pro' if args.pro else ''}"),
        ("seeds", f"{args.seeds.start}-{args.seeds.stop - 1} ({amount(count, 'deal')}), "
                  f"time limit {args.time_limit:g} s"),
        ("decided", f"{100 * decided / count:.1f}%"),
        ("solver wins", share(wins, count)),
        ("heuristic wins", share(heuristic_wins, count)),
        ("mean cards played", f"solver {statistics.mean(played):.2f}, heuristic {statistics.mean(heuristic):.2f}"),
        ("median s/deal", f"{statistics.median(seconds):.4f}"),
        ("p99 s/deal", f"{percentile(seconds, 0.99):.4f}"),
        ("max s/deal", f"{seconds[-1]:.4f} (seed {slowest[1]})"),
        ("nodes/s", f"{nodes / search_seconds:,.0f}" if search_seconds else "-"),
        ("peak memory", f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"),
    ])


if __name__ == "__main__":
    run(main)
