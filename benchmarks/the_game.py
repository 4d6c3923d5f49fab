"""The Game: the exact solver beside a heuristic player on the same seeded deals, as a table.

    python benchmarks/the_game.py --players 1 --seeds 1-200 [--expert] [--smaller-hand] [--time-limit 10]

The heuristic player is the usual one (the issue's): every backwards trick it holds, then the
cheapest plays (smallest gap) until the minimum is met, then more plays while the gap is at most
2; it tries every starter and keeps the best. Per deal the solver's cards left must never exceed
the heuristic's; violations are printed, not asserted. Win rates carry Wilson 95% intervals.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from bench_table import print_rows, run, share, summary, time_limit
from puzzles import the_game as rules
from puzzles.the_game import EndTurn, Play
from puzzles.text import amount, decimal
from solver.games.the_game.engine import GAME
from solver.batch.report import percentile
from solver.result import UNKNOWN, Budget
from solver.batch.survey import seed_range

engine = GAME.engine

#: Extra plays beyond the minimum are made while they move a pile by at most this much.
SMALL_GAP = 2


def cost(position, play: Play) -> int:
    """How far a play moves its pile: -10 for a backwards trick, else the gap."""
    top = position.piles[play.pile]
    return -10 if rules.is_backwards(play.pile, top, play.card) else abs(play.card - top)


def heuristic_turn(position):
    """One turn of the heuristic player; returns the position after it (the game may be over)."""
    while True:
        plays = [m for m in position.legal_moves() if isinstance(m, Play)]
        if not plays:
            break
        best = min(plays, key=lambda p: (cost(position, p), p.pile, p.card))
        must = position.played < position.minimum
        if not must and cost(position, best) > SMALL_GAP:
            break
        position = position.apply(best)
        if position.is_won():
            return position
    return position.apply(EndTurn())


def heuristic_cards_left(deal) -> int:
    """The fewest cards the heuristic player leaves over every starter."""
    best = deal.cards_left
    for starter in range(1, deal.players + 1):
        position = deal.start(starter)
        while not position.is_over():
            position = heuristic_turn(position)
        best = min(best, position.cards_left)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--players", type=decimal, default=1)
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1-200"))
    parser.add_argument("--expert", action="store_true")
    parser.add_argument("--smaller-hand", action="store_true")
    parser.add_argument("--time-limit", type=time_limit, default=10.0)
    args = parser.parse_args()

    times, solver_left, heuristic_left, violations = [], [], [], []
    decided = optimal = nodes = 0
    kernel_seconds = 0.0
    engine.set_up(Budget(args.time_limit))  # the table, made off the clock as the commands do
    for seed in args.seeds:
        deal = rules.deal(seed, players=args.players, expert=args.expert, smaller_hand=args.smaller_hand)
        start = time.perf_counter()
        result = engine.solve(deal, Budget(args.time_limit))
        elapsed = time.perf_counter() - start
        times.append((elapsed, seed))
        decided += result.verdict != UNKNOWN
        optimal += result.optimal
        nodes += result.stats.nodes
        kernel_seconds += result.stats.seconds
        heuristic = heuristic_cards_left(deal)
        solver_left.append(result.value)
        heuristic_left.append(heuristic)
        if result.value > heuristic:
            violations.append((seed, result.value, heuristic))

    count = len(times)
    seconds = sorted(elapsed for elapsed, _ in times)
    slowest = sorted(times, reverse=True)[:5]
    variant = " ".join(filter(None, ["expert" if args.expert else "", "smaller hand" if args.smaller_hand else ""]))
    rows = [
        ("game", f"{rules.TITLE}, {args.players} player(s){', ' + variant if variant else ''}"),
        ("seeds", f"{args.seeds.start}-{args.seeds.stop - 1} ({amount(count, 'deal')}), "
                  f"time limit {args.time_limit} s"),
        ("decided", f"{100 * decided / count:.1f}%"),
        ("optimum proven", f"{100 * optimal / count:.1f}%"),
        ("solver wins", share(sum(v == 0 for v in solver_left), count)),
        ("heuristic wins", share(sum(v == 0 for v in heuristic_left), count)),
        ("mean cards left", f"solver {statistics.mean(solver_left):.2f}, heuristic {statistics.mean(heuristic_left):.2f}"),
        ("median s/deal", f"{statistics.median(seconds):.3f}"),
        ("p99 s/deal", f"{percentile(seconds, 0.99):.3f}"),
        ("max s/deal", f"{seconds[-1]:.3f} (seed {slowest[0][1]})"),
        ("slowest deals", ", ".join(f"seed {seed} {elapsed:.1f} s" for elapsed, seed in slowest)),
        ("kernel nodes/s", f"{nodes / kernel_seconds:,.0f}" if kernel_seconds else "-"),
        ("peak memory", f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"),
        ("solver worse than heuristic", ", ".join(f"seed {s}: {a} > {b}" for s, a, b in violations) or "never"),
    ]
    print_rows(rows)


if __name__ == "__main__":
    run(main)
