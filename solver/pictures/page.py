"""A replay page: one self-contained HTML file (no network, script and style inline) that steps
through a line of play. Python draws every position along the line with the reference rules and
the game's renderer; the page only shows them. Its data is the `--json` output of the command
(one source of truth), shown below the board and kept in a `<script type="application/json">`.

Steps: 0 is the start, step i the position after the line's i-th move (an analysis: the
position with its i-th legal move framed, or after a game record's i-th move; an explanation:
the i-th position of its proof tree). Buttons and the arrow
keys move one step (Home and End to the ends), the slider, the move list and the boxes of a
drawn proof tree jump, and the URL fragment keeps the step (`line.html#12`).
"""

from __future__ import annotations

import html
import json

from . import Picture, defs, names_in, svg_document

STYLE = """
body{font-family:DejaVu Sans,Arial,sans-serif;margin:16px;background:#fafafa;color:#222}
h1{font-size:20px;margin:0 0 6px} .facts{margin:4px 0 12px;color:#333}
#main{display:flex;gap:18px;align-items:flex-start}
#board svg{max-width:100%;height:auto;border:1px solid #ccc}
#board{flex:0 1 auto} #moves{flex:0 1 440px;max-height:70vh;overflow:auto;min-width:220px;margin:0;padding-left:34px;border:1px solid #ccc;background:#fff}
#moves li{cursor:pointer;padding:2px 6px} #moves li.current{background:#ffe082;font-weight:bold}
#controls{margin:10px 0;display:flex;gap:8px;align-items:center} #slider{flex:1;max-width:420px}
button{font-size:15px;padding:3px 10px} .reasons li{margin:3px 0} pre{background:#fff;border:1px solid #ddd;padding:8px;overflow:auto;max-height:240px}
#moves li.keeps{color:#1b6e1b} #moves li.loses{color:#b71c1c} #moves li.unknown{color:#666}
#tree{max-height:60vh;overflow:auto;border:1px solid #ccc;background:#fff;margin-top:12px}
#tree .node{cursor:pointer} #tree .node.current rect{stroke:#000;stroke-width:2.5}
[hidden]{display:none!important}
"""

SCRIPT = """
const steps = JSON.parse(document.getElementById('steps').textContent);
const board = document.getElementById('board'), slider = document.getElementById('slider');
const counter = document.getElementById('counter'), items = document.querySelectorAll('#moves li');
const jumps = document.querySelectorAll('#tree [data-step]');
let step = 0;
function show(i) {
  step = Math.max(0, Math.min(steps.length - 1, i));
  board.innerHTML = steps[step];
  board.dataset.step = step;
  slider.value = step;
  counter.textContent = 'step ' + step + ' / ' + (steps.length - 1);
  items.forEach((li, k) => li.classList.toggle('current', k === step - 1));
  jumps.forEach(el => el.classList.toggle('current', Number(el.dataset.step) === step));
  if (step > 0 && items[step - 1]) items[step - 1].scrollIntoView({block: 'nearest'});
  if (location.hash !== '#' + step) history.replaceState(null, '', '#' + step);
}
document.getElementById('first').onclick = () => show(0);
document.getElementById('prev').onclick = () => show(step - 1);
document.getElementById('next').onclick = () => show(step + 1);
document.getElementById('last').onclick = () => show(steps.length - 1);
slider.oninput = () => show(Number(slider.value));
items.forEach((li, k) => li.onclick = () => show(k + 1));
jumps.forEach(el => el.onclick = () => show(Number(el.dataset.step)));
document.addEventListener('keydown', e => {
  const to = {ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: steps.length - 1}[e.key];
  if (to !== undefined) { e.preventDefault(); show(to); }
});
window.addEventListener('hashchange', () => show(Number(location.hash.slice(1)) || 0));
show(Number(location.hash.slice(1)) || 0);
"""


def replay_page(title: str, facts: list[str], pictures: list[Picture], texts: list[str], moves: list[str],
                data: dict, reasons: list[str] = (), kinds: list[str] = (), tree: str = "") -> str:
    """The page: `pictures[i]` is step i (one more than `moves`) and `texts[i]` that position in
    the game's text format (each step's `<desc>`), `facts` the lines under the title (verdict,
    stats), `reasons` the explanation's sentences, `data` the command's JSON. `kinds[i]`, where
    given, is a class of the i-th move's list item (`keeps`, `loses`, `unknown`, or `depth-N`
    for a line of a proof tree, indented N steps); `tree` a drawing (`tree_drawing`) below. A
    page of one position (no line, no proof tree) hides the controls and the move list: they
    would only show an empty pane and "step 0 / 0"."""
    steps = []
    for picture, text in zip(pictures, texts):
        body, width, height = picture.body()
        steps.append(svg_document(body, width, height, description=text))
    shared = defs(face for picture in pictures for face in picture.faces())
    moves_html = "".join(_item(move, kind) for move, kind in zip(moves, list(kinds) + [""] * len(moves)))
    reasons_html = "".join(f"<li>{html.escape(reason)}</li>" for reason in reasons)
    single = " hidden" if len(pictures) == 1 else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>{STYLE}</style></head><body>
<h1>{html.escape(title)}</h1>
<div class="facts">{'<br>'.join(html.escape(fact) for fact in facts)}</div>
{f'<ul class="reasons">{reasons_html}</ul>' if reasons else ''}
<svg width="0" height="0" style="position:absolute" xmlns="http://www.w3.org/2000/svg">{shared}</svg>
<div id="controls"{single}><button id="first" title="start (Home)">&#x00AB;</button><button id="prev" title="previous (&#x2190;)">&#x25C0;</button>
<input id="slider" type="range" min="0" max="{len(pictures) - 1}" value="0"><button id="next" title="next (&#x2192;)">&#x25B6;</button>
<button id="last" title="end (End)">&#x00BB;</button><span id="counter"></span></div>
<div id="main"><div id="board"></div><ol id="moves"{single}>{moves_html}</ol></div>
{f'<div id="tree">{tree}</div>' if tree else ''}
<details><summary>JSON</summary><pre id="data">{html.escape(json.dumps(data, indent=1))}</pre></details>
<script type="application/json" id="steps">{_json_in_script(steps)}</script>
<script>{SCRIPT}</script>
</body></html>
"""


def _item(move: str, kind: str) -> str:
    """A move list item; a proof tree's line (`depth-N`) is indented by its depth."""
    if kind.startswith("depth-"):
        return f'<li style="padding-left:{6 + 16 * int(kind[6:])}px">{html.escape(move)}</li>'
    return f'<li class="{kind}">{html.escape(move)}</li>' if kind else f"<li>{html.escape(move)}</li>"


#: A proof tree's boxes: their height, the height of a row, a label character's width.
BOX_H, ROW_H, CHAR_W = 20, 26, 7
#: Box fills: a start, a position whose every next move loses, a position a short reason settles.
TREE_FILLS = {"start": "#e8e8e8", "refuted": "#fde0dc", "reason": "#f4a8a0"}


def tree_drawing(nodes: list[tuple[int, str, str, str, int]]) -> str:
    """A proof tree drawn as an SVG of boxes joined by lines, each root on the left and the
    moves after a position to its right. `nodes` are (depth, label, kind, tooltip, step) in
    preorder (each node's replies right after it), depth 0 for a root; `kind` is a key of
    TREE_FILLS; clicking a box shows its step."""
    depths = sorted({depth for depth, *_ in nodes})
    widths = {d: 16 + CHAR_W * max(len(label) for depth, label, *_ in nodes if depth == d) for d in depths}
    xs, x = {}, 8
    for d in depths:
        xs[d], x = x, x + widths[d] + 28
    parents, last_at = [], {}
    for i, (depth, *_) in enumerate(nodes):
        parents.append(last_at.get(depth - 1))
        last_at[depth] = i
    children = [[] for _ in nodes]
    for i, parent in enumerate(parents):
        if parent is not None:
            children[parent].append(i)
    ys, row = [0.0] * len(nodes), 0
    for i in range(len(nodes)):
        if not children[i]:
            ys[i], row = 8 + row * ROW_H, row + 1
    for i in reversed(range(len(nodes))):
        if children[i]:
            ys[i] = (ys[children[i][0]] + ys[children[i][-1]]) / 2
    parts = []
    for i, parent in enumerate(parents):
        if parent is not None:
            (pd, *_), (d, *_) = nodes[parent], nodes[i]
            start_x, mid_x = xs[pd] + widths[pd], xs[d] - 14
            parts.append(f'<path d="M{start_x} {ys[parent] + BOX_H / 2}H{mid_x}V{ys[i] + BOX_H / 2}H{xs[d]}" '
                         'fill="none" stroke="#999"/>')
    for i, (depth, label, kind, tooltip, step) in enumerate(nodes):
        parts.append(f'<g class="node" data-step="{step}"><title>{html.escape(tooltip)}</title>'
                     f'<rect x="{xs[depth]}" y="{ys[i]}" width="{widths[depth]}" height="{BOX_H}" rx="4" '
                     f'fill="{TREE_FILLS[kind]}" stroke="#888"/><text x="{xs[depth] + 8}" y="{ys[i] + 14}" '
                     f'font-size="12">{html.escape(label)}</text></g>')
    height = 16 + row * ROW_H
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{x}" height="{height}" '
            f'font-family="DejaVu Sans, Arial, sans-serif">{"".join(parts)}</svg>')


def _json_in_script(value) -> str:
    """JSON that cannot end its <script> element early."""
    return json.dumps(value).replace("</", "<\\/")


def marked_by(picture: Picture, reasons: list[str]) -> Picture:
    """The picture with the cards that the reasons name framed."""
    return picture.marked(names_in(" ".join(reasons), picture))
