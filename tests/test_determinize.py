"""Determinization (got_env.engine.determinize): every sample of the hidden information agrees
with what the house observes, varies where the house knows nothing, keeps what the house knows,
and stays a state the engine can play to the end.

The strong check: the house's observation vector (ObservationEncoder) is identical for the true
state and for every determinization, along whole random games and in built positions of every
kind of hidden information (Planning orders, Clash of Kings and wildling bids, chosen house
cards, Tides of Battle, Westeros and wildling decks)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import wildling_helpers
from combat_helpers import build as combat_build
from combat_helpers import march

from got_env import engine
from got_env.data import ORDER_TYPES
from got_env.encoding import ObservationEncoder
from got_env.engine import DecisionKind, apply, choice, scenario
from got_env.engine.bidding import BiddingFrame
from got_env.engine.combat.frame import combat_frame
from got_env.engine.determinize import determinize, hidden_order_areas
from got_env.engine.invariants import check
from got_env.engine.planning import SPECIAL_MARCH_BAN, star_limit, usable_tokens
from got_env.engine.wildlings.attack import WildlingAttackFrame

SAMPLES = 20


@pytest.fixture(scope="module")
def encoder(rs):
    return ObservationEncoder(rs)


def H(state, house_id: str) -> int:
    return state.ruleset.house(house_id)


def play_randomly(state, rng, until=None, check_invariants=False) -> None:
    """Random legal actions until the game ends or ``until(state)`` holds."""
    while state.pending is not None and not (until and until(state)):
        d = state.pending
        apply(state, d.options[int(rng.integers(len(d.options)))])
        if check_invariants:
            check(state)


def assert_same_observation(encoder, true, sample, house) -> None:
    a, b = encoder.encode(true, house), encoder.encode(sample, house)
    if not np.array_equal(a, b):
        va, vb = encoder.views(a), encoder.views(b)
        bad = [k for k in va if not np.array_equal(va[k], vb[k])]
        pytest.fail(f"observation pieces differ after determinize: {bad}")


KNOWN_FIELDS = ("units", "routed", "power_tokens", "power", "garrisons", "neutral_forces",
                "tracks", "supply", "in_play", "card_place", "westeros_drawn", "order_bans")


def assert_known_unchanged(true, sample, house) -> None:
    """Public facts and the house's own secrets are the same in the sample."""
    for name in KNOWN_FIELDS:
        assert np.array_equal(getattr(true, name), getattr(sample, name)), name
    for name in ("wildling_threat", "round", "phase", "blade_used", "raven_used",
                 "orders_revealed", "outcome"):
        assert getattr(true, name) == getattr(sample, name), name
    assert np.array_equal(true.orders >= 0, sample.orders >= 0)  # where orders lie is public
    hidden = {a for areas in hidden_order_areas(true, house).values() for a in areas}
    shown = [a for a in np.flatnonzero(true.orders >= 0) if a not in hidden]
    assert np.array_equal(true.orders[shown], sample.orders[shown])  # own and revealed orders
    for d in range(true.westeros_decks.shape[0]):  # drawn cards keep their places
        k = int(true.westeros_drawn[d])
        assert np.array_equal(true.westeros_decks[d, :k], sample.westeros_decks[d, :k])
        assert sorted(true.westeros_decks[d].tolist()) == sorted(sample.westeros_decks[d].tolist())
    assert sorted(true.wildling_deck.tolist()) == sorted(sample.wildling_deck.tolist())
    assert [f.step for f in true.stack] == [f.step for f in sample.stack]
    if true.pending is not None and true.pending.player == house:
        assert sample.pending == true.pending


# -- along whole games --------------------------------------------------------------------------


@pytest.mark.parametrize("players,tides,seed", [(3, False, 0), (3, False, 1), (4, True, 2)])
def test_observation_identical_along_random_games(encoder, players, tides, seed):
    """At every decision of a random game, for the acting house and for another house: the
    sample's observation is the true one, public facts are kept, the sample is a legal state,
    the true state is left untouched, and the sample is a function of the observation and the
    generator only (two states the house cannot tell apart give the same sample)."""
    rng = np.random.default_rng(seed)
    state = engine.start_game(players, seed=seed, options={"tides_of_battle": tides})
    in_play = np.flatnonzero(state.in_play)
    steps = 0
    while state.pending is not None:
        d = state.pending
        for house in {d.player, int(rng.choice(in_play))}:
            before = state.clone()
            sample = determinize(state, house, rng)
            assert state == before
            assert_same_observation(encoder, state, sample, house)
            assert_known_unchanged(state, sample, house)
            check(sample)
            # a sample depends on the observation only: re-sampling a sample gives the same
            seed_ = int(rng.integers(1 << 30))
            assert determinize(sample, house, seed_) == determinize(state, house, seed_)
        apply(state, d.options[int(rng.integers(len(d.options)))])
        steps += 1
    assert steps > 100


@pytest.mark.parametrize("seed", range(3))
def test_samples_play_to_the_end(seed):
    """A determinization taken mid-game (every 35 decisions: Planning, Westeros, Action phase)
    is played to the end by random moves, every invariant checked after every decision."""
    rng = np.random.default_rng(seed)
    state = engine.start_game(3, seed=seed, options={"tides_of_battle": seed == 2})
    for _ in range(4):
        steps = iter(range(35))
        play_randomly(state, rng, until=lambda s, it=steps: next(it, None) is None)
        if state.pending is None:
            break
        sample = determinize(state, state.pending.player, rng)
        play_randomly(sample, rng, check_invariants=True)
        assert sample.outcome is not None


def test_generator_reseeded_and_rng_argument():
    """Future chance differs across samples; the same seed gives the same sample."""
    state = engine.start_game(3, seed=0)
    house = state.pending.player
    states = {str(determinize(state, house, i).rng.bit_generator.state) for i in range(SAMPLES)}
    assert len(states) == SAMPLES
    assert determinize(state, house, 7) == determinize(state, house, 7)


# -- Planning: other houses' hidden orders ------------------------------------------------------


def place_all(state, rng) -> int:
    """Random orders for the house placing now, until the next house is asked; returns it."""
    first = state.pending.player
    while state.pending.kind == DecisionKind.PLACE_ORDERS and state.pending.player == first:
        d = state.pending
        apply(state, d.options[int(rng.integers(len(d.options)))])
    return first


def test_planning_hidden_orders_resampled_legally(encoder):
    """R10.1: the first house's face-down orders are re-dealt for the second house: same areas,
    each token once, within its star limit; they differ among samples; the second house's own
    placed order is kept; the first house's own samples keep its orders."""
    rng = np.random.default_rng(0)
    state = engine.start_game(3, seed=3)
    first = place_all(state, rng)
    second = state.pending.player
    apply(state, state.pending.options[0])  # one own order placed, more to place
    assert state.pending.player == second
    areas = hidden_order_areas(state, second)[first]
    own = {a: int(state.orders[a]) for a in np.flatnonzero(state.orders >= 0) if a not in areas}
    seen = set()
    for _ in range(SAMPLES):
        s = determinize(state, second, rng)
        assert_same_observation(encoder, state, s, second)
        assert_known_unchanged(state, s, second)
        tokens = [int(s.orders[a]) for a in areas]
        assert len(set(tokens)) == len(tokens)
        assert sum(s.ruleset.order_tokens[t].special for t in tokens) <= star_limit(s, first)
        assert {a: int(s.orders[a]) for a in own} == own
        seen.add(tuple(tokens))
        # the sample plays on: the second house keeps the same options
        assert s.pending == state.pending
    assert len(seen) > SAMPLES // 2
    mine = determinize(state, first, rng)
    assert np.array_equal(mine.orders[areas], state.orders[areas])


def test_planning_orders_respect_bans_and_exhaustion(encoder):
    """§10.3, R10.1.3, R10.1.6: with Raid, Support and Consolidate Power banned Baratheon (last
    on King's Court: 1 star) has 5 usable tokens for 7 areas: every sample uses no banned token,
    at most 1 star, and exactly the tokens the true placement used up (none left usable)."""
    spots = ["dragonstone", "kingswood", "blackwater", "crackclaw-point", "harrenhal",
             "stoney-sept", "the-mountains-of-the-moon"]
    state = scenario.build({
        "players": 3, "seed": 1, "neutral_forces": {},
        "units": {"baratheon": {a: "F" for a in spots}, "stark": {"winterfell": "FF"},
                  "lannister": {"lannisport": "FF"}},
        "order_bans": ["raid", "support", "consolidate-power"],
    })
    rng = np.random.default_rng(1)
    bara = H(state, "baratheon")
    assert state.pending.player == bara and star_limit(state, bara) == 1
    place_all(state, rng)
    observer = state.pending.player
    areas = hidden_order_areas(state, observer)[bara]
    assert len(areas) == 5 and not usable_tokens(state, bara)
    banned = {ORDER_TYPES.index(t) for t in ("raid", "support", "consolidate-power")}
    seen = set()
    for _ in range(SAMPLES):
        s = determinize(state, observer, rng)
        assert_same_observation(encoder, state, s, observer)
        tokens = [s.ruleset.order_tokens[int(s.orders[a])] for a in areas]
        assert not any(ORDER_TYPES.index(t.type) in banned for t in tokens)
        assert sum(t.special for t in tokens) <= 1
        assert not usable_tokens(s, bara)
        seen.add(tuple(int(s.orders[a]) for a in areas))
    assert len(seen) > 1
    assert not state.order_bans[SPECIAL_MARCH_BAN]


def test_orders_after_the_reveal_are_never_resampled():
    """§10.2: once revealed, every order is public."""
    rng = np.random.default_rng(2)
    state = engine.start_game(3, seed=2)
    play_randomly(state, rng, until=lambda s: s.orders_revealed)
    assert state.orders_revealed and (state.orders >= 0).any()
    for house in np.flatnonzero(state.in_play):
        assert np.array_equal(determinize(state, int(house), rng).orders, state.orders)


# -- bids ---------------------------------------------------------------------------------------


def clash_position():
    """Round 2, Westeros: Clash of Kings from deck II (decks I and III do nothing harmful)."""
    return scenario.build({
        "players": 3, "round": 2, "start": "westeros", "seed": 4,
        "power": {"stark": 8, "lannister": 6, "baratheon": 7},
        "westeros_top": {"I": ["last-days-of-summer"], "II": ["clash-of-kings"],
                         "III": ["sea-of-storms"]},
    })


def test_clash_of_kings_committed_bids_resampled(encoder):
    """§9.2 (D-06): bids already committed by other houses are re-drawn in 0..their power; the
    observer's own committed bid is kept; revealed tracks are not touched."""
    state = clash_position()
    rng = np.random.default_rng(3)
    assert state.pending.kind == DecisionKind.INFLUENCE_BID
    first = state.pending.player
    apply(state, ("bid", 3))
    second = state.pending.player
    frame = next(f for f in state.stack if type(f) is BiddingFrame)
    seen = Counter()
    for _ in range(SAMPLES):
        s = determinize(state, second, rng)
        assert_same_observation(encoder, state, s, second)
        assert_known_unchanged(state, s, second)
        bid = next(f for f in s.stack if type(f) is BiddingFrame).bids[first]
        assert 0 <= bid <= state.power[first]
        seen[bid] += 1
    assert len(seen) > 3
    apply(state, ("bid", 2))  # the second house bids; the third decides
    for _ in range(5):
        s = determinize(state, first, rng)
        bids = next(f for f in s.stack if type(f) is BiddingFrame).bids
        assert bids[first] == 3 and 0 <= bids[second] <= state.power[second]
    # once the track is complete, its result is public and nothing is resampled any more
    while state.pending.kind == DecisionKind.INFLUENCE_BID and frame.track == 0:
        apply(state, state.pending.options[0])
    assert frame.track >= 1 or state.pending.kind == DecisionKind.RANK_TIED_BIDDERS
    s = determinize(state, first, rng)
    assert np.array_equal(s.tracks, state.tracks)


def test_wildling_attack_committed_bids_resampled(encoder):
    """§20.2 (D-08): a committed wildling bid of another house is re-drawn in 0..its power."""
    state = wildling_helpers.attack(strength=8, power={"stark": 5, "lannister": 5,
                                                       "baratheon": 5})
    rng = np.random.default_rng(4)
    first = state.pending.player
    apply(state, ("bid", 4))
    second = state.pending.player
    seen = set()
    for _ in range(SAMPLES):
        s = determinize(state, second, rng)
        assert_same_observation(encoder, state, s, second)
        bids = next(f for f in s.stack if type(f) is WildlingAttackFrame).bids
        assert 0 <= bids[first] <= 5 and bids[second] == -1
        seen.add(bids[first])
        play_randomly(s, rng, check_invariants=True)
    assert len(seen) > 3
    kept = next(f for f in determinize(state, first, rng).stack
                if type(f) is WildlingAttackFrame).bids
    assert kept[first] == 4


# -- combat: house cards and Tides of Battle ----------------------------------------------------


def combat_at_defender_card(**options):
    """Lannister (full hand) marches 2 Knights from Riverrun into Seagard (2 Stark Footmen) and
    chooses The Hound; Stark is to choose its card."""
    state = combat_build(options=options, units={"lannister": {"riverrun": "KK"},
                                                 "stark": {"seagard": "FF"}},
                         orders={"riverrun": "march-0"})
    march(state, "riverrun", "seagard", "KK")
    assert state.pending.kind == DecisionKind.HOUSE_CARD
    assert state.pending.player == H(state, "lannister")
    apply(state, ("card", state.ruleset.house_card("the-hound")))
    assert state.pending.player == H(state, "stark")
    return state


def test_chosen_house_card_resampled_from_the_hand(encoder):
    """R15.3 (D-32): Lannister's chosen card is hidden from Stark and from a third house: it is
    re-drawn from Lannister's hand (which still holds it until the reveal); card places do not
    change; Lannister itself keeps The Hound."""
    state = combat_at_defender_card()
    rng = np.random.default_rng(5)
    lannister, stark = H(state, "lannister"), H(state, "stark")
    hand = set(state.hand(lannister))
    assert len(hand) == 7
    for observer in (stark, H(state, "baratheon")):
        seen = Counter()
        for _ in range(SAMPLES):
            s = determinize(state, observer, rng)
            assert_same_observation(encoder, state, s, observer)
            assert_known_unchanged(state, s, observer)
            card = combat_frame(s).cards["attacker"]
            assert card in hand
            seen[card] += 1
        assert len(seen) >= 4
    s = determinize(state, lannister, rng)
    assert combat_frame(s).cards["attacker"] == state.ruleset.house_card("the-hound")
    s = determinize(state, stark, rng)
    play_randomly(s, rng, check_invariants=True)
    assert s.outcome is not None


def test_tides_of_battle_deck_and_opponent_card_resampled(encoder):
    """§24 (D-39): at Stark's Blade redraw choice, Stark sees its own Tides card only: the
    attacker's drawn card and the deck are re-dealt from the same cards; Stark's card is kept."""
    fiefdoms = ["stark", "baratheon", "greyjoy", "tyrell", "martell", "lannister"]
    state = combat_build(options={"tides_of_battle": True},
                         units={"lannister": {"riverrun": "KK"}, "stark": {"seagard": "FF"}},
                         orders={"riverrun": "march-0"}, tracks={"fiefdoms": fiefdoms})
    march(state, "riverrun", "seagard", "KK")
    rng = np.random.default_rng(6)
    while state.pending.kind == DecisionKind.HOUSE_CARD:
        apply(state, state.pending.options[0])
    assert state.pending.kind == DecisionKind.BLADE_REDRAW
    stark = H(state, "stark")
    assert state.pending.player == stark
    frame = combat_frame(state)
    pool = Counter(frame.tides_deck + [frame.tides["attacker"]])
    seen_card, seen_deck = set(), set()
    for _ in range(SAMPLES):
        s = determinize(state, stark, rng)
        assert_same_observation(encoder, state, s, stark)
        f = combat_frame(s)
        assert f.tides["defender"] == frame.tides["defender"]
        assert Counter(f.tides_deck + [f.tides["attacker"]]) == pool
        seen_card.add(f.tides["attacker"])
        seen_deck.add(tuple(f.tides_deck))
    assert len(seen_card) > 3 and len(seen_deck) == SAMPLES
    s = determinize(state, H(state, "lannister"), rng)
    assert combat_frame(s).tides["attacker"] == frame.tides["attacker"]
    play_randomly(s, rng, check_invariants=True)
    assert s.outcome is not None


# -- decks --------------------------------------------------------------------------------------


def test_westeros_decks_undrawn_part_shuffled(encoder):
    """§6.2: the undrawn Westeros cards are shuffled; the drawn ones (this phase's face-up cards
    among them) keep their places."""
    state = clash_position()
    rng = np.random.default_rng(7)
    house = state.pending.player
    assert (state.westeros_drawn >= 1).all()
    orders = set()
    for _ in range(SAMPLES):
        s = determinize(state, house, rng)
        assert_same_observation(encoder, state, s, house)
        assert_known_unchanged(state, s, house)
        orders.add(s.westeros_decks.tobytes())
    assert len(orders) == SAMPLES


def raven_look_position():
    """Round 1, all orders placed at random; the King's Court holder chose to look at the top
    wildling card (D-23 pending)."""
    state = engine.start_game(3, seed=8)
    rng = np.random.default_rng(8)
    play_randomly(state, rng, until=lambda s: s.pending.kind == DecisionKind.RAVEN_USE)
    apply(state, choice("look-at-wildling-card"))
    assert state.pending.kind == DecisionKind.RAVEN_LOOK
    return state


def test_wildling_deck_shuffled_but_a_known_top_kept(encoder):
    """§10.4, R23.5: the Raven holder looking at the top card, then keeping it on top, knows it
    (the top stays in its samples); another house's samples draw a new top, which the holder
    then knows in that sample (the holder knows whatever is on top)."""
    state = raven_look_position()
    rng = np.random.default_rng(9)
    raven = state.pending.player
    other = next(int(h) for h in np.flatnonzero(state.in_play) if h != raven)
    top = int(state.wildling_deck[0])
    decks = set()
    for _ in range(SAMPLES):
        s = determinize(state, raven, rng)  # looking now: the card is in its hands
        assert int(s.wildling_deck[0]) == top
        decks.add(s.wildling_deck.tobytes())
        t = determinize(state, other, rng)  # the other house cannot see it
        assert t.pending.context["wildling_card"] == t.ruleset.wildling_cards[
            int(t.wildling_deck[0])].id
    assert len(decks) > 1
    apply(state, choice("keep-on-top"))
    assert state.wildling_known_top[raven] == top
    tops = set()
    for _ in range(SAMPLES):
        s = determinize(state, raven, rng)
        assert_same_observation(encoder, state, s, raven)
        assert int(s.wildling_deck[0]) == top
        t = determinize(state, other, rng)
        assert_same_observation(encoder, state, t, other)
        assert t.wildling_known_top[raven] == t.wildling_deck[0]
        tops.add(int(t.wildling_deck[0]))
    assert len(tops) > 2


# -- a model of the other houses ----------------------------------------------------------------


class FirstOption:
    """A model that checks what it is shown, then plays the first option."""

    def __init__(self, observer: int):
        self.observer = observer
        self.asked: list[DecisionKind] = []

    def __call__(self, state, decision, rng):
        assert decision.player != self.observer and decision.secret
        assert state.pending is decision
        if decision.kind == DecisionKind.PLACE_ORDERS:  # its hidden orders are cleared first
            assert all(state.orders[a] < 0 for _, a, _ in decision.options)
        if decision.kind == DecisionKind.HOUSE_CARD:
            side = "attacker" if combat_frame(state).attacker == decision.player \
                else "defender"
            assert side not in combat_frame(state).cards
        self.asked.append(decision.kind)
        return decision.options[0]


def test_model_remakes_hidden_orders(encoder):
    """With a model, the first house's orders are placed again one by one by the model (D-20
    decisions on the areas still to fill), and the sample still shows the same observation."""
    rng = np.random.default_rng(10)
    state = engine.start_game(3, seed=3)
    first = place_all(state, rng)
    second = state.pending.player
    areas = sorted(hidden_order_areas(state, second)[first])
    model = FirstOption(second)
    samples = [determinize(state, second, rng, model=model) for _ in range(3)]
    assert model.asked == [DecisionKind.PLACE_ORDERS] * (3 * len(areas))
    for s in samples:
        assert_same_observation(encoder, state, s, second)
        assert s.pending == state.pending
    # the first option each time: the lowest area with the first usable token
    assert len({s.orders.tobytes() for s in samples}) == 1
    assert int(samples[0].orders[areas[0]]) == usable_tokens(
        engine.start_game(3, seed=3), first)[0]


def test_model_remakes_bids_and_cards(encoder):
    state = clash_position()
    apply(state, ("bid", 3))
    observer = state.pending.player
    model = FirstOption(observer)
    s = determinize(state, observer, np.random.default_rng(0), model=model)
    assert model.asked == [DecisionKind.INFLUENCE_BID]
    assert_same_observation(encoder, state, s, observer)
    assert 0 in next(f for f in s.stack if type(f) is BiddingFrame).bids

    state = combat_at_defender_card()
    stark = H(state, "stark")
    model = FirstOption(stark)
    s = determinize(state, stark, np.random.default_rng(0), model=model)
    assert model.asked == [DecisionKind.HOUSE_CARD]
    assert_same_observation(encoder, state, s, stark)
    assert combat_frame(s).cards["attacker"] == min(state.hand(H(state, "lannister")))
    play_randomly(s, np.random.default_rng(1), check_invariants=True)


def test_model_with_an_illegal_answer_falls_back_to_a_legal_one():
    state = clash_position()
    apply(state, ("bid", 3))
    observer = state.pending.player
    s = determinize(state, observer, 0, model=lambda st, d, r: ("bid", 99))
    bids = next(f for f in s.stack if type(f) is BiddingFrame).bids
    assert all(-1 <= b <= 8 for b in bids)
