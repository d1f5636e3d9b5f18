"""War of the Ring's cards, characters, Hunt tiles and dice against the fact sheet's tables.

The fact sheet (``../shared/facts/war-of-the-ring.md``) is not in the repository; its card tables
are kept verbatim in ``fixtures/facts_card_tables.md`` (checked against the sheet wherever the
sheet is present). The tests parse those markdown tables here, independently of the YAML files and
of the loader, and compare field by field.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from wotr_env.data.cards import DECK_SIZE, UNLIMITED_LEVEL, Cards, load_cards
from wotr_env.data.model import DATA_ROOT, DECKS, DataError
from wotr_env.data.source import Source

FIXTURE = Path(__file__).parent / "fixtures" / "facts_card_tables.md"
SHEET = Path(__file__).parents[3] / "shared/facts/war-of-the-ring.md"
SECTIONS = ("3.1", "3.2", "3.3", "3.4", "4.1", "4.2", "5", "6.1", "6.2", "6.3", "6.4", "6.5")
DECK_SECTION = {"6.2": "fp-character", "6.3": "fp-strategy", "6.4": "shadow-character",
                "6.5": "shadow-strategy"}
ICON_LETTER = {"C": "character", "A": "army", "M": "muster"}
FILES = ("events.yaml", "characters.yaml", "hunt.yaml", "dice.yaml")


# -- the fixture's markdown, parsed without the loader --------------------------------------------

def _blocks(text: str) -> dict[str, list[str]]:
    """Section number -> [its heading line, its table lines], for every heading of the text."""
    blocks: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^#{2,3} (\d+(?:\.\d+)?)[. ]", line)
        if m:
            current = m.group(1)
            blocks[current] = [line]
        elif current and line.startswith("|"):
            blocks[current].append(line)
    return blocks


def _table(section: str) -> list[dict[str, str]]:
    """The rows of a section's table, as header -> cell text."""
    lines = _blocks(FIXTURE.read_text(encoding="utf-8"))[section][1:]

    def cells(line: str) -> list[str]:
        return [c.strip() for c in line.strip().strip("|").split(" | ")]

    head = cells(lines[0])
    rows = [dict(zip(head, cells(line), strict=True)) for line in lines[2:]]
    return [r for r in rows if not r[head[0]].startswith("**total")]


def _plain(cell: str) -> str:
    return cell.replace("**", "").strip()


@pytest.fixture(scope="module")
def cards() -> Cards:
    return load_cards(Source("2e"))


def test_fixture_equals_the_fact_sheet():
    """The fixture holds facts §3.1-§3.4, §4.1-§4.2, §5 and §6.1-§6.5 tables verbatim."""
    if not SHEET.exists():
        pytest.skip(f"the fact sheet is not here ({SHEET})")
    sheet = _blocks(SHEET.read_text(encoding="utf-8"))
    fixture = _blocks(FIXTURE.read_text(encoding="utf-8"))
    assert tuple(fixture) == SECTIONS
    for section in SECTIONS:
        assert fixture[section] == sheet[section], f"facts §{section} changed"


# -- counts ---------------------------------------------------------------------------------------

def test_counts(cards):
    """Facts §0: 96 Event cards (4 decks of 24), 38 Combat effects (§6.1), 14 Character cards
    (10 FP, 3 Minions, 1 Gollum), 24 Hunt tiles (16 standard + 4 FP and 4 Shadow special)."""
    assert len(cards.events) == 96
    assert Counter(e.deck for e in cards.events) == {d: DECK_SIZE for d in DECKS}
    assert len(cards.combat) == 38
    assert len(cards.characters) == 14
    kinds = Counter(ch.kind for ch in cards.characters)
    assert kinds == {"companion": 7, "upgrade": 2, "reference": 1, "gollum": 1, "minion": 3}
    assert sum(ch.side == "free_peoples" and ch.kind != "gollum" for ch in cards.characters) == 10
    assert len(cards.tiles) == 24
    assert Counter(t.side for t in cards.tiles) == {None: 16, "free_peoples": 4, "shadow": 4}


def test_fixture_counts():
    """The sheet's own tables hold what §0 says: 96 cards, 38 Combat titles, 16 + 8 tiles."""
    assert sum(len(_table(s)) for s in DECK_SECTION) == 96
    assert len(_table("6.1")) == 38
    assert sum(int(r["count"]) for r in _table("4.1")) == 16
    assert len(_table("4.2")) == 8


# -- Event cards and Combat effects ---------------------------------------------------------------

def test_event_cards_match_the_sheet(cards):
    """Facts §6.2-§6.5: every card's deck, number, name, icon, table flag and Combat title."""
    by_slot = {(e.deck, e.number): e for e in cards.events}
    combat_name = {c.id: c.name for c in cards.combat}
    differences = []
    for section, deck in DECK_SECTION.items():
        for row in _table(section):
            e = by_slot.get((deck, int(row["#"])))
            if e is None:
                differences.append((deck, row["#"], "missing"))
                continue
            expected = (row["card"], ICON_LETTER[row.get("Icon", "C")],
                        row["Pre"].startswith("table"), row["Combat"])
            found = (e.name, e.icon, e.table, combat_name[e.combat])
            if expected != found:
                differences.append((deck, row["#"], expected, found))
    assert differences == []


def test_strategy_icon_mix(cards):
    """Facts §6: FP Strategy 8 Army / 16 Muster, Shadow Strategy 11 / 13; Character decks all C."""
    mix = {d: Counter(e.icon for e in cards.events if e.deck == d) for d in DECKS}
    assert mix == {"fp-character": {"character": 24}, "fp-strategy": {"army": 8, "muster": 16},
                   "shadow-character": {"character": 24},
                   "shadow-strategy": {"army": 11, "muster": 13}}
    for section in ("6.3", "6.5"):
        assert Counter(ICON_LETTER[r["Icon"]] for r in _table(section)) == mix[
            DECK_SECTION[section]]


def test_combat_effects_match_the_sheet(cards):
    """Facts §6.1: every Combat title's initiative (Mûmakil: 3 and 5) and whether it has a
    condition; each is on at least one card."""
    by_name = {c.name: c for c in cards.combat}
    assert set(by_name) == {r["Combat title"] for r in _table("6.1")}
    for row in _table("6.1"):
        effect = by_name[row["Combat title"]]
        assert effect.initiatives == tuple(int(x) for x in re.findall(r"\d", row["Init"]))
        assert (effect.condition is None) == (row["condition"] == "—")
    assert by_name["Mûmakil"].initiatives == (3, 5)
    assert {e.combat for e in cards.events} == {c.id for c in cards.combat}


def test_table_cards_and_differing_cards(cards):
    """Facts §6: only table cards carry a discard condition; the five cards [2E-NOTES] names as
    different in 1E (§6 edition warning, §8.4) are marked."""
    assert all(e.discard is None for e in cards.events if not e.table)
    assert sum(e.table for e in cards.events) == 14
    assert {e.name for e in cards.events if e.differs_1e} == {
        "The Ents Awake: Treebeard", "The Ents Awake: Huorns", "The Ents Awake: Entmoot",
        "Paths of the Woses", "The Last Battle"}


# -- characters -----------------------------------------------------------------------------------

def _character_rows() -> list[tuple[str, str | None, int | None, int, str | None]]:
    """(name, title, level, leadership, activates) from facts §3.1, §3.2, §3.3 and §3.4."""
    out = []
    for section, key in (("3.1", "Companion"), ("3.2", "character"), ("3.4", "Minion")):
        for row in _table(section):
            m = re.match(r'^(.*?)(?: \("(.*)"\)| – (.*))?$', row[key])
            name, title = m.group(1), m.group(2) or m.group(3)
            level = row["Level"].split(";")[0]
            activates = row.get("activates")
            if activates is not None:
                activates = activates.split(" [")[0]
                activates = "any" if activates == "any FP nation" else activates.lower().replace(
                    " ", "-")
            out.append((name, title, None if level == "unlimited" else int(level),
                        int(row["Leadership"]), activates))
    (gollum,) = _table("3.3")
    out.append(("Gollum", None, int(gollum["Level"]), int(gollum["Leadership"]), None))
    return out


def test_characters_match_the_sheet(cards):
    """Facts §3.1-§3.4: each character's name, title, level, leadership and activation."""
    by_name = {ch.name: ch for ch in cards.characters}
    rows = _character_rows()
    assert len(rows) == 13
    for name, title, level, leadership, activates in rows:
        ch = by_name[name]
        assert (ch.title, ch.level, ch.leadership, ch.activates) == (
            title, level, leadership, activates), name
    assert set(by_name) - {r[0] for r in rows} == {"Ring-bearers"}  # facts §3.5


def test_character_dice_and_kinds(cards):
    """Facts §3.2, §3.4, §5: upgrades and Minions add one Action die each, so the pools reach
    FP 4 + 2 = 6 and Shadow 7 + 3 = 10; the Witch-king's unlimited level is UNLIMITED_LEVEL."""
    bonus = {ch.id for ch in cards.characters if ch.die_bonus}
    assert bonus == {"aragorn", "gandalf-the-white", "saruman", "witch-king", "mouth-of-sauron"}
    assert all(ch.die_bonus == 1 for ch in cards.characters if ch.die_bonus)
    wk = cards.character("witch-king")
    assert cards.characters[wk].level is None and cards.character_level[wk] == UNLIMITED_LEVEL
    assert {ch.id for ch in cards.characters if ch.differs_1e} == {  # facts §3.6
        "gandalf-the-grey", "gollum", "meriadoc", "peregrin", "witch-king"}


# -- Hunt tiles and dice --------------------------------------------------------------------------

def _damage(cell: str) -> int | str:
    cell = _plain(cell)
    if cell.startswith("Eye"):
        return "eye"
    if cell.startswith("roll one die"):
        return "die"
    return int(cell.split(":")[0].replace("−", "-"))


def test_standard_tiles_match_the_sheet(cards):
    """Facts §4.1: the 16 standard tiles as a multiset of (damage, reveal)."""
    expected = Counter()
    for row in _table("4.1"):
        expected[(_damage(row["damage"]), row["Reveal icon"] == "yes")] += int(row["count"])
    found = Counter((t.damage, t.reveal) for t in cards.tiles if not t.special)
    assert found == expected


def test_special_tiles_match_the_sheet(cards):
    """Facts §4.2: each special tile's side, damage, Reveal, Stop and the card bringing it in."""
    by_name = {t.name: t for t in cards.tiles if t.special}
    for row in _table("4.2"):
        t = by_name[row["tile"]]
        side = "free_peoples" if row["side (colour)"].startswith("FP") else "shadow"
        deck, number = re.match(r"(FP|Shadow) Character #(\d+)",
                                row["card that brings it in"]).groups()
        card = cards.events[cards.card(t.card)]
        assert (t.side, t.damage, t.reveal, t.stop) == (
            side, _damage(row["damage"]), _plain(row["Reveal"]) == "yes",
            _plain(row["Stop"]) == "yes"), row["tile"]
        assert (card.deck, card.number) == (
            "fp-character" if deck == "FP" else "shadow-character", int(number))


def test_dice_match_the_sheet(cards):
    """Facts §5: the faces of each side's die; pools FP 4..6, Shadow 7..10; hand limit 6 (§6);
    3 Elven Rings (§2.3)."""
    face = {"Character (sword)": "character", "Army (banner)": "army", "Muster (helmet)": "muster",
            "Army/Muster": "army_muster", "Event (Palantír)": "event",
            "Will of the West": "will_of_the_west", "Eye of Sauron": "eye"}
    for side, column in (("free_peoples", "FP die (6 faces)"), ("shadow", "Shadow die (6 faces)")):
        expected = {face[r["face"]]: int(_plain(r[column])) for r in _table("5")
                    if r[column] != "—" and _plain(r[column]) != "0"}
        assert Counter(cards.dice.of(side).faces) == expected
    assert (cards.dice.of("free_peoples").start, cards.dice.of("free_peoples").maximum) == (4, 6)
    assert (cards.dice.of("shadow").start, cards.dice.of("shadow").maximum) == (7, 10)
    assert (cards.dice.hand_limit, cards.dice.elven_rings, cards.dice.combat_dice) == (6, 3, 5)
    assert (cards.tracks.corruption_max, cards.tracks.mordor_steps) == (12, 5)  # facts §4.3


# -- the index tables and lookups -----------------------------------------------------------------

def test_tables_follow_the_records(cards):
    """The numpy tables the engine indexes agree with the records and cannot be written to."""
    for i, e in enumerate(cards.events):
        assert DECKS[cards.event_deck[i]] == e.deck
        assert cards.combat[cards.event_combat[i]].id == e.combat
        assert cards.event_initiative[i] == cards.combat[cards.event_combat[i]].initiatives[0]
        assert cards.event_table[i] == e.table
        assert cards.card(e.id) == i
    eyes = [cards.tiles[i].damage == "eye" for i in range(len(cards.tiles))]
    assert cards.tile_eye.tolist() == eyes and cards.tile_eye.sum() == 5
    assert cards.tile_damage[cards.tile("phial-of-galadriel")] == -2
    assert cards.die_faces.shape == (2, 6)
    assert [len(cards.deck(d)) for d in DECKS] == [24] * 4
    with pytest.raises(ValueError):
        cards.event_deck[0] = 1
    with pytest.raises(KeyError, match="no-such-card"):
        cards.card("no-such-card")
    assert np.all(cards.character_die_bonus >= 0)


def test_first_edition_stands_in_for_every_file():
    """Facts §3.6, §4.1-§4.2, §5, §6, §8.4-§8.5: no 1E data for these files; the 2E files stand in
    and the stand-ins are recorded with their reasons."""
    source = Source("1e")
    first = load_cards(source)
    assert set(source.stand_ins) == set(FILES)
    assert all(other == "2e" and why for other, why in source.stand_ins.values())
    assert first.events == load_cards(Source("2e")).events


# -- malformed data -------------------------------------------------------------------------------

def _set(file: str, path: tuple[Any, ...], value: Any) -> tuple[str, Any]:
    def edit(doc: dict[str, Any]) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return file, edit


def _drop(file: str, key: str, index: int) -> tuple[str, Any]:
    return file, lambda doc: doc[key].pop(index)


def _unuse_durins_bane(doc: dict[str, Any]) -> None:
    for e in doc["events"]:
        if e["combat"] == "durins-bane":
            e["combat"] = "charge"


def _duplicate_id(doc: dict[str, Any]) -> None:
    doc["events"][5]["id"] = doc["events"][4]["id"]
    doc["events"][5]["number"] = 5


BROKEN = {
    "unknown deck": (*_set("events.yaml", ("events", 4, "deck"), "fp-tactics"),
                     "card 'fp-char-05-mithril-coat-and-sting'", "unknown deck"),
    "unknown icon": (*_set("events.yaml", ("events", 30, "icon"), "eye"),
                     "card 'fp-strat-07-fear-fire-foes'", "unknown icon"),
    "duplicate id": ("events.yaml", _duplicate_id, "card 'fp-char-05-mithril-coat-and-sting'",
                     "duplicate id"),
    "unknown combat": (*_set("events.yaml", ("events", 0, "combat"), "elven-magic"),
                       "card 'fp-char-01-elven-cloaks'", "unknown combat effect"),
    "23 cards": (*_drop("events.yaml", "events", 10), "deck 'fp-character'", "expected 24"),
    "number out of range": (*_set("events.yaml", ("events", 0, "number"), 25),
                            "card 'fp-char-01-elven-cloaks'", "number must be 1..24"),
    "37 effects": (*_drop("events.yaml", "combat", 0), "combat", "expected 38"),
    "unused effect": ("events.yaml", _unuse_durins_bane, "combat", "durins-bane"),
    "icon mix": (*_set("events.yaml", ("events", 30, "icon"), "army"), "deck 'fp-strategy'",
                 "icons"),
    "character-deck icon": (*_set("events.yaml", ("events", 50, "icon"), "muster"),
                            "deck 'shadow-character'", "icons"),
    "unknown side": (*_set("characters.yaml", ("characters", 2, "side"), "neutral"),
                     "character 'boromir'", "unknown side"),
    "unknown kind": (*_set("characters.yaml", ("characters", 3, "kind"), "hero"),
                     "character 'legolas'", "unknown kind"),
    "unknown nation": (*_set("characters.yaml", ("characters", 4, "activates"), "moria"),
                       "character 'gimli'", "activates"),
    "15 tiles": (*_drop("hunt.yaml", "standard", 0), "standard", "expected 16"),
    "tile card": (*_set("hunt.yaml", ("special", 0, "card"), "fp-char-99-no-card"),
                  "special tile 'elven-cloaks'", "unknown Event card"),
    "tile side": (*_set("hunt.yaml", ("special", 4, "side"), "free_peoples"),
                  "special tile 'shelobs-lair'", "not a free_peoples card"),
    "tile damage": (*_set("hunt.yaml", ("standard", 0, "damage"), "die"),
                    "standard tile 'std-eye-1'", "damage"),
    "pool": (*_set("dice.yaml", ("free_peoples", "maximum"), 7), "free_peoples", "maximum 7"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_malformed_data_names_file_and_entry(tmp_path, case):
    """A broken entry fails the load with a DataError naming the file and the entry."""
    file, edit, entry, problem = BROKEN[case]
    shutil.copytree(DATA_ROOT / "2e", tmp_path / "2e")
    path = tmp_path / "2e" / file
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(doc)
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError) as error:
        load_cards(Source("2e", tmp_path))
    message = str(error.value)
    assert message.startswith(f"{file}: ") and entry in message and problem in message, message
