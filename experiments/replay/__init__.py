"""A game record as one self-contained HTML page: the board at every decision, step by step.

    python -m experiments.replay runs/play/game-0.json --out replay.html
    python -m experiments.replay RECORD --out stark.html --views stark     # one house's view only
    python -m experiments.replay RECORD --out quick.html --every 5         # a picture every 5 steps

The page needs no server and no network (open it from disk): a slider, step buttons, keyboard
arrows (left/right: one decision; up/down: phase; page up/down: round; ``c``/``C``: next and
previous combat; Home/End), the decision log with readable action names, the combat being fought
(strengths, cards, supporters, Tides of Battle), the board picture with its tracks and supply
panel, and a view selector: the full view (every order shown) and one view per house that holds
only what that house knew at each step.

Pictures come from the same drawing code as the PNG (``got_env.render.picture``), as SVG. How the
page stays small: the picture is cut into parts (borders, each area's node, each area's units
and tokens, the side panel, the fixed text; :func:`got_env.render.picture.board_parts`); every
distinct part is drawn once and stored once, and each view stores, per step, only which parts
changed since the step before (with the whole list every ``KEYFRAME`` steps). A house view is
drawn with ``observer`` = that house only where another house's orders are on the board
unrevealed; elsewhere it shows the full view's parts (the picture is then the same).

Hidden information: a house view's data holds the pictures drawn for that house (other houses'
unrevealed orders as "?"), its own secret choices, other houses' secret choices as
``(secret)`` only, and the combat as it could see it (got_env.render.log). A page built with
``--views stark`` holds no part, log line or combat detail that Stark could not see at the step
it belongs to; the default page also holds the full view, so share a one-house page when that
matters.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from got_env import GameRecord
from got_env.engine.state import GameState
from got_env.env import RecordError
from got_env.render import picture
from got_env.render.log import combat_view, walk

from .page import TEMPLATE

KEYFRAME = 50  # a view stores its whole part list every KEYFRAME steps, changes in between
FULL = "full"
#: what stands for ``<``, ``>`` and ``&`` in the page's JSON: no markup at all inside the data
#: script, so no title or record can end it or open a comment that swallows the page's code
SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})
SLOT = re.compile(r"\{\{(TITLE|DATA)\}\}")


class ReplayError(ValueError):
    """A bad option (unknown view, bad --every)."""


def parse_views(spec: str | None, houses: list[str]) -> list[str]:
    """``all`` (None): the full view and every house; else a comma list of ``full`` and
    house ids."""
    if spec is None or spec == "all":
        return [FULL, *houses]
    views = [v.strip() for v in spec.split(",") if v.strip()]
    unknown = [v for v in views if v != FULL and v not in houses]
    if unknown or not views:
        raise ReplayError(f"--views: unknown view(s) {unknown or spec!r}; choose from "
                          f"{[FULL, *houses]} or all")
    return list(dict.fromkeys(views))


class _View:
    """One view's data as it is built: part lists (delta-encoded), secret log lines, combats."""

    def __init__(self, name: str):
        self.name = name
        self.observer = None if name == FULL else name
        self.pics: list[list[int]] = []
        self.last: list[int] | None = None
        self.secret: dict[int, str] = {}
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


def build_replay(record: GameRecord, views: list[str] | None = None, every: int = 1,
                 title: str | None = None) -> tuple[str, dict[str, Any]]:
    """The page's HTML and a few figures about it (steps, parts, seconds)."""
    if every < 1:
        raise ReplayError(f"--every must be at least 1, got {every}")
    start = time.perf_counter()
    drawer = picture.SvgParts()
    part_ids: dict[tuple, int] = {}
    bodies: list[str] = []
    defs: dict[str, None] = {}
    steps: list[list[Any]] = []
    built: list[_View] | None = None
    combat_starts: list[int] = []
    previous_combat = None
    full_ids: list[int] = []

    def ids_of(parts: list[picture.Part]) -> list[int]:
        out = []
        for part in parts:
            pid = part_ids.get(part.key)
            if pid is None:
                svg = drawer(part)
                pid = part_ids[part.key] = len(bodies)
                bodies.append(svg.body)
                defs.update(dict.fromkeys(svg.clips))
            out.append(pid)
        return out

    last_drawn: tuple | None = None
    for t, (state, step) in enumerate(walk(record)):
        if built is None:
            houses = [state.ruleset.houses[h].id for h in state.turn_order()]
            houses.sort(key=lambda h: state.ruleset.house(h))
            built = [_View(v) for v in (views if views is not None
                                       else parse_views(None, houses))]
            for v in built:
                if v.observer is not None and v.observer not in houses:
                    raise ReplayError(f"--views: house {v.observer!r} is not in this game "
                                      f"(houses: {houses})")
        moment = (int(state.round), state.phase.name)
        draw = (t % every == 0 or step is None or moment != last_drawn)
        if draw:
            last_drawn = moment
            fixed = picture.fixed_part(state)
            hidden_orders = not state.orders_revealed and bool((state.orders >= 0).any())
            full_parts = picture.board_parts(state, None, show_viewer=False)
            full_ids = ids_of([*full_parts, fixed])
            hidden_tokens: dict[int, picture.Part] = {}
        for v in built:
            if draw:
                ids = full_ids
                if v.observer is not None and hidden_orders:
                    parts = house_view_parts(state, full_parts, state.ruleset.house(v.observer),
                                             hidden_tokens)
                    if parts is not full_parts:
                        ids = ids_of([*parts, fixed])
                v.add_picture(ids)
            else:
                v.add_picture(v.last)
            v.combat.append(combat_view(state, v.observer))
            if step is not None and step.secret and step.visible_to(v.observer):
                v.secret[t] = step.action_name
        frame = combat_view(state, None)
        here = None if frame is None else (frame["area"], frame["from"], frame["attacker"]
                                           ["house"])
        if here is not None and here != previous_combat:
            combat_starts.append(t)
        previous_combat = here
        if step is None:
            steps.append([int(state.round), state.phase.name.lower(), None, None, None])
        else:
            steps.append([step.round, step.phase, step.house, step.kind,
                          None if step.secret else step.action_name])
    assert built is not None
    used = sorted({i for v in built for p in v.pics for i in _ids_in(p)})
    # Only the parts some included view shows are written (a one-house page holds no others).
    remap = {old: new for new, old in enumerate(used)}
    data = {
        "title": title or "got_env replay",
        # The seed decides the decks' order, hidden from every house: only with the full view.
        "options": record.options,
        "seed": record.seed if any(v.observer is None for v in built) else None,
        "svg_head": (f'<svg xmlns="http://www.w3.org/2000/svg" '
                     f'xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 '
                     f'{picture.FIG_INCHES[0] * 72:g} {picture.FIG_INCHES[1] * 72:g}" '
                     f'version="1.1">' + picture.svg_preamble()),
        "svg_defs": "<defs>" + "".join(defs) + "</defs>",
        "parts": [bodies[i] for i in used],
        "steps": steps,
        "combat_starts": combat_starts,
        "views": [{"name": v.name,
                   "label": "Full view (everything)" if v.observer is None
                   else f"{v.name.capitalize()}'s view",
                   "pics": [_remap(p, remap) for p in v.pics],
                   "secret": {str(k): s for k, s in v.secret.items()},
                   "combat": v.combat} for v in built],
    }
    page = render_page(data)
    figures = {"steps": len(steps), "decisions": len(record.actions), "parts": len(used),
               "views": [v.name for v in built], "bytes": len(page.encode()),
               "seconds": round(time.perf_counter() - start, 2)}
    return page, figures


def house_view_parts(state: GameState, full: list[picture.Part], seen: int,
                     hidden: dict[int, picture.Part] | None = None) -> list[picture.Part]:
    """What ``picture.board_parts(state, seen, show_viewer=False)`` gives, from ``full``, the
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
        if picture.visible_order(state, i, owner, seen) != picture.visible_order(state, i, owner,
                                                                                  None):
            if parts is full:
                parts = list(full)
            if i not in hidden:
                hidden[i] = picture.area_parts(state, areas[i], seen)[1]
            parts[first_tokens + i] = hidden[i]
    return parts


def _ids_in(entry: list[int]) -> list[int]:
    return entry[1:] if entry and entry[0] == -1 else entry[1::2]


def _remap(entry: list[int], remap: dict[int, int]) -> list[int]:
    if entry and entry[0] == -1:
        return [-1, *(remap[i] for i in entry[1:])]
    return [x if k % 2 == 0 else remap[x] for k, x in enumerate(entry)]


def render_page(data: dict[str, Any]) -> str:
    """The HTML page: the template with the title (escaped for HTML) and the data as JSON with
    every ``<``, ``>`` and ``&`` written as a JSON escape, so that nothing in the data (a title
    such as ``game<!--<script>``, a file name, an SVG part) reads as markup to an HTML parser.
    Both slots are filled in one pass: a title holding ``{{DATA}}`` stays text."""
    fills = {"TITLE": html.escape(data["title"]),
             "DATA": json.dumps(data, separators=(",", ":")).translate(SCRIPT_SAFE)}
    return SLOT.sub(lambda m: fills[m.group(1)], TEMPLATE)


def write_replay(record: GameRecord | str | Path, out: str | Path, **kwargs: Any
                 ) -> dict[str, Any]:
    """Build the page of ``record`` (a record or a saved one's path) and write it to ``out``."""
    if not isinstance(record, GameRecord):
        record = GameRecord.load(record)
    page, figures = build_replay(record, **kwargs)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    return figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.replay", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("record", help="a saved game record (JSON, got_env.GameRecord.save)")
    p.add_argument("--out", default="replay.html", help="the page to write (replay.html)")
    p.add_argument("--views", default="all", help="all (default), or a comma list of 'full' "
                   "and house ids, e.g. --views stark")
    p.add_argument("--every", type=int, default=1, help="draw the board every N decisions "
                   "(and at every phase change and the end); 1: at every decision")
    p.add_argument("--title", default=None)
    args = p.parse_args(argv)
    try:
        record = GameRecord.load(args.record)  # its errors name the file
    except RecordError as e:
        return _fail(p, str(e))
    try:
        views = parse_views(args.views, record_houses(record))
        figures = write_replay(record, args.out, views=views, every=args.every,
                               title=args.title or f"got_env replay: {Path(args.record).name}")
    except ReplayError as e:  # a bad --views or --every: the usage helps
        p.error(f"{args.record}: {e}")
    except (RecordError, OSError) as e:
        return _fail(p, f"{args.record}: {e}")
    print(f"{args.out}: {figures['steps']} steps, {len(figures['views'])} view(s), "
          f"{figures['parts']} picture parts, {figures['bytes'] / 1e6:.1f} MB, built in "
          f"{figures['seconds']:.1f} s")
    return 0


def _fail(parser: argparse.ArgumentParser, message: str) -> int:
    """Exit status 2 with one line on stderr: a bad record is not a usage error, so no usage
    and no traceback, just what is wrong."""
    print(f"{parser.prog}: error: {' '.join(message.splitlines())}", file=sys.stderr)
    return 2


def record_houses(record: GameRecord) -> list[str]:
    """The houses in play in the record's game (data order); RecordError naming the field when
    its options or seed make no game."""
    return list(record.new_env().possible_agents)


# -- reading a page back (tests, tools) ---------------------------------------------------------
def page_data(page: str) -> dict[str, Any]:
    """The data embedded in a replay page."""
    tag = '<script type="application/json" id="data">'
    start = page.index(tag) + len(tag)
    return json.loads(page[start:page.index("</script>", start)])


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
