"""Victory: the victory track, seven castles at once, the ranking after the last round (rules spec
R5.3, R5.4, R13.3, R22.1-R22.4, AMBIG-22; facts §4.4, §12 D6; option ``tiebreak``)."""

import pytest
from engine_helpers import area, at, build, house, kind, orders, who

from got_env.engine import DONE, NO, DecisionKind, IllegalActionError, Phase, apply
from got_env.engine.combat.frame import CombatFrame
from got_env.engine.state import FOOTMAN, KNIGHT

# Lannister holds six castles/strongholds: Lannisport (home), Riverrun and Seagard with units,
# Harrenhal, Crackclaw Point and The Reach with power tokens.
SIX_CASTLES_UNITS = {"lannisport": "F", "riverrun": "F", "seagard": "F"}
SIX_CASTLES_TOKENS = {"harrenhal": "lannister", "crackclaw-point": "lannister",
                      "the-reach": "lannister"}


def ranking(state):
    return [state.ruleset.houses[h].id for h in state.outcome.ranking]


def final(tiebreak=None, **spec):
    """3 players at the end of round 10 (no order left: the game ends at once); no units unless
    given, so each house holds its home by its shield."""
    options = {"tiebreak": tiebreak} if tiebreak else {}
    spec.setdefault("units", {})
    s = build(players=3, round=10, start="consolidate", options=options, **spec)
    assert s.phase == Phase.ENDED and s.pending is None
    assert s.outcome.reason == "last-round"
    assert s.outcome.winner == s.outcome.ranking[0]
    return s


# -- R22.1 the victory track ------------------------------------------------------------------


def test_r22_1_victory_points_count_controlled_castles_and_strongholds():
    """R22.1, R13.3.1, R13.1.1, facts §4.4: units, power tokens and home shields give control;
    an enemy unit in a home area takes it; at the 6-player start Stark has 2, the others 1."""
    s = build()
    vp = {h.id: int(s.victory_points()[h.index]) for h in s.ruleset.houses}
    assert vp == {"stark": 2, "lannister": 1, "baratheon": 1, "greyjoy": 1, "tyrell": 1,
                  "martell": 1}
    s = build(players=3, units={"stark": {"lannisport": "F", "moat-cailin": "F"}},
              power_tokens={"harrenhal": "baratheon", "stoney-sept": "lannister"})
    vp = {h.id: int(s.victory_points()[h.index]) for h in s.ruleset.houses if s.in_play[h.index]}
    # Stark: Winterfell (shield), Lannisport, Moat Cailin; Lannister lost its home; Baratheon:
    # Dragonstone (shield) and Harrenhal (token); Stoney Sept has no castle.
    assert vp == {"stark": 3, "lannister": 0, "baratheon": 2}


# -- R22.2 / R5.3 seven castles ---------------------------------------------------------------


def test_r22_2_seventh_castle_by_march_ends_the_game_at_once():
    """R22.2, R5.3 (AMBIG-22): the move that gives Lannister its 7th castle (Moat Cailin) ends
    the game on the spot: mid-March, with another March still on the board."""
    s = build(start="marches",
              units={"lannister": {**SIX_CASTLES_UNITS, "the-twins": "FF",
                                   "stoney-sept": "F"}},
              power_tokens=SIX_CASTLES_TOKENS,
              orders={"the-twins": "march-0", "stoney-sept": "march-0"})
    assert (kind(s), who(s)) == (DecisionKind.MARCH_TO_RESOLVE, "lannister")
    apply(s, at(s, "the-twins"))
    assert kind(s) == DecisionKind.MARCH_MOVE
    apply(s, ("move", FOOTMAN, area(s, "moat-cailin")))
    assert s.phase == Phase.ENDED and s.pending is None
    assert s.outcome.reason == "seven-castles"
    assert s.outcome.winner == house(s, "lannister")
    assert s.ruleset.houses[s.outcome.ranking[0]].id == "lannister"
    assert int(s.victory_points()[house(s, "lannister")]) == 7
    assert orders(s) == {"the-twins": "march-0", "stoney-sept": "march-0"}
    with pytest.raises(IllegalActionError):
        apply(s, DONE)


def test_r22_2_seventh_castle_from_a_neutral_force():
    """R22.2, R5.3, R16: destroying the neutral force of King's Landing (5) with two Knights
    and a Footman takes the 7th castle; the game ends before anything else happens."""
    s = build(start="marches",
              units={"lannister": {**SIX_CASTLES_UNITS, "blackwater": "KKF"},
                     "baratheon": {"kingswood": "F"}},
              power_tokens=SIX_CASTLES_TOKENS,
              orders={"blackwater": "march-0", "kingswood": "march-0"})
    assert (kind(s), who(s)) == (DecisionKind.MARCH_MOVE, "baratheon")
    apply(s, DONE)
    assert (kind(s), who(s)) == (DecisionKind.MARCH_MOVE, "lannister")
    for u in (KNIGHT, KNIGHT, FOOTMAN):
        apply(s, ("move", u, area(s, "kings-landing")))
    # All units moved: "done" is played; Blackwater is empty, so D-28 comes before the attack.
    assert s.outcome is None and kind(s) == DecisionKind.LEAVE_POWER_TOKEN
    apply(s, NO)
    assert s.phase == Phase.ENDED
    assert s.outcome.reason == "seven-castles"
    assert s.outcome.winner == house(s, "lannister")


def test_r5_3_seventh_castle_won_in_combat_ends_the_game_inside_the_combat():
    """R5.3 (AMBIG-22), R22.2: Lannister (six castles) takes Moat Cailin from Stark in a combat
    (two Knights and Ser Gregor, 7, against a Footman and the Greatjon, 3): the game ends the
    moment the winners enter, with the combat frame still open."""
    s = build(start="marches",
              units={"lannister": {**SIX_CASTLES_UNITS, "the-twins": "KK", "stoney-sept": "F"},
                     "stark": {"moat-cailin": "F"}},
              power_tokens=SIX_CASTLES_TOKENS,
              hands={"lannister": ["ser-gregor-clegane", "the-hound"],
                     "stark": ["greatjon-umber"]},
              orders={"the-twins": "march-0", "stoney-sept": "march-0",
                      "moat-cailin": "defense-1a"})
    apply(s, at(s, "the-twins"))
    apply(s, ("move", KNIGHT, area(s, "moat-cailin")))
    apply(s, ("move", KNIGHT, area(s, "moat-cailin")))
    assert kind(s) == DecisionKind.LEAVE_POWER_TOKEN
    apply(s, NO)
    assert (kind(s), who(s)) == (DecisionKind.HOUSE_CARD, "lannister")
    apply(s, ("card", s.ruleset.house_card("ser-gregor-clegane")))
    assert (kind(s), who(s)) == (DecisionKind.HOUSE_CARD, "stark")  # one card, still asked
    apply(s, ("card", s.ruleset.house_card("greatjon-umber")))
    assert s.phase == Phase.ENDED and s.pending is None
    assert s.outcome.reason == "seven-castles"
    assert s.outcome.winner == house(s, "lannister")
    assert s.units[area(s, "moat-cailin"), house(s, "lannister"), KNIGHT] == 2
    assert type(s.stack[-1]) is CombatFrame  # stopped inside the combat
    assert "stoney-sept" in orders(s)


def test_r22_2_six_castles_do_not_end_the_game():
    """R22.2: six is not enough; the game goes on."""
    s = build(start="marches",
              units={"lannister": {**SIX_CASTLES_UNITS, "the-twins": "FF",
                                   "stoney-sept": "F"}},
              power_tokens=SIX_CASTLES_TOKENS,
              orders={"the-twins": "march-0", "stoney-sept": "march-0"})
    apply(s, at(s, "the-twins"))
    apply(s, ("move", FOOTMAN, area(s, "the-fingers")))
    assert s.phase == Phase.ACTION and s.outcome is None


# -- R22.3 / R22.4 ranking after round 10 ------------------------------------------------------


def test_r22_3_most_castles_wins():
    """R22.3: the house highest on the victory track wins."""
    s = final(units={"baratheon": {"kings-landing": "F", "crackclaw-point": "F"},
                     "stark": {"white-harbor": "F"}}, neutral_forces={})
    assert ranking(s) == ["baratheon", "stark", "lannister"]
    assert s.outcome.winner == house(s, "baratheon")


def test_r22_3_errata_tie_break_land_areas():
    """R22.3 errata (facts §12 D6): equal castles, then most land areas controlled."""
    s = final(units={"lannister": {"stoney-sept": "F", "searoad-marches": "F"},
                     "stark": {"karhold": "F"}})
    # One castle each; land areas: Lannister 3, Stark 2, Baratheon 1.
    assert ranking(s) == ["lannister", "stark", "baratheon"]


def test_r22_3_errata_tie_break_supply():
    """R22.3 errata: equal castles and land areas, then the higher supply position."""
    s = final(supply={"stark": 4, "lannister": 3, "baratheon": 2})
    assert ranking(s) == ["stark", "lannister", "baratheon"]


def test_r22_3_errata_last_tie_break_iron_throne():
    """R22.3 errata: all else equal, the Iron Throne order decides (Baratheon, Lannister,
    Stark at the 3-player start)."""
    s = final(supply={"stark": 2, "lannister": 2, "baratheon": 2})
    assert ranking(s) == ["baratheon", "lannister", "stark"]
    s = final(supply={"stark": 2, "lannister": 2, "baratheon": 2},
              tracks={"iron-throne": ["stark", "baratheon", "lannister"]})
    assert ranking(s) == ["stark", "baratheon", "lannister"]


def test_r22_4_iron_throne_holder_does_not_decide_ties():
    """R22.4: holding the Iron Throne (Baratheon) does not win a tie on castles; the tie-break
    chain does (here Lannister's extra land area), the throne comes last."""
    s = final(units={"lannister": {"stoney-sept": "F"}},
              supply={"stark": 1, "lannister": 2, "baratheon": 2})
    assert s.holder(0) == house(s, "baratheon")
    assert ranking(s)[:2] == ["lannister", "baratheon"]


# Stark: Winterfell (stronghold) + Moat Cailin (castle) + Karhold + Widow's Watch: 2 castles, one
# stronghold, 4 land areas. Lannister: Lannisport + Riverrun (two strongholds), 2 land areas.
SPLIT = {"units": {"stark": {"moat-cailin": "F", "karhold": "F", "widows-watch": "F"},
                   "lannister": {"riverrun": "F"}},
         "supply": {"stark": 2, "lannister": 2, "baratheon": 2}}


def test_r22_3_errata_and_rulebook_chains_differ():
    """R22.3, facts §12 D6: the errata chain (land areas) puts Stark first; the printed
    rulebook chain (strongholds), chosen with tiebreak="rulebook", puts Lannister first."""
    assert ranking(final(**SPLIT)) == ["stark", "lannister", "baratheon"]
    assert ranking(final("errata", **SPLIT)) == ["stark", "lannister", "baratheon"]
    assert ranking(final("rulebook", **SPLIT)) == ["lannister", "stark", "baratheon"]


def test_r22_3_rulebook_chain_supply_then_power_then_throne():
    """R22.3 printed list: strongholds, then supply, then available power, then Iron Throne."""
    # One stronghold each (the homes); supply decides Lannister over the others.
    s = final("rulebook", supply={"stark": 2, "lannister": 3, "baratheon": 2},
              power={"stark": 9, "baratheon": 4, "lannister": 0})
    assert ranking(s) == ["lannister", "stark", "baratheon"]
    # Equal supply: power decides, ignoring land areas (Baratheon has more).
    s = final("rulebook", supply={"stark": 2, "lannister": 2, "baratheon": 2},
              power={"stark": 9, "baratheon": 4, "lannister": 4},
              units={"baratheon": {"kingswood": "F", "blackwater": "F"}})
    assert ranking(s)[0] == "stark"
    # Equal power too: the Iron Throne order (Baratheon before Lannister).
    assert ranking(s)[1:] == ["baratheon", "lannister"]
    s = final("rulebook", supply={"stark": 2, "lannister": 2, "baratheon": 2},
              power={"stark": 4, "baratheon": 4, "lannister": 4})
    assert ranking(s) == ["baratheon", "lannister", "stark"]


def test_r22_3_errata_ignores_power():
    """R22.3 errata: available power is not a tie-break (all else equal, the throne decides)."""
    s = final(supply={"stark": 2, "lannister": 2, "baratheon": 2},
              power={"stark": 15, "baratheon": 0, "lannister": 0})
    assert ranking(s) == ["baratheon", "lannister", "stark"]
