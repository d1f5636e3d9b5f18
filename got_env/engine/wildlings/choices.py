"""The choices the wildling cards ask (D-10 to D-19; the 1st edition's losses, D-12 in
mustering points): one step, :class:`WildlingChoiceFrame`, one parametrised mechanism, and one
table, :data:`CHOICES`, that gives each decision kind its options and what one pick does; the
readings are recorded in got_env.engine.wildlings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from ...data import UNIT_TYPES
from ..board import destroy_unit, unused_units
from ..decision import DONE, Action, DecisionKind, choice
from ..frames import GotFrame
from ..mustering import COSTS, MusteringFrame, can_muster, mustering_areas
from ..state import FIEFDOMS, FOOTMAN, IRON_THRONE, KINGS_COURT, KNIGHT, CardPlace, GameState
from ..tracks import move_down, move_to_bottom, move_to_top

TRACK_IDS = (IRON_THRONE, FIEFDOMS, KINGS_COURT)
ALL_UNIT_TYPES = tuple(range(len(UNIT_TYPES)))
PREEMPTIVE_RAID_DROP = 2  # positions on the track, facts §9


@dataclass(slots=True)
class WildlingChoiceFrame(GotFrame):
    """One card choice: its ``kind`` (which choice, and so its options and what a pick does:
    :data:`CHOICES`), the ``house`` it is about, the picks (or, with ``points``, mustering
    points) ``left``, the ``player`` asked (the house itself, but the Iron Throne holder for
    Preemptive Raid's track). The rest only where a kind needs it (whoever asks gives at most
    one of the three groups; the others stay None): ``areas`` (None: anywhere, hashed with
    ``same_area``) and ``same_area`` for the units destroyed, ``tracks`` for Preemptive Raid's
    tied highest tracks, ``points`` for the 1st edition's losses in mustering points."""

    step: ClassVar[str] = "wildling_choice"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"same_area", "tracks", "points"})
    PRESENT_WITH: ClassVar[dict[str, str]] = {"areas": "same_area"}

    kind: DecisionKind
    house: int
    left: int
    player: int
    areas: list[int] | None = None
    same_area: bool | None = None
    tracks: list[int] | None = None
    points: bool | None = None

    def run(self, state: GameState) -> Decision | None:
        """Ask the next pick of a card choice, or end it (D-10 to D-19)."""
        spec = self.spec()
        if self.left > 0 and spec.settle is not None:
            spec.settle(state, self)
        options = spec.options(state, self) if self.left > 0 else ()
        if not options:
            state.stack.pop()
            return None
        return Decision(self.player, self.kind, options,
                        context={"house": self.house, "left": self.left})

    def act(self, state: GameState, action: Action) -> None:
        """Play one pick (``("done",)``: no more), and count it off ``left``."""
        if action == DONE:
            self.left = 0
            return
        spec = self.spec()
        spec.pick(state, self, action)
        self.left -= 1 if spec.cost is None else spec.cost(action)

    def spec(self) -> ChoiceSpec:
        """How this choice is asked: its kind's entry, or the 1e losses in mustering points
        (``points``, 1e 5.4 item 5)."""
        return POINT_LOSSES if self.points else CHOICES[self.kind]


@dataclass(frozen=True)
class ChoiceSpec:
    """How one kind of card choice is asked: ``options(state, frame)`` (empty: nothing left to
    choose, the choice ends), ``pick(state, frame, action)`` plays one option other than
    ``("done",)``, and ``settle(state, frame)`` optionally resolves at once what no choice can
    change (it sets ``frame.left`` to 0 when it does)."""

    options: Callable[[GameState, WildlingChoiceFrame], tuple[Action, ...]]
    pick: Callable[[GameState, WildlingChoiceFrame, Action], None]
    settle: Callable[[GameState, WildlingChoiceFrame], None] | None = None
    cost: Callable[[Action], int] | None = None  # how much of ``left`` one pick uses (default 1)


def ask(state: GameState, kind: DecisionKind, house: int, left: int = 1,
        player: int | None = None, **extra) -> None:
    """Push a card choice of ``kind`` about ``house`` (asked of ``player``, default ``house``),
    ``left`` picks at most; ``extra``: the other fields of :class:`WildlingChoiceFrame` the
    kind needs."""
    state.stack.append(WildlingChoiceFrame(kind=DecisionKind(kind), house=house, left=left,
                                           player=house if player is None else player, **extra))


def _optional(options: tuple[Action, ...]) -> tuple[Action, ...]:
    """A "may" choice: the options plus ``("done",)``, or nothing when there is no option."""
    return options + (DONE,) if options else ()


# -- units ------------------------------------------------------------------------------------


def _own_units(state: GameState, house: int, types: tuple[int, ...],
               areas: list[int] | None = None) -> tuple[Action, ...]:
    """("unit", area, type) for each of ``types`` the house has in ``areas`` (None: anywhere)."""
    where = range(state.ruleset.num_areas) if areas is None else sorted(areas)
    units = state.units[:, house, :].tolist()  # one conversion, not a numpy read per unit
    return tuple(("unit", int(a), u) for a in where for u in types if units[a][u])


def _destroy_options(state: GameState, frame: WildlingChoiceFrame) -> tuple[Action, ...]:
    """D-12: one own unit in the allowed areas."""
    return _own_units(state, frame.house, ALL_UNIT_TYPES, frame.areas)


def _destroy_pick(state: GameState, frame: WildlingChoiceFrame, action: Action) -> None:
    """Destroy the unit (§3; no power token is left, R13.1.4); ``same_area``: the next ones must
    come from that area too (The Horde Descends)."""
    _, area, unit_type = action
    destroy_unit(state, area, frame.house, unit_type)
    if frame.same_area:
        frame.areas = [area]


def _destroy_settle(state: GameState, frame: WildlingChoiceFrame) -> None:
    """All the allowed units must go anyway: destroy them without asking."""
    options = _destroy_options(state, frame)
    areas = {a for _, a, _ in options}
    count = sum(int(state.units[a, frame.house, u]) for _, a, u in options)
    if count <= frame.left and (len(areas) <= 1 or not frame.same_area):
        for _, a, u in options:
            while state.units[a, frame.house, u]:
                destroy_unit(state, a, frame.house, u)
        frame.left = 0


def _replace_unit(state: GameState, area: int, house: int, old: int, new: int) -> None:
    """One unit of type ``old`` becomes an unused unit of type ``new`` (its old one to the box)."""
    state.units[area, house, old] -= 1
    state.units[area, house, new] += 1
    state.routed[area, house, old] = min(state.routed[area, house, old],
                                         state.units[area, house, old])


def _upgrade_options(state: GameState, frame: WildlingChoiceFrame) -> tuple[Action, ...]:
    """D-13: a Footman anywhere, while an unused Knight is left; or done."""
    if unused_units(state, frame.house, KNIGHT) <= 0:
        return ()
    return _optional(_own_units(state, frame.house, (FOOTMAN,)))


def _upgrade_pick(state: GameState, frame: WildlingChoiceFrame, action: Action) -> None:
    _replace_unit(state, action[1], frame.house, FOOTMAN, KNIGHT)


def _knight_options(state: GameState, frame: WildlingChoiceFrame) -> tuple[Action, ...]:
    """D-14: one own Knight, to be replaced by an unused Footman, or destroyed if none is left."""
    return _own_units(state, frame.house, (KNIGHT,))


def _knight_pick(state: GameState, frame: WildlingChoiceFrame, action: Action) -> None:
    _, area, _ = action
    if unused_units(state, frame.house, FOOTMAN) > 0:
        _replace_unit(state, area, frame.house, KNIGHT, FOOTMAN)
    else:
        destroy_unit(state, area, frame.house, KNIGHT)


def _knight_settle(state: GameState, frame: WildlingChoiceFrame) -> None:
    """Every Knight is affected and Footmen are enough for all, or for none: no choice left."""
    h = frame.house
    knights = int(state.units[:, h, KNIGHT].sum())
    footmen = unused_units(state, h, FOOTMAN)
    if frame.left >= knights and (footmen >= knights or footmen <= 0):
        for _, a, _ in _knight_options(state, frame):
            while state.units[a, h, KNIGHT]:
                _knight_pick(state, frame, ("unit", a, KNIGHT))
        frame.left = 0


# -- 1e losses in mustering points (1e 5.4 item 5, reading C.10) -----------------------------


def _unit_values(state: GameState, house: int) -> list[int]:
    """The mustering-point worth of each of the house's units on the board (1e 5.4 item 5)."""
    counts = state.units[:, house, :].sum(axis=0).tolist()
    return [COSTS[u] for u in ALL_UNIT_TYPES for _ in range(counts[u])]


def _payable(values: list[int]) -> set[int]:
    """Every total that some of these units make together (0 included)."""
    totals = {0}
    for v in values:
        totals |= {t + v for t in totals}
    return totals


def loss_total(state: GameState, house: int, owed: int) -> int:
    """Points the house actually removes when it owes ``owed`` (reading C.10): the smallest total
    of at least ``owed`` its units can make, or all its units when they are worth less."""
    values = _unit_values(state, house)
    if sum(values) <= owed:
        return sum(values)
    return min(t for t in _payable(values) if t >= owed)


def _point_loss_options(state: GameState, frame: WildlingChoiceFrame) -> tuple[Action, ...]:
    """D-12 in points: each own unit worth no more than is left to pay and after whose removal
    the rest can still be paid exactly."""
    house, left = frame.house, frame.left
    values = _unit_values(state, house)
    allowed = set()
    for v in set(values):
        rest = list(values)
        rest.remove(v)
        if v <= left and left - v in _payable(rest):
            allowed.add(v)
    return tuple(a for a in _own_units(state, house, ALL_UNIT_TYPES) if COSTS[a[2]] in allowed)


def _point_loss_pick(state: GameState, frame: WildlingChoiceFrame, action: Action) -> None:
    """Remove the unit whole (no knight is downgraded; no power token is left, 1e 5.4 item 5)."""
    _, area, unit_type = action
    destroy_unit(state, area, frame.house, unit_type)


def _point_loss_settle(state: GameState, frame: WildlingChoiceFrame) -> None:
    """Every unit left must go: remove them all without asking."""
    house = frame.house
    if sum(_unit_values(state, house)) > frame.left:
        return
    for _, a, u in _own_units(state, house, ALL_UNIT_TYPES):
        while state.units[a, house, u]:
            destroy_unit(state, a, house, u)
    frame.left = 0


POINT_LOSSES = ChoiceSpec(_point_loss_options, _point_loss_pick, _point_loss_settle,
                          cost=lambda action: COSTS[action[2]])


# -- cards in hand ----------------------------------------------------------------------------


def _massing_options(state: GameState, frame: WildlingChoiceFrame) -> tuple[Action, ...]:
    """D-15: one card in hand, if the house holds 2 or more."""
    hand = state.hand(frame.house)
    return tuple(("card", c) for c in hand) if len(hand) >= 2 else ()


def _to_discard(state: GameState, frame: WildlingChoiceFrame, action: Action) -> None:
    state.card_place[action[1]] = CardPlace.DISCARD


def _retrieve_options(state: GameState, frame: WildlingChoiceFrame) -> tuple[Action, ...]:
    """D-18: one card of the discard pile, or none."""
    return _optional(tuple(("card", c) for c in state.discards(frame.house)))


def _to_hand(state: GameState, frame: WildlingChoiceFrame, action: Action) -> None:
    state.card_place[action[1]] = CardPlace.HAND


# -- tracks -----------------------------------------------------------------------------------


def _tracks(*tracks: int) -> Callable[[GameState, WildlingChoiceFrame], tuple[Action, ...]]:
    """Options ("track", t) for fixed tracks (D-16, D-17)."""
    return lambda state, frame: tuple(("track", t) for t in tracks)


def _frame_tracks(state: GameState, frame: WildlingChoiceFrame) -> tuple[Action, ...]:
    """D-11: the tracks listed in the frame (where the house stands equally high)."""
    return tuple(("track", t) for t in frame.tracks)


def _on_track(move: Callable[[GameState, int, int], None]) -> Callable[..., None]:
    """A pick ("track", t) that moves the house on t with ``move(state, t, house)``."""
    return lambda state, frame, action: move(state, action[1], frame.house)


def _drop(state: GameState, track: int, house: int) -> None:
    move_down(state, track, house, PREEMPTIVE_RAID_DROP)


def highest_tracks(state: GameState, house: int) -> list[int]:
    """The influence tracks where ``house`` stands highest (nearest to position 1)."""
    pos = [state.track_position(t, house) for t in TRACK_IDS]
    return [t for t, p in zip(TRACK_IDS, pos, strict=True) if p == min(pos)]


# -- the rest ---------------------------------------------------------------------------------


def _penalty_pick(state: GameState, frame: WildlingChoiceFrame, action: Action) -> None:
    """D-10: destroy 2 units (-> D-12) or drop 2 places on his highest track (-> D-11, asked of
    the Iron Throne holder, facts §12 D9)."""
    h = frame.house
    if action == choice("destroy-units"):
        ask(state, DecisionKind.WILDLING_DESTROY_UNITS, h, left=2, areas=None, same_area=False)
    else:
        ask(state, DecisionKind.PREEMPTIVE_RAID_TRACK, h, player=state.holder(IRON_THRONE),
            tracks=highest_tracks(state, h))


def _muster_options(state: GameState, frame: WildlingChoiceFrame) -> tuple[Action, ...]:
    """D-19: one own Castle/Stronghold area where mustering can place something (R8), or
    none."""
    h, points = frame.house, state.ruleset.fort_level
    return _optional(tuple(("area", a) for a in mustering_areas(state, h)
                           if can_muster(state, h, a, int(points[a]))))


def _muster_pick(state: GameState, frame: WildlingChoiceFrame, action: Action) -> None:
    """Normal mustering (R8), in that one area only."""
    state.stack.append(MusteringFrame(houses=[frame.house], areas=[action[1]]))


K = DecisionKind
CHOICES: dict[DecisionKind, ChoiceSpec] = {
    K.PREEMPTIVE_RAID_PENALTY: ChoiceSpec(
        lambda state, frame: (choice("destroy-units"), choice("drop-on-track")), _penalty_pick),
    K.PREEMPTIVE_RAID_TRACK: ChoiceSpec(_frame_tracks, _on_track(_drop)),
    K.WILDLING_DESTROY_UNITS: ChoiceSpec(_destroy_options, _destroy_pick, _destroy_settle),
    K.CROW_KILLERS_UPGRADE: ChoiceSpec(_upgrade_options, _upgrade_pick),
    K.CROW_KILLERS_REPLACE: ChoiceSpec(_knight_options, _knight_pick, _knight_settle),
    K.MASSING_DISCARD: ChoiceSpec(_massing_options, _to_discard),
    K.KING_BEYOND_THE_WALL_TOP: ChoiceSpec(_tracks(*TRACK_IDS), _on_track(move_to_top)),
    K.KING_BEYOND_THE_WALL_BOTTOM: ChoiceSpec(_tracks(FIEFDOMS, KINGS_COURT),
                                              _on_track(move_to_bottom)),
    K.MAMMOTH_RIDERS_RETRIEVE: ChoiceSpec(_retrieve_options, _to_hand),
    K.HORDE_DESCENDS_MUSTER: ChoiceSpec(_muster_options, _muster_pick),
}
