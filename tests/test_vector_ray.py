"""The Ray backend (boardkit.vector_ray, the tournament's ``backend: ray``) against the local one it
must equal: the same seeds and actions give the same batches, the same errors and the same
tournament records. The tests that need Ray skip without the ``ray`` extra; the ones before them
(the factory, the config check, the message when Ray is missing) run everywhere.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from test_vector_faults import assert_plays_on_like, deadline

from boardkit.vector import VectorGames, make_vector_games
from boardkit.vector_shard import VectorGamesError
from experiments.config_files import ConfigError
from experiments.tournament.cli import main
from experiments.tournament.config import load_config, parse_config
from experiments.tournament.plan import GameFailed
from experiments.tournament.records import GAMES_FILE
from experiments.tournament.run import RunReport, run_tournament
from got_env.engine import IllegalActionError

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "configs" / "tournament_tiny.yaml"
NEEDS_RAY = "needs the 'ray' extra: pip install -e '.[ray]'"
FIELDS = ("agent", "obs", "mask", "rewards", "done", "truncated")


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1)


# -- without Ray -------------------------------------------------------------------------------
def test_an_unknown_backend_names_the_choices() -> None:
    with pytest.raises(ValueError, match=r"backend must be one of \['local', 'ray'\], got 'nope'"):
        make_vector_games("nope", num_games=2, num_players=3, game="got")
    with make_vector_games("local", num_games=2, num_players=3, max_rounds=1, game="got") as games:
        assert type(games) is VectorGames and games.num_workers == 0
    raw = {"game": "got", "env": {"num_players": 3, "max_rounds": 1}, "agents": {"a": "random"},
           "lineups": [["a", "a", "a"]], "backend": "spark"}
    with pytest.raises(ConfigError, match=r"backend must be one of \['local', 'ray'\]"):
        parse_config(raw)


def test_without_ray_the_error_says_which_extra_to_install(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if not installed
    from boardkit.vector_ray import RayVectorGames

    extra = re.escape("pip install -e '.[ray]'")
    with pytest.raises(ImportError, match=extra):
        RayVectorGames(2, 3, max_rounds=1, game="got")
    with pytest.raises(ImportError, match=extra):
        make_vector_games("ray", num_games=2, num_players=3, game="got")
    with pytest.raises(ConfigError, match="backend: ray: .*" + extra):
        load_config(TINY, backend="ray")


def test_cli_takes_the_backend(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--backend {local,ray}" in capsys.readouterr().out


# -- with Ray ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ray():
    """One small local Ray for the module (2 CPUs, as the machines that run the tests have)."""
    ray = pytest.importorskip("ray", reason=NEEDS_RAY)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_batches_equal_the_local_ones(ray) -> None:
    """Same seeds and random masked actions: every batch of 2 actors equals the in-process one,
    auto-resets, finished games' records and reset's seed streams included."""
    from boardkit.vector_ray import RayVectorGames

    options = {"max_rounds": 2, "reward": "rank"}
    with RayVectorGames(6, 3, seeds=11, num_workers=2, **options, game="got") as remote, \
            VectorGames(6, 3, seeds=11, num_workers=0, **options, game="got") as local:
        assert remote.num_workers == 2 and remote.possible_agents == local.possible_agents
        assert (remote.observation_size, remote.action_size) == (local.observation_size,
                                                                 local.action_size)
        rng = np.random.default_rng(5)
        a, b = remote.reset(), local.reset()
        finished = 0
        for step in range(100):
            for name in FIELDS:
                np.testing.assert_array_equal(getattr(a, name), getattr(b, name),
                                              err_msg=f"{name} at step {step}")
            assert a.infos == b.infos, step
            assert [f and (f.game, f.record, f.infos, f.truncated) for f in a.finished] == \
                [f and (f.game, f.record, f.infos, f.truncated) for f in b.finished], step
            for fa, fb in zip(a.finished, b.finished, strict=True):
                if fa is not None:
                    np.testing.assert_array_equal(fa.obs, fb.obs)
                    np.testing.assert_array_equal(fa.rewards, fb.rewards)
                    assert fa.obs.flags.writeable and fa.rewards.flags.writeable  # as local
                    finished += 1
            actions = random_actions(a.mask, rng)
            a, b = remote.step(actions), local.step(actions)
        assert finished >= 6  # auto-reset was exercised
        assert remote.records() == local.records()
        a, b = remote.reset(), local.reset()  # each slot's next seed, in both
        assert [r.seed for r in remote.records()] == [r.seed for r in local.records()]
        np.testing.assert_array_equal(a.obs, b.obs)


def test_an_illegal_action_names_the_game_and_moves_no_game(ray) -> None:
    from boardkit.vector_ray import RayVectorGames

    with RayVectorGames(3, 3, seeds=0, num_workers=2, max_rounds=1, game="got") as games:
        batch = games.reset()
        actions = np.argmax(batch.mask, axis=1)
        bad = actions.copy()
        bad[1] = int(np.flatnonzero(batch.mask[1] == 0)[0])
        with pytest.raises(IllegalActionError, match=rf"game 1: action {bad[1]} .*not legal"):
            games.step(bad)
        with pytest.raises(IllegalActionError, match="game 2: action 1725 .*outside"):
            games.step(np.array([*actions[:2], 1725]))
        assert all(r.actions == [] for r in games.records())  # nothing moved
        # Past the main process's check (as a bug in a game would be): the actor's game raises
        # and the error comes back naming the game; the batch then wants a reset.
        games._buffers.actions[:] = bad
        with pytest.raises(IllegalActionError, match=rf"game 1: action {bad[1]}"):
            games._step_unchecked()
        with pytest.raises(RuntimeError, match="reset"):
            games.step(actions)
        batch = games.reset(seeds=0)
        games.step(np.argmax(batch.mask, axis=1))
        assert [len(r.actions) for r in games.records()] == [1, 1, 1]


def test_one_actor_per_cpu_and_close_kills_them(ray) -> None:
    from boardkit.vector_ray import RayVectorGames

    games = RayVectorGames(6, 3, max_rounds=1, game="got")  # num_workers=0: the fixture's 2 CPUs
    assert games.num_workers == 2 and len(games._actors) == 2
    actor = games._actors[0]
    with games:
        games.reset(seeds=1)
    # ray.kill only sends the kill: a call made at once may still be served, so wait (at most a
    # minute) for the actor to stop answering
    deadline = time.monotonic() + 60
    while True:
        try:
            ray.get(actor.ready.remote(), timeout=10)
        except ray.exceptions.RayActorError:
            break
        assert time.monotonic() < deadline, "the actor still answers a minute after close()"
        time.sleep(0.2)
    with pytest.raises(RuntimeError, match=r"RayVectorGames is closed \(close\(\) was called\)"):
        games.step([0] * 6)
    games.close()  # idempotent
    assert ray.is_initialized()  # close leaves Ray to its owner
    with RayVectorGames(1, 3, num_workers=0, max_rounds=1, game="got") as one:
        assert one.num_workers == 1  # at most one actor per game


def wait_until_dead(ray, actor) -> None:
    """``ray.kill`` only sends the kill: a call made at once may still be served, so wait (at
    most a minute) for the actor to stop answering."""
    end = time.monotonic() + 60
    while True:
        try:
            ray.get(actor.ready.remote(), timeout=10)
        except ray.exceptions.RayActorError:
            return
        assert time.monotonic() < end, "the actor still answers a minute after ray.kill"
        time.sleep(0.2)


def test_a_dead_actor_breaks_the_batch_until_reset_recreates_it(ray) -> None:
    """An actor killed between steps (ray.kill) and one killed while it steps (SIGKILL after
    the call was sent; stopped first, so it cannot answer in between): the call raises a
    VectorGamesError naming the actor and its games, every later call raises the same one,
    and reset() makes a new actor, after which the batches are a fresh batch's."""
    from boardkit.vector_ray import RayVectorGames

    with deadline(240), RayVectorGames(4, 3, seeds=3, num_workers=2, max_rounds=1,
                                       game="got") as games:
        rng = np.random.default_rng(4)
        batch = games.reset()
        victim = games._actors[1]
        ray.kill(victim)
        wait_until_dead(ray, victim)
        actions = random_actions(batch.mask, rng)
        with pytest.raises(VectorGamesError,
                           match=r"Ray actor 1 \(games 2\.\.3\) died.*reset\(\)") as failure:
            games.step(actions)
        for call in (lambda: games.step(actions), games.records):
            with pytest.raises(VectorGamesError) as again:
                call()
            assert str(again.value) == str(failure.value)
        with VectorGames(4, 3, seeds=3, max_rounds=1, game="got") as reference:
            batch, expected = games.reset(seeds=3), reference.reset()
            assert victim not in games._actors
            batch = assert_plays_on_like(games, batch, reference, expected, steps=5)

        victim = games._actors[0]
        pid = ray.get(victim.__ray_call__.remote(lambda _: os.getpid()))
        os.kill(pid, signal.SIGSTOP)  # alive, but it cannot answer what it is sent
        gather = games._gather

        def kill_then_gather(*args: object, **kwargs: object) -> list:
            os.kill(pid, signal.SIGKILL)  # every call is sent: now it dies
            return gather(*args, **kwargs)

        games._gather = kill_then_gather
        with pytest.raises(VectorGamesError,
                           match=r"Ray actor 0 \(games 0\.\.1\) died.*reset\(\)") as failure:
            games.step(random_actions(batch.mask, rng))
        del games._gather
        with pytest.raises(VectorGamesError) as again:
            games.records()
        assert str(again.value) == str(failure.value)
        with VectorGames(4, 3, seeds=7, max_rounds=1, game="got") as reference:
            batch, expected = games.reset(seeds=7), reference.reset()
            assert victim not in games._actors
            assert_plays_on_like(games, batch, reference, expected, steps=5)


def test_the_tournament_on_ray_gives_the_local_records(ray, tmp_path) -> None:
    """The tiny config on Ray tasks and in this process: the same games (bar their timing) and
    the same results; config.json records the backend."""
    reports = {}
    for backend, workers in (("local", 1), ("ray", 2)):
        cfg = load_config(TINY, out=tmp_path / backend, backend=backend, workers=workers)
        assert cfg.backend == backend
        reports[backend] = run_tournament(cfg, progress=False, log=lambda _msg: None)
    local, remote = reports["local"], reports["ray"]
    assert remote.played == remote.planned == 4

    def games(report: RunReport) -> list[dict]:
        recs = [json.loads(line) for line in (report.run_dir / GAMES_FILE).read_text()
                .splitlines()]
        return sorted(({k: v for k, v in r.items() if k != "seconds"} for r in recs),
                      key=lambda r: (r["lineup_index"], r["game"]))

    assert games(remote) == games(local)
    assert remote.results == local.results
    assert json.loads((remote.run_dir / "config.json").read_text())["backend"] == "ray"



BROKEN = '''
class BrokenAgent:
    def __init__(self, seed=None):
        pass

    def act(self, observation, action_mask, info):
        raise RuntimeError("boom")
'''


def test_a_failing_game_on_ray_names_itself(ray, tmp_path) -> None:
    """A game that raises inside its Ray task stops the run with GameFailed naming the game
    (the agent comes from a file, which every Ray worker can load by its path)."""
    (tmp_path / "broken.py").write_text(BROKEN)
    raw = {"game": "got", "env": {"num_players": 3, "max_rounds": 1},
           "agents": {"a": "random", "b": f"{tmp_path / 'broken.py'}:BrokenAgent"},
           "lineups": [["a", "b", "b"]], "games": 3, "backend": "ray", "workers": 1}
    cfg = parse_config(raw, out=tmp_path)
    with pytest.raises(GameFailed, match=r"game 0 of line-up 0 .*seed \d+.*boom"):
        run_tournament(cfg, progress=False, log=lambda _msg: None)
