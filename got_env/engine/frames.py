"""What every AGoT frame adds to the kit's :class:`boardkit.frames.Frame`: its step's name, a copy
of its fields for a cloned state, and the items the state's digest hashes.

Every step of the engine is a small slotted dataclass, a :class:`GotFrame` with its own ``run``
and ``act`` (DESIGN.md; the loop is :mod:`boardkit.frames`), declared beside the rules it runs:
the round loop (game.py), the phases and their steps (planning.py, action_phase.py,
westeros.py, ...), the combat (combat/frame.py), the house cards' ability steps (abilities/). Unlike
War of the Ring's, AGoT's frames keep lists and dicts that their steps change in place, so a
clone copies those (:meth:`GotFrame.copy`).

The digest (:meth:`got_env.engine.state.GameState.digest`) hashes a frame by
:meth:`GotFrame.digest_items`: its step's name and its fields, except the fields a frame does
not have yet. Those are declared per class: ``OPTIONAL`` fields are left out while None (the
steps fill them as they go: a combat's winner, a Raid's second target), and ``PRESENT_WITH``
fields come and go with another one (a March's ``attack``, None when it has none, is there once
its ``stage`` is). The frames replaced dicts whose keys came and went so; hashing the same items
keeps the digest of every recorded game.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, TypeVar

import numpy as np

from boardkit.frames import Frame

F = TypeVar("F", bound="GotFrame")

# frame class -> its field names, in declaration order (filled on first use)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """The field names of frame class ``cls``, in declaration order."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def copy_plain(v: Any) -> Any:
    """Copy plain containers (dict/list of scalars and arrays) without ``copy.deepcopy``."""
    if isinstance(v, dict):
        return {k: copy_plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [copy_plain(x) for x in v]
    if isinstance(v, np.ndarray):
        return v.copy()
    return v


class GotFrame(Frame):
    """One step of AGoT's procedure: a slotted dataclass with ``run`` and ``act``.

    ``step`` names the step (the digest hashes it, a log may show it); ``OPTIONAL`` names the
    fields left out of the digest while None, ``PRESENT_WITH`` (field -> field) those hashed
    only while the other one is not None (see the module docstring)."""

    __slots__ = ()

    step: ClassVar[str]
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    PRESENT_WITH: ClassVar[dict[str, str]] = {}

    def copy(self: F) -> F:
        """A copy sharing no list or dict with this frame (a clone's own frame)."""
        cls = type(self)
        new = object.__new__(cls)
        for name in _FIELD_NAMES.get(cls) or field_names(cls):
            object.__setattr__(new, name, copy_plain(getattr(self, name)))
        return new

    def digest_items(self) -> dict[str, Any]:
        """What the digest hashes of this frame: ``step`` and the fields it has now."""
        out: dict[str, Any] = {"step": self.step}
        optional, present_with = self.OPTIONAL, self.PRESENT_WITH
        for name in _FIELD_NAMES.get(type(self)) or field_names(type(self)):
            value = getattr(self, name)
            if value is None and name in optional:
                continue
            if name in present_with and getattr(self, present_with[name]) is None:
                continue
            out[name] = value
        return out
