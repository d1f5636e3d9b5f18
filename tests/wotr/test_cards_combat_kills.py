"""Combat effects that kill a figure after the Leader re-roll (facts §6.1): Black Breath,
Blade of Westernesse, Fateful Strike (WD-16: which figure)."""

from __future__ import annotations

from wotr_env.engine import WD, play
from wotr_env.engine.decision import choice
from wotr_env.engine.state import ELIMINATED, FREE_PEOPLES, SHADOW

from .test_battle_setup import figures, kind, options
from .test_cards_combat import CARDS, DUEL, choose, fight, offered, reroll, sound

GONDOR, SAURON, LEADER, NAZGUL = 2, 6, 2, 3


def char(cid: str) -> int:
    return CARDS.character(cid)


NAZGUL_ATTACKS = {"north-ithilien": {"sauron": {"regular": 3, "nazgul": 1}},
                  "south-ithilien": {"gondor": {"regular": 5, "leader": 1}}}


def test_black_breath_kills_an_fp_leader_after_a_reroll_hit():
    """facts §6.1 Black Breath: the Nazgûl's re-roll hits once: the Gondor Leader dies (the
    only choice: no Companion of Level 1 or less)."""
    s = fight(NAZGUL_ATTACKS, ("black-breath",), characters={"gimli": "south-ithilien"},
              rolls={"shadow": [1, 1, 1, 6], "free_peoples": [1] * 7})
    choose(s, shadow="black-breath")
    assert reroll(s, SHADOW) == ((6,), 1)
    assert figures(s, "south-ithilien", "gondor")[2] == 0 and s.casualties[GONDOR, LEADER] == 1
    assert s.char_at[char("gimli")] != ELIMINATED  # Level 2 > 1 hit
    sound(s)


def test_black_breath_a_companion_up_to_the_hits():
    """facts §6.1 Black Breath (WD-16): a Companion whose Level is at most the re-roll's hits
    (Meriadoc, Level 1) may be chosen instead of the Leader."""
    s = fight(NAZGUL_ATTACKS, ("black-breath",), characters={"meriadoc": "south-ithilien"},
              rolls={"shadow": [1, 1, 1, 6], "free_peoples": [1] * 7})
    choose(s, shadow="black-breath")
    assert kind(s) == WD.COMBAT_CARD_CHOICE and s.pending.player == SHADOW
    assert set(options(s)) == {("unit", GONDOR, LEADER), ("character", char("meriadoc"))}
    play(s, ("character", char("meriadoc")))
    assert s.char_at[char("meriadoc")] == ELIMINATED


def test_black_breath_no_reroll_hit_no_kill():
    """facts §6.1 Black Breath: the re-roll misses: nothing dies; without a Nazgûl in the
    battle the card is not offered."""
    s = fight(NAZGUL_ATTACKS, ("black-breath",),
              rolls={"shadow": [1, 1, 1, 4], "free_peoples": [1] * 6})
    choose(s, shadow="black-breath")
    assert figures(s, "south-ithilien", "gondor")[2] == 1
    assert not offered(fight(DUEL, ("black-breath",)), "black-breath")


def test_black_breath_with_the_witch_king_as_the_nazgul():
    """facts §3.4 (the Witch-king counts as a Nazgûl for card text), §6.1 Black Breath."""
    s = fight({**NAZGUL_ATTACKS, "north-ithilien": {"sauron": {"regular": 3}}},
              ("black-breath",), characters={"witch-king": "north-ithilien"})
    assert offered(s, "black-breath")


MINION = {"north-ithilien": {"sauron": {"regular": 3}},
          "south-ithilien": {"gondor": {"regular": 5}}}


def test_blade_of_westernesse_spends_a_reroll_hit_on_a_minion():
    """facts §6.1 Blade of Westernesse (WD-16): Peregrin's re-roll hits once; that hit kills
    the Witch-king instead of a Shadow unit."""
    s = fight(MINION, ("blade-of-westernesse",),
              characters={"peregrin": "south-ithilien", "witch-king": "north-ithilien"},
              rolls={"shadow": [1] * 5, "free_peoples": [1] * 5 + [6]})
    choose(s, free_peoples="blade-of-westernesse")
    assert kind(s) == WD.COMBAT_CARD_CHOICE and s.pending.player == FREE_PEOPLES
    assert set(options(s)) == {("character", char("witch-king")), choice("no")}
    play(s, ("character", char("witch-king")))
    assert s.char_at[char("witch-king")] == ELIMINATED
    assert figures(s, "north-ithilien", "sauron")[0] == 3
    sound(s)


def test_blade_of_westernesse_declined_keeps_the_hit():
    """facts §6.1 Blade of Westernesse: the FP keeps the hit (a Shadow Regular dies)."""
    s = fight(MINION, ("blade-of-westernesse",),
              characters={"peregrin": "south-ithilien", "witch-king": "north-ithilien"},
              rolls={"shadow": [1] * 5, "free_peoples": [1] * 5 + [6]})
    choose(s, free_peoples="blade-of-westernesse")
    play(s, choice("no"))
    assert figures(s, "north-ithilien", "sauron")[0] == 2
    assert not offered(fight(MINION, ("blade-of-westernesse",)), "blade-of-westernesse")


FATEFUL = {"north-ithilien": {"sauron": {"regular": 3, "nazgul": 1}},
           "south-ithilien": {"gondor": {"regular": 5, "leader": 2}}}


def test_fateful_strike_one_reroll_hit_kills_a_nazgul():
    """facts §6.1 Fateful Strike: 1 re-roll hit: the Nazgûl dies (back to the reinforcements,
    facts §7.2)."""
    s = fight(FATEFUL, ("fateful-strike",),
              rolls={"shadow": [1] * 4, "free_peoples": [1] * 5 + [6, 1]})
    reserve = int(s.reserve[SAURON, NAZGUL])
    choose(s, free_peoples="fateful-strike")
    assert figures(s, "north-ithilien", "sauron")[NAZGUL] == 0
    assert s.reserve[SAURON, NAZGUL] == reserve + 1
    sound(s)


def test_fateful_strike_minions_need_two_hits():
    """facts §6.1 Fateful Strike, §3.4: with 1 hit a Nazgûl (the Witch-king counts as one);
    with 2, the Mouth of Sauron, a Minion, may be chosen instead."""
    chars = {"witch-king": "north-ithilien", "mouth-of-sauron": "north-ithilien"}
    nazgul = {("unit", SAURON, NAZGUL), ("character", char("witch-king"))}
    s = fight(FATEFUL, ("fateful-strike",), characters=chars,
              rolls={"shadow": [1] * 8, "free_peoples": [1] * 5 + [6, 1]})
    choose(s, free_peoples="fateful-strike")
    assert set(options(s)) == nazgul
    s = fight(FATEFUL, ("fateful-strike",), characters=chars,
              rolls={"shadow": [1] * 8, "free_peoples": [1] * 5 + [6, 6]})
    choose(s, free_peoples="fateful-strike")
    assert set(options(s)) == nazgul | {("character", char("mouth-of-sauron"))}
    play(s, ("character", char("mouth-of-sauron")))
    assert s.char_at[char("mouth-of-sauron")] == ELIMINATED


def test_fateful_strike_no_reroll_hit_no_kill():
    """facts §6.1 Fateful Strike: the re-roll misses: the Nazgûl lives; without an FP Leader
    or Companion the card is not offered."""
    s = fight(FATEFUL, ("fateful-strike",),
              rolls={"shadow": [1] * 4, "free_peoples": [1] * 7})
    choose(s, free_peoples="fateful-strike")
    assert figures(s, "north-ithilien", "sauron")[NAZGUL] == 1
    assert not offered(fight(DUEL, ("fateful-strike",)), "fateful-strike")
