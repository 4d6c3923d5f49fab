"""Generated deals: files whose solution replays with the reference rules, whose difficulty is
the one asked for (recomputed here independently), unwinnable ones with their explanation."""

import json
import math
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cli.batch import generate
from cli.commands import main
from puzzles import twaalven as rules
from solver.batch import generate as generating
from solver.batch.files import replacing
from solver.registry import game
from solver.result import UNKNOWN, WINNABLE, Budget, Explanation
from tests.conftest import memory_limit, read_only

TWAALVEN = game("twaalven")


def run(*args):
    return CliRunner().invoke(generate, ["twaalven", *args])


def read_deal_file(path):
    """(deal, seed, comment lines, starter, solution) from a generated file, read as a user would."""
    text = open(path, encoding="utf-8").read()
    comments = [line[2:] for line in text.splitlines() if line.startswith("# ")]
    seed = int(comments[0].split("seed ")[1].split(":")[0])
    moves = [rules.Move.parse(line.split(". ", 1)[1]) for line in comments if line.startswith("  ") and ". " in line]
    starter = moves[0].player if moves else None
    return rules.parse(text), seed, comments, starter, moves


def bits_by_solving_each_move(deal, starter, moves) -> float:
    """The difficulty measure recomputed with `solve` on every position after every legal move,
    instead of `analyse` as the generator uses."""
    bits, position = 0.0, deal.start(starter)
    for move in moves:
        legal = position.legal_moves()
        keeps = sum(TWAALVEN.engine.solve(position.apply(m), Budget()).verdict == WINNABLE for m in legal)
        bits += math.log2(len(legal) / keeps)
        position = position.apply(move)
    return bits


def test_hard_deals_replay_and_are_hard_by_an_independent_measurement(tmp_path):
    result = run("--count", "4", "--difficulty", "hard", "--out", str(tmp_path), "--jobs", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["found"] == data["requested"] == 4
    assert sorted(os.listdir(tmp_path)) == sorted(os.path.basename(f["path"]) for f in data["files"])
    for listed in data["files"]:
        deal, seed, comments, starter, moves = read_deal_file(listed["path"])
        assert deal == rules.deal(seed) and seed == listed["seed"]
        assert len(moves) == 26 and rules.replay(deal.start(starter), moves).is_won()
        bits = bits_by_solving_each_move(deal, starter, moves)
        assert bits >= 10 and listed["difficulty"]["band"] == "hard"
        assert listed["difficulty"]["bits"] == pytest.approx(bits, abs=1e-3)
        assert f"difficulty: hard ({bits:.1f} bits)" in comments[1]


def test_easy_deals_are_easy_and_the_first_ones_of_the_range(tmp_path):
    data = json.loads(run("--count", "3", "--difficulty", "easy", "--out", str(tmp_path), "--json").stdout)
    seeds = [f["seed"] for f in data["files"]]
    for listed in data["files"]:
        deal, seed, _, starter, moves = read_deal_file(listed["path"])
        assert bits_by_solving_each_move(deal, starter, moves) < 6
    # every seed before the last one chosen that is not chosen is winnable but not easy
    skipped = [s for s in range(1, seeds[-1]) if s not in seeds]
    for seed in skipped:
        deal = rules.deal(seed)
        result = TWAALVEN.engine.solve(deal, Budget())
        difficulty = generating.measure(TWAALVEN, deal, result, Budget())
        assert difficulty is None or difficulty.band != "easy"


def test_difficulty_counts_agree_with_the_per_move_verdicts():
    deal = rules.deal(7)
    result = TWAALVEN.engine.solve(deal, Budget())
    difficulty = generating.measure(TWAALVEN, deal, result, Budget())
    position, losing, legal, critical = deal.start(result.starter), 0, 0, 0
    for move in result.solution:
        verdicts = [v.verdict for v in TWAALVEN.engine.analyse(position, Budget()).moves]
        legal += len(verdicts)
        losing += verdicts.count("loses")
        critical += verdicts.count("keeps winnable") == 1 and "loses" in verdicts
        position = position.apply(move)
    assert (difficulty.legal_moves, difficulty.losing_moves, difficulty.critical_moves) == (legal, losing, critical)
    assert difficulty.decisions == 26 and difficulty.nodes == result.stats.nodes
    assert difficulty.loss_share == losing / legal


def test_bands_split_at_6_and_10_bits():
    assert [generating.band(b) for b in (0, 5.99, 6, 9.99, 10, 30)] == ["easy", "easy", "medium", "medium", "hard", "hard"]


def test_a_file_is_read_back_by_the_solve_command(tmp_path):
    run("--count", "1", "--out", str(tmp_path), "--seeds", "7-7")
    solved = CliRunner().invoke(main, ["solve", "twaalven", str(tmp_path / "twaalven-7.txt"), "--json"])
    assert json.loads(solved.stdout)["verdict"] == "winnable"


def test_unwinnable_deals_carry_their_explanation(tmp_path):
    # 8714 is the first seed above 8700 that neither starter can win
    result = run("--unwinnable", "--count", "1", "--seeds", "8700-8800", "--out", str(tmp_path), "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    listed = json.loads(result.stdout)["files"]
    assert [f["seed"] for f in listed] == [8714] and listed[0]["verdict"] == "unwinnable"
    deal, seed, comments, _, moves = read_deal_file(listed[0]["path"])
    assert deal == rules.deal(8714) and moves == []
    assert comments[0].startswith("Twaalven en veertienen, seed 8714: unwinnable (proven by")
    why = [line[len("why: "):] for line in comments if line.startswith("why: ")]
    assert why and why == listed[0]["reasons"]
    assert why == list(TWAALVEN.engine.explain(deal, Budget()).reasons)


def test_when_the_range_runs_out_it_says_so_and_exits_0(tmp_path):
    result = run("--unwinnable", "--count", "2", "--seeds", "1-30", "--out", str(tmp_path), "--jobs", "1")
    assert result.exit_code == 0
    assert "0 unwinnable deal(s) of 2 requested; seeds 1-30 examined" in result.stdout
    assert "the search budget (--seeds 1-30) ran out first" in result.stdout
    assert os.listdir(tmp_path) == []


def test_a_range_of_more_seeds_than_memory_holds_is_read_as_it_is_needed(tmp_path):
    code = "import sys, cli.commands; from cli.batch import generate; generate(sys.argv[1:])"
    done = subprocess.run(
        [sys.executable, "-c", code, "twaalven", "--count", "2", "--seeds", f"1-{10**12}", "--out", str(tmp_path),
         "--jobs", "2"],
        capture_output=True, text=True, timeout=120, preexec_fn=memory_limit(3 * 2**30),  # a list would need TBs
    )
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(tmp_path)) == ["twaalven-1.txt", "twaalven-2.txt"]


def test_variants_written_to_one_directory_keep_their_own_files(tmp_path):
    """A variant's files are named by it, so that generating another variant into the same
    directory does not replace them (both used to be etalage-1.txt)."""
    for variant in (["--values", "4"], ["--values", "5", "--guarantees-only"]):
        result = CliRunner().invoke(main, ["generate", "etalage", *variant, "--count", "1", "--seeds", "1-1",
                                           "--out", str(tmp_path), "--jobs", "1", "--pictures"])
        assert result.exit_code == 0, result.output
    assert sorted(os.listdir(tmp_path)) == [
        "etalage-values=4-1.svg", "etalage-values=4-1.txt",
        "etalage-values=5-guarantees-only-1.svg", "etalage-values=5-guarantees-only-1.txt",
    ]
    assert "# variant: values=4 (solve this file with --values 4)" in (tmp_path / "etalage-values=4-1.txt").read_text()


def test_the_last_seeds_a_deal_takes_are_generated(tmp_path):
    """generate stores no seed, so it takes every seed `deal` does, up to 2^64 - 1 (a survey
    stops at 2^63 - 1)."""
    last = 2**64 - 1
    result = run("--count", "1", "--seeds", f"{last - 20}-{last}", "--out", str(tmp_path), "--jobs", "1")
    assert result.exit_code == 0, result.output
    (name,) = os.listdir(tmp_path)
    seed = int(name.removeprefix("twaalven-").removesuffix(".txt"))
    with open(tmp_path / name, encoding="utf-8") as handle:
        assert rules.parse(handle.read()) == rules.deal(seed) and last - 20 <= seed <= last


@pytest.mark.parametrize(
    "args, message",
    [
        (["--unwinnable", "--difficulty", "hard"], "cannot be combined with --unwinnable"),
        (["--seeds", "9-3"], "seed range '9-3' is empty"),
        (["--seeds", f"1-{2**64}"], "seeds must be between 0 and 18446744073709551615"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, args, message):
    result = run(*args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_out_must_be_a_directory(tmp_path):
    (tmp_path / "file").write_text("x")
    result = run("--out", str(tmp_path / "file"))
    assert result.exit_code == 2 and "not a directory" in result.output


def test_a_deal_file_that_cannot_be_written_is_one_error_line(tmp_path):
    (tmp_path / "twaalven-1.txt").mkdir()
    result = run("--count", "1", "--seeds", "1", "--out", str(tmp_path), "--jobs", "1")
    directory = tmp_path / "twaalven-1.txt"
    assert (result.exit_code, result.output) == (2, f"Error: {directory} is a directory; give a file name\n")
    locked = tmp_path / "locked"
    locked.mkdir()
    with read_only(locked):
        result = run("--count", "1", "--seeds", "1", "--out", str(locked), "--jobs", "1", "--pictures")
    assert result.exit_code == 2 and result.output.startswith(f"Error: cannot write {locked / 'twaalven-1.txt'}: ")
    assert len(result.output.splitlines()) == 1 and os.listdir(locked) == []


def test_same_request_same_files(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    run("--count", "3", "--difficulty", "medium", "--out", str(first), "--jobs", "2")
    run("--count", "3", "--difficulty", "medium", "--out", str(second), "--jobs", "1")
    names = sorted(os.listdir(first))
    assert len(names) == 3 and names == sorted(os.listdir(second))
    assert all((first / n).read_text() == (second / n).read_text() for n in names)


def test_replacing_keeps_the_old_file_when_writing_fails(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text("old\n")
    with pytest.raises(RuntimeError):
        with replacing(str(path)) as handle:
            handle.write("half of the new")
            raise RuntimeError("disk full")
    assert path.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["deal.txt"]
    with replacing(str(path)) as handle:
        handle.write("new\n")
    assert path.read_text() == "new\n" and os.listdir(tmp_path) == ["deal.txt"]


def test_a_deal_file_names_starters_that_are_numbers():
    """The Game's players are numbers: the file still says who wins and replays the line."""
    the_game = game("the-game")
    deal = the_game.rules.deal(7, players=2)
    result = the_game.engine.solve(deal, Budget(10))
    difficulty = generating.Difficulty(0.0, len(result.solution), 10, 0, 0, result.stats.nodes)
    text = generating.deal_text(the_game, "players=2", 7, deal, result, difficulty, None)
    assert text.splitlines()[0] == f"# The Game, seed 7: winnable (winning starter(s): {result.starter})"
    assert f"# solution (player {result.starter} starts), replayed by the rules:" in text.splitlines()
    assert the_game.rules.parse(text) == deal
    # the line turn by turn, as solve prints it: who plays, and what they draw
    assert f"#   1. {result.turns[0]}" in text.splitlines() and str(result.turns[0]).startswith("player ")


def test_bits_are_never_shown_rounded_up_into_the_next_band(tmp_path):
    # seed 15 measures 5.951 bits: easy, so its lines must not say "easy (6.0 bits)"
    assert [generating.shown_bits(b) for b in (5.951, 9.96, 10.04, 7.26)] == [5.9, 9.9, 10.0, 7.3]
    assert generating.shown_bits(5.99951, 3) == 5.999
    result = run("--count", "1", "--seeds", "15-15", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "twaalven-15.txt  easy (5.9 bits)" in result.stdout
    assert "difficulty: easy (5.9 bits)" in (tmp_path / "twaalven-15.txt").read_text(encoding="utf-8")


def test_json_has_exactly_the_keys_its_help_lists(tmp_path):
    data = json.loads(run("--count", "1", "--seeds", "1-2", "--out", str(tmp_path), "--jobs", "1", "--json").stdout)
    listed = run("--help").output.split("--json prints {", 1)[1].split("\n\n", 1)[0]
    shown = {key for key in data if f'"{key}"' in listed}
    assert shown == set(data) == {"game", "variant", "requested", "found", "seeds_examined", "seeds_undecided", "seeds",
                                "files"}


def test_an_unwinnable_deal_is_explained_with_a_budget_of_its_own(monkeypatch):
    """A deal proven unwinnable with the whole budget (Sir Tommy with one row and 2 s, by
    CP-SAT) was explained with what its solve left: nothing, so its file said "Not decided
    within the budget" of a deal it called unwinnable."""
    solve_seed = generating.solve_seed

    def solve_spending_the_budget(entry, variant, seed, budget):
        solved = solve_seed(entry, variant, seed, budget)
        budget.nodes_used = budget.node_limit
        return solved

    monkeypatch.setattr(generating, "solve_seed", solve_spending_the_budget)
    _, _, found = generating.examine_chunk(("black-hole", "", [12], "unwinnable", None, 100_000, None))
    assert [deal.seed for deal in found] == [12]
    assert found[0].reasons == ["No short reason found; the exhaustive search refuted every line of play."]
    # an explanation that its own budget leaves open says so, still as a list (it was null)
    monkeypatch.setattr(game("black-hole").engine, "explain", lambda position, budget: Explanation(UNKNOWN, [], "none"))
    _, _, found = generating.examine_chunk(("black-hole", "", [12], "unwinnable", None, 100_000, None))
    assert found[0].reasons == [generating.UNEXPLAINED] and f"# why: {generating.UNEXPLAINED}\n" in found[0].text


def test_a_deal_is_rated_under_a_time_limit_far_above_its_work(tmp_path):
    """All in a Row seed 1 is rated in some 0.2 s of searching. With 2 s, its line's first
    position got 1/52 of the time and each of its 13 moves a thirteenth of that, too little for
    one of them, and the deal was written 'not rated' with nearly all the time unused (up to
    --time-limit 14). Open moves now share what is left, and a position with a move still open
    gets the rest of the budget. (6 s here: the 0.2 s of work may run slowly beside other work.)"""
    out = tmp_path / "deals"
    result = CliRunner().invoke(generate, ["all-in-a-row", "--count", "1", "--out", str(out), "--seeds", "1",
                                           "--jobs", "1", "--time-limit", "6"])
    assert result.exit_code == 0, result.output
    difficulty = (out / "all-in-a-row-1.txt").read_text().splitlines()[1]
    # rated (its line, and so its rating, depends on what the process's table holds already)
    assert difficulty.startswith("# difficulty: ") and "legal moves along the line lose" in difficulty, difficulty


def test_seeds_the_budget_left_undecided_are_counted_and_the_advice_says_so(tmp_path):
    """Two full Etalage deals under 1000 nodes stay undecided: the command said only that the
    seeds ran out, pointing the user to more seeds rather than a bigger budget."""
    args = ["etalage", "--count", "1", "--seeds", "1-2", "--out", str(tmp_path), "--jobs", "1", "--node-limit", "1000"]
    data = json.loads(CliRunner().invoke(generate, [*args, "--json"]).stdout)
    assert (data["found"], data["seeds_examined"], data["seeds_undecided"]) == (0, 2, 2)
    text = CliRunner().invoke(generate, args).output
    assert "2 of the seeds examined stayed undecided within --time-limit and --node-limit" in text
