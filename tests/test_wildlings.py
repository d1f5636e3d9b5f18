"""The wildling attack procedure (rules spec §20.2, §9.3, facts §4.6 and §9; D-08, D-09).

3 players unless said otherwise: turn order Baratheon, Lannister, Stark; 5 power each.
"""

from __future__ import annotations

import numpy as np
import pytest
from wildling_helpers import attack, bid, ended, house, play, wildling

from got_env.engine import apply, scenario
from got_env.engine.decision import DecisionKind, IllegalActionError
from got_env.engine.state import FIEFDOMS, IRON_THRONE, KINGS_COURT
from got_env.engine.wildlings.attack import WildlingAttackFrame
from got_env.engine.wildlings.cards import WILDLING_EFFECTS

D = DecisionKind


def powers(state) -> list[int]:
    return [int(state.power[house(state, h)]) for h in ("baratheon", "lannister", "stark")]


def test_bids_are_asked_secretly_in_turn_order():
    """§20.2 item 2, D-08: each house bids 0..its available power, secret, in turn order; a bid
    stays in the step's frame (available power unchanged) until all have bid."""
    s = attack(strength=8, power={"lannister": 3})
    d = s.pending
    assert (d.kind, d.player, d.secret) == (D.WILDLING_BID, house(s, "baratheon"), True)
    assert d.options == tuple(("bid", n) for n in range(6))
    assert d.context == {"strength": 8}
    apply(s, ("bid", 2))
    assert s.pending.player == house(s, "lannister")
    assert s.pending.options == tuple(("bid", n) for n in range(4))
    assert powers(s) == [5, 3, 5]
    apply(s, ("bid", 3))
    assert s.pending.player == house(s, "stark")
    assert s.pending.secret


def test_nights_watch_wins_when_bids_equal_strength():
    """§20.2 items 3-6: Night's Watch strength = sum of bids; equal to the wildlings' wins; the
    threat goes to 0 (facts §4.6) and every bid goes to the Power Pool."""
    s = attack(strength=8)
    pool_before = s.power_pool().copy()
    bid(s, baratheon=4, lannister=2, stark=2)
    assert ended(s)
    assert s.wildling_threat == 0
    assert powers(s) == [1, 3, 3]
    hs = [house(s, h) for h in ("baratheon", "lannister", "stark")]
    assert (s.power_pool()[hs] - pool_before[hs]).tolist() == [4, 2, 2]


def test_wildlings_win_when_bids_fall_short():
    """§20.2 item 4-5, AMBIG-16, facts §4.6: wildlings > Night's Watch -> wildlings win; the threat
    moves back 2 spaces (strength 8 -> 4); bids are discarded anyway (item 6)."""
    s = attack(strength=8)
    bid(s, baratheon=3, lannister=3, stark=1)
    assert ended(s)
    assert s.wildling_threat == 4
    assert powers(s) == [2, 2, 4]


def test_threat_never_drops_below_zero():
    """§20.2 item 5: a wildling win moves the token back "to no lower than 0"."""
    s = attack(strength=2)
    bid(s, baratheon=0, lannister=0, stark=1)
    play(s, D.WILDLING_TIED_BIDDER, "baratheon", ("house", house(s, "lannister")))
    assert ended(s)
    assert s.wildling_threat == 0


def test_house_without_power_is_still_asked_to_bid_zero():
    """D-08 options 0..available power: with no power the only bid is 0, and the house is asked
    all the same (a secret decision is always asked, so that asking reveals nothing)."""
    s = attack(strength=6, power={"stark": 0})
    assert s.pending.kind == D.WILDLING_BID
    seen = []
    while s.pending is not None and s.pending.kind == D.WILDLING_BID:
        seen.append((s.ruleset.houses[s.pending.player].id, len(s.pending.options)))
        apply(s, ("bid", {"baratheon": 4, "lannister": 2, "stark": 0}[seen[-1][0]]))
    assert ("stark", 1) in seen and len(seen) == 3
    assert ended(s)
    assert s.wildling_threat == 0  # 4 + 2 + 0 >= 6
    assert powers(s) == [1, 3, 0]


def test_strength_zero_all_tied_iron_throne_holder_picks_highest():
    """§20.2, §9.3, D-09: with all bids 0 against strength 0 the Night's Watch wins and every
    house ties for highest bidder; the Iron Throne holder picks among them, in turn order."""
    s = attack(strength=0, card="a-king-beyond-the-wall")
    bid(s, baratheon=0, lannister=0, stark=0)
    d = s.pending
    assert (d.kind, d.player) == (D.WILDLING_TIED_BIDDER, house(s, "baratheon"))
    assert d.options == tuple(("house", house(s, h)) for h in ("baratheon", "lannister", "stark"))
    apply(s, ("house", house(s, "stark")))
    assert (s.pending.kind, s.pending.player) == (D.KING_BEYOND_THE_WALL_TOP, house(s, "stark"))


def test_tie_for_highest_broken_by_iron_throne_holder_not_tied():
    """§9.3, D-09: the Iron Throne holder breaks a tie he is not part of; the house he picks gets
    the reward (A King Beyond the Wall, D-16, R21.1-R21.2)."""
    s = attack(strength=4, card="a-king-beyond-the-wall",
               tracks={"iron-throne": ["stark", "baratheon", "lannister"]})
    bid(s, stark=0, baratheon=3, lannister=3)
    d = s.pending
    assert (d.kind, d.player) == (D.WILDLING_TIED_BIDDER, house(s, "stark"))
    assert d.options == (("house", house(s, "baratheon")), ("house", house(s, "lannister")))
    apply(s, ("house", house(s, "lannister")))
    play(s, D.KING_BEYOND_THE_WALL_TOP, "lannister", ("track", IRON_THRONE))
    assert ended(s)
    assert s.holder(IRON_THRONE) == house(s, "lannister")
    assert s.tracks[IRON_THRONE, :3].tolist() == [house(s, h) for h in
                                                  ("lannister", "stark", "baratheon")]


def test_tie_for_lowest_broken_by_iron_throne_holder():
    """§20.2 consequences, §9.3, D-09: tied lowest bidders; the Iron Throne holder picks who takes
    the severe penalty (Skinchanger Scout: all power), the other takes the lesser (2 power)."""
    s = attack(strength=10, card="skinchanger-scout")
    bid(s, baratheon=2, lannister=0, stark=0)
    d = s.pending
    assert (d.kind, d.player) == (D.WILDLING_TIED_BIDDER, house(s, "baratheon"))
    assert d.options == (("house", house(s, "lannister")), ("house", house(s, "stark")))
    apply(s, ("house", house(s, "stark")))
    assert ended(s)
    assert powers(s) == [1, 3, 0]
    assert s.wildling_threat == 6


def test_illegal_bid_raises_and_leaves_state_unchanged():
    """D-08: a bid above available power, or an action of another kind, is refused and the
    state stays exactly as it was."""
    s = attack(strength=8, power={"baratheon": 4})
    before = s.clone()
    for bad in (("bid", 5), ("bid", -1), ("house", 0), ("done",)):
        with pytest.raises(IllegalActionError):
            apply(s, bad)
        assert s == before


def test_illegal_tie_pick_raises_and_leaves_state_unchanged():
    """D-09: only a tied house may be picked."""
    s = attack(strength=0)
    bid(s, baratheon=1, lannister=1, stark=0)
    before = s.clone()
    with pytest.raises(IllegalActionError):
        apply(s, ("house", house(s, "stark")))
    assert s == before
    apply(s, ("house", house(s, "lannister")))
    assert ended(s)


def test_card_goes_to_bottom_and_raven_knowledge_is_cleared():
    """§20.2 consequences items 1 and 3: the top card is revealed and put on the bottom; a Raven
    holder who knew it as the top card no longer knows the top (§10.4)."""
    s = attack(strength=8, card="mammoth-riders", hands={"baratheon": ["stannis-baratheon"]})
    deck = s.wildling_deck.tolist()
    assert deck[0] == wildling(s, "mammoth-riders")
    s.wildling_known_top[house(s, "lannister")] = deck[0]
    bid(s, baratheon=4, lannister=2, stark=2)
    assert s.pending.kind == D.MAMMOTH_RIDERS_RETRIEVE  # being resolved
    assert s.wildling_deck.tolist() == deck[1:] + deck[:1]
    assert s.wildling_known_top.tolist() == [-1] * 6


def test_excluded_house_neither_bids_nor_suffers():
    """D-08 (Preemptive Raid's new attack): an excluded house takes no part: no bid, no
    penalty."""
    s = attack(strength=8, card="skinchanger-scout", exclude=("stark",))
    bid(s, baratheon=1, lannister=2)
    assert ended(s)
    assert powers(s) == [0, 1, 5]  # Baratheon lowest: all; Lannister others: 2


def test_penalties_lowest_bidder_first_then_others_in_turn_order():
    """§20.2 consequences item 2 and errata (facts §9): the lowest bidder resolves first, then the
    others in turn order (A King Beyond the Wall: Stark goes last everywhere, then Baratheon, then
    Lannister choose a track, D-17; R21.1)."""
    s = attack(strength=8, card="a-king-beyond-the-wall")
    bid(s, baratheon=2, lannister=1, stark=0)
    b, la, st = (house(s, h) for h in ("baratheon", "lannister", "stark"))
    assert s.tracks[:, :3].tolist() == [[b, la, st], [b, la, st], [la, b, st]]
    play(s, D.KING_BEYOND_THE_WALL_BOTTOM, "baratheon", ("track", FIEFDOMS))
    assert s.tracks[FIEFDOMS, :3].tolist() == [la, st, b]
    assert s.pending.options == (("track", FIEFDOMS), ("track", KINGS_COURT))
    play(s, D.KING_BEYOND_THE_WALL_BOTTOM, "lannister", ("track", KINGS_COURT))
    assert ended(s)
    assert s.tracks[:, :3].tolist() == [[b, la, st], [la, st, b], [b, st, la]]


def test_six_players_every_house_bids_in_turn_order():
    """D-08 with 6 players: the six houses bid in Iron Throne order."""
    s = attack(strength=12, players=6)
    asked = []
    while s.pending is not None:
        asked.append(s.pending.player)
        apply(s, ("bid", len(asked) - 1))  # 0..5 -> 15 >= 12, one highest bidder
    assert asked == s.turn_order()
    assert s.wildling_threat == 0


def test_every_wildling_card_has_an_effect():
    """STYLE §6: one dispatch table keyed by card id covers exactly the 9 cards of the data."""
    s = attack()
    assert set(WILDLING_EFFECTS) == {c.id for c in s.ruleset.wildling_cards}


def test_wildlings_attack_card_in_westeros_phase_starts_an_attack():
    """§6 step 4, §20.2: the Wildlings Attack card (deck III) starts an attack at the current
    threat (needs the Westeros phase to push the step)."""
    s = scenario.build({"players": 3, "round": 2, "start": "westeros", "wildling_threat": 6,
                        "westeros_top": {"III": ["wildlings-attack"],
                                         "I": ["last-days-of-summer"],
                                         "II": ["last-days-of-summer"]},
                        "wildling_top": ["silence-at-the-wall"]})
    if s.pending is None or s.pending.kind != D.WILDLING_BID:
        pytest.skip("the Westeros phase does not push wildling_attack yet")
    frames = [f for f in s.stack if type(f) is WildlingAttackFrame]
    assert [f.strength for f in frames] == [10]  # 6 + two wildling icons (facts §4.6)
    bid(s, baratheon=5, lannister=3, stark=2)
    assert type(s.stack[-1]) is not WildlingAttackFrame
    assert s.wildling_threat == 0
    assert int(s.wildling_deck[-1]) == wildling(s, "silence-at-the-wall")
    assert np.array_equal(s.power[[house(s, "stark")]], [3])


def test_clone_mid_attack_plays_on_independently():
    """The attack lives in the state's stack (engine.md): a clone taken between two bids goes on
    its own way and leaves the original where it was."""
    s = attack(strength=8, card="skinchanger-scout")
    apply(s, ("bid", 5))
    c = s.clone()
    assert c == s
    bid(c, lannister=4, stark=0)
    assert ended(c) and c.wildling_threat == 0 and powers(c) == [5, 1, 5]
    assert s.pending.player == house(s, "lannister")
    assert s.stack[-1].bids[house(s, "baratheon")] == 5
    bid(s, lannister=0, stark=0)
    play(s, D.WILDLING_TIED_BIDDER, "baratheon", ("house", house(s, "lannister")))
    assert ended(s) and s.wildling_threat == 4 and powers(s) == [0, 0, 3]


@pytest.mark.parametrize("card", ["silence-at-the-wall", "preemptive-raid", "crow-killers",
                                  "rattleshirts-raiders", "massing-on-the-milkwater",
                                  "a-king-beyond-the-wall", "mammoth-riders",
                                  "the-horde-descends", "skinchanger-scout"])
def test_random_play_of_every_card_keeps_invariants(card):
    """§20.2 with each card, 6 players, random legal actions: every decision is legal, the
    invariants hold after each one, no house's power or Power Pool goes negative, and the attack
    ends with the threat at 0..12."""
    from got_env.engine.invariants import check

    for seed in range(12):
        rng = np.random.default_rng(seed)
        s = attack(card=card, strength=int(rng.choice([0, 6, 12])), players=6,
                   power={h: int(rng.integers(0, 8)) for h in
                          ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")})
        for _ in range(200):
            if s.pending is None:
                break
            check(s)
            apply(s, s.pending.options[int(rng.integers(len(s.pending.options)))])
        assert ended(s), s.stack
        check(s)
        assert (s.power >= 0).all() and (s.power_pool() >= 0).all()
        assert 0 <= s.wildling_threat <= 12
