"""The 9 wildling cards (facts §9 and §12 D9; D-10 to D-19; R13.1.4, R21.1-R21.2).

3 players: turn order Baratheon, Lannister, Stark; 5 power each. Starting units: Baratheon
Dragonstone KF, Kingswood F, Shipbreaker Bay SS; Lannister Lannisport KF, Stoney Sept F, The
Golden Sound S, its port S; Stark Winterfell KF, White Harbor F, The Shivering Sea S. Tracks:
Iron Throne B L S, Fiefdoms S B L, King's Court L S B.

Bids used: Night's Watch win with ``NW_*`` (the named house highest), wildling win with ``LOW_*``
(the named house lowest), against strength 8.
"""

from __future__ import annotations

import pytest
from wildling_helpers import area, attack, bid, card, ended, house, play, units, wildling

from got_env.engine import apply
from got_env.engine.decision import DONE, DecisionKind, IllegalActionError, choice
from got_env.engine.frames import GotFrame
from got_env.engine.mustering import MusteringFrame
from got_env.engine.state import FIEFDOMS, FOOTMAN, IRON_THRONE, KINGS_COURT, KNIGHT, SHIP
from got_env.engine.supply import ReconcileFrame

D = DecisionKind
NW_BARATHEON = {"baratheon": 4, "lannister": 2, "stark": 2}
NW_STARK = {"baratheon": 2, "lannister": 2, "stark": 4}
LOW_STARK = {"baratheon": 2, "lannister": 1, "stark": 0}
LOW_BARATHEON = {"baratheon": 0, "lannister": 1, "stark": 2}


def powers(state) -> list[int]:
    return [int(state.power[house(state, h)]) for h in ("baratheon", "lannister", "stark")]


def order(state, track: int) -> list[str]:
    return [state.ruleset.houses[h].id for h in state.tracks[track] if h >= 0]


def names(state, cards: list[int]) -> list[str]:
    return sorted(state.ruleset.house_cards[c].id for c in cards)


def record_step(monkeypatch, step: type[GotFrame]) -> list[GotFrame]:
    """Replace the ``run`` of frame class ``step`` by one that records a copy of the frame and
    ends (for steps other modules own: mustering, reconcile)."""
    frames: list[GotFrame] = []

    def run(frame, state):
        frames.append(frame.copy())
        state.stack.pop()

    monkeypatch.setattr(step, "run", run)
    return frames


# -- Silence at the Wall ------------------------------------------------------------------------


@pytest.mark.parametrize("bids, threat", [(NW_BARATHEON, 0), (LOW_STARK, 4)])
def test_silence_at_the_wall_nothing_happens(bids, threat):
    """silence-at-the-wall: nothing happens either way; only the bids and the threat move."""
    s = attack(card="silence-at-the-wall")
    before = s.clone()
    bid(s, **bids)
    assert ended(s)
    assert (s.units == before.units).all() and (s.tracks == before.tracks).all()
    assert (s.card_place == before.card_place).all() and (s.supply == before.supply).all()
    assert powers(s) == [5 - bids[h] for h in ("baratheon", "lannister", "stark")]
    assert s.wildling_threat == threat


# -- Preemptive Raid ----------------------------------------------------------------------------


def test_preemptive_raid_nights_watch_new_attack_without_highest_bidder():
    """preemptive-raid, Night's Watch (D-08): a new attack of strength 6 at once; the highest
    bidder takes no part; the others bid with what they have left; the next card is revealed
    (the first is already at the bottom); the threat ends on 0."""
    s = attack(card=["preemptive-raid", "skinchanger-scout"])
    deck = s.wildling_deck.tolist()
    bid(s, **NW_BARATHEON)
    d = s.pending
    assert (d.kind, d.player, d.context) == (D.WILDLING_BID, house(s, "lannister"), {"strength": 6})
    assert d.options == tuple(("bid", n) for n in range(4))
    bid(s, lannister=1, stark=3)  # 4 < 6: wildlings win; Lannister lowest
    assert ended(s)
    assert powers(s) == [1, 0, 0]  # Skinchanger: Lannister all, Stark 2; Baratheon untouched
    assert s.wildling_deck.tolist() == deck[2:] + deck[:2]
    assert s.wildling_threat == 0


def test_preemptive_raid_nights_watch_iron_throne_holder_breaks_ties_of_new_attack():
    """preemptive-raid, §9.3: the excluded highest bidder still holds the Iron Throne and breaks
    the new attack's tie (D-09); Night's Watch win of the new attack -> threat 0."""
    s = attack(card=["preemptive-raid", "a-king-beyond-the-wall"])
    bid(s, **NW_BARATHEON)
    bid(s, lannister=3, stark=3)
    play(s, D.WILDLING_TIED_BIDDER, "baratheon", ("house", house(s, "stark")))
    play(s, D.KING_BEYOND_THE_WALL_TOP, "stark", ("track", KINGS_COURT))
    assert ended(s)
    assert order(s, KINGS_COURT) == ["stark", "lannister", "baratheon"]
    assert s.wildling_threat == 0


def test_preemptive_raid_lowest_destroys_two_units():
    """preemptive-raid, lowest bidder (D-10 destroy-units, D-12): 2 of his units, his choice;
    White Harbor emptied stays uncontrolled (R13.1.4); the others: nothing."""
    s = attack(card="preemptive-raid")
    before = s.clone()
    bid(s, **LOW_STARK)
    d = s.pending
    assert (d.kind, d.player) == (D.PREEMPTIVE_RAID_PENALTY, house(s, "stark"))
    assert d.options == (choice("destroy-units"), choice("drop-on-track"))
    apply(s, choice("destroy-units"))
    wf, wh, sea = area(s, "winterfell"), area(s, "white-harbor"), area(s, "the-shivering-sea")
    assert s.pending.kind == D.WILDLING_DESTROY_UNITS
    assert set(s.pending.options) == {("unit", wf, FOOTMAN), ("unit", wf, KNIGHT),
                                      ("unit", wh, FOOTMAN), ("unit", sea, SHIP)}
    play(s, D.WILDLING_DESTROY_UNITS, "stark", ("unit", wf, KNIGHT))
    play(s, D.WILDLING_DESTROY_UNITS, "stark", ("unit", wh, FOOTMAN))
    assert ended(s)
    assert units(s, "stark", "winterfell") == [1, 0, 0, 0]
    assert units(s, "stark", "white-harbor") == [0, 0, 0, 0]
    assert s.control()[wh] == -1
    st = house(s, "stark")
    others = [h for h in range(6) if h != st]
    assert (s.units[:, others] == before.units[:, others]).all()
    assert (s.tracks == before.tracks).all()
    assert s.wildling_threat == 4


def test_preemptive_raid_lowest_drops_two_on_his_highest_track():
    """preemptive-raid, lowest bidder (D-10 drop-on-track): Stark is highest on Fiefdoms
    (position 1) and drops 2 places; the Blade passes to the new position 1 (R21.1-R21.2)."""
    s = attack(card="preemptive-raid")
    bid(s, **LOW_STARK)
    play(s, D.PREEMPTIVE_RAID_PENALTY, "stark", choice("drop-on-track"))
    assert ended(s)
    assert order(s, FIEFDOMS) == ["baratheon", "lannister", "stark"]
    assert s.holder(FIEFDOMS) == house(s, "baratheon")
    assert order(s, IRON_THRONE) == ["baratheon", "lannister", "stark"]
    assert order(s, KINGS_COURT) == ["lannister", "stark", "baratheon"]


def test_preemptive_raid_lowest_equally_high_iron_throne_holder_picks_track():
    """preemptive-raid, facts §12 D9, D-11: equally high on two tracks, the Iron Throne holder
    picks which; a drop of 2 from position 2 of 3 stops at the last position."""
    s = attack(card="preemptive-raid", tracks={"iron-throne": ["baratheon", "stark", "lannister"],
                                               "fiefdoms": ["baratheon", "stark", "lannister"],
                                               "kings-court": ["lannister", "baratheon", "stark"]})
    bid(s, baratheon=2, stark=0, lannister=1)
    play(s, D.PREEMPTIVE_RAID_PENALTY, "stark", choice("drop-on-track"))
    d = s.pending
    assert (d.kind, d.player) == (D.PREEMPTIVE_RAID_TRACK, house(s, "baratheon"))
    assert d.options == (("track", IRON_THRONE), ("track", FIEFDOMS))
    apply(s, ("track", FIEFDOMS))
    assert ended(s)
    assert order(s, FIEFDOMS) == ["baratheon", "lannister", "stark"]
    assert order(s, IRON_THRONE) == ["baratheon", "stark", "lannister"]


# -- Crow Killers -------------------------------------------------------------------------------


def test_crow_killers_nights_watch_upgrades_up_to_two_footmen():
    """crow-killers, Night's Watch (D-13): up to 2 of his Footmen anywhere become Knights."""
    s = attack(card="crow-killers")
    bid(s, **NW_STARK)
    wf, wh = area(s, "winterfell"), area(s, "white-harbor")
    d = s.pending
    assert (d.kind, d.player) == (D.CROW_KILLERS_UPGRADE, house(s, "stark"))
    assert d.options == (("unit", wh, FOOTMAN), ("unit", wf, FOOTMAN), DONE)
    apply(s, ("unit", wh, FOOTMAN))
    assert s.pending.options == (("unit", wf, FOOTMAN), DONE)
    apply(s, ("unit", wf, FOOTMAN))
    assert ended(s)
    assert units(s, "stark", "winterfell") == [0, 2, 0, 0]
    assert units(s, "stark", "white-harbor") == [0, 1, 0, 0]


def test_crow_killers_nights_watch_may_stop_early():
    """crow-killers, Night's Watch: "may" (D-13 done after one upgrade)."""
    s = attack(card="crow-killers")
    bid(s, **NW_STARK)
    play(s, D.CROW_KILLERS_UPGRADE, "stark", ("unit", area(s, "winterfell"), FOOTMAN))
    play(s, D.CROW_KILLERS_UPGRADE, "stark", DONE)
    assert ended(s)
    assert units(s, "stark", "winterfell") == [0, 2, 0, 0]
    assert units(s, "stark", "white-harbor") == [1, 0, 0, 0]


def test_crow_killers_nights_watch_limited_by_unused_knights():
    """crow-killers, Night's Watch: Knights come from his unused units (5 in the box, R2.3.1):
    with 4 on the board only one Footman can be upgraded."""
    s = attack(card="crow-killers", units={"stark": {"winterfell": "KKF", "white-harbor": "KKF"},
                                            "lannister": {"lannisport": "F"},
                                            "baratheon": {"dragonstone": "F"}})
    bid(s, **NW_STARK)
    play(s, D.CROW_KILLERS_UPGRADE, "stark", ("unit", area(s, "white-harbor"), FOOTMAN))
    assert ended(s)
    assert units(s, "stark", "white-harbor") == [0, 3, 0, 0]
    assert units(s, "stark", "winterfell") == [1, 2, 0, 0]


def test_crow_killers_wildlings_every_knight_replaced_without_asking():
    """crow-killers, wildling victory: the lowest bidder replaces every Knight with a Footman, the
    others theirs (fewer than 2 each: all of them); no choice changes anything, none is asked."""
    s = attack(card="crow-killers", units={"stark": {"winterfell": "KKF", "white-harbor": "K"},
                                            "lannister": {"lannisport": "KF"},
                                            "baratheon": {"dragonstone": "KF"}})
    bid(s, **LOW_STARK)
    assert ended(s)
    assert units(s, "stark", "winterfell") == [3, 0, 0, 0]
    assert units(s, "stark", "white-harbor") == [1, 0, 0, 0]
    assert units(s, "lannister", "lannisport") == [2, 0, 0, 0]
    assert units(s, "baratheon", "dragonstone") == [2, 0, 0, 0]


def test_crow_killers_lowest_knights_without_footmen_are_destroyed():
    """crow-killers, lowest bidder (D-14): with 1 unused Footman for 2 Knights he picks the Knight
    to replace; the other is destroyed."""
    s = attack(card="crow-killers",
               units={"stark": {"winterfell": "KFFF", "white-harbor": "KFF", "karhold": "FF",
                                "castle-black": "FF"},
                      "lannister": {"lannisport": "F"}, "baratheon": {"dragonstone": "F"}})
    bid(s, **LOW_STARK)
    wf, wh = area(s, "winterfell"), area(s, "white-harbor")
    d = s.pending
    assert (d.kind, d.player) == (D.CROW_KILLERS_REPLACE, house(s, "stark"))
    assert d.options == (("unit", wh, KNIGHT), ("unit", wf, KNIGHT))
    apply(s, ("unit", wf, KNIGHT))
    assert ended(s)
    assert units(s, "stark", "winterfell") == [4, 0, 0, 0]
    assert units(s, "stark", "white-harbor") == [2, 0, 0, 0]


def test_crow_killers_others_replace_two_knights_of_their_choice():
    """crow-killers, everyone else (D-14): 2 of his Knights, his choice, become Footmen."""
    s = attack(card="crow-killers",
               units={"baratheon": {"dragonstone": "KF", "kingswood": "K", "blackwater": "K"},
                      "lannister": {"lannisport": "F"}, "stark": {"winterfell": "F"}})
    bid(s, **LOW_STARK)
    bw, ds, kw = area(s, "blackwater"), area(s, "dragonstone"), area(s, "kingswood")
    d = s.pending
    assert (d.kind, d.player) == (D.CROW_KILLERS_REPLACE, house(s, "baratheon"))
    assert d.options == (("unit", bw, KNIGHT), ("unit", ds, KNIGHT), ("unit", kw, KNIGHT))
    apply(s, ("unit", kw, KNIGHT))
    play(s, D.CROW_KILLERS_REPLACE, "baratheon", ("unit", ds, KNIGHT))
    assert ended(s)
    assert units(s, "baratheon", "dragonstone") == [2, 0, 0, 0]
    assert units(s, "baratheon", "kingswood") == [1, 0, 0, 0]
    assert units(s, "baratheon", "blackwater") == [0, 1, 0, 0]


# -- Rattleshirt's Raiders ----------------------------------------------------------------------


def test_rattleshirts_raiders_nights_watch_supply_up_one_at_most_six():
    """rattleshirts-raiders, Night's Watch: up 1 on the supply track, never above 6."""
    s = attack(card="rattleshirts-raiders")
    bid(s, **NW_BARATHEON)
    assert ended(s)
    assert s.supply[house(s, "baratheon")] == 3
    s = attack(card="rattleshirts-raiders", supply={"stark": 6})
    bid(s, **NW_STARK)
    assert s.supply[house(s, "stark")] == 6


@pytest.mark.parametrize("stark_supply, stark_after", [(3, 1), (1, 0)])
def test_rattleshirts_raiders_wildlings_supply_down_then_all_reconcile(monkeypatch, stark_supply,
                                                                       stark_after):
    """rattleshirts-raiders, wildling victory: lowest down 2 (not below 0), the others down 1;
    then every house reconciles (step ``reconcile`` with all houses in turn order, R7.4)."""
    frames = record_step(monkeypatch, ReconcileFrame)
    s = attack(card="rattleshirts-raiders", supply={"stark": stark_supply})
    bid(s, **LOW_STARK)
    assert ended(s)
    assert [int(s.supply[house(s, h)]) for h in ("baratheon", "lannister", "stark")] == \
        [1, 1, stark_after]
    assert frames == [ReconcileFrame(houses=s.turn_order())]


def test_rattleshirts_raiders_over_limit_house_must_destroy_a_unit():
    """rattleshirts-raiders + R7.4 (D-04): Stark at supply 0 with an army of 3 must destroy."""
    s = attack(card="rattleshirts-raiders", units={"stark": {"winterfell": "KFF"},
                                                    "lannister": {"lannisport": "KF"},
                                                    "baratheon": {"dragonstone": "KF"}})
    bid(s, **LOW_STARK)
    d = s.pending
    assert (d.kind, d.player) == (D.RECONCILE_ARMIES, house(s, "stark"))
    apply(s, ("unit", area(s, "winterfell"), FOOTMAN))
    assert ended(s)
    assert units(s, "stark", "winterfell") == [1, 1, 0, 0]


# -- Massing on the Milkwater -------------------------------------------------------------------


def test_massing_nights_watch_takes_whole_discard_pile_back():
    """massing-on-the-milkwater, Night's Watch: his whole discard pile back into his hand."""
    s = attack(card="massing-on-the-milkwater", hands={"baratheon": ["patchface"]})
    bid(s, **NW_BARATHEON)
    assert ended(s)
    assert len(s.hand(house(s, "baratheon"))) == 7
    assert s.discards(house(s, "baratheon")) == []


@pytest.mark.parametrize("hand, kept, discarded", [
    (["eddard-stark", "robb-stark", "roose-bolton"], ["robb-stark", "roose-bolton"],
     ["catelyn-stark", "eddard-stark", "greatjon-umber", "ser-rodrick-cassel", "the-blackfish"]),
    (["robb-stark", "roose-bolton", "greatjon-umber", "catelyn-stark"],
     ["catelyn-stark", "greatjon-umber", "roose-bolton"],
     ["eddard-stark", "robb-stark", "ser-rodrick-cassel", "the-blackfish"]),
    (["the-blackfish"], ["the-blackfish"], None),
])
def test_massing_lowest_discards_highest_strength(hand, kept, discarded):
    """massing-on-the-milkwater, lowest bidder: with 2+ cards, every card of the highest printed
    strength in hand is discarded; with 1 card, nothing."""
    s = attack(card="massing-on-the-milkwater", hands={"stark": hand, "baratheon": ["patchface"],
                                                       "lannister": ["cersei-lannister"]})
    bid(s, **LOW_STARK)
    assert ended(s)
    st = house(s, "stark")
    assert names(s, s.hand(st)) == sorted(kept)
    if discarded is not None:
        assert names(s, s.discards(st)) == discarded


def test_massing_lowest_literal_reading_all_same_strength():
    """massing-on-the-milkwater, lowest bidder, facts §12 D9 literal reading (wildling_cards.yaml):
    both cards share the highest strength, both are discarded; the emptied hand takes back the
    other cards as after a 7th card (R15.3.6)."""
    s = attack(card="massing-on-the-milkwater",
               hands={"stark": ["roose-bolton", "greatjon-umber"], "baratheon": ["patchface"],
                      "lannister": ["cersei-lannister"]})
    bid(s, **LOW_STARK)
    st = house(s, "stark")
    assert names(s, s.discards(st)) == ["greatjon-umber", "roose-bolton"]
    assert names(s, s.hand(st)) == ["catelyn-stark", "eddard-stark", "robb-stark",
                                    "ser-rodrick-cassel", "the-blackfish"]


def test_massing_others_discard_one_card_of_their_choice():
    """massing-on-the-milkwater, everyone else (D-15): each with 2+ cards discards one of his
    choice; a house with one card is not asked."""
    s = attack(card="massing-on-the-milkwater",
               hands={"baratheon": ["stannis-baratheon", "renly-baratheon"],
                      "lannister": ["tywin-lannister"]})
    bid(s, **LOW_STARK)
    d = s.pending
    assert (d.kind, d.player) == (D.MASSING_DISCARD, house(s, "baratheon"))
    assert d.options == (("card", card(s, "stannis-baratheon")),
                         ("card", card(s, "renly-baratheon")))
    before = s.clone()
    with pytest.raises(IllegalActionError):
        apply(s, ("card", card(s, "tywin-lannister")))
    assert s == before
    apply(s, ("card", card(s, "stannis-baratheon")))
    assert ended(s)
    assert names(s, s.hand(house(s, "baratheon"))) == ["renly-baratheon"]
    assert names(s, s.hand(house(s, "lannister"))) == ["tywin-lannister"]
    assert names(s, s.hand(house(s, "stark"))) == ["catelyn-stark", "greatjon-umber",
                                                   "robb-stark", "roose-bolton",
                                                   "ser-rodrick-cassel", "the-blackfish"]


# -- A King Beyond the Wall ---------------------------------------------------------------------


@pytest.mark.parametrize("track, expected", [
    (IRON_THRONE, ["stark", "baratheon", "lannister"]),
    (FIEFDOMS, ["stark", "baratheon", "lannister"]),
    (KINGS_COURT, ["stark", "lannister", "baratheon"]),
])
def test_king_beyond_the_wall_nights_watch_top_of_chosen_track(track, expected):
    """a-king-beyond-the-wall, Night's Watch (D-16): position 1 of the chosen track, others shift
    down, and its dominance token (R21.1-R21.2); the other tracks stay."""
    s = attack(card="a-king-beyond-the-wall", raven_used=True)
    before = s.tracks.copy()
    bid(s, **NW_STARK)
    d = s.pending
    assert (d.kind, d.player) == (D.KING_BEYOND_THE_WALL_TOP, house(s, "stark"))
    assert d.options == (("track", IRON_THRONE), ("track", FIEFDOMS), ("track", KINGS_COURT))
    apply(s, ("track", track))
    assert ended(s)
    assert order(s, track) == expected
    assert s.holder(track) == house(s, "stark")
    assert all((s.tracks[t] == before[t]).all() for t in range(3) if t != track)
    assert s.raven_used  # R21.2: the token passes as it is


def test_king_beyond_the_wall_lowest_goes_last_on_every_track():
    """a-king-beyond-the-wall, lowest bidder: last position of all three tracks (R21.1); he loses
    the Blade (R21.2); the others then choose Fiefdoms/King's Court (D-17)."""
    s = attack(card="a-king-beyond-the-wall")
    bid(s, **LOW_STARK)
    assert order(s, IRON_THRONE) == ["baratheon", "lannister", "stark"]
    assert order(s, FIEFDOMS) == ["baratheon", "lannister", "stark"]
    assert order(s, KINGS_COURT) == ["lannister", "baratheon", "stark"]
    assert s.holder(FIEFDOMS) == house(s, "baratheon")
    play(s, D.KING_BEYOND_THE_WALL_BOTTOM, "baratheon", ("track", KINGS_COURT))
    play(s, D.KING_BEYOND_THE_WALL_BOTTOM, "lannister", ("track", KINGS_COURT))
    assert ended(s)
    assert order(s, KINGS_COURT) == ["stark", "baratheon", "lannister"]
    assert s.holder(KINGS_COURT) == house(s, "stark")


def test_king_beyond_the_wall_others_may_not_pick_iron_throne():
    """a-king-beyond-the-wall, everyone else (D-17): only Fiefdoms or King's Court."""
    s = attack(card="a-king-beyond-the-wall")
    bid(s, **LOW_STARK)
    before = s.clone()
    with pytest.raises(IllegalActionError):
        apply(s, ("track", IRON_THRONE))
    assert s == before


# -- Mammoth Riders -----------------------------------------------------------------------------


def test_mammoth_riders_nights_watch_retrieves_one_discarded_card():
    """mammoth-riders, Night's Watch (D-18): one card of his discard pile back to hand."""
    s = attack(card="mammoth-riders", hands={"baratheon": ["patchface"]})
    bid(s, **NW_BARATHEON)
    d = s.pending
    assert (d.kind, d.player) == (D.MAMMOTH_RIDERS_RETRIEVE, house(s, "baratheon"))
    assert len(d.options) == 7 and d.options[-1] == DONE
    apply(s, ("card", card(s, "stannis-baratheon")))
    assert ended(s)
    assert names(s, s.hand(house(s, "baratheon"))) == ["patchface", "stannis-baratheon"]


def test_mammoth_riders_nights_watch_may_take_nothing():
    """mammoth-riders, Night's Watch: "may" (D-18 done); nothing asked with an empty pile."""
    s = attack(card="mammoth-riders", hands={"baratheon": ["patchface"]})
    bid(s, **NW_BARATHEON)
    apply(s, DONE)
    assert ended(s)
    assert names(s, s.hand(house(s, "baratheon"))) == ["patchface"]
    s = attack(card="mammoth-riders")
    bid(s, **NW_BARATHEON)
    assert ended(s)


def test_mammoth_riders_lowest_destroys_three_others_two():
    """mammoth-riders, wildling victory (D-12): the lowest bidder destroys 3 units, the others 2
    (all if fewer, unasked); emptied areas give no control (R13.1.4), a power token already there
    keeps it (R13.1.7)."""
    s = attack(card="mammoth-riders", power_tokens={"white-harbor": "stark"},
               units={"stark": {"winterfell": "KF", "white-harbor": "F", "the-shivering-sea": "S"},
                      "lannister": {"lannisport": "KF", "stoney-sept": "F"},
                      "baratheon": {"kingswood": "F"}})
    bid(s, **LOW_STARK)
    wf, wh = area(s, "winterfell"), area(s, "white-harbor")
    play(s, D.WILDLING_DESTROY_UNITS, "stark", ("unit", wf, KNIGHT))
    play(s, D.WILDLING_DESTROY_UNITS, "stark", ("unit", wh, FOOTMAN))
    assert s.pending.context["left"] == 1
    play(s, D.WILDLING_DESTROY_UNITS, "stark", ("unit", wf, FOOTMAN))
    assert units(s, "stark", "the-shivering-sea") == [0, 0, 1, 0]
    assert s.control()[wh] == house(s, "stark")  # its power token
    assert s.control()[wf] == house(s, "stark")  # home area (R13.3.1)
    # Baratheon (1 unit, destroyed unasked), then Lannister picks 2 of 3
    assert units(s, "baratheon", "kingswood") == [0, 0, 0, 0]
    assert s.control()[area(s, "kingswood")] == -1
    ss = area(s, "stoney-sept")
    play(s, D.WILDLING_DESTROY_UNITS, "lannister", ("unit", ss, FOOTMAN))
    play(s, D.WILDLING_DESTROY_UNITS, "lannister", ("unit", area(s, "lannisport"), KNIGHT))
    assert ended(s)
    assert units(s, "lannister", "lannisport") == [1, 0, 0, 0]
    assert s.control()[ss] == -1


# -- The Horde Descends -------------------------------------------------------------------------


def test_horde_descends_nights_watch_musters_in_one_own_castle(monkeypatch):
    """the-horde-descends, Night's Watch (D-19): one Castle/Stronghold area he controls, then
    normal mustering there only (step ``mustering`` with houses=[h], areas=[a], R8)."""
    frames = record_step(monkeypatch, MusteringFrame)
    s = attack(card="the-horde-descends")
    bid(s, **NW_STARK)
    wf, wh = area(s, "winterfell"), area(s, "white-harbor")
    d = s.pending
    assert (d.kind, d.player) == (D.HORDE_DESCENDS_MUSTER, house(s, "stark"))
    assert d.options == (("area", wh), ("area", wf), DONE)
    apply(s, ("area", wf))
    assert ended(s)
    assert frames == [MusteringFrame(houses=[house(s, "stark")], areas=[wf])]


def test_horde_descends_nights_watch_real_mustering_in_that_area_only():
    """the-horde-descends, Night's Watch (D-19 then D-05): the area pick of mustering is skipped;
    Winterfell's 2 points are spent there (R8.2-R8.3)."""
    s = attack(card="the-horde-descends")
    bid(s, **NW_STARK)
    wf = area(s, "winterfell")
    play(s, D.HORDE_DESCENDS_MUSTER, "stark", ("area", wf))
    assert s.pending.kind == D.MUSTER and s.pending.context["area"] == wf
    play(s, D.MUSTER, "stark", ("muster", FOOTMAN, wf))
    play(s, D.MUSTER, "stark", ("upgrade", KNIGHT))
    assert ended(s)
    assert units(s, "stark", "winterfell") == [1, 2, 0, 0]
    assert units(s, "stark", "white-harbor") == [1, 0, 0, 0]


def test_horde_descends_nights_watch_offers_only_areas_where_mustering_is_possible():
    """the-horde-descends, Night's Watch (D-19, R8.5, R2.3.1): at supply 0 with two armies of 2,
    White Harbor (1 point, only Knights there, every Ship on the board) allows nothing, so only
    Winterfell (a Footman to upgrade) is offered."""
    seas = ["bay-of-ice", "the-shivering-sea", "the-narrow-sea", "blackwater-bay", "sunset-sea",
            "ironmans-bay"]
    stark = {"winterfell": "FF", "white-harbor": "KK", **dict.fromkeys(seas, "S")}
    s = attack(card="the-horde-descends", supply={"stark": 0},
               units={"stark": stark, "lannister": {"lannisport": "F"},
                      "baratheon": {"dragonstone": "F"}})
    bid(s, **NW_STARK)
    d = s.pending
    assert (d.kind, d.player) == (D.HORDE_DESCENDS_MUSTER, house(s, "stark"))
    assert d.options == (("area", area(s, "winterfell")), DONE)


def test_horde_descends_nights_watch_may_decline(monkeypatch):
    """the-horde-descends, Night's Watch: "may" (D-19 done): no mustering."""
    frames = record_step(monkeypatch, MusteringFrame)
    s = attack(card="the-horde-descends")
    bid(s, **NW_STARK)
    apply(s, DONE)
    assert ended(s)
    assert frames == []


def test_horde_descends_lowest_destroys_two_in_one_own_castle_area():
    """the-horde-descends, lowest bidder (D-12): 2 units in one of his Castle/Stronghold areas
    holding 2+ of them; after the first, the second must come from the same area."""
    s = attack(card="the-horde-descends",
               units={"stark": {"winterfell": "KFF", "white-harbor": "FF", "karhold": "FF"},
                      "lannister": {"lannisport": "F"}, "baratheon": {"dragonstone": "F"}})
    bid(s, **LOW_STARK)
    wf, wh = area(s, "winterfell"), area(s, "white-harbor")
    d = s.pending
    assert (d.kind, d.player) == (D.WILDLING_DESTROY_UNITS, house(s, "stark"))
    assert d.options == (("unit", wh, FOOTMAN), ("unit", wf, FOOTMAN), ("unit", wf, KNIGHT))
    apply(s, ("unit", wf, KNIGHT))  # the second one is Winterfell's Footman, unasked
    assert ended(s)  # others: Lannister's and Baratheon's single Footman, unasked
    assert units(s, "stark", "winterfell") == [1, 0, 0, 0]
    assert units(s, "stark", "white-harbor") == [2, 0, 0, 0]
    assert units(s, "stark", "karhold") == [2, 0, 0, 0]
    assert units(s, "lannister", "lannisport") == [0, 0, 0, 0]
    assert units(s, "baratheon", "dragonstone") == [0, 0, 0, 0]


def test_horde_descends_lowest_without_such_area_destroys_two_anywhere():
    """the-horde-descends, lowest bidder, facts §12 D9: no own Castle/Stronghold area holds 2 of
    his units -> 2 units anywhere."""
    s = attack(card="the-horde-descends",
               units={"stark": {"winterfell": "F", "karhold": "FF"},
                      "lannister": {"lannisport": "F"}, "baratheon": {"dragonstone": "F"}})
    bid(s, **LOW_STARK)
    wf, kh = area(s, "winterfell"), area(s, "karhold")
    assert s.pending.options == (("unit", kh, FOOTMAN), ("unit", wf, FOOTMAN))
    apply(s, ("unit", kh, FOOTMAN))
    play(s, D.WILDLING_DESTROY_UNITS, "stark", ("unit", wf, FOOTMAN))
    assert ended(s)
    assert units(s, "stark", "karhold") == [1, 0, 0, 0]
    assert units(s, "stark", "winterfell") == [0, 0, 0, 0]


def test_horde_descends_others_destroy_one_unit():
    """the-horde-descends, everyone else (D-12): 1 unit anywhere, his choice."""
    s = attack(card="the-horde-descends",
               units={"stark": {"karhold": "F"}, "lannister": {"lannisport": "F"},
                      "baratheon": {"dragonstone": "KF"}})
    bid(s, **LOW_STARK)
    ds = area(s, "dragonstone")
    d = s.pending
    assert (d.kind, d.player) == (D.WILDLING_DESTROY_UNITS, house(s, "baratheon"))
    assert d.options == (("unit", ds, FOOTMAN), ("unit", ds, KNIGHT))
    apply(s, ("unit", ds, KNIGHT))
    assert ended(s)
    assert units(s, "baratheon", "dragonstone") == [1, 0, 0, 0]
    assert units(s, "lannister", "lannisport") == [0, 0, 0, 0]
    assert units(s, "stark", "karhold") == [0, 0, 0, 0]


# -- Skinchanger Scout --------------------------------------------------------------------------


def test_skinchanger_scout_nights_watch_bid_comes_back():
    """skinchanger-scout, Night's Watch: the highest bidder gets back the power he bid; the
    others' bids stay in the Pool."""
    s = attack(card="skinchanger-scout")
    bid(s, **NW_BARATHEON)
    assert ended(s)
    assert powers(s) == [5, 3, 3]


def test_skinchanger_scout_wildlings_lowest_all_others_two():
    """skinchanger-scout, wildling victory: the lowest bidder discards all his available power,
    the others 2 each (all if fewer)."""
    s = attack(card="skinchanger-scout", power={"lannister": 2})
    bid(s, **LOW_BARATHEON)
    assert ended(s)
    assert powers(s) == [0, 0, 1]
    b = house(s, "baratheon")
    assert s.power_pool()[b] == s.ruleset.power_tokens_per_house


def test_wildling_card_index_matches_data():
    """The helper's wildling ids follow the data (guards the other tests' set-up)."""
    s = attack(card="skinchanger-scout")
    assert int(s.wildling_deck[0]) == wildling(s, "skinchanger-scout")
