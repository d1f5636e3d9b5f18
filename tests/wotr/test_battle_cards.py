"""Combat cards in a battle: the secret choice of both sides every round (WD-15), the held card,
its discard, the effect registry and the order of resolution: initiative in the 2nd edition,
the defender's first in the 1st (spec §7.6, §20 #24-#25; facts §6.1, §7.2, §8.4).

The effects themselves are in ``engine/cards/combat_*`` (tested in ``test_cards_combat*``):
here stand-in effects, registered for the test with ``monkeypatch``, record when they are
called and change the round's fields."""

from __future__ import annotations

import pytest

from wotr_env.engine import WD, play
from wotr_env.engine.battle import combat_cards as bc
from wotr_env.engine.battle.round import with_side
from wotr_env.engine.decision import choice
from wotr_env.engine.invariants import check
from wotr_env.engine.state import FREE_PEOPLES, SHADOW

from .test_battle_setup import NONE, battle_state, edge, events, kind, options, start

# cards and their Combat effects (facts §6.1): initiatives in brackets
SWARM = "sh-strat-09-the-shadow-is-moving"  # swarm-of-bats (0)
CHARGE = "fp-strat-13-cirdans-ships"  # charge (2)
DESPERATE = "sh-strat-22-monsters-roused"  # desperate-battle (3)
DAYLIGHT = "fp-strat-01-the-last-battle"  # daylight (3)
MUMAKIL = "sh-strat-07-shadows-gather"  # mumakil (3 and 5)
ONSLAUGHT = "sh-strat-02-the-fighting-uruk-hai"  # onslaught (7)
VALOUR = "fp-strat-22-dain-ironfoots-guard"  # valour (3)
CONFUSION = "fp-strat-08-wisdom-of-elrond"  # confusion (4)


def fight(hands, rolls=None, ruleset="2e"):
    """The Shadow (north-ithilien) attacks the Free Peoples (osgiliath); stops at WD-15."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 3}},
                      "north-ithilien": {"sauron": {"regular": 3}}}, hands=hands,
                     rolls=rolls or {"shadow": [1] * 10, "free_peoples": [1] * 10},
                     ruleset=ruleset)
    return start(s, edge(s, "north-ithilien", "osgiliath"))


def card(state, cid: str) -> int:
    return state.ruleset.cards.card(cid)


@pytest.fixture
def recorder(monkeypatch):
    """Stand-in effects that log (side, effect id, part, whether the Combat roll was made),
    playable whatever their real condition (these tests are about timing)."""
    calls: list[tuple] = []

    def register(effect_id, fn=None):
        def effect(state, battle, rnd, side, part):
            calls.append((side, effect_id, part, bool(rnd.rolled[SHADOW]), bool(rnd.rerolled[
                SHADOW] or rnd.rerolled[FREE_PEOPLES]), bool(events(state, "casualty"))))
            if fn:
                fn(state, battle, rnd, side, part)
        monkeypatch.setitem(bc.COMBAT_EFFECTS, effect_id, effect)
        monkeypatch.setitem(bc.COMBAT_CONDITIONS, effect_id, lambda *a: True)  # (the timing)

    register.calls = calls
    return register


def test_both_sides_are_asked_secretly_even_with_no_card():
    """spec §7.6, facts §7.2, issue 27: every round the attacker then the defender choose a
    Combat card or none, secretly, even with an empty hand."""
    s = fight({})
    assert kind(s) == WD.COMBAT_CARD and s.pending.player == SHADOW and s.pending.secret
    assert options(s) == (NONE,)
    play(s, NONE)
    assert kind(s) == WD.COMBAT_CARD and s.pending.player == FREE_PEOPLES and s.pending.secret
    play(s, NONE)
    assert events(s, "combat-roll")


def test_chosen_card_is_held_then_discarded_face_up():
    """spec §7.6, facts §7.2: the chosen card leaves the hand at once (held by the round, every
    card still counted once) and is discarded face up when the round ends."""
    s = fight({"shadow": [DESPERATE, ONSLAUGHT], "free_peoples": [DAYLIGHT]})
    d, o, day = card(s, DESPERATE), card(s, ONSLAUGHT), card(s, DAYLIGHT)
    assert set(options(s)) == {("card", d), ("card", o), NONE}
    play(s, ("card", d))
    assert d not in s.hands[SHADOW] and check(s) == []
    assert set(options(s)) == {("card", day), NONE}
    play(s, NONE)
    assert s.discards[SHADOW] == [d] and s.hands[SHADOW] == [o]
    assert ("combat-card", SHADOW, d) in events(s, "combat-card")
    assert check(s) == []


def test_every_effect_is_registered_and_a_missing_one_is_no_effect(monkeypatch):
    """facts §6.1, issue 27 item 3 (a registry test): every Combat effect of the data has its
    function (``bc.unregistered`` is empty); an effect without one would still be playable and
    resolve as no effect (here Valour's removed for the test)."""
    s = fight({"free_peoples": [VALOUR]},
              rolls={"shadow": [1, 1, 1], "free_peoples": [4, 4, 4]})
    assert bc.unregistered(s) == []
    assert {e.id for e in s.ruleset.cards.combat} <= set(bc.COMBAT_EFFECTS)
    monkeypatch.delitem(bc.COMBAT_EFFECTS, "valour")
    monkeypatch.delitem(bc.COMBAT_CONDITIONS, "valour")
    assert bc.unregistered(s) == ["valour"]
    play(s, NONE, ("card", card(s, VALOUR)))
    assert events(s, "combat-roll")[1] == ("combat-roll", FREE_PEOPLES, (4, 4, 4), 0)
    assert ("combat-effect-unimplemented", FREE_PEOPLES, "valour") in events(
        s, "combat-effect-unimplemented")


def test_effect_changes_the_round(recorder):
    """facts §6.1 (Valour: +1 to the Combat roll), through the hook's round fields."""
    recorder("valour", lambda st, b, rnd, side, part: setattr(
        rnd, "roll_mod", with_side(rnd.roll_mod, side, rnd.roll_mod[side] + 1)))
    s = fight({"free_peoples": [VALOUR]},
              rolls={"shadow": [1, 1, 1], "free_peoples": [4, 4, 3]})
    play(s, NONE, ("card", card(s, VALOUR)))
    assert events(s, "combat-roll")[1] == ("combat-roll", FREE_PEOPLES, (4, 4, 3), 2)


def test_initiative_order_2e(recorder):
    """facts §7.2, §6.1: lower initiative first, whoever attacks: the attacker's Swarm of Bats
    (0) before the defender's Charge (2); both before the Combat roll."""
    recorder("swarm-of-bats")
    recorder("charge")
    s = fight({"shadow": [SWARM], "free_peoples": [CHARGE]})
    play(s, ("card", card(s, SWARM)), ("card", card(s, CHARGE)))
    assert [c[:2] for c in recorder.calls] == [(SHADOW, "swarm-of-bats"), (FREE_PEOPLES, "charge")]
    assert not any(c[3] for c in recorder.calls)


def test_tie_goes_to_the_defender_2e(recorder):
    """facts §7.2: equal initiative: the defender's card first."""
    recorder("desperate-battle")
    recorder("daylight")
    s = fight({"shadow": [DESPERATE], "free_peoples": [DAYLIGHT]})
    play(s, ("card", card(s, DESPERATE)), ("card", card(s, DAYLIGHT)))
    assert [c[:2] for c in recorder.calls] == [(FREE_PEOPLES, "daylight"),
                                               (SHADOW, "desperate-battle")]


def test_defender_first_1e(recorder):
    """facts §8.4, spec §7.6, §20 #24: the 1st edition has no initiative: of two cards acting
    at the same step the defender's goes first (Charge before Swarm of Bats here)."""
    recorder("swarm-of-bats")
    recorder("charge")
    s = fight({"shadow": [SWARM], "free_peoples": [CHARGE]}, ruleset="1e")
    assert kind(s) == WD.COMBAT_CARD and not s.pending.secret  # 1e: say yes or no first
    play(s, choice("yes"), choice("yes"))
    assert s.pending.secret and s.pending.player == SHADOW
    assert options(s) == (("card", card(s, SWARM)),)  # having said yes, a card
    play(s, ("card", card(s, SWARM)), ("card", card(s, CHARGE)))
    assert [c[:2] for c in recorder.calls] == [(FREE_PEOPLES, "charge"), (SHADOW, "swarm-of-bats")]


def test_1e_saying_no_skips_the_choice():
    """spec §7.6: in the 1st edition a side that says no chooses no card; with no playable
    card "no" is its only answer, and it is still asked (private: whether it has a card must
    not show in whether it is asked, issue 28 "Hidden information")."""
    s = fight({"shadow": [SWARM]}, ruleset="1e")
    play(s, choice("no"))  # the Shadow says no
    assert s.pending.player == FREE_PEOPLES and s.pending.options == (choice("no"),)
    play(s, choice("no"))  # the Free Peoples have no card: "no" is their only answer
    assert events(s, "combat-roll") and s.discards == [[], []]
    assert ("combat-card-declared", SHADOW, "no") in events(s, "combat-card-declared")


def test_effects_at_their_step(recorder):
    """facts §6.1: initiative 3 acts before the roll, 4 after the roll and before the re-roll,
    5-6 after the re-roll, 7 after casualties; Mûmakil acts at 3 and at 5."""
    recorder("mumakil")
    recorder("confusion")
    s = battle_state({"osgiliath": {"gondor": {"regular": 3, "leader": 1}},
                      "north-ithilien": {"sauron": {"regular": 3}}},
                     hands={"shadow": [MUMAKIL], "free_peoples": [CONFUSION]},
                     rolls={"shadow": [6, 1, 1], "free_peoples": [1, 1, 1, 1]})
    start(s, edge(s, "north-ithilien", "osgiliath"))
    play(s, ("card", card(s, MUMAKIL)), ("card", card(s, CONFUSION)))
    calls = recorder.calls
    assert [c[:3] for c in calls] == [(SHADOW, "mumakil", 0), (FREE_PEOPLES, "confusion", 0),
                                      (SHADOW, "mumakil", 1)]
    assert [c[3:5] for c in calls] == [(False, False), (True, False), (True, True)]


def test_after_casualties(recorder):
    """facts §6.1: an initiative-7 effect acts after the casualties are removed."""
    recorder("onslaught")
    s = fight({"shadow": [ONSLAUGHT]}, rolls={"shadow": [6, 1, 1], "free_peoples": [1] * 3})
    play(s, ("card", card(s, ONSLAUGHT)), NONE)
    assert recorder.calls[0][5]  # a casualty was logged before it


def test_cancelled_card_skips_its_effects(recorder):
    """facts §6.1 (Swarm of Bats, Daring Defiance cancel the other card): a cancelled card's
    later effects are not resolved."""
    recorder("swarm-of-bats", lambda st, b, rnd, side, part: setattr(
        rnd, "cancelled", with_side(rnd.cancelled, 1 - side, True)))
    recorder("charge")
    s = fight({"shadow": [SWARM], "free_peoples": [CHARGE]})
    play(s, ("card", card(s, SWARM)), ("card", card(s, CHARGE)))
    assert [c[:2] for c in recorder.calls] == [(SHADOW, "swarm-of-bats")]


def test_condition_limits_the_cards_offered(monkeypatch):
    """spec §7.6, facts §6.1: a card whose condition does not hold cannot be played."""
    monkeypatch.setitem(bc.COMBAT_CONDITIONS, "charge", lambda st, b, side: False)
    s = fight({"free_peoples": [CHARGE, DAYLIGHT]})
    play(s, NONE)
    assert set(options(s)) == {("card", card(s, DAYLIGHT)), NONE}


def test_registering_twice_is_an_error(monkeypatch):
    """A Combat effect has one function (the registry keyed by effect id)."""
    monkeypatch.setattr(bc, "COMBAT_EFFECTS", {})
    bc.combat_effect("charge")(lambda *a: None)
    with pytest.raises(ValueError, match="registered twice"):
        bc.combat_effect("charge")(lambda *a: None)
