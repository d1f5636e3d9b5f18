"""Every id of the data has its code (issue 27 item 3): each Character's abilities
(:data:`wotr_env.engine.abilities.ABILITIES`, facts §3), each special Hunt tile's card and
behaviour (facts §4.2), each Event card's function (:data:`wotr_env.engine.events.EVENTS`,
facts §6.2-§6.5) and each Combat effect's (facts §6.1).

Cards without code would be named in :data:`NOT_YET` (none now: the last three, which need the
coast and the east edge of the map, read them from the map data, a reading of facts §8.2): the
test prints the missing ones and fails when the set changes either way, so that a card written
or lost is seen.
"""

from __future__ import annotations

import pytest

from wotr_env.data import load_ruleset
from wotr_env.engine import abilities, build, decision, dice, play
from wotr_env.engine.abilities import ABILITIES, Registered, missing
from wotr_env.engine.battle.combat_cards import COMBAT_EFFECTS
from wotr_env.engine.decision import CHARACTER, WD, WILL
from wotr_env.engine.events import EVENTS
from wotr_env.engine.setup import new_state

# Event cards without code yet: none. (Círdan's Ships, Corsairs of Umbar and Hordes from the
# East read the coastal regions and the east edge from map.yaml, a reading of facts §8.2.)
NOT_YET: set[str] = set()
COMBAT_NOT_YET: set[str] = set()


@pytest.fixture(params=["2e", "1e"])
def cards(request):
    return load_ruleset(request.param).cards


def test_every_character_ability_has_its_implementation(cards):
    """facts §3: every Character with a Guide ability or a card ability has an entry for each
    in ABILITIES, and each entry is a callable or a registration that is there."""
    for ch in cards.characters:
        names = {a.name for a in ch.abilities} | ({"guide"} if ch.guide else set())
        if not names:
            assert ch.kind == "reference", ch.id  # only the Ring-bearers' card has none
            continue
        assert ch.id in ABILITIES, f"{ch.id}: no entry in abilities.ABILITIES"
        entry = ABILITIES[ch.id]
        assert names <= set(entry), f"{ch.id}: no entry for {sorted(names - set(entry))}"
        for ability, where in entry.items():
            assert where, f"{ch.id} {ability}: no implementation named"
            assert missing(ch.id, ability) == [], f"{ch.id} {ability}: {missing(ch.id, ability)}"


def test_the_registry_names_only_characters_of_the_data(cards):
    assert set(ABILITIES) <= {c.id for c in cards.characters}


def test_a_missing_implementation_is_reported(monkeypatch):
    """The check itself: a registration absent from its registry, or a value that is not
    callable, is named."""
    monkeypatch.setitem(abilities.ABILITIES, "strider",
                        {"guide": (Registered({}, "hide", "die action 'hide'"), 3)})
    assert missing("strider", "guide") == ["die action 'hide'", "3"]


def test_every_event_card_has_its_function_but_the_named_ones(cards):
    """facts §6.2-§6.5: every Event card id has its effect in EVENTS, except NOT_YET."""
    ids = [e.id for e in cards.events]
    absent = sorted(set(ids) - set(EVENTS))
    print(f"Event cards without a function ({len(absent)} of {len(ids)}): {absent}")
    assert set(absent) == NOT_YET
    assert set(EVENTS) <= set(ids), sorted(set(EVENTS) - set(ids))
    for cid, ability in EVENTS.items():
        assert callable(ability.effect) and callable(ability.condition), cid


def test_every_combat_effect_has_its_function(cards):
    """facts §6.1: every Combat effect id has its function in COMBAT_EFFECTS."""
    ids = {e.id for e in cards.combat}
    absent = sorted(ids - set(COMBAT_EFFECTS))
    print(f"Combat effects without a function: {absent}")
    assert set(absent) == COMBAT_NOT_YET
    assert set(COMBAT_EFFECTS) <= ids and all(map(callable, COMBAT_EFFECTS.values()))


# ---------------------------------------------------------------------------------------------
# Special Hunt tiles

STANDARD = [t.id for t in load_ruleset("2e").cards.tiles if not t.special]

# facts §4.2, drawn on Mordor step 1 with Corruption 3 and 2 Shadow dice in the Hunt Box (an Eye
# worth 2 there, facts §7.9): Corruption after it, Revealed, the step after the move.
SPECIAL_TILES = {
    "elven-cloaks": (3, False, 2),
    "elven-rope": (3, False, 2),
    "phial-of-galadriel": (1, False, 2),  # heals 2
    "smeagol-helps-nice-master": (2, False, 2),  # heals 1
    "shelobs-lair": (7, False, 1),  # one die (scripted 4); Stop
    "the-ring-is-mine": (5, True, 1),  # an Eye; Reveal; Stop
    "on-on-they-went": (6, False, 1),  # 3; Stop
    "give-it-to-uss": (4, True, 1),  # 1; Reveal; Stop
}


def test_the_special_tiles_are_those_of_the_data():
    cards = load_ruleset("2e").cards
    assert set(SPECIAL_TILES) == {t.id for t in cards.tiles if t.special}


@pytest.mark.parametrize("tile", sorted(SPECIAL_TILES))
def test_every_special_tile_has_its_card_and_its_effect(tile: str):
    """facts §4.2, §7.9, §7.10: the Event card bringing the tile in has its function, and the
    tile drawn on the Mordor Track deals, heals, reveals and stops as the sheet says."""
    cards = load_ruleset("2e").cards
    assert cards.tiles[cards.tile(tile)].card in EVENTS
    corruption, revealed, step = SPECIAL_TILES[tile]
    s = build({"fellowship": {"mordor_step": 1, "region": "morannon", "corruption": 3},
               "hunt": {"pool": [*STANDARD, tile], "box": {"shadow": 2}}, "tiles": [tile],
               "rolls": {"shadow": [4]}, "rings": ["gone", "gone", "gone"],
               "dice": {"free_peoples": ["character", "character"],
                        "shadow": ["event", "muster"]}})
    if s.pending.kind == WD.CHOOSE_DIE:
        play(s, ("die", CHARACTER))
    play(s, ("action", "move-fellowship"))
    if s.pending.kind == WD.HUNT_CASUALTY:
        play(s, ("choice", "none"))
    assert (s.corruption, s.revealed, s.mordor_step) == (corruption, revealed, step)
    assert cards.tile(tile) in s.hunt_removed  # a special tile drawn is out for good


def test_every_die_action_is_registered_in_its_place():
    """The die actions offered (WD-08) follow ``dice.ORDER``, not the order the rule modules
    were imported in: every registered action has its place there, every place is registered,
    and every name is one the action codec knows."""
    assert set(dice.DIE_ACTIONS) == set(dice.ORDER)
    assert len(dice.ORDER) == len(set(dice.ORDER))
    assert set(dice.ORDER) <= set(decision.DIE_ACTIONS)


def test_a_die_action_without_a_place_is_refused():
    """Registering an action ``dice.ORDER`` does not list raises, naming it, and registers
    nothing (its options would have no order)."""
    before = dict(dice.DIE_ACTIONS)
    with pytest.raises(ValueError, match="'fly-to-valinor' has no place in dice.ORDER"):
        dice.die_action("fly-to-valinor", (CHARACTER,), lambda state, side: True)(
            lambda state, side, face: None)
    assert dice.DIE_ACTIONS == before


def test_usable_offers_the_actions_in_order():
    """A Will of the West die allows most actions: they come in ``dice.ORDER``'s order."""
    state = new_state(seed=3)
    for side in (0, 1):
        names = [n for n in dice.usable(state, side, WILL) if n != "skip"]
        assert names, side
        assert names == [n for n in dice.ORDER if n in names]
