"""The Shadow Character deck (facts §6.4): each card fires as its text says, and a card with a
precondition is not offered when it fails (spec §7.3). Every position scripts its rolls, tiles
and random companions, so each outcome is the rules'.
"""

from __future__ import annotations

from typing import Any

import pytest

from wotr_env.data import NATIONS, load_ruleset
from wotr_env.engine import build, play
from wotr_env.engine.battle.forces import eliminate_character
from wotr_env.engine.decision import CHARACTER, DONE, EVENT, WD, WILL, choice
from wotr_env.engine.events import playable
from wotr_env.engine.invariants import check
from wotr_env.engine.state import ELIMINATED, FREE_PEOPLES, IN_FELLOWSHIP, NAZGUL, SHADOW

RS = load_ruleset("2e")
CARDS, BOARD = RS.cards, RS.board
SAURON, ROHAN = NATIONS.index("sauron"), NATIONS.index("rohan")
NO, NONE = choice("no"), choice("none")
COMPANIONS = ("gandalf-the-grey", "strider", "boromir", "legolas", "gimli", "meriadoc",
              "peregrin")
OTHERS = [t.id for t in CARDS.tiles if not t.special and t.id != "std-3-1"]
WITH_GOLLUM = {**{c: "eliminated" for c in COMPANIONS}, "gollum": "fellowship"}


def card(cid: str) -> int:
    return CARDS.card(cid)


def ch(cid: str) -> int:
    return CARDS.character(cid)


def tile(tid: str) -> int:
    return CARDS.tile(tid)


def region(rid: str) -> int:
    return BOARD.region(rid)


def shadow_to_play(cid: str, face: str = "character", **spec: Any):
    """The Shadow chooses a die with ``cid`` in hand (a ``face`` die and a Muster die); the
    Free Peoples keep two Event dice, so that the turn goes on after the card."""
    fs = {"region": "fangorn", **spec.pop("fellowship", {})}
    hands = spec.pop("hands", {})
    hands["shadow"] = [cid, *hands.get("shadow", [])]
    dice = {"shadow": [face, "muster"], "free_peoples": ["event", "event"],
            **spec.pop("dice", {})}
    state = build({"to_act": "shadow", "fellowship": fs, "hands": hands, "dice": dice, **spec})
    assert state.pending.kind == WD.CHOOSE_DIE and state.pending.player == SHADOW
    return state


def play_card(state, cid: str, face: int = CHARACTER) -> None:
    """The die, the play-event action and the card, each where it is asked."""
    for kind, action in ((WD.CHOOSE_DIE, ("die", face)),
                         (WD.DIE_ACTION, ("action", "play-event")),
                         (WD.PLAY_EVENT, ("card", card(cid)))):
        if state.pending.kind == kind:
            play(state, action)
    assert card(cid) not in state.hands[SHADOW]
    assert check(state) == []


def offered(state, cid: str, face: int = CHARACTER) -> bool:
    return card(cid) in playable(state, SHADOW, face)


def fp_turn(state) -> bool:
    """The card is over: the Free Peoples choose a die."""
    return state.pending.kind == WD.CHOOSE_DIE and state.pending.player == FREE_PEOPLES


def last(state, name: str) -> tuple:
    return next(e[2:] for e in reversed(state.log) if e[1] == name)


def in_fellowship(state) -> set[str]:
    return {c.id for i, c in enumerate(CARDS.characters)
            if c.kind == "companion" and state.char_at[i] == IN_FELLOWSHIP}


# ---------------------------------------------------------------------------------------------
# #5-#7: a Hunt tile drawn by a card


ORC_PATROL, ISILDURS_BANE = "sh-char-05-orc-patrol", "sh-char-06-isildurs-bane"
FOUL_THING = "sh-char-07-foul-thing-from-the-deep"


def test_orc_patrol_counts_a_numbered_tile_as_a_successful_hunt():
    """facts §6.4 #5, §7.8 step 4: the tile's damage with the usual choices (no Hunt roll):
    the Free Peoples take no casualty, so the 2 become Corruption."""
    s = shadow_to_play(ORC_PATROL, tiles=["std-2-1"])
    play_card(s, ORC_PATROL)
    assert s.pending.kind == WD.HUNT_CASUALTY and s.pending.context["damage"] == 2
    play(s, NONE)
    assert s.corruption == 2 and tile("std-2-1") in s.hunt_drawn and not s.revealed
    assert not [e for e in s.log if e[1] == "hunt-roll"] and fp_turn(s)


def test_orc_patrol_reveal_tile_reveals_and_the_figure_moves():
    """facts §6.4 #5, §7.6: a tile with a Reveal icon counts as a successful Hunt, so it
    reveals the Fellowship, and the Free Peoples move the figure up to Progress regions."""
    s = shadow_to_play(ORC_PATROL, tiles=["std-0r-1"], fellowship={"progress": 1})
    play_card(s, ORC_PATROL)
    assert s.revealed and s.pending.kind == WD.FELLOWSHIP_PATH
    play(s, ("region", region("eastemnet")))  # Progress spent: the path ends there
    assert s.fellowship_region == region("eastemnet") and s.progress == 0


def test_orc_patrol_eye_is_discarded_without_effect():
    """facts §6.4 #5, §4.1: an Eye drawn by a card does nothing (no reveal, no damage)."""
    s = shadow_to_play(ORC_PATROL, tiles=["std-eye-1"], fellowship={"corruption": 3})
    play_card(s, ORC_PATROL)
    assert s.corruption == 3 and not s.revealed and tile("std-eye-1") in s.hunt_drawn
    assert fp_turn(s)


def test_orc_patrol_fp_special_tile_is_discarded_without_effect():
    """facts §6.4 #5, §4.2: on the Mordor Track the Phial (-2) drawn by the card heals
    nothing; it is out of the pool for good."""
    s = shadow_to_play(ORC_PATROL, fellowship={"mordor_step": 1, "corruption": 3},
                       hunt={"pool": ["phial-of-galadriel", "std-3-1"], "drawn": OTHERS},
                       tiles=["phial-of-galadriel"])
    play_card(s, ORC_PATROL)
    assert s.corruption == 3 and s.hunt_removed == [tile("phial-of-galadriel")]
    assert s.mordor_step == 1


@pytest.mark.parametrize("cid", [ORC_PATROL, ISILDURS_BANE, FOUL_THING])
def test_tile_cards_not_at_a_free_peoples_settlement(cid: str):
    """facts §6.4 #5-#7: the Fellowship in Edoras (an FP City) forbids the play; in Fangorn
    (no Settlement) it is allowed."""
    assert not offered(shadow_to_play(cid, fellowship={"region": "edoras"}), cid)
    assert offered(shadow_to_play(cid), cid)


def test_isildurs_bane_damage_cannot_be_reduced():
    """facts §6.4 #6: the Guide's ability (Meriadoc) and a casualty are not offered: the 3
    become Corruption at once, every Companion stays."""
    s = shadow_to_play(ISILDURS_BANE, tiles=["std-3-1"], fellowship={"guide": "meriadoc"},
                       characters={c: "eliminated" for c in COMPANIONS if c != "meriadoc"})
    play_card(s, ISILDURS_BANE)
    assert s.corruption == 3 and in_fellowship(s) == {"meriadoc"} and fp_turn(s)


def test_isildurs_bane_reveal_icon_still_reveals():
    """facts §6.4 #6, §7.8 step 4.5: the tile counts as a successful Hunt, its Reveal last."""
    s = shadow_to_play(ISILDURS_BANE, tiles=["std-1r-1"])
    play_card(s, ISILDURS_BANE)
    assert s.corruption == 1 and s.revealed


def test_foul_thing_takes_a_random_companion_first():
    """facts §6.4 #7: 3 damage, Legolas (Level 2) drawn at random and eliminated, the
    remaining 1 is Corruption; the Free Peoples are asked nothing."""
    s = shadow_to_play(FOUL_THING, tiles=["std-3-1"], companions=["legolas"])
    play_card(s, FOUL_THING)
    assert s.pending.kind == WD.CHANGE_GUIDE  # (the make-up changed: Gandalf or Strider)
    play(s, ("character", ch("gandalf-the-grey")))
    assert s.char_at[ch("legolas")] == ELIMINATED and s.corruption == 1
    assert "legolas" not in in_fellowship(s) and len(in_fellowship(s)) == 6


def test_foul_thing_without_damage_costs_no_companion():
    """facts §6.4 #7: a 0 tile has no damage, so no Companion is lost (it still reveals)."""
    s = shadow_to_play(FOUL_THING, tiles=["std-0r-1"])
    play_card(s, FOUL_THING)
    assert len(in_fellowship(s)) == 7 and s.corruption == 0 and s.revealed


# ---------------------------------------------------------------------------------------------
# #9, #11: the Nazgûl find the Fellowship

NAZGUL_SEARCH, NAZGUL_STRIKE = "sh-char-09-nazgul-search", "sh-char-11-the-nazgul-strike"


def test_nazgul_search_reveals_and_the_reveal_moves_the_figure():
    """facts §6.4 #9, §7.6, issue 27 item 2 (Nazgûl Search's reveal moves the figure): a
    Nazgûl flies into the Fellowship's region, the Fellowship is revealed and the Free Peoples
    move the figure up to Progress (2) regions; Progress drops to 0."""
    s = shadow_to_play(NAZGUL_SEARCH, fellowship={"progress": 2},
                       armies={"dol-guldur": {"sauron": {"nazgul": 1}}})
    play_card(s, NAZGUL_SEARCH)
    assert s.pending.kind == WD.MOVE_MINIONS
    play(s, ("region", region("dol-guldur")), ("region", region("fangorn")))
    assert s.revealed and s.pending.kind == WD.FELLOWSHIP_PATH
    assert s.pending.context["steps"] == 2
    play(s, ("region", region("westemnet")))
    assert ("region", region("edoras")) not in s.pending.options  # an FP City: no end there
    play(s, DONE)
    assert s.fellowship_region == region("westemnet") and s.progress == 0
    assert last(s, "fellowship-reveal") == ((region("fangorn"), region("westemnet")),)


def test_nazgul_search_without_a_nazgul_there_reveals_nothing():
    """facts §6.4 #9: the Nazgûl end elsewhere: the Fellowship stays Hidden."""
    s = shadow_to_play(NAZGUL_SEARCH, fellowship={"progress": 2},
                       armies={"dol-guldur": {"sauron": {"nazgul": 1}}})
    play_card(s, NAZGUL_SEARCH)
    play(s, ("region", region("dol-guldur")), ("region", region("moria")))
    assert not s.revealed and fp_turn(s)


def test_nazgul_search_counts_the_witch_king_and_needs_progress():
    """facts §6.4 #9, §3.4: the Witch-king counts as a Nazgûl (he may fly in), the Mouth of
    Sauron does not move; with Progress 0 the card is not playable."""
    s = shadow_to_play(NAZGUL_SEARCH, characters={"witch-king": "dol-guldur",
                                                  "mouth-of-sauron": "dol-guldur"},
                       fellowship={"progress": 1})
    play_card(s, NAZGUL_SEARCH)
    assert ("character", ch("mouth-of-sauron")) not in s.pending.options  # not a Nazgûl
    play(s, ("character", ch("witch-king")), ("region", region("fangorn")))
    assert s.revealed and s.pending.kind == WD.FELLOWSHIP_PATH
    assert not offered(shadow_to_play(NAZGUL_SEARCH, characters={"witch-king": "dol-guldur"}),
                       NAZGUL_SEARCH)


def test_nazgul_strike_discards_a_free_peoples_character_card_from_the_table():
    """facts §6.4 #11: with a Nazgûl in the Fellowship's region the Shadow may discard one FP
    Character card from the table."""
    staff = "fp-char-08-wizards-staff"
    s = shadow_to_play(NAZGUL_STRIKE, fellowship={"progress": 1}, table=[staff],
                       armies={"fangorn": {"sauron": {"nazgul": 1}}})
    play_card(s, NAZGUL_STRIKE)
    play(s, DONE)  # the Nazgûl already stands there
    assert s.pending.kind == WD.EVENT_CHOICE
    assert set(s.pending.options) == {("card", card(staff)), choice("hunt-roll")}
    play(s, ("card", card(staff)))
    assert card(staff) not in s.table and card(staff) in s.discards[FREE_PEOPLES]


def test_nazgul_strike_hunts_as_if_the_fellowship_had_moved():
    """facts §6.4 #11, §7.8: the Hunt roll (1 Shadow die, a 6), a tile, no Progress and no
    die into the Hunt Box; without an FP table card the roll is the only choice."""
    s = shadow_to_play(NAZGUL_STRIKE, fellowship={"progress": 1},
                       armies={"dol-guldur": {"sauron": {"nazgul": 1}}},
                       hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=["std-1-1"])
    play_card(s, NAZGUL_STRIKE)
    play(s, ("region", region("dol-guldur")), ("region", region("fangorn")))
    assert s.pending.kind == WD.HUNT_CASUALTY
    play(s, NONE)
    assert s.corruption == 1 and s.progress == 1 and s.hunt_box[2] == 0 and fp_turn(s)


# ---------------------------------------------------------------------------------------------
# #13, #14: against a Revealed Fellowship

LURE, BREAKING = "sh-char-13-lure-of-the-ring", "sh-char-14-the-breaking-of-the-fellowship"


@pytest.mark.parametrize("answer", ["corruption", "eliminate"])
def test_lure_of_the_ring_random_companion_corruption_or_elimination(answer: str):
    """facts §6.4 #13: Boromir (Level 2) is drawn; the Free Peoples choose +2 Corruption or
    his elimination."""
    s = shadow_to_play(LURE, fellowship={"revealed": True}, companions=["boromir"])
    play_card(s, LURE)
    assert s.pending.player == FREE_PEOPLES and s.pending.kind == WD.EVENT_CHOICE
    play(s, choice(answer))
    if answer == "corruption":
        assert s.corruption == 2 and "boromir" in in_fellowship(s)
    else:
        assert s.corruption == 0 and s.char_at[ch("boromir")] == ELIMINATED


def test_lure_of_the_ring_with_gollum_and_when_hidden():
    """facts §6.4 #13: with Gollum as Guide +1 Corruption instead; a Hidden Fellowship forbids
    the play."""
    s = shadow_to_play(LURE, fellowship={"revealed": True, "guide": "gollum"},
                       characters=WITH_GOLLUM)
    play_card(s, LURE)
    assert s.corruption == 1 and fp_turn(s)
    assert not offered(shadow_to_play(LURE), LURE)


def test_breaking_separates_the_tiles_number_in_the_fellowships_region():
    """facts §6.4 #14: a 2 tile: the Free Peoples separate two Companions, who stay in the
    Fellowship's region; no Corruption."""
    s = shadow_to_play(BREAKING, fellowship={"revealed": True, "progress": 3},
                       tiles=["std-2r-1"])
    play_card(s, BREAKING)
    assert s.pending.player == FREE_PEOPLES
    play(s, ("character", ch("legolas")), ("character", ch("gimli")))
    fangorn = region("fangorn")
    assert s.char_at[ch("legolas")] == fangorn and s.char_at[ch("gimli")] == fangorn
    assert s.corruption == 0 and len(in_fellowship(s)) == 5


def test_breaking_eye_has_no_effect_and_gollum_corrupts():
    """facts §6.4 #14: an Eye does nothing; with Gollum as Guide +1 Corruption instead."""
    s = shadow_to_play(BREAKING, fellowship={"revealed": True}, tiles=["std-eye-2"])
    play_card(s, BREAKING)
    assert len(in_fellowship(s)) == 7 and fp_turn(s)
    s = shadow_to_play(BREAKING, fellowship={"revealed": True, "guide": "gollum"},
                       characters=WITH_GOLLUM)
    play_card(s, BREAKING)
    assert s.corruption == 1
    assert not offered(shadow_to_play(BREAKING), BREAKING)


def test_breaking_on_the_mordor_track_eliminates_and_ignores_stop():
    """facts §6.4 #14, §7.9: on the Track a separated Companion is eliminated instead; the
    tile's Stop icon is ignored (the figure does not move either way)."""
    s = shadow_to_play(BREAKING, fellowship={"revealed": True, "mordor_step": 2},
                       characters={c: "eliminated" for c in COMPANIONS[2:]},
                       hunt={"pool": ["on-on-they-went", "std-3-1"], "drawn": OTHERS},
                       tiles=["on-on-they-went"])
    play_card(s, BREAKING)
    play(s, ("character", ch("gandalf-the-grey")))  # two left for a 3: Strider goes too
    assert s.char_at[ch("strider")] == ELIMINATED
    assert s.char_at[ch("gandalf-the-grey")] == ELIMINATED
    assert s.mordor_step == 2 and s.guide == ch("gollum")


# ---------------------------------------------------------------------------------------------
# #15-#17: table cards in the Hunt and on the Fellowship's path

WORN, CREBAIN = "sh-char-15-worn-with-sorrow-and-toil", "sh-char-16-flocks-of-crebain"
BALROG = "sh-char-17-balrog-of-moria"
STAFF, ATHELAS = "fp-char-08-wizards-staff", "fp-char-09-athelas"
AT_WAR = {n: {"steps": 0, "active": True} for n in NATIONS}


def fp_moves(**spec: Any):
    """The Free Peoples move the Fellowship (from Fangorn) with a Character die."""
    fs = {"region": "fangorn", **spec.pop("fellowship", {})}
    state = build({"fellowship": fs, "dice": {"free_peoples": ["character", "character"],
                                              "shadow": ["event", "muster"]}, **spec})
    play(state, ("die", CHARACTER), ("action", "move-fellowship"))
    return state


@pytest.mark.parametrize("pick", ["random-card", "table"])
def test_worn_with_sorrow_discards_after_a_hunt_casualty(pick: str):
    """facts §6.4 #15, §7.8 step 4.3: Boromir is taken as a casualty; the Shadow then discards
    the FP Character card on the table, or one drawn at random from the FP hand (Athelas, the
    hand's only Character card: the Strategy card stays)."""
    s = fp_moves(table=[WORN, STAFF],
                 hands={"free_peoples": [ATHELAS, "fp-strat-01-the-last-battle"]},
                 hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=["std-3-1"],
                 companions=["boromir"])
    if s.pending.kind == WD.HUNT_TABLE_CARD:  # Wizard's Staff may stop the draw: not used
        play(s, NO)
    play(s, choice("random-companion"))
    assert s.pending.player == SHADOW and s.pending.kind == WD.EVENT_CHOICE
    assert set(s.pending.options) == {("card", card(STAFF)), choice("random-card"), NO}
    if pick == "table":
        play(s, ("card", card(STAFF)))
        assert card(STAFF) in s.discards[FREE_PEOPLES] and card(STAFF) not in s.table
    else:
        play(s, choice("random-card"))
        assert s.hands[FREE_PEOPLES] == [card("fp-strat-01-the-last-battle")]
        assert card(ATHELAS) in s.discards[FREE_PEOPLES]
    play(s, ("character", ch("gandalf-the-grey")))  # WD-05: the make-up changed
    assert s.corruption == 1 and check(s) == []


def test_worn_with_sorrow_asks_nothing_without_a_casualty():
    """facts §6.4 #15: no Companion taken, no discard asked (the Hunt ends, the Shadow acts)."""
    s = fp_moves(table=[WORN], hands={"free_peoples": [ATHELAS]}, hunt={"box": {"shadow": 1}},
                 rolls={"shadow": [6]}, tiles=["std-1-1"])
    play(s, NONE)
    assert s.pending.kind == WD.CHOOSE_DIE and s.pending.player == SHADOW
    assert card(WORN) in s.table and s.hands[FREE_PEOPLES] == [card(ATHELAS)]


@pytest.mark.parametrize("used", [True, False])
def test_flocks_of_crebain_adds_one_to_every_hunt_die(used: bool):
    """facts §6.4 #16, §7.8 step 1: before the roll the Shadow discards it: the 5 becomes a
    success; kept, the 5 fails."""
    s = fp_moves(table=[CREBAIN], hunt={"box": {"shadow": 1}}, rolls={"shadow": [5]},
                 tiles=["std-1-1"])
    assert s.pending.kind == WD.HUNT_TABLE_CARD and s.pending.player == SHADOW
    play(s, ("card", card(CREBAIN)) if used else NO)
    hits = next(e for e in reversed(s.log) if e[1] == "hunt-roll")[-1]
    assert hits == (1 if used else 0)
    assert (card(CREBAIN) in s.discards[SHADOW]) == used and (card(CREBAIN) in s.table) != used


def declare(path: list[str], **spec: Any):
    """Phase 2 of the next turn: the Free Peoples declare along ``path`` (from its first
    region), then DONE where a step is still possible."""
    fs = {"region": path[0], "progress": len(path) - 1, **spec.pop("fellowship", {})}
    s = build({"start": "turn", "fellowship": fs, **spec})
    while s.pending.kind == WD.DISCARD:
        play(s, s.pending.options[0])
    assert s.pending.kind == WD.DECLARE_FELLOWSHIP
    play(s, choice("declare"))
    for r in path[1:]:
        play(s, ("region", region(r)))
    return s


@pytest.mark.parametrize("home,kept", [("rivendell", False), ("trollshaws", True)])
def test_worn_and_crebain_go_when_declared_in_an_fp_stronghold(home: str, kept: bool):
    """facts §6.4 #15, #16: declared in Rivendell (an unconquered FP Stronghold) both cards
    are discarded; declared in the Trollshaws they stay."""
    s = declare(["fords-of-bruinen", home], table=[WORN, CREBAIN])
    for cid in (WORN, CREBAIN):
        assert (card(cid) in s.table) == kept and (card(cid) in s.discards[SHADOW]) != kept


def test_balrog_draws_a_tile_when_the_declaration_crosses_moria():
    """facts §6.4 #17: declared from Hollin through Moria to the Dimrill Dale: the Shadow
    discards the Balrog to draw a tile, a successful Hunt (2 damage, no casualty taken)."""
    s = declare(["hollin", "moria", "dimrill-dale"], table=[BALROG], tiles=["std-2-1"])
    assert s.pending.kind == WD.HUNT_TABLE_CARD and s.pending.context["when"] == "path"
    play(s, ("card", card(BALROG)))
    assert s.pending.kind == WD.HUNT_CASUALTY and s.pending.context["damage"] == 2
    play(s, NONE)
    assert s.corruption == 2 and card(BALROG) in s.discards[SHADOW]


def test_balrog_reveal_is_ignored_when_declared_in_an_fp_stronghold_and_eye_is_nothing():
    """facts §6.4 #17, §7.6: through Moria into Lórien (FP Stronghold): a Reveal tile does not
    reveal (healing first, then the tile's 1); an Eye has no effect."""
    s = declare(["hollin", "moria", "dimrill-dale", "lorien"], table=[BALROG],
                fellowship={"corruption": 2}, tiles=["std-1r-1"])
    play(s, ("card", card(BALROG)))
    play(s, NONE)
    assert s.corruption == 2 and not s.revealed
    s = declare(["hollin", "moria"], table=[BALROG], tiles=["std-eye-1"])
    play(s, ("card", card(BALROG)))
    assert s.corruption == 0 and not s.revealed and card(BALROG) in s.discards[SHADOW]


def test_balrog_is_not_offered_away_from_moria():
    """facts §6.4 #17: a path not touching Moria asks nothing; the card stays."""
    s = declare(["hollin", "fords-of-bruinen"], table=[BALROG])
    assert s.pending.kind != WD.HUNT_TABLE_CARD and card(BALROG) in s.table


def test_balrog_on_a_reveal_path_through_moria():
    """facts §6.4 #17, §7.6: a reveal path from Hollin into Moria (a Shadow Stronghold): the
    Balrog's tile comes before the Stronghold's tile."""
    s = fp_moves(fellowship={"region": "hollin"}, table=[BALROG], hunt={"box": {"shadow": 1}},
                 rolls={"shadow": [6]}, tiles=["std-0r-1", "std-1-1", "std-2-1"])
    assert s.revealed and s.pending.kind == WD.FELLOWSHIP_PATH
    play(s, ("region", region("moria")))
    assert s.pending.kind == WD.HUNT_TABLE_CARD and s.pending.player == SHADOW
    play(s, ("card", card(BALROG)))
    assert s.pending.context["damage"] == 1  # the Balrog's tile first (std-1-1)
    play(s, NONE)
    assert s.pending.context["damage"] == 2  # then Moria's Stronghold tile
    play(s, NONE)
    assert s.corruption == 3


# ---------------------------------------------------------------------------------------------
# #21, #22: Saruman's table cards

PALANTIR, WORMTONGUE = "sh-char-21-the-palantir-of-orthanc", "sh-char-22-wormtongue"
CANDLES = "sh-char-08-candles-of-corpses"
SARUMAN = {"saruman": "orthanc"}


@pytest.mark.parametrize("face,draws", [(EVENT, True), (CHARACTER, False)])
def test_palantir_draws_after_a_card_played_with_an_event_die(face: int, draws: bool):
    """facts §6.4 #21: with an Event die the Shadow may draw one more card (WD-37); with a
    Character die it may not."""
    s = shadow_to_play(CANDLES, face="event" if face == EVENT else "character",
                       table=[PALANTIR], characters=SARUMAN, rolls={"shadow": [1, 1, 1]})
    play_card(s, CANDLES, face)
    if draws:
        assert s.pending.kind == WD.EXTRA_DRAW and s.pending.player == SHADOW
        play(s, choice("deck-strategy"))
        assert len(s.hands[SHADOW]) == 1 and CARDS.events[s.hands[SHADOW][0]].deck \
            == "shadow-strategy"
    else:
        assert s.hands[SHADOW] == [] and fp_turn(s)


def test_palantir_and_wormtongue_need_saruman_and_go_with_him():
    """facts §6.4 #21, #22: not playable without Saruman in play; on the table, both are
    discarded when he is eliminated."""
    for cid in (PALANTIR, WORMTONGUE):
        assert not offered(shadow_to_play(cid), cid)
        assert offered(shadow_to_play(cid, characters=SARUMAN), cid)
    s = shadow_to_play(CANDLES, table=[PALANTIR, WORMTONGUE], characters=SARUMAN)
    eliminate_character(s, ch("saruman"))
    assert s.table == [] and {card(PALANTIR), card(WORMTONGUE)} <= set(s.discards[SHADOW])


@pytest.mark.parametrize("face,rings,allowed", [
    ("will_of_the_west", ["gone"] * 3, True), ("character", ["free_peoples", "gone", "gone"], True),
    ("character", ["gone"] * 3, False)])
def test_palantir_forced_discard(face: str, rings: list[str], allowed: bool):
    """facts §6.4 #21: the Free Peoples end it with a Will of the West die, or any die with
    an Elven Ring (the Ring goes to the Shadow); a plain die without a Ring cannot."""
    s = build({"table": [PALANTIR], "characters": SARUMAN, "rings": rings,
               "dice": {"free_peoples": [face], "shadow": ["event"]}})
    if s.pending.kind == WD.CHOOSE_DIE:  # (asked when a Ring could change the die)
        play(s, ("die", CHARACTER if face == "character" else WILL))
    actions = {a[1] for a in s.pending.options} if s.pending.kind == WD.DIE_ACTION else set()
    assert ("discard-palantir" in actions) == allowed
    if allowed:
        play(s, ("action", "discard-palantir"))
        assert card(PALANTIR) in s.discards[SHADOW] and s.table == []
        assert list(s.rings) == ([SHADOW, 2, 2] if face == "character" else [2, 2, 2])


def test_wormtongue_an_army_entering_rohan_does_not_activate_it():
    """facts §6.4 #22, §7.5: an Isengard Army entering the Fords of Isen (a Rohan region)
    would activate Rohan; with Wormtongue it does not, and the card stays."""
    for with_card in (False, True):
        s = build({"to_act": "shadow", "dice": {"shadow": ["army"]}, "politics": AT_WAR
                   | {"rohan": {"steps": 3, "active": False}},
                   "armies": {"orthanc": {"isengard": {"regular": 2}}}, "characters": SARUMAN,
                   "table": [WORMTONGUE] if with_card else []})
        play(s, ("action", "move-armies"))
        play(s, ("edge", region("orthanc"), region("fords-of-isen")), choice("all"))
        assert bool(s.active[ROHAN]) != with_card
        assert (card(WORMTONGUE) in s.table) == with_card


def test_wormtongue_a_companion_activates_rohan_and_the_card_goes():
    """facts §6.4 #22: Meriadoc (activates any nation) ends his move in Edoras: Rohan is
    activated and Wormtongue discarded."""
    s = build({"dice": {"free_peoples": ["character"], "shadow": ["event"]},
               "characters": {**SARUMAN, "meriadoc": "westemnet"}, "table": [WORMTONGUE]})
    play(s, ("die", CHARACTER), ("action", "move-companions"), ("character", ch("meriadoc")),
         ("region", region("edoras")))
    assert s.active[ROHAN] and card(WORMTONGUE) in s.discards[SHADOW]


@pytest.mark.parametrize("target,activated", [("westemnet", False), ("edoras", True)])
def test_wormtongue_only_an_attack_on_edoras_or_helms_deep_activates(target: str,
                                                                     activated: bool):
    """facts §6.4 #22, §7.5: Rohan's Army attacked in Westemnet moves one step but stays
    Passive; attacked in Edoras it is activated (and the card goes)."""
    src = "fords-of-isen" if target == "westemnet" else "folde"
    s = build({"to_act": "shadow", "dice": {"shadow": ["army"]}, "rings": ["gone"] * 3,
               "politics": AT_WAR | {"rohan": {"steps": 3, "active": False}},
               "armies": {src: {"isengard": {"regular": 3}}, target: {"rohan": {"regular": 1}}},
               "characters": SARUMAN, "table": [WORMTONGUE]})
    play(s, ("action", "attack"))
    if s.pending.kind == WD.ATTACK_TARGET:
        play(s, ("edge", region(src), region(target)))
    while s.pending.kind == WD.REARGUARD:
        play(s, DONE)
    assert bool(s.active[ROHAN]) == activated and s.politics[ROHAN] == 2
    assert (card(WORMTONGUE) in s.table) != activated


# ---------------------------------------------------------------------------------------------
# #19 Dreadful Spells, #20 Grond

SPELLS, GROND = "sh-char-19-dreadful-spells", "sh-char-20-grond-hammer-of-the-underworld"
GONDOR = NATIONS.index("gondor")
SHIELD = "fp-strat-06-faramirs-rangers"  # Combat: Shield-wall, no condition


def test_dreadful_spells_hits_an_adjacent_army_and_is_no_attack():
    """facts §6.4 #19, §3.4: 2 Nazgûl and the Witch-king: 3 dice, the 5 and the 6 hit the
    Gondor Army next door (2 Regulars lost); Gondor is neither activated nor advanced."""
    s = shadow_to_play(SPELLS, armies={"osgiliath": {"sauron": {"regular": 1, "nazgul": 2}},
                                       "minas-tirith": {"gondor": {"regular": 3}}},
                       characters={"witch-king": "osgiliath"}, rolls={"shadow": [5, 6, 4]})
    steps, active = int(s.politics[GONDOR]), bool(s.active[GONDOR])
    play_card(s, SPELLS)
    assert s.army[region("minas-tirith"), GONDOR, 0] == 1
    assert s.politics[GONDOR] == steps and bool(s.active[GONDOR]) == active


def test_dreadful_spells_may_hit_a_besieged_garrison():
    """facts §6.4 #19: the besiegers' Nazgûl hit the Army in Minas Tirith's box."""
    s = shadow_to_play(SPELLS, armies={"minas-tirith": {"sauron": {"regular": 2, "nazgul": 1}}},
                       boxes={"minas-tirith": {"gondor": {"regular": 2}}},
                       rolls={"shadow": [5]})
    play_card(s, SPELLS)
    assert s.box[region("minas-tirith"), GONDOR, 0] == 1


def test_dreadful_spells_needs_nazgul_with_an_army_near_an_fp_army():
    """facts §6.4 #19: Nazgûl alone, or an Army two regions away, do not allow the play."""
    assert not offered(shadow_to_play(SPELLS, armies={
        "osgiliath": {"sauron": {"nazgul": 2}}, "minas-tirith": {"gondor": {"regular": 3}}}),
        SPELLS)
    assert not offered(shadow_to_play(SPELLS, armies={
        "north-ithilien": {"sauron": {"regular": 1, "nazgul": 2}},
        "minas-tirith": {"gondor": {"regular": 3}}}), SPELLS)


def grond_position(**characters: str):
    """The Witch-king with a Shadow Army besieging Minas Tirith; the Free Peoples hold a card
    whose Combat effect has no condition (Shield-wall), every roll a miss."""
    return shadow_to_play(GROND, armies={"minas-tirith": {"sauron": {"regular": 4}}},
                          boxes={"minas-tirith": {"gondor": {"regular": 2}}},
                          characters={"witch-king": "minas-tirith", **characters},
                          politics=AT_WAR, rings=["gone"] * 3, hands={"free_peoples": [SHIELD]},
                          rolls={"shadow": [1] * 20, "free_peoples": [1] * 20})


def to_fp_combat_card(s) -> None:
    while s.pending.kind == WD.REARGUARD:
        play(s, DONE)
    assert s.pending.kind == WD.COMBAT_CARD and s.pending.player == SHADOW
    play(s, NONE)
    assert s.pending.kind == WD.COMBAT_CARD and s.pending.player == FREE_PEOPLES


def test_grond_siege_of_three_rounds_without_fp_combat_card_in_round_one():
    """facts §6.4 #20, §7.3: the Witch-king's Army attacks the Stronghold it besieges; in
    round 1 the Free Peoples (no Companion in the battle) may play no Combat card; the siege
    battle goes on after round 1 without the extension question, and in round 2 they may."""
    s = grond_position()
    play_card(s, GROND)
    to_fp_combat_card(s)
    assert s.pending.options == (NONE,)
    play(s, NONE)
    assert s.pending.kind == WD.CEASE_OR_CONTINUE  # not WD-20: 3 rounds, not 1
    play(s, choice("continue"))
    to_fp_combat_card(s)
    assert ("card", card(SHIELD)) in s.pending.options


def test_grond_a_companion_in_the_battle_lifts_the_ban():
    """facts §6.4 #20: Boromir in the besieged box: the Free Peoples may play a card."""
    s = grond_position(boromir="minas-tirith")
    s.char_in_box[ch("boromir")] = True  # (the scenario places characters in the field)
    play_card(s, GROND)
    to_fp_combat_card(s)
    assert ("card", card(SHIELD)) in s.pending.options


def test_grond_needs_the_witch_king_besieging():
    """facts §6.4 #20: the Witch-king elsewhere, or no siege, forbids the play."""
    s = shadow_to_play(GROND, armies={"minas-tirith": {"sauron": {"regular": 4}}},
                       boxes={"minas-tirith": {"gondor": {"regular": 2}}},
                       characters={"witch-king": "osgiliath"}, politics=AT_WAR)
    assert not offered(s, GROND)
    s = shadow_to_play(GROND, armies={"osgiliath": {"sauron": {"regular": 4}}},
                       characters={"witch-king": "osgiliath"}, politics=AT_WAR)
    assert not offered(s, GROND)


# ---------------------------------------------------------------------------------------------
# #23 The Ringwraiths Are Abroad, #24 The Black Captain Commands

ABROAD, CAPTAIN = "sh-char-23-the-ringwraiths-are-abroad", "sh-char-24-the-black-captain-commands"


def test_ringwraiths_abroad_moves_nazgul_then_two_armies_with_nazgul():
    """facts §6.4 #23: the Nazgûl fly first; then only Armies holding a Nazgûl move (the one
    in Dagorlad has none), and the moving part keeps its Nazgûl."""
    s = shadow_to_play(ABROAD, politics=AT_WAR, armies={
        "dol-guldur": {"sauron": {"nazgul": 1}},
        "north-ithilien": {"sauron": {"regular": 2, "nazgul": 1}},
        "dagorlad": {"sauron": {"regular": 2}}})
    play_card(s, ABROAD)
    play(s, ("region", region("dol-guldur")), ("region", region("dagorlad")), DONE)
    assert s.pending.kind == WD.ARMY_MOVE
    sources = {a[1] for a in s.pending.options if a[0] == "edge"}
    assert sources == {region("north-ithilien"), region("dagorlad")}  # Dagorlad has one now
    play(s, ("edge", region("north-ithilien"), region("south-ithilien")), choice("part"))
    # only a Regular may stay (never the Nazgûl), and one must go: played without asking
    assert s.army[region("south-ithilien"), SAURON].tolist() == [1, 0, 0, 1]
    assert s.army[region("north-ithilien"), SAURON].tolist() == [1, 0, 0, 0]
    play(s, ("edge", region("dagorlad"), region("noman-lands")), choice("all"))
    assert s.army[region("noman-lands"), SAURON].tolist() == [2, 0, 0, 1] and fp_turn(s)


def test_ringwraiths_abroad_attack_keeps_the_nazgul_fighting():
    """facts §6.4 #23: the Army with a Nazgûl attacks; the Nazgûl cannot be held back."""
    s = shadow_to_play(ABROAD, politics=AT_WAR, rings=["gone"] * 3, armies={
        "osgiliath": {"sauron": {"regular": 3, "nazgul": 1}},
        "minas-tirith": {"gondor": {"regular": 1}}, "dagorlad": {"sauron": {"regular": 2}}})
    play_card(s, ABROAD)
    play(s, DONE)  # no Nazgûl flies
    assert set(s.pending.options) == {choice("move"), choice("attack")}
    play(s, choice("attack"))
    assert s.pending.kind == WD.REARGUARD and ("unit", SAURON, NAZGUL) not in s.pending.options


def test_black_captain_recruits_two_nazgul_then_moves_the_witch_kings_army():
    """facts §6.4 #24: 2 Nazgûl join the Witch-king; then his Army moves, and he may not be
    left behind."""
    s = shadow_to_play(CAPTAIN, politics=AT_WAR, characters={"witch-king": "north-ithilien"},
                       armies={"north-ithilien": {"sauron": {"regular": 2}},
                               "dagorlad": {"sauron": {"regular": 2}}})
    play_card(s, CAPTAIN)
    assert set(s.pending.options) == {choice("recruit"), choice("move")}
    play(s, choice("recruit"))
    assert s.army[region("north-ithilien"), SAURON, NAZGUL] == 2
    assert set(s.pending.options) == {choice("move"), NO}
    play(s, choice("move"))
    assert {a[1] for a in s.pending.options if a[0] == "edge"} == {region("north-ithilien")}
    play(s, ("edge", region("north-ithilien"), region("south-ithilien")), choice("part"))
    assert ("character", ch("witch-king")) not in s.pending.options
    play(s, ("unit", SAURON, 0), DONE)
    assert s.char_at[ch("witch-king")] == region("south-ithilien") and fp_turn(s)


def test_black_captain_needs_the_witch_king():
    """facts §6.4 #24: not playable while the Witch-king is not in play."""
    assert not offered(shadow_to_play(CAPTAIN), CAPTAIN)
