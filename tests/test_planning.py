"""Planning phase: assign orders, reveal, Messenger Raven (rules spec §10, R21.3, R23.1, R23.4;
facts §4.2; DECISIONS D-20 to D-23, Open points 8-9)."""

import numpy as np
import pytest
from engine_helpers import (
    area,
    build,
    house,
    kind,
    option_tokens,
    orders,
    place,
    place_orders,
    token,
    who,
)

from got_env.encoding import encoder_for
from got_env.engine import DecisionKind, IllegalActionError, apply, choice, start_game
from got_env.engine.state import KINGS_COURT, Phase

NORMAL_KINDS = ["consolidate-power-a", "defense-1a", "march-0", "march-minus-1", "raid-a",
                "support-0a"]
SPECIAL = ["consolidate-power-special", "defense-special", "march-special", "raid-special",
           "support-special"]

# 3 players, one unit each (Stark also a ship at sea and one in a port).
THREE = {"players": 3, "units": {
    "stark": {"winterfell": "F", "bay-of-ice": "S", "port-of-winterfell": "S"},
    "lannister": {"lannisport": "F"},
    "baratheon": {"dragonstone": "F"}}}
THREE_PLAN = {"dragonstone": "raid-a", "lannisport": "march-0", "winterfell": "defense-1a",
              "bay-of-ice": "consolidate-power-a", "port-of-winterfell": "support-0a"}


def wildling(state, card_id):
    return next(c.index for c in state.ruleset.wildling_cards if c.id == card_id)


# -- R10.1: assign orders ----------------------------------------------------------------------


def test_r10_1_1_every_area_with_units_is_asked_including_sea_and_port():
    """R10.1.1, R10.1.7: a house places one order in every area holding its units (sea areas
    and ports included) and nowhere else; D-20 is secret (R23.1)."""
    s = build(**THREE)
    assert kind(s) == DecisionKind.PLACE_ORDERS
    asked = {}
    while kind(s) == DecisionKind.PLACE_ORDERS:
        assert s.pending.secret
        h = who(s)
        areas = sorted({s.ruleset.areas[o[1]].id for o in s.pending.options})
        asked.setdefault(h, set()).update(areas)
        place(s, areas[0], THREE_PLAN[areas[0]])
    assert asked == {"stark": {"winterfell", "bay-of-ice", "port-of-winterfell"},
                     "lannister": {"lannisport"}, "baratheon": {"dragonstone"}}
    assert orders(s) == THREE_PLAN


def test_r10_1_2_one_order_per_area():
    """R10.1.2: once an area holds an order it is not offered again."""
    s = build(**THREE)
    place_orders(s, {"dragonstone": "raid-a", "lannisport": "march-0"})
    assert who(s) == "stark"
    place(s, "winterfell", "defense-1a")
    offered = {s.ruleset.areas[o[1]].id for o in s.pending.options}
    assert offered == {"bay-of-ice", "port-of-winterfell"}
    with pytest.raises(IllegalActionError):
        apply(s, ("order", area(s, "winterfell"), token(s, "raid-a")))


def test_r10_1_7_useless_orders_are_legal():
    """R10.1.7: Consolidate Power in a sea area and Defense in a port may be placed."""
    s = build(**THREE)
    place_orders(s, {"dragonstone": "raid-a", "lannisport": "march-0"})
    assert "consolidate-power-a" in option_tokens(s, "bay-of-ice")
    assert "defense-1a" in option_tokens(s, "port-of-winterfell")


@pytest.mark.parametrize("players,stars", [
    (6, {"lannister": 3, "stark": 3, "martell": 2, "baratheon": 1, "tyrell": 0, "greyjoy": 0}),
    (5, {"lannister": 3, "stark": 3, "baratheon": 2, "tyrell": 1, "greyjoy": 0}),
    (4, {"lannister": 3, "stark": 2, "baratheon": 1, "greyjoy": 0}),
    (3, {"lannister": 3, "stark": 2, "baratheon": 1}),
])
def test_r10_1_3_star_limit_by_kings_court_position(players, stars):
    """R10.1.3, facts §4.2: a house places at most as many special orders as the stars of its
    King's Court position (standard tracks: 6p 3,3,2,1,0,0; 5p 3,3,2,1,0; 4p and 3p overlay
    3,2,1,0). The offered tokens: every normal kind, and specials while stars remain."""
    s = build(players=players)
    placed_specials = {h: 0 for h in stars}
    while kind(s) == DecisionKind.PLACE_ORDERS:
        h = who(s)
        first = s.pending.options[0][1]
        offered = option_tokens(s, s.ruleset.areas[first].id)
        normals = [t for t in offered if not s.ruleset.order_tokens[token(s, t)].special]
        specials = [t for t in offered if s.ruleset.order_tokens[token(s, t)].special]
        assert len(set(normals)) >= 1
        if placed_specials[h] < stars[h]:
            assert specials, f"{h} has stars left but no special offered"
            apply(s, ("order", first, token(s, specials[0])))
            placed_specials[h] += 1
        else:
            assert specials == [], f"{h} over its {stars[h]} stars"
            apply(s, ("order", first, token(s, normals[0])))
    areas_of = {h: int((s.units[:, house(s, h)].sum(axis=1) > 0).sum()) for h in stars}
    assert placed_specials == {h: min(stars[h], areas_of[h]) for h in stars}


def test_r10_1_3_any_normal_order_and_one_copy_of_identical_tokens():
    """R10.1.3, §2.2: the 10 normal tokens are usable; identical tokens (two Defense +1, two
    Support, two Raid, two CP) are offered once while a copy is left, then the second copy."""
    lannister = {a: "F" for a in (
        "lannisport", "stoney-sept", "searoad-marches", "riverrun", "kingswood", "the-twins",
        "the-fingers", "blackwater", "karhold", "widows-watch")}
    s = build(players=3, units={"lannister": {**lannister, "the-stony-shore": "K"}},
              neutral_forces={}, garrisons={})
    # Lannister (King's Court 1, 3 stars): the 6 normal kinds and the 5 specials.
    assert who(s) == "lannister"
    assert option_tokens(s, "lannisport") == sorted(NORMAL_KINDS + SPECIAL)
    place(s, "lannisport", "defense-1a")
    assert "defense-1b" in option_tokens(s, "riverrun")
    place(s, "riverrun", "defense-1b")
    assert not any(t.startswith("defense-1") for t in option_tokens(s, "kingswood"))
    normal = ["support-0a", "support-0b", "raid-a", "raid-b", "consolidate-power-a",
              "consolidate-power-b", "march-minus-1", "march-0"]
    for a, t in zip(("stoney-sept", "searoad-marches", "kingswood", "the-twins", "the-fingers",
                     "blackwater", "karhold", "widows-watch"), normal, strict=True):
        place(s, a, t)
    # All 10 normal tokens are on the board: only specials are left for the 11th area.
    assert option_tokens(s, "the-stony-shore") == SPECIAL


def test_r10_1_6_order_shortage_leaves_areas_of_the_houses_choice_empty():
    """R10.1.6, §10.3, DECISIONS Open point 8: with March, Defense, Support and Raid banned,
    Stark (King's Court 3 of 3: one star) has three CP tokens for four areas; it places all
    three and leaves the area of its choice without an order."""
    s = build(players=3, order_bans=["march", "defense", "support", "raid"],
              tracks={"kings-court": ["lannister", "baratheon", "stark"]},
              units={"stark": {"winterfell": "F", "white-harbor": "F", "karhold": "F",
                               "castle-black": "F"},
                     "lannister": {"lannisport": "F"}, "baratheon": {"dragonstone": "F"}})
    place_orders(s, {"dragonstone": "consolidate-power-a", "lannisport": "consolidate-power-a"})
    # Stark (King's Court 3: 1 star) has CP a, CP b and CP special for 4 areas.
    assert who(s) == "stark"
    assert option_tokens(s, "karhold") == ["consolidate-power-a", "consolidate-power-special"]
    place(s, "karhold", "consolidate-power-special")
    place(s, "winterfell", "consolidate-power-a")
    place(s, "castle-black", "consolidate-power-b")
    # Out of tokens: white-harbor stays empty and the orders are revealed.
    assert kind(s) == DecisionKind.RAVEN_USE
    assert s.orders_revealed
    assert "white-harbor" not in orders(s)
    assert orders(s)["castle-black"] == "consolidate-power-b"


def test_r10_1_4_placed_and_unused_orders_are_never_shown():
    """R10.1.4, §23: Baratheon's order in Dragonstone, a Raid or a March, changes nothing that
    Stark or Lannister observe (neither the order nor which tokens Baratheon has left), while
    Baratheon sees its own; at the reveal (§10.2) the two branches show the difference to all."""
    s = build(**THREE)
    assert who(s) == "baratheon"
    enc = encoder_for(s.ruleset)
    branches = [s.clone(), s.clone()]
    place(branches[0], "dragonstone", "raid-a")
    place(branches[1], "dragonstone", "march-0")
    for observer in ("stark", "lannister"):
        seen = [enc.encode(b, house(b, observer)) for b in branches]
        assert np.array_equal(seen[0], seen[1]), observer
    own = [enc.encode(b, house(b, "baratheon")) for b in branches]
    assert not np.array_equal(own[0], own[1])
    for b in branches:
        place_orders(b, {a: t for a, t in THREE_PLAN.items() if a != "dragonstone"})
        assert b.orders_revealed
    revealed = [enc.encode(b, house(b, "stark")) for b in branches]
    assert not np.array_equal(revealed[0], revealed[1])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_r10_1_5_every_area_with_units_has_an_order_at_the_reveal(seed):
    """R10.1.5: when the orders are revealed (random 6-player placements of round 1, where no
    house runs short of tokens, R10.1.6), every area holding units holds an order."""
    s = start_game(6, seed=seed)
    rng = np.random.default_rng(seed)
    while not s.orders_revealed:
        assert kind(s) == DecisionKind.PLACE_ORDERS
        apply(s, s.pending.options[int(rng.integers(len(s.pending.options)))])
    occupied = np.flatnonzero(s.units.sum(axis=(1, 2)))
    assert len(occupied) > 6 and (s.orders[occupied] >= 0).all()
    assert (s.orders[s.units.sum(axis=(1, 2)) == 0] < 0).all()  # and nowhere else (R10.1.1)


def test_s10_3_banned_types_are_not_offered():
    """§10.3, R10.1.3: a Westeros ban removes every token of that type; the ban on special
    March orders removes only the March +1 star."""
    s = build(players=3, order_bans=["support", "special-march"], **{
        k: v for k, v in THREE.items() if k != "players"})
    offered = option_tokens(s, "dragonstone")
    assert offered == ["consolidate-power-a", "consolidate-power-special", "defense-1a",
                       "defense-special", "march-0", "march-minus-1", "raid-a", "raid-special"]


def test_s10_3_bans_last_for_one_planning_phase():
    """§10.3 (deck III cards bind the Planning phase of this round only): the bans are lifted
    once the Planning phase ends."""
    s = build(order_bans=["raid"], **THREE)
    place_orders(s, {**THREE_PLAN, "dragonstone": "defense-1a"})
    assert s.order_bans.any()
    apply(s, choice("nothing"))
    assert not s.order_bans.any()


# -- §10.2 reveal, R23.1 hidden orders ---------------------------------------------------------


def test_s10_2_orders_stay_hidden_until_every_house_has_placed():
    """§10.2, R23.1, R23.4: while any house still places, ``orders_revealed`` is False and each
    D-20 is secret; the last placement reveals them all at once, then the (public) Raven
    decision follows for the King's Court holder."""
    s = build(**THREE)
    seen = []
    while kind(s) == DecisionKind.PLACE_ORDERS:
        seen.append((s.orders_revealed, s.pending.secret))
        areas = sorted({s.ruleset.areas[o[1]].id for o in s.pending.options})
        place(s, areas[0], THREE_PLAN[areas[0]])
    assert seen == [(False, True)] * 5
    assert s.orders_revealed
    assert kind(s) == DecisionKind.RAVEN_USE and not s.pending.secret
    assert who(s) == "lannister"  # position 1 of King's Court holds the Raven (§9.3)


def test_r10_1_1_houses_without_units_are_not_asked():
    """R10.1.1: a house with no units places nothing."""
    s = build(players=3, units={"stark": {"winterfell": "F"}, "lannister": {"lannisport": "F"}})
    asked = place_orders(s, {"winterfell": "march-0", "lannisport": "march-0"})
    assert sorted(asked) == ["lannister", "stark"]


# -- §10.4 Messenger Raven ---------------------------------------------------------------------


def raven_ready(**extra):
    spec = {**THREE, **extra}
    s = build(**spec)
    place_orders(s, THREE_PLAN)
    assert kind(s) == DecisionKind.RAVEN_USE
    return s


def test_s10_4_raven_options():
    """§10.4, D-21: the Raven holder may swap an order, look at the wildling deck, or neither."""
    s = build(players=3, units={"stark": {"winterfell": "F"}, "lannister": {"lannisport": "F"},
                                "baratheon": {"dragonstone": "F"}})
    place_orders(s, {"dragonstone": "raid-a", "lannisport": "march-0", "winterfell": "raid-a"})
    assert who(s) == "lannister"
    assert s.pending.options == (choice("nothing"), choice("swap-order"),
                                 choice("look-at-wildling-card"))


def test_s10_4_raven_holder_without_orders_cannot_swap():
    """§10.4, D-22: with no order of his own on the board there is nothing to swap."""
    s = build(players=3, units={"stark": {"winterfell": "F"}, "baratheon": {"dragonstone": "F"}})
    place_orders(s, {"dragonstone": "raid-a", "winterfell": "raid-a"})
    assert (kind(s), who(s)) == (DecisionKind.RAVEN_USE, "lannister")
    assert s.pending.options == (choice("nothing"), choice("look-at-wildling-card"))


def test_s10_4_raven_nothing_goes_to_the_action_phase():
    """§10.4: doing nothing leaves the Raven available and ends the Planning phase (the raid
    in Dragonstone has no target and goes; Lannister's March is next)."""
    s = raven_ready()
    apply(s, choice("nothing"))
    assert not s.raven_used
    assert s.phase == Phase.ACTION
    assert (kind(s), who(s)) == (DecisionKind.MARCH_MOVE, "lannister")


def test_s10_4_raven_swap_replaces_one_own_order():
    """§10.4, D-22: the holder replaces one of his orders on the board with an unused token;
    the Raven is used; the swap is offered for his own areas only and never for the same token.
    """
    s = build(players=3, units={"stark": {"winterfell": "F"},
                                "lannister": {"lannisport": "F", "stoney-sept": "F"},
                                "baratheon": {"dragonstone": "F"}})
    place_orders(s, {"dragonstone": "raid-a", "lannisport": "march-0", "stoney-sept": "raid-a",
                     "winterfell": "march-0"})
    apply(s, choice("swap-order"))
    assert kind(s) == DecisionKind.RAVEN_SWAP and who(s) == "lannister"
    offered = {(s.ruleset.areas[a].id, s.ruleset.order_tokens[t].id)
               for _, a, t in s.pending.options}
    assert {a for a, _ in offered} == {"lannisport", "stoney-sept"}
    assert ("lannisport", "march-0") not in offered
    assert ("stoney-sept", "raid-a") not in offered
    assert ("stoney-sept", "raid-b") not in offered  # identical to the token already there
    assert ("lannisport", "raid-b") in offered
    apply(s, ("order", area(s, "lannisport"), token(s, "defense-special")))
    assert s.raven_used
    # The raids have no target and go (R12.2.4); Stark's March waits.
    assert (kind(s), who(s)) == (DecisionKind.MARCH_MOVE, "stark")
    assert orders(s) == {"lannisport": "defense-special", "winterfell": "march-0"}


def test_s10_4_raven_swap_keeps_the_star_limit():
    """§10.4, R10.1.3, AMBIG-7: a swap never takes a house over its star limit, but one special
    may replace another. Lannister holds the Raven with King's Court 1 (3 stars) and has 3
    specials on the board."""
    s = build(players=3, units={"lannister": {"lannisport": "F", "stoney-sept": "F",
                                              "searoad-marches": "F", "riverrun": "F"},
                                "stark": {"winterfell": "F"}})
    place_orders(s, {"lannisport": "march-special", "stoney-sept": "raid-special",
                     "searoad-marches": "support-special", "riverrun": "march-0",
                     "winterfell": "march-0"})
    apply(s, choice("swap-order"))
    offered = {(s.ruleset.areas[a].id, s.ruleset.order_tokens[t].id)
               for _, a, t in s.pending.options}
    assert not {t for a, t in offered if a == "riverrun"} & set(SPECIAL)
    assert ("lannisport", "defense-special") in offered
    assert ("lannisport", "consolidate-power-special") in offered


def test_s10_4_raven_swap_respects_westeros_bans():
    """§10.4, AMBIG-7 (DECISIONS Open point 9): the swap cannot bring in a banned order type."""
    s = build(order_bans=["consolidate-power"], players=3,
              units={"stark": {"winterfell": "F"}, "lannister": {"lannisport": "F"}})
    place_orders(s, {"lannisport": "march-0", "winterfell": "march-0"})
    apply(s, choice("swap-order"))
    tokens = {s.ruleset.order_tokens[t].type for _, _, t in s.pending.options}
    assert "consolidate-power" not in tokens
    assert tokens == {"march", "defense", "support", "raid"}


def test_s10_4_raven_look_and_keep_on_top():
    """§10.4, D-23, R23.5: the holder sees the top wildling card (only in his decision's
    context) and keeps it on top; the deck is unchanged and he knows its top."""
    s = raven_ready(wildling_top=["crow-killers"])
    deck = s.wildling_deck.copy()
    apply(s, choice("look-at-wildling-card"))
    assert kind(s) == DecisionKind.RAVEN_LOOK and who(s) == "lannister"
    assert s.pending.context["wildling_card"] == "crow-killers"
    apply(s, choice("keep-on-top"))
    assert np.array_equal(s.wildling_deck, deck)
    assert s.raven_used
    known = {h.id: int(s.wildling_known_top[h.index]) for h in s.ruleset.houses}
    assert known["lannister"] == wildling(s, "crow-killers")
    assert known["stark"] == -1 and known["baratheon"] == -1


def test_s10_4_raven_look_and_bury():
    """§10.4, D-23: a card put on the bottom goes under the deck; the next card comes on top,
    and nobody knows the new top card."""
    s = raven_ready(wildling_top=["crow-killers", "massing-on-the-milkwater"])
    apply(s, choice("look-at-wildling-card"))
    apply(s, choice("put-on-bottom"))
    assert s.wildling_deck[0] == wildling(s, "massing-on-the-milkwater")
    assert s.wildling_deck[-1] == wildling(s, "crow-killers")
    assert len(set(s.wildling_deck.tolist())) == len(s.ruleset.wildling_cards)
    assert (s.wildling_known_top == -1).all()


def test_s10_4_burying_the_top_card_clears_what_others_knew_of_it():
    """§10.4: a house that saw the top card with an earlier Raven (and kept it on top) no longer
    knows the top once another Raven holder has put that card on the bottom."""
    s = raven_ready(wildling_top=["crow-killers", "massing-on-the-milkwater"])
    s.wildling_known_top[house(s, "stark")] = wildling(s, "crow-killers")
    apply(s, choice("look-at-wildling-card"))
    apply(s, choice("put-on-bottom"))
    assert s.wildling_known_top[house(s, "stark")] == -1


def test_s10_4_used_raven_is_not_offered():
    """§10.4, R12.5: a Raven already used this round (used side up) gives no decision."""
    s = build(raven_used=True, **THREE)
    place_orders(s, THREE_PLAN)
    assert s.phase == Phase.ACTION
    assert (kind(s), who(s)) == (DecisionKind.MARCH_MOVE, "lannister")


def test_s10_4_raven_holder_follows_kings_court():
    """§9.3, §10.4: the Raven belongs to position 1 of King's Court, whoever that is."""
    s = raven_ready(tracks={"kings-court": ["baratheon", "stark", "lannister"]})
    assert who(s) == "baratheon"
    assert s.holder(KINGS_COURT) == house(s, "baratheon")


def test_s10_4_raven_swap_never_offers_an_identical_token():
    """§10.4, §2.2: swapping a token for its identical copy changes nothing and is not offered
    (here Raid b is on the board and Raid a is unused)."""
    s = build(players=3, units={"stark": {"winterfell": "F"},
                                "lannister": {"lannisport": "F", "stoney-sept": "F"}},
              orders={"stoney-sept": "raid-b"})
    place_orders(s, {"lannisport": "march-0", "winterfell": "march-0"})
    assert orders(s)["stoney-sept"] == "raid-b"
    apply(s, choice("swap-order"))
    offered = {(s.ruleset.areas[a].id, s.ruleset.order_tokens[t].id)
               for _, a, t in s.pending.options}
    assert ("stoney-sept", "raid-a") not in offered
    assert ("stoney-sept", "raid-special") in offered
    assert ("lannisport", "raid-a") in offered
