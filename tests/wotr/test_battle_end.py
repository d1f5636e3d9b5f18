"""The end of a round and of a battle: cease or continue (WD-18), retreat (WD-19), the advance
(WD-21, WD-10), the Political Track (spec §12.7-§12.8, §8; facts §7.2, §7.4, §7.5). Issue 27's
known bug: stacking checked before an attack (a retreat over ten units is trimmed at once)."""

from __future__ import annotations

from wotr_env.engine import WD, play
from wotr_env.engine.decision import DONE, choice
from wotr_env.engine.state import FREE_PEOPLES, SHADOW

from .test_battle_setup import (
    NONE,
    battle_state,
    edge,
    events,
    figures,
    kind,
    nation,
    options,
    region,
    sound,
    start,
)

CEASE, CONTINUE, STAY = choice("cease"), choice("continue"), choice("stay")
ALL, PART = choice("all"), choice("part")


def test_cease_ends_the_battle_where_it_stands():
    """spec §12.7, facts §7.2: the attacker ceases: both Armies stay, nothing advances."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 2}},
                      "north-ithilien": {"sauron": {"regular": 3}}},
                     rolls={"shadow": [1, 1, 1], "free_peoples": [1, 1]})
    start(s, edge(s, "north-ithilien", "osgiliath"))
    play(s, NONE, NONE)
    assert kind(s) == WD.CEASE_OR_CONTINUE and s.pending.player == SHADOW
    play(s, CEASE)
    assert figures(s, "osgiliath", "gondor")[0] == 2
    assert figures(s, "north-ithilien", "sauron")[0] == 3
    assert events(s, "battle-ends")[-1][3] == "cease" and not events(s, "advance")
    sound(s)


def test_retreat_to_an_adjacent_free_region():
    """spec §12.7, facts §7.2: if the attacker continues the defender may retreat his whole
    Army, Leaders and Characters too, into an adjacent region with no enemy Army and no
    enemy-controlled Settlement; the attacker may then advance."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 2, "leader": 1}},
                      "north-ithilien": {"sauron": {"regular": 3}},
                      "south-ithilien": {"sauron": {"regular": 1}}},
                     control={"pelargir": "shadow"}, characters={"strider": "osgiliath"},
                     rolls={"shadow": [1, 1, 1], "free_peoples": [1] * 6})
    start(s, edge(s, "north-ithilien", "osgiliath"))
    play(s, NONE, NONE, CONTINUE)
    assert kind(s) == WD.RETREAT and s.pending.player == FREE_PEOPLES
    free = {region(s, r) for r in ("dead-marshes", "druadan-forest", "lossarnach",
                                   "minas-tirith", "west-harondor")}
    assert set(options(s)) == {STAY} | {("region", r) for r in free}
    play(s, ("region", region(s, "lossarnach")))
    assert figures(s, "lossarnach", "gondor")[:3] == [2, 0, 1]
    assert s.char_at[s.ruleset.cards.character("strider")] \
        == region(s, "lossarnach")
    assert kind(s) == WD.ADVANCE_AFTER_BATTLE
    play(s, ALL)
    assert figures(s, "osgiliath", "sauron")[0] == 3
    sound(s)


def test_defender_stays_and_a_new_round_begins():
    """spec §12.7: the defender does not retreat: another round."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 2}},
                      "north-ithilien": {"sauron": {"regular": 3}}},
                     rolls={"shadow": [1] * 6, "free_peoples": [1] * 4})
    start(s, edge(s, "north-ithilien", "osgiliath"))
    play(s, NONE, NONE, CONTINUE, STAY)
    assert kind(s) == WD.COMBAT_CARD
    play(s, NONE, NONE)
    assert len(events(s, "combat-roll")) == 4


def test_level_zero_character_stays_behind_on_a_retreat():
    """facts §7.2: a Level-0 Character (Saruman) stays behind when his Army retreats."""
    s = battle_state({"orthanc": {"isengard": {"regular": 2}},
                      "fords-of-isen": {"rohan": {"regular": 3}}}, side="free_peoples",
                     face="army_muster", characters={"saruman": "orthanc"},
                     rolls={"shadow": [1, 1], "free_peoples": [1, 1, 1]})
    start(s, edge(s, "fords-of-isen", "orthanc"))
    play(s, choice("field-battle"), NONE, NONE, CONTINUE)
    play(s, ("region", region(s, "gap-of-rohan")))
    assert figures(s, "gap-of-rohan", "isengard")[0] == 2
    assert s.char_at[s.ruleset.cards.character("saruman")] == region(s, "orthanc")
    sound(s)


def test_advance_captures_and_the_track_moves():
    """spec §12.8, facts §7.4, §7.5: the defender destroyed, the attacker advances and captures
    the City; the nation attacked is activated and moves one step for the battle and one for
    the capture."""
    s = battle_state({"dale": {"the-north": {"regular": 1}},
                      "northern-rhovanion": {"sauron": {"regular": 3}}},
                     politics={"the-north": {"steps": 3, "active": False}},
                     rolls={"shadow": [6, 1, 1], "free_peoples": [1]})
    n = nation(s, "the-north")
    start(s, edge(s, "northern-rhovanion", "dale"))
    play(s, NONE, NONE)
    assert s.active[n] and s.politics[n] == 2  # attacked: activated, one step
    assert kind(s) == WD.ADVANCE_AFTER_BATTLE
    assert set(options(s)) == {STAY, ALL, PART}
    play(s, ALL)
    assert figures(s, "dale", "sauron")[0] == 3
    assert s.control[region(s, "dale")] == SHADOW and s.politics[n] == 1
    sound(s)


def test_no_advance_no_capture():
    """spec §12.8: advancing is optional; without it nothing is captured."""
    s = battle_state({"dale": {"the-north": {"regular": 1}},
                      "northern-rhovanion": {"sauron": {"regular": 3}}},
                     rolls={"shadow": [6, 1, 1], "free_peoples": [1]})
    start(s, edge(s, "northern-rhovanion", "dale"))
    play(s, NONE, NONE, STAY)
    assert s.control[region(s, "dale")] == FREE_PEOPLES
    assert figures(s, "northern-rhovanion", "sauron")[0] == 3


def test_attacked_once_per_battle():
    """facts §7.5: one step per battle, however many rounds."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 3}},
                      "north-ithilien": {"sauron": {"regular": 3}}},
                     politics={"gondor": {"steps": 2, "active": False}},
                     rolls={"shadow": [1] * 9, "free_peoples": [1] * 9})
    g = nation(s, "gondor")
    start(s, edge(s, "north-ithilien", "osgiliath"))
    play(s, NONE, NONE, CONTINUE, STAY, NONE, NONE, CONTINUE, STAY, NONE, NONE)
    assert len(events(s, "combat-roll")) == 6
    assert s.active[g] and s.politics[g] == 1


def test_part_advance_leaves_the_rest_and_the_rearguard():
    """spec §12.1, §12.8, facts §7.2: the attacker may advance a part of the force; the
    rearguard never advances; no Free Peoples Leader is left alone."""
    s = battle_state({"north-ithilien": {"sauron": {"regular": 1}},
                      "osgiliath": {"gondor": {"regular": 3, "leader": 1}}}, side="free_peoples",
                     face="army_muster", rolls={"free_peoples": [6, 1], "shadow": [1]})
    g = nation(s, "gondor")
    start(s, edge(s, "osgiliath", "north-ithilien"), rear=(("unit", g, 0),))
    play(s, NONE, NONE)
    assert set(options(s)) == {STAY, ALL, PART}
    play(s, PART)
    assert kind(s) == WD.SPLIT_ARMY and DONE not in options(s)
    play(s, ("unit", g, 0), ("unit", g, 0))
    assert ("unit", g, 0) not in options(s)  # the third Regular is the rearguard's
    play(s, DONE)
    assert figures(s, "north-ithilien", "gondor")[:3] == [2, 0, 0]
    assert figures(s, "osgiliath", "gondor")[:3] == [1, 0, 1]
    sound(s)


def test_part_advance_may_not_strand_a_leader():
    """spec §20 #23: a part that takes every unit must take the Free Peoples Leaders too."""
    s = battle_state({"north-ithilien": {"sauron": {"regular": 1}},
                      "osgiliath": {"gondor": {"regular": 2, "leader": 1}}}, side="free_peoples",
                     face="army_muster", rolls={"free_peoples": [6, 1], "shadow": [1]})
    g = nation(s, "gondor")
    start(s, edge(s, "osgiliath", "north-ithilien"))
    play(s, NONE, NONE, PART, ("unit", g, 0), ("unit", g, 0))
    # DONE is not offered while the Leader would stay alone: taking him is the only option
    assert s.pending is None or s.pending.kind != WD.SPLIT_ARMY
    assert figures(s, "north-ithilien", "gondor")[:3] == [2, 0, 1]
    assert s.casualties[g].sum() == 0
    sound(s)


def test_retreat_over_ten_units_is_trimmed_before_anything_else():
    """spec §8, §20 #8 (known bug of issue 27: stacking before an attack): a retreat into a
    friendly Army that makes more than 10 units sends the excess back to the reinforcements
    at once (WD-36), so no Army ever attacks with more than 10 units."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 3}},
                      "lossarnach": {"gondor": {"regular": 7, "elite": 2}},
                      "north-ithilien": {"sauron": {"regular": 3}}},
                     rolls={"shadow": [1] * 3, "free_peoples": [1] * 3})
    g = nation(s, "gondor")
    start(s, edge(s, "north-ithilien", "osgiliath"))
    play(s, NONE, NONE, CONTINUE, ("region", region(s, "lossarnach")))
    assert kind(s) == WD.OVERSTACK and s.pending.player == FREE_PEOPLES
    assert set(options(s)) == {("unit", g, 0), ("unit", g, 1)}
    play(s, ("unit", g, 0), ("unit", g, 0))
    assert figures(s, "lossarnach", "gondor")[:2] == [8, 2]
    assert s.casualties[g].sum() == 0  # not casualties
    sound(s)


def test_mutual_destruction_takes_no_ground():
    """spec §12.8, facts §7.4: both forces destroyed: no advance, no capture."""
    s = battle_state({"dale": {"the-north": {"regular": 1}},
                      "northern-rhovanion": {"sauron": {"regular": 1}}},
                     rolls={"shadow": [6], "free_peoples": [6]})
    start(s, edge(s, "northern-rhovanion", "dale"))
    play(s, NONE, NONE)
    assert not events(s, "advance") and s.control[region(s, "dale")] == FREE_PEOPLES
    assert s.pending is None or s.pending.kind != WD.ADVANCE_AFTER_BATTLE
    sound(s)
