"""Why cards of The Game must remain, as facts a player can check at the table: cards no pile
can ever take again (every pile is past them and no chain of cards exactly 10 apart can bring
one back), and the hand that cannot play its turn's minimum at the end of a line."""

from __future__ import annotations

from puzzles import the_game as rules
from puzzles.the_game import Position


def dead_card_reason(position: Position, card: int) -> str:
    """Why no pile can take `card` again."""
    remaining = set(position.draw).union(*position.hands)
    low = rules.lowest_reach(position.piles[:2], remaining)
    high = rules.highest_reach(position.piles[2:], remaining)
    up = " and ".join(map(str, position.piles[:2]))
    down = " and ".join(map(str, position.piles[2:]))
    return (
        f"{card} can never be played: the ascending piles (at {up}) can come back no lower than {low} "
        f"and the descending piles (at {down}) no higher than {high}, since no chain of cards still to play, "
        f"each exactly 10 from the last, leads further back"
    )


def dead_card_reasons(position: Position) -> list[str]:
    return [dead_card_reason(position, card) for card in rules.dead_cards(position)]


def clog_bound(position: Position, never: set[int]) -> tuple[int, int, list[int]] | None:
    """A solo game whose hand must fill with cards that can never be played while cards remain
    to draw: (the fewest cards any line leaves, the draws after which the hand is clogged, the
    clogging cards), or None. The kernel's `cards_left_bound` computes the same, with its proof:
    a full hand holding `hand_size - minimum + 1` such cards cannot play the minimum, they never
    leave the hand, and each turn before draws at most the cards it can play, so the game ends
    with at least `hand_size` cards in hand and the draw pile's last `len(draw) - last` cards
    still to draw, `last` being the clogging draw plus `minimum - 1`."""
    if position.players != 1:
        return None
    minimum = position.minimum_while_drawing
    clogging = max(position.hand_size + 1 - minimum, 0)
    held = [card for card in position.hands[0] if card in never]
    draws = 0
    while len(held) < clogging:
        if draws == len(position.draw):
            return None
        if position.draw[draws] in never:
            held.append(position.draw[draws])
        draws += 1
    last = draws + minimum - 1
    if last >= len(position.draw):
        return None
    return position.hand_size + len(position.draw) - last, draws, sorted(held)


def clogged(position: Position, name=str, blocked: str = "") -> str | None:
    """At the end of a game with cards left: the hand that could not play the minimum. `name`
    writes a card (Extreme adds its instruction) and `blocked` says why the cards that fit make
    no complete turn, where the variant knows more than The Game."""
    if not position.is_over() or position.is_won():
        return None
    fits = sorted({c for c in position.hand for p, t in enumerate(position.piles) if rules.accepts(p, t, c)})
    playable = ", ".join(map(str, fits)) or "none of them"
    # Cards that fit one at a time need not make a whole turn (one covers the other's pile, or
    # in Extreme an instruction showing forbids it).
    why = ", but no complete turn can be made with them" if len(fits) >= position.minimum or blocked else ""
    if blocked:
        why += f": {blocked}"
    return (
        f"player {position.to_move} holds {' '.join(map(name, sorted(position.hand)))} with piles at "
        f"{' '.join(map(name, position.piles))} and must play {position.minimum}; the cards that fit: {playable}{why}"
    )
