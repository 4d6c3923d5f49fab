"""Etalage: how often each player's guaranteed score is proven exact within the time limit, as a table.

    python benchmarks/etalage.py --players 3 --seeds 1-100 --time-limit 60 [--values 10] [--cooperative [--cooperative-limit 3]] [--table-mib 1024]
    python benchmarks/etalage.py --players 5 --seeds 1-40 --from-trick 5 --time-limit 10 [--along] [--each]

Each seeded deal is played by a greedy player (every player plays their highest card and picks
the colour worth most) up to the start of trick `--from-trick` (1: the deal itself); then every
player's guaranteed score is searched, the players sharing the time limit as `solve` shares
it (an equal share each, then the searches still open share what is left). With
`--cooperative` each player's cooperative best is searched after it, with a time limit of its
own (`--cooperative-limit`, by default the same); it is above the guarantee wherever its proven
lower bound is above the guarantee's upper one, so the bounds decide that question where the
values are not exact. With `--along` every position of the greedy game from there on (after each card and each
pick) is one position of the table, not only the trick's start. Shares carry Wilson 95%
intervals; the mean guarantees by seat are over the positions whose guarantees were all proven
(seat 1 leads the first trick of a deal).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from bench_table import at_least, print_rows, run, seconds_rows, summary, time_limit
from puzzles import etalage as rules
from puzzles.etalage import Pick
from puzzles.text import decimal
from solver import parallel
from solver.batch.survey import seed_range, wilson
from solver.games.etalage.engine import GAME
from solver.result import Budget

engine = GAME.engine


def greedy(position):
    """The greedy player's move: the highest card held, or the colour worth most."""
    moves = position.legal_moves()
    if isinstance(moves[0], Pick):
        return max(moves, key=lambda m: (sum(map(rules.value_of, position.display_colour(m.colour))), -m.colour))
    return max(moves, key=lambda m: (rules.value_of(m.card), m.card))


def start_of_trick(deal, trick: int):
    """The deal played greedily to the start of trick `trick` (1-based)."""
    position, done = deal, 1
    while done < trick and position.legal_moves():
        under_way = bool(position.trick)
        position = position.apply(greedy(position))
        done += under_way and not position.trick
    return position


def along(position):
    """`position` and every position after it in the game the greedy player plays on from it."""
    while position.legal_moves():
        yield position
        position = position.apply(greedy(position))


def positions(args):
    """(seed, position) for each position measured: each deal's start of trick `--from-trick`,
    and with `--along` every position of the greedy game after it."""
    for seed in args.seeds:
        start = start_of_trick(rules.deal(seed, players=args.players, values=args.values), args.from_trick)
        yield from ((seed, position) for position in (along(start) if args.along else [start]))


def share(count: int, total: int) -> str:
    low, high = wilson(count, total)
    return f"{count}/{total} = {100 * count / total:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--players", type=decimal, default=3, choices=range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1))
    parser.add_argument("--values", type=decimal, default=rules.TOP, choices=range(2, rules.TOP + 1))
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1-100"))
    parser.add_argument("--from-trick", type=decimal, default=1)
    parser.add_argument("--time-limit", type=time_limit, default=60.0)
    parser.add_argument("--cooperative", action="store_true")
    parser.add_argument("--cooperative-limit", type=time_limit,
                        help="seconds for a position's cooperative bests (default: --time-limit)")
    parser.add_argument("--along", action="store_true",
                        help="every position of the greedy game from the trick's start on (each card and "
                             "pick), not only the start")
    parser.add_argument("--table-mib", type=decimal,
                        help="MiB of the kernel's table, as solve's --memory (default: solve's); long searches "
                             "revisit more positions than it holds")
    parser.add_argument("--each", action="store_true",
                        help="a line for each position as it is done: its seed and every guarantee")
    parser.add_argument("--threads", type=at_least(1, parallel.MAX_JOBS), default=parallel.search_threads,
                        help="search threads: searches side by side, spare ones helping (default: the usable cores)")
    args = parser.parse_args()
    if args.cooperative_limit is None:
        args.cooperative_limit = args.time_limit
    if not 1 <= args.from_trick <= args.values - 1:
        parser.error(f"--from-trick {args.from_trick}: a deal of values 1-{args.values} has tricks 1 to {args.values - 1}")
    parallel.search_threads = args.threads
    if args.table_mib is not None and not 1 <= args.table_mib <= 1 << 16:
        parser.error(f"--table-mib {args.table_mib}: 1 to 65536")

    engine.set_up(Budget(args.time_limit, table_mib=args.table_mib))  # the table, made off the clock as the commands do
    seconds, slowest, exact, nodes, kernel_seconds = [], (0.0, None), 0, 0, 0.0
    by_seat: list[list[int]] = [[] for _ in range(args.players)]
    helped = helped_exact = decided = more = 0
    open_values = []  # the guarantees left as bounds
    for seed, position in positions(args):
        budget, started = Budget(args.time_limit, table_mib=args.table_mib), time.perf_counter()
        players = range(1, args.players + 1)
        found = engine.values(position, [(player, False) for player in players], budget)
        guaranteed = [found[player, False] for player in players]
        elapsed = time.perf_counter() - started
        seconds.append(elapsed)
        slowest = max(slowest, (elapsed, seed))
        nodes += sum(v.nodes for v in guaranteed)
        kernel_seconds += sum(v.seconds for v in guaranteed)
        open_values += [v for v in guaranteed if not v.exact]
        if args.each:
            values = ", ".join(str(v.lower) if v.exact else f"{v.lower}..{v.upper}" for v in guaranteed)
            print(f"seed {seed}: guarantees {values} ({elapsed:.1f} s)", flush=True)
        if all(v.exact for v in guaranteed):
            exact += 1
            for seat, value in enumerate(guaranteed):
                by_seat[seat].append(value.lower)
        if args.cooperative:
            helped_budget = Budget(args.cooperative_limit, table_mib=args.table_mib)
            found = engine.values(position, [(player, True) for player in players], helped_budget)
            for player, sure in enumerate(guaranteed, start=1):
                best = found[player, True]  # never below the guarantee
                helped += 1
                helped_exact += best.exact and sure.exact
                decided += best.lower > sure.upper or best.upper <= sure.lower
                more += best.lower > sure.upper

    count = len(seconds)
    open_widths = [v.upper - v.lower for v in open_values]
    open_lowers = [v.lower for v in open_values]
    seconds.sort()
    rows = [
        ("game", f"{rules.TITLE}, {args.players} players, values 1-{args.values}, from trick {args.from_trick}"),
        ("positions", f"seeds {args.seeds.start}-{args.seeds.stop - 1} "
                      f"({count}{', every move on' if args.along else ''}), time limit {args.time_limit} s, "
                      f"{args.threads} thread{'s' if args.threads > 1 else ''}, table {engine.kernel().table_bytes >> 20} MiB"),
        ("every guarantee exact", share(exact, count)),
        *seconds_rows(seconds, slowest[1]),
        ("kernel nodes/s", f"{nodes / kernel_seconds:,.0f}" if kernel_seconds else "-"),
        ("open guarantees", f"{len(open_widths)}, proven to within {statistics.mean(open_widths):.1f} points "
                            f"on average (widest {max(open_widths)}), at least {min(open_lowers)} to "
                            f"{max(open_lowers)}" if open_widths else "none"),
        ("mean guarantee by seat", ", ".join(f"{seat}: {statistics.mean(v):.2f}" for seat, v in
                                             enumerate(by_seat, start=1) if v) or "-"),
    ]
    if args.cooperative:
        rows += [
            ("cooperative best exact", share(helped_exact, helped) + " (player-positions, both values exact)"),
            ("cooperative best > guarantee", share(more, decided) + " (player-positions the bounds decide)"
                                             if decided else "-"),
        ]
    rows.append(("peak memory", f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"))
    print_rows(rows)


if __name__ == "__main__":
    run(main)
