"""Goofspiel, the kit's second game (goofspiel/): its rules, the PettingZoo API and seeding
tests, hidden information (an unrevealed bid reaches no other player's observation, and a
determinization depends only on the observation), IS-MCTS through the Game protocol, and random
agents playing whole games that their records replay."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import goofspiel
from agents import ISMCTSAgent, RandomAgent
from agents.ismcts import ISMCTS, random_policy
from boardkit import Game, games
from goofspiel import GAME


def play(env, agents, seed):
    """Play one game; the final rewards by agent."""
    env.reset(seed=seed)
    rewards = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            rewards[agent] = reward
            env.step(None)
        else:
            env.step(agents[agent].act(obs["observation"], obs["action_mask"], info))
    return rewards


def test_registered_and_a_game():
    assert games.get("goofspiel") is GAME and isinstance(GAME, Game)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_pettingzoo_api(num_players):
    api_test(goofspiel.env(num_players=num_players, num_cards=6), num_cycles=200)


def test_pettingzoo_seeding():
    seed_test(lambda: goofspiel.env(num_players=3, num_cards=5), num_cycles=100)


def test_highest_unique_bid_wins_ties_discard():
    """Prizes 5, 4, ...: bids 5, 5, 3 (the 5s tie: the unique 3 wins 5); then 4, 4, 4 (all
    tie: the prize is discarded)."""
    s = GAME.scenario({"num_players": 3, "prizes": [5, 4, 3, 2, 1], "played": [[5, 5, 3]]})
    assert s.points.tolist() == [0, 0, 5] and s.turn == 1
    for card in (3, 3, 3):  # value 4 each
        GAME.apply(s, card)
    assert s.points.tolist() == [0, 0, 5]
    assert GAME.pending(s).options == (0, 1, 2)  # cards 1..3 of player 0 are left
    with pytest.raises(ValueError):
        GAME.apply(s, 4)  # value 5: played already


def test_an_unrevealed_bid_reaches_no_other_observation():
    """Along random games: at every decision after some player has bid this turn, changing
    that bid changes no other player's observation (nor the env's), only its own."""
    rng = np.random.default_rng(0)
    for seed in range(5):
        s = GAME.new_state(seed, {"num_players": 3, "num_cards": 6})
        enc = GAME.encoder(s)
        while (d := GAME.pending(s)) is not None:
            for p in np.flatnonzero(s.bids >= 0):
                other = GAME.clone(s)
                others = [c for c in np.flatnonzero(s.hands[p]) if c != s.bids[p]]
                if not others:
                    continue
                other.bids[p] = rng.choice(others)
                for q in range(3):
                    same = np.array_equal(enc.encode(s, q), enc.encode(other, q))
                    assert same == (q != p)
            GAME.apply(s, random_policy(s, d, rng))


def test_a_determinization_keeps_the_observation_and_depends_only_on_it():
    s = GAME.scenario({"num_players": 3, "prizes": [3, 6, 1, 5, 2, 4], "played": [[1, 2, 3]]})
    GAME.apply(s, 4)  # player 0 bids 5 (secretly); player 1 decides
    enc, seen = GAME.encoder(s), 1
    twin = GAME.clone(s)
    twin.bids[0], twin.prizes[2:] = 0, twin.prizes[2:][::-1]  # what player 1 cannot tell apart
    assert np.array_equal(enc.encode(s, seen), enc.encode(twin, seen))
    a, b = (GAME.determinize(x, seen, np.random.default_rng(7)) for x in (s, twin))
    assert np.array_equal(enc.encode(a, seen), enc.encode(s, seen))
    assert (a.prizes[:2] == s.prizes[:2]).all() and sorted(a.prizes[2:]) == sorted(s.prizes[2:])
    assert GAME.digest(a) == GAME.digest(b)


def test_ismcts_plays_it_through_the_protocol():
    """The search (agents/ismcts.py, which imports no game) plays a whole game of Goofspiel,
    by its registry name, and beats random play over a few seeded games."""
    s = GAME.new_state(3, {"num_players": 2, "num_cards": 8})
    search = ISMCTS(simulations=20, horizon="game", game="goofspiel", seed=0)
    rng = np.random.default_rng(1)
    while (d := GAME.pending(s)) is not None:
        GAME.apply(s, search.search(s, 0) if d.player == 0 else random_policy(s, d, rng))
    assert GAME.outcome(s) is not None and s.hands.sum() == 0
    env = goofspiel.env(num_players=2, num_cards=8)
    total = 0.0
    for seed in range(6):
        agents = {"player_0": ISMCTSAgent(env=env, simulations=100, rollout="random",
                                          prior=None, model=None, horizon="game", seed=seed),
                  "player_1": RandomAgent(seed=seed)}
        total += play(env, agents, seed)["player_0"]
    assert agents["player_0"].game is GAME
    assert total >= 3  # won clearly more than lost (each game: +1, 0 or -1)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_agents_play_whole_games_that_replay(num_players):
    env = goofspiel.env(num_players=num_players, num_cards=13)
    for seed in range(3):
        agents = {a: RandomAgent(seed=seed * 10 + i) for i, a in enumerate(env.possible_agents)}
        rewards = play(env, agents, seed)
        assert abs(sum(rewards.values())) < 1e-9 and len(rewards) == num_players
        raw = env.unwrapped
        record = raw.record
        s = GAME.new_state(record.seed, raw.options)
        for a in record.actions:
            GAME.apply(s, raw.codec.decode(a))
        assert GAME.digest(s) == GAME.digest(raw.game) == record.digest
        assert len(record.actions) == 13 * num_players


def test_truncation_and_text():
    env = goofspiel.raw_env(num_players=2, num_cards=5, max_steps=3, render_mode="ansi")
    env.reset(seed=0)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert "turn 2/5" in env.render()
    assert "player_1" not in GAME.text(env.game, 0)


# -- what a tool builds from the registry name alone (boardkit.envs, boardkit.result) ----------
def test_make_env_gives_the_games_own_env():
    from boardkit.envs import make_env

    env = make_env("goofspiel", num_players=3, num_cards=4)
    assert isinstance(env, goofspiel.raw_env)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    with pytest.raises(TypeError):
        make_env("goofspiel", colour="red")


class Renamed(goofspiel.Goofspiel):
    """A registered game with no env of its own (a researcher's game): the kit's env serves."""

    name = "goofspiel_renamed"


def test_make_env_falls_back_to_the_kits_env_for_a_registered_game():
    from boardkit.aec import KitEnv, kit_env_factory
    from boardkit.envs import make_env
    from boardkit.plugin import GamePlugin
    from goofspiel.plugin import check_invariants

    game = Renamed()
    games.register(GamePlugin(game=game, make_env=kit_env_factory(game),
                              check_invariants=check_invariants, variants={"2p": {}}))
    try:
        env = make_env("goofspiel_renamed", num_players=2, num_cards=3, max_steps=4)
    finally:
        games.unregister("goofspiel_renamed")
    assert type(env) is KitEnv and env.game_name == "goofspiel_renamed"
    assert env.max_steps == 4 and env.options == {"num_players": 2, "num_cards": 3}


@pytest.mark.parametrize("played, ranking, draw", [
    ([[3, 2], [2, 1], [1, 3]], (0, 1), ()),      # prizes 3 and 1 to player_0: 4 points to 2
    ([[2, 3], [1, 2], [3, 1]], (1, 0), ()),      # the same the other way round: 2 to 4
    ([[3, 1], [1, 2], [2, 3]], (0, 1), (0, 1)),  # 3 points each: a draw, ranked in seat order
])
def test_final_result_ranks_the_points(played, ranking, draw):
    from boardkit.result import final_result

    state = GAME.scenario({"prizes": [3, 1, 2], "played": played})
    result = final_result(GAME, state, [0, 1])
    points = GAME.outcome(state)
    assert result.scores == {0: points[0], 1: points[1]}
    assert result.ranking == ranking and result.draw == draw and result.reason == "end"


# -- the batched API (boardkit.vector) on a second game ------------------------------------------

GOOF = {"num_players": 3, "num_cards": 5}


@pytest.mark.parametrize("num_workers", [0, 2])
def test_batched_games_equal_the_aec_env_and_their_records_replay(num_workers):
    """VectorGames(game="goofspiel"): random masked games to their ends, auto-reset, every step
    of every game what the AEC env shows with the same seed and actions, and each finished
    game's record (``KitEnv.record``) replaying into the AEC env's final state."""
    from test_vector import assert_same_as_aec, play

    from boardkit.envs import make_env
    from boardkit.vector import VectorGames
    from boardkit.vector_shard import replay

    with VectorGames(8, 3, seeds=40, num_workers=num_workers, game="goofspiel",
                     num_cards=5) as games:
        assert (games.num_players, games.action_size) == (3, 5)
        assert games.possible_agents == ["player_0", "player_1", "player_2"]
        episodes = play(games, 40, [40 + g for g in range(8)])  # 15 bids a game
        names, options = games.possible_agents, games.options
    finished = [ep for eps in episodes for ep in eps if ep.finished is not None]
    assert len(finished) >= 16 and all(len(eps) >= 3 for eps in episodes)
    for eps in episodes:
        for ep in eps:
            assert_same_as_aec(GOOF, ep, names, game="goofspiel")
    for ep in finished:
        record = ep.finished.record
        assert record.game == "goofspiel" and record.options == {
            **GOOF, "reward": "zero_sum", "max_steps": None}
        aec = make_env("goofspiel", **GOOF)
        aec.reset(seed=ep.seed)
        for a in ep.actions:
            aec.step(a)
        assert GAME.digest(replay("goofspiel", record, options).game) == GAME.digest(aec.game)


def test_batched_games_restore_and_name_an_illegal_action():
    """A state taken mid-game restores into a batch with other workers and plays on alike; an
    illegal action raises the kit's IllegalActionError in the AEC env's words."""
    from test_vector import random_actions

    from boardkit import IllegalActionError
    from boardkit.vector import VectorGames

    rng = np.random.default_rng(3)
    with VectorGames(4, 3, seeds=9, game="goofspiel", num_cards=5) as a, \
            VectorGames(4, 3, num_workers=2, game="goofspiel", num_cards=5) as b:
        batch = a.reset()
        for _ in range(7):
            batch = a.step(random_actions(batch, rng))
        restored = b.restore(a.state())
        np.testing.assert_array_equal(restored.obs, batch.obs)
        assert restored.infos == batch.infos
        for _ in range(20):
            actions = random_actions(batch, rng)
            batch, other = a.step(actions), b.step(actions)
            for name in ("agent", "obs", "mask", "rewards", "done"):
                np.testing.assert_array_equal(getattr(batch, name), getattr(other, name))
            assert batch.infos == other.infos
        bad = np.argmin(batch.mask, axis=1)
        with pytest.raises(IllegalActionError, match=r"game 0: action \d+ .*not legal for bid"):
            a.step(bad)


def test_a_players_text_holds_the_revealed_bids_and_none_of_the_others_bids():
    """What the replay viewer's player views show (experiments/replay/text_view.py)."""
    s = GAME.scenario({"prizes": [3, 1, 2], "played": [[2, 3]]})
    GAME.apply(s, 0)  # player 0 bids 1 for prize 1, unrevealed
    seen_by_1 = GAME.text(s, 1)
    assert "turn 1: prize 3, bids [2, 3]" in seen_by_1 and "player_0" not in seen_by_1
    hidden = GAME.clone(s)
    hidden.bids[0] = 0 if s.bids[0] != 0 else 1
    assert GAME.text(hidden, 1) == seen_by_1
    assert "player_0: hand [1, 3], bid 1" in GAME.text(s, 0)


def test_a_kit_record_saves_loads_and_replays(tmp_path):
    from boardkit.records import GameRecord, RecordError

    env = goofspiel.env(num_players=3, num_cards=4)
    play(env, {a: RandomAgent(seed=i) for i, a in enumerate(env.possible_agents)}, seed=1)
    record = env.unwrapped.record
    record.save(tmp_path / "r.json")
    loaded = GameRecord.load(tmp_path / "r.json")
    assert loaded == record and loaded.game == "goofspiel"
    steps = list(loaded.walk())
    assert len(steps) == 13 and GAME.digest(steps[-1][0].game) == record.digest
    (tmp_path / "bad.json").write_text('{"format": "boardkit-record-2", "game": 1}')
    with pytest.raises(RecordError, match="bad.json.*'options' is missing"):
        GameRecord.load(tmp_path / "bad.json")
