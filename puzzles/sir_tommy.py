"""Sir Tommy voor twee (Sir Tommy for two) with the stock open: the reference rules.

The stock (top card first) is known. Player U builds four foundations up from Aces, player D four
down from Kings; U starts. A turn while the stock lasts: draw three cards (the last draw takes what
is left), play any of them and any row tops onto your own foundations, in any order, then place
every drawn card you did not play on the rows (any row, any order); that ends the turn. When the
stock is empty the players alternate turns of plays from the row tops, and may pass. All cards on
foundations wins; stock empty, cards left in the rows and neither player able to play loses.

How a turn is cut into moves: the draw is automatic (a position with the stock not yet empty
always has its mover's draw in `hand`); `Play` puts one drawn card or row top on a foundation;
`EndTurn` places every card still in hand (all at once, in the listed order) and hands the turn
over, and the next player draws. In the end phase an `EndTurn` places nothing; one right after
the other player's is a pass.

Reduced decks (for tests and small studies): the cards of any suits with ranks A..R each (for
instance A-5 in four suits). U builds A, 2, …, R; D builds R, R-1, …, A. Each player always has
four foundations.

Text formats. A deal is the stock in draw order, top card first: the cards separated by any
whitespace. A position is
    5C 8D                # row 1, bottom card first ('-' for an empty row): one line a row
    -                    # row 2
    -
    QH
    stock: 7S 2D …       # cards still in the stock, top first ('-' when empty)
    hand: 3S             # drawn cards not yet played or placed ('-' for none); leave the line
                         #   out at the start of a turn (the mover then draws the top three)
    U: AS 2S, AH, -, -   # U's four foundations, comma-separated, bottom card first
    D: KC, -, -, -
    to-move: U
Rows, stock, hand and foundations together hold every card of the deck exactly once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .cards import DECK_SIZE, RANKS, card_name, check_card_ids, parse_card, rank, shuffled_deck
from .errors import IllegalMoveError, IllegalPositionError, ParseError, quoted
from .tableau import format_columns, read_layout
from .text import NUMBER, amount

NAME = "sir-tommy"
TITLE = "Sir Tommy voor twee"
PLAYERS = ("U", "D")
FOUNDATIONS = 4
DRAW = 3
DEFAULT_ROWS = 4
MAX_ROWS = 8
#: Cards a player must hold in a won game to be the super-winner (of a full deck).
SUPER_WINNER = 30

Pile = tuple[int, ...]


def other(player: str) -> str:
    return "D" if player == "U" else "U"


def fits(player: str, pile: Pile, card: int, top_rank: int) -> bool:
    """Whether `card` may go on `player`'s foundation `pile`: U starts with A and goes up by one,
    D starts with the deck's top rank and goes down by one."""
    if player == "U":
        return rank(card) == (rank(pile[-1]) + 1 if pile else 1)
    return rank(card) == (rank(pile[-1]) - 1 if pile else top_rank)


def source_name(source: int) -> str:
    return "drawn" if source < 0 else f"row {source + 1}"


@dataclass(frozen=True)
class Play:
    """`player` plays `card` from their hand (`source` -1) or the top of row `source` (0-based)
    onto their foundation `foundation` (0-based), whose top was `onto` (None: empty)."""

    player: str
    card: int
    source: int
    foundation: int
    onto: int | None

    def __str__(self) -> str:
        target = f"on {card_name(self.onto)}" if self.onto is not None else "(empty)"
        return f"{card_name(self.card)} from {source_name(self.source)} -> {self.player} foundation {self.foundation + 1} {target}"

    _PATTERN = re.compile(rf"^\s*(\S+) from (drawn|row ({NUMBER})) -> ([UD]) foundation ({NUMBER}) (?:on (\S+)|\(empty\))\s*$")

    @classmethod
    def parse(cls, text: str) -> Play:
        """The inverse of `str`: `8C from row 2 -> U foundation 3 on 7S`, `KH from drawn -> D
        foundation 1 (empty)`."""
        match = cls._PATTERN.match(text)
        if not match:
            raise ParseError(f"{quoted(text)} is not a play like '8C from row 2 -> U foundation 3 on 7S'")
        card, _, row, player, foundation, onto = match.groups()
        return cls(player, parse_card(card), int(row) - 1 if row else -1, int(foundation) - 1,
                   parse_card(onto) if onto else None)

    def to_json(self) -> dict:
        return {"card": card_name(self.card), "from": source_name(self.source), "foundation": self.foundation + 1}


@dataclass(frozen=True)
class EndTurn:
    """`player` places the cards still in hand, in this order, each on a row (0-based), and the
    turn passes. With nothing to place it just ends the turn (a pass if nothing was played)."""

    player: str
    placements: tuple[tuple[int, int], ...] = ()

    def __str__(self) -> str:
        if not self.placements:
            return f"{self.player} ends turn"
        return f"{self.player} places " + ", ".join(f"{card_name(c)} on row {r + 1}" for c, r in self.placements)

    _PATTERN = re.compile(r"^\s*([UD]) (?:ends turn|places (.+?))\s*$")

    @classmethod
    def parse(cls, text: str) -> EndTurn:
        """The inverse of `str`: `U ends turn`, `D places QH on row 1, 5C on row 3`."""
        match = cls._PATTERN.match(text)
        placements = []
        for part in (match[2].split(",") if match and match[2] else []):
            card, on, row_word, row = (part.split() + [""] * 4)[:4]
            if (on, row_word) != ("on", "row") or not re.fullmatch(NUMBER, row):
                match = None
                break
            placements.append((parse_card(card), int(row) - 1))
        if not match:
            raise ParseError(f"{quoted(text)} is not an end of turn like 'U ends turn' or 'D places QH on row 1, 5C on row 3'")
        return cls(match[1], tuple(placements))

    def to_json(self) -> dict:
        return {"placed": [{"card": card_name(c), "row": r + 1} for c, r in self.placements]}


Move = Play | EndTurn


def parse_move(text: str) -> Move:
    """A Play or an EndTurn from its notation."""
    return (EndTurn if re.match(r"^\s*[UD] ", text) else Play).parse(text)


NO_FOUNDATIONS = ((),) * FOUNDATIONS


@dataclass(frozen=True)
class Position:
    """The stock (top first), the mover's drawn cards still in hand, the rows (bottom first),
    each player's four foundations (bottom first), the player to move and the deck's top rank.
    `drawn_before`: a `hand:` line gave the hand, so it was drawn before this position and a line
    from here does not draw it; only how the line is shown, so equal positions stay equal."""

    stock: tuple[int, ...]
    hand: tuple[int, ...] = ()
    rows: tuple[tuple[int, ...], ...] = ((),) * DEFAULT_ROWS
    foundations: tuple[tuple[Pile, ...], tuple[Pile, ...]] = (NO_FOUNDATIONS, NO_FOUNDATIONS)
    to_move: str = "U"
    top_rank: int = 13
    drawn_before: bool = field(default=False, compare=False)

    def foundations_of(self, player: str) -> tuple[Pile, ...]:
        return self.foundations[PLAYERS.index(player)]

    def held(self, player: str) -> int:
        """Cards on `player`'s foundations."""
        return sum(len(pile) for pile in self.foundations_of(player))

    @property
    def end_phase(self) -> bool:
        """The stock is used up and no drawn card is left: only row tops can be played."""
        return not self.stock and not self.hand

    def remaining(self) -> int:
        return len(self.stock) + len(self.hand) + sum(len(row) for row in self.rows)

    def sources(self):
        """(source, card) for every card the mover may play: hand cards (-1), then row tops."""
        yield from ((-1, card) for card in self.hand)
        yield from ((r, row[-1]) for r, row in enumerate(self.rows) if row)

    def plays(self, player: str, sources) -> list[Play]:
        """Plays of `sources` onto `player`'s foundations; of several empty ones only the first."""
        moves = []
        piles = self.foundations_of(player)
        for source, card in sources:
            for f, pile in enumerate(piles):
                if (pile or f == piles.index(())) and fits(player, pile, card, self.top_rank):
                    moves.append(Play(player, card, source, f, pile[-1] if pile else None))
        return moves

    def legal_moves(self) -> list[Move]:
        """Every play, then every way to end the turn: each distinct placement of the hand
        (per row, in order; rows in turn) or, with nothing in hand, just ending the turn."""
        if self.is_won():
            return []
        moves: list[Move] = self.plays(self.to_move, self.sources())
        moves += [EndTurn(self.to_move, p) for p in placements(self.hand, len(self.rows))]
        return moves

    def apply(self, move: Move) -> Position:
        """The position after `move`; IllegalMoveError if it is not legal here."""
        if not isinstance(move, (Play, EndTurn)):  # another game's move failed on its fields (an AttributeError)
            raise IllegalMoveError(f"{move!r} is not a move of {TITLE}")
        if move.player != self.to_move or self.is_won():
            raise IllegalMoveError(f"{move} is not legal here: {'the game is won' if self.is_won() else f'{self.to_move} is to move'}")
        if isinstance(move, Play):
            return self._play(move)
        return self._end_turn(move)

    def _play(self, move: Play) -> Position:
        hand, rows = self.hand, list(self.rows)
        if move.source < 0:
            if move.card not in hand:
                raise IllegalMoveError(f"{move} is not legal here: {card_name(move.card)} is not in hand")
            hand = tuple(c for c in hand if c != move.card)
        else:
            if not 0 <= move.source < len(rows) or not rows[move.source] or rows[move.source][-1] != move.card:
                raise IllegalMoveError(f"{move} is not legal here: {card_name(move.card)} is not the top of {source_name(move.source)}")
            rows[move.source] = rows[move.source][:-1]
        index = PLAYERS.index(move.player)
        piles = list(self.foundations[index])
        if not 0 <= move.foundation < FOUNDATIONS:
            raise IllegalMoveError(f"{move} is not legal here: there is no foundation {move.foundation + 1}")
        pile = piles[move.foundation]
        if not fits(move.player, pile, move.card, self.top_rank) or (pile[-1] if pile else None) != move.onto:
            raise IllegalMoveError(f"{move} is not legal here: it does not fit that foundation")
        piles[move.foundation] = pile + (move.card,)
        foundations = list(self.foundations)
        foundations[index] = tuple(piles)
        return Position(self.stock, hand, tuple(rows), tuple(foundations), self.to_move, self.top_rank)

    def _end_turn(self, move: EndTurn) -> Position:
        cards = sorted(c for c, _ in move.placements)
        if cards != sorted(self.hand):
            held = " ".join(card_name(c) for c in self.hand) or "nothing"
            raise IllegalMoveError(f"{move} is not legal here: every card in hand ({held}) must be placed, each once")
        rows = list(self.rows)
        for card, row in move.placements:
            if not 0 <= row < len(rows):
                raise IllegalMoveError(f"{move} is not legal here: there is no row {row + 1}")
            rows[row] += (card,)
        drawn = self.stock[:DRAW]
        return Position(self.stock[DRAW:], drawn, tuple(rows), self.foundations, other(self.to_move), self.top_rank)

    def is_won(self) -> bool:
        return self.remaining() == 0

    def is_lost(self) -> bool:
        """Stock and hand empty, cards in the rows, and no row top fits either player."""
        if not self.end_phase or self.is_won():
            return False
        return not any(self.plays(player, self.sources()) for player in PLAYERS)


def canonical(position: Position) -> tuple:
    """A key equal for positions whose futures are the same: rows are only ever their own stacks,
    so their order does not matter, nor the order of each player's foundations."""
    p = position
    return (tuple(sorted(p.rows)), tuple(tuple(sorted(f)) for f in p.foundations), p.stock, p.hand, p.to_move)


def placements(hand: tuple[int, ...], rows: int) -> list[tuple[tuple[int, int], ...]]:
    """Every distinct way to place `hand` on `rows` rows, as (card, row) in placing order: each
    assignment of cards to rows with each order within a row, rows in increasing order."""
    if not hand:
        return [()]
    results = []

    def extend(left: tuple[int, ...], row: int, done: tuple[tuple[int, int], ...]):
        if not left:
            results.append(done)
            return
        if row == rows:
            return
        # every ordered selection of the cards left to go on this row, the rest to later rows
        for chosen in ordered_subsets(left):
            rest = tuple(c for c in left if c not in chosen)
            extend(rest, row + 1, done + tuple((c, row) for c in chosen))

    extend(tuple(hand), 0, ())
    return results


def ordered_subsets(cards: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every ordered selection of distinct cards, the empty one first."""
    out = [()]
    for card in cards:
        out += [s + (card,) for s in ordered_subsets(tuple(c for c in cards if c != card))[1:]] + [(card,)]
    return list(dict.fromkeys(out))


# --- decks, deals, plausibility -----------------------------------------------------------------


def deck_of(cards) -> tuple[int, ...] | None:
    """The reduced or full deck these cards make (every rank A..R in each suit present), or None."""
    suits = sorted({c // 13 for c in cards})
    top = max((rank(c) for c in cards), default=0)
    deck = tuple(s * 13 + r for s in suits for r in range(top))
    return deck if len(deck) == len(set(cards)) == len(cards) and set(deck) == set(cards) else None


def missing_cards(cards) -> str:
    suits = sorted({c // 13 for c in cards})
    top = max(rank(c) for c in cards)
    return " ".join(card_name(s * 13 + r) for s in suits for r in range(top) if s * 13 + r not in cards)


def start(stock, rows: int = DEFAULT_ROWS) -> Position:
    """The opening position of a stock (top first): empty rows and foundations, U has drawn."""
    stock = tuple(stock)
    return Position(stock[DRAW:], stock[:DRAW], ((),) * rows, top_rank=max(rank(c) for c in stock))


def check_rows(rows: int) -> int:
    if not 1 <= rows <= MAX_ROWS:
        raise IllegalPositionError(f"--rows {rows}: the number of rows must be 1 to {MAX_ROWS}")
    return rows


def deal(seed: int, rows: int = DEFAULT_ROWS) -> Position:
    """The seeded deal: the shuffled deck is the stock, index 0 on top."""
    return start(shuffled_deck(seed), check_rows(rows))


def is_fresh(position: Position) -> bool:
    """A deal nobody has touched: U holds the first draw, rows and foundations are empty."""
    return (position.to_move == "U" and not any(position.rows)
            and not any(p for piles in position.foundations for p in piles)
            and len(position.hand) == min(DRAW, position.remaining()))


def all_cards(position: Position) -> list[int]:
    cards = list(position.stock) + list(position.hand) + [c for row in position.rows for c in row]
    return cards + [c for piles in position.foundations for pile in piles for c in pile]


def check_position(position: Position, stock_line: int | None = None, mover_line: bool = True) -> None:
    """Raises IllegalPositionError unless the position can arise in the game. `stock_line` is
    how many cards the text's stock line held (`parse` draws the mover's hand from it at the
    start of a turn): the count an error about the stock quotes; by default the position's.
    `mover_line` is False when the text had no to-move line, so that an error about the mover
    says U was taken by default rather than quote a line the user never wrote."""
    check_rows(len(position.rows))
    # a position edited with dataclasses.replace: the kernel took these with a plain ValueError
    if position.to_move not in PLAYERS:
        raise IllegalPositionError(f"to-move {quoted(str(position.to_move))} is not U or D")
    if not isinstance(position.drawn_before, bool):
        raise IllegalPositionError(f"drawn_before {position.drawn_before!r} is not True or False")
    if len(position.foundations) != len(PLAYERS) or any(len(piles) != FOUNDATIONS for piles in position.foundations):
        raise IllegalPositionError(f"foundations of {[len(piles) for piles in position.foundations]} piles; "
                                   f"U and D have {FOUNDATIONS} each")
    cards = all_cards(position)
    check_card_ids(cards)
    duplicates = sorted({c for c in cards if cards.count(c) > 1})
    if duplicates:
        raise IllegalPositionError(f"card {card_name(duplicates[0])} appears twice")
    if deck_of(cards) is None:
        raise IllegalPositionError(
            f"{amount(len(cards), 'card')}; a deck is all 52, or ranks A..R of each suit used (missing: {missing_cards(cards)})")
    top = max(rank(c) for c in cards)
    if position.top_rank != top:
        raise IllegalPositionError(f"top rank {position.top_rank} but the deck's highest rank is {RANKS[top - 1]}")
    for player in PLAYERS:
        for f, pile in enumerate(position.foundations_of(player)):
            for i, card in enumerate(pile):
                if not fits(player, pile[:i], card, top):
                    start_rank = "A" if player == "U" else RANKS[top - 1]
                    step = "up" if player == "U" else "down"
                    raise IllegalPositionError(
                        f"foundation {player}{f + 1}: {card_name(card)} cannot lie "
                        + (f"on {card_name(pile[i - 1])}" if i else "at the bottom")
                        + f" ({player} starts with {start_rank} and builds {step} by one)")
    total, stock = len(cards), len(position.stock)
    if len(position.hand) > DRAW:
        raise IllegalPositionError(f"{len(position.hand)} cards in hand; a draw is at most {DRAW}")
    drawn = total - stock
    if drawn == 0 or (stock and drawn % DRAW):
        raise IllegalPositionError(
            f"{amount(stock if stock_line is None else stock_line, 'card')} in the stock of {total}: draws of {DRAW} leave {total - DRAW}, {total - 2 * DRAW}, … or none")
    last_draw = drawn - DRAW * ((drawn - 1) // DRAW)
    if len(position.hand) > last_draw:
        raise IllegalPositionError(f"{amount(len(position.hand), 'card')} in hand but the last draw took {last_draw}")
    draws = -(-drawn // DRAW)
    drawer = PLAYERS[(draws - 1) % 2]
    first_d = next((card for pile in position.foundations_of("D") for card in pile), None)
    if draws == 1 and not position.end_phase and first_d is not None:
        raise IllegalPositionError(
            f"foundation card {card_name(first_d)} of D, but only U has drawn: D has not had a turn yet")
    if not position.end_phase and position.to_move != drawer:
        mover = f"to-move {position.to_move}" if mover_line else "no 'to-move:' line, so U is to move"
        raise IllegalPositionError(f"{mover}, but {drawer} made draw {draws} (U draws first, then turns alternate)")


def parse(text: str, rows: int = DEFAULT_ROWS) -> Position:
    """A deal (the stock, top card first, any whitespace) or a position (see the module text)."""
    check_rows(rows)
    lines = [raw.split("#", 1)[0] for raw in text.splitlines()]
    if not any(":" in line for line in lines):
        return parse_deal(lines, rows)
    usage = {"stock": "stock: 7S 2D …", "hand": "hand: 3S QH", "u": "U: AS 2S, AH, -, -", "d": "D: KC, -, -, -",
             "to-move": "to-move: U|D"}
    layout = read_layout(text, TITLE, rows, DECK_SIZE, usage, unit="row", hint=" here (--rows sets how many)")
    if "stock" not in layout.fields:
        raise ParseError("a position needs a 'stock:' line (cards still in the stock, top first; '-' when empty)")
    stock = layout.cards_of_field("stock")
    hand = layout.cards_of_field("hand") if "hand" in layout.fields else None
    foundations = []
    for player in PLAYERS:
        if player.lower() not in layout.fields:
            foundations.append(NO_FOUNDATIONS)
            continue
        value, line = layout.fields[player.lower()]
        piles = [p.strip() for p in value.split(",")]
        if len(piles) != FOUNDATIONS:
            raise ParseError(f"{player} lists {amount(len(piles), 'foundation')}; give {FOUNDATIONS}, comma-separated ('-' for empty)", line)
        cards = [() if p == "-" else tuple(parse_card(t, line) for t in p.split()) for p in piles]
        layout.note_cards([c for pile in cards for c in pile], line)
        foundations.append(tuple(cards))
    if not layout.seen:
        raise ParseError("a position with no cards")
    to_move = layout.to_move(PLAYERS) or "U"
    stock_line = len(stock)
    if hand is None:  # the start of a turn: the mover draws now
        hand, stock = stock[:DRAW], stock[DRAW:]
    top = max(rank(c) for c in layout.seen)
    position = Position(tuple(stock), tuple(hand), tuple(layout.columns), tuple(foundations), to_move, top,
                        drawn_before="hand" in layout.fields)
    check_position(position, stock_line, "to-move" in layout.fields)
    return position


def parse_deal(lines: list[str], rows: int) -> Position:
    stock, seen = [], {}
    for number, line in enumerate(lines, start=1):
        for token in line.split():
            card = parse_card(token, number)
            if card in seen:
                raise ParseError(f"duplicate card {card_name(card)} (also on line {seen[card]})", number)
            seen[card] = number
            stock.append(card)
    if not stock:
        raise ParseError("no cards: a deal is the stock, top card first (52 cards, any whitespace)")
    if deck_of(stock) is None:
        raise ParseError(f"{amount(len(stock), 'card')}; a deal is all 52 (or ranks A..R of each suit used); missing: {missing_cards(stock)}")
    return start(stock, rows)


def format_position(position: Position) -> str:
    """The text form `parse` reads back: a fresh deal as its stock, 13 cards a line."""
    if is_fresh(position):
        cards = [card_name(c) for c in position.hand + position.stock]
        return "\n".join(" ".join(cards[i:i + 13]) for i in range(0, len(cards), 13)) + "\n"
    lines = format_columns(position.rows)
    lines.append(f"stock: {' '.join(card_name(c) for c in position.stock) or '-'}")
    lines.append(f"hand: {' '.join(card_name(c) for c in position.hand) or '-'}")
    for player in PLAYERS:
        piles = (" ".join(card_name(c) for c in pile) or "-" for pile in position.foundations_of(player))
        lines.append(f"{player}: {', '.join(piles)}")
    lines.append(f"to-move: {position.to_move}")
    return "\n".join(lines) + "\n"


# --- turns and the reference search -------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One turn of a line: who, what they drew (None in the end phase), their plays, and how the
    turn ended (None for the line's last turn, which wins). `drawn_before`: the line's first turn
    from a position with a `hand:` line, whose cards were drawn before it, so it claims no draw."""

    player: str
    drew: tuple[int, ...] | None
    plays: tuple[Play, ...]
    end: EndTurn | None
    drawn_before: bool = False

    def to_json(self) -> dict:
        """{"player", "drew", "plays", "placed"}; an end-phase turn has no "drew"/"placed", a
        turn whose cards were drawn before the line no "drew"."""
        data = {"player": self.player}
        if self.drew is not None and not self.drawn_before:
            data["drew"] = [card_name(c) for c in self.drew]
        data["plays"] = [p.to_json() for p in self.plays]
        if self.drew is not None:
            data["placed"] = self.end.to_json()["placed"] if self.end else []
        return data

    def __str__(self) -> str:
        """'U drew 4H 5S JD: 4H from drawn -> U foundation 1 (empty); U places JD on row 1'."""
        if self.drew is None and not self.plays:
            return f"{self.player} passes"
        drew = self.drew is not None and not self.drawn_before
        head = f"{self.player} drew {' '.join(card_name(c) for c in self.drew)}" if drew else self.player
        parts = [str(p) for p in self.plays] + ([str(self.end)] if self.end and self.end.placements else [])
        return f"{head}: {'; '.join(parts) or 'no plays'}"


def turns(start_position: Position, moves) -> list[Turn]:
    """A line of moves grouped into turns, replaying every move. A turn's `drew` is the hand
    when it starts (for a line that starts mid-turn: the cards still in hand, which the first
    turn does not claim to draw when a `hand:` line gave them)."""
    result, position, turn = [], start_position, None
    for move in moves:
        if turn is None:
            turn = (position.to_move, None if position.end_phase else position.hand, [], position.drawn_before)
        if isinstance(move, Play):
            turn[2].append(move)
        else:
            result.append(Turn(turn[0], turn[1], tuple(turn[2]), move, turn[3]))
            turn = None
        position = position.apply(move)
    if turn is not None:
        result.append(Turn(turn[0], turn[1], tuple(turn[2]), None, turn[3]))
    return result


def best_win(position: Position, score=None):
    """(score, line) of the best win by plain exhaustive search, or None when there is none;
    `score(won_position)` ranks the wins (None: the first win found will do). Exponential: meant for small decks in tests.

    In the end phase an end of turn only hands the turn over, so ending a turn right after the
    other player ended theirs comes back to a position already on the line; the search skips it,
    which keeps every line finite and loses no win."""
    memo = {}

    def search(pos: Position, after_end: bool):
        if pos.is_won():
            return (score(pos) if score else 0), []
        key = (pos, after_end)
        if key in memo:
            return memo[key]
        best = None
        for move in pos.legal_moves():
            if isinstance(move, EndTurn) and pos.end_phase and after_end:
                continue
            found = search(pos.apply(move), isinstance(move, EndTurn) and pos.end_phase)
            if found is not None and (best is None or found[0] > best[0]):
                best = (found[0], [move, *found[1]])
                if score is None:
                    break
        memo[key] = best
        return best

    return search(position, False)


def reference_solve(position: Position) -> list[Move] | None:
    """A winning line by plain exhaustive search, or None when there is none."""
    found = best_win(position)
    return None if found is None else found[1]
