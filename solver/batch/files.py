"""Writing files so that a reader never sees one half-written."""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager
from typing import IO, Iterator


@contextmanager
def replacing(path: str, mode: str = "w") -> Iterator[IO]:
    """`mode` is "w" (text, UTF-8) or "wb". Opens a new file beside `path` for writing; when the block succeeds it is synced and put
    in place with one os.replace, when it fails it is removed. `path` is always whole: the old
    file or the new one."""
    temporary = f"{path}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
    try:
        with open(temporary, mode.replace("w", "x"), **({} if "b" in mode else {"encoding": "utf-8"})) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
