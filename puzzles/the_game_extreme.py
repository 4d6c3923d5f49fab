"""The Game: Extreme with every hand and the draw pile open: the reference rules.

The Game (puzzles/the_game.py) with one more layer: 28 cards carry an instruction, 4 of each kind
(docs/games/the-game-extreme.md). Written `45!stop` in a deal or position.

- stop: the turn ends at once after it, even as the first card and below the minimum.
- skull: must be covered (by any card on its pile) in the same turn.
- three: the turn has exactly 3 cards, whatever the minimum; a stop only as the third.
- no-talk: no effect on an open-information analysis.
- no-backwards: while visible on any pile top, no backwards trick on any pile.
- same-pile: while visible, every card played goes on the pile of the turn's cards so far; a
  turn whose cards lie on two piles may not show one.
- draw-one: a turn ending with one visible draws exactly one card, not up to the hand size.

Breaking an instruction is illegal, not a result: as in the base game, a play after which the
turn can no longer be completed by the rules is not a legal play, so a line never breaks one.
The player to move is stuck when no complete turn is possible (a stop alone is one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from functools import cached_property, lru_cache, partial

from . import the_game as base
from .cards import SplitMix64, shuffle_with
from .errors import IllegalPositionError, ParseError, quoted
from .lines import replay  # noqa: F401  (part of each game's rules)
from .text import amount, named_lines, parse_number
from .the_game import MAX_PLAYERS, PILES, EndTurn, Play, accepts, is_backwards, parse_move  # noqa: F401

NAME = "the-game-extreme"
TITLE = "The Game: Extreme"
KINDS = ("stop", "skull", "three", "no-talk", "no-backwards", "same-pile", "draw-one")
PER_KIND = 4
#: `turn_pile` once the turn's cards lie on more than one pile.
MIXED = 4
THREE = 3


def _visible(marks: dict[int, str], piles: tuple[int, ...], kind: str) -> bool:
    return any(marks.get(top) == kind for top in piles)


def _allowed(marks: dict[int, str], piles: tuple[int, ...], state: tuple, card: int, pile: int) -> tuple | None:
    """The turn state (played, turn_pile, three, stopped) after `card` on `pile`, or None when the
    instructions forbid the play outright (whether the turn can still be completed is separate)."""
    played, turn_pile, three, stopped = state
    top, kind = piles[pile], marks.get(card)
    if stopped or not accepts(pile, top, card) or (three and played >= THREE):
        return None
    if kind == "three" and played >= THREE:
        return None
    if kind == "stop" and three and played != THREE - 1:
        return None
    if is_backwards(pile, top, card) and _visible(marks, piles, "no-backwards"):
        return None
    if _visible(marks, piles, "same-pile") and turn_pile not in (None, pile):
        return None
    after = pile if turn_pile in (None, pile) else MIXED
    if after == MIXED and _visible(marks, _put(piles, pile, card), "same-pile"):
        return None
    return played + 1, after, three or kind == "three", kind == "stop"


def _put(piles: tuple[int, ...], pile: int, card: int) -> tuple[int, ...]:
    return piles[:pile] + (card,) + piles[pile + 1:]


def _may_end(marks: dict[int, str], piles: tuple[int, ...], state: tuple, minimum: int) -> bool:
    """Whether the turn may end here: stopped, or exactly 3 with a three, or the minimum; and no
    skull left uncovered."""
    played, _, three, stopped = state
    enough = stopped or (played == THREE if three else played >= minimum)
    return enough and not _visible(marks, piles, "skull")


@lru_cache(maxsize=64)
def _table(marks: tuple) -> dict[int, str]:
    return dict(marks)


@lru_cache(maxsize=1 << 16)
def _can_finish(marks: tuple, hand: tuple[int, ...], piles: tuple[int, ...], state: tuple, minimum: int) -> bool:
    """Whether the turn in this state can be completed by the rules (memoised; `hand` sorted).
    A skull on a pile that takes no card of the hand can never be covered: its top stays the
    skull until a card goes on it (this answers at once what the search would find by trying
    every order of the other cards)."""
    table = _table(marks)
    if _may_end(table, piles, state, minimum):
        return True
    if any(table.get(top) == "skull" and not any(accepts(p, top, card) for card in hand) for p, top in enumerate(piles)):
        return False
    for i, card in enumerate(hand):
        for pile in range(4):
            after = _allowed(table, piles, state, card, pile)
            if after and _can_finish(marks, hand[:i] + hand[i + 1:], _put(piles, pile, card), after, minimum):
                return True
    return False


@dataclass(frozen=True)
class Position(base.Position):
    """The Game's position plus the instructions (`marks`: (card, kind) pairs, sorted) and the
    turn so far: the pile its cards went on (0-3, MIXED, None before the first), whether a
    three was played and whether a stop ended it."""

    marks: tuple[tuple[int, str], ...] = ()
    turn_pile: int | None = None
    three: bool = False
    stopped: bool = False

    SHORT_HANDS = True

    @cached_property
    def instructions(self) -> dict[int, str]:
        return dict(self.marks)

    def instruction(self, card: int) -> str | None:
        return self.instructions.get(card)

    @property
    def state(self) -> tuple:
        return self.played, self.turn_pile, self.three, self.stopped

    def visible(self, kind: str) -> bool:
        """Whether a card with this instruction shows on a pile top."""
        return _visible(self.instructions, self.piles, kind)

    def turn_completable(self) -> bool:
        return _can_finish(self.marks, tuple(sorted(self.hand)), self.piles, self.state, self.minimum)

    def is_over(self) -> bool:
        """All cards played, or the player to move cannot make a complete turn."""
        if self.cards_left == 0:
            return True
        return self.played == 0 and not self.turn_completable()

    def legal_moves(self) -> list[Play | EndTurn]:
        if self.is_over():
            return []
        hand, moves = self.hand, []
        for i, card in enumerate(hand):
            rest = tuple(sorted(hand[:i] + hand[i + 1:]))
            for pile in range(4):
                after = _allowed(self.instructions, self.piles, self.state, card, pile)
                if after and _can_finish(self.marks, rest, _put(self.piles, pile, card), after, self.minimum):
                    moves.append(Play(card, pile, self.instruction(card)))
        if _may_end(self.instructions, self.piles, self.state, self.minimum):
            moves.append(EndTurn())
        return moves

    def _apply(self, move: Play | EndTurn) -> Position:
        after = super()._apply(move)
        if isinstance(move, Play):
            played, turn_pile, three, stopped = _allowed(self.instructions, self.piles, self.state, move.card, move.pile)
            covered = self.piles[move.pile]  # hidden for good: its mark no longer matters
            marks = tuple(mark for mark in self.marks if mark[0] != covered)
            return replace(after, marks=marks, turn_pile=turn_pile, three=three, stopped=stopped)
        return replace(after, turn_pile=None, three=False, stopped=False)

    def drawn(self) -> tuple[int, ...]:
        """Exactly one card while a draw-one shows, else back up to the hand size."""
        if self.visible("draw-one"):
            return self.draw[:1]
        return super().drawn()


def _extend(position: base.Position, **extra) -> Position:
    return Position(*(getattr(position, f.name) for f in fields(base.Position)), **extra)


def deal_marks(seed: int, top: int = base.TOP) -> tuple[tuple[int, str], ...]:
    """The seeded instructions: the generator of The Game's deal goes on and shuffles 2..top
    afresh; its first 4 values carry stop, the next 4 skull, and so on in the order of KINDS."""
    rng = SplitMix64(seed)
    for _ in range(top - 2):  # the draws The Game's shuffle of 2..top made
        rng.next()
    order = shuffle_with(list(range(2, top + 1)), rng)
    return tuple(sorted((card, KINDS[i // PER_KIND]) for i, card in enumerate(order[:PER_KIND * len(KINDS)])))


def deal(seed: int, players: int = 1, expert: bool = False, smaller_hand: bool = False,
         top: int = base.TOP, hand_size: int | None = None) -> Position:
    """The Game's seeded deal for this seed and player count, with the seeded instructions."""
    cards = base.deal(seed, players, expert, smaller_hand, top, hand_size)
    position = _extend(cards, marks=deal_marks(seed, top))
    check_position(position)
    return position


def start(position: Position, starter: int | str) -> Position:
    return position.start(starter)


def check_position(position: Position) -> None:
    """The Game's checks, then the instructions: at most 4 of each kind, a full deal with all 28,
    marks only on cards in play or on a pile top, and the turn state consistent."""
    p = position
    base.check_position(p)
    if p.turn_pile not in (None, *range(len(PILES)), MIXED):  # edited with dataclasses.replace: -1 overflowed the kernel
        raise IllegalPositionError(f"turn pile {p.turn_pile!r}: a pile's index 0 to {len(PILES) - 1}, {MIXED} (mixed) or None")
    counts = {kind: 0 for kind in KINDS}
    shown = set(p.draw).union(*p.hands, {t for t in p.piles if 2 <= t <= p.top})  # not a pile's start (1, 100)
    for mark in p.marks:
        if not (isinstance(mark, tuple) and len(mark) == 2 and mark[1] in KINDS):  # edited with dataclasses.replace
            raise IllegalPositionError(f"mark {mark!r}: a (card, instruction) pair, the instruction one of {', '.join(KINDS)}")
        card, kind = mark
        if card not in shown:
            raise IllegalPositionError(f"card {card} is marked {kind} but is not in a hand, the draw pile or on a pile top")
        counts[kind] += 1
    cards = [card for card, _ in p.marks]
    if cards != sorted(set(cards)):  # edited: equal positions would compare unequal
        twice = sorted({card for card in cards if cards.count(card) > 1})
        raise IllegalPositionError(f"card {twice[0]} is marked twice" if twice else
                                   f"marks {p.marks!r}: not in card order, as positions keep them")
    for kind, count in counts.items():
        if count > PER_KIND:
            raise IllegalPositionError(f"{count} cards carry {kind}; the deck has {PER_KIND} of each instruction")
    marked = min(PER_KIND * len(KINDS), p.top - 1)
    hidden = p.top - 1 - len(set(p.draw).union(*p.hands)) - len({t for t in p.piles if 2 <= t <= p.top})
    if marked - len(p.marks) > hidden:
        raise IllegalPositionError(
            f"the position shows {amount(len(p.marks), 'instruction')}; a deck 2..{p.top} has {marked}"
            f" and only {amount(hidden, 'card')} hidden under the piles")
    if p.to_move is not None and p.draw:  # a turn ends with a draw of at least one card while any are left
        for number, hand in enumerate(p.hands, start=1):
            if not hand and number != p.to_move:
                raise IllegalPositionError(f"hand {number} is empty with {len(p.draw)} left to draw; a turn ends with a"
                                           " draw of at least one card while the draw pile lasts")
    if p.to_move is None or p.played == 0:
        if p.turn_pile is not None or p.three or p.stopped:
            raise IllegalPositionError("'this-turn:' describes cards played this turn, but 'played:' is 0")
        if p.visible("skull"):
            raise IllegalPositionError("a skull shows on a pile top at the start of a turn; it must be covered in the turn it is played")
        return
    if p.turn_pile is None:
        raise IllegalPositionError(f"{amount(p.played, 'card')} played this turn: a 'this-turn:' line must name the piles they went on")
    untouched = [pile for pile, (now, start) in enumerate(zip(p.piles, base.start_piles(p.top))) if now == start]
    if p.turn_pile in untouched:
        raise IllegalPositionError(f"'this-turn: {PILES[p.turn_pile]}', but no card was ever played on {PILES[p.turn_pile]}")
    if p.turn_pile == MIXED and p.played < 2:
        raise IllegalPositionError("'this-turn: mixed' says this turn's cards went on two piles or more, but 'played:' is 1")
    if p.turn_pile == MIXED and len(untouched) > len(PILES) - 2:
        raise IllegalPositionError("'this-turn: mixed' says this turn's cards went on two piles or more, but only one"
                                   " pile has ever had a card")
    if p.three and p.played > THREE:
        raise IllegalPositionError(f"{amount(p.played, 'card')} played this turn with a three; a turn with a three has exactly {THREE}")
    if p.stopped and p.three and p.played != THREE:
        raise IllegalPositionError(f"'this-turn:' says a three was played and a stop ended the turn after {amount(p.played, 'card')};"
                                   f" with a three, a stop may only be the turn's third card")
    if p.turn_pile != MIXED:  # the turn's pile shows the turn's last card
        last = p.piles[p.turn_pile]
        kind, named = p.instruction(last), PILES[p.turn_pile]
        if kind == "three" and not p.three:
            raise IllegalPositionError(f"{last}!three on {named} is this turn's last card, so a three was played"
                                       f" this turn: the 'this-turn:' line must say 'this-turn: {named} three'")
        if kind == "stop" and not p.stopped:
            raise IllegalPositionError(f"{last}!stop on {named} is this turn's last card, so a stop ended this turn:"
                                       f" the 'this-turn:' line must say 'stop'")
        if p.stopped and kind != "stop":
            raise IllegalPositionError(f"'this-turn:' says a stop ended this turn, but {named} shows {last},"
                                       f" this turn's last card, which is not a stop")
        if p.three and p.played == 1 and kind != "three":
            raise IllegalPositionError(f"'this-turn:' says a three was played this turn, but {named} shows {last},"
                                       f" this turn's only card, which is not a three")
    elif p.stopped and not p.visible("stop"):
        raise IllegalPositionError("'this-turn:' says a stop ended this turn, but no pile shows a stop")
    elif p.three and p.played == 2 and not p.visible("three"):  # one card on each of two piles: both show
        raise IllegalPositionError("'this-turn:' says a three was played this turn, but this turn's 2 cards"
                                   " show on two piles and neither is a three")
    if not p.turn_completable():
        raise IllegalPositionError(f"player {p.to_move} cannot complete this turn by the instructions")


_MARK = re.compile(r"^([0-9]+)!(.*)$")
_MARKED_LINES = re.compile(r"^\s*(hand\s+\d+|draw|piles)\s*:", re.IGNORECASE)
_TURN = re.compile(r"^\s*this-turn\s*:(.*)$", re.IGNORECASE)
#: The lines of a position: The Game's and the turn's state.
USAGE = {**base.FIELD_USAGE, "this-turn": "this-turn: up1"}


def parse(text: str, players: int | None = None, expert: bool = False, smaller_hand: bool = False) -> Position:
    """A deal or position: The Game's text with `card!instruction` tokens, and mid-turn a
    `this-turn:` line naming the piles the turn's cards went on and `three` / `stop` if played."""
    named_lines(text, USAGE)  # a line given twice is named so, before its marks read as cards marked twice
    marks: dict[int, tuple[str, int]] = {}
    turn, lines = None, []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0]
        match = _TURN.match(line)
        if match:
            turn, line = (match.group(1), number), ""
        elif _MARKED_LINES.match(line):
            name, _, value = line.partition(":")
            tokens = []
            for token in value.split():
                mark = _MARK.match(token)
                if mark:
                    card, kind = parse_number(mark.group(1), number, " ".join(name.split())), mark.group(2).lower()
                    if kind not in KINDS:
                        raise ParseError(f"{quoted(token)}: unknown instruction {quoted(kind)}; known are {', '.join(KINDS)}", number)
                    if card in marks:
                        raise ParseError(f"card {card} is marked twice (also on line {marks[card][1]})", number)
                    marks[card] = (kind, number)
                    token = mark.group(1)
                tokens.append(token)
            line = f"{name}: {' '.join(tokens)}"
        lines.append(line)
    turn_pile, three, stopped = None, False, False
    if turn is not None:
        words = turn[0].lower().replace(",", " ").split()
        unknown = [w for w in words if w not in PILES and w not in ("mixed", "three", "stop")]
        if unknown:
            raise ParseError(f"'this-turn:' takes pile names (or 'mixed') and 'three', 'stop'; not {quoted(unknown[0])}", turn[1])
        used = {PILES.index(w) if w in PILES else MIXED for w in words if w not in ("three", "stop")}
        turn_pile = None if not used else used.pop() if len(used) == 1 else MIXED
        three, stopped = "three" in words, "stop" in words
    make = partial(Position, marks=tuple(sorted((c, k) for c, (k, _) in marks.items())),
                   turn_pile=turn_pile, three=three, stopped=stopped)
    position = base.parse("\n".join(lines), players, expert, smaller_hand, make=make, usage=USAGE)
    check_position(position)
    return position


def format_position(position: Position) -> str:
    """The Game's text with every marked card written `card!instruction`, and mid-turn a
    `this-turn:` line."""
    p = position
    out = []
    for line in base.format_position(p).splitlines():
        if _MARKED_LINES.match(line):
            name, _, value = line.partition(":")
            value = " ".join(f"{t}!{p.instruction(int(t))}" if t.isdigit() and p.instruction(int(t)) else t
                             for t in value.split())
            line = f"{name}: {value}"
        out.append(line)
    if p.to_move is not None and p.played:
        names = [PILES[p.turn_pile] if p.turn_pile != MIXED else "mixed"]
        out.append("this-turn: " + " ".join(names + ["three"] * p.three + ["stop"] * p.stopped))
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class Turn(base.Turn):
    """A turn of a line, each play with its card's instruction (`45 up1 [stop]`)."""

    marks: tuple[tuple[int, str], ...] = ()

    def to_json(self) -> dict:
        table = dict(self.marks)
        data = super().to_json()
        for play in data["plays"]:
            if play["card"] in table:
                play["instruction"] = table[play["card"]]
        return data

    def __str__(self) -> str:
        table = dict(self.marks)
        plays = ", ".join(f"{p.card}{'!' + table[p.card] if p.card in table else ''} {PILES[p.pile]}"
                          f"{' (backwards)' if back else ''}" for p, back in self.plays)
        drew = f"; drew {' '.join(map(str, self.drew))}" if self.drew else ""
        return f"player {self.player}: {plays or 'no plays'}{drew}"


def turns(start: Position, moves: list) -> list[Turn]:
    """A line of moves grouped into turns, replaying every move."""
    return [Turn(t.player, t.plays, t.drew, start.marks) for t in base.turns(start, moves)]


def key(position: Position) -> tuple:
    """The memo key of the reference search: every field that shapes the future (no pile
    symmetry: the turn state names piles)."""
    p = position
    return (p.piles, tuple(tuple(sorted(h)) for h in p.hands), p.draw, p.to_move, p.state)


def canonical(position: Position) -> tuple:
    """A key equal for positions whose futures are the same: `key` with the two ascending piles
    put in order, and the two descending, the turn's pile renamed with them (instructions are
    marks on cards, so they move with the piles)."""
    p = position
    order = sorted(range(2), key=lambda i: p.piles[i]) + sorted(range(2, 4), key=lambda i: p.piles[i])
    turn_pile = order.index(p.turn_pile) if p.turn_pile in range(4) else p.turn_pile
    return (tuple(p.piles[i] for i in order), tuple(tuple(sorted(h)) for h in p.hands), p.draw, p.to_move,
            (p.played, turn_pile, p.three, p.stopped))


def fewest_cards_left(position: Position) -> tuple[int, list]:
    """(fewest cards left, a line reaching it) by plain exhaustive search. For small decks."""
    return base.fewest_cards_left(position, key)
