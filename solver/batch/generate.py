"""Generate deals for puzzle setters: proven winnable ones rated by difficulty, or proven unwinnable
ones with their explanation, one text file each.

Difficulty is measured along the solution line. At every position of the line (every turn, the
winning starter's first included) the engine's `analyse` marks each legal move 'keeps winnable'
or 'loses'. From those verdicts:

- loss share: losing moves / legal moves, summed over the line;
- critical moves: positions where exactly one move keeps the game winnable and at least one
  loses (a forced move, the only legal one, is no decision and does not count);
- bits: the sum over the line of log2(legal moves / moves that keep it winnable). 2^-bits is the
  chance that a player choosing blindly among the legal moves never makes a losing move along
  this line. Every losing move adds to it, a critical choice among k moves adds log2(k).

The difficulty band is set by bits alone: easy below 6 (blind play survives better than 1 in
64), medium from 6 to 10, hard from 10 (worse than 1 in 1024). On Twaalven seeds 1-600 the bits
range from 0.3 to 28 and their terciles are 6.1 and 9.8, so the bands hold about a third each.
Search effort (the solver's nodes) is recorded but not rated: it measures this solver's pruning,
not the player's task, and correlates only 0.16 with bits on those seeds.

A deal whose line has any move the budget could not decide is not rated, and so not chosen.
Every solution is replayed with the game's reference rules first (their Position's apply,
legal_moves and is_won, and start for deals whose players choose who starts).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, NamedTuple

from puzzles.errors import WinnableError, quoted

from ..contract import variant_comment
from ..result import KEEPS, LOSES, UNKNOWN, UNWINNABLE, WINNABLE, Budget
from .survey import batches, engine_entry, solve_seed

#: Lower bounds in bits of each difficulty band.
BANDS = {"easy": 0.0, "medium": 6.0, "hard": 10.0}


def band(bits: float) -> str:
    """The difficulty band for a measure in bits."""
    return max((low, name) for name, low in BANDS.items() if bits >= low)[1]


def shown_bits(bits: float, places: int = 1) -> float:
    """Bits rounded to `places` decimals for display, but never up into the next band: 5.951 bits
    are easy, so they show as 5.9, not as 6.0, which would read as medium."""
    rounded = round(bits, places)
    return rounded if band(rounded) == band(bits) else math.floor(bits * 10**places) / 10**places


@dataclass
class Difficulty:
    """What a player faces along the solution line (see the module docstring)."""

    bits: float
    decisions: int  # positions along the line: one per turn
    legal_moves: int
    losing_moves: int
    critical_moves: int
    nodes: int  # search effort: nodes the solver used to solve the deal

    @property
    def band(self) -> str:
        return band(self.bits)

    @property
    def loss_share(self) -> float:
        return self.losing_moves / self.legal_moves if self.legal_moves else 0.0

    def to_json(self) -> dict:
        return {
            "band": self.band, "bits": shown_bits(self.bits, 3), "loss_share": round(self.loss_share, 4),
            "decisions": self.decisions, "legal_moves": self.legal_moves, "losing_moves": self.losing_moves,
            "critical_moves": self.critical_moves, "nodes": self.nodes,
        }

    def describe(self) -> str:
        return (
            f"{self.band} ({shown_bits(self.bits):.1f} bits); {self.losing_moves} of {self.legal_moves} legal moves "
            f"along the line lose ({100 * self.loss_share:.1f}%); {self.critical_moves} critical moves; "
            f"search effort {self.nodes} nodes"
        )


def replays(result) -> bool:
    """Does the solution win when replayed by the reference rules? (apply checks every move)"""
    current = result.start
    for move in result.solution:
        current = current.apply(move)
    return current.is_won()


def measure(entry, position, result, budget: Budget) -> Difficulty | None:
    """The difficulty of a winnable deal along its solution; None if a move stayed undecided.
    Each position of the line gets an equal share of what is left of the budget, so that one
    hard position cannot starve the rest of the line; one with a move still open gets all
    that is left, since the deal is not rated unless every move is decided."""
    def verdicts_at(position, parts: int) -> list[str]:
        part = budget.part(parts)
        verdicts = [verdict.verdict for verdict in entry.engine.analyse(position, part).moves]
        budget.spend(part)
        return verdicts

    bits, legal, losing, critical = 0.0, 0, 0, 0
    current = result.start
    for index, move in enumerate(result.solution):
        if len(current.legal_moves()) == 1:  # forced, and on a winning line: nothing to analyse
            verdicts = [KEEPS]
        else:
            verdicts = verdicts_at(current, len(result.solution) - index)
            if UNKNOWN in verdicts and not budget.exhausted():
                verdicts = verdicts_at(current, 1)
        keeps, loses = verdicts.count(KEEPS), verdicts.count(LOSES)
        if keeps + loses != len(verdicts) or keeps == 0:
            return None
        bits += math.log2(len(verdicts) / keeps)
        legal, losing = legal + len(verdicts), losing + loses
        critical += keeps == 1 and loses > 0
        current = current.apply(move)
    return Difficulty(bits, len(result.solution), legal, losing, critical, result.stats.nodes)


class Found(NamedTuple):
    """A deal that fits the request: its file's text and what the command reports about it."""

    seed: int
    verdict: str
    difficulty: dict | None
    reasons: list[str] | None
    text: str


#: The reason of an unwinnable deal whose explanation the budget left open (its search proved it).
UNEXPLAINED = "not explained within the budget (the search proved it; `winnable explain` with more time may say why)"
#: The difficulty line of a deal some of whose moves the budget left undecided.
UNRATED = "not rated (a move along the line stayed undecided within the budget; --difficulty needs every move decided)"


def deal_text(entry, variant: str, seed: int, position, result, difficulty: Difficulty | None,
              reasons: list[str] | None) -> str:
    """The file for one deal: comment lines (what was proven, and how) then the deal itself, so
    `winnable solve GAME FILE` reads it back (with the variant's options, which a comment names)."""
    lines = [f"# {entry.title}, seed {seed}: {result.verdict}"]
    if variant:
        lines.append(variant_comment(variant))
    if result.verdict == WINNABLE:
        lines[0] += f" (winning starter(s): {result.starters_text()})" if result.starters else ""
        lines.append(f"# difficulty: {difficulty.describe() if difficulty else UNRATED}")
        starter = f"player {result.starter}" if isinstance(result.starter, int) else result.starter
        lines.append(f"# solution{f' ({starter} starts)' if starter else ''}, replayed by the rules:")
        lines += [f"#   {number}. {turn}" for number, turn in enumerate(result.turns, start=1)]  # as solve shows it
    else:
        lines[0] += f" (proven by {result.stats.method}, {result.stats.nodes} nodes)"
        lines += [f"# why: {reason}" for reason in reasons or [UNEXPLAINED]]
    return "\n".join(lines) + "\n" + entry.rules.format_position(position)


def examine_chunk(task: tuple) -> tuple[int, int, list[Found]]:
    """Worker task (game, variant, seeds, wanted, time_limit, node_limit, table_mib), wanted being
    a band, 'any' or 'unwinnable': (seeds examined, those the budget left undecided (the verdict,
    or with a band asked a move along the line), deals that fit)."""
    game, variant, seeds, wanted, time_limit, node_limit, table_mib = task
    entry = engine_entry(game)
    found, undecided = [], 0
    for seed in seeds:
        budget = Budget(time_limit, node_limit, table_mib=table_mib)
        _, position, result = solve_seed(entry, variant, seed, budget)
        undecided += result.verdict == UNKNOWN
        if wanted == "unwinnable":
            if result.verdict == UNWINNABLE:
                # a budget of its own: the solve's may be spent, and the explanation was then
                # "not decided" of a deal proven unwinnable
                explanation = entry.engine.explain(position, Budget(time_limit, node_limit, table_mib=table_mib))
                reasons = list(explanation.reasons) if explanation.verdict == UNWINNABLE else [UNEXPLAINED]
                text = deal_text(entry, variant, seed, position, result, None, reasons)
                found.append(Found(seed, UNWINNABLE, None, reasons, text))
            continue
        if result.verdict != WINNABLE:
            continue
        if not replays(result):
            raise AssertionError(f"{game} seed {seed}: the solution does not win when replayed by the rules")
        difficulty = measure(entry, position, result, budget)
        undecided += difficulty is None and wanted in BANDS  # left unrated, so not of the band asked
        if wanted == "any" or (difficulty and difficulty.band == wanted):  # 'any' keeps unrated deals
            text = deal_text(entry, variant, seed, position, result, difficulty, None)
            found.append(Found(seed, WINNABLE, difficulty.to_json() if difficulty else None, None, text))
    return len(seeds), undecided, found


def tasks(game: str, variant: str, seeds: range, wanted: str, budget: tuple) -> Iterator[tuple]:
    """Seeds in chunks, in order, made as they are needed (a range may hold more seeds than
    memory): a few per task when each needs a difficulty measurement (~20 ms on Twaalven), more
    when only a verdict is needed."""
    if wanted not in (*BANDS, "any", "unwinnable"):
        raise WinnableError(f"unknown difficulty {quoted(wanted)}; choose from {', '.join(BANDS)}")
    entry = engine_entry(game)
    entry.variant_of(variant)  # a variant the game does not have fails here, not in a worker
    if wanted == "unwinnable" and not entry.engine.proves_unwinnable:
        raise WinnableError(f"--unwinnable: {entry.title} has no unwinnable deals (its verdict says whether "
                            "the values are proven)")
    size = 64 if wanted == "unwinnable" else 4
    return ((game, variant, chunk, wanted, *budget) for chunk in batches(seeds, size))
