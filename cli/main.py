"""The `winnable` console script (pyproject.toml: cli.main:run). This module imports nothing
but the standard library: the commands, click and the kernels take a moment to import (and
OR-Tools half a second more, once a CP-SAT model runs), and a Ctrl-C meanwhile must end as any
other, not as a traceback."""

from __future__ import annotations

import os
import signal
import sys

INTERRUPTED = 130


def terminated(signum, frame):
    """SIGTERM's handler: the command stops as on Ctrl-C (see `run`)."""
    raise KeyboardInterrupt


def run():
    """The console script: click's handling, but Ctrl-C, from the first import on, exits 130
    with one line and no traceback. `kill` (SIGTERM) is taken as Ctrl-C, so that a survey
    stores the deals it has and stops its workers (killed outright, they went on solving, then
    printed tracebacks)."""
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, terminated)
    if not standard_streams_open():
        sys.exit(2)
    try:
        code = run_command()
        # Done, the output whole: the interpreter's finalisation gives SIGTERM its default action
        # back, and a kill then ended the process by the signal (exit 143), not as documented.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        code = INTERRUPTED
    if code == INTERRUPTED:
        # Everything is stored and closed by now. Leave at once: a CP-SAT solve told to stop
        # after a Ctrl-C can abort the interpreter's finalisation ("terminate called ...").
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(INTERRUPTED)
    sys.exit(code)


def standard_streams_open() -> bool:
    """Whether the output can be written. A standard stream closed at start (`>&-`), or left
    open read-only by a launcher (a pyenv shim leaves its script on descriptor 2), lost the
    output without a word (exit 0), or failed writing an error (exit 1). Each such descriptor
    is pointed at /dev/null, so that no file the command opens (a survey's database) takes it
    over; standard input then reads nothing and errors go nowhere, the exit code still telling."""
    for fd, writing in ((0, False), (1, True), (2, True)):
        if not descriptor_usable(fd, writing):
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            if fd == 1:
                sys.stdout = open(1, "w", closefd=False)
                print("Error: cannot write the output: standard output is closed (>/dev/null discards it)",
                      file=sys.stderr)
                return False
    if sys.stdin is None:
        sys.stdin = open(0, closefd=False)
    if sys.stderr is None:
        sys.stderr = open(2, "w", closefd=False)
    return True


def descriptor_usable(fd: int, writing: bool) -> bool:
    """Whether descriptor `fd` is open for writing (or for reading): always, where the system
    cannot tell."""
    try:
        import fcntl
    except ImportError:  # not on a POSIX system
        return True
    try:
        mode = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
    except OSError:  # closed
        return False
    return mode != (os.O_RDONLY if writing else os.O_WRONLY)


def run_command() -> int:
    """Imports the commands and runs the one the arguments name; its exit code. Bad input or
    usage is shown as its one `Error:` line; Ctrl-C is raised as KeyboardInterrupt."""
    import click

    from puzzles.errors import with_long_words_cut

    from .commands import main

    try:
        code = main.main(standalone_mode=False)
    except click.ClickException as error:
        error.message = with_long_words_cut(error.message)
        error.show()
        return error.exit_code
    except click.Abort:  # click's form of a KeyboardInterrupt
        raise KeyboardInterrupt from None
    return code if isinstance(code, int) else 0
