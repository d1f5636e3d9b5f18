"""Bringing Characters into play (engine/characters_entry.py, WD-30), scenario by scenario:
each entry condition holding and failing (facts §3.2, §3.4), where each enters, the Companion
he replaces, the activations (facts §7.5) and the die he adds at the next recovery (facts §7.1,
spec §20 #36)."""

from __future__ import annotations

from typing import Any

from wotr_env.engine import FREE_PEOPLES, SHADOW, WD, build, play
from wotr_env.engine.decision import MUSTER, WILL
from wotr_env.engine.invariants import check
from wotr_env.engine.state import ELIMINATED, NOT_IN_PLAY, WotrState

AT_WAR = {"steps": 0, "active": True}
FP_AT_WAR = {n: AT_WAR for n in ("dwarves", "elves", "gondor", "the-north", "rohan")}


def position(side: str = "free_peoples", face: str = "will_of_the_west",
             **spec: Any) -> WotrState:
    """Phase 5: ``side`` holds a die of ``face``, the other side an Event die."""
    other = "shadow" if side == "free_peoples" else "free_peoples"
    state = build({"rings": ["gone"] * 3, "to_act": side,
                   "dice": {side: [face], other: ["event"]}, **spec})
    assert check(state) == []
    return state


def actions(state: WotrState) -> set:
    return {o[1] for o in state.pending.options}


def bring(state: WotrState, face: int, name: str) -> WotrState:
    if state.pending.kind == WD.CHOOSE_DIE:
        play(state, ("die", face))
    return play(state, ("action", name))


def c(state: WotrState, cid: str) -> int:
    return state.ruleset.cards.character(cid)


def r(state: WotrState, rid: str) -> int:
    return state.ruleset.board.region(rid)


def next_recovery(state: WotrState) -> WotrState:
    """Skip every die left, so that the next turn's phase 1 recovers the dice."""
    turn = state.turn
    while state.turn == turn:
        assert state.pending.kind in (WD.CHOOSE_DIE, WD.DIE_ACTION)
        options = state.pending.options
        play(state, ("action", "skip") if ("action", "skip") in options else options[0])
    return state


def test_aragorn_replaces_strider_in_minas_tirith() -> None:
    """facts §3.2 (Aragorn: Strider in Minas Tirith, Dol Amroth or Pelargir, unconquered; he
    replaces Strider), §7.5 (a Character entering play in a nation's unconquered City or
    Stronghold activates it), §7.1 (his die counts from the next recovery)."""
    state = position(characters={"strider": "minas-tirith"})
    assert not state.active[2]
    bring(state, WILL, "bring-character")  # one Character, one place: no question asked
    assert state.char_at[c(state, "aragorn")] == r(state, "minas-tirith")
    assert state.char_at[c(state, "strider")] == ELIMINATED
    assert state.active[2]
    assert state.dice_pool[FREE_PEOPLES] == 4  # not before the next recovery
    next_recovery(state)
    assert state.dice_pool[FREE_PEOPLES] == 5


def test_aragorn_needs_strider_in_an_unconquered_place() -> None:
    """facts §3.2: Strider elsewhere, in the Fellowship, or in a captured Pelargir: no
    Aragorn; Strider in Dol Amroth: Aragorn there."""
    for where, control in (("edoras", {}), ("fellowship", {}),
                           ("pelargir", {"pelargir": "shadow"})):
        state = position(characters={"strider": where}, control=control)
        assert "bring-character" not in actions(state), where
    state = position(characters={"strider": "dol-amroth"})
    bring(state, WILL, "bring-character")
    assert state.char_at[c(state, "aragorn")] == r(state, "dol-amroth")


def test_aragorn_inside_a_besieged_stronghold_stays_inside() -> None:
    """facts §3.2, §7.3 (a besieged Stronghold stays unconquered): Aragorn takes Strider's
    place in the box."""
    state = position(characters={"strider": "minas-tirith"},
                     boxes={"minas-tirith": {"gondor": {"regular": 1}}},
                     armies={"minas-tirith": {"sauron": {"regular": 1}}})
    state.char_in_box[c(state, "strider")] = True
    bring(state, WILL, "bring-character")
    assert state.char_in_box[c(state, "aragorn")]
    assert not state.char_in_box[c(state, "strider")]


def test_only_a_will_of_the_west_die_brings_aragorn() -> None:
    """facts §7.1 (Will of the West: bring in Gandalf the White or Aragorn), §3.2."""
    state = position(face="muster", characters={"strider": "minas-tirith"})
    assert "bring-character" not in actions(state)
    assert "bring-minion" not in actions(state)


def test_gandalf_the_white_needs_the_grey_gone_and_a_minion_seen() -> None:
    """facts §3.2 (the Grey eliminated or out of the Fellowship, and a Minion in play now or
    before): each half alone is not enough."""
    state = position(characters={"gandalf-the-grey": "edoras"})
    assert "bring-character" not in actions(state)  # no Minion yet
    state = position(characters={"saruman": "orthanc"})
    assert "bring-character" not in actions(state)  # the Grey is in the Fellowship
    state = position(characters={"gandalf-the-grey": "edoras", "saruman": "eliminated"})
    assert "bring-character" in actions(state)  # a Minion that has been in play counts


def test_gandalf_the_white_replaces_the_grey_on_the_map() -> None:
    """facts §3.2 (where the Grey stands, the White replaces him), §7.5 (entering play in an
    unconquered City of Rohan activates Rohan)."""
    state = position(characters={"gandalf-the-grey": "edoras", "witch-king": "morannon"})
    bring(state, WILL, "bring-character")
    assert state.char_at[c(state, "gandalf-the-white")] == r(state, "edoras")
    assert state.char_at[c(state, "gandalf-the-grey")] == ELIMINATED
    assert state.active[4]


def test_gandalf_the_white_after_the_grey_was_eliminated() -> None:
    """facts §3.2 (Fangorn or an unconquered Elven Stronghold), §7.3 (reading: not into a
    Stronghold the enemy besieges): not Lórien (captured) nor Rivendell (besieged)."""
    state = position(characters={"gandalf-the-grey": "eliminated", "saruman": "orthanc"},
                     control={"lorien": "shadow"},
                     boxes={"rivendell": {"elves": {"regular": 1}}},
                     armies={"rivendell": {"sauron": {"regular": 1}}})
    bring(state, WILL, "bring-character")
    assert state.pending.kind == WD.BRING_CHARACTER
    assert set(state.pending.options) == {("region", r(state, x)) for x in
                                          ("fangorn", "grey-havens", "woodland-realm")}
    play(state, ("region", r(state, "woodland-realm")))
    assert state.char_at[c(state, "gandalf-the-white")] == r(state, "woodland-realm")
    assert state.active[1]


def test_both_upgrades_offered_then_one_chosen() -> None:
    """facts §3.2, WD-30: with both conditions met the Free Peoples choose the Character."""
    state = position(characters={"strider": "pelargir", "gandalf-the-grey": "eliminated",
                                 "mouth-of-sauron": "barad-dur"})
    bring(state, WILL, "bring-character")
    assert set(state.pending.options) == {("character", c(state, "aragorn")),
                                          ("character", c(state, "gandalf-the-white"))}
    play(state, ("character", c(state, "aragorn")))
    assert state.char_at[c(state, "aragorn")] == r(state, "pelargir")
    assert state.char_at[c(state, "gandalf-the-white")] == NOT_IN_PLAY


def test_saruman_enters_in_orthanc_when_isengard_is_at_war() -> None:
    """facts §3.4 (Isengard At War, Orthanc unconquered: Saruman in Orthanc), §7.1 (a Muster
    die; his die from the next recovery)."""
    spec = {"side": "shadow", "face": "muster"}
    assert "bring-minion" not in actions(position(**spec))  # Isengard one step away
    assert "bring-minion" not in actions(position(**spec, politics={"isengard": AT_WAR},
                                                  control={"orthanc": "free_peoples"}))
    state = position(**spec, politics={"isengard": AT_WAR})
    pool = int(state.dice_pool[SHADOW])
    bring(state, MUSTER, "bring-minion")
    assert state.char_at[c(state, "saruman")] == r(state, "orthanc")
    assert state.dice_pool[SHADOW] == pool
    next_recovery(state)
    assert state.dice_pool[SHADOW] == pool + 1


def test_an_eliminated_minion_never_returns() -> None:
    """facts §3.4, §7.2 (Characters eliminated are out for good): Saruman eliminated cannot
    be brought in again; one in play cannot enter twice."""
    for where in ("eliminated", "orthanc"):
        state = position("shadow", "muster", politics={"isengard": AT_WAR},
                         characters={"saruman": where})
        assert "bring-minion" not in actions(state), where


def test_witch_king_enters_with_a_sauron_army_and_activates_every_nation() -> None:
    """facts §3.4 (Sauron and one FP nation At War; any region whose Shadow Army holds a Sauron
    unit; his entry activates every FP nation), §7.5."""
    armies = {"gorgoroth": {"sauron": {"regular": 1}}, "nurn": {"sauron": {"nazgul": 1}},
              "moria": {"isengard": {"regular": 1}}, "dol-guldur": {"sauron": {"elite": 1}}}
    spec: dict[str, Any] = {"side": "shadow", "face": "muster", "armies": armies}
    assert "bring-minion" not in actions(position(**spec, politics={"sauron": AT_WAR}))
    assert "bring-minion" not in actions(position(**spec, politics={"gondor": AT_WAR}))
    state = position(**spec, politics={"sauron": AT_WAR, "gondor": AT_WAR})
    bring(state, MUSTER, "bring-minion")
    assert set(state.pending.options) == {("region", r(state, "gorgoroth")),
                                          ("region", r(state, "dol-guldur"))}
    play(state, ("region", r(state, "dol-guldur")))
    assert state.char_at[c(state, "witch-king")] == r(state, "dol-guldur")
    assert state.active[:5].all()


def test_mouth_of_sauron_needs_mordor_or_every_nation_at_war() -> None:
    """facts §3.4 (the Fellowship on the Mordor Track, or every FP nation At War; a region
    with an unconquered Sauron Stronghold)."""
    spec: dict[str, Any] = {"side": "shadow", "face": "muster"}
    assert "bring-minion" not in actions(position(**spec))
    state = position(**spec, fellowship={"region": "minas-morgul", "mordor_step": 0},
                     control={"moria": "free_peoples"},
                     boxes={"dol-guldur": {"sauron": {"regular": 1}}},
                     armies={"dol-guldur": {"elves": {"regular": 1}}})
    bring(state, MUSTER, "bring-minion")
    assert set(state.pending.options) == {("region", r(state, x)) for x in (
        "barad-dur", "minas-morgul", "morannon", "mount-gundabad")}
    state = position(**spec, politics=FP_AT_WAR)
    bring(state, MUSTER, "bring-minion")
    play(state, ("region", r(state, "barad-dur")))
    assert state.char_at[c(state, "mouth-of-sauron")] == r(state, "barad-dur")


def test_saruman_in_a_besieged_orthanc_enters_its_box() -> None:
    """facts §3.4 (Orthanc unconquered), §7.3 (a besieged Stronghold stays its owner's):
    reading: Saruman enters inside the box."""
    state = position("shadow", "muster", politics={"isengard": AT_WAR},
                     boxes={"orthanc": {"isengard": {"regular": 1}}},
                     armies={"orthanc": {"rohan": {"regular": 1}}})
    bring(state, MUSTER, "bring-minion")
    assert state.char_at[c(state, "saruman")] == r(state, "orthanc")
    assert state.char_in_box[c(state, "saruman")]


def test_three_minions_bring_the_shadow_to_ten_dice() -> None:
    """facts §3.4, §5 (Shadow 7 dice, +1 per Minion, at most 10), spec §20 #36."""
    state = position("shadow", "muster", politics={"sauron": AT_WAR, "gondor": AT_WAR},
                     characters={"saruman": "orthanc", "witch-king": "morannon"},
                     fellowship={"region": "morannon", "mordor_step": 1})
    bring(state, MUSTER, "bring-minion")
    play(state, ("region", r(state, "barad-dur")))
    assert state.dice_pool[SHADOW] == 7
    next_recovery(state)
    assert state.dice_pool[SHADOW] == 10
