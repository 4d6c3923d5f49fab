"""The `winnable` commands: deal, solve, explain and analyse any registered game, and (from
cli.batch) generate, survey and report. cli.main runs them as the console script."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager

import click

from solver.contract import variant_comment
from solver.registry import GAMES
from solver.result import Budget

from .batch import generate, report, survey
from .pictures import (
    html_option, picture_of, writable, write_line_page, write_moves_page, write_picture, write_reasons_page,
)
from .common import (
    EXIT_CODES, INPUT_HELP, JSON_HELP, InputError, budget_options, checked, emit_json, fits_in_memory, game_choice, load,
    progress, searching, shown, source_options, variant_of, with_game_options,
)


@contextmanager
def usage_errors_in_one_line():
    """A usage error raised in the block (an unknown option, a value out of range, a missing
    argument) shows as its `Error:` line alone, which names the option: click would put a usage
    line, a help hint and a blank line before it. Help shown for a bare `winnable` stays."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.UsageError as error:
        error.ctx = None  # click prints the usage and hint lines only for an error with a context
        raise


class Commands(click.Group):
    """The command group: usage errors of every command are one line (exit 2), so is output that
    cannot be written (a full disk), and a reader that closes the pipe early (`| head`) ends a
    command quietly with exit code 0, where click would exit 1."""

    def make_context(self, info_name, args, parent=None, **extra):
        with usage_errors_in_one_line():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx):
        try:
            with usage_errors_in_one_line():
                return super().invoke(ctx)
        except BrokenPipeError:
            # Python would report the failed flush of stdout at exit: point stdout at nothing first.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(0) from None
        except OSError as error:
            if not raised_by_echo(error):
                raise
            raise InputError(f"cannot write the output: {error.strerror}") from None


def raised_by_echo(error: BaseException) -> bool:
    """Whether `error` was raised writing the output (by click.echo, which every command
    writes with), not by other work: only then is it the output's fault (a full disk)."""
    innermost = error.__traceback__
    while innermost.tb_next is not None:
        innermost = innermost.tb_next
    return innermost.tb_frame.f_code is click.utils.echo.__code__


@click.group(cls=Commands, epilog=EXIT_CODES, context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """winnable: exact solver and puzzle analyser for open-information card games.

    GAME is one of the registered games (see `winnable games`).
    """


@main.command()
def games():
    """List the games winnable knows."""
    for name, entry in GAMES.items():
        click.echo(f"{name:16} {entry.title}")


def prepared(game_name: str, source, seed, given: dict):
    """The registry entry, the deal or position, and the solve options the user gave."""
    entry = game_choice(game_name)
    variant = checked(entry.checked, given, "rules")
    solve_options = checked(entry.checked, given, "solve")
    return entry, load(entry, source, seed, variant), solve_options


def search_budget(time_limit, node_limit, table_mib, html_path, source) -> Budget:
    """The budget of a command that searches, once what the search must not outlive is checked:
    a table that fits in memory, and a --html path that can be written, other than the input
    file `source` (found bad only after the search, it threw the search away)."""
    fits_in_memory(table_mib)
    if html_path is not None:
        writable(html_path, source)
    return Budget(time_limit, node_limit, table_mib=table_mib)


@main.command(epilog=EXIT_CODES)
@source_options
def deal(game_name, source, seed, given):
    """Print a deal (from --seed N or FILE) in the game's text format, after a comment naming
    the variant's options, since the text alone may not say them (Sir Tommy's --rows)."""
    entry, position, _ = prepared(game_name, source, seed, given)
    header = f"# {entry.title}, seed {seed}\n" if seed is not None else ""
    variant = entry.variant_label(checked(entry.checked, given, "rules"))
    header += variant_comment(variant) + "\n" if variant else ""
    click.echo(header + entry.rules.format_position(position), nl=False)


@main.command(epilog=EXIT_CODES)
@source_options
@click.option("--out", "out_path", metavar="PATH", required=True, help="The picture to write: .svg, or .png.")
def show(game_name, source, seed, given, out_path):
    """Draw a deal or position (from --seed N or FILE) as a picture, .svg or .png."""
    entry, position, _ = prepared(game_name, source, seed, given)
    write_picture(out_path, picture_of(entry, position).svg(), source)
    click.echo(shown(out_path))


@main.command(epilog=INPUT_HELP + "\n\n" + EXIT_CODES)
@source_options
@with_game_options("solve")
@budget_options
@html_option
def solve(game_name, source, seed, given, as_json, time_limit, node_limit, table_mib, html_path):
    """Is the deal or position winnable, by which starter(s), and how?

    \b
    --json prints {"game", "verdict", "starters", "undecided_starters", "starter",
    "solution", "explanation", "stats": {"nodes", "seconds", "method"}, "seed"} and
    the game's own fields below: solution is the list of turns from the start
    (played by "starter" first); undecided_starters, the starters whose search the
    budget left open (neither won nor lost); stats.seconds is the search's wall time in
    the process.
    """
    entry, position, options = prepared(game_name, source, seed, given)
    budget = search_budget(time_limit, node_limit, table_mib, html_path, source)
    with searching(time_limit):
        result = entry.engine.solve(position, budget, **options)
    if html_path is not None:
        write_line_page(html_path, entry, result, {**result.to_json(), "seed": seed}, variant_of(entry, given))
    if as_json:
        emit_json({**result.to_json(), "seed": seed})
        return
    click.echo(f"{entry.title}{f', seed {seed}' if seed is not None else ''}")
    echo_lines(result.lines())


solve.help += "\n\n" + JSON_HELP


@main.command(epilog=INPUT_HELP + "\n\n" + EXIT_CODES)
@source_options
@budget_options
@html_option
def explain(game_name, source, seed, given, as_json, time_limit, node_limit, table_mib, html_path):
    """Why a deal or position cannot be won, in words a player can check.

    --json prints {"game", "verdict", "reasons", "method", "proofs", "seed"};
    "proofs" holds the proof trees the reasons spell out (README: JSON).
    """
    entry, position, _ = prepared(game_name, source, seed, given)
    budget = search_budget(time_limit, node_limit, table_mib, html_path, source)
    with searching(time_limit):
        explanation = entry.engine.explain(position, budget)
    if html_path is not None:
        write_reasons_page(html_path, entry, position, explanation, {**explanation.to_json(), "seed": seed},
                           variant_of(entry, given))
    if as_json:
        emit_json({**explanation.to_json(), "seed": seed})
        return
    echo_lines(explanation.lines())


@main.command(epilog=INPUT_HELP + "\n\n" + EXIT_CODES)
@source_options
@budget_options
@html_option
def analyse(game_name, source, seed, given, as_json, time_limit, node_limit, table_mib, html_path):
    """For every legal move: does it keep the game winnable?

    \b
    Each move is marked 'keeps winnable', 'loses' or 'unknown'; losing moves
    get a short reason where one is found. --json prints {"game", "verdict",
    "moves": [{"move", "notation", "verdict", "reason"}], "stats", "seed"};
    optimisation games add each move's value, proven bound, "optimal" and
    "best" (true, false, or null while not proven either way).
    """
    entry, position, _ = prepared(game_name, source, seed, given)
    result = entry.engine.analyse(position, search_budget(time_limit, node_limit, table_mib, html_path, source),
                                  progress=progress)
    if html_path is not None:
        write_moves_page(html_path, entry, position, result, {**result.to_json(), "seed": seed},
                         variant_of(entry, given))
    if as_json:
        emit_json({**result.to_json(), "seed": seed})
        return
    echo_lines(result.lines())


def echo_lines(lines: list[str]) -> None:
    for line in lines:
        click.echo(line)


for command in (generate, survey, report):
    main.add_command(command)
