"""Support in combat: who may support, in which order, how much (rules spec §15.0, §15.1, §15.2,
R18.4; DECISIONS D-30, D-31 and Open points 1-3)."""

import pytest
from combat_helpers import (
    build,
    declare,
    keep_support,
    kind,
    last_combat,
    march,
    order_in,
    play_cards,
    retreat,
)

from got_env.engine import apply, choice
from got_env.engine.combat.frame import combat_frame
from got_env.engine.combat.strength import initial_strength
from got_env.engine.decision import DecisionKind

# The p.18 example; Tyrell sits before Lannister on the Iron Throne so that its March resolves
# before Lannister's March -1 in Blackwater (which the example keeps on the board).
P18 = {
    "units": {"tyrell": {"the-reach": "KK", "kings-landing": "K"},
              "lannister": {"blackwater": "F", "stoney-sept": "FK"},
              "baratheon": {"harrenhal": "K"}},
    "orders": {"the-reach": "march-special", "blackwater": "march-minus-1",
               "stoney-sept": "support-0a", "harrenhal": "support-0a",
               "kings-landing": "support-0a"},
    "tracks": {"iron-throne": ["tyrell", "baratheon", "lannister", "stark", "martell", "greyjoy"]},
    "hands": {"tyrell": ["randyll-tarly", "margaery-tyrell"],
              "lannister": ["ser-jaime-lannister", "the-hound"]},
}
P18_SUPPORT = {"tyrell": "attacker", "baratheon": "defender", "lannister": "defender"}


def initial(state):
    """Both initial strengths while the house cards are being chosen (§15.2)."""
    assert kind(state) == DecisionKind.HOUSE_CARD
    frame = combat_frame(state)
    return initial_strength(state, frame, "attacker"), initial_strength(state, frame, "defender")


def test_p18_support_example(ended):
    """R15.1.1-R15.1.3, §15.2, p.18 example: Tyrell 4 (knights) + 2 (King's Landing) + 1 (March★)
    = 7; Lannister 1 (footman, its March -1 gives nothing) + 3 (Stoney Sept) + 2 (Baratheon's
    Harrenhal) = 6. Cards then decide (§15.5): Randyll 2 -> 9 against The Hound 2 -> 8."""
    s = build(**P18)
    march(s, "the-reach", "blackwater", "KK")
    assert declare(s, **P18_SUPPORT) == ["tyrell", "baratheon", "lannister"]
    keep_support(s)
    assert initial(s) == (7, 6)
    play_cards(s, "randyll-tarly", "the-hound")
    retreat(s, "stoney-sept")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 9, "defender": 8}
    assert frame.winner == "attacker"
    assert frame.support_given == {st.ruleset.area("kings-landing"): "attacker",
                                      st.ruleset.area("harrenhal"): "defender",
                                      st.ruleset.area("stoney-sept"): "defender"}


@pytest.mark.parametrize("throne,expected", [
    (["tyrell", "baratheon", "lannister"], ["tyrell", "baratheon", "lannister"]),
    (["baratheon", "tyrell", "lannister"], ["baratheon", "tyrell", "lannister"]),
    (["tyrell", "lannister", "baratheon"], ["tyrell", "lannister", "baratheon"]),
])
def test_support_declared_one_house_at_a_time_in_turn_order(throne, expected):
    """R15.1.6, AMBIG-10: one D-30 per Support order (here one per house), asked in Iron Throne
    order (the combatants too, R15.1.3)."""
    rest = ["stark", "martell", "greyjoy"]
    s = build(**{**P18, "tracks": {"iron-throne": throne + rest}})
    march(s, "the-reach", "blackwater", "KK")
    assert declare(s, **P18_SUPPORT) == expected


def test_support_options_never_against_own_units():
    """R15.1.1, R15.1.4: a third house may give its support to either side or to nobody; a
    combatant may support itself or nobody, never its opponent."""
    s = build(**P18)
    rs = s.ruleset
    march(s, "the-reach", "blackwater", "KK")
    seen = {}
    while kind(s) == DecisionKind.DECLARE_SUPPORT:
        seen[rs.houses[s.pending.player].id] = s.pending.options
        apply(s, choice("nothing"))
    assert seen == {
        "tyrell": (choice("support-attacker"), choice("nothing")),
        "baratheon": (choice("support-attacker"), choice("support-defender"), choice("nothing")),
        "lannister": (choice("support-defender"), choice("nothing")),
    }


def test_support_declined_gives_nothing():
    """R15.1.1, R15.1.3 ("may"): a house that answers "nothing" adds nothing, even a
    combatant declining its own support."""
    s = build(**P18)
    march(s, "the-reach", "blackwater", "KK")
    declare(s, tyrell="nothing", baratheon="nothing", lannister="defender")
    keep_support(s)
    assert initial(s) == (5, 4)


def test_third_house_supports_the_attacker():
    """R15.1.3: a house outside the combat may support either side; Baratheon's Knight adds 2
    to Tyrell."""
    s = build(**P18)
    march(s, "the-reach", "blackwater", "KK")
    declare(s, tyrell="attacker", baratheon="attacker", lannister="defender")
    keep_support(s)
    assert initial(s) == (9, 4)


def test_refused_support_is_not_counted():
    """R15.1.5, D-31, DECISIONS Open points 2-3: after all declarations each combatant is asked
    about every other house's support given to it (never about its own) and may refuse it."""
    s = build(**P18)
    march(s, "the-reach", "blackwater", "KK")
    declare(s, tyrell="attacker", baratheon="defender", lannister="defender")
    assert keep_support(s, refuse=("baratheon",)) == [("lannister", "baratheon")]
    assert initial(s) == (7, 4)


def test_attacker_may_refuse_a_third_house():
    """R15.1.5: the attacker is asked about a third house's support given to him."""
    s = build(**P18)
    march(s, "the-reach", "blackwater", "KK")
    declare(s, tyrell="attacker", baratheon="attacker", lannister="defender")
    assert keep_support(s, refuse=("baratheon",)) == [("tyrell", "baratheon")]
    assert initial(s) == (7, 4)


def test_support_is_all_units_of_the_area_plus_one_for_the_special_order():
    """R15.1.2: all units of the supporting area give their strength (no partial support), and a
    Support★ adds 1: Stoney Sept Footman + Knight with Support★ = 4."""
    s = build(**{**P18, "orders": {**P18["orders"], "stoney-sept": "support-special"}})
    march(s, "the-reach", "blackwater", "KK")
    declare(s, tyrell="nothing", baratheon="nothing", lannister="defender")
    keep_support(s)
    assert initial(s) == (5, 1 + 4)


@pytest.mark.parametrize("target,side,expected", [
    ("harrenhal", "attacker", (2 + 1 + 4, 1)),  # castle, helping the attacker: Siege Engine 4
    ("harrenhal", "defender", (2, 1 + 1)),      # helping the defender: Siege Engine 0
    ("blackwater", "attacker", (2 + 1, 1)),     # no castle or stronghold: Siege Engine 0
])
def test_siege_engine_support_counts_only_for_the_attacker_into_a_castle(target, side, expected):
    """§15.0, R15.1.2: a supporting Siege Engine gives 4 only when it supports the attacker into
    an area with a Castle or Stronghold (Harrenhal), else 0. Lannister's Stoney Sept Footman and
    Siege Engine support one side of a Stark Knight's attack on a Baratheon Footman."""
    attack_from = "riverrun" if target == "harrenhal" else "crackclaw-point"
    s = build(units={"stark": {attack_from: "K"}, "baratheon": {target: "F"},
                     "lannister": {"stoney-sept": "FE"}},
              orders={attack_from: "march-0", "stoney-sept": "support-0a"},
              hands={"stark": ["eddard-stark", "greatjon-umber"],
                     "baratheon": ["brienne-of-tarth", "melisandre"]})
    march(s, attack_from, target, "K")
    declare(s, lannister=side)
    keep_support(s)
    assert initial(s) == expected


def test_routed_supporting_units_give_nothing_but_the_special_bonus():
    """§15.0, §15.6 6.3 (routed units give 0 combat strength), R15.1.2: Support★ over a routed
    Footman and Knight gives only its +1."""
    s = build(**{**P18, "orders": {**P18["orders"], "stoney-sept": "support-special"},
                 "routed": {"lannister": {"stoney-sept": "FK"}}})
    march(s, "the-reach", "blackwater", "KK")
    declare(s, tyrell="nothing", baratheon="nothing", lannister="defender")
    keep_support(s)
    assert initial(s) == (5, 1 + 1)


def test_support_order_in_the_embattled_area_gives_no_bonus():
    """R15.1.10: a Support★ order in the attacked area adds nothing to its defenders; its units
    defend normally (Footman + Knight = 3)."""
    s = build(units={"tyrell": {"the-reach": "K"}, "lannister": {"blackwater": "FK"}},
              orders={"the-reach": "march-0", "blackwater": "support-special"},
              hands={"tyrell": ["randyll-tarly", "margaery-tyrell"],
                     "lannister": ["ser-jaime-lannister", "the-hound"]})
    march(s, "the-reach", "blackwater", "K")
    assert initial(s) == (2, 3)


def test_support_order_stays_and_supports_a_second_combat(ended):
    """R15.1.9: a Support order is not removed by the combat it supported; it supports the next
    combat of the same round too. Tyrell's King's Landing Knight supports two Tyrell attacks."""
    s = build(units={"tyrell": {"the-reach": "KK", "kings-landing": "K", "the-boneway": "K"},
                     "lannister": {"blackwater": "F"}, "baratheon": {"kingswood": "F"}},
              orders={"the-reach": "march-0", "the-boneway": "march-0",
                      "kings-landing": "support-0a"},
              hands={"tyrell": ["randyll-tarly", "ser-garlan-tyrell", "margaery-tyrell"],
                     "lannister": ["the-hound"], "baratheon": ["brienne-of-tarth"]})
    march(s, "the-reach", "blackwater", "KK")
    declare(s, tyrell="attacker")
    keep_support(s)
    assert initial(s) == (4 + 2, 1)
    play_cards(s, "randyll-tarly")
    retreat(s, "stoney-sept")
    assert order_in(ended[-1], "kings-landing") == "support-0a"
    march(s, "the-boneway", "kingswood", "K")
    assert declare(s, tyrell="attacker") == ["tyrell"]
    keep_support(s)
    assert initial(s) == (2 + 2, 1)


SEA_BATTLE = {
    "units": {"lannister": {"the-golden-sound": "S", "sunset-sea": "S", "riverrun": "F"},
              "greyjoy": {"ironmans-bay": "S", "port-of-pyke": "S", "pyke": "F"}},
    "orders": {"the-golden-sound": "march-0", "sunset-sea": "support-0a",
               "riverrun": "support-0a", "port-of-pyke": "support-0a", "pyke": "support-0b"},
    "hands": {"lannister": ["ser-jaime-lannister", "the-hound"],
              "greyjoy": ["euron-crows-eye", "dagmar-cleftjaw"]},
    "tracks": {"iron-throne": ["lannister", "greyjoy", "baratheon", "stark", "martell", "tyrell"]},
}


def test_land_units_never_support_a_sea_combat():
    """R15.1.7, R15.1.8, R18.4: at sea, a ship in a sea area (Sunset Sea) and a ship in a port
    (Port of Pyke) may support; the Footmen of Riverrun and Pyke, next to Ironman's Bay, may
    not (Greyjoy is still asked once, for its port)."""
    s = build(**SEA_BATTLE)
    march(s, "the-golden-sound", "ironmans-bay", "S")
    frame = combat_frame(s)
    rs = s.ruleset
    assert frame.support_areas == {rs.house("lannister"): [rs.area("sunset-sea")],
                                      rs.house("greyjoy"): [rs.area("port-of-pyke")]}
    assert declare(s, lannister="attacker", greyjoy="defender") == ["lannister", "greyjoy"]
    keep_support(s)
    assert initial(s) == (1 + 1, 1 + 1)


def test_ships_support_a_land_combat_but_not_from_a_port():
    """R15.1.7, R15.1.8, R18.4: a ship in a sea area (The Golden Sound) supports a combat in an
    adjacent land area; a ship in a port never does, not even in its own land area (Lannisport).
    Garrison 2 + Footman 1 + ship 1 = 4 for Lannister."""
    s = build(units={"stark": {"riverrun": "KK"},
                     "lannister": {"lannisport": "F", "the-golden-sound": "S",
                                   "port-of-lannisport": "S"}},
              orders={"riverrun": "march-0", "the-golden-sound": "support-0a",
                      "port-of-lannisport": "support-0b"},
              hands={"stark": ["eddard-stark", "greatjon-umber"],
                     "lannister": ["ser-jaime-lannister", "the-hound"]})
    march(s, "riverrun", "lannisport", "KK")
    rs = s.ruleset
    assert combat_frame(s).support_areas == {
        rs.house("lannister"): [rs.area("the-golden-sound")]}
    declare(s, lannister="defender")
    keep_support(s)
    assert initial(s) == (4, 2 + 1 + 1)


def test_support_needs_real_adjacency_not_ship_transport():
    """R15.1.11: a Support order in Searoad Marches, linked to Riverrun only through Lannister's
    ship in The Golden Sound, cannot support a combat in Riverrun; Stoney Sept (adjacent) can."""
    s = build(units={"stark": {"seagard": "KK"},
                     "lannister": {"riverrun": "F", "searoad-marches": "K", "stoney-sept": "F",
                                   "the-golden-sound": "S"}},
              orders={"seagard": "march-0", "searoad-marches": "support-0a",
                      "stoney-sept": "support-0b"},
              hands={"stark": ["eddard-stark", "greatjon-umber"],
                     "lannister": ["ser-jaime-lannister", "the-hound"]})
    march(s, "seagard", "riverrun", "KK")
    rs = s.ruleset
    assert combat_frame(s).support_areas == {rs.house("lannister"): [rs.area("stoney-sept")]}
    declare(s, lannister="defender")
    keep_support(s)
    assert initial(s) == (4, 1 + 1)


def test_each_of_a_house_support_orders_is_declared_on_its_own():
    """DECISIONS Open point 1, R15.1.1, R15.1.2, R15.1.6: a house with two Support orders next
    to the embattled area is asked once per order; both given: Stoney Sept 3 + Searoad Marches 1
    (tests/test_audit_rules.py splits them)."""
    s = build(**{**P18,
                 "units": {**P18["units"], "lannister": {"blackwater": "F", "stoney-sept": "FK",
                                                         "searoad-marches": "F"}},
                 "orders": {**P18["orders"], "searoad-marches": "support-0b"}})
    march(s, "the-reach", "blackwater", "KK")
    assert declare(s, **P18_SUPPORT) == ["tyrell", "baratheon", "lannister", "lannister"]
    keep_support(s)
    assert initial(s) == (7, 1 + 3 + 1 + 2)
