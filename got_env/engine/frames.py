"""Typed engine frames: a step's locals as a slotted dataclass with enums, instead of a dict
keyed by strings (issue 25, item 3). Declared here: the combat, the March, the planning phase,
the wildling attack (the steps with a stage machine) and the port capture; beside their steps:
the round loop (game.py), the action phase and its resolve steps (action_phase.py), the Raid,
Consolidate Power, mustering, supply and reconcile, Clash of Kings (bidding.py) and Westeros
phase frames, the wildling cards' choices (wildling_frames.py), and the house cards' ability
steps (abilities/base.py: one small class per card step, Tyrion's with its stage enum in
abilities/lannister.py). Every step the engine registers has one.

A typed frame stays a drop-in for the dict it replaces, because the frame stack's mechanics
and the game records are built on dicts. :class:`Frame` holds that machinery once, for every
frame class:

* ``frame["step"]`` routes it (:func:`got_env.engine.flow.advance`) and ``frame[key]``,
  ``get``, ``in``, ``setdefault`` and ``pop`` still work, so code that is not typed yet (tests,
  the human UI, the card effects) reads it as before;
* :meth:`Frame.to_dict` rebuilds the old dict exactly (the same keys present, in the order the
  old code added them, the same values; enums are ``str`` subclasses equal to the old strings),
  and the state digest hashes that, so a typed frame hashes to the bytes the dict did: recorded
  games replay unchanged;
* :meth:`Frame.from_dict` reads the old dict (scenarios and tests build positions from dicts;
  the engine's loop makes such a frame typed in place before its step runs, :func:`typed`).

A key the dict did not have yet is a field holding :data:`MISSING` (not None: several fields
may hold None, and whether a key is there was part of the state).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar


class _Missing(enum.Enum):
    """The type of :data:`MISSING` (an enum member: one object, kept by pickling)."""

    MISSING = enum.auto()

    def __repr__(self) -> str:
        return "MISSING"


#: A field whose key the old dict did not have (yet).
MISSING = _Missing.MISSING

Convert = Callable[[Any], Any]


class Frame:
    """What every typed frame shares: the old dict both ways, the copy, the dict interface.

    A subclass is made a frame class by :func:`frame_class`, which turns it into a slotted
    dataclass and records its field names; it declares ``step`` and, where the dict held plain
    strings the typed frame holds as enums (or another shape), ``TYPED`` (key -> the typed value
    of the dict's value) and ``PLAIN`` (key -> the dict's value of the typed one)."""

    __slots__ = ()

    step: ClassVar[str]
    TYPED: ClassVar[dict[str, Convert]] = {}
    PLAIN: ClassVar[dict[str, Convert]] = {}
    # set by frame_class
    FIELDS: ClassVar[tuple[str, ...]] = ()
    FIELD_SET: ClassVar[frozenset[str]] = frozenset()
    REQUIRED: ClassVar[tuple[str, ...]] = ()

    # -- the old dict, both ways (digest, records, scenarios) -------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The dict frame this one replaces, key for key."""
        out: dict[str, Any] = {"step": self.step}
        plain = self.PLAIN
        for name in self.FIELDS:
            value = getattr(self, name)
            if value is MISSING:
                continue
            out[name] = plain[name](value) if name in plain else value
        return out

    @classmethod
    def from_dict(cls: type[F], frame: dict[str, Any]) -> F:
        """The typed frame of a dict frame (the same objects inside, not copies: the dict is
        replaced on the stack, so nothing else holds them)."""
        if frame.get("step", cls.step) != cls.step:
            raise ValueError(f"not a {cls.step} frame: {frame.get('step')!r}")
        unknown = set(frame) - cls.FIELD_SET - {"step"}
        if unknown:
            raise KeyError(f"unknown {cls.step} frame keys: {sorted(unknown)}")
        absent = [k for k in cls.REQUIRED if k not in frame]
        if absent:
            raise KeyError(f"{cls.step} frame without {absent}")
        new = object.__new__(cls)
        for name in cls.FIELDS:
            object.__setattr__(new, name, MISSING)
        for key, value in frame.items():
            if key != "step":
                new[key] = value
        return new

    def copy_with(self: F, copy: Callable[[Any], Any]) -> F:
        """A copy whose every field is ``copy(field)`` (the state's deep copy of plain
        containers, :meth:`got_env.engine.state.GameState.clone`)."""
        new = object.__new__(type(self))
        for name in self.FIELDS:
            object.__setattr__(new, name, copy(getattr(self, name)))
        return new

    # -- the dict interface, for readers that are not typed yet -----------------------------
    def __getitem__(self, key: str) -> Any:
        if key == "step":
            return self.step
        value = getattr(self, key) if key in self.FIELD_SET else MISSING
        if value is MISSING:
            raise KeyError(key)
        return value

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in self.FIELD_SET:
            raise KeyError(f"a {self.step} frame has no key {key!r}")
        typed = self.TYPED.get(key)
        setattr(self, key, value if typed is None or value is MISSING else typed(value))

    def __contains__(self, key: object) -> bool:
        return key == "step" or (key in self.FIELD_SET and getattr(self, key) is not MISSING)

    def keys(self) -> Any:
        """The old dict's keys, so that ``dict(frame)`` gives the old dict (what a test that
        records a step's frame copies)."""
        return self.to_dict().keys()

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
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.FIELDS)

    __hash__ = None  # type: ignore[assignment]  # mutable


F = TypeVar("F", bound=Frame)

#: step name -> its typed frame class (flow.push builds these; :func:`typed` reads dicts).
FRAME_CLASSES: dict[str, type[Frame]] = {}


def step_of(frame: Any) -> str:
    """The step a frame on the stack belongs to, a typed frame's without the dict interface's
    call (a dict frame: one a scenario built, not typed yet)."""
    return frame["step"] if type(frame) is dict else frame.step


def frame_class(cls: type[F]) -> type[F]:
    """Make ``cls`` a frame class: a slotted dataclass (compared by :meth:`Frame.__eq__`), its
    field names recorded, registered under its step."""
    cls = dataclass(slots=True, eq=False)(cls)
    found = fields(cls)
    cls.FIELDS = tuple(f.name for f in found)
    cls.FIELD_SET = frozenset(cls.FIELDS)
    cls.REQUIRED = tuple(f.name for f in found if f.default is dataclasses.MISSING
                         and f.default_factory is dataclasses.MISSING)
    if cls.step in FRAME_CLASSES:
        raise ValueError(f"two frame classes for step {cls.step!r}")
    FRAME_CLASSES[cls.step] = cls
    return cls


def typed(stack: list, index: int = -1) -> Any:
    """The frame at ``stack[index]``, made typed in place if it is a dict of a typed step."""
    frame = stack[index]
    if type(frame) is dict:
        cls = FRAME_CLASSES.get(frame["step"])
        if cls is not None:
            frame = stack[index] = cls.from_dict(frame)
    return frame


def act_by_stage(handlers: dict, state: Any, frame: Any, action: Any) -> None:
    """Play ``action`` with the handler of the stage that asked (``handlers``: stage ->
    function of state, frame, action), (a frame built as a dict is made
    typed by flow before any handler sees it): the one body of every typed step's action handler."""
    act = handlers.get(frame.stage)
    if act is None:
        raise AssertionError(frame.stage)
    act(state, frame, action)


# =============================================================================================
# The combat (combat.py)


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


def _abilities_done(value: Any) -> dict[AbilityKey, None]:
    """The ordered set of ability keys of the dict's ``"timing:side:card"`` strings."""
    if isinstance(value, dict):
        return value
    out: dict[AbilityKey, None] = {}
    for entry in value:
        timing, side, card = entry.split(":") if isinstance(entry, str) else entry
        out[(timing, Side(side), int(card))] = None
    return out


def _by_side(value: dict) -> dict[Side, Any]:
    return {Side(s): v for s, v in value.items()}


def _side_pairs(value: list) -> list[list]:
    return [[Side(s), n] for s, n in value]


@frame_class
class CombatFrame(Frame):
    """One combat's locals (combat.py describes what each means and who sets it). The first six
    come from the March that starts it; the others appear as the combat goes (:data:`MISSING`
    until then)."""

    step: ClassVar[str] = "combat"
    TYPED: ClassVar[dict[str, Convert]] = {
        "stage": CombatStage,
        **dict.fromkeys(("blade_side", "blade", "winner", "loser", "won_at_once"), Side),
        "abilities_done": _abilities_done,
        **dict.fromkeys(("cards", "tides", "strength"), _by_side),
        "support_given": lambda value: {a: Side(s) for a, s in value.items()},
        **dict.fromkeys(("refusals", "casualties"), _side_pairs),
        "card_to_hand": lambda value: [Side(s) for s in value],
    }
    PLAIN: ClassVar[dict[str, Convert]] = {  # the dict held the ability keys as strings
        "abilities_done": lambda value: [f"{t}:{side}:{card}" for t, side, card in value],
    }

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

    def house(self, side: str) -> int:
        """The house fighting on ``side``."""
        return self.attacker if side == Side.ATTACKER else self.defender

    def side_of(self, house: int) -> Side | None:
        """The side ``house`` fights on, None if it is not a combatant (the attacker's on the
        impossible tie, as the dict frame's readers did)."""
        if house == self.attacker:
            return Side.ATTACKER
        return Side.DEFENDER if house == self.defender else None


def typed_combat(stack: list, index: int = -1) -> CombatFrame:
    """The combat frame at ``stack[index]``, made typed in place if it is still a dict."""
    return typed(stack, index)


def other(side: str) -> Side:
    """The side opposing ``side`` (a :class:`Side` or its string)."""
    return _OTHER[side]


# =============================================================================================
# The March (marches.py)


class MarchStage(enum.StrEnum):
    """Where a March stands, in the order it walks them (marches.py)."""

    MOVE = "move"  # its units' moves, one at a time, until "done"
    TOKEN = "token"  # whether to leave a power token in the emptied area (D-28)
    CAPTURES = "captures"  # ports whose land changed hands (AMBIG-15); plays the D-28 answer
    ATTACK = "attack"  # the one attack, if any: a combat is pushed, or a neutral force asked
    NEUTRAL_SUPPORT = "neutral_support"  # D-29, then the neutral force's outcome
    END = "end"  # the order is removed, the March popped (R12.3.8)


@frame_class
class MarchFrame(Frame):
    """One March's locals: ``area`` and ``house`` come from whoever pushes it
    (action_phase.py); ``stage``, ``attack`` (None, or ``{"area", "units"}``: the attacking
    units waiting in ``area``) and ``control_before`` appear on its first run; ``moved`` (moves
    so far) after its first move; ``remove_order`` when an ability keeps its token (Ser Loras);
    ``neutral`` (``{"asked", "helpers"}``: Support order areas) and ``neutral_strength`` in an
    attack on a neutral force."""

    step: ClassVar[str] = "march"
    TYPED: ClassVar[dict[str, Convert]] = {"stage": MarchStage}

    area: int
    house: int
    stage: MarchStage | _Missing = MISSING
    attack: dict[str, Any] | None | _Missing = MISSING
    control_before: list[int] | _Missing = MISSING
    moved: int | _Missing = MISSING
    remove_order: bool | _Missing = MISSING
    neutral: dict[str, list[int]] | _Missing = MISSING
    neutral_strength: int | _Missing = MISSING


# =============================================================================================
# The planning phase (planning.py)


class PlanningStage(enum.StrEnum):
    """Where the planning phase stands (§10, planning.py)."""

    ASSIGN = "assign"  # houses place their orders in turn order (secret)
    RAVEN = "raven"  # the Messenger Raven holder's choice
    SWAP = "swap"  # ... to replace one of its orders
    LOOK = "look"  # ... to look at the top wildling card


@frame_class
class PlanningFrame(Frame):
    """The planning phase's locals: ``stage``, and ``turn`` (houses done placing) once the
    orders are placed."""

    step: ClassVar[str] = "planning_phase"
    TYPED: ClassVar[dict[str, Convert]] = {"stage": PlanningStage}

    stage: PlanningStage | _Missing = MISSING
    turn: int | _Missing = MISSING


# =============================================================================================
# The wildling attack (wildlings.py)


class WildlingStage(enum.StrEnum):
    """Where a wildling attack stands (§20.2, wildlings.py)."""

    BID = "bid"  # the houses bid in turn order (secret)
    TIE = "tie"  # the Iron Throne holder breaks a tie for the highest or lowest bid
    CARD = "card"  # the top card revealed, or (1e) the fixed consequences queued
    EFFECTS = "effects"  # each queued house's part, one at a time
    THREAT = "threat"  # the threat track moves, the attack ends


@frame_class
class WildlingAttackFrame(Frame):
    """One wildling attack's locals: ``strength`` and ``exclude`` (houses taking no part) from
    whoever pushes it; the others all appear on its first run (wildlings._start): one bid per
    house (-1: not yet), whether the Night's Watch won, the chosen (highest or lowest) bidder,
    the tied bidders, the revealed card (-1: none yet), the queue of ``[role, house]`` parts
    still to resolve."""

    step: ClassVar[str] = "wildling_attack"
    TYPED: ClassVar[dict[str, Convert]] = {"stage": WildlingStage}

    strength: int
    exclude: list[int]
    bids: list[int] | _Missing = MISSING
    stage: WildlingStage | _Missing = MISSING
    won: bool | _Missing = MISSING
    chosen: int | _Missing = MISSING
    tied: list[int] | _Missing = MISSING
    card: int | _Missing = MISSING
    queue: list[list[int]] | _Missing = MISSING


# =============================================================================================
# A port changing hands (port_capture.py)


@frame_class
class PortCaptureFrame(Frame):
    """One port capture's locals (D-47), all from whoever pushes it: the ``port``, the
    ``house`` now holding its land area, the ``old`` owner of the ships there. Declared here,
    not beside its step, so that the module asking the question reads it by key unchanged."""

    step: ClassVar[str] = "port_capture"

    port: int
    house: int
    old: int
