"""Writing files so that a reader never sees one half-written."""

from __future__ import annotations

import os
import secrets
import stat
from contextlib import contextmanager
from typing import IO, Iterator


def new_file_folder(path: str) -> str:
    """The folder where `replacing` makes the new file for `path`: its own, or for a symbolic
    link its target's ('.' for a bare name)."""
    return os.path.dirname(os.path.realpath(path) if os.path.islink(path) else path) or "."


@contextmanager
def replacing(path: str, mode: str = "w") -> Iterator[IO]:
    """`mode` is "w" (text, UTF-8) or "wb". Opens a new file beside `path` for writing; when the
    block succeeds it is synced and put in place with one os.replace, when it fails it is
    removed. `path` is always whole: the old file or the new one. A symbolic link is written
    through (its target is replaced, the link kept), and a file replaced keeps its permissions.
    The new file's name does not grow from `path`'s, so that any name a file may have works."""
    target = os.path.realpath(path)
    temporary = os.path.join(new_file_folder(path), f".winnable-{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        with open(temporary, mode.replace("w", "x"), **({} if "b" in mode else {"encoding": "utf-8"})) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if os.path.exists(target):
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
