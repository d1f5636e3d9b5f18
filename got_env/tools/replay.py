"""A Game of Thrones' replay view (its plugin's ``replay_view``, read by experiments.replay): the
board picture with its tracks and supply panel, and the combat being fought (strengths, cards,
supporters, Tides of Battle), per view, over the game-neutral page of :mod:`experiments.replay`.

Pictures come from the same drawing code as the PNG (got_env.render), as SVG. How the
page stays small: the picture is cut into parts (borders, each area's node, each area's units
and tokens, the side panel, the fixed text; :func:`got_env.render.board.board_parts`); every
distinct part is drawn once and stored once, and each view stores, per step, only which parts
changed since the step before (with the whole list every ``KEYFRAME`` steps). A house view is
drawn with ``observer`` = that house only where another house's orders are on the board
unrevealed; elsewhere it shows the full view's parts (the picture is then the same). A house's
combat is as it could see it (got_env.render.log).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from boardkit.records import GameRecord
from got_env.engine.state import GameState
from got_env.render import board as board_picture
from got_env.render.canvas import Part
from got_env.render.log import Step, combat_view
from got_env.render.log import walk as _walk
from got_env.render.style import FIG_INCHES
from got_env.render.svg import SvgParts, svg_preamble
from got_env.render.vocabulary import visible_order

KEYFRAME = 50  # a view stores its whole part list every KEYFRAME steps, changes in between
TITLE = "got_env replay"


def players(record: GameRecord) -> list[str]:
    """The houses in play in the record's game (data order); RecordError naming the field when
    its options or seed make no game."""
    return list(record.new_env().possible_agents)


def walk(record: GameRecord) -> Iterator[tuple[GameState, Step | None]]:
    """The record's states and steps (:func:`got_env.render.log.walk`)."""
    return _walk(record)


def seats(record: GameRecord, state: GameState) -> list[str]:
    """The houses of a game, in the ruleset's order (the default views after the full one)."""
    del record
    houses = [state.ruleset.houses[h].id for h in state.turn_order()]
    houses.sort(key=lambda h: state.ruleset.house(h))
    return houses


def moment(record: GameRecord, state: GameState) -> tuple[int, str]:
    """The round and phase of the final step's row."""
    del record
    return int(state.round), state.phase.name.lower()


class _Pictures:
    """One view's part lists (delta-encoded) and combats, as they are built."""

    def __init__(self, observer: str | None):
        self.observer = observer
        self.pics: list[list[int]] = []
        self.last: list[int] | None = None
        self.combat: list[dict | None] = []

    def add_picture(self, ids: list[int]) -> None:
        t = len(self.pics)
        if self.last is None or t % KEYFRAME == 0 or len(ids) != len(self.last):
            self.pics.append([-1, *ids])
        else:
            changes: list[int] = []
            for slot, (old, new) in enumerate(zip(self.last, ids, strict=True)):
                if old != new:
                    changes += [slot, new]
            self.pics.append(changes)
        self.last = ids


class Board:
    """The board pictures and combats of every view, step by step (``every``: draw a new
    picture every N steps, and at each phase change and the end)."""

    def __init__(self, record: GameRecord, observers: list[str | None], every: int):
        del record
        self.every = every
        self.drawer = SvgParts()
        self.part_ids: dict[tuple, int] = {}
        self.bodies: list[str] = []
        self.defs: dict[str, None] = {}
        self.views = [_Pictures(o) for o in observers]
        self.combat_starts: list[int] = []
        self.previous_combat: tuple | None = None
        self.last_drawn: tuple | None = None
        self.full_ids: list[int] = []

    def _ids_of(self, parts: list[Part]) -> list[int]:
        out = []
        for part in parts:
            pid = self.part_ids.get(part.key)
            if pid is None:
                svg = self.drawer(part)
                pid = self.part_ids[part.key] = len(self.bodies)
                self.bodies.append(svg.body)
                self.defs.update(dict.fromkeys(svg.clips))
            out.append(pid)
        return out

    def add(self, t: int, state: GameState, step: Step | None) -> None:
        """Step ``t``'s picture and combat in every view."""
        moment = (int(state.round), state.phase.name)
        draw = (t % self.every == 0 or step is None or moment != self.last_drawn)
        if draw:
            self.last_drawn = moment
            fixed = board_picture.fixed_part(state)
            hidden_orders = not state.orders_revealed and bool((state.orders >= 0).any())
            full_parts = board_picture.board_parts(state, None, show_viewer=False)
            self.full_ids = self._ids_of([*full_parts, fixed])
            hidden_tokens: dict[int, Part] = {}
        for v in self.views:
            if draw:
                ids = self.full_ids
                if v.observer is not None and hidden_orders:
                    parts = house_view_parts(state, full_parts, state.ruleset.house(v.observer),
                                             hidden_tokens)
                    if parts is not full_parts:
                        ids = self._ids_of([*parts, fixed])
                v.add_picture(ids)
            else:
                v.add_picture(v.last)
            v.combat.append(combat_view(state, v.observer))
        frame = combat_view(state, None)
        here = None if frame is None else (frame["area"], frame["from"], frame["attacker"]
                                           ["house"])
        if here is not None and here != self.previous_combat:
            self.combat_starts.append(t)
        self.previous_combat = here

    def finish(self) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        """The page-wide data, each view's own data and figures: only the parts some included
        view shows are written (a one-house page holds no others)."""
        used = sorted({i for v in self.views for p in v.pics for i in _ids_in(p)})
        remap = {old: new for new, old in enumerate(used)}
        page = {
            "svg_head": (f'<svg xmlns="http://www.w3.org/2000/svg" '
                         f'xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 '
                         f'{FIG_INCHES[0] * 72:g} {FIG_INCHES[1] * 72:g}" '
                         f'version="1.1">' + svg_preamble()),
            "svg_defs": "<defs>" + "".join(self.defs) + "</defs>",
            "parts": [self.bodies[i] for i in used],
            "combat_starts": self.combat_starts,
        }
        views = [{"pics": [_remap(p, remap) for p in v.pics], "combat": v.combat}
                 for v in self.views]
        return page, views, {"parts": len(used)}


def house_view_parts(state: GameState, full: list[Part], seen: int,
                     hidden: dict[int, Part] | None = None) -> list[Part]:
    """What ``board_picture.board_parts(state, seen, show_viewer=False)`` gives, from ``full``, the
    full view's parts: the two differ only in the order tokens that house ``seen`` may not see
    (without its "Seen by" line the panel is everyone's), so only those areas' token parts are
    made again; ``full`` itself when there is none. Making the whole board again for every
    house at every planning step was a third of a 6-player build.

    ``hidden``: area index -> its token part with the order hidden, made for this state and
    filled here; a hidden order looks the same to every house but its owner, so the houses of
    one step share them."""
    hidden = {} if hidden is None else hidden
    areas = state.ruleset.areas
    control = state.control()
    parts = full
    first_tokens = 1 + len(areas)  # board_parts: the borders, every node, every area's tokens
    for i in np.flatnonzero(state.orders >= 0).tolist():
        owner = int(control[i])
        if visible_order(state, i, owner, seen) != visible_order(state, i, owner,
                                                                                  None):
            if parts is full:
                parts = list(full)
            if i not in hidden:
                hidden[i] = board_picture.area_parts(state, areas[i], seen)[1]
            parts[first_tokens + i] = hidden[i]
    return parts


def _ids_in(entry: list[int]) -> list[int]:
    return entry[1:] if entry and entry[0] == -1 else entry[1::2]


def _remap(entry: list[int], remap: dict[int, int]) -> list[int]:
    if entry and entry[0] == -1:
        return [-1, *(remap[i] for i in entry[1:])]
    return [x if k % 2 == 0 else remap[x] for k, x in enumerate(entry)]


def view_parts(data: dict[str, Any], view: str, t: int) -> list[int]:
    """The part ids a view shows at step ``t`` (its delta list decoded, as the page does)."""
    pics = next(v for v in data["views"] if v["name"] == view)["pics"]
    ids: list[int] = []
    for entry in pics[:t + 1]:
        if entry and entry[0] == -1:
            ids = list(entry[1:])
        else:
            for k in range(0, len(entry), 2):
                ids[entry[k]] = entry[k + 1]
    return ids


def view_svg(data: dict[str, Any], view: str, t: int) -> str:
    """The SVG document a view shows at step ``t``."""
    parts = data["parts"]
    return (data["svg_head"] + "\n".join(parts[i] for i in view_parts(data, view, t))
            + data["svg_defs"] + "</svg>")


#: the page's pieces of this view (the fields of experiments.replay.page.Fragment)
FRAGMENT = dict(
    style=r"""  #board { flex: 0 0 auto; width: min(62vw, calc(100vh - 70px)); background: #fff;
           box-shadow: 0 1px 3px #0003; }
  #board svg { width: 100%; height: auto; display: block; }
  #combat table { border-collapse: collapse; width: 100%; font-size: 13px; }
  #combat td, #combat th { border-bottom: 1px solid #ddd; padding: 2px 4px; text-align: left;
                           vertical-align: top; }
""",
    prev='  <button id="prevCombat" title="previous combat (C)">&lsaquo; combat</button>\n',
    next='  <button id="nextCombat" title="next combat (c)">combat &rsaquo;</button>\n',
    keys="c / C next / previous combat, ",
    boxes='    <div class="box" id="combatBox"><h2>Combat</h2><div id="combat"></div></div>\n',
    script=r"""
let shown = null;
const cache = [];

function partIds(v, s) {
  const pics = D.views[v].pics;
  const c = cache[v];
  if (c && c.t === s) return c.ids;
  let ids, from;
  if (c && c.t < s && s - c.t <= 200) { ids = c.ids.slice(); from = c.t + 1; }
  else {
    let k = s;
    while (pics[k][0] !== -1) k--;
    ids = pics[k].slice(1); from = k + 1;
  }
  for (let i = from; i <= s; i++) {
    const e = pics[i];
    if (e.length && e[0] === -1) { ids = e.slice(1); continue; }
    for (let j = 0; j < e.length; j += 2) ids[e[j]] = e[j + 1];
  }
  cache[v] = {t: s, ids: ids};
  return ids;
}

function combatHtml(c) {
  if (!c) return "<i>no combat at this step</i>";
  const rows = [["house", "house"], ["units", "units"], ["strength", "strength (before cards)"],
                ["supporters", "supported by"], ["card", "house card"], ["tides", "Tides card"],
                ["blade", "Valyrian Steel Blade"], ["final", "final strength"]];
  let h = "<div>" + esc(c.attacker.house) + " attacks <b>" + esc(c.area) + "</b> from " +
          esc(c.from) + " (stage: " + esc(c.stage) + ")</div><table><tr><th></th>" +
          "<th>attacker</th><th>defender</th></tr>";
  for (const [k, label] of rows) {
    const a = c.attacker[k], d = c.defender[k];
    if (a === undefined && d === undefined) continue;
    const f = (x) => x === undefined ? "" : Array.isArray(x) ? (x.length ? x.join(", ") : "none")
                                         : x === true ? "used" : x;
    h += "<tr><td>" + label + "</td><td>" + esc(f(a)) + "</td><td>" + esc(f(d)) + "</td></tr>";
  }
  h += "</table>";
  if (c.winner) h += "<div><b>" + esc(c.winner) + " wins.</b></div>";
  return h;
}

function paint(v, s) {
  const ids = partIds(v, s);
  const key = v + ":" + ids.join(",");
  if (key !== shown) {
    $("board").innerHTML = D.svg_head + ids.map((i) => D.parts[i]).join("\n") + D.svg_defs +
                           "</svg>";
    shown = key;
  }
  $("combat").innerHTML = combatHtml(D.views[v].combat[s]);
}

function combat(dir) {
  const cs = D.combat_starts;
  if (dir > 0) { const c = cs.find((x) => x > t); if (c !== undefined) go(c); }
  else { const c = cs.filter((x) => x < t).pop(); if (c !== undefined) go(c); }
}
const EXTRA_ACTIONS = {prevCombat: () => combat(-1), nextCombat: () => combat(1)};
const EXTRA_KEYS = {c: "nextCombat", C: "prevCombat"};
""")
