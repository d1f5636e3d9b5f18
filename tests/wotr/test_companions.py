"""Companions out of the Fellowship (facts §7.6, §7.7, §7.3, §7.5, §3.1, §3.2, §8.3; spec §11.1,
§20 #32, #33): separating (WD-22) up to Progress + Level, the Guide re-settled (WD-05), moving all
Companions (WD-23) by group, the Shadow Stronghold rule of each edition, activation on arrival.
"""

from __future__ import annotations

import pytest

from wotr_env.data import NATIONS, load_ruleset
from wotr_env.engine import build, play
from wotr_env.engine.companions import companion_destinations
from wotr_env.engine.decision import CHARACTER, DONE, WD
from wotr_env.engine.state import IN_FELLOWSHIP, SHADOW

RS = load_ruleset("2e")
CARDS, BOARD = RS.cards, RS.board
GONDOR = NATIONS.index("gondor")


def ch(cid: str) -> int:
    return CARDS.character(cid)


def region(rid: str) -> int:
    return BOARD.region(rid)


def ids(regions) -> set[str]:
    return {BOARD.regions[r].id for r in regions}


def at_action(**spec: object):
    spec.setdefault("dice", {"free_peoples": ["character", "character"],
                             "shadow": ["event", "muster"]})
    fs = {"region": "osgiliath", **spec.pop("fellowship", {})}
    return build({"fellowship": fs, **spec})


def separate(state, *who: str) -> None:
    play(state, ("die", CHARACTER), ("action", "separate"))
    for c in who:
        play(state, ("character", ch(c)))
    play(state, DONE)
    assert state.pending.kind == WD.SEPARATE_COMPANIONS


def ends(state) -> set[str]:
    return ids(a[1] for a in state.pending.options if a[0] == "region")


def within(start: str, n: int) -> set[str]:
    """Regions at most ``n`` borders from ``start`` (plain distance, no rule)."""
    seen = {region(start)}
    for _ in range(n):
        seen |= {int(m) for r in seen for m in BOARD.neighbours[r]}
    return ids(seen)


# ---------------------------------------------------------------------------------------------
# Separating


def test_separated_companion_moves_up_to_progress_plus_level_and_activates():
    """facts §7.6, §7.5: Boromir (Level 2) with Progress 1 may end up to 3 regions from the
    Fellowship, staying included; ending in Minas Tirith activates Gondor."""
    state = at_action(fellowship={"progress": 1})
    separate(state, "boromir")
    # Gorgoroth, 3 away only through Minas Morgul (a Shadow Stronghold: he stops there)
    assert ends(state) == within("osgiliath", 3) - {"gorgoroth"}
    assert {"minas-morgul", "morannon"} <= ends(state)
    assert not state.active[GONDOR]
    play(state, ("region", region("minas-tirith")))
    assert state.char_at[ch("boromir")] == region("minas-tirith") and state.active[GONDOR]
    assert state.pending.kind == WD.CHANGE_GUIDE  # the make-up changed: Gandalf or Strider
    play(state, ("character", ch("gandalf-the-grey")))
    assert state.guide == ch("gandalf-the-grey")


def test_a_companion_activates_only_the_nation_on_his_card():
    """facts §3.1, §7.5: Legolas (the Elves) ending in Minas Tirith does not activate Gondor."""
    state = at_action()
    separate(state, "legolas")
    play(state, ("region", region("minas-tirith")))
    assert not state.active[GONDOR]


def test_a_group_moves_with_its_highest_level():
    """facts §7.6: a group moves up to Progress + its highest Level and ends in one region:
    Meriadoc with Gandalf reaches 3 regions at Progress 0; alone, 1."""
    state = at_action()
    separate(state, "gandalf-the-grey", "meriadoc")
    assert ends(state) == ids(companion_destinations(state, region("osgiliath"), 3)) | {
        "osgiliath"}
    assert "dagorlad" in ends(state)  # 3 regions away (Dead Marshes, ...)
    play(state, ("region", region("dagorlad")))
    assert state.char_at[ch("gandalf-the-grey")] == state.char_at[ch("meriadoc")]
    assert state.guide == ch("strider")  # the only Level-3 Companion left: no question
    alone = at_action()
    separate(alone, "meriadoc")
    assert ends(alone) == within("osgiliath", 1)


def test_the_guide_is_resettled_with_a_choice_among_ties():
    """facts §7.6, spec §20 #32: when Gandalf and Strider leave, the FP chooses the Guide among
    the Level-2 Companions left."""
    state = at_action()
    separate(state, "gandalf-the-grey", "strider")
    play(state, ("region", region("osgiliath")))
    assert state.pending.kind == WD.CHANGE_GUIDE
    assert set(state.pending.options) == {("character", ch(c))
                                          for c in ("boromir", "legolas", "gimli")}
    play(state, ("character", ch("gimli")))
    assert state.guide == ch("gimli")


def test_a_separated_companion_never_rejoins():
    """facts §7.6: the WD-22 toggles list only Companions still in the Fellowship."""
    state = at_action(characters={"boromir": "minas-tirith"})
    play(state, ("die", CHARACTER), ("action", "separate"))
    assert ("character", ch("boromir")) not in state.pending.options
    assert DONE not in state.pending.options  # nobody chosen yet


def test_no_separation_without_companions():
    """facts §7.11: with Gollum as Guide there is no Companion to separate."""
    gone = {c: "eliminated" for c in ("gandalf-the-grey", "strider", "boromir", "legolas",
                                      "gimli", "meriadoc", "peregrin")}
    state = at_action(characters={**gone, "gollum": "fellowship"},
                      fellowship={"guide": "gollum"})
    play(state, ("die", CHARACTER))
    assert ("action", "separate") not in state.pending.options


def test_separated_inside_a_besieged_stronghold_stays_inside():
    """facts §7.3: a Companion separated while the Ring-bearers are inside a friendly
    Stronghold the enemy besieges stays inside (its box)."""
    state = at_action(fellowship={"region": "minas-tirith", "progress": 2},
                      boxes={"minas-tirith": {"gondor": {"regular": 2}}},
                      armies={"minas-tirith": {"sauron": {"regular": 3}}})
    play(state, ("die", CHARACTER), ("action", "separate"), ("character", ch("boromir")), DONE)
    b = ch("boromir")
    assert state.char_at[b] == region("minas-tirith") and state.char_in_box[b]


# ---------------------------------------------------------------------------------------------
# Shadow Strongholds in each edition


@pytest.mark.parametrize("ruleset, moria", [("2e", True), ("1e", False)])
def test_shadow_stronghold_stops_in_2e_and_is_closed_in_1e(ruleset, moria):
    """facts §7.3, §8.3, spec §11.1, §20 #33 (``rules.companion_enemy_stronghold``): 2e: a
    Companion may enter Moria but stops there (Dimrill Dale beyond it is out of reach); 1e:
    he may not enter it."""
    state = at_action(ruleset=ruleset, fellowship={"region": "hollin"})
    separate(state, "gandalf-the-grey")
    assert ("moria" in ends(state)) == moria
    assert "dimrill-dale" not in ends(state) and "north-dunland" in ends(state)


def test_a_conquered_shadow_stronghold_does_not_stop_him():
    """facts §7.3: the rule is about Shadow control: Moria held by the FP is crossed freely."""
    state = at_action(control={"moria": "free_peoples"}, fellowship={"region": "hollin"})
    separate(state, "gandalf-the-grey")
    assert "dimrill-dale" in ends(state)


# ---------------------------------------------------------------------------------------------
# Moving Companions on the map


def test_move_companions_moves_each_once_in_groups():
    """facts §7.7, spec §11.1: one die moves all Companions on the map: a group from one region
    to one destination up to its highest Level, enemy Armies no obstacle; each moves once."""
    state = at_action(characters={"boromir": "osgiliath", "meriadoc": "osgiliath",
                                  "legolas": "lorien"},
                      armies={"dead-marshes": {"sauron": {"regular": 2}}})
    play(state, ("die", CHARACTER), ("action", "move-companions"))
    assert state.pending.kind == WD.MOVE_COMPANIONS
    assert set(state.pending.options) == {DONE, *(("character", ch(c))
                                                  for c in ("boromir", "legolas", "meriadoc"))}
    play(state, ("character", ch("meriadoc")), ("character", ch("boromir")))
    assert "druadan-forest" in ends(state) and "dead-marshes" in ends(state)  # Level 2
    play(state, ("region", region("dead-marshes")))
    assert state.char_at[ch("meriadoc")] == state.char_at[ch("boromir")] == region("dead-marshes")
    assert set(state.pending.options) == {DONE, ("character", ch("legolas"))}
    play(state, ("character", ch("legolas")), ("region", region("parth-celebrant")))
    assert state.char_at[ch("legolas")] == region("parth-celebrant")
    assert state.pending.kind == WD.CHOOSE_DIE and state.pending.player == SHADOW


def test_a_hobbit_alone_moves_one_region():
    """facts §3.1, §7.7: Meriadoc (Level 1) alone moves one region."""
    state = at_action(characters={"meriadoc": "osgiliath"})
    play(state, ("die", CHARACTER), ("action", "move-companions"),
         ("character", ch("meriadoc")))
    assert ends(state) == within("osgiliath", 1) - {"osgiliath"}


def test_shadowfax_gives_gandalf_the_white_level_four():
    """facts §3.2 *Shadowfax*: alone (or with one Hobbit) Gandalf the White moves as Level 4;
    with Boromir, Level 3."""
    state = at_action(characters={"gandalf-the-grey": "eliminated",
                                  "gandalf-the-white": "fangorn", "boromir": "fangorn"})
    play(state, ("die", CHARACTER), ("action", "move-companions"),
         ("character", ch("gandalf-the-white")))
    assert "edoras" in ends(state)  # fangorn - westemnet - edoras: 2
    four = ends(state)
    assert four == ids(companion_destinations(state, region("fangorn"), 4))
    play(state, ("character", ch("boromir")))
    assert ends(state) == ids(companion_destinations(state, region("fangorn"), 3)) != four


def test_a_companion_in_a_besieged_box_cannot_move():
    """facts §7.3: Characters may not leave a friendly Stronghold the enemy besieges."""
    state = at_action(characters={"boromir": "minas-tirith"},
                      boxes={"minas-tirith": {"gondor": {"regular": 2}}},
                      armies={"minas-tirith": {"sauron": {"regular": 3}}})
    state.char_in_box[ch("boromir")] = True
    play(state, ("die", CHARACTER))
    assert ("action", "move-companions") not in state.pending.options


def test_no_move_companions_while_all_are_in_the_fellowship():
    """facts §7.7: the action moves Companions on the map; none there, it is not offered."""
    state = at_action()
    play(state, ("die", CHARACTER))
    assert ("action", "move-companions") not in state.pending.options
    assert (state.char_at[:7] == IN_FELLOWSHIP).all()
