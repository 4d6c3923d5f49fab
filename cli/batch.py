"""Commands over many deals: generate (puzzles for setters), survey (winnability of a seed range,
stored in SQLite, resumable) and report (tables and a plot from a survey database).

cli.commands registers them beside the single-deal commands.
"""

from __future__ import annotations

import os
import sqlite3
import time
from contextlib import contextmanager

import click

from puzzles.cards import MASK64
from puzzles.errors import WinnableError, quoted
from puzzles.text import amount
from solver.batch import generate as generating
from solver.batch import report as reporting
from solver.batch import survey as surveying
from solver.result import WINNABLE

from .common import (
    EXIT_CODES, InputError, budget_options, checked, emit_json, fits_in_memory, game_choice, jobs_option, progress,
    shown, variant_of, Whole, with_game_options,
)
from .main import INTERRUPTED
from .pictures import write_file

SURVEY_EXIT_CODES = EXIT_CODES + "\n       (after Ctrl-C every deal finished so far is stored: rerun to resume)"


def seeds_option(default: str | None):
    """--seeds, required where there is no `default` (click 8.3 on takes an explicit default of
    None as a value given, and let a command run without the option)."""
    if default is None:
        return click.option("--seeds", "seed_text", metavar="FIRST-LAST", required=True,
                            help="Seed range, inclusive (a single seed N also works).")
    return click.option("--seeds", "seed_text", metavar="FIRST-LAST", default=default, show_default=True,
                        help="Seed range, inclusive (a single seed N also works).")


@contextmanager
def results(db_path: str, read_only: bool = False):
    """The results database at `db_path`, one that cannot be used (not ours, damaged, read-only,
    the disk full) being one Error line that names it, exit 2."""
    with checked(surveying.Store, db_path, read_only) as store:
        try:
            yield store
        except sqlite3.Error as error:
            raise InputError(f"{shown(db_path)}: {error}") from None
        except surveying.StoreError as error:
            raise InputError(str(error)) from None


def interrupted(what: str):
    """Ctrl-C: say what is kept, exit 130 (without a traceback, whichever entry point ran us)."""
    click.echo(f"interrupted: {what}", err=True)
    raise click.exceptions.Exit(INTERRUPTED)


@click.command(epilog=SURVEY_EXIT_CODES)
@click.argument("game_name", metavar="GAME")
@seeds_option(None)
@click.option("--db", "db_path", metavar="FILE", required=True, help="SQLite results database (created if missing).")
@jobs_option
@click.option("--cluster", metavar="ADDRESS", help="Run on the Dask scheduler at ADDRESS (pip install 'winnable[cluster]').")
@click.option("--retry-unknown", is_flag=True, help="Also solve again the deals stored as 'unknown' or with a starter left "
              "undecided (give a bigger budget).")
@with_game_options("rules", "solve")
@budget_options
def survey(game_name, seed_text, db_path, jobs, cluster, retry_unknown, given, as_json, time_limit, node_limit,
           table_mib):
    """Solve every seeded deal of a range and store one row per deal.

    Deals already in the database are skipped, so rerunning the same command resumes an
    interrupted or crashed survey without redoing or duplicating a deal; with
    --retry-unknown the deals stored as 'unknown' (or with a starter left undecided) are
    solved again (with the budget given now) and their rows replaced where the new solve
    proves no less (a verdict, every starter decided, or no proven interval wider),
    keeping a stored line better than the new one's. A game's
    variant options (--players 3, --rows 6, ...) survey that variant, stored beside the
    others; so do its solve options (--guarantees-only, --maximise U), which change what
    a row holds. Prints the winnable share of the range with its Wilson 95% interval,
    whose low end counts 'unknown' deals (budget exhausted) as unwinnable and whose high
    end as winnable. --time-limit and --node-limit apply to each deal.

    \b
    Rows (table `deals`, UNIQUE(game, variant, seed)): game, variant ('' for the
    standard rules, else the options given, e.g. 'players=3 expert'), seed, verdict,
    starters (winning starters, comma-separated; one the budget left undecided follows
    with a '?': 'T,F?'), score (an optimisation's best value
    found, NULL unless the game scores), nodes, seconds (to deal and solve), method,
    solution (one move per line, the game's notation), players (JSON, NULL unless the
    game values every player: Etalage's guarantees and cooperative bests, with bounds),
    score_bound (the score's proven bound: optimal where equal; NULL with no score).
    --json prints {"game", "variant", "seeds": [FIRST, LAST], "deals", "new", "skipped",
    "verdicts": {"winnable", "unwinnable", "unknown"}, "winnable_share",
    "wilson_low", "wilson_high", "wall_seconds", "players", "scores"}: deals counts the
    whole range (stored before or now), new those solved by this run, skipped those left
    to another survey running on the database (each claims the seeds it hands out and
    skips those another holds, then takes those given up or never stored); players and
    scores as in report --json.
    """
    entry = game_choice(game_name)
    variant = variant_of(entry, given)
    seeds = checked(surveying.seed_range, seed_text)
    if cluster is None:
        fits_in_memory(table_mib, jobs)
    started = time.perf_counter()
    try:  # workers first: a cluster that cannot be used leaves no new database behind
        with surveying.workers(jobs, cluster) as run_tasks, results(db_path) as store:
            todo = surveying.pending(store, entry.name, variant, seeds, retry_unknown)
            # the stored rows to solve again (read now: another survey may store rows meanwhile)
            again = store.done_count(entry.name, variant, seeds) - store.done_count(entry.name, variant, seeds,
                                                                                      retry_unknown)
            winnable = skipped = 0

            def on_rows(rows):
                nonlocal winnable
                winnable += sum(row.verdict == WINNABLE for row in rows)
                bar.update(len(rows))
                bar.set_postfix(winnable=winnable, refresh=False)

            def on_skipped(count):  # the bar shows the change at its next update
                nonlocal skipped
                skipped += count
                bar.total -= count

            try:
                with progress(total=todo.count, unit="deal") as bar:
                    new = surveying.run(store, entry.name, variant, todo, run_tasks, time_limit, node_limit, jobs,
                                         on_rows, table_mib, on_skipped)
            except KeyboardInterrupt:
                stored = store.summary(entry.name, variant, seeds).deals
                size = seeds.stop - seeds.start  # len() stops at 2**63 - 1 seeds
                interrupted(f"{stored} of {size} deals of the range are stored in {shown(db_path)}; rerun to resume")
            summary = store.summary(entry.name, variant, seeds)
            seats, scores = reporting.values(store, entry.name, variant, seeds)
    except WinnableError as error:  # the cluster cannot be used
        raise InputError(str(error)) from None
    wall = time.perf_counter() - started
    if as_json:
        emit_json({
            **summary.to_json(), "seeds": [seeds.start, seeds.stop - 1], "new": new, "skipped": skipped,
            "wall_seconds": round(wall, 3),
            "players": seats and seats.to_json(), "scores": scores and scores.to_json(),
        })
        return
    low, high = summary.interval
    counts = ", ".join(f"{verdict} {count}" for verdict, count in summary.verdicts.items())
    title = f"{entry.title} ({variant})" if variant else entry.title
    kept = summary.deals - new
    if skipped:  # which rows the other survey stored meanwhile is not known
        counted = (f"{new} solved now, {kept} stored before or by another survey; "
                   f"{skipped} left to another survey running on the database")
    elif again:
        counted = f"{new} solved now, {min(again, new)} of them stored before and solved again, {kept} kept as stored"
    else:
        counted = f"{new} solved now, {kept} stored before"
    click.echo(f"{title}, seeds {seeds.start}-{seeds.stop - 1}: {amount(summary.deals, 'deal')} ({counted}) "
               f"in {wall:.1f} s")
    click.echo(counts)
    if summary.deals:
        click.echo(f"winnable {100 * summary.share:.2f}% (Wilson 95%: {100 * low:.2f}-{100 * high:.2f}%, "
                   "unknown deals counted both ways)")
    else:  # every seed left to another survey, none stored yet
        click.echo("winnable - (no deal of the range stored yet)")
    for block in (seats, scores):
        if block:
            click.echo(block.line())


@click.command(epilog=EXIT_CODES)
@click.argument("game_name", metavar="GAME")
@click.option("--count", type=Whole(1), default=10, show_default=True, help="How many deals to write.")
@click.option("--out", "out_dir", metavar="DIR", required=True, help="Directory for the deal files (created if missing).")
@click.option("--difficulty", type=click.Choice(list(generating.BANDS)), help="Only deals of this band (default: any).")
@click.option("--unwinnable", is_flag=True, help="Proven-unwinnable deals with their explanation instead.")
@click.option("--pictures", is_flag=True, help="Also write a picture of each deal beside its file (its name, .svg).")
@seeds_option("1-100000")
@jobs_option
@with_game_options("rules", "solve")
@budget_options
def generate(game_name, count, out_dir, difficulty, unwinnable, pictures, seed_text, jobs, given, as_json, time_limit,
             node_limit, table_mib):
    """Write deals proven winnable (or, with --unwinnable, proven unwinnable), one file each.

    Seeds are tried in order from --seeds, which also bounds the search: when the range
    runs out first, fewer than COUNT files are written and the command says so (exit 0).
    Each file is DIR/GAME-SEED.txt (for a variant DIR/GAME-VARIANT-SEED.txt, its options
    joined by '-', e.g. etalage-players=4-7.txt, so that variants written to one directory
    do not replace each other's deals): comment lines with the verdict, the difficulty and
    the solution (replayed by the reference rules) or the explanation, then the deal, so
    `winnable solve GAME FILE` reads it (a comment names the variant's options, e.g.
    --players 3, to give it). --time-limit and --node-limit apply to each deal (its
    solve and its difficulty measurement; an unwinnable deal's explanation gets a budget
    of its own).

    \b
    Difficulty: along the solution line the engine marks every legal move 'keeps
    winnable' or 'loses'. bits = sum of log2(legal moves / moves that keep it
    winnable); 2^-bits is the chance that blind play never makes a losing move on
    this line. easy < 6 bits <= medium < 10 bits <= hard. Also reported: the share of
    legal moves that lose, critical moves (exactly one move keeps it winnable, at least
    one loses) and the search effort in nodes.
    --json prints {"game", "variant", "requested", "found", "seeds_examined",
    "seeds_undecided", "seeds": [FIRST, LAST], "files": [{"path", "seed", "verdict",
    "difficulty", "reasons"}]} (variant as survey stores it, '' for the standard rules;
    seeds_examined counts the seeds solved, in batches of 4 (64 with --unwinnable) handed
    to the workers, so it may run past the last deal kept; seeds_undecided those of them
    the budget left undecided, the verdict or, with --difficulty, a move along the line:
    none of them is written); difficulty is {"band", "bits",
    "loss_share", "decisions", "legal_moves", "losing_moves", "critical_moves", "nodes"}
    for winnable deals (null when a move stayed undecided: the deal is written unrated
    unless --difficulty asks for a band), reasons a list for unwinnable ones.
    """
    entry = game_choice(game_name)
    variant = variant_of(entry, given)
    if unwinnable and difficulty:
        raise InputError("--difficulty rates winnable deals; it cannot be combined with --unwinnable")
    if pictures and entry.picture is None:
        raise InputError(f"{entry.name} has no pictures yet")
    rules_options = entry.variant_of(variant)  # as the workers read it
    seeds = checked(surveying.seed_range, seed_text, MASK64)  # not stored: every seed a deal takes
    fits_in_memory(table_mib, jobs)
    wanted = "unwinnable" if unwinnable else difficulty or "any"
    work = checked(generating.tasks, entry.name, variant, seeds, wanted, (time_limit, node_limit, table_mib))
    if not out_dir:
        raise InputError("--out needs a directory name")
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise InputError(f"--out {shown(out_dir)}: not a directory")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as error:
        raise InputError(f"--out {shown(out_dir)}: cannot make that directory ({error.strerror})") from None
    written, examined, undecided = [], 0, 0
    try:
        with surveying.workers(jobs) as run_tasks, progress(total=count, unit="deal") as bar:
            for chunk_size, chunk_undecided, found in run_tasks(generating.examine_chunk, work, ordered=True):
                examined += chunk_size
                undecided += chunk_undecided
                for deal in found[:count - len(written)]:
                    path = os.path.join(out_dir, "-".join([entry.name, *variant.split(), f"{deal.seed}.txt"]))
                    write_file(path, deal.text)
                    if pictures:
                        write_file(path.removesuffix(".txt") + ".svg",
                                   entry.picture(entry.rules.deal(deal.seed, **rules_options)).svg())
                    written.append({"path": path, **deal._asdict()})
                    bar.update(1)
                bar.set_postfix(seeds=examined, refresh=False)
                if len(written) == count:
                    break
    except KeyboardInterrupt:
        interrupted(f"{len(written)} complete files written to {shown(out_dir)}")
    kind = "unwinnable" if unwinnable else f"{difficulty} winnable" if difficulty else "winnable"
    if as_json:
        files = [{key: deal[key] for key in ("path", "seed", "verdict", "difficulty", "reasons")} for deal in written]
        emit_json({
            "game": entry.name, "variant": variant, "requested": count, "found": len(written), "seeds_examined": examined,
            "seeds_undecided": undecided, "seeds": [seeds.start, seeds.stop - 1], "files": files,
        })
        return
    for deal in written:
        rated = (f"  {deal['difficulty']['band']} ({generating.shown_bits(deal['difficulty']['bits']):.1f} bits)" if deal["difficulty"]
                 else "  not rated" if deal["verdict"] == "winnable" else "")
        click.echo(f"{deal['path']}{rated}")
    last = seeds.start + examined - 1
    # (seeds are solved in batches, a batch per task: the last batches may run past the last deal kept)
    click.echo(f"{len(written)} {kind} deal(s) of {count} requested; seeds {seeds.start}-{last} examined")
    if len(written) < count:
        click.echo(f"the search budget (--seeds {seeds.start}-{seeds.stop - 1}) ran out first; "
                   "give a further range with --seeds to find more")
    if undecided:
        click.echo(f"{undecided} of the seeds examined stayed undecided within --time-limit and --node-limit; "
                   "raise them to decide such deals")


@click.command(epilog=EXIT_CODES)
@click.argument("db_path", metavar="DB")
@click.option("--plot", "plot_path", metavar="FILE",
              help="Also draw winnability and solve times into this file: .png, .svg or .pdf, by its suffix.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def report(db_path, plot_path, as_json):
    """Tables (and with --plot, a figure) from a survey database, per game and variant.

    \b
    --json prints {"groups": [{"game", "variant", "deals", "verdicts": {"winnable",
    "unwinnable", "unknown"}, "winnable_share", "wilson_low", "wilson_high",
    "seconds": {"median", "p90", "p99", "max", "mean", "total"}, "players", "scores"}]};
    "players" is null but for a game that values every player (Etalage):
    {"deals", "exact_deals", "mean_guaranteed" (by seat, over the exact deals; null with none),
    "se_guaranteed" (their standard errors; null with fewer than two), "leader_lowest"
    (deals whose seat 1 is sure of less than every other seat), "pairs",
    "cooperative_above", "cooperative_not_above", "undecided", "not_searched"};
    "scores" is null but for an optimisation that values no player one by one (The
    Game's fewest cards left, Quick & Easy's most cards played, Sir Tommy's
    --maximise) with a deal that has a score: {"deals" (those with a score: Sir Tommy's
    won ones), "optimal" (score proven optimal), "mean_optimal", "mean_gap" (of the
    others, score to proven bound), "no_bound" (rows stored before the bound was)}.
    """
    if plot_path is not None and reporting.plot_format(plot_path) is None:
        *others, last = (f".{suffix}" for suffix in reporting.PLOT_FORMATS)
        raise InputError(f"--plot {quoted(plot_path)}: give a file name ending in {', '.join(others)} or {last}")
    with results(db_path, True) as store:
        groups = reporting.groups(store)
    if plot_path and groups:
        write_file(plot_path, reporting.plot(groups, reporting.plot_format(plot_path)))
    if as_json:
        emit_json({"groups": [group.to_json() for group in groups]})
        return
    if not groups:
        click.echo(f"{shown(db_path)}: no deals stored yet")
        return
    click.echo(reporting.table(groups))
    if plot_path:
        click.echo(f"plot: {shown(plot_path)}")
