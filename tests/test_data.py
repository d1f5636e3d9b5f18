"""The 2nd edition data against the facts sheet (../shared/facts/agot-2e.md) and the rulebook."""

import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import yaml

from got_env.data import DataError, load_ruleset
from got_env.data.loader import DATA_ROOT


def test_area_counts_by_kind(rs):
    """Facts §0: 58 areas = 38 land + 12 sea + 8 ports."""
    kinds = Counter(a.kind for a in rs.areas)
    assert kinds == {"land": 38, "sea": 12, "port": 8}


def test_border_counts_by_pair_kind(rs):
    """Facts §0: 143 pairs = 63 land-land + 52 land-sea + 12 sea-sea + 8 land-port + 8 port-sea."""
    assert len(rs.borders) == 143
    kind = {a.id: a.kind for a in rs.areas}
    pairs = Counter("-".join(sorted((kind[a], kind[b]))) for a, b in rs.borders)
    assert pairs == {"land-land": 63, "land-sea": 52, "sea-sea": 12, "land-port": 8,
                     "port-sea": 8}
    assert rs.adjacency.sum() == 2 * 143
    assert (rs.adjacency == rs.adjacency.T).all()


def test_fortifications_barrels_crowns(rs):
    """Facts §0: 10 strongholds, 10 castles, 24 barrels in 21 areas, 19 crowns in 18 areas."""
    forts = Counter(a.fortification for a in rs.areas if a.fortification)
    assert forts == {"stronghold": 10, "castle": 10}
    assert sum(a.barrels for a in rs.areas) == 24
    assert sum(1 for a in rs.areas if a.barrels) == 21
    assert sum(a.crowns for a in rs.areas) == 19
    assert sum(1 for a in rs.areas if a.crowns) == 18
    assert rs.areas[rs.area("kings-landing")].crowns == 2


def test_rulebook_stated_area_facts(rs):
    """Rules spec §26 MISSING-1: Lannisport, Riverrun, Sunspear strongholds (2 mustering points),
    Harrenhal a castle, Stoney Sept neither; Riverrun and Seagard 1 barrel; Dragonstone 1 crown."""
    a = {x.id: x for x in rs.areas}
    for s in ("lannisport", "riverrun", "sunspear"):
        assert a[s].mustering_points == 2
    assert a["harrenhal"].mustering_points == 1
    assert a["stoney-sept"].mustering_points == 0
    assert a["riverrun"].barrels == a["seagard"].barrels == 1
    assert a["dragonstone"].crowns == 1


def test_islands(rs):
    """Facts §0 and rules spec §26: Dragonstone, Pyke and The Arbor have no land neighbour."""
    land = {a.id for a in rs.areas if a.kind == "land"}
    islands = {x for x in land if not any(n in land for n in rs.neighbours(x))}
    assert islands == {"dragonstone", "pyke", "the-arbor"}


@pytest.mark.parametrize("area,neighbours", [
    ("lannisport", ["stoney-sept", "searoad-marches", "the-golden-sound"]),
    ("the-golden-sound", ["lannisport", "riverrun"]),
    ("the-reach", ["dornish-marches", "blackwater"]),
    ("west-summer-sea", ["highgarden", "redwyne-straits", "east-summer-sea"]),
    ("blackwater", ["the-reach", "kings-landing", "stoney-sept", "harrenhal"]),
    ("kings-landing", ["blackwater", "kingswood"]),
    ("kingswood", ["kings-landing", "storms-end"]),
    ("storms-end", ["kingswood", "the-boneway"]),
    ("highgarden", ["redwyne-straits", "west-summer-sea"]),
    ("east-summer-sea", ["west-summer-sea", "sunspear", "port-of-sunspear"]),
    ("sunspear", ["yronwood", "sea-of-dorne", "east-summer-sea"]),
])
def test_adjacencies_of_rulebook_examples(rs, area, neighbours):
    """Rules spec §26 MISSING-1 table: adjacencies the rulebook's worked examples rely on (raid,
    march, support p.18, retreat p.20, transport, mustering p.9/p.25)."""
    for n in neighbours:
        assert rs.is_adjacent(area, n), f"{area} -- {n}"


def test_ports_join_one_land_and_one_sea(rs):
    """Facts §3 and R18: each port borders exactly its land area and one sea area."""
    ports = [a for a in rs.areas if a.kind == "port"]
    assert len(ports) == 8
    for p in ports:
        assert set(rs.neighbours(p.id)) == {p.port_land, p.port_sea}
        assert rs.port_of[rs.area(p.port_land)] == p.index
    assert rs.areas[rs.area("port-of-sunspear")].port_sea == "east-summer-sea"


def test_home_areas(rs):
    """Facts §0: the six home areas, each a stronghold."""
    homes = {a.home: a.id for a in rs.areas if a.home}
    assert homes == {"stark": "winterfell", "lannister": "lannisport", "baratheon": "dragonstone",
                     "greyjoy": "pyke", "tyrell": "highgarden", "martell": "sunspear"}
    for aid in homes.values():
        assert rs.areas[rs.area(aid)].fortification == "stronghold"


def test_house_cards(rs):
    """Facts §7: 42 cards, 7 per house with strengths {4,3,2,2,1,1,0}; icon totals per house;
    D3: Greatjon Umber and Randyll Tarly have 1 sword; 24 cards carry ability text."""
    assert len(rs.house_cards) == 42
    icons = {}
    for h in rs.houses:
        mine = [c for c in rs.house_cards if c.house == h.id]
        assert sorted(c.strength for c in mine) == [0, 1, 1, 2, 2, 3, 4]
        icons[h.id] = (sum(c.swords for c in mine), sum(c.fortifications for c in mine))
    assert icons == {"stark": (3, 2), "lannister": (4, 2), "baratheon": (2, 1),
                     "greyjoy": (2, 1), "tyrell": (3, 2), "martell": (4, 2)}
    card = {c.id: c for c in rs.house_cards}
    assert card["greatjon-umber"].swords == 1 and card["randyll-tarly"].swords == 1
    assert (card["the-red-viper"].strength, card["the-red-viper"].swords,
            card["the-red-viper"].fortifications) == (4, 2, 1)
    assert sum(c.ability is not None for c in rs.house_cards) == 24


def test_westeros_decks(rs):
    """Facts §8: three decks of 10 with 3/3/5 wildling icons."""
    for deck, icons in (("I", 3), ("II", 3), ("III", 5)):
        cards = rs.westeros_deck(deck)
        assert len(cards) == 10
        assert sum(c.wildling_icon for c in cards) == icons
    names = Counter(c.id for c in rs.westeros_deck("I"))
    assert names == {"supply": 3, "mustering": 3, "a-throne-of-blades": 2,
                     "winter-is-coming": 1, "last-days-of-summer": 1}
    assert Counter(c.id for c in rs.westeros_deck("III"))["wildlings-attack"] == 3


def test_wildling_and_tides_cards(rs):
    """Facts §9-10: 9 wildling cards; 24 Tides of Battle cards (8 zero, 4 sword, 4 fort, 4 two,
    2 three, 2 skull)."""
    assert len(rs.wildling_cards) == 9
    tides = {t.id: t for t in rs.tides_cards}
    assert {k: t.copies for k, t in tides.items()} == {
        "zero": 8, "sword": 4, "fortification": 4, "two": 4, "three": 2, "skull": 2}
    assert tides["skull"].skulls == 1 and tides["three"].strength == 3


def test_order_tokens(rs):
    """Rules spec §2.2: 15 tokens per house: March -1/+0/+1*, Defense +1/+1/+2*, Support 0/0/+1*,
    2 Raid + Raid*, 2 CP + CP*."""
    by_type = {}
    for t in rs.order_tokens:
        by_type.setdefault(t.type, []).append((t.bonus, t.special))
    assert sorted(by_type["march"]) == [(-1, False), (0, False), (1, True)]
    assert sorted(by_type["defense"]) == [(1, False), (1, False), (2, True)]
    assert sorted(by_type["support"]) == [(0, False), (0, False), (1, True)]
    assert sorted(s for _, s in by_type["raid"]) == [False, False, True]
    assert sorted(s for _, s in by_type["consolidate-power"]) == [False, False, True]


@pytest.mark.parametrize("n,tracks", [
    (6, {"iron-throne": "baratheon lannister stark martell greyjoy tyrell",
         "fiefdoms": "greyjoy tyrell martell stark baratheon lannister",
         "kings-court": "lannister stark martell baratheon tyrell greyjoy"}),
    (5, {"iron-throne": "baratheon lannister stark greyjoy tyrell",
         "fiefdoms": "greyjoy tyrell stark baratheon lannister",
         "kings-court": "lannister stark baratheon tyrell greyjoy"}),
    (4, {"iron-throne": "baratheon lannister stark greyjoy",
         "fiefdoms": "greyjoy stark baratheon lannister",
         "kings-court": "lannister stark baratheon greyjoy"}),
    (3, {"iron-throne": "baratheon lannister stark",
         "fiefdoms": "stark baratheon lannister",
         "kings-court": "lannister stark baratheon"}),
])
def test_track_order_compressed(rs, n, tracks):
    """Rules spec 4.1 step 8 and facts §4.1: tracks close toward position 1 with fewer players."""
    assert {k: " ".join(v) for k, v in rs.setups[n].tracks.items()} == tracks


def test_kings_court_stars(rs):
    """Facts §4.2 and rules spec §9.1 (position 1 gives 3, position 4 gives 1 at 5-6 players)."""
    stars = {n: rs.setups[n].kings_court_stars for n in (3, 4, 5, 6)}
    assert stars == {3: (3, 2, 1), 4: (3, 2, 1, 0), 5: (3, 3, 2, 1, 0), 6: (3, 3, 2, 1, 0, 0)}


def test_supply_limits(rs):
    """Facts §4.3 and R7.3 (level 2 = 3,2,2; level 3 = 3,2,2,2; level 5 = 4,3,2,2)."""
    assert rs.supply_limits[2] == (3, 2, 2)
    assert rs.supply_limits[3] == (3, 2, 2, 2)
    assert rs.supply_limits[5] == (4, 3, 2, 2)
    assert rs.supply_limits[0] == (2, 2) and rs.supply_limits[6] == (4, 3, 2, 2, 2)


def test_neutral_force_counts(rs):
    """Facts §5 / §12 D4: 2/9/12/14 tokens at 6/5/4/3 players (3p: 12 impassable land areas)."""
    counts = {}
    for n, s in rs.setups.items():
        land_blocked = [a for a in s.impassable if rs.areas[rs.area(a)].kind == "land"]
        counts[n] = len(s.neutral_forces) + len(land_blocked)
    assert counts == {6: 2, 5: 9, 4: 12, 3: 14}
    assert rs.setups[4].neutral_forces["storms-end"] == 4
    assert rs.setups[5].neutral_forces["sunspear"] == 5


def test_cli_prints_json():
    out = subprocess.run([sys.executable, "-m", "got_env.data", "--ruleset", "2e"],
                         capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)
    for key in ("areas", "borders", "setups", "house_cards", "westeros_decks", "wildling_cards"):
        assert key in doc
    area = next(a for a in doc["areas"] if a["id"] == "winterfell")
    assert {k: area[k] for k in ("kind", "fortification", "barrels", "crowns", "home")} == {
        "kind": "land", "fortification": "stronghold", "barrels": 1, "crowns": 1, "home": "stark"}
    assert len(doc["borders"]) == 143


# --- corrupted data -----------------------------------------------------------------------


@pytest.fixture
def data_copy(tmp_path):
    dst = tmp_path / "2e"
    shutil.copytree(DATA_ROOT / "2e", dst)
    return dst


def _edit(path: Path, fn):
    doc = yaml.safe_load(path.read_text())
    fn(doc)
    path.write_text(yaml.safe_dump(doc, sort_keys=False))


def test_copy_loads_like_the_original(data_copy):
    assert load_ruleset("2e", data_dir=data_copy).to_json() == load_ruleset("2e").to_json()


def _area(d, aid):
    return next(a for a in d["areas"] if a["id"] == aid)


def test_unknown_area_id_in_neighbours(data_copy):
    _edit(data_copy / "board.yaml", lambda d: _area(d, "winterfell")["neighbours"].append("narnia"))
    with pytest.raises(DataError, match="board.yaml: area 'winterfell': unknown neighbour.*narnia"):
        load_ruleset("2e", data_dir=data_copy)


def test_one_way_border(data_copy):
    """Winterfell lists Castle Black, but Castle Black no longer lists Winterfell."""
    _edit(data_copy / "board.yaml",
          lambda d: _area(d, "castle-black")["neighbours"].remove("winterfell"))
    with pytest.raises(DataError, match="border winterfell -> castle-black: one-way border"):
        load_ruleset("2e", data_dir=data_copy)


def test_port_without_sea(data_copy):
    def drop(d):
        _area(d, "port-of-pyke")["neighbours"].remove("ironmans-bay")
        _area(d, "ironmans-bay")["neighbours"].remove("port-of-pyke")
    _edit(data_copy / "board.yaml", drop)
    with pytest.raises(DataError, match="port 'port-of-pyke'.*exactly its land and sea"):
        load_ruleset("2e", data_dir=data_copy)


def test_port_sea_field_not_a_sea(data_copy):
    def bad(d):
        _area(d, "port-of-pyke")["sea"] = "pyke"
    _edit(data_copy / "board.yaml", bad)
    with pytest.raises(DataError, match="port 'port-of-pyke'.*not a sea area"):
        load_ruleset("2e", data_dir=data_copy)


def test_unknown_area_in_setup(data_copy):
    _edit(data_copy / "setups.yaml",
          lambda d: d["starting_units"]["stark"].update({"the-wall": "F"}))
    with pytest.raises(DataError, match="starting_units.stark.the-wall"):
        load_ruleset("2e", data_dir=data_copy)


def test_wrong_card_count(data_copy):
    _edit(data_copy / "house_cards.yaml", lambda d: d["house_cards"].pop())
    with pytest.raises(DataError, match="house 'martell'"):
        load_ruleset("2e", data_dir=data_copy)


def test_missing_file(data_copy):
    (data_copy / "tracks.yaml").unlink()
    with pytest.raises(DataError, match="tracks.yaml: file not found"):
        load_ruleset("2e", data_dir=data_copy)


def test_a_data_file_not_in_utf8_is_named(data_copy):
    path = data_copy / "tracks.yaml"
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    with pytest.raises(DataError, match="tracks.yaml: not UTF-8 text"):
        load_ruleset("2e", data_dir=data_copy)


def test_a_data_path_that_is_a_folder_is_named(data_copy):
    (data_copy / "tracks.yaml").unlink()
    (data_copy / "tracks.yaml").mkdir()
    with pytest.raises(DataError, match="tracks.yaml: cannot read it"):
        load_ruleset("2e", data_dir=data_copy)


def test_unknown_ruleset():
    with pytest.raises(DataError, match="unknown ruleset '3e'"):
        load_ruleset("3e")


def test_adjacency_tables_are_read_only(rs):
    with pytest.raises(ValueError):
        rs.adjacency[0, 1] = True
    assert rs.adjacency.dtype == np.bool_


def test_cli_into_a_closed_pipe_exits_quietly():
    """``python -m got_env.data | head``: the reader stops early; no BrokenPipeError traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "got_env.data", "--ruleset", "1e"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.read(100)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 1
    assert err == ""


def test_a_ruleset_pickles_without_its_derived_tables():
    """A state pickles after its board was drawn: the ruleset's derived tables (the picture's
    drawing functions among them) stay behind and are rebuilt on use."""
    import pickle

    import got_env
    from got_env.render.picture import render_board

    env = got_env.raw_env(num_players=3)
    env.reset(seed=0)
    render_board(env.game)
    assert "render.drawing" in env.game.ruleset.__dict__["_derived"]
    again = pickle.loads(pickle.dumps(env.game))
    assert again.digest() == env.game.digest()
    assert "_derived" not in again.ruleset.__dict__ or \
        "render.drawing" not in again.ruleset.__dict__["_derived"]
    render_board(again)
