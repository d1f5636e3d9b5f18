"""A saved game of any kit game (:class:`KitRecord`): what :meth:`boardkit.aec.KitEnv.record`
gives (the game's registry name, options, seed, action indices) and the final state's
:meth:`Game.digest`, as one JSON file, so that a tool that reads games (the replay viewer, a
tournament's pages) replays a game it knows only by name.

The file: ``{"format": "boardkit-record-1", "game": "goofspiel", "options": {...}, "seed": 7,
"actions": [3, 0, ...], "digest": "..."}``. Loading checks every field and raises
:class:`RecordError` naming the file and the field; :meth:`KitRecord.walk` replays it and checks
each action and the digest at the end, so an edited record is not shown as the game it claims
to be. AGoT keeps its own richer ``got_env.GameRecord`` (format ``got_env-record-3``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import games
from .protocol import Game

FORMAT = "boardkit-record-1"
FIELDS = ("format", "game", "options", "seed", "actions", "digest")


class RecordError(ValueError):
    """A record that cannot be read, is malformed (the message names the field) or does not
    replay to the game it records."""


@dataclass(frozen=True)
class KitRecord:
    """One game: ``games.get(game).new_state(seed, options)``, then each action index (the
    game's codec) in turn, ending in a state whose digest is ``digest``."""

    game: str
    options: dict[str, Any]
    seed: int | None
    actions: list[int] = field(default_factory=list)
    digest: str = ""

    @classmethod
    def from_env(cls, env: Any) -> KitRecord:
        """The record of the game a :class:`boardkit.aec.KitEnv` has played (so far)."""
        raw = env.record()
        return cls(raw["game"], dict(raw["options"]), raw["seed"], list(raw["actions"]),
                   env.rules.digest(env.game))

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "options": self.options,
                "seed": self.seed, "actions": self.actions, "digest": self.digest}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> KitRecord:
        """The record saved at ``path``; RecordError naming the file (and the field) if it
        cannot be read or is not a well-formed record."""
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as err:
            raise RecordError(f"{path}: cannot read game record: {err}") from None
        try:
            return cls.from_json(doc)
        except RecordError as err:
            raise RecordError(f"{path}: {err}") from None

    @classmethod
    def from_json(cls, doc: Any) -> KitRecord:
        """A record from its JSON form, every field checked (RecordError naming it)."""
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise RecordError(f"not a kit game record ('format' must be {FORMAT!r})")
        unknown = sorted(set(doc) - set(FIELDS))
        if unknown:
            raise RecordError(f"unknown field(s) {unknown}")
        for name in FIELDS:
            if name not in doc:
                raise RecordError(f"field {name!r} is missing")
        checks = {
            "game": isinstance(doc["game"], str),
            "options": isinstance(doc["options"], dict)
            and all(isinstance(k, str) for k in doc["options"]),
            "seed": doc["seed"] is None or _is_int(doc["seed"]),
            "actions": isinstance(doc["actions"], list) and all(map(_is_int, doc["actions"])),
            "digest": isinstance(doc["digest"], str),
        }
        wrong = [name for name, ok in checks.items() if not ok]
        if wrong:
            raise RecordError(f"field {wrong[0]!r} is malformed: {doc[wrong[0]]!r}"[:200])
        return cls(doc["game"], doc["options"], doc["seed"], doc["actions"], doc["digest"])

    def rules(self) -> Game:
        """The recorded game's :class:`Game`; RecordError naming ``game`` for an unknown one."""
        try:
            return games.get(self.game)
        except KeyError as err:
            raise RecordError(f"field 'game': {err.args[0]}") from None

    def new_state(self) -> Any:
        """The game's first state; RecordError naming ``options`` when they make no game."""
        try:
            return self.rules().new_state(self.seed, self.options)
        except (TypeError, ValueError, KeyError) as err:
            raise RecordError(f"field 'options' makes no game: {err}") from None

    def walk(self) -> Iterator[tuple[Any, int | None]]:
        """Replay the record: ``(state, i)`` before action ``i`` (the live state: copy it to
        keep it), then ``(final state, None)``; RecordError when an action is not legal there
        or the final digest differs from the recorded one."""
        rules, state = self.rules(), self.new_state()
        codec = rules.codec(state)
        for i, index in enumerate(self.actions):
            d = rules.pending(state)
            if d is None:
                raise RecordError(f"field 'actions': the game ended before action {i}")
            if not 0 <= index < codec.size or codec.decode(index) not in d.options:
                raise RecordError(f"field 'actions': action {index} at index {i} is not legal "
                                  f"there")
            yield state, i
            rules.apply(state, codec.decode(index))
        if rules.digest(state) != self.digest:
            raise RecordError(f"field 'digest': the replay ends in {rules.digest(state)!r}, "
                              f"the record says {self.digest!r} (the record was changed)")
        yield state, None


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def is_kit_record(doc: Mapping[str, Any] | Any) -> bool:
    """Whether a parsed JSON document claims to be a kit record (by its ``format``)."""
    return isinstance(doc, dict) and doc.get("format") == FORMAT
