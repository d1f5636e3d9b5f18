"""The batched self-play API (boardkit.vector) against the AEC env it must equal, step for step.

Each game of a batch is replayed through PettingZoo's loop on the wrapped env (``agent_iter``,
``last()``) with the same seed and actions, and everything a learner sees is compared: the acting
house, its observation and mask, its infos, the rewards (a house's rewards summed between its
turns are what ``last()`` reports to it), and at the end every house's final observation,
reward, termination, truncation and infos, the record and its seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import got_env
from boardkit.envs import make_env
from boardkit.vector import VectorGames
from boardkit.vector_shard import Batch, Finished, VectorGamesError
from got_env.engine import IllegalActionError, OptionError

SHORT = {"num_players": 3, "max_rounds": 2, "reward": "rank"}
TRUNCATED = {"num_players": 4, "max_rounds": 1, "max_steps": 12}


@dataclass
class Episode:
    """What the batch showed of one game: a turn per decision, the actions, reward rows."""

    seed: int
    turns: list[tuple[str, np.ndarray, np.ndarray, dict]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    rewards: list[np.ndarray] = field(default_factory=list)
    finished: Finished | None = None


def random_actions(batch: Batch, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(np.where(batch.mask, rng.random(batch.mask.shape), -1.0), axis=1)


def play(games: VectorGames, steps: int, first_seeds: list[int],
         seed: int = 0) -> list[list[Episode]]:
    """Reset and play ``steps`` random masked steps; every game's episodes, as seen."""
    rng = np.random.default_rng(seed)
    names = games.possible_agents
    g_count = games.num_games
    batch = games.reset()
    episodes = [[Episode(first_seeds[g])] for g in range(g_count)]

    def turn(b: Batch, g: int) -> tuple:
        return names[b.agent[g]], b.obs[g], b.mask[g], b.infos[g]

    for g in range(g_count):
        episodes[g][-1].turns.append(turn(batch, g))
    for _ in range(steps):
        actions = random_actions(batch, rng)
        batch = games.step(actions)
        for g in range(g_count):
            ep = episodes[g][-1]
            ep.actions.append(int(actions[g]))
            ep.rewards.append(batch.rewards[g])
            if batch.done[g]:
                assert batch.finished[g] is not None and batch.finished[g].game == g
                assert batch.truncated[g] == batch.finished[g].truncated
                ep.finished = batch.finished[g]
                k = len(episodes[g])
                episodes[g].append(Episode(first_seeds[g] + k * g_count))
            else:
                assert batch.finished[g] is None and not batch.truncated[g]
            episodes[g][-1].turns.append(turn(batch, g))
    return episodes


def aec_play(options: dict[str, Any], seed: int, actions: list[int],
             game: str = "got") -> tuple[list, dict]:
    """The wrapped AEC env of ``game`` (AGoT's own wrapper, else PettingZoo's order enforcing)
    through PettingZoo's loop with these actions: the turns before each action ``(agent, obs,
    mask, info, reward)`` (one more when the game goes on), and the dead steps' ``last()`` by
    agent when it ended."""
    env = got_env.env(**options) if game == "got" else \
        OrderEnforcingWrapper(make_env(game, **options))
    env.reset(seed=seed)
    turns, final, i = [], {}, 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (obs["observation"], reward, term, trunc, info)
            env.step(None)
            continue
        turns.append((agent, obs["observation"], obs["action_mask"], info, reward))
        if i == len(actions):
            break
        env.step(actions[i])
        i += 1
    return turns, final


def record_seed_actions(record: Any) -> tuple[int, list[int]]:
    """The seed and actions of a finished game's record (the kit's ``GameRecord``)."""
    return record.seed, list(record.actions)


def assert_same_as_aec(options: dict[str, Any], episode: Episode,
                       names: list[str], game: str = "got") -> None:
    """The batch showed ``episode`` as the AEC env of ``game`` plays it, step by step."""
    turns, final = aec_play(options, episode.seed, episode.actions, game)
    assert len(turns) == len(episode.turns)
    owed = np.zeros(len(names), dtype=np.float64)  # rewards since each house's last turn
    for t, (agent, obs, mask, info, reward) in enumerate(turns):
        v_agent, v_obs, v_mask, v_info = episode.turns[t]
        assert v_agent == agent, f"step {t}"
        np.testing.assert_array_equal(v_obs, obs, err_msg=f"step {t}")
        np.testing.assert_array_equal(v_mask, mask, err_msg=f"step {t}")
        assert v_info == info, f"step {t}"
        h = names.index(agent)
        assert owed[h] == pytest.approx(reward), f"step {t}"
        owed[h] = 0.0
        if t < len(episode.rewards):
            owed += episode.rewards[t]
    fin = episode.finished
    if fin is None:
        assert final == {}
        return
    assert record_seed_actions(fin.record) == (episode.seed, episode.actions)
    assert set(final) == set(names)
    np.testing.assert_array_equal(fin.rewards, episode.rewards[-1])
    for h, a in enumerate(names):
        obs, reward, term, trunc, info = final[a]
        np.testing.assert_array_equal(fin.obs[h], obs)
        assert owed[h] == pytest.approx(reward)
        assert (term, trunc) == (not fin.truncated, fin.truncated)
        assert fin.infos[a] == info


@pytest.mark.parametrize("num_workers", [0, 2])
@pytest.mark.parametrize("options, steps", [(SHORT, 110), (TRUNCATED, 30)],
                         ids=["3p-2-rounds-rank", "4p-truncated"])
def test_batch_equals_the_aec_env(num_workers: int, options: dict, steps: int) -> None:
    """Same seeds and actions: every step of every game (finished ones and those in progress)
    shows what the AEC env shows, auto-resets included."""
    opts = dict(options)
    n = opts.pop("num_players")
    with VectorGames(4, n, seeds=50, num_workers=num_workers, **opts, game="got") as games:
        episodes = play(games, steps, [50 + g for g in range(4)])
        names = games.possible_agents
    assert sum(ep.finished is not None for eps in episodes for ep in eps) >= 4
    for eps in episodes:
        assert len(eps) >= 2  # every slot finished a game and went on with the next seed
        for ep in eps:
            assert_same_as_aec(options, ep, names)
    if "max_steps" in options:
        assert all(ep.finished.truncated for eps in episodes for ep in eps if ep.finished)


@pytest.mark.parametrize("num_workers", [0, 2])
@pytest.mark.parametrize("options", [{"num_players": 3, "max_rounds": 1, "info_format": "text"},
                                     {"ruleset": "1e", "num_players": 3, "max_rounds": 1}],
                         ids=["text-infos", "1e-draw-key"])
def test_batch_infos_equal_the_aec_env_in_every_format(num_workers: int, options: dict) -> None:
    """The acting houses' infos, which a worker writes as two numbers (the decision kind and the
    number of legal actions) for the main process to rebuild, are the AEC env's ones in the text
    format and with the 1e ``draw`` key too, as are the finished games' final infos."""
    opts = dict(options)
    n = opts.pop("num_players")
    with VectorGames(3, n, seeds=20, num_workers=num_workers, **opts, game="got") as games:
        episodes = play(games, 70, [20 + g for g in range(3)])
        names = games.possible_agents
    assert any(ep.finished is not None for eps in episodes for ep in eps)
    for eps in episodes:
        for ep in eps:
            assert_same_as_aec(options, ep, names)


def test_results_do_not_depend_on_the_workers() -> None:
    """The same seeds and actions give the same batches in-process and split over workers."""
    batches = []
    for w in (0, 2):
        with VectorGames(3, 3, seeds=7, num_workers=w, max_rounds=1, game="got") as games:
            rng = np.random.default_rng(3)
            b = games.reset()
            seen = []
            for _ in range(40):
                b = games.step(random_actions(b, rng))
                seen.append(b)
            batches.append(seen)
    for a, b in zip(*batches, strict=True):
        for name in ("agent", "obs", "mask", "rewards", "done", "truncated"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
        assert a.infos == b.infos
        assert [f and f.record for f in a.finished] == [f and f.record for f in b.finished]


@pytest.mark.parametrize("num_workers", [0, 2])
def test_copy_false_gives_read_only_views_of_the_same_batches(num_workers: int) -> None:
    """copy=False: the same values as copies, but read-only views that the next step
    overwrites (so a learner copies what it keeps); copy=True batches stay as they were."""
    with VectorGames(3, 3, seeds=5, num_workers=num_workers, max_rounds=1, game="got") as copies, \
            VectorGames(3, 3, seeds=5, num_workers=num_workers, max_rounds=1,
                        copy=False, game="got") as views:
        rng = np.random.default_rng(2)
        a, b = copies.reset(), views.reset()
        for _ in range(30):
            actions = random_actions(a, rng)
            kept_copy, kept_view = a.obs.copy(), b.obs
            first = a.obs
            a, b = copies.step(actions), views.step(actions)
            for name in ("agent", "obs", "mask", "rewards", "done", "truncated"):
                np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
                assert not getattr(b, name).flags.writeable
            assert a.infos == b.infos
            np.testing.assert_array_equal(first, kept_copy)  # a copy outlives its step
            assert np.shares_memory(kept_view, b.obs)  # a view is the next step's rows
    with pytest.raises(ValueError, match="copy must be True or False"):
        VectorGames(2, 3, copy="no", game="got")


def test_spin_s_changes_only_how_a_worker_waits() -> None:
    """Workers that busy-wait (spin_s > 0) and workers that block at once (0) give the same
    batches; a bad spin_s is refused before any worker starts."""
    with VectorGames(4, 3, seeds=7, num_workers=2, max_rounds=1, spin_s=0,
                     game="got") as blocking, \
            VectorGames(4, 3, seeds=7, num_workers=2, max_rounds=1, spin_s=0.05,
                        game="got") as spinning:
        assert (blocking.spin_s, spinning.spin_s) == (0.0, 0.05)
        rng = np.random.default_rng(4)
        a, b = blocking.reset(), spinning.reset()
        for _ in range(25):
            actions = random_actions(a, rng)
            a, b = blocking.step(actions), spinning.step(actions)
            for name in ("agent", "obs", "mask", "rewards", "done", "truncated"):
                np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
            assert a.infos == b.infos
    assert VectorGames(1, 3, game="got").spin_s == 0.005  # the default
    for bad in (-1, float("nan"), float("inf"), "0.1", True, None):
        with pytest.raises(ValueError, match="spin_s must be a non-negative number"):
            VectorGames(2, 3, num_workers=2, spin_s=bad, game="got")


def test_a_worker_busy_waits_only_while_commands_come_quickly() -> None:
    """A worker's wait for its next command: a command already there, one that comes while it
    spins and one that comes after the spin ran out (then a blocking receive) all arrive, each
    with how long it took; after a wait longer than spin_s the worker blocks at once (a learner
    whose policy is slow keeps its cores), and spins again once a command comes quickly."""
    import multiprocessing
    import threading

    from boardkit.vector import _Commands, _next_command

    parent, child = multiprocessing.Pipe()
    with parent, child:
        parent.send(("now", 1))
        message, waited = _next_command(child, 0.01)
        assert message == ("now", 1) and 0 <= waited < 0.01
        for spin_s, delay in ((0.5, 0.02), (0.01, 0.1), (0.0, 0.02)):
            sender = threading.Timer(delay, parent.send, (("later", delay),))
            sender.start()
            message, waited = _next_command(child, spin_s)
            sender.join()
            assert message == ("later", delay) and waited >= delay * 0.9

        commands = _Commands(child, 0.05)
        assert commands.spinning
        sender = threading.Timer(0.2, parent.send, (("slow", 0),))
        sender.start()
        assert commands.next() == ("slow", 0)
        sender.join()
        assert not commands.spinning  # waited 0.2 s > spin_s: block at once next time
        parent.send(("quick", 1))
        assert commands.next() == ("quick", 1)
        assert commands.spinning  # came at once: spin again
        never = _Commands(child, 0.0)
        parent.send(("x", 2))
        assert never.next() == ("x", 2) and not never.spinning


def test_auto_reset_takes_the_next_seeds_and_reset_continues_or_restarts_them() -> None:
    """Slot g plays seeds first + g + k * G; reset() goes on with each slot's next seed;
    reset(seeds=...) starts new streams."""
    with VectorGames(2, 3, seeds=[10, 20], max_rounds=1, game="got") as games:
        episodes = play(games, 60, [10, 20])
        seeds = [[ep.seed for ep in eps] for eps in episodes]
        assert [s[:3] for s in seeds] == [[10, 12, 14], [20, 22, 24]]
        for eps in episodes:
            fresh = got_env.raw_env(num_players=3, max_rounds=1)
            fresh.reset(seed=eps[1].seed)
            np.testing.assert_array_equal(
                eps[1].turns[0][1], fresh.observe(fresh.agent_selection)["observation"])
        games.reset()
        assert [r.seed for r in games.records()] == [s[-1] + 2 for s in seeds]
        games.reset(seeds=5)
        assert [r.seed for r in games.records()] == [5, 6]
        assert all(r.actions == [] for r in games.records())


def test_records_of_finished_games_replay_to_the_same_final_state() -> None:
    with VectorGames(2, 4, seeds=3, num_workers=1, max_rounds=1, game="got") as games:
        finished = [ep.finished for eps in play(games, 60, [3, 4]) for ep in eps if ep.finished]
    assert len(finished) >= 2
    for fin in finished:
        env = fin.record.replay()
        assert env.game.digest() == fin.record.digest
        assert env.record.outcome == fin.record.outcome
        winner = fin.infos[env.possible_agents[0]]["winner"]  # numeric infos: a house index
        assert fin.record.outcome["winner"] == env.possible_agents[winner]
        assert all(env.terminations.values())


@pytest.mark.parametrize("num_workers", [0, 2])
def test_an_illegal_action_names_the_game_and_moves_no_game(num_workers: int) -> None:
    with VectorGames(3, 3, seeds=0, num_workers=num_workers, max_rounds=1, game="got") as games:
        batch = games.reset()
        actions = np.argmax(batch.mask, axis=1)
        bad = actions.copy()
        bad[1] = int(np.flatnonzero(batch.mask[1] == 0)[0])
        with pytest.raises(IllegalActionError, match=rf"game 1: action {bad[1]} .*not legal"):
            games.step(bad)
        with pytest.raises(IllegalActionError, match="game 2: action 1725 .*outside"):
            games.step(np.array([*actions[:2], 1725]))
        with pytest.raises(IllegalActionError, match="integers"):
            games.step(actions.astype(float))
        with pytest.raises(IllegalActionError, match=r"shape \(3,\)"):
            games.step(actions[:2])
        assert all(r.actions == [] for r in games.records())  # nothing moved
        after = games.step(actions)
        assert [len(r.actions) for r in games.records()] == [1, 1, 1]
        assert not after.done.any()


@pytest.mark.parametrize("num_workers", [0, 2])
def test_an_error_inside_a_worker_comes_back_naming_the_game(num_workers: int) -> None:
    """Past the main process's check (as a bug in a game would be), the game's own error comes
    back with its index and action; the batch then wants a reset."""
    with VectorGames(3, 3, seeds=0, num_workers=num_workers, max_rounds=1, game="got") as games:
        batch = games.reset()
        actions = np.argmax(batch.mask, axis=1)
        actions[2] = int(np.flatnonzero(batch.mask[2] == 0)[0])
        games._buffers.actions[:] = actions
        with pytest.raises(IllegalActionError, match=rf"game 2: action {actions[2]}"):
            games._step_unchecked()
        with pytest.raises(RuntimeError, match="reset"):
            games.step(np.argmax(batch.mask, axis=1))
        batch = games.reset(seeds=0)
        games.step(np.argmax(batch.mask, axis=1))


@pytest.mark.parametrize("info_format", ["numeric", "text"])
def test_an_illegal_action_is_named_as_the_aec_env_names_it(info_format: str) -> None:
    """The message names the pending decision (``D-20 PLACE_ORDERS``, not its number 20), the
    action and the house in the AEC env's own words, after the game index."""
    options = {"num_players": 3, "max_rounds": 1, "info_format": info_format}
    with VectorGames(2, seeds=4, **options, game="got") as games:
        batch = games.reset()
        bad = np.argmax(batch.mask, axis=1)
        bad[1] = int(np.flatnonzero(batch.mask[1] == 0)[0])
        with pytest.raises(IllegalActionError) as batched:
            games.step(bad)
    env = got_env.raw_env(**options)
    env.reset(seed=5)  # game 1's seed
    with pytest.raises(IllegalActionError) as aec:
        env.step(int(bad[1]))
    assert str(batched.value) == f"game 1: {aec.value}"
    assert "not legal for D-" in str(batched.value)


@pytest.mark.parametrize("num_workers", [0, 2])
def test_a_closed_batch_refuses_every_call_saying_it_was_closed(num_workers: int) -> None:
    """In-process or with workers, a closed VectorGames refuses step, reset, restore, records
    and state with an error that says it was closed (in-process it used to play on)."""
    games = VectorGames(2, 3, seeds=1, num_workers=num_workers, max_rounds=1, game="got")
    batch = games.reset()
    state = games.state()
    games.close()
    calls = [lambda: games.step(np.argmax(batch.mask, axis=1)), games.reset,
             lambda: games.reset(seeds=1), lambda: games.restore(state), games.records,
             games.state]
    for call in calls:
        with pytest.raises(RuntimeError, match=r"VectorGames is closed \(close\(\) was called\)"):
            call()
    games.close()  # idempotent
    never_started = VectorGames(2, 3, max_rounds=1, game="got")
    never_started.close()
    with pytest.raises(RuntimeError, match="closed"):
        never_started.step([0, 0])


def test_bad_options_and_seeds_are_refused_before_any_worker_starts() -> None:
    with pytest.raises(OptionError):
        VectorGames(2, 3, num_workers=2, reward="nope", game="got")
    with pytest.raises(ValueError, match="2 integers"):
        VectorGames(2, 3, seeds=[1, 2, 3], game="got")
    with pytest.raises(RuntimeError, match="reset"):
        VectorGames(2, 3, game="got").step([0, 0])


def test_close_stops_the_workers() -> None:
    games = VectorGames(2, 3, num_workers=2, max_rounds=1, game="got")
    procs = list(games._procs)
    assert all(p.is_alive() for p in procs)
    with games:
        games.reset(seeds=1)
    assert not any(p.is_alive() for p in procs)
    with pytest.raises(RuntimeError, match="closed"):
        games.step([0, 0])
    games.close()  # idempotent


def test_worker_error_type_is_kept_for_other_exceptions() -> None:
    """An exception other than an illegal action becomes a VectorGamesError naming the game."""
    with VectorGames(2, 3, seeds=0, max_rounds=1, game="got") as games:
        games.reset()
        games._shard.envs[1].step = _boom
        with pytest.raises(VectorGamesError, match="game 1: action .*ZeroDivisionError"):
            games.step(np.argmax(games._buffers.mask, axis=1))


def _boom(action: int) -> None:
    raise ZeroDivisionError("boom")
