"""Whatever a user types, winnable answers (exit 0) or refuses it in one `Error:` line (exit 2):
never a traceback or a panic (exit 1), and never a hang. Hypothesis mutates valid deals and
positions of every registered game (cards deleted, duplicated, swapped or renamed, lines cut,
random bytes, CRLF, a byte-order mark) and option values; a new game gets this from the registry."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.commands import main
from puzzles import etalage, one_foundation, sir_tommy, stapelen, the_game, twaalven
from puzzles.errors import ParseError
from solver.registry import GAMES
from tests.conftest import random_walk

NAMES = list(GAMES)
#: Each run's budget: the fuzzing is about input, not about search.
LIMITS = ["--time-limit", "1", "--node-limit", "20000"]


def samples(name: str) -> list[bytes]:
    """Texts a user could start from: deals of each test variant and positions reached by
    random play from them."""
    entry = GAMES[name]
    rng = random.Random(name)
    texts = []
    for variant in entry.test_variants:
        for seed in (1, 2):
            deal = entry.rules.deal(seed, **variant)
            texts.append(entry.rules.format_position(deal))
            start = entry.engine.starts(deal)[0]
            texts.append(entry.rules.format_position(random_walk(start, rng.randrange(1, 30), rng)))
    return [text.encode("utf-8") for text in texts]


SAMPLES = {name: samples(name) for name in NAMES}
JUNK = [b"", b"-", b"#", b":", b"10", b"0", b"99", b"100", b"-1", b"XX", b"\xff\xfe", b"\x00", b"7\xe2\x99",
        b"K\xe2\x99\xa5", b"1e999", b"hand 9:", b"to-move:", b"piles:", b"draw:", b"foundation:", b"rows",
        "é".encode(), b"\t", b"\r", b"A", b"QS", b"45!stop", "²".encode(), "①".encode(), b"9" * 5000]


@st.composite
def mutated(draw, name: str) -> bytes:
    """A sample text of the game with a few edits at the level of tokens and bytes."""
    text = draw(st.sampled_from(SAMPLES[name]))
    tokens = text.split(b" ")
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "replace", "cut", "bytes", "line"]))
        i = draw(st.integers(0, len(tokens) - 1))
        if kind == "delete" and len(tokens) > 1:
            del tokens[i]
        elif kind == "duplicate":
            tokens.insert(draw(st.integers(0, len(tokens))), tokens[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == "replace":
            tokens[i] = draw(st.sampled_from(JUNK))
        elif kind == "cut":
            tokens = tokens[:i + 1]
            tokens[-1] = tokens[-1][:draw(st.integers(0, len(tokens[-1])))]
        elif kind == "bytes":
            tokens[i] += draw(st.binary(min_size=1, max_size=3))
        else:
            lines = b" ".join(tokens).split(b"\n")
            del lines[draw(st.integers(0, len(lines) - 1))]
            tokens = b"\n".join(lines).split(b" ")
    result = b" ".join(tokens)
    if draw(st.booleans()):
        result = result.replace(b"\n", b"\r\n")
    if draw(st.booleans()):
        result = b"\xef\xbb\xbf" + result
    return result


def answered(result) -> None:
    """Exit 0, or exit 2 with one `Error:` line; never an internal error."""
    assert result.exit_code in (0, 2), (result.exit_code, result.output, result.exception)
    if result.exit_code == 2:
        errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
        assert len(errors) == 1, result.output
        assert "\\udc" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_mutated_input_is_answered_or_refused_in_one_line(name, data):
    text = data.draw(mutated(name))
    command = data.draw(st.sampled_from(["solve", "deal", "explain", "analyse"]))
    variant = data.draw(st.sampled_from(GAMES[name].test_variants))
    flags = [word for key, value in variant.items()
             for word in ["--" + key.replace("_", "-")] + ([] if value is True else [str(value)])]
    budget = [] if command == "deal" else LIMITS
    answered(CliRunner().invoke(main, [command, name, "-", *flags, *budget], input=text))


#: More digits than int() converts (4300).
LONG = "9" * 5000
THE_GAME = "hand 1: 7 94 52 4 19 40 49 35\ndraw: 8 69\n"
QUICK_AND_EASY = (Path(__file__).parent / "golden" / "quick-and-easy-late.txt").read_text()
ETALAGE = etalage.format_position(etalage.deal(3))


@pytest.mark.parametrize("name, text, error", [
    ("the-game", "hand 1: 7 94 ²\ndraw: -\n", "line 1: '²' in hand 1 is not a number"),
    ("the-game", THE_GAME + "piles: 1 1 100 ¹\nto-move: 1\n", "line 3: '¹' in piles is not a number"),
    ("the-game", THE_GAME + "piles: 1 1 100 100\nto-move: ²\n", "line 4: '²' in to-move is not a number"),
    ("the-game", THE_GAME + "piles: 1 1 100 100\nto-move: 1\nplayed: ²\n", "line 5: '²' in played is not a number"),
    ("the-game", THE_GAME + "hand-size: ⑧\n", "line 3: '⑧' in hand-size is not a number"),
    ("the-game", f"hand 1: 7 {LONG}\ndraw: -\n", "line 1: '999999999...' in hand 1 has 5000 digits"),
    ("the-game", f"hand {LONG}: 7\ndraw: -\n", f"line 1: unknown line 'hand {LONG[:35]}…'"),
    ("the-game", THE_GAME + f"cards: 2-{LONG}\n", f"line 3: cards '2-{LONG[:38]}…' must be a range 2-N"),
    ("the-game-extreme", "hand 1: 5!stop ①\ndraw: -\n", "line 1: '①' in hand 1 is not a number"),
    ("the-game-extreme", f"hand 1: 5 {LONG}!stop\ndraw: -\n", "line 1: '999999999...' in hand 1 has 5000 digits"),
    ("quick-and-easy", QUICK_AND_EASY.replace("to-move: 2", "to-move: ²"), "line 6: '²' in to-move is not a number"),
    ("quick-and-easy", QUICK_AND_EASY.replace("played: 1", "played: ²"), "line 7: '²' in played is not a number"),
    ("quick-and-easy", QUICK_AND_EASY.replace("played: 1", f"played: {LONG}"),
     "line 7: '999999999...' in played has 5000 digits"),
    ("etalage", ETALAGE.replace("leader: 1", "leader: ²"), "line 6: '²' in leader is not a number"),
    ("etalage", ETALAGE.replace("scores: 0 0 0", "scores: -1 0 1"), "line 5: '-1' in scores is below 0"),
    ("etalage", ETALAGE.replace("scores: 0 0 0", "scores: ¹ 0 0"), "line 5: '¹' in scores is not a number"),
    ("etalage", ETALAGE.replace("leader: 1", f"values: 1-{LONG}"), f"line 6: values '1-{LONG[:38]}…' must be a range"),
])
def test_numbers_int_refuses_are_refused_in_one_line(name, text, error):
    """Digits of other scripts pass str.isdigit() but not int(), nor does a number of 5000 digits;
    a long token is quoted by its first 40 characters."""
    result = CliRunner().invoke(main, ["deal", name, "-"], input=text)
    answered(result)
    assert result.exit_code == 2 and f"Error: standard input: {error}" in result.output


@pytest.mark.parametrize("parse, text", [
    (the_game.parse_move, f"{LONG} on up1"), (the_game.parse_move, "٣ on up1"),
    (twaalven.Move.parse, f"T: 9H (col {LONG}) + 3C (col 11)"), (stapelen.Move.parse, "A: 5D (col ٣) -> A1 (empty)"),
    (one_foundation.Move.parse, f"7H (col {LONG})"), (sir_tommy.parse_move, f"U places QH on row {LONG}"),
    (sir_tommy.parse_move, "U places QH on row ٣"), (sir_tommy.parse_move, f"8C from row {LONG} -> U foundation 3 on 7S"),
])
def test_move_notation_with_a_number_int_refuses_is_not_a_move(parse, text):
    with pytest.raises(ParseError, match="is not a"):
        parse(text)


OPTION_VALUES = ["0", "-1", "1", "2", "3", "6", "9", "nan", "inf", "-inf", "1e300", "1e19", "abc", "",
                 "18446744073709551616", "1180591620717411303424", "0.5", "U", "D", "X"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(NAMES),
    command=st.sampled_from(["solve", "explain", "analyse", "deal", "generate", "survey"]),
    option=st.sampled_from(["--time-limit", "--node-limit", "--players", "--rows", "--maximise", "--jobs",
                            "--seed", "--count", "--seeds"]),
    value=st.sampled_from(OPTION_VALUES),
)
def test_absurd_option_values_are_answered_or_refused_in_one_line(tmp_path_factory, name, command, option, value):
    where = tmp_path_factory.mktemp("out")
    args = [command, name]
    if command == "generate":
        args += ["--out", str(where / "deals"), "--count", "1", "--seeds", "1-1", "--jobs", "1"]
    elif command == "survey":
        args += ["--db", str(where / "s.sqlite"), "--seeds", "1-1", "--jobs", "1"]
    elif option != "--seed":
        args += ["--seed", "1"]
    if command != "deal":
        # Both budgets, but for the one under test: 'inf' seconds is no time limit, so without a
        # node limit a full Etalage deal would search for hours.
        if option != "--time-limit":
            args += ["--time-limit", "2"]
        if option != "--node-limit":
            args += ["--node-limit", "20000"]
    answered(CliRunner().invoke(main, [*args, option, value]))
