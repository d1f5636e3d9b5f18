"""Typed engine frames: a step's locals as a slotted dataclass with enums, instead of a dict
keyed by strings (issue 25, item 3). Only the combat is typed so far (it is the biggest frame);
the other steps keep plain dicts (got_env.engine.flow).

A typed frame stays a drop-in for the dict it replaces, because the frame stack's mechanics
and the game records are built on dicts:

* ``frame["step"]`` routes it (:func:`got_env.engine.flow.advance`) and ``frame[key]``,
  ``get``, ``in``, ``setdefault`` and ``pop`` still work, so code that is not typed yet (tests,
  the human UI, the invariants) reads it as before;
* :meth:`CombatFrame.to_dict` rebuilds the old dict exactly (the same keys present, the same
  values; enums are ``str`` subclasses equal to the old strings), and the state digest hashes
  that, so a typed combat hashes to the bytes the dict did: recorded games replay unchanged;
* :meth:`CombatFrame.from_dict` reads the old dict (a March pushes one; scenarios build
  positions from dicts).

A key the dict did not have yet is a field holding :data:`MISSING` (not None: several fields
may hold None, and whether a key is there was part of the state).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar


class _Missing(enum.Enum):
    """The type of :data:`MISSING` (an enum member: one object, kept by pickling)."""

    MISSING = enum.auto()

    def __repr__(self) -> str:
        return "MISSING"


#: A field whose key the old dict did not have (yet).
MISSING = _Missing.MISSING


class Side(enum.StrEnum):
    """A side of a combat. ``str``-valued: equal to (and hashed as) the strings the frames held,
    so dicts keyed by side and the digest see no difference."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return _OTHER[self]


_OTHER = {Side.ATTACKER: Side.DEFENDER, Side.DEFENDER: Side.ATTACKER}
SIDES = (Side.ATTACKER, Side.DEFENDER)


class CombatStage(enum.StrEnum):
    """Where a combat stands (combat.py walks them in this order). Values are the strings the
    dict frame held in ``"stage"``."""

    SUPPORT = "support"
    REFUSE = "refuse"
    CARDS = "cards"
    REVEAL = "reveal"
    TIDES_DRAW = "tides_draw"
    TIDES_REDRAW = "tides_redraw"
    BLADE = "blade"
    RESOLVE = "resolve"
    AFTER_WINNER = "after_winner"
    CASUALTIES = "casualties"
    RETREAT = "retreat"
    RETREAT_MOVE = "retreat_move"
    RETREAT_LOSSES = "retreat_losses"
    CLEANUP = "cleanup"
    STAY_LOSSES = "stay_losses"
    AFTER_COMBAT = "after_combat"
    END = "end"


#: (timing, side, card): an ability step already pushed in this part of the combat.
AbilityKey = tuple[str, Side, int]

# fields whose values are a Side, and those whose values are a Side inside containers: what
# from_dict / __setitem__ turn from plain strings into enums
_SIDE_FIELDS = frozenset({"blade_side", "blade", "winner", "loser", "won_at_once"})


@dataclass(slots=True, eq=True)
class CombatFrame:
    """One combat's locals (combat.py describes what each means and who sets it). The first six
    come from the March that starts it; the others appear as the combat goes (:data:`MISSING`
    until then)."""

    step: ClassVar[str] = "combat"

    attacker: int
    defender: int
    area: int
    origin: int
    units: list[int]  # the attacking units still waiting in ``origin``
    march_bonus: int
    stage: CombatStage | _Missing = MISSING
    support_given: dict[int, Side] | _Missing = MISSING  # Support area -> side it backs
    asked: list[int] | _Missing = MISSING
    march_token: int | _Missing = MISSING
    support_areas: dict[int, list[int]] | _Missing = MISSING
    refusals: list[list] | _Missing = MISSING  # [side, supporter] pairs asked so far
    cards: dict[Side, int | None] | _Missing = MISSING
    tides_deck: list[int] | _Missing = MISSING
    tides: dict[Side, int] | _Missing = MISSING
    revealed: bool | _Missing = MISSING
    abilities_done: dict[AbilityKey, None] | _Missing = MISSING  # an ordered set
    blade_side: Side | _Missing = MISSING
    tides_revealed: bool | _Missing = MISSING
    blade: Side | _Missing = MISSING
    strength: dict[Side, int] | _Missing = MISSING
    winner: Side | _Missing = MISSING
    loser: Side | _Missing = MISSING
    casualties: list[list] | _Missing = MISSING  # [side, casualties left]
    retreat_to: int | _Missing = MISSING
    retreated: list[int] | _Missing = MISSING
    control_before_retreat: list[int] | _Missing = MISSING
    stayed: list[int] | _Missing = MISSING
    entered: list[int] | _Missing = MISSING
    won_at_once: Side | _Missing = MISSING
    retreat_chooser: int | _Missing = MISSING
    attackers_stay: bool | _Missing = MISSING
    card_to_hand: list[Side] | _Missing = MISSING

    # -- the typed reading ------------------------------------------------------------------
    def house(self, side: str) -> int:
        """The house fighting on ``side``."""
        return self.attacker if side == Side.ATTACKER else self.defender

    def side_of(self, house: int) -> Side | None:
        """The side ``house`` fights on, None if it is not a combatant (the attacker's on the
        impossible tie, as the dict frame's readers did)."""
        if house == self.attacker:
            return Side.ATTACKER
        return Side.DEFENDER if house == self.defender else None

    # -- the old dict, both ways (digest, records, scenarios) -------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The dict frame this one replaces, key for key (``abilities_done`` as its old
        ``"timing:side:card"`` strings, in the order pushed)."""
        out: dict[str, Any] = {"step": self.step}
        for name in _FIELD_NAMES:
            value = getattr(self, name)
            if value is MISSING:
                continue
            if name == "abilities_done":
                value = [f"{timing}:{side}:{card}" for timing, side, card in value]
            out[name] = value
        return out

    @classmethod
    def from_dict(cls, frame: dict[str, Any]) -> CombatFrame:
        """The typed frame of a dict combat frame (the same objects inside, not copies: the
        dict is replaced on the stack, so nothing else holds them)."""
        if frame.get("step", cls.step) != cls.step:
            raise ValueError(f"not a combat frame: {frame.get('step')!r}")
        unknown = set(frame) - _FIELD_SET - {"step"}
        if unknown:
            raise KeyError(f"unknown combat frame keys: {sorted(unknown)}")
        new = cls(frame["attacker"], frame["defender"], frame["area"], frame["origin"],
                  frame["units"], frame["march_bonus"])
        for key, value in frame.items():
            if key != "step":
                new[key] = value
        return new

    def copy_with(self, copy: Callable[[Any], Any]) -> CombatFrame:
        """A copy whose every field is ``copy(field)`` (the state's deep copy of plain
        containers, :meth:`got_env.engine.state.GameState.clone`)."""
        new = object.__new__(CombatFrame)
        for name in _FIELD_NAMES:
            object.__setattr__(new, name, copy(getattr(self, name)))
        return new

    # -- the dict interface, for readers that are not typed yet -----------------------------
    def __getitem__(self, key: str) -> Any:
        if key == "step":
            return self.step
        value = getattr(self, key, MISSING) if key in _FIELD_SET else MISSING
        if value is MISSING:
            raise KeyError(key)
        return value

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in _FIELD_SET:
            raise KeyError(f"a combat frame has no key {key!r}")
        setattr(self, key, _typed_value(key, value))

    def __contains__(self, key: object) -> bool:
        return key == "step" or (key in _FIELD_SET and getattr(self, key) is not MISSING)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key: str, *default: Any) -> Any:
        if key not in self:
            if default:
                return default[0]
            raise KeyError(key)
        value = getattr(self, key)
        setattr(self, key, MISSING)
        return value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, dict):
            return self.to_dict() == other
        if not isinstance(other, CombatFrame):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _FIELD_NAMES)

    __hash__ = None  # type: ignore[assignment]  # mutable


_FIELD_NAMES = tuple(f.name for f in fields(CombatFrame))
_FIELD_SET = frozenset(_FIELD_NAMES)


def _typed_value(key: str, value: Any) -> Any:
    """``value`` for field ``key`` with the strings of the dict frame turned into enums (a
    str-valued enum equals its string, but the engine compares them by identity)."""
    if value is MISSING:
        return value
    if key == "stage":
        return CombatStage(value)
    if key in _SIDE_FIELDS:
        return Side(value)
    if key == "abilities_done":
        if isinstance(value, dict):
            return value
        out: dict[AbilityKey, None] = {}
        for entry in value:
            timing, side, card = entry.split(":") if isinstance(entry, str) else entry
            out[(timing, Side(side), int(card))] = None
        return out
    if key in ("cards", "tides", "strength"):
        return {Side(s): v for s, v in value.items()}
    if key == "support_given":
        return {a: Side(s) for a, s in value.items()}
    if key in ("refusals", "casualties"):
        return [[Side(s), n] for s, n in value]
    if key == "card_to_hand":
        return [Side(s) for s in value]
    return value


def typed_combat(stack: list, index: int = -1) -> CombatFrame:
    """The combat frame at ``stack[index]``, made typed in place if it is still a dict."""
    frame = stack[index]
    if type(frame) is dict:
        frame = stack[index] = CombatFrame.from_dict(frame)
    return frame


def other(side: str) -> Side:
    """The side opposing ``side`` (a :class:`Side` or its string)."""
    return _OTHER[side]
