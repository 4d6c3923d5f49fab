"""The Game from a stuck position: the heuristic player's games cut a few turns before it got
stuck, solved from there, as a table.

    python benchmarks/the_game_stuck.py --players 1 --seeds 1-50 [--cuts 4 8 12] [--time-limit 10]
        [--analyse-limit 30] [--expert] [--smaller-hand]

Each seeded deal is played by the heuristic player of benchmarks/the_game.py (player 1
starting). Games it loses give one position per cut: the position at the start of the turn that
many turns before the end. Each position is solved within --time-limit: the table gives the
share whose optimum is proven, times, and for the rest the gap between the best line and the
proven bound. With --analyse-limit, every position is also analysed, and the share of positions
whose every play gets an exact value within that limit is given.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench_table import at_least, print_rows, run, summary, time_limit
from the_game import heuristic_turn
from puzzles import the_game as rules
from puzzles.text import decimal
from solver.batch.report import percentile
from solver.batch.survey import seed_range
from solver.games.the_game.engine import GAME
from solver.result import Budget

engine = GAME.engine


def stuck_positions(seed: int, players: int, cuts: list[int], **variant) -> dict[int, object]:
    """cut -> the turn-start position `cut` turns before the heuristic player got stuck (only
    for games it loses and that last long enough)."""
    position = rules.deal(seed, players=players, **variant).start(1)
    turn_starts = []
    while not position.is_over():
        turn_starts.append(position)
        position = heuristic_turn(position)
    if position.cards_left == 0:
        return {}
    return {cut: turn_starts[-cut] for cut in cuts if cut <= len(turn_starts)}


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--players", type=decimal, default=1)
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1-50"))
    parser.add_argument("--cuts", type=at_least(1), nargs="+", default=[4, 8, 12])
    parser.add_argument("--time-limit", type=time_limit, default=10.0)
    parser.add_argument("--analyse-limit", type=time_limit, default=None)
    parser.add_argument("--expert", action="store_true")
    parser.add_argument("--smaller-hand", action="store_true")
    args = parser.parse_args()
    variant = {"expert": args.expert, "smaller_hand": args.smaller_hand}

    rows = [("game", f"{rules.TITLE}, {args.players} player(s)"
             + "".join(f", {name}" for name, on in [("expert", args.expert), ("smaller hand", args.smaller_hand)] if on)),
            ("seeds", f"{args.seeds.start}-{args.seeds.stop - 1}, solve limit {args.time_limit} s"
             + (f", analyse limit {args.analyse_limit} s" if args.analyse_limit else ""))]
    by_cut: dict[int, list] = {cut: [] for cut in args.cuts}
    for seed in args.seeds:
        for cut, position in stuck_positions(seed, args.players, args.cuts, **variant).items():
            by_cut[cut].append((seed, position))
    for cut, cases in by_cut.items():
        if not cases:
            continue
        seconds, gaps, nodes, kernel_seconds, optima, decided_analyses = [], [], 0, 0.0, [], 0
        for seed, position in cases:
            start = time.perf_counter()
            result = engine.solve(position, Budget(args.time_limit))
            seconds.append(time.perf_counter() - start)
            nodes += result.stats.nodes
            kernel_seconds += result.stats.seconds
            if result.optimal:
                optima.append(result.value)
            else:
                gaps.append((result.value - result.bound, seed))
            if args.analyse_limit:
                analysis = engine.analyse(position, Budget(args.analyse_limit))
                decided_analyses += all(v.value == v.bound for v in analysis.moves)
        seconds.sort()
        count = len(cases)
        rows += [
            (f"cut {cut}: positions", f"{count}, optimum proven {100 * len(optima) / count:.1f}%"
             + (f", mean optimum {statistics.mean(optima):.1f} cards left" if optima else "")),
            (f"cut {cut}: s/position", f"median {statistics.median(seconds):.3f}, p99 {percentile(seconds, 0.99):.3f},"
             f" max {seconds[-1]:.3f}"),
            (f"cut {cut}: open gaps", ", ".join(f"seed {s}: {g}" for g, s in sorted(gaps, reverse=True)) or "none"),
            (f"cut {cut}: nodes/s", f"{nodes / kernel_seconds:,.0f}" if kernel_seconds else "-"),
        ]
        if args.analyse_limit:
            rows.append((f"cut {cut}: analyses decided", f"{100 * decided_analyses / count:.1f}%"))
    print_rows(rows)


if __name__ == "__main__":
    run(main)
