"""Combat effects that change the rolls (facts §6.1), the registry of all 38, and the helpers
of the other ``test_cards_combat_*`` files.

Each effect is played from a card of its deck in a battle with scripted rolls, and its outcome
(the dice rolled, the hits, the casualties) is the card's text; where it has a condition, the
card is not offered when it fails (spec §7.6: "some Combat cards have preconditions").
The default battle: the Shadow attacks from North Ithilien into South Ithilien (no Settlement,
no nation: the attacker hits on 5+).
"""

from __future__ import annotations

from typing import Any

from wotr_env.data import load_ruleset
from wotr_env.engine import WD, play
from wotr_env.engine.battle import combat_cards as bc
from wotr_env.engine.battle.forces import battle_of
from wotr_env.engine.decision import choice
from wotr_env.engine.invariants import check
from wotr_env.engine.state import FREE_PEOPLES, SHADOW

from .test_battle_setup import NONE, battle_state, edge, events, figures, kind, options, start

CARDS = load_ruleset("2e").cards


def carrying(effect: str) -> str:
    """The first card (by deck and number) whose Combat effect is ``effect``."""
    return next(e.id for e in CARDS.events if e.combat == effect)


def owner(effect: str) -> int:
    return FREE_PEOPLES if carrying(effect).startswith("fp-") else SHADOW


def fight(armies: dict[str, Any], cards: tuple[str, ...] = (), attacker: str = "shadow",
          src: str = "north-ithilien", dst: str = "south-ithilien", rolls=None,
          target: tuple | None = None, **extra: Any):
    """A battle with a card of each effect in ``cards`` in its owner's hand; stops at WD-15."""
    hands: dict[str, list[str]] = {}
    for e in cards:
        hands.setdefault("free_peoples" if owner(e) == FREE_PEOPLES else "shadow", []).append(
            carrying(e))
    s = battle_state(armies, side=attacker, rolls=rolls or {}, hands=hands, **extra)
    return start(s, target or edge(s, src, dst))


def choose(s, shadow: str | None = None, free_peoples: str | None = None):
    """Both Combat card choices, the attacker's first: a card of the named effect, or none."""
    by_side = {SHADOW: shadow, FREE_PEOPLES: free_peoples}
    battle = battle_of(s)
    for side in (battle.side, 1 - battle.side):
        assert kind(s) == WD.COMBAT_CARD and s.pending.player == side
        effect = by_side[side]
        play(s, ("card", CARDS.card(carrying(effect))) if effect else NONE)
    return s


def offered(s, effect: str) -> bool:
    """Whether the effect's card is an option of its owner's WD-15 choice (the attacker's
    "none" played first when the owner is the defender)."""
    side = owner(effect)
    if s.pending.player != side:
        play(s, NONE)
    assert kind(s) == WD.COMBAT_CARD and s.pending.player == side
    return ("card", CARDS.card(carrying(effect))) in options(s)


def roll(s, side: int) -> tuple:
    """(dice, hits) of the side's Combat roll."""
    return next(e[2:] for e in events(s, "combat-roll") if e[1] == side)


def reroll(s, side: int) -> tuple | None:
    """(dice, hits) of the side's Leader re-roll, None if it made none."""
    return next((e[2:] for e in events(s, "leader-reroll") if e[1] == side), None)


def settle(s) -> None:
    """Casualties asked of a side are taken Regulars first."""
    while s.pending is not None and kind(s) == WD.CASUALTY:
        opts = options(s)
        play(s, next((o for o in opts if o[2] == "regular"), opts[0]))


def sound(s) -> None:
    assert check(s) == []


DUEL = {"north-ithilien": {"sauron": {"regular": 3}},
        "south-ithilien": {"gondor": {"regular": 3}}}


# -- the registry ------------------------------------------------------------------------------

def test_every_combat_effect_of_the_data_is_registered():
    """facts §6.1, issue 27 item 3 (a registry test): each of the 38 Combat effects has its
    function; none resolves as "no effect" for want of code."""
    s = fight(DUEL)
    assert len(s.ruleset.cards.combat) == 38
    assert bc.unregistered(s) == []
    assert set(bc.COMBAT_EFFECTS) >= {e.id for e in s.ruleset.cards.combat}


# -- modifiers ---------------------------------------------------------------------------------

def test_valour_adds_one_to_the_fp_roll():
    """facts §6.1 Valour: +1 to the Combat roll (an FP Elite in the battle): 4, 4, 3 hit
    twice."""
    s = fight({"north-ithilien": {"sauron": {"regular": 3}},
               "south-ithilien": {"gondor": {"regular": 2, "elite": 1}}}, ("valour",),
              rolls={"shadow": [1, 1, 1], "free_peoples": [4, 4, 3]})
    choose(s, free_peoples="valour")
    assert roll(s, FREE_PEOPLES) == ((4, 4, 3), 2)
    assert figures(s, "north-ithilien", "sauron")[0] == 1
    sound(s)


def test_valour_needs_an_fp_elite():
    """facts §6.1 Valour: without an FP Elite in the battle it is not offered."""
    assert not offered(fight(DUEL, ("valour",)), "valour")


def test_advantageous_position_lowers_the_shadow_roll_inside_an_fp_nation():
    """facts §6.1 Advantageous Position: −1 to each Shadow die (a natural 6 still hits) when
    the defending Army is inside an FP nation's borders (Eastemnet, Rohan)."""
    s = fight({"parth-celebrant": {"sauron": {"regular": 3}},
               "eastemnet": {"rohan": {"regular": 3}}}, ("advantageous-position",),
              src="parth-celebrant", dst="eastemnet",
              rolls={"shadow": [5, 5, 6], "free_peoples": [1, 1, 1]})
    choose(s, free_peoples="advantageous-position")
    assert roll(s, SHADOW) == ((5, 5, 6), 1)
    assert figures(s, "eastemnet", "rohan")[0] == 2


def test_advantageous_position_not_outside_fp_nations():
    """facts §6.1 Advantageous Position: South Ithilien is in no nation: not offered."""
    assert not offered(fight(DUEL, ("advantageous-position",)), "advantageous-position")


def test_servant_of_the_secret_fire_with_gandalf():
    """facts §6.1 Servant of the Secret Fire: +1 to the FP roll with Gandalf in the battle."""
    armies = {"north-ithilien": {"sauron": {"regular": 5}},
              "south-ithilien": {"gondor": {"regular": 5}}}
    s = fight(armies, ("servant-of-the-secret-fire",),
              characters={"gandalf-the-grey": "south-ithilien"}, fellowship={"guide": "strider"},
              rolls={"shadow": [1] * 5, "free_peoples": [4, 4, 4, 1, 1, 1]})
    choose(s, free_peoples="servant-of-the-secret-fire")
    assert roll(s, FREE_PEOPLES) == ((4, 4, 4, 1, 1), 3)
    assert not offered(fight(armies, ("servant-of-the-secret-fire",)),
                       "servant-of-the-secret-fire")


def test_devilry_of_orthanc_in_a_siege_of_a_stronghold():
    """facts §6.1 Devilry of Orthanc (an Isengard unit in the battle, the defender in a
    Stronghold): +1, so the besieger's 5s hit where only 6s would (facts §7.3)."""
    spec = dict(armies={"helms-deep": {"isengard": {"regular": 3}}},
                boxes={"helms-deep": {"rohan": {"regular": 3}}},
                rolls={"shadow": [5, 5, 1], "free_peoples": [1, 1, 1]})
    s = battle_state(spec["armies"], boxes=spec["boxes"], rolls=spec["rolls"],
                     hands={"shadow": [carrying("devilry-of-orthanc")]})
    start(s, ("region", s.ruleset.board.region("helms-deep")))
    choose(s, shadow="devilry-of-orthanc")
    assert roll(s, SHADOW) == ((5, 5, 1), 2)
    assert figures(s, "helms-deep", "rohan", box=True)[0] == 1


def test_devilry_of_orthanc_needs_isengard_and_a_stronghold():
    """facts §6.1 Devilry of Orthanc: Sauron units in a field battle: not offered."""
    assert not offered(fight(DUEL, ("devilry-of-orthanc",)), "devilry-of-orthanc")
    s = fight({"north-ithilien": {"isengard": {"regular": 3}},
               "south-ithilien": {"gondor": {"regular": 3}}}, ("devilry-of-orthanc",))
    assert not offered(s, "devilry-of-orthanc")


ROHAN_FIGHT = {"parth-celebrant": {"sauron": {"regular": 5}},
               "eastemnet": {"rohan": {"regular": 3}}}


def test_ents_rage_in_a_rohan_region():
    """facts §6.1 Ents' Rage: +2 to the FP roll when the defender is in a Rohan region."""
    s = fight(ROHAN_FIGHT, ("ents-rage",), src="parth-celebrant", dst="eastemnet",
              rolls={"shadow": [1] * 5, "free_peoples": [3, 3, 1]})
    choose(s, free_peoples="ents-rage")
    assert roll(s, FREE_PEOPLES) == ((3, 3, 1), 2)
    assert not offered(fight(DUEL, ("ents-rage",)), "ents-rage")


def test_huorn_dark_caps_the_shadow_at_two_dice():
    """facts §6.1 Huorn-dark: the Shadow rolls at most 2 dice (defender in a Rohan region)."""
    s = fight(ROHAN_FIGHT, ("huorn-dark",), src="parth-celebrant", dst="eastemnet",
              rolls={"shadow": [6, 6, 6, 6, 6], "free_peoples": [1, 1, 1]})
    choose(s, free_peoples="huorn-dark")
    assert roll(s, SHADOW) == ((6, 6), 2)
    assert not offered(fight(DUEL, ("huorn-dark",)), "huorn-dark")


def test_daylight_caps_the_shadow_at_three_dice():
    """facts §6.1 Daylight: the Shadow rolls at most 3 dice; with 3 units or fewer, no
    change."""
    big = {"north-ithilien": {"sauron": {"regular": 5}},
           "south-ithilien": {"gondor": {"regular": 3}}}
    s = fight(big, ("daylight",), rolls={"shadow": [6] * 5, "free_peoples": [1] * 3})
    choose(s, free_peoples="daylight")
    assert roll(s, SHADOW) == ((6, 6, 6), 3)
    s = fight({**DUEL, "north-ithilien": {"sauron": {"regular": 2}}}, ("daylight",),
              rolls={"shadow": [1, 1], "free_peoples": [1] * 3})
    choose(s, free_peoples="daylight")
    assert roll(s, SHADOW) == ((1, 1), 0)


def test_brave_stand_one_shadow_die_fewer_per_companion():
    """facts §6.1 Brave Stand: two Companions in the battle, the Shadow's 5 dice become 3."""
    armies = {"north-ithilien": {"sauron": {"regular": 5}},
              "south-ithilien": {"gondor": {"regular": 5}}}
    s = fight(armies, ("brave-stand",), characters={"gimli": "south-ithilien",
                                                    "legolas": "south-ithilien"},
              rolls={"shadow": [1] * 5, "free_peoples": [1] * 7})
    choose(s, free_peoples="brave-stand")
    assert roll(s, SHADOW) == ((1, 1, 1), 0)
    assert not offered(fight(armies, ("brave-stand",)), "brave-stand")


def test_it_is_a_gift_in_the_fellowships_region():
    """facts §6.1 It Is a Gift: +1 on the roll and the re-roll when the defending Army is in
    the Fellowship's region; elsewhere not offered."""
    s = fight({**DUEL, "south-ithilien": {"gondor": {"regular": 3, "leader": 1}}},
              ("it-is-a-gift",), fellowship={"region": "south-ithilien"},
              rolls={"shadow": [1] * 3, "free_peoples": [4, 1, 1, 4]})
    choose(s, free_peoples="it-is-a-gift")
    assert roll(s, FREE_PEOPLES) == ((4, 1, 1), 1)
    assert reroll(s, FREE_PEOPLES) == ((4,), 1)
    assert not offered(fight(DUEL, ("it-is-a-gift",)), "it-is-a-gift")


def test_one_for_the_dark_lord_in_the_fellowships_region():
    """facts §6.1 One for the Dark Lord: +1 on the Shadow's roll and re-roll when the defending
    Army is in the Fellowship's region."""
    armies = {**DUEL, "north-ithilien": {"sauron": {"regular": 3, "nazgul": 1}}}
    s = fight(armies, ("one-for-the-dark-lord",), fellowship={"region": "south-ithilien"},
              rolls={"shadow": [4, 1, 1, 4], "free_peoples": [1] * 3})
    choose(s, shadow="one-for-the-dark-lord")
    assert roll(s, SHADOW) == ((4, 1, 1), 1) and reroll(s, SHADOW) == ((4,), 1)
    assert not offered(fight(armies, ("one-for-the-dark-lord",)), "one-for-the-dark-lord")


def test_desperate_battle_and_deadly_strife_help_both_armies():
    """facts §6.1 Desperate Battle (+1) and Deadly Strife (+2): both Armies, roll and re-roll;
    a natural 1 still misses (spec §12.5)."""
    for effect, fp_hits in (("desperate-battle", 1), ("deadly-strife", 2)):
        s = fight(DUEL, (effect,), rolls={"shadow": [4, 3, 1], "free_peoples": [4, 3, 1]})
        choose(s, shadow=effect)
        assert roll(s, SHADOW)[1] == fp_hits and roll(s, FREE_PEOPLES)[1] == fp_hits
        s = fight(DUEL, (effect,), rolls={"shadow": [1, 1, 1], "free_peoples": [1, 1, 1]})
        choose(s, shadow=effect)
        assert roll(s, SHADOW)[1] == 0 and roll(s, FREE_PEOPLES)[1] == 0


def test_effects_in_the_first_edition_order():
    """spec §7.6, §20 #24, facts §8.4: in the 1st edition the cards act the same, the
    defender's first (here Valour's +1 on the FP roll)."""
    s = fight({"north-ithilien": {"sauron": {"regular": 3}},
               "south-ithilien": {"gondor": {"regular": 2, "elite": 1}}}, ("valour",),
              ruleset="1e", rolls={"shadow": [1, 1, 1], "free_peoples": [4, 4, 3]})
    # the Shadow, with no card, is asked all the same (private): "no"
    play(s, choice("no"), choice("yes"), ("card", CARDS.card(carrying("valour"))))
    assert roll(s, FREE_PEOPLES) == ((4, 4, 3), 2)
