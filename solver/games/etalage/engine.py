"""Etalage on the shared engine: each player's guaranteed score and cooperative best.

A player's guaranteed score is the paranoid value: the final score they can be sure of when
every other player plays to minimise it. The cooperative best is the most they reach with every
player's help. The Rust kernel (`EtalageKernel`) proves bounds on both by alpha-beta; every line
it reports is replayed here by the reference rules (`puzzles/etalage.py`) and must end the game
with the score it claims.

Etalage has no win to prove for one side, so its results fit the contract as an optimisation
whose objective has no winning value (docs/adding-a-game.md, "Games between players"): the
verdict says whether the values are proven (`winnable`: every value exact, the line realises
the guarantee of the player to move; `unknown`: some are only bounds; never `unwinnable`), and
analyse marks a move `keeps winnable` when it keeps the mover's guarantee, `loses` when it is
proven to give points away against it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from puzzles import etalage as rules
from puzzles.etalage import Pick, Play, Position

from ..._native import EtalageKernel
from ...contract import GameEntry, Option
from ...engine import Engine
from ...parallel import share, side_by_side, threads_for
from ...result import (
    KEEPS, LOSES, PLAYER_KEYS, UNKNOWN, WINNABLE, AnalyseResult, Budget, MoveVerdict, Objective, OptimumResult, Stats,
)
from ...words import amount
from . import picture

#: The part of a `solve` budget the guarantees may use; the cooperative bests get the rest.
GUARANTEES_SHARE = 0.75
#: The part of the time that the first pass of `values` may use: it sorts out the quick searches,
#: and a long one goes on in later passes with the cores the quick ones leave (6 players from
#: the 5th trick, seeds 1-30, 10 s: median 4.2 s with the whole time, 3.7 s with half).
FIRST_PASS_SHARE = 0.5
GUARANTEED = Objective("guaranteed", "guaranteed_bound", minimise=False, winning=None,
                       words="guaranteed score of the player to move")
PICK = 100


@dataclass
class Value:
    """Proven bounds on one player's final score (the score so far plus what the kernel proves
    they still take), with a line realising it when exact."""

    lower: int
    upper: int
    moves: list = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    def text(self) -> str:
        return str(self.lower) if self.exact else f"{self.lower}..{self.upper}"


@dataclass
class PlayerValues:
    player: int
    score: int
    guaranteed: Value
    cooperative: Value | None  # None: not searched (`solve --guarantees-only`)
    line: list  # events of the line realising the guarantee (empty unless exact)

    @property
    def exact(self) -> bool:
        return self.guaranteed.exact and (self.cooperative is None or self.cooperative.exact)

    def to_json(self) -> dict:
        helped = self.cooperative
        return {
            "player": self.player, "score": self.score,
            "guaranteed": self.guaranteed.lower, "guaranteed_bound": self.guaranteed.upper,
            "cooperative_best": helped and helped.lower, "cooperative_bound": helped and helped.upper,
            "result": "exact" if self.exact else "bounds",
            "line": [event.to_json() for event in self.line],
        }

    def line_text(self) -> str:
        helped = "" if self.cooperative is None else f", cooperative best {self.cooperative.text()}"
        return (f"player {self.player}: guaranteed {self.guaranteed.text()}{helped} "
                f"({'exact' if self.exact else 'bounds'}; score so far {self.score})")


class MoveValue(MoveVerdict):
    """A card or pick, as an event naming its player, with the mover's guarantee after it; its
    text says `best` for a move that keeps the guarantee and `loses points` for one proven to
    give points away."""

    WORDS = {KEEPS: "best", LOSES: "loses points", UNKNOWN: "unknown"}

    def line(self, objective: Objective | None = None) -> str:
        # the move is an event, which names the player and a pick's cards ('player 4 picks R: 4R 5R')
        text = f"{str(self.move):28} {self.WORDS[self.verdict]:13}"
        if self.value is not None:
            text += " guaranteed " + (str(self.value) if self.value == self.bound else f"{self.value}..{self.bound}")
        else:  # a forced move along a record: no value, so no gap where it would stand
            text = text.rstrip()
        return text + (f"  ({self.reason})" if self.reason else "")


@dataclass
class EtalageResult(OptimumResult):
    """Every player's values; `value`/`bound` and the solution are those of the player to move
    (the leader once the game is over), and `starter` is the player to move: None once the game
    is over, as where moves name no player, since nobody starts the empty line."""

    players: tuple[PlayerValues, ...] = ()

    def head_lines(self) -> list[str]:
        lines = [f"verdict: {self.verdict}",
                 "values (final scores): " + ("all exact" if self.verdict == WINNABLE else "some only bounds")]
        return lines + [p.line_text() for p in self.players]

    def line_title(self) -> str:
        return f"line realising player {self.starter}'s guarantee against best resistance:"

    @property
    def player_values(self) -> list[dict]:
        """Every player's guarantee and cooperative best, with their bounds (no scores so far,
        which a survey's deals do not have, and no lines)."""
        return [{key: values[key] for key in PLAYER_KEYS} for values in (p.to_json() for p in self.players)]

    def open_note(self) -> str | None:
        if self.verdict == WINNABLE:
            return None
        return ("the search hit its budget; raise --time-limit or --node-limit to prove the bounds exact "
                "(a long search also gains from a larger --memory: whole 3-player deals took 5 to 117 minutes "
                "of one core with --memory 4096)")


class EtalageEngine(Engine):
    name = rules.NAME
    proves_unwinnable = False
    #: 128 MiB of proven bounds: three 40-byte entries to a 128-byte bucket
    table_slot_bytes = 128
    table_slot_entries = 3
    table_slots = 1 << 20

    def new_kernel(self, table_entries: int) -> EtalageKernel:
        """The kernel; its table (exact keys) serves every position of every deal."""
        return EtalageKernel(table_entries)

    def turns(self, start: Position, moves: list) -> list:
        return rules.events(start, moves)

    def value(self, position: Position, player: int, cooperative: bool, budget: Budget, helpers: int = 0) -> Value:
        """`player`'s guaranteed score (or cooperative best) from the position, as proven bounds
        on the final score; when exact, a line realising it, replayed by the reference rules.
        `helpers` more threads search the same position with it (the kernel's `helpers`)."""
        score = position.scores[player - 1]
        if position.is_over():
            return Value(score, score)
        if budget.nodes_spent():  # not searched: from nothing more to every point still in play
            in_play = position.display + position.trick + sum(position.hands, ())
            return Value(score, score + sum(map(rules.value_of, in_play)))
        p = position
        lower, upper, line, nodes, seconds = self.kernel().solve(
            list(p.display), [list(h) for h in p.hands], p.leader - 1, list(p.trick), p.picked, player - 1,
            cooperative, budget.kernel_node_limit(), budget.seconds_left(), helpers,
        )
        budget.nodes_used += nodes
        moves = [Pick(code - PICK) if code >= PICK else Play(code) for code in line]
        if moves:
            end = rules.replay(position, moves)  # raises if the kernel proposed an illegal move
            if not end.is_over() or end.final_score(player) != score + lower or lower != upper:
                raise AssertionError(f"{self.name}: kernel line does not end the game with player {player} "
                                     f"scoring {score + lower} when replayed by the reference rules")
        return Value(score + lower, score + upper, moves, nodes, seconds)

    def focus(self, position: Position) -> int:
        """The player the result is about first: the player to move (the leader once it is over)."""
        return position.to_move or position.leader

    def values(self, position: Position, searches: list[tuple[int, bool]], budget: Budget) -> dict:
        """(player, cooperative) -> Value for each search of one position, in passes (`passes`),
        each exact value with its line."""
        return dict(zip(searches, self.passes([(position, *search) for search in searches], budget)))

    def passes(self, searches: list[tuple[Position, int, bool]], budget: Budget, progress: Callable = iter,
               lines: bool = True) -> list[Value]:
        """The Value of each search (position, player, cooperative), in passes: each search gets
        an equal share of `FIRST_PASS_SHARE` of the time, then those still open share what
        remains, until all are exact or the budget is spent (the kernel's table keeps what
        earlier passes proved). The searches of a pass run side by side (`side_by_side`);
        `progress` wraps each pass's. With `lines`, an exact value also needs its line."""
        found: dict[int, Value] = {}
        pending = list(range(len(searches)))
        share = FIRST_PASS_SHARE
        while pending:
            part = budget.part(1, share)
            values = self.side_by_side(part, [searches[index] for index in pending], progress)
            budget.spend(part)
            share = 1.0
            for index, value in zip(pending, values):
                earlier = found.get(index)
                if earlier is not None:  # what each pass proved holds: keep the tighter bounds
                    value.lower, value.upper = max(value.lower, earlier.lower), min(value.upper, earlier.upper)
                    value.nodes += earlier.nodes
                    value.seconds += earlier.seconds
                found[index] = value
            # an interval closed by two passes together still needs a pass for its line
            pending = [index for index in pending if not found[index].exact
                       or lines and not (found[index].moves or searches[index][0].is_over())]
            if budget.exhausted():
                break
        return [found[index] for index in range(len(searches))]

    def side_by_side(self, budget: Budget, searches: list[tuple[Position, int, bool]],
                     progress: Callable = iter) -> list[Value]:
        """The value of each search (position, player, cooperative), the searches side by side,
        one per usable core (`solver.parallel`), each with an equal share of the time left among
        the rounds still to start; `progress` wraps the searches and steps as each finishes.
        With fewer searches than cores, each search is helped by threads of its own, and a
        thread whose searches are done helps one still running."""
        threads, spending = threads_for(budget), threading.Lock()
        helpers = max(0, threads // max(1, len(searches)) - 1)
        ticks = iter(progress(searches))
        self.set_up(budget)  # here, before the threads, so that they all share one table

        def run(index: int, position: Position, player: int, cooperative: bool) -> Value:
            part = share(budget, index, len(searches), threads)
            value = self.value(position, player, cooperative, part, helpers)
            with spending:
                budget.spend(part)
            return value

        jobs = [partial(run, index, *search) for index, search in enumerate(searches)]
        values = side_by_side(jobs, threads, on_done=lambda: next(ticks, None),
                              idle=lambda: self.kernel().help(budget.seconds_left()))
        next(ticks, None)  # past the end: a progress bar closes
        return values

    def solve(self, position: Position, budget: Budget | None = None, guarantees_only: bool = False) -> EtalageResult:
        """Every player's guaranteed score, then every player's cooperative best, each in passes
        that share the time left. The guarantees matter most: they get `GUARANTEES_SHARE` of the
        budget, and the cooperative bests the rest with whatever the guarantees leave unused
        (on a position too large to finish, a cooperative best given no time would keep its
        static bounds, which say nothing). `guarantees_only`: the guarantees get the whole
        budget, and no cooperative best is searched."""
        budget = budget or Budget()
        self.set_up(budget)
        started = time.perf_counter()  # the table is made off the budget's clock, and so off this one
        players = range(1, position.players + 1)
        guarantees = budget.part(1, 1.0 if guarantees_only else GUARANTEES_SHARE)
        found = self.values(position, [(player, False) for player in players], guarantees)
        budget.spend(guarantees)
        if not guarantees_only:
            found.update(self.values(position, [(player, True) for player in players], budget))
        values = tuple(
            PlayerValues(player, position.scores[player - 1], found[player, False], found.get((player, True)),
                         rules.events(position, found[player, False].moves))
            for player in players
        )
        focus = values[self.focus(position) - 1]
        decided = all(v.exact for v in values) and bool(focus.guaranteed.moves or position.is_over())
        stats = Stats(sum(v.nodes for v in found.values()), time.perf_counter() - started,
                      "rules" if position.is_over() else "alpha-beta")
        moves = focus.guaranteed.moves  # the mover's line, once their guarantee is exact
        return EtalageResult(
            game=self.name, verdict=WINNABLE if decided else UNKNOWN, starters=[], solution=moves,
            starter=position.to_move, explanation=None, stats=stats, start=position,
            turns=rules.events(position, moves),
            details={"to_move": position.to_move, "result": "exact" if decided else "bounds",
                     "players": [v.to_json() for v in values]},
            objective=GUARANTEED, value=focus.guaranteed.lower, bound=focus.guaranteed.upper, players=values,
        )

    def analyse(self, position: Position, budget: Budget | None = None, progress: Callable = iter) -> AnalyseResult:
        """For the player to move, every legal card or pick with the guaranteed score after it,
        searched in passes as `solve`'s values are. A move is the best (`keeps winnable`) when
        its guarantee is proven no lower than any other's, `loses` when proven lower than
        another's, `unknown` otherwise."""
        budget = budget or Budget()
        self.set_up(budget)
        if position.record:
            return self.analyse_record(position, budget, progress)
        started = time.perf_counter()
        mover = position.to_move
        moves = position.legal_moves()
        values = self.passes([(position.apply(move), mover, False) for move in moves], budget, progress, lines=False)
        found = dict(zip(moves, values))
        best_lower = max((v.lower for v in found.values()), default=0)
        verdicts = []
        for move in moves:
            value = found[move]
            others = [v for m, v in found.items() if m != move]
            if all(value.lower >= v.upper for v in others):
                label, best, reason = KEEPS, True, None
            elif value.upper < best_lower:
                label, best = LOSES, False
                lost = best_lower - value.upper
                reason = f"gives away at least {amount(lost, 'point')} against the best move"
            else:
                label, best, reason = UNKNOWN, None, None
            event = rules.events(position, [move])[0]  # names the mover, and a pick's cards
            verdicts.append(MoveValue(event, label, reason, value.lower, value.upper, best))
        decided = bool(verdicts) and all(v.verdict != UNKNOWN for v in verdicts)
        stats = Stats(sum(v.nodes for v in found.values()), time.perf_counter() - started, "alpha-beta")
        if not moves:
            stats.method = "rules"
        return AnalyseResult(self.name, WINNABLE if decided or not moves else UNKNOWN, verdicts, stats, GUARANTEED)

    def analyse_record(self, position: Position, budget: Budget, progress: Callable = iter) -> AnalyseResult:
        """Along a game record: for each move played, the mover's guarantee before it and after
        it. A move `loses` when it is proven to give points away against the mover's guarantee,
        and `keeps winnable` when it is proven to keep it. Forced moves keep it without a search."""
        start, moves, started = *position.record, time.perf_counter()
        positions = [start]
        for move in moves:
            positions.append(positions[-1].apply(move))
        # the mover's guarantee before and after each move that is not forced, all side by side
        chosen = [i for i, pos in enumerate(positions[:-1]) if len(pos.legal_moves()) > 1]
        searches = [(positions[i + after], positions[i].to_move, False) for i in chosen for after in (0, 1)]
        values = iter(self.passes(searches, budget, progress, lines=False))
        found = {i: (next(values), next(values)) for i in chosen}
        verdicts, total = [], Stats(method="alpha-beta")
        for i, (pos, move) in enumerate(zip(positions, moves)):
            mover, event = pos.to_move, rules.events(pos, [move])[0]
            if i not in found:
                verdicts.append(MoveValue(event, KEEPS, "forced", best=True))  # the only move: no search
                continue
            before, kept = found[i]
            total.nodes += before.nodes + kept.nodes
            if kept.upper < before.lower:
                lost = before.lower - kept.upper
                label, reason = LOSES, (f"player {mover} gave away at least {amount(lost, 'point')} "
                                        f"against a guarantee of {before.lower}")
            elif kept.lower >= before.upper:
                label, reason = KEEPS, None
            else:
                label, reason = UNKNOWN, None
            verdicts.append(MoveValue(event, label, reason, kept.lower, kept.upper, label == KEEPS))
        decided = all(v.verdict != UNKNOWN for v in verdicts)
        total.seconds = time.perf_counter() - started
        return AnalyseResult(self.name, WINNABLE if decided else UNKNOWN, verdicts, total, GUARANTEED)

    def optimum_reasons(self, position: Position, result: EtalageResult, budget: Budget) -> list[str]:
        """Each player's guarantee and cooperative best in words, and how the line starts."""
        facts = []
        for p in result.players:
            sure = f"{p.guaranteed.lower} points" if p.guaranteed.exact else \
                f"at least {p.guaranteed.lower} points (and no more than {p.guaranteed.upper} are sure)"
            helped = f"{p.cooperative.lower}" if p.cooperative.exact else \
                f"between {p.cooperative.lower} and {p.cooperative.upper}"
            facts.append(f"player {p.player} can be sure of {sure} whatever the others do; "
                         f"with everybody's help they reach {helped}")
        if position.is_over():
            return ["the game is over: " + ", ".join(f"player {p.player} scored {p.score}" for p in result.players)]
        if result.turns:
            first = result.turns[0]
            facts.append(f"player {result.starter}'s guarantee starts with {first}; the others' most damaging "
                         "replies follow in `winnable solve`")
        return facts


GAME = GameEntry(
    rules=rules,
    engine=EtalageEngine(),
    picture=picture.picture,
    options=(
        Option("players", "etalage: players", low=rules.MIN_PLAYERS, high=rules.MAX_PLAYERS, default=3),
        Option("values", "etalage: the highest card value (a reduced deck, V - 1 cards a hand)", low=2,
               high=rules.TOP, default=rules.TOP),
        Option("guarantees_only", "etalage: the guaranteed scores alone, with the whole budget (no cooperative "
               "best is searched)", target="solve"),
    ),
    formats="""\
etalage: 'display: 7R 3Y 10G', 'hand 1: 5R 2G ...' per player, 'scores: 0 0 0',
'leader: 1', 'trick: 4G 9R' (cards played in the trick from the leader on, '-' for
none) and, while a complete trick is distributed, 'to-pick: 2'; optional
'values: 1-6' for a reduced deck. Cards are value then colour R Y G B P O.
A game record adds 'moves: 7G 2G 9Y pick R ...', the moves played from there:
analyse goes along it, the other commands take the position it reaches.""",
    json_fields="""\
etalage: also to_move, result ("exact" or "bounds"), guaranteed, guaranteed_bound,
optimal (of the player to move) and players: [{"player", "score", "guaranteed",
"guaranteed_bound", "cooperative_best", "cooperative_bound", "result", "line"}]
(cooperative_best and cooperative_bound null with --guarantees-only);
an event is {"player": 2, "card": "7G"} or {"player": 2, "pick": "R", "cards":
["8R", "1R"]}. analyse --json gives each card or pick the mover's guarantee after it.""",
    test_variants=({"values": 5}, {"players": 4, "values": 4}, {"players": 6, "values": 3}),
)
