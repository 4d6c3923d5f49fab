"""Pictures on the command line: `show`, the replay pages of `solve --html` and `explain --html`,
and the pictures `generate --pictures` writes beside its deals."""

from __future__ import annotations

import errno
import os
from dataclasses import replace

import click

from puzzles.lines import replay
from solver.batch.files import new_file_folder, replacing
from solver.contract import GameEntry
from solver.pictures import names_in
from solver.pictures.page import marked_by, replay_page, tree_drawing
from solver.result import KEEPS, LOSES

from .common import InputError, cannot_write, shown

PICTURE_FORMATS = (".svg", ".png")
#: How an analysis page frames a move's cards, and colours its line, by the move's verdict.
MOVE_MARKS = {KEEPS: "keeps", LOSES: "loses"}


def html_option(command):
    return click.option("--html", "html_path", metavar="PATH",
                        help="Also write a replay page: one HTML file with the position and the line, no network.")(command)


def picture_of(entry: GameEntry, position):
    if entry.picture is None:
        raise InputError(f"{entry.name} has no pictures yet")
    return entry.picture(position)


def writable(path: str, source: str | None = None) -> None:
    """InputError unless a file can be written at `path`: it is empty or '-' (a page or picture
    goes to a file, not to standard output), a directory or a device (/dev/null; the new file
    would replace it), read-only, the input file `source` (it would be replaced), or its folder
    does not exist. The commands check their output path with it before they search: found
    only when the page was written, a bad path threw away the search, however long it ran."""
    if not path:
        raise InputError("the output path is empty")
    if path == "-":
        raise InputError("the output path is '-': a page or picture is written to a file; give a file name")
    if os.path.exists(path) and not os.path.isfile(path):
        raise InputError(f"{shown(path)} is {'a directory' if os.path.isdir(path) else 'not a regular file'}; "
                         "give a file name")
    if source not in (None, "-") and os.path.isfile(path) and os.path.isfile(source) and os.path.samefile(path, source):
        raise InputError(f"{shown(path)} is the input file; give the output another name")
    if os.path.isfile(path) and not os.access(path, os.W_OK):
        raise InputError(f"cannot write {shown(path)}: it is read-only")
    folder = new_file_folder(path)
    if not os.path.isdir(folder):
        reason = os.strerror(errno.ENOTDIR if os.path.exists(folder) else errno.ENOENT)
        raise InputError(f"cannot write {shown(path)}: cannot make a new file in {shown(folder)} ({reason})")


def write_file(path: str, data: str | bytes, source: str | None = None) -> None:
    """Writes `data` whole to `path` (a reader never sees half a file); one Error line if it cannot
    (`writable`, with the input file `source`)."""
    writable(path, source)
    try:
        with replacing(path, "wb" if isinstance(data, bytes) else "w") as handle:
            handle.write(data)
    except OSError as error:
        raise cannot_write(path, error) from None


def write_picture(path: str, svg: str, source: str | None = None) -> None:
    """An SVG picture, or a PNG of it (which needs the cairosvg package), drawn from the input
    file `source` (not to be replaced by it)."""
    extension = os.path.splitext(path)[1].lower()
    if not path:
        raise InputError("--out is empty: give a file name ending in .svg or .png")
    if os.path.isdir(path):
        raise InputError(f"{shown(path)} is a directory; give a file name")
    if extension not in PICTURE_FORMATS:
        raise InputError(f"--out {shown(path)}: a picture is .svg or .png")
    if extension == ".png":
        try:
            import cairosvg
        except (ImportError, OSError):
            raise InputError("a .png picture needs the cairosvg package (pip install cairosvg) and the cairo "
                             "library; .svg needs nothing") from None
        write_file(path, cairosvg.svg2png(bytestring=svg.encode("utf-8")), source)
    else:
        write_file(path, svg, source)


def steps_of(entry: GameEntry, result) -> tuple[list, list[str]]:
    """The positions a replay page steps through and the step names between them: turn by turn
    where the game plays in turns (its rules have an EndTurn move, and the result groups the
    line into `turns`), else move by move. A long The Game line is 40 turns, not 140 moves."""
    end_turn = getattr(entry.rules, "EndTurn", None)
    positions, groups, group = [result.start], [], []
    for move in result.solution:
        group.append(move)
        if end_turn is None or isinstance(move, end_turn):
            groups.append(group)
            group = []
    groups += [group] if group else []
    if len(groups) == len(result.turns):
        names = [str(turn) for turn in result.turns]
    else:
        groups = [[move] for move in result.solution]
        names = [str(move) for move in result.solution]
    for group in groups:
        positions.append(replay(positions[-1], group))
    return positions, names


def page_title(entry: GameEntry, variant: str, verdict: str) -> str:
    """A page's title: the game, the variant (rules and solve options, which the positions drawn
    may not show: The Game's --expert), and the verdict."""
    return f"{entry.title}{f' ({variant})' if variant else ''}: {verdict}"


def write_line_page(path: str, entry: GameEntry, result, data: dict, variant: str = "") -> None:
    """The replay page of a solve: the positions along its line, its moves or turns, verdict and stats."""
    positions, names = steps_of(entry, result)
    pictures = [picture_of(entry, position) for position in positions]
    texts = [entry.rules.format_position(position) for position in positions]
    facts = result.head_lines() + [result.stats.line()]
    reasons = [result.explanation] if result.explanation else []
    title = page_title(entry, variant, result.verdict)
    write_file(path, replay_page(title, facts, pictures, texts, names, data, reasons))


def write_reasons_page(path: str, entry: GameEntry, position, explanation, data: dict, variant: str = "") -> None:
    """The page of an explain: the position with the cards its reasons name framed, the reasons,
    and each proof tree they spell out, drawn: every position of a tree is a step of the page,
    with the cards its reason names framed (or, where every next move loses, the move's cards)."""
    pictures = [marked_by(picture_of(entry, position), explanation.reasons)]
    texts = [entry.rules.format_position(position)]
    names, kinds, nodes = [], [], []

    def add_step(at, marked_text: str, name: str, kind: str) -> int:
        pictures.append(marked_by(picture_of(entry, at), [marked_text]))
        texts.append(entry.rules.format_position(at))
        names.append(name)
        kinds.append(kind)
        return len(pictures) - 1

    for start, tree in explanation.proofs:
        label = "start" if start is position else f"{start.to_move} starts"
        step = 0 if start is position else add_step(start, "", label, "depth-0")
        nodes.append((0, label, "start", "every move loses", step))
        indent = 0 if start is position else 1
        along = {0: start}
        for depth, node in tree.walk():
            along[depth] = along[depth - 1].apply(node.move)
            step = add_step(along[depth], node.reason or str(node.move), node.line(), f"depth-{depth - 1 + indent}")
            nodes.append((depth, str(node.move), "refuted" if node.reason is None else "reason",
                          node.reason or "every next move loses", step))
    reasons = explanation.unspelled_reasons()
    facts = [f"method: {explanation.method}"]
    if nodes:
        facts.append(f"proof tree: {len(nodes)} positions, every move refuted; click a box or a line to see it")
    write_file(path, replay_page(page_title(entry, variant, explanation.verdict), facts, pictures, texts, names, data,
                                 reasons, kinds, tree_drawing(nodes) if nodes else ""))


def write_moves_page(path: str, entry: GameEntry, position, analysis, data: dict, variant: str = "") -> None:
    """The page of an analyse. Step 0 is the position with the cards each move names framed,
    green where a move keeps the game winnable and red where every move naming them loses;
    step i shows the i-th move alone, its cards framed by its verdict and the move in words
    under the picture. Along a game record, step i is the position after the i-th move played.
    The moves are listed in their verdict's colour."""
    record = getattr(position, "record", ())
    first = record[0] if record else position
    picture = picture_of(entry, first)
    losing = set().union(*(names_in(str(v.move), picture) for v in analysis.moves if v.verdict == LOSES))
    keeping = set().union(*(names_in(str(v.move), picture) for v in analysis.moves if v.verdict == KEEPS))
    pictures, shown_at = [picture.marked(losing - keeping, "loses").marked(keeping, "keeps")], [first]
    lines = [move.line(analysis.objective) for move in analysis.moves]
    for i, verdict in enumerate(analysis.moves):
        at = shown_at[-1].apply(record[1][i]) if record else position
        drawn = picture_of(entry, at) if record else picture
        words = " ".join(replace(verdict, reason=None).line(analysis.objective).split())
        pictures.append(drawn.marked(names_in(str(verdict.move), drawn), MOVE_MARKS.get(verdict.verdict, "named"))
                        .note(f"after {words}" if record else words))
        shown_at.append(at)
    kinds = [MOVE_MARKS.get(move.verdict, "unknown") for move in analysis.moves]
    write_file(path, replay_page(page_title(entry, variant, analysis.verdict), [analysis.stats.line()], pictures,
                                 [entry.rules.format_position(at) for at in shown_at], lines, data, [], kinds))
