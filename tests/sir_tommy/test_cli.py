"""Sir Tommy voor twee from the command line: deals, turn-by-turn JSON replayed by the rules,
--rows, --maximise, explain, analyse and bad input."""

import json

from click.testing import CliRunner

from cli.commands import main
from puzzles import sir_tommy as st
from puzzles.cards import card_name, parse_card
from puzzles.sir_tommy import EndTurn, Play

BURIED = """\
AS AH AD AC 3S 3H 3D 3C 2S
2H 2D 2C
-
-
stock: -
hand: -
to-move: U
"""


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def replay_json(position, solution):
    """Replays a JSON solution with the reference rules, using only what the JSON says."""
    for number, turn in enumerate(solution):
        assert turn["player"] == position.to_move
        for play in turn["plays"]:
            card, foundation = parse_card(play["card"]), play["foundation"] - 1
            source = -1 if play["from"] == "drawn" else int(play["from"].split()[1]) - 1
            pile = position.foundations_of(turn["player"])[foundation]
            position = position.apply(Play(turn["player"], card, source, foundation, pile[-1] if pile else None))
        if number < len(solution) - 1:
            placed = tuple((parse_card(p["card"]), p["row"] - 1) for p in turn.get("placed", []))
            position = position.apply(EndTurn(turn["player"], placed))
    return position


def test_deal_prints_the_stock_and_reads_back():
    result = run("deal", "sir-tommy", "--seed", "7")
    assert result.exit_code == 0
    header, first = result.output.splitlines()[:2]
    assert header == "# Sir Tommy voor twee, seed 7" and first.split()[:3] == ["4H", "5S", "JD"]
    assert st.parse(result.output) == st.deal(7)


def test_deal_with_rows_names_them_since_the_stock_does_not():
    result = run("deal", "sir-tommy", "--seed", "7", "--rows", "2")
    assert result.output.splitlines()[1] == "# variant: rows=2 (solve this file with --rows 2)"
    assert st.parse(result.output, rows=2) == st.deal(7, rows=2)


def test_solve_json_is_turns_that_replay_to_a_win():
    result = run("solve", "sir-tommy", "--seed", "7", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["verdict"] == "winnable" and data["starter"] == "U"
    assert set(data["solution"][0]) == {"player", "drew", "plays", "placed"}
    assert replay_json(st.deal(7), data["solution"]).is_won()
    assert sum(data["held"].values()) == 52


def test_rows_option_and_a_position_file(tmp_path):
    data = json.loads(run("solve", "sir-tommy", "--seed", "12", "--rows", "6", "--json").output)
    position = st.deal(12, rows=6)
    assert replay_json(position, data["solution"]).is_won()
    after = position.apply(next(m for m in position.legal_moves() if isinstance(m, EndTurn)))
    path = tmp_path / "pos.txt"
    path.write_text(st.format_position(after))
    text = run("solve", "sir-tommy", str(path), "--rows", "6").output
    assert "verdict: " in text
    refused = run("solve", "sir-tommy", str(path))
    assert refused.exit_code == 2 and "a 5th row" in refused.output and "--rows" in refused.output


def test_a_position_with_d_to_move_is_started_by_d(tmp_path):
    """Seed 5 after U's first turn (8C, KC, 4C on the rows): the winning starter is D, the
    player the position names, as the line's first turn is D's."""
    deal = st.deal(5)
    cards = [card_name(c) for c in deal.hand + deal.stock]
    assert cards[:3] == ["8C", "KC", "4C"]
    path = tmp_path / "d-to-move.txt"
    path.write_text(f"4C KC\n8C\n-\n-\nstock: {' '.join(cards[3:])}\nU: -, -, -, -\nD: -, -, -, -\nto-move: D\n")
    data = json.loads(run("solve", "sir-tommy", str(path), "--time-limit", "2", "--json").output)
    assert data["verdict"] == "winnable" and data["starters"] == ["D"] and data["starter"] == "D"
    assert data["solution"][0]["player"] == "D"
    assert replay_json(st.parse(path.read_text()), data["solution"]).is_won()
    text = run("solve", "sir-tommy", str(path), "--time-limit", "2").output.splitlines()
    assert "winning starter(s): D" in text
    assert next(line for line in text if line.startswith("  1. ")).startswith("  1. D drew 9D 6S 6H")


def test_maximise_reports_the_most_cards_and_the_super_winner():
    data = json.loads(run("solve", "sir-tommy", "--seed", "2", "--maximise", "D", "--time-limit", "2", "--json").output)
    maximum = data["maximise"]
    assert maximum["player"] == "D" and maximum["held"] == data["held"]["D"]
    assert maximum["held"] == data["most_held"] <= data["upper_bound"] <= 52
    assert maximum["proven_optimal"] == data["optimal"] == (data["most_held"] == data["upper_bound"])
    assert maximum["super_winner_possible"] == (True if maximum["held"] >= 30 else (False if data["upper_bound"] < 30 else None))
    text = run("solve", "sir-tommy", "--seed", "2", "--maximise", "D", "--time-limit", "2").output
    assert "most cards D can hold in a win" in text and "D can be the super-winner (30+ cards): " in text


def test_maximise_without_a_win_gives_the_plain_result():
    data = json.loads(run("solve", "sir-tommy", "-", "--maximise", "U", "--json", input=BURIED).output)
    assert data["verdict"] == "unwinnable" and data["held"] == {}
    assert not {"most_held", "upper_bound", "optimal", "maximise"} & set(data)


def test_explain_names_a_card_buried_beyond_both_players():
    result = run("explain", "sir-tommy", "-", input=BURIED)
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "verdict: unwinnable"
    assert ("2S in row 1 can never be played: for U every U foundation must take an ace before it, and all of "
            "AS AH AD AC lie beneath it; for D every D foundation must take a 3 before it") in result.output


def test_analyse_marks_each_choice():
    result = run("analyse", "sir-tommy", "-", input=BURIED)
    assert result.exit_code == 0 and result.output.splitlines()[:2] == [
        "verdict: unwinnable", f"{'U ends turn':40} loses  (The stock is empty and no row top fits a foundation of either "
        "player.)"]
    winnable = run("analyse", "sir-tommy", "--seed", "3", "--time-limit", "20", "--json")
    moves = json.loads(winnable.output)["moves"]
    deal = st.deal(3)
    # one answer per position reached: the 121 moves of the deal put its three cards on the
    # empty rows in 13 ways that differ by more than which rows, plus the play of AH
    assert len(deal.legal_moves()) == 121
    assert len(moves) == len({st.canonical(deal.apply(m)) for m in deal.legal_moves()}) == 14
    assert any(m["verdict"] == "keeps winnable" for m in moves)
    assert all(placed["row"] == 1 for placed in moves[1]["move"]["placed"])  # the lowest rows shown


def test_bad_input_is_one_line_and_exit_2():
    result = run("solve", "sir-tommy", "-", input="AS 2S ZZ")
    assert result.exit_code == 2 and "'ZZ' is not a card" in result.output
    result = run("solve", "sir-tommy", "-", input=" ".join(card_name(c) for c in range(51)))
    assert result.exit_code == 2 and "missing: KC" in result.output
    assert run("solve", "twaalven", "--seed", "1", "--rows", "4").exit_code == 2
