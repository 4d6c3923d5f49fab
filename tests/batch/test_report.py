"""Reports from a survey database: the table, the JSON numbers and the plot."""

import json
import math
import os
import re
import shutil
import sqlite3
import statistics
import warnings
from contextlib import closing

import pytest
from click.testing import CliRunner

from cli.batch import report, survey
from solver.batch import report as reporting
from solver.batch.report import percentile, plot, style
from puzzles import etalage
from solver.batch.survey import SCHEMA, Row, Store, wilson
from tests.conftest import read_only


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """Twaalven seeds 1-150 surveyed, plus a made-up game with unknown verdicts."""
    path = tmp_path_factory.mktemp("report") / "results.sqlite"
    assert CliRunner().invoke(survey, ["twaalven", "--seeds", "1-150", "--db", str(path), "--jobs", "2"]).exit_code == 0
    verdicts = ["winnable"] * 30 + ["unwinnable"] * 5 + ["unknown"] * 5
    with Store(str(path)) as store:
        store.add([Row("other", "players=2", seed, v, "", None, 10, 0.001 * (seed + 1), "dfs", "")
                   for seed, v in enumerate(verdicts)])
    return path


def test_json_has_each_game_and_variant_with_its_interval(db):
    result = CliRunner().invoke(report, [str(db), "--json"])
    assert result.exit_code == 0, result.output
    other, twaalven = json.loads(result.stdout)["groups"]
    assert (other["game"], other["variant"], other["deals"]) == ("other", "players=2", 40)
    assert other["verdicts"] == {"winnable": 30, "unwinnable": 5, "unknown": 5}
    assert other["winnable_share"] == 0.75
    assert (other["wilson_low"], other["wilson_high"]) == (wilson(30, 40)[0], wilson(35, 40)[1])
    assert other["seconds"]["max"] == pytest.approx(0.040) and other["seconds"]["median"] == pytest.approx(0.021)
    assert (twaalven["game"], twaalven["variant"], twaalven["deals"]) == ("twaalven", "", 150)
    assert twaalven["verdicts"]["winnable"] == 150 and twaalven["wilson_high"] == 1.0
    with Store(str(db)) as store:
        assert twaalven["seconds"]["total"] == pytest.approx(sum(r.seconds for r in store.rows("twaalven")))


def test_help_names_every_game_whose_groups_have_scores(tmp_path):
    """report --help says which games' groups have "scores" (not null): Quick & Easy's too."""
    path = str(tmp_path / "r.sqlite")
    names = {"the-game": "The Game's", "quick-and-easy": "Quick & Easy's", "sir-tommy": "Sir Tommy's"}
    for name in names:
        options = ["--maximise", "U"] if name == "sir-tommy" else []
        given = [name, "--seeds", "1", "--db", path, "--jobs", "1", "--time-limit", "1", *options]
        assert CliRunner().invoke(survey, given).exit_code == 0
    result = CliRunner().invoke(report, [path, "--json"])
    assert all(group["scores"]["deals"] == 1 for group in json.loads(result.stdout)["groups"])
    listed = " ".join(CliRunner().invoke(report, ["--help"]).output.split('"scores" is null', 1)[1].split())
    assert all(title in listed.split("):", 1)[0] for title in names.values()), listed


def test_table_has_a_line_per_game_and_variant(db):
    lines = CliRunner().invoke(report, [str(db)]).stdout.splitlines()
    assert lines[0].split()[:5] == ["game", "deals", "winnable", "unwinnable", "unknown"]
    assert lines[1].split()[:8] == ["other", "(players=2)", "40", "30", "5", "5", "75.00%",
                                    f"{100 * wilson(30, 40)[0]:.2f}-{100 * wilson(35, 40)[1]:.2f}%"]
    assert lines[2].split()[:6] == ["twaalven", "150", "150", "0", "0", "100.00%"]


def test_plot_is_a_png_with_content(db, tmp_path):
    png = tmp_path / "winnability.png"
    result = CliRunner().invoke(report, [str(db), "--plot", str(png)])
    assert result.exit_code == 0 and f"plot: {png}" in result.stdout
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 30_000  # two panels of axes, bars, text and histograms, not a blank canvas
    assert [p.name for p in tmp_path.iterdir()] == ["winnability.png"]  # no temporary left over


def test_a_plot_of_deals_timed_at_0_seconds_draws_them_without_a_warning(db, tmp_path):
    """Times edited to 0 by hand fell below the histogram's first bin: an empty histogram and
    matplotlib's "Data has no positive values" warning on standard error."""
    edited = tmp_path / "zero.sqlite"
    shutil.copy(db, edited)
    with closing(sqlite3.connect(edited)) as connection:
        connection.execute("UPDATE deals SET seconds = 0")
        connection.commit()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = CliRunner().invoke(report, [str(edited), "--plot", str(tmp_path / "zero.png")])
    assert result.exit_code == 0, result.output


def test_every_group_of_a_plot_has_a_style_of_its_own():
    """matplotlib's colours repeat after ten, and a report of more groups drew the 11th in the
    1st's colour and style, the two alike in the figure and its legend."""
    styles = [style(index) for index in range(40)]
    assert len(set(map(repr, styles))) == 40
    assert styles[0] == ("C0", "o", "-") and styles[10][0] == "C0"


def test_a_plot_of_many_groups_gives_each_a_row_of_its_own(tmp_path):
    """With 22 groups the figure kept its height of 4.5 inches, and each group's label, drawn
    above its bar, sat on the row of the group above it."""
    db = str(tmp_path / "many.sqlite")
    with Store(db) as store:
        store.add([Row("twaalven", f"v={group}", seed, "winnable", "T", None, 10, 0.01 * (seed + 1), "dfs", "", None,
                       None) for group in range(22) for seed in range(3)])
    heights = []
    for groups in (2, 22):
        with Store(db, True) as store:
            drawn = plot(reporting.groups(store)[:groups], "svg").decode()
        heights.append(float(re.search(r'<svg[^>]* height="([0-9.]+)pt"', drawn).group(1)))
    assert heights[0] == 4.5 * 72 and heights[1] >= 22 * 0.4 * 72  # points: a row of 0.4 inches a group


@pytest.mark.parametrize("name, start", [("plot.svg", b"<?xml"), ("plot.pdf", b"%PDF"), ("plot.PNG", b"\x89PNG")])
def test_the_plot_s_suffix_chooses_its_format(db, tmp_path, name, start):
    result = CliRunner().invoke(report, [str(db), "--plot", str(tmp_path / name)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / name).read_bytes().startswith(start)


@pytest.mark.parametrize("name", ["", "plot.jpg", "plot"])
def test_a_plot_without_a_known_suffix_is_refused_in_one_line(db, tmp_path, name):
    result = CliRunner().invoke(report, [str(db), "--plot", name])
    assert (result.exit_code, result.output) == (
        2, f"Error: --plot '{name}': give a file name ending in .png, .svg or .pdf\n")
    assert not os.path.exists(name)


@pytest.mark.parametrize("make, message", [
    (lambda tmp_path: str(tmp_path), "a directory, not a results database"),
    (lambda tmp_path: os.devnull, "not a regular file, so not a results database"),
    (lambda tmp_path: (tmp_path / "empty.sqlite").write_bytes(b"") or str(tmp_path / "empty.sqlite"),
     "an empty database: no survey has stored results in it"),
])
def test_what_is_not_a_database_to_report_on_is_named(tmp_path, make, message):
    path = make(tmp_path)
    result = CliRunner().invoke(report, [path])
    assert (result.exit_code, result.output) == (2, f"Error: {path}: {message}\n")


def test_a_plot_onto_a_device_or_pipe_is_refused(db, tmp_path):
    pipe = tmp_path / "pipe.png"
    os.mkfifo(pipe)
    result = CliRunner().invoke(report, [str(db), "--plot", str(pipe)])
    assert (result.exit_code, result.output) == (2, f"Error: {pipe} is not a regular file; give a file name\n")


def test_a_missing_database_is_bad_input_and_is_not_created(tmp_path):
    result = CliRunner().invoke(report, [str(tmp_path / "none.sqlite")])
    assert result.exit_code == 2 and "no such results database" in result.output
    assert not (tmp_path / "none.sqlite").exists()


@pytest.mark.parametrize("name", ["a#b.sqlite", "a?b.sqlite", "a%41b.sqlite", ":memory:"])
def test_a_database_is_the_file_its_name_names(tmp_path, monkeypatch, name):
    """Not a URI's fragment, query or escape, nor SQLite's database in memory."""
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(survey, ["twaalven", "--seeds", "1-3", "--db", name, "--jobs", "1"]).exit_code == 0
    result = CliRunner().invoke(report, [name, "--json"])
    assert result.exit_code == 0, result.output
    assert [group["deals"] for group in json.loads(result.stdout)["groups"]] == [3]
    assert os.listdir(tmp_path) == [name]


#: One player's values as a survey stores them (a row's players holds one for each player).
PLAYER = '{"player": 1, "guaranteed": 2, "guaranteed_bound": 2, "cooperative_best": null, "cooperative_bound": null}'


@pytest.mark.parametrize("edit, message", [
    ("UPDATE deals SET seconds = 'abc' WHERE game = 'twaalven' AND seed = 7", "twaalven seed 7 has seconds 'abc'"),
    ("UPDATE deals SET seconds = x'00' WHERE game = 'other' AND seed = 3",
     "other (players=2) seed 3 has seconds b'\\x00'"),
    ("UPDATE deals SET verdict = 'won' WHERE game = 'twaalven' AND seed = 7", "twaalven seed 7 has verdict 'won', not "
     "winnable, unwinnable or unknown"),
    ("UPDATE deals SET verdict = x'00' WHERE game = 'other' AND seed = 3",
     "other (players=2) seed 3 has verdict b'\\x00'"),
    ("DROP TABLE deals", "not a results database (no table deals with the columns game, variant, seed, "),
    ("UPDATE deals SET players = '[{' WHERE game = 'twaalven' AND seed = 5", "twaalven seed 5 has players '[{', not a list"),
    ("""UPDATE deals SET players = '[{"player": 1}]' WHERE game = 'twaalven' AND seed = 5""",
     """twaalven seed 5 has players '[{"player": 1}]', not a list of each player's player, guaranteed, """),
    ("UPDATE deals SET players = '5' WHERE game = 'twaalven' AND seed = 5", "twaalven seed 5 has players '5', not a"),
    (f"UPDATE deals SET players = '[{PLAYER}, {PLAYER}]' WHERE game = 'twaalven' AND seed = 5; "
     f"UPDATE deals SET players = '[{PLAYER}]' WHERE game = 'twaalven' AND seed = 6",
     "twaalven seed 6 has the values of 1 player, seed 5 of 2"),
    # a deal of a variant is named with it: each variant has a seed 4 of its own
    ("UPDATE deals SET score = 'abc' WHERE game = 'other' AND seed = 4", "other (players=2) seed 4 has score 'abc'"),
    ("UPDATE deals SET score = 1, score_bound = 'x' WHERE game = 'other' AND seed = 4",
     "other (players=2) seed 4 has score_bound 'x', not an integer"),
    ("UPDATE deals SET players = '5' WHERE game = 'other' AND seed = 4", "other (players=2) seed 4 has players '5'"),
])
def test_a_database_edited_by_hand_is_refused_in_one_line(db, tmp_path, edit, message):
    edited = tmp_path / "edited.sqlite"
    shutil.copy(db, edited)
    with closing(sqlite3.connect(edited)) as connection:
        connection.executescript(edit)
    result = CliRunner().invoke(report, [str(edited)])
    assert result.exit_code == 2 and result.output.startswith(f"Error: {edited}: {message}"), result.output
    assert len(result.output.strip().splitlines()) == 1


def test_etalage_seats_are_the_reference_search_s_guarantees(tmp_path):
    """Surveyed Etalage deals store every player's values, and the report's mean guarantee by
    seat and cooperative bests are those of the reference rules' exhaustive search."""
    path = str(tmp_path / "etalage.sqlite")
    surveyed = CliRunner().invoke(survey, ["etalage", "--values", "4", "--seeds", "1-6", "--db", path, "--jobs", "1"])
    assert surveyed.exit_code == 0, surveyed.output
    deals = [etalage.deal(seed, players=3, values=4) for seed in range(1, 7)]
    values = [[etalage.values(deal, player) for player in (1, 2, 3)] for deal in deals]
    seats = json.loads(CliRunner().invoke(report, [path, "--json"]).stdout)["groups"][0]["players"]
    by_seat = [[v[s][0] for v in values] for s in range(3)]
    assert seats == {
        "deals": 6, "exact_deals": 6, "mean_guaranteed": [round(sum(g) / 6, 6) for g in by_seat],
        "se_guaranteed": [round(statistics.stdev(g) / math.sqrt(6), 6) for g in by_seat],
        "leader_lowest": sum(v[0][0] < min(v[1][0], v[2][0]) for v in values), "pairs": 18, "cooperative_above": sum(g < b for v in values for g, b in v), "undecided": 0,
        "cooperative_not_above": sum(g == b for v in values for g, b in v), "not_searched": 0,
    }
    means = ", ".join(f"{mean:.2f}" for mean in seats["mean_guaranteed"])
    errors = ", ".join(f"{error:.2f}" for error in seats["se_guaranteed"])
    assert surveyed.output.splitlines()[-1].startswith(
        f"mean guarantee by seat {means} (standard errors {errors}; over 6 of 6 deals")
    assert f"etalage (values=4): mean guarantee by seat {means}" in CliRunner().invoke(report, [path]).stdout

    # A deal left open adds to the deals but to no seat's mean; with no deal exact no seat has one.
    unsure = CliRunner().invoke(survey, ["etalage", "--values", "4", "--players", "4", "--seeds", "1-2", "--jobs", "1",
                                         "--db", str(tmp_path / "unsure.sqlite"), "--node-limit", "1", "--json"])
    assert json.loads(unsure.stdout)["players"] == {
        "deals": 2, "exact_deals": 0, "mean_guaranteed": None, "se_guaranteed": None, "leader_lowest": 0, "pairs": 8,
        "cooperative_above": 0, "cooperative_not_above": 0, "undecided": 8, "not_searched": 0}

    # The guarantees alone: the same seats, stored apart as a variant of their own.
    alone = CliRunner().invoke(survey, ["etalage", "--values", "4", "--seeds", "1-6", "--db", path, "--jobs", "1",
                                        "--guarantees-only"])
    assert alone.exit_code == 0, alone.output
    assert alone.output.startswith("Etalage (values=4 guarantees-only), seeds 1-6: 6 deals (6 solved now")
    assert alone.output.splitlines()[-1] == (
        f"mean guarantee by seat {means} (standard errors {errors}; over 6 of 6 deals, those with every guarantee "
        f"exact; seat 1, who leads first, lowest in {seats['leader_lowest']}); cooperative bests not searched")
    groups = json.loads(CliRunner().invoke(report, [path, "--json"]).stdout)["groups"]
    assert [group["variant"] for group in groups] == ["values=4", "values=4 guarantees-only"]
    assert groups[1]["players"] == {**seats, "cooperative_above": 0, "cooperative_not_above": 0, "not_searched": 18}
    with Store(path) as store:
        stored = store.players("etalage", "values=4 guarantees-only")
    assert [[p["guaranteed"] for p in deal] for deal in stored] == [[g for g, _ in v] for v in values]
    assert {p["cooperative_best"] for deal in stored for p in deal} == {None}


#: The schema of each older version: 1 had no column players, 2 no score_bound.
OLDER_SCHEMAS = {
    1: SCHEMA.replace("players  TEXT,", "").replace("score_bound INTEGER,", ""),
    2: SCHEMA.replace("score_bound INTEGER,", ""),
}


@pytest.mark.parametrize("version", sorted(OLDER_SCHEMAS))
def test_an_older_database_keeps_its_rows(version, tmp_path):
    """A database of an older schema version is read as it is, and a survey that writes to it
    adds the newer columns, keeping every row (their new values unknown)."""
    old = tmp_path / "old.sqlite"
    with closing(sqlite3.connect(old)) as connection:
        connection.executescript(OLDER_SCHEMAS[version].replace("PRAGMA", "") + f"PRAGMA user_version = {version};")
        players = ", NULL" if version == 2 else ""
        connection.execute(f"INSERT INTO deals VALUES ('twaalven', '', 3, 'winnable', 'T', NULL, 5, 0.5, 'dfs', 'x'"
                           f"{players})")
        connection.execute(f"INSERT INTO deals VALUES ('the-game', '', 1, 'unknown', '', 4, 5, 0.5, 'beam+bnb', ''"
                           f"{players})")
        connection.commit()
    before = old.read_bytes()
    result = CliRunner().invoke(report, [str(old), "--json"])
    assert result.exit_code == 0
    assert [(group["deals"], group["scores"]) for group in json.loads(result.stdout)["groups"]] == [
        (1, {"deals": 1, "optimal": 0, "mean_optimal": None, "mean_gap": None, "no_bound": 1}), (1, None)]
    assert old.read_bytes() == before  # read, not changed
    assert CliRunner().invoke(survey, ["twaalven", "--seeds", "1-4", "--db", str(old), "--jobs", "1"]).exit_code == 0
    with Store(str(old), read_only=True) as store:
        rows = store.rows("twaalven")
        assert [row.seed for row in rows] == [1, 2, 3, 4] and rows[2].seconds == 0.5 and rows[2].players is None
    with closing(sqlite3.connect(old)) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 3
    surveyed = CliRunner().invoke(survey, ["etalage", "--values", "4", "--seeds", "1", "--db", str(old), "--jobs", "1"])
    assert "mean guarantee by seat" in surveyed.output  # the store that added the column reads it
    surveyed = CliRunner().invoke(survey, ["the-game", "--seeds", "1-2", "--db", str(old), "--jobs", "1",
                                           "--retry-unknown"])
    assert surveyed.output.splitlines()[-1] == "score proven optimal in 2 of 2 deals (mean 0.00)"


def test_two_surveys_opening_an_older_database_at_once_upgrade_it_once(tmp_path, monkeypatch):
    """A survey reads a database's version and columns and adds the missing ones under the
    write lock: another survey upgrading it between those reads made this one refuse it as
    'not a results database' (or fail adding a column twice)."""
    old = tmp_path / "old.sqlite"
    with closing(sqlite3.connect(old)) as connection:
        connection.executescript(OLDER_SCHEMAS[2].replace("PRAGMA", "") + "PRAGMA user_version = 2;")
    connect = sqlite3.connect

    def upgrade_meanwhile():
        """What a survey opening the database does to it, if it can get the write lock at once."""
        with closing(connect(old, timeout=0.1)) as rival:
            try:
                rival.executescript("BEGIN IMMEDIATE; ALTER TABLE deals ADD COLUMN score_bound INTEGER; "
                                    "PRAGMA user_version = 3; COMMIT;")
            except sqlite3.OperationalError as error:
                assert "locked" in str(error)

    class Raced(sqlite3.Connection):
        def execute(self, sql, *args):
            if sql.startswith("SELECT count(*) FROM sqlite_master"):  # just after the version is read
                upgrade_meanwhile()
            return super().execute(sql, *args)

    monkeypatch.setattr(sqlite3, "connect", lambda *args, **kwargs: connect(*args, **kwargs, factory=Raced))
    with Store(str(old)) as store:
        assert store.has_score_bound and store.rows() == []
    monkeypatch.undo()
    with closing(sqlite3.connect(old)) as connection:
        assert [name for _, name, *_ in connection.execute("PRAGMA table_info(deals)")] == list(Row._fields)
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 3


def test_a_damaged_database_is_one_error_line(db, tmp_path):
    damaged = tmp_path / "damaged.sqlite"
    with closing(sqlite3.connect(db)) as connection:
        size = connection.execute("PRAGMA page_size").fetchone()[0]
        page = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'deals'").fetchone()[0]
    data = bytearray(db.read_bytes())
    data[(page - 1) * size + 8:page * size] = b"\xff" * (size - 8)  # the deals table's first page
    damaged.write_bytes(data)
    for command, args in [(report, [str(damaged)]), (survey, ["twaalven", "--seeds", "1-5", "--db", str(damaged)])]:
        result = CliRunner().invoke(command, args)
        assert (result.exit_code, result.output) == (2, f"Error: {damaged}: database disk image is malformed\n")


def test_reading_leaves_nothing_beside_the_database_and_needs_no_write_access(db, tmp_path):
    folder = tmp_path / "results"
    folder.mkdir()
    path = folder / "r.sqlite"
    shutil.copy(db, path)
    expected = CliRunner().invoke(report, [str(db), "--json"]).stdout
    assert CliRunner().invoke(report, [str(path), "--json"]).stdout == expected
    assert os.listdir(folder) == ["r.sqlite"]
    with read_only(folder):
        result = CliRunner().invoke(report, [str(path), "--json"])
    assert result.exit_code == 0 and result.stdout == expected, result.output
    with Store(str(path)) as writer:  # a survey running: its rows are in its write-ahead log
        writer.add([Row("new", "", 1, "winnable", "", None, 1, 0.5, "dfs", "")])
        result = CliRunner().invoke(report, [str(path), "--json"])
    assert [group["game"] for group in json.loads(result.stdout)["groups"]] == ["new", "other", "twaalven"]


def test_a_log_without_its_index_in_a_read_only_directory_is_one_error_line(db, tmp_path):
    folder = tmp_path / "results"
    folder.mkdir()
    path = folder / "r.sqlite"
    shutil.copy(db, path)
    with Store(str(path)) as writer:  # a survey's rows still in its log, then the log copied alone
        writer.add([Row("new", "", 1, "winnable", "", None, 1, 0.5, "dfs", "")])
        shutil.copy(f"{path}-wal", tmp_path / "log")
    shutil.copy(tmp_path / "log", f"{path}-wal")
    before = sorted(os.listdir(folder))
    with read_only(folder):
        result = CliRunner().invoke(report, [str(path)])
    assert (result.exit_code, result.output) == (
        2, f"Error: {path}: its write-ahead log r.sqlite-wal has no index r.sqlite-shm beside it, and SQLite cannot "
           f"make one in the read-only directory {folder}; copy both files to a writable directory and read the copy\n")
    assert sorted(os.listdir(folder)) == before == ["r.sqlite", "r.sqlite-wal"]
    result = CliRunner().invoke(report, [str(path), "--json"])  # writable again: the log's rows are read
    assert "new" in [group["game"] for group in json.loads(result.stdout)["groups"]]


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert [percentile(values, s) for s in (0, 0.5, 0.9, 0.99, 1)] == [1, 51, 90, 99, 100]
