"""The default replay view, for a game without a view of its own: each step shows the game's
own words for the position, :meth:`boardkit.protocol.Game.text` ``(state, observer)``, with
observer None in the full view and the view's player in a player's view, so that a player's view
holds only what the game's text lets that player see. The record is the kit's
(:class:`boardkit.records.GameRecord`), replayed in its game's env and checked as it goes.

Each distinct text is stored once; a view stores per step the index of its text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from boardkit.records import GameRecord

TITLE = "replay"


@dataclass(frozen=True)
class Step:
    """One decision of a kit game and the action chosen (what the page's log shows); ``house``:
    the deciding player's name (the field name the page's rows share with AGoT's steps)."""

    index: int
    round: int
    phase: str
    house: str
    kind: str
    action_name: str
    secret: bool

    def visible_to(self, viewer: str | None) -> bool:
        """Whether ``viewer`` (a player name; None: everyone) may see the action chosen."""
        return viewer is None or viewer == self.house or not self.secret


def players(record: GameRecord) -> list[str]:
    """The seats of the record's game (RecordError naming the field that makes no game)."""
    return list(record.new_env().possible_agents)


def seats(record: GameRecord, state: Any) -> list[str]:
    del state
    return players(record)


def walk(record: GameRecord) -> Iterator[tuple[Any, Step | None]]:
    """The record's states and the step about to be played at each, then the final state."""
    for env, i in record.walk():
        state = env.game
        if i is None:
            yield state, None
            return
        rules = env.rules
        d = rules.pending(state)
        yield state, Step(i, int(rules.round(state)), d.kind.label,
                          rules.player_name(state, d.player), d.kind.label,
                          env.action_name(record.actions[i]), bool(d.secret))


def moment(record: GameRecord, state: Any) -> tuple[int, str]:
    """The final row: the game's round counter at the end, and "end"."""
    return int(record.rules().round(state)), "end"


class Board:
    """The text of every view at every step."""

    def __init__(self, record: GameRecord, observers: list[str | None], every: int):
        del every  # a text is cheap: every step has its own
        self.rules = record.rules()
        self.observers = observers
        self.texts: dict[str, int] = {}
        self.shown: list[list[int]] = [[] for _ in observers]

    def add(self, t: int, state: Any, step: Step | None) -> None:
        del t, step
        for shown, name in zip(self.shown, self.observers, strict=True):
            observer = None if name is None else self.rules.player_index(state, name)
            text = self.rules.text(state, observer)
            shown.append(self.texts.setdefault(text, len(self.texts)))

    def finish(self) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        return ({"texts": list(self.texts)}, [{"text": s} for s in self.shown],
                {"parts": len(self.texts)})


#: the page's pieces of this view (the fields of :class:`.page.Fragment`)
FRAGMENT = dict(
    style=r"""  #board { flex: 0 0 auto; width: min(55vw, 720px); background: #fff;
           padding: 8px 12px; box-shadow: 0 1px 3px #0003; white-space: pre-wrap;
           font: 14px/1.5 "DejaVu Sans Mono", monospace; }
""",
    script=r"""
function paint(v, s) { $("board").textContent = D.texts[D.views[v].text[s]]; }
const EXTRA_ACTIONS = {};
const EXTRA_KEYS = {};
""")
