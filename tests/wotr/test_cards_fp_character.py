"""The Free Peoples Character deck's remaining cards (facts §6.2 #5-#8, #10, #11, #14-#24) and
the cards' hits frame (facts §6 "card rules", WD-35). Each card fires as its text says, and one
with a precondition is not offered when it fails (spec §7.3)."""

from __future__ import annotations

import pytest

from boardkit.frames import advance
from wotr_env.data import load_ruleset
from wotr_env.engine import build, is_over, play
from wotr_env.engine.cards.hits import card_hits
from wotr_env.engine.companions import companion_destinations
from wotr_env.engine.decision import CHARACTER, DONE, EVENT, WD
from wotr_env.engine.events import playable
from wotr_env.engine.hunt import SAURON
from wotr_env.engine.invariants import check
from wotr_env.engine.state import (
    ELIMINATED,
    ELITE,
    FREE_PEOPLES,
    IN_FELLOWSHIP,
    LEADER,
    NAZGUL,
    REGULAR,
    SHADOW,
)

from .test_cards_first import at_play, card, play_event

RS = load_ruleset("2e")
CARDS, BOARD = RS.cards, RS.board
NO, YES, NONE = ("choice", "no"), ("choice", "yes"), ("choice", "none")
RANDOM = ("choice", "random-companion")
COMPANIONS = ("gandalf-the-grey", "strider", "boromir", "legolas", "gimli", "meriadoc",
              "peregrin")
GOLLUM_GUIDES = {**{c: "eliminated" for c in COMPANIONS}, "gollum": "fellowship"}
GONDOR, NORTH, ISENGARD = 2, 3, 5


def ch(cid: str) -> int:
    return CARDS.character(cid)


def reg(rid: str) -> int:
    return BOARD.region(rid)


def kind(state) -> WD | None:
    return state.pending.kind if state.pending is not None else None


def sound(state) -> None:
    assert check(state) == []


def shadow_turn(state) -> bool:
    """The card is over: the Shadow chooses a die (or its action, when one die is left)."""
    return kind(state) in (WD.CHOOSE_DIE, WD.DIE_ACTION) and state.pending.player == SHADOW


# ---------------------------------------------------------------------------------------------
# The cards' hits (cards/hits.py, WD-35)


def hits_on(spec: dict, side: int, where: str, hits: int, box: bool = False,
            followers: bool = False):
    """Push a card's ``hits`` on ``side``'s Army in ``where`` over a built position."""
    state = build({"dice": {"free_peoples": ["event"], "shadow": ["event"]}, **spec})
    state.pending = None
    card_hits(state, side, reg(where), hits, box, followers)
    advance(state, is_over)
    return state


def test_card_hits_wiping_an_army_kill_its_leaders_not_its_companions():
    """facts §6 card rules: when a card's hits wipe out every unit of an Army its FP Leaders
    die with it; Companions stay."""
    s = hits_on({"armies": {"osgiliath": {"gondor": {"regular": 1, "leader": 1}}},
                 "characters": {"strider": "osgiliath"}}, FREE_PEOPLES, "osgiliath", 2)
    assert s.army[reg("osgiliath"), GONDOR].tolist() == [0, 0, 0, 0]
    assert s.casualties[GONDOR, REGULAR] == 1 and s.casualties[GONDOR, LEADER] == 1
    assert s.char_at[ch("strider")] == reg("osgiliath")
    sound(s)


def test_card_hits_offer_the_battle_casualty_options():
    """facts §6 card rules, spec §12.6 (WD-35 as WD-17): 2 hits on a Regular and an Elite may
    remove the Elite for both; the Regular then survives and keeps its Leader."""
    s = hits_on({"armies": {"osgiliath": {"gondor": {"regular": 1, "elite": 1, "leader": 1}}}},
                FREE_PEOPLES, "osgiliath", 2)
    assert kind(s) == WD.EVENT_CASUALTY and s.pending.player == FREE_PEOPLES
    assert set(s.pending.options) == {("casualty", GONDOR, "regular"),
                                      ("casualty", GONDOR, "downgrade"),
                                      ("casualty", GONDOR, "elite")}
    play(s, ("casualty", GONDOR, "elite"))
    assert s.army[reg("osgiliath"), GONDOR].tolist() == [1, 0, 1, 0]
    assert kind(s) == WD.CHOOSE_DIE
    sound(s)


@pytest.mark.parametrize("followers,nazgul_left", [(False, 1), (True, 0)])
def test_card_hits_leave_nazgul_unless_the_card_says_otherwise(followers, nazgul_left):
    """facts §6 card rules: Nazgûl stay when the Army is wiped out, unless the card says
    otherwise (``followers``: the Ents' "its Nazgûl and Minions die too")."""
    s = hits_on({"armies": {"north-ithilien": {"sauron": {"regular": 1, "nazgul": 1}}},
                 "characters": {"witch-king": "north-ithilien"}},
                SHADOW, "north-ithilien", 1, followers=followers)
    assert s.army[reg("north-ithilien"), SAURON, NAZGUL] == nazgul_left
    wk = s.char_at[ch("witch-king")]
    assert (wk == ELIMINATED) if followers else (wk == reg("north-ithilien"))
    sound(s)


def test_card_hits_wiping_a_garrison_lose_the_stronghold():
    """facts §7.3, §7.4: every unit defending a besieged Stronghold eliminated, the besiegers
    still there: the Stronghold is captured (what is left in its box goes)."""
    s = hits_on({"armies": {"minas-tirith": {"sauron": {"regular": 3}}},
                 "boxes": {"minas-tirith": {"gondor": {"regular": 1, "leader": 1}}}},
                FREE_PEOPLES, "minas-tirith", 1, box=True)
    mt = reg("minas-tirith")
    assert not s.box[mt].any() and s.control[mt] == SHADOW
    assert s.casualties[GONDOR, LEADER] == 1
    sound(s)


def test_card_hits_beyond_the_units_are_lost_and_no_army_asks_nothing():
    """facts §6 card rules: hits beyond the Army's units are lost; no unit, no casualty."""
    s = hits_on({"armies": {"osgiliath": {"gondor": {"regular": 1}}}}, FREE_PEOPLES,
                "osgiliath", 5)
    assert s.army[reg("osgiliath"), GONDOR, REGULAR] == 0 and kind(s) == WD.CHOOSE_DIE
    s = hits_on({}, FREE_PEOPLES, "osgiliath", 3)
    assert kind(s) == WD.CHOOSE_DIE and not any(e[1] == "casualty" for e in s.log)


# ---------------------------------------------------------------------------------------------
# Table cards in the Hunt (#5-#8)

MITHRIL, AXE = "fp-char-05-mithril-coat-and-sting", "fp-char-06-axe-and-bow"
HORN, STAFF = "fp-char-07-horn-of-gondor", "fp-char-08-wizards-staff"


def hunted(table: list[str], tiles: list[str], **spec: object):
    """The Free Peoples move the Fellowship; one Hunt die succeeds and ``tiles`` are drawn."""
    state = build({"fellowship": {"region": "hollin"}, "table": table,
                   "hunt": {"box": {"shadow": 1}}, "rolls": {"shadow": [6]}, "tiles": tiles,
                   "dice": {"free_peoples": ["character", "character"],
                            "shadow": ["event", "muster"]}, **spec})
    play(state, ("die", CHARACTER), ("action", "move-fellowship"))
    return state


def test_mithril_coat_draws_a_second_tile_and_returns_the_first():
    """facts §6.2 #5: after the draw the card is discarded, a second tile is applied and the
    first goes back into the pool."""
    s = hunted([MITHRIL], ["std-3-1", "std-1-1"])
    assert kind(s) == WD.HUNT_TABLE_CARD and s.pending.context["damage"] == 3
    play(s, ("card", card(MITHRIL)))
    assert CARDS.tile("std-3-1") in s.hunt_pool and CARDS.tile("std-1-1") in s.hunt_drawn
    assert card(MITHRIL) in s.discards[FREE_PEOPLES] and card(MITHRIL) not in s.table
    assert kind(s) == WD.HUNT_CASUALTY and s.pending.context["damage"] == 1
    play(s, NONE)
    assert s.corruption == 1
    sound(s)


def test_mithril_coat_declined_stays_on_the_table():
    """facts §6.2 #5: the card is used only if the Free Peoples choose to."""
    s = hunted([MITHRIL], ["std-2-1"])
    play(s, NO, NONE)
    assert s.corruption == 2 and card(MITHRIL) in s.table


@pytest.mark.parametrize("cid", [AXE, HORN])
def test_axe_and_bow_and_horn_of_gondor_lower_the_damage_by_one(cid):
    """facts §6.2 #6, #7: discarded, the card lowers the Hunt damage by 1."""
    s = hunted([cid], ["std-2-1"])
    play(s, ("card", card(cid)))
    assert s.pending.context["damage"] == 1
    play(s, NONE)
    assert s.corruption == 1 and card(cid) in s.discards[FREE_PEOPLES]
    sound(s)


def test_axe_and_bow_is_not_offered_against_no_damage():
    """facts §6.2 #6 ("not below 0"): with 0 damage the card would do nothing: not offered."""
    s = hunted([AXE], ["std-0r-1"])
    assert kind(s) != WD.HUNT_TABLE_CARD and card(AXE) in s.table


def test_wizards_staff_stops_the_draw():
    """facts §6.2 #8: discarded before the draw, no tile is drawn."""
    s = hunted([STAFF], [])
    assert kind(s) == WD.HUNT_TABLE_CARD and s.pending.context["when"] == "draw"
    pool = list(s.hunt_pool)
    play(s, ("card", card(STAFF)))
    assert s.hunt_pool == pool and s.hunt_drawn == [] and shadow_turn(s)
    assert card(STAFF) in s.discards[FREE_PEOPLES]


@pytest.mark.parametrize("cid,keepers", [(AXE, ("gimli", "legolas")), (HORN, ("boromir",)),
                                         (STAFF, ("gandalf-the-grey",))])
def test_table_cards_need_their_companion_in_the_fellowship(cid, keepers):
    """facts §6.2 #6-#8 (play condition): without the Companion in the Fellowship the card is
    not playable; with one of them it is."""
    gone = {c: "rivendell" for c in keepers}
    s = at_play({"free_peoples": [cid]}, {"free_peoples": ["character"]}, characters=gone)
    assert playable(s, FREE_PEOPLES, CHARACTER) == []
    s = at_play({"free_peoples": [cid]}, {"free_peoples": ["character"]})
    play_event(s, CHARACTER, cid)
    assert card(cid) in s.table


def separate(state, *who: str) -> None:
    """The Free Peoples separate ``who`` with a Character die; they stay in the region."""
    play(state, ("die", CHARACTER), ("action", "separate"))
    for c in who:
        play(state, ("character", ch(c)))
    play(state, DONE, ("region", state.fellowship_region))


def test_axe_and_bow_goes_when_both_gimli_and_legolas_have_left():
    """facts §6.2 #6 (discard), §6 card rules: Gimli leaving keeps it (Legolas is still in);
    both leaving discard it at once."""
    spec = {"table": [AXE], "dice": {"free_peoples": ["character"], "shadow": ["event"]}}
    s = build(spec)
    separate(s, "gimli")
    assert card(AXE) in s.table
    s = build(spec)
    separate(s, "gimli", "legolas")
    assert card(AXE) in s.discards[FREE_PEOPLES] and card(AXE) not in s.table


def test_horn_of_gondor_goes_at_once_when_boromir_falls_in_the_hunt():
    """facts §6.2 #7 (discard), §6 card rules: Boromir taken as a Hunt casualty: the card is
    discarded at once."""
    s = hunted([HORN], ["std-3-1"], companions=["boromir"])
    play(s, NO, RANDOM)
    assert s.char_at[ch("boromir")] == ELIMINATED
    assert card(HORN) in s.discards[FREE_PEOPLES] and card(HORN) not in s.table
    sound(s)


def test_wizards_staff_goes_when_gandalf_leaves():
    """facts §6.2 #8 (discard)."""
    s = build({"table": [STAFF], "dice": {"free_peoples": ["character"], "shadow": ["event"]}})
    separate(s, "gandalf-the-grey")
    assert card(STAFF) in s.discards[FREE_PEOPLES]


# ---------------------------------------------------------------------------------------------
# #10 There is Another Way

ANOTHER_WAY = "fp-char-10-there-is-another-way"


def test_there_is_another_way_with_gollum_moves_the_fellowship_and_a_hunt_follows():
    """facts §6.2 #10: heal 1; Gollum as Guide: the Fellowship may move (Progress +1, a Hunt;
    reading: no die goes to the Hunt Box for a card's move)."""
    s = at_play({"free_peoples": [ANOTHER_WAY]}, {"free_peoples": ["character"]},
                characters=GOLLUM_GUIDES, fellowship={"guide": "gollum", "corruption": 3},
                hunt={"box": {"shadow": 1}}, rolls={"shadow": [2]})
    play_event(s, CHARACTER, ANOTHER_WAY)
    assert s.corruption == 2 and kind(s) == WD.EVENT_CHOICE
    play(s, YES)
    assert s.progress == 1 and any(e[1] == "hunt-roll" for e in s.log)
    assert s.hunt_box[2] == 0
    sound(s)


def test_there_is_another_way_with_gollum_hides_a_revealed_fellowship():
    """facts §6.2 #10: a Revealed Fellowship may be hidden instead."""
    s = at_play({"free_peoples": [ANOTHER_WAY]}, {"free_peoples": ["character"]},
                characters=GOLLUM_GUIDES,
                fellowship={"guide": "gollum", "corruption": 3, "revealed": True})
    play_event(s, CHARACTER, ANOTHER_WAY)
    play(s, YES)
    assert not s.revealed and s.corruption == 2 and s.progress == 0


def test_there_is_another_way_without_gollum_only_heals():
    """facts §6.2 #10: with another Guide, no move or hide is offered."""
    s = at_play({"free_peoples": [ANOTHER_WAY]}, {"free_peoples": ["character"]},
                fellowship={"corruption": 3})
    play_event(s, CHARACTER, ANOTHER_WAY)
    assert s.corruption == 2 and shadow_turn(s)


# ---------------------------------------------------------------------------------------------
# #11, #15-#17: Companions separated or moved by card

GO_ALONE, GWAIHIR = "fp-char-11-i-will-go-alone", "fp-char-15-gwaihir-the-windlord"
SWIFTER, BACK_AGAIN = "fp-char-16-we-prove-the-swifter", "fp-char-17-there-and-back-again"


def keep_guide(state) -> None:
    """A Companion left: the Free Peoples may change the Guide among the tied (WD-05)."""
    if kind(state) == WD.CHANGE_GUIDE:
        play(state, ("character", int(state.guide)))


def reach_exactly(state, start: int, n: int) -> int:
    """A region a Companion reaches in ``n`` regions and not fewer."""
    far = set(companion_destinations(state, start, n)) - set(
        companion_destinations(state, start, n - 1)) - {start}
    return min(far)


def test_i_will_go_alone_separates_with_one_extra_region_then_heals():
    """facts §6.2 #11: Legolas (Level 2) separated with Progress 1 goes up to 1 + 2 + 1 = 4
    regions; then 1 Corruption is healed."""
    s = at_play({"free_peoples": [GO_ALONE]}, {"free_peoples": ["character"]},
                fellowship={"progress": 1, "corruption": 2})
    play_event(s, CHARACTER, GO_ALONE)
    assert kind(s) == WD.EVENT_CHOICE
    assert {a[1] for a in s.pending.options} == {ch(c) for c in COMPANIONS}
    play(s, ("character", ch("legolas")), DONE)
    here = s.fellowship_region
    assert kind(s) == WD.SEPARATE_COMPANIONS
    assert {a[1] for a in s.pending.options} == {here, *companion_destinations(s, here, 4)}
    far = reach_exactly(s, here, 4)
    play(s, ("region", far))
    keep_guide(s)
    assert s.char_at[ch("legolas")] == far and s.corruption == 1
    sound(s)


def test_i_will_go_alone_needs_a_companion_in_the_fellowship():
    """facts §6.2 #11 (precondition)."""
    s = at_play({"free_peoples": [GO_ALONE]}, {"free_peoples": ["character"]},
                characters=GOLLUM_GUIDES, fellowship={"guide": "gollum"})
    assert playable(s, FREE_PEOPLES, CHARACTER) == []


def test_gwaihir_separates_as_if_level_four():
    """facts §6.2 #15: Meriadoc (Level 1) separated with Progress 0 reaches 4 regions."""
    s = at_play({"free_peoples": [GWAIHIR]}, {"free_peoples": ["character"]})
    play_event(s, CHARACTER, GWAIHIR)
    play(s, ("character", ch("meriadoc")), DONE)
    here = s.fellowship_region
    assert {a[1] for a in s.pending.options} == {here, *companion_destinations(s, here, 4)}


def test_gwaihir_flies_a_companion_on_the_map_into_a_besieged_stronghold():
    """facts §6.2 #15, §7.3: Gimli (Level 2) on the map moves as if Level 4 and may end inside
    Helm's Deep, which the Shadow besieges (reading: into its box)."""
    s = at_play({"free_peoples": [GWAIHIR]}, {"free_peoples": ["character"]},
                characters={"gimli": "folde"},
                armies={"helms-deep": {"isengard": {"regular": 3}}},
                boxes={"helms-deep": {"rohan": {"regular": 2}}})
    play_event(s, CHARACTER, GWAIHIR)
    play(s, ("character", ch("gimli")))  # no one else with him: DONE without asking
    assert kind(s) == WD.MOVE_COMPANIONS
    assert {a[1] for a in s.pending.options} == {reg("folde"),
                                                 *companion_destinations(s, reg("folde"), 4)}
    play(s, ("region", reg("helms-deep")))
    assert s.char_at[ch("gimli")] == reg("helms-deep") and s.char_in_box[ch("gimli")]
    sound(s)


def test_we_prove_the_swifter_moves_two_regions_more():
    """facts §6.2 #16: Strider and Boromir on the map (Levels 3 and 2) move together up to
    3 + 2 = 5 regions."""
    s = at_play({"free_peoples": [SWIFTER]}, {"free_peoples": ["character"]},
                characters={"strider": "bree", "boromir": "bree"})
    play_event(s, CHARACTER, SWIFTER)
    play(s, ("character", ch("boromir")))
    assert ("character", ch("strider")) in s.pending.options
    play(s, ("character", ch("strider")))  # no one else: DONE without asking
    bree = reg("bree")
    assert {a[1] for a in s.pending.options} == {bree, *companion_destinations(s, bree, 5)}
    far = reach_exactly(s, bree, 5)
    play(s, ("region", far))
    assert s.char_at[ch("strider")] == far == s.char_at[ch("boromir")]


@pytest.mark.parametrize("to,moved", [("erebor", True), ("iron-hills", False)])
def test_there_and_back_again_raises_the_north_dwarves_and_elves(to, moved):
    """facts §6.2 #17: Gimli separated (+1 region) into Erebor: the Dwarves and the North are
    activated and the Dwarves, the Elves and the North advance one step; elsewhere, not."""
    s = at_play({"free_peoples": [BACK_AGAIN]}, {"free_peoples": ["character"]},
                fellowship={"region": "dale"})
    play_event(s, CHARACTER, BACK_AGAIN)
    play(s, ("character", ch("gimli")), DONE, ("region", reg(to)))
    keep_guide(s)
    assert s.char_at[ch("gimli")] == reg(to)
    if moved:
        assert s.active[0] and s.active[NORTH]
        assert s.politics.tolist()[:4] == [2, 2, 2, 2]
    else:
        assert not s.active[NORTH] and s.politics.tolist()[:4] == [3, 3, 2, 3]


# ---------------------------------------------------------------------------------------------
# #14 Challenge of the King

CHALLENGE = "fp-char-14-challenge-of-the-king"


def challenge(tiles: list[str], **spec: object):
    spec = {"characters": {"strider": "minas-tirith"},
            "armies": {"minas-tirith": {"gondor": {"regular": 2}}}, **spec}
    s = at_play({"free_peoples": [CHALLENGE]}, {"free_peoples": ["character"]}, tiles=tiles,
                **spec)
    play_event(s, CHARACTER, CHALLENGE)
    return s


def test_challenge_of_the_king_removes_the_eyes_drawn():
    """facts §6.2 #14: not three Eyes: the Eyes leave the game, the other tiles go back."""
    s = challenge(["std-eye-1", "std-3-1", "std-eye-2"])
    eye1, eye2, three = (CARDS.tile(t) for t in ("std-eye-1", "std-eye-2", "std-3-1"))
    assert {eye1, eye2} <= set(s.hunt_removed) and three in s.hunt_pool
    assert eye1 not in s.hunt_pool and s.char_at[ch("strider")] == reg("minas-tirith")
    sound(s)


def test_challenge_of_the_king_three_eyes_kill_strider():
    """facts §6.2 #14: three Eyes go back and Strider is eliminated."""
    s = challenge(["std-eye-1", "std-eye-2", "std-eye-3"])
    assert s.char_at[ch("strider")] == ELIMINATED
    assert {CARDS.tile(f"std-eye-{i}") for i in (1, 2, 3)} <= set(s.hunt_pool)
    sound(s)


@pytest.mark.parametrize("spec", [
    {"characters": {"strider": "minas-tirith"}},  # no Army with him
    {"characters": {"strider": "bree"}, "armies": {"bree": {"the-north": {"regular": 1}}}},
    {}])  # Strider in the Fellowship
def test_challenge_of_the_king_needs_strider_with_an_army_in_gondor_or_rohan(spec):
    """facts §6.2 #14 (precondition)."""
    s = at_play({"free_peoples": [CHALLENGE]}, {"free_peoples": ["character"]}, **spec)
    assert playable(s, FREE_PEOPLES, CHARACTER) == []


# ---------------------------------------------------------------------------------------------
# #18 The Eagles are Coming!

EAGLES = "fp-char-18-the-eagles-are-coming"
EAGLES_SPEC = {"characters": {"strider": "osgiliath"},
               "armies": {"osgiliath": {"gondor": {"regular": 2}},
                          "north-ithilien": {"sauron": {"regular": 2, "nazgul": 3}}}}


def test_the_eagles_kill_nazgul_on_5_and_the_others_fly_to_a_sauron_stronghold():
    """facts §6.2 #18: one die per Nazgûl, each 5+ eliminates one (back to the
    reinforcements); the survivors fly to the Sauron Stronghold the Shadow chooses."""
    s = at_play({"free_peoples": [EAGLES]}, {"free_peoples": ["character"]},
                rolls={"free_peoples": [5, 6, 2]}, **EAGLES_SPEC)
    reserve = int(s.reserve[SAURON, NAZGUL])
    play_event(s, CHARACTER, EAGLES)  # one target: chosen without asking
    assert kind(s) == WD.EVENT_CHOICE and s.pending.player == SHADOW
    assert len(s.pending.options) == 6  # the unconquered Sauron Strongholds
    play(s, ("region", reg("barad-dur")))
    assert s.army[reg("north-ithilien"), SAURON].tolist() == [2, 0, 0, 0]
    assert s.army[reg("barad-dur"), SAURON, NAZGUL] == 1
    assert s.reserve[SAURON, NAZGUL] == reserve + 2
    sound(s)


@pytest.mark.parametrize("change", ["no-companion", "witch-king-only"])
def test_the_eagles_need_a_companion_with_the_army_and_true_nazgul(change):
    """facts §6.2 #18 (precondition; the Witch-king is no Nazgûl here)."""
    spec = {k: dict(v) for k, v in EAGLES_SPEC.items()}
    if change == "no-companion":
        spec["characters"] = {}
    else:
        spec["armies"]["north-ithilien"] = {"sauron": {"regular": 2}}
        spec["characters"]["witch-king"] = "north-ithilien"
    s = at_play({"free_peoples": [EAGLES]}, {"free_peoples": ["character"]}, **spec)
    assert playable(s, FREE_PEOPLES, CHARACTER) == []


# ---------------------------------------------------------------------------------------------
# #19-#21 The Ents Awake

ENTS = ("fp-char-19-the-ents-awake-treebeard", "fp-char-20-the-ents-awake-huorns",
        "fp-char-21-the-ents-awake-entmoot")
BILBO = "fp-char-12-bilbos-song"


@pytest.mark.parametrize("cid", ENTS)
def test_the_ents_destroy_orthanc_with_its_nazgul_and_saruman_then_a_free_card(cid):
    """facts §6.2 #19-#21, §6 card rules: 3 dice, each 4+ a hit on the Army in Orthanc; wiped
    out, its Nazgûl and Minions die too; the attack moves Isengard one step; Gandalf the White
    in Fangorn: one more Character card may be played without a die."""
    s = at_play({"free_peoples": [cid, BILBO]}, {"free_peoples": ["character"]},
                characters={"gandalf-the-white": "fangorn", "saruman": "orthanc"},
                armies={"orthanc": {"isengard": {"regular": 2}, "sauron": {"nazgul": 1}}},
                politics={"isengard": {"steps": 2}}, rolls={"free_peoples": [4, 3, 6]},
                fellowship={"corruption": 2})
    play_event(s, CHARACTER, cid)
    orthanc = reg("orthanc")
    assert not s.army[orthanc].any() and s.char_at[ch("saruman")] == ELIMINATED
    assert s.politics[ISENGARD] == 1
    assert kind(s) == WD.PLAY_EVENT and set(s.pending.options) == {NO, ("card", card(BILBO))}
    dice = list(s.dice[FREE_PEOPLES])
    play(s, ("card", card(BILBO)))
    assert s.corruption == 1 and list(s.dice[FREE_PEOPLES]) == dice
    sound(s)


def test_the_ents_hits_are_chosen_by_the_shadow_and_saruman_survives_a_survivor():
    """facts §6.2 #19: 2 hits on 2 Elites: the Shadow chooses; with a unit left Saruman stays.
    Gandalf the White outside Fangorn and Rohan: no extra card."""
    s = at_play({"free_peoples": [ENTS[0], BILBO]}, {"free_peoples": ["character"]},
                characters={"gandalf-the-white": "lorien", "strider": "fangorn",
                            "saruman": "orthanc"},
                armies={"orthanc": {"isengard": {"elite": 2}}},
                rolls={"free_peoples": [4, 5, 1]})
    play_event(s, CHARACTER, ENTS[0])
    assert kind(s) == WD.EVENT_CASUALTY and s.pending.player == SHADOW
    play(s, ("casualty", ISENGARD, "elite"))
    assert s.army[reg("orthanc"), ISENGARD, ELITE] == 1
    assert s.char_at[ch("saruman")] == reg("orthanc") and shadow_turn(s)


def test_the_ents_eliminate_saruman_alone_in_orthanc():
    """facts §6.2 #19: Saruman in Orthanc with no Shadow Army is eliminated (no dice)."""
    s = at_play({"free_peoples": [ENTS[1]]}, {"free_peoples": ["character"]},
                characters={"gandalf-the-white": "fangorn", "saruman": "orthanc"})
    play_event(s, CHARACTER, ENTS[1])
    assert s.char_at[ch("saruman")] == ELIMINATED


@pytest.mark.parametrize("chars", [{"strider": "fangorn"},
                                   {"gandalf-the-white": "lorien", "strider": "edoras"}])
def test_the_ents_need_gandalf_the_white_and_a_companion_in_fangorn(chars):
    """facts §6.2 #19 (precondition)."""
    s = at_play({"free_peoples": [ENTS[2]]}, {"free_peoples": ["character"]}, characters=chars)
    assert playable(s, FREE_PEOPLES, CHARACTER) == []


# ---------------------------------------------------------------------------------------------
# #22 Dead Men of Dunharrow

DEAD_MEN = "fp-char-22-dead-men-of-dunharrow"


def test_dead_men_strike_pelargir_the_shadow_retreats_and_gondor_recruits():
    """facts §6.2 #22, §6 card rules: Strider and Gimli go from Helm's Deep to Pelargir; the
    Shadow Army there takes one die of hits, is attacked (Sauron one step), retreats; Pelargir
    is retaken and 3 Gondor Regulars recruited."""
    s = at_play({"free_peoples": [DEAD_MEN]}, {"free_peoples": ["character"]},
                characters={"strider": "helms-deep", "gimli": "helms-deep"},
                armies={"pelargir": {"sauron": {"regular": 3, "nazgul": 1}}},
                control={"pelargir": "shadow"}, politics={"sauron": {"steps": 1}},
                rolls={"free_peoples": [2]})
    play_event(s, CHARACTER, DEAD_MEN)
    play(s, ("region", reg("pelargir")))
    p = reg("pelargir")
    assert s.char_at[ch("strider")] == p == s.char_at[ch("gimli")]
    assert s.politics[SAURON] == 0
    assert kind(s) == WD.EVENT_CHOICE and s.pending.player == SHADOW  # the retreat
    assert ("region", reg("lamedon")) not in s.pending.options  # a Free Peoples Town
    play(s, ("region", reg("west-harondor")))
    assert s.army[reg("west-harondor"), SAURON].tolist() == [1, 0, 0, 1]
    assert s.control[p] == FREE_PEOPLES and s.army[p, GONDOR, REGULAR] == 3
    sound(s)


def test_dead_men_destroy_an_army_that_cannot_retreat():
    """facts §6.2 #22: no free region to retreat to: the Army is destroyed with its Nazgûl."""
    s = at_play({"free_peoples": [DEAD_MEN]}, {"free_peoples": ["character"]},
                characters={"strider": "edoras"},
                armies={"erech": {"sauron": {"regular": 3, "nazgul": 1}},
                        "anfalas": {"gondor": {"regular": 1}}},
                rolls={"free_peoples": [1]})
    reserve = s.reserve[SAURON].tolist()
    play_event(s, CHARACTER, DEAD_MEN)
    play(s, ("region", reg("erech")))
    e = reg("erech")
    assert not s.army[e, SAURON].any()
    assert s.reserve[SAURON].tolist() == [reserve[0] + 3, reserve[1], 0, reserve[3] + 1]
    assert s.army[e, GONDOR, REGULAR] == 3 and s.char_at[ch("strider")] == e
    sound(s)


def test_dead_men_hits_wiping_the_army_leave_its_nazgul_and_nothing_retreats():
    """facts §6.2 #22, §6 card rules (reading): the hits remove every unit; the Nazgûl stay,
    no retreat is asked, and Gondor recruits beside them."""
    s = at_play({"free_peoples": [DEAD_MEN]}, {"free_peoples": ["character"]},
                characters={"strider": "edoras"},
                armies={"lamedon": {"sauron": {"regular": 1, "nazgul": 1}}},
                rolls={"free_peoples": [3]})
    play_event(s, CHARACTER, DEAD_MEN)
    play(s, ("region", reg("lamedon")))
    lam = reg("lamedon")
    assert s.army[lam, SAURON].tolist() == [0, 0, 0, 1] and shadow_turn(s)
    assert s.army[lam, GONDOR, REGULAR] == 3
    sound(s)


def test_dead_men_need_strider_in_rohan():
    """facts §6.2 #22 (precondition)."""
    s = at_play({"free_peoples": [DEAD_MEN]}, {"free_peoples": ["character"]},
                characters={"strider": "minas-tirith"})
    assert playable(s, FREE_PEOPLES, CHARACTER) == []


# ---------------------------------------------------------------------------------------------
# #23 House of the Stewards, #24 The Grey Company

STEWARDS, GREY_COMPANY = "fp-char-23-house-of-the-stewards", "fp-char-24-the-grey-company"


def test_house_of_the_stewards_recruits_with_boromir_and_draws_two_strategy_cards():
    """facts §6.2 #23: a Gondor unit (here an Elite) in Boromir's region; 2 Strategy cards."""
    s = at_play({"free_peoples": [STEWARDS]}, {"free_peoples": ["event"]},
                characters={"boromir": "lossarnach"})
    strategy = len(s.decks[1])
    play_event(s, EVENT, STEWARDS)
    play(s, ("figure", ELITE))
    assert s.army[reg("lossarnach"), GONDOR].tolist() == [0, 1, 0, 0]
    assert len(s.decks[1]) == strategy - 2 and len(s.hands[FREE_PEOPLES]) == 2
    sound(s)


def test_house_of_the_stewards_needs_boromir_in_gondor():
    """facts §6.2 #23 (precondition): Boromir in the Fellowship or outside Gondor."""
    for chars in ({}, {"boromir": "edoras"}):
        s = at_play({"free_peoples": [STEWARDS]}, {"free_peoples": ["event"]}, characters=chars)
        assert playable(s, FREE_PEOPLES, EVENT) == []


def test_the_grey_company_turns_a_regular_into_an_elite_and_draws_two():
    """facts §6.2 #24: in Strider's Army a Regular of the chosen nation becomes an Elite (the
    Regular back to the reinforcements); 2 Strategy cards."""
    s = at_play({"free_peoples": [GREY_COMPANY]}, {"free_peoples": ["event"]},
                characters={"strider": "osgiliath"},
                armies={"osgiliath": {"gondor": {"regular": 2}, "the-north": {"regular": 1}}})
    reserve = s.reserve[GONDOR].tolist()
    play_event(s, EVENT, GREY_COMPANY)
    assert set(s.pending.options) == {("nation", GONDOR), ("nation", NORTH)}
    play(s, ("nation", GONDOR))
    assert s.army[reg("osgiliath"), GONDOR].tolist() == [1, 1, 0, 0]
    assert s.reserve[GONDOR].tolist() == [reserve[0] + 1, reserve[1] - 1, *reserve[2:]]
    assert len(s.hands[FREE_PEOPLES]) == 2
    sound(s)


def test_the_grey_company_needs_strider_with_an_army():
    """facts §6.2 #24 (precondition)."""
    s = at_play({"free_peoples": [GREY_COMPANY]}, {"free_peoples": ["event"]},
                characters={"strider": "osgiliath"})
    assert playable(s, FREE_PEOPLES, EVENT) == []
    assert s.char_at[ch("strider")] != IN_FELLOWSHIP
