"""Casualties, one hit at a time (WD-17; spec §12.6, §20 #21-#23; facts §7.2). Issue 27's
known bugs: per-hit casualties with 2 hits per Elite, figures conserved on a downgrade."""

from __future__ import annotations

from wotr_env.engine import WD, play
from wotr_env.engine.state import ELIMINATED, ELITE, FREE_PEOPLES, LEADER, REGULAR, SHADOW

from .test_battle_setup import (
    NONE,
    battle_state,
    edge,
    events,
    figures,
    kind,
    nation,
    options,
    sound,
    start,
)


def shadow_hits(armies, shadow_rolls, fp_rolls=(1, 1, 1, 1, 1), **extra):
    """The Shadow attacks from north-ithilien into osgiliath; stops at the first casualty."""
    s = battle_state({"north-ithilien": {"sauron": {"regular": 5}}, **armies},
                     rolls={"shadow": list(shadow_rolls), "free_peoples": list(fp_rolls)},
                     **extra)
    start(s, edge(s, "north-ithilien", "osgiliath"))
    play(s, NONE, NONE)
    return s


def test_each_hit_is_a_choice_and_an_elite_takes_two():
    """spec §12.6, facts §7.2 (known bug of issue 27): 2 hits on a Regular and an Elite may
    kill the Regular and downgrade the Elite, downgrade twice, or remove the Elite for both
    hits, leaving the Regular alive."""
    s = shadow_hits({"osgiliath": {"gondor": {"regular": 1, "elite": 1}}}, [6, 6, 1, 1, 1])
    g = nation(s, "gondor")
    assert kind(s) == WD.CASUALTY and s.pending.player == FREE_PEOPLES
    assert set(options(s)) == {("casualty", g, "regular"), ("casualty", g, "downgrade"),
                               ("casualty", g, "elite")}
    before = s.casualties[g].tolist()
    play(s, ("casualty", g, "elite"))
    assert figures(s, "osgiliath", "gondor")[:2] == [1, 0]
    assert s.casualties[g, ELITE] == before[ELITE] + 1
    assert kind(s) != WD.CASUALTY  # both hits absorbed
    sound(s)


def test_downgrade_twice_then_kill():
    """spec §12.6: each hit is chosen anew: a downgrade, then the last hit on a Regular."""
    s = shadow_hits({"osgiliath": {"gondor": {"regular": 1, "elite": 1}}}, [6, 6, 1, 1, 1])
    g = nation(s, "gondor")
    play(s, ("casualty", g, "downgrade"))  # then 2 Regulars: the last hit kills one (forced)
    assert [e[3] for e in events(s, "casualty")] == ["downgrade", "regular"]
    assert figures(s, "osgiliath", "gondor")[:2] == [1, 0]
    sound(s)


def test_downgrade_conserves_figures_free_peoples():
    """spec §12.6, §20 #22 (known bug of issue 27): the Regular replacing an Elite comes from
    the casualties first, else the reinforcements; the Elite goes to the casualties. Every
    figure is still counted once."""
    s = shadow_hits({"osgiliath": {"gondor": {"elite": 2}}}, [6, 1, 1, 1, 1],
                    casualties={"gondor": {"regular": 1}})
    g = nation(s, "gondor")
    assert events(s, "casualty") == [("casualty", FREE_PEOPLES, g, "downgrade")]  # forced
    assert figures(s, "osgiliath", "gondor")[:2] == [1, 1]
    assert s.casualties[g, REGULAR] == 0 and s.casualties[g, ELITE] == 1
    owned = s.ruleset.board.figures[g]
    assert s.reserve[g, REGULAR] == owned[REGULAR] - 1  # untouched: the casualty pile gave it
    assert s.reserve[g, ELITE] == owned[ELITE] - 2
    sound(s)


def test_downgrade_conserves_figures_shadow():
    """spec §12.6, §20 #22: a Shadow Elite downgraded goes back to the reinforcements and a
    Regular comes from them: the figures of the nation are conserved."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 2}},
                      "north-ithilien": {"sauron": {"elite": 2}}}, side="free_peoples",
                     face="army_muster",
                     rolls={"free_peoples": [6, 1], "shadow": [1, 1]})
    start(s, edge(s, "osgiliath", "north-ithilien"))
    play(s, NONE, NONE)
    sa = nation(s, "sauron")
    # 1 hit on 2 Elites: a downgrade is the only option (no 2-hit kill), played at once
    assert events(s, "casualty") == [("casualty", SHADOW, sa, "downgrade")]
    assert figures(s, "north-ithilien", "sauron")[:2] == [1, 1]
    start_reserve = s.ruleset.board.figures[sa] - [0, 2, 0, 0]  # nothing else on the board
    assert s.reserve[sa, REGULAR] == start_reserve[REGULAR] - 1
    assert s.reserve[sa, ELITE] == start_reserve[ELITE] + 1
    sound(s)


def test_elite_without_a_regular_to_downgrade():
    """spec §20 #21, facts §7.2: with no Regular of its nation in the casualties or the
    reinforcements the downgrade option disappears; a single hit on Elites only removes one."""
    # every Dwarf Regular is on the board, none in casualties: no downgrade
    s = shadow_hits({"osgiliath": {"dwarves": {"elite": 2}},
                     "ered-luin": {"dwarves": {"regular": 5}}}, [6, 1, 1, 1, 1])
    d = nation(s, "dwarves")
    assert s.reserve[d, REGULAR] == 0
    assert figures(s, "osgiliath", "dwarves")[:2] == [0, 1]  # forced: 1 Elite for 1 hit
    assert events(s, "casualty")[-1] == ("casualty", FREE_PEOPLES, d, "elite")
    sound(s)


def test_elite_kill_for_one_hit_only_when_nothing_else_can_take_it():
    """spec §20 #21: a single hit with a Regular present never removes an Elite."""
    s = shadow_hits({"osgiliath": {"dwarves": {"elite": 1, "regular": 1}},
                     "ered-luin": {"dwarves": {"regular": 4}}}, [6, 1, 1, 1, 1])
    assert figures(s, "osgiliath", "dwarves")[:2] == [0, 1]  # forced: the Regular
    sound(s)


def test_attacker_chooses_his_casualties_first():
    """spec §12.6, facts §7.2: both sides scored hits; the attacker removes his first."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 1, "elite": 1}},
                      "north-ithilien": {"sauron": {"regular": 1, "elite": 1}}},
                     rolls={"shadow": [6, 1], "free_peoples": [6, 1]})
    start(s, edge(s, "north-ithilien", "osgiliath"))
    play(s, NONE, NONE)
    assert kind(s) == WD.CASUALTY and s.pending.player == SHADOW
    play(s, ("casualty", nation(s, "sauron"), "regular"))
    assert kind(s) == WD.CASUALTY and s.pending.player == FREE_PEOPLES
    sound(s)


def test_wiped_army_loses_its_leaders_and_characters():
    """spec §12.6, facts §7.2: when every unit of a force is gone its Leaders and Characters
    go too: Free Peoples Leaders to the casualties (for good), Characters eliminated."""
    s = shadow_hits({"osgiliath": {"gondor": {"regular": 1, "leader": 1}}}, [6, 1, 1, 1, 1],
                    characters={"strider": "osgiliath"})
    g = nation(s, "gondor")
    strider = s.ruleset.cards.character("strider")
    assert figures(s, "osgiliath", "gondor") == [0, 0, 0, 0]
    assert s.casualties[g, LEADER] == 1
    assert s.char_at[strider] == ELIMINATED
    sound(s)


def test_survivors_keep_their_leaders():
    """spec §12.6: a force with a unit left keeps its Leaders and Characters."""
    s = shadow_hits({"osgiliath": {"gondor": {"regular": 2, "leader": 1}}}, [6, 1, 1, 1, 1],
                    characters={"strider": "osgiliath"})
    strider = s.ruleset.cards.character("strider")
    assert figures(s, "osgiliath", "gondor")[:3] == [1, 0, 1]
    assert s.char_at[strider] == s.ruleset.board.region("osgiliath")


def test_rearguard_takes_no_casualties():
    """spec §12.1, facts §7.2: hits beyond the force are lost; the rearguard is untouched."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 2}},
                      "north-ithilien": {"sauron": {"regular": 2}}},
                     rolls={"shadow": [1], "free_peoples": [6, 6]})
    sa = nation(s, "sauron")
    start(s, edge(s, "north-ithilien", "osgiliath"), rear=(("unit", sa, REGULAR),))
    play(s, NONE, NONE)
    assert figures(s, "north-ithilien", "sauron")[0] == 1  # 2 hits, 1 taken, 1 lost
    sound(s)
