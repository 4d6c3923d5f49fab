"""Etalage from the command line: the issue's commands, bad input in one line, and analyse along
a game record checked against the reference search."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from cli.commands import main
from puzzles import etalage as e
from solver.games.etalage.picture import picture


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def record(seed: int, values: int, rng: random.Random) -> tuple[e.Position, list]:
    deal = e.deal(seed, players=3, values=values)
    moves, pos = [], deal
    while pos.legal_moves():
        moves.append(rng.choice(pos.legal_moves()))
        pos = pos.apply(moves[-1])
    return deal, moves


def test_deal_and_solve_with_players_and_json():
    dealt = run("deal", "etalage", "--seed", "7", "--players", "4")
    assert dealt.exit_code == 0 and dealt.output.count("hand ") == 4
    solved = json.loads(run("solve", "etalage", "--seed", "7", "--values", "5", "--json").output)
    assert solved["result"] == "exact" and [p["player"] for p in solved["players"]] == [1, 2, 3]
    for player in solved["players"]:
        assert player["guaranteed"] == player["guaranteed_bound"] <= player["cooperative_best"]
        assert player["line"] and set(player["line"][0]) == {"player", "card"}
    picks = [event for event in solved["players"][0]["line"] if "pick" in event]
    assert picks and set(picks[0]) == {"player", "pick", "cards"}


def test_guarantees_only_searches_no_cooperative_best():
    both = json.loads(run("solve", "etalage", "--seed", "7", "--values", "5", "--json").output)
    alone = json.loads(run("solve", "etalage", "--seed", "7", "--values", "5", "--json", "--guarantees-only").output)
    assert alone["result"] == "exact" and alone["verdict"] == "winnable"
    assert [(p["guaranteed"], p["guaranteed_bound"], p["cooperative_best"], p["cooperative_bound"])
            for p in alone["players"]] == [(p["guaranteed"], p["guaranteed"], None, None) for p in both["players"]]
    assert alone["solution"] == both["solution"] and alone["stats"]["nodes"] < both["stats"]["nodes"]
    text = run("solve", "etalage", "--seed", "7", "--values", "5", "--guarantees-only").output
    assert "player 1: guaranteed 7 (exact; score so far 0)" in text and "cooperative" not in text
    other = run("solve", "twaalven", "--seed", "7", "--guarantees-only")
    assert other.exit_code == 2 and "--guarantees-only does not apply to twaalven" in other.output


def test_bad_input_is_one_error_line_with_exit_2():
    deal = e.format_position(e.deal(1, players=3))
    lines = deal.splitlines()
    wrong_colour = deal.replace(lines[1].split()[2], "7O", 1)
    ten_cards = "\n".join([lines[0], lines[1] + " " + lines[2].split()[-1], " ".join(lines[2].split()[:-1]),
                           *lines[3:]])
    start, moves = record(2, 4, random.Random(1))
    trick = [str(m) for m in moves[:3]]
    bad_pick = e.format_position(start) + "moves: " + " ".join(trick) + " pick P\n"
    for text, message in ((wrong_colour, "not in play"), (ten_cards, "holds 10 cards"),
                          (bad_pick, "'pick P' is not legal")):
        result = run("analyse", "etalage", "-", input=text)
        errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
        assert result.exit_code == 2 and len(errors) == 1 and message in errors[0], result.output


def test_generate_refuses_unwinnable_deals_which_etalage_never_has(tmp_path):
    # it once solved every seed of the range (by default 1-100000) to write nothing
    result = run("generate", "etalage", "--unwinnable", "--values", "4", "--seeds", "1-3", "--jobs", "1",
                 "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and result.output == (
        "Error: --unwinnable: Etalage has no unwinnable deals (its verdict says whether the values are proven)\n")
    assert not (tmp_path / "out").exists()


def test_analyse_along_a_record_finds_where_each_player_gave_points_away():
    start, moves = record(5, 4, random.Random(7))
    text = e.format_position(start) + "moves: " + " ".join(map(str, moves)) + "\n"
    result = json.loads(run("analyse", "etalage", "-", "--json", input=text).output)
    assert result["verdict"] == "winnable" and len(result["moves"]) == len(moves)
    pos = start
    for move, found in zip(moves, result["moves"]):
        mover, after = pos.to_move, pos.apply(move)
        assert found["move"]["player"] == mover and found["notation"].endswith(str(move).replace("pick ", ""))
        if len(pos.legal_moves()) > 1:
            before, kept = e.values(pos, mover)[0], e.values(after, mover)[0]
            assert found["guaranteed"] == kept
            assert found["verdict"] == ("loses" if kept < before else "keeps winnable")
        else:  # forced: not searched, and the best there is
            assert (found["reason"], found["guaranteed"], found["optimal"], found["best"]) == ("forced", None, False, True)
        pos = after


def test_help_shows_the_game_record_line():
    # the file formats in --help once left out the `moves:` line of a game record
    assert "A game record adds 'moves: 7G 2G 9Y pick R ...'" in run("analyse", "--help").output


def test_an_empty_record_is_the_position_itself():
    # A `moves:` line with no moves yet once made an empty record: analyse then said "no legal
    # moves" for a deal with several.
    start = e.deal(5, players=3, values=4)
    text = e.format_position(start) + "moves:\n"
    assert e.parse(text) == start
    result = json.loads(run("analyse", "etalage", "-", "--json", input=text).output)
    assert [found["notation"] for found in result["moves"]] == [f"player 1 plays {move}" for move in start.legal_moves()]
    assert len(result["moves"]) > 1


def test_a_picture_names_who_is_to_play_or_to_pick():
    pos = e.deal(7, players=3, values=5)
    assert "player 1 leads, player 1 to play" in picture(pos).svg()
    while not pos.distributing:
        pos = pos.apply(pos.legal_moves()[0])
    assert f"player 1 led, player {pos.to_move} to pick" in picture(pos).svg()
