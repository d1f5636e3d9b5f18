"""The engine's surface: pending/apply, illegal actions, determinism, clones, and random play
checked against the state invariants after every decision (STYLE.md "For got_env" 7, 11, 12;
rules spec R5.3-R5.4, R10.1.1, R22, R23.1).

The default run plays a few full games per player count (well under a minute); the test marked
``slow`` plays 200 per player count (``pytest -m slow``).
"""

from __future__ import annotations

import numpy as np
import pytest
from engine_helpers import answer_single_secrets, build, kind

from got_env.engine import (
    DONE,
    NO,
    DecisionKind,
    GameState,
    IllegalActionError,
    Phase,
    apply,
    choice,
    pending,
    start_game,
)
from got_env.engine.board import supply_ok
from got_env.engine.invariants import check
from got_env.engine.planning import house_tokens_on_board, star_limit
from got_env.engine.state import KNIGHT

PLAYER_COUNTS = (3, 4, 5, 6)
SECRET = {DecisionKind.PLACE_ORDERS, DecisionKind.INFLUENCE_BID, DecisionKind.WILDLING_BID,
          DecisionKind.HOUSE_CARD}


def play(state: GameState, seed: int, limit: int | None = None,
         checks: bool = False) -> list[tuple]:
    """Random play: each decision picks an option with ``default_rng(seed)``. Stops at the end
    of the game or after ``limit`` decisions; returns the actions played."""
    rng = np.random.default_rng(seed)
    played = []
    while (d := pending(state)) is not None and (limit is None or len(played) < limit):
        action = d.options[int(rng.integers(len(d.options)))]
        apply(state, action)
        played.append(action)
        if checks:
            check_decision_point(state)
    return played


def check_decision_point(state: GameState) -> None:
    """What must hold at every decision point, and at the end."""
    check(state)
    d = state.pending
    if d is None:
        assert state.phase == Phase.ENDED and state.outcome is not None
        assert state.outcome.reason in ("seven-castles", "last-round")
        in_play = sorted(np.flatnonzero(state.in_play).tolist())
        assert sorted(state.outcome.ranking) == in_play
        assert state.outcome.winner == state.outcome.ranking[0]
        if state.outcome.reason == "seven-castles":
            vp = state.victory_points()
            assert vp[state.outcome.winner] >= state.ruleset.castles_to_win
        else:
            assert state.round == state.options["max_rounds"]
            vp = state.victory_points()
            points = [int(vp[h]) for h in state.outcome.ranking]
            assert points == sorted(points, reverse=True)  # R22.3: the victory track first
        return
    assert state.outcome is None and state.phase != Phase.ENDED
    assert state.in_play[d.player], f"{d.kind.label} asked of a house not in play"
    assert len(d.options) >= 2 or d.secret, "single-option decisions are played without asking"
    assert len(set(d.options)) == len(d.options), f"{d.kind.label} repeats an option"
    if d.kind in SECRET:  # R23.1, R23.4: orders, bids and chosen cards stay hidden
        assert d.secret, f"{d.kind.label} is not secret"
    if d.kind == DecisionKind.PLACE_ORDERS:  # R10.1.1-R10.1.2, R23.1
        assert not state.orders_revealed
        mine = state.units[:, d.player].sum(axis=1) > 0
        for _, a, _t in d.options:
            assert mine[a] and state.orders[a] < 0
    if state.phase == Phase.PLANNING:  # R10.1.3, §10.4: never more specials than stars
        tokens = state.ruleset.order_tokens
        for h in np.flatnonzero(state.in_play):
            placed = house_tokens_on_board(state, int(h)).values()
            assert sum(tokens[t].special for t in placed) <= star_limit(state, int(h))
    if state.phase == Phase.ACTION:
        assert state.orders_revealed
    assert 1 <= state.round <= state.options["max_rounds"]


# -- illegal actions ---------------------------------------------------------------------------


def test_illegal_action_names_decision_and_action_and_changes_nothing():
    """STYLE 12: an action outside the options raises IllegalActionError naming the decision
    kind and the action; the state is unchanged."""
    s = start_game(num_players=4, seed=7)
    assert kind(s) == DecisionKind.PLACE_ORDERS
    before = s.clone()
    bad = ("order", 0, 99)
    with pytest.raises(IllegalActionError) as e:
        apply(s, bad)
    assert "D-20 PLACE_ORDERS" in str(e.value)
    assert repr(bad) in str(e.value)
    assert s == before


@pytest.mark.parametrize("bad", [DONE, choice("yes"), ("area", 3), ["order", 36, 1], None])
def test_illegal_actions_of_other_kinds_raise(bad):
    """STYLE 12, DECISIONS (closed action vocabulary): a well-formed action of another kind,
    or a non-tuple, is refused the same way and changes nothing."""
    s = start_game(num_players=3, seed=1)
    before = s.clone()
    with pytest.raises(IllegalActionError, match="D-20 PLACE_ORDERS"):
        apply(s, bad)
    assert s == before


def test_illegal_action_mid_game_leaves_state_unchanged():
    """STYLE 12: deep in a game (after 150 random decisions) an illegal action is refused with
    the pending decision's D-id and changes nothing either."""
    s = start_game(num_players=5, seed=11)
    play(s, seed=11, limit=150)
    assert s.pending is not None
    before = s.clone()
    bad = next(a for a in (DONE, ("bid", 99), ("area", 57), ("count", 9))
               if a not in s.pending)
    with pytest.raises(IllegalActionError, match=s.pending.kind.label):
        apply(s, bad)
    assert s == before


def test_apply_after_the_game_ended_raises():
    """R5.4: once the game is over nothing is pending and every action raises."""
    s = build(players=3, round=10, start="consolidate", units={})
    assert s.phase == Phase.ENDED and pending(s) is None
    before = s.clone()
    with pytest.raises(IllegalActionError, match="game over"):
        apply(s, DONE)
    assert s == before


def test_apply_after_a_random_game_ended_raises():
    """R5.4 (with ``max_rounds`` 2): a randomly played game ends after round 2; then every
    action raises."""
    s = start_game(num_players=3, seed=2, options={"max_rounds": 2})
    play(s, seed=2)
    assert s.outcome is not None
    with pytest.raises(IllegalActionError):
        apply(s, DONE)


# -- determinism and clones --------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_same_seed_same_actions_same_game(players):
    """STYLE 11: the same seed and the same actions give equal states (the Westeros and
    wildling decks, shuffles and every choice)."""
    a = start_game(num_players=players, seed=21)
    b = start_game(num_players=players, seed=21)
    assert a == b
    played_a = play(a, seed=5)
    played_b = play(b, seed=5)
    assert played_a == played_b
    assert a == b
    assert a.outcome == b.outcome


def test_different_seeds_differ():
    """STYLE 11, §4.1 (decks shuffled at setup): the equality used above can fail: two seeds
    shuffle the Westeros and wildling decks differently."""
    a, b = start_game(num_players=6, seed=1), start_game(num_players=6, seed=2)
    assert a != b
    assert not np.array_equal(a.westeros_decks, b.westeros_decks) \
        or not np.array_equal(a.wildling_deck, b.wildling_deck)
    b.rng = a.clone().rng
    b.westeros_decks, b.wildling_deck = a.westeros_decks.copy(), a.wildling_deck.copy()
    assert a == b  # nothing else differs at the start


def test_clone_is_independent():
    """STYLE 11: playing on a clone never changes the original; replaying the same actions on
    the original reaches the clone's final state."""
    s = start_game(num_players=6, seed=4)
    play(s, seed=4, limit=200)
    snapshot = s.clone()
    c = s.clone()
    assert c == s and c is not s
    played = play(c, seed=99)
    assert c.phase == Phase.ENDED
    assert s == snapshot  # the original did not move
    assert s != c
    for action in played:
        apply(s, action)
    assert s == c


def test_clone_copies_the_stack_and_arrays():
    """STYLE 11 (clone independence): a clone shares no array, frame, option or generator
    with its original."""
    s = start_game(num_players=4, seed=8)
    play(s, seed=8, limit=120)
    c = s.clone()
    # every frame copied: equal, never the same object (typed frames refuse unknown keys, so
    # independence is shown by identity rather than by writing a probe key into one)
    assert len(c.stack) == len(s.stack) > 0
    assert all(a == b and a is not b for a, b in zip(c.stack, s.stack, strict=True))
    c.units[0, 0, 0] += 1
    c.options["max_rounds"] = 1
    c.rng.integers(10)
    assert s.units[0, 0, 0] != c.units[0, 0, 0]
    assert s.options["max_rounds"] == 10
    assert s.rng.bit_generator.state != c.rng.bit_generator.state


def test_invariants_count_attackers_once_after_they_entered():
    """R7.8, R12.3.9, R18.8: Lannister (supply 0: armies of 2 and 2) wins White Harbor with two
    Knights from Moat Cailin; while it decides on capturing Stark's ship in the port (D-47) it has
    one army of 2, which fits. invariants.check must accept that position (it once counted the
    attackers a second time in the area they had entered)."""
    s = build(start="marches", units={"lannister": {"moat-cailin": "KK"},
                                      "stark": {"white-harbor": "F",
                                                "port-of-white-harbor": "S"}},
              supply={"lannister": 0},
              hands={"lannister": ["ser-gregor-clegane"], "stark": ["greatjon-umber"]},
              orders={"moat-cailin": "march-0", "white-harbor": "defense-1a",
                      "port-of-white-harbor": "support-0a"})
    wh = s.ruleset.area("white-harbor")
    apply(s, ("move", KNIGHT, wh))
    apply(s, ("move", KNIGHT, wh))
    apply(s, NO)  # D-28: no power token in Moat Cailin
    answer_single_secrets(s)  # the house cards: one each, asked all the same
    assert kind(s) == DecisionKind.PORT_CAPTURE
    lannister = s.ruleset.house("lannister")
    assert s.units[wh, lannister, KNIGHT] == 2 and supply_ok(s, lannister)
    check(s)


# -- random play -------------------------------------------------------------------------------


def fuzz(players: int, seeds: range, options: dict | None = None) -> None:
    for seed in seeds:
        s = start_game(num_players=players, seed=seed, options=options)
        check_decision_point(s)
        try:
            play(s, seed=1000 + seed, checks=True)
        except AssertionError as e:
            raise AssertionError(f"{players} players, seed {seed}: {e}") from e
        assert s.outcome is not None


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_play_keeps_invariants(players):
    """Invariants (invariants.check) hold after every decision of random full games; every game
    ends (R5.3-R5.4) with a full ranking (R22); orders are hidden while placed and bids and
    house cards are secret choices (R23.1, R23.4); orders go only where the house has units
    and no order yet, specials within the star limit (R10.1.1-R10.1.3, §10.4); a game that
    reaches the last round ranks by the victory track first (R22.3)."""
    fuzz(players, range(30))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_play_with_tides_of_battle_keeps_invariants(players):
    """§24: the same checks with the Tides of Battle option (and every house card active)."""
    fuzz(players, range(15), options={"tides_of_battle": True})


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_play_with_tides_many_games(players):
    """§24: 200 full games per player count with Tides of Battle."""
    fuzz(players, range(300, 500), options={"tides_of_battle": True})


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_play_keeps_invariants_many_games(players):
    """R5.3-R5.4, R10.1.1-R10.1.2, R22, R23.1, R23.4: the same checks over 200 full games
    per player count."""
    fuzz(players, range(100, 300))
