"""The Game from the command line: deal, solve (text and JSON replayed by the rules), explain,
analyse, variant options and bad input."""

import json

from click.testing import CliRunner

from cli.commands import main
from puzzles import the_game as rules
from puzzles.the_game import PILES, EndTurn, Play

LOST = "hand 1: 40 60\ndraw: -\npiles: 90 91 20 21\nto-move: 1\nplayed: 0\n"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def replay_json(deal, payload):
    """Replays the JSON turns with the reference rules, using only what the JSON says."""
    position = deal.start(payload["starter"])
    for turn in payload["solution"]:
        assert turn["player"] == position.to_move
        for play in turn["plays"]:
            position = position.apply(Play(play["card"], PILES.index(play["pile"])))
        if not position.is_over():
            assert tuple(turn["drew"]) == position.drawn()
            position = position.apply(EndTurn())
    return position


def test_deal_prints_hands_and_draw_pile():
    result = run("deal", "the-game", "--seed", "7", "--players", "2")
    assert result.exit_code == 0
    assert "hand 1: 65 95 22 72 74 89 47\nhand 2: 99 58 91 25 75 40 77\ndraw: 16 17 90" in result.output


def test_solve_json_replays_to_a_win_with_the_rules():
    result = run("solve", "the-game", "--seed", "7", "--players", "2", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert (payload["verdict"], payload["cards_left"], payload["lower_bound"], payload["optimal"]) == ("winnable", 0, 0, True)
    assert replay_json(rules.deal(7, players=2), payload).is_won()


def test_solve_expert_smaller_hand_json_follows_the_variant():
    result = run("solve", "the-game", "--seed", "3", "--expert", "--smaller-hand", "--json")
    payload = json.loads(result.output)
    deal = rules.deal(3, expert=True, smaller_hand=True)
    end = replay_json(deal, payload)
    assert end.cards_left == payload["cards_left"] and end.is_over()
    assert all(len(t["plays"]) >= 3 for t in payload["solution"][:5])


def test_solve_text_marks_backwards_tricks_and_draws():
    result = run("solve", "the-game", "--seed", "7", "--players", "2")
    assert "fewest cards left: 0 (optimal)" in result.output
    assert "  1. player 1: 95 down1, 89 down2; drew 16 17" in result.output
    assert "  2. player 2: 91 down1, 77 down1, 99 down2 (backwards); drew 90 62 46" in result.output


def test_a_proven_loss_from_a_file_and_its_explanation(tmp_path):
    path = tmp_path / "lost.txt"
    path.write_text(LOST)
    solved = run("solve", "the-game", str(path), "--json")
    assert json.loads(solved.output)["verdict"] == "unwinnable"
    explained = run("explain", "the-game", str(path))
    assert explained.exit_code == 0
    assert "- 40 can never be played: the ascending piles (at 90 and 91)" in explained.output
    assert ("no line leaves fewer than 2 cards: 40, 60 can never be played (above), so the best line found "
            "leaves the fewest") in explained.output


def test_a_start_already_over_is_explained_and_valued_by_the_rules(tmp_path):
    """2 is the one card that fits where two must be played; the others are not dead (12 can
    follow 2 backwards). explain said "the exhaustive search proved it" where nothing was
    searched, and solve --json gave beam_cards_left 0, as if the beam search had won."""
    path = tmp_path / "over.txt"
    path.write_text("cards: 2-29\nhand-size: 4\nhand 1: 2 5 16 17\ndraw: 6 7 8 9 10 11 12 15 20 21 22 23 24 25 26 27\n"
                    "piles: 28 29 3 4\nto-move: 1\nplayed: 0\n")
    explained = run("explain", "the-game", str(path))
    assert explained.output.splitlines()[-1] == "- no line leaves fewer than 20 cards: the game is already over here"
    solved = json.loads(run("solve", "the-game", str(path), "--json").output)
    assert solved["stats"]["method"] == "rules"
    assert solved["by_starter"] == [{"player": 1, "cards_left": 20, "lower_bound": 20, "beam_cards_left": 20,
                                     "searched": True}]


def test_explain_names_the_hand_that_clogs_before_the_draw_pile_ends(tmp_path):
    """42-48 fit nowhere; five are in hand and two among the next three draws: the clog bound
    (24 cards) is the whole proof, and explain spells it out."""
    path = tmp_path / "clog.txt"
    path.write_text("hand 1: 42 43 44 45 46 70 30 71\n"
                    "draw: 72 47 48 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89\n"
                    "piles: 60 61 40 41\nto-move: 1\nplayed: 0\n")
    explained = run("explain", "the-game", str(path))
    assert explained.exit_code == 0
    assert explained.output.splitlines()[-1] == (
        "- no line leaves fewer than 24 cards: 42, 43, 44, 45, 46, 47 and 48 can never be played (above), and "
        "they fill 7 places of the hand of 8 once 3 more cards are drawn; from then on no turn can play 2 while "
        "cards remain to draw, and each turn before draws at most the cards it plays, so the game ends with a "
        "full hand and at least 16 cards still to draw, so the best line found leaves the fewest")


def test_analyse_gives_the_best_result_after_each_play():
    position = rules.deal(3, top=11, hand_size=2).start(1)
    result = run("analyse", "the-game", "-", "--json", input=rules.format_position(position))
    payload = json.loads(result.output)
    distinct = {rules.canonical(position.apply(move)) for move in position.legal_moves()}
    assert len(payload["moves"]) == len(distinct) == 4, "one answer for plays that reach the same position"
    for item in payload["moves"]:
        after = position.apply(rules.parse_move(item["notation"]))
        assert item["cards_left"] == rules.fewest_cards_left(after)[0] and item["optimal"]


def test_bad_input_and_foreign_options_exit_2():
    duplicate = run("solve", "the-game", "-", input="hand 1: 5 6\ndraw: 5\n")
    assert duplicate.exit_code == 2 and "line 2: duplicate card 5" in duplicate.output
    assert run("deal", "the-game", "--seed", "1", "--rows", "3").exit_code == 2
