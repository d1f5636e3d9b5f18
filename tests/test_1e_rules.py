"""The 1st edition's own rules (``ruleset="1e"``), one scenario each: wildlings (1e spec 5.4),
the special Raid and pillage (7.1), the special Consolidate Power and CP on land only (1, 6.1,
7.3), mustering house by house and ships without ports (5.2), the Raven's swap only (6.3).

3 players unless said otherwise: Stark, Lannister, Baratheon; turn order (Iron Throne) Baratheon,
Lannister, Stark; 5 power each. Where it is cheap, the 2nd edition's counterpart is shown
unchanged next to the 1e rule.
"""

from __future__ import annotations

import pytest
from rules_helpers_1e import attack_1e, build_1e
from wildling_helpers import attack as attack_2e
from wildling_helpers import bid, ended, play

from got_env.engine import apply
from got_env.engine.decision import DONE, DecisionKind
from got_env.engine.state import FOOTMAN, KNIGHT, SHIP, GameState

D = DecisionKind


def h(state: GameState, house_id: str) -> int:
    return state.ruleset.house(house_id)


def a(state: GameState, area_id: str) -> int:
    return state.ruleset.area(area_id)


def c(state: GameState, card_id: str) -> int:
    return state.ruleset.house_card(card_id)


def units_of(state: GameState, house_id: str) -> dict[str, list[int]]:
    """area id -> [footmen, knights, ships] of the house, areas where it has any."""
    hi = h(state, house_id)
    return {ar.id: state.units[ar.index, hi, :3].tolist() for ar in state.ruleset.areas
            if state.units[ar.index, hi].any()}


def powers(state: GameState) -> list[int]:
    return [int(state.power[h(state, x)]) for x in ("baratheon", "lannister", "stark")]


# =============================================================================================
# Wildlings (1e spec 5.4, A.5; readings C.10-C.12)


def test_nights_watch_win_highest_bidder_takes_back_one_used_card():
    """1e spec 5.4 items 2-4, 6: the Night's Watch strength is the sum of the bids (1+2+3 = 6 >=
    6: the Watch wins); every bid goes to the pool; the highest bidder (Stark) may take one of his
    used house cards back into hand (D-18: his discards or done); the threat goes back to 0."""
    s = attack_1e(6, hands={"stark": ["eddard-stark", "robb-stark"]})
    bid(s, baratheon=1, lannister=2, stark=3)
    d = s.pending
    assert (d.kind, d.player) == (D.MAMMOTH_RIDERS_RETRIEVE, h(s, "stark"))
    discards = ["greatjon-umber", "lord-mormont", "sir-rodrik-cassel", "catelyn-stark",
                "maester-luwin"]
    assert d.options == tuple(("card", c(s, x)) for x in discards) + (DONE,)
    assert powers(s) == [4, 3, 2]
    apply(s, ("card", c(s, "maester-luwin")))
    assert ended(s)
    assert sorted(s.ruleset.house_cards[x].id for x in s.hand(h(s, "stark"))) == [
        "eddard-stark", "maester-luwin", "robb-stark"]
    assert len(s.discards(h(s, "stark"))) == 4
    assert s.wildling_threat == 0


def test_nights_watch_reward_may_be_declined():
    """1e spec 5.4 item 4: the highest bidder *may* take a card back; done leaves every card where
    it was."""
    s = attack_1e(4, hands={"lannister": ["tywin-lannister"]})
    bid(s, baratheon=0, lannister=4, stark=0)
    play(s, D.MAMMOTH_RIDERS_RETRIEVE, "lannister", DONE)
    assert ended(s)
    assert [s.ruleset.house_cards[x].id for x in s.hand(h(s, "lannister"))] == ["tywin-lannister"]
    assert s.wildling_threat == 0


def test_nights_watch_reward_not_asked_without_used_cards():
    """1e spec 5.4 item 4: a highest bidder with no used card has nothing to take back: nothing
    is asked and the attack ends (threat 0)."""
    s = attack_1e(2)
    bid(s, baratheon=2, lannister=0, stark=1)
    assert ended(s)
    assert all(len(s.hand(h(s, x))) == 7 for x in ("baratheon", "lannister", "stark"))
    assert s.wildling_threat == 0


def test_highest_bid_tie_is_broken_by_the_iron_throne_holder():
    """1e spec 5.4 item 4: ties for the highest bid are decided by the Iron Throne holder
    (Baratheon, D-09); the house he names gets the reward choice."""
    s = attack_1e(4, hands={"lannister": ["tywin-lannister"], "stark": ["eddard-stark"]})
    bid(s, baratheon=0, lannister=2, stark=2)
    d = s.pending
    assert (d.kind, d.player) == (D.WILDLING_TIED_BIDDER, h(s, "baratheon"))
    assert d.options == (("house", h(s, "lannister")), ("house", h(s, "stark")))
    apply(s, ("house", h(s, "stark")))
    play(s, D.MAMMOTH_RIDERS_RETRIEVE, "stark", ("card", c(s, "robb-stark")))
    assert ended(s)
    assert len(s.hand(h(s, "stark"))) == 2 and len(s.hand(h(s, "lannister"))) == 1


def test_all_bid_zero_against_zero_the_watch_wins():
    """Reading C.12: everyone bids 0 against strength 0: the Watch wins (0 >= 0) and the Iron
    Throne holder picks the "highest bidder" among all three."""
    s = attack_1e(0, hands={"stark": ["eddard-stark"]})
    bid(s, baratheon=0, lannister=0, stark=0)
    d = s.pending
    assert (d.kind, d.player, d.context["highest"]) == (D.WILDLING_TIED_BIDDER,
                                                        h(s, "baratheon"), True)
    assert len(d.options) == 3
    apply(s, ("house", h(s, "stark")))
    assert s.pending.kind == D.MAMMOTH_RIDERS_RETRIEVE


LOSS_UNITS = {
    "baratheon": {"dragonstone": "KF", "kingswood": "F", "shipbreaker-bay": "S"},
    "lannister": {"lannisport": "KF", "stoney-sept": "F", "the-golden-sound": "S"},
    "stark": {"winterfell": "F"},
}


def test_wildlings_win_every_house_loses_2_points_the_lowest_4_in_turn_order():
    """1e spec 5.4 items 5-6: the wildlings win (1+0+2 < 8); in turn order every house removes
    units worth 2 mustering points (footman 1, knight 2, ship 1), the lowest bidder (Lannister)
    4; the owner picks each unit (D-12); a house with too few units loses them all (reading
    C.10: Stark's lone footman goes, unasked); bids go to the pool; the threat goes to 0."""
    s = attack_1e(8, units=LOSS_UNITS)
    bid(s, baratheon=1, lannister=0, stark=2)
    d = s.pending
    assert (d.kind, d.player, d.context["left"]) == (D.WILDLING_DESTROY_UNITS,
                                                     h(s, "baratheon"), 2)
    assert d.options == (("unit", a(s, "dragonstone"), FOOTMAN),
                         ("unit", a(s, "dragonstone"), KNIGHT),
                         ("unit", a(s, "kingswood"), FOOTMAN),
                         ("unit", a(s, "shipbreaker-bay"), SHIP))
    apply(s, ("unit", a(s, "kingswood"), FOOTMAN))
    d = s.pending  # 1 point left: the knight (2) is no longer offered, nor downgraded
    assert (d.player, d.context["left"]) == (h(s, "baratheon"), 1)
    assert d.options == (("unit", a(s, "dragonstone"), FOOTMAN),
                         ("unit", a(s, "shipbreaker-bay"), SHIP))
    apply(s, ("unit", a(s, "shipbreaker-bay"), SHIP))
    assert units_of(s, "baratheon") == {"dragonstone": [1, 1, 0]}
    play(s, D.WILDLING_DESTROY_UNITS, "lannister", ("unit", a(s, "lannisport"), KNIGHT))
    assert s.pending.context["left"] == 2
    play(s, D.WILDLING_DESTROY_UNITS, "lannister", ("unit", a(s, "the-golden-sound"), SHIP))
    play(s, D.WILDLING_DESTROY_UNITS, "lannister", ("unit", a(s, "stoney-sept"), FOOTMAN))
    assert ended(s)
    assert units_of(s, "lannister") == {"lannisport": [1, 0, 0]}
    assert units_of(s, "stark") == {}
    assert powers(s) == [4, 5, 3]
    assert s.wildling_threat == 0


def test_wildling_losses_leave_no_power_token_in_emptied_areas():
    """1e spec 5.4 item 5: an area emptied by the losses gets no power token: Kingswood and
    Stoney Sept are nobody's afterwards, and available power only lost the bids."""
    s = attack_1e(8, units=LOSS_UNITS)
    bid(s, baratheon=1, lannister=0, stark=2)
    apply(s, ("unit", a(s, "kingswood"), FOOTMAN))
    apply(s, ("unit", a(s, "dragonstone"), FOOTMAN))
    for pick in (("unit", a(s, "stoney-sept"), FOOTMAN), ("unit", a(s, "lannisport"), KNIGHT),
                 ("unit", a(s, "lannisport"), FOOTMAN)):
        play(s, D.WILDLING_DESTROY_UNITS, "lannister", pick)
    assert ended(s)
    control = s.control()
    assert control[a(s, "kingswood")] == -1 and control[a(s, "stoney-sept")] == -1
    assert (s.power_tokens == -1).all()
    assert powers(s) == [4, 5, 3]


def test_wildling_losses_pay_exactly_when_the_units_allow_it():
    """Reading C.10 (smallest overshoot) and 1e spec 5.4 item 5 (no downgrading a knight): a
    house with a knight and a footman owing 2 loses the knight: taking the footman first would
    leave only the knight for the last point, an overshoot its units can avoid. The lowest
    bidder's 4 with a knight and a footman (3 points): both go."""
    s = attack_1e(8, units={"baratheon": {"dragonstone": "KF"},
                            "lannister": {"lannisport": "KF"},
                            "stark": {"winterfell": "KF", "white-harbor": "F"}})
    bid(s, baratheon=1, lannister=0, stark=2)
    d = s.pending
    assert (d.kind, d.player) == (D.WILDLING_DESTROY_UNITS, h(s, "stark"))
    assert d.options == (("unit", a(s, "white-harbor"), FOOTMAN),
                         ("unit", a(s, "winterfell"), FOOTMAN),
                         ("unit", a(s, "winterfell"), KNIGHT))
    assert units_of(s, "baratheon") == {"dragonstone": [1, 0, 0]}
    assert units_of(s, "lannister") == {}
    apply(s, ("unit", a(s, "winterfell"), FOOTMAN))
    assert ended(s)  # the last point: only the other footman could pay it, so it went unasked
    assert units_of(s, "stark") == {"winterfell": [0, 1, 0]}


def test_lowest_bid_tie_is_broken_by_the_iron_throne_holder():
    """1e spec 5.4 item 5: ties for the lowest bid are decided by the Iron Throne holder
    (Baratheon, D-09, ``highest`` False); he may name himself; the named house owes 4."""
    s = attack_1e(8, units=LOSS_UNITS)
    bid(s, baratheon=0, lannister=0, stark=2)
    d = s.pending
    assert (d.kind, d.player, d.context["highest"]) == (D.WILDLING_TIED_BIDDER,
                                                        h(s, "baratheon"), False)
    assert d.options == (("house", h(s, "baratheon")), ("house", h(s, "lannister")))
    apply(s, ("house", h(s, "baratheon")))
    assert s.pending.context["left"] == 4 and s.pending.player == h(s, "baratheon")


def test_threat_after_an_attack_1e_always_zero_2e_drops_two_spaces():
    """1e spec 5.4 item 6 (threat to 0 whatever the result) against the 2e counterpart (R10,
    facts §4.6: a wildling win moves the token back 2 spaces, 8 -> 4)."""
    s1 = attack_1e(8, units={"baratheon": {"dragonstone": "F"}, "lannister": {"lannisport": "F"},
                             "stark": {"winterfell": "F"}})
    bid(s1, baratheon=1, lannister=0, stark=2)
    assert ended(s1) and s1.wildling_threat == 0
    s2 = attack_2e(strength=8)
    bid(s2, baratheon=1, lannister=0, stark=2)
    assert ended(s2) and s2.wildling_threat == 4


def test_wildlings_attack_card_starts_the_fixed_attack():
    """1e spec 5.4: the attack happens on the Wildlings Attack card (deck III), with the strength
    the threat shows, with no wildling deck (the 1e game has none)."""
    s = build_1e(round=2, start="westeros", wildling_threat=6,
                 westeros_top={"III": ["wildlings-attack"]})
    assert len(s.wildling_deck) == 0
    while s.pending.kind != D.WILDLING_BID:
        apply(s, s.pending.options[0])
    assert s.pending.context["strength"] == s.wildling_threat >= 6


@pytest.mark.parametrize("strength", [2, 12])
def test_attack_strength_is_the_threat(strength: int):
    """1e spec 5.4 item 1: the wildling strength is the marker's value; a sum of bids one short
    loses, whatever the strength."""
    s = attack_1e(strength, units=LOSS_UNITS, power={"baratheon": 12})
    bid(s, baratheon=strength - 1, lannister=0, stark=0)
    d = s.pending  # the wildlings won: Lannister and Stark tie for the lowest bid
    assert (d.kind, d.context["highest"]) == (D.WILDLING_TIED_BIDDER, False)
    assert d.options == (("house", h(s, "lannister")), ("house", h(s, "stark")))


# =============================================================================================
# Special Raid and pillage (1e spec 7.1, A.7, A.8; reading C.7)

# Lannister raids from Lannisport (land); 5 players. Around it: Stark Support in Riverrun,
# Baratheon CP in Stoney Sept, Tyrell Defense in Searoad Marches (land); Greyjoy CP on a ship in
# The Golden Sound (sea). A Stark March in Winterfell (resolved after the raids) holds the game.
AROUND_LANNISPORT = {
    "lannister": {"lannisport": "F"},
    "stark": {"riverrun": "F", "winterfell": "F"},
    "baratheon": {"stoney-sept": "F"},
    "tyrell": {"searoad-marches": "F"},
    "greyjoy": {"the-golden-sound": "S"},
}
AROUND_ORDERS = {"riverrun": "support-0a", "stoney-sept": "consolidate-power-a",
                 "searoad-marches": "defense-1a", "the-golden-sound": "consolidate-power-a",
                 "winterfell": "march-0"}


def raids(raid: str, ruleset: str = "1e", **spec) -> GameState:
    """5 players at the raid step, Lannister's ``raid`` token in Lannisport."""
    from got_env.engine import scenario

    full = {"players": 5, "start": "raids", "options": {"ruleset": ruleset},
            "units": AROUND_LANNISPORT, "orders": {"lannisport": raid, **AROUND_ORDERS}, **spec}
    return scenario.build(full)


def option_ids(state: GameState) -> list[str]:
    return sorted(state.ruleset.areas[o[1]].id for o in state.pending.options if o[0] == "area")


def order_ids(state: GameState) -> dict[str, str]:
    rs = state.ruleset
    return {rs.areas[x].id: rs.order_tokens[t].id for x, t in enumerate(state.orders) if t >= 0}


def at_halt(state: GameState) -> bool:
    """The raids are over: the game waits on Stark's March in Winterfell."""
    d = state.pending
    return (d.kind, d.player, d.context.get("area")) == (D.MARCH_MOVE, h(state, "stark"),
                                                        a(state, "winterfell"))


def five_powers(state: GameState) -> dict[str, int]:
    return {x.id: int(state.power[x.index]) for x in state.ruleset.houses}


def test_special_raid_removes_orders_in_two_adjacent_areas_and_pillages():
    """1e spec 7.1, A.7, reading C.7: a special Raid on land offers the adjacent land areas with
    an enemy Raid, Support or CP order (never the Defense in Searoad Marches, never the sea); it
    removes one (the CP in Stoney Sept: Lannister pillages 1, Baratheon loses nothing, A.8), then
    offers a second, different area or done; after the second removal the raid token goes."""
    s = raids("raid-special")
    d = s.pending
    assert (d.kind, d.player) == (D.RAID_TARGET, h(s, "lannister"))
    assert option_ids(s) == ["riverrun", "stoney-sept"] and DONE in d.options
    apply(s, ("area", a(s, "stoney-sept")))
    d = s.pending
    assert (d.kind, d.player, d.context["removed"]) == (D.RAID_TARGET, h(s, "lannister"), 1)
    assert d.options == (("area", a(s, "riverrun")), DONE)
    apply(s, ("area", a(s, "riverrun")))
    assert at_halt(s)
    assert order_ids(s) == {"searoad-marches": "defense-1a",
                            "the-golden-sound": "consolidate-power-a", "winterfell": "march-0"}
    assert five_powers(s) == {"stark": 5, "lannister": 6, "baratheon": 5, "greyjoy": 5,
                              "tyrell": 5}


def test_special_raid_may_stop_after_one_area():
    """1e spec 7.1: the second area is optional ("up to two"): done ends the raid with one
    order removed and the raid token gone."""
    s = raids("raid-special")
    apply(s, ("area", a(s, "riverrun")))
    apply(s, DONE)
    assert at_halt(s)
    assert "riverrun" not in order_ids(s) and "lannisport" not in order_ids(s)
    assert order_ids(s)["stoney-sept"] == "consolidate-power-a"


def test_special_raid_with_one_target_ends_after_it():
    """1e spec 7.1: with a single raidable area the special Raid removes that one order; no
    second choice is left but done, so none is asked."""
    s = raids("raid-special", orders={"lannisport": "raid-special", **AROUND_ORDERS,
                                      "riverrun": "defense-1a"})
    assert s.pending.options == (("area", a(s, "stoney-sept")), DONE)
    apply(s, ("area", a(s, "stoney-sept")))
    assert at_halt(s)
    assert "lannisport" not in order_ids(s)


def test_2e_special_raid_still_removes_one_order_defense_included():
    """The 2e counterpart (R12.2.2): the special Raid offers the Defense too, removes one order
    and ends (6 players, same position)."""
    s = raids("raid-special", ruleset="2e", players=6)
    assert option_ids(s) == ["riverrun", "searoad-marches", "stoney-sept"]
    apply(s, ("area", a(s, "searoad-marches")))
    assert at_halt(s)
    assert order_ids(s)["stoney-sept"] == "consolidate-power-a"


def test_sea_special_raid_hits_land_and_sea_and_pillages_twice():
    """1e spec 7.1, reading C.7: a raid from a sea area may target adjacent land and sea areas;
    Greyjoy's special Raid in The Golden Sound removes Lannister's CP in Lannisport and Tyrell's
    CP in the Sunset Sea: +1 power for each CP order removed (2), the victims lose nothing."""
    units = {"lannister": {"lannisport": "F"}, "tyrell": {"sunset-sea": "S"},
             "greyjoy": {"the-golden-sound": "S"}, "stark": {"winterfell": "F"},
             "baratheon": {"riverrun": "F"}}
    orders = {"the-golden-sound": "raid-special", "lannisport": "consolidate-power-a",
              "sunset-sea": "support-0a", "riverrun": "defense-1a", "winterfell": "march-0"}
    s = build_1e(players=5, start="raids", units=units, orders=orders)
    assert (s.pending.kind, s.pending.player) == (D.RAID_TARGET, h(s, "greyjoy"))
    assert option_ids(s) == ["lannisport", "sunset-sea"]
    apply(s, ("area", a(s, "sunset-sea")))
    apply(s, ("area", a(s, "lannisport")))
    assert at_halt(s)
    assert order_ids(s) == {"riverrun": "defense-1a", "winterfell": "march-0"}
    assert five_powers(s) == {"stark": 5, "lannister": 5, "baratheon": 5, "greyjoy": 6,
                              "tyrell": 5}


def test_special_raid_pillaging_two_cp_orders_gains_two():
    """Reading C.7: +1 power per CP order removed, so 2 with a special Raid that removes two."""
    s = raids("raid-special", orders={"lannisport": "raid-special", **AROUND_ORDERS,
                                      "riverrun": "consolidate-power-a"})
    apply(s, ("area", a(s, "riverrun")))
    apply(s, ("area", a(s, "stoney-sept")))
    assert at_halt(s)
    assert five_powers(s)["lannister"] == 7
    assert five_powers(s)["stark"] == 5 and five_powers(s)["baratheon"] == 5


def test_pillage_is_capped_at_twenty_tokens():
    """1e spec 7.1: the pillage gain is subject to the 20-token cap: a raider owning all 20 (here
    20 available) gains nothing."""
    s = raids("raid-a", power={"lannister": 20})
    apply(s, ("area", a(s, "stoney-sept")))
    assert at_halt(s)
    assert five_powers(s)["lannister"] == 20 and five_powers(s)["baratheon"] == 5


def test_normal_raid_1e_pillage_victim_loses_nothing_2e_loses_one():
    """1e spec 7.1, A.8 (``pillage_victim_loses`` 0: the raider gains 1, the victim nothing)
    against R12.2.3 (2e: the victim also discards 1); a normal Raid removes one order only."""
    s1 = raids("raid-a")
    assert option_ids(s1) == ["riverrun", "stoney-sept"]
    apply(s1, ("area", a(s1, "stoney-sept")))
    assert at_halt(s1)
    assert (five_powers(s1)["lannister"], five_powers(s1)["baratheon"]) == (6, 5)
    assert order_ids(s1)["riverrun"] == "support-0a"
    s2 = raids("raid-a", ruleset="2e", players=6)
    apply(s2, ("area", a(s2, "stoney-sept")))
    assert at_halt(s2)
    assert (five_powers(s2)["lannister"], five_powers(s2)["baratheon"]) == (6, 4)


# =============================================================================================
# Consolidate Power: the special CP is plain; CP orders only on land (1e spec 1, 6.1, 7.3, A.7)


def token_ids(state: GameState, area_id: str) -> list[str]:
    """Token ids the pending D-20 offers for the area."""
    rs, x = state.ruleset, a(state, area_id)
    return sorted(rs.order_tokens[o[2]].id for o in state.pending.options
                  if o[0] == "order" and o[1] == x)


def test_cp_orders_are_offered_on_land_only_1e_at_sea_in_2e():
    """1e spec 6.1 (``consolidate_power_at_sea`` False): a CP order may not be placed in a sea
    area; the other orders may. The 2e counterpart (R12.4.2): a CP may be placed at sea."""
    units = {"stark": {"winterfell": "F", "the-shivering-sea": "S"},
             "lannister": {"lannisport": "F"}, "baratheon": {"dragonstone": "F"}}
    s = build_1e(units=units)
    while s.pending.player != h(s, "stark"):
        apply(s, s.pending.options[0])
    sea, land = token_ids(s, "the-shivering-sea"), token_ids(s, "winterfell")
    assert not [t for t in sea if t.startswith("consolidate-power")]
    assert {t.split("-")[0] for t in sea} == {"defense", "march", "raid", "support"}
    assert "consolidate-power-a" in land and "consolidate-power-special" in land
    from got_env.engine import scenario

    s2 = scenario.build({"players": 3, "units": units})
    while s2.pending.player != h(s2, "stark"):
        apply(s2, s2.pending.options[0])
    assert "consolidate-power-a" in token_ids(s2, "the-shivering-sea")


def test_only_cp_tokens_left_leaves_the_sea_area_without_order():
    """1e spec 6.1 and the order-shortage reading (planning.py): with every other order type
    banned, Stark places CP in Winterfell; his ship's sea area can take none, so it stays without
    an order and the placement ends (Stark places last: the orders are revealed)."""
    s = build_1e(order_bans=["march", "defense", "support", "raid"],
                 units={"stark": {"winterfell": "F", "the-shivering-sea": "S"},
                        "lannister": {"lannisport": "F"}, "baratheon": {"dragonstone": "F"}})
    while s.pending.player != h(s, "stark"):
        apply(s, s.pending.options[0])
    assert {o[1] for o in s.pending.options} == {a(s, "winterfell")}
    apply(s, s.pending.options[0])
    assert s.orders_revealed and s.pending.kind == D.RAVEN_USE  # Stark was the last to place
    assert s.orders[a(s, "the-shivering-sea")] == -1
    assert s.ruleset.order_tokens[s.orders[a(s, "winterfell")]].type == "consolidate-power"


def cp_game(ruleset: str) -> GameState:
    """The consolidate step of round 1 (the last): Baratheon's special CP in Dragonstone (a
    stronghold, 1 crown), Lannister's normal CP in Lannisport (no crown)."""
    from got_env.engine import scenario

    units = {"baratheon": {"dragonstone": "F"}, "lannister": {"lannisport": "F"},
             "stark": {"winterfell": "F"}}
    orders = {"dragonstone": "consolidate-power-special", "lannisport": "consolidate-power-a",
              "winterfell": "defense-1a"}
    return scenario.build({"players": 3, "start": "consolidate", "units": units,
                           "orders": orders, "options": {"ruleset": ruleset, "max_rounds": 1}})


def test_special_cp_is_plain_in_1e_and_may_muster_in_2e():
    """1e spec 1 and 7.3, A.7 (``special_consolidate_power`` plain): the special CP has no
    mustering option; it gives 1 + crowns like a normal CP (Dragonstone: 2; Lannisport: 1), and
    nothing is asked. The 2e counterpart (R12.4.4): the special CP in a castle area asks gain
    power or muster (D-49)."""
    s = cp_game("1e")
    assert s.pending is None  # the game ended after round 1's action phase
    assert powers(s) == [7, 6, 5]
    s2 = cp_game("2e")
    assert (s2.pending.kind, s2.pending.player) == (D.CONSOLIDATE_SPECIAL, h(s2, "baratheon"))


# =============================================================================================
# Mustering house by house; ships without ports (1e spec 5.2, A.4, A.14; reading C.21)


def muster_game(units: dict, players: int = 3, **spec) -> GameState:
    """Round 2's Westeros phase with Mustering on top of deck I (resolved first)."""
    return build_1e(players=players, round=2, start="westeros", units=units,
                    westeros_top={"I": ["mustering"]}, **spec)


def test_each_house_musters_everything_before_the_next_house():
    """1e spec 5.2, A.14 (house by house; as the 2e R8.1): in turn order (Baratheon,
    Lannister, Stark) each house does all its mustering, in all its areas, before the next house
    is asked; points of an area are spent only there (Dragonstone 2, Storm's End 1)."""
    s = muster_game({"baratheon": {"dragonstone": "F", "storms-end": "F"},
                     "lannister": {"lannisport": "F"}, "stark": {"winterfell": "F"}})
    asked = []

    def muster(action):
        assert s.pending.kind == D.MUSTER
        asked.append(s.ruleset.houses[s.pending.player].id)
        apply(s, action)

    assert s.pending.options[:2] == (("area", a(s, "dragonstone")), ("area", a(s, "storms-end")))
    muster(("area", a(s, "dragonstone")))
    muster(("muster", FOOTMAN, a(s, "dragonstone")))
    assert s.pending.context == {"area": a(s, "dragonstone"), "points": 1}
    muster(DONE)  # the point left is lost
    muster(("area", a(s, "storms-end")))
    muster(("muster", FOOTMAN, a(s, "storms-end")))
    muster(("area", a(s, "lannisport")))
    muster(("muster", KNIGHT, a(s, "lannisport")))
    muster(DONE)  # Stark: nothing
    assert asked == ["baratheon"] * 5 + ["lannister"] * 2 + ["stark"]
    assert units_of(s, "baratheon") == {"dragonstone": [2, 0, 0], "storms-end": [2, 0, 0]}
    assert units_of(s, "lannister") == {"lannisport": [1, 1, 0]}


def test_ships_are_mustered_into_adjacent_seas_without_enemy_ships():
    """1e spec 5.2, A.4: no ports; a ship mustered in Winterfell goes straight into an adjacent
    sea area (Bay of Ice, The Shivering Sea), but not one holding another house's ship."""
    s = muster_game({"stark": {"winterfell": "F"}, "baratheon": {"dragonstone": "F"},
                     "lannister": {"lannisport": "F"}})
    while s.pending.player != h(s, "stark"):
        apply(s, DONE)
    apply(s, ("area", a(s, "winterfell")))
    ships = [o for o in s.pending.options if o[:2] == ("muster", SHIP)]
    assert ships == [("muster", SHIP, a(s, "bay-of-ice")),
                     ("muster", SHIP, a(s, "the-shivering-sea"))]
    s = muster_game({"stark": {"winterfell": "F"}, "baratheon": {"the-shivering-sea": "S"},
                     "lannister": {"lannisport": "F"}})
    while s.pending.player != h(s, "stark"):
        apply(s, DONE)
    apply(s, ("area", a(s, "winterfell")))
    ships = [o for o in s.pending.options if o[:2] == ("muster", SHIP)]
    assert ships == [("muster", SHIP, a(s, "bay-of-ice"))]


def test_no_ship_is_mustered_into_a_sea_holding_a_neutral_force():
    """Reading C.21 (1e spec 13): in a 4-player game Greyjoy's ship stands in Ironman's Bay as a
    neutral force; Stark holding Riverrun may muster a ship into The Golden Sound only; with a
    Lannister ship there, into no sea at all."""
    s = muster_game({"stark": {"riverrun": "F"}, "lannister": {"lannisport": "F"},
                     "baratheon": {"dragonstone": "F"}, "tyrell": {"highgarden": "F"}},
                    players=4)
    assert s.neutral_forces[a(s, "ironmans-bay")] == 1
    while s.pending.player != h(s, "stark"):
        apply(s, DONE)
    apply(s, ("area", a(s, "riverrun")))
    ships = [o for o in s.pending.options if o[:2] == ("muster", SHIP)]
    assert ships == [("muster", SHIP, a(s, "the-golden-sound"))]
    s = muster_game({"stark": {"riverrun": "F"}, "lannister": {"the-golden-sound": "S"},
                     "baratheon": {"dragonstone": "F"}, "tyrell": {"highgarden": "F"}},
                    players=4)
    while s.pending.player != h(s, "stark"):
        apply(s, DONE)
    apply(s, ("area", a(s, "riverrun")))
    assert not [o for o in s.pending.options if o[:2] == ("muster", SHIP)]


# =============================================================================================
# Messenger Raven: swap only (1e spec 6.3, A.6)


def raven_1e(units: dict, plan: dict[str, str]) -> GameState:
    """Orders placed from ``plan`` (area -> token id), up to the Raven decision."""
    s = build_1e(units=units)
    rs = s.ruleset
    while s.pending is not None and s.pending.kind == D.PLACE_ORDERS:
        for o in s.pending.options:
            if rs.areas[o[1]].id in plan and rs.order_tokens[o[2]].id == plan[rs.areas[o[1]].id]:
                apply(s, o)
                break
        else:
            raise AssertionError(f"no planned order offered: {s.pending.options[:5]}")
    return s


RAVEN_UNITS = {"lannister": {"lannisport": "F", "the-golden-sound": "S"},
               "stark": {"winterfell": "F"}, "baratheon": {"dragonstone": "F"}}
RAVEN_PLAN = {"lannisport": "march-0", "the-golden-sound": "support-0a",
              "winterfell": "march-0", "dragonstone": "defense-1a"}


def test_raven_only_swaps_an_order_in_1e():
    """1e spec 6.3, A.6: the Raven holder (Lannister, King's Court 1) may swap one of his orders
    or do nothing: there is no look at a wildling deck. The swap replaces one own order with an
    unused token; placement restrictions still apply (no CP at sea, 6.1); the Raven is used."""
    s = raven_1e(RAVEN_UNITS, RAVEN_PLAN)
    d = s.pending
    assert (d.kind, d.player) == (D.RAVEN_USE, h(s, "lannister"))
    from got_env.engine.decision import choice

    assert d.options == (choice("nothing"), choice("swap-order"))
    apply(s, choice("swap-order"))
    rs = s.ruleset
    offered = {(rs.areas[x].id, rs.order_tokens[t].id) for _, x, t in s.pending.options}
    assert {x for x, _ in offered} == {"lannisport", "the-golden-sound"}
    assert not {t for x, t in offered if x == "the-golden-sound" and "consolidate" in t}
    assert ("lannisport", "consolidate-power-special") in offered
    assert ("lannisport", "march-0") not in offered and ("lannisport", "support-0a") not in offered
    apply(s, ("order", a(s, "lannisport"),
                   [t.id for t in rs.order_tokens].index("raid-special")))
    assert s.raven_used
    assert rs.order_tokens[s.orders[a(s, "lannisport")]].id == "raid-special"
    assert s.pending.kind != D.RAVEN_SWAP


def test_raven_without_own_orders_asks_nothing_in_1e():
    """1e spec 6.3, A.6: with no order of his own to swap, the 1e Raven holder has no choice at
    all (only "nothing"), so no Raven decision is asked; in 2e he could still look (R9.3)."""
    units = {"stark": {"winterfell": "F"}, "baratheon": {"dragonstone": "F"}}
    s = raven_1e(units, {"winterfell": "march-0", "dragonstone": "defense-1a"})
    assert s.pending.kind == D.MARCH_MOVE and not s.raven_used
