"""The Game: Extreme's explain reasons (`solver/games/the_game_extreme/reasons.py`): each fires on
a hand-made position with its exact sentence and stays quiet where it does not hold; every card
they say can never be played is played by no line of the reference's exhaustive search; and
`explain` shows them in text and JSON."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from click.testing import CliRunner

from cli.commands import main
from puzzles import the_game as g
from puzzles import the_game_extreme as x
from solver.games.the_game_extreme import reasons
from solver.games.the_game_extreme.engine import GAME
from solver.result import Budget

END = "draw: -\nto-move: 1\nplayed: 0\n"
#: The end of seed 7's best line (solo): a skull only a three could cover, in a hand of two.
SKULL_AND_THREE = "hand 1: 37!skull 24!three\npiles: 56 97 11 76\n" + END
#: Nothing above 30 is left to cover the no-backwards card, and 25 could come back only by a
#: backwards trick (15 on a descending pile, then 25 on it).
LOCKED = "hand 1: 25 15\npiles: 30!no-backwards 45 20 22\n" + END


def facts(text: str) -> list[str]:
    return [why for _, why in reasons.never_played(x.parse(text))]


def test_a_three_whose_hand_cannot_make_three_cards_and_the_skull_only_it_could_cover():
    assert facts(SKULL_AND_THREE) == [
        "24!three can never be played: a turn with it has exactly 3 cards, the draw pile is empty "
        "and player 1 holds only 2 cards",
        "37!skull can never be played: it must be covered in the turn it is played, and only a descending "
        "pile can take it (the ascending ones can come back no lower than 56), where a card below 37 or 47 "
        "must go on it; the only card still to come that could, 24, can never be played",
    ]
    # with a third card the three can be played (24, 37 and 20 on down2), and so can the skull
    assert facts(SKULL_AND_THREE.replace("24!three", "24!three 20")) == []


def test_a_three_counts_only_the_cards_that_can_still_be_played():
    dead = "hand 1: 13!three 45 20\npiles: 50 60 40 30\n" + END
    assert facts(dead) == [
        "13!three can never be played: a turn with it has exactly 3 cards, the draw pile is empty "
        "and player 1 holds only 2 cards that can still be played (45 can never be)"]
    assert facts(dead.replace("45", "25")) == []
    with_draw = "hand-size: 3\nhand 1: 13!three 45 20\ndraw: 2\npiles: 50 60 40 30\nto-move: 1\nplayed: 0\n"
    assert facts(with_draw) == []  # a card still to draw may make the third
    both = facts(dead.replace("20", "20!three"))
    assert both == ["13!three and 20!three can never be played: a turn with one of them has exactly 3 cards, "
                    "the draw pile is empty and player 1 holds only 2 cards that can still be played (45 can never be)"]
    mid_turn = "hand 1: 13!three\npiles: 50 60 35 30\ndraw: -\nto-move: 1\nplayed: 1\nthis-turn: down1\n"
    assert facts(mid_turn) == ["13!three can never be played: a turn with it has exactly 3 cards, the draw pile is "
                               "empty and player 1 has played 1 this turn and holds only 1 more card"]
    assert facts(mid_turn.replace("13!three", "13!three 20")) == []  # 35, 20 and 13 on down1
    small = "hand-size: 2\nhand 1: 13!three 20\ndraw: 2\npiles: 50 60 40 30\nto-move: 1\nplayed: 0\n"
    assert facts(small) == ["13!three can never be played: a turn with it has exactly 3 cards, and a hand holds "
                            "at most 2"]


def test_a_skull_that_can_go_only_where_nothing_left_covers_it():
    high = "hand 1: 98!skull 20 30\npiles: 60 70 50 40\n" + END
    assert facts(high) == [
        "98!skull can never be played: it must be covered in the turn it is played, and only an ascending "
        "pile can take it (the descending ones can come back no higher than 50), where a card above 98 or 88 "
        "must go on it; no card still to come can cover it"]
    assert facts(high.replace(" 20 ", " 88 ")) == []  # 88 covers it by the backwards trick


def test_a_skull_counts_only_the_cards_its_own_player_can_get():
    two = "hand 1: 40!skull 5\nhand 2: 45\npiles: 30 35 20 25\n" + END
    assert facts(two) == [
        "40!skull can never be played: it must be covered in the turn it is played, and only an ascending "
        "pile can take it (the descending ones can come back no higher than 25), where a card above 40 or 30 "
        "must go on it; no card player 1 holds can cover it"]
    assert facts("hand 1: 40!skull 5 45\npiles: 30 35 20 25\n" + END) == []  # one player: 45 covers it


def test_skulls_alone_can_never_be_played_since_a_turn_never_ends_on_one():
    """Each of 28 and 37 could cover the other, but the last of them would show at the turn's end."""
    skulls = "hand 1: -\nhand 2: 28!skull 37!skull\ndraw: -\npiles: 98 24 23 79\nto-move: 2\nplayed: 0\n"
    assert facts(skulls) == [
        "28!skull and 37!skull can never be played: the last card of a turn shows on its pile when the turn ends, "
        "so it is never a skull, and every card player 2 holds that can still be played is a skull"]
    assert facts(skulls.replace("37!skull", "37!skull 50")) == []  # 28 on up2, then 50 on it


def test_a_no_backwards_card_nothing_can_cover_strands_what_only_a_backwards_trick_could_bring_back():
    assert facts(LOCKED) == [
        "30!no-backwards on up1 can never be covered (no card above 30 can still be played, and the backwards "
        "trick is what it forbids), so no backwards trick is possible again: 25 can never be played (the "
        "ascending piles are at 30 and 45 and the descending at 20 and 22)"]
    assert g.dead_cards(x.parse(LOCKED)) == []  # without the instruction 25 could still be played
    assert facts(LOCKED.replace("25 15", "25 15 50")) == []  # 50 can cover it


def test_no_reason_fires_on_a_fresh_deal():
    for seed in range(1, 21):
        for players in (1, 2, 5):
            deal = x.deal(seed, players)
            assert reasons.never_played(deal) == [] and reasons.never_played(deal.start(1)) == []


def test_the_clogged_last_hand_names_the_instruction_and_a_turn_it_forbids():
    assert reasons.clogged(x.parse(SKULL_AND_THREE)) == (
        "player 1 holds 24!three 37!skull with piles at 56 97 11 76 and must play 1; the cards that fit: 24, 37, "
        "but no complete turn can be made with them: 37 on down2 would leave 37!skull uncovered; 24 on down2 "
        "would be 1 card where 24!three needs exactly 3")
    locked_end = x.parse("hand 1: 25\npiles: 30!no-backwards 45 15 22\n" + END)
    assert reasons.clogged(locked_end) == (
        "player 1 holds 25 with piles at 30!no-backwards 45 15 22 and must play 1; the cards that fit: 25, "
        "but no complete turn can be made with them: 25 on down1 would play 25 backwards while 30!no-backwards shows")
    same_pile = x.parse("hand-size: 2\nhand 1: 60 40\ndraw: 70\npiles: 55 65!same-pile 45 51\nto-move: 1\nplayed: 0\n")
    assert reasons.clogged(same_pile) == (
        "player 1 holds 40 60 with piles at 55 65!same-pile 45 51 and must play 2; the cards that fit: 40, 60, "
        "but no complete turn can be made with them: 60 on up1 then 40 on down1 would put cards on two piles "
        "while 65!same-pile shows")
    plain = x.parse("hand 1: 40 60\npiles: 90 91 20 21\n" + END)  # stuck by The Game's rules alone
    assert reasons.clogged(plain) == ("player 1 holds 40 60 with piles at 90 91 20 21 and must play 1; "
                                      "the cards that fit: none of them")
    assert reasons.clogged(x.parse(SKULL_AND_THREE.replace("24!three", "24!three 20"))) is None  # not stuck


def late_position(rng: random.Random, top: int, hand: int, players: int, kinds: dict[str, int],
                  moves: tuple[int, int]) -> x.Position:
    """A small deck dealt as The Game deals it, instructions (drawn with these weights) on 2 to 7
    cards, after a number of random legal moves in the range `moves`; then, between turns, half
    the time a no-backwards mark on a pile top (a lock needs one showing late in the game)."""
    plain = g.deal(rng.randrange(2**64), players=players, top=top, hand_size=hand)
    marks: dict[int, str] = {}
    for card in rng.sample(range(2, top + 1), rng.randint(2, 7)):
        kind = rng.choices(list(kinds), weights=list(kinds.values()))[0]
        if list(marks.values()).count(kind) < x.PER_KIND:
            marks[card] = kind
    position = x.Position(plain.hands, plain.draw, plain.piles, None, 0, False, hand, top,
                          tuple(sorted(marks.items()))).start(rng.randint(1, players))
    for _ in range(rng.randint(*moves)):
        legal = position.legal_moves()
        if not legal:
            break
        position = position.apply(rng.choice(legal))
    top, kinds = rng.choice(position.piles), [kind for _, kind in position.marks]
    if (position.played == 0 and rng.random() < 0.5 and 2 <= top <= position.top
            and kinds.count("no-backwards") < x.PER_KIND and not position.instruction(top)):
        position = replace(position, marks=tuple(sorted({*position.marks, (top, "no-backwards")})))
    return position


def some_line_plays(position: x.Position, cards: set[int]) -> bool:
    """Whether some line from `position` plays one of `cards` (a depth-first search over the
    reachable positions, each visited once, that stops at the first such play)."""
    seen, stack = set(), [position]
    while stack:
        here = stack.pop()
        if x.key(here) in seen:
            continue
        seen.add(x.key(here))
        for move in here.legal_moves():
            if isinstance(move, g.Play) and move.card in cards:
                return True
            stack.append(here.apply(move))
    return False


def reasons_checked(positions) -> dict[str, int]:
    """For each position: no line plays a card a reason names, so the fewest cards left is at
    least the dead cards and those. The reasons found, by kind."""
    fired = {"must be covered": 0, "never a skull": 0, "the draw pile is empty": 0, "a hand holds at most": 0,
             "!no-backwards": 0}
    for position in positions:
        found = reasons.never_played(position)
        if not found:
            continue
        never = set().union(*(cards for cards, _ in found))
        assert not some_line_plays(position, never), x.format_position(position)
        assert x.fewest_cards_left(position)[0] >= len(never | set(g.dead_cards(position)))
        for _, why in found:
            fired[next(words for words in fired if words in why)] += 1
    return fired


def test_every_card_said_never_to_be_played_is_played_by_no_line():
    """600 small positions (about 4 s), 1-2 players, skulls and threes the likeliest: skulls and
    threes (short hands and empty draw piles) fire, and each is sound."""
    rng = random.Random(2026)
    kinds = dict(zip(x.KINDS, [1, 4, 3, 1, 3, 2, 1]))
    fired = reasons_checked(
        late_position(rng, rng.randint(8, 12), rng.choice([2, 3, 3, 4]), rng.randint(1, 2), kinds, (0, 14))
        for _ in range(600))
    assert all(fired[words] >= 5 for words in fired if words != "!no-backwards"), fired


def test_a_no_backwards_lock_is_sound():
    """600 solo positions of decks 2..12 to 2..16 with hands of 2, at least 4 moves in, where
    backwards tricks are common enough for a lock to strand cards (about 1 s)."""
    rng = random.Random(1)
    kinds = {"no-backwards": 1, "skull": 1, "stop": 1}
    fired = reasons_checked(late_position(rng, rng.randint(12, 16), 2, 1, kinds, (4, 16)) for _ in range(600))
    assert fired["!no-backwards"] >= 10, fired


def test_explain_shows_them_in_text_and_json(tmp_path):
    path = tmp_path / "stuck.txt"
    path.write_text(SKULL_AND_THREE)
    text = CliRunner().invoke(main, ["explain", "the-game-extreme", str(path)])
    assert text.exit_code == 0
    assert "- 24!three can never be played: a turn with it has exactly 3 cards" in text.output
    assert "but no complete turn can be made with them: 37 on down2 would leave 37!skull uncovered" in text.output
    assert "at that point" not in text.output  # the line is empty: its end is the position itself
    payload = json.loads(CliRunner().invoke(main, ["explain", "the-game-extreme", str(path), "--json"]).output)
    assert payload["verdict"] == "unwinnable" and payload["reasons"][:2] == facts(SKULL_AND_THREE)
    explanation = GAME.engine.explain(x.parse(LOCKED), Budget(time_limit=20))
    assert explanation.reasons[0].startswith("30!no-backwards on up1 can never be covered")
    assert any("25 on down" in line and "backwards while 30!no-backwards shows" in line for line in explanation.reasons)
    path.write_text("hand 1: 24!skul\n" + END)
    bad = CliRunner().invoke(main, ["explain", "the-game-extreme", str(path)])
    assert bad.exit_code == 2 and bad.output.count("Error") == 1


def test_explain_says_the_cards_that_can_never_be_played_bound_the_cards_left():
    """In words only: when the search has proven less (here a result with its bound taken back
    to 0, as a search cut short leaves it), explain counts the cards that can never be played."""
    position = x.parse(SKULL_AND_THREE)
    result = GAME.engine.solve(position, Budget(time_limit=20))
    assert (result.value, result.bound) == (2, 2)
    cut_short = GAME.engine.optimum_reasons(position, replace(result, bound=0), Budget())
    assert cut_short[-1] == ("no line leaves fewer than 2 cards: 24, 37 can never be played (above), "
                             "so the best line found leaves the fewest")
    proven = GAME.engine.optimum_reasons(position, result, Budget())
    assert proven[-1] == cut_short[-1]  # the cards named prove the search's bound in words
    # A bound beyond the cards named is the search's, or, as here where nothing was searched
    # (the position is over: method "rules"), the rules'.
    beyond = GAME.engine.optimum_reasons(position, replace(result, value=3, bound=3), Budget())
    assert beyond[-1] == "no line leaves fewer than 3 cards: the game is already over here"
    searched = replace(result, value=3, bound=3, stats=replace(result.stats, method="beam+bnb"))
    assert GAME.engine.optimum_reasons(position, searched, Budget())[-1] == (
        "no line leaves fewer than 3 cards: the exhaustive search proved it")


def test_explain_cut_short_before_any_line_says_no_line_was_found():
    """It said "the best line found (player 1 starting) ends after 0 turns with 98 cards left"
    where no line ended the game (`explain the-game-extreme --seed 5 --node-limit 1`)."""
    explained = GAME.engine.explain(x.deal(5), Budget(time_limit=None, node_limit=1)).reasons
    assert explained[0] == "no line was found within the budget: the search stopped before any line ended the game"
    assert not any("ends after" in reason for reason in explained)
