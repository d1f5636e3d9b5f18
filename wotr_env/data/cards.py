"""A ruleset's Event cards, characters, Hunt tiles and dice (``events.yaml``, ``characters.yaml``,
``hunt.yaml``, ``dice.yaml``), read and checked into one frozen :class:`Cards`.

The texts document the cards (facts §3, §6); the engine implements each card and ability as code
keyed by its id, and computes with the records' fields and small read-only numpy tables indexed by
a record's position (``cards.card(id)``). Everything is checked on load against the counts of the
box and the fact sheet, so that a typo fails here with a :class:`DataError` naming the file and
the entry, not later as a wrong rule.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardkit.datafiles import Checker

from .model import DECKS, NATION_SIDE, SIDES
from .source import Source

ICONS = ("character", "army", "muster")  # the die face, besides Event, that pays for a card
KINDS = ("companion", "upgrade", "gollum", "minion", "reference")
FACES = ("character", "army", "muster", "army_muster", "event", "will_of_the_west", "eye")
DECK_PREFIX = {"fp-character": "fp-char", "fp-strategy": "fp-strat",
               "shadow-character": "sh-char", "shadow-strategy": "sh-strat"}
DECK_SIZE = 24
# facts §6: every Character-deck card shows C; the Strategy decks mix A and M
DECK_ICONS = {"fp-character": {"character": 24}, "fp-strategy": {"army": 8, "muster": 16},
              "shadow-character": {"character": 24},
              "shadow-strategy": {"army": 11, "muster": 13}}
COMBAT_EFFECTS = 38  # facts §6.1
STANDARD_TILES, SPECIAL_TILES_PER_SIDE = 16, 4  # facts §4.1, §4.2
# The Witch-king's level (YAML ``unlimited``, None in his record) in the ``character_level``
# table: larger than any distance on the 105-region map, so "distance <= level" holds.
UNLIMITED_LEVEL = 127
# A side's kinds (facts §0: 10 FP cards, 3 Minions, 1 Gollum, who guides the FP's Fellowship)
KIND_SIDE = {"companion": "free_peoples", "upgrade": "free_peoples", "gollum": "free_peoples",
             "reference": "free_peoples", "minion": "shadow"}


@dataclass(frozen=True)
class CombatEffect:
    """A Combat title (facts §6.1); Mûmakil has two effects, so two initiatives."""

    id: str
    name: str
    initiatives: tuple[int, ...]
    condition: str | None
    effect: str

    @property
    def initiative(self) -> int:
        """The first (or only) initiative: when the card's play is resolved."""
        return self.initiatives[0]


@dataclass(frozen=True)
class EventCard:
    """An Event card (facts §6.2-§6.5); its text is documentation, its id keys the engine's code."""

    id: str
    deck: str
    number: int
    name: str
    icon: str
    table: bool
    condition: str | None
    text: str
    discard: str | None
    combat: str
    differs_1e: bool

    @property
    def side(self) -> str:
        return "free_peoples" if self.deck.startswith("fp-") else "shadow"


@dataclass(frozen=True)
class Ability:
    name: str
    text: str


@dataclass(frozen=True)
class Character:
    """A Character card (facts §3); ``level`` None is the Witch-king's unlimited level."""

    id: str
    name: str
    title: str | None
    side: str
    kind: str
    level: int | None
    leadership: int
    activates: str | None  # an FP nation id, "any", or None
    die_bonus: int
    entry_die: str | None
    guide: str | None
    abilities: tuple[Ability, ...]
    entry: str | None
    note: str | None
    differs_1e: bool


@dataclass(frozen=True)
class HuntTile:
    """A Hunt tile (facts §4.1, §4.2); ``damage`` is an int, ``"eye"`` or ``"die"``."""

    id: str
    name: str | None
    side: str | None  # None: a standard tile; else the side of a special tile
    damage: int | str
    reveal: bool
    stop: bool
    card: str | None  # the Event card that puts a special tile into play

    @property
    def special(self) -> bool:
        return self.side is not None


@dataclass(frozen=True)
class Tracks:
    """The Fellowship's tracks (facts §4.3)."""

    fellowship_max: int
    corruption_max: int
    mordor_steps: int


@dataclass(frozen=True)
class SideDice:
    """One side's Action dice (facts §5): the six faces of a die, the pool at setup and at most."""

    side: str
    faces: tuple[str, ...]
    start: int
    maximum: int


@dataclass(frozen=True)
class Dice:
    sides: tuple[SideDice, ...]  # in SIDES order
    hand_limit: int
    elven_rings: int
    combat_dice: int

    def of(self, side: str) -> SideDice:
        return self.sides[SIDES.index(side)]


@dataclass(frozen=True, eq=False)
class Cards:
    """All of a ruleset's card-like facts, with read-only index tables built once at load."""

    events: tuple[EventCard, ...]
    combat: tuple[CombatEffect, ...]
    characters: tuple[Character, ...]
    tiles: tuple[HuntTile, ...]  # the 16 standard tiles, then the 8 special
    tracks: Tracks
    dice: Dice
    event_deck: np.ndarray  # int8[card]: index in DECKS
    event_icon: np.ndarray  # int8[card]: index in ICONS
    event_table: np.ndarray  # bool[card]
    event_combat: np.ndarray  # int8[card]: index in combat
    event_initiative: np.ndarray  # int8[card]: its Combat effect's (first) initiative
    character_side: np.ndarray  # int8[character]: index in SIDES
    character_kind: np.ndarray  # int8[character]: index in KINDS
    character_level: np.ndarray  # int8[character]: UNLIMITED_LEVEL for the Witch-king
    character_leadership: np.ndarray  # int8[character]
    character_die_bonus: np.ndarray  # int8[character]
    tile_damage: np.ndarray  # int8[tile]: the number; 0 where tile_eye or tile_die
    tile_eye: np.ndarray  # bool[tile]
    tile_die: np.ndarray  # bool[tile]
    tile_reveal: np.ndarray  # bool[tile]
    tile_stop: np.ndarray  # bool[tile]
    tile_side: np.ndarray  # int8[tile]: index in SIDES, -1 for a standard tile
    die_faces: np.ndarray  # int8[side, 6]: index in FACES

    @functools.cached_property
    def _ids(self) -> dict[str, dict[str, int]]:
        return {what: {r.id: i for i, r in enumerate(records)} for what, records in (
            ("card", self.events), ("combat effect", self.combat),
            ("character", self.characters), ("tile", self.tiles))}

    def _index(self, what: str, id_: str) -> int:
        try:
            return self._ids[what][id_]
        except KeyError:
            raise KeyError(f"unknown {what} id {id_!r}") from None

    def card(self, card_id: str) -> int:
        """Index of an Event card id; raises KeyError naming an unknown id."""
        return self._index("card", card_id)

    def combat_effect(self, combat_id: str) -> int:
        return self._index("combat effect", combat_id)

    def character(self, character_id: str) -> int:
        return self._index("character", character_id)

    def tile(self, tile_id: str) -> int:
        return self._index("tile", tile_id)

    def deck(self, deck: str) -> tuple[int, ...]:
        """The indices of a deck's cards, by collector number."""
        return tuple(i for i, e in sorted(enumerate(self.events), key=lambda x: x[1].number)
                     if e.deck == deck)


def _text(c: Checker, r: Any, key: str, entry: str) -> str | None:
    """An optional text: present, a non-empty string or null."""
    value = c.field(r, key, entry, (str, type(None)))
    c.require(value is None or bool(value.strip()), entry, f"field {key!r} is empty")
    return value


def _flag(c: Checker, r: dict[str, Any], key: str, entry: str) -> bool:
    return c.field(r, key, entry, bool) if key in r else False


def _count(c: Checker, r: Any, key: str, entry: str) -> int:
    value = c.field(r, key, entry, int)
    c.require(value >= 0, entry, f"field {key!r} must not be negative, got {value}")
    return value


def _load_events(doc: dict[str, Any]) -> tuple[tuple[CombatEffect, ...], tuple[EventCard, ...]]:
    c = Checker("events.yaml")
    combat: list[CombatEffect] = []
    for i, r in enumerate(c.field(doc, "combat", "top level", list)):
        cid = c.field(r, "id", f"combat[{i}]", str)
        entry = f"combat effect {cid!r}"
        init = c.field(r, "initiative", entry, (int, list))
        inits = tuple(init) if isinstance(init, list) else (init,)
        c.require(0 < len(inits) <= 2 and all(type(x) is int and 0 <= x <= 9 for x in inits),
                  entry, f"initiative must be a digit or a list of one or two, got {init!r}")
        combat.append(CombatEffect(cid, c.field(r, "name", entry, str), inits,
                                   _text(c, r, "condition", entry),
                                   c.field(r, "effect", entry, str)))
    c.unique([e.id for e in combat], "combat effect")
    c.require(len(combat) == COMBAT_EFFECTS, "combat",
              f"expected {COMBAT_EFFECTS} Combat effects (facts §6.1), found {len(combat)}")
    known = {e.id for e in combat}
    events: list[EventCard] = []
    for i, r in enumerate(c.field(doc, "events", "top level", list)):
        eid = c.field(r, "id", f"events[{i}]", str)
        entry = f"card {eid!r}"
        deck, number = c.field(r, "deck", entry, str), c.field(r, "number", entry, int)
        c.one_of(deck, DECKS, entry, "deck")
        c.require(1 <= number <= DECK_SIZE, entry, f"number must be 1..{DECK_SIZE}, got {number}")
        c.require(eid.isascii() and eid.startswith(f"{DECK_PREFIX[deck]}-{number:02d}-"), entry,
                  f"an id is ASCII and starts with {DECK_PREFIX[deck]}-{number:02d}-")
        icon, table = c.field(r, "icon", entry, str), c.field(r, "table", entry, bool)
        c.one_of(icon, ICONS, entry, "icon")
        combat_id = c.field(r, "combat", entry, str)
        c.require(combat_id in known, entry, f"unknown combat effect {combat_id!r}")
        c.require(table or "discard" not in r, entry, "only a table card has a discard condition")
        discard = _text(c, r, "discard", entry) if table else None
        events.append(EventCard(eid, deck, number, c.field(r, "name", entry, str), icon, table,
                                _text(c, r, "condition", entry), c.field(r, "text", entry, str),
                                discard, combat_id, _flag(c, r, "differs_1e", entry)))
    c.unique([e.id for e in events], "card")
    c.unique([f"{e.deck} #{e.number}" for e in events], "deck and number")
    for deck in DECKS:
        cards = [e for e in events if e.deck == deck]
        c.require(len(cards) == DECK_SIZE, f"deck {deck!r}",
                  f"expected {DECK_SIZE} cards numbered 1..{DECK_SIZE}, found {len(cards)}")
        icons = dict(Counter(e.icon for e in cards))
        c.require(icons == DECK_ICONS[deck], f"deck {deck!r}",
                  f"icons {icons}, expected {DECK_ICONS[deck]} (facts §6)")
    unused = sorted(known - {e.combat for e in events})
    c.require(not unused, "combat", f"Combat effects on no card: {', '.join(unused)}")
    return tuple(combat), tuple(events)


def _load_characters(doc: dict[str, Any]) -> tuple[Character, ...]:
    c = Checker("characters.yaml")
    out: list[Character] = []
    for i, r in enumerate(c.field(doc, "characters", "top level", list)):
        cid = c.field(r, "id", f"characters[{i}]", str)
        entry = f"character {cid!r}"
        side, kind = c.field(r, "side", entry, str), c.field(r, "kind", entry, str)
        c.one_of(side, SIDES, entry, "side")
        c.one_of(kind, KINDS, entry, "kind")
        c.require(KIND_SIDE[kind] == side, entry, f"a {kind} is on the {KIND_SIDE[kind]} side")
        level = c.field(r, "level", entry, (int, str))
        c.require(level == "unlimited" or (type(level) is int and 0 <= level <= 4), entry,
                  f"level must be 0..4 or 'unlimited', got {level!r}")
        activates = c.field(r, "activates", entry, (str, type(None)))
        c.require(activates in (None, "any") or NATION_SIDE.get(activates) == "free_peoples",
                  entry, f"activates must be an FP nation id, 'any' or null, got {activates!r}")
        entry_die = c.field(r, "entry_die", entry, (str, type(None)))
        c.require(entry_die is None or entry_die in FACES, entry, f"unknown face {entry_die!r}")
        abilities = tuple(Ability(c.field(a, "name", entry, str), c.field(a, "text", entry, str))
                          for a in c.field(r, "abilities", entry, list))
        ch = Character(cid, c.field(r, "name", entry, str), _text(c, r, "title", entry), side,
                       kind, None if level == "unlimited" else level,
                       _count(c, r, "leadership", entry), activates,
                       _count(c, r, "die_bonus", entry), entry_die, _text(c, r, "guide", entry),
                       abilities, _text(c, r, "entry", entry), _text(c, r, "note", entry),
                       _flag(c, r, "differs_1e", entry))
        c.require(kind != "reference" or (ch.level == ch.leadership == 0 and not abilities),
                  entry, "a reference card has no level, leadership or ability (all 0 / none)")
        out.append(ch)
    c.unique([ch.id for ch in out], "character")
    return tuple(out)


def _load_hunt(doc: dict[str, Any], events: tuple[EventCard, ...]) -> tuple[
        tuple[HuntTile, ...], Tracks]:
    c = Checker("hunt.yaml")
    cards = {e.id: e for e in events}
    tiles: list[HuntTile] = []
    for part in ("standard", "special"):
        for i, r in enumerate(c.field(doc, part, "top level", list)):
            tid = c.field(r, "id", f"{part}[{i}]", str)
            entry = f"{part} tile {tid!r}"
            damage = c.field(r, "damage", entry, (int, str))
            numbers = range(0, 4) if part == "standard" else range(-2, 4)
            words = ("eye",) if part == "standard" else ("eye", "die")
            c.require(damage in words or (type(damage) is int and damage in numbers), entry,
                      f"damage must be one of {list(numbers)} or {' or '.join(words)}, "
                      f"got {damage!r}")
            reveal = c.field(r, "reveal", entry, bool)
            if part == "standard":
                c.require(not {"side", "stop", "card", "name"} & set(r), entry,
                          "a standard tile has only id, damage and reveal")
                tiles.append(HuntTile(tid, None, None, damage, reveal, False, None))
                continue
            side, card = c.field(r, "side", entry, str), c.field(r, "card", entry, str)
            c.require(side in SIDES, entry, f"unknown side {side!r}")
            c.require(card in cards, entry, f"unknown Event card {card!r}")
            c.require(cards[card].side == side, entry, f"card {card!r} is not a {side} card")
            tiles.append(HuntTile(tid, c.field(r, "name", entry, str), side, damage, reveal,
                                  c.field(r, "stop", entry, bool), card))
    c.unique([t.id for t in tiles], "tile")
    c.unique([t.card for t in tiles if t.card], "bringing card")
    standard = sum(not t.special for t in tiles)
    c.require(standard == STANDARD_TILES, "standard",
              f"expected {STANDARD_TILES} standard tiles (facts §4.1), found {standard}")
    for side in SIDES:
        n = sum(t.side == side for t in tiles)
        c.require(n == SPECIAL_TILES_PER_SIDE, "special", f"expected {SPECIAL_TILES_PER_SIDE} "
                  f"{side} special tiles (facts §4.2), found {n}")
    t = c.field(doc, "tracks", "top level", dict)
    tracks = Tracks(*(_count(c, t, k, "tracks") for k in
                      ("fellowship_max", "corruption_max", "mordor_steps")))
    return tuple(tiles), tracks


def _load_dice(doc: dict[str, Any], characters: tuple[Character, ...]) -> Dice:
    c = Checker("dice.yaml")
    only = {"free_peoples": "will_of_the_west", "shadow": "eye"}
    sides = []
    for side in SIDES:
        r = c.field(doc, side, "top level", dict)
        faces = tuple(c.field(r, "faces", side, list))
        c.require(len(faces) == 6 and all(f in FACES for f in faces), side,
                  f"faces must be 6 of {', '.join(FACES)}, got {list(faces)}")
        other = only["shadow" if side == "free_peoples" else "free_peoples"]
        c.require(other not in faces, side, f"face {other!r} is the other side's")
        start, maximum = _count(c, r, "start", side), _count(c, r, "maximum", side)
        bonus = sum(ch.die_bonus for ch in characters if ch.side == side)
        c.require(start + bonus == maximum, side, f"start {start} + the characters' die bonuses "
                  f"{bonus} must equal maximum {maximum} (facts §5)")
        sides.append(SideDice(side, faces, start, maximum))
    return Dice(tuple(sides), *(_count(c, doc, k, "top level") for k in
                                ("hand_limit", "elven_rings", "combat_dice")))


def _table(values: list[Any], dtype: Any) -> np.ndarray:
    a = np.array(values, dtype=dtype)
    a.flags.writeable = False
    return a


def load_cards(source: Source) -> Cards:
    """The ruleset's cards, characters, tiles and dice, checked (DataError names file and entry)."""
    combat, events = _load_events(source.doc("events.yaml"))
    characters = _load_characters(source.doc("characters.yaml"))
    tiles, tracks = _load_hunt(source.doc("hunt.yaml"), events)
    dice = _load_dice(source.doc("dice.yaml"), characters)
    cidx = {e.id: i for i, e in enumerate(combat)}
    i8 = np.int8
    return Cards(
        events, combat, characters, tiles, tracks, dice,
        event_deck=_table([DECKS.index(e.deck) for e in events], i8),
        event_icon=_table([ICONS.index(e.icon) for e in events], i8),
        event_table=_table([e.table for e in events], bool),
        event_combat=_table([cidx[e.combat] for e in events], i8),
        event_initiative=_table([combat[cidx[e.combat]].initiative for e in events], i8),
        character_side=_table([SIDES.index(ch.side) for ch in characters], i8),
        character_kind=_table([KINDS.index(ch.kind) for ch in characters], i8),
        character_level=_table([UNLIMITED_LEVEL if ch.level is None else ch.level
                                for ch in characters], i8),
        character_leadership=_table([ch.leadership for ch in characters], i8),
        character_die_bonus=_table([ch.die_bonus for ch in characters], i8),
        tile_damage=_table([t.damage if isinstance(t.damage, int) else 0 for t in tiles], i8),
        tile_eye=_table([t.damage == "eye" for t in tiles], bool),
        tile_die=_table([t.damage == "die" for t in tiles], bool),
        tile_reveal=_table([t.reveal for t in tiles], bool),
        tile_stop=_table([t.stop for t in tiles], bool),
        tile_side=_table([-1 if t.side is None else SIDES.index(t.side) for t in tiles], i8),
        die_faces=_table([[FACES.index(f) for f in s.faces] for s in dice.sides], i8),
    )
