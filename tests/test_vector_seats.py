"""Worker-side seats of the batched API (``VectorGames(worker_seats=..., agent_factory=...)``).

The seats a batch's workers play themselves must play exactly as the same agents would in the
AEC loop of the main process: every finished game of a batch whose seats 1 and 2 are
``heuristic_v2`` in the workers (seat 0 random, from the test) is replayed through PettingZoo's
loop on ``got_env.env`` with those agents built there, with the same seeds
(:func:`boardkit.vector_shard.seat_seed`), the learner's recorded actions for seat 0, and the action
lists must be the same. Also: every row of a batch is a learner seat's decision, the
worker-side decisions are counted in ``seat_moves``, 0 and 2 workers agree, Goofspiel with a
random worker-side seat, and bad ``worker_seats`` are refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import goofspiel
import got_env
from agents import make_agent
from boardkit.vector import VectorGames
from boardkit.vector_shard import Batch, Finished, VectorGamesError, seat_seed

AGOT = {"num_players": 3, "max_rounds": 2, "reward": "rank"}
GOOF = {"num_players": 3, "num_cards": 5}


def random_actions(batch: Batch, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(np.where(batch.mask, rng.random(batch.mask.shape), -1.0), axis=1)


def play_batch(games: VectorGames, want: int, seed: int = 0,
               max_steps: int = 2000) -> tuple[list[Finished], int, int]:
    """Random learner actions until ``want`` games finished: the finished games, the learner's
    decisions and the worker-side ones counted by the batches."""
    rng = np.random.default_rng(seed)
    batch = games.reset()
    learner = {g: set(range(games.num_players)) - set(games.worker_seats[g])
               for g in range(games.num_games)}
    finished: list[Finished] = []
    decisions, seat_moves = 0, int(batch.seat_moves.sum())
    for _ in range(max_steps):
        for g in range(games.num_games):  # every row waits on a learner seat
            assert int(batch.agent[g]) in learner[g]
        batch = games.step(random_actions(batch, rng))
        decisions += games.num_games
        seat_moves += int(batch.seat_moves.sum())
        finished += [f for f in batch.finished if f is not None]
        if len(finished) >= want:
            return finished, decisions, seat_moves
    raise AssertionError(f"only {len(finished)} games finished in {max_steps} steps")


def actions_of(record: Any) -> list[int]:
    return [int(a) for a in (record.actions if hasattr(record, "actions")
                             else record["actions"])]


def seed_of(record: Any) -> int:
    return int(record.seed if hasattr(record, "seed") else record["seed"])


def aec_replay(env: Any, record: Any, seats: dict[int, str]) -> list[int]:
    """The game of ``record`` in the AEC loop of ``env`` (the wrapped env), the ``seats``
    played by agents built here with :func:`seat_seed`, every other seat given the record's
    action: the action list the loop played."""
    seed, recorded = seed_of(record), actions_of(record)
    env.reset(seed=seed)
    names = list(env.possible_agents)
    players = {names[s]: make_agent(spec, env=env, seed=seat_seed(seed, s))
               for s, spec in seats.items()}
    played: list[int] = []
    for name in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        if name in players:
            action = int(players[name].act(obs["observation"], obs["action_mask"], info))
        else:
            assert len(played) < len(recorded), "the loop outlived the record"
            action = recorded[len(played)]
        played.append(action)
        env.step(action)
    return played


def check_against_aec(finished: list[Finished], env: Any, seats: dict[int, str],
                      worker_moves: int) -> None:
    total_worker = 0
    names = list(env.possible_agents)
    for f in finished:
        assert aec_replay(env, f.record, seats) == actions_of(f.record)
        # the record holds every action, the worker-side ones too
        total_worker += _seat_decisions(env, f.record, {names[s] for s in seats})
    assert total_worker <= worker_moves


def _seat_decisions(env: Any, record: Any, names: set[str]) -> int:
    """How many of ``record``'s actions were decisions of the seats ``names``."""
    env.reset(seed=seed_of(record))
    count = 0
    for action in actions_of(record):
        count += env.agent_selection in names
        env.step(action)
    assert count > 0
    return count


HEURISTIC_SEATS = {1: "heuristic_v2", 2: "heuristic_v2"}


@pytest.mark.parametrize("workers", [0, 2])
def test_agot_heuristic_seats_in_workers_match_the_aec_loop(workers: int) -> None:
    with VectorGames(4, seeds=11, num_workers=workers, worker_seats=HEURISTIC_SEATS,
                     agent_factory=make_agent, start_method="fork", **AGOT, game="got") as games:
        finished, decisions, seat_moves = play_batch(games, want=4)
    assert seat_moves > decisions  # two seats of three are the workers'
    check_against_aec(finished, got_env.env(**AGOT), HEURISTIC_SEATS, seat_moves)


def test_zero_and_two_workers_give_the_same_games() -> None:
    runs = []
    for workers in (0, 2):
        with VectorGames(4, seeds=5, num_workers=workers, worker_seats=HEURISTIC_SEATS,
                         agent_factory=make_agent, start_method="fork", **AGOT,
                         game="got") as games:
            finished, _, seat_moves = play_batch(games, want=4, seed=3)
        runs.append(([(f.game, actions_of(f.record)) for f in finished], seat_moves))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("workers", [0, 2])
def test_goofspiel_random_worker_seat(workers: int) -> None:
    seats = [{"player_2": "random"}, {1: "random", 2: "random"}, None, {0: "random"}]
    with VectorGames(4, seeds=0, num_workers=workers, game="goofspiel", worker_seats=seats,
                     agent_factory=make_agent, start_method="fork", **GOOF) as games:
        assert games.worker_seats == [{2: "random"}, {1: "random", 2: "random"}, {},
                                      {0: "random"}]
        finished, _, seat_moves = play_batch(games, want=12)
    env = goofspiel.env(**GOOF)
    by_game = {0: {2: "random"}, 1: {1: "random", 2: "random"}, 2: {}, 3: {0: "random"}}
    for f in finished:
        assert aec_replay(env, f.record, by_game[f.game]) == actions_of(f.record)
        assert len(actions_of(f.record)) == 5 * 3  # every bid, worker-side ones too
    assert seat_moves > 0


def test_no_worker_seats_counts_nothing() -> None:
    with VectorGames(2, seeds=0, game="goofspiel", **GOOF) as games:
        batch = games.reset()
        assert batch.seat_moves.tolist() == [0, 0]
        batch = games.step(random_actions(batch, np.random.default_rng(0)))
        assert batch.seat_moves.tolist() == [0, 0]


def test_bad_worker_seats_are_refused() -> None:
    with pytest.raises(ValueError, match="agent_factory"):
        VectorGames(2, game="goofspiel", worker_seats={1: "random"}, **GOOF)
    with pytest.raises(ValueError, match="every seat"):
        VectorGames(2, game="goofspiel", worker_seats={0: "random", 1: "random", 2: "random"},
                    agent_factory=make_agent, **GOOF)
    with pytest.raises(ValueError, match="no seat"):
        VectorGames(2, game="goofspiel", worker_seats={7: "random"}, agent_factory=make_agent,
                    **GOOF)
    with pytest.raises(ValueError, match="one per game"):
        VectorGames(2, game="goofspiel", worker_seats=[{1: "random"}],
                    agent_factory=make_agent, **GOOF)
    with pytest.raises(ValueError, match="pickle"):
        VectorGames(2, game="goofspiel", num_workers=1, worker_seats={1: "random"},
                    agent_factory=lambda spec, env, seed: make_agent(spec, env=env, seed=seed),
                    **GOOF)


ROTATION = [{1: "random"}, {}, {0: "random", 2: "random"}, {2: "random"}]


def rotated(g: int, k: int) -> dict[int, str]:
    """The worker-side seats of slot ``g``'s ``k``-th game in the league-like tests."""
    return ROTATION[(g + k) % len(ROTATION)]


@pytest.mark.parametrize("workers", [0, 2])
def test_seat_next_seats_each_new_game_as_announced(workers: int) -> None:
    """A league draws every game's opponents: ``seat_next`` announces a slot's next game's
    seats; each finished game was played by the seats announced for it (replayed in the AEC
    loop), and every row waits on a learner seat of the game now in its slot."""
    env = goofspiel.env(**GOOF)
    with VectorGames(3, seeds=7, num_workers=workers, game="goofspiel",
                     agent_factory=make_agent, start_method="fork", **GOOF) as games:
        for g in range(3):
            games.seat_next(g, rotated(g, 0))
        batch = games.reset()
        episode = [0, 0, 0]
        for g in range(3):
            games.seat_next(g, rotated(g, 1))
        rng, checked = np.random.default_rng(0), 0
        while checked < 12:
            for g in range(3):
                assert int(batch.agent[g]) not in rotated(g, episode[g])
                assert games.worker_seats[g] == rotated(g, episode[g])
            batch = games.step(random_actions(batch, rng))
            for f in batch.finished:
                if f is None:
                    continue
                g = f.game
                assert aec_replay(env, f.record, rotated(g, episode[g])) == actions_of(f.record)
                episode[g] += 1
                games.seat_next(g, rotated(g, episode[g] + 1))
                checked += 1


def _league_run(games: VectorGames, steps: int, rng: np.random.Generator,
                episode: list[int], batch: Batch) -> tuple[Batch, list[list[int]]]:
    """``steps`` random learner steps, announcing each slot's next game as ``rotated``; the
    finished games' actions."""
    done = []
    for _ in range(steps):
        batch = games.step(random_actions(batch, rng))
        for f in batch.finished:
            if f is not None:
                episode[f.game] += 1
                games.seat_next(f.game, {s: "heuristic_v2" for s in rotated(f.game,
                                                                             episode[f.game] + 1)})
                done.append(actions_of(f.record))
    return batch, done


def test_restore_with_worker_seats_plays_on_as_the_saved_games() -> None:
    """Stateful worker-side agents (AGoT's heuristic_v2) are rebuilt by replaying each game
    with them asked at their decisions: a restored batch (other workers) plays on as the saved
    one, the announced next seats included; a restore whose agents choose otherwise than the
    record is refused, naming the game."""
    def start(workers: int) -> tuple[VectorGames, Batch]:
        games = VectorGames(3, seeds=21, num_workers=workers, agent_factory=make_agent,
                            start_method="fork", **AGOT, game="got")
        for g in range(3):
            games.seat_next(g, {s: "heuristic_v2" for s in rotated(g, 0)})
        batch = games.reset()
        for g in range(3):
            games.seat_next(g, {s: "heuristic_v2" for s in rotated(g, 1)})
        return games, batch

    games, batch = start(0)
    episode = [0, 0, 0]
    rng = np.random.default_rng(4)
    batch, _ = _league_run(games, 150, rng, episode, batch)
    state, rng_state, saved_episode = games.state(), rng.bit_generator.state, list(episode)
    assert any(state["seats"]) and state["upcoming"] != [None] * 3
    _, straight = _league_run(games, 300, rng, episode, batch)
    games.close()
    assert straight, "no game finished after the state was taken"

    again = VectorGames(3, num_workers=2, agent_factory=make_agent, start_method="fork", **AGOT,
                        game="got")
    with again:
        batch = again.restore(state)
        rng = np.random.default_rng()
        rng.bit_generator.state = rng_state
        _, resumed = _league_run(again, 300, rng, list(saved_episode), batch)
        assert resumed == straight
        wrong = {**state, "seats": [{s: "random" for s in row} for row in state["seats"]]}
        with pytest.raises(VectorGamesError, match="chose .* the record"):
            again.restore(wrong)


def test_bad_seat_next_is_refused() -> None:
    with VectorGames(2, seeds=0, game="goofspiel", **GOOF) as games:
        with pytest.raises(ValueError, match="agent_factory"):
            games.seat_next(0, {1: "random"})
        games.seat_next(0, None)  # no worker seat needs no factory
    with VectorGames(2, seeds=0, game="goofspiel", agent_factory=make_agent, **GOOF) as games:
        with pytest.raises(ValueError, match="slot index in 0..1"):
            games.seat_next(2, {1: "random"})
        with pytest.raises(ValueError, match="take every seat"):
            games.seat_next(0, {0: "random", 1: "random", 2: "random"})
        with pytest.raises(ValueError, match="no seat of"):
            games.seat_next(1, {"player_9": "random"})


def test_seat_seed_is_a_function_of_game_seed_and_seat() -> None:
    assert seat_seed(3, 1) == seat_seed(3, 1)
    assert len({seat_seed(s, p) for s in range(20) for p in range(6)}) == 120


def test_ray_actors_play_worker_seats_as_worker_processes() -> None:
    ray = pytest.importorskip("ray", reason="the Ray backend needs the 'ray' extra")
    from boardkit.vector_ray import RayVectorGames

    seats = {1: "random", 2: "random"}
    with VectorGames(3, seeds=2, game="goofspiel", worker_seats=seats,
                     agent_factory=make_agent, **GOOF) as games:
        local, _, local_moves = play_batch(games, want=6)
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with RayVectorGames(3, seeds=2, num_workers=2, game="goofspiel", worker_seats=seats,
                            agent_factory=make_agent, **GOOF) as games:
            remote, _, remote_moves = play_batch(games, want=6)
    finally:
        if started:
            ray.shutdown()
    assert [(f.game, actions_of(f.record)) for f in remote] == \
        [(f.game, actions_of(f.record)) for f in local]
    assert remote_moves == local_moves > 0


class _Illegal:
    """An agent that always chooses an action outside the action space."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict) -> int:
        return int(action_mask.size)


def illegal_factory(spec: Any, env: Any = None, seed: int | None = None) -> Any:
    return _Illegal() if spec == "illegal" else make_agent(spec, env=env, seed=seed)


@pytest.mark.parametrize("workers", [0, 1])
def test_a_worker_side_illegal_action_names_the_game(workers: int) -> None:
    from boardkit.decision import IllegalActionError

    with VectorGames(2, seeds=0, num_workers=workers, game="goofspiel", start_method="fork",
                     worker_seats=[None, {1: "illegal"}], agent_factory=illegal_factory,
                     **GOOF) as games:
        batch = games.reset()
        with pytest.raises(IllegalActionError, match="game 1"):
            games.step(random_actions(batch, np.random.default_rng(0)))
