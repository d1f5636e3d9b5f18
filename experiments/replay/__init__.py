"""A game record as one self-contained HTML page: the game at every decision, step by step.

    python -m experiments.replay runs/play/game-0.json --out replay.html
    python -m experiments.replay RECORD --out stark.html --views stark     # one player's view only
    python -m experiments.replay RECORD --out quick.html --every 5         # a picture every 5 steps

The page needs no server and no network (open it from disk): a slider, step buttons, keyboard
arrows (left/right: one decision; up/down: phase; page up/down: round; Home/End), the decision
log with the action names of the game's codec, and a view selector: the full view (everything)
and one view per player that holds only what that player knew at each step.

This module is game-neutral: the steps, the log, the secrets of each view and the page. What a
view shows of the game comes from the game's **view module**, found by the record's game
name: its plugin's ``replay_view`` (AGoT: :mod:`got_env.tools.replay`, the board picture and
the combat panel; ``python -m experiments.replay`` for AGoT keys ``c``/``C`` jump between combats),
or else :mod:`.text_view`, which shows the game's own ``text(state, observer)``. A view module has:

- ``TITLE`` (the default page title), ``FRAGMENT`` (the fields of :class:`.page.Fragment`: its
  panel's style, buttons, boxes and the ``paint`` script);
- ``players(record)``: the view names a ``--views`` may ask for; ``seats(record, state)``: the
  default ones, in order, from the first state;
- ``walk(record)``: ``(state, step)`` before each decision, then ``(final state, None)``; a
  step has ``round``, ``phase``, ``house`` (the player's name), ``kind``, ``action_name``,
  ``secret`` and ``visible_to(view)``; ``moment(record, state)``: the final row's round and
  phase;
- ``Board(record, observers, every)``: ``add(t, state, step)`` per step, then ``finish()`` ->
  (page-wide data, each view's data, figures).

Records: the kit's :class:`boardkit.records.GameRecord` (``boardkit-record-2``, naming its game;
older formats are read and converted: docs/replay.md "Records"). A record that does not read,
names a game or options no env takes, or does not replay as recorded (another game's or
edition's actions, an edit caught by its check) ends the tool with one line, exit status 2.

Hidden information: a player view's data holds what its game view draws for that player, its
own secret choices, other players' secret choices as ``(secret)`` only; the seed (it decides
what chance hides, AGoT's decks, Goofspiel's prizes) only with the full view. A page built with
``--views stark`` holds nothing Stark could not see at the step it belongs to; the default page
also holds the full view, so share a one-player page when that matters.
"""

from __future__ import annotations

import argparse
import functools
import html
import importlib
import json
import re
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from boardkit import games
from boardkit.records import GameRecord, RecordError

from .page import Fragment, template

__all__ = ["FULL", "ReplayError", "build_replay", "load_record", "main", "page_data",
           "parse_views", "render_page", "write_replay"]

FULL = "full"
#: what stands for ``<``, ``>`` and ``&`` in the page's JSON: no markup at all inside the data
#: script, so no title or record can end it or open a comment that swallows the page's code
SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})
SLOT = re.compile(r"\{\{(TITLE|DATA)\}\}")


class ReplayError(ValueError):
    """A bad option (unknown view, bad --every)."""


@functools.cache
def view_module(game: str) -> ModuleType:
    """The replay view of the game named ``game``: its plugin's ``replay_view``
    (:class:`boardkit.plugin.GamePlugin`), else the text view (:mod:`.text_view`); a
    RecordError for a game the registry does not know (the record names it)."""
    try:
        loader = games.plugin(game).replay_view
    except KeyError as e:
        raise RecordError(f"field 'game': {e.args[0]}") from None
    return loader() if loader is not None else importlib.import_module(".text_view", __package__)


def fragment_of(view: ModuleType) -> Fragment:
    """The page pieces of a replay view (its ``FRAGMENT`` fields) as a :class:`.page.Fragment`."""
    return Fragment(**view.FRAGMENT)


def game_of(record: GameRecord) -> str:
    """The registry name of the game a record holds."""
    return record.game


def load_record(path: str | Path) -> GameRecord:
    """The record saved at ``path`` (its errors name the file)."""
    return GameRecord.load(path)


def parse_views(spec: str | None, houses: list[str]) -> list[str]:
    """``all`` (None): the full view and every player; else a comma list of ``full`` and
    player names (AGoT: house ids)."""
    if spec is None or spec == "all":
        return [FULL, *houses]
    views = [v.strip() for v in spec.split(",") if v.strip()]
    unknown = [v for v in views if v != FULL and v not in houses]
    if unknown or not views:
        raise ReplayError(f"--views: unknown view(s) {unknown or spec!r}; choose from "
                          f"{[FULL, *houses]} or all")
    return list(dict.fromkeys(views))


def build_replay(record: Any, views: list[str] | None = None, every: int = 1,
                 title: str | None = None) -> tuple[str, dict[str, Any]]:
    """The page's HTML and a few figures about it (steps, parts, seconds)."""
    if every < 1:
        raise ReplayError(f"--every must be at least 1, got {every}")
    start = time.perf_counter()
    game_view = view_module(game_of(record))
    steps: list[list[Any]] = []
    names: list[str] | None = None
    secrets: list[dict[int, str]] = []
    board = None
    for t, (state, step) in enumerate(game_view.walk(record)):
        if names is None:
            seats = game_view.seats(record, state)
            names = views if views is not None else parse_views(None, seats)
            for name in names:
                if name != FULL and name not in seats:
                    raise ReplayError(f"--views: house {name!r} is not in this game "
                                      f"(houses: {seats})")
            observers = [None if n == FULL else n for n in names]
            board = game_view.Board(record, observers, every)
            secrets = [{} for _ in names]
        board.add(t, state, step)
        for name, secret in zip(names, secrets, strict=True):
            observer = None if name == FULL else name
            if step is not None and step.secret and step.visible_to(observer):
                secret[t] = step.action_name
        if step is None:
            steps.append([*game_view.moment(record, state), None, None, None])
        else:
            steps.append([step.round, step.phase, step.house, step.kind,
                          None if step.secret else step.action_name])
    assert names is not None and board is not None
    page_wide, view_data, figures = board.finish()
    data = {
        "title": title or game_view.TITLE,
        "options": record.options,
        "seed": record.seed if FULL in names else None,
        **page_wide,
        "steps": steps,
        "views": [{"name": name,
                   "label": "Full view (everything)" if name == FULL
                   else f"{name.capitalize()}'s view",
                   **own, "secret": {str(k): s for k, s in secret.items()}}
                  for name, own, secret in zip(names, view_data, secrets, strict=True)],
    }
    page = render_page(data, fragment_of(game_view))
    figures = {"steps": len(steps), "decisions": len(record.actions), **figures,
               "views": names, "bytes": len(page.encode()),
               "seconds": round(time.perf_counter() - start, 2)}
    return page, figures


def render_page(data: dict[str, Any], fragment: Fragment) -> str:
    """The HTML page: the template of the game view's ``fragment`` with the
    title (escaped for HTML) and the data as JSON with every ``<``, ``>`` and ``&`` written as a
    JSON escape, so that nothing in the data (a title such as ``game<!--<script>``, a file name,
    an SVG part) reads as markup to an HTML parser. Both slots are filled in one pass: a title
    holding ``{{DATA}}`` stays text."""
    fills = {"TITLE": html.escape(data["title"]),
             "DATA": json.dumps(data, separators=(",", ":")).translate(SCRIPT_SAFE)}
    return SLOT.sub(lambda m: fills[m.group(1)], _template(fragment))


@functools.cache
def _template(fragment: Any) -> str:
    return template(fragment)


def write_replay(record: Any, out: str | Path, **kwargs: Any) -> dict[str, Any]:
    """Build the page of ``record`` (a record or a saved one's path) and write it to ``out``."""
    if isinstance(record, (str, Path)):
        record = load_record(record)
    page, figures = build_replay(record, **kwargs)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    return figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.replay", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("record", help="a saved game record (JSON: boardkit.records.GameRecord."
                   "save, what env.record.save writes; older formats are read too)")
    p.add_argument("--out", default="replay.html", help="the page to write (replay.html)")
    p.add_argument("--views", default="all", help="all (default), or a comma list of 'full' "
                   "and players (AGoT: house ids), e.g. --views stark")
    p.add_argument("--every", type=int, default=1, help="draw the board every N decisions "
                   "(and at every phase change and the end); 1: at every decision")
    p.add_argument("--title", default=None)
    args = p.parse_args(argv)
    try:
        record = load_record(args.record)  # its errors name the file
    except RecordError as e:
        return _fail(p, str(e))
    try:
        game_view = view_module(game_of(record))
        views = parse_views(args.views, game_view.players(record))
        figures = write_replay(record, args.out, views=views, every=args.every,
                               title=args.title or f"{game_view.TITLE}: "
                                                   f"{Path(args.record).name}")
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


def record_houses(record: Any) -> list[str]:
    """The players of the record's game (AGoT: the houses in play, data order); a record error
    naming the field when its options or seed make no game."""
    return list(view_module(game_of(record)).players(record))


# -- reading a page back (tests, tools) ---------------------------------------------------------
def page_data(page: str) -> dict[str, Any]:
    """The data embedded in a replay page."""
    tag = '<script type="application/json" id="data">'
    start = page.index(tag) + len(tag)
    return json.loads(page[start:page.index("</script>", start)])
