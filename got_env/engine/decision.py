"""Decision kinds and actions: the engine's whole surface towards players (DESIGN.md, STYLE.md
§2).

At every moment a game in progress has exactly one pending :class:`boardkit.decision.Decision`:
who chooses, what kind of choice it is (a :class:`DecisionKind`, numbered and named after
``../shared/DECISIONS.md``), its context and its legal options. An **action** is one of those
options: a small tuple whose first item names its kind, e.g. ``("order", area, token)``,
``("bid", 3)``, ``("move", unit_type, destination)``, ``("done",)``. The same tuples become
indices of the fixed action space in the encoding layer.

:class:`IllegalActionError` *is* the kit's (:class:`boardkit.decision.IllegalActionError`), so
that ``except`` on either name catches what the engine, the env and the batched API raise.
"""

from __future__ import annotations

import enum

from boardkit.decision import IllegalActionError

Action = tuple  # ("kind", *ints): see ACTION_KINDS

# Every action kind and the meaning of its integer arguments.
ACTION_KINDS: dict[str, tuple[str, ...]] = {
    "done": (),
    "choice": ("choice",),  # index into CHOICES
    "area": ("area",),
    "order": ("area", "order_token"),
    "bid": ("power",),
    "card": ("house_card",),
    "house": ("house",),
    "track": ("track",),
    "move": ("unit_type", "area"),  # march: one unit of this type from the march area to area
    "unit": ("area", "unit_type"),  # select one own unit (casualty, destruction, upgrade target)
    "muster": ("unit_type", "area"),  # a new unit of this type placed in area
    "upgrade": ("unit_type",),  # a footman of the mustering area becomes this type
    "count": ("n",),  # how many (ships captured in a port)
}

# Named options of "choice" actions (one closed vocabulary, so the action space stays fixed).
CHOICES: tuple[str, ...] = (
    "yes",
    "no",
    "nothing",
    "supply",
    "mustering",
    "clash-of-kings",
    "game-of-thrones",
    "no-defense-orders",
    "no-special-march-orders",
    "swap-order",
    "look-at-wildling-card",
    "keep-on-top",
    "put-on-bottom",
    "support-attacker",
    "support-defender",
    "keep-support",
    "refuse-support",
    "gain-power",
    "destroy-units",
    "drop-on-track",
)


def choice(name: str) -> Action:
    """The action that picks the named choice (raises ValueError for an unknown name)."""
    return ("choice", CHOICES.index(name))


DONE: Action = ("done",)
YES: Action = choice("yes")
NO: Action = choice("no")


class DecisionKind(enum.IntEnum):
    """Kinds of decision, numbered and named as in ../shared/DECISIONS.md (D-01 ... D-49)."""

    THRONE_OF_BLADES = 1
    DARK_WINGS_DARK_WORDS = 2
    PUT_TO_THE_SWORD = 3
    RECONCILE_ARMIES = 4
    MUSTER = 5
    INFLUENCE_BID = 6
    RANK_TIED_BIDDERS = 7
    WILDLING_BID = 8
    WILDLING_TIED_BIDDER = 9
    PREEMPTIVE_RAID_PENALTY = 10
    PREEMPTIVE_RAID_TRACK = 11
    WILDLING_DESTROY_UNITS = 12
    CROW_KILLERS_UPGRADE = 13
    CROW_KILLERS_REPLACE = 14
    MASSING_DISCARD = 15
    KING_BEYOND_THE_WALL_TOP = 16
    KING_BEYOND_THE_WALL_BOTTOM = 17
    MAMMOTH_RIDERS_RETRIEVE = 18
    HORDE_DESCENDS_MUSTER = 19
    PLACE_ORDERS = 20
    RAVEN_USE = 21
    RAVEN_SWAP = 22
    RAVEN_LOOK = 23
    RAID_TO_RESOLVE = 24
    RAID_TARGET = 25
    MARCH_TO_RESOLVE = 26
    MARCH_MOVE = 27
    LEAVE_POWER_TOKEN = 28
    SUPPORT_AGAINST_NEUTRAL = 29
    DECLARE_SUPPORT = 30
    REFUSE_SUPPORT = 31
    HOUSE_CARD = 32
    TYRION_CANCEL = 33
    REPLACEMENT_CARD = 34
    AERON_SWAP = 35
    DORAN_TRACK = 36
    MACE_FOOTMAN = 37
    QUEEN_OF_THORNS_ORDER = 38
    BLADE_REDRAW = 39
    BLADE_PLUS_ONE = 40
    CERSEI_ORDER = 41
    RENLY_UPGRADE = 42
    CASUALTY = 43
    RETREAT_AREA = 44
    RETREAT_SUPPLY_LOSS = 45
    PATCHFACE = 46
    PORT_CAPTURE = 47
    CONSOLIDATE_TO_RESOLVE = 48
    CONSOLIDATE_SPECIAL = 49

    @property
    def label(self) -> str:
        return f"D-{self.value:02d} {self.name}"


__all__ = ["ACTION_KINDS", "CHOICES", "DONE", "NO", "YES", "Action", "DecisionKind",
           "IllegalActionError", "choice"]
