"""The Hunt for the Ring (facts §7.8, §4.1, §4.2, §3.1, §3.3, §7.11; spec §14, §18.C): the roll
and its re-rolls, the tile, the damage in the rulebook's order, the pool, and table cards' hook.
Every position scripts its rolls, tiles and random companions, so each outcome is the rules'.
"""

from __future__ import annotations

import pytest

from wotr_env.data import load_ruleset
from wotr_env.engine import build, play
from wotr_env.engine.decision import CHARACTER, WD
from wotr_env.engine.hunt_cards import HUNT_CARDS, HuntCard
from wotr_env.engine.state import ELIMINATED, FREE_PEOPLES, IN_FELLOWSHIP, SHADOW

RS = load_ruleset("2e")
CARDS, BOARD = RS.cards, RS.board
NO, YES, NONE = ("choice", "no"), ("choice", "yes"), ("choice", "none")
GUIDE, RANDOM = ("choice", "guide"), ("choice", "random-companion")
STANDARD = {i for i, t in enumerate(CARDS.tiles) if not t.special}


def ch(cid: str) -> int:
    return CARDS.character(cid)


def tile(tid: str) -> int:
    return CARDS.tile(tid)


def region(rid: str) -> int:
    return BOARD.region(rid)


def at_move(**spec: object):
    """The Free Peoples choose a die (two Character dice; the Shadow keeps an Event and a
    Muster die, so that the turn goes on after the move)."""
    spec.setdefault("dice", {"free_peoples": ["character", "character"],
                             "shadow": ["event", "muster"]})
    fs = {"region": "hollin", **spec.pop("fellowship", {})}
    return build({"fellowship": fs, **spec})


def move(state) -> None:
    play(state, ("die", CHARACTER), ("action", "move-fellowship"))


def hunt_rolls(state) -> list[tuple]:
    return [e for e in state.log if e[1] == "hunt-roll"]


def shadow_turn(state) -> bool:
    """The move and its Hunt are over: the Shadow chooses a die."""
    return state.pending.kind == WD.CHOOSE_DIE and state.pending.player == SHADOW


# ---------------------------------------------------------------------------------------------
# The roll


def test_move_adds_progress_hunts_then_boxes_the_die():
    """facts §7.6, §7.8 step 1: Progress +1, then the Hunt, and only then the FP die goes into
    the Hunt Box (during the Hunt it is not there yet)."""
    state = at_move(hunt={"box": {"shadow": 2}}, rolls={"shadow": [6, 3]}, tiles=["std-1-1"])
    move(state)
    assert state.progress == 1 and state.fellowship_acted
    assert hunt_rolls(state)[-1][2:] == ((6, 3), (), 1)
    assert state.pending.kind == WD.HUNT_CASUALTY and state.hunt_box[2] == 0
    play(state, NONE)
    assert state.corruption == 1 and state.hunt_box[2] == 1 and shadow_turn(state)


def test_each_fp_die_already_in_the_box_adds_one():
    """facts §7.8 step 1: +1 to every die per FP die already in the Hunt Box: a 5 succeeds after
    one move this turn, not before."""
    with_die = at_move(hunt={"box": {"shadow": 1, "fp": 1}}, rolls={"shadow": [5]},
                       tiles=["std-0r-1"])
    move(with_die)
    assert hunt_rolls(with_die)[-1][-1] == 1 and tile("std-0r-1") in with_die.hunt_drawn
    without = at_move(hunt={"box": {"shadow": 1}}, rolls={"shadow": [5]})
    move(without)
    assert hunt_rolls(without)[-1][-1] == 0 and without.hunt_drawn == [] and shadow_turn(without)


def test_a_natural_one_always_fails():
    """facts §7.8 step 1: a natural 1 fails whatever the FP-die bonus."""
    state = at_move(hunt={"box": {"shadow": 1, "fp": 5}}, rolls={"shadow": [1]})
    move(state)
    assert hunt_rolls(state)[-1][-1] == 0 and state.hunt_drawn == []


def test_hunt_dice_are_shadow_dice_and_eyes_at_most_five():
    """facts §7.8 step 1, §4.4: Hunt Level = allocated dice + Eyes; at most 5 dice rolled."""
    state = at_move(hunt={"box": {"shadow": 4, "eyes": 3}}, rolls={"shadow": [2] * 5 + [6]})
    move(state)
    assert hunt_rolls(state)[-1][2] == (2,) * 5
    assert list(state.chance.rolls[SHADOW]) == [6]  # the sixth value was not rolled


def test_hunt_level_zero_rolls_nothing():
    """facts §7.8 step 1, spec §20 #9: with no Shadow die in the Hunt Box nothing is rolled."""
    state = at_move(rolls={"shadow": [6]})
    move(state)
    assert hunt_rolls(state)[-1][2:] == ((), (), 0) and list(state.chance.rolls[SHADOW]) == [6]


def test_three_rerolls_for_stronghold_units_and_nazgul():
    """facts §7.8 step 2: one failed die re-rolled for each of a Shadow-controlled Stronghold,
    Shadow units and Nazgûl in the Fellowship's region (Moria), with the same bonus."""
    state = at_move(fellowship={"region": "moria"}, hunt={"box": {"shadow": 3}},
                    armies={"moria": {"sauron": {"regular": 1, "nazgul": 1}}},
                    rolls={"shadow": [2, 3, 4, 6, 6, 2]}, tiles=["std-3-1"])
    move(state)
    assert hunt_rolls(state)[-1][2:] == ((2, 3, 4), (6, 6, 2), 2)


def test_rerolls_only_for_failed_dice_and_present_conditions():
    """facts §7.8 step 2: re-rolls never exceed the failed dice; with none of the three
    conditions in the region there is no re-roll."""
    capped = at_move(fellowship={"region": "moria"}, hunt={"box": {"shadow": 3}},
                     armies={"moria": {"sauron": {"regular": 1, "nazgul": 1}}},
                     rolls={"shadow": [6, 6, 2, 2, 5]}, tiles=["std-3-1"])
    move(capped)
    assert hunt_rolls(capped)[-1][2:] == ((6, 6, 2), (2,), 2)
    none = at_move(hunt={"box": {"shadow": 3}}, rolls={"shadow": [2, 3, 4, 6]})
    move(none)
    assert hunt_rolls(none)[-1][2:] == ((2, 3, 4), (), 0)
    only_units = at_move(hunt={"box": {"shadow": 2}}, armies={"hollin": {"sauron": {"regular": 1}}},
                         rolls={"shadow": [2, 3, 2, 6]})
    move(only_units)
    assert hunt_rolls(only_units)[-1][2:] == ((2, 3), (2,), 0)


# ---------------------------------------------------------------------------------------------
# The tile and its damage


def test_eye_is_the_successes_and_the_reveal_comes_last():
    """facts §7.8 step 3-4, §4.1: an Eye is worth the successes (2); the damage becomes
    Corruption before the Reveal icon reveals the Fellowship."""
    state = at_move(hunt={"box": {"shadow": 2}}, rolls={"shadow": [6, 6]}, tiles=["std-eye-1"])
    move(state)
    assert state.pending.kind == WD.HUNT_CASUALTY and state.pending.context["damage"] == 2
    play(state, NONE)
    assert state.corruption == 2 and state.revealed
    assert state.pending.kind == WD.FELLOWSHIP_PATH and state.pending.context["steps"] == 1


def test_casualty_guide_absorbs_his_level():
    """facts §7.8 step 4.3: the Guide taken as casualty lowers the damage by his Level (3):
    no Corruption; the next highest-Level Companion guides (facts §7.6)."""
    state = at_move(hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=["std-3-1"])
    move(state)
    assert set(state.pending.options) == {NONE, GUIDE, RANDOM}
    play(state, GUIDE)
    assert state.char_at[ch("gandalf-the-grey")] == ELIMINATED
    assert state.corruption == 0 and state.guide == ch("strider") and shadow_turn(state)


def test_random_casualty_and_the_rest_is_corruption():
    """facts §7.8 step 4.3-4.4: a random Companion (Boromir, Level 2) absorbs 2 of 3; the last
    point becomes Corruption; at most one casualty per Hunt."""
    state = at_move(hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=["std-3-1"],
                    companions=["boromir"])
    move(state)
    play(state, RANDOM)
    assert state.char_at[ch("boromir")] == ELIMINATED
    # the make-up changed: the FP may choose between the two Level-3 Companions (facts §7.6)
    assert state.pending.kind == WD.CHANGE_GUIDE
    play(state, ("character", ch("strider")))
    assert state.guide == ch("strider") and state.corruption == 1 and shadow_turn(state)


def test_a_companion_dies_even_if_his_level_exceeds_the_damage():
    """facts §7.8 step 4.3: no wounding: Gandalf (Level 3) dies to a 1-damage tile."""
    state = at_move(hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=["std-1-1"])
    move(state)
    play(state, GUIDE)
    assert state.char_at[ch("gandalf-the-grey")] == ELIMINATED and state.corruption == 0


def test_no_casualty_means_full_corruption():
    """facts §7.8 step 4.4: all damage left becomes Corruption."""
    state = at_move(hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=["std-3-1"])
    move(state)
    play(state, NONE)
    assert state.corruption == 3 and (state.char_at[:7] == IN_FELLOWSHIP).all()


def test_zero_damage_asks_nothing():
    """facts §7.8 step 4.3: a casualty only while damage >= 1: a 0 tile asks no WD-27."""
    state = at_move(hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=["std-0r-1"],
                    fellowship={"region": "hollin", "progress": 0})
    move(state)
    assert state.pending.kind == WD.FELLOWSHIP_PATH and state.corruption == 0


def test_corruption_twelve_ends_the_game_inside_the_hunt():
    """facts §7.10, §7.12 #1: the 12th Corruption wins for the Shadow at once."""
    state = at_move(hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=["std-3-1"],
                    fellowship={"region": "hollin", "corruption": 10})
    move(state)
    play(state, NONE)
    assert state.winner == SHADOW and state.ending == "corruption" and state.pending is None


# ---------------------------------------------------------------------------------------------
# Guide abilities in the Hunt


HOBBITS_ONLY = {c: "eliminated" for c in ("gandalf-the-grey", "strider", "boromir", "legolas",
                                          "gimli")}


def test_meriadoc_then_peregrin_separate_for_one_each():
    """facts §3.1, §7.8 step 4.2: Meriadoc as Guide separates for -1; Peregrin, Guide at once,
    may do the same; then Gollum guides and nothing is left to pay."""
    state = at_move(characters=HOBBITS_ONLY, hunt={"box": {"shadow": 1}},
                    fellowship={"region": "hollin", "guide": "meriadoc"},
                    rolls={"shadow": [6]}, tiles=["std-2-1"])
    move(state)
    assert state.pending.kind == WD.HUNT_GUIDE_ABILITY
    play(state, YES)
    assert state.pending.kind == WD.SEPARATE_COMPANIONS  # where Meriadoc goes (Progress 1 + 1)
    play(state, ("region", region("trollshaws")))
    assert state.char_at[ch("meriadoc")] == region("trollshaws")
    assert state.guide == ch("peregrin") and state.pending.kind == WD.HUNT_GUIDE_ABILITY
    play(state, YES, ("region", region("hollin")))
    assert state.guide == ch("gollum") and state.char_at[ch("gollum")] == IN_FELLOWSHIP
    assert state.corruption == 0 and shadow_turn(state)


def test_hobbit_guide_declines_and_is_not_asked_twice():
    """facts §7.8 step 4.2: the ability is the FP's choice, asked once per Guide per tile."""
    state = at_move(characters=HOBBITS_ONLY, hunt={"box": {"shadow": 1}},
                    fellowship={"region": "hollin", "guide": "meriadoc"},
                    rolls={"shadow": [6]}, tiles=["std-2-1"])
    move(state)
    play(state, NO)
    assert state.pending.kind == WD.HUNT_CASUALTY
    play(state, NONE)
    assert state.corruption == 2 and state.guide == ch("meriadoc")


def test_no_guide_ability_without_damage():
    """facts §3.1: the Hobbits' ability needs damage 1 or more."""
    state = at_move(characters=HOBBITS_ONLY, hunt={"box": {"shadow": 1}},
                    fellowship={"region": "hollin", "guide": "meriadoc"},
                    rolls={"shadow": [6]}, tiles=["std-0r-1"])
    move(state)
    assert state.pending.kind == WD.FELLOWSHIP_PATH


GOLLUM_ONLY = {**HOBBITS_ONLY, "meriadoc": "eliminated", "peregrin": "eliminated",
               "gollum": "fellowship"}


def test_gollum_numbered_reveal_tile_does_not_reveal_and_he_may_reveal_for_one():
    """facts §3.3, §7.11: with Gollum as Guide a numbered Reveal tile does not reveal; the FP
    may reveal to lower the damage by 1, then the figure moves as on any reveal."""
    state = at_move(characters=GOLLUM_ONLY, hunt={"box": {"shadow": 1}},
                    fellowship={"region": "hollin", "guide": "gollum"},
                    rolls={"shadow": [6]}, tiles=["std-1r-1"])
    move(state)
    assert state.pending.kind == WD.HUNT_GUIDE_ABILITY
    assert state.pending.context["ability"] == "reveal"
    play(state, YES)
    assert state.corruption == 0 and state.revealed and state.pending.kind == WD.FELLOWSHIP_PATH


def test_gollum_declining_keeps_the_fellowship_hidden():
    """facts §3.3: declined, the damage is Corruption and the numbered tile reveals nothing."""
    state = at_move(characters=GOLLUM_ONLY, hunt={"box": {"shadow": 1}},
                    fellowship={"region": "hollin", "guide": "gollum"},
                    rolls={"shadow": [6]}, tiles=["std-1r-1"])
    move(state)
    play(state, NO)
    assert state.corruption == 1 and not state.revealed and shadow_turn(state)


def test_gollum_does_not_stop_an_eye_from_revealing():
    """facts §3.3: only numbered tiles lose their Reveal; an Eye reveals, so the FP has no
    reveal to offer for -1 (no WD-26), and Gollum cannot be a casualty (facts §7.11)."""
    state = at_move(characters=GOLLUM_ONLY, hunt={"box": {"shadow": 1}},
                    fellowship={"region": "hollin", "guide": "gollum"},
                    rolls={"shadow": [6]}, tiles=["std-eye-1"])
    move(state)
    assert state.corruption == 1 and state.revealed and state.pending.kind == WD.FELLOWSHIP_PATH


def test_take_them_alive_separates_instead_of_eliminating():
    """facts §3.1 *Take Them Alive!*: Meriadoc drawn as casualty enters play as if just
    separated (Progress 1 + Level 1 regions); his Level still lowers the damage."""
    state = at_move(hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=["std-2-1"],
                    companions=["meriadoc"])
    move(state)
    play(state, RANDOM)
    assert state.pending.kind == WD.SEPARATE_COMPANIONS
    ends = {a[1] for a in state.pending.options}
    assert {region(r) for r in ("hollin", "rivendell", "bree", "moria")} <= ends
    assert region("goblins-gate") not in ends  # 3 regions away
    assert region("dimrill-dale") not in ends  # only through Moria, where he must stop
    play(state, ("region", region("fords-of-bruinen")))
    assert state.char_at[ch("meriadoc")] == region("fords-of-bruinen")
    play(state, ("character", ch("gandalf-the-grey")))  # WD-05: the make-up changed
    assert state.corruption == 1 and shadow_turn(state)


# ---------------------------------------------------------------------------------------------
# The pool


def test_an_empty_pool_takes_back_the_standard_tiles_not_removed():
    """facts §7.8 step 5: when the pool is empty, every drawn standard tile comes back, except
    those removed for good."""
    others = [t.id for t in CARDS.tiles if not t.special and t.id not in ("std-1-1", "std-eye-4")]
    state = at_move(hunt={"box": {"shadow": 1}, "pool": ["std-1-1"], "drawn": others,
                          "removed": ["std-eye-4"]},
                    rolls={"shadow": [6]}, tiles=["std-1-1"])
    move(state)
    assert set(state.hunt_pool) == STANDARD - {tile("std-eye-4")} and state.hunt_drawn == []


def test_a_drawn_standard_tile_is_out_until_the_pool_empties():
    """facts §7.8 step 5: a drawn tile does not return while the pool has tiles."""
    state = at_move(hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=["std-1-1"])
    move(state)
    assert state.hunt_drawn == [tile("std-1-1")] and tile("std-1-1") not in state.hunt_pool


# ---------------------------------------------------------------------------------------------
# Table cards (WD-25): a hook the Event cards fill


def axe_like(damage_step: int = 1) -> HuntCard:
    def use(state, card, draw):
        state.table.remove(card)
        state.discards[FREE_PEOPLES].append(card)
        return type(draw)(draw.tile, draw.eye, max(0, draw.damage - damage_step))
    return HuntCard("damage", lambda state, draw: draw.damage >= 1, use)


AXE = "fp-char-06-axe-and-bow"


def test_an_unregistered_table_card_is_not_offered(monkeypatch):
    """facts §7.8 step 4.1 (hook): a table card with no registered Hunt part asks nothing."""
    monkeypatch.delitem(HUNT_CARDS, AXE, raising=False)
    state = at_move(table=[AXE], hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]},
                    tiles=["std-2-1"])
    move(state)
    assert state.pending.kind == WD.HUNT_CASUALTY


def test_a_registered_table_card_lowers_the_damage(monkeypatch):
    """facts §7.8 step 4.1: one FP table card is offered first (WD-25); used, it lowers the
    damage before the casualty step."""
    monkeypatch.setitem(HUNT_CARDS, AXE, axe_like())
    state = at_move(table=[AXE], hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]},
                    tiles=["std-2-1"])
    move(state)
    assert state.pending.kind == WD.HUNT_TABLE_CARD
    assert set(state.pending.options) == {("card", CARDS.card(AXE)), NO}
    play(state, ("card", CARDS.card(AXE)))
    assert state.pending.context["damage"] == 1
    play(state, NONE)
    assert state.corruption == 1 and CARDS.card(AXE) not in state.table


def test_roll_and_draw_hooks(monkeypatch):
    """facts §6.4 #16, §6.2 #8 (hooks): a Shadow table card before the roll adds to every die;
    an FP one before the draw stops it."""
    crebain, staff = "sh-char-16-flocks-of-crebain", "fp-char-08-wizards-staff"
    monkeypatch.setitem(HUNT_CARDS, crebain, HuntCard(
        "roll", lambda s, d: True, lambda s, c, d: type(d)(bonus=d.bonus + 1)))
    monkeypatch.setitem(HUNT_CARDS, staff, HuntCard(
        "draw", lambda s, d: True, lambda s, c, d: type(d)(eye=d.eye, cancelled=True)))
    state = at_move(table=[crebain, staff], hunt={"box": {"shadow": 1}}, rolls={"shadow": [5]})
    move(state)
    assert state.pending.kind == WD.HUNT_TABLE_CARD and state.pending.player == SHADOW
    play(state, ("card", CARDS.card(crebain)))
    assert hunt_rolls(state)[-1][-1] == 1
    assert state.pending.kind == WD.HUNT_TABLE_CARD and state.pending.player == FREE_PEOPLES
    pool = list(state.hunt_pool)
    play(state, ("card", CARDS.card(staff)))
    assert state.hunt_pool == pool and state.hunt_drawn == [] and shadow_turn(state)


@pytest.mark.parametrize("ruleset", ["2e", "1e"])
def test_hunt_runs_in_both_editions(ruleset):
    """facts §7.8 step 6: the 1e Hunt order is unknown; the 2e order stands in."""
    state = at_move(ruleset=ruleset, hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]},
                    tiles=["std-3-1"])
    move(state)
    play(state, NONE)
    assert state.corruption == 3
