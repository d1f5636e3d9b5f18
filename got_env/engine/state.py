"""The game state: a few numpy arrays plus small scalar fields (DESIGN.md, "State and speed").

Axes are fixed for a ruleset, whatever the player count: ``area`` runs over the 58 areas of the
board, ``house`` over the six houses in the data's order (houses not in play stay all-zero and
``in_play`` is False), ``unit`` over footman, knight, ship, siege engine. Fixed shapes keep
observations and clones cheap and let one encoding serve every player count.

Everything that can be derived from these arrays is derived, not stored: who controls an area
(:meth:`GameState.control`), victory points (:meth:`GameState.victory_points`), the dominance token
holders (position 1 of each track) and the Power Pool (what is neither available nor on the board).
"""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from boardkit.decision import Decision

from .._compiled import engine_kernels
from ..data import ORDER_TYPES, TRACKS, UNIT_TYPES, Ruleset
from .frames import GotFrame, copy_plain
from .render_text import render_text

NO_HOUSE = -1
FOOTMAN, KNIGHT, SHIP, SIEGE_ENGINE = range(len(UNIT_TYPES))
IRON_THRONE, FIEFDOMS, KINGS_COURT = range(len(TRACKS))
LAND, SEA, PORT = 0, 1, 2
# state.order_bans: one flag per ORDER_TYPES entry, then this one for special March orders.
SPECIAL_MARCH_BAN = len(ORDER_TYPES)

#: The typed twin of the control scan (``_kernels.pyx``), or None: ``_occupants_scan``.
_KERNELS = engine_kernels()


class Phase(enum.IntEnum):
    """The phase of the round (R5.1). ``ENDED`` once the game is over."""

    WESTEROS = 0
    PLANNING = 1
    ACTION = 2
    ENDED = 3


class CardPlace(enum.IntEnum):
    """Where one house card is (R15.3.5-R15.3.6): in hand, discarded, or chosen for a combat."""

    OUT_OF_GAME = -1  # the card of a house that is not in play
    HAND = 0
    DISCARD = 1
    CHOSEN = 2


# Arrays of the state: name -> (dtype, axes). The order is the order of the text rendering and of
# equality checks; ``clone`` copies each of them.
ARRAY_FIELDS: dict[str, tuple[type, str]] = {
    "units": (np.int8, "area, house, unit"),
    "routed": (np.int8, "area, house, unit"),
    "orders": (np.int8, "area: order token index placed there, -1 none"),
    "power_tokens": (np.int8, "area: house whose power token lies there, -1 none"),
    "power": (np.int8, "house: available power (in front of the screen)"),
    "garrisons": (np.int8, "area: garrison strength (owner: the area's home house), 0 none"),
    "neutral_forces": (np.int8, "area: neutral force strength, 0 none"),
    "impassable": (np.bool_, "area: blocked for the whole game (3 players)"),
    "tracks": (np.int8, "track, position: house index, -1 empty position"),
    "supply": (np.int8, "house: supply track level 0-6"),
    "in_play": (np.bool_, "house"),
    "card_place": (np.int8, "house card: CardPlace"),
    "westeros_decks": (np.int8, "deck, position: Westeros card index, top first"),
    "westeros_drawn": (np.int8, "deck: how many cards have been drawn from the top"),
    "wildling_deck": (np.int8, "position: wildling card index, top first"),
    "wildling_known_top": (np.int8, "house: wildling card it saw on top with the Raven, -1"),
    "order_bans": (np.bool_, "ORDER_TYPES index, then 5 = special march: banned this planning"),
}


@dataclass(frozen=True)
class Outcome:
    """How a game ended (R5.3, R22): the reason, the winner and the full ranking (best first)."""

    reason: str  # "seven-castles" | "last-round"
    winner: int
    ranking: tuple[int, ...]
    # 1e spec 12: the houses that share the game when every tie-break leaves them equal (a draw;
    # ``winner`` is then the first of them in Iron Throne order). Empty: one winner.
    draw: tuple[int, ...] = ()


@dataclass(eq=False)
class GameState:
    """One play-through. Built by :func:`got_env.engine.setup.new_game`, never by hand.

    The ``ruleset`` is shared between clones (it is immutable); everything else is owned.
    """

    ruleset: Ruleset
    num_players: int
    options: dict[str, Any]
    rng: np.random.Generator
    units: np.ndarray
    routed: np.ndarray
    orders: np.ndarray
    power_tokens: np.ndarray
    power: np.ndarray
    garrisons: np.ndarray
    neutral_forces: np.ndarray
    impassable: np.ndarray
    tracks: np.ndarray
    supply: np.ndarray
    in_play: np.ndarray
    card_place: np.ndarray
    westeros_decks: np.ndarray
    westeros_drawn: np.ndarray
    wildling_deck: np.ndarray
    order_bans: np.ndarray
    wildling_known_top: np.ndarray
    wildling_threat: int = 2
    round: int = 1
    phase: Phase = Phase.PLANNING
    blade_used: bool = False
    raven_used: bool = False
    orders_revealed: bool = False  # planning: placed orders stay hidden until the reveal
    # The engine's program: a stack of frames, the innermost last (got_env.engine.frames, run
    # by boardkit.frames).
    stack: list[GotFrame] = field(default_factory=list)
    pending: Decision | None = None
    outcome: Outcome | None = None

    # -- copying and comparing ----------------------------------------------------------------
    def clone(self) -> GameState:
        """An independent copy: every array copied, the generator's state duplicated.

        Cheap, since search agents clone a lot: the arrays are copied one by one, the engine's
        stack as plain containers, and the generator is not rebuilt (building one costs more than
        the rest of the copy) but kept as its state, from which the clone makes its own generator
        the first time it draws (see ``__getattr__``)."""
        new = object.__new__(GameState)
        mine, theirs = self.__dict__, new.__dict__
        for name in _SCALAR_FIELDS:
            theirs[name] = mine[name]
        for name in ARRAY_FIELDS:
            theirs[name] = mine[name].copy()
        theirs["options"] = copy_plain(mine["options"])
        theirs["stack"] = [f.copy() for f in mine["stack"]]
        rng = mine.get("rng")
        theirs["_rng_state"] = rng.bit_generator.state if rng is not None else mine["_rng_state"]
        for cache in _CONTENT_CACHES:
            if cache in mine:
                theirs[cache] = mine[cache]
        return new

    def __getattr__(self, name: str) -> Any:
        """Only called for a missing attribute: the generator of a clone, made on first use."""
        if name == "rng" and "_rng_state" in self.__dict__:
            state = self.__dict__.pop("_rng_state")
            rng = np.random.Generator(getattr(np.random, state["bit_generator"])())
            rng.bit_generator.state = state
            self.__dict__["rng"] = rng
            return rng
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name == "rng":
                if a.bit_generator.state != b.bit_generator.state:
                    return False
            elif isinstance(a, np.ndarray):
                if a.shape != b.shape or not np.array_equal(a, b):
                    return False
            elif f.name == "ruleset":
                if a.name != b.name:
                    return False
            elif a != b:
                return False
        return True

    __hash__ = None  # type: ignore[assignment]  # mutable

    def digest(self) -> str:
        """A SHA-256 hex digest of everything that makes this state what it is (the arrays, the
        scalars, the engine's stack, the pending decision, the outcome, the generator): equal
        states give equal digests. Game records store it to prove a replay exact."""
        h = hashlib.sha256()
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "ruleset":
                h.update(v.name.encode())
            elif f.name == "rng":
                h.update(repr(v.bit_generator.state).encode())
            elif isinstance(v, np.ndarray):
                h.update(f"{f.name}{v.dtype}{v.shape}".encode())
                h.update(np.ascontiguousarray(v).tobytes())
            elif f.name == "pending":
                plain = None if v is None else (v.player, int(v.kind), v.options, v.secret)
                h.update(repr(_canonical(plain)).encode())
            elif f.name == "outcome":
                plain = None if v is None else (v.reason, v.winner, v.ranking) + (
                    (v.draw,) if v.draw else ())
                h.update(repr(_canonical(plain)).encode())
            else:
                h.update(f"{f.name}={_canonical(v)!r}".encode())
        return h.hexdigest()

    # -- derived facts ------------------------------------------------------------------------
    def unit_count(self) -> np.ndarray:
        """int[area, house]: units of each house in each area (all types)."""
        return self.units.sum(axis=2, dtype=np.int16)

    def control(self) -> np.ndarray:
        """int8[area]: the house controlling each area, -1 nobody (R13.1, R13.3, §3).

        Units decide first; an area without units is held by the power token on it, and a home
        area with neither by its printed shield, which acts as a permanent power token of its
        house (R13.3.1, R13.3.3). Seas and ports are held by the house whose ships are there.

        Cached (read-only result): control is asked after every step (immediate victory) and by
        every observation, while units and power tokens change far less often. The cache key is
        the bytes of those two arrays, so no write anywhere in the engine can leave it stale
        (see :meth:`_control_entry`). The array is made on the first request after a change:
        the engine itself reads :meth:`control_list`, and building a numpy array from the list
        costs more than the rest of a victory check."""
        cached = self._control_entry()
        ctrl = cached[1]
        if ctrl is None:
            ctrl = np.array(cached[4], dtype=np.int8)
            ctrl.flags.writeable = False
            # a new tuple, not a change in place: a clone may share the old one
            self.__dict__["_control_cache"] = cached[:1] + (ctrl,) + cached[2:]
        return ctrl

    def _control_entry(self) -> tuple:
        """The control cache, brought up to date: (units bytes, control array or None until
        :meth:`control` is asked, :meth:`occupants`, power-token bytes, :meth:`control_list`,
        {house: :meth:`areas_occupied_by`} filled on demand, the control without units).
        The key is the bytes of ``units`` and ``power_tokens``, compared on every call, so no
        write anywhere in the engine can leave it stale. Shared with clones (``clone``), so
        none of it is ever changed in place (a new tuple replaces it)."""
        units, tokens = self.units.tobytes(), self.power_tokens.tobytes()
        cached = self.__dict__.get("_control_cache")
        if cached is not None and cached[0] == units and cached[3] == tokens:
            return cached
        if cached is not None and cached[3] == tokens:  # only units moved: same fallback
            fallback = cached[6]
        else:
            fallback = self._control_without_units()
        occupant, ctrl_list = self._occupants_now(fallback)
        cached = (units, None, occupant, tokens, ctrl_list, {}, fallback)
        self.__dict__["_control_cache"] = cached
        return cached

    def _control_without_units(self) -> list[int]:
        """Per area, who would control it with no units on the board: the power token on a
        land area, else the home shield (R13.3.1, R13.3.3). Kept in the control cache while
        the power tokens stay the same (most changes of control are units moving)."""
        land, shield = _control_tables(self)
        return [t if t >= 0 and is_land else s
                for t, is_land, s in zip(self.power_tokens.tolist(), land, shield, strict=True)]

    def occupants(self) -> list[int]:
        """list[area]: the house with units in each area, -1 none (cached with control)."""
        cached = self._control_entry()
        return cached[2]

    def control_list(self) -> list[int]:
        """:meth:`control` as a plain list (cached with it; do not change it): for loops over a
        few areas, where indexing a list is much cheaper than indexing an array."""
        cached = self._control_entry()
        return cached[4]

    def units_cache(self) -> dict[Any, Any]:
        """A dict for values derived from ``units`` alone (army sizes, units left in the box),
        emptied whenever the units change: the key is the bytes of the array, compared on each
        call, so no write anywhere in the engine can leave a value stale. The supply checks ask
        the same house's sizes many times per decision while units change far less often.
        Values are shared with clones (``clone`` keeps the cache): never change one in place."""
        units = self.units.tobytes()
        cached = self.__dict__.get("_units_cache")
        if cached is not None and cached[0] == units:
            return cached[1]
        values: dict[Any, Any] = {}
        self.__dict__["_units_cache"] = (units, values)
        return values

    def areas_occupied_by(self, house: int) -> list[int]:
        """Areas (ascending) where ``house`` has units (cached with control, per house, so
        that order placement, asked once per order, does not scan the board each time; do not
        change the list)."""
        cached = self._control_entry()
        by_house = cached[5]
        areas = by_house.get(house)
        if areas is None:
            areas = by_house[house] = [a for a, o in enumerate(cached[2]) if o == house]
        return areas

    def _occupants_now(self, fallback: list[int]) -> tuple[list[int], list[int]]:
        """(list[area]: the house with the most units in each area, the first such house on a
        tie as ``argmax``, -1 none; control: that house, else ``fallback``, the control without
        units): the typed kernel's scan (``_kernels.occupants``), else :meth:`_occupants_scan`
        (the reference)."""
        if _KERNELS is not None:
            found = _KERNELS.occupants(self.units, fallback)
            if found is not None:
                return found
        return self._occupants_scan(fallback)

    def _occupants_scan(self, fallback: list[int]) -> tuple[list[int], list[int]]:
        """:meth:`_occupants_now` in Python. The (area, house) cells with units are found in
        one numpy call on the units seen as one int32 per cell (nonzero when any of its four
        counts is), since a per-area sum and argmax over the whole board cost several times
        more."""
        units = self.units
        if units.dtype == np.int8 and units.shape[2] == 4 and units.flags.c_contiguous:
            cells = units.view(np.int32).reshape(-1).nonzero()[0].tolist()
        else:
            cells = np.flatnonzero(units.any(axis=2)).tolist()
        cell_area, cell_house = _unit_cells(self.ruleset)
        occupant = [-1] * units.shape[0]
        ctrl = fallback.copy()
        for cell in cells:
            area = cell_area[cell]
            if occupant[area] < 0:
                occupant[area] = ctrl[area] = cell_house[cell]
            else:  # two houses in one area (never at rest): the larger army, as argmax
                occupant[area] = ctrl[area] = int(units[area].sum(axis=1).argmax())
        return occupant, ctrl

    def controlled_castles(self) -> np.ndarray:
        """int[house]: areas with a castle or stronghold each house controls (R22.1)."""
        return np.array(self._castle_counts(self.control_list()), dtype=np.int64)

    def _castle_counts(self, ctrl: list[int]) -> list[int]:
        counts = [0] * self.ruleset.num_houses
        for house in map(ctrl.__getitem__, fort_areas(self.ruleset)):
            if house >= 0:
                counts[house] += 1
        return counts

    def victory_points(self) -> np.ndarray:
        """int[house]: the victory track (controlled castles and strongholds), 0 if not in play.
        Cached with :meth:`control` (read-only result)."""
        vp = self._victory()
        if vp[3] is None:  # made on first request: the check after every step needs the best
            array = np.array(vp[1], dtype=np.int64)
            array.flags.writeable = False
            vp = self.__dict__["_vp_cache"] = vp[:3] + (array,)
        return vp[3]

    def most_victory_points(self) -> int:
        """The highest victory-track position (asked after every step, R5.3)."""
        return self._victory()[2]

    def _victory(self) -> tuple[list[int], list[int], int, np.ndarray | None]:
        """(the :meth:`control_list` it derives from, points per house, the highest, the points
        as a read-only array or None until asked), cached while that list stays the same
        object (the control cache makes a new list whenever control may have changed, and the
        entry here holds the old one, so its identity cannot be reused)."""
        ctrl = self._control_entry()[4]
        cached = self.__dict__.get("_vp_cache")
        if cached is not None and cached[0] is ctrl:
            return cached
        counts = self._castle_counts(ctrl)
        points = [n if playing else 0
                  for n, playing in zip(counts, self.in_play.tolist(), strict=True)]
        cached = self.__dict__["_vp_cache"] = (ctrl, points, max(points), None)
        return cached

    def barrels_controlled(self) -> np.ndarray:
        """int[house]: supply icons in the land areas each house controls (R7.1)."""
        ctrl = self.control()
        mine = ctrl >= 0
        return np.bincount(ctrl[mine], weights=self.ruleset.barrels[mine],
                           minlength=self.ruleset.num_houses).astype(np.int16)

    def power_on_board(self) -> np.ndarray:
        """int[house]: power tokens each house has on the board."""
        on = self.power_tokens >= 0
        return np.bincount(self.power_tokens[on], minlength=self.ruleset.num_houses)

    def power_pool(self) -> np.ndarray:
        """int[house]: each house's tokens in the Power Pool (20 = available + board + pool)."""
        total = self.ruleset.power_tokens_per_house
        return np.where(self.in_play, total - self.power - self.power_on_board(), 0)

    def power_pool_of(self, house: int) -> int:
        """:meth:`power_pool` of one house, in plain Python (asked at every power gain)."""
        if not self.in_play.item(house):
            return 0
        return (self.ruleset.power_tokens_per_house - self.power.item(house)
                - self.power_tokens.tolist().count(house))

    def track_position(self, track: int, house: int) -> int:
        """0-based position of ``house`` on ``track``; raises ValueError if absent."""
        cached = self._tracks_entry()
        position = cached[2][track].get(house)
        if position is None:
            raise ValueError(f"house {self.ruleset.houses[house].id} is not on track {track}")
        return position

    def holder(self, track: int) -> int:
        """The house holding the dominance token of ``track`` (its position 1, R9.1)."""
        return int(self.tracks[track, 0])

    def turn_order(self) -> list[int]:
        """Houses in play in Iron Throne order (§3); a new list each call, from a copy kept
        while the tracks stay the same (:meth:`_tracks_entry`)."""
        cached = self._tracks_entry()
        return cached[1].copy()

    def _tracks_entry(self) -> tuple[bytes, list[int], tuple[dict[int, int], ...]]:
        """(tracks bytes, the turn order, per track {house: 0-based position}), kept while the
        tracks stay the same: the key is their bytes, compared on every call, so no write
        anywhere in the engine can leave it stale. Turn order and positions are asked several
        times per decision; the tracks change a few times per round. Shared with clones
        (``clone``): never changed in place."""
        tracks = self.tracks.tobytes()
        cached = self.__dict__.get("_turn_order_cache")
        if cached is None or cached[0] != tracks:
            rows = self.tracks.tolist()
            # the first position of each value, as ``list.index`` finds it (-1 included)
            positions = tuple({h: i for i, h in reversed(list(enumerate(row)))} for row in rows)
            cached = (tracks, [h for h in rows[IRON_THRONE] if h >= 0], positions)
            self.__dict__["_turn_order_cache"] = cached
        return cached

    def hand(self, house: int) -> list[int]:
        """House-card indices in ``house``'s hand."""
        return self._cards_at(house, CardPlace.HAND)

    def discards(self, house: int) -> list[int]:
        return self._cards_at(house, CardPlace.DISCARD)

    def _cards_at(self, house: int, place: int) -> list[int]:
        places = self.card_place.tolist()
        return [c for c in _cards_of(self.ruleset)[house] if places[c] == place]

    # -- text -----------------------------------------------------------------------------------
    def render_text(self) -> str:
        """A readable board: round, tracks, then every area that holds something."""
        return render_text(self)

    def __str__(self) -> str:
        return self.render_text()

    def __repr__(self) -> str:
        vp = ",".join(f"{self.ruleset.houses[h].id}={v}" for h, v in
                      enumerate(self.victory_points()) if self.in_play[h])
        return (f"GameState({self.num_players}p round={self.round} phase={self.phase.name} "
                f"threat={self.wildling_threat} vp[{vp}])")


# Caches in a state's __dict__ that a clone may share: read-only values keyed on the content
# they derive from (``_shield`` on the houses in play, which never change).
_CONTENT_CACHES = ("_shield", "_control_cache", "_vp_cache", "_units_cache", "_turn_order_cache")


def _control_tables(state: GameState) -> tuple[tuple[bool, ...], list[int]]:
    """(per area: is it land; per area: the house whose printed shield holds it when nobody
    else does, -1 none: home areas of houses in play, on land, R13.3.3). The shield depends only
    on the ruleset and the houses in play, so it is kept in the state (``_shield``, shared by
    clones: read-only)."""
    land = state.ruleset.derived("land_areas", lambda rs: tuple(bool(k == LAND) for k in rs.kind))
    shield = state.__dict__.get("_shield")
    if shield is None:
        in_play = state.in_play.tolist()
        shield = [h if h >= 0 and in_play[h] and is_land else -1
                  for h, is_land in zip(state.ruleset.home_of.tolist(), land, strict=True)]
        state.__dict__["_shield"] = shield
    return land, shield


def _unit_cells(ruleset: Ruleset) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(area, house) of each cell ``area * num_houses + house`` of the units' first two axes
    (built once, ``Ruleset.derived``): cheaper than a ``divmod`` per cell."""
    def build(rs: Ruleset) -> tuple[tuple[int, ...], tuple[int, ...]]:
        cells = [(a, h) for a in range(rs.num_areas) for h in range(rs.num_houses)]
        return tuple(a for a, _ in cells), tuple(h for _, h in cells)

    return ruleset.derived("unit_cells", build)


def fort_areas(ruleset: Ruleset) -> tuple[int, ...]:
    """Areas with a castle or stronghold (R22.1), ascending (built once, ``Ruleset.derived``)."""
    return ruleset.derived("fort_areas", lambda rs: tuple(
        int(a) for a in np.flatnonzero(rs.fort_level > 0)))


def _cards_of(ruleset: Ruleset) -> list[list[int]]:
    """Per house, its house cards' indices in data order (built once, ``Ruleset.derived``)."""
    return ruleset.derived("cards_of", lambda rs: [[c.index for c in rs.house_cards
                                                    if c.house == h.id] for h in rs.houses])


_SCALAR_FIELDS = tuple(f.name for f in fields(GameState)
                       if f.name not in ARRAY_FIELDS and f.name not in ("options", "stack", "rng"))


def _canonical(v: Any) -> Any:
    """Plain Python values with a repr that is the same on every numpy version (digests)."""
    if isinstance(v, dict):
        return sorted(((repr(_canonical(k)), _canonical(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return [_canonical(x) for x in v]
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, GotFrame):  # its step and the fields it has now (frames.py)
        return _canonical(v.digest_items())
    return v
