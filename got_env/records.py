"""Game records: what replays a game exactly, and the one replay loop (docs/env.md "Records").

A :class:`GameRecord` holds a game's options, seed and every action index, with its outcome, the
digest of its final state and a check over all of these; :meth:`GameRecord.walk` plays it back
and :meth:`GameRecord.replay` returns the replayed env. It sits below the env and the picture /
log layer (``got_env.render.log`` walks records for the replay viewer), so that neither reaches
up into the other for it (docs/layers.md).

A replay needs an env of the record's options: :meth:`GameRecord.new_env` imports
:class:`got_env.env.raw_env` when it is called, the one import of this module that points up
(exempted by name in the layers contract, pyproject.toml ``[tool.importlinter]``; docs/layers.md
says why). ``got_env.env`` re-exports every name here, so ``got_env.env.GameRecord`` and
``got_env.GameRecord`` are this class.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardkit.records import RecordError as KitRecordError

from . import engine

if TYPE_CHECKING:
    from .env import raw_env

__all__ = ["RECORD_FIELDS", "RECORD_FORMAT", "GameRecord", "RecordError"]


RECORD_FORMAT = "got_env-record-3"
#: the fields of each format :meth:`GameRecord.load` reads, besides ``format``; format 2 (before
#: the check) is still read, and checked by its replay only (docs/env.md "Records")
RECORD_FIELDS = {
    "got_env-record-2": ("options", "seed", "actions", "outcome", "digest"),
    RECORD_FORMAT: ("options", "seed", "actions", "outcome", "digest", "check"),
}


class RecordError(KitRecordError):
    """A game record that is corrupt, or that does not replay into the game it recorded (the
    kit's :class:`boardkit.records.RecordError`, so that a tool catching that one catches
    AGoT's too)."""


@dataclass
class GameRecord:
    """What replays a game exactly: the options, the seed and every action index, with the
    outcome, a digest of the state after the last action, and a check over all of these, so
    that a record changed anywhere is caught instead of silently giving another game: the check
    catches any edit (one action swapped for another legal one that ends in the same state
    included), the replay catches a record that the current engine plays into another game.

    :ivar outcome: ``{"reason", "winner", "ranking"}`` (house ids) once the game ended or was
        truncated (reason ``"truncated"``), else None; with a ``"draw"`` key (the house ids that
        share the game, 1e spec 12) when the game ended in a draw.
    :ivar digest: :meth:`GameState.digest` of the state after the last action.
    :ivar check: :meth:`content_check` of the record when it was taken (``env.record``), None
        for a record built by hand or read from format 2: such a record is checked by its
        replay only (outcome and digest).
    """

    options: dict[str, Any]
    seed: int | None
    actions: list[int] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    digest: str | None = None
    check: str | None = None

    def content_check(self) -> str:
        """SHA-256 of the record's content (format, options, seed, actions, outcome, digest) as
        canonical JSON: what a saved record reads back to hashes the same, and any change to
        any field (a single action included) gives another check. One hash over the action
        list, not one per step: it costs microseconds, and the step a change is at does not
        matter, only that there is one."""
        content = [RECORD_FORMAT, self.options, self.seed, self.actions, self.outcome,
                   self.digest]
        text = json.dumps(content, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def sealed(self) -> GameRecord:
        """A copy whose check is its content's: a record built by hand gets the check that
        ``env.record`` gives a game's record."""
        return replace(self, check=self.content_check())

    def save(self, path: str | Path) -> None:
        """Write the record as JSON (format :data:`RECORD_FORMAT`), with its check as taken, so
        that a record changed in memory after it was taken fails on load; a record without a
        check is saved with its content's."""
        check = self.check if self.check is not None else self.content_check()
        Path(path).write_text(json.dumps({"format": RECORD_FORMAT, "options": self.options,
                                          "seed": self.seed, "actions": self.actions,
                                          "outcome": self.outcome, "digest": self.digest,
                                          "check": check}))

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a saved record (format 3, or format 2 without a check). A corrupt file, an
        unknown or missing field, a field of the wrong type and a check that does not match
        raise :class:`RecordError` naming what is wrong; options and seed are checked by the
        replay (:meth:`new_env`)."""
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as e:  # ValueError: JSON, UTF-8
            raise RecordError(f"cannot read game record {path}: {e}") from None
        found = doc.get("format") if isinstance(doc, dict) else None
        fields = RECORD_FIELDS.get(found) if isinstance(found, str) else None
        if fields is None:
            raise RecordError(f"{path}: not a got_env game record of format {RECORD_FORMAT!r} "
                              f"(or 'got_env-record-2') (format: {found!r})")
        _check_fields(doc, fields, path)
        record = cls(doc["options"], doc["seed"], doc["actions"], doc["outcome"],
                     doc["digest"], doc.get("check"))
        record._verify_check(f"{path}: ")
        return record

    def new_env(self) -> raw_env:
        """A new env of the record's options, reset with its seed: the game before its first
        action. Raises :class:`RecordError` naming the field when no env takes them (another
        ruleset's option, an unknown one, a bad value, a negative or null seed)."""
        # The replay's entry point into the env layer, imported here, not at the top: records
        # sit below the env (which imports this module); docs/layers.md, "Exemptions".
        from .env import raw_env

        try:
            e = raw_env(**self.options)
        except (ValueError, TypeError, KeyError) as err:  # OptionError is a ValueError
            raise RecordError(f"record field 'options': {err}") from None
        if self.seed is None:  # reset would draw a seed: another game
            raise RecordError("record field 'seed' is null: a game replays only from the seed "
                              "it was played from")
        try:
            e.reset(seed=self.seed)
        except (ValueError, TypeError, OverflowError) as err:
            raise RecordError(f"record field 'seed': {self.seed!r} does not seed a game: "
                              f"{err}") from None
        return e

    def replay(self) -> raw_env:
        """A new env with the record's game played through. Raises :class:`RecordError` when the
        check does not match the record, when the options or the seed make no game, when an
        action is not legal (naming its index), when actions follow the end of the game, or
        when the replayed game's outcome or final state differs from the recorded ones."""
        for e, index in self.walk():
            if index is None:
                return e
        raise AssertionError("walk() always ends with (env, None)")  # pragma: no cover

    def walk(self) -> Iterator[tuple[raw_env, int | None]]:
        """Play the record: ``(env, i)`` before action ``i`` (the live env: its state is the one
        the action is taken in), then ``(env, None)`` after the last, once the outcome and the
        final state are checked. The one replay loop: :meth:`replay` and the replay viewer's
        decision log (``got_env.render.log.walk``) both use it, with the same errors."""
        self._verify_check()
        e = self.new_env()
        for i, a in enumerate(self.actions):
            if not e.agents or e.game.pending is None:
                raise RecordError(f"record has {len(self.actions) - i} actions after the game "
                                  f"ended (from index {i})")
            yield e, i
            try:
                e.step(a)
            except engine.IllegalActionError as err:
                raise RecordError(f"action at index {i} of the record does not replay: "
                                  f"{err}") from None
        self._verify_end(e.record)
        yield e, None

    def _verify_check(self, where: str = "") -> None:
        """RecordError unless the record is as it was when its check was taken (no check: no
        test)."""
        if self.check is not None and self.check != self.content_check():
            raise RecordError(f"{where}the record was changed after it was taken: its 'check' "
                              f"does not match its options, seed, actions, outcome and digest")

    def _verify_end(self, replayed: GameRecord) -> None:
        """RecordError unless the replay ends as recorded. A record with a digest (every saved
        one) states its outcome too, null meaning a game still on; a record built by hand
        without either is only played through."""
        states_outcome = self.outcome is not None or self.digest is not None
        if states_outcome and replayed.outcome != self.outcome:
            raise RecordError(f"the replayed game's outcome {_outcome_text(replayed.outcome)} "
                              f"differs from the record's 'outcome' "
                              f"{_outcome_text(self.outcome)}")
        if self.digest is not None and replayed.digest != self.digest:
            raise RecordError(f"the replayed game's final state (digest {replayed.digest[:12]}) "
                              f"differs from the record's 'digest' ({self.digest[:12]})")


def _check_fields(doc: dict[str, Any], fields: tuple[str, ...], path: str | Path) -> None:
    """RecordError naming the first unknown, missing or mistyped field of a saved record."""
    unknown = sorted(set(doc) - {"format", *fields})
    if unknown:
        raise RecordError(f"{path}: unknown field(s) {unknown} in a record of format "
                          f"{doc['format']!r} (its fields: {['format', *fields]})")
    missing = [f for f in fields if f not in doc]
    if missing:
        raise RecordError(f"{path}: field {missing[0]!r} is missing")
    seed, actions, outcome = doc["seed"], doc["actions"], doc["outcome"]
    if not isinstance(doc["options"], dict):
        raise RecordError(f"{path}: 'options' must be a mapping")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"{path}: 'seed' must be an integer (the game's seed)")
    if not isinstance(actions, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in actions):
        raise RecordError(f"{path}: 'actions' must be a list of integers")
    if outcome is not None and not (isinstance(outcome, dict)
                                    and set(outcome) - {"draw"} == {"reason", "winner",
                                                                   "ranking"}):
        raise RecordError(f"{path}: 'outcome' must be null or have reason, winner, ranking "
                          f"(and draw, for a drawn game)")
    if not isinstance(doc["digest"], str):
        raise RecordError(f"{path}: 'digest' must be the final state's digest (a string)")
    if "check" in fields and not isinstance(doc["check"], str):
        raise RecordError(f"{path}: 'check' must be the record's check (a string)")


def _outcome_text(outcome: dict[str, Any] | None) -> str:
    """An outcome in an error message; null is a game still on."""
    return "null (a game still on)" if outcome is None else str(outcome)
