"""Load and validate one ruleset's game data (board, houses, cards, decks, setups).

The data lives in plain YAML files under ``got_env/data/<ruleset>/``; this module is the only code
that reads them. Everything is checked on load (known ids, symmetric borders, ports joined to one
land and one sea area, component counts), and a bad file fails with a :class:`DataError` that names
the file and the entry, so a typo in the data can never surface later as a wrong rule.

The result is a frozen :class:`Ruleset`: records for every area, card and setup, plus index tables
built once (adjacency matrix, port links, fortification levels) that the engine uses as numpy
arrays. Area, house and card ids are the facts sheet's kebab-case ids; the engine indexes arrays by
the position of an id in the ruleset's tuples (``ruleset.area("winterfell")``).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np

from boardkit.datafiles import Checker, read_yaml

from .model import (  # the records and vocabulary, re-exported: every name as before
    AREA_KINDS,
    DATA_ROOT,
    DECK_NAMES,
    FILES,
    FORTIFICATIONS,
    OPTIONAL_FILES,
    ORDER_TYPES,
    PLAYER_COUNTS,
    RULE_VALUES,
    RULESETS,
    TIEBREAK_CHAINS,
    TRACKS,
    UNIT_LETTERS,
    UNIT_TYPES,
    Area,
    DataError,
    House,
    HouseCard,
    OrderToken,
    Rules,
    Ruleset,
    Setup,
    TidesCard,
    WesterosCard,
    WildlingCard,
)

# ---------------------------------------------------------------------------------------------
# Reading and checking (the kit's boardkit.datafiles: Checker, read_yaml)


def _parse_units(c: Checker, entry: str, letters: Any) -> dict[str, int]:
    if not isinstance(letters, str) or not letters:
        c.fail(entry, f"units must be a string of F/K/S/E letters, got {letters!r}")
    out: dict[str, int] = {}
    for ch in letters:
        if ch not in UNIT_LETTERS:
            c.fail(entry, f"unknown unit letter {ch!r} (use F, K, S, E)")
        out[UNIT_LETTERS[ch]] = out.get(UNIT_LETTERS[ch], 0) + 1
    return out


def _load_board(doc: dict[str, Any]) -> tuple[tuple[Area, ...], tuple[tuple[str, str], ...]]:
    c = Checker("board.yaml")
    raw_areas = c.field(doc, "areas", "top level", list)
    areas: list[Area] = []
    for i, r in enumerate(raw_areas):
        aid = c.field(r, "id", f"areas[{i}]", str)
        entry = f"area {aid!r}"
        kind = c.field(r, "kind", entry, str)
        c.require(kind in AREA_KINDS, entry, f"unknown kind {kind!r}")
        fort = r.get("fortification")
        c.require(fort is None or fort in FORTIFICATIONS, entry, f"unknown fortification {fort!r}")
        barrels, crowns = int(r.get("barrels", 0) or 0), int(r.get("crowns", 0) or 0)
        if kind != "land":
            c.require(fort is None and barrels == 0 and crowns == 0 and r.get("home") is None,
                      entry, "only land areas have fortifications, icons or a home shield")
        land = sea = None
        if kind == "port":
            land = c.field(r, "land", entry, str)
            sea = c.field(r, "sea", entry, str)
        else:
            c.require("land" not in r and "sea" not in r, entry, "only ports name a land/sea")
        areas.append(Area(i, aid, c.field(r, "name", entry, str), kind, fort, barrels, crowns,
                          r.get("home"), land, sea))
    c.unique([a.id for a in areas], "area")
    by_id = {a.id: a for a in areas}

    nbrs: dict[str, set[str]] = {}
    for r in raw_areas:
        aid = r["id"]
        listed = c.field(r, "neighbours", f"area {aid!r}", list)
        for x in listed:
            c.require(x in by_id, f"area {aid!r}", f"unknown neighbour id {x!r}")
            c.require(x != aid, f"area {aid!r}", "an area cannot border itself")
        c.require(len(set(listed)) == len(listed), f"area {aid!r}", "a neighbour is listed twice")
        nbrs[aid] = set(listed)
    for a in areas:
        for b in sorted(nbrs[a.id]):
            c.require(a.id in nbrs[b], f"border {a.id} -> {b}",
                      f"one-way border: {b!r} does not list {a.id!r} among its neighbours")
    borders = sorted({tuple(sorted((a, b))) for a in nbrs for b in nbrs[a]})
    # Pair kinds: ports touch exactly their land area and their sea area.
    for a in areas:
        entry = f"port {a.id!r}"
        if a.kind == "port":
            c.require(a.port_land in by_id and by_id[a.port_land].kind == "land", entry,
                      f"its land {a.port_land!r} is not a land area")
            c.require(a.port_sea in by_id and by_id[a.port_sea].kind == "sea", entry,
                      f"its sea {a.port_sea!r} is not a sea area")
            c.require(nbrs[a.id] == {a.port_land, a.port_sea}, entry,
                      f"must border exactly its land and sea area, borders {sorted(nbrs[a.id])}")
            c.require(a.port_sea in nbrs[a.port_land], entry,
                      "its land area must also border its sea area")
            c.require(by_id[a.port_land].fortification is not None, entry,
                      "its land area must have a castle or stronghold")
    for a, b in borders:
        ka, kb = by_id[a].kind, by_id[b].kind
        if "port" in (ka, kb):
            p = by_id[a] if ka == "port" else by_id[b]
            other = b if p.id == a else a
            c.require(other in (p.port_land, p.port_sea), f"border {a} -- {b}",
                      f"a port borders only its land and sea area ({p.port_land}, {p.port_sea})")
    return tuple(areas), tuple(borders)  # type: ignore[arg-type]


def _load_rules(doc: dict[str, Any]) -> Rules:
    c = Checker("rules.yaml")
    names = tuple(RULE_VALUES)
    unknown = sorted(set(doc) - set(names))
    c.require(not unknown, "top level", f"unknown rule(s) {unknown}; known rules: {list(names)}")
    values: dict[str, Any] = {}
    for name, accepted in RULE_VALUES.items():
        if isinstance(accepted, tuple):
            value = c.field(doc, name, "top level", str)
            c.require(value in accepted, name, f"{value!r} is not one of {list(accepted)}")
        else:
            value = c.field(doc, name, "top level", accepted)
        values[name] = tuple(value) if isinstance(value, list) else value
    counts = values["player_counts"]
    c.require(bool(counts) and all(n in PLAYER_COUNTS for n in counts), "player_counts",
              f"must be player counts among {PLAYER_COUNTS}, got {list(counts)}")
    c.require(bool(values["tiebreaks"]) and all(t in TIEBREAK_CHAINS for t in values["tiebreaks"]),
              "tiebreaks", f"must name chains among {TIEBREAK_CHAINS}")
    c.require(len(values["house_card_strengths"]) == 7, "house_card_strengths",
              "a house has 7 house cards")
    return Rules(**values)


def _compress(order: list[str], in_play: tuple[str, ...]) -> tuple[str, ...]:
    """Remove houses not in play and close the gaps toward position 1 (rules spec 4.1 step 8)."""
    return tuple(h for h in order if h in in_play)


def load_ruleset(name: str = "2e", data_dir: str | Path | None = None) -> Ruleset:
    """Load and validate the data of ruleset ``name``.

    :param name: ruleset id: ``"2e"`` (2nd edition, 3-6 players) or ``"1e"`` (1st edition, 3-5
        players; its stand-ins for data no source gave are listed in each file's header).
    :param data_dir: read the YAML files from this folder instead of the packaged one (used to
        test corrupted data and for researchers' custom boards).
    :raises DataError: a file is missing or any entry is inconsistent; the message names it.
    """
    if name not in RULESETS:
        raise DataError(f"unknown ruleset {name!r}; known rulesets: {', '.join(RULESETS)}")
    directory = Path(data_dir) if data_dir is not None else DATA_ROOT / name
    if data_dir is None:
        return _load_cached(name)
    return _build(name, directory)


@functools.cache
def _load_cached(name: str) -> Ruleset:
    return _build(name, DATA_ROOT / name)


def _build(name: str, directory: Path) -> Ruleset:
    docs = {f: read_yaml(directory, f) for f in FILES}
    rules = _load_rules(docs["rules.yaml"])
    used_files = (rules.wildlings == "cards", rules.tides_of_battle)
    for f, used in zip(OPTIONAL_FILES, used_files, strict=True):
        if used:
            docs[f] = read_yaml(directory, f)
        elif (directory / f).exists():
            raise DataError(f"{f}: present, but this ruleset's rules.yaml does not use it")
    areas, borders = _load_board(docs["board.yaml"])
    area_ids = {a.id: a for a in areas}

    # houses
    c = Checker("houses.yaml")
    hdoc = docs["houses.yaml"]
    houses = []
    for i, r in enumerate(c.field(hdoc, "houses", "top level", list)):
        hid = c.field(r, "id", f"houses[{i}]", str)
        home = c.field(r, "home", f"house {hid!r}", str)
        c.require(home in area_ids, f"house {hid!r}", f"unknown home area {home!r}")
        houses.append(House(i, hid, c.field(r, "name", f"house {hid!r}", str), home))
    c.unique([h.id for h in houses], "house")
    house_ids = {h.id for h in houses}
    for a in areas:
        if a.home is not None:
            Checker("board.yaml").require(a.home in house_ids, f"area {a.id!r}",
                                           f"unknown home house {a.home!r}")
    for h in houses:
        c.require(area_ids[h.home].home == h.id, f"house {h.id!r}",
                  f"home area {h.home!r} does not carry its shield in board.yaml")
    unit_pool = c.field(hdoc, "unit_pool", "top level", dict)
    c.require(set(unit_pool) == set(UNIT_TYPES), "unit_pool", f"must list {UNIT_TYPES}")
    unit_strength = c.field(hdoc, "unit_strength", "top level", dict)
    c.require(set(unit_strength) == set(UNIT_TYPES), "unit_strength", f"must list {UNIT_TYPES}")

    # orders
    c = Checker("orders.yaml")
    tokens = []
    for i, r in enumerate(c.field(docs["orders.yaml"], "order_tokens", "top level", list)):
        tid = c.field(r, "id", f"order_tokens[{i}]", str)
        t = c.field(r, "type", f"order token {tid!r}", str)
        c.require(t in ORDER_TYPES, f"order token {tid!r}", f"unknown order type {t!r}")
        tokens.append(OrderToken(i, tid, t, r.get("bonus"), bool(r.get("special"))))
    c.unique([t.id for t in tokens], "order token")
    c.require(len(tokens) == 15 and sum(t.special for t in tokens) == 5, "order_tokens",
              "a house has 15 order tokens, 5 of them special (rules spec 2.2)")

    # tracks
    c = Checker("tracks.yaml")
    tdoc = docs["tracks.yaml"]
    itracks = c.field(tdoc, "influence_tracks", "top level", dict)
    c.require(tuple(itracks) == TRACKS, "influence_tracks", f"must list {TRACKS} in order")
    for t, order in itracks.items():
        c.require(sorted(order) == sorted(house_ids), f"influence track {t!r}",
                  "must list every house exactly once")
    dominance = c.field(tdoc, "dominance_tokens", "top level", dict)
    c.require(tuple(dominance) == TRACKS, "dominance_tokens", f"must list {TRACKS}")
    supply_raw = c.field(tdoc, "supply_limits", "top level", dict)
    c.require(sorted(supply_raw) == list(range(7)), "supply_limits", "levels 0..6 expected")
    supply_limits = tuple(tuple(supply_raw[i]) for i in range(7))
    stars_raw = c.field(tdoc, "kings_court_stars", "top level", dict)

    # setups
    c = Checker("setups.yaml")
    sdoc = docs["setups.yaml"]
    starting: dict[str, dict[str, dict[str, int]]] = {}
    for hid, placements in c.field(sdoc, "starting_units", "top level", dict).items():
        c.require(hid in house_ids, f"starting_units.{hid}", "unknown house")
        starting[hid] = {}
        for aid, letters in placements.items():
            entry = f"starting_units.{hid}.{aid}"
            c.require(aid in area_ids, entry, f"unknown area id {aid!r}")
            units = _parse_units(c, entry, letters)
            kind = area_ids[aid].kind
            ships = units.get("ship", 0)
            c.require(ships == 0 if kind == "land" else ships == sum(units.values()), entry,
                      "ships start only in seas and ports, land units only on land")
            starting[hid][aid] = units
    c.require(set(starting) == house_ids, "starting_units", "every house needs starting units")
    start_supply = c.field(sdoc, "starting_supply", "top level", dict)
    for h in houses:
        barrels = sum(area_ids[a].barrels for a, u in starting[h.id].items()
                      if area_ids[a].kind == "land") + (
            area_ids[h.home].barrels if h.home not in starting[h.id] else 0)
        c.require(start_supply.get(h.id) == min(6, barrels), f"starting_supply.{h.id}",
                  f"{start_supply.get(h.id)} does not match the {barrels} barrels it controls")
    setups: dict[int, Setup] = {}
    counts = c.field(sdoc, "player_counts", "top level", dict)
    c.require(sorted(counts) == sorted(rules.player_counts), "player_counts",
              f"must cover exactly the player counts of rules.yaml {list(rules.player_counts)}")
    for n in rules.player_counts:
        entry = f"player_counts.{n}"
        r = counts[n]
        in_play = tuple(c.field(r, "houses", entry, list))
        c.require(len(in_play) == n and set(in_play) <= house_ids, entry,
                  f"needs {n} known houses, got {list(in_play)}")
        impassable = tuple(r.get("impassable") or ())
        for a in impassable:
            c.require(a in area_ids, entry, f"unknown impassable area {a!r}")
        neutral = dict(r.get("neutral_forces") or {})
        for a, s in neutral.items():
            c.require(a in area_ids and area_ids[a].kind == "land", entry,
                      f"neutral force in unknown or non-land area {a!r}")
            c.require(isinstance(s, int) and s > 0, entry, f"bad neutral strength {s!r} in {a}")
            c.require(a not in impassable, entry, f"{a} is both impassable and a neutral force")
        # 1e spec 13: the starting units of a house not played stand as one neutral force per
        # area (land or sea), of their summed strength.
        neutral_houses = tuple(r.get("neutral_houses") or ())
        for h in neutral_houses:
            c.require(h in house_ids and h not in in_play, entry,
                      f"neutral house {h!r} is unknown or in play")
            for a, u in starting[h].items():
                c.require(a not in neutral and a not in impassable, entry,
                          f"{h}'s units in {a} would stand on another neutral force")
                neutral[a] = sum(int(unit_strength[t]) * k for t, k in u.items())
        for h in in_play:
            for a in starting[h]:
                c.require(a not in impassable and a not in neutral, entry,
                          f"{h} starts in {a}, which is impassable or neutral at {n} players")
        removed = dict(r.get("optional_removed_units") or {})
        opt: dict[str, dict[str, dict[str, dict[str, int]]]] = {}
        for flag, per_house in removed.items():
            opt[flag] = {}
            for hid, placements in per_house.items():
                opt[flag][hid] = {}
                for aid, letters in placements.items():
                    e = f"{entry}.optional_removed_units.{flag}.{hid}.{aid}"
                    c.require(aid in starting.get(hid, {}), e, "not a starting placement")
                    opt[flag][hid][aid] = _parse_units(c, e, letters)
        stars = stars_raw.get(n)
        Checker("tracks.yaml").require(isinstance(stars, list) and len(stars) == n,
                                        f"kings_court_stars.{n}", f"needs {n} entries")
        setups[n] = Setup(
            num_players=n,
            houses=in_play,
            impassable=impassable,
            neutral_forces=neutral,
            tracks={t: _compress(order, in_play) for t, order in itracks.items()},
            starting_units={h: starting[h] for h in in_play},
            optional_removed_units=opt,
            kings_court_stars=tuple(stars),
            castles_to_win=int(r.get("castles_to_win", tdoc.get("castles_to_win", 7))),
            neutral_houses=neutral_houses,
        )

    # house cards
    c = Checker("house_cards.yaml")
    cards = []
    for i, r in enumerate(c.field(docs["house_cards.yaml"], "house_cards", "top level", list)):
        cid = c.field(r, "id", f"house_cards[{i}]", str)
        entry = f"house card {cid!r}"
        house = c.field(r, "house", entry, str)
        c.require(house in house_ids, entry, f"unknown house {house!r}")
        ability = r.get("ability")
        c.require((ability is None) == (r.get("text") is None), entry,
                  "a card has ability text exactly when it names an ability id")
        cards.append(HouseCard(i, cid, c.field(r, "name", entry, str), house,
                               c.field(r, "strength", entry, int), c.field(r, "swords", entry, int),
                               c.field(r, "fortifications", entry, int), ability, r.get("text")))
    c.unique([x.id for x in cards], "house card")
    for h in houses:
        strengths = sorted(x.strength for x in cards if x.house == h.id)
        c.require(strengths == sorted(rules.house_card_strengths), f"house {h.id!r}",
                  f"needs 7 cards of strengths {list(rules.house_card_strengths)} "
                  f"(rules.yaml), has {strengths}")

    # westeros decks
    c = Checker("westeros.yaml")
    wdecks = c.field(docs["westeros.yaml"], "westeros_decks", "top level", dict)
    c.require(tuple(wdecks) == DECK_NAMES, "westeros_decks", f"must list decks {DECK_NAMES}")
    wcards: list[WesterosCard] = []
    for d in DECK_NAMES:
        for r in wdecks[d]:
            cid = c.field(r, "id", f"deck {d}", str)
            entry = f"deck {d} card {cid!r}"
            wcards.append(WesterosCard(len(wcards), cid, c.field(r, "name", entry, str), d,
                                       c.field(r, "copies", entry, int),
                                       bool(c.field(r, "wildling_icon", entry, bool)),
                                       c.field(r, "text", entry, str)))
        total = sum(x.copies for x in wcards if x.deck == d)
        c.require(total == 10, f"deck {d}", f"must hold 10 cards, holds {total}")

    c = Checker("wildling_cards.yaml")
    wl = []
    wdoc = docs.get("wildling_cards.yaml", {"wildling_cards": []})
    for i, r in enumerate(c.field(wdoc, "wildling_cards", "top level", list)):
        cid = c.field(r, "id", f"wildling_cards[{i}]", str)
        entry = f"wildling card {cid!r}"
        wl.append(WildlingCard(i, cid, c.field(r, "name", entry, str),
                               c.field(r, "nights_watch_victory", entry, str),
                               c.field(r, "wildling_victory_lowest", entry, str),
                               c.field(r, "wildling_victory_others", entry, str)))
    c.unique([x.id for x in wl], "wildling card")
    c.require(len(wl) == (9 if rules.wildlings == "cards" else 0), "wildling_cards",
              f"there are 9 wildling cards, found {len(wl)}")

    c = Checker("tides_of_battle.yaml")
    tides = []
    tdoc_tides = docs.get("tides_of_battle.yaml", {"tides_of_battle": []})
    for i, r in enumerate(c.field(tdoc_tides, "tides_of_battle", "top level", list)):
        cid = c.field(r, "id", f"tides_of_battle[{i}]", str)
        entry = f"tides card {cid!r}"
        tides.append(TidesCard(i, cid, *(c.field(r, k, entry, int) for k in
                                          ("copies", "strength", "swords", "fortifications",
                                           "skulls"))))
    c.require(sum(t.copies for t in tides) == (24 if rules.tides_of_battle else 0),
              "tides_of_battle", "the deck holds 24 cards")

    return Ruleset(
        name=name,
        rules=rules,
        areas=areas,
        borders=borders,
        houses=tuple(houses),
        order_tokens=tuple(tokens),
        house_cards=tuple(cards),
        westeros_cards=tuple(wcards),
        wildling_cards=tuple(wl),
        tides_cards=tuple(tides),
        setups=setups,
        unit_pool=dict(unit_pool),
        unit_strength=dict(unit_strength),
        power_tokens_per_house=int(hdoc.get("power_tokens_per_house", 20)),
        starting_power=int(hdoc.get("starting_power", 5)),
        garrison_strength=int(hdoc.get("garrison_strength", 2)),
        starting_supply=dict(start_supply),
        influence_tracks={t: tuple(v) for t, v in itracks.items()},
        dominance_tokens=dict(dominance),
        supply_limits=supply_limits,
        wildling_threat=dict(Checker("tracks.yaml").field(tdoc, "wildling_threat", "top level",
                                                           dict)),
        rounds=int(tdoc.get("rounds", 10)),
        castles_to_win=int(tdoc.get("castles_to_win", 7)),
        **_index_tables(areas, borders, tuple(houses)),
    )


def _index_tables(areas: tuple[Area, ...], borders: tuple[tuple[str, str], ...],
                  houses: tuple[House, ...]) -> dict[str, np.ndarray]:
    """Numpy tables over area indices, built once and made read-only."""
    idx = {a.id: a.index for a in areas}
    hidx = {h.id: h.index for h in houses}
    n = len(areas)
    adjacency = np.zeros((n, n), dtype=bool)
    for a, b in borders:
        adjacency[idx[a], idx[b]] = adjacency[idx[b], idx[a]] = True
    tables = {
        "adjacency": adjacency,
        "kind": np.array([AREA_KINDS.index(a.kind) for a in areas], dtype=np.int8),
        "fort_level": np.array([a.mustering_points for a in areas], dtype=np.int8),
        "barrels": np.array([a.barrels for a in areas], dtype=np.int8),
        "crowns": np.array([a.crowns for a in areas], dtype=np.int8),
        "home_of": np.array([hidx[a.home] if a.home else -1 for a in areas], dtype=np.int8),
        "port_of": np.full(n, -1, dtype=np.int16),
        "port_land": np.full(n, -1, dtype=np.int16),
        "port_sea": np.full(n, -1, dtype=np.int16),
    }
    for a in areas:
        if a.kind == "port":
            tables["port_land"][a.index] = idx[a.port_land]
            tables["port_sea"][a.index] = idx[a.port_sea]
            tables["port_of"][idx[a.port_land]] = a.index
    for t in tables.values():
        t.setflags(write=False)
    return tables
