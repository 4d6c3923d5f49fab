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
