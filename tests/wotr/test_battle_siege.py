"""Strongholds and sieges: the retreat into the siege (WD-13, WD-14), siege battles (WD-20),
sorties, relieving a siege, a Stronghold falling (spec §13.2, §18.A, §20 #26-#27; facts §7.3,
§7.4)."""

from __future__ import annotations

from boardkit.frames import advance
from wotr_env.engine import WD, is_over, play
from wotr_env.engine.battle.attack import start_battle
from wotr_env.engine.decision import DONE, choice
from wotr_env.engine.state import ELITE, FREE_PEOPLES, REGULAR, SHADOW

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

FIELD_BATTLE, INTO_SIEGE = choice("field-battle"), choice("into-siege")
ADVANCE, STAY, STOP = choice("advance"), choice("stay"), choice("stop")
CONTINUE, ALL, PART = choice("continue"), choice("all"), choice("part")


def rolls(state, side: int) -> list[tuple]:
    return [(e[2], e[3]) for e in events(state, "combat-roll") if e[1] == side]


def test_stronghold_choice_before_every_round():
    """spec §13.2, §20 #26, facts §7.3: in a field battle at his own Stronghold the defender
    chooses field battle or siege before each round, the first included."""
    s = battle_state({"minas-tirith": {"gondor": {"regular": 3}},
                      "osgiliath": {"sauron": {"regular": 3}}},
                     rolls={"shadow": [1] * 6, "free_peoples": [1] * 6})
    start(s, edge(s, "osgiliath", "minas-tirith"))
    assert kind(s) == WD.STRONGHOLD_CHOICE and s.pending.player == FREE_PEOPLES
    play(s, FIELD_BATTLE, NONE, NONE, CONTINUE, STAY)
    assert kind(s) == WD.STRONGHOLD_CHOICE  # again, before round 2
    play(s, FIELD_BATTLE, NONE, NONE)
    assert len(rolls(s, SHADOW)) == 2


def test_no_stronghold_choice_in_a_city_or_for_besiegers():
    """spec §13.2: only an Army in its own side's Stronghold may retreat into it: not in a City,
    nor besiegers standing around the enemy's Stronghold when relievers attack them."""
    s = battle_state({"dale": {"the-north": {"regular": 3}},
                      "northern-rhovanion": {"sauron": {"regular": 3}}})
    start(s, edge(s, "northern-rhovanion", "dale"))
    assert kind(s) == WD.COMBAT_CARD
    s = battle_state({"minas-tirith": {"sauron": {"regular": 3}},
                      "lossarnach": {"gondor": {"regular": 3}}}, side="free_peoples",
                     face="army_muster", boxes={"minas-tirith": {"gondor": {"regular": 1}}})
    start(s, edge(s, "lossarnach", "minas-tirith"))
    assert kind(s) == WD.COMBAT_CARD


def test_retreat_into_siege_and_advance_begins_the_siege():
    """spec §13.2, §18.A, facts §7.3: the defender retreats into the Stronghold; the attacker
    advances: the siege begins and the battle is over. At most 5 units go in (the defender
    sends the excess to the reinforcements), Leaders and Characters all; the Stronghold stays
    his."""
    s = battle_state({"minas-tirith": {"gondor": {"regular": 5, "elite": 2, "leader": 1}},
                      "osgiliath": {"sauron": {"regular": 4}}},
                     characters={"boromir": "minas-tirith"})
    g, mt = nation(s, "gondor"), region(s, "minas-tirith")
    start(s, edge(s, "osgiliath", "minas-tirith"))
    play(s, INTO_SIEGE)
    assert kind(s) == WD.SIEGE_ADVANCE and s.pending.player == SHADOW
    play(s, ADVANCE)
    assert kind(s) == WD.OVERSTACK and s.pending.player == FREE_PEOPLES
    reserve = s.reserve[g].tolist()
    play(s, ("unit", g, REGULAR), ("unit", g, REGULAR))
    assert figures(s, "minas-tirith", "gondor", box=True) == [3, 2, 1, 0]
    assert figures(s, "minas-tirith", "gondor") == [0, 0, 0, 0]
    assert s.reserve[g, REGULAR] == reserve[REGULAR] + 2
    boromir = s.ruleset.cards.character("boromir")
    assert s.char_at[boromir] == mt and s.char_in_box[boromir]
    assert figures(s, "minas-tirith", "sauron")[0] == 4
    assert s.control[mt] == FREE_PEOPLES and not rolls(s, SHADOW)
    sound(s)


def test_retreat_into_siege_without_advance_means_no_siege():
    """facts §7.3 [JC reading], spec §20 #27: the attacker does not follow: no siege, the
    defenders stay in the field, the battle is over."""
    s = battle_state({"minas-tirith": {"gondor": {"regular": 7}},
                      "osgiliath": {"sauron": {"regular": 4}}})
    start(s, edge(s, "osgiliath", "minas-tirith"))
    play(s, INTO_SIEGE, STAY)
    assert figures(s, "minas-tirith", "gondor")[0] == 7
    assert not s.box.any() and figures(s, "osgiliath", "sauron")[0] == 4
    assert events(s, "battle-ends")[-1][3] == "into-siege"
    sound(s)


def besieged_minas_tirith(shadow, gondor, rolls_, side="shadow", face="army", **extra):
    return battle_state({"minas-tirith": {"sauron": shadow}}, side=side, face=face,
                        boxes={"minas-tirith": {"gondor": gondor}}, rolls=rolls_, **extra)


def test_siege_battle_attacker_hits_on_six_and_lasts_one_round():
    """facts §7.3, spec §18.A: in a siege battle the attacker hits only on 6, the defender on
    5+; after one round the attacker may downgrade an Elite to fight another (WD-20), else the
    siege goes on. The besieged never retreat."""
    s = besieged_minas_tirith({"regular": 3, "elite": 1}, {"regular": 3},
                              {"shadow": [5, 5, 6, 1, 6, 5, 5, 5], "free_peoples": [1] * 6})
    sa, mt = nation(s, "sauron"), region(s, "minas-tirith")
    start(s, ("region", mt))
    play(s, NONE, NONE)
    assert rolls(s, SHADOW) == [((5, 5, 6, 1), 1)]
    assert kind(s) == WD.EXTEND_SIEGE
    assert set(options(s)) == {("casualty", sa, "downgrade"), STOP}
    reserve = s.reserve[sa].tolist()
    play(s, ("casualty", sa, "downgrade"))
    assert figures(s, "minas-tirith", "sauron")[:2] == [4, 0]
    assert s.reserve[sa, ELITE] == reserve[ELITE] + 1
    assert s.reserve[sa, REGULAR] == reserve[REGULAR] - 1
    play(s, NONE, NONE)
    assert rolls(s, SHADOW)[1] == ((6, 5, 5, 5), 1)
    # no Elite left: stopping is the only option, played without asking
    assert events(s, "battle-ends")[-1][3] == "siege-goes-on"
    assert not events(s, "retreat")
    assert figures(s, "minas-tirith", "gondor", box=True)[0] == 1
    sound(s)


def test_siege_battle_stop_leaves_the_siege():
    """facts §7.3: the attacker stops after the round: both Armies stay, the siege goes on."""
    s = besieged_minas_tirith({"elite": 2}, {"regular": 2},
                              {"shadow": [1, 1], "free_peoples": [1, 1]})
    start(s, ("region", region(s, "minas-tirith")))
    play(s, NONE, NONE, STOP)
    assert figures(s, "minas-tirith", "gondor", box=True)[0] == 2
    assert events(s, "battle-ends")[-1][3] == "siege-goes-on"


def test_siege_battle_wiping_the_box_captures_the_stronghold():
    """facts §7.4: every unit inside eliminated and a besieger left: the Stronghold is
    captured; its Leaders and Characters are eliminated with it."""
    s = besieged_minas_tirith({"regular": 3}, {"regular": 1, "leader": 1},
                              {"shadow": [6, 1, 1], "free_peoples": [1]},
                              characters={"boromir": "minas-tirith"})
    mt = region(s, "minas-tirith")
    s.char_in_box[s.ruleset.cards.character("boromir")] = True
    start(s, ("region", mt))
    play(s, NONE, NONE)
    assert s.control[mt] == SHADOW and not s.box[mt].any()
    assert s.char_at[s.ruleset.cards.character("boromir")] < 0
    sound(s)


def test_grond_siege_battle_of_three_rounds_asks_cease_but_never_retreat():
    """facts §7.3 (*Grond*: 3 rounds), spec §18.A: between siege rounds the attacker may
    cease or continue; the besieged are never asked to retreat."""
    s = besieged_minas_tirith({"regular": 3}, {"regular": 3},
                              {"shadow": [1] * 9, "free_peoples": [1] * 9})
    s.stack.pop()
    s.pending = None
    start_battle(s, SHADOW, ("region", region(s, "minas-tirith")), siege_rounds=3)
    advance(s, is_over)
    if kind(s) == WD.REARGUARD:
        play(s, DONE)
    play(s, NONE, NONE)
    assert kind(s) == WD.CEASE_OR_CONTINUE
    play(s, CONTINUE)
    assert kind(s) == WD.COMBAT_CARD  # no retreat decision
    play(s, NONE, NONE, CONTINUE, NONE, NONE)
    assert len(rolls(s, SHADOW)) == 3  # then WD-20 with no Elite: stop, played at once
    assert events(s, "battle-ends")[-1][3] == "siege-goes-on"


def test_sortie_is_a_field_battle_and_breaks_the_siege():
    """facts §7.3: a sortie is a field battle (both sides on 5+, no Stronghold bonus); the
    besiegers destroyed, the siege ends and the garrison comes out; a sortie never advances."""
    s = besieged_minas_tirith({"regular": 2}, {"regular": 3},
                              {"free_peoples": [5, 5, 1], "shadow": [1, 1]},
                              side="free_peoples", face="army_muster")
    mt = region(s, "minas-tirith")
    start(s, ("region", mt), rear=())
    play(s, NONE, NONE)
    assert rolls(s, FREE_PEOPLES) == [((5, 5, 1), 2)]
    assert not s.box[mt].any() and figures(s, "minas-tirith", "gondor")[0] == 3
    assert not events(s, "advance")
    sound(s)


def test_besiegers_may_retreat_from_a_sortie():
    """facts §7.3: the besiegers defending against a sortie may retreat normally."""
    s = besieged_minas_tirith({"regular": 2}, {"regular": 3},
                              {"free_peoples": [1] * 3, "shadow": [1, 1]},
                              side="free_peoples", face="army_muster")
    mt = region(s, "minas-tirith")
    start(s, ("region", mt))
    play(s, NONE, NONE, CONTINUE)
    assert kind(s) == WD.RETREAT and s.pending.player == SHADOW
    play(s, ("region", region(s, "osgiliath")))
    assert not s.box[mt].any() and figures(s, "minas-tirith", "gondor")[0] == 3


def test_sortie_wiped_out_loses_the_stronghold_unless_a_rearguard_holds_it():
    """facts §7.3, §7.4: a sortie force destroyed with its rearguard inside: the siege goes
    on; with nobody left inside: the Stronghold falls to the besiegers."""
    s = besieged_minas_tirith({"regular": 3}, {"regular": 2},
                              {"free_peoples": [1], "shadow": [6, 1, 1]},
                              side="free_peoples", face="army_muster")
    g, mt = nation(s, "gondor"), region(s, "minas-tirith")
    start(s, ("region", mt), rear=(("unit", g, REGULAR),))
    play(s, NONE, NONE)
    assert figures(s, "minas-tirith", "gondor", box=True)[0] == 1
    assert s.control[mt] == FREE_PEOPLES
    s = besieged_minas_tirith({"regular": 3}, {"regular": 1},
                              {"free_peoples": [1], "shadow": [6, 1, 1]},
                              side="free_peoples", face="army_muster")
    start(s, ("region", mt))
    play(s, NONE, NONE)
    assert s.control[mt] == SHADOW and not s.box[mt].any()
    sound(s)


def test_relieving_a_siege():
    """facts §7.3: an Army from an adjacent region attacks the besiegers by the normal rules:
    the besieged take no part, the Stronghold gives the besiegers no bonus; the besiegers
    destroyed, the siege ends and the relievers may advance within the stacking limit."""
    s = battle_state({"minas-tirith": {"sauron": {"regular": 1}},
                      "lossarnach": {"gondor": {"regular": 5, "elite": 4}}}, side="free_peoples",
                     face="army_muster", boxes={"minas-tirith": {"gondor": {"regular": 2}}},
                     rolls={"free_peoples": [5, 1, 1, 1, 1], "shadow": [1]})
    g, mt = nation(s, "gondor"), region(s, "minas-tirith")
    start(s, edge(s, "lossarnach", "minas-tirith"))
    play(s, NONE, NONE)
    assert rolls(s, FREE_PEOPLES) == [((5, 1, 1, 1, 1), 1)]  # 5 dice: the relievers' only
    assert not s.box[mt].any() and figures(s, "minas-tirith", "gondor")[0] == 2
    assert kind(s) == WD.ADVANCE_AFTER_BATTLE
    assert set(options(s)) == {STAY, PART}  # 9 more would make 11
    play(s, PART, *[("unit", g, REGULAR)] * 5, *[("unit", g, ELITE)] * 3)
    assert figures(s, "minas-tirith", "gondor")[:2] == [7, 3]
    sound(s)
