"""Pictures for every registered game: `show` writes a picture with one card drawing placed per
card shown, bad paths are one Error line, and the replay pages of `solve --html` step through
the whole line in a real browser (headless Chromium through Playwright; skipped with a message
where either is missing) to the position the reference rules reach, with no network request."""

from __future__ import annotations

import importlib.util
import html
import json
import re
import shutil
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.commands import main
from cli.pictures import write_line_page, write_moves_page, write_reasons_page
from puzzles.lines import replay
from solver.pictures import CARD_W, Face, names_in, place
from solver.registry import GAMES
from solver.result import UNWINNABLE, Budget, Explanation, Refutation

NAMES = list(GAMES)
SVG = "{http://www.w3.org/2000/svg}"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def flags(variant: dict) -> list[str]:
    return [word for key, value in variant.items()
            for word in ["--" + key.replace("_", "-")] + ([] if value is True else [str(value)])]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("name", NAMES)
def test_show_draws_every_card_of_a_deal(name, tmp_path):
    entry = GAMES[name]
    variant = entry.test_variants[-1]
    out = tmp_path / "deal.svg"
    result = run("show", name, "--seed", "3", *flags(variant), "--out", str(out))
    assert result.exit_code == 0, result.output
    tree = ElementTree.parse(out)
    placed = [use for use in tree.iter(f"{SVG}use")]
    faces = entry.picture(entry.rules.deal(3, **variant)).faces()
    assert len(placed) == len(faces) > 0
    assert {use.get("href").removeprefix("#") for use in placed} == {face.key for face in faces}
    drawings = next(tree.iter(f"{SVG}defs"))
    assert {group.get("id") for group in drawings} == {face.key for face in faces}


def test_show_writes_png_or_says_what_it_needs(tmp_path):
    out = tmp_path / "deal.png"
    result = run("show", "the-game", "--seed", "7", "--out", str(out))
    if importlib.util.find_spec("cairosvg") is None:
        assert result.exit_code == 2 and "needs the cairosvg package" in result.output
    else:
        assert result.exit_code == 0 and out.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("out, message", [
    ("deal.gif", "a picture is .svg or .png"),
    ("missing/deal.svg", "cannot write"),
    (".", "is a directory"),
    ("", "--out is empty"),
])
def test_bad_picture_paths_are_one_error_line(tmp_path, out, message):
    path = {".": str(tmp_path), "": ""}.get(out, str(tmp_path / out))
    result = run("show", "twaalven", "--seed", "1", "--out", path)
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_an_output_that_would_replace_the_input_or_go_to_standard_output_is_refused(tmp_path):
    """`--html pos.svg` on pos.svg replaced the position with the page; `--html -` wrote a
    file named '-'. Both are refused before any search, the input left as it was."""
    position = tmp_path / "pos.svg"  # a position file may have any name
    position.write_text(run("deal", "twaalven", "--seed", "1").output)
    kept = position.read_bytes()
    for args in (["solve", "twaalven", str(position), "--html", str(position)],
                 ["show", "twaalven", str(position), "--out", str(position)]):
        result = run(*args)
        assert result.exit_code == 2 and "is the input file" in result.output, result.output
    assert position.read_bytes() == kept
    result = run("solve", "twaalven", "--seed", "1", "--html", "-")
    assert result.exit_code == 2 and "the output path is '-'" in result.output


def test_a_page_written_over_a_link_or_a_file_keeps_them(tmp_path):
    """Through a symbolic link the target is written and the link kept (the link became a file
    of its own); a file replaced keeps its permissions (a private one became readable by all);
    a name near the longest a file may have works (the new file's name grew from it and was
    too long, found only after the search)."""
    target, link = tmp_path / "target.svg", tmp_path / "link.svg"
    target.write_text("old")
    target.chmod(0o600)
    link.symlink_to(target)
    assert run("show", "twaalven", "--seed", "1", "--out", str(link)).exit_code == 0
    assert link.is_symlink() and target.read_text().startswith("<svg") and target.stat().st_mode & 0o777 == 0o600
    long_name = tmp_path / ("b" * 240 + ".html")
    result = run("solve", "twaalven", "--seed", "1", "--html", str(long_name))
    assert result.exit_code == 0 and long_name.read_text().startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["target.svg", "link.svg", long_name.name])
    dangling = tmp_path / "dangling.html"  # a link into a missing folder: refused before the search, not after
    dangling.symlink_to(tmp_path / "missing" / "page.html")
    result = run("solve", "twaalven", "--seed", "1", "--html", str(dangling))
    assert result.exit_code == 2 and "cannot make a new file in" in result.output and "verdict" not in result.output


def test_a_page_names_the_variant_its_pictures_do_not_show(tmp_path):
    """The Game's --expert and Quick & Easy's --pro change the rules, not the position drawn:
    the page's title named neither."""
    for args, title in ((["the-game", "--seed", "11", "--players", "2", "--expert"], "The Game (players=2 expert)"),
                        (["quick-and-easy", "--seed", "3", "--pro"], "The Game: Quick &amp; Easy (pro)")):
        for command in ("solve", "explain", "analyse"):
            page = tmp_path / f"{command}.html"
            assert run(command, *args, "--node-limit", "2000", "--html", str(page)).exit_code == 0
            assert f"<title>{title}: " in page.read_text(), (command, args)


def test_the_game_frames_the_cards_a_move_plays_not_its_player_or_counts():
    """'player 2: 73 on up1' framed card 2 beside 73, and "ends after 2 turns with 4 cards left"
    framed cards 2 and 4: The Game's cards are bare numbers."""
    entry = GAMES["the-game"]
    position = entry.rules.parse("hand 1: 50 51 3\nhand 2: 60 61 4\ndraw: -\npiles: 90 91 10 11\n"
                                 "to-move: 1\nplayed: 0\n")
    picture = entry.picture(position)
    assert names_in("player 2: 4 on down1", picture) == {"4"}
    assert names_in("ends after 3 turns with 4 cards left; player 1 must play 3 more; 50 and 60 can never be played",
                    picture) == {"50", "60"}
    assert names_in("Player 1: 3 on down1; each exactly 10 from the last; they fill 4 places of the hand of 3",
                    picture) == {"3"}  # not the pile at 10, nor card 4


def test_explain_page_frames_the_cards_its_reasons_name(tmp_path):
    page = tmp_path / "why.html"
    result = run("explain", "twaalven", "--seed", "3087", "--html", str(page), "--time-limit", "30")
    assert result.exit_code == 0, result.output
    text = page.read_text()
    assert "mark-named" in text and "<li>" in text


def test_generate_writes_a_picture_beside_each_deal(tmp_path):
    result = run("generate", "twaalven", "--count", "2", "--seeds", "1-10", "--jobs", "1", "--out", str(tmp_path),
                 "--pictures")
    assert result.exit_code == 0, result.output
    deals = sorted(tmp_path.glob("*.txt"))
    assert len(deals) == 2 and all(deal.with_suffix(".svg").exists() for deal in deals)


def line_page(name: str, tmp_path) -> tuple:
    """(page path, the solve result, the final position) of the line of the game's first test seed."""
    entry = GAMES[name]
    seed = entry.test_seeds[0]
    solved = entry.engine.solve(entry.rules.deal(seed, **entry.test_variants[0]), Budget(time_limit=30))
    page = tmp_path / f"{name}.html"
    write_line_page(str(page), entry, solved, solved.to_json())
    return page, solved, replay(solved.start, solved.solution)


@pytest.mark.parametrize("name", NAMES)
def test_replay_page_is_self_contained(name, tmp_path):
    page = tmp_path / "line.html"
    result = run("solve", name, "--seed", str(GAMES[name].test_seeds[0]), *flags(GAMES[name].test_variants[0]),
                 "--html", str(page))
    assert result.exit_code == 0, result.output
    text = page.read_text()
    assert "<script src" not in text and "<link" not in text and "url(" not in text and "@import" not in text
    steps = json.loads(re.search(r'<script type="application/json" id="steps">(.*?)</script>', text, re.S).group(1))
    assert len(steps) == text.count("<li>") + 1 >= 2


@pytest.mark.parametrize("name", NAMES)
def test_replay_page_steps_turn_by_turn_where_the_game_has_turns(name, tmp_path):
    page, solved, final = line_page(name, tmp_path)
    text = page.read_text()
    steps = json.loads(re.search(r'<script type="application/json" id="steps">(.*?)</script>', text, re.S).group(1))
    assert len(steps) == len(solved.turns) + 1
    assert [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", text)] == [str(t) for t in solved.turns]
    assert html.unescape(re.search(r"<desc>(.*?)</desc>", steps[-1], re.S).group(1)) == GAMES[name].rules.format_position(final)


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None or importlib.util.find_spec("playwright") is None:
        pytest.skip("the browser tests need Chromium (apt-get install chromium) and Playwright (pip install playwright)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.mark.parametrize("name", NAMES)
def test_replay_page_steps_to_the_end_of_the_line_in_a_browser(name, tmp_path, browser):
    page_path, solved, final = line_page(name, tmp_path)
    entry = GAMES[name]
    page = browser.new_page()
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(page_path.as_uri())
    steps = len(solved.turns)  # a turn a step where the game plays in turns, else a move a step
    assert page.inner_text("#counter") == f"step 0 / {steps}"
    for _ in range(steps):
        page.click("#next")
    assert page.inner_text("#counter") == f"step {steps} / {steps}"
    assert page.get_attribute("#board", "data-step") == str(steps)
    if steps:
        assert page.inner_text("#moves li.current") == str(solved.turns[-1])
    assert page.text_content("#board svg desc") == entry.rules.format_position(final)
    assert page.url.endswith(f"#{steps}")
    page.keyboard.press("Home")
    assert page.inner_text("#counter") == f"step 0 / {steps}"
    page.screenshot(path=str(tmp_path / f"{name}.png"))
    assert [url for url in requests if not url.startswith("file:")] == []
    page.close()


def page_steps(text: str) -> list[str]:
    """Each step's position, in the game's text format, as the page's pictures describe them."""
    steps = json.loads(re.search(r'<script type="application/json" id="steps">(.*?)</script>', text, re.S).group(1))
    return [html.unescape(re.search(r"<desc>(.*?)</desc>", step, re.S).group(1)) for step in steps]


def analyse_page(name: str, source, tmp_path) -> tuple:
    """(page path, the analysis, the position) of `analyse --html` on a deal or position."""
    entry = GAMES[name]
    position = entry.rules.deal(source) if isinstance(source, int) else entry.rules.parse(source.read_text())
    analysis = entry.engine.analyse(position, Budget(time_limit=30))
    page = tmp_path / "moves.html"
    write_moves_page(str(page), entry, position, analysis, analysis.to_json())
    return page, analysis, position


def test_analyse_page_shows_each_move_framed_by_its_verdict(tmp_path):
    page, analysis, deal = analyse_page("twaalven", 998, tmp_path)  # a deal: T's and F's first moves
    text = page.read_text()
    assert page_steps(text) == [GAMES["twaalven"].rules.format_position(deal)] * 14 and len(analysis.moves) == 13
    assert text.count('<li class="loses">') == 7 and text.count('<li class="keeps">') == 6
    steps = json.loads(re.search(r'<script type="application/json" id="steps">(.*?)</script>', text, re.S).group(1))
    assert steps[1].count("mark-loses") == 2 and "mark-keeps" not in steps[1]  # 9H and 3H
    assert steps[8].count("mark-keeps") == 2 and "mark-loses" not in steps[8]  # 9H and 5H
    assert "F: 9H (col 1) + 5H (col 8) keeps winnable" in html.unescape(steps[8])


def test_analyse_page_of_the_game_frames_each_move_by_its_verdict(tmp_path):
    page, analysis, position = analyse_page("the-game", Path(__file__).parent / "golden" / "the-game-small.txt",
                                            tmp_path)
    text = page.read_text()
    assert page_steps(text)[0].count("\n") == GAMES["the-game"].rules.format_position(position).count("\n")
    assert text.count('<li class="keeps">') == len(analysis.moves) == 7  # 3, 5 and 14, each on every pile that takes it
    assert "14 on up2" in text and "cards left: 0 (optimal)" in text


def test_analyse_page_of_a_game_record_steps_along_the_record(tmp_path):
    page, analysis, end = analyse_page("etalage", Path(__file__).parent / "golden" / "etalage-record.txt", tmp_path)
    start, moves = end.record
    rules = GAMES["etalage"].rules
    along = [start]
    for move in moves:
        along.append(along[-1].apply(move))
    assert page_steps(page.read_text()) == [rules.format_position(at) for at in along]
    assert along[-1] == end and len(analysis.moves) == len(moves) == 19


def explain_page(tmp_path) -> tuple:
    """(page path, the explanation, the deal) of `explain --html` on Black Hole's seed 17, lost
    with a proof tree three moves deep."""
    entry = GAMES["black-hole"]
    deal = entry.rules.deal(17)
    explanation = entry.engine.explain(deal, Budget(time_limit=30))
    page = tmp_path / "why.html"
    write_reasons_page(str(page), entry, deal, explanation, explanation.to_json())
    return page, explanation, deal


def test_explain_page_draws_the_proof_tree_a_step_per_position(tmp_path):
    page, explanation, deal = explain_page(tmp_path)
    text = page.read_text()
    [(start, tree)] = explanation.proofs
    nodes = list(tree.walk())
    assert start is deal and len(nodes) == 13 and max(depth for depth, _ in nodes) == 3
    rules, along = GAMES["black-hole"].rules, {0: deal}
    expected = [rules.format_position(deal)]
    for depth, node in nodes:
        along[depth] = along[depth - 1].apply(node.move)
        expected.append(rules.format_position(along[depth]))
        assert (node.reason is None) == bool(node.replies)
    assert page_steps(text) == expected
    assert text.count('class="node"') == len(nodes) + 1
    assert explanation.spelled == list(range(len(explanation.reasons))) and 'class="reasons"' not in text
    assert [html.unescape(item) for item in re.findall(r"<li[^>]*>(.*?)</li>", text)] == [n.line() for _, n in nodes]
    assert explanation.to_json()["proofs"][0]["replies"][1]["notation"] == "2D (col 6)"


def test_explain_page_frames_the_cards_its_reasons_name(tmp_path):
    page = tmp_path / "why.html"
    result = run("explain", "twaalven", "--seed", "3087", "--html", str(page), "--time-limit", "30")
    assert result.exit_code == 0, result.output
    text = page.read_text()
    assert "mark-named" in text and "F's pair 7-7 can never be taken" in html.unescape(text) and 'id="tree"' not in text


def test_proof_tree_and_analysis_pages_step_in_a_browser(tmp_path, browser):
    page_path, explanation, deal = explain_page(tmp_path)
    page = browser.new_page()
    page.goto(page_path.as_uri())
    page.click('#tree [data-step="5"]')
    lines = [node.line() for _, node in explanation.proofs[0][1].walk()]
    assert page.inner_text("#counter") == "step 5 / 13" and page.url.endswith("#5")
    assert page.inner_text("#moves li.current") == lines[4] and page.get_attribute("#tree .current", "data-step") == "5"
    assert page.text_content("#board svg desc") == page_steps(page_path.read_text())[5]
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#tree .current", "data-step") == "4"
    moves_path, analysis, _ = analyse_page("twaalven", 998, tmp_path)
    page.goto(moves_path.as_uri())
    page.keyboard.press("End")
    assert page.inner_text("#moves li.current") == " ".join(analysis.moves[-1].line().split()) and "keeps" in page.get_attribute(
        "#moves li.current", "class")
    page.close()


def test_explain_page_gives_each_refuted_start_a_step_of_its_own(tmp_path):
    entry = GAMES["twaalven"]
    deal = entry.rules.deal(998)
    starts = entry.engine.starts(deal)
    move = starts[0].legal_moves()[0]
    tree = Refutation(replies=(Refutation(move, "a reason naming 9H"),))
    page = tmp_path / "why.html"
    write_reasons_page(str(page), entry, deal, Explanation(UNWINNABLE, tree.lines(), "rules", [(starts[0], tree)], [0]), {})
    text = page.read_text()
    rules = entry.rules
    assert len(starts) == 2 and page_steps(text) == [rules.format_position(at)
                                                   for at in (deal, starts[0], starts[0].apply(move))]
    assert [html.unescape(item) for item in re.findall(r"<li[^>]*>(.*?)</li>", text)] == [
        f"{starts[0].to_move} starts", f"After {move}: a reason naming 9H"]
    assert text.count('class="node"') == 2 and 'class="reasons"' not in text


def test_a_pile_of_one_card_is_captioned_in_the_singular():
    svg = GAMES["black-hole"].picture(GAMES["black-hole"].rules.deal(1)).svg()
    assert ">1 card</text>" in svg and ">1 cards<" not in svg
    for name in ("the-game", "quick-and-easy"):
        deal = GAMES[name].rules.deal(1)
        svg = GAMES[name].picture(replace(deal, draw=deal.draw[:1])).svg()
        assert "draw pile: 1 card" in svg and "1 cards" not in svg
    deal = GAMES["the-game"].rules.deal(1, players=2)
    svg = GAMES["the-game"].picture(replace(deal, hands=(deal.hands[0][:1], ()), draw=())).svg()
    assert "The Game: 1 card left" in svg and ">-</tspan>" in svg  # and hand 2, empty, drawn as a place


def test_a_stapelen_deal_says_either_player_may_start():
    entry = GAMES["stapelen"]
    deal = entry.rules.deal(1)
    assert "Stapelen: A or B may start" in entry.picture(deal).svg()
    assert "Stapelen: B to move" in entry.picture(deal.apply(deal.legal_moves()[0])).svg()


@pytest.mark.parametrize("name", ["the-game", "quick-and-easy"])
def test_a_deal_says_who_moves_first_only_when_players_choose(name):
    entry = GAMES[name]
    alone, three = (entry.picture(entry.rules.deal(1, players=n)).svg() for n in (1, 3))
    assert "player 1 to move" in alone and "choose who starts" not in alone
    assert "the players choose who starts" in three


def test_a_mid_turn_picture_says_what_the_turn_has_played():
    for name in ("the-game", "quick-and-easy"):
        entry = GAMES[name]
        start = entry.engine.starts(entry.rules.deal(1, players=2))[0]
        assert "played this turn" not in entry.picture(start).svg()
        mid_turn = start.apply(start.legal_moves()[0])
        assert "player 1 to move (1 card played this turn)" in entry.picture(mid_turn).svg()
    entry = GAMES["the-game-extreme"]
    deal = entry.rules.parse((Path(__file__).parent / "golden" / "the-game-extreme-small.txt").read_text())
    start = entry.engine.starts(deal)[0]

    def play(position, card: int, pile: int):
        return position.apply(next(m for m in position.legal_moves() if (m.card, m.pile) == (card, pile)))

    one_pile, two_piles = play(start, 14, 0), play(play(start, 6, 0), 4, 1)  # 14!skull; 6!no-talk, then 4!stop
    assert "this turn" not in entry.picture(start).svg()
    assert "this turn: on up1<" in entry.picture(one_pile).svg()
    svg = entry.picture(play(one_pile, 4, 0)).svg()
    assert "(2 cards played this turn)" in svg and "this turn: on up1, ended by a stop" in svg
    assert "this turn: on two piles or more, ended by a stop" in entry.picture(two_piles).svg()


#: Every text drawn outside the card faces, measured: (text, [x0, y0, x1, y1]), and the empty places.
MEASURE = """() => {
  const svg = document.querySelector('svg');
  const box = el => { const b = el.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  return {size: [svg.width.baseVal.value, svg.height.baseVal.value],
          texts: [...svg.querySelectorAll(':scope > text')].map(t => [t.textContent, box(t)]),
          places: [...svg.querySelectorAll(':scope > rect[stroke-dasharray]')].map(box),
          faces: [...svg.querySelectorAll('defs text')].map(t => [t.textContent, box(t)])};
}"""


def test_pictures_keep_their_texts_apart_and_inside_in_a_browser(browser):
    """The Game's empty piles once read `down1 ↓down2 ↓`, each caption wider than its place, and
    an Extreme card's `58+1` ran off its card: measured where a browser lays the text out."""
    from solver.games.the_game_extreme.picture import SIGNS
    page = browser.new_page()
    pictures = []
    for name, entry in GAMES.items():
        deal = entry.rules.deal(3, **entry.test_variants[-1])
        at = entry.engine.starts(deal)[0] if hasattr(entry.engine, "starts") else deal
        pictures += [(name, entry.picture(deal)), (name, entry.picture(at.apply(at.legal_moves()[0])))]
    faces = [GAMES["the-game"].picture(GAMES["the-game"].rules.deal(3)).row(sign, [place(Face(sign, "98", sign))])
             for sign in SIGNS.values()]
    pictures += [("faces", picture) for picture in faces]
    overlapping = lambda a, b: a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    for name, picture in pictures:
        page.set_content(picture.svg())
        drawn = page.evaluate(MEASURE)
        width, height = drawn["size"]
        for i, (text, box) in enumerate(drawn["texts"]):
            assert 0 <= box[0] and box[2] <= width and 0 <= box[1] and box[3] <= height, (name, text)
            assert not any(overlapping(box, other) for _, other in drawn["texts"][i + 1:]), (name, text)
            for rect in filter(lambda rect: overlapping(box, rect), drawn["places"]):
                assert rect[0] <= box[0] and box[2] <= rect[2] and rect[1] <= box[1] and box[3] <= rect[3], (name, text)
        assert all(0 <= box[0] and box[2] <= CARD_W for _, box in drawn["faces"]), name
    page.close()


def test_a_page_of_one_position_shows_no_empty_steps_in_a_browser(tmp_path, browser):
    """An explanation with no proof tree, or a position already won, is one position: the page
    once showed an empty move pane and "step 0 / 0"."""
    entry = GAMES["twaalven"]
    solved = entry.engine.solve(entry.rules.deal(7), Budget(time_limit=30))
    won = replay(solved.start, solved.solution)
    pages = {"why.html": ("explain", "twaalven", "--seed", "3087"), "won.html": ("solve", "twaalven", "-")}
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    for path, args in pages.items():
        result = CliRunner().invoke(main, [*args, "--html", str(tmp_path / path)],
                                    input=entry.rules.format_position(won))
        assert result.exit_code == 0, result.output
        page.goto((tmp_path / path).as_uri())
        assert page.is_visible("#board svg") and not page.is_visible("#controls") and not page.is_visible("#moves")
    page_path, _, _ = line_page("twaalven", tmp_path)
    page.goto(page_path.as_uri())
    assert page.is_visible("#controls") and page.is_visible("#moves")
    assert errors == []
    page.close()
