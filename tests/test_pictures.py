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
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from cli.pictures import write_line_page
from puzzles.lines import replay
from solver.registry import GAMES
from solver.result import Budget

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


def test_analyse_page_frames_the_cards_of_keeping_and_losing_moves(tmp_path):
    page = tmp_path / "moves.html"
    small = str(Path(__file__).parent / "golden" / "the-game-small.txt")
    result = run("analyse", "the-game", small, "--html", str(page), "--time-limit", "30")
    assert result.exit_code == 0, result.output
    text = page.read_text()
    assert text.count("mark-keeps") == 3  # the hand's 3, 5 and 14 each keep the game winnable
    assert "14 on up2: keeps winnable" in text
