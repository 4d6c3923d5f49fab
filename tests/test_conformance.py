"""One conformance suite that every registered game and each of its test variants must pass
(pgx-style): the rules' contract (deals round-trip, moves apply, hash and parse back, lines
replay to a won position with no moves left), and every command of the CLI, with the JSON keys
the docs promise and solve, explain and analyse agreeing. A new game gets it from the registry."""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner

from cli.commands import main
from puzzles.errors import WinnableError
from puzzles.lines import replay
from solver.engine import Engine
from solver.registry import GAMES
from solver.result import KEEPS, LOSES, METHODS, UNKNOWN, UNWINNABLE, WINNABLE, Budget, OptimumResult

CASES = [(name, variant) for name, entry in GAMES.items() for variant in entry.test_variants]
IDS = [f"{name}{'-' + GAMES[name].variant_label(variant).replace(' ', '-') if variant else ''}" for name, variant in CASES]
#: Every command of a run gets this many seconds at most: solve and explain decide these deals
#: well within it; analyse and generate may leave moves open, which the checks allow.
SECONDS = "4"

SOLVE_KEYS = {"game", "verdict", "starters", "undecided_starters", "starter", "solution", "explanation", "stats", "seed"}
EXPLAIN_KEYS = {"game", "verdict", "reasons", "method", "proofs", "seed"}
ANALYSE_KEYS = {"game", "verdict", "moves", "stats", "seed"}
MOVE_KEYS = {"move", "notation", "verdict", "reason"}


def flags(variant: dict) -> list[str]:
    """A variant as command-line options."""
    words = []
    for name, value in variant.items():
        words += ["--" + name.replace("_", "-")] + ([] if value is True else [str(value)])
    return words


def run(*args: str, input=None):
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


@pytest.mark.parametrize("name, variant", CASES, ids=IDS)
def test_rules_and_engine_conform(name, variant):
    """Seeded deals format and parse back; the solution's every move is legal, parses back
    from its notation and changes the position, equal positions hash equal, and the line ends
    in a won position with no moves left that also round-trips."""
    entry = GAMES[name]
    rules = entry.rules
    for seed in entry.test_seeds:
        deal = rules.deal(seed, **variant)
        assert rules.parse(rules.format_position(deal), **variant) == deal
        result = entry.engine.solve(deal, Budget(time_limit=60))
        assert result.verdict in (WINNABLE, UNWINNABLE), (name, variant, seed)
        assert result.stats.method in METHODS
        if result.verdict != WINNABLE:
            if isinstance(result, OptimumResult):  # the best line, which ends the game short
                end = replay(result.start, result.solution)
                assert not end.legal_moves() and not end.is_won()
            else:
                assert result.solution == []
            continue
        position = result.start
        for move in result.solution:
            assert move in position.legal_moves()
            assert type(move).parse(str(move)) == move
            following = position.apply(move)
            assert following != position and hash(following) == hash(position.apply(move))
            position = following
        assert position.is_won() and not position.legal_moves()
        assert rules.parse(rules.format_position(position), **variant) == position
        won = entry.engine.solve(position, Budget(time_limit=60))
        assert (won.verdict, won.solution, won.stats.method) == (WINNABLE, [], "rules")


class ForeignMove:
    """A move of no game, with the fields moves have (another game's move with the same fields
    was applied by All in a Row and Black Hole; Twaalven and Sir Tommy failed on its fields)."""

    player, card, column, columns, cards, pile, source, foundation, onto = "A", 27, 6, (0, 1), (0, 1), 0, 0, 0, None


@pytest.mark.parametrize("name, variant", CASES, ids=IDS)
def test_a_move_of_no_game_is_an_illegal_move(name, variant):
    from puzzles.errors import IllegalMoveError

    position = GAMES[name].rules.deal(GAMES[name].test_seeds[0], **variant)
    position = next((start for start in GAMES[name].engine.starts(position) if start.legal_moves()), position)
    for move in (ForeignMove(), None, "7H"):
        with pytest.raises(IllegalMoveError):
            position.apply(move)


@pytest.mark.parametrize("name, variant", CASES, ids=IDS)
def test_every_command_runs_and_the_answers_agree(name, variant, tmp_path):
    entry = GAMES[name]
    seed = str(entry.test_seeds[0])
    deal_args = [name, "--seed", seed, *flags(variant)]
    args = [*deal_args, "--time-limit", SECONDS]

    text = run("deal", *deal_args)
    assert entry.rules.parse(text, **variant) == entry.rules.deal(int(seed), **variant)

    solved = json.loads(run("solve", *args, "--json"))
    assert set(solved) >= SOLVE_KEYS and set(solved["stats"]) == {"nodes", "seconds", "method"}
    assert solved["game"] == name and solved["seed"] == int(seed) and solved["stats"]["method"] in METHODS
    assert solved["verdict"] in (WINNABLE, UNWINNABLE)
    if solved["verdict"] == WINNABLE or "optimal" not in solved:  # an optimisation shows its best line
        assert (solved["solution"] != []) == (solved["verdict"] == WINNABLE)
    result = entry.engine.solve(entry.rules.deal(int(seed), **variant), Budget(time_limit=60))
    if isinstance(result, OptimumResult):
        objective = result.objective
        assert {objective.value_key, objective.bound_key, "optimal"} <= set(solved)
    assert run("solve", *args).splitlines()[1] == f"verdict: {solved['verdict']}"

    explained = json.loads(run("explain", *args, "--json", "--memory", "8"))
    assert set(explained) == EXPLAIN_KEYS and explained["reasons"]
    assert explained["verdict"] == solved["verdict"]

    analysed = json.loads(run("analyse", *args, "--json"))
    assert set(analysed) == ANALYSE_KEYS and analysed["verdict"] in (solved["verdict"], UNKNOWN)
    labels = [move["verdict"] for move in analysed["moves"]]
    assert all(set(move) >= MOVE_KEYS for move in analysed["moves"])
    assert set(labels) <= {KEEPS, LOSES, UNKNOWN}
    if solved["verdict"] == WINNABLE:
        assert set(labels) != {LOSES}, "a winnable deal has a move that keeps it so"
    else:
        assert KEEPS not in labels

    out = tmp_path / "deals"
    written = json.loads(run("generate", *args[:1], "--count", "1", "--seeds", "1-2", "--jobs", "1",
                             "--out", str(out), "--json", *flags(variant), "--time-limit", SECONDS))
    assert written["variant"] == entry.variant_label(variant)
    for file in written["files"]:
        with open(file["path"], encoding="utf-8") as handle:
            assert entry.rules.parse(handle.read(), **variant) == entry.rules.deal(file["seed"], **variant)

    db = str(tmp_path / "survey.sqlite")
    surveyed = json.loads(run("survey", name, "--seeds", "1-2", "--db", db, "--jobs", "1", "--json",
                              *flags(variant), "--time-limit", SECONDS))
    assert surveyed["deals"] == 2 and surveyed["variant"] == entry.variant_label(variant)
    reported = json.loads(run("report", db, "--json"))
    assert [(g["game"], g["variant"], g["deals"]) for g in reported["groups"]] == [
        (name, entry.variant_label(variant), 2)
    ]


@pytest.mark.parametrize("name, variant", CASES, ids=IDS)
def test_a_node_limit_bounds_every_command_as_a_whole(name, variant):
    """--node-limit N is the budget of the whole command: solve, analyse and explain of a deal
    count at most N nodes in all, however many searches they make (starters, moves, passes, a
    beam phase). A search left no node is not started: the kernels read a limit of 0 as none,
    and each later search used to get a node of its own (one over per starter, per move, per
    Etalage search), The Game's beam counted a position's turns past the limit, and Etalage's
    kernel counted nodes it refused once stopped. Explain prints no statistics: its budget
    counts what it searched. No time limit, so CP-SAT (which counts no nodes) does not run."""
    entry = GAMES[name]
    deal = entry.rules.deal(7, **variant)
    for limit in (1, 10, 1000):
        for command in (entry.engine.solve, entry.engine.analyse, entry.engine.explain):
            budget = Budget(time_limit=None, node_limit=limit)
            result = command(deal, budget)
            reported = result.stats.nodes if hasattr(result, "stats") else budget.nodes_used
            assert max(reported, budget.nodes_used) <= limit, (command.__name__, limit, reported, budget.nodes_used)


#: Every registered game's engine, and the shared engine's default: a game that keeps no table
#: (`Engine.table_slot_bytes` 0, a search in Python say).
ENGINES = {**{name: entry.engine for name, entry in GAMES.items()}, "no table": Engine()}


@pytest.mark.parametrize("name", ENGINES)
def test_memory_sizes_the_kernels_table_within_it(name):
    """--memory M (a budget's table_mib) makes the kernel's table the largest the kernel makes
    within M MiB (a power of two of slots), and the game's own size is what the engine says.
    A game that keeps no table has nothing to size (it failed here: 0 MiB is not within M)."""
    engine = copy.copy(ENGINES[name])  # a kernel of its own, not the registry's
    engine._kernel = None
    if not engine.table_slot_bytes:
        engine.set_up(Budget(table_mib=48))
        assert engine.table_mib(48) == 0 and engine.kernel() is None
        return
    for mib in (1, 3, 48):
        assert mib << 19 < engine.table_mib(mib) * 2**20 <= mib << 20
        engine.set_up(Budget(table_mib=mib))
        if engine.kernel() is not None:  # Quick & Easy makes a table for each search
            assert engine.kernel().table_bytes == engine.table_mib(mib) * 2**20
    engine.set_up(Budget(table_mib=round(engine.table_mib())))
    if engine.kernel() is not None:
        assert engine.kernel().table_bytes == engine.table_mib() * 2**20
    with pytest.raises(ValueError, match="at least 1"):
        Budget(table_mib=0)


def test_a_table_beyond_the_machines_memory_is_bad_input_not_an_abort():
    """The API refuses it as the command line's --memory does (docs/api.md: bad input raises a
    WinnableError): `api.solve(..., table_mib=1 << 30)` made a budget with it, and the kernel's
    allocation aborted the process with a Rust backtrace."""
    with pytest.raises(WinnableError, match="more than this machine's"):
        Budget(table_mib=1 << 30)


def test_variant_labels_name_each_variant_once_and_read_back():
    for entry in GAMES.values():
        labels = [entry.variant_label(variant) for variant in entry.test_variants]
        assert len(set(labels)) == len(labels)
        for variant, label in zip(entry.test_variants, labels):
            assert entry.variant_of(label) == variant


def test_a_variant_label_names_the_solve_options_apart_from_the_rules():
    """Survey rows searched with a solve option hold other values, so its label names it; the
    deal is dealt with the rules' options alone and solved with the solve options."""
    entry = GAMES["etalage"]
    label = entry.variant_label({"players": 4, "guarantees_only": True})
    assert label == "players=4 guarantees-only"
    assert entry.variant_of(label) == {"players": 4}
    assert entry.variant_of(label, "solve") == {"guarantees_only": True}
    assert GAMES["sir-tommy"].variant_of("maximise=U", "solve") == {"maximise": "U"}
    for bad in ("players=four", "players=\uff14", "players=4_0", "guarantees-only=1", "rows=3"):
        with pytest.raises(WinnableError, match="is not a variant of etalage"):
            entry.variant_of(bad)
