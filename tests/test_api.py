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

