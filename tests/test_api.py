"""The Python API's page (docs/api.md) runs as it is written: its examples are doctests."""

import doctest
import pathlib

PAGE = pathlib.Path(__file__).resolve().parents[1] / "docs" / "api.md"


def test_the_api_page_examples_give_the_answers_they_show():
    failures, tried = doctest.testfile(str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried > 20 and failures == 0
