"""Runs the Rust crate's own unit tests, so the one test command covers both languages, and checks
the bindings' arguments shared by every kernel."""

import pathlib
import shutil
import subprocess

import pytest

from solver import _native

CRATE = pathlib.Path(__file__).resolve().parents[1] / "solver" / "native" / "Cargo.toml"


@pytest.mark.skipif(shutil.which("cargo") is None, reason="no Rust toolchain")
def test_cargo_unit_tests_pass():
    run = subprocess.run(
        ["cargo", "test", "--release", "--quiet", "--manifest-path", str(CRATE)],
        capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "test result: ok" in run.stdout


@pytest.mark.parametrize(
    "make",
    [
        lambda entries: _native.Kernel("twaalven", entries),
        _native.TheGameKernel,
        _native.SirTommyKernel,
        _native.EtalageKernel,
    ],
    ids=["columns", "the-game", "sir-tommy", "etalage"],
)
def test_a_table_beyond_memory_is_a_value_error(make):
    """Tables the machine cannot hold aborted the process (or, past 2^63 entries, made an
    empty table whose first probe panicked); they are refused."""
    with pytest.raises(ValueError, match="is too large|does not fit"):  # Etalage's has 3 entries a slot
        make(2**63 + 1)
    with pytest.raises(ValueError, match="does not fit in this machine's memory"):
        make(2**58)


def test_shuffled_refuses_more_items_than_it_numbers():
    """`n` was cut to 32 bits: 2^40 items shuffled none."""
    with pytest.raises(ValueError, match="at most 4294967295"):
        _native.shuffled(1, 2**40)
    assert sorted(_native.shuffled(7, 52)) == list(range(52))
