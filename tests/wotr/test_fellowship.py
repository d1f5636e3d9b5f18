"""The Fellowship's moves (facts §7.6, §7.9, §7.12, §3.1; spec §14, §18.C, §18.D, §20 #31):
moving and hiding, the reveal path (region by region, never ending in a Free Peoples City or
Stronghold they control, a tile per Shadow Stronghold on it), the Mordor Track and the Crack of
Doom against a 12th Corruption on the same draw.
"""

from __future__ import annotations

from boardkit.frames import advance
from wotr_env.data import load_ruleset
from wotr_env.engine import build, is_over, play
from wotr_env.engine.decision import ARMY_MUSTER, CHARACTER, DONE, WD, WILL
from wotr_env.engine.fellowship import reveal
from wotr_env.engine.state import ELIMINATED, FREE_PEOPLES, SHADOW

RS = load_ruleset("2e")
CARDS, BOARD = RS.cards, RS.board
NONE = ("choice", "none")
STANDARD = [t.id for t in CARDS.tiles if not t.special]


def region(rid: str) -> int:
    return BOARD.region(rid)


def tile(tid: str) -> int:
    return CARDS.tile(tid)


def at_action(fp_dice=("character", "character"), **spec: object):
    spec.setdefault("dice", {"free_peoples": list(fp_dice), "shadow": ["event", "muster"]})
    fs = {"region": "hollin", **spec.pop("fellowship", {})}
    return build({"fellowship": fs, **spec})


def actions(state, face: int) -> set[str]:
    """The die actions a die of ``face`` offers the Free Peoples now."""
    play(state, ("die", face))
    assert state.pending.kind == WD.DIE_ACTION
    return {a[1] for a in state.pending.options}


def move(state) -> None:
    play(state, ("die", CHARACTER), ("action", "move-fellowship"))


def shadow_turn(state) -> bool:
    return state.pending.kind == WD.CHOOSE_DIE and state.pending.player == SHADOW


def steps_offered(state) -> set[str]:
    return {BOARD.regions[a[1]].id for a in state.pending.options if a[0] == "region"}


# ---------------------------------------------------------------------------------------------
# Move and hide


def test_a_revealed_fellowship_hides_but_cannot_move():
    """facts §7.6: a Revealed Fellowship cannot be moved by a Character die until hidden; only
    a Revealed one can be hidden."""
    assert {"hide"} <= actions(at_action(fellowship={"revealed": True}), CHARACTER)
    assert "move-fellowship" not in actions(at_action(fellowship={"revealed": True}), CHARACTER)
    hidden = actions(at_action(), CHARACTER)
    assert "move-fellowship" in hidden and "hide" not in hidden


def test_hiding_puts_no_die_in_the_hunt_box():
    """facts §7.6: hiding flips Revealed to Hidden, does not move, boxes no die."""
    state = at_action(fellowship={"revealed": True, "progress": 0})
    play(state, ("die", CHARACTER), ("action", "hide"))
    assert not state.revealed and state.fellowship_acted
    assert state.hunt_box.tolist() == [0, 0, 0] and state.progress == 0 and shadow_turn(state)


def test_strider_as_guide_hides_with_any_die():
    """facts §3.1: Strider's Guide ability: any die hides; without him an Army die cannot."""
    strider = at_action(fp_dice=("army_muster", "event"),
                        fellowship={"revealed": True, "guide": "strider"})
    assert "hide" in actions(strider, ARMY_MUSTER)
    play(strider, ("action", "hide"))
    assert not strider.revealed and strider.hunt_box[2] == 0
    gandalf = at_action(fp_dice=("army_muster", "event"), fellowship={"revealed": True})
    assert "hide" not in actions(gandalf, ARMY_MUSTER)


def test_a_will_of_the_west_die_moves_the_fellowship():
    """facts §7.1: a Will of the West die is used as any face, a Character die too."""
    assert "move-fellowship" in actions(at_action(fp_dice=("will_of_the_west", "muster")), WILL)


def test_progress_never_passes_the_track():
    """facts §4.3: the Fellowship Track runs 0-12: a move at 12 keeps Progress at 12."""
    state = at_action(fellowship={"progress": 12})
    move(state)
    assert state.progress == 12


# ---------------------------------------------------------------------------------------------
# The reveal path


def revealed_at(rid: str, progress: int, tiles=("std-0r-1",), **spec: object):
    """A move (Progress + 1) whose Hunt draws a 0-damage Reveal tile."""
    state = at_action(fellowship={"region": rid, "progress": progress},
                      hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=list(tiles),
                      **spec)
    move(state)
    return state


def test_reveal_moves_region_by_region_and_never_into_a_dead_end():
    """facts §7.6: the FP moves the revealed figure up to Progress regions, region by region;
    it may not end in an FP City or Stronghold they control: with one step left Lórien (an Elven
    Stronghold) is not offered, DONE is."""
    state = revealed_at("dimrill-dale", 0)
    assert state.revealed and state.pending.kind == WD.FELLOWSHIP_PATH
    assert DONE in state.pending.options
    assert steps_offered(state) == {"gladden-fields", "moria", "north-anduin-vale",
                                    "parth-celebrant", "south-anduin-vale"}
    play(state, ("region", region("parth-celebrant")))  # no step left: DONE played alone
    assert state.fellowship_region == region("parth-celebrant") and state.progress == 0
    assert ("fellowship-reveal" in [e[1] for e in state.log]) and shadow_turn(state)


def test_reveal_may_pass_through_but_not_end_in_an_fp_stronghold():
    """facts §7.6, §8.4 [1E-FAQ]: with two steps Lórien may be crossed; standing in it the
    path cannot end (no DONE) and must go on."""
    state = revealed_at("dimrill-dale", 1)
    assert "lorien" in steps_offered(state)
    play(state, ("region", region("lorien")))
    assert DONE not in state.pending.options
    assert steps_offered(state) == {"dimrill-dale", "parth-celebrant"}
    play(state, ("region", region("parth-celebrant")))
    assert state.fellowship_region == region("parth-celebrant")


def test_reveal_may_end_in_a_conquered_fp_stronghold_and_draws_its_tile():
    """facts §7.6: the limit is an FP-controlled City or Stronghold: Lórien held by the Shadow
    may end the path, and as a Shadow-controlled Stronghold it draws one more tile."""
    state = revealed_at("dimrill-dale", 0, tiles=("std-0r-1", "std-3-1"),
                        control={"lorien": "shadow"})
    assert "lorien" in steps_offered(state)
    play(state, ("region", region("lorien")))
    assert state.fellowship_region == region("lorien")
    assert state.pending.kind == WD.HUNT_CASUALTY and state.pending.context["damage"] == 3


def test_reveal_path_through_a_shadow_stronghold_draws_a_tile_whose_eye_is_zero():
    """facts §7.6, §4.1: one extra tile per Shadow-controlled Stronghold on the reveal path
    (Moria), resolved after the revealing tile; an Eye on it is worth 0."""
    state = revealed_at("hollin", 1, tiles=("std-1r-1", "std-eye-1"))
    play(state, NONE)  # the revealing tile: 1 Corruption
    assert state.corruption == 1 and state.pending.kind == WD.FELLOWSHIP_PATH
    play(state, ("region", region("moria")), ("region", region("dimrill-dale")))
    assert [e[2:] for e in state.log if e[1] == "hunt-tile"][-1] == (tile("std-eye-1"), 0)
    assert state.corruption == 1 and shadow_turn(state)


def test_reveal_path_avoiding_shadow_strongholds_draws_nothing_more():
    """facts §7.6: no Shadow Stronghold on the path, no extra tile."""
    state = revealed_at("hollin", 1, tiles=("std-0r-1",))
    play(state, ("region", region("trollshaws")), DONE)
    assert state.hunt_drawn == [tile("std-0r-1")] and shadow_turn(state)


def test_a_declaration_through_a_shadow_stronghold_draws_no_tile():
    """facts §7.6: the Stronghold tiles come only when the Shadow reveals, not on a declaration
    (spec §20 #31: declaring is a phase-2 choice)."""
    state = build({"start": "turn", "fellowship": {"region": "hollin", "progress": 2}})
    assert state.pending.kind == WD.DECLARE_FELLOWSHIP
    play(state, ("choice", "declare"), ("region", region("moria")),
         ("region", region("dimrill-dale")))
    assert state.fellowship_region == region("dimrill-dale") and not state.revealed
    assert state.hunt_drawn == [] and len(state.hunt_pool) == 16


def test_a_card_reveal_uses_the_same_path():
    """facts §7.6 (a card such as *Nazgûl Search* reveals through ``fellowship.reveal``): the figure
    moves up to Progress regions and cannot end in Rivendell, which the FP controls."""
    state = at_action(fellowship={"region": "fords-of-bruinen", "progress": 1})
    state.pending = None
    reveal(state)
    advance(state, is_over)
    assert state.revealed and state.pending.kind == WD.FELLOWSHIP_PATH
    assert "rivendell" not in steps_offered(state) and DONE in state.pending.options
    play(state, ("region", region("trollshaws")))
    assert state.fellowship_region == region("trollshaws") and state.progress == 0
    assert state.pending.kind == WD.CHOOSE_DIE and state.pending.player == FREE_PEOPLES


def test_reveal_of_a_revealed_fellowship_does_nothing():
    """facts §7.6: a Fellowship already Revealed is not revealed again (no second path)."""
    state = at_action(fellowship={"revealed": True, "progress": 0})
    state.pending = None
    reveal(state)
    advance(state, is_over)
    assert state.pending.kind == WD.CHOOSE_DIE


# ---------------------------------------------------------------------------------------------
# The Mordor Track


def on_track(step: int = 0, pool=None, **spec: object):
    fs = {"mordor_step": step, "region": "morannon", **spec.pop("fellowship", {})}
    hunt = {**spec.pop("hunt", {})}
    if pool is not None:
        hunt["pool"] = pool
    return at_action(fellowship=fs, hunt=hunt, **spec)


def test_a_mordor_move_draws_without_a_roll_and_the_eye_counts_every_die():
    """facts §7.9: no Hunt roll; the tile is drawn at once; an Eye is worth every die in the
    Hunt Box, FP dice included (2 + 1 Eye + 1 FP = 4, no cap); then one step on, then the die
    into the Box. A reveal on the Track does not move the figure."""
    state = on_track(hunt={"box": {"shadow": 2, "eyes": 1, "fp": 1}}, rolls={"shadow": [6]},
                     tiles=["std-eye-1"])
    move(state)
    assert list(state.chance.rolls[SHADOW]) == [6]
    assert state.pending.kind == WD.HUNT_CASUALTY and state.pending.context["damage"] == 4
    play(state, NONE)
    assert state.corruption == 4 and state.revealed and state.mordor_step == 1
    assert state.hunt_box[2] == 2 and shadow_turn(state)


def test_an_eye_on_the_track_has_no_five_dice_cap():
    """facts §7.9 [JC reading]: the Mordor Eye counts all dice in the Box, beyond 5."""
    state = on_track(hunt={"box": {"shadow": 4, "eyes": 3}}, tiles=["std-eye-2"])
    move(state)
    assert state.pending.context["damage"] == 7


def test_a_stop_tile_keeps_the_fellowship_on_its_step():
    """facts §4.2, §7.9: a tile with Stop: no step this move; a drawn special tile is out for
    good (facts §7.8 step 5)."""
    state = on_track(step=2, pool=[*STANDARD, "on-on-they-went"], tiles=["on-on-they-went"])
    move(state)
    play(state, NONE)
    assert state.mordor_step == 2 and state.corruption == 3
    assert tile("on-on-they-went") in state.hunt_removed and state.hunt_box[2] == 1


def test_shelobs_lair_rolls_its_damage_and_stops():
    """facts §4.2: Shelob's Lair: one die, counted as a numbered tile; Stop."""
    state = on_track(step=1, pool=[*STANDARD, "shelobs-lair"], tiles=["shelobs-lair"],
                     rolls={"shadow": [4]})
    move(state)
    assert state.pending.context["damage"] == 4
    play(state, NONE)
    assert state.corruption == 4 and state.mordor_step == 1


def test_a_healing_tile_removes_corruption_and_the_fellowship_steps_on():
    """facts §4.2, §7.10: the Phial (-2) heals, never below 0, deals no damage."""
    state = on_track(step=1, pool=[*STANDARD, "phial-of-galadriel"],
                     tiles=["phial-of-galadriel"], fellowship={"corruption": 3})
    move(state)
    assert state.corruption == 1 and state.mordor_step == 2 and shadow_turn(state)


def test_a_revealed_fellowship_on_the_track_must_hide_first():
    """facts §7.9: it must be Hidden to move; a Character die hides it."""
    state = on_track(step=1, fellowship={"revealed": True})
    assert "move-fellowship" not in actions(state, CHARACTER)
    play(state, ("action", "hide"))
    assert not state.revealed


def test_the_fifth_step_reaches_the_crack_of_doom():
    """facts §7.9, §7.12 #2: completing the 5th step wins for the Free Peoples at once."""
    state = on_track(step=4, tiles=["std-0r-1"])
    move(state)
    assert state.winner == FREE_PEOPLES and state.ending == "crack-of-doom"


def test_corruption_twelve_on_the_last_step_wins_for_the_shadow():
    """facts §7.12 (precedence 1 before 2), §7.9 [JC reading]: on the step that would reach the
    Crack of Doom the tile is applied first; its 12th Corruption wins for the Shadow."""
    state = on_track(step=4, tiles=["std-1-1"], fellowship={"corruption": 11})
    move(state)
    play(state, NONE)
    assert state.winner == SHADOW and state.ending == "corruption" and state.mordor_step == 4


def test_a_stop_on_the_last_step_does_not_win():
    """facts §7.9: a Stop tile on step 4 keeps the Fellowship short of the Crack of Doom."""
    state = on_track(step=4, pool=[*STANDARD, "give-it-to-uss"], tiles=["give-it-to-uss"])
    move(state)
    play(state, NONE)
    assert state.winner == -1 and state.mordor_step == 4 and state.revealed


def test_idle_on_the_track_costs_one_corruption():
    """facts §7.9: no move or hide on the Track by the end of Action Resolution: +1."""
    state = on_track(step=1, dice={"free_peoples": ["muster"]})
    play(state, ("die", 2), ("action", "skip"))
    assert state.corruption == 1


def test_hiding_on_the_track_is_acting():
    """facts §7.9: an attempt to hide counts: no idle penalty."""
    state = on_track(step=1, fellowship={"revealed": True},
                     dice={"free_peoples": ["character"]})
    play(state, ("die", CHARACTER), ("action", "hide"))
    assert state.corruption == 0 and state.turn == 2


def test_no_separation_on_the_track_and_take_them_alive_fails_there():
    """facts §7.9, §3.1: separating is forbidden on the Mordor Track; Meriadoc drawn as a
    casualty there is eliminated (*Take Them Alive!* does not work on the Track)."""
    assert "separate" not in actions(on_track(step=1), CHARACTER)
    state = on_track(step=1, tiles=["std-2-1"], companions=["meriadoc"])
    move(state)
    play(state, ("choice", "random-companion"))
    assert state.char_at[CARDS.character("meriadoc")] == ELIMINATED
    assert "take-them-alive" not in [e[1] for e in state.log]
    play(state, ("character", CARDS.character("strider")))  # WD-05: the make-up changed
    assert state.corruption == 1 and state.guide == CARDS.character("strider")


def test_entering_mordor_brings_back_the_drawn_eyes_and_specials():
    """facts §7.9: entering builds a new pool: the rest, the Eyes drawn so far (not those
    removed for good) and every special tile put in play (2e: being there is enough)."""
    state = build({"start": "turn", "fellowship": {"region": "morannon", "revealed": True},
                   "hunt": {"drawn": ["std-eye-1", "std-3-1"], "removed": ["std-eye-2"],
                            "specials_in_play": ["shelobs-lair"]}})
    assert state.pending.kind == WD.ENTER_MORDOR
    play(state, ("choice", "yes"))
    assert state.mordor_step == 0 and state.hunt_drawn == [tile("std-3-1")]
    assert {tile("std-eye-1"), tile("shelobs-lair")} <= set(state.hunt_pool)
    assert tile("std-eye-2") not in state.hunt_pool and state.specials_in_play == []
