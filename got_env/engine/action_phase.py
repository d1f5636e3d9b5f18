"""Action phase (rules spec §12): raids, marches, consolidate power, cleanup.

Steps 1-3 share one loop (R12.1.1): in turn order, each house resolves one of its orders of the
current type; a house with none left is skipped; round and round until none is left. The house
picks which of its orders to resolve (D-24, D-26, D-48) and the order's own step does the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from ..data import Ruleset
from .consolidate import ConsolidateFrame
from .decision import Action, DecisionKind
from .frames import GotFrame
from .marches import MarchFrame
from .raids import RaidFrame
from .state import IRON_THRONE, GameState

# (order type, decision kind, the frame of the step that resolves one order)
ORDER_STEPS: tuple[tuple[str, DecisionKind, type[GotFrame]], ...] = (
    ("raid", DecisionKind.RAID_TO_RESOLVE, RaidFrame),
    ("march", DecisionKind.MARCH_TO_RESOLVE, MarchFrame),
    ("consolidate-power", DecisionKind.CONSOLIDATE_TO_RESOLVE, ConsolidateFrame),
)


def _tokens_of_type(ruleset: Ruleset) -> dict[str, frozenset[int]]:
    """Order type -> the indices of its order tokens (built once, ``Ruleset.derived``: every
    resolve step looks through the board's orders for one type)."""
    def build(rs: Ruleset) -> dict[str, frozenset[int]]:
        out: dict[str, set[int]] = {}
        for index, t in enumerate(rs.order_tokens):  # the index the ``orders`` array holds
            out.setdefault(t.type, set()).add(index)
        return {k: frozenset(v) for k, v in out.items()}

    return ruleset.derived("tokens_of_type", build)


def orders_by_house(state: GameState, order_type: str) -> dict[int, list[int]]:
    """house -> the areas (ascending) holding an order of ``order_type`` of that house; the
    owner of an order is the house with units in its area (orders lie only where units are).
    One pass over the board serves every house of a resolve step."""
    wanted = _tokens_of_type(state.ruleset).get(order_type, frozenset())
    occupants = state.occupants()
    out: dict[int, list[int]] = {}
    for a, t in enumerate(state.orders.tolist()):
        if t in wanted:
            house = occupants[a]
            areas = out.get(house)
            if areas is None:
                out[house] = [a]
            else:
                areas.append(a)
    return out


@dataclass(slots=True)
class ActionPhaseFrame(GotFrame):
    """The action phase: ``at``, the next part to start (0 raids, 1 marches, 2 consolidate
    power, 3 cleanup); None until its first run, unless a scenario starts it midway."""

    step: ClassVar[str] = "action_phase"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"at"})

    at: int | None = None

    def run(self, state: GameState) -> None:
        """The next resolve step (R12.1.1), or the cleanup (R12.5)."""
        at = 0 if self.at is None else self.at
        if at < len(ORDER_STEPS):
            self.at = at + 1
            state.stack.append(ResolveOrdersFrame(kind=at, last=-1))
            return None
        cleanup(state)
        state.stack.pop()
        return None


@dataclass(slots=True)
class ResolveOrdersFrame(GotFrame):
    """One resolve step: ``kind``, its index in :data:`ORDER_STEPS`, and ``last``, the Iron
    Throne position (0-based) the house that resolved last held when it began its order (-1 at
    start)."""

    step: ClassVar[str] = "resolve_orders"

    kind: int
    last: int

    def run(self, state: GameState) -> Decision | None:
        """The next house to resolve an order of the frame's type.

        The next house is the first one with an order of this type from the *next position* of
        the track as it stands now, wrapping round: the position decides, not the house, so
        when Doran moves a house mid-phase the house now sitting there goes next and another
        may be skipped this round (FAQ; R12.1.1, R21.1)."""
        order_type, kind, _ = ORDER_STEPS[self.kind]
        order = state.turn_order()
        start = (self.last + 1) % len(order)
        by_house = orders_by_house(state, order_type)
        for house in order[start:] + order[:start]:
            areas = by_house.get(house)
            if areas:
                return Decision(house, kind, tuple([("area", a) for a in areas]),
                                context={"order_type": order_type})
        state.stack.pop()
        return None

    def act(self, state: GameState, action: Action) -> None:
        """The chosen order's own step starts (D-24, D-26, D-48)."""
        _, _, frame_class = ORDER_STEPS[self.kind]
        area = action[1]
        house = state.occupants()[area]
        self.last = state.track_position(IRON_THRONE, house)
        state.stack.append(frame_class(area=area, house=house))


def cleanup(state: GameState) -> None:
    """Action step 4 (R12.5): remove the remaining orders, stand routed units up, flip the Raven
    and the Blade back to their available sides."""
    state.orders[:] = -1
    state.orders_revealed = False
    state.routed[:] = 0
    state.blade_used = False
    state.raven_used = False
