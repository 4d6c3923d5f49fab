"""Why cards of The Game: Extreme must remain because of their instructions, as facts a player
can check at the table:

- a skull no card still to come could cover, on any pile that can take it (it must be covered in
  the turn it is played, by the same player);
- skulls that are all a player can still play (a turn's last card shows when it ends);
- a three whose holder can no longer make a turn of exactly 3 cards;
- a no-backwards card on a pile top that nothing can cover, so no backwards trick is possible
  again, and the cards only a backwards trick could bring back are stranded;
- at the end of a line, the instruction that keeps the cards that fit from making a turn.

Each "can never be played" is sound: it rests on The Game's dead cards and on the facts found
before it (a card that can never be played covers nothing), so they are found to a fixed point
and listed in the order found.
"""

from __future__ import annotations

from dataclasses import replace

from puzzles import the_game as base
from puzzles.the_game import PILES, EndTurn, Play, is_backwards
from puzzles.the_game_extreme import THREE, Position

from ...words import amount, listed
from ..the_game import reasons as base_reasons


def named(position: Position, card: int) -> str:
    """A card as the position writes it: `72!skull`, or `40`."""
    kind = position.instruction(card)
    return f"{card}!{kind}" if kind else str(card)


def card_list(cards, name=str) -> str:
    """`24`, `24 and 30`, `24, 30 and 41`: the cards in ascending order, each written by `name`."""
    return listed([name(c) for c in sorted(cards)])


def holder(position: Position, card: int) -> int | None:
    """The player (1-based) holding `card`, or None while it is in the draw pile."""
    return next((number for number, hand in enumerate(position.hands, start=1) if card in hand), None)


def pool(position: Position, card: int) -> tuple[set[int], str]:
    """The cards the player holding `card` can still get (their hand and the draw pile; every
    card for one in the draw pile), and the words for them after "every card"."""
    player = holder(position, card)
    if player is None or position.players == 1:
        return set(position.draw).union(*position.hands), "still to come"
    words = f"player {player} can get (in hand or from the draw pile)" if position.draw else f"player {player} holds"
    return {*position.hands[player - 1], *position.draw}, words


def never_played(position: Position) -> list[tuple[set[int], str]]:
    """The cards the instructions keep from ever being played, beyond The Game's dead cards
    (which `dead_card_reasons` gives), each group with the sentence that says why."""
    remaining = set(position.draw).union(*position.hands)
    never = set(base.dead_cards(position))
    facts = []
    while found := next_fact(position, remaining - never):
        facts.append(found)
        never |= found[0]
    return facts


def next_fact(position: Position, alive: set[int]) -> tuple[set[int], str] | None:
    """The first cards found that can never be played, of those not known yet (`alive`)."""
    lock = backwards_lock(position, alive)
    if lock:
        return lock
    for card in sorted(alive):
        for check in CHECKS.get(position.instruction(card), ()):
            found = check(position, card, alive)
            if found:
                return found
    return None


def uncoverable_skull(position: Position, skull: int, alive: set[int]) -> tuple[set[int], str] | None:
    """Why `skull` can never be played, if no card its player can still get could cover it on
    any pile that can take it. Ascending piles take it only at or above the lowest top they
    can reach (The Game's `lowest_reach`, over the cards that can still be played), and there a
    card above it or 10 below covers it; mirrored for descending piles."""
    cards, whose = pool(position, skull)
    cards.discard(skull)
    low = base.lowest_reach(position.piles[:2], alive)
    high = base.highest_reach(position.piles[2:], alive)
    up = {c for c in cards if c > skull or c == skull - 10} if skull >= low else set()
    down = {c for c in cards if c < skull or c == skull + 10} if skull <= high else set()
    if (skull < low and skull > high) or (up | down) & alive:
        return None
    up_words = f"a card above {skull}{f' or {skull - 10}' if skull - 10 >= 2 else ''}"
    down_words = f"a card below {skull}{f' or {skull + 10}' if skull + 10 <= position.top else ''}"
    if skull < low:
        where = (f"and only a descending pile can take it (the ascending ones can come back no lower than {low}), "
                 f"where {down_words} must go on it")
    elif skull > high:
        where = (f"and only an ascending pile can take it (the descending ones can come back no higher than {high}), "
                 f"where {up_words} must go on it")
    else:
        where = f"on an ascending pile by {up_words}, on a descending one by {down_words}"
    blocked = (up | down) - alive
    if blocked:
        cover = f"the only card{'s' * (len(blocked) > 1)} {whose} that could, {card_list(blocked)}, can never be played"
    else:
        cover = f"no card {whose} can cover it"
    return {skull}, f"{skull}!skull can never be played: it must be covered in the turn it is played, {where}; {cover}"


def only_skulls(position: Position, skull: int, alive: set[int]) -> tuple[set[int], str] | None:
    """Why `skull` and its player's other skulls can never be played, if every card that player
    can still play is a skull: the last card of a turn shows on its pile when the turn ends, so
    it is never a skull, and a turn of skulls alone has no last card."""
    cards, whose = pool(position, skull)
    skulls = cards & alive
    if any(position.instruction(card) != "skull" for card in skulls):
        return None
    names = card_list(skulls, lambda card: named(position, card))
    return skulls, (f"{names} can never be played: the last card of a turn shows on its pile when the turn "
                    f"ends, so it is never a skull, and every card {whose} that can still be played is a skull")


def short_threes(position: Position, three: int, alive: set[int]) -> tuple[set[int], str] | None:
    """Why `three` can never be played, if its turn cannot reach exactly 3 cards: no hand holds
    3, or the draw pile is empty and its holder has fewer than 3 cards that can still be played
    (counting, mid-turn, the cards the holder has played this turn while a three may still join);
    with the other threes this holds for (every three, or the holder's)."""
    if position.hand_size < THREE:
        threes = {c for c in alive if position.instruction(c) == "three"}
        return threes, f"{subject(position, threes)} exactly 3 cards, and a hand holds at most {position.hand_size}"
    player = holder(position, three)
    if position.draw or player is None:
        return None
    hand = position.hands[player - 1]
    usable = [c for c in hand if c in alive]
    this_turn = (position.played if player == position.to_move and not position.stopped
                 and position.played < THREE else 0)
    if len(usable) + this_turn >= THREE:
        return None
    have = f"holds only {len(usable)}"
    if this_turn:
        have = f"has played {this_turn} this turn and {have} more"
    have += " card" if len(usable) == 1 else " cards"
    gone = [c for c in hand if c not in alive]
    if gone:
        have += f" that can still be played ({card_list(gone)} can never be)"
    threes = {c for c in usable if position.instruction(c) == "three"}
    return threes, f"{subject(position, threes)} exactly 3 cards, the draw pile is empty and player {player} {have}"


def subject(position: Position, threes: set[int]) -> str:
    """`13!three can never be played: a turn with it has`, or with them, `with one of them`."""
    one = "it" if len(threes) == 1 else "one of them"
    return f"{card_list(threes, lambda c: named(position, c))} can never be played: a turn with {one} has"


def backwards_lock(position: Position, alive: set[int]) -> tuple[set[int], str] | None:
    """A no-backwards card on a pile top that can never be covered (only a forward card could,
    since the backwards trick is what it forbids), with the cards this strands: with no backwards
    trick ever again the ascending piles never go below their lowest top nor the descending above
    their highest. None when no such card strands a card that could still be played (`alive`)."""
    for pile, top in enumerate(position.piles):
        if position.instruction(top) != "no-backwards":
            continue
        ascending = pile < 2
        if any(c > top if ascending else c < top for c in alive):
            continue
        low, high = min(position.piles[:2]), max(position.piles[2:])
        stranded = {c for c in alive if high < c < low}
        if not stranded:
            return None
        beyond = f"above {top}" if ascending else f"below {top}"
        up, down = (" and ".join(map(str, tops)) for tops in (position.piles[:2], position.piles[2:]))
        return stranded, (
            f"{top}!no-backwards on {PILES[pile]} can never be covered (no card {beyond} can still be played, "
            f"and the backwards trick is what it forbids), so no backwards trick is possible again: "
            f"{card_list(stranded)} can never be played (the ascending piles are at {up} and the descending at {down})")
    return None


#: Why a card of each instruction can never be played, when it cannot.
CHECKS = {"skull": (uncoverable_skull, only_skulls), "three": (short_threes,)}
#: The instructions that can keep cards that fit from making a turn; stop only helps, and
#: no-talk and draw-one do not bind plays.
BINDING = ("skull", "three", "no-backwards", "same-pile")


def clogged(position: Position) -> str | None:
    """The Game's sentence for the hand stuck at the end, naming the instructions that stop it:
    the turns the player could make if one kind of instruction had no effect (failing that, if
    none had), each with the rule it would break."""
    if not position.is_over() or position.is_won():
        return None
    turns = [a_turn(without(position, (kind,))) for kind in BINDING]
    turns = [t for t in turns if t] or [t for t in [a_turn(without(position, BINDING))] if t]
    blocked = "; ".join(f"{' then '.join(map(str, turn))} would {rule}"
                        for turn in turns for rule in broken_rules(position, turn))
    return base_reasons.clogged(position, name=lambda card: named(position, card), blocked=blocked)


def without(position: Position, kinds: tuple[str, ...]) -> Position:
    """The position with the instructions of these kinds taking no effect."""
    return replace(position, marks=tuple(mark for mark in position.marks if mark[1] not in kinds))


def a_turn(position: Position) -> list[Play] | None:
    """A shortest complete turn for the player to move, or None (every legal play leaves the
    turn completable, so a search by length over legal plays finds one)."""
    if position.is_over():
        return None

    def turn_of(position: Position, length: int) -> list[Play] | None:
        moves = position.legal_moves()
        if length == 0:
            return [] if not moves or EndTurn() in moves else None
        for play in (m for m in moves if isinstance(m, Play)):
            rest = turn_of(position.apply(play), length - 1)
            if rest is not None:
                return [play, *rest]
        return None

    return next(turn for length in range(1, len(position.hand) + 1)
                if (turn := turn_of(position, length)) is not None)


def broken_rules(position: Position, turn: list[Play]) -> list[str]:
    """The instructions `turn` breaks when played from `position`, in words."""
    broken, piles, used = [], list(position.piles), set()

    def showing(kind: str) -> int | None:
        return next((top for top in piles if position.instruction(top) == kind), None)

    for play in turn:
        lock, same = showing("no-backwards"), showing("same-pile")
        if lock and is_backwards(play.pile, piles[play.pile], play.card):
            broken.append(f"play {play.card} backwards while {lock}!no-backwards shows")
        piles[play.pile] = play.card
        used.add(play.pile)
        same = same or showing("same-pile")
        if same and len(used) > 1 and not any("same-pile" in rule for rule in broken):
            broken.append(f"put cards on two piles while {same}!same-pile shows")
    threes = [p.card for p in turn if position.instruction(p.card) == "three"]
    if threes and len(turn) != THREE:
        broken.append(f"be {amount(len(turn), 'card')} where {threes[0]}!three needs exactly {THREE}")
    skull = showing("skull")
    if skull:
        broken.append(f"leave {skull}!skull uncovered")
    return broken
