"""The first Event cards (facts §6.2-§6.5): each fires as its text says, and one with a
precondition is not offered when it fails (spec §7.3: an unmet precondition forbids the play).
"""

from __future__ import annotations

import pytest

from wotr_env.data import load_ruleset
from wotr_env.engine import build, play
from wotr_env.engine.decision import CHARACTER, EVENT, EYE, WD, WILL
from wotr_env.engine.events import playable

CARDS = load_ruleset("2e").cards


def card(cid: str) -> int:
    return CARDS.card(cid)


def at_play(hand: dict[str, list[str]], dice: dict[str, list[str]], **spec: object):
    """A position where ``to_act`` (default the Free Peoples) chooses a die; a side given no
    dice gets two Event dice, so that the turn does not end under the test."""
    dice = {"free_peoples": ["event", "event"], "shadow": ["event", "event"], **dice}
    state = build({"hands": hand, "dice": dice, **spec})
    assert state.pending.kind in (WD.CHOOSE_DIE, WD.DIE_ACTION) and state.turn == 1
    return state


def play_event(state, face: int, cid: str) -> None:
    """Choose the die, the play-event action and the card, each where it is asked (a
    decision with one option is played without asking)."""
    for kind, action in ((WD.CHOOSE_DIE, ("die", face)),
                         (WD.DIE_ACTION, ("action", "play-event")),
                         (WD.PLAY_EVENT, ("card", card(cid)))):
        if state.pending.kind == kind:
            play(state, action)
    if state.pending is not None and state.pending.kind == WD.EXTRA_DRAW:
        play(state, ("choice", "no"))
    assert card(cid) not in state.hands[0] + state.hands[1]


@pytest.mark.parametrize("cid,tile", [
    ("fp-char-01-elven-cloaks", "elven-cloaks"), ("sh-char-02-the-ring-is-mine",
                                                  "the-ring-is-mine")])
def test_a_special_tile_card_puts_its_tile_in_play_then_into_the_pool_on_the_mordor_track(
        cid: str, tile: str) -> None:
    """facts §4.2, §6.2 #1-4, §6.4 #1-4, §7.9: off the Mordor Track the tile waits among the
    special tiles in play; on it, the tile goes straight into the Hunt Pool."""
    side = "free_peoples" if cid.startswith("fp") else "shadow"
    t = next(i for i, x in enumerate(CARDS.tiles) if x.card == cid)
    s = at_play({side: [cid]}, {side: ["event"]}, to_act=side)
    play_event(s, EVENT, cid)
    assert s.specials_in_play == [t] and t not in s.hunt_pool
    s = at_play({side: [cid]}, {side: ["event"]}, to_act=side, fellowship={"mordor_step": 2})
    play_event(s, EVENT, cid)
    assert t in s.hunt_pool and s.specials_in_play == []
    assert card(cid) in s.discards[0 if side == "free_peoples" else 1]


def test_a_card_is_played_by_its_own_icon_or_an_event_die_not_by_another_face() -> None:
    """spec §7.3, issue 27 item 2 (a card's icon by card, not deck): Wisdom of Elrond is a
    Muster-icon card of the Strategy deck; an Army die cannot play it, a Muster die can."""
    s = at_play({"free_peoples": ["fp-strat-08-wisdom-of-elrond", "fp-strat-01-the-last-battle"]},
                {"free_peoples": ["muster", "event", "will_of_the_west"]})
    wisdom, last_battle = card("fp-strat-08-wisdom-of-elrond"), card("fp-strat-01-the-last-battle")
    assert CARDS.event_icon[wisdom] == 2 and CARDS.event_icon[last_battle] == 1
    assert playable(s, 0, 2) == [wisdom]  # Muster die: not the Army-icon card
    assert playable(s, 0, 1) == []  # Army face: the Army card has no effect registered yet
    assert wisdom in playable(s, 0, EVENT) and wisdom in playable(s, 0, WILL)


def test_wisdom_of_elrond_activates_and_advances_the_chosen_nation() -> None:
    """facts §6.3 #8, §7.5: Rohan (Passive, 3 steps) becomes Active and moves to 2 steps."""
    s = at_play({"free_peoples": ["fp-strat-08-wisdom-of-elrond"]}, {"free_peoples": ["muster"]})
    rohan = 4
    assert not s.active[rohan] and s.politics[rohan] == 3
    play_event(s, 2, "fp-strat-08-wisdom-of-elrond")
    assert s.pending.kind == WD.EVENT_CHOICE
    play(s, ("nation", rohan))
    assert s.active[rohan] and s.politics[rohan] == 2


@pytest.mark.parametrize("guide,rolls,healed", [
    ("gandalf-the-grey", [5, 4, 3], 1), ("strider", [5, 4, 3], 3), ("strider", [2, 2, 6], 1)])
def test_athelas_heals_per_5_or_per_3_with_strider_as_guide(guide: str, rolls: list[int],
                                                            healed: int) -> None:
    """facts §6.2 #9: 3 dice, one Corruption per 5+; with Strider as Guide per 3+."""
    s = at_play({"free_peoples": ["fp-char-09-athelas"]}, {"free_peoples": ["character"]},
                fellowship={"corruption": 5, "guide": guide}, rolls={"free_peoples": rolls})
    play_event(s, CHARACTER, "fp-char-09-athelas")
    assert s.corruption == 5 - healed


@pytest.mark.parametrize("guide,corruption,after", [
    ("gandalf-the-grey", 3, 2), ("gollum", 3, 1), ("gollum", 1, 0)])
def test_bilbos_song_heals_one_or_two_with_gollum_never_below_zero(guide: str, corruption: int,
                                                                  after: int) -> None:
    """facts §6.2 #12, §7.10 (never below 0)."""
    chars = {"gandalf-the-grey": "fellowship"} if guide != "gollum" else {
        c: "eliminated" for c in ("gandalf-the-grey", "strider", "boromir", "legolas", "gimli",
                                  "meriadoc", "peregrin")}
    if guide == "gollum":
        chars["gollum"] = "fellowship"
    s = at_play({"free_peoples": ["fp-char-12-bilbos-song"]}, {"free_peoples": ["character"]},
                fellowship={"corruption": corruption, "guide": guide}, characters=chars)
    play_event(s, CHARACTER, "fp-char-12-bilbos-song")
    assert s.corruption == after


@pytest.mark.parametrize("region,heal", [("lorien", 1), ("rivendell", 0)])
def test_mirror_of_galadriel_turns_a_character_die_into_will_and_heals_in_lorien(
        region: str, heal: int) -> None:
    """facts §6.2 #13."""
    s = at_play({"free_peoples": ["fp-char-13-mirror-of-galadriel"]},
                {"free_peoples": ["event", "character"], "shadow": ["army", "army"]},
                fellowship={"region": region, "corruption": 4})
    play_event(s, EVENT, "fp-char-13-mirror-of-galadriel")
    assert sorted(f for f in s.dice[0] if f >= 0) == [WILL]
    assert s.corruption == 4 - heal


@pytest.mark.parametrize("guide,rolls,gained", [
    ("gandalf-the-grey", [4, 3, 6], 2), ("gollum", [4, 5, 6], 1)])
def test_candles_of_corpses_corrupts_per_4_or_per_6_with_gollum(guide: str, rolls: list[int],
                                                               gained: int) -> None:
    """facts §6.4 #8."""
    chars = {}
    if guide == "gollum":
        chars = {c: "eliminated" for c in ("gandalf-the-grey", "strider", "boromir", "legolas",
                                           "gimli", "meriadoc", "peregrin")}
        chars["gollum"] = "fellowship"
    s = at_play({"shadow": ["sh-char-08-candles-of-corpses"]}, {"shadow": ["character"]},
                to_act="shadow", fellowship={"region": "fangorn", "guide": guide},
                characters=chars, rolls={"shadow": rolls})
    play_event(s, CHARACTER, "sh-char-08-candles-of-corpses")
    assert s.corruption == gained


def test_candles_of_corpses_is_not_playable_at_a_free_peoples_settlement() -> None:
    """facts §6.4 #5-#8: the Fellowship in Rivendell (an FP Stronghold) forbids the play."""
    s = at_play({"shadow": ["sh-char-08-candles-of-corpses"]}, {"shadow": ["character"]},
                to_act="shadow", fellowship={"region": "rivendell"})
    assert playable(s, 1, CHARACTER) == []


@pytest.mark.parametrize("corruption,after", [(3, 5), (4, 5)])
def test_morgul_wound_adds_two_up_to_three_else_one(corruption: int, after: int) -> None:
    """facts §6.4 #12."""
    s = at_play({"shadow": ["sh-char-12-morgul-wound"]}, {"shadow": ["character"]},
                to_act="shadow", fellowship={"revealed": True, "corruption": corruption})
    play_event(s, CHARACTER, "sh-char-12-morgul-wound")
    assert s.corruption == after


def test_morgul_wound_needs_a_revealed_fellowship() -> None:
    """facts §6.4 #12 (precondition)."""
    s = at_play({"shadow": ["sh-char-12-morgul-wound"]}, {"shadow": ["character"]},
                to_act="shadow")
    assert playable(s, 1, CHARACTER) == []


def test_cruel_weather_moves_the_fellowship_to_an_adjacent_region_of_the_shadows_choice() -> None:
    """facts §6.4 #10 (precondition Progress >= 1)."""
    s = at_play({"shadow": ["sh-char-10-cruel-weather"]}, {"shadow": ["character"]},
                to_act="shadow", fellowship={"progress": 0})
    assert playable(s, 1, CHARACTER) == []
    s = at_play({"shadow": ["sh-char-10-cruel-weather"]}, {"shadow": ["character"]},
                to_act="shadow", fellowship={"progress": 2})
    play_event(s, CHARACTER, "sh-char-10-cruel-weather")
    board = s.ruleset.board
    target = int(board.neighbours[board.region("rivendell")][0])
    play(s, ("region", target))
    assert s.fellowship_region == target and s.progress == 2


def test_the_lidless_eye_turns_up_to_three_dice_into_eyes() -> None:
    """facts §6.4 #18: each chosen die goes to the Hunt Box as an Eye; at most three."""
    s = at_play({"shadow": ["sh-char-18-the-lidless-eye"]},
                {"shadow": ["character", "army", "army", "muster", "event"]}, to_act="shadow")
    play_event(s, CHARACTER, "sh-char-18-the-lidless-eye")
    play(s, ("die", 1), ("die", 1), ("die", 2))
    assert s.hunt_box[1] == 3 and sorted(f for f in s.dice[1] if f >= 0) == [4]
    s = at_play({"shadow": ["sh-char-18-the-lidless-eye"]},
                {"shadow": ["character", "army", "muster"]}, to_act="shadow")
    play_event(s, CHARACTER, "sh-char-18-the-lidless-eye")
    play(s, ("die", 1), ("done",))
    assert s.hunt_box[1] == 1 and sorted(f for f in s.dice[1] if f >= 0) == [2]
    assert EYE == 6


def test_the_day_without_dawn_discards_unused_will_of_the_west_dice_when_all_at_war() -> None:
    """facts §6.5 #4 (precondition: every Shadow nation At War)."""
    spec = {"hands": {"shadow": ["sh-strat-04-the-day-without-dawn"]},
            "dice": {"shadow": ["army"], "free_peoples": ["will_of_the_west", "will_of_the_west",
                                                          "muster"]},
            "to_act": "shadow"}
    s = build(spec)
    assert playable(s, 1, 1) == []  # Southrons 2 steps, Isengard and Sauron 1: not At War
    s = build({**spec, "politics": {n: {"steps": 0} for n in ("isengard", "sauron",
                                                             "southrons")}})
    play_event(s, 1, "sh-strat-04-the-day-without-dawn")
    assert sorted(f for f in s.dice[0] if f >= 0) == [2]
