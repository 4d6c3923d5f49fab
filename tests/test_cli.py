"""The command line for any game: unknown games and files, options of another game, exit codes,
Ctrl-C and closed pipes, finished positions."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from cli.commands import main
from cli.common import MAX_INPUT_BYTES
from puzzles import twaalven
from tests.conftest import memory_limit
from tests.interrupts import seconds_until_interrupted


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_unknown_game_and_missing_file_exit_2():
    unknown = run("solve", "chess", "--seed", "1")
    assert unknown.exit_code == 2 and "unknown game 'chess'" in unknown.output
    missing = run("solve", "twaalven", "no/such/file.txt")
    assert missing.exit_code == 2 and "cannot read no/such/file.txt" in missing.output
    both = run("solve", "twaalven", "x.txt", "--seed", "1")
    assert both.exit_code == 2


@pytest.mark.parametrize("args, option", [
    (("deal", "twaalven", "--seed", "1", "--rows", "6"), "--rows"),
    (("solve", "stapelen", "--seed", "1", "--smaller-hand"), "--smaller-hand"),
    (("analyse", "black-hole", "--seed", "1", "--players", "2"), "--players"),
    (("solve", "twaalven", "--seed", "1", "--maximise", "U"), "--maximise"),
])
def test_an_option_of_another_game_is_refused_with_exit_2(args, option):
    result = run(*args)
    assert result.exit_code == 2
    assert result.output.strip().endswith(f"{option} does not apply to {args[1]}")


@pytest.mark.parametrize("args, named", [
    (("solve", "twaalven", "--seed", "-1"), "'--seed'"),
    (("solve", "twaalven", "--seed", "1", "--time-limit", "abc"), "'--time-limit'"),
    (("deal", "etalage", "--seed", "1", "--players", "7"), "'--players'"),
    (("analyse", "twaalven", "--seed", "1", "--no-such-option"), "'--no-such-option'"),
    (("survey", "twaalven", "--seeds", "1-2"), "'--db'"),
    (("report",), "'DB'"),
    (("no-such-command",), "'no-such-command'"),
    (("--no-such-option",), "'--no-such-option'"),
    (("solve", "twaalven", "--seed", "1", "--memory", "abc"), "'--memory': 'abc' is not a valid integer."),
    (("solve", "twaalven", "--seed", "1_000"), "'--seed': '1_000' is not a valid integer."),
    (("deal", "etalage", "--seed", "1", "--players", "\u0664"), "'--players': '\u0664' is not a valid integer."),
    (("solve", "twaalven", "--seed", "1", "--memory", "0"), "'--memory': 0 is not in the range 1<=x<=1048576"),
    (("survey", "twaalven", "--seeds", "1", "--db", "x", "--memory", "1048576", "--jobs", "1"), "--memory 1048576: more than this machine"),
])
def test_a_usage_error_is_one_line_naming_the_option(args, named):
    """Click's parser errors lose its usage and hint lines: only `Error: ...`, exit 2."""
    result = run(*args)
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    assert named in result.output


def test_a_huge_option_value_is_quoted_by_its_first_40_characters():
    code, out, err = console("solve", "twaalven", "--seed", "9" * 100_000)
    assert (code, out) == (2, "")
    assert err.startswith("Error: Invalid value for '--seed': ") and err.count("\n") == 1 and len(err) < 200, err
    assert f"{'9' * 39}…" in err


def test_console_script_reports_bad_input_on_stderr_without_traceback():
    text = twaalven.format_position(twaalven.deal(7)).replace("KH 8H 7H QS", "KH 8H 7H QH")
    run_ = subprocess.run(
        [sys.executable, "-c", "from cli.main import run; run()", "solve", "twaalven", "-"],
        input=text, capture_output=True, text=True,
    )
    assert run_.returncode == 2
    assert run_.stdout == ""
    assert "duplicate card QH" in run_.stderr and "line 13" in run_.stderr
    assert "Traceback" not in run_.stderr
    assert len(run_.stderr.strip().splitlines()) == 1


def test_help_documents_exit_codes():
    result = run("--help")
    assert "Exit codes" in result.output and "130" in result.output


def test_ctrl_c_during_a_kernel_search_stops_it_at_once():
    """The kernel polls for signals while it searches: SIGINT arrives as KeyboardInterrupt long
    before the search (with a tiny table, minutes of work) would end."""
    seconds = seconds_until_interrupted("from solver._native import Kernel, deal",
                                        "Kernel('twaalven', 1024).solve(deal('twaalven', 20548), 0, [], 0, 600)")
    assert seconds < 10


def console(*args: str, interrupt_after: float | None = None, unread: bool = False):
    """Runs the `winnable` console script in a process of its own: optionally sends it Ctrl-C
    after some seconds, or closes its output pipe before it writes (`unread`, as `| head -0`)."""
    process = subprocess.Popen([sys.executable, "-c", "from cli.main import run; run()", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if unread:
        process.stdout.close()
        process.wait(timeout=60)
        return process.returncode, "", process.stderr.read().decode()
    if interrupt_after is not None:
        time.sleep(interrupt_after)
        process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    return process.returncode, out.decode(), err.decode()


def test_ctrl_c_during_a_cp_sat_solve_stops_it_at_once():
    """CP-SAT runs in a thread of its own (sat_core.checked_solve): SIGINT reaches Python as
    KeyboardInterrupt at once, not when a solve that lasts to its limit of ten minutes ends.
    (A game's own CP-SAT phase is no test of this: how long it lasts is up to CP-SAT's luck.)"""
    seconds = seconds_until_interrupted(
        "from solver.sat_core import checked_solve, new_solver; from tests.interrupts import market_split",
        "checked_solve(new_solver(600, 2), market_split(5, 40))")
    assert seconds < 5


def test_ctrl_c_exits_130_with_one_line():
    """A whole 3-player Etalage deal: minutes of kernel search on any machine, cut short."""
    started = time.perf_counter()
    code, out, err = console("solve", "etalage", "--seed", "1", "--players", "3", "--time-limit", "60",
                             interrupt_after=3)
    assert (code, out, err.strip()) == (130, "", "interrupted")
    assert time.perf_counter() - started < 20


SOLVE = ["solve", "twaalven", "--seed", "1"]


@pytest.mark.parametrize("module, args", [
    ("click", SOLVE), ("solver.registry", SOLVE), ("solver._native", SOLVE),
    ("ortools.sat.python.cp_model", ["solve", "twaalven", "--seed", "7", "--node-limit", "1"]),  # a model runs
])
def test_ctrl_c_while_the_commands_import_exits_130_with_one_line(module, args):
    """The console script's module imports only the standard library, so a Ctrl-C while click
    and the solvers import (OR-Tools only once a model runs) is caught like any other. The
    SIGINT is sent as `module` starts importing, so the test does not depend on the machine's
    speed; a module that is never imported would leave the command to succeed."""
    script = (
        "import os, signal, sys\n"
        "class Interrupting:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name == {module!r}:\n"
        "            os.kill(os.getpid(), signal.SIGINT)\n"
        "sys.meta_path.insert(0, Interrupting())\n"
        "from cli.main import run; run()\n"
    )
    run_ = subprocess.run([sys.executable, "-c", script, *args],
                          capture_output=True, text=True, timeout=60)
    assert (run_.returncode, run_.stdout, run_.stderr.strip()) == (130, "", "interrupted")  # click: a newline first


def test_a_kill_once_the_command_is_done_is_no_error():
    """A SIGTERM in the interpreter's finalisation, after the output is whole: it raised
    KeyboardInterrupt there (a traceback), or, once finalisation gave the signal its default
    action back, ended the process by it (exit 143). The command's exit code stands."""
    script = ("import atexit, os, signal, time\n"
              "atexit.register(lambda: (os.kill(os.getpid(), signal.SIGTERM), time.sleep(0.2)))\n"
              "from cli.main import run; run()\n")
    done = subprocess.run([sys.executable, "-c", script, "games"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "") and "etalage" in done.stdout


@pytest.mark.parametrize("args", [
    ["games"], ["deal", "stapelen", "--seed", "1"], SOLVE, ["solve", "etalage", "--seed", "1", "--values", "5"],
    ["analyse", "stapelen", "--seed", "1", "--node-limit", "1", "--time-limit", "inf"],  # no clock: no model
])
def test_commands_that_run_no_model_do_not_import_or_tools_or_networkx(args):
    """Half a second of imports a command needs only for a CP-SAT model or a reason's graph:
    `deal`, a solve the kernel decides, or a search left open where no model may run (asking
    whether the game has a model must not import it) starts without it."""
    script = ("import sys\nfrom cli.main import run_command\nrun_command()\n"
              "print(sorted(m for m in sys.modules if m.startswith(('ortools', 'networkx', 'pandas'))))")
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_reader_that_closes_the_pipe_early_is_not_an_error():
    assert console("solve", "twaalven", "--seed", "7", unread=True) == (0, "", "")


@pytest.mark.parametrize("redirect, code, error", [
    (">&-", 2, "Error: cannot write the output: standard output is closed (>/dev/null discards it)\n"),
    ("</dev/null >/dev/null 2>&- 3>&-", 2, ""),  # the bad file's error goes nowhere, but not as a bug's exit 1
    ("0<&-", 2, "Error: standard input: 0 columns; Twaalven en veertienen has 13 (one line each)\n"),
])
def test_a_closed_standard_stream_is_bad_usage_not_silence_or_a_bug(tmp_path, redirect, code, error):
    """`winnable games >&-` printed nothing and exited 0; with standard error closed a bad
    file's error failed to print and exited 1 (a bug's code). The streams are opened on
    /dev/null, so that no file opened later takes their descriptors."""
    bad = tmp_path / "bad.txt"
    bad.write_text("x\n")
    command = {">&-": "games", "0<&-": "solve twaalven -"}.get(redirect, f"solve twaalven {bad} --json")
    done = subprocess.run(["bash", "-c", f"'{sys.executable}' -c 'from cli.main import run; run()' {command} {redirect}"],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (code, "", error)


#: Positions without a legal move: The Game won and stuck, Quick & Easy stuck.
FINISHED = [
    ("the-game", "cards: 2-5\nhand-size: 2\nhand 1: -\ndraw: -\npiles: 5 4 3 2\nto-move: 1\nplayed: 0\n", "winnable"),
    ("the-game", "cards: 2-7\nhand-size: 2\nhand 1: 4\ndraw: -\npiles: 5 7 3 2\nto-move: 1\nplayed: 0\n",
     "unwinnable"),
    ("quick-and-easy", "hand 1: -\nhand 2: 5R\ndraw: -\npiles: 10P 1P\nto-move: 2\nplayed: 0\n", "unwinnable"),
]


@pytest.mark.parametrize("game, position, verdict", FINISHED,
                         ids=["the-game won", "the-game stuck", "quick-and-easy stuck"])
def test_analyse_of_a_position_without_moves_gives_solves_verdict(game, position, verdict):
    """analyse, solve and explain agree on a finished game: The Game and Quick & Easy's analyse
    said 'unknown' with 'no legal moves' where the others' gave solve's verdict."""
    analysed = run("analyse", game, "-", input=position)
    assert analysed.exit_code == 0
    assert analysed.output.splitlines() == [f"verdict: {verdict}", "no legal moves",
                                            "stats: 0 nodes, 0.000000 s, method rules"]
    payload = json.loads(run("analyse", game, "-", "--json", input=position).output)
    assert (payload["verdict"], payload["moves"], payload["stats"]["method"]) == (verdict, [], "rules")
    for command in ("solve", "explain"):
        assert json.loads(run(command, game, "-", "--json", input=position).output)["verdict"] == verdict
        assert f"verdict: {verdict}\n" in run(command, game, "-", input=position).output


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [
    ("solve", "twaalven", "--seed", "1"), ("solve", "twaalven", "--seed", "1", "--json"), ("deal", "twaalven", "--seed", "1"),
])
def test_output_to_a_full_disk_is_one_error_line(args):
    """/dev/full refuses every write with ENOSPC, as a full disk does."""
    with open("/dev/full", "w") as full:
        run_ = subprocess.run([sys.executable, "-c", "from cli.main import run; run()", *args],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert (run_.returncode, run_.stderr) == (2, "Error: cannot write the output: No space left on device\n")


def test_a_file_larger_than_the_limit_is_refused_in_one_line(tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * (MAX_INPUT_BYTES + 1))
    result = run("solve", "twaalven", str(big))
    assert (result.exit_code, result.output) == (2, f"Error: {big}: more than 1 MiB; a deal or position is a few KB\n")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
@pytest.mark.parametrize("source", ["/dev/zero", "-"])
def test_an_endless_input_is_refused_without_reading_it_whole(source):
    """/dev/zero never ends: read whole, it would fill the memory (3 GB here) first."""
    with open("/dev/zero", "rb") as zeros:
        run_ = subprocess.run([sys.executable, "-c", "from cli.main import run; run()", "deal", "twaalven", source],
                              stdin=zeros, capture_output=True, text=True, timeout=60,
                              preexec_fn=memory_limit(3 * 2**30))
    where = "standard input" if source == "-" else source
    assert (run_.returncode, run_.stderr) == (2, f"Error: {where}: more than 1 MiB; a deal or position is a few KB\n")


def test_a_long_bad_token_is_quoted_by_its_first_40_characters():
    token = "x" * 500_000
    card = run("deal", "twaalven", "-", input=token)
    assert card.exit_code == 2
    assert card.output.startswith(f"Error: standard input: line 1: '{token[:40]}…' is not a card")
    game = run("solve", token, "--seed", "1")
    assert game.exit_code == 2 and game.output.startswith(f"Error: unknown game '{token[:40]}…'; known games:")


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="no /proc here")
def test_a_file_that_cannot_be_replaced_is_named_with_the_true_reason():
    """A page is written beside its path first: in /proc no new file can be made, though
    /proc/version exists (it said 'No such file or directory' of /proc/version)."""
    result = run("solve", "twaalven", "--seed", "1", "--html", "/proc/version")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == ("Error: cannot write /proc/version: cannot make a new file in /proc "
                                              "(No such file or directory)")


@pytest.mark.parametrize("option", ["--html", "--out"])
def test_a_device_or_pipe_is_not_replaced_by_the_file_written(tmp_path, option):
    """A page or picture is written beside its path and moved onto it: onto /dev/null, as root,
    that replaced the device. A named pipe stands in for the device here."""
    pipe = tmp_path / "pipe.svg"
    os.mkfifo(pipe)
    command = "show" if option == "--out" else "solve"
    result = run(command, "twaalven", "--seed", "1", option, str(pipe))
    assert (result.exit_code, result.output) == (2, f"Error: {pipe} is not a regular file; give a file name\n")
    assert not pipe.is_file()


@pytest.mark.parametrize("command", ["solve", "explain", "analyse"])
@pytest.mark.parametrize("where", ["folder", "missing"])
def test_a_bad_html_path_is_refused_before_the_search(tmp_path, monkeypatch, command, where):
    """The page's path was first tried once the search was over: a whole Etalage deal searched
    for an hour, then 'Error: ... is a directory'."""
    from solver.registry import GAMES

    def no_search(*args, **kwargs):
        raise AssertionError("searched before the --html path was checked")

    monkeypatch.setattr(GAMES["twaalven"].engine, command, no_search)
    page = tmp_path if where == "folder" else tmp_path / "missing" / "line.html"
    result = run(command, "twaalven", "--seed", "1", "--html", str(page))
    expected = (f"Error: {page} is a directory; give a file name\n" if where == "folder" else
                f"Error: cannot write {page}: cannot make a new file in {page.parent} (No such file or directory)\n")
    assert (result.exit_code, result.output) == (2, expected)


def on_a_terminal(*args) -> tuple[str, str]:
    """Runs `winnable ARGS` with stderr on an 80-column pseudo-terminal: (stdout, what the
    terminal showed)."""
    import fcntl
    import pty
    import struct
    import termios

    terminal, stderr = pty.openpty()
    fcntl.ioctl(stderr, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # tqdm draws no bar 0 wide
    done = subprocess.run([sys.executable, "-c", "from cli.main import run; run()", *args], stdout=subprocess.PIPE,
                          stderr=stderr, text=True, timeout=120)
    os.close(stderr)
    shown = b""
    while True:
        try:
            chunk = os.read(terminal, 1 << 16)
        except OSError:  # the terminal's other side is closed and read
            break
        if not chunk:
            break
        shown += chunk
    os.close(terminal)
    return done.stdout, shown.decode(errors="replace")


def test_a_long_search_shows_a_bar_of_its_time_on_a_terminal_and_a_quick_one_none():
    stdout, shown = on_a_terminal("solve", "etalage", "--seed", "1", "--players", "3", "--time-limit", "1.6")
    assert "searching: 1/2 s |" in shown and "verdict: unknown" in stdout and "searching" not in stdout
    stdout, shown = on_a_terminal("solve", "twaalven", "--seed", "1")
    assert "verdict: winnable" in stdout and shown.strip() == ""
