"""CP-SAT plumbing any game's model can share: a configured solver, a solve that refuses an
invalid model and leaves Ctrl-C to Python, and unsat cores over per-item assumption literals,
shrunk greedily."""

from __future__ import annotations

import threading
import time
from typing import Hashable

from ortools.sat.python import cp_model

from .result import UNKNOWN, UNWINNABLE, WINNABLE

#: Seconds between this thread's looks for a Ctrl-C while CP-SAT solves, and the seconds it
#: then gives CP-SAT to stop by itself before telling it to.
SIGNAL_SLICE = 0.1
STOP_GRACE = 1.0


def new_solver(time_limit: float | None, workers: int, **parameters) -> cp_model.CpSolver:
    """A solver with `workers` threads, at most `time_limit` seconds (None: no limit) and any
    other CP-SAT `parameters` by name."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.catch_sigint_signal = False  # Ctrl-C is Python's (see checked_solve)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(time_limit, 0.0)
    for name, value in parameters.items():
        setattr(solver.parameters, name, value)
    return solver


def checked_solve(solver: cp_model.CpSolver, model: cp_model.CpModel) -> int:
    """The solve status; AssertionError (a bug in the model, not in the input) if invalid.

    The solve runs in a thread of its own while this one waits in short slices (the signal
    may reach any thread, and Python runs its handler in this one between slices): a Ctrl-C
    then stops the search and goes on as KeyboardInterrupt, instead of CP-SAT taking it for
    the end of its time limit. A slice ends as soon as the solve does."""
    answer: list[int] = []
    worker = threading.Thread(target=lambda: answer.append(solver.solve(model)), daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(SIGNAL_SLICE)
    except KeyboardInterrupt:
        worker.join(STOP_GRACE)  # CP-SAT stops by itself on the signal as a rule
        if worker.is_alive():
            solver.stop_search()
            worker.join()
        raise
    status = answer[0]
    if status == cp_model.MODEL_INVALID:
        raise AssertionError(f"invalid CP-SAT model: {model.validate()}")
    return status


def verdict(status: int) -> str:
    """What a solve status proves of a win-or-not model: a solution wins, infeasible loses."""
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return WINNABLE
    return UNWINNABLE if status == cp_model.INFEASIBLE else UNKNOWN


def assume(model: cp_model.CpModel, literal: dict, items: list, time_limit: float | None,
           **parameters) -> tuple[int, list]:
    """Solves with `literal[item]` assumed for each of `items`: the status and, when
    infeasible, the items of the core CP-SAT reports. One worker: with more, CP-SAT reports
    every assumption as the core."""
    model.clear_assumptions()
    model.add_assumptions([literal[item] for item in items])
    solver = new_solver(time_limit, 1, **parameters)
    status = checked_solve(solver, model)
    if status != cp_model.INFEASIBLE:
        return status, []
    item_of = {literal[item].index: item for item in items}
    return status, [item_of[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in item_of]


def shrink_core(model: cp_model.CpModel, literal: dict[Hashable, cp_model.IntVar], items: list,
                time_limit: float | None, **parameters) -> tuple[list, bool] | None:
    """A set of `items` whose literals cannot all hold, and whether it is minimal (the greedy
    shrinking finished: dropping any one item makes the rest feasible); None when all of them
    can hold or the time runs out first. The order of `items` is kept."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit

    def left() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.perf_counter())

    status, reported = assume(model, literal, items, left(), **parameters)
    if status != cp_model.INFEASIBLE:
        return None
    core = [item for item in items if item in reported]
    # Every set kept from here on is proved infeasible with exactly its own assumptions.
    if len(core) < len(items) and assume(model, literal, core, left(), **parameters)[0] != cp_model.INFEASIBLE:
        core = list(items)
    minimal = True
    for item in list(core):
        rest = [i for i in core if i != item]
        status = assume(model, literal, rest, left(), **parameters)[0] if left() != 0.0 else cp_model.UNKNOWN
        if status == cp_model.INFEASIBLE:
            core = rest
        elif status not in (cp_model.FEASIBLE, cp_model.OPTIMAL):
            minimal = False
    return core, minimal
