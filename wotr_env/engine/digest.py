"""A stable hash of a game: equal digests, equal games (records, replays, determinization tests).

:func:`digest` walks every field of :class:`~wotr_env.engine.state.WotrState` (so a field that a
rule module adds later is covered without a change here): arrays by dtype, shape and bytes;
piles in their order; each frame of the stack by its type's name and its fields; the pending
decision by player, kind, options and secrecy; the generator's state and the scripted draws
still to come (two states that will roll differently are different games); the ruleset by name
and rule properties (a test may play a property flipped). Plain data (the log, the piles) is
hashed through its ``repr`` (fast: a long game's log holds thousands of entries); whatever a
``repr`` would not show stably (an address, a set's order, which follows the hash seed, a
summarised array) is walked into ints, strings and type names instead, so the digest is the same
in another process.

A walked value of a type this module does not know raises ``TypeError`` naming the field, rather
than hashing something unstable such as a default ``repr`` with an address.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import re
from collections import deque
from typing import Any

import numpy as np

from boardkit.frames import Frame

from ..data import Ruleset
from .chance import Chance
from .decision import Decision
from .state import WotrState

# What makes a ``repr`` unfit to hash: an address, a set (its order follows the hash seed), a
# dict (its values may be anything), an array's summary ("..."); such a value is walked instead.
_UNSTABLE = re.compile(r" at 0x|\{|set\(|\.\.\.")
# Objects without a plain repr of their own, and the stack (a frame's repr could leave out a
# field or be its own; walked, every dataclass field counts): small, so walking them is cheap.
_WALKED = ("ruleset", "chance", "pending", "stack")


def digest(state: WotrState) -> str:
    """The SHA-256 hex digest of everything that makes ``state`` the game it is."""
    h = hashlib.sha256()
    for f in dataclasses.fields(state):
        h.update(f.name.encode())
        h.update(b"=")
        _feed(h, getattr(state, f.name), f.name)
        h.update(b";")
    return h.hexdigest()


def _feed(h: Any, v: Any, where: str) -> None:
    """Hash ``v`` into ``h``; ``where`` names the value in an error. Plain data (the log, the
    piles) is hashed through its ``repr``, which is fast; anything else is walked by
    :func:`_plain`."""
    if isinstance(v, np.ndarray):
        h.update(f"a{v.dtype.str}{v.shape}:".encode())
        h.update(np.ascontiguousarray(v).tobytes())
        return
    text = None if where in _WALKED else repr(v)
    if text is None or _UNSTABLE.search(text):
        text = repr(_plain(v, where))
    h.update(text.encode())


_ATOMS = frozenset({int, str, bool, float, type(None)})


def _plain(v: Any, where: str) -> Any:
    """``v`` as nested tuples of ints, floats, strings, bools and None (a stable ``repr``)."""
    kind = type(v)
    if kind in _ATOMS:
        return v
    if (kind is tuple or kind is list) and all(type(x) in _ATOMS for x in v):
        return tuple(v)  # the common case (log entries, piles): no recursion
    if isinstance(v, enum.Enum):
        return (type(v).__name__, v.name)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.ndarray):
        return ("array", v.dtype.str, v.shape, v.tolist())
    if isinstance(v, (list, tuple, deque)):
        return tuple(_plain(x, f"{where}[{i}]") for i, x in enumerate(v))
    if isinstance(v, (set, frozenset)):
        return ("set", tuple(sorted((_plain(x, where) for x in v), key=repr)))
    if isinstance(v, dict):
        return ("dict", tuple(sorted(((_plain(k, where), _plain(x, f"{where}[{k!r}]"))
                                      for k, x in v.items()), key=repr)))
    if isinstance(v, Decision):
        return ("decision", v.player, _plain(v.kind, where), _plain(v.options, where), v.secret)
    if isinstance(v, Chance):
        return ("chance", _plain(v.rng.bit_generator.state, f"{where}.rng"),
                _plain(v.rolls, where), _plain(v.tiles, where), _plain(v.companions, where))
    if isinstance(v, Ruleset):
        return ("ruleset", v.name, _plain(v.rules.to_json(), where))
    if isinstance(v, Frame) or dataclasses.is_dataclass(v):
        names = ([f.name for f in dataclasses.fields(v)] if dataclasses.is_dataclass(v)
                 else sorted(vars(v)))
        return (type(v).__name__,
                tuple((n, _plain(getattr(v, n), f"{where}.{n}")) for n in names))
    raise TypeError(f"digest: {where} holds a {type(v).__name__}, which has no stable digest")


__all__ = ["digest"]
