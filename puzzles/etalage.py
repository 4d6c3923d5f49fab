"""Etalage (Steffen Brückner) with every hand open: the reference rules.

3 to 6 players; each brings one colour, cards 1..10 (a reduced deck 1..V for tests), colours
R Y G B P O, the first P in play. P cards lie face up as the display, each player holds V - 1.
A trick: from the leader on, each player plays one card. A colour's strength is the sum of its
played cards. Distribution: colours from strongest down; within a colour, its players from the
highest card down; each takes all display cards of one colour of their choice. Where two or
more colours are equally strong, their players and those of every weaker colour take nothing.
Then the trick's cards join the display, and the first player entitled to pick leads the next
trick (the same leader again when nobody was). After the last trick's distribution each player
scores the values they took (docs/games/etalage.md).

Rule decisions (seed 004 read closely): taking is compulsory while the display holds cards; a
player whose turn to pick comes when the display is empty takes nothing, and the distribution
ends there; the first player entitled to pick leads next, even if the display was empty for
them (it never is: a distribution starts with at least the cards the last trick added).

This module is the oracle the Rust kernel is tested against: it parses, formats, lists legal
moves, applies them, and holds a plain exhaustive search of each player's guaranteed score
(the others playing to minimise it) and cooperative best, for small decks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .cards import check_card_ids, shuffled
from .errors import IllegalMoveError, IllegalPositionError, ParseError, quoted
from .lines import replay  # noqa: F401  (part of each game's rules)
from .text import NUMBER, amount, named_lines, parse_number

NAME = "etalage"
TITLE = "Etalage"
COLOURS = "RYGBPO"
COLOUR_NAMES = ("red", "yellow", "green", "blue", "purple", "orange")
MIN_PLAYERS, MAX_PLAYERS = 3, 6
TOP = 10


# --- cards: id = colour * 10 + value - 1, whatever the highest value in play ----------------------

def card(value: int, colour: int) -> int:
    return colour * TOP + value - 1


def value_of(c: int) -> int:
    return c % TOP + 1


def colour_of(c: int) -> int:
    return c // TOP


def card_name(c: int) -> str:
    """`7R`, `10G`."""
    return f"{value_of(c)}{COLOURS[colour_of(c)]}"


_CARD = re.compile(r"^(10|[1-9])([A-Z])$")


def parse_card(text: str, line: int | None = None) -> int:
    """A card id from `7R` or `10g`; ParseError quoting the text otherwise."""
    match = _CARD.match(text.strip().upper())
    if not match or match.group(2) not in COLOURS:
        raise ParseError(f"{quoted(text)} is not a card (a value 1-10, then a colour of {' '.join(COLOURS)})", line)
    return card(int(match.group(1)), COLOURS.index(match.group(2)))


def parse_colour(text: str) -> int:
    token = text.strip().upper()
    if len(token) != 1 or token not in COLOURS:
        raise ParseError(f"{quoted(text)} is not a colour ({' '.join(COLOURS)})")
    return COLOURS.index(token)


# --- moves ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Play:
    """The player to move plays a card: `7R`."""

    card: int

    def __str__(self) -> str:
        return card_name(self.card)

    @classmethod
    def parse(cls, text: str) -> Play:
        return cls(parse_card(text))

    def to_json(self) -> dict:
        return {"card": card_name(self.card)}


@dataclass(frozen=True)
class Pick:
    """The player to pick takes every display card of a colour: `pick R`."""

    colour: int

    def __str__(self) -> str:
        return f"pick {COLOURS[self.colour]}"

    @classmethod
    def parse(cls, text: str) -> Pick:
        words = text.split()
        if len(words) != 2 or words[0].lower() != "pick":
            raise ParseError(f"{quoted(text)} is not a pick like 'pick R'")
        return cls(parse_colour(words[1]))

    def to_json(self) -> dict:
        return {"pick": COLOURS[self.colour]}


def parse_move(text: str) -> Play | Pick:
    """A card (`7R`) or a pick (`pick R`)."""
    return Pick.parse(text) if text.strip().lower().startswith("pick") else Play.parse(text)


# --- the distribution -----------------------------------------------------------------------------

def pick_order(trick: tuple[int, ...], leader: int, players: int) -> tuple[int, ...]:
    """Who picks, in order (1-based players), after a complete `trick` led by `leader`:
    colours from the strongest down, each colour's players from the highest card down, stopping
    at the first strength two or more colours share."""
    strength: dict[int, int] = {}
    for c in trick:
        strength[colour_of(c)] = strength.get(colour_of(c), 0) + value_of(c)
    player_of = {c: (leader - 1 + i) % players + 1 for i, c in enumerate(trick)}
    order: list[int] = []
    for level in sorted(set(strength.values()), reverse=True):
        colours = [colour for colour, s in strength.items() if s == level]
        if len(colours) > 1:
            break
        played = sorted((c for c in trick if colour_of(c) == colours[0]), key=value_of, reverse=True)
        order += [player_of[c] for c in played]
    return tuple(order)


@dataclass(frozen=True)
class Position:
    """The display (in the order laid out), each hand, each player's score so far, who leads
    the trick, the cards played in it (from the leader on), and while its distribution is under
    way how many of the players entitled to pick have picked; `values` is the highest card.
    A position read from a game record remembers the record (`record`)."""

    display: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    leader: int = 1
    trick: tuple[int, ...] = ()
    picked: int = 0
    values: int = TOP
    #: For a position read from a game record: (the position the record starts from, the moves
    #: played). Not part of the position's identity; positions reached by moves have none.
    record: tuple = field(default=(), compare=False, repr=False)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def distributing(self) -> bool:
        """The trick is complete and players are picking."""
        return len(self.trick) == self.players

    @property
    def order(self) -> tuple[int, ...]:
        """Who picks in the current trick's distribution, in order (empty before it)."""
        return pick_order(self.trick, self.leader, self.players) if self.distributing else ()

    @property
    def to_move(self) -> int | None:
        """The player to play or to pick (1-based); None when the game is over."""
        if self.distributing:
            return self.order[self.picked]
        if self.is_over():
            return None
        return (self.leader - 1 + len(self.trick)) % self.players + 1

    def is_over(self) -> bool:
        return not self.trick and not any(self.hands)

    def is_won(self) -> bool:
        """The game is over: every trick played and distributed (Etalage has no solitaire win)."""
        return self.is_over()

    def display_colour(self, colour: int) -> tuple[int, ...]:
        return tuple(c for c in self.display if colour_of(c) == colour)

    def legal_moves(self) -> list[Play | Pick]:
        if self.distributing:
            return [Pick(colour) for colour in sorted({colour_of(c) for c in self.display})]
        if self.is_over():
            return []
        return [Play(c) for c in sorted(self.hands[self.to_move - 1])]

    def apply(self, move: Play | Pick) -> Position:
        """The position after `move`; IllegalMoveError if it is not legal here."""
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move} is not a legal move here")
        return self._apply(move)

    def _apply(self, move: Play | Pick) -> Position:
        """`apply` for a move known to be legal."""
        mover = self.to_move
        if isinstance(move, Play):
            hands = list(self.hands)
            hands[mover - 1] = tuple(c for c in hands[mover - 1] if c != move.card)
            return replace(self, hands=tuple(hands), trick=self.trick + (move.card,), record=()).settled()
        taken = self.display_colour(move.colour)
        scores = list(self.scores)
        scores[mover - 1] += sum(map(value_of, taken))
        display = tuple(c for c in self.display if colour_of(c) != move.colour)
        return replace(self, display=display, scores=tuple(scores), picked=self.picked + 1, record=()).settled()

    def settled(self) -> Position:
        """Ends the distribution when every entitled player has picked or the display is empty:
        the trick's cards join the display and the first entitled player leads."""
        if not self.distributing:
            return self
        order = self.order
        if self.picked < len(order) and self.display:
            return self
        leader = order[0] if order else self.leader
        return replace(self, display=self.display + self.trick, trick=(), picked=0, leader=leader)

    def final_score(self, player: int) -> int:
        return self.scores[player - 1]


# --- deals, checks, text --------------------------------------------------------------------------

def _check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalPositionError(f"{amount(players, 'player')}; {TITLE} is for {MIN_PLAYERS} to {MAX_PLAYERS}")


def _check_values(values: int) -> None:
    if not 2 <= values <= TOP:
        raise IllegalPositionError(f"cards 1-{values}; the highest value must be 2 to {TOP}")


def deck(players: int, values: int = TOP) -> list[int]:
    """The unshuffled deck: colour by colour, each 1..values."""
    return [card(v, colour) for colour in range(players) for v in range(1, values + 1)]


def deal(seed: int, players: int = 3, values: int = TOP) -> Position:
    """The seeded deal: the deck shuffled, the first P cards the display in order, then player
    p (0-based) gets cards [P + (V-1)p, P + (V-1)(p+1)). Player 1 leads."""
    _check_players(players)
    _check_values(values)
    cards = shuffled(deck(players, values), seed)
    size = values - 1
    hands = tuple(tuple(cards[players + size * p:players + size * (p + 1)]) for p in range(players))
    position = Position(tuple(cards[:players]), hands, (0,) * players, 1, (), 0, values)
    check_position(position)
    return position


def _check_display_before_picks(display: tuple[int, ...], players: int) -> None:
    """Until a trick's distribution takes from it, the display holds a card a player at least:
    the deal's, or the last trick's, which joined it."""
    if len(display) < players:
        raise IllegalPositionError(
            f"the display holds {amount(len(display), 'card')}; until a trick is complete it holds at least"
            f" {players}, the deal's or the last trick's"
        )


def check_position(position: Position, scores_given: bool = True) -> None:
    """Raises IllegalPositionError unless the position can arise in the game; `scores_given`
    False (a text without a 'scores:' line) adds that hint where the scores do not add up."""
    p = position
    _check_players(p.players)
    _check_values(p.values)
    if len(p.scores) != p.players:
        raise IllegalPositionError(f"{amount(len(p.scores), 'score')} for {p.players} players")
    if not 1 <= p.leader <= p.players:
        raise IllegalPositionError(f"leader {p.leader}: there are players 1 to {p.players}")
    if len(p.trick) > p.players:
        raise IllegalPositionError(f"{amount(len(p.trick), 'card')} in the trick; {p.players} players play one each")
    seen: set[int] = set()
    in_play = set(deck(p.players, p.values))
    cards = list(p.display) + [c for hand in p.hands for c in hand] + list(p.trick)
    check_card_ids(cards, MAX_PLAYERS * TOP)
    for c in cards:
        if c not in in_play:
            colours = " ".join(COLOURS[:p.players])
            raise IllegalPositionError(
                f"card {card_name(c)} is not in play: {p.players} players use colours {colours}, values 1-{p.values}"
            )
        if c in seen:
            raise IllegalPositionError(f"card {card_name(c)} appears twice")
        seen.add(c)
    for number, hand in enumerate(p.hands, start=1):
        if len(hand) > p.values - 1:
            raise IllegalPositionError(f"hand {number} holds {amount(len(hand), 'card')}; a hand holds at most {p.values - 1}")
    played = [(p.leader - 1 + i) % p.players for i in range(len(p.trick))]
    # the size of the hands of players yet to play, as most hands say (so the odd one is named)
    sizes = [len(hand) + (i in played) for i, hand in enumerate(p.hands)]
    size = max(sizes, key=lambda n: (sizes.count(n), n))
    for number, hand in enumerate(p.hands, start=1):
        want = size - (1 if number - 1 in played else 0)
        if len(hand) != want:
            raise IllegalPositionError(
                f"hand {number} holds {amount(len(hand), 'card')}; with {len(p.trick)} played in this trick it must hold {want}"
            )
    worth = sum(map(value_of, in_play - seen))  # the cards taken
    if sum(p.scores) != worth or min(p.scores) < 0:
        unscored = "; without a 'scores:' line every score is 0" if not scores_given else ""
        raise IllegalPositionError(
            f"the scores add up to {sum(p.scores)}, but the cards taken (those not in the display,"
            f" a hand or the trick) are worth {worth}{unscored}"
        )
    if not p.distributing or p.picked == 0:  # nothing taken from it yet
        _check_display_before_picks(p.display, p.players)
    if p.distributing:
        order = p.order
        if not order or not p.display or not 0 <= p.picked < len(order):
            raise IllegalPositionError("a complete trick whose distribution is over; it should have joined the display")
        # a distribution starts with cards on display (the last trick's at least), and a pick
        # takes some while any are left: so the first picker, and while cards are left every
        # picker, has scored
        for earlier in order[:p.picked if p.display else 1]:
            if p.scores[earlier - 1] == 0:
                raise IllegalPositionError(
                    f"player {earlier} picked before player {order[p.picked]} while the display held cards,"
                    f" but has scored nothing"
                )
        # each of those picks took a whole colour away, and the trick joins the display only
        # after the distribution: so at most the colours in play less the picks made are left
        colours = len({colour_of(c) for c in p.display})
        if colours + p.picked > p.players:
            raise IllegalPositionError(
                f"the display shows {amount(colours, 'colour')} after {amount(p.picked, 'pick')} of this trick's"
                f" distribution, but each pick took a colour of the {p.players} in play away: at most"
                f" {p.players - p.picked} can be left"
            )
    elif p.picked:
        raise IllegalPositionError("picks under way before the trick is complete")


FIELD_USAGE = {
    "values": "values: 1-10",
    "display": "display: 7R 3Y 10G",
    "scores": "scores: 0 0 0",
    "leader": "leader: 1",
    "trick": "trick: 5R 7G ('-' for none; from the leader on)",
    "to-pick": "to-pick: 2 (while a complete trick is distributed)",
    "moves": "moves: 7G 2G 9Y pick R ... (a game record: the moves played from the position above)",
}


def parse(text: str, players: int | None = None, values: int | None = None) -> Position:
    """A deal or position from text (see `format_position`)."""
    fields, hands = named_lines(text, FIELD_USAGE)
    if players is not None and players != len(hands):
        raise ParseError(f"{amount(len(hands), 'hand line')} but --players {players}")
    if "display" not in fields:
        raise ParseError("no 'display:' line")
    top = values if values is not None else TOP
    if "values" in fields:
        value, line = fields["values"]
        match = re.fullmatch(rf"1\s*-\s*({NUMBER})", value)
        if not match:
            raise ParseError(f"values {quoted(value)} must be a range 1-N", line)
        top = int(match.group(1))
        if values is not None and values != top:
            raise ParseError(f"values 1-{top} but --values {values}", line)
        if not 2 <= top <= TOP:  # here, with its line: _check_values below could only name the range
            raise ParseError(f"values 1-{top}: the highest value must be 2 to {TOP}", line)
    _check_values(top)
    count = len(hands)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise ParseError(f"{amount(count, 'hand line')}; {TITLE} is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"one 'hand N:' line each")
    in_play = set(deck(count, top))
    seen: dict[int, int] = {}

    def cards(value: str, line: int) -> tuple[int, ...]:
        result = []
        for token in ([] if value == "-" else value.split()):
            if token == "-":
                raise ParseError(f"'-' stands for no cards and stands alone, not among cards: {quoted(value)}", line)
            c = parse_card(token, line)
            if c not in in_play:  # named here, with its line: check_position could only name the card
                raise ParseError(f"card {card_name(c)} is not in play: {count} players use colours "
                                 f"{' '.join(COLOURS[:count])}, values 1-{top}", line)
            if c in seen:
                raise ParseError(f"card {card_name(c)} appears twice (also on line {seen[c]})", line)
            seen[c] = line
            result.append(c)
        return tuple(result)

    def numbers(name: str, count: int, default: tuple[int, ...]) -> tuple[int, ...]:
        if name not in fields:
            return default
        value, line = fields[name]
        tokens = value.split()
        if len(tokens) != count:
            raise ParseError(f"{name} needs {count} number{'s' * (count > 1)}, not {quoted(value)}", line)
        return tuple(parse_number(t, line, name) for t in tokens)

    display = cards(*fields["display"])
    parsed_hands = tuple(cards(*hands[n]) for n in range(1, len(hands) + 1))
    for number, hand in enumerate(parsed_hands, start=1):  # here, with its line, as for the cards
        if len(hand) > top - 1:
            raise ParseError(f"hand {number} holds {amount(len(hand), 'card')}; a hand holds at most {top - 1}",
                             hands[number][1])
    trick = cards(*fields["trick"]) if "trick" in fields else ()
    scores = numbers("scores", count, (0,) * count)
    leader = numbers("leader", 1, (1,))[0]
    if not 1 <= leader <= count:  # here, with its line: the pick order below needs a leader in range
        raise ParseError(f"leader {leader}: there are players 1 to {count}", fields["leader"][1])
    position = Position(display, parsed_hands, scores, leader, trick, 0, top)
    if "to-pick" in fields:
        who = numbers("to-pick", 1, (0,))[0]
        line = fields["to-pick"][1]
        if not position.distributing:
            raise ParseError(f"to-pick {who}, but the trick holds {len(trick)} of {count} cards", line)
        order = pick_order(trick, leader, count)
        if not order:
            raise ParseError(f"to-pick {who}: nobody picks, since the trick's strongest colours tie;"
                             f" leave the line out", line)
        if who not in order:
            raise ParseError(f"to-pick {who}: the players entitled to pick are {' '.join(map(str, order))}", line)
        position = replace(position, picked=order.index(who))
    elif position.distributing:
        if pick_order(trick, leader, count):
            raise ParseError("the trick is complete: a 'to-pick:' line must say who picks next")
        _check_display_before_picks(display, count)  # as it was before the trick joined it
        position = position.settled()  # a tie at the top: nobody picks, the trick joins the display
    check_position(position, scores_given="scores" in fields)
    if "moves" in fields:
        moves = parse_record(*fields["moves"], position)
        if not moves:  # a record of no moves yet is the position itself, not an empty record
            return position
        end = replay(position, moves)
        return replace(end, record=(position, tuple(moves)))
    return position


def parse_record(text: str, line: int, start: Position) -> list[Play | Pick]:
    """The moves of a game record (`7G 2G pick R ...`), each checked against the position it is
    played in; ParseError naming the move and why it is illegal."""
    tokens = text.replace(",", " ").split()
    moves, position, i = [], start, 0
    while i < len(tokens):
        word = " ".join(tokens[i:i + 2]) if tokens[i].lower() == "pick" else tokens[i]
        i += 2 if tokens[i].lower() == "pick" else 1
        try:
            move = parse_move(word)
        except ParseError as error:
            raise ParseError(f"move {len(moves) + 1}: {error}", line) from None
        if move not in position.legal_moves():
            raise ParseError(f"move {len(moves) + 1} {quoted(word)} is not legal: {why_illegal(position, move)}", line)
        moves.append(move)
        position = position.apply(move)
    return moves


def why_illegal(position: Position, move: Play | Pick) -> str:
    """Why a move cannot be played in a position, in words."""
    if position.is_over():
        return "the game is over"
    colours = " ".join(sorted({COLOURS[colour_of(c)] for c in position.display}, key=COLOURS.index))
    if isinstance(move, Pick):
        if not position.distributing:
            return f"player {position.to_move} is to play a card, not to pick"
        return f"the display holds no {COLOURS[move.colour]} card (its colours: {colours})"
    if position.distributing:
        return f"player {position.to_move} is to pick a colour of the display ({colours})"
    return f"player {position.to_move} is to play and does not hold {move}"


def format_position(position: Position) -> str:
    """The text form `parse` reads back: `values: 1-V` when not 1-10, `display:`, one `hand N:`
    line per player, `scores:`, `leader:`, `trick:` (the cards played in it, from the leader on)
    and, while a complete trick is distributed, `to-pick:`. (A game record's text is that of
    its start with a `moves:` line; a position read from one is written as it stands.)"""
    p = position

    def names(cards: tuple[int, ...]) -> str:
        return " ".join(map(card_name, cards)) or "-"

    lines = [f"values: 1-{p.values}"] if p.values != TOP else []
    lines.append(f"display: {names(p.display)}")
    lines += [f"hand {number}: {names(hand)}" for number, hand in enumerate(p.hands, start=1)]
    lines.append(f"scores: {' '.join(map(str, p.scores))}")
    lines.append(f"leader: {p.leader}")
    lines.append(f"trick: {names(p.trick)}")
    if p.distributing:
        lines.append(f"to-pick: {p.to_move}")
    return "\n".join(lines) + "\n"


# --- lines of play as events ----------------------------------------------------------------------

@dataclass(frozen=True)
class Event:
    """One move of a line with its player, and for a pick the cards it took."""

    player: int
    move: Play | Pick
    cards: tuple[int, ...] = ()

    def to_json(self) -> dict:
        data = {"player": self.player, **self.move.to_json()}
        if isinstance(self.move, Pick):
            data["cards"] = [card_name(c) for c in self.cards]
        return data

    def __str__(self) -> str:
        if isinstance(self.move, Pick):
            return f"player {self.player} picks {COLOURS[self.move.colour]}: {' '.join(map(card_name, self.cards))}"
        return f"player {self.player} plays {self.move}"


def events(start: Position, moves: list) -> list[Event]:
    """A line of moves as events, replaying every move."""
    result, position = [], start
    for move in moves:
        taken = position.display_colour(move.colour) if isinstance(move, Pick) else ()
        result.append(Event(position.to_move, move, taken))
        position = position.apply(move)
    return result


# --- the plain exhaustive search (tests) ----------------------------------------------------------

def key(position: Position) -> tuple:
    """What the future of a position depends on: the scores so far are left out."""
    p = position
    return (frozenset(p.display), tuple(frozenset(h) for h in p.hands), p.leader, p.trick, p.picked)


def values(position: Position, player: int) -> tuple[int, int]:
    """(guaranteed, cooperative best): the final score `player` (1-based) can be sure of
    whatever the others do, and the most they reach with everybody's help. Exponential: for
    small decks."""

    memo: dict[tuple, int] = {}

    def gain(pos: Position, cooperative: bool) -> int:
        """What `player` still takes from `pos` (the others minimising it, or helping)."""
        k = (key(pos), cooperative)
        if k not in memo:
            results = []
            for move in pos.legal_moves():
                after = pos._apply(move)
                results.append(after.scores[player - 1] - pos.scores[player - 1] + gain(after, cooperative))
            best = max if cooperative or pos.to_move == player else min
            memo[k] = best(results, default=0)
        return memo[k]

    score = position.scores[player - 1]
    return score + gain(position, False), score + gain(position, True)


def guaranteed_moves(position: Position, player: int) -> list:
    """The moves of the player to move that keep `player`'s guarantee: a best move when it is
    `player`'s turn, a most damaging one otherwise (tests check kernel lines against these)."""
    target = values(position, player)[0]
    return [m for m in position.legal_moves() if values(position._apply(m), player)[0] == target]
