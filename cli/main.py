"""The `winnable` command line: deal, solve, explain and analyse any registered game."""

from __future__ import annotations

import sys

import click

from solver.registry import GAMES
from solver.result import Budget

from .batch import generate, report, survey
from .common import (
    EXIT_CODES, INPUT_HELP, InputError, budget_options, emit_json, game_choice, load, option_name, progress,
    source_options,
)

@click.group(epilog=EXIT_CODES, context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """winnable: exact solver and puzzle analyser for open-information card games.

    GAME is one of the registered games (see `winnable games`).
    """


@main.command()
def games():
    """List the games winnable knows."""
    for name, entry in sorted(GAMES.items()):
        click.echo(f"{name:12} {entry.title}")


@main.command(epilog=EXIT_CODES)
@source_options
def deal(game_name, source, seed, variant):
    """Print a deal (from --seed N or FILE) in the game's text format."""
    entry = game_choice(game_name)
    position = load(entry, source, seed, variant)
    header = f"# {entry.title}, seed {seed}\n" if seed is not None else ""
    click.echo(header + entry.rules.format_position(position), nl=False)


@main.command(epilog=INPUT_HELP + "\n\n" + EXIT_CODES)
@source_options
@budget_options
@click.option("--maximise", type=click.Choice(["U", "D"]), help="sir-tommy: the most cards U (or D) can hold in a win.")
def solve(game_name, source, seed, variant, as_json, time_limit, node_limit, maximise):
    """Is the deal or position winnable, by which starter(s), and how?

    \b
    --json prints {"game", "verdict", "starters", "starter", "solution",
    "explanation", "stats": {"nodes", "seconds", "method"}}: solution is the
    list of turns from the start (played by "starter" first), each
    {"player": "T"|"F", "cards": ["9H", "5C"], "columns": [4, 11]},
    columns numbered from 1; stats.seconds is search time in the process.
    sir-tommy: each turn is {"player": "U"|"D", "drew": ["4H", ...],
    "plays": [{"card", "from": "drawn"|"row N", "foundation": N}],
    "placed": [{"card", "row"}]} (end-phase turns: no drew/placed; a pass:
    no plays); "held" gives each player's cards at the end; with
    --maximise, "maximise": {"player", "held", "proven_optimal",
    "super_winner_possible"}.
    """
    entry = game_choice(game_name)
    position = load(entry, source, seed, variant)
    options = {"maximise": maximise} if maximise else {}
    foreign = sorted(set(options) - getattr(entry.engine, "SOLVE_OPTIONS", frozenset()))
    if foreign:
        raise InputError(f"{option_name(foreign[0])} does not apply to {entry.name}")
    result = entry.engine.solve(position, Budget(time_limit, node_limit), **options)
    if as_json:
        emit_json({**result.to_json(), "seed": seed})
        return
    click.echo(f"{entry.title}{f', seed {seed}' if seed is not None else ''}")
    echo_lines(result.lines())


@main.command(epilog=INPUT_HELP + "\n\n" + EXIT_CODES)
@source_options
@budget_options
def explain(game_name, source, seed, variant, as_json, time_limit, node_limit):
    """Why a deal or position cannot be won, in words a player can check."""
    entry = game_choice(game_name)
    position = load(entry, source, seed, variant)
    explanation = entry.engine.explain(position, Budget(time_limit, node_limit))
    if as_json:
        emit_json({"game": entry.name, **explanation.to_json(), "seed": seed})
        return
    echo_lines(explanation.lines())


@main.command(epilog=INPUT_HELP + "\n\n" + EXIT_CODES)
@source_options
@budget_options
def analyse(game_name, source, seed, variant, as_json, time_limit, node_limit):
    """For every legal move: does it keep the game winnable?

    \b
    Each move is marked 'keeps winnable', 'loses' or 'unknown'; losing moves
    get a short reason where one is found. --json prints {"game", "verdict",
    "moves": [{"move", "notation", "verdict", "reason"}], "stats"}.
    """
    entry = game_choice(game_name)
    position = load(entry, source, seed, variant)
    result = entry.engine.analyse(position, Budget(time_limit, node_limit), progress=progress)
    if as_json:
        emit_json({**result.to_json(), "seed": seed})
        return
    echo_lines(result.lines())


def echo_lines(lines: list[str]) -> None:
    for line in lines:
        click.echo(line)


for command in (generate, survey, report):
    main.add_command(command)


def run():
    """The console script: click's handling, but Ctrl-C exits 130 without a traceback."""
    try:
        code = main.main(standalone_mode=False)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except (click.Abort, KeyboardInterrupt):
        click.echo("interrupted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)
