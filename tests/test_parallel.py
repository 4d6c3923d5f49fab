"""Searches side by side (`solver.parallel`): results in order, budgets shared by rounds, and a
failing job or Ctrl-C stops the searches still running instead of waiting out their budgets."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from puzzles import etalage as e
from solver import parallel
from solver._native import EtalageKernel
from solver.games.etalage.engine import GAME, EtalageEngine
from solver.parallel import share, side_by_side, threads_for
from solver.result import Budget
from tests.interrupts import seconds_until_interrupted

engine = GAME.engine


def long_search():
    """A guarantee on a full 5-player deal: minutes of work, unless stopped."""
    return engine.value(e.deal(3, players=5), 1, False, Budget(time_limit=60.0))


def test_results_come_back_in_the_order_of_the_jobs_and_each_finish_is_counted():
    finished = []
    jobs = [lambda i=i: (time.sleep(0.05 * (3 - i)), finished.append(i), i)[2] for i in range(4)]
    ticks = []
    assert side_by_side(jobs, 3, on_done=lambda: ticks.append(len(finished))) == [0, 1, 2, 3]
    assert finished[0] == 2 and finished[-1] == 0  # the shortest sleep ends first
    assert len(ticks) == 4 and ticks[0] < 4 and ticks[-1] == 4  # a tick as each job ends
    ticks.clear()
    assert side_by_side(jobs, 1, on_done=lambda: ticks.append(1)) == [0, 1, 2, 3] and len(ticks) == 4


def test_time_is_shared_by_rounds_of_jobs_and_nodes_keep_one_thread():
    budget = Budget(time_limit=60.0)
    assert share(budget, 0, 6, 2).time_limit == pytest.approx(20.0, abs=0.1)  # three rounds of two
    assert share(budget, 5, 6, 2).time_limit == pytest.approx(60.0, abs=0.1)
    assert share(budget, 0, 6, 1).time_limit == pytest.approx(10.0, abs=0.1)
    assert threads_for(Budget(time_limit=60.0, node_limit=1000)) == 1
    assert threads_for(budget) == parallel.search_threads


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="affinity is Linux's")
def test_the_usable_cores_follow_the_processs_affinity_and_set_the_worker_default(monkeypatch):
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {2, 5}, raising=False)
    assert parallel.usable_cores() == 2
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: set(), raising=False)
    assert parallel.usable_cores() == 1
    # a process held to one core defaults to one worker, whatever the machine has
    script = ("import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); from cli.commands import main; "
              "print([p.default for c in ('survey', 'generate') for p in main.get_command(None, c).params "
              "if p.name == 'jobs'])")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[1, 1]"


def test_a_thread_left_without_jobs_helps_until_every_job_is_done():
    ends, calls = [], []

    def slow():
        time.sleep(0.3)
        ends.append(time.perf_counter())
        return "slow"

    def idle() -> int:
        calls.append(time.perf_counter())
        time.sleep(0.01)
        return 1

    assert side_by_side([slow, lambda: "quick", lambda: "quick"], 2, idle=idle) == ["slow", "quick", "quick"]
    assert len(calls) >= 5 and max(calls) <= ends[0] + 0.005  # while the slow job ran, not after
    calls.clear()
    side_by_side([slow, lambda: "quick"], 1, idle=idle)
    assert not calls  # one thread: nobody is left idle


def test_a_late_helper_joins_a_search_under_way_and_its_nodes_count_in_the_answer():
    kernel = EtalageKernel(1 << 16)
    assert kernel.help(1.0) == 0  # nothing under way
    p = e.deal(3, players=5)
    answers, helped = [], 0
    # two seconds, far from a whole 5-player deal's (a search under a node limit runs alone)
    search = threading.Thread(target=lambda: answers.append(
        kernel.solve(list(p.display), [list(h) for h in p.hands], 0, [], 0, 0, False, 0, 2.0)))
    search.start()
    while not helped and search.is_alive():
        helped = kernel.help(60.0)  # returns when the search does
    search.join()
    lower, upper, line, nodes, seconds = answers[0]
    assert helped > 0 and 0 <= lower <= upper
    assert nodes > helped  # its own nodes, then the helper's
    assert kernel.help(1.0) == 0


def test_a_failing_job_stops_the_searches_still_running_and_later_searches_run():
    def fail():
        time.sleep(0.5)
        raise ValueError("bad position")

    started = time.perf_counter()
    with pytest.raises(ValueError, match="bad position"):
        side_by_side([long_search, fail], 2)
    assert time.perf_counter() - started < 10
    # the stop was lifted: a search afterwards runs to its answer
    position = e.deal(1, players=3, values=4)
    assert engine.value(position, 1, False, Budget(time_limit=20.0)).exact


def test_guarantees_searched_side_by_side_or_helped_equal_those_searched_one_at_a_time(monkeypatch):
    """One kernel table shared by threads, searching different positions or helping one: the
    same exact values as searches one by one and as the reference search."""
    def fresh() -> EtalageEngine:
        """An engine with a table of its own, so nothing is found already proven."""
        engine = EtalageEngine()
        engine._kernel = EtalageKernel(1 << 16)
        return engine

    def values(position, threads: int) -> dict:
        monkeypatch.setattr(parallel, "search_threads", threads)
        return fresh().values(position, searches, Budget(time_limit=60.0))

    for seed in range(4):
        position = e.deal(seed, players=4, values=3)
        searches = [(player, cooperative) for player in (1, 2, 3, 4) for cooperative in (False, True)]
        alone, together, helping = values(position, 1), values(position, 2), fresh()
        for search in searches:
            helped = helping.value(position, *search, Budget(time_limit=60.0), helpers=1)
            assert together[search].exact and alone[search].exact and helped.exact
            assert together[search].lower == alone[search].lower == helped.lower == \
                e.values(position, search[0])[search[1]]


def test_ctrl_c_stops_a_search_and_its_helpers_at_once():
    setup = "from puzzles import etalage as e; from solver._native import EtalageKernel; p = e.deal(3, players=5)"
    call = "EtalageKernel(1 << 16).solve(list(p.display), [list(h) for h in p.hands], 0, [], 0, 0, False, 0, 60.0, 1)"
    assert seconds_until_interrupted(setup, call) < 10
