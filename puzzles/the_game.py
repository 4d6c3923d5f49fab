"""The Game (Steffen Benndorf) with every hand and the draw pile open: the reference rules.

Cards 2..99 (a reduced deck 2..N for tests), two ascending piles starting at 1 and two descending
piles starting at N+1. On a turn the player plays cards one at a time: on an ascending pile a card
higher than the top or exactly 10 lower (a backwards trick), on a descending pile a card lower
or exactly 10 higher. At least 2 (expert: 3) while the draw pile lasts, at least 1 after; then
they draw back up to the hand size. Players with no cards are skipped. The game ends when the
player to move cannot play the minimum, or when every card is played; the result is the number
of cards left (docs/games/the-game.md).

Rule decision (the rules are silent): the minimum is an obligation, so a play after which the
player could no longer complete it is illegal. Stopping short instead would leave more cards than
completing the turn, since cards never come back, so this does not change any optimum.

This module is the oracle the Rust kernel is tested against: it parses, formats, lists legal
moves, applies them, and holds a plain exhaustive search for the fewest cards left on small decks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .cards import shuffled
from .errors import IllegalMoveError, IllegalPositionError, ParseError, quoted
from .lines import replay  # noqa: F401  (part of each game's rules)
from .text import NUMBER, amount, named_lines, parse_number

NAME = "the-game"
TITLE = "The Game"
PILES = ("up1", "up2", "down1", "down2")
TOP = 99
MAX_PLAYERS = 5
#: The largest hand this project handles (the kernel keeps a turn's plays in a fixed array).
MAX_HAND_SIZE = 11


def standard_hand_size(players: int, smaller_hand: bool = False) -> int:
    """8 cards for one player, 7 for two, 6 for three to five; one fewer with the smaller hand."""
    return (8 if players == 1 else 7 if players == 2 else 6) - smaller_hand


def accepts(pile: int, top: int, card: int) -> bool:
    """Whether pile `pile` (0, 1 ascending; 2, 3 descending) with top `top` takes `card`."""
    if pile < 2:
        return card > top or card == top - 10
    return card < top or card == top + 10


def is_backwards(pile: int, top: int, card: int) -> bool:
    """Whether playing `card` on the pile is a backwards trick (the pile moves back by 10)."""
    return card == (top - 10 if pile < 2 else top + 10)


def lowest_reach(tops: tuple[int, ...], remaining: set[int]) -> int:
    """The lowest top the ascending piles with these `tops` can ever show, given the cards still
    to play: they take every remaining card above their lowest top, and from any top x (a card
    taken or a current top) card x-10 if it remains. Mirrored for descending piles by
    `highest_reach`. The Rust kernel's dead-card bound computes the same."""
    low = min(tops)
    while True:
        reach = {c for c in remaining if c > low} | {t - 10 for t in tops if t - 10 in remaining}
        frontier = list(reach)
        while frontier:
            card = frontier.pop() - 10
            if card in remaining and card not in reach:
                reach.add(card)
                frontier.append(card)
        lowest = min(reach, default=low)
        if lowest >= low:
            return low
        low = lowest


def highest_reach(tops: tuple[int, ...], remaining: set[int]) -> int:
    """The highest top the descending piles with these `tops` can ever show (see lowest_reach)."""
    return -lowest_reach(tuple(-t for t in tops), {-c for c in remaining})


def deepest_under(top: int, gone: set[int]) -> int:
    """The highest card that can lie under an ascending pile showing `top`, when the cards in
    `gone` are all that can be under it. Read backwards, a pile's history steps from each top
    to any lower card or to the card exactly 10 higher, so everything under it is at most the
    highest card reached from `top` by +10 steps from cards at or below what is reached so far.
    Mirrored (negated cards) for descending piles."""
    reach = top
    while True:
        higher = [c + 10 for c in (top, *gone) if c <= reach < c + 10 and c + 10 in gone]
        if not higher:
            return reach
        reach = max(higher)


def dead_cards(position: Position) -> list[int]:
    """The cards no pile can ever take again: below every top the ascending piles can reach and
    above every top the descending piles can reach. They stay to the end of the game."""
    remaining = set(position.draw).union(*position.hands)
    low = lowest_reach(position.piles[:2], remaining)
    high = highest_reach(position.piles[2:], remaining)
    return sorted(c for c in remaining if high < c < low)


@dataclass(frozen=True)
class Play:
    """One card onto one pile (0 up1, 1 up2, 2 down1, 3 down2): `45 on up1`. A card of The
    Game: Extreme that bears an instruction is shown with it (`55!stop on up1`); the
    instruction is the card's, not the move's, so plays compare equal without it."""

    card: int
    pile: int
    instruction: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        mark = f"!{self.instruction}" if self.instruction else ""
        return f"{self.card}{mark} on {PILES[self.pile]}"

    _PATTERN = re.compile(rf"^\s*({NUMBER})(?:!([a-z-]+))?\s+on\s+(up1|up2|down1|down2)\s*$")

    @classmethod
    def parse(cls, text: str) -> Play:
        match = cls._PATTERN.match(text.lower())
        if not match:
            raise ParseError(f"{quoted(text)} is not a play like '45 on up1' (piles up1 up2 down1 down2)")
        return cls(int(match.group(1)), PILES.index(match.group(3)), match.group(2))

    def to_json(self) -> dict:
        data = {"card": self.card, "pile": PILES[self.pile]}
        return data if self.instruction is None else {**data, "instruction": self.instruction}


@dataclass(frozen=True)
class EndTurn:
    """The player to move ends the turn and draws back up to the hand size."""

    def __str__(self) -> str:
        return "end turn"

    @classmethod
    def parse(cls, text: str) -> EndTurn:
        if text.strip().lower() != "end turn":
            raise ParseError(f"{quoted(text)} is not 'end turn'")
        return cls()

    def to_json(self) -> dict:
        return {"end_turn": True}


def parse_move(text: str) -> Play | EndTurn:
    """A play (`45 on up1`) or `end turn`."""
    return EndTurn.parse(text) if text.strip().lower() == "end turn" else Play.parse(text)


def can_play(hand: tuple[int, ...], piles: tuple[int, ...], need: int) -> bool:
    """Whether `need` cards of `hand` can be played one after another onto `piles`."""
    return _can_play(tuple(sorted(hand)), tuple(piles), need)


@lru_cache(maxsize=1 << 16)
def _can_play(hand: tuple[int, ...], piles: tuple[int, ...], need: int) -> bool:
    if need <= 0:
        return True
    for i, card in enumerate(hand):
        for p, top in enumerate(piles):
            if accepts(p, top, card):
                rest = hand[:i] + hand[i + 1:]
                if _can_play(rest, piles[:p] + (card,) + piles[p + 1:], need - 1):
                    return True
    return False


@dataclass(frozen=True)
class Position:
    """Hands (in the order held), the draw pile (next card first), the four pile tops (up1 up2
    down1 down2), whose turn it is (1-based; None for a deal whose starter is still to be
    chosen), how many cards that player has played this turn, and the variant: expert minimum,
    hand size and the highest card of the deck."""

    hands: tuple[tuple[int, ...], ...]
    draw: tuple[int, ...]
    piles: tuple[int, int, int, int] = (1, 1, TOP + 1, TOP + 1)
    to_move: int | None = None
    played: int = 0
    expert: bool = False
    hand_size: int = 8
    top: int = TOP

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def cards_left(self) -> int:
        """Cards not yet played: every hand plus the draw pile."""
        return len(self.draw) + sum(len(hand) for hand in self.hands)

    @property
    def minimum(self) -> int:
        """Cards the player to move must play this turn."""
        return self.minimum_while_drawing if self.draw else 1

    @property
    def minimum_while_drawing(self) -> int:
        """Cards a turn must play while the draw pile lasts (1 after)."""
        return 3 if self.expert else 2

    @property
    def hand(self) -> tuple[int, ...]:
        return self.hands[self._mover() - 1]

    def start(self, starter: int | str) -> Position:
        """This deal with player `starter` (1-based) to move first."""
        starter = int(starter)
        if not 1 <= starter <= self.players:
            raise IllegalPositionError(f"player {starter} does not exist; there are {self.players}")
        return replace(self, to_move=starter, played=0)

    def turn_completable(self) -> bool:
        """Whether the player to move can still play the cards this turn needs (the variant
        with instructions, puzzles/the_game_extreme.py, adds its own conditions)."""
        return can_play(self.hand, self.piles, self.minimum - self.played)

    #: Whether a hand may hold fewer than the hand size while the draw pile lasts (not here).
    SHORT_HANDS = False

    def instruction(self, card: int) -> str | None:
        """The instruction `card` bears: none here (Extreme's cards bear them)."""
        return None

    def is_over(self) -> bool:
        """All cards played, or the player to move cannot start a turn of the minimum."""
        if self.cards_left == 0:
            return True
        return self.played == 0 and not can_play(self.hand, self.piles, self.minimum)

    def is_won(self) -> bool:
        return self.cards_left == 0

    def legal_moves(self) -> list[Play | EndTurn]:
        if self.is_over():
            return []
        hand, need = self.hand, self.minimum - self.played - 1
        moves = []
        for i, card in enumerate(hand):
            rest = hand[:i] + hand[i + 1:]
            for pile, top in enumerate(self.piles):
                if accepts(pile, top, card) and can_play(rest, self._after(pile, card), need):
                    moves.append(Play(card, pile))
        if self.played >= self.minimum:
            moves.append(EndTurn())
        return moves

    def _after(self, pile: int, card: int) -> tuple[int, ...]:
        return self.piles[:pile] + (card,) + self.piles[pile + 1:]

    def apply(self, move: Play | EndTurn) -> Position:
        """The position after `move`; IllegalMoveError if it is not legal here."""
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move} is not a legal move here")
        return self._apply(move)

    def _apply(self, move: Play | EndTurn) -> Position:
        """`apply` for a move known to be legal."""
        mover = self._mover()
        hands = list(self.hands)
        if isinstance(move, Play):
            hand = list(hands[mover - 1])
            hand.remove(move.card)
            hands[mover - 1] = tuple(hand)
            return replace(self, hands=tuple(hands), piles=self._after(move.pile, move.card), played=self.played + 1)
        drawn = self.drawn()
        hands[mover - 1] = self.hand + drawn
        following = next(
            (mover + k - 1) % self.players + 1 for k in range(1, self.players + 1)
            if hands[(mover + k - 1) % self.players]
        )
        return replace(self, hands=tuple(hands), draw=self.draw[len(drawn):], to_move=following, played=0)

    def drawn(self) -> tuple[int, ...]:
        """The cards the player to move draws when ending the turn here."""
        return self.draw[:max(0, self.hand_size - len(self.hand))]

    def _mover(self) -> int:
        if self.to_move is None:
            raise IllegalPositionError("a deal has no player to move yet: choose a starter first")
        return self.to_move


def start_piles(top: int = TOP) -> tuple[int, int, int, int]:
    return (1, 1, top + 1, top + 1)


def deal(seed: int, players: int = 1, expert: bool = False, smaller_hand: bool = False,
         top: int = TOP, hand_size: int | None = None) -> Position:
    """The seeded deal: the deck 2..top shuffled, player p (0-based) gets cards [p*H, (p+1)*H),
    the rest is the draw pile, next card first."""
    _check_players(players)
    size = standard_hand_size(players, smaller_hand) if hand_size is None else hand_size
    deck = shuffled(list(range(2, top + 1)), seed)
    hands = tuple(tuple(deck[p * size:(p + 1) * size]) for p in range(players))
    position = Position(hands, tuple(deck[players * size:]), start_piles(top), None, 0, expert, size, top)
    check_position(position)
    return position


def _check_players(players: int) -> None:
    if not 1 <= players <= MAX_PLAYERS:
        raise IllegalPositionError(f"{players} players; {TITLE} is for 1 to {MAX_PLAYERS}")


def check_position(position: Position) -> None:
    """Raises IllegalPositionError unless the position can arise in the game."""
    p = position
    _check_players(p.players)
    if len(p.piles) != len(PILES):  # a position edited with dataclasses.replace; the kernel took it as a plain ValueError
        raise IllegalPositionError(f"{amount(len(p.piles), 'pile')}; {TITLE} has {len(PILES)}: {' '.join(PILES)}")
    if not 2 <= p.top <= TOP:
        raise IllegalPositionError(f"highest card {p.top}; the deck is 2..N with N from 2 to {TOP}")
    if p.hand_size < p.minimum_while_drawing:
        raise IllegalPositionError(f"hand size {p.hand_size} is below the minimum of a turn")
    if p.hand_size > MAX_HAND_SIZE:
        raise IllegalPositionError(f"hand size {p.hand_size}: winnable handles hands of up to {MAX_HAND_SIZE} cards")
    deck = set(range(2, p.top + 1))
    seen = set()
    for card in [c for hand in p.hands for c in hand] + list(p.draw):
        if card not in deck:
            raise IllegalPositionError(f"card {card} is not in the deck 2..{p.top}")
        if card in seen:
            raise IllegalPositionError(f"card {card} appears twice")
        seen.add(card)
    gone = deck - seen
    if p.to_move is None:
        for number, hand in enumerate(p.hands, start=1):
            dealt = min(p.hand_size, max(0, len(deck) - (number - 1) * p.hand_size))
            if len(hand) != dealt:
                raise IllegalPositionError(f"hand {number} holds {amount(len(hand), 'card')}; a deal gives it {dealt}")
        if gone:
            raise IllegalPositionError(
                f"{amount(len(gone), 'card')} of 2..{p.top} missing; a deal has them all"
                " (a position mid-game needs 'piles:', 'to-move:' and 'played:' lines)"
            )
        if tuple(p.piles) != start_piles(p.top) or p.played:  # a deal edited in code; its text says neither
            raise IllegalPositionError(f"a deal has its piles at {' '.join(map(str, start_piles(p.top)))} and nothing "
                                       f"played, not piles {' '.join(map(str, p.piles))} and {p.played} played")
        return
    start = start_piles(p.top)
    moved = [top for top, first in zip(p.piles, start) if top != first]
    for pile, (top, first) in enumerate(zip(p.piles, start)):
        if top != first and top not in gone:
            where = "not in the deck" if top not in deck else "still in a hand or the draw pile"
            raise IllegalPositionError(f"pile {PILES[pile]} shows {top}, which is {where}")
    if len(set(moved)) != len(moved):
        raise IllegalPositionError(f"two piles show the same card: {' '.join(map(str, p.piles))}")
    if gone and not moved:
        raise IllegalPositionError(f"{amount(len(gone), 'card')} gone but every pile is at its start")
    _check_cards_under_piles(p, gone - set(moved))
    if not 1 <= p.to_move <= p.players:
        raise IllegalPositionError(f"to-move {p.to_move}: there are players 1 to {p.players}")
    if not 0 <= p.played <= len(gone):
        raise IllegalPositionError(f"{amount(p.played, 'card')} played this turn but only {len(gone)} are gone")
    if p.played > p.hand_size:  # before the hands, whose size it would make negative
        raise IllegalPositionError(f"{p.played} cards played this turn from a hand of {p.hand_size}")
    for number, hand in enumerate(p.hands, start=1):
        full = p.hand_size - (p.played if number == p.to_move else 0)
        if len(hand) > full or (p.draw and len(hand) != full and not p.SHORT_HANDS):
            rule = "exactly" if p.draw and not p.SHORT_HANDS else "at most"
            raise IllegalPositionError(
                f"hand {number} holds {amount(len(hand), 'card')}; with {len(p.draw)} left to draw it must hold {rule} {full}"
            )
    if p.played == 0 and not p.hand and seen:
        raise IllegalPositionError(f"player {p.to_move} is to move with no cards; such players are skipped")
    if 0 < p.played < p.minimum and not p.turn_completable():
        raise IllegalPositionError(
            f"player {p.to_move} has played {p.played} of the {p.minimum} cards a turn needs and cannot play the rest"
        )


def _check_cards_under_piles(position: Position, under: set[int]) -> None:
    """Every card gone but showing on no pile must be able to lie under one (`deepest_under`)."""
    p = position
    start = start_piles(p.top)
    up = [deepest_under(top, under) for top, first in zip(p.piles[:2], start) if top != first]
    down = [-deepest_under(-top, {-c for c in under}) for top, first in zip(p.piles[2:], start[2:]) if top != first]
    for card in sorted(under):
        if not any(card <= bound for bound in up) and not any(card >= bound for bound in down):
            tops = ", ".join(f"{name} at {top}" for name, top in zip(PILES, p.piles))
            raise IllegalPositionError(
                f"card {card} is gone, but no pile can have it underneath ({tops}; a pile goes back"
                " only by exactly 10)")


FIELD_USAGE = {
    "draw": "draw: 12 88 ... (next card first, '-' for none)",
    "piles": "piles: 1 1 100 100 (up1 up2 down1 down2)",
    "to-move": "to-move: 1",
    "played": "played: 0 (cards the player to move has played this turn)",
    "variant": "variant: expert smaller-hand",
    "cards": "cards: 2-99",
    "hand-size": "hand-size: 8",
}


def parse(text: str, players: int | None = None, expert: bool = False, smaller_hand: bool = False,
          make: type = Position, usage: dict[str, str] = FIELD_USAGE) -> Position:
    """A deal or position from text (see the module docstring of `format_position`); `make`
    builds it (a variant passes its own Position with its extra fields bound, and in `usage` the
    lines it reads itself beside The Game's, so that an unknown line's error names them too)."""
    fields, hands = named_lines(text, usage)
    if players is not None and players != len(hands):
        raise ParseError(f"{amount(len(hands), 'hand line')} but --players {players}")
    seen: dict[int, int] = {}

    def numbers(value: str, line: int, what: str, count: int | None = None) -> list[int]:
        result = [parse_number(token, line, what) for token in ([] if value == "-" else value.split())]
        if count is not None and len(result) != count:
            raise ParseError(f"{what} needs {count} numbers, not {quoted(value)}", line)
        return result

    def cards(value: str, line: int, what: str) -> tuple[int, ...]:
        result = numbers(value, line, what)
        for card in result:
            if not 2 <= card <= top:  # named here, with its line: check_position could only name the card
                raise ParseError(f"card {card} is not in the deck 2..{top}", line)
            if card in seen:
                raise ParseError(f"duplicate card {card} (also on line {seen[card]})", line)
            seen[card] = line
        return tuple(result)

    variant = set()
    if "variant" in fields:
        value, line = fields["variant"]
        words = value.lower().replace(",", " ").split()
        variant = set(words)
        if variant - {"expert", "smaller-hand"}:
            raise ParseError(f"variant {quoted(value)}: known variants are expert and smaller-hand", line)
        repeated = [word for i, word in enumerate(words) if word in words[:i]]
        if repeated:
            raise ParseError(f"variant {quoted(value)} names {repeated[0]} twice", line)
    top = TOP
    if "cards" in fields:
        value, line = fields["cards"]
        match = re.fullmatch(rf"2\s*-\s*({NUMBER})", value)
        if not match:
            raise ParseError(f"cards {quoted(value)} must be a range 2-N", line)
        top = int(match.group(1))
        if not 2 <= top <= TOP:
            raise ParseError(f"highest card {top}; the deck is 2..N with N from 2 to {TOP}", line)
    smaller = smaller_hand or "smaller-hand" in variant
    size = standard_hand_size(len(hands), smaller)
    if "hand-size" in fields:
        value, line = fields["hand-size"]
        size = numbers(value, line, "hand-size", 1)[0]
    if "to-move" in fields:
        for name in ("draw", "piles"):
            if name not in fields:
                raise ParseError(f"a position mid-game needs a '{FIELD_USAGE[name]}' line")
    else:
        for name in ("piles", "played"):
            if name in fields:
                raise ParseError(f"a '{name}:' line belongs to a position mid-game, which also needs"
                                 f" '{FIELD_USAGE['to-move']}'; a deal has none", fields[name][1])
    parsed_hands = tuple(cards(*hands[n], f"hand {n}") for n in range(1, len(hands) + 1))
    draw = cards(*fields["draw"], "draw") if "draw" in fields else ()
    piles = start_piles(top)
    if "piles" in fields:
        piles = tuple(numbers(*fields["piles"], "piles", 4))
    to_move = None
    if "to-move" in fields:
        to_move = numbers(*fields["to-move"], "to-move", 1)[0]
    played = numbers(*fields["played"], "played", 1)[0] if "played" in fields else 0
    position = make(parsed_hands, draw, piles, to_move, played, expert or "expert" in variant, size, top)
    check_position(position)
    return position


def format_position(position: Position) -> str:
    """The text form `parse` reads back: optional `variant: expert`, `cards: 2-N` and
    `hand-size: N` (written when not the standard size, e.g. with the smaller hand) lines,
    one `hand N:` line per player, the `draw:` line (next card first), and for a position mid-game
    `piles:`, `to-move:` and `played:`."""
    p = position
    lines = ["variant: expert"] if p.expert else []
    if p.top != TOP:
        lines.append(f"cards: 2-{p.top}")
    if p.hand_size != standard_hand_size(p.players):
        lines.append(f"hand-size: {p.hand_size}")
    for number, hand in enumerate(p.hands, start=1):
        lines.append(f"hand {number}: {' '.join(map(str, hand)) or '-'}")
    lines.append(f"draw: {' '.join(map(str, p.draw)) or '-'}")
    if p.to_move is not None:
        lines.append(f"piles: {' '.join(map(str, p.piles))}")
        lines.append(f"to-move: {p.to_move}")
        lines.append(f"played: {p.played}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Turn:
    """One player's turn in a line: the plays in order (with whether each was a backwards
    trick) and the cards drawn after it (none when the game ended during the turn)."""

    player: int
    plays: tuple[tuple[Play, bool], ...]
    drew: tuple[int, ...] = ()

    def to_json(self) -> dict:
        return {"player": self.player, "plays": [play.to_json() for play, _ in self.plays], "drew": list(self.drew)}

    def __str__(self) -> str:
        plays = ", ".join(f"{p.card} {PILES[p.pile]}{' (backwards)' if back else ''}" for p, back in self.plays)
        drew = f"; drew {' '.join(map(str, self.drew))}" if self.drew else ""
        return f"player {self.player}: {plays or 'no plays'}{drew}"


def turns(start: Position, moves: list) -> list[Turn]:
    """A line of moves grouped into turns, replaying every move."""
    result, position, player, plays = [], start, None, []
    for move in moves:
        if player is None:
            player, plays = position.to_move, []
        if isinstance(move, Play):
            plays.append((move, is_backwards(move.pile, position.piles[move.pile], move.card)))
        else:
            result.append(Turn(player, tuple(plays), position.drawn()))
            player = None
        position = position.apply(move)
    if player is not None:
        result.append(Turn(player, tuple(plays)))
    return result


def canonical(position: Position) -> tuple:
    """A key equal for positions whose futures are the same: the two ascending piles are
    interchangeable, as are the two descending ones, and the order within a hand does not matter."""
    p = position
    piles = tuple(sorted(p.piles[:2])) + tuple(sorted(p.piles[2:]))
    return (piles, tuple(tuple(sorted(h)) for h in p.hands), p.draw, p.to_move, p.played)


def fewest_cards_left(position: Position, key=canonical) -> tuple[int, list]:
    """(fewest cards left, a line of moves reaching it) from a position with a player to move,
    by plain exhaustive search memoised on `key` (the canonical key; a variant passes its own).
    Exponential: for small decks."""
    memo: dict[tuple, int] = {}

    def value(pos: Position) -> int:
        k = key(pos)
        if k not in memo:
            moves = pos.legal_moves()
            memo[k] = min((value(pos._apply(m)) for m in moves), default=pos.cards_left)
        return memo[k]

    best = value(position)
    line, pos = [], position
    while pos.legal_moves():
        move = next(m for m in pos.legal_moves() if value(pos._apply(m)) == best)
        line.append(move)
        pos = pos.apply(move)
    return best, line
