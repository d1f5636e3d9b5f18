"""The replay page: HTML, CSS and JavaScript in one string, with no external resource (no CDN,
no font, no request). :func:`template` makes it from the game-neutral shell (header, slider,
step buttons and keys, the decision box, the decision log, the view selector) and a game
view's :class:`Fragment` (its panel's style, its extra buttons and boxes, and its ``paint``
script); ``{{TITLE}}`` and ``{{DATA}}`` (the JSON built by experiments.replay) are filled in
per page."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fragment:
    """What a game view adds to the shell. ``script`` defines ``paint(v, s)`` (draw view ``v``
    at step ``s`` into ``#board`` and the view's boxes), ``EXTRA_ACTIONS`` (button id ->
    function) and ``EXTRA_KEYS`` (key -> button id); ``prev`` / ``next``: buttons placed
    before / after the step buttons; ``keys``: their keys' help text; ``boxes``: side boxes
    above the decision log."""

    style: str
    script: str
    prev: str = ""
    next: str = ""
    keys: str = ""
    boxes: str = ""


SHELL = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{TITLE}}</title>
<style>
  body { margin: 0; font: 14px/1.35 "DejaVu Sans", Arial, sans-serif; background: #eef2f5;
         color: #1d2730; }
  header { padding: 6px 12px; background: #2d3e50; color: #fff; display: flex; gap: 12px;
           align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 16px; margin: 0 12px 0 0; }
  header button { font-size: 13px; padding: 3px 7px; cursor: pointer; }
  header select { font-size: 13px; }
  #slider { flex: 1 1 240px; }
  #where { font-variant-numeric: tabular-nums; min-width: 210px; }
  main { display: flex; gap: 10px; padding: 8px; align-items: flex-start; }
@@STYLE@@
  #side { flex: 1 1 300px; min-width: 280px; display: flex; flex-direction: column; gap: 8px; }
  .box { background: #fff; padding: 6px 10px; box-shadow: 0 1px 3px #0002; }
  .box h2 { font-size: 14px; margin: 2px 0 6px; }
  #decision { font-weight: bold; }
  #log { max-height: calc(100vh - 360px); min-height: 160px; overflow-y: auto;
         font: 12px/1.4 "DejaVu Sans Mono", monospace; }
  #log div { white-space: pre-wrap; padding: 0 2px; }
  #log .now { background: #ffe9a8; }
  #log .secret { color: #7a5b9a; }
  .keys { color: #556; font-size: 12px; }
</style>
</head>
<body>
<header>
  <h1 id="title"></h1>
  <label>View <select id="view"></select></label>
  <button id="first" title="first step (Home)">|&#x25C0;</button>
  <button id="prevRound" title="previous round (Page Up)">&laquo; round</button>
  <button id="prevPhase" title="previous phase (Up)">&lsaquo; phase</button>
@@PREV@@
  <button id="prev" title="previous decision (Left)">&#x25C0;</button>
  <input id="slider" type="range" min="0" value="0" aria-label="step">
  <button id="next" title="next decision (Right)">&#x25B6;</button>
@@NEXT@@
  <button id="nextPhase" title="next phase (Down)">phase &rsaquo;</button>
  <button id="nextRound" title="next round (Page Down)">round &raquo;</button>
  <button id="last" title="last step (End)">&#x25B6;|</button>
  <span id="where"></span>
</header>
<main>
  <div id="board"></div>
  <div id="side">
    <div class="box"><h2>Decision</h2><div id="decision"></div>
      <div class="keys">Keys: &larr; &rarr; decision, &uarr; &darr; phase, PgUp PgDn round,
        @@KEYS@@Home End.</div></div>
@@BOXES@@
    <div class="box"><h2>Decision log</h2><div id="log"></div></div>
  </div>
</main>
<script type="application/json" id="data">{{DATA}}</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const N = D.steps.length;
const $ = (id) => document.getElementById(id);
let view = 0, t = 0;

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;",
                                               '"': "&quot;"}[c]));
}

function actionText(v, s) {
  const st = D.steps[s];
  if (st[2] === null) return null;
  if (st[4] !== null) return st[4];
  const secret = D.views[v].secret[String(s)];
  return secret === undefined ? "(secret)" : secret + "  [secret]";
}

function logLine(v, s) {
  const st = D.steps[s];
  if (st[2] === null) return "#" + (s + 1) + " R" + st[0] + "  game over";
  return "#" + (s + 1) + " R" + st[0] + " " + st[1] + "  " + st[2] + "  " + st[3] + ": " +
         actionText(v, s);
}
@@SCRIPT@@
function show() {
  paint(view, t);
  const st = D.steps[t];
  $("slider").value = t;
  $("where").textContent = "step " + (t + 1) + "/" + N + "  round " + st[0] + ", " + st[1];
  const a = actionText(view, t);
  $("decision").textContent = st[2] === null ? "The game is over." :
      st[2] + " decides " + st[3] + ": " + a;
  const lo = Math.max(0, t - 120);
  let lines = "";
  for (let s = lo; s <= t; s++) {
    const secret = D.steps[s][2] !== null && D.steps[s][4] === null;
    lines += '<div class="' + (s === t ? "now" : "") + (secret ? " secret" : "") + '">' +
             esc(logLine(view, s)) + "</div>";
  }
  $("log").innerHTML = lines;
  $("log").scrollTop = $("log").scrollHeight;
}

function go(s) { t = Math.max(0, Math.min(N - 1, s)); show(); }

function jump(keyOf, dir) {
  const k = keyOf(t);
  if (dir > 0) {
    for (let s = t + 1; s < N; s++) if (keyOf(s) !== k) return go(s);
    return go(N - 1);
  }
  let s = t;
  while (s > 0 && keyOf(s - 1) === k) s--;
  if (s < t) return go(s);
  if (s === 0) return go(0);
  const k2 = keyOf(s - 1);
  s = s - 1;
  while (s > 0 && keyOf(s - 1) === k2) s--;
  go(s);
}
const roundOf = (s) => String(D.steps[s][0]);
const phaseOf = (s) => D.steps[s][0] + ":" + D.steps[s][1];

$("title").textContent = D.title;
D.views.forEach((v, i) => {
  const o = document.createElement("option");
  o.value = i; o.textContent = v.label; $("view").appendChild(o);
});
$("view").addEventListener("change", (e) => { view = Number(e.target.value); show(); });
$("slider").max = N - 1;
$("slider").addEventListener("input", (e) => go(Number(e.target.value)));
const actions = {
  first: () => go(0), last: () => go(N - 1), prev: () => go(t - 1), next: () => go(t + 1),
  prevRound: () => jump(roundOf, -1), nextRound: () => jump(roundOf, 1),
  prevPhase: () => jump(phaseOf, -1), nextPhase: () => jump(phaseOf, 1),
  ...EXTRA_ACTIONS,
};
for (const [id, f] of Object.entries(actions)) $(id).addEventListener("click", f);
const keys = {ArrowLeft: "prev", ArrowRight: "next", ArrowUp: "prevPhase",
              ArrowDown: "nextPhase", PageUp: "prevRound", PageDown: "nextRound",
              Home: "first", End: "last", ...EXTRA_KEYS};
document.addEventListener("keydown", (e) => {
  if (e.target && e.target.tagName === "SELECT") return;
  const name = keys[e.key];
  if (!name || e.ctrlKey || e.metaKey || e.altKey) return;
  e.preventDefault();
  actions[name]();
}, true);
window.replay = {go: go, setView: (i) => { view = i; $("view").value = i; show(); },
                 step: () => t, view: () => view, steps: N};
show();
</script>
</body>
</html>
"""


def template(fragment: Fragment) -> str:
    """The page template of a game view: the shell with the view's fragment in its slots
    (``@@...@@``; ``{{TITLE}}`` and ``{{DATA}}`` stay for the page's own fill)."""
    out = SHELL
    for slot, text in (("STYLE", fragment.style), ("PREV", fragment.prev),
                       ("NEXT", fragment.next), ("KEYS", fragment.keys),
                       ("BOXES", fragment.boxes), ("SCRIPT", fragment.script)):
        if not text:  # an empty slot on a line of its own leaves no blank line
            out = out.replace(f"@@{slot}@@\n", "")
        out = out.replace(f"@@{slot}@@", text.rstrip("\n"))
    return out
