"""Surveys end to end: every seed stored once with the verdict a direct solve gives, resume after a
real kill -9 and after Ctrl-C, the Wilson interval, bad input, and a Dask cluster."""

import hashlib
import json
import math
import multiprocessing.pool
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing

import pytest
from click.testing import CliRunner

from cli.batch import survey
from cli.commands import main, solve
from solver.batch import survey as surveying
from solver.registry import game
from solver.result import UNKNOWN, UNWINNABLE, WINNABLE, Budget
from solver.batch.survey import Row, Store, seed_range, wilson
from tests.conftest import memory_limit, read_only

TWAALVEN = game("twaalven")
#: Big enough that the survey is still running well after the random number of rows the kill
#: waits for (at most KILL_AFTER_AT_MOST) has been committed.
KILL_DEALS = 6000
KILL_RANGE = f"1-{KILL_DEALS}"
KILL_AFTER_AT_MOST = 2500


def run(*args):
    return CliRunner().invoke(survey, ["twaalven", *args])


def solved_directly(seed: int) -> tuple:
    """What a row must hold for `seed`, from the engine called directly with a fresh kernel, as
    a survey's worker solves it: a kernel solving again the deal it solved last reuses that
    search's table (seed 1 took 69 nodes instead of 2422 after test_cli's tests had solved it)."""
    TWAALVEN.engine.forget_kernel()
    result = TWAALVEN.engine.solve(TWAALVEN.rules.deal(seed), Budget())
    return (result.verdict, ",".join(result.starters), result.stats.nodes, result.stats.method,
            "\n".join(map(str, result.solution)))


def stored(db) -> dict[int, tuple]:
    """seed -> the row without its timing (the only column that differs between runs)."""
    with Store(str(db)) as store:
        rows = store.rows("twaalven", "")
    return {row.seed: row._replace(seconds=None) for row in rows}


def count_rows(db) -> int:
    try:
        with closing(sqlite3.connect(db)) as connection:
            return connection.execute("SELECT count(*) FROM deals").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


def check_consistent(db) -> int:
    """The database passes SQLite's integrity check and holds each seed once; returns the rows."""
    with closing(sqlite3.connect(db)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        total, distinct = connection.execute("SELECT count(*), count(DISTINCT seed) FROM deals").fetchone()
    assert total == distinct
    return total


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A survey of KILL_RANGE run start to end without interruption."""
    db = tmp_path_factory.mktemp("clean") / "clean.sqlite"
    result = run("--seeds", KILL_RANGE, "--db", str(db), "--jobs", "2", "--json")
    assert result.exit_code == 0, result.output
    return stored(db)


def start_survey(db, seeds=KILL_RANGE, memory: int | None = None):
    """`winnable survey` in its own process group, as a terminal would run it (with at most
    `memory` bytes, if given)."""
    code = "import sys, cli.commands; from cli.batch import survey; survey(sys.argv[1:])"
    return subprocess.Popen(
        [sys.executable, "-c", code, "twaalven", "--seeds", seeds, "--db", str(db), "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=memory_limit(memory) if memory else None,
    )


def wait_for_rows(db, process, at_least: int = 1, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while count_rows(db) < at_least:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no rows were committed"
        time.sleep(0.02)


def live_group_members(group: int) -> list[int]:
    """Processes (not zombies) in a process group, from /proc."""
    members = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            members.append(int(pid))
    return members


# ---------------------------------------------------------------------------------------------


def test_seed_ranges_parse_and_bad_ones_say_why():
    assert seed_range("1-100") == range(1, 101)
    assert seed_range("7") == range(7, 8)
    assert seed_range(" 3 - 5 ") == range(3, 6)
    assert seed_range(f"0-{2**63 - 1}")[-1] == 2**63 - 1
    for text, words in [("5-1", "empty"), ("a-b", "not a seed range"), ("1-2**70", "not a seed range"),
                        (f"1-{2**63}", "between 0 and 9223372036854775807 \\(a survey stores them"),
                        ("", "not a seed range"), ("1_000", "not a seed range"), ("1-\u0661\u0662", "not a seed range")]:
        with pytest.raises(ValueError, match=words):
            seed_range(text)
    assert seed_range(f"{2**64 - 1}", 2**64 - 1) == range(2**64 - 1, 2**64)


def test_wilson_interval_matches_published_values():
    # Newcombe (1998), Statistics in Medicine 17:857, table I (95%, Wilson score without correction)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=5e-5)
    assert wilson(15, 148) == pytest.approx((0.0624, 0.1605), abs=5e-5)
    assert wilson(0, 20) == pytest.approx((0.0, 0.1611), abs=5e-5)
    assert wilson(1, 29) == pytest.approx((0.0061, 0.1718), abs=5e-5)
    assert wilson(10, 10) == (pytest.approx(0.7225, abs=5e-5), 1.0)


def test_summary_counts_unknown_deals_both_ways():
    summary = surveying.Summary("g", "", 100, {"winnable": 80, "unwinnable": 10, "unknown": 10})
    assert summary.share == 0.8
    assert summary.interval == (wilson(80, 100)[0], wilson(90, 100)[1])


def test_a_200_seed_survey_stores_each_deal_once_as_solving_it_directly(tmp_path):
    db = tmp_path / "r.sqlite"
    result = run("--seeds", "1-200", "--db", str(db), "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    rows = stored(db)
    assert sorted(rows) == list(range(1, 201))
    assert check_consistent(db) == 200
    for seed, row in rows.items():
        assert (row.verdict, row.starters, row.nodes, row.method, row.solution) == solved_directly(seed), seed
    assert "seeds 1-200: 200 deals (200 solved now, 0 stored before)" in result.stdout
    assert "winnable 100.00% (Wilson 95%: 98.12-100.00%" in result.stdout


def test_a_one_seed_survey_says_1_deal(tmp_path):
    result = run("--seeds", "7", "--db", str(tmp_path / "r.sqlite"), "--jobs", "1")
    assert "seeds 7-7: 1 deal (1 solved now, 0 stored before)" in result.stdout, result.output


def test_json_summary_has_the_documented_shape_and_a_rerun_solves_nothing(tmp_path):
    db = tmp_path / "r.sqlite"
    first = json.loads(run("--seeds", "1-60", "--db", str(db), "--jobs", "1", "--json").stdout)
    more = json.loads(run("--seeds", "1-120", "--db", str(db), "--jobs", "2", "--json").stdout)
    again = json.loads(run("--seeds", "1-120", "--db", str(db), "--json").stdout)
    assert set(again) == {"game", "variant", "seeds", "deals", "new", "skipped", "verdicts", "winnable_share",
                          "wilson_low", "wilson_high", "wall_seconds", "players", "scores"}
    assert again["players"] is None  # Twaalven values no player
    assert (first["new"], more["new"], again["new"]) == (60, 60, 0)
    assert (first["skipped"], more["skipped"], again["skipped"]) == (0, 0, 0)
    assert again["deals"] == 120 and again["seeds"] == [1, 120] and again["variant"] == ""
    assert again["verdicts"] == {"winnable": 120, "unwinnable": 0, "unknown": 0}
    assert (again["wilson_low"], again["wilson_high"]) == wilson(120, 120)
    assert check_consistent(db) == 120


def test_rows_received_before_an_interrupt_are_committed(tmp_path):
    def two_chunks_then_ctrl_c(function, tasks, ordered=False):
        tasks = iter(tasks)
        yield function(next(tasks))
        yield function(next(tasks))
        raise KeyboardInterrupt

    with Store(str(tmp_path / "r.sqlite")) as store:
        todo = surveying.pending(store, "twaalven", "", range(1, 100))
        work = list(surveying.tasks("twaalven", "", todo, (30.0, 0), jobs=1))
        with pytest.raises(KeyboardInterrupt):
            surveying.run(store, "twaalven", "", todo, two_chunks_then_ctrl_c)
        assert sorted(row.seed for row in store.rows()) == [*work[0][2], *work[1][2]]
        left = surveying.pending(store, "twaalven", "", range(1, 100))
        first_left = 1 + 2 * len(work[0][2])
        assert left.count == 100 - first_left and list(left) == list(range(first_left, 100))


def test_ctrl_c_in_the_middle_of_a_task_keeps_the_deals_it_finished(tmp_path, monkeypatch):
    """A task's rows reach the store only when the whole task ends, so deals that may take their
    whole time limit go one to a task: `survey --seeds 1-200` interrupted at its third deal, with
    30 s a deal, had stored nothing (a task held 25 deals), though the help promises every deal
    finished so far."""
    solved = []

    def third_deal_interrupted(entry, variant, seed, budget):
        solved.append(seed)
        if len(solved) == 3:
            raise KeyboardInterrupt
        return Row("twaalven", "", seed, WINNABLE, "T", None, 1, 0.1, "dfs", ""), None, None

    monkeypatch.setattr(surveying, "solve_seed", third_deal_interrupted)
    with Store(str(tmp_path / "r.sqlite")) as store:
        todo = surveying.pending(store, "twaalven", "", range(1, 201))
        with surveying.workers(1) as run_tasks, pytest.raises(KeyboardInterrupt):
            surveying.run(store, "twaalven", "", todo, run_tasks, time_limit=30.0)
        assert [row.seed for row in store.rows()] == [1, 2]


def other_survey(pid: int | None = None, host: str | None = None) -> str:
    """A claim's owner: another survey, in process `pid` (this one unless given) on `host`."""
    return f"{host or surveying.socket.gethostname()} pid {pid or os.getpid()} other"


def test_seeds_another_survey_claimed_are_left_to_it_and_the_claims_end_with_the_survey(tmp_path):
    """Two surveys run at once on one database solved the same seeds side by side."""
    with Store(str(tmp_path / "r.sqlite")) as store:
        assert store.claim("twaalven", "", [5, 6, 7, 8, 9], other_survey()) == [5, 6, 7, 8, 9]
        skipped = []
        todo = surveying.pending(store, "twaalven", "", range(1, 21))
        with surveying.workers(1) as run_tasks:
            solved = surveying.run(store, "twaalven", "", todo, run_tasks, on_skipped=skipped.append)
        assert solved == 15 and sum(skipped) == 5
        assert sorted(row.seed for row in store.rows()) == [*range(1, 5), *range(10, 21)]
        assert store.db.execute("SELECT seed, owner FROM claims ORDER BY seed").fetchall() == [
            (seed, other_survey()) for seed in range(5, 10)]
        # stored seeds are not claimed again, claimed ones not by another owner, and not in another variant
        assert store.claim("twaalven", "", [3, 4, 5, 21], other_survey(host="elsewhere")) == [21]
        assert store.claim("twaalven", "players=3", [5], other_survey(host="elsewhere")) == [5]


def test_the_survey_says_how_many_seeds_it_left_to_another(tmp_path):
    db = str(tmp_path / "r.sqlite")
    with Store(db) as store:
        store.claim("twaalven", "", [2, 3], other_survey())
    result = run("--seeds", "1-6", "--db", db)
    assert ("seeds 1-6: 4 deals (4 solved now, 0 stored before or by another survey; 2 left to another survey "
            "running on the database)") in result.stdout, result.output
    assert json.loads(run("--seeds", "1-6", "--db", db, "--json").stdout)["skipped"] == 2
    result = run("--seeds", "2-3", "--db", db)  # every seed left to the other: the share was None * 100
    assert result.exit_code == 0, result.output
    assert "0 deals (0 solved now, 0 stored before or by another survey; 2 left" in result.stdout
    assert "winnable - (no deal of the range stored yet)" in result.stdout


def test_a_claim_counts_for_nothing_once_its_process_is_gone_or_it_has_lapsed(tmp_path):
    """A survey killed with -9 and rerun at once resumes its own seeds; a claim from another
    host that is not renewed lapses after CLAIM_SECONDS."""
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with Store(str(tmp_path / "r.sqlite")) as store:
        store.claim("twaalven", "", [1], other_survey(int(ended.stdout)))
        store.claim("twaalven", "", [2], other_survey(host="elsewhere"))
        store.claim("twaalven", "", [3], other_survey(host="elsewhere"))
        store.claim("twaalven", "", [4], "not an owner we wrote")
        store.claim("twaalven", "", [5], other_survey(2**70))  # os.kill raised OverflowError
        with store.db:
            store.db.execute("UPDATE claims SET until = ? WHERE seed = 3", (time.time() - 1,))
        with store.db:  # a blob where the owner should be: ended() split it and raised at every start
            store.db.execute("INSERT INTO claims VALUES ('twaalven', '', 7, X'41', ?)", (time.time() + 100,))
            # lapsing at no time, or far beyond any renewal: they held their seeds for good, or raised
            store.db.executemany("INSERT INTO claims VALUES ('twaalven', '', ?, 'x', ?)", [(9, "abc"), (10, 1e18)])
        store.claim("twaalven", "", [11], other_survey(-1))  # os.kill(-1, 0) signals every process we may
        assert store.claim("twaalven", "", [1, 2, 3, 4, 5, 6, 7, 9, 10, 11], "me") == [1, 3, 6, 9, 10, 11]
        # storing a seed ends its claim; leaving gives up the rest (lapsed, not deleted: see claim)
        store.add([Row("twaalven", "", 1, WINNABLE, "T", None, 1, 0.1, "dfs", "")], "me")
        store.release("me")
        claims = store.db.execute("SELECT seed, until FROM claims WHERE owner = 'me' ORDER BY seed").fetchall()
        assert claims == [(3, 0), (6, 0), (9, 0), (10, 0), (11, 0)]
        # a survey starting drops the claims that count for nothing and keeps the others
        store.claim("twaalven", "", [8], other_survey(int(ended.stdout)))
        # retry marks stay, for a retry survey under way (see claim): of a survey that has ended too,
        # but not older than MARK_SECONDS (nor from the future)
        store.claim("twaalven", "players=3", [1, 2, 3, 4], other_survey(int(ended.stdout)))
        retried = [Row("twaalven", "players=3", seed, UNKNOWN, "", None, 1, 0.1, "dfs", "") for seed in (1, 2, 3)]
        store.add(retried, other_survey(int(ended.stdout)), retried=True)
        with store.db:
            store.db.execute("UPDATE claims SET until = ? WHERE seed = 2 AND variant != ''",
                             (surveying.MARK_SECONDS - time.time() + 5,))
            store.db.execute("UPDATE claims SET until = -1e18 WHERE seed = 3 AND variant != ''")
        store.drop_stale_claims()
        assert store.db.execute("SELECT variant, seed FROM claims ORDER BY variant, seed").fetchall() == [
            ("", 2), ("", 4), ("", 5), ("", 7), ("players=3", 1)]


def test_a_later_pass_takes_the_seeds_another_survey_gave_up_but_not_those_it_stored(tmp_path):
    """A survey used to end with holes in its range when the one it left seeds to was
    interrupted; a retry survey must not retry again a seed the other has just retried."""
    with Store(str(tmp_path / "r.sqlite")) as store:
        unknown = [Row("twaalven", "", seed, UNKNOWN, "", None, 1, 0.1, "dfs", "") for seed in (1, 2, 3)]
        store.add(unknown)
        assert store.claim("twaalven", "", [1, 2, 3, 4, 5], "other", retry_unknown=True) == [1, 2, 3, 4, 5]
        store.add(unknown[:1], "other")  # seed 1 retried, unknown still; the others given up
        store.release("other")
        with store.db:
            store.db.execute("DELETE FROM claims WHERE seed = 3")  # a third survey starting dropped it
        assert store.claim("twaalven", "", [1, 2, 3, 4, 5, 6], "me", retry_unknown=True, skipped_before=True) == [
            2, 4, 5, 6]


def test_two_retry_surveys_at_once_retry_each_seed_once(tmp_path):
    """A seed the other retry survey had just retried, and left unknown, looked free: two such
    surveys side by side on 40 unknown deals retried 74 of them."""
    with Store(str(tmp_path / "r.sqlite")) as store:
        unknown = [Row("twaalven", "", seed, UNKNOWN, "", None, 1, 0.1, "dfs", "") for seed in (1, 2, 3)]
        store.add(unknown)
        first = surveying.Claims(store, "twaalven", "", retry_unknown=True)
        second = surveying.Claims(store, "twaalven", "", retry_unknown=True)
        assert second.take([1, 2]) == [1, 2]
        store.add(unknown[:2], second.owner, retried=True)  # unknown still
        store.release(second.owner)
        assert first.take([1, 2, 3]) == [3]
        assert first.take([1, 2], skipped_before=True) == []
        time.sleep(0.01)
        assert surveying.Claims(store, "twaalven", "", retry_unknown=True).take([1, 2]) == [1, 2]  # begun after


def test_a_survey_ends_with_no_hole_when_the_survey_it_left_seeds_to_is_interrupted(tmp_path):
    db = str(tmp_path / "r.sqlite")
    with Store(db) as store:
        store.claim("twaalven", "", [3, 4, 5], "other")
        left = []

        def the_other_survey_interrupted_meanwhile(count):
            left.append(count)
            if len(left) == 1:
                store.release("other")

        todo = surveying.pending(store, "twaalven", "", range(1, 11))
        with surveying.workers(1) as run_tasks:
            solved = surveying.run(store, "twaalven", "", todo, run_tasks,
                                   on_skipped=the_other_survey_interrupted_meanwhile)
        assert solved == 10 and sum(left) == 0 and left[0] > 0
        assert sorted(row.seed for row in store.rows()) == list(range(1, 11))
        assert store.db.execute("SELECT count(*) FROM claims").fetchone()[0] == 0


def test_a_claims_table_of_other_columns_is_refused(tmp_path):
    db = str(tmp_path / "r.sqlite")
    Store(db).close()
    with closing(sqlite3.connect(db)) as connection:
        connection.executescript("DROP TABLE claims; CREATE TABLE claims (game, variant, seed, until, owner);")
    with pytest.raises(surveying.StoreError, match="table claims has the columns game, variant, seed, until, owner"):
        Store(db)
    Store(db, read_only=True).close()  # report does not read it


def test_a_running_survey_renews_its_claims(tmp_path, monkeypatch):
    monkeypatch.setattr(surveying, "RENEW_SECONDS", 0.05)
    with Store(str(tmp_path / "r.sqlite")) as store:
        with surveying.Claims(store, "twaalven", "", retry_unknown=False) as claims:
            assert claims.take([1, 2]) == [1, 2]
            first = store.db.execute("SELECT max(until) FROM claims").fetchone()[0]
            deadline = time.monotonic() + 30
            while store.db.execute("SELECT min(until) FROM claims").fetchone()[0] <= first:
                assert time.monotonic() < deadline, "the claims were not renewed"
                time.sleep(0.05)
        assert store.db.execute("SELECT max(until) FROM claims").fetchone()[0] == 0  # given up on leaving


def test_workers_hand_out_few_slow_tasks_ahead_and_many_quick_ones():
    """A survey claims its seeds as it hands them out: one of slow deals with --jobs 2 handed out
    128 tasks at once and left a survey started beside it nothing to do."""
    pulled = []

    def sleeps(seconds: float, count: int):
        for _ in range(count):
            pulled.append(seconds)
            yield seconds

    with surveying.workers(2) as run_tasks:
        slow = run_tasks(time.sleep, sleeps(0.3, 20))
        next(slow)
        assert len(pulled) <= 2 * surveying.FIRST_WINDOW + 1
        slow.close()
    pulled.clear()
    with surveying.workers(2) as run_tasks:
        quick = run_tasks(time.sleep, sleeps(0, 2000))
        for _ in range(200):
            next(quick)
        assert len(pulled) - 200 >= surveying.WINDOW
        quick.close()


def test_a_rows_seconds_leave_out_the_making_of_the_table(monkeypatch):
    """Each worker's first row counted the table's making (seconds for a 4 GiB one)."""
    entry = game("stapelen")
    made, make = [], entry.engine.set_up

    def slow_the_first_time(budget):
        if not made:
            made.append(True)
            time.sleep(0.5)
        make(budget)

    monkeypatch.setattr(entry.engine, "set_up", slow_the_first_time)
    row, _, _ = surveying.solve_seed(entry, "", 1, Budget(30.0))
    assert made and row.verdict == WINNABLE and row.seconds < 0.4


def test_quick_deals_still_go_many_to_a_task(tmp_path):
    with Store(str(tmp_path / "r.sqlite")) as store:
        todo = surveying.pending(store, "twaalven", "", range(1, 10_001))
        sizes = {time_limit: len(next(surveying.tasks("twaalven", "", todo, (time_limit, 0, None), jobs=2))[2])
                 for time_limit in (None, math.inf, 30.0, 1.0, 0.1, 0.001, 5e-324)}
    # 5e-324 (the least float, which --time-limit takes): CHUNK_SECONDS / it is inf, which int() refused
    assert sizes == {None: 1, math.inf: 1, 30.0: 1, 1.0: 1, 0.1: 10, 0.001: surveying.CHUNK, 5e-324: surveying.CHUNK}


def test_a_resumed_range_is_read_a_window_at_a_time_and_skips_exactly_the_stored_seeds(tmp_path, monkeypatch):
    monkeypatch.setattr(surveying, "STORED_WINDOW", 10)
    stored = {3, 9, 10, 11, 20, 21, 35, 44}
    unknown = {10, 35}
    with Store(str(tmp_path / "r.sqlite")) as store:
        store.add([Row("twaalven", "", seed, UNKNOWN if seed in unknown else WINNABLE, "", None, 1, 0.1, "dfs", "")
                   for seed in sorted(stored)])
        reads = []
        done = store.done
        monkeypatch.setattr(store, "done", lambda *args: reads.append(args[2]) or done(*args))
        todo = surveying.pending(store, "twaalven", "", range(5, 45))
        assert todo.count == 40 - 7 and list(todo) == [s for s in range(5, 45) if s not in stored]
        assert reads == [range(5, 15), range(15, 25), range(25, 35), range(35, 45)]
        retry = surveying.pending(store, "twaalven", "", range(5, 45), retry_unknown=True)
        assert retry.count == 40 - 5 and list(retry) == [s for s in range(5, 45) if s not in stored - unknown]


def etalage_values(*intervals):
    """A row's players JSON: each player's (guaranteed, its bound), cooperative best not searched."""
    return json.dumps([{"player": p, "guaranteed": low, "guaranteed_bound": high, "cooperative_best": None,
                        "cooperative_bound": None} for p, (low, high) in enumerate(intervals, start=1)])


def test_a_retry_replaces_an_unknown_row_only_with_one_that_proves_no_less(tmp_path):
    """A retry under another budget may prove less than the first solve did: its row replaces
    the stored one only when it is decided or none of its proven intervals is wider."""
    def stored(game):
        return [(row.verdict, row.score, row.score_bound, row.players, row.solution) for row in store.rows(game)]

    with Store(str(tmp_path / "r.sqlite")) as store:
        first = Row("etalage", "", 1, UNKNOWN, "", 4, 9, 1.0, "search", "first", etalage_values((4, 9), (0, 3)), 9)
        store.add([first, Row("the-game", "", 1, UNKNOWN, "", 6, 9, 1.0, "beam+bnb", "first", None, 0)])
        wider = first._replace(solution="wider", players=etalage_values((4, 9), (0, 4)))
        store.add([wider, Row("the-game", "", 1, UNKNOWN, "", 7, 9, 1.0, "beam+bnb", "worse", None, 0)])
        assert [line for *_, line in stored("etalage") + stored("the-game")] == ["first", "first"]
        narrower = first._replace(solution="narrower", players=etalage_values((5, 9), (0, 3)))
        store.add([narrower, Row("the-game", "", 1, UNKNOWN, "", 5, 9, 1.0, "beam+bnb", "better", None, 1)])
        assert stored("etalage") == [(UNKNOWN, 4, 9, narrower.players, "narrower")]
        assert stored("the-game") == [(UNKNOWN, 5, 1, None, "better")]
        store.add([Row("the-game", "", 1, WINNABLE, "", 0, 9, 1.0, "beam+bnb", "won", None, 0)])
        store.add([Row("the-game", "", 1, UNKNOWN, "", 0, 9, 1.0, "beam+bnb", "after", None, 0)])
        assert stored("the-game") == [(WINNABLE, 0, 0, None, "won")]  # a decided row stays


def test_a_retry_keeps_a_score_stored_without_its_bound_unless_it_finds_no_worse(tmp_path):
    """A row stored before schema version 3 has its score (a line reaching it) but no bound:
    a retry that finds a worse score proves less, though its interval is known at both ends."""
    with Store(str(tmp_path / "r.sqlite")) as store:
        store.add([Row("the-game", "", 1, UNKNOWN, "", 3, 9, 1.0, "beam+bnb", "first", None, None),
                   Row("quick-and-easy", "", 1, UNKNOWN, "", 40, 9, 1.0, "beam+bnb", "first", None, None)])
        store.add([Row("the-game", "", 1, UNKNOWN, "", 98, 9, 1.0, "beam+bnb", "worse", None, 0),
                   Row("quick-and-easy", "", 1, UNKNOWN, "", 30, 9, 1.0, "beam+bnb", "worse", None, 50)])
        assert [(row.score, row.score_bound) for row in store.rows()] == [(40, None), (3, None)]
        store.add([Row("the-game", "", 1, UNKNOWN, "", 3, 9, 1.0, "beam+bnb", "bound", None, 1),
                   Row("quick-and-easy", "", 1, UNKNOWN, "", 45, 9, 1.0, "beam+bnb", "better", None, 50)])
        assert [(row.score, row.score_bound) for row in store.rows()] == [(45, 50), (3, 1)]


def test_a_retry_that_decides_a_deal_with_a_worse_line_keeps_the_stored_line(tmp_path):
    """A decided row replaces an unknown one, but a line it found worse than the stored one
    (The Game: more cards left; Sir Tommy's --maximise: fewer cards played) is not taken."""
    with Store(str(tmp_path / "r.sqlite")) as store:
        store.add([Row("the-game", "", 1, UNKNOWN, "", 3, 9, 1.0, "beam+bnb", "three left", None, 0),
                   Row("sir-tommy", "max", 1, UNKNOWN, "", 40, 9, 1.0, "dfs", "forty", None, 52),
                   Row("the-game", "", 2, UNKNOWN, "", 6, 9, 1.0, "beam+bnb", "six left", None, 0)])
        store.add([Row("the-game", "", 1, UNWINNABLE, "", 5, 7, 2.0, "beam+bnb", "five left", None, 1),
                   Row("sir-tommy", "max", 1, UNWINNABLE, "", 30, 7, 2.0, "dfs", "thirty", None, 45),
                   Row("the-game", "", 2, UNWINNABLE, "", 4, 7, 2.0, "beam+bnb", "four left", None, 2)])
        assert [(row.seed, row.verdict, row.score, row.score_bound, row.solution, row.nodes) for row in store.rows()] == [
            (1, UNWINNABLE, 40, 45, "forty", 7),
            (1, UNWINNABLE, 3, 1, "three left", 7), (2, UNWINNABLE, 4, 2, "four left", 7)]


def test_a_survey_goes_on_storing_when_a_newer_winnable_adds_a_column(tmp_path):
    """A newer schema may add columns while a survey has the database open (the newer program
    upgrades it on opening): the running survey's rows must still be stored, not refused for
    giving fewer values than the table has columns."""
    path = str(tmp_path / "r.sqlite")
    with Store(path) as store:
        store.add([Row("twaalven", "", 1, WINNABLE, "T", None, 1, 0.1, "dfs", "")])
        with closing(sqlite3.connect(path)) as newer:
            newer.executescript("ALTER TABLE deals ADD COLUMN later TEXT; PRAGMA user_version = 4;")
        store.add([Row("twaalven", "", 2, WINNABLE, "T", None, 1, 0.1, "dfs", "")])
    with closing(sqlite3.connect(path)) as connection:
        assert connection.execute("SELECT seed, later FROM deals ORDER BY seed").fetchall() == [(1, None), (2, None)]


def wait_then_echo(task):
    """A worker task: returns a whole number at once; sleeps the seconds a float gives, or waits
    (up to 10 s) for the file a Path names, and returns "slow"."""
    if isinstance(task, int):
        return task
    if isinstance(task, float):
        time.sleep(task)
        return "slow"
    deadline = time.monotonic() + 10
    while not task.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return "slow"


def test_workers_take_the_next_task_as_each_ends_not_a_window_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr(surveying, "WINDOW", 1)  # two tasks out at a time with two workers
    flag = tmp_path / "go"
    seen = []
    with surveying.workers(2) as run_tasks:
        for result in run_tasks(wait_then_echo, [flag, *range(8)]):
            seen.append(result)
            if len(seen) == 8:
                flag.touch()  # the slow task ends only now: the other worker did the rest first
    assert seen == [*range(8), "slow"]


def test_ordered_results_keep_the_order_of_the_tasks_when_the_first_ends_last(monkeypatch):
    monkeypatch.setattr(surveying, "WINDOW", 1)
    with surveying.workers(2) as run_tasks:
        assert list(run_tasks(wait_then_echo, [0.3, *range(8)], ordered=True)) == ["slow", *range(8)]


def refuse(task):
    raise ValueError(f"task {task} refused")


def test_a_sigterm_while_the_pool_starts_is_raised_once_it_has_started():
    """The command line takes SIGTERM as Ctrl-C; raised inside the fork's logging hook as the
    pool started its workers, it was lost, and the survey ran to its end (exit 0)."""
    from cli.main import terminated

    previous = signal.signal(signal.SIGTERM, terminated)
    started = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with surveying.ctrl_c_deferred():
                os.kill(os.getpid(), signal.SIGTERM)
                started.append(True)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert started and signal.getsignal(signal.SIGTERM) is previous


def test_a_second_ctrl_c_while_the_pool_stops_still_stops_its_workers(monkeypatch):
    """Ctrl-C pressed again while the pool was being stopped cut its stopping short: the survey
    exited 130 and left its workers running their tasks, which printed BrokenPipeError
    tracebacks on reaching the dead parent, maybe hours later."""
    pools, terminate = [], multiprocessing.pool.Pool.terminate

    def second_ctrl_c_then_terminate(pool):
        pools.append(pool)
        os.kill(os.getpid(), signal.SIGINT)
        terminate(pool)

    monkeypatch.setattr(multiprocessing.pool.Pool, "terminate", second_ctrl_c_then_terminate)
    try:
        with pytest.raises(KeyboardInterrupt), surveying.workers(2) as run_tasks:
            assert sorted(run_tasks(wait_then_echo, [1, 2])) == [1, 2]
            raise KeyboardInterrupt  # the first Ctrl-C
        assert [process.is_alive() for process in pools[0]._pool] == [False, False]
    finally:  # without the fix, stop what it left running
        terminate(pools[0])
        pools[0].join()


def test_pool_workers_do_not_inherit_the_kernels_of_the_process_that_forks_them():
    """A kernel solving again the deal it solved last reuses that search's table (seed 2: 67
    nodes, not 127). Forked from a process that had just solved a deal (the API, a test), a
    worker started with that kernel, and its row of the deal was not a fresh process's."""
    task = ("twaalven", "", [2], 30.0, 0, None)
    surveying.solve_chunk(("twaalven", "", [3], 30.0, 0, None))
    [fresh] = surveying.solve_chunk(task)
    [again] = surveying.solve_chunk(task)
    assert again.nodes != fresh.nodes
    with surveying.workers(2) as run_tasks:
        [[forked]] = list(run_tasks(surveying.solve_chunk, [task]))
    assert forked._replace(seconds=None) == fresh._replace(seconds=None)


@pytest.mark.parametrize("ordered", [False, True])
def test_a_workers_error_reaches_the_caller(ordered):
    with surveying.workers(2) as run_tasks, pytest.raises(ValueError, match="task 1 refused"):
        list(run_tasks(refuse, [1], ordered=ordered))


def test_kill_9_at_a_random_moment_then_resume_loses_and_duplicates_nothing(tmp_path, clean):
    db = tmp_path / "r.sqlite"
    process = start_survey(db)
    kill_after = random.randint(1, KILL_AFTER_AT_MOST)  # a random moment, counted in committed rows
    wait_for_rows(db, process, at_least=kill_after)
    process.kill()  # SIGKILL to the survey process; its workers must notice and exit by themselves
    process.wait()
    assert process.returncode == -signal.SIGKILL, f"finished before the kill (after {kill_after} rows)"
    deadline = time.monotonic() + 10
    while live_group_members(process.pid):
        assert time.monotonic() < deadline, "workers outlived the killed survey"
        time.sleep(0.1)

    before = check_consistent(db)
    assert 0 < before < KILL_DEALS, f"after {kill_after} rows"
    result = run("--seeds", KILL_RANGE, "--db", str(db), "--jobs", "2", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["new"] == KILL_DEALS - before
    assert check_consistent(db) == KILL_DEALS
    assert stored(db) == clean


def test_workers_end_with_a_killed_survey_in_the_middle_of_a_long_deal(tmp_path):
    # A worker used to notice its parent's kill -9 only when it wrote its deal's row: with a
    # whole Etalage deal (or a time limit of hours) it went on searching, a core and its table
    # held, long after the survey was gone.
    process = subprocess.Popen(
        [sys.executable, "-c", "from cli.main import run; run()", "survey", "etalage", "--players", "3",
         "--guarantees-only", "--seeds", "1-2", "--time-limit", "120", "--db", str(tmp_path / "e.sqlite"),
         "--jobs", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,  # no pipe to wait on
    )
    try:
        deadline = time.monotonic() + 30
        while len(live_group_members(process.pid)) < 3:  # the survey and both its workers
            assert time.monotonic() < deadline and process.poll() is None, "the workers did not start"
            time.sleep(0.1)
        time.sleep(1.0)  # into their deals' searches
        process.kill()
        process.wait()
        deadline = time.monotonic() + 5
        while live_group_members(process.pid):
            assert time.monotonic() < deadline, "workers outlived the killed survey by their deal"
            time.sleep(0.1)
    finally:
        for worker in live_group_members(process.pid):  # a failure leaves none searching on
            os.kill(worker, signal.SIGKILL)


def test_ctrl_c_exits_130_with_the_database_consistent(tmp_path, clean):
    db = tmp_path / "r.sqlite"
    process = start_survey(db)
    wait_for_rows(db, process, at_least=random.randint(1, KILL_AFTER_AT_MOST))
    os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C on a terminal: the survey and its workers
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "interrupted:" in err and "rerun to resume" in err and "Traceback" not in err
    rows = stored(db)
    assert check_consistent(db) == len(rows)
    assert 0 < len(rows) < KILL_DEALS
    assert all(clean[seed] == row for seed, row in rows.items())
    assert f"{len(rows)} of {KILL_DEALS} deals of the range are stored" in err


def test_a_range_of_more_seeds_than_memory_holds_is_read_as_it_is_solved(tmp_path):
    db = tmp_path / "r.sqlite"
    process = start_survey(db, f"5-{10**12}", memory=3 * 2**30)  # its list of seeds would need 36 TB
    wait_for_rows(db, process, at_least=200)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert f"of {10**12 - 4} deals of the range are stored" in err
    assert list(stored(db))[:3] == [5, 6, 7]


@pytest.mark.parametrize(
    "args, message",
    [
        (["nosuchgame", "--seeds", "1-10"], "unknown game 'nosuchgame'; known games: "),
        (["twaalven", "--seeds", "10-1"], "seed range '10-1' is empty"),
        (["twaalven", "--seeds", "1-x"], "'1-x' is not a seed range"),
        (["twaalven", "--seeds", "1", "--db", ""], "no file name given for the results database"),
        (["twaalven", "--seeds", "1", "--db", "/dev/null"], "/dev/null: not a regular file"),  # "disk I/O error"
        (["twaalven", "--seeds", "1", "--db", "/dev/null/r.sqlite"], "not a directory: /dev/null"),  # "no such"
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, args, message):
    result = CliRunner().invoke(survey, ["--db", str(tmp_path / "r.sqlite"), *args])
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "r.sqlite").exists() or count_rows(tmp_path / "r.sqlite") == 0


@pytest.mark.parametrize("journal, lock", [("WAL", "BEGIN EXCLUSIVE"), ("DELETE", "BEGIN")])
def test_ctrl_c_while_another_connection_holds_the_lock_is_heard_at_once(tmp_path, journal, lock):
    """Opening the database waited for the lock in one SQLite call of 30 s, and Python ran the
    SIGINT handler only after it: the survey ended 28 s after Ctrl-C. Both a writer's lock and,
    on a copy not in WAL mode, a reader's (which holds up the commit and the switch to WAL)."""
    db = str(tmp_path / "r.sqlite")
    assert run("--seeds", "1", "--db", db, "--jobs", "1").exit_code == 0
    with closing(sqlite3.connect(db, isolation_level=None)) as other:
        other.execute(f"PRAGMA journal_mode={journal}")
        other.execute(lock)
        other.execute("SELECT count(*) FROM deals").fetchone()
        process = subprocess.Popen([sys.executable, "-c", "from cli.main import run; run()", "survey", "twaalven",
                                    "--seeds", "1-20", "--db", db, "--jobs", "1"], stderr=subprocess.PIPE, text=True)
        time.sleep(3)  # imports take under a second: the survey waits for the lock by now
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        waited = time.monotonic() - sent
    assert process.returncode == 130 and "interrupted" in err and waited < 5
    assert count_rows(db) == 1


def test_a_survey_without_seeds_is_told_so(tmp_path):
    """It ran without the option and ended in a traceback: click 8.3 on takes an explicit
    default of None as given."""
    result = CliRunner().invoke(main, ["survey", "twaalven", "--db", str(tmp_path / "r.sqlite")])
    assert (result.exit_code, result.output) == (2, "Error: Missing option '--seeds'.\n")
    assert not (tmp_path / "r.sqlite").exists()


def test_a_database_that_is_not_ours_is_refused(tmp_path):
    text_file = tmp_path / "notes.sqlite"
    text_file.write_text("not a database at all, just some text that is long enough to matter\n" * 20)
    other = tmp_path / "other.sqlite"
    with closing(sqlite3.connect(other)) as connection:
        connection.execute("CREATE TABLE t (x)")
    newer, dropped = tmp_path / "newer.sqlite", tmp_path / "dropped.sqlite"
    for path, edit in [(newer, "PRAGMA user_version = 99"), (dropped, "DROP TABLE deals")]:
        Store(str(path)).close()
        with closing(sqlite3.connect(path)) as connection:
            connection.execute(edit)
    files = sorted(os.listdir(tmp_path))
    for path, words in [(text_file, "not a results database"), (other, "not a winnable results database"),
                        (newer, "schema version 99"), (dropped, "not a results database (no table deals")]:
        before = hashlib.sha256(path.read_bytes()).hexdigest()
        result = run("--seeds", "1-5", "--db", str(path))
        assert result.exit_code == 2, result.output
        assert words in result.output and "Traceback" not in result.output
        assert hashlib.sha256(path.read_bytes()).hexdigest() == before, path  # byte for byte
    assert sorted(os.listdir(tmp_path)) == files  # no -wal or -shm file left beside them


def test_a_database_that_cannot_be_written_is_refused_and_left_alone(tmp_path):
    db = tmp_path / "r.sqlite"
    assert run("--seeds", "1-2", "--db", str(db), "--jobs", "1").exit_code == 0
    before = db.read_bytes()
    for locked, words in [(db, "cannot write to it (read-only)"), (tmp_path, "cannot write in its directory")]:
        with read_only(locked):
            result = run("--seeds", "3", "--db", str(db), "--jobs", "1")
        assert result.exit_code == 2 and result.output.startswith(f"Error: {db}: {words}"), result.output
        assert len(result.output.strip().splitlines()) == 1
        assert db.read_bytes() == before and os.listdir(tmp_path) == ["r.sqlite"]


def test_unknown_verdicts_from_a_tiny_budget_are_stored_as_unknown(tmp_path):
    db = tmp_path / "r.sqlite"
    # seed 20548 is unwinnable, but not provably so in 1000 nodes and 5 ms
    args = ("--seeds", "20548", "--db", str(db), "--node-limit", "1000", "--time-limit", "0.005", "--json")
    data = json.loads(run(*args).stdout)
    assert data["verdicts"] == {"winnable": 0, "unwinnable": 0, "unknown": 1}
    assert (data["wilson_low"], data["wilson_high"]) == (0.0, 1.0)
    assert stored(db)[20548].verdict == "unknown"


def test_retry_unknown_solves_stored_unknown_rows_again_and_keeps_decided_ones(tmp_path):
    db = tmp_path / "r.sqlite"
    tiny = ("--node-limit", "1000", "--time-limit", "inf")  # nodes alone: no clock, no CP-SAT, the same rows anywhere
    run("--seeds", "20547-20548", "--db", str(db), *tiny)
    first = stored(db)
    assert first[20548].verdict == "unknown" and first[20547].verdict == "winnable"
    again = json.loads(run("--seeds", "20547-20548", "--db", str(db), "--json").stdout)
    assert again["new"] == 0 and stored(db) == first  # a plain rerun resumes: nothing to do
    retried = json.loads(run("--seeds", "20547-20548", "--db", str(db), "--retry-unknown", "--json").stdout)
    assert retried["new"] == 1 and retried["verdicts"] == {"winnable": 1, "unwinnable": 1, "unknown": 0}
    after = stored(db)
    assert after[20547] == first[20547] and after[20548].verdict == "unwinnable"
    # the text says the retried row was stored before (it said "1 solved now, 1 stored before")
    text = run("--seeds", "20547-20549", "--db", str(db), "--retry-unknown", *tiny).stdout
    assert "3 deals (1 solved now, 2 stored before)" in text
    fresh = tmp_path / "fresh.sqlite"
    run("--seeds", "20547-20548", "--db", str(fresh), *tiny)
    text = run("--seeds", "20547-20548", "--db", str(fresh), "--retry-unknown").stdout
    assert "2 deals (1 solved now, 1 of them stored before and solved again, 1 kept as stored)" in text


def test_a_starter_left_undecided_is_stored_marked_and_retried(tmp_path):
    """Seed 11 under 100 nodes: T's win found, F's search open. The row says so ('T,F?'), a
    plain rerun keeps it, and --retry-unknown decides F and replaces it. (Two jobs: a worker
    of its own, whose table no earlier test filled.)"""
    db = tmp_path / "r.sqlite"
    run("--seeds", "11", "--db", str(db), "--node-limit", "100", "--time-limit", "inf", "--jobs", "2")
    assert (stored(db)[11].verdict, stored(db)[11].starters) == ("winnable", "T,F?")
    run("--seeds", "11", "--db", str(db))
    assert stored(db)[11].starters == "T,F?"
    with Store(str(db)) as store:  # the progress bar's total and the chunks' size count it
        assert surveying.pending(store, "twaalven", "", range(11, 12), retry_unknown=True).count == 1
    retried = json.loads(run("--seeds", "11", "--db", str(db), "--retry-unknown", "--json").stdout)
    assert retried["new"] == 1 and stored(db)[11].starters == "T,F"


def test_a_variant_survey_is_stored_beside_the_standard_rules(tmp_path):
    db = str(tmp_path / "r.sqlite")
    for players in ("1", "3"):
        result = CliRunner().invoke(survey, ["the-game", "--seeds", "1-2", "--db", db, "--players", players,
                                             "--jobs", "1", "--json"])
        assert result.exit_code == 0, result.output
    with Store(db, True) as store:
        assert store.groups() == [("the-game", ""), ("the-game", "players=3")]
        assert [row.score for row in store.rows("the-game", "players=3")] == [0, 0]


def test_an_optimisation_row_keeps_its_proven_bound(tmp_path):
    """A deal whose optimum the budget leaves open is stored with the value found and the bound
    proven, as solve gives them, and the survey says the score is not proven optimal."""
    db = str(tmp_path / "r.sqlite")
    budget = ["--node-limit", "2000"]
    result = CliRunner().invoke(survey, ["the-game-extreme", "--seeds", "9", "--db", db, "--jobs", "1", *budget])
    solved = json.loads(CliRunner().invoke(solve, ["the-game-extreme", "--seed", "9", "--json", *budget]).stdout)
    with Store(db, True) as store:
        [row] = store.rows()
    assert (row.verdict, row.score, row.score_bound) == ("unknown", solved["cards_left"], solved["lower_bound"])
    assert row.score_bound < row.score
    assert result.output.splitlines()[-1] == (f"score proven optimal in 0 of 1 deals; the others within "
                                              f"{row.score - row.score_bound:.2f} of their proven bounds on average")


def test_a_variant_the_game_does_not_have_is_refused(tmp_path):
    with Store(str(tmp_path / "r.sqlite")) as store, surveying.workers(1) as run_tasks:
        with pytest.raises(ValueError, match="'players=3' is not a variant of twaalven"):
            todo = surveying.pending(store, "twaalven", "players=3", range(1, 2))
            surveying.run(store, "twaalven", "players=3", todo, run_tasks)


def test_survey_on_a_local_dask_cluster_stores_the_same_rows(tmp_path):
    distributed = pytest.importorskip("distributed")
    db, reference = tmp_path / "dask.sqlite", tmp_path / "pool.sqlite"
    assert run("--seeds", "1-150", "--db", str(reference), "--jobs", "2").exit_code == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        result = run("--seeds", "1-150", "--db", str(db), "--cluster", cluster.scheduler_address, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["new"] == 150
    assert stored(db) == stored(reference)


def test_an_unreachable_cluster_is_bad_input(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(surveying, "CONNECT_TIMEOUT", "0.5s")
    result = run("--seeds", "1-5", "--db", str(tmp_path / "r.sqlite"), "--cluster", "tcp://127.0.0.1:9")
    assert result.exit_code == 2
    assert "cannot reach a Dask scheduler at 'tcp://127.0.0.1:9'" in result.output
    assert not (tmp_path / "r.sqlite").exists()  # a refused survey leaves no new database


@pytest.mark.parametrize("command", ["survey", "generate", "report"])
def test_help_keeps_within_96_columns(command):
    """Help paragraphs kept as written (click's \\b) are wrapped by hand: survey's list of columns
    had a line of 128 characters, where the wrapped text stops at 80."""
    import cli.batch

    lines = CliRunner().invoke(getattr(cli.batch, command), ["--help"]).output.splitlines()
    assert max(map(len, lines)) <= 96, max(lines, key=len)


def test_rows_are_named_tuples_in_column_order():
    assert Row._fields == ("game", "variant", "seed", "verdict", "starters", "score", "nodes", "seconds",
                           "method", "solution", "players", "score_bound")


def test_kill_stores_what_is_done_and_stops_the_workers_at_once(tmp_path):
    # `kill PID` (SIGTERM) used to end the survey alone: its workers went on solving their
    # deals (up to the time limit) and then printed BrokenPipeError tracebacks to the terminal.
    db = tmp_path / "r.sqlite"
    process = subprocess.Popen(
        [sys.executable, "-c", "from cli.main import run; run()", "survey", "twaalven", "--seeds", KILL_RANGE,
         "--db", str(db), "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    wait_for_rows(db, process, at_least=random.randint(1, KILL_AFTER_AT_MOST))
    process.terminate()  # to the survey alone, as `kill PID` sends it
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "rerun to resume" in err and "Traceback" not in err
    assert not live_group_members(process.pid), "workers outlived the survey"
    rows = check_consistent(db)
    assert 0 < rows < KILL_DEALS
    assert f"{rows} of {KILL_DEALS} deals of the range are stored" in err
