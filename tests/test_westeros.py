"""Westeros phase: reveal, wildling threat, every card effect (rules spec §6.2, §6.3, §10.3,
R18.6, R20.1; facts §8, §12 D9; DECISIONS D-01 to D-03)."""

import numpy as np
import pytest

from got_env.data import ORDER_TYPES
from got_env.engine import (
    DecisionKind,
    IllegalActionError,
    apply,
    choice,
    new_game,
    scenario,
)
from got_env.engine.state import FIEFDOMS, IRON_THRONE, KINGS_COURT
from got_env.engine.westeros import WESTEROS_EFFECTS, draw, reveal
from got_env.engine.wildlings.attack import WildlingAttackFrame

QUIET = {"I": ["last-days-of-summer"], "II": ["last-days-of-summer"], "III": ["web-of-lies"]}
SPECIAL_MARCH = len(ORDER_TYPES)


def at_westeros(cards=None, **spec):
    """6 players at the Westeros phase of round 2, the last round (so nothing after the next
    Planning phase can change what the Westeros phase did), with these cards on top."""
    top = {**QUIET, **(cards or {})}
    return scenario.build({"round": 2, "options": {"max_rounds": 2}, "start": "westeros",
                           "westeros_top": top, **spec})


def power_of(state):
    rs = state.ruleset
    return {h.id: int(state.power[h.index]) for h in rs.houses if state.in_play[h.index]}


def after_westeros(state):
    """The Westeros phase is over: the game waits on Planning, or (without one) has ended."""
    return state.pending is None or state.pending.kind == DecisionKind.PLACE_ORDERS


@pytest.fixture
def attacks(monkeypatch):
    """Stand-in for the wildling attack step (its rules are tested in test_wildlings): records
    each attack's locals and the power and bans at that moment, then ends."""
    seen = []

    def record(frame, state):
        seen.append({"strength": frame.strength, "exclude": frame.exclude,
                     "threat": state.wildling_threat, "power": power_of(state),
                     "bans": state.order_bans.copy()})
        state.stack.pop()

    monkeypatch.setattr(WildlingAttackFrame, "run", record)
    return seen


def test_every_card_has_one_effect(rs):
    """§6.3, facts §8: the dispatch table has exactly one entry per Westeros card id."""
    assert set(WESTEROS_EFFECTS) == {c.id for c in rs.westeros_cards}


def test_reveals_one_card_of_each_deck_and_resolves_in_order_i_ii_iii():
    """§6.2 steps 2 and 4: one card per deck; card I resolves (and asks) before II and III."""
    s = at_westeros({"I": ["a-throne-of-blades"], "II": ["game-of-thrones"],
                     "III": ["storm-of-swords"]})
    assert s.westeros_drawn.tolist() == [1, 1, 1]
    assert s.pending.kind == DecisionKind.THRONE_OF_BLADES
    before = power_of(s)
    assert not s.order_bans.any()
    apply(s, choice("nothing"))
    assert power_of(s) != before  # II resolved after the choice on I
    assert s.order_bans.tolist() == [False, True, False, False, False, False]  # then III
    assert after_westeros(s)


@pytest.mark.parametrize("threat,cards,expected", [
    (2, {"I": ["supply"], "II": ["game-of-thrones"], "III": ["put-to-the-sword"]}, 2),
    (2, {"I": ["last-days-of-summer"], "II": ["clash-of-kings"], "III": ["put-to-the-sword"]}, 4),
    (2, {"I": ["a-throne-of-blades"], "II": ["dark-wings-dark-words"],
         "III": ["sea-of-storms"]}, 8),
    (8, {"I": ["mustering"], "II": ["last-days-of-summer"], "III": ["put-to-the-sword"]}, 10),
])
def test_threat_moves_two_per_wildling_icon(threat, cards, expected, attacks):
    """§6.2 step 3, R20.1, facts §4.6: one space (+2 strength) per icon on the revealed cards;
    below 12 there is no attack."""
    s = at_westeros(cards, wildling_threat=threat)
    assert s.wildling_threat == expected
    assert attacks == []


@pytest.mark.parametrize("threat,cards", [
    (10, {"I": ["last-days-of-summer"], "II": ["game-of-thrones"], "III": ["put-to-the-sword"]}),
    (10, {"I": ["last-days-of-summer"], "II": ["dark-wings-dark-words"],
          "III": ["feast-for-crows"]}),
    (6, {"I": ["a-throne-of-blades"], "II": ["last-days-of-summer"], "III": ["web-of-lies"]}),
])
def test_threat_reaching_12_attacks_at_once(threat, cards, attacks):
    """§6.2 step 3, R20.1, facts §4.6: the threat stops at 12 (icons beyond are ignored) and one
    attack of strength 12 happens before any card resolves (no deck III ban yet)."""
    s = at_westeros(cards, wildling_threat=threat)
    assert s.wildling_threat == 12
    assert [(a["strength"], a["exclude"]) for a in attacks] == [(12, [])]
    assert not attacks[0]["bans"].any()


def test_game_of_thrones_waits_for_the_threat_attack(attacks):
    """§6.2 steps 3-4: the attack comes first; Game of Thrones (deck II) pays after it."""
    s = at_westeros({"I": ["last-days-of-summer"], "II": ["game-of-thrones"],
                     "III": ["put-to-the-sword"]}, wildling_threat=10)
    assert attacks[0]["power"]["baratheon"] == 5
    assert power_of(s)["baratheon"] == 7  # Dragonstone's and Kingswood's crowns, after it


def test_threat_already_at_12_does_not_attack_again(attacks):
    """§6.2 step 3: the trigger is *reaching* 12 during the step (reading recorded in
    westeros.py)."""
    at_westeros({"I": ["supply"], "II": ["game-of-thrones"], "III": ["web-of-lies"]},
                wildling_threat=12)
    assert attacks == []


def test_wildlings_attack_card_uses_the_threat_strength(attacks):
    """§6.3 Wildlings Attack, §20.2 step 1: strength = the threat token after this phase's icons
    (2 + one icon = 4)."""
    at_westeros({"I": ["last-days-of-summer"], "II": ["game-of-thrones"],
                 "III": ["wildlings-attack"]})
    assert [(a["strength"], a["exclude"]) for a in attacks] == [(4, [])]


def test_two_attacks_in_one_phase(attacks):
    """§6.2: the threat reaching 12 and a Wildlings Attack card give two attacks, the threat one
    first (before card III's attack)."""
    at_westeros({"I": ["last-days-of-summer"], "II": ["game-of-thrones"],
                 "III": ["wildlings-attack"]}, wildling_threat=10)
    assert [a["strength"] for a in attacks] == [12, 12]
    assert attacks[0]["power"]["baratheon"] == 5 and attacks[1]["power"]["baratheon"] == 7


@pytest.mark.parametrize("card,index", [
    ("storm-of-swords", ORDER_TYPES.index("defense")),
    ("rains-of-autumn", SPECIAL_MARCH),
    ("sea-of-storms", ORDER_TYPES.index("raid")),
    ("web-of-lies", ORDER_TYPES.index("support")),
    ("feast-for-crows", ORDER_TYPES.index("consolidate-power")),
])
def test_restriction_cards_ban_one_order_type(card, index):
    """§10.3, facts §8 deck III: each restriction card bans exactly one kind of order for the next
    Planning phase."""
    s = at_westeros({"III": [card]})
    expected = np.zeros(6, dtype=bool)
    expected[index] = True
    assert after_westeros(s)
    assert s.order_bans.tolist() == expected.tolist()


@pytest.mark.parametrize("pick,index", [
    ("no-defense-orders", ORDER_TYPES.index("defense")),
    ("no-special-march-orders", SPECIAL_MARCH),
    ("nothing", None),
])
def test_put_to_the_sword_blade_holder_chooses(pick, index):
    """D-03, §10.3: the Valyrian Steel Blade holder (Fiefdoms position 1) picks one restriction
    or none."""
    s = at_westeros({"III": ["put-to-the-sword"]})
    d = s.pending
    assert d.kind == DecisionKind.PUT_TO_THE_SWORD
    assert d.player == s.holder(FIEFDOMS) == s.ruleset.house("greyjoy")
    assert d.options == (choice("no-defense-orders"), choice("no-special-march-orders"),
                         choice("nothing"))
    apply(s, choice(pick))
    expected = [False] * 6
    if index is not None:
        expected[index] = True
    assert s.order_bans.tolist() == expected


def test_throne_of_blades_supply():
    """D-01, R7.1: the Iron Throne holder picks Supply: every house's level becomes its barrel
    count (Stark 1: Winterfell; Lannister 2: Lannisport)."""
    s = at_westeros({"I": ["a-throne-of-blades"]}, supply={"stark": 4, "lannister": 0})
    d = s.pending
    assert d.kind == DecisionKind.THRONE_OF_BLADES
    assert d.player == s.holder(IRON_THRONE) == s.ruleset.house("baratheon")
    assert d.options == (choice("supply"), choice("mustering"), choice("nothing"))
    apply(s, choice("supply"))
    assert s.supply[s.ruleset.house("stark")] == 1
    assert s.supply[s.ruleset.house("lannister")] == 2


def test_throne_of_blades_mustering():
    """D-01, R8.1: Mustering starts with the first house in turn order."""
    s = at_westeros({"I": ["a-throne-of-blades"]})
    apply(s, choice("mustering"))
    assert s.pending.kind == DecisionKind.MUSTER
    assert s.pending.player == s.turn_order()[0]


def test_throne_of_blades_nothing():
    """D-01: nothing happens (supply levels stay wrong, nobody musters)."""
    s = at_westeros({"I": ["a-throne-of-blades"]}, supply={"stark": 4})
    units = s.units.copy()
    apply(s, choice("nothing"))
    assert s.supply[s.ruleset.house("stark")] == 4
    assert np.array_equal(s.units, units)
    assert after_westeros(s)


def test_dark_wings_raven_holder_chooses_clash_of_kings():
    """D-02, §9.2: the Messenger Raven holder (King's Court 1) picks a Clash of Kings: the Iron
    Throne bidding starts."""
    s = at_westeros({"II": ["dark-wings-dark-words"]})
    d = s.pending
    assert d.kind == DecisionKind.DARK_WINGS_DARK_WORDS
    assert d.player == s.holder(KINGS_COURT) == s.ruleset.house("lannister")
    assert d.options == (choice("clash-of-kings"), choice("game-of-thrones"), choice("nothing"))
    apply(s, choice("clash-of-kings"))
    assert s.pending.kind == DecisionKind.INFLUENCE_BID and s.pending.context["track"] == 0


@pytest.mark.parametrize("pick,gain", [("game-of-thrones", 2), ("nothing", 0)])
def test_dark_wings_game_of_thrones_or_nothing(pick, gain):
    """D-02, §6.3: Game of Thrones pays Baratheon the crowns of Dragonstone and Kingswood (its
    starting areas); nothing pays nothing."""
    s = at_westeros({"II": ["dark-wings-dark-words"]})
    apply(s, choice(pick))
    assert power_of(s)["baratheon"] == 5 + gain
    assert after_westeros(s)


GOT_POSITION = {
    "units": {
        "stark": {"winterfell": "KF", "castle-black": "F", "port-of-winterfell": "S",
                  "white-harbor": "F", "port-of-white-harbor": "S"},
        "baratheon": {"dragonstone": "K", "the-narrow-sea": "S"},
        "greyjoy": {"pyke": "K", "port-of-pyke": "S", "the-golden-sound": "S"},
        "lannister": {"lannisport": "K", "port-of-lannisport": "S"},
    },
    "power_tokens": {"karhold": "stark"},
    "power": {"greyjoy": 19},
}


def test_game_of_thrones_income():
    """§6.3, R18.6, R2.3.3: crowns printed in controlled areas (Karhold through a power token,
    which is no icon itself; Sunspear and Pyke through home shields/units), plus 1 per own port
    with own ships and no enemy ship in its sea (Winterfell yes; White Harbor no: Baratheon in
    The Narrow Sea; Lannisport no: Greyjoy in The Golden Sound); Greyjoy's 2 are cut to the 1
    token left in its Pool."""
    s = at_westeros({"II": ["game-of-thrones"]}, **GOT_POSITION)
    assert power_of(s) == {"stark": 5 + 4, "lannister": 5, "baratheon": 6, "greyjoy": 20,
                           "tyrell": 5, "martell": 6}
    assert s.power_pool()[s.ruleset.house("greyjoy")] == 0


class ScriptedRng:
    """Stands in for the state's generator: each permutation is the next scripted order."""

    def __init__(self, *orders):
        self.orders = list(orders)

    def permutation(self, cards):
        order = self.orders.pop(0)
        assert sorted(order) == sorted(cards.tolist())
        return np.array(order, dtype=cards.dtype)


def deck_order(rs, deck, top):
    """Deck ``deck``'s 10 card indices with the named cards first."""
    cards = [c.index for c in rs.westeros_deck(deck)]
    for i, cid in enumerate(top):
        j = next(k for k in range(i, 10) if rs.westeros_cards[cards[k]].id == cid)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def test_winter_is_coming_is_replaced_until_it_is_not():
    """Facts §12 D9: Winter Is Coming reshuffles all 10 cards (also those drawn before) and the
    new top card replaces it; Winter again repeats."""
    s = new_game(6, seed=0)
    rs = s.ruleset
    s.westeros_decks[0] = deck_order(rs, "I", ["supply", "winter-is-coming"])
    s.westeros_drawn[0] = 1  # Supply was drawn in an earlier round: it is shuffled back too
    s.rng = ScriptedRng(deck_order(rs, "I", ["winter-is-coming"]),
                        deck_order(rs, "I", ["mustering"]))
    card = reveal(s, 0)
    assert rs.westeros_cards[card].id == "mustering"
    assert s.westeros_drawn[0] == 1 and s.rng.orders == []
    assert s.westeros_decks[0].tolist() == deck_order(rs, "I", ["mustering"])


@pytest.mark.parametrize("seed", range(12))
def test_winter_is_coming_replacement_icon_counts(seed, attacks):
    """Facts §12 D9, §6.2 step 3: the replacement's wildling icon counts (II and III have none),
    the whole deck is reshuffled and the replacement is its first card."""
    s = at_westeros({"I": ["winter-is-coming"], "II": ["game-of-thrones"],
                     "III": ["put-to-the-sword"]}, seed=seed)
    rs = s.ruleset
    deck = s.westeros_decks[0].tolist()
    assert sorted(deck) == sorted(c.index for c in rs.westeros_deck("I"))
    assert s.westeros_drawn[0] == 1
    new = rs.westeros_cards[deck[0]]
    assert new.id != "winter-is-coming"
    assert s.wildling_threat == 2 + 2 * new.wildling_icon


def test_winter_seeds_cover_both_cases():
    """The seeds above meet replacements with and without an icon (else that test is weak)."""
    icons = set()
    for seed in range(12):
        s = at_westeros({"I": ["winter-is-coming"], "II": ["game-of-thrones"],
                         "III": ["put-to-the-sword"]}, seed=seed)
        icons.add(s.ruleset.westeros_cards[int(s.westeros_decks[0, 0])].wildling_icon)
    assert icons == {True, False}


def test_empty_deck_is_reshuffled_before_drawing():
    """§6.2 step 2 (facts §8): a deck whose 10 cards were all drawn is reshuffled, then drawn."""
    s = new_game(6, seed=3)
    s.westeros_drawn[1] = 10
    cards = sorted(s.westeros_decks[1].tolist())
    card = draw(s, 1)
    assert s.westeros_drawn[1] == 1
    assert sorted(s.westeros_decks[1].tolist()) == cards
    assert card == s.westeros_decks[1, 0]


def test_illegal_choice_leaves_state_unchanged():
    """D-01: only Supply, Mustering or nothing; anything else raises and changes nothing."""
    s = at_westeros({"I": ["a-throne-of-blades"]})
    before = s.clone()
    for bad in (choice("clash-of-kings"), ("bid", 0), ("done",)):
        with pytest.raises(IllegalActionError):
            apply(s, bad)
        assert s == before
