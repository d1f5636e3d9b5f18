"""The 1st edition's house cards (1e spec 8.2, 8.5, 9, section A.10; readings C.1, C.15; facts
agot-1e.md section 4 and 4.1; got_env/engine/abilities/first_edition.py). Each ability is played
with its text and, where that tells something, as a plain card of the same strength and icons;
positions have all five houses (tests/card_helpers_1e.py)."""

from __future__ import annotations

import numpy as np
import pytest
from card_helpers import TEXT, area_action, card_action, discards, hand
from card_helpers_1e import HOUSE_CARDS_1E, build_1e, others, with_text_1e
from combat_helpers import (
    areas,
    build,
    fight,
    kind,
    last_combat,
    order_in,
    retreat,
    routed_in,
    units_in,
    who,
)

import got_env.engine  # noqa: F401  (registers every ability)
from got_env.data import load_ruleset
from got_env.engine import DONE, apply, invariants
from got_env.engine.abilities.base import CardStep
from got_env.engine.combat.cards import (
    ABILITIES,
    FIRST_EDITION_ABILITIES,
    STEP_HOOKS,
    ability_named,
)
from got_env.engine.combat.frame import CombatFrame
from got_env.engine.combat.strength import side_ability
from got_env.engine.decision import DecisionKind
from got_env.engine.setup import new_game

RS_1E = load_ruleset("1e")
HOOKS = ("strength", "swords", "fortifications", "unit_value", "fighting_unit_value",
         "supporting_unit_value", "no_casualties", "cancels_opponent") + STEP_HOOKS


# --- the table ------------------------------------------------------------------------------


def test_every_1e_ability_id_has_a_registered_implementation():
    """1e spec 9, facts 4: every ability id of got_env/data/1e/house_cards.yaml (15 cards with
    text) resolves to a registered ability with at least one hook: the -1e ids in
    FIRST_EDITION_ABILITIES under that id, the two shared ones (Catelyn, Balon) in the 2nd
    edition's table; every step an ability names is an ability step's frame class."""
    with_text = [c for c in RS_1E.house_cards if c.ability is not None]
    assert len(with_text) == 15
    for c in with_text:
        ability = ability_named(c.ability)
        assert ability is not None, c.id
        assert ability.card == c.ability
        assert c.text
        assert any(getattr(ability, h) for h in HOOKS), c.id
        for hook in STEP_HOOKS:
            step = getattr(ability, hook)
            assert step is None or issubclass(step, CardStep), (c.id, step)
    shared = sorted(c.ability for c in with_text if not c.ability.endswith("-1e"))
    assert shared == ["balon-greyjoy", "catelyn-stark"]
    assert all(a in ABILITIES for a in shared)


def test_the_1e_table_names_only_1e_abilities_of_the_data():
    """No stray entry: FIRST_EDITION_ABILITIES holds exactly the 13 -1e ids of the data, and the
    20 plain 1e cards have no ability."""
    own = {c.ability for c in RS_1E.house_cards if c.ability and c.ability.endswith("-1e")}
    assert set(FIRST_EDITION_ABILITIES) == own
    assert len(own) == 13
    assert sum(c.ability is None for c in RS_1E.house_cards) == 20


# --- Stark --------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", TEXT)
def test_robb_stark_attacking_knights_count_3_not_supporting_ones(ended, monkeypatch, text):
    """robb-stark-1e, 1e spec 9, C.15: Stark attacks Stoney Sept with 2 Knights (3 each with the
    text) and supports itself with a Knight from Harrenhal (2: never a supporting unit), + Robb
    2 = 10 (plain: 8) against 2 Footmen + Defense 1 + Kevan 1 = 4. Robb has no swords: no
    casualties."""
    with_text_1e(monkeypatch, "robb-stark-1e", text)
    s = build_1e(units={"stark": {"riverrun": "KK", "harrenhal": "K"},
                        "lannister": {"stoney-sept": "FF"}},
                 orders={"riverrun": "march-0", "harrenhal": "support-0a",
                         "stoney-sept": "defense-1a"},
                 hands={"stark": ["robb-stark", "eddard-stark"],
                        "lannister": ["kevan-lannister", "tywin-lannister"]})
    fight(s, "riverrun", "stoney-sept", "KK", "robb-stark", "kevan-lannister", stark="attacker")
    retreat(s, "lannisport")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 10 if text else 8, "defender": 4}
    assert units_in(st, "stoney-sept", "stark") == "KK"
    assert units_in(st, "lannisport", "lannister") == "FF"


def test_robb_stark_does_nothing_when_defending(ended):
    """robb-stark-1e, C.15: only attacking knights count 3. Stark defends Stoney Sept with 2
    Knights + Robb 2 = 6 (not 8) against Lannister's 2 Knights + Tywin 3 = 7: Lannister wins,
    Tywin's 2 swords kill both Knights."""
    s = build_1e(units={"lannister": {"lannisport": "KK"}, "stark": {"stoney-sept": "KK"}},
                 orders={"lannisport": "march-0"},
                 hands={"stark": ["robb-stark", "eddard-stark"],
                        "lannister": ["tywin-lannister", "kevan-lannister"]})
    fight(s, "lannisport", "stoney-sept", "KK", "tywin-lannister", "robb-stark")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 7, "defender": 6}
    assert frame.winner == "attacker"
    assert units_in(st, "stoney-sept", "lannister") == "KK"
    assert units_in(st, "stoney-sept", "stark") == ""


@pytest.mark.parametrize("text", TEXT)
def test_catelyn_stark_doubles_her_defense_order(ended, monkeypatch, text):
    """catelyn-stark (shared with 2e), 1e spec 9: Stark defends with 2 Footmen and a special
    Defense order, +2 doubled to +4: 6 against Lannister's 2 Knights + Kevan 1 = 5, Stark wins.
    As a plain card 2 + 2 = 4 < 5 and Kevan's sword kills a Footman."""
    with_text_1e(monkeypatch, "catelyn-stark", text)
    s = build_1e(units={"lannister": {"lannisport": "KK"}, "stark": {"stoney-sept": "FF"}},
                 orders={"lannisport": "march-0", "stoney-sept": "defense-special"},
                 hands={"stark": ["catelyn-stark", "eddard-stark"],
                        "lannister": ["kevan-lannister", "tywin-lannister"]})
    fight(s, "lannisport", "stoney-sept", "KK", "kevan-lannister", "catelyn-stark")
    if not text:
        retreat(s, "riverrun")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 5, "defender": 6 if text else 4}
    if text:
        assert units_in(st, "stoney-sept", "stark") == "FF"
        assert routed_in(st, "lannisport", "lannister") == "KK"
    else:
        assert units_in(st, "riverrun", "stark") == "F"
        assert units_in(st, "stoney-sept", "lannister") == "KK"


def test_catelyn_stark_does_nothing_when_attacking(ended):
    """catelyn-stark, C.15: only when Stark defends, and only Stark's own order. Stark attacks
    with 2 Knights + Catelyn 0 = 4 against a Footman + special Defense 2 + Kevan 1 = 4 (not
    doubled to 6): the tie goes to Stark, above Lannister on the Fiefdoms track."""
    s = build_1e(units={"stark": {"riverrun": "KK"}, "lannister": {"stoney-sept": "F"}},
                 orders={"riverrun": "march-0", "stoney-sept": "defense-special"},
                 hands={"stark": ["catelyn-stark", "eddard-stark"],
                        "lannister": ["kevan-lannister", "tywin-lannister"]})
    fight(s, "riverrun", "stoney-sept", "KK", "catelyn-stark", "kevan-lannister")
    retreat(s, "lannisport")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 4}
    assert frame.winner == "attacker"
    assert units_in(st, "stoney-sept", "stark") == "KK"


LUWIN = {
    "units": {"stark": {"riverrun": "KK"}, "lannister": {"stoney-sept": "F"}},
    "orders": {"riverrun": "march-0"},
    "hands": {"stark": ["maester-luwin", "eddard-stark", "robb-stark"],
              "lannister": ["kevan-lannister", "tywin-lannister"]},
}


@pytest.mark.parametrize("text", TEXT)
def test_maester_luwin_takes_a_used_card_back_after_the_retreat(ended, monkeypatch, text):
    """maester-luwin-1e, 1e spec 9 and its timing reading: Stark's 2 Knights + Luwin 0 = 4 beat
    a Footman + Kevan 1 = 2. Only once Lannister has retreated is Stark asked (D-18) for one of
    its four used cards (not Luwin, still in play); it takes Greatjon Umber back."""
    with_text_1e(monkeypatch, "maester-luwin-1e", text)
    s = build_1e(**LUWIN)
    fight(s, "riverrun", "stoney-sept", "KK", "maester-luwin", "kevan-lannister")
    retreat(s, "lannisport")
    if text:
        assert kind(s) == DecisionKind.MAMMOTH_RIDERS_RETRIEVE and who(s) == "stark"
        assert units_in(s, "lannisport", "lannister") == "F"  # the retreat is done
        assert sorted(s.ruleset.house_cards[o[1]].id for o in s.pending.options[:-1]) == \
            ["catelyn-stark", "greatjon-umber", "lord-mormont", "sir-rodrik-cassel"]
        assert s.pending.options[-1] == DONE
        apply(s, card_action(s, "greatjon-umber"))
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 2}
    if text:
        assert hand(st, "stark") == ["eddard-stark", "greatjon-umber", "robb-stark"]
        assert discards(st, "stark") == ["catelyn-stark", "lord-mormont", "maester-luwin",
                                         "sir-rodrik-cassel"]
    else:
        assert hand(st, "stark") == ["eddard-stark", "robb-stark"]


def test_maester_luwin_does_nothing_when_stark_loses(ended):
    """maester-luwin-1e, 1e spec 9 ("if he wins"): Stark's Knight + Luwin 0 = 2 lose to 2
    Footmen + Kevan 1 = 3; nothing is asked, Luwin joins the used cards."""
    s = build_1e(units={"stark": {"riverrun": "K"}, "lannister": {"stoney-sept": "FF"}},
                 orders={"riverrun": "march-0"},
                 hands={"stark": ["maester-luwin", "eddard-stark"],
                        "lannister": ["kevan-lannister", "tywin-lannister"]})
    fight(s, "riverrun", "stoney-sept", "K", "maester-luwin", "kevan-lannister")
    st, frame = last_combat(ended)
    assert frame.winner == "defender"
    assert hand(st, "stark") == ["eddard-stark"]
    assert discards(st, "stark") == others("stark", "eddard-stark")


def test_maester_luwin_as_the_last_card_asks_nothing_all_seven_return(ended):
    """maester-luwin-1e with 1e spec 8.5, C.1: Luwin is the last card of Stark's hand; Stark
    wins, nothing is asked (every used card comes back anyway) and all seven are in hand."""
    s = build_1e(**{**LUWIN, "hands": {"stark": ["maester-luwin"],
                                       "lannister": ["kevan-lannister", "tywin-lannister"]}})
    fight(s, "riverrun", "stoney-sept", "KK", "maester-luwin", "kevan-lannister")
    retreat(s, "lannisport")
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert hand(st, "stark") == HOUSE_CARDS_1E["stark"]
    assert discards(st, "stark") == []


# --- Lannister ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", TEXT)
def test_vargo_hoat_attacking_footmen_count_2_not_supporting_ones(ended, monkeypatch, text):
    """vargo-hoat-1e, 1e spec 9, C.15: 3 attacking Footmen count 2 each (6) with the text, the
    Footman supporting from Searoad Marches 1: 7 (plain 4) against Stark's Footman + Rodrik 1 =
    2."""
    with_text_1e(monkeypatch, "vargo-hoat-1e", text)
    s = build_1e(units={"lannister": {"lannisport": "FFF", "searoad-marches": "F"},
                        "stark": {"stoney-sept": "F"}},
                 orders={"lannisport": "march-0", "searoad-marches": "support-0a"},
                 hands={"lannister": ["vargo-hoat", "tywin-lannister"],
                        "stark": ["sir-rodrik-cassel", "eddard-stark"]})
    fight(s, "lannisport", "stoney-sept", "FFF", "vargo-hoat", "sir-rodrik-cassel",
          lannister="attacker")
    retreat(s, "riverrun")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 7 if text else 4, "defender": 2}
    assert units_in(st, "stoney-sept", "lannister") == "FFF"


def test_vargo_hoat_does_nothing_when_defending(ended):
    """vargo-hoat-1e, C.15: defending Footmen count 1. Lannister's 2 Footmen + Vargo 0 = 2 (not
    4) lose to Stark's Knight + Lord Mormont 1 = 3; Mormont's sword kills a Footman."""
    s = build_1e(units={"stark": {"riverrun": "K"}, "lannister": {"stoney-sept": "FF"}},
                 orders={"riverrun": "march-0"},
                 hands={"lannister": ["vargo-hoat", "tywin-lannister"],
                        "stark": ["lord-mormont", "eddard-stark"]})
    fight(s, "riverrun", "stoney-sept", "K", "lord-mormont", "vargo-hoat")
    retreat(s, "lannisport")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 2}
    assert units_in(st, "lannisport", "lannister") == "F"


JAIME = {
    "units": {"lannister": {"lannisport": "KK"}, "stark": {"stoney-sept": "F"}},
    "orders": {"lannisport": "march-0"},
    "hands": {"lannister": ["jaime-lannister", "tywin-lannister"],
              "stark": ["sir-rodrik-cassel", "eddard-stark"]},
}


@pytest.mark.parametrize("text", TEXT)
def test_jaime_lannister_takes_2_power_when_he_wins(ended, monkeypatch, text):
    """jaime-lannister-1e, 1e spec 9: Lannister's 2 Knights + Jaime 2 = 6 beat a Footman + Rodrik
    1 = 2; Lannister's available power goes from 5 to 7 (plain: stays 5)."""
    with_text_1e(monkeypatch, "jaime-lannister-1e", text)
    s = build_1e(**JAIME)
    fight(s, "lannisport", "stoney-sept", "KK", "jaime-lannister", "sir-rodrik-cassel")
    retreat(s, "riverrun")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 2}
    assert int(st.power[st.ruleset.house("lannister")]) == (7 if text else 5)


def test_jaime_lannister_gains_nothing_when_he_loses(ended):
    """jaime-lannister-1e, 1e spec 9 ("if he wins"): a Knight + Jaime 2 = 4 lose to 3 Footmen +
    Eddard 3 = 6: power stays 5."""
    s = build_1e(**{**JAIME, "units": {"lannister": {"lannisport": "K"},
                                       "stark": {"stoney-sept": "FFF"}}})
    fight(s, "lannisport", "stoney-sept", "K", "jaime-lannister", "eddard-stark")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 6}
    assert int(st.power[st.ruleset.house("lannister")]) == 5


CERSEI = {
    "units": {"stark": {"riverrun": "K", "winterfell": "F", "karhold": "F"},
              "lannister": {"stoney-sept": "KK"}},
    "orders": {"riverrun": "march-0", "winterfell": "consolidate-power-a", "karhold": "raid-a"},
    "hands": {"lannister": ["cersei-lannister", "tywin-lannister"],
              "stark": ["sir-rodrik-cassel", "eddard-stark"]},
}


@pytest.mark.parametrize("text", TEXT)
def test_cersei_lannister_removes_an_order_of_the_loser_anywhere(ended, monkeypatch, text):
    """cersei-lannister-1e, 1e spec 9 ("any one of the loser's order tokens anywhere") and the
    timing reading: Lannister's 2 Knights + Cersei 0 = 4 beat Stark's Knight + Rodrik 1 = 3.
    After Stark's Knight is back in Riverrun, routed, Lannister may remove Stark's order in
    Winterfell or Karhold (far from the battle; not the March that is leaving anyway); it
    removes Winterfell's."""
    with_text_1e(monkeypatch, "cersei-lannister-1e", text)
    s = build_1e(**CERSEI)
    fight(s, "riverrun", "stoney-sept", "K", "sir-rodrik-cassel", "cersei-lannister")
    if text:
        assert kind(s) == DecisionKind.CERSEI_ORDER and who(s) == "lannister"
        assert routed_in(s, "riverrun", "stark") == "K"  # the retreat is done
        assert areas(s, s.pending.options[:-1]) == ["karhold", "winterfell"]
        assert s.pending.options[-1] == DONE
        apply(s, area_action(s, "winterfell"))
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 4}
    assert order_in(st, "winterfell") == (None if text else "consolidate-power-a")
    assert order_in(st, "karhold") == "raid-a"


# --- Baratheon ----------------------------------------------------------------------------------


RENLY = {
    "units": {"baratheon": {"blackwater": "FF", "harrenhal": "F"},
              "lannister": {"stoney-sept": "F"}},
    "orders": {"blackwater": "march-0", "harrenhal": "support-0a"},
    "hands": {"baratheon": ["renly-baratheon", "stannis-baratheon"],
              "lannister": ["kevan-lannister", "tywin-lannister"]},
}


@pytest.mark.parametrize("text", TEXT)
def test_renly_baratheon_upgrades_an_attacking_footman_not_a_supporting_one(ended, monkeypatch,
                                                                            text):
    """renly-baratheon-1e, 1e spec 9, facts 4.1: 2 attacking Footmen + the Footman supporting
    from Harrenhal 1 + Renly 2 = 5 beat a Footman + Kevan 1 = 2. After the retreat Baratheon is
    offered (D-42) only the attacking Footmen (waiting in Blackwater), never Harrenhal's; the
    upgraded Knight moves in with the other Footman."""
    with_text_1e(monkeypatch, "renly-baratheon-1e", text)
    s = build_1e(**RENLY)
    fight(s, "blackwater", "stoney-sept", "FF", "renly-baratheon", "kevan-lannister",
          baratheon="attacker")
    retreat(s, "lannisport")
    if text:
        assert kind(s) == DecisionKind.RENLY_UPGRADE and who(s) == "baratheon"
        assert s.pending.options == (("unit", s.ruleset.area("blackwater"), 0), DONE)
        apply(s, s.pending.options[0])
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 5, "defender": 2}
    assert units_in(st, "stoney-sept", "baratheon") == ("FK" if text else "FF")
    assert units_in(st, "harrenhal", "baratheon") == "F"


def test_renly_baratheon_needs_a_knight_in_stock(ended):
    """renly-baratheon-1e, 1e spec 9 [Reading]: with all 4 knights of the 1st edition on the
    board, nothing is asked and the Footmen stay Footmen."""
    s = build_1e(**{**RENLY, "units": {**RENLY["units"],
                                       "baratheon": {"blackwater": "FF", "harrenhal": "F",
                                                     "dragonstone": "KK", "kings-landing": "KK"}}})
    fight(s, "blackwater", "stoney-sept", "FF", "renly-baratheon", "kevan-lannister",
          baratheon="attacker")
    retreat(s, "lannisport")
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert units_in(st, "stoney-sept", "baratheon") == "FF"


@pytest.mark.parametrize("text", TEXT)
def test_salladhor_saan_ships_supporting_the_opponent_count_0(ended, monkeypatch, text):
    """salladhor-saan-1e, 1e spec 9, facts 4.1 ([HU] reading): Lannister attacks Searoad Marches
    with a Knight + Kevan 1, supported by 2 ships from The Golden Sound with a special Support
    (+1): with the text the ships count 0 and only the +1 stays: 4 (plain 6). Baratheon defends
    with 2 Footmen + Defense 1 + a Greyjoy ship supporting it from Sunset Sea (1: ships
    supporting Salladhor's side keep their value) = 4. The tie goes to Baratheon (above
    Lannister on the Fiefdoms track); as a plain card Lannister wins 6 to 4."""
    with_text_1e(monkeypatch, "salladhor-saan-1e", text)
    s = build_1e(units={"lannister": {"lannisport": "K", "the-golden-sound": "SS"},
                        "baratheon": {"searoad-marches": "FF"},
                        "greyjoy": {"sunset-sea": "S"}},
                 orders={"lannisport": "march-0", "the-golden-sound": "support-special",
                         "searoad-marches": "defense-1a", "sunset-sea": "support-0a"},
                 hands={"lannister": ["kevan-lannister", "tywin-lannister"],
                        "baratheon": ["salladhor-saan", "stannis-baratheon"]})
    fight(s, "lannisport", "searoad-marches", "K", "kevan-lannister", "salladhor-saan",
          lannister="attacker", greyjoy="defender")
    if not text:
        retreat(s, "the-reach")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4 if text else 6, "defender": 4}
    assert frame.winner == ("defender" if text else "attacker")


def test_salladhor_saan_leaves_fighting_ships_alone(ended):
    """salladhor-saan-1e, 1e spec 9 ("supporting ships"): in a sea battle the opponent's
    attacking ships keep their value: Lannister's 2 ships + Kevan 1 = 3 beat Baratheon's ship +
    Salladhor 0 = 1 (had they counted 0, 1 to 1 would have gone to Baratheon)."""
    s = build_1e(units={"lannister": {"the-golden-sound": "SS"},
                        "baratheon": {"sunset-sea": "S"}},
                 orders={"the-golden-sound": "march-0"},
                 hands={"lannister": ["kevan-lannister", "tywin-lannister"],
                        "baratheon": ["salladhor-saan", "stannis-baratheon"]})
    fight(s, "the-golden-sound", "sunset-sea", "SS", "kevan-lannister", "salladhor-saan")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 1}
    assert units_in(st, "sunset-sea", "lannister") == "SS"
    assert units_in(st, "sunset-sea", "baratheon") == ""


MELISANDRE = {
    "units": {"baratheon": {"blackwater": "KK"}, "lannister": {"stoney-sept": "F"}},
    "orders": {"blackwater": "march-0"},
    "hands": {"baratheon": ["melisandre-of-asshai", "stannis-baratheon"],
              "lannister": ["kevan-lannister", "tywin-lannister", "jaime-lannister"]},
}


def _melisandre_fight(s) -> None:
    fight(s, "blackwater", "stoney-sept", "KK", "melisandre-of-asshai", "kevan-lannister")
    retreat(s, "lannisport")


@pytest.mark.parametrize("text", TEXT)
def test_melisandre_pays_1_power_to_discard_a_card_of_the_losers_hand(ended, monkeypatch,
                                                                       text):
    """melisandre-1e, 1e spec 9: Baratheon's 2 Knights + Melisandre 0 = 4 beat a Footman +
    Kevan 1 = 2. After the retreat Baratheon may pay 1 power (5 -> 4) to pick Tywin or Jaime in
    Lannister's hand (not Kevan, just played); Tywin is discarded."""
    with_text_1e(monkeypatch, "melisandre-1e", text)
    s = build_1e(**MELISANDRE)
    _melisandre_fight(s)
    if text:
        assert kind(s) == DecisionKind.PATCHFACE and who(s) == "baratheon"
        assert sorted(s.ruleset.house_cards[o[1]].id for o in s.pending.options[:-1]) == \
            ["jaime-lannister", "tywin-lannister"]
        apply(s, card_action(s, "tywin-lannister"))
    st, _ = last_combat(ended)
    assert int(st.power[st.ruleset.house("baratheon")]) == (4 if text else 5)
    assert hand(st, "lannister") == (["jaime-lannister"] if text
                                     else ["jaime-lannister", "tywin-lannister"])
    assert discards(st, "lannister") == others("lannister", *hand(st, "lannister"))


def test_melisandre_is_unusable_when_the_loser_played_its_last_card(ended):
    """melisandre-1e, 1e spec 9 and 8.5: Kevan was the last card of Lannister's hand: nothing is
    asked, Baratheon keeps its 5 power and Lannister has all seven cards back (C.1)."""
    s = build_1e(**{**MELISANDRE, "hands": {**MELISANDRE["hands"],
                                            "lannister": ["kevan-lannister"]}})
    _melisandre_fight(s)
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert int(st.power[st.ruleset.house("baratheon")]) == 5
    assert hand(st, "lannister") == HOUSE_CARDS_1E["lannister"]


def test_melisandre_needs_an_available_power_token(ended):
    """melisandre-1e, 1e spec 9 ("pay 1 available power token"): with none, nothing is asked."""
    s = build_1e(**MELISANDRE, power={"baratheon": 0})
    _melisandre_fight(s)
    st, _ = last_combat(ended)
    assert hand(st, "lannister") == ["jaime-lannister", "tywin-lannister"]


def test_melisandre_emptying_the_hand_brings_the_other_cards_back(ended):
    """melisandre-1e, reading in first_edition.py: Lannister plays Kevan from Kevan and Tywin;
    Melisandre discards Tywin, emptying the hand: every other card comes back, Kevan included,
    and Tywin alone stays used."""
    s = build_1e(**{**MELISANDRE, "hands": {**MELISANDRE["hands"],
                                            "lannister": ["kevan-lannister", "tywin-lannister"]}})
    _melisandre_fight(s)
    apply(s, card_action(s, "tywin-lannister"))
    st, _ = last_combat(ended)
    assert hand(st, "lannister") == others("lannister", "tywin-lannister")
    assert discards(st, "lannister") == ["tywin-lannister"]


# --- Greyjoy ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", TEXT)
def test_victarion_greyjoy_attacking_ships_count_2_not_supporting_ones(ended, monkeypatch, text):
    """victarion-greyjoy-1e, 1e spec 9, C.15: 2 attacking ships count 2 each (4) with the text,
    the ship supporting from Sunset Sea 1: 5 (plain 3) against Lannister's ship + Kevan 1 = 2."""
    with_text_1e(monkeypatch, "victarion-greyjoy-1e", text)
    s = build_1e(units={"greyjoy": {"ironmans-bay": "SS", "sunset-sea": "S"},
                        "lannister": {"the-golden-sound": "S"}},
                 orders={"ironmans-bay": "march-0", "sunset-sea": "support-0a"},
                 hands={"greyjoy": ["victarion-greyjoy", "euron-crows-eye"],
                        "lannister": ["kevan-lannister", "tywin-lannister"]})
    fight(s, "ironmans-bay", "the-golden-sound", "SS", "victarion-greyjoy", "kevan-lannister",
          blade=False, greyjoy="attacker")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 5 if text else 3, "defender": 2}
    assert units_in(st, "the-golden-sound", "greyjoy") == "SS"


def test_victarion_greyjoy_does_nothing_when_defending(ended):
    """victarion-greyjoy-1e, C.15: Greyjoy's 2 defending ships + Victarion 0 = 2 (not 4) lose to
    Lannister's 3 ships + Kevan 1 = 4 (at 4 to 4 Greyjoy, first on the Fiefdoms track, would
    have won)."""
    s = build_1e(units={"lannister": {"sunset-sea": "SSS"},
                        "greyjoy": {"the-golden-sound": "SS"}},
                 orders={"sunset-sea": "march-0"},
                 hands={"greyjoy": ["victarion-greyjoy", "euron-crows-eye"],
                        "lannister": ["kevan-lannister", "tywin-lannister"]})
    fight(s, "sunset-sea", "the-golden-sound", "SSS", "kevan-lannister", "victarion-greyjoy",
          blade=False)
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 2}
    assert frame.winner == "attacker"
    assert units_in(st, "the-golden-sound", "lannister") == "SSS"
    assert routed_in(st, "ironmans-bay", "greyjoy") == "S"  # Kevan's sword took the other


@pytest.mark.parametrize("text", TEXT)
def test_balon_greyjoy_sets_the_opponents_printed_strength_to_0(ended, monkeypatch, text):
    """balon-greyjoy (shared with 2e), 1e spec 9: Lannister's 2 Knights + Tywin (3, 0 with the
    text) against Greyjoy's 2 Footmen + special Defense 2 + Balon 0 = 4: 4 to 4 goes to Greyjoy,
    first on the Fiefdoms track; as a plain card Lannister wins 7 to 4 and Tywin's 2 swords kill
    both Footmen."""
    with_text_1e(monkeypatch, "balon-greyjoy", text)
    s = build_1e(units={"lannister": {"lannisport": "KK"}, "greyjoy": {"stoney-sept": "FF"}},
                 orders={"lannisport": "march-0", "stoney-sept": "defense-special"},
                 hands={"greyjoy": ["balon-greyjoy", "euron-crows-eye"],
                        "lannister": ["tywin-lannister", "kevan-lannister"]})
    fight(s, "lannisport", "stoney-sept", "KK", "tywin-lannister", "balon-greyjoy", blade=False)
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4 if text else 7, "defender": 4}
    assert units_in(st, "stoney-sept", "greyjoy") == ("FF" if text else "")


def test_balon_greyjoy_keeps_the_opponents_icons(ended):
    """balon-greyjoy, C.15 (only the printed strength): Tywin counts 0 but his 2 swords stay:
    Lannister's 2 Knights = 4 beat a Footman + Defense 1 = 2, and Greyjoy loses 2 units (its
    Footman, the only one there)."""
    s = build_1e(units={"lannister": {"lannisport": "KK"}, "greyjoy": {"stoney-sept": "F"}},
                 orders={"lannisport": "march-0", "stoney-sept": "defense-1a"},
                 hands={"greyjoy": ["balon-greyjoy", "euron-crows-eye"],
                        "lannister": ["tywin-lannister", "kevan-lannister"]})
    fight(s, "lannisport", "stoney-sept", "KK", "tywin-lannister", "balon-greyjoy", blade=False)
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 2}
    assert frame.casualties[0] == ["defender", 1]  # 2 due, 1 left unpaid: no unit left
    assert units_in(st, "stoney-sept", "greyjoy") == ""


ASHA = {
    "units": {"greyjoy": {"riverrun": "KK", "searoad-marches": "F"},
              "lannister": {"stoney-sept": "F", "lannisport": "F"},
              "stark": {"harrenhal": "F"}, "baratheon": {"blackwater": "F"}},
    "orders": {"riverrun": "march-0", "searoad-marches": "support-0b",
               "lannisport": "consolidate-power-a", "harrenhal": "support-0a",
               "blackwater": "raid-a"},
    "hands": {"greyjoy": ["asha-greyjoy", "euron-crows-eye"],
              "lannister": ["kevan-lannister", "tywin-lannister"]},
}


@pytest.mark.parametrize("text", TEXT)
def test_asha_greyjoy_removes_an_adjacent_support_or_consolidate_order(ended, monkeypatch,
                                                                       text):
    """asha-greyjoy-1e, 1e spec 9 ([Reading] another house's token), facts 4.1: Greyjoy's 2
    Knights + Asha 2 = 6 beat a Footman + Kevan 1 = 2 at Stoney Sept. After the retreat (to
    Lannisport, the only legal area) Greyjoy may remove Stark's Support in Harrenhal or
    Lannister's Consolidate Power in Lannisport, never its own Support in Searoad Marches nor
    Baratheon's Raid in Blackwater; it removes Stark's Support."""
    with_text_1e(monkeypatch, "asha-greyjoy-1e", text)
    s = build_1e(**ASHA)
    fight(s, "riverrun", "stoney-sept", "KK", "asha-greyjoy", "kevan-lannister", blade=False,
          stark="nothing", greyjoy="nothing")
    if text:
        assert kind(s) == DecisionKind.CERSEI_ORDER and who(s) == "greyjoy"
        assert units_in(s, "lannisport", "lannister") == "FF"  # the retreat is done
        assert areas(s, s.pending.options[:-1]) == ["harrenhal", "lannisport"]
        apply(s, area_action(s, "harrenhal"))
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 2}
    assert order_in(st, "harrenhal") == (None if text else "support-0a")
    assert order_in(st, "lannisport") == "consolidate-power-a"
    assert order_in(st, "searoad-marches") == "support-0b"
    assert order_in(st, "blackwater") == "raid-a"


# --- Tyrell -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", TEXT)
def test_ser_loras_tyrell_kills_a_defending_footman_at_once(ended, monkeypatch, text):
    """ser-loras-tyrell-1e, 1e spec 9: Tyrell attacks Searoad Marches with 2 Knights + Loras 2 =
    6; at the reveal one of Lannister's 2 Footmen dies, so Lannister has 1 + Kevan 1 = 2 (plain:
    3). The survivor retreats."""
    with_text_1e(monkeypatch, "ser-loras-tyrell-1e", text)
    s = build_1e(units={"tyrell": {"the-reach": "KK"}, "lannister": {"searoad-marches": "FF"}},
                 orders={"the-reach": "march-0"},
                 hands={"tyrell": ["ser-loras-tyrell", "mace-tyrell"],
                        "lannister": ["kevan-lannister", "tywin-lannister"]})
    fight(s, "the-reach", "searoad-marches", "KK", "ser-loras-tyrell", "kevan-lannister")
    retreat(s, "lannisport")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 2 if text else 3}
    assert units_in(st, "lannisport", "lannister") == ("F" if text else "FF")
    assert frame.won_at_once is None


@pytest.mark.parametrize("text", TEXT)
def test_ser_loras_tyrell_killing_the_only_unit_wins_at_once(ended, monkeypatch, text):
    """ser-loras-tyrell-1e, 1e spec 8.2 (the rulebook's example) and 9: Greyjoy's lone Footman
    with a special Defense + Euron 3 = 6 would beat Tyrell's Footman + Loras 2 = 3. With the
    text the Footman dies at the reveal, its last unit: Tyrell wins at once, card strengths
    ignored, the Blade (Greyjoy's) not even offered; Tyrell's Footman moves in. As a plain card
    Greyjoy is offered the Blade, wins 6 to 3 and Euron's swords kill the Footman."""
    with_text_1e(monkeypatch, "ser-loras-tyrell-1e", text)
    s = build_1e(units={"tyrell": {"the-reach": "F"}, "greyjoy": {"searoad-marches": "F"}},
                 orders={"the-reach": "march-0", "searoad-marches": "defense-special"},
                 hands={"tyrell": ["ser-loras-tyrell", "mace-tyrell"],
                        "greyjoy": ["euron-crows-eye", "balon-greyjoy"]})
    fight(s, "the-reach", "searoad-marches", "F", "ser-loras-tyrell", "euron-crows-eye")
    if text:
        assert kind(s) != DecisionKind.BLADE_PLUS_ONE
    else:
        assert kind(s) == DecisionKind.BLADE_PLUS_ONE and who(s) == "greyjoy"
        apply(s, ("choice", 1))
    st, frame = last_combat(ended)
    if text:
        assert frame.won_at_once == "attacker" and frame.winner == "attacker"
        assert units_in(st, "searoad-marches", "tyrell") == "F"
        assert units_in(st, "searoad-marches", "greyjoy") == ""
        assert order_in(st, "searoad-marches") is None
        assert not st.blade_used
    else:
        assert frame.strength == {"attacker": 3, "defender": 6}
        assert units_in(st, "searoad-marches", "greyjoy") == "F"
        assert units_in(st, "the-reach", "tyrell") == ""


def test_ser_loras_tyrell_defending_kills_the_only_attacker(ended):
    """ser-loras-tyrell-1e, 1e spec 8.2, 9 ("attacking or defending footmen"): Lannister attacks
    Tyrell's Knight with a lone Footman and Tywin; Loras kills it as it waits in Lannisport:
    Tyrell wins at once, nothing retreats, the March order goes with the last unit."""
    s = build_1e(units={"lannister": {"lannisport": "F"}, "tyrell": {"searoad-marches": "K"}},
                 orders={"lannisport": "march-0"},
                 hands={"tyrell": ["ser-loras-tyrell", "mace-tyrell"],
                        "lannister": ["tywin-lannister", "kevan-lannister"]})
    fight(s, "lannisport", "searoad-marches", "F", "tywin-lannister", "ser-loras-tyrell")
    st, frame = last_combat(ended)
    assert frame.won_at_once == "defender" and frame.winner == "defender"
    assert units_in(st, "lannisport", "lannister") == ""
    assert order_in(st, "lannisport") is None
    assert units_in(st, "searoad-marches", "tyrell") == "K"


def test_ser_loras_tyrell_a_routed_unit_left_fights_on(ended):
    """ser-loras-tyrell-1e, 1e spec 8.3, 8.4 [Reading]: Loras takes only a standing Footman; the
    defender's routed Knight is still a unit in the battle, so the battle goes on: Tyrell's
    Knight + Loras 2 = 4 against 0 + special Defense 2 + Kevan 1 = 3, and the routed Knight,
    unable to retreat again, is destroyed."""
    s = build_1e(units={"tyrell": {"the-reach": "K"}, "lannister": {"searoad-marches": "FK"}},
                 routed={"lannister": {"searoad-marches": "K"}},
                 orders={"the-reach": "march-0", "searoad-marches": "defense-special"},
                 hands={"tyrell": ["ser-loras-tyrell", "mace-tyrell"],
                        "lannister": ["kevan-lannister", "tywin-lannister"]})
    fight(s, "the-reach", "searoad-marches", "K", "ser-loras-tyrell", "kevan-lannister")
    st, frame = last_combat(ended)
    assert frame.won_at_once is None
    assert frame.strength == {"attacker": 4, "defender": 3}
    assert units_in(st, "searoad-marches", "lannister") == ""
    assert units_in(st, "searoad-marches", "tyrell") == "K"


def test_ser_loras_tyrell_does_nothing_against_knights(ended):
    """ser-loras-tyrell-1e, 1e spec 9 (footmen only): Lannister's Knight stays: Tyrell's Knight
    + Loras 2 = 4 against a Knight + Kevan 1 = 3."""
    s = build_1e(units={"tyrell": {"the-reach": "K"}, "lannister": {"searoad-marches": "K"}},
                 orders={"the-reach": "march-0"},
                 hands={"tyrell": ["ser-loras-tyrell", "mace-tyrell"],
                        "lannister": ["kevan-lannister", "tywin-lannister"]})
    fight(s, "the-reach", "searoad-marches", "K", "ser-loras-tyrell", "kevan-lannister")
    retreat(s, "lannisport")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 3}
    assert units_in(st, "lannisport", "lannister") == "K"


@pytest.mark.parametrize("text", TEXT)
def test_brienne_of_tarth_removes_the_defense_order(ended, monkeypatch, text):
    """brienne-of-tarth-1e, 1e spec 9: Tyrell's 2 Knights + Brienne 0 = 4 attack 2 Footmen with
    a special Defense + Kevan 1: with the text the order goes at the reveal: 3, Tyrell wins;
    as a plain card 5 beats 4."""
    with_text_1e(monkeypatch, "brienne-of-tarth-1e", text)
    s = build_1e(units={"tyrell": {"the-reach": "KK"}, "lannister": {"searoad-marches": "FF"}},
                 orders={"the-reach": "march-0", "searoad-marches": "defense-special"},
                 hands={"tyrell": ["brienne-of-tarth", "mace-tyrell"],
                        "lannister": ["kevan-lannister", "tywin-lannister"]})
    fight(s, "the-reach", "searoad-marches", "KK", "brienne-of-tarth", "kevan-lannister")
    if text:
        retreat(s, "lannisport")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 3 if text else 5}
    assert frame.winner == ("attacker" if text else "defender")


def test_brienne_of_tarth_leaves_catelyn_nothing_to_double(ended):
    """brienne-of-tarth-1e against catelyn-stark, 1e spec 9 ("at once", the reveal step before
    the strengths): the Defense order is gone, so Catelyn doubles nothing: Stark's 2 Footmen +
    0 = 2 against Tyrell's 2 Knights = 4."""
    s = build_1e(units={"tyrell": {"the-reach": "KK"}, "stark": {"searoad-marches": "FF"}},
                 orders={"the-reach": "march-0", "searoad-marches": "defense-1a"},
                 hands={"tyrell": ["brienne-of-tarth", "mace-tyrell"],
                        "stark": ["catelyn-stark", "eddard-stark"]})
    fight(s, "the-reach", "searoad-marches", "KK", "brienne-of-tarth", "catelyn-stark")
    retreat(s, "blackwater")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 2}


def test_brienne_of_tarth_defending_removes_nothing(ended):
    """brienne-of-tarth-1e, 1e spec 9 (the opponent's Defense order): when Tyrell defends there
    is none; Tyrell's own Defense still counts: a Footman + 1 + 0 = 2 against Lannister's Knight
    + Kevan 1 = 3."""
    s = build_1e(units={"lannister": {"lannisport": "K"}, "tyrell": {"searoad-marches": "F"}},
                 orders={"lannisport": "march-0", "searoad-marches": "defense-1a"},
                 hands={"tyrell": ["brienne-of-tarth", "mace-tyrell"],
                        "lannister": ["kevan-lannister", "tywin-lannister"]})
    fight(s, "lannisport", "searoad-marches", "K", "kevan-lannister", "brienne-of-tarth")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 2}
    assert units_in(st, "searoad-marches", "lannister") == "K"


# --- Queen of Thorns ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", TEXT)
def test_queen_of_thorns_cancels_catelyn(ended, monkeypatch, text):
    """queen-of-thorns-1e, 1e spec 9, C.15: Tyrell's 2 Knights + Queen 0 = 4 attack Stark's 2
    Footmen with a special Defense + Catelyn: cancelled, Catelyn gives 2 + 2 = 4 and the tie
    goes to Tyrell (second on the Fiefdoms track, Stark third); as a plain Queen Catelyn doubles
    the order: 6, Stark wins."""
    with_text_1e(monkeypatch, "queen-of-thorns-1e", text)
    s = build_1e(units={"tyrell": {"the-reach": "KK"}, "stark": {"searoad-marches": "FF"}},
                 orders={"the-reach": "march-0", "searoad-marches": "defense-special"},
                 hands={"tyrell": ["queen-of-thorns", "mace-tyrell"],
                        "stark": ["catelyn-stark", "eddard-stark"]})
    fight(s, "the-reach", "searoad-marches", "KK", "queen-of-thorns", "catelyn-stark")
    if text:
        retreat(s, "blackwater")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 4 if text else 6}
    assert frame.winner == ("attacker" if text else "defender")


@pytest.mark.parametrize("text", TEXT)
def test_queen_of_thorns_cancels_robbs_knights(ended, monkeypatch, text):
    """queen-of-thorns-1e against robb-stark-1e, C.15: Stark's 2 attacking Knights count 2, not
    3: 4 + Robb 2 = 6 (plain Queen: 8) against Tyrell's Footman + Defense 1 + Queen 0 = 2."""
    with_text_1e(monkeypatch, "queen-of-thorns-1e", text)
    s = build_1e(units={"stark": {"riverrun": "KK"}, "tyrell": {"stoney-sept": "F"}},
                 orders={"riverrun": "march-0", "stoney-sept": "defense-1a"},
                 hands={"tyrell": ["queen-of-thorns", "mace-tyrell"],
                        "stark": ["robb-stark", "eddard-stark"]})
    fight(s, "riverrun", "stoney-sept", "KK", "robb-stark", "queen-of-thorns")
    retreat(s, "blackwater")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6 if text else 8, "defender": 2}


@pytest.mark.parametrize("text", TEXT)
def test_queen_of_thorns_cancels_an_if_you_win_card(ended, monkeypatch, text):
    """queen-of-thorns-1e against jaime-lannister-1e, 1e spec 9: Lannister wins 2 Knights +
    Jaime 2 = 6 against Tyrell's Footman + Queen 0 = 1, but takes no power (5; plain Queen: 7)."""
    with_text_1e(monkeypatch, "queen-of-thorns-1e", text)
    s = build_1e(units={"lannister": {"lannisport": "KK"}, "tyrell": {"searoad-marches": "F"}},
                 orders={"lannisport": "march-0"},
                 hands={"tyrell": ["queen-of-thorns", "mace-tyrell"],
                        "lannister": ["jaime-lannister", "tywin-lannister"]})
    fight(s, "lannisport", "searoad-marches", "KK", "jaime-lannister", "queen-of-thorns")
    retreat(s, "highgarden")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 1}
    assert int(st.power[st.ruleset.house("lannister")]) == (5 if text else 7)


def test_two_queens_of_thorns_cancel_each_other():
    """queen-of-thorns-1e, C.15 ("two Queens of Thorns cancel each other"): with the Queen on
    both sides (no real game has it: only Tyrell holds her) neither card has an ability left;
    against Catelyn only Catelyn's is gone (the printed icons are never touched: card_value
    reads them from the data)."""
    rs = RS_1E
    queen, catelyn = rs.house_card("queen-of-thorns"), rs.house_card("catelyn-stark")
    s = build_1e(units={"tyrell": {"the-reach": "K"}}, orders={"the-reach": "march-0"})
    def frame(attacker_card: int, defender_card: int) -> CombatFrame:
        return CombatFrame(4, 0, 0, 0, [0, 0, 0, 0], 0, revealed=True,
                           cards={"attacker": attacker_card, "defender": defender_card})

    both = frame(queen, queen)
    assert side_ability(s, both, "attacker") is None
    assert side_ability(s, both, "defender") is None
    one = frame(queen, catelyn)
    assert side_ability(s, one, "defender") is None
    assert side_ability(s, one, "attacker") is FIRST_EDITION_ABILITIES["queen-of-thorns-1e"]


# --- the last card (1e spec 8.5, C.1) -----------------------------------------------------------


def test_last_card_returns_in_1e_all_seven_in_hand(ended):
    """1e spec 8.5, A.10, C.1 (``last_house_card: returns``): both houses play the last card of
    their hands (Eddard, Tywin); after the battle each has all seven cards in hand and nothing
    used."""
    s = build_1e(units={"lannister": {"lannisport": "KK"}, "stark": {"stoney-sept": "F"}},
                 orders={"lannisport": "march-0"},
                 hands={"stark": ["eddard-stark"], "lannister": ["tywin-lannister"]})
    fight(s, "lannisport", "stoney-sept", "KK")
    retreat(s, "riverrun")  # Tywin's 2 swords against Eddard's 2 fortifications: no loss
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 7, "defender": 4}
    for house in ("stark", "lannister"):
        assert hand(st, house) == HOUSE_CARDS_1E[house]
        assert discards(st, house) == []


def test_not_the_last_card_is_discarded_in_1e(ended):
    """1e spec 8.5: a card that was not the last of the hand is put with the used cards."""
    s = build_1e(units={"lannister": {"lannisport": "KK"}, "stark": {"stoney-sept": "F"}},
                 orders={"lannisport": "march-0"},
                 hands={"stark": ["eddard-stark", "robb-stark"],
                        "lannister": ["tywin-lannister", "jaime-lannister"]})
    fight(s, "lannisport", "stoney-sept", "KK", "tywin-lannister", "eddard-stark")
    retreat(s, "riverrun")
    st, _ = last_combat(ended)
    assert hand(st, "stark") == ["robb-stark"]
    assert discards(st, "stark") == others("stark", "robb-stark")
    assert hand(st, "lannister") == ["jaime-lannister"]


def test_last_card_stays_discarded_in_2e(ended):
    """R15.3.6 (2e, ``last_house_card: stays-discarded``), unchanged: the same battle in the 2nd
    edition: the six other cards come back, the last card played stays discarded."""
    s = build(units={"lannister": {"lannisport": "KK"}, "stark": {"stoney-sept": "F"}},
              orders={"lannisport": "march-0"},
              hands={"stark": ["eddard-stark"], "lannister": ["tywin-lannister"]})
    fight(s, "lannisport", "stoney-sept", "KK")
    if kind(s) == DecisionKind.RETREAT_AREA:
        retreat(s, "riverrun")
    st, _ = last_combat(ended)
    rs = st.ruleset
    for house, card in (("stark", "eddard-stark"), ("lannister", "tywin-lannister")):
        all_cards = sorted(c.id for c in rs.house_cards if c.house == house)
        assert hand(st, house) == sorted(set(all_cards) - {card})
        assert discards(st, house) == [card]


# --- a whole game ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 4])
def test_random_1e_games_play_their_battles(seed):
    """1e spec 8-9: random legal play of a 5-player 1st-edition game runs through its battles
    (any 1e house card may come up) without error; the invariants hold at every decision and
    a house never has all seven cards used (8.5: the last card brings them back)."""
    s = new_game(5, seed=seed, options={"ruleset": "1e", "max_rounds": 4})
    got_env.engine.start(s)
    rng = np.random.default_rng(seed)
    combats = 0
    while s.pending is not None:
        invariants.check(s)
        combats += s.pending.kind == DecisionKind.HOUSE_CARD
        for house in HOUSE_CARDS_1E:
            assert len(discards(s, house)) < 7
        options = s.pending.options
        apply(s, options[int(rng.integers(len(options)))])
    assert combats > 0
