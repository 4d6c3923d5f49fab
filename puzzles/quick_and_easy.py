"""The Game: Quick & Easy with every hand and the draw pile open: the reference rules.

50 cards, values 1-10 in five colours (R Y G B P), two piles, both empty at the start: one
ascending, one descending. Players 1 to 5 (one is the project's solo extension) hold 2 cards
each. On a turn the player plays 1 or 2 cards (the professional variant: exactly 1), each on
either pile: any card on an empty pile; on the ascending pile a higher value, on the descending a
lower one; and, the colour trick, any card of the same colour as the pile's top. Then they draw
back to 2 while the draw pile lasts. Players with no cards are skipped. The game is lost when the
player to move cannot play a card; won when all 50 are played (docs/games/quick-and-easy.md).

Rule decisions (the rules are silent): the second card of a turn is the player's choice; the
colour trick may be used any number of times, on either pile, also by the second card of a turn.

This module is the oracle the engine is tested against: it parses, formats, lists legal moves,
applies them, and holds a plain exhaustive search for the most cards played on small decks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from .cards import shuffled
from .errors import IllegalMoveError, IllegalPositionError, ParseError, quoted
from .lines import replay  # noqa: F401  (part of each game's rules)
from .text import amount, named_lines, parse_number

NAME = "quick-and-easy"
TITLE = "The Game: Quick & Easy"
COLOURS = "RYGBP"
VALUES = 10
DECK = tuple(range(len(COLOURS) * VALUES))
HAND = 2
MAX_PLAYERS = 5
PILES = ("up", "down")
EMPTY = None


def value(card: int) -> int:
    return card % VALUES + 1


def colour(card: int) -> int:
    return card // VALUES


def card_name(card: int) -> str:
    return f"{value(card)}{COLOURS[colour(card)]}"


_CARD = re.compile(r"^(10|[1-9])([RYGBP])$", re.IGNORECASE)


def parse_card(text: str, line: int | None = None) -> int:
    """`7R`, `10b`: a value 1-10, then a colour letter."""
    match = _CARD.match(text)
    if not match:
        raise ParseError(f"{quoted(text)} is not a card (a value 1-10, then a colour of {' '.join(COLOURS)}, as in 7R)", line)
    return COLOURS.index(match.group(2).upper()) * VALUES + int(match.group(1)) - 1


def accepts(pile: int, top: int | None, card: int) -> bool:
    """Whether pile `pile` (0 ascending, 1 descending) with `top` (None: empty) takes `card`."""
    if top is None or colour(card) == colour(top):
        return True
    return value(card) > value(top) if pile == 0 else value(card) < value(top)


def is_colour_trick(pile: int, top: int | None, card: int) -> bool:
    """A play that only the colour trick allows (the value goes the wrong way or stays)."""
    return top is not None and colour(card) == colour(top) and not (
        value(card) > value(top) if pile == 0 else value(card) < value(top))


@dataclass(frozen=True)
class Play:
    card: int
    pile: int

    def __str__(self) -> str:
        return f"{card_name(self.card)} on {PILES[self.pile]}"

    _PATTERN = re.compile(r"^\s*(\S+)\s+on\s+(up|down)\s*$", re.IGNORECASE)

    @classmethod
    def parse(cls, text: str) -> Play:
        match = cls._PATTERN.match(text)
        if not match:
            raise ParseError(f"{quoted(text)} is not a play like '7R on up'")
        return cls(parse_card(match.group(1)), PILES.index(match.group(2).lower()))

    def to_json(self) -> dict:
        return {"card": card_name(self.card), "pile": PILES[self.pile]}


@dataclass(frozen=True)
class EndTurn:
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
    return EndTurn.parse(text) if text.strip().lower() == "end turn" else Play.parse(text)


@dataclass(frozen=True)
class Position:
    """Each player's hand, the draw pile (next card first), the two pile tops (None: empty),
    the player to move (1-based; None for a deal whose players choose who starts), the cards
    they have played this turn, and whether the professional variant is played."""

    hands: tuple[tuple[int, ...], ...]
    draw: tuple[int, ...]
    piles: tuple[int | None, int | None] = (EMPTY, EMPTY)
    to_move: int | None = None
    played: int = 0
    pro: bool = False

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def hand(self) -> tuple[int, ...]:
        return self.hands[self.to_move - 1] if self.to_move else ()

    @property
    def per_turn(self) -> int:
        """The most cards a turn may play."""
        return 1 if self.pro else 2

    @property
    def remaining(self) -> int:
        return sum(map(len, self.hands)) + len(self.draw)

    @property
    def cards_played(self) -> int:
        return len(DECK) - self.remaining

    def start(self, player: int) -> Position:
        if not 1 <= player <= self.players:
            raise IllegalPositionError(f"player {player}: there are players 1 to {self.players}")
        return replace(self, to_move=player, played=0)

    def plays(self) -> list[Play]:
        return [Play(card, pile) for card in self.hand for pile in (0, 1) if accepts(pile, self.piles[pile], card)]

    def legal_moves(self) -> list[Play | EndTurn]:
        """Plays while the turn has room, and the end of the turn once a card is played."""
        if self.to_move is None or self.is_won():
            return []
        moves: list[Play | EndTurn] = self.plays() if self.played < self.per_turn else []
        if self.played:
            moves.append(EndTurn())
        return moves

    def apply(self, move: Play | EndTurn) -> Position:
        """The position after `move`; IllegalMoveError if it is not legal here."""
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move} is not a legal move here")
        return self._apply(move)

    def _apply(self, move: Play | EndTurn) -> Position:
        hands = list(self.hands)
        mover = self.to_move - 1
        if isinstance(move, Play):
            hands[mover] = tuple(c for c in hands[mover] if c != move.card)
            piles = list(self.piles)
            piles[move.pile] = move.card
            return replace(self, hands=tuple(hands), piles=tuple(piles), played=self.played + 1)
        drawn = self.drawn()
        hands[mover] = hands[mover] + drawn
        following = self.to_move
        for step in range(1, self.players + 1):
            candidate = (mover + step) % self.players
            if hands[candidate]:
                following = candidate + 1
                break
        return replace(self, hands=tuple(hands), draw=self.draw[len(drawn):], to_move=following, played=0)

    def drawn(self) -> tuple[int, ...]:
        """The cards the mover draws at the end of this turn."""
        return self.draw[:max(0, HAND - len(self.hand))]

    def is_won(self) -> bool:
        return self.remaining == 0

    def is_over(self) -> bool:
        """Won, or the player to move cannot start their turn."""
        return self.is_won() or (self.to_move is not None and self.played == 0 and not self.plays())


def _check_players(players: int) -> None:
    if not 1 <= players <= MAX_PLAYERS:
        raise IllegalPositionError(f"{players} players; {TITLE} is for 1 to {MAX_PLAYERS} (1: the solo extension)")


def dead_cards(position: Position) -> list[int]:
    """Cards no pile can ever take again. The tops a pile can ever show are its top and, again
    and again, any card still to play that fits a top it can show (a relaxation: each card may
    be used on both piles, in any order); a card that fits none of them on either pile is dead."""
    remaining = set(position.draw).union(*position.hands)
    dead = []
    for card in sorted(remaining):
        others = remaining - {card}
        if not any(accepts(pile, top, card) for pile in (0, 1) for top in reachable_tops(pile, position.piles[pile], others)):
            dead.append(card)
    return dead


def reachable_tops(pile: int, top: int | None, cards: set[int]) -> set[int | None]:
    """Every top the pile could show, playing any of `cards` whenever one fits (see dead_cards)."""
    tops, frontier = {top}, [top]
    while frontier:
        current = frontier.pop()
        for card in cards:
            if card not in tops and accepts(pile, current, card):
                tops.add(card)
                frontier.append(card)
    return tops


def check_position(position: Position) -> None:
    """Raises IllegalPositionError unless the position can arise in the game (docs/positions.md)."""
    p = position
    _check_players(p.players)
    if len(p.piles) != len(PILES):  # edited with dataclasses.replace: the kernel raised a plain ValueError
        raise IllegalPositionError(f"{amount(len(p.piles), 'pile')}; the game has {len(PILES)}: {' '.join(PILES)}")
    seen: set[int] = set()
    for card in [c for hand in p.hands for c in hand] + list(p.draw) + [t for t in p.piles if t is not None]:
        if card not in DECK:
            raise IllegalPositionError(f"card {card} is not in the deck")
        if card in seen:
            raise IllegalPositionError(f"card {card_name(card)} appears twice")
        seen.add(card)
    tops = [t for t in p.piles if t is not None]
    if p.to_move is None:
        for number, hand in enumerate(p.hands, start=1):
            if len(hand) != HAND:
                raise IllegalPositionError(f"hand {number} holds {amount(len(hand), 'card')}; a deal gives each player {HAND}")
        if len(seen) != len(DECK) or tops:
            missing = " ".join(card_name(c) for c in DECK if c not in seen)
            raise IllegalPositionError(
                f"{amount(len(seen) - len(tops), 'card')} in the hands and the draw pile; a deal has all {len(DECK)}"
                + (f" (missing: {missing})" if missing else "")
                + " (a position mid-game needs 'piles:' and 'to-move:' lines)")
        if p.played:  # a deal edited in code; its text does not say it
            raise IllegalPositionError(f"{p.played} cards played this turn, but a deal has nothing played")
        return
    if not 1 <= p.to_move <= p.players:
        raise IllegalPositionError(f"to-move {p.to_move}: there are players 1 to {p.players}")
    gone = len(DECK) - p.remaining
    if gone and not tops:
        raise IllegalPositionError(f"{amount(gone, 'card')} played but both piles are empty")
    if not 0 <= p.played <= p.per_turn:
        raise IllegalPositionError(f"{p.played} cards played this turn; a turn plays 1 or {p.per_turn}"
                                   if not p.pro else f"{p.played} cards played this turn; a turn plays 1 (pro)")
    if p.played > gone:
        raise IllegalPositionError(f"{amount(p.played, 'card')} played this turn but the piles hold only {gone}")
    for number, hand in enumerate(p.hands, start=1):
        full = HAND - (p.played if number == p.to_move else 0)
        if len(hand) > full or (p.draw and len(hand) != full):
            rule = "exactly" if p.draw else "at most"
            raise IllegalPositionError(
                f"hand {number} holds {amount(len(hand), 'card')}; with {len(p.draw)} left to draw it must hold {rule} {full}")
    if p.played == 0 and not p.hand and p.remaining:
        raise IllegalPositionError(f"player {p.to_move} is to move with no cards; such players are skipped")


FIELD_USAGE = {
    "draw": "draw: 7R 3G ... (next card first, '-' for none)",
    "piles": "piles: - 4B (ascending top, descending top, '-' for an empty pile)",
    "to-move": "to-move: 1",
    "played": "played: 0 (cards the player to move has played this turn)",
    "variant": "variant: pro",
}


def parse(text: str, players: int | None = None, pro: bool = False) -> Position:
    """A deal or position from text (see `format_position`)."""
    fields, hands = named_lines(text, FIELD_USAGE)
    if players is not None and players != len(hands):
        raise ParseError(f"{amount(len(hands), 'hand line')} but --players {players}")
    seen: dict[int, int] = {}

    def cards(value: str, line: int) -> tuple[int, ...]:
        result = []
        for token in ([] if value == "-" else value.split()):
            card = parse_card(token, line)
            if card in seen:
                raise ParseError(f"duplicate card {card_name(card)} (also on line {seen[card]})", line)
            seen[card] = line
            result.append(card)
        return tuple(result)

    if "variant" in fields:
        value_text, line = fields["variant"]
        if value_text.lower().split() != ["pro"]:
            raise ParseError(f"variant {quoted(value_text)}: the known variant is pro", line)
        pro = True
    if "to-move" in fields:
        for name in ("draw", "piles"):
            if name not in fields:
                raise ParseError(f"a position mid-game needs a '{FIELD_USAGE[name]}' line")
    else:
        for name in ("piles", "played"):
            if name in fields:
                raise ParseError(f"a '{name}:' line belongs to a position mid-game, which also needs"
                                 f" '{FIELD_USAGE['to-move']}'; a deal has none", fields[name][1])
    parsed_hands = tuple(cards(*hands[n]) for n in range(1, len(hands) + 1))
    for number, (hand, (_, line)) in enumerate(zip(parsed_hands, (hands[n] for n in sorted(hands))), start=1):
        if len(hand) > HAND:
            raise ParseError(f"hand {number} holds {amount(len(hand), 'card')}; a hand holds at most {HAND}", line)
    draw = cards(*fields["draw"]) if "draw" in fields else ()
    piles: tuple[int | None, int | None] = (EMPTY, EMPTY)
    if "piles" in fields:
        value_text, line = fields["piles"]
        tokens = value_text.split()
        if len(tokens) != 2:
            raise ParseError(f"piles needs 2 tops (ascending, descending; '-' for empty), not {quoted(value_text)}", line)
        piles = tuple(None if token == "-" else cards(token, line)[0] for token in tokens)
    to_move = played = None
    if "to-move" in fields:
        to_move = parse_number(*fields["to-move"], "to-move")
    played = parse_number(*fields["played"], "played") if "played" in fields else 0
    position = Position(parsed_hands, draw, piles, to_move, played, pro)
    check_position(position)
    return position


def format_position(position: Position) -> str:
    """The text `parse` reads back: `variant: pro` when played so, one `hand N:` line per player,
    `draw:` (next card first), and for a position mid-game `piles:`, `to-move:` and `played:`."""
    p = position
    lines = ["variant: pro"] if p.pro else []
    for number, hand in enumerate(p.hands, start=1):
        lines.append(f"hand {number}: {' '.join(map(card_name, hand)) or '-'}")
    lines.append(f"draw: {' '.join(map(card_name, p.draw)) or '-'}")
    if p.to_move is not None:
        lines.append(f"piles: {' '.join('-' if t is None else card_name(t) for t in p.piles)}")
        lines.append(f"to-move: {p.to_move}")
        lines.append(f"played: {p.played}")
    return "\n".join(lines) + "\n"


def deal(seed: int, players: int = 2, pro: bool = False) -> Position:
    """The seeded deal: the deck R1..R10, Y1..Y10, G, B, P shuffled (docs/rules.md); player p
    (0-based) gets cards [2p, 2p+2), the rest is the draw pile, next card first."""
    _check_players(players)
    cards = shuffled(list(DECK), seed)
    hands = tuple(tuple(cards[HAND * p:HAND * (p + 1)]) for p in range(players))
    return Position(hands, tuple(cards[HAND * players:]), pro=pro)


@dataclass(frozen=True)
class Turn:
    """One player's turn in a line: the plays (with whether each used the colour trick) and
    the cards drawn after it."""

    player: int
    plays: tuple[tuple[Play, bool], ...]
    drew: tuple[int, ...] = ()

    def to_json(self) -> dict:
        return {"player": self.player, "plays": [play.to_json() for play, _ in self.plays],
                "drew": [card_name(c) for c in self.drew]}

    def __str__(self) -> str:
        plays = ", ".join(f"{play}{' (colour)' if trick else ''}" for play, trick in self.plays)
        drew = f"; drew {' '.join(map(card_name, self.drew))}" if self.drew else ""
        return f"player {self.player}: {plays or 'no plays'}{drew}"


def turns(start: Position, moves: list) -> list[Turn]:
    """A line of moves grouped into turns, replaying every move."""
    result, position, player, plays = [], start, None, []
    for move in moves:
        if player is None:
            player, plays = position.to_move, []
        if isinstance(move, Play):
            plays.append((move, is_colour_trick(move.pile, position.piles[move.pile], move.card)))
        else:
            result.append(Turn(player, tuple(plays), position.drawn()))
            player = None
        position = position.apply(move)
    if player is not None:
        result.append(Turn(player, tuple(plays)))
    return result


def canonical(position: Position) -> tuple:
    """A key equal for positions whose futures are the same (hands as sets)."""
    p = position
    return (p.piles, tuple(frozenset(h) for h in p.hands), p.draw, p.to_move, p.played, p.pro)


def most_cards_played(position: Position) -> tuple[int, list]:
    """(most cards played by the end, a line reaching it) from a position with a player to move,
    by plain exhaustive search memoised on the canonical key. Exponential: for small decks."""

    @lru_cache(maxsize=None)
    def best(key) -> int:
        pos = positions[key]
        moves = pos.legal_moves()
        if not moves:
            return pos.cards_played
        return max(best(remember(pos._apply(m))) for m in moves)

    positions: dict[tuple, Position] = {}

    def remember(pos: Position) -> tuple:
        key = canonical(pos)
        positions.setdefault(key, pos)
        return key

    value_found = best(remember(position))
    line, pos = [], position
    while pos.legal_moves():
        move = next(m for m in pos.legal_moves() if best(remember(pos._apply(m))) == value_found)
        line.append(move)
        pos = pos.apply(move)
    return value_found, line
