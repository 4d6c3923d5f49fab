"""Independent searches side by side, one per core.

A command that needs several searches which do not wait on each other (Etalage: one guarantee
per player) runs them in threads: the kernels release the GIL while they search and share one
table that is safe to share. Python handles signals in its main thread only, so Ctrl-C there
asks every running search to stop (`stop_searches`) and is raised once they have returned.
Node budgets must give the same answer on every machine, so a budget with a node limit runs its
searches one at a time (`threads_for`).
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import Future, ThreadPoolExecutor, as_completed, wait
from typing import Callable, Sequence, TypeVar

from ._native import stop_searches
from .result import Budget

T = TypeVar("T")


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


#: Worker processes or search threads at most: more than this only costs memory and start-up time.
MAX_JOBS = max(64, 4 * (os.cpu_count() or 1))

#: The threads a command's searches may use, side by side or helping one another (a helper
#: searches the same position); survey workers, already one process per core, set it to 1.
search_threads = usable_cores()


def threads_for(budget: Budget) -> int:
    """Searches to run at once on `budget`: one under a node limit (reproducible counts)."""
    return 1 if budget.node_limit else search_threads


def share(budget: Budget, index: int, jobs: int, threads: int) -> Budget:
    """The budget of job `index` of `jobs`, run `threads` at a time in order: an equal share of
    the time left among the rounds of jobs not yet started (with one thread, among the jobs)."""
    return budget.part(math.ceil((jobs - index) / max(1, threads)))


def side_by_side(jobs: Sequence[Callable[[], T]], threads: int, on_done: Callable[[], object] = lambda: None,
                 idle: Callable[[], int] | None = None) -> list[T]:
    """Each job's result, in order, with at most `threads` jobs running at once, started in
    order; `on_done()` runs in the calling thread as each job finishes (a progress bar). A
    thread left with no job to start while others still run calls `idle()` (which helps a
    running search and returns what it searched, 0 when there was none) until all have
    finished. If a job raises or Ctrl-C arrives, the searches still running are stopped and the
    exception is raised once they have returned."""
    if threads <= 1 or len(jobs) <= 1:
        results = []
        for job in jobs:
            results.append(job())
            on_done()
        return results
    with ThreadPoolExecutor(min(threads, len(jobs))) as pool:
        futures = [pool.submit(job) for job in jobs]
        if idle is not None:  # queued after every job, so each starts once no job is left to start
            for _ in range(min(threads, len(jobs)) - 1):
                pool.submit(help_until_done, futures, idle)
        try:
            for future in as_completed(futures):
                future.result()  # a job's exception, raised as soon as it finishes
                on_done()
            return [future.result() for future in futures]
        except BaseException:
            stop_searches(True)
            try:
                for future in futures:
                    future.cancel()
                wait(futures)
            finally:
                stop_searches(False)
            raise


def help_until_done(futures: Sequence[Future], idle: Callable[[], int]) -> None:
    """Calls `idle()` until every future is done, pausing a millisecond whenever it finds no
    search to help (a job may not have begun its search yet)."""
    while not all(future.done() for future in futures):
        if not idle():
            time.sleep(0.001)
