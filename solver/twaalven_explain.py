"""Why a Twaalven en veertienen deal or position cannot be won (stub: to be written)."""

from __future__ import annotations

from puzzles.twaalven import Position


def short_reason(position: Position) -> str | None:
    return None
