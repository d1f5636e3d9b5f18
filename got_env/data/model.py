"""The records of one ruleset's game data (areas, houses, order tokens, cards, setups, rules)
and the frozen :class:`Ruleset` that holds them with its index tables, and the vocabulary the
data files use (area kinds, fortifications, unit types, orders, tracks, decks).

What the data *is*, apart from how it is read and checked (:mod:`.loader`, the only code that
reads the YAML files), so that each module stays small enough to read; every name here is also
importable from :mod:`.loader`, as before the split, and pickles made before it still load.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

# the kit's class, re-exported: one DataError for every game's data
from boardkit.datafiles import DataError as DataError

DATA_ROOT = Path(__file__).resolve().parent
RULESETS = ("2e", "1e")

AREA_KINDS = ("land", "sea", "port")
# "city" is the 1st edition's name for the 2nd edition's castle (1 mustering point, a victory site).
FORTIFICATIONS = ("castle", "city", "stronghold")
UNIT_TYPES = ("footman", "knight", "ship", "siege_engine")
UNIT_LETTERS = {"F": "footman", "K": "knight", "S": "ship", "E": "siege_engine"}
ORDER_TYPES = ("march", "defense", "support", "raid", "consolidate-power")
TRACKS = ("iron-throne", "fiefdoms", "kings-court")
DECK_NAMES = ("I", "II", "III")
PLAYER_COUNTS = (3, 4, 5, 6)
FILES = (
    "rules.yaml",
    "board.yaml",
    "houses.yaml",
    "orders.yaml",
    "tracks.yaml",
    "setups.yaml",
    "house_cards.yaml",
    "westeros.yaml",
)
# Files read only when the ruleset's rules use them (Rules.wildlings, Rules.tides_of_battle).
OPTIONAL_FILES = ("wildling_cards.yaml", "tides_of_battle.yaml")




# ---------------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True)
class Area:
    """One area of the board. ``port_land``/``port_sea`` are set for ports only."""

    index: int
    id: str
    name: str
    kind: str  # land | sea | port
    fortification: str | None  # castle | stronghold | None
    barrels: int
    crowns: int
    home: str | None  # house id whose shield is printed here
    port_land: str | None
    port_sea: str | None

    @property
    def mustering_points(self) -> int:
        """Stronghold 2, castle (1e: city) 1, otherwise 0 (R8.2, 1e spec 2.3)."""
        return {"stronghold": 2, "castle": 1, "city": 1}.get(self.fortification or "", 0)


@dataclass(frozen=True)
class House:
    index: int
    id: str
    name: str
    home: str


@dataclass(frozen=True)
class OrderToken:
    index: int
    id: str
    type: str
    bonus: int | None
    special: bool


@dataclass(frozen=True)
class HouseCard:
    index: int
    id: str
    name: str
    house: str
    strength: int
    swords: int
    fortifications: int
    ability: str | None  # None: a plain card (strength and icons only)
    text: str | None


@dataclass(frozen=True)
class WesterosCard:
    index: int
    id: str
    name: str
    deck: str  # I | II | III
    copies: int
    wildling_icon: bool
    text: str


@dataclass(frozen=True)
class WildlingCard:
    index: int
    id: str
    name: str
    nights_watch_victory: str
    wildling_victory_lowest: str
    wildling_victory_others: str


@dataclass(frozen=True)
class TidesCard:
    index: int
    id: str
    copies: int
    strength: int
    swords: int
    fortifications: int
    skulls: int


@dataclass(frozen=True)
class Setup:
    """The starting position for one player count (rules spec 4.1-4.3, facts sections 5-6)."""

    num_players: int
    houses: tuple[str, ...]
    impassable: tuple[str, ...]
    neutral_forces: dict[str, int]
    tracks: dict[str, tuple[str, ...]]  # track id -> house ids, position 1 first (compressed)
    starting_units: dict[str, dict[str, dict[str, int]]]  # house -> area -> unit type -> count
    optional_removed_units: dict[str, dict[str, dict[str, dict[str, int]]]]
    kings_court_stars: tuple[int, ...]
    castles_to_win: int  # areas with a castle/city or stronghold held at once to win at this count
    neutral_houses: tuple[str, ...] = ()  # houses not played whose units stand as neutral forces


@dataclass(frozen=True)
class Rules:
    """The named rules in which the editions differ (``rules.yaml``; 1e spec section A).

    The engine branches on these names, never on a ruleset's name, so that a rule that differs is
    one branch on one property and a ruleset is data. Values (2nd edition first):

    * ``player_counts``: the player counts the setups cover.
    * ``wildlings``: ``"cards"`` (R10: the wildling deck sets the reward and the penalty) or
      ``"fixed"`` (1e 5.4: the highest bidder may take back one used house card; on a loss every
      house removes units worth 2 mustering points, the lowest bidder 4).
    * ``wildlings_attack_at_max``: the wildlings also attack when the threat reaches its maximum
      (R10.1), or only when a Wildlings Attack card is drawn (1e 5.4).
    * ``raven_looks_at_wildlings``: the Raven may look at the top wildling card instead of
      swapping an order (R9.3); False: it only swaps (1e 6.3).
    * ``special_raid``: ``"also-defense"`` (R12.1.6: may also remove a Defense order) or
      ``"two-areas"`` (1e 7.1: removes one order in each of two adjacent areas).
    * ``special_consolidate_power``: ``"muster"`` (R12.5.3) or ``"plain"`` (1e: no extra effect).
    * ``consolidate_power_at_sea``: a Consolidate Power order may be placed in a sea area, where it
      does nothing (R12.4.2), or only on land (1e spec 6.1).
    * ``pillage_victim_loses``: power the raided house loses when its CP order is raided (2e 1,
      1e 0; the raider gains 1 in both).
    * ``last_house_card``: ``"stays-discarded"`` (R15.3.6: when the last card of a hand is played,
      the others come back and it stays discarded) or ``"returns"`` (1e 8.5, reading C.1: it is
      not discarded, all seven are in hand again).
    * ``failed_neutral_attack``: ``"stays"`` (AMBIG-11: the marching units stay where they were,
      standing) or ``"routed"`` (1e reading C.2: they retreat to their area, routed).
    * ``tides_of_battle``: the optional rule is available (2e §24; not in the 1st edition).
    * ``tiebreaks``: the end-of-game tie-break chains the ``tiebreak`` option may pick, the first
      the default (engine/victory.py TIEBREAKS; ``"first-edition"``: supply, available power,
      then a draw, 1e spec 12).
    * ``house_card_strengths``: the printed strengths of each house's seven cards.
    """

    player_counts: tuple[int, ...]
    wildlings: str
    wildlings_attack_at_max: bool
    raven_looks_at_wildlings: bool
    special_raid: str
    special_consolidate_power: str
    consolidate_power_at_sea: bool
    pillage_victim_loses: int
    last_house_card: str
    failed_neutral_attack: str
    tides_of_battle: bool
    tiebreaks: tuple[str, ...]
    house_card_strengths: tuple[int, ...]


# name -> accepted values (a tuple of choices) or the type of the value.
RULE_VALUES: dict[str, tuple[Any, ...] | type] = {
    "player_counts": list,
    "wildlings": ("cards", "fixed"),
    "wildlings_attack_at_max": bool,
    "raven_looks_at_wildlings": bool,
    "special_raid": ("also-defense", "two-areas"),
    "special_consolidate_power": ("muster", "plain"),
    "consolidate_power_at_sea": bool,
    "pillage_victim_loses": int,
    "last_house_card": ("stays-discarded", "returns"),
    "failed_neutral_attack": ("stays", "routed"),
    "tides_of_battle": bool,
    "tiebreaks": list,
    "house_card_strengths": list,
}
TIEBREAK_CHAINS = ("errata", "rulebook", "first-edition")


@dataclass(frozen=True)
class Ruleset:
    """All fixed facts of one ruleset, with index tables built once at load."""

    name: str
    rules: Rules
    areas: tuple[Area, ...]
    borders: tuple[tuple[str, str], ...]
    houses: tuple[House, ...]
    order_tokens: tuple[OrderToken, ...]
    house_cards: tuple[HouseCard, ...]
    westeros_cards: tuple[WesterosCard, ...]
    wildling_cards: tuple[WildlingCard, ...]
    tides_cards: tuple[TidesCard, ...]
    setups: dict[int, Setup]
    unit_pool: dict[str, int]
    unit_strength: dict[str, int]
    power_tokens_per_house: int
    starting_power: int
    garrison_strength: int
    starting_supply: dict[str, int]
    influence_tracks: dict[str, tuple[str, ...]]
    dominance_tokens: dict[str, str]
    supply_limits: tuple[tuple[int, ...], ...]
    wildling_threat: dict[str, int]
    rounds: int
    castles_to_win: int
    # index tables (numpy, read-only)
    adjacency: np.ndarray  # bool[area, area]
    kind: np.ndarray  # int8[area]: 0 land, 1 sea, 2 port
    fort_level: np.ndarray  # int8[area]: 0 none, 1 castle, 2 stronghold
    barrels: np.ndarray  # int8[area]
    crowns: np.ndarray  # int8[area]
    home_of: np.ndarray  # int8[area]: house index whose home this is, -1 none
    port_of: np.ndarray  # int16[area]: for a land area, its port's index, -1 none
    port_land: np.ndarray  # int16[area]: for a port, its land area's index, -1 otherwise
    port_sea: np.ndarray  # int16[area]: for a port, its sea area's index, -1 otherwise

    # -- lookups by id -----------------------------------------------------------------------
    @functools.cached_property
    def _area_ids(self) -> dict[str, int]:
        return {a.id: a.index for a in self.areas}

    @functools.cached_property
    def _house_ids(self) -> dict[str, int]:
        return {h.id: h.index for h in self.houses}

    @functools.cached_property
    def _card_ids(self) -> dict[str, int]:
        return {c.id: c.index for c in self.house_cards}

    def area(self, area_id: str) -> int:
        """Index of an area id; raises KeyError naming the unknown id."""
        try:
            return self._area_ids[area_id]
        except KeyError:
            raise KeyError(f"unknown area id {area_id!r}") from None

    def house(self, house_id: str) -> int:
        try:
            return self._house_ids[house_id]
        except KeyError:
            raise KeyError(f"unknown house id {house_id!r}") from None

    def house_card(self, card_id: str) -> int:
        try:
            return self._card_ids[card_id]
        except KeyError:
            raise KeyError(f"unknown house card id {card_id!r}") from None

    def __getstate__(self) -> dict[str, Any]:
        """The ruleset's facts without its derived tables (:meth:`derived`): they are rebuilt
        where it is unpickled, and some hold what pickle cannot carry (the picture's drawing
        functions), so that a state pickles after its board was drawn too."""
        state = dict(self.__dict__)
        state.pop("_derived", None)
        return state

    def derived(self, name: str, build: Callable[[Ruleset], Any]) -> Any:
        """A table derived from this ruleset (an engine lookup table, the action codec, ...),
        built by ``build(self)`` on first use and kept: the ruleset is a frozen, unhashable
        dataclass, so no outside cache can key on it, and it never changes."""
        tables = self.__dict__.get("_derived")
        if tables is None:
            tables = self.__dict__["_derived"] = {}
        value = tables.get(name)
        if value is None:
            value = tables[name] = build(self)
        return value

    def neighbours(self, area_id: str) -> list[str]:
        row = self.adjacency[self.area(area_id)]
        return [self.areas[i].id for i in np.flatnonzero(row)]

    def is_adjacent(self, a: str, b: str) -> bool:
        return bool(self.adjacency[self.area(a), self.area(b)])

    @property
    def num_areas(self) -> int:
        return len(self.areas)

    @property
    def num_houses(self) -> int:
        return len(self.houses)

    def westeros_deck(self, deck: str) -> list[WesterosCard]:
        """The 10 cards of one deck, copies expanded, in data order."""
        return [c for c in self.westeros_cards if c.deck == deck for _ in range(c.copies)]

    def to_json(self) -> dict[str, Any]:
        """The loaded data as one JSON-ready document (used by ``python -m got_env.data``)."""
        return {
            "ruleset": self.name,
            "rules": {k: list(v) if isinstance(v, tuple) else v
                      for k, v in vars(self.rules).items()},
            "areas": [
                {
                    "id": a.id,
                    "name": a.name,
                    "kind": a.kind,
                    "fortification": a.fortification,
                    "barrels": a.barrels,
                    "crowns": a.crowns,
                    "home": a.home,
                    "port_land": a.port_land,
                    "port_sea": a.port_sea,
                    "neighbours": self.neighbours(a.id),
                }
                for a in self.areas
            ],
            "borders": [list(b) for b in self.borders],
            "houses": [{"id": h.id, "name": h.name, "home": h.home} for h in self.houses],
            "order_tokens": [vars(t) for t in self.order_tokens],
            "setups": {
                str(n): {
                    "houses": list(s.houses),
                    "impassable": list(s.impassable),
                    "neutral_forces": s.neutral_forces,
                    "tracks": {k: list(v) for k, v in s.tracks.items()},
                    "starting_units": s.starting_units,
                    "optional_removed_units": s.optional_removed_units,
                    "kings_court_stars": list(s.kings_court_stars),
                    "castles_to_win": s.castles_to_win,
                    "neutral_houses": list(s.neutral_houses),
                    "starting_supply": {h: self.starting_supply[h] for h in s.houses},
                    "starting_power": self.starting_power,
                }
                for n, s in self.setups.items()
            },
            "house_cards": [vars(c) for c in self.house_cards],
            "westeros_decks": {
                d: [vars(c) for c in self.westeros_cards if c.deck == d] for d in DECK_NAMES
            },
            "wildling_cards": [vars(c) for c in self.wildling_cards],
            "tides_of_battle": [vars(c) for c in self.tides_cards],
            "supply_limits": [list(x) for x in self.supply_limits],
            "wildling_threat": self.wildling_threat,
            "unit_pool": self.unit_pool,
            "rounds": self.rounds,
            "castles_to_win": self.castles_to_win,
        }


