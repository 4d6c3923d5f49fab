"""The Python API's examples run as they are written: docs/api.md and the README's "From Python"
section are doctests."""

import doctest
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("page, least", [("docs/api.md", 20), ("README.md", 5)])
def test_the_api_examples_give_the_answers_they_show(page, least):
    failures, tried = doctest.testfile(str(ROOT / page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried >= least and failures == 0



@pytest.mark.parametrize("limits, message", [
    ({"time_limit": 0}, "time_limit 0: give a number of seconds above 0"),
    ({"time_limit": -1.5}, "time_limit -1.5"),
    ({"time_limit": float("nan")}, "time_limit nan"),
    ({"node_limit": -1}, "node_limit -1: give a whole number of nodes"),
    ({"node_limit": 2**64}, "node_limit 18446744073709551616: give a whole number of nodes"),
    ({"table_mib": "64"}, "table_mib '64': give a whole number of MiB"),
    ({"table_mib": 1.5}, "table_mib 1.5: give a whole number of MiB"),
    ({"time_limit": True}, "time_limit True: give a number of seconds"),  # taken as 1 s, as table_mib is not
    ({"node_limit": True}, "node_limit True: give a whole number of nodes"),
])
def test_a_budget_the_command_line_would_refuse_is_bad_input(limits, message):
    """A time limit of 0 or below, or not a number, left every answer unknown without a word:
    the API refuses it as the command line does."""
    from puzzles.errors import WinnableError
    from solver import api

    position = api.deal("twaalven", 7)
    for function in (api.solve, api.explain, api.analyse):
        with pytest.raises(WinnableError, match=message):
            function("twaalven", position, **limits)


@pytest.mark.parametrize("function, game, options, message", [
    ("solve", "the-game", {"expert": True}, "expert=True is an option of the deal: give it to api.deal or api.parse"),
    ("solve", "quick-and-easy", {"pro": True}, "pro=True is an option of the deal"),
    ("deal", "sir-tommy", {"maximise": "U"}, "maximise='U' is an option of the search: give it to api.solve"),
])
def test_an_option_given_to_the_wrong_function_is_refused(function, game, options, message):
    """solve(..., expert=True) solved the position under the rules it carried, dropping the
    option without a word; a deal dropped a search's option the same way."""
    from puzzles.errors import WinnableError
    from solver import api

    with pytest.raises(WinnableError, match=message):
        if function == "solve":
            api.solve(game, api.deal(game, 7), time_limit=1, **options)
        else:
            api.deal(game, 7, **options)


@pytest.mark.parametrize("players", ["2", 2.5, True])
def test_a_count_that_is_not_a_whole_number_is_refused(players):
    """players="2" failed with a TypeError comparing it to 1, players=2.5 with one from range();
    True was read as 1."""
    from puzzles.errors import WinnableError
    from solver import api

    with pytest.raises(WinnableError, match=f"--players {players!r}: the-game takes 1 to 5"):
        api.deal("the-game", 7, players=players)


@pytest.mark.parametrize("game, position, kind", [
    ("the-game", None, "builtins.NoneType"),
    ("quick-and-easy", "hand 1: 4G 7Y", "builtins.str"),
    ("the-game", "the-game-extreme", "puzzles.the_game_extreme.Position"),
])
def test_a_search_refuses_what_is_not_the_games_position(game, position, kind):
    """Text, None or another game's position failed deep in the search (an AttributeError, or
    an Extreme deal's line 'illegal' under The Game's rules)."""
    from puzzles.errors import WinnableError
    from solver import api

    position = api.deal(position, 3) if position in api.games() else position
    for function in (api.solve, api.explain, api.analyse):
        with pytest.raises(WinnableError, match=f"{game} takes a position from api.deal or api.parse, not a {kind}"):
            function(game, position, time_limit=1)


def test_a_search_refuses_a_position_its_game_cannot_reach():
    """All in a Row and Black Hole share a position class: one's deal given to the other raised
    the kernel's plain ValueError, and a position edited out of the rules was searched."""
    from dataclasses import replace

    from puzzles.errors import IllegalPositionError
    from solver import api

    with pytest.raises(IllegalPositionError, match="13 columns; Black Hole has 17"):
        api.solve("black-hole", api.deal("all-in-a-row", 3), time_limit=1)
    deal = api.deal("the-game", 3)
    with pytest.raises(IllegalPositionError):
        api.analyse("the-game", replace(deal, draw=deal.draw[1:]), time_limit=1)  # a card missing
    # the kernel took these with a plain ValueError or an OverflowError
    with pytest.raises(IllegalPositionError, match="1 pile; The Game has 4: up1 up2 down1 down2"):
        api.solve("the-game", replace(deal, piles=(1,)), time_limit=1)
    extreme = api.deal("the-game-extreme", 3)
    start = api.GAMES["the-game-extreme"].engine.starts(extreme)[0]
    turn = start.apply(start.legal_moves()[0])  # a card played: mid-turn
    with pytest.raises(IllegalPositionError, match="turn pile -1: a pile's index 0 to 3, 4 .mixed. or None"):
        api.solve("the-game-extreme", replace(turn, turn_pile=-1), time_limit=1)


@pytest.mark.parametrize("value", ["no", 0, None])
def test_a_flag_that_is_not_true_or_false_is_refused(value):
    """expert="no" was taken as true (a non-empty string), and silently dealt the expert rules."""
    from puzzles.errors import WinnableError
    from solver import api

    with pytest.raises(WinnableError, match=f"--expert {value!r}: a flag is True or False"):
        api.deal("the-game", 7, expert=value)
    assert api.deal("the-game", 7, expert=True).expert


@pytest.mark.parametrize("function, args, error, message", [
    ("deal", (None, 7), "UnknownGameError", "a game is named by a str (see api.games()), not a NoneType"),
    ("deal", (["twaalven"], 7), "UnknownGameError", "a game is named by a str (see api.games()), not a list"),
    ("parse", ("twaalven", b"QH"), "ParseError", "api.parse takes the text of a deal or position (a str), not a bytes"),
    ("parse", ("the-game", None), "ParseError",
     "api.parse takes the text of a deal or position (a str), not a NoneType"),
])
def test_a_game_name_or_text_of_another_type_is_refused(function, args, error, message):
    """A game named by None raised a TypeError quoting it, by a list one hashing it; bytes or
    None given to parse failed in the parser with a TypeError or an AttributeError."""
    import re

    from puzzles import errors
    from solver import api

    with pytest.raises(getattr(errors, error), match=re.escape(message)):
        getattr(api, function)(*args)


@pytest.mark.parametrize("game, field, value, message", [
    ("sir-tommy", "foundations", ((), ()), r"foundations of \[0, 0\] piles; U and D have 4 each"),
    ("quick-and-easy", "piles", (None, None, None), "3 piles; the game has 2: up down"),
    ("stapelen", "foundations", (), "foundations for 0 players; Stapelen has 2"),
    ("the-game-extreme", "marks", ((5,),), r"mark \(5,\): a \(card, instruction\) pair, the instruction one of stop"),
    ("the-game-extreme", "marks", ((5, "bogus"),), r"mark \(5, 'bogus'\): a \(card, instruction\) pair"),
    # a deal's piles and cards played this turn, which its text does not say: the piles (100, 100, 1, 1) were
    # solved as lost, where the deal its text reads back as is won
    ("the-game", "piles", (100, 100, 1, 1), "a deal has its piles at 1 1 100 100 and nothing played"),
    ("the-game-extreme", "played", 3, "a deal has its piles at 1 1 100 100 and nothing played"),
    ("quick-and-easy", "played", 3, "3 cards played this turn, but a deal has nothing played"),
    ("the-game-extreme", "marks", ((100, "no-talk"),), "card 100 is marked no-talk but is not in a hand"),  # a pile
    ("the-game-extreme", "marks", ((13, "skull"), (9, "draw-one")), "not in card order"),  # compared unequal
    ("the-game-extreme", "marks", ((9, "draw-one"), (9, "skull")), "card 9 is marked twice"),
    # card ids outside the deck: an IndexError naming them, an OverflowError or the kernel's plain ValueError
    ("twaalven", "columns", ((52, 1, 2, 3),) + ((),) * 12, "52 is not a card: the deck's cards are the ids 0 to 51"),
    ("stapelen", "columns", ((-1,),) + ((),) * 12, "-1 is not a card"),
    ("black-hole", "foundation", (0, 52), "52 is not a card"),
    ("sir-tommy", "hand", (52,), "52 is not a card"),
    ("etalage", "trick", (100,), "100 is not a card: the deck's cards are the ids 0 to 59"),
    ("twaalven", "to_move", 0, "to-move '0' is not T or F"),  # a TypeError quoting it
    ("sir-tommy", "drawn_before", "no", "drawn_before 'no' is not True or False"),  # shown as drawn before
    # lists shared with the caller: the search changed them (a row came back holding cards)
    ("sir-tommy", "stock", [], "the position's stock holds a list, set or dict; positions hold tuples"),
    ("stapelen", "columns", tuple([] for _ in range(13)), "the position's columns holds a list"),
])
def test_a_position_edited_out_of_shape_is_refused(game, field, value, message):
    """A position edited with dataclasses.replace is checked as parse checks it (docs/api.md):
    these reached the kernel, which raised a plain ValueError or an IndexError."""
    from dataclasses import replace

    from puzzles.errors import IllegalPositionError
    from solver import api

    with pytest.raises(IllegalPositionError, match=message):
        api.solve(game, replace(api.deal(game, 3), **{field: value}), time_limit=1)


def test_a_sir_tommy_end_phase_of_no_player_to_move_is_refused():
    """The end phase (stock and hands empty) has no mover to check against the draws: to_move=''
    reached the kernel, which raised a plain ValueError."""
    import random
    from dataclasses import replace

    from puzzles.errors import IllegalPositionError
    from solver import api

    position, rng = api.GAMES["sir-tommy"].engine.starts(api.deal("sir-tommy", 1, rows=1))[0], random.Random(1)
    while not position.end_phase:
        position = position.apply(rng.choice(position.legal_moves()))
    with pytest.raises(IllegalPositionError, match="to-move '' is not U or D"):
        api.solve("sir-tommy", replace(position, to_move=""), time_limit=1)


def test_text_with_a_byte_order_mark_parses_as_a_file_does():
    """`winnable solve GAME FILE` reads a file that starts with a BOM; api.parse of its text
    said "'\\ufeff7H' is not a card"."""
    from puzzles import twaalven
    from solver import api

    deal = api.deal("twaalven", 7)
    assert api.parse("twaalven", "\ufeff" + twaalven.format_position(deal)) == deal


@pytest.mark.parametrize("function, options, message", [
    ("explain", {"maximise": "U"}, "api.explain takes no option maximise='U': it is an option of api.solve"),
    ("analyse", {"rows": 2}, "api.analyse takes no option rows=2: it is an option of api.deal or api.parse"),
    ("analyse", {"bogus": 1}, "api.analyse takes no option bogus=1; sir-tommy has no such option"),
])
def test_explain_and_analyse_say_where_an_option_belongs(function, options, message):
    """They raised a TypeError ('unexpected keyword argument'), where solve says where it belongs."""
    import re

    from puzzles.errors import WinnableError
    from solver import api

    with pytest.raises(WinnableError, match=re.escape(message)):
        getattr(api, function)("sir-tommy", api.deal("sir-tommy", 1), time_limit=1, **options)


def test_an_explanation_s_json_is_the_command_line_s():
    """Explanation.to_json() had no "game" key, which `winnable explain --json` adds."""
    import json

    from click.testing import CliRunner

    from cli.commands import main
    from solver import api

    given = json.loads(CliRunner().invoke(main, ["explain", "black-hole", "--seed", "17", "--json"]).output)
    assert {**api.explain("black-hole", api.deal("black-hole", 17)).to_json(), "seed": 17} == given
    assert given["game"] == "black-hole"


def test_a_seed_that_is_a_flag_is_refused():
    """api.deal(game, True) dealt seed 1."""
    from puzzles.errors import WinnableError
    from solver import api

    with pytest.raises(WinnableError, match="seed True: give a whole number"):
        api.deal("twaalven", True)
