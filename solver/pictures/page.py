"""A replay page: one self-contained HTML file (no network, script and style inline) that steps
through a line of play. Python draws every position along the line with the reference rules and
the game's renderer; the page only shows them. Its data is the `--json` output of the command
(one source of truth), shown below the board and kept in a `<script type="application/json">`.

Steps: 0 is the start, step i the position after the line's i-th move. Buttons and the arrow
keys move one step (Home and End to the ends), the slider and the move list jump, and the URL
fragment keeps the step (`line.html#12`).
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
#moves{max-height:70vh;overflow:auto;min-width:220px;margin:0;padding-left:34px;border:1px solid #ccc;background:#fff}
#moves li{cursor:pointer;padding:2px 6px} #moves li.current{background:#ffe082;font-weight:bold}
#controls{margin:10px 0;display:flex;gap:8px;align-items:center} #slider{flex:1;max-width:420px}
button{font-size:15px;padding:3px 10px} .reasons li{margin:3px 0} pre{background:#fff;border:1px solid #ddd;padding:8px;overflow:auto;max-height:240px}
"""

SCRIPT = """
const steps = JSON.parse(document.getElementById('steps').textContent);
const board = document.getElementById('board'), slider = document.getElementById('slider');
const counter = document.getElementById('counter'), items = document.querySelectorAll('#moves li');
let step = 0;
function show(i) {
  step = Math.max(0, Math.min(steps.length - 1, i));
  board.innerHTML = steps[step];
  board.dataset.step = step;
  slider.value = step;
  counter.textContent = 'step ' + step + ' / ' + (steps.length - 1);
  items.forEach((li, k) => li.classList.toggle('current', k === step - 1));
  if (step > 0 && items[step - 1]) items[step - 1].scrollIntoView({block: 'nearest'});
  if (location.hash !== '#' + step) history.replaceState(null, '', '#' + step);
}
document.getElementById('first').onclick = () => show(0);
document.getElementById('prev').onclick = () => show(step - 1);
document.getElementById('next').onclick = () => show(step + 1);
document.getElementById('last').onclick = () => show(steps.length - 1);
slider.oninput = () => show(Number(slider.value));
items.forEach((li, k) => li.onclick = () => show(k + 1));
document.addEventListener('keydown', e => {
  const to = {ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: steps.length - 1}[e.key];
  if (to !== undefined) { e.preventDefault(); show(to); }
});
window.addEventListener('hashchange', () => show(Number(location.hash.slice(1)) || 0));
show(Number(location.hash.slice(1)) || 0);
"""


def replay_page(title: str, facts: list[str], pictures: list[Picture], texts: list[str], moves: list[str],
                data: dict, reasons: list[str] = ()) -> str:
    """The page: `pictures[i]` is step i (one more than `moves`) and `texts[i]` that position in
    the game's text format (each step's `<desc>`), `facts` the lines under the title (verdict,
    stats), `reasons` the explanation's sentences, `data` the command's JSON."""
    steps = []
    for picture, text in zip(pictures, texts):
        body, width, height = picture.body()
        steps.append(svg_document(body, width, height, description=text))
    shared = defs(face for picture in pictures for face in picture.faces())
    moves_html = "".join(f"<li>{html.escape(move)}</li>" for move in moves)
    reasons_html = "".join(f"<li>{html.escape(reason)}</li>" for reason in reasons)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>{STYLE}</style></head><body>
<h1>{html.escape(title)}</h1>
<div class="facts">{'<br>'.join(html.escape(fact) for fact in facts)}</div>
{f'<ul class="reasons">{reasons_html}</ul>' if reasons else ''}
<svg width="0" height="0" style="position:absolute" xmlns="http://www.w3.org/2000/svg">{shared}</svg>
<div id="controls"><button id="first" title="start (Home)">&#x00AB;</button><button id="prev" title="previous (&#x2190;)">&#x25C0;</button>
<input id="slider" type="range" min="0" max="{len(pictures) - 1}" value="0"><button id="next" title="next (&#x2192;)">&#x25B6;</button>
<button id="last" title="end (End)">&#x00BB;</button><span id="counter"></span></div>
<div id="main"><div id="board"></div><ol id="moves">{moves_html}</ol></div>
<details><summary>JSON</summary><pre id="data">{html.escape(json.dumps(data, indent=1))}</pre></details>
<script type="application/json" id="steps">{_json_in_script(steps)}</script>
<script>{SCRIPT}</script>
</body></html>
"""


def _json_in_script(value) -> str:
    """JSON that cannot end its <script> element early."""
    return json.dumps(value).replace("</", "<\\/")


def marked_by(picture: Picture, reasons: list[str]) -> Picture:
    """The picture with the cards that the reasons name framed."""
    return picture.marked(names_in(" ".join(reasons), picture))
