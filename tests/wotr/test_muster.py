"""Recruiting with a Muster die (engine/muster.py), scenario by scenario: the combinations
(WD-28) and where each figure may go (WD-29), spec §9, §20 #17-18, facts §7.1, §7.3, §7.4."""

from __future__ import annotations

from typing import Any

from wotr_env.data import NATIONS
from wotr_env.engine import FREE_PEOPLES, SHADOW, WD, build, play
from wotr_env.engine.decision import DONE, MUSTER, choice
from wotr_env.engine.invariants import check
from wotr_env.engine.state import ELITE, NAZGUL, REGULAR, WotrState

GONDOR, ROHAN, SAURON = (NATIONS.index(n) for n in ("gondor", "rohan", "sauron"))
AT_WAR = {"steps": 0, "active": True}
GONDOR_SETTLEMENTS = ("dol-amroth", "lamedon", "lossarnach", "minas-tirith", "pelargir")
SAURON_STRONGHOLDS = ("barad-dur", "dol-guldur", "minas-morgul", "morannon", "moria",
                      "mount-gundabad")


def position(side: str = "free_peoples", **spec: Any) -> WotrState:
    """A phase-5 position where ``side`` holds a Muster die and the other side an Event die."""
    other = "shadow" if side == "free_peoples" else "free_peoples"
    state = build({"rings": ["gone"] * 3, "to_act": side,
                   "dice": {side: ["muster"], other: ["event"]}, **spec})
    assert check(state) == []
    return state


def muster(state: WotrState, combination: str | None = None) -> WotrState:
    """Use the Muster die to recruit, choosing ``combination`` (WD-28) when asked."""
    if state.pending.kind == WD.CHOOSE_DIE:
        play(state, ("die", MUSTER))
    play(state, ("action", "muster"))
    if combination is not None:
        play(state, choice(combination))
    return state


def regions(state: WotrState, *ids: str) -> set:
    return {("region", state.ruleset.board.region(x)) for x in ids}


def r(state: WotrState, rid: str) -> int:
    return state.ruleset.board.region(rid)


def actions(state: WotrState) -> set:
    return {o[1] for o in state.pending.options}


def test_two_regulars_go_to_two_different_settlements() -> None:
    """facts §7.1, spec §9, §20 #17: two Regulars from the reinforcements, each in a different
    Settlement of its own nation."""
    state = position(politics={"gondor": AT_WAR})
    reserve = int(state.reserve[GONDOR, REGULAR])
    muster(state)
    assert state.pending.kind == WD.MUSTER_COMBINATION
    assert set(state.pending.options) == {choice("muster-2r"), choice("muster-rl"),
                                          choice("muster-e")}  # no Army for a Leader to join
    play(state, choice("muster-2r"))
    assert state.pending.kind == WD.MUSTER_PLACEMENT
    assert set(state.pending.options) == regions(state, *GONDOR_SETTLEMENTS)
    play(state, ("region", r(state, "pelargir")))
    assert set(state.pending.options) == {DONE} | regions(
        state, *(x for x in GONDOR_SETTLEMENTS if x != "pelargir"))
    play(state, ("region", r(state, "lamedon")))
    assert state.army[r(state, "pelargir"), GONDOR, REGULAR] == 1
    assert state.army[r(state, "lamedon"), GONDOR, REGULAR] == 1
    assert state.reserve[GONDOR, REGULAR] == reserve - 2
    assert state.pending.player == SHADOW


def test_a_combination_may_recruit_fewer() -> None:
    """spec §9 (reading: the combination is the most one may recruit): DONE after the first
    figure recruits one."""
    state = muster(position(politics={"gondor": AT_WAR}), "muster-2r")
    play(state, ("region", r(state, "pelargir")), DONE)
    assert state.army[:, GONDOR, REGULAR].sum() == 1
    assert state.pending.player == SHADOW


def test_only_nations_at_war_recruit() -> None:
    """facts §7.1, §7.5, spec §9: a Muster die recruits only for nations At War; Gondor one
    step away recruits nothing, and Rohan At War only in Rohan."""
    state = position(politics={"gondor": {"steps": 1, "active": True}})
    assert "muster" not in actions(state)
    assert "diplomacy" in actions(state)
    state = muster(position(politics={"rohan": AT_WAR}), "muster-2r")
    assert set(state.pending.options) == regions(state, "edoras", "folde", "helms-deep",
                                                 "westemnet")  # not the Fords of Isen


def test_no_recruiting_where_the_enemy_controls_occupies_or_besieges() -> None:
    """facts §7.3 (no Muster-die recruiting in a Stronghold the enemy besieges), §7.4 (a
    captured Settlement cannot muster), spec §9: Pelargir captured, an enemy Army in
    Lamedon, Minas Tirith besieged: only Lossarnach and Dol Amroth remain."""
    state = position(politics={"gondor": AT_WAR}, control={"pelargir": "shadow"},
                     armies={"lamedon": {"sauron": {"regular": 1}},
                             "minas-tirith": {"sauron": {"regular": 2}}},
                     boxes={"minas-tirith": {"gondor": {"regular": 1}}})
    muster(state, "muster-2r")
    assert set(state.pending.options) == regions(state, "dol-amroth", "lossarnach")


def test_enemy_figures_without_units_do_not_stop_recruiting() -> None:
    """facts §7.4 ("free": no enemy Army, no enemy control): a lone Nazgûl is no Army."""
    state = muster(position(politics={"gondor": AT_WAR},
                            armies={"pelargir": {"sauron": {"nazgul": 1}}}), "muster-2r")
    assert ("region", r(state, "pelargir")) in state.pending.options


def test_nazgul_are_recruited_in_sauron_strongholds() -> None:
    """spec §3.3, §9 (Nazgûl always in a Sauron Stronghold), facts §7.1: not in Nurn (a Sauron
    Town) nor in Dol Guldur once the Free Peoples control it."""
    state = position("shadow", politics={"sauron": AT_WAR}, control={"dol-guldur": "free_peoples"})
    muster(state, "muster-2l")
    assert set(state.pending.options) == regions(
        state, *(x for x in SAURON_STRONGHOLDS if x != "dol-guldur"))
    play(state, ("region", r(state, "barad-dur")), ("region", r(state, "morannon")))
    assert state.army[r(state, "barad-dur"), SAURON, NAZGUL] == 1
    assert state.army[r(state, "morannon"), SAURON, NAZGUL] == 1


def test_regular_and_nazgul_for_the_shadow() -> None:
    """facts §7.1 (1 Regular + 1 Leader/Nazgûl): the Regular in Nurn, the Nazgûl in a Sauron
    Stronghold; the second figure may not go where the first went."""
    state = muster(position("shadow", politics={"sauron": AT_WAR}), "muster-rl")
    assert ("region", r(state, "nurn")) in state.pending.options
    play(state, ("region", r(state, "minas-morgul")))
    assert ("region", r(state, "minas-morgul")) not in state.pending.options
    play(state, ("region", r(state, "barad-dur")))
    assert state.army[r(state, "minas-morgul"), SAURON].tolist() == [1, 0, 0, 0]
    assert state.army[r(state, "barad-dur"), SAURON].tolist() == [0, 0, 0, 1]


def test_a_free_peoples_leader_joins_an_army() -> None:
    """spec §3.2, §20 #23 (a Leader alone is removed at once): a Leader is recruited only where
    a Free Peoples Army stands."""
    state = muster(position(politics={"gondor": AT_WAR},
                            armies={"pelargir": {"gondor": {"regular": 1}},
                                    "dol-amroth": {"rohan": {"regular": 1}}}), "muster-2l")
    assert set(state.pending.options) == regions(state, "dol-amroth", "pelargir")
    play(state, ("region", r(state, "pelargir")), DONE)
    assert state.army[r(state, "pelargir"), GONDOR].tolist() == [1, 0, 1, 0]


def test_leaders_and_nazgul_belong_to_their_own_side() -> None:
    """facts §7.1 (FP Leaders only for Free Peoples nations, Nazgûl only Sauron): Isengard At
    War alone has no Leader or Nazgûl to recruit."""
    state = muster(position("shadow", politics={"isengard": AT_WAR, "sauron": {"steps": 1}}))
    assert set(state.pending.options) == {choice("muster-2r"), choice("muster-rl"),
                                          choice("muster-e")}
    play(state, choice("muster-rl"), ("region", r(state, "orthanc")))  # no Nazgûl: done
    assert state.army[r(state, "orthanc"), 5].tolist() == [1, 0, 0, 0]
    assert state.pending.player == FREE_PEOPLES


def test_one_elite() -> None:
    """facts §7.1 (1 Elite): one figure, then the action is over."""
    state = muster(position(politics={"gondor": AT_WAR}), "muster-e")
    play(state, ("region", r(state, "minas-tirith")))
    assert state.army[r(state, "minas-tirith"), GONDOR, ELITE] == 1
    assert state.pending.player == SHADOW


def test_no_figure_left_in_the_reinforcements_is_not_offered() -> None:
    """spec §9 (finite supply): with every Gondor Elite on the board, no Elite; with no
    Regular left either, no "2 Regulars"."""
    elites = {"minas-tirith": {"gondor": {"elite": 5}}}
    state = muster(position(politics={"gondor": AT_WAR}, armies=elites))
    assert choice("muster-e") not in state.pending.options
    assert choice("muster-2r") in state.pending.options
    state = muster(position(politics={"gondor": AT_WAR},
                            armies={"minas-tirith": {"gondor": {"elite": 5, "regular": 5}},
                                    "pelargir": {"gondor": {"regular": 10}}}))
    # "2 Leaders", the one combination left, was chosen at once: placing a Leader
    assert state.pending.kind == WD.MUSTER_PLACEMENT
    assert state.pending.context["figure"] == "leader"
    assert set(state.pending.options) == regions(state, "minas-tirith", "pelargir")


def test_two_nations_at_war_share_one_muster() -> None:
    """facts §7.1 (the two figures may be of two nations, both At War), spec §20 #17."""
    state = muster(position(politics={"gondor": AT_WAR, "rohan": AT_WAR}), "muster-2r")
    play(state, ("region", r(state, "pelargir")), ("region", r(state, "edoras")))
    assert state.army[r(state, "pelargir"), GONDOR, REGULAR] == 1
    assert state.army[r(state, "edoras"), ROHAN, REGULAR] == 1


def test_stacking_limit_after_recruiting() -> None:
    """spec §8, §9 (the stacking limit applies), §20 #8, WD-36: an Elite recruited into ten
    Regulars makes eleven units; the owner sends one back to the reinforcements."""
    state = muster(position(politics={"gondor": AT_WAR},
                            armies={"minas-tirith": {"gondor": {"regular": 10}}}), "muster-e")
    play(state, ("region", r(state, "minas-tirith")))
    assert state.pending.kind == WD.OVERSTACK
    assert check(state) == []
    play(state, ("unit", GONDOR, REGULAR))
    assert state.army[r(state, "minas-tirith"), GONDOR].tolist() == [9, 1, 0, 0]
    assert state.reserve[GONDOR, REGULAR] == 15 - 9
    assert state.pending.player == SHADOW


def test_army_muster_die_and_will_of_the_west_muster() -> None:
    """facts §7.1: an Army/Muster die and a Will of the West die may also recruit."""
    for name in ("army_muster", "will_of_the_west"):
        state = build({"rings": ["gone"] * 3, "politics": {"gondor": AT_WAR},
                       "dice": {"free_peoples": [name], "shadow": ["event"]}})
        assert "muster" in actions(state), name
    state = build({"rings": ["gone"] * 3, "dice": {"free_peoples": ["army_muster"],
                                                   "shadow": ["event"]}})
    assert "muster" not in actions(state)  # no Free Peoples nation At War


def test_sauron_not_at_war_recruits_no_nazgul() -> None:
    """spec §9 (a Muster die's figures belong to nations At War): Nazgûl are Sauron's figures."""
    state = position("shadow", politics={"sauron": {"steps": 1}, "southrons": AT_WAR})
    muster(state)
    assert choice("muster-2l") not in state.pending.options
    assert choice("muster-2r") in state.pending.options  # Southrons At War
