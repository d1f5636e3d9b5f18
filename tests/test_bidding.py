"""Clash of Kings bidding (§9.2, §9.3, R23.2; DECISIONS D-06, D-07)."""

import numpy as np
import pytest

from got_env.data import TRACKS
from got_env.engine import DecisionKind, IllegalActionError, apply, scenario
from got_env.engine.state import ARRAY_FIELDS, FIEFDOMS, IRON_THRONE, KINGS_COURT

CARDS = {"I": ["last-days-of-summer"], "II": ["clash-of-kings"], "III": ["web-of-lies"]}


def clash(players=5, **spec):
    """Westeros phase of round 2 (the last round), deck II: Clash of Kings."""
    return scenario.build({"players": players, "round": 2, "options": {"max_rounds": 2},
                           "start": "westeros", "westeros_top": CARDS, **spec})


def hid(state, h):
    return state.ruleset.houses[h].id


def order(state, track):
    return [hid(state, h) for h in state.tracks[track] if h >= 0]


def bid_all(state, bids):
    """Every house bids on the current track (asked one at a time, secretly) from ``bids``
    (house id -> power)."""
    track = state.pending.context["track"]
    while state.pending.kind == DecisionKind.INFLUENCE_BID \
            and state.pending.context["track"] == track:
        assert state.pending.secret
        house = hid(state, state.pending.player)
        if house not in bids:  # a house with no power is asked too, with 0 as its one option
            assert state.pending.options == (("bid", 0),)
        apply(state, ("bid", bids.get(house, 0)))


def place(state, by, house):
    """The Iron Throne holder ``by`` puts ``house`` in the next position of its tie group."""
    d = state.pending
    assert d.kind == DecisionKind.RANK_TIED_BIDDERS and hid(state, d.player) == by
    apply(state, ("house", state.ruleset.house(house)))


def test_rulebook_example_fiefdoms_ties_broken_by_new_iron_throne():
    """§9.2 (the book's example, 5 players), §9.3, D-06, D-07: Greyjoy has just won the Iron
    Throne; the Fiefdoms bids are Lannister 4, Baratheon 3, Stark 3, Tyrell 2, Greyjoy 0; Greyjoy
    puts Baratheon 2nd and Stark 3rd; Lannister takes the Blade and position 6 stays empty.
    Before that, the Iron Throne tie (Stark, Baratheon, Tyrell at 0) is broken by Baratheon, the
    holder *before* the bid; after it King's Court ties go to Greyjoy. Every bid goes to the
    Power Pool."""
    s = clash()
    pool_before = s.power_pool().copy()
    assert order(s, IRON_THRONE)[0] == "baratheon"
    bid_all(s, {"greyjoy": 2, "lannister": 1, "stark": 0, "baratheon": 0, "tyrell": 0})
    place(s, "baratheon", "stark")
    place(s, "baratheon", "tyrell")  # Baratheon, last of the group, is placed without asking
    assert order(s, IRON_THRONE) == ["greyjoy", "lannister", "stark", "tyrell", "baratheon"]
    assert s.holder(IRON_THRONE) == s.ruleset.house("greyjoy")

    bid_all(s, {"lannister": 4, "baratheon": 3, "stark": 3, "tyrell": 2, "greyjoy": 0})
    place(s, "greyjoy", "baratheon")
    assert order(s, FIEFDOMS) == ["lannister", "baratheon", "stark", "tyrell", "greyjoy"]
    assert s.tracks[FIEFDOMS, 5] == -1
    assert s.holder(FIEFDOMS) == s.ruleset.house("lannister")

    # Lannister has 0 power left: its only bid, 0, is made without asking.
    bid_all(s, {"tyrell": 3, "stark": 2, "greyjoy": 1, "baratheon": 0})
    place(s, "greyjoy", "lannister")
    assert order(s, KINGS_COURT) == ["tyrell", "stark", "greyjoy", "lannister", "baratheon"]
    assert s.holder(KINGS_COURT) == s.ruleset.house("tyrell")

    power = {hid(s, h): int(s.power[h]) for h in s.turn_order()}
    assert power == {"greyjoy": 2, "lannister": 0, "stark": 0, "tyrell": 0, "baratheon": 2}
    spent = {"greyjoy": 3, "lannister": 5, "stark": 5, "tyrell": 5, "baratheon": 3}
    assert {hid(s, h): int(s.power_pool()[h] - pool_before[h]) for h in s.turn_order()} == spent
    assert s.pending is None or s.pending.kind == DecisionKind.PLACE_ORDERS


def test_bid_options_are_zero_to_available_power():
    """§9.2 step 3.2, D-06, R23.2: the bid is secret, 0 up to the house's available power; the
    first track is the Iron Throne, bid in turn order."""
    s = clash(power={"baratheon": 7})
    d = s.pending
    assert d.kind == DecisionKind.INFLUENCE_BID and d.secret
    assert hid(s, d.player) == "baratheon" and d.context == {"track": IRON_THRONE}
    assert d.options == tuple(("bid", n) for n in range(8))


def test_committed_bid_stays_hidden():
    """§9.2 step 3.2, D-06: a committed bid changes nothing observable (power, tracks, any
    array) and the next bidder's decision does not show it."""
    s = clash()
    before = s.clone()
    apply(s, ("bid", 4))
    for name in ARRAY_FIELDS:
        assert np.array_equal(getattr(s, name), getattr(before, name)), name
    assert hid(s, s.pending.player) == "lannister"
    assert s.pending.context == {"track": IRON_THRONE}


def test_no_tie_no_question():
    """§9.2 step 3.3: distinct bids order the track with no D-07."""
    s = clash(players=3)
    bid_all(s, {"stark": 3, "lannister": 2, "baratheon": 1})
    assert s.pending.kind == DecisionKind.INFLUENCE_BID
    assert order(s, IRON_THRONE) == ["stark", "lannister", "baratheon"]
    assert list(s.power[[s.ruleset.house(h) for h in ("stark", "lannister", "baratheon")]]) \
        == [2, 3, 4]


def test_all_tracks_in_order():
    """§9.2 step 2: Iron Throne, then Fiefdoms, then King's Court, each bid separately."""
    s = clash(players=3, power={"baratheon": 7})
    seen = []
    while s.pending.kind == DecisionKind.INFLUENCE_BID:
        t = s.pending.context["track"]
        if not seen or seen[-1] != t:
            seen.append(t)
        apply(s, ("bid", {"stark": 1, "lannister": 0, "baratheon": 2}[hid(s, s.pending.player)]))
    assert [TRACKS[t] for t in seen] == list(TRACKS)
    assert order(s, KINGS_COURT) == ["baratheon", "stark", "lannister"]


def test_illegal_bid_leaves_state_unchanged():
    """D-06: a bid above the available power (5), or an action of another kind, is refused and
    changes nothing."""
    s = clash()
    before = s.clone()
    for bad in (("bid", 6), ("bid", -1), ("house", 0)):
        with pytest.raises(IllegalActionError):
            apply(s, bad)
        assert s == before


def test_illegal_tie_placement_leaves_state_unchanged():
    """D-07: the Iron Throne holder may only place a house of the tie group."""
    s = clash()
    bid_all(s, {"greyjoy": 2, "lannister": 1, "stark": 0, "baratheon": 0, "tyrell": 0})
    before = s.clone()
    for bad in (("house", s.ruleset.house("greyjoy")), ("house", s.ruleset.house("martell"))):
        with pytest.raises(IllegalActionError):
            apply(s, bad)
        assert s == before
