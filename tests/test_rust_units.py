"""Runs the Rust crate's own unit tests, so the one test command covers both languages."""

import pathlib
import shutil
import subprocess

import pytest

CRATE = pathlib.Path(__file__).resolve().parents[1] / "solver" / "native" / "Cargo.toml"


@pytest.mark.skipif(shutil.which("cargo") is None, reason="no Rust toolchain")
def test_cargo_unit_tests_pass():
    run = subprocess.run(
        ["cargo", "test", "--release", "--quiet", "--manifest-path", str(CRATE)],
        capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "test result: ok" in run.stdout
