"""Surveys: solve every deal of a seed range with a pool of workers and keep one row per deal.

Rows live in SQLite (WAL mode), UNIQUE(game, variant, seed): a survey asks the store which seeds
of its range are done and solves only the others, so it resumes after Ctrl-C, a crash or kill -9
without redoing or duplicating a stored deal. Rows are committed in batched transactions (at
least every COMMIT_EVERY seconds), so an interrupt loses at most the deals still in flight (a
task's deals: CHUNK_SECONDS of their time limit, or one deal), and never leaves a half-written
row. A survey claims the seeds it hands out (table `claims`), so that two surveys run at once on
one database share the range instead of solving the same seeds side by side. The workers are
local processes or, with an address, a Dask distributed cluster; the functions they run are
plain top-level functions (spawn-safe).
"""

from __future__ import annotations

import ctypes
import functools
import json
import math
import multiprocessing
import os
import queue
import re
import secrets
import signal
import socket
import sqlite3
import threading
import time
import urllib.parse
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from typing import Callable, Iterable, Iterator, NamedTuple

from puzzles.errors import WinnableError, quoted

from .. import parallel
from ..result import PLAYER_KEYS, UNKNOWN, UNWINNABLE, WINNABLE, Budget

#: SQLite integers are signed 64-bit, so stored seeds stop at 2^63 - 1.
MAX_SEED = 2**63 - 1
#: 2 added the column `players`, 3 `score_bound`; an older database gets them when a survey opens it.
SCHEMA_VERSION = 3
#: prctl's option asking for a signal when the parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
COMMIT_EVERY = 0.25  # seconds between transactions while results stream in
CHUNK = 64  # deals per task handed to a worker, at most
#: A task's rows reach the store only when the whole task ends (Ctrl-C, a crash or kill -9 loses
#: the deals of the tasks in flight, finished ones too), so a task holds at most as many deals as
#: take this many seconds of their time limit: with 30 s a deal, one.
CHUNK_SECONDS = 1.0
#: Tasks handed to the workers and not yet done, at most, per worker: Pool.imap would read every
#: task of a range at once, and a range may hold more seeds than memory.
WINDOW = 64
#: ... and at first: the window doubles with each task that ends while the tasks so far have
#: taken less than QUICK_TASK seconds of a worker on average. Quick tasks need many in flight to
#: keep the workers busy (two a worker took a Twaalven survey 1.8 times as long), but a survey
#: claims its seeds as it hands them out (see `Claims`), and a survey of slow deals far ahead of
#: its workers left another nothing to do.
FIRST_WINDOW = 2
QUICK_TASK = 0.05
CONNECT_TIMEOUT = "10s"  # to reach a Dask scheduler
#: Seconds a store waits for another connection's lock on the database before it gives up.
LOCK_SECONDS = 30
#: ... in waits of this many seconds (opening it, storing rows): Python runs a signal's handler
#: only between SQLite's calls, and Ctrl-C during one wait of 30 s went unheard until it ended.
LOCK_STEP = 0.1

SCHEMA = """
CREATE TABLE IF NOT EXISTS deals (
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,  -- '' for the game's standard rules, else e.g. 'players=3 expert'
    seed     INTEGER NOT NULL,
    verdict  TEXT    NOT NULL,  -- winnable, unwinnable or unknown
    starters TEXT,              -- winning starters, comma-separated ('' if none); a starter
                                -- the budget left undecided follows with a '?' ('T,F?')
    score    INTEGER,           -- for games whose solve reports a score; NULL otherwise
    nodes    INTEGER NOT NULL,  -- search nodes
    seconds  REAL    NOT NULL,  -- worker time to deal and solve (both starters, line replayed)
    method   TEXT    NOT NULL,  -- what decided it: dfs, invariant, cp-sat, ...
    solution TEXT    NOT NULL,  -- the winning line, one move per line in the game's notation
    players  TEXT,              -- JSON: each player's values, for games that value every player
                                -- (Etalage: guaranteed and cooperative best, each with its bound)
    score_bound INTEGER,        -- an optimisation's proven bound on its score (no line does
                                -- better): the score is optimal where they are equal; NULL otherwise
    UNIQUE (game, variant, seed)
);
"""


CLAIMS = """
CREATE TABLE IF NOT EXISTS claims (
    game    TEXT    NOT NULL,
    variant TEXT    NOT NULL,
    seed    INTEGER NOT NULL,
    owner   TEXT    NOT NULL,  -- the survey solving it: 'HOST pid PID TOKEN'
    until   REAL    NOT NULL,  -- Unix time at which the claim lapses unless renewed
    PRIMARY KEY (game, variant, seed)
);
"""
CLAIM_COLUMNS = ("game", "variant", "seed", "owner", "until")
#: A claim lapses this many seconds after it was made or last renewed: a survey that ended
#: without releasing its claims (its host went down) holds up no other for longer.
CLAIM_SECONDS = 600.0
#: A retry survey's marks on the seeds it retried are kept this long (see `Store.add`).
MARK_SECONDS = 7 * 24 * 3600.0
#: A survey's later pass over the seeds it left to others asks for them this many chunks at a time.
LATER_PASS_BLOCK = 4096
#: A running survey renews its claims this often (from a thread: one deal may take hours), each
#: time waiting at most RENEW_WAIT seconds for another connection's lock.
RENEW_SECONDS = 60.0
RENEW_WAIT = 1.0

#: SQL: a row's starters name none that the budget left undecided (see `stored_starters`).
NO_UNDECIDED_STARTER = "instr(coalesce({row}.starters, ''), '?') = 0"

#: The SQL types of the columns added since schema version 1.
COLUMN_TYPES = {"players": "TEXT", "score_bound": "INTEGER"}


def deal_name(game: str, variant: str, seed: int) -> str:
    """A stored deal as an error names it: 'the-game (players=3) seed 2', its variant given,
    since each variant has a seed 2 of its own."""
    return f"{game} ({variant}) seed {seed}" if variant else f"{game} seed {seed}"


class StoreError(WinnableError):
    """A results database that cannot be used: not SQLite, a different schema, unreadable."""


class Row(NamedTuple):
    """One solved deal, as stored (the columns of the `deals` table, in order)."""

    game: str
    variant: str
    seed: int
    verdict: str
    starters: str
    score: int | None
    nodes: int
    seconds: float
    method: str
    solution: str
    players: str | None = None  # JSON, see SCHEMA
    score_bound: int | None = None


#: The columns of each schema version, in order: 1 had no `players`, 2 no `score_bound`.
COLUMNS_OF_VERSION = {1: Row._fields[:-2], 2: Row._fields[:-1], SCHEMA_VERSION: Row._fields}


def well_formed(players) -> bool:
    """Whether `players` (a row's JSON, read) is a list of each player's PLAYER_KEYS, numbers
    (cooperative ones or null); a row edited by hand may hold anything."""
    def number(value, may_be_null=False):
        return (value is None and may_be_null) or (isinstance(value, int) and not isinstance(value, bool))

    return isinstance(players, list) and all(
        isinstance(p, dict) and set(PLAYER_KEYS) <= p.keys() and all(number(p[key]) for key in PLAYER_KEYS[:3])
        and all(number(p[key], True) for key in PLAYER_KEYS[3:]) for p in players)


def within(new: tuple, old: tuple) -> bool:
    """Whether the interval between new's two ends (a value found and its proven bound, in
    either order) lies within old's; anything lies within an interval that is not known. Of
    an old value known without its bound (a score stored before schema version 3), new's
    value must be no worse: between new's bound and it (the optimum lies between them)."""
    value, bound = old
    if value is None:
        return True
    if None in new:
        return False
    if bound is None:
        return min(value, new[1]) <= new[0] <= max(value, new[1])
    return min(old) <= min(new) and max(new) <= max(old)


def proves_no_less(verdict, score, score_bound, players, old_score, old_bound, old_players) -> bool:
    """Whether a deal's new row proves at least what its stored `unknown` row did, so that it
    may replace it: it is decided, or none of its proven intervals (the score and its bound,
    each player's guarantee and cooperative best) is wider. A retry under another budget may
    prove less than the first solve, and a stored proof is not to be lost. (An SQL function of
    `Store.add`: it does not raise, and an old row it cannot read is replaced.)"""
    if verdict != UNKNOWN:
        return True
    try:
        if not within((score, score_bound), (old_score, old_bound)):
            return False
        if old_players is None:
            return True
        new_values, old_values = json.loads(players), json.loads(old_players)
        return len(new_values) == len(old_values) and all(
            within((new[value], new[bound]), (old[value], old[bound]))
            for new, old in zip(new_values, old_values)
            for value, bound in (("guaranteed", "guaranteed_bound"), ("cooperative_best", "cooperative_bound")))
    except (TypeError, ValueError, KeyError):
        return True


def found_better(score, score_bound, old_score) -> bool:
    """Whether a stored score is better than a new row's, which its proven bound orients (a
    bound below the score: fewest cards left; above it: most cards played). A retry may decide
    a deal with a worse line than the stored one found: the row keeps that line. (An SQL
    function of `Store.add`, as `proves_no_less` is.)"""
    if None in (score, score_bound, old_score) or score == score_bound:
        return False
    return old_score < score if score_bound < score else old_score > score


#: 'N' or 'FIRST-LAST' in ASCII digits (as puzzles.text.DECIMAL): int() also took '1_000' and
#: other scripts' digits.
SEED_RANGE = re.compile(r"\s*(?P<first>[0-9]+)\s*(?:-\s*(?P<last>[0-9]+)\s*)?")


def seed_range(text: str, highest: int = MAX_SEED) -> range:
    """Seeds from 'N' or 'FIRST-LAST' (inclusive), at most `highest` (a stored seed's limit
    unless the seeds are not stored); WinnableError for anything else."""
    match = SEED_RANGE.fullmatch(text)
    if match is None:
        raise WinnableError(f"{quoted(text)} is not a seed range like 1-1000 (or a single seed)")
    low = int(match["first"])
    high = int(match["last"] or match["first"])
    if not 0 <= low <= high <= highest:
        if low > high:
            raise WinnableError(f"seed range {quoted(text)} is empty: the first seed is above the last")
        stored = " (a survey stores them as SQLite's signed 64-bit integers)" if highest == MAX_SEED else ""
        raise WinnableError(f"seed range {quoted(text)}: seeds must be between 0 and {highest}{stored}")
    return range(low, high + 1)


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a share `successes / n`."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    low = 0.0 if successes == 0 else (centre - spread) / scale  # exact ends, free of rounding
    high = 1.0 if successes == n else (centre + spread) / scale
    return low, high


@dataclass
class Summary:
    """Verdict counts for one game and variant, with the winnable share and its interval.

    The interval counts `unknown` deals both ways: its low end treats them as unwinnable, its
    high end as winnable, so it holds whatever their true verdicts are.
    """

    game: str
    variant: str
    deals: int
    verdicts: dict[str, int]

    @property
    def share(self) -> float | None:
        return self.verdicts[WINNABLE] / self.deals if self.deals else None

    @property
    def interval(self) -> tuple[float, float]:
        low, _ = wilson(self.verdicts[WINNABLE], self.deals)
        _, high = wilson(self.verdicts[WINNABLE] + self.verdicts[UNKNOWN], self.deals)
        return low, high

    def to_json(self) -> dict:
        low, high = self.interval
        return {
            "game": self.game,
            "variant": self.variant,
            "deals": self.deals,
            "verdicts": dict(self.verdicts),
            "winnable_share": self.share,
            "wilson_low": low,
            "wilson_high": high,
        }


def locked(error: BaseException) -> bool:
    """Whether `error` is SQLite's "database is locked": another connection holds the lock."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.OperationalError) and code == sqlite3.SQLITE_BUSY


class Store:
    """The SQLite results database. `read_only` opens an existing one without changing it.

    A database that is refused (not ours, another schema version, one we cannot write) is left
    as it was, byte for byte: it is checked before anything is written to it. Opened read-only
    while no survey writes to it (it has no -wal file), it is read as a file that does not
    change, so that reading leaves no -wal and -shm files beside it and works where nothing can
    be written; during a survey it is read through the survey's write-ahead log."""

    def __init__(self, path: str, read_only: bool = False):
        self.path = path
        if not path:
            raise StoreError("no file name given for the results database")
        if os.path.isdir(path):
            raise StoreError(f"{path}: a directory, not a results database")
        if read_only and not os.path.exists(path):
            raise StoreError(f"{path}: no such results database")
        if os.path.exists(path) and not os.path.isfile(path):  # /dev/null, a pipe: SQLite said "disk I/O error"
            raise StoreError(f"{path}: not a regular file, so not a results database")
        if read_only and not os.access(path, os.R_OK):
            raise StoreError(f"{path}: cannot read it")
        if read_only:
            self._check_log_readable()
        else:
            self._check_writable()
        # A URI, so that the path is quoted ('#', '?' and '%' are a file name's own) and absolute
        # (a file named ':memory:' is a file).
        where = urllib.parse.quote(os.path.abspath(path), errors="surrogateescape")
        mode = "rwc" if not read_only else "ro" if os.path.exists(f"{path}-wal") else "ro&immutable=1"
        self.uri = f"file://{where}?mode={mode}"
        try:
            self.db = sqlite3.connect(self.uri, uri=True, timeout=LOCK_SECONDS)
        except sqlite3.Error as error:
            raise StoreError(f"{path}: cannot open it ({error})") from None
        try:
            self._open(read_only)
        except BaseException as error:
            self.db.close()
            if isinstance(error, sqlite3.DatabaseError):
                raise StoreError(f"{path}: not a results database ({error})") from None
            raise

    def _check_writable(self) -> None:
        """StoreError unless a survey can write the database and its -wal and -shm files beside it."""
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(folder):
            what = "not a directory" if os.path.exists(folder) else "no such directory"
            raise StoreError(f"{self.path}: {what}: {folder}")
        if os.path.exists(self.path) and not os.access(self.path, os.R_OK | os.W_OK):
            raise StoreError(f"{self.path}: cannot write to it (read-only)")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise StoreError(f"{self.path}: cannot write in its directory {folder} (a survey keeps a log beside it)")

    def _check_log_readable(self) -> None:
        """StoreError if a survey's write-ahead log lies beside the database without its index
        (-shm), which SQLite must make before it can read the log, where nothing can be written
        (SQLite would only say "unable to open database file")."""
        folder, name = os.path.split(os.path.abspath(self.path))
        log, index = f"{self.path}-wal", f"{self.path}-shm"
        if os.path.exists(log) and not os.path.exists(index) and not os.access(folder, os.W_OK | os.X_OK):
            raise StoreError(f"{self.path}: its write-ahead log {name}-wal has no index {name}-shm beside it, "
                             f"and SQLite cannot make one in the read-only directory {folder}; copy both files "
                             "to a writable directory and read the copy")

    def _open(self, read_only: bool) -> None:
        """Checks the schema (writing nothing) and, on a database to be written, creates it or
        adds the columns newer than its version (every row kept, their new values unknown:
        NULL). It is read and written in one transaction, under the write lock when it is to be
        written: another survey may be creating or upgrading it at the same moment (a column
        added twice is an error, and a version read before an upgrade does not match the
        columns read after it)."""
        try:
            self._waiting(lambda: self.db.execute("BEGIN" if read_only else "BEGIN IMMEDIATE"))
        except sqlite3.OperationalError as error:  # another connection held the lock past the timeout
            raise StoreError(f"{self.path}: cannot open it ({error})") from None
        try:
            columns = self._check(read_only)
            self._waiting(self.db.commit)  # a reader of a copy not in WAL mode holds it up
        except BaseException as error:
            self.db.rollback()
            if locked(error):  # not "not a results database", as __init__ would say
                raise StoreError(f"{self.path}: cannot open it ({error})") from None
            raise
        #: an older database read as it is lacks the newer columns, read as NULL
        self.has_players, self.has_score_bound = "players" in columns, "score_bound" in columns
        self.columns = ", ".join(name if name in columns else "NULL" for name in Row._fields)
        if not read_only:
            try:  # kept in the file, but a copy may have lost it; a reader of a copy holds it up
                self._waiting(lambda: self.db.execute("PRAGMA journal_mode=WAL"))
            except sqlite3.OperationalError as error:
                raise StoreError(f"{self.path}: cannot open it ({error})") from None
            self.db.execute("PRAGMA synchronous=NORMAL")  # in WAL mode a crash still keeps every commit

    def _waiting(self, action: Callable[[], object]) -> None:
        """Runs `action` (its SQLite work), waiting up to LOCK_SECONDS for another connection's
        lock in steps of LOCK_STEP, so that Ctrl-C is heard meanwhile; past them, SQLite's
        "database is locked"."""
        deadline = time.monotonic() + LOCK_SECONDS
        self.db.execute(f"PRAGMA busy_timeout = {int(LOCK_STEP * 1000)}")
        try:
            while True:
                try:
                    action()
                    return
                except sqlite3.OperationalError as error:
                    if not locked(error) or time.monotonic() > deadline:
                        raise
        finally:
            self.db.execute(f"PRAGMA busy_timeout = {LOCK_SECONDS * 1000}")

    def _check(self, read_only: bool) -> tuple[str, ...]:
        """`_open`'s work within its transaction; returns the columns of the table deals."""
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if version == 0 and tables:
            raise StoreError(f"{self.path}: an SQLite database, but not a winnable results database")
        if version == 0 and read_only:
            raise StoreError(f"{self.path}: an empty database: no survey has stored results in it")
        if version == 0:
            self.db.execute(SCHEMA)
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            version = SCHEMA_VERSION
        if version not in COLUMNS_OF_VERSION:
            raise StoreError(f"{self.path}: schema version {version}; this winnable reads versions "
                             f"{', '.join(map(str, COLUMNS_OF_VERSION))}")
        expected = COLUMNS_OF_VERSION[version]
        columns = tuple(name for _, name, *_ in self.db.execute("PRAGMA table_info(deals)"))
        if columns != expected:
            raise StoreError(f"{self.path}: not a results database (no table deals with the columns "
                             f"{', '.join(expected)})")
        if read_only:
            return columns
        claims = tuple(name for _, name, *_ in self.db.execute("PRAGMA table_info(claims)"))
        if claims and claims != CLAIM_COLUMNS:
            raise StoreError(f"{self.path}: not a results database (its table claims has the columns "
                             f"{', '.join(claims)}, not {', '.join(CLAIM_COLUMNS)})")
        self.db.execute(CLAIMS)
        if columns == Row._fields:
            return columns
        for name in Row._fields[len(columns):]:
            self.db.execute(f"ALTER TABLE deals ADD COLUMN {name} {COLUMN_TYPES[name]}")
        self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return Row._fields

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def add(self, rows: list[Row], owner: str | None = None, retried: bool = False) -> None:
        """Stores rows in one transaction, and ends `owner`'s claims on their seeds in it (see
        `Claims`; `retried`: marks them retried now instead, see `claim`). A seed already stored
        keeps its first row, unless
        that row is `unknown` and the new one proves no less (a retry with a bigger budget
        replaces it; see `proves_no_less`), or it left a starter undecided and the new one
        decides every starter; and then it keeps its score and line where they are
        better (`found_better`). The columns are named: a newer winnable may add columns to
        the database while this survey runs, and its rows then leave them NULL."""
        def update(name: str) -> str:
            if name not in ("score", "solution"):
                return f"{name} = excluded.{name}"
            return (f"{name} = CASE WHEN found_better(excluded.score, excluded.score_bound, deals.score) "
                    f"THEN deals.{name} ELSE excluded.{name} END")

        def insert() -> None:  # one transaction: retried whole while another connection holds the lock
            with self.db:
                self.db.executemany(
                    f"INSERT INTO deals ({', '.join(Row._fields)}) VALUES ({', '.join('?' * len(Row._fields))}) "
                    f"ON CONFLICT (game, variant, seed) DO UPDATE SET "
                    f"{', '.join(update(name) for name in Row._fields[3:])} "
                    f"WHERE (deals.verdict = '{UNKNOWN}' AND proves_no_less(excluded.verdict, excluded.score, "
                    "excluded.score_bound, excluded.players, deals.score, deals.score_bound, deals.players)) "
                    f"OR (NOT {NO_UNDECIDED_STARTER.format(row='deals')} AND excluded.verdict != '{UNKNOWN}' "
                    f"AND {NO_UNDECIDED_STARTER.format(row='excluded')})",
                    rows,
                )
                if owner is not None:
                    where = "WHERE game = ? AND variant = ? AND seed = ? AND owner = ?"
                    keys = [(row.game, row.variant, row.seed, owner) for row in rows]
                    if retried:  # the time, negated: a mark that other retry surveys under way read
                        marked = -time.time()
                        self.db.executemany(f"UPDATE claims SET until = ? {where}", [(marked, *key) for key in keys])
                    else:
                        self.db.executemany(f"DELETE FROM claims {where}", keys)

        if rows:
            self.db.create_function("proves_no_less", 7, proves_no_less, deterministic=True)
            self.db.create_function("found_better", 3, found_better, deterministic=True)
            self._waiting(insert)

    def claim(self, game: str, variant: str, seeds: list[int], owner: str, retry_unknown: bool = False,
              skipped_before: bool = False, since: float = math.inf) -> list[int]:
        """The seeds of `seeds` (ascending) that are neither stored (see `done`) nor claimed by
        another survey that may still be running, now claimed by `owner`, in one transaction.
        A seed another retry survey has retried since `since` (the time this survey began; see
        `add`) counts as stored: unknown again, it was retried twice.

        With `skipped_before`, `seeds` are seeds this survey left to others earlier: it takes
        those whose claim was given up (the survey holding it was interrupted or is gone) and
        those never stored, but not those another survey stored since (with `retry_unknown`, a
        row stored since may be unknown still: solved again, it would only be solved twice)."""
        free: list[int] = []

        def take() -> None:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                now = time.time()
                gone = functools.cache(ended)  # a block may hold thousands of one owner's claims
                held, given_up, retried = set(), set(), set()
                for seed, holder, until in self.db.execute(
                        "SELECT seed, owner, until FROM claims WHERE game = ? AND variant = ? AND seed BETWEEN ? AND ?",
                        (game, variant, seeds[0], seeds[-1])):
                    if (marked := mark_time(until, now)) is not None:
                        if marked >= since:
                            retried.add(seed)
                    elif live(until, now) and holder != owner and not gone(holder):
                        held.add(seed)
                    else:
                        given_up.add(seed)
                window = range(seeds[0], seeds[-1] + 1)
                stored = self.done(game, variant, window, retry_unknown) | retried
                if skipped_before:  # not claimed any more: stored by its survey, or a hole never stored
                    unclaimed_stored = self.done(game, variant, window)
                    free[:] = [seed for seed in seeds if seed not in held and seed not in stored
                               and (seed in given_up or seed not in unclaimed_stored)]
                else:
                    free[:] = [seed for seed in seeds if seed not in held and seed not in stored]
                self.db.executemany("INSERT OR REPLACE INTO claims VALUES (?, ?, ?, ?, ?)",
                                    [(game, variant, seed, owner, now + CLAIM_SECONDS) for seed in free])
                self.db.commit()
            except BaseException:
                self.db.rollback()
                raise

        if seeds:
            self._waiting(take)
        return free

    def drop_stale_claims(self) -> None:
        """Deletes the claims that count for nothing: lapsed (see `live`), or of a survey that has
        ended (see `ended`), so that crashed surveys leave no rows behind for good. Retry marks
        (see `add`) are kept for MARK_SECONDS: a retry survey under way may heed them, and one
        begun after them does not."""
        def delete() -> None:
            now = time.time()
            with self.db:
                owners = [owner for (owner,) in self.db.execute("SELECT DISTINCT owner FROM claims")]
                self.db.execute("DELETE FROM claims WHERE NOT live(until, ?) AND mark_time(until, ?) IS NULL",
                                (now, now))
                self.db.executemany("DELETE FROM claims WHERE owner = ? AND mark_time(until, ?) IS NULL",
                                    [(owner, now) for owner in owners if ended(owner)])

        self.db.create_function("live", 2, live, deterministic=True)
        self.db.create_function("mark_time", 2, mark_time, deterministic=True)
        self._waiting(delete)

    def release(self, owner: str) -> None:
        """Gives up the claims `owner` still holds (the survey is over): those of seeds it did
        not store (an interrupt came first) are marked lapsed, not deleted, so that a survey
        that skipped them can tell them from seeds their survey stored (see `claim`)."""
        def lapse() -> None:
            with self.db:  # (retry marks, below 0, kept)
                self.db.execute("UPDATE claims SET until = 0 WHERE owner = ? AND NOT until < 0", (owner,))

        self._waiting(lapse)

    def done(self, game: str, variant: str, seeds: range, retry_unknown: bool = False) -> set[int]:
        """The seeds of `seeds` already stored (with `retry_unknown`: stored and decided, every
        starter too)."""
        return {seed for (seed,) in self._done("seed", game, variant, seeds, retry_unknown)}

    def done_count(self, game: str, variant: str, seeds: range, retry_unknown: bool = False) -> int:
        """How many seeds `done` holds, counted in SQLite."""
        return self._done("COUNT(*)", game, variant, seeds, retry_unknown).fetchone()[0]

    def _done(self, what: str, game: str, variant: str, seeds: range, retry_unknown: bool) -> sqlite3.Cursor:
        return self.db.execute(
            f"SELECT {what} FROM deals WHERE game = ? AND variant = ? AND seed BETWEEN ? AND ?"
            + (f" AND verdict != '{UNKNOWN}' AND {NO_UNDECIDED_STARTER.format(row='deals')}" if retry_unknown else ""),
            (game, variant, seeds.start, seeds.stop - 1),
        )

    def rows(self, game: str | None = None, variant: str | None = None) -> list[Row]:
        """Stored rows, by game, variant and seed; optionally of one game (and variant)."""
        sql, args = f"SELECT {self.columns} FROM deals", []
        if game is not None:
            sql, args = sql + " WHERE game = ?", [game]
            if variant is not None:
                sql, args = sql + " AND variant = ?", [game, variant]
        return [Row(*row) for row in self.db.execute(sql + " ORDER BY game, variant, seed", args)]

    def summary(self, game: str, variant: str, seeds: range | None = None) -> Summary:
        """Verdict counts of the stored deals of a game and variant (within `seeds`, if given);
        StoreError for a verdict that is none of the three (a row edited by hand: counted, it
        made a deal of no verdict, and a blob's key broke report --json)."""
        where, args = " FROM deals WHERE game = ? AND variant = ?", [game, variant]
        if seeds is not None:
            where, args = where + " AND seed BETWEEN ? AND ?", [*args, seeds.start, seeds.stop - 1]
        verdicts = dict.fromkeys((WINNABLE, UNWINNABLE, UNKNOWN), 0)
        for verdict, count in self.db.execute("SELECT verdict, count(*)" + where + " GROUP BY verdict", args):
            if verdict not in verdicts:
                (seed,) = self.db.execute("SELECT min(seed)" + where + " AND verdict IS ?", [*args, verdict]).fetchone()
                raise StoreError(f"{self.path}: {deal_name(game, variant, seed)} has verdict {verdict!r}, not "
                                 f"{WINNABLE}, {UNWINNABLE} or {UNKNOWN}")
            verdicts[verdict] = count
        return Summary(game, variant, sum(verdicts.values()), verdicts)

    def groups(self) -> list[tuple[str, str]]:
        """Every (game, variant) with stored rows."""
        return self.db.execute("SELECT DISTINCT game, variant FROM deals ORDER BY game, variant").fetchall()

    def seconds(self, game: str, variant: str) -> list[float]:
        """Solve times of the stored deals of a game and variant, ascending; StoreError if one
        is not a number (a row edited by hand)."""
        rows = self.db.execute(
            "SELECT seed, seconds FROM deals WHERE game = ? AND variant = ? ORDER BY seconds", (game, variant)
        ).fetchall()
        if rows and not isinstance(rows[-1][1], (int, float)):  # SQLite sorts text and blobs after numbers
            seed, seconds = rows[-1]
            raise StoreError(f"{self.path}: {deal_name(game, variant, seed)} has seconds {seconds!r}, not a number")
        return [seconds for _, seconds in rows]

    def scores(self, game: str, variant: str, seeds: range | None = None) -> list[tuple[int, int | None]]:
        """Each stored deal's score and its proven bound (None in a row stored before schema
        version 3) of a game and variant (within `seeds`, if given), by seed, where the game
        gives them; StoreError for one that is not an integer (a row edited by hand)."""
        bound = "score_bound" if self.has_score_bound else "NULL"
        sql, args = f"SELECT seed, score, {bound} FROM deals WHERE game = ? AND variant = ? AND score IS NOT NULL", [
            game, variant]
        if seeds is not None:
            sql, args = sql + " AND seed BETWEEN ? AND ?", [*args, seeds.start, seeds.stop - 1]
        found = []
        for seed, score, bound in self.db.execute(sql + " ORDER BY seed", args):
            for name, value in (("score", score), ("score_bound", bound)):
                if not (isinstance(value, int) or value is None and name == "score_bound"):
                    raise StoreError(f"{self.path}: {deal_name(game, variant, seed)} has {name} {value!r}, "
                                     "not an integer")
            found.append((score, bound))
        return found

    def players(self, game: str, variant: str, seeds: range | None = None) -> list[list[dict]]:
        """Each stored deal's players' values (see SCHEMA) of a game and variant (within `seeds`,
        if given), by seed, where the game gives them; StoreError for one that is not such JSON,
        or not of as many players as the first deal's (a row edited by hand)."""
        if not self.has_players:
            return []
        sql, args = "SELECT seed, players FROM deals WHERE game = ? AND variant = ? AND players IS NOT NULL", [
            game, variant]
        if seeds is not None:
            sql, args = sql + " AND seed BETWEEN ? AND ?", [*args, seeds.start, seeds.stop - 1]
        found, first_seed = [], None
        for seed, text in self.db.execute(sql + " ORDER BY seed", args):
            try:
                players = json.loads(text)
            except (TypeError, ValueError):
                players = None
            if not well_formed(players):
                raise StoreError(f"{self.path}: {deal_name(game, variant, seed)} has players {text!r}, not a list "
                                 f"of each player's {', '.join(PLAYER_KEYS)}")
            if not found:
                first_seed = seed
            elif len(players) != len(found[0]):  # a variant's deals have one number of players
                many = "player" if len(players) == 1 else "players"
                raise StoreError(f"{self.path}: {deal_name(game, variant, seed)} has the values of {len(players)} "
                                 f"{many}, seed {first_seed} of {len(found[0])}")
            found.append(players)
        return found


# ---------------------------------------------------------------------------------------------
# Work in the workers: top-level functions, so spawned processes and Dask workers can run them.

_entries: dict = {}
_one_at_a_time = threading.Lock()  # a Dask worker may run tasks in threads; the kernel is one per process


def engine_entry(game: str):
    """The registry entry for `game`, imported once per process."""
    if game not in _entries:
        from ..registry import game as lookup

        _entries[game] = lookup(game)
    return _entries[game]


def solve_seed(entry, variant: str, seed: int, budget: Budget) -> tuple[Row, object, object]:
    """Deals and solves one seed of a variant (its label, see `GameEntry.variant_label`: the
    rules' options and the solve options); returns its row, the deal and the SolveResult. The
    kernel's table is made before the row's clock starts, as the commands and benchmarks make it:
    each worker's first row counted its making (0.06 s of Stapelen's, seconds of a 4 GiB one)."""
    entry.engine.set_up(budget)
    start = time.perf_counter()
    position = entry.rules.deal(seed, **entry.variant_of(variant))
    result = entry.engine.solve(position, budget, **entry.variant_of(variant, "solve"))
    seconds = time.perf_counter() - start
    players = result.player_values
    row = Row(
        entry.name, variant, seed, result.verdict, stored_starters(result), result.score,
        result.stats.nodes, seconds, result.stats.method, "\n".join(map(str, result.solution)),
        None if players is None else json.dumps(players), result.score_bound,
    )
    return row, position, result


def stored_starters(result) -> str:
    """The row's starters: the winning ones, then those the budget left undecided, each with
    a '?' ('T,F?'), so that --retry-unknown knows to solve the deal again."""
    return ",".join([str(player) for player in result.starters] + [f"{player}?" for player in result.undecided])


def solve_chunk(task: tuple) -> list[Row]:
    """Rows for a chunk of seeds: task = (game, variant, seeds, time_limit, node_limit, table_mib)."""
    game, variant, seeds, time_limit, node_limit, table_mib = task
    entry = engine_entry(game)
    with _one_at_a_time:
        return [solve_seed(entry, variant, seed, Budget(time_limit, node_limit, table_mib=table_mib))[0]
                for seed in seeds]


def _worker_start(parent: int) -> None:
    """Pool worker set-up: Ctrl-C is the parent's to handle (it stores what it has, then stops
    the pool). Should the parent (process `parent`) die, even by kill -9, the worker is ended at
    once (`_end_with_parent`), not at the end of its deal, which may be hours away. SIGTERM,
    which the command line takes as Ctrl-C (cli.main) and a forked worker inherits, is put back
    to ending it. The pool has a process per core already, so each runs its searches one at a
    time. A forked worker drops the kernels it inherited: a kernel solving again the deal it
    solved last reuses that search's table, so the parent's last deal would get another row than
    from a fresh process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # Pool.terminate's signal ends a worker at once
    _end_with_parent(parent)
    parallel.search_threads = 1
    from ..registry import GAMES

    for entry in GAMES.values():
        entry.engine.forget_kernel()


def _end_with_parent(parent: int) -> None:
    """Has Linux kill this process when its parent dies (prctl PR_SET_PDEATHSIG); without it, a
    worker noticed its parent's death only at its next write, once its deal was done. The worker
    holds nothing to save: rows are stored by the parent. Elsewhere it does nothing."""
    try:
        libc = ctypes.CDLL(None)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


Mapper = Callable[..., Iterator]


@contextmanager
def workers(jobs: int, cluster: str | None = None) -> Iterator[Mapper]:
    """Yields `run(function, tasks, ordered=False)`, an iterator over function(task) results.

    They run in `jobs` local processes (in this process when jobs is 1) or, given an address,
    on a Dask distributed cluster. Leaving the block stops whatever is still running.
    """
    if cluster is not None:
        with _dask_client(cluster) as client:
            yield lambda function, tasks, ordered=False: _on_cluster(client, function, tasks, ordered)
    elif jobs == 1:
        yield lambda function, tasks, ordered=False: map(function, tasks)
    else:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with ctrl_c_deferred():  # raised inside the fork's logging hook, an interrupt was lost (exit 0)
            pool = multiprocessing.get_context(method).Pool(jobs, initializer=_worker_start, initargs=(os.getpid(),))
        try:
            yield lambda function, tasks, ordered=False: _as_they_end(pool, function, tasks, jobs, ordered)
        finally:
            with ctrl_c_deferred():  # Ctrl-C pressed again must not leave the workers running
                pool.terminate()
                pool.join()


@contextmanager
def ctrl_c_deferred() -> Iterator[None]:
    """Runs the block to its end: a Ctrl-C meanwhile (or a SIGTERM, which the command line takes
    as one) is raised as KeyboardInterrupt once it has (only the main thread receives signals,
    and a handler not set from Python cannot be put back; elsewhere the block runs as it is)."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is None:
        yield
        return
    deferred = [signal.SIGINT] + [signal.SIGTERM] * callable(signal.getsignal(signal.SIGTERM))
    pressed = []
    previous = {signum: signal.signal(signum, lambda *_: pressed.append(True)) for signum in deferred}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if pressed:
        raise KeyboardInterrupt


def _as_they_end(pool, function: Callable, tasks: Iterable, jobs: int, ordered: bool) -> Iterator:
    """function(task) for each task on `pool` (of `jobs` workers), in the order of `tasks` if
    `ordered`. A window of tasks is handed out (FIRST_WINDOW a worker, growing to WINDOW while
    tasks are quick), and another as each one ends, so no worker waits for the slowest task of
    a batch (as workers did when tasks were handed out a window at a time)."""
    tasks = iter(tasks)
    ended = queue.SimpleQueue()  # unordered: each task's result or error, as it ends
    callbacks = {} if ordered else {"callback": ended.put, "error_callback": ended.put}
    handed_out = deque()
    window, ended_count, started = min(FIRST_WINDOW, WINDOW) * jobs, 0, time.monotonic()

    def hand_out() -> None:
        for task in islice(tasks, window - len(handed_out)):
            handed_out.append(pool.apply_async(function, (task,), **callbacks))

    hand_out()
    while handed_out:
        if ordered:
            result = handed_out.popleft().get()  # a task's error is raised here
        else:
            result = ended.get()
            handed_out.pop()  # which one does not matter: only how many are out counts
            if isinstance(result, BaseException):
                raise result
        ended_count += 1
        if (time.monotonic() - started) * jobs < QUICK_TASK * ended_count:
            window = min(2 * window, WINDOW * jobs)
        yield result
        hand_out()


@contextmanager
def _dask_client(address: str):
    try:
        from distributed import Client
    except ImportError:
        raise WinnableError("--cluster needs Dask: pip install 'winnable[cluster]'") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:
        raise WinnableError(f"cannot reach a Dask scheduler at {quoted(address)}: {error}") from None
    try:
        yield client
    finally:
        client.close()


def _on_cluster(client, function, tasks: Iterable, ordered: bool) -> Iterator:
    from distributed import as_completed

    for window in batches(tasks, WINDOW * max(1, sum(client.nthreads().values()))):
        futures = client.map(function, window, pure=False)
        try:
            for future in futures if ordered else as_completed(futures):
                yield future.result()
        finally:
            client.cancel(futures)


def batches(items: Iterable, size: int) -> Iterator[list]:
    """`items` in lists of `size` (the last one shorter), read as they are needed."""
    items = iter(items)
    while batch := list(islice(items, size)):
        yield batch


# ---------------------------------------------------------------------------------------------
# A survey: plan the missing seeds, solve them, store the rows.


#: A resumed survey reads which seeds are stored this many at a time, so its memory does not grow
#: with the range.
STORED_WINDOW = 1 << 16


@dataclass(frozen=True)
class Pending:
    """The seeds of a range that a (resumed) survey must solve, ascending: read as they are
    needed (a range may hold more seeds than memory), the stored ones asked for a window of the
    range at a time, and counted by the database."""

    store: Store
    game: str
    variant: str
    seeds: range
    retry_unknown: bool
    count: int

    def __iter__(self) -> Iterator[int]:
        for start in range(self.seeds.start, self.seeds.stop, STORED_WINDOW):
            window = range(start, min(start + STORED_WINDOW, self.seeds.stop))
            done = self.store.done(self.game, self.variant, window, self.retry_unknown)
            yield from (seed for seed in window if seed not in done)


def pending(store: Store, game: str, variant: str, seeds: range, retry_unknown: bool = False) -> Pending:
    """The seeds of the range not stored yet (with `retry_unknown`: or stored as unknown, or
    with a starter left undecided)."""
    done = store.done_count(game, variant, seeds, retry_unknown)
    return Pending(store, game, variant, seeds, retry_unknown, seeds.stop - seeds.start - done)


def live(until, now: float) -> bool:
    """Whether a claim that lapses at `until` holds at `now`: a number no further ahead than a
    renewal sets it (a hand-edited 1e18 or 'abc' held its seed for good, or broke the survey)."""
    return isinstance(until, (int, float)) and now < until <= now + CLAIM_SECONDS + RENEW_SECONDS


def mark_time(until, now: float) -> float | None:
    """When the retry mark `until` (a claim's time, negated: see `Store.add`) was made, if it is
    one made within MARK_SECONDS of `now`; None for a claim, or a mark too old or impossible."""
    if not isinstance(until, (int, float)) or not now - MARK_SECONDS <= -until <= now + RENEW_SECONDS:
        return None
    return -until


def ended(owner: str) -> bool:
    """Whether the survey a claim's `owner` names is known to be over: it ran on this host and
    its process is gone (killed with -9, say, and the survey rerun at once to resume)."""
    if not isinstance(owner, str):  # a hand-edited row: it lapses
        return False
    try:
        host, _, pid, _ = owner.split(" ")
        if host != socket.gethostname():
            return False
        if int(pid) <= 0:  # no process: os.kill would signal a process group
            return True
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except (ValueError, OverflowError, OSError):  # not our owner's form, or a live process of another user
        return False
    return False


class Claims:
    """This survey's claims on the seeds it hands out (`Store.claim`), so that another survey of
    the same database skips them: two surveys run at once had solved the same seeds side by side.
    A claim ends with its seed's row (`Store.add` with the owner; a retry survey's stays as a
    mark that the seed was retried, heeded by the other retry surveys under way). While the
    block runs, a thread renews the others every RENEW_SECONDS on a connection of its own;
    leaving it gives up those left (`Store.release`)."""

    def __init__(self, store: Store, game: str, variant: str, retry_unknown: bool):
        self.store, self.game, self.variant, self.retry_unknown = store, game, variant, retry_unknown
        self.owner = f"{socket.gethostname()} pid {os.getpid()} {secrets.token_hex(4)}"
        self.since = time.time()
        self._over = threading.Event()
        self._keeper = threading.Thread(target=self._renew, name="survey claims", daemon=True)

    def __enter__(self) -> Claims:
        self.store.drop_stale_claims()
        self._keeper.start()
        return self

    def __exit__(self, *exc) -> None:
        self._over.set()
        self._keeper.join()
        self.store.release(self.owner)

    def take(self, seeds: list[int], skipped_before: bool = False) -> list[int]:
        """The seeds of `seeds` this survey is to solve, claimed (see `Store.claim`)."""
        return self.store.claim(self.game, self.variant, seeds, self.owner, self.retry_unknown, skipped_before,
                                self.since)

    def _renew(self) -> None:
        # A short wait for the lock: a turn missed is tried again, and the survey's end waits for it.
        connection = sqlite3.connect(self.store.uri, uri=True, timeout=RENEW_WAIT)
        try:
            while not self._over.wait(RENEW_SECONDS):
                try:
                    with connection:
                        connection.execute("UPDATE claims SET until = ? WHERE owner = ? AND NOT until < 0",
                                           (time.time() + CLAIM_SECONDS, self.owner))
                except sqlite3.OperationalError:  # locked past RENEW_WAIT: the next turn tries again
                    continue
        finally:
            connection.close()


def tasks(game: str, variant: str, todo: Pending, budget: tuple, jobs: int,
          claim: Callable[[list[int]], list[int]] = lambda seeds: seeds, claim_ahead: int = 1) -> Iterator[tuple]:
    """Chunks of seeds as worker tasks, made as they are needed: small enough to keep every
    worker busy to the end, and to lose little finished work to an interrupt (CHUNK_SECONDS).
    They hold the seeds `claim` leaves (see `Claims.take`), asked of `claim_ahead` chunks at a
    time."""
    time_limit = budget[0]
    # At most CHUNK before int(): a time limit of a subnormal float (5e-324) makes the quotient inf.
    by_time = 1 if time_limit is None or time_limit >= CHUNK_SECONDS else int(min(CHUNK_SECONDS / time_limit, CHUNK))
    size = max(1, min(CHUNK, todo.count // (8 * max(1, jobs)), by_time))
    return ((game, variant, chunk, *budget) for block in batches(todo, size * claim_ahead)
            for chunk in batches(claim(block), size))


def run(
    store: Store, game: str, variant: str, todo: Pending, run_tasks: Mapper,
    time_limit: float | None = 30.0, node_limit: int = 0, jobs: int = 1,
    on_rows: Callable[[list[Row]], None] = lambda rows: None, table_mib: int | None = None,
    on_skipped: Callable[[int], None] = lambda count: None,
) -> int:
    """Solves the seeds `todo` (see `pending`) and stores their rows; returns how many it solved.

    `run_tasks` comes from `workers`; each worker's table takes `table_mib` (see `Budget`).
    `on_rows` sees each chunk of rows as it arrives. Seeds another survey of the database has
    claimed are left to it (see `Claims`), and `on_skipped` is told how many more are (or, as
    negative counts, fewer: a later pass goes over them again and takes those the other
    survey gave up or never stored, until a pass takes none). On any exit, Ctrl-C included,
    every row received so far is committed before the exception goes on.
    """
    engine_entry(game).variant_of(variant)  # a variant the game does not have fails here, not in a worker
    received: list[Row] = []
    last_commit = time.monotonic()
    solved = 0
    budget = (time_limit, node_limit, table_mib)
    with Claims(store, game, variant, todo.retry_unknown) as claims:
        work, skipped_before = todo, False
        while True:
            left = Skipped()

            def claim(seeds: list[int]) -> list[int]:
                mine = claims.take(seeds, skipped_before)
                taken = set(mine)
                left.add(seed for seed in seeds if seed not in taken)
                if skipped_before and mine:
                    on_skipped(-len(mine))
                elif not skipped_before and len(mine) < len(seeds):
                    on_skipped(len(seeds) - len(mine))
                return mine

            try:
                # a later pass asks in large blocks: most of its seeds are stored or still claimed
                ahead = LATER_PASS_BLOCK if skipped_before else 1
                for rows in run_tasks(solve_chunk, tasks(game, variant, work, budget, jobs, claim, ahead)):
                    received += rows
                    solved += len(rows)
                    on_rows(rows)
                    if time.monotonic() - last_commit >= COMMIT_EVERY:
                        store.add(received, claims.owner, todo.retry_unknown)
                        received, last_commit = [], time.monotonic()
            finally:
                # idempotent if an interrupt came just after a commit
                store.add(received, claims.owner, todo.retry_unknown)
                received = []
            if not left.count or (skipped_before and left.count == work.count):
                return solved
            work, skipped_before = left, True


class Skipped:
    """Seeds a survey left to others, ascending, kept as runs of consecutive seeds (a range may
    hold more seeds than memory); iterated and counted as `Pending` is, for a later pass."""

    def __init__(self):
        self.runs: list[list[int]] = []
        self.count = 0

    def add(self, seeds: Iterable[int]) -> None:
        for seed in seeds:
            if self.runs and self.runs[-1][1] == seed - 1:
                self.runs[-1][1] = seed
            else:
                self.runs.append([seed, seed])
            self.count += 1

    def __iter__(self) -> Iterator[int]:
        for first, last in self.runs:
            yield from range(first, last + 1)
