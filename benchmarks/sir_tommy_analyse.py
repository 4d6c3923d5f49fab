"""Sir Tommy: analyse of crowded mid-game positions, as a table (issue 16).

    python benchmarks/sir_tommy_analyse.py --seeds 1-20 --turns 10 [--time-limit 60] [--rows 4]

Each seeded deal is played by a greedy pair of players for `--turns` turns: each plays every
card it can onto its foundations (the first play listed), then places what is left in hand
each card on the row whose top is nearest above it in rank (an empty row when there is none).
Positions that are not over are analysed within --time-limit; the table gives the share of
moves decided (keeps / loses), the positions with every move decided, and times.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench_table import at_least, print_rows, run, summary, time_limit
from puzzles import sir_tommy as rules
from puzzles.cards import rank
from puzzles.sir_tommy import EndTurn, Play
from puzzles.text import amount, decimal
from solver.batch.report import percentile
from solver.batch.survey import seed_range
from solver.games.sir_tommy.engine import GAME
from solver.result import UNKNOWN, Budget

engine = GAME.engine


def greedy_placement(position) -> EndTurn:
    """Each card in hand, highest first, onto the row whose top is nearest above it in rank."""
    rows = [row[-1] if row else None for row in position.rows]
    placements = []
    for card in sorted(position.hand, key=rank, reverse=True):
        above = [(rank(top) - rank(card), r) for r, top in enumerate(rows) if top is not None and rank(top) >= rank(card)]
        empty = [r for r, top in enumerate(rows) if top is None]
        row = min(above)[1] if above else empty[0] if empty else min(range(len(rows)), key=lambda r: rank(rows[r]))
        placements.append((card, row))
        rows[row] = card
    return EndTurn(position.to_move, tuple(placements))


def greedy_position(seed: int, turns: int, rows: int):
    """The deal after `turns` greedy turns (or sooner, if the game ends)."""
    position = rules.deal(seed, rows=rows)
    for _ in range(turns):
        while not position.is_won():
            plays = [m for m in position.legal_moves() if isinstance(m, Play)]
            if not plays:
                break
            position = position.apply(plays[0])
        if position.is_won() or position.is_lost():
            break
        position = position.apply(greedy_placement(position))
    return position


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1-20"))
    parser.add_argument("--turns", type=at_least(0), default=10)
    parser.add_argument("--rows", type=decimal, default=rules.DEFAULT_ROWS)
    parser.add_argument("--time-limit", type=time_limit, default=60.0)
    args = parser.parse_args()

    seconds, moves, decided, complete, open_seeds = [], 0, 0, 0, []
    for seed in args.seeds:
        position = greedy_position(seed, args.turns, args.rows)
        if position.is_won() or position.is_lost():
            continue
        start = time.perf_counter()
        analysis = engine.analyse(position, Budget(args.time_limit))
        seconds.append(time.perf_counter() - start)
        settled = sum(move.verdict != UNKNOWN for move in analysis.moves)
        moves += len(analysis.moves)
        decided += settled
        complete += settled == len(analysis.moves)
        if settled < len(analysis.moves):
            open_seeds.append(f"{seed}: {len(analysis.moves) - settled}/{len(analysis.moves)}")
    count = len(seconds)
    seconds.sort()
    print_rows([
        ("game", f"{rules.TITLE}, {args.rows} rows, after {args.turns} greedy turns"),
        ("seeds", f"{args.seeds.start}-{args.seeds.stop - 1} ({amount(count, 'position')}), "
                  f"time limit {args.time_limit:g} s"),
        ("moves decided", f"{decided} of {moves} ({100 * decided / max(moves, 1):.1f}%)"),
        ("positions fully decided", f"{complete} of {count}"),
        ("open moves (seed: open/all)", ", ".join(open_seeds) or "none"),
        ("s/position", f"median {statistics.median(seconds):.2f}, p99 {percentile(seconds, 0.99):.2f}, max {seconds[-1]:.2f}"
         if seconds else "-"),
    ])


if __name__ == "__main__":
    run(main)
