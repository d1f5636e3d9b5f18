"""Game records of every kit game, in one format: what replays a game exactly, with a check over
the whole content, and the one replay loop (docs/replay.md "Records", docs/env.md "Records").

A :class:`GameRecord` holds the game's registry name, the options its env was made with, the
seed and every action index, with the outcome, the final state's :meth:`Game.digest` and a
check (SHA-256) over all of these. ``env.record`` gives it (:class:`boardkit.aec.KitEnv`), so a
tool that reads games (the replay viewer, a tournament's pages, the batched API) replays any
game it knows only by name: ``boardkit.envs.make_env(game, **options)``, reset with the seed,
then every action. What a game provides for it is what the kit asks of every game: its env
(:func:`boardkit.envs.make_env`), its ``digest``, its codec's action names.

The file (format :data:`FORMAT`)::

    {"format": "boardkit-record-2", "game": "wotr", "options": {...}, "seed": 7,
     "actions": [3, 0, ...], "outcome": {"reason", "winner", "ranking"} | null,
     "digest": "...", "check": "..."}

Checks, in order (each failure a :class:`RecordError` naming the file, field or check): the
file reads as JSON of this format with every field of its type (:meth:`GameRecord.load`); the
``check`` matches the content, so any edit (one action swapped for another legal one that ends
in the same state included) is refused before anything is played; the game is known and takes
the options and the seed; every action is legal where it stands; the replay ends in the
recorded outcome and digest. A record is data only: nothing in it is imported or run (the game
is looked up in :mod:`boardkit.games`, the options are keyword values of the game's env).

Older formats (:data:`OLD_FORMATS`: AGoT's ``got_env-record-2`` and ``-3``, the kit's
``boardkit-record-1`` of War of the Ring and Goofspiel) are still read: :meth:`GameRecord.load`
checks them as their format did (format 3's own check included), replays them once, and gives
the replayed game's record in this format; :func:`upgrade` (``python -m boardkit.records
FILE...``) rewrites such files in place.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import envs, games

__all__ = ["FIELDS", "FORMAT", "OLD_FORMATS", "GameRecord", "RecordError", "main", "upgrade"]

FORMAT = "boardkit-record-2"
#: the fields of a record file besides ``format``, in the order of the check
FIELDS = ("game", "options", "seed", "actions", "outcome", "digest", "check")
#: formats read and converted on load: format -> (the game it holds, None: the file names it;
#: its fields besides ``format``)
OLD_FORMATS: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "got_env-record-2": ("got", ("options", "seed", "actions", "outcome", "digest")),
    "got_env-record-3": ("got", ("options", "seed", "actions", "outcome", "digest", "check")),
    "boardkit-record-1": (None, ("game", "options", "seed", "actions", "digest")),
}
#: a record file larger than this is refused unread (the longest games take a few hundred KB)
MAX_BYTES = 64 << 20


class RecordError(ValueError):
    """A record that cannot be read, is malformed (the message names the field), was changed
    after it was taken (its check), or does not replay to the game it records."""


@dataclass
class GameRecord:
    """What replays a game exactly: ``make_env(game, **options)``, ``reset(seed)``, then each
    action index; with the outcome, the final state's digest, and a check over all of these.

    :ivar options: every option of the env the game was played in, the game's and the env's
        ``reward`` and ``max_steps`` (a game cut short by ``max_steps`` replays as cut).
    :ivar outcome: ``{"reason", "winner", "ranking"}`` (agent names, best first; AGoT: house
        ids) once the game ended or was truncated (reason ``"truncated"``), else None; with
        ``"draw"`` (the agents that share first place) only when there is a draw.
    :ivar digest: :meth:`Game.digest` of the state after the last action.
    :ivar check: :meth:`content_check` when the record was taken (``env.record``); None for a
        record built by hand, which is checked by its replay only (its outcome and digest
        where it states them).
    """

    game: str
    options: dict[str, Any]
    seed: int | None
    actions: list[int] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    digest: str | None = None
    check: str | None = None

    # -- the check ------------------------------------------------------------------------------
    def content_check(self) -> str:
        """SHA-256 of the record's content (format, game, options, seed, actions, outcome,
        digest) as canonical JSON: any change to any field (a single action included) gives
        another check. One hash over the action list, not one per step: it costs microseconds,
        and the step a change is at does not matter, only that there is one."""
        return _sha256([FORMAT, self.game, self.options, self.seed, self.actions, self.outcome,
                        self.digest])

    def sealed(self) -> GameRecord:
        """A copy whose check is its content's (what ``env.record`` gives)."""
        return replace(self, check=self.content_check())

    def verify_check(self) -> None:
        """RecordError unless the record is as it was when its check was taken (no check: no
        test)."""
        if self.check is not None and self.check != self.content_check():
            raise RecordError("the record was changed after it was taken: its 'check' does not "
                              "match its game, options, seed, actions, outcome and digest")

    # -- files ----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The file's content; a record without a check gets its content's."""
        check = self.check if self.check is not None else self.content_check()
        return {"format": FORMAT, "game": self.game, "options": self.options,
                "seed": self.seed, "actions": self.actions, "outcome": self.outcome,
                "digest": self.digest, "check": check}

    def save(self, path: str | Path) -> None:
        """Write the record as JSON with its check as taken, so that a record changed in memory
        after it was taken fails on load."""
        Path(path).write_text(json.dumps(self.to_json()) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """The record saved at ``path`` (this format, or an older one converted: module
        docstring). RecordError naming the file and what is wrong: a file that is not JSON, too
        large or too deep, another format, a field unknown, missing or of the wrong type, a
        check that does not match; an old-format record that does not replay."""
        try:
            return cls.from_json(_read(path))
        except RecordError as err:
            raise RecordError(f"{path}: {err}") from None

    @classmethod
    def from_json(cls, doc: Any) -> GameRecord:
        """A record from a file's content, every field checked and the check verified; an old
        format's record is replayed once and given in this format."""
        found = doc.get("format") if isinstance(doc, dict) else None
        if found == FORMAT:
            record = cls(**_fields(doc, FIELDS, found))
            record.verify_check()
            return record
        if isinstance(found, str) and found in OLD_FORMATS:
            return _convert(doc, found)
        raise RecordError(f"not a game record of format {FORMAT!r} (nor of an older one, "
                          f"{sorted(OLD_FORMATS)}): 'format' is {str(found)[:60]!r}")

    # -- replaying ------------------------------------------------------------------------------
    def rules(self) -> Any:
        """The recorded game (:class:`boardkit.protocol.Game`); RecordError naming ``game`` for
        one not registered."""
        try:
            return games.get(self.game)
        except KeyError as err:
            raise RecordError(f"record field 'game': {err.args[0]}") from None

    def new_env(self) -> Any:
        """A new env of the record's game and options, reset with its seed: the game before its
        first action. RecordError naming the field when no env takes them (an unknown game,
        another ruleset's option, an unknown one, a bad value, a negative or null seed)."""
        self.rules()
        try:
            env = envs.make_env(self.game, **self.options)
        except (ValueError, TypeError, KeyError, OverflowError) as err:
            raise RecordError(f"record field 'options': {err}") from None
        if self.seed is None:  # reset would draw a seed: another game
            raise RecordError("record field 'seed' is null: a game replays only from the seed "
                              "it was played from")
        try:
            env.reset(seed=self.seed)
        except (ValueError, TypeError, OverflowError) as err:
            raise RecordError(f"record field 'seed': {self.seed!r} does not seed a game: "
                              f"{err}") from None
        return env

    def replay(self) -> Any:
        """A new env with the record's game played through (every check of :meth:`walk`)."""
        for env, index in self.walk():
            if index is None:
                return env
        raise AssertionError("walk() always ends with (env, None)")  # pragma: no cover

    def walk(self) -> Iterator[tuple[Any, int | None]]:
        """Play the record: ``(env, i)`` before action ``i`` (the live env: its ``game`` is the
        state the action is taken in), then ``(env, None)`` after the last, once the outcome and
        the final state are checked. The one replay loop (:meth:`replay`, the replay viewer's
        views), with the same errors: the check first, then the game, options and seed, each
        action (legal where it stands, not after the end), the outcome and the digest."""
        self.verify_check()
        env = self.new_env()
        rules, codec = env.rules, env.codec
        for i, index in enumerate(self.actions):
            decision = rules.pending(env.game)
            if decision is None or not env.agents or env.truncations[env.agent_selection]:
                raise RecordError(f"record has {len(self.actions) - i} actions after the game "
                                  f"ended (from index {i})")
            if not 0 <= index < codec.size or codec.decode(index) not in decision.options:
                raise RecordError(f"action at index {i} of the record does not replay: action "
                                  f"{index} is not legal for {decision.kind.label}")
            yield env, i
            env.step(index)
        self._verify_end(env.record)
        yield env, None

    def _verify_end(self, replayed: GameRecord) -> None:
        """RecordError unless the replay ends as recorded. A record with a digest states its
        outcome too, null meaning a game still on; one built by hand without either is only
        played through."""
        states_outcome = self.outcome is not None or self.digest is not None
        if states_outcome and replayed.outcome != self.outcome:
            raise RecordError(f"the replayed game's outcome {_outcome_text(replayed.outcome)} "
                              f"differs from the record's 'outcome' "
                              f"{_outcome_text(self.outcome)}")
        if self.digest is not None and replayed.digest != self.digest:
            raise RecordError(f"the replayed game's final state (digest "
                              f"{str(replayed.digest)[:16]}) differs from the record's 'digest' "
                              f"({self.digest[:16]})")


# -- reading a file -----------------------------------------------------------------------------
def _read(path: str | Path) -> Any:
    """The JSON document at ``path``; RecordError for a file too large, unreadable, not UTF-8,
    not JSON, nested too deep, or holding NaN or Infinity."""
    try:
        if Path(path).stat().st_size > MAX_BYTES:
            raise RecordError(f"larger than {MAX_BYTES >> 20} MiB: not a game record")
        return json.loads(Path(path).read_text(encoding="utf-8"), parse_constant=_no_constant)
    except RecordError:
        raise
    except (OSError, ValueError, RecursionError) as err:  # ValueError: JSON, UTF-8, long ints
        raise RecordError(f"cannot read game record: {err}") from None


def _sha256(content: list[Any]) -> str:
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _no_constant(name: str) -> Any:
    """JSON's NaN and Infinity are no values of a record."""
    raise RecordError(f"{name} is not a value of a game record")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_names(x: object) -> bool:
    return isinstance(x, list) and all(isinstance(n, str) for n in x)


def _is_outcome(x: object) -> bool:
    """Null, or ``{"reason", "winner", "ranking"}`` (and ``"draw"``) of names."""
    if x is None:
        return True
    return (isinstance(x, dict) and set(x) - {"draw"} == {"reason", "winner", "ranking"}
            and isinstance(x["reason"], str) and isinstance(x["winner"], str)
            and _is_names(x["ranking"]) and _is_names(x.get("draw", [])))


#: each field's test and what it must be (the error's words)
_FIELD_TYPES: dict[str, tuple[Any, str]] = {
    "game": (lambda x: isinstance(x, str), "the game's registry name (a string)"),
    "options": (lambda x: isinstance(x, dict), "a mapping of option names to values"),
    "seed": (_is_int, "an integer (the game's seed)"),
    "actions": (lambda x: isinstance(x, list) and all(map(_is_int, x)),
                "a list of integers (action indices)"),
    "outcome": (_is_outcome, "null or have reason, winner, ranking (and draw, for a drawn game)"),
    "digest": (lambda x: isinstance(x, str), "the final state's digest (a string)"),
    "check": (lambda x: isinstance(x, str), "the record's check (a string)"),
}


def _fields(doc: dict[str, Any], fields: tuple[str, ...], found: str) -> dict[str, Any]:
    """The fields of a file of format ``found``; RecordError naming the first unknown, missing
    or mistyped one."""
    unknown = sorted(set(doc) - {"format", *fields})
    if unknown:
        raise RecordError(f"unknown field(s) {unknown[:5]} in a record of format {found!r} "
                          f"(its fields: {['format', *fields]})"[:300])
    missing = [f for f in fields if f not in doc]
    if missing:
        raise RecordError(f"field {missing[0]!r} is missing")
    for name in fields:
        test, what = _FIELD_TYPES[name]
        if not test(doc[name]):
            raise RecordError(f"field {name!r} must be {what}")
    return {name: doc[name] for name in fields}


# -- older formats ------------------------------------------------------------------------------
def _convert(doc: dict[str, Any], found: str) -> GameRecord:
    """An old format's record as this format's: its fields checked as they were, format 3's
    own check verified, then replayed (checked against its outcome where it has one, and its
    digest) into the replayed game's record."""
    game, fields = OLD_FORMATS[found]
    values = _fields(doc, fields, found)
    if "check" in values:  # got_env-record-3: the check over format, options, ..., digest
        old = _sha256([found, *(values[f] for f in fields if f != "check")])
        if values["check"] != old:
            raise RecordError("the record was changed after it was taken: its 'check' does not "
                              "match its options, seed, actions, outcome and digest")
    by_hand = GameRecord(values.get("game", game), values["options"], values["seed"],
                         values["actions"], values.get("outcome"),
                         values["digest"] if "outcome" in values else None)
    env = by_hand.replay()
    new = env.record
    if new.digest != values["digest"]:  # a format without an outcome: the digest alone
        raise RecordError(f"the replayed game's final state (digest {new.digest[:16]}) differs "
                          f"from the record's 'digest' ({values['digest'][:16]})")
    return new


def upgrade(path: str | Path) -> bool:
    """Rewrite the record at ``path`` in this format (the one-time conversion of an old file);
    False when it is of this format already. RecordError for a file that does not read or
    replay (it is left as it is)."""
    record = GameRecord.load(path)  # every check first: a file that fails stays as it is
    if _read(path).get("format") == FORMAT:
        return False
    record.save(path)
    return True


def main(argv: list[str] | None = None) -> int:
    """``python -m boardkit.records FILE...``: :func:`upgrade` each file; exit status 2 with one
    line naming the first that does not read or replay."""
    p = argparse.ArgumentParser(prog="python -m boardkit.records",
                                description="Rewrite game records of older formats in format "
                                            f"{FORMAT} (each replayed and checked first).")
    p.add_argument("records", nargs="+", help="record files (JSON)")
    args = p.parse_args(argv)
    for path in args.records:
        try:
            changed = upgrade(path)
        except RecordError as err:
            print(f"{p.prog}: error: {' '.join(str(err).splitlines())}", file=sys.stderr)
            return 2
        print(f"{path}: {'upgraded to' if changed else 'already'} {FORMAT}")
    return 0


def _outcome_text(outcome: Mapping[str, Any] | None) -> str:
    """An outcome in an error message; null is a game still on."""
    return "null (a game still on)" if outcome is None else str(dict(outcome))


if __name__ == "__main__":
    sys.exit(main())
