"""The board of War of the Ring: its regions and borders, the nations, and the starting armies.

``load_board(source)`` reads ``map.yaml``, ``nations.yaml`` and ``setup.yaml`` of one ruleset
(:class:`.source.Source`), checks every entry, and returns a frozen :class:`Board`: records for
reading and testing, and numpy index tables built once for the engine. Every failure is a
:class:`DataError` naming the file actually read (a 1st-edition stand-in names ``2e/...``) and the
entry, so that a typo in the data fails on load instead of surfacing later as a wrong rule.

Each fact is stored once: a region's side is its nation's (``model.NATION_SIDE``), so neither
the map nor the nations file repeats it; arrays follow the order of the files (regions) and of
``model.NATIONS`` and ``model.FIGURES`` (the nation and figure axes). The facts are the sheet's
(``../shared/facts/war-of-the-ring.md``): §1 the map, §2 the nations and their setup. The coastal
regions and those on the map's east edge (``map.yaml``'s ``coastal`` and ``east_edge``) are no
sourced fact but a reading of facts §8.2, kept in the data so that it is corrected there.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardkit.datafiles import Checker

from .model import FIGURES, NATION_SIDE, NATIONS, SETTLEMENTS, SIDES
from .source import Source

# What a settlement is worth to the opponent who controls it (facts §1.1); any other region 0.
SETTLEMENT_VP = {"city": 1, "stronghold": 2}
# The Political Track has three boxes above At War (facts §2.1).
MAX_STEPS_TO_WAR = 3


@dataclass(frozen=True)
class Region:
    """One of the map's regions (facts §1.2); ``index`` is its position in the engine's arrays."""

    index: int
    id: str
    name: str
    nation: str | None  # the national border it lies inside; None: no nation (facts §1.1)
    settlement: str | None  # one of model.SETTLEMENTS; a fortification is not a settlement
    vp: int  # worth to the opponent who controls it: city 1, stronghold 2, else 0

    @property
    def side(self) -> str | None:
        """The side of the region's nation; None for a region of no nation (neutral)."""
        return None if self.nation is None else NATION_SIDE[self.nation]


@dataclass(frozen=True)
class Nation:
    """A nation (facts §2): its Political Track start and every figure it owns."""

    index: int
    id: str
    name: str
    active_at_start: bool  # Active, else Passive (facts §2.1)
    steps_to_war: int  # moves on the Political Track still needed to reach At War
    figures: dict[str, int] = field(hash=False)  # kind (model.FIGURES) -> count, board + reserve

    @property
    def side(self) -> str:
        """``model.NATION_SIDE``'s: the files do not repeat it."""
        return NATION_SIDE[self.id]


@dataclass(frozen=True)
class StartArmy:
    """A nation's figures in one region at the start (facts §2.2, "Starting armies")."""

    region: str
    nation: str
    figures: dict[str, int] = field(hash=False)  # kind -> count, every kind of model.FIGURES


@dataclass(frozen=True, eq=False)
class Board:
    """The map, nations and starting armies of a ruleset, as records and read-only arrays.

    Array axes: region (the order of ``regions``), nation (``model.NATIONS``), figure kind
    (``model.FIGURES``). A code of -1 means none (no nation, neutral, no settlement).
    """

    regions: tuple[Region, ...]
    nations: tuple[Nation, ...]
    borders: tuple[tuple[str, str], ...]  # each unordered pair once, (a, b) with a < b, sorted
    start_armies: tuple[StartArmy, ...]
    adjacency: np.ndarray  # (regions, regions) bool, symmetric, False on the diagonal
    neighbours: tuple[np.ndarray, ...]  # per region, its neighbours' indices (int16, ascending)
    region_nation: np.ndarray  # (regions,) int8: index in NATIONS, -1 none
    region_side: np.ndarray  # (regions,) int8: index in SIDES, -1 neutral
    settlement: np.ndarray  # (regions,) int8: index in SETTLEMENTS, -1 none
    vp: np.ndarray  # (regions,) int8
    coastal: np.ndarray  # (regions,) bool: on the sea coast (a reading: map.yaml, facts §8.2)
    east_edge: np.ndarray  # (regions,) bool: touches the map's east edge (a reading, §8.2)
    figures: np.ndarray  # (nations, kinds) int16: every figure each nation owns
    start_figures: np.ndarray  # (regions, nations, kinds) int16: on the board at the start
    reinforcements: np.ndarray  # (nations, kinds) int16: in reserve at the start
    region_index: dict[str, int] = field(repr=False)
    # Derived from the fields above when built (not passed), for the engine's whole-board
    # legality sweeps (engine/sweeps.py): every border both ways, ordered by (from, to) as
    # ``neighbours`` lists them, and where each nation may go while not At War (facts §7.5,
    # spec §20 #20).
    border_from: np.ndarray = field(init=False, repr=False)  # (2 * borders,) intp
    border_to: np.ndarray = field(init=False, repr=False)  # (2 * borders,) intp
    # (regions,) int64: the nations that may enter the region while not At War, bit n for
    # nation n: its own nation's, or every nation's for a region of no nation
    home_nations: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        src, dst = np.nonzero(self.adjacency)  # row-major: by region, then neighbour
        every = (1 << len(NATIONS)) - 1
        home = np.array([every if n < 0 else 1 << int(n) for n in self.region_nation], np.int64)
        for name, value in (("border_from", src), ("border_to", dst), ("home_nations", home)):
            object.__setattr__(self, name, _frozen(value))

    def region(self, region_id: str) -> int:
        """The index of region ``region_id`` in the arrays (KeyError names an unknown id)."""
        try:
            return self.region_index[region_id]
        except KeyError:
            raise KeyError(f"unknown region {region_id!r}") from None

    def nation(self, nation_id: str) -> int:
        """The index of nation ``nation_id`` on the arrays' nation axis (``model.NATIONS``)."""
        if nation_id not in NATIONS:
            raise KeyError(f"unknown nation {nation_id!r}")
        return NATIONS.index(nation_id)


def load_board(source: Source) -> Board:
    """The board of ``source``'s ruleset, validated; :class:`DataError` names a bad entry."""
    doc, check = source.doc("map.yaml"), _checker(source, "map.yaml")
    regions, borders = _read_map(doc, check)
    nations = _read_nations(source.doc("nations.yaml"), _checker(source, "nations.yaml"))
    armies, start, reserve = _read_setup(source.doc("setup.yaml"),
                                         _checker(source, "setup.yaml"), regions, nations)
    index = {r.id: r.index for r in regions}
    n = len(regions)
    adjacency = np.zeros((n, n), dtype=bool)
    for a, b in borders:
        adjacency[index[a], index[b]] = adjacency[index[b], index[a]] = True
    neighbours = tuple(_frozen(np.flatnonzero(row).astype(np.int16)) for row in adjacency)

    def codes(values: list[str | None], vocabulary: tuple[str, ...]) -> np.ndarray:
        return _frozen(np.array([-1 if v is None else vocabulary.index(v) for v in values],
                                dtype=np.int8))

    return Board(
        regions=regions, nations=nations, borders=borders, start_armies=armies,
        adjacency=_frozen(adjacency), neighbours=neighbours,
        region_nation=codes([r.nation for r in regions], NATIONS),
        region_side=codes([r.side for r in regions], SIDES),
        settlement=codes([r.settlement for r in regions], SETTLEMENTS),
        vp=_frozen(np.array([r.vp for r in regions], dtype=np.int8)),
        coastal=_region_set(doc, check, "coastal", index),
        east_edge=_region_set(doc, check, "east_edge", index),
        figures=_frozen(np.array([[x.figures[k] for k in FIGURES] for x in nations],
                                 dtype=np.int16)),
        start_figures=_frozen(start), reinforcements=_frozen(reserve), region_index=index)


def _checker(source: Source, name: str) -> Checker:
    """A Checker naming the file actually read: a 1st-edition stand-in is the 2nd's file."""
    return Checker(f"{source.stand_ins.get(name, (source.ruleset, ''))[0]}/{name}")


def _frozen(a: np.ndarray) -> np.ndarray:
    """``a`` made read-only: a Board is shared by every state and test (the ruleset cache)."""
    a.flags.writeable = False
    return a


def _keys(c: Checker, record: Any, entry: str, allowed: set[str]) -> None:
    """A misspelt field is an error, not a silently ignored one."""
    c.require(isinstance(record, dict), entry, f"expected a mapping, got {record!r}")
    extra = sorted(str(k) for k in record if k not in allowed)
    c.require(not extra, entry, f"unknown field(s) {extra}; known: {sorted(allowed)}")


def _read_map(doc: dict[str, Any], c: Checker) -> tuple[tuple[Region, ...],
                                                         tuple[tuple[str, str], ...]]:
    """Regions (facts §1.2) and borders (facts §1.3), checked against the declared counts."""
    _keys(c, doc, "top level", {"counts", "regions", "adjacent", "coastal", "east_edge"})
    regions: list[Region] = []
    for i, r in enumerate(c.field(doc, "regions", "top level", list)):
        rid = c.field(r, "id", f"regions[{i}]", str)
        entry = f"region {rid!r}"
        _keys(c, r, entry, {"id", "name", "nation", "settlement", "vp"})
        nation = c.field(r, "nation", entry, (str, type(None)))
        c.require(nation is None or nation in NATIONS, entry,
                  f"unknown nation {nation!r}; known: {', '.join(NATIONS)} or null")
        kind = c.field(r, "settlement", entry, (str, type(None)))
        c.require(kind is None or kind in SETTLEMENTS, entry,
                  f"unknown settlement {kind!r}; known: {', '.join(SETTLEMENTS)} or null")
        # Every Settlement starts controlled by its region's nation (facts §1.1, §7.4), so it
        # needs one; a fortification is no settlement (Osgiliath has no nation).
        c.require(kind in (None, "fortification") or nation is not None, entry,
                  f"a {kind} must lie in a nation: it starts controlled by that nation's side")
        vp, want = c.field(r, "vp", entry, int), SETTLEMENT_VP.get(kind or "", 0)
        c.require(vp == want, entry, f"vp {vp}, but a region with settlement {kind} is worth "
                  f"{want} (city 1, stronghold 2, else 0: facts §1.1)")
        regions.append(Region(i, rid, c.field(r, "name", entry, str), nation, kind, vp))
    c.unique([r.id for r in regions], "region")
    known = {r.id for r in regions}

    listed_under: dict[tuple[str, str], str] = {}
    for a, others in c.field(doc, "adjacent", "top level", dict).items():
        entry = f"adjacent {a!r}"
        c.require(a in known, entry, "unknown region")
        c.require(isinstance(others, list), entry, f"expected a list of region ids, got {others!r}")
        for b in others:
            c.require(isinstance(b, str) and b in known, entry, f"unknown neighbour {b!r}")
            c.require(b != a, entry, "a region cannot border itself")
            pair = (min(a, b), max(a, b))
            if pair in listed_under:
                c.fail(entry, f"the border {a} -- {b} is listed twice (also under "
                              f"{listed_under[pair]!r}); list each unordered pair once")
            listed_under[pair] = a
    degree = Counter(x for pair in listed_under for x in pair)
    for r in regions:  # every region has a neighbour (facts §1.3: the fewest is 1)
        c.require(degree[r.id] > 0, f"region {r.id!r}", "has no border (a line missing?)")

    # YAML keeps the last of two equal keys silently; the declared counts catch a lost line.
    counts = c.field(doc, "counts", "top level", dict)
    _keys(c, counts, "counts", {"regions", "adjacent_pairs"})
    for key, found in (("regions", len(regions)), ("adjacent_pairs", len(listed_under))):
        want = c.field(counts, key, "counts", int)
        c.require(found == want, "counts", f"{key}: {found} listed, {want} declared")
    return tuple(regions), tuple(sorted(listed_under))


def _region_set(doc: dict[str, Any], c: Checker, key: str, index: dict[str, int]) -> np.ndarray:
    """A top-level list of region ids (``coastal``, ``east_edge``) as a read-only bool array
    over the regions; the list must be there (a card reads it), each id known and listed once."""
    ids = c.field(doc, key, "top level", list)
    out = np.zeros(len(index), dtype=bool)
    for rid in ids:
        c.require(isinstance(rid, str) and rid in index, key, f"unknown region {rid!r}")
        c.require(not out[index[rid]], key, f"{rid!r} is listed twice")
        out[index[rid]] = True
    return _frozen(out)


def _figures(c: Checker, value: Any, entry: str, nation: str) -> dict[str, int]:
    """A ``{kind: count}`` mapping, every kind of FIGURES filled in (0 when left out).

    Only Sauron has Nazgûl, and only Free Peoples nations have Leaders (facts §2.2).
    """
    c.require(isinstance(value, dict), entry, f"figures must map kind -> count, got {value!r}")
    for kind, n in value.items():
        c.require(kind in FIGURES, entry, f"unknown figure kind {kind!r}; known: "
                  f"{', '.join(FIGURES)}")
        c.require(isinstance(n, int) and not isinstance(n, bool) and n >= 0, entry,
                  f"{kind}: a count is a whole number >= 0, got {n!r}")
        c.require(kind != "nazgul" or nation == "sauron", entry,
                  f"{nation} cannot have nazgul: only Sauron has Nazgûl (facts §2.2)")
        c.require(kind != "leader" or NATION_SIDE[nation] == "free_peoples", entry,
                  f"{nation} cannot have leaders: only Free Peoples nations have Leaders")
    return {k: value.get(k, 0) for k in FIGURES}


def _read_nations(doc: dict[str, Any], c: Checker) -> tuple[Nation, ...]:
    """The nations (facts §2.1, §2.2), exactly model.NATIONS in its order (the nation axis)."""
    _keys(c, doc, "top level", {"nations"})
    raw = c.field(doc, "nations", "top level", list)
    ids = [c.field(r, "id", f"nations[{i}]", str) for i, r in enumerate(raw)]
    c.unique(ids, "nation")
    for nid in ids:
        c.require(nid in NATIONS, f"nation {nid!r}", f"unknown nation; known: {', '.join(NATIONS)}")
    c.require(tuple(ids) == NATIONS, "nations", f"must list {', '.join(NATIONS)} in this order "
              f"(model.NATIONS, the arrays' nation axis), got {', '.join(ids)}")
    nations = []
    for i, (nid, r) in enumerate(zip(ids, raw, strict=True)):
        entry = f"nation {nid!r}"
        _keys(c, r, entry, {"id", "name", "active_at_start", "steps_to_war", "figures"})
        steps = c.field(r, "steps_to_war", entry, int)
        c.require(0 <= steps <= MAX_STEPS_TO_WAR, entry, f"steps_to_war {steps}: the Political "
                  f"Track has {MAX_STEPS_TO_WAR} boxes above At War (facts §2.1)")
        figures = _figures(c, c.field(r, "figures", entry, dict), entry, nid)
        nations.append(Nation(i, nid, c.field(r, "name", entry, str),
                              c.field(r, "active_at_start", entry, bool), steps, figures))
    return tuple(nations)


def _read_setup(doc: dict[str, Any], c: Checker, regions: tuple[Region, ...],
                nations: tuple[Nation, ...]) -> tuple[tuple[StartArmy, ...], np.ndarray,
                                                      np.ndarray]:
    """The starting armies and reserves (facts §2.2); board + reserve = the nation's figures."""
    _keys(c, doc, "top level", {"setup"})
    setup = c.field(doc, "setup", "top level", dict)
    _keys(c, setup, "setup", set(NATIONS))
    index = {r.id: r.index for r in regions}
    start = np.zeros((len(regions), len(NATIONS), len(FIGURES)), dtype=np.int16)
    reserve = np.zeros((len(NATIONS), len(FIGURES)), dtype=np.int16)
    armies: list[StartArmy] = []
    for n in nations:
        entry = f"setup {n.id!r}"
        c.require(n.id in setup, entry, "missing: every nation has a setup entry")
        _keys(c, setup[n.id], entry, {"armies", "reinforcements"})
        for rid, value in c.field(setup[n.id], "armies", entry, dict).items():
            where = f"{entry} in {rid!r}"
            c.require(rid in index, where, "unknown region")
            region = regions[index[rid]]
            # A nation short of At War may not enter another nation's regions (facts §1.1), so
            # it starts in its own or in one of no nation (Gondor's garrison of Osgiliath).
            c.require(region.nation in (None, n.id) or n.steps_to_war == 0, where,
                      f"the region is {region.nation}'s, and {n.id} does not start At War")
            figures = _figures(c, value, where, n.id)
            c.require(sum(figures.values()) > 0, where, "no figures listed")
            armies.append(StartArmy(rid, n.id, figures))
            start[region.index, n.index] = [figures[k] for k in FIGURES]
        kept = _figures(c, c.field(setup[n.id], "reinforcements", entry, dict),
                        f"{entry} reinforcements", n.id)
        reserve[n.index] = [kept[k] for k in FIGURES]
        on_board = start[:, n.index].sum(axis=0)
        for k, kind in enumerate(FIGURES):
            c.require(on_board[k] + reserve[n.index, k] == n.figures[kind], entry,
                      f"{kind}: {on_board[k]} on the board + {reserve[n.index, k]} in reserve "
                      f"!= the {n.figures[kind]} of nations.yaml (facts §2.2)")
    # Two sides' Armies in one region are a battle or a siege (facts §7.3); a setup has neither.
    for r in regions:
        sides = {NATION_SIDE[NATIONS[j]] for j in np.flatnonzero(start[r.index].sum(axis=1))}
        c.require(len(sides) < 2, f"region {r.id!r}", "starts with figures of both sides")
    return tuple(armies), start, reserve
