"""Four rules corrections from an outside audit: the action phase continues from the next Iron
Throne *position* after Doran (R12.1.1, R21.1, FAQ); conflicting static abilities resolve in Iron
Throne order (R15.3.4 (2)); a retreat where every area breaks supply goes to one with the fewest
losses (§15.6 6.3 item 5, FAQ); support is declared per Support order (R15.1.1, R15.1.6, D-30)."""

import pytest
from card_helpers import track
from combat_helpers import (
    areas,
    build,
    fight,
    keep_support,
    kind,
    last_combat,
    march,
    play_cards,
    retreat,
    routed_in,
    total_units,
    units_in,
    who,
)

from got_env.engine import NO, apply, choice
from got_env.engine.combat.frame import combat_frame
from got_env.engine.combat.strength import initial_strength
from got_env.engine.decision import DecisionKind
from got_env.engine.state import GameState

IT_DEFAULT = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"]


# --- 1. Doran on the Iron Throne during the action phase ---------------------------------------


def test_r12_1_1_after_doran_the_next_position_resolves_next(ended):
    """R12.1.1, R21.1, doran-martell (FAQ: the position decides): Lannister (position 2) attacks
    Martell, who plays Doran and sends Lannister to the bottom of the Iron Throne. The next March
    is resolved from position 3 of the track as it now stands: Martell, not Stark (who followed
    Lannister before), so Stark is skipped until the next turn round."""
    s = build(units={"lannister": {"kings-landing": "K"}, "martell": {"kingswood": "K",
                                                                     "sunspear": "F",
                                                                     "yronwood": "F"},
                     "stark": {"winterfell": "F"}},
              orders={"kings-landing": "march-0", "sunspear": "march-0",
                      "yronwood": "march-minus-1", "winterfell": "march-0"},
              blade_used=True,
              hands={"lannister": ["ser-jaime-lannister", "the-hound"],
                     "martell": ["doran-martell", "areo-hotah"]})
    assert track(s, "iron-throne") == IT_DEFAULT
    fight(s, "kings-landing", "kingswood", "K", "ser-jaime-lannister", "doran-martell")
    assert kind(s) == DecisionKind.DORAN_TRACK
    apply(s, ("track", 0))
    if kind(s) == DecisionKind.LEAVE_POWER_TOKEN:
        apply(s, NO)
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert track(s, "iron-throne") == ["baratheon", "stark", "martell", "greyjoy", "tyrell",
                                       "lannister"]
    assert (kind(s), who(s)) == (DecisionKind.MARCH_TO_RESOLVE, "martell")
    assert areas(s, s.pending.options) == ["sunspear", "yronwood"]


# --- 2. Conflicting abilities in Iron Throne order ---------------------------------------------


@pytest.mark.parametrize("greyjoy_first,strength,winner", [
    (True, {"attacker": 0 + 0 + 3, "defender": 1 + 1 + 1}, "attacker"),
    (False, {"attacker": 2 * 2 + 0 + 3, "defender": 1 + 1 + 1}, "attacker"),
])
def test_r15_3_4_victarion_and_salladhor_resolve_in_iron_throne_order(ended, greyjoy_first,
                                                                      strength, winner):
    """R15.3.4 (2), victarion-greyjoy, salladhor-saan: Greyjoy attacks The Golden Sound with 2
    Ships, Victarion and Lannister's supporting Ship (Port of Lannisport); Baratheon defends with
    a Ship, Salladhor and its supporting Ship in Sunset Sea, so Salladhor sets every non-Baratheon
    Ship to 0, and Victarion sets Greyjoy's own to 2 ("instead of 1"). The later card on the Iron
    Throne sets the final value. Greyjoy above Baratheon: Victarion, then Salladhor: 0 + 0 + 3 = 3
    against 1 + 1 + 1 = 3 (Greyjoy wins the tie on Fiefdoms). Baratheon above Greyjoy: Salladhor,
    then Victarion: Greyjoy's Ships count 2 again, Lannister's stays 0: 4 + 0 + 3 = 7 against 3.
    (Multiplying the two, as before, gives 3 in both orders.)"""
    pair = ["greyjoy", "baratheon"] if greyjoy_first else ["baratheon", "greyjoy"]
    throne = pair + ["lannister", "stark", "martell", "tyrell"]
    s = build(units={"greyjoy": {"ironmans-bay": "SS"},
                     "baratheon": {"the-golden-sound": "S", "sunset-sea": "S"},
                     "lannister": {"lannisport": "F", "port-of-lannisport": "S"}},
              orders={"ironmans-bay": "march-0", "sunset-sea": "support-0a",
                      "port-of-lannisport": "support-0a"},
              tracks={"iron-throne": throne}, blade_used=True,
              hands={"greyjoy": ["victarion-greyjoy", "dagmar-cleftjaw"],
                     "baratheon": ["salladhor-saan", "brienne-of-tarth"]})
    fight(s, "ironmans-bay", "the-golden-sound", "SS", "victarion-greyjoy", "salladhor-saan",
          baratheon="defender", lannister="attacker")
    _, frame = last_combat(ended)
    assert frame.strength == strength
    assert frame.winner == winner


# --- 3. Retreat where every reachable area breaks supply ---------------------------------------


def test_retreat_over_supply_only_to_the_areas_with_the_fewest_losses(ended):
    """§15.6 6.3 item 5, R7.8, D-44, D-45 (FAQ reading): Lannister at supply 0 (two armies of 2)
    loses Blackwater; its 2 Footmen can only go where they break supply: Harrenhal and Searoad
    Marches (1 Footman each: one must die) or Stoney Sept (2 Footmen: two must die). Only the
    first two are offered; into Harrenhal one retreating Footman dies, the other is routed."""
    s = build(units={"tyrell": {"the-reach": "KK"},
                     "lannister": {"blackwater": "FF", "stoney-sept": "FF",
                                   "searoad-marches": "F", "harrenhal": "F"},
                     "baratheon": {"crackclaw-point": "F"}},
              orders={"the-reach": "march-0"}, neutral_forces={"kings-landing": 5},
              supply={"lannister": 0},
              hands={"tyrell": ["alester-florent", "randyll-tarly"],
                     "lannister": ["ser-jaime-lannister", "the-hound"]})
    fight(s, "the-reach", "blackwater", "KK", "randyll-tarly", "the-hound")
    assert (kind(s), who(s)) == (DecisionKind.RETREAT_AREA, "lannister")
    assert areas(s, s.pending.options) == ["harrenhal", "searoad-marches"]
    retreat(s, "harrenhal")
    st, _ = last_combat(ended)
    assert units_in(st, "harrenhal", "lannister") == "FF"
    assert routed_in(st, "harrenhal", "lannister") == "F"
    assert units_in(st, "stoney-sept", "lannister") == "FF"
    assert total_units(st, "lannister") == 5


# --- 4. Support declared per Support order -----------------------------------------------------

# The p.18 example (tests/test_support.py) with a second Baratheon Support order, a Footman in
# Crackclaw Point, next to Blackwater.
TWO_ORDERS = {
    "units": {"tyrell": {"the-reach": "KK", "kings-landing": "K"},
              "lannister": {"blackwater": "F", "stoney-sept": "FK"},
              "baratheon": {"harrenhal": "K", "crackclaw-point": "F"}},
    "orders": {"the-reach": "march-special", "blackwater": "march-minus-1",
               "stoney-sept": "support-0a", "harrenhal": "support-0a",
               "kings-landing": "support-0a", "crackclaw-point": "support-0b"},
    "tracks": {"iron-throne": ["tyrell", "baratheon", "lannister", "stark", "martell", "greyjoy"]},
    "hands": {"tyrell": ["randyll-tarly", "margaery-tyrell"],
              "lannister": ["ser-jaime-lannister", "the-hound"]},
}


def declare_each(state: GameState, answers: dict[str, str]) -> list[tuple[str, str]]:
    """Answer every D-30 by its Support order's area: area id -> "attacker", "defender" or
    "nothing". Returns (house, support area) in the order asked."""
    rs = state.ruleset
    asked = []
    while kind(state) == DecisionKind.DECLARE_SUPPORT:
        ctx = state.pending.context
        assert set(ctx) == {"area", "attacker", "defender", "support_area"}
        assert ctx["area"] == rs.area("blackwater")
        where = rs.areas[ctx["support_area"]].id
        asked.append((who(state), where))
        given = answers[where]
        apply(state, choice("nothing" if given == "nothing" else f"support-{given}"))
    return asked


@pytest.mark.parametrize("harrenhal,crackclaw,expected", [
    ("defender", "nothing", (7, 1 + 3 + 2)),
    ("nothing", "defender", (7, 1 + 3 + 1)),
    ("attacker", "defender", (7 + 2, 1 + 3 + 1)),
])
def test_r15_1_6_support_is_declared_per_support_order(harrenhal, crackclaw, expected):
    """R15.1.1, R15.1.2, R15.1.6, D-30: each Support order next to the embattled area is a
    declaration of its own, in turn order (Tyrell, Baratheon, Lannister) and, within a house, in
    area order; each gives its own area's strength. Baratheon backs Lannister from Harrenhal
    (Knight 2) and stays out with Crackclaw Point (Footman 1), or the other way round, or even
    backs each side from one area. Tyrell 4 + 1 + 2 = 7 (+2); Lannister 1 + 3 (+2 or +1)."""
    s = build(**TWO_ORDERS)
    rs = s.ruleset
    march(s, "the-reach", "blackwater", "KK")
    baratheon = sorted(["harrenhal", "crackclaw-point"], key=rs.area)
    asked = declare_each(s, {"kings-landing": "attacker", "stoney-sept": "defender",
                             "harrenhal": harrenhal, "crackclaw-point": crackclaw})
    assert asked == [("tyrell", "kings-landing"), *[("baratheon", a) for a in baratheon],
                     ("lannister", "stoney-sept")]
    keep_support(s)
    assert kind(s) == DecisionKind.HOUSE_CARD
    frame = combat_frame(s)
    given = {"kings-landing": "attacker", "stoney-sept": "defender",
             "harrenhal": harrenhal, "crackclaw-point": crackclaw}
    assert frame.support_given == {rs.area(a): side for a, side in given.items()
                                      if side != "nothing"}
    assert (initial_strength(s, frame, "attacker"),
            initial_strength(s, frame, "defender")) == expected


def test_r15_1_5_refusing_a_house_refuses_all_its_orders_given_to_that_side(ended):
    """R15.1.5, D-31: Lannister refuses Baratheon's support; both Baratheon orders given to
    Lannister stop counting (Lannister 1 + 3 = 4 against Tyrell 7), and Tyrell is never asked
    about Baratheon. Randyll 2 + 7 = 9 against The Hound 2 + 4 = 6; Lannister retreats."""
    s = build(**TWO_ORDERS)
    march(s, "the-reach", "blackwater", "KK")
    declare_each(s, {"kings-landing": "attacker", "stoney-sept": "defender",
                     "harrenhal": "defender", "crackclaw-point": "defender"})
    assert keep_support(s, refuse=("baratheon",)) == [("lannister", "baratheon")]
    frame = combat_frame(s)
    assert (initial_strength(s, frame, "attacker"),
            initial_strength(s, frame, "defender")) == (7, 4)
    play_cards(s, "randyll-tarly", "the-hound")
    retreat(s, "stoney-sept")
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 9, "defender": 6}
