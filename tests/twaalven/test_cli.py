"""Twaalven en veertienen on the command line: output formats, JSON replayed by the rules, reasons, budgets and bad input."""

import json

import pytest
from click.testing import CliRunner

from cli.commands import main
from puzzles import twaalven as rules
from puzzles.cards import parse_card
from solver.registry import GAMES

SEVEN = rules.format_position(rules.deal(7))


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def replay_json(position, solution, starter):
    """Replays a JSON solution with the reference rules, using only what the JSON says."""
    position = position.start(starter)
    for turn in solution:
        cards = tuple(parse_card(c) for c in turn["cards"])
        columns = tuple(c - 1 for c in turn["columns"])
        position = position.apply(rules.Move(turn["player"], cards, columns))
    return position


def four_sixes_in_column_one() -> str:
    """Seed 7's deal with the four 6s swapped into column 1: T's 6-6 can never be taken."""
    columns = [list(c) for c in rules.deal(7).columns]
    sixes = [parse_card(s) for s in ("6S", "6H", "6D", "6C")]
    for depth, six in enumerate(sixes):
        col, row = next((c, d) for c, column in enumerate(columns) for d, card in enumerate(column) if card == six)
        columns[col][row], columns[0][depth] = columns[0][depth], six
    return rules.format_position(rules.Position(tuple(map(tuple, columns))))


def test_deal_prints_thirteen_columns_that_parse_back():
    result = run("deal", "twaalven", "--seed", "7")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "# Twaalven en veertienen, seed 7"
    assert len(lines) == 14
    assert rules.parse(result.output) == rules.deal(7)


def test_solve_json_has_the_documented_shape_and_replays():
    result = run("solve", "twaalven", "--seed", "7", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert set(data) >= {"game", "verdict", "starters", "solution", "explanation", "stats"}
    assert set(data["stats"]) == {"nodes", "seconds", "method"}
    assert data["game"] == "twaalven" and data["verdict"] == "winnable"
    assert data["starters"] == ["T", "F"]
    assert len(data["solution"]) == 26
    assert replay_json(rules.deal(7), data["solution"], data["starter"]).is_won()


def test_solve_text_lists_numbered_turns():
    result = run("solve", "twaalven", "--seed", "7")
    assert result.exit_code == 0
    assert "verdict: winnable" in result.output
    assert "winning starter(s): T, F" in result.output
    turns = [line for line in result.output.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    assert len(turns) == 26
    first = rules.Move.parse(turns[0].split(".", 1)[1])
    assert first in rules.deal(7).start("T").legal_moves()


def test_file_and_stdin_give_the_same_verdict(tmp_path):
    deal_file = tmp_path / "deal.txt"
    deal_file.write_text(SEVEN)
    from_file = json.loads(run("solve", "twaalven", str(deal_file), "--json").output)
    from_stdin = json.loads(run("solve", "twaalven", "-", "--json", input=SEVEN).output)
    assert from_file["verdict"] == from_stdin["verdict"] == "winnable"
    assert from_file["solution"] == from_stdin["solution"]


def test_unwinnable_deal_is_reported_with_a_reason():
    result = run("solve", "twaalven", "-", "--json", input=four_sixes_in_column_one())
    data = json.loads(result.output)
    assert data["verdict"] == "unwinnable"
    assert data["starters"] == [] and data["solution"] == []
    assert data["explanation"] and "6" in data["explanation"]


def test_one_starter_deal_names_only_that_starter():
    data = json.loads(run("solve", "twaalven", "--seed", "998", "--json").output)
    assert data["starters"] == ["F"]
    assert replay_json(rules.deal(998), data["solution"], "F").is_won()


def test_a_starter_the_budget_left_undecided_is_never_called_lost():
    """Seed 11 is won whoever starts; 100 nodes (and no CP-SAT: no time limit) find T's win
    and leave F's search open, so F is undecided, never lost. Each command starts from an
    empty table, as a fresh process does (the losses one proves shorten the next)."""
    def fresh(*args):
        GAMES["twaalven"].engine.forget_kernel()
        return run(*args, "--seed", "11", "--node-limit", "100", "--time-limit", "inf")

    data = json.loads(fresh("solve", "twaalven", "--json").output)
    assert (data["verdict"], data["starters"], data["undecided_starters"]) == ("winnable", ["T"], ["F"])
    text = fresh("solve", "twaalven").output
    assert "winning starter(s): T (F undecided)" in text and "the search hit its budget with F starting" in text
    explained = json.loads(fresh("explain", "twaalven", "--json").output)
    assert explained["method"] == "none" and explained["reasons"] == [
        "Winnable with T starting; `winnable solve` prints a winning line.",
        "With F starting it is not decided within the budget; raise --time-limit or --node-limit to decide it."]
    decided = json.loads(run("solve", "twaalven", "--seed", "11", "--json").output)
    assert (decided["starters"], decided["undecided_starters"]) == (["T", "F"], [])


def test_exhausted_budget_gives_unknown_never_a_guess():
    result = run("solve", "twaalven", "--seed", "959", "--node-limit", "1", "--time-limit", "0.000001", "--json")
    data = json.loads(result.output)
    assert data["verdict"] == "unknown"
    assert data["solution"] == []


def test_cp_sat_decides_what_the_dfs_budget_leaves_open():
    data = json.loads(run("solve", "twaalven", "--seed", "7", "--node-limit", "1", "--json").output)
    assert data["verdict"] == "winnable"
    assert "cp-sat" in data["stats"]["method"]
    assert replay_json(rules.deal(7), data["solution"], data["starter"]).is_won()


def test_analyse_marks_every_legal_move_consistently_with_solve():
    position = rules.deal(998).start("T")
    text = rules.format_position(position)
    data = json.loads(run("analyse", "twaalven", "-", "--json", input=text).output)
    assert data["verdict"] == "unwinnable"
    assert len(data["moves"]) == len(position.legal_moves()) > 0
    assert {m["verdict"] for m in data["moves"]} == {"loses"}

    start = rules.deal(7).start("T")
    data = json.loads(run("analyse", "twaalven", "-", "--json", input=rules.format_position(start)).output)
    assert data["verdict"] == "winnable"
    for entry in data["moves"]:
        after = start.apply(rules.Move.parse(entry["notation"]))
        expected = GAMES['twaalven'].engine.solve(after).verdict
        assert entry["verdict"] == {"winnable": "keeps winnable", "unwinnable": "loses"}[expected]


def test_explain_a_winnable_deal_points_at_solve():
    result = run("explain", "twaalven", "--seed", "7")
    assert result.exit_code == 0
    assert "winnable" in result.output and "solve" in result.output


BAD_INPUTS = [
    (SEVEN.replace("KH 8H 7H QS", "KH 8H 7H QH"), "duplicate card QH"),
    (SEVEN.replace("KH 8H 7H QS", "KH 8H 7H"), "51 cards"),
    (SEVEN.replace("KH 8H 7H QS", "KH 8H 7H 1X"), "'1X' is not a card"),
    (SEVEN + "AS\n", "14th column"),
    ("-\n" * 12 + "KH 8H 7H\nto-move: T\n", "an even number must be gone"),
]


@pytest.mark.parametrize("text, message", BAD_INPUTS)
def test_bad_input_is_one_clear_line_and_exit_code_2(text, message):
    result = run("solve", "twaalven", "-", input=text)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
