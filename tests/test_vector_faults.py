"""A worker of boardkit.vector.VectorGames that dies (SIGKILL), between steps or in the middle of
one, under both start methods: no game moves behind the user's back, every later call raises
the same VectorGamesError naming the worker, its exit code and its games, and ``reset()`` (or
``restore``) starts a fresh worker and gives the batch a fresh VectorGames would give.

Each scenario runs under :func:`deadline`, so that a hang (a reply waited for from a dead
worker) fails the test instead of stalling the run.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
import pytest

from boardkit.vector import VectorGames
from boardkit.vector_shard import Batch, VectorGamesError

START_METHODS = ["spawn", "fork"]
OPTIONS = {"max_rounds": 1}
FIELDS = ("agent", "obs", "mask", "rewards", "done", "truncated")


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Raise TimeoutError in the test if the block takes longer than ``seconds`` (SIGALRM: a
    blocking pipe read is interrupted too), so that a hang fails instead of stalling."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"the scenario hung for more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    start, outer = time.monotonic(), signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        if outer:  # a deadline around this one goes on with what it had left
            signal.alarm(max(1, round(outer - (time.monotonic() - start))))


def random_actions(batch: Batch, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(np.where(batch.mask, rng.random(batch.mask.shape), -1.0), axis=1)


def assert_same_batches(a: Batch, b: Batch) -> None:
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert a.infos == b.infos
    assert [f and f.record for f in a.finished] == [f and f.record for f in b.finished]


def assert_plays_on_like(games: VectorGames, batch: Batch, reference: VectorGames,
                         expected: Batch, steps: int = 15) -> Batch:
    """``games`` from ``batch`` and ``reference`` from ``expected`` give the same batches for
    the same random actions (the restarted worker plays the games a fresh one would); the last
    batch of ``games``."""
    assert_same_batches(batch, expected)
    rng = np.random.default_rng(9)
    for _ in range(steps):
        actions = random_actions(batch, rng)
        batch, expected = games.step(actions), reference.step(actions)
        assert_same_batches(batch, expected)
    assert games.records() == reference.records()
    return batch


def wait_dead(proc: object, seconds: float = 10) -> None:
    """Until the killed worker is gone (``is_alive`` reaps it), as a worker killed a while
    before the next step would be."""
    end = time.monotonic() + seconds
    while proc.is_alive():
        assert time.monotonic() < end, "the killed worker is still alive"
        time.sleep(0.01)


def assert_every_call_repeats(games: VectorGames, error: VectorGamesError,
                              actions: np.ndarray) -> None:
    """step, records and state all raise the very error of the failure, not another one."""
    calls: list[Callable[[], object]] = [lambda: games.step(actions), games.records,
                                         games.state, lambda: games.step(actions)]
    for call in calls:
        with pytest.raises(VectorGamesError) as again:
            call()
        assert str(again.value) == str(error)


@pytest.mark.parametrize("start_method", START_METHODS)
def test_a_worker_killed_between_steps_is_found_before_any_game_moves(
        start_method: str) -> None:
    """SIGKILL worker 1 between two steps: the next step raises a VectorGamesError naming the
    worker, its exit code and its games before sending anything (worker 0's games stay where
    they were, no reply is left in its pipe); every later call raises the same error; reset()
    starts a fresh worker (the same start method) and goes on with each slot's next seed, as a
    batch that never lost a worker does."""
    with deadline(120), \
            VectorGames(8, 3, seeds=3, num_workers=2, start_method=start_method,
                        **OPTIONS, game="got") as games, \
            VectorGames(8, 3, seeds=3, num_workers=0, **OPTIONS, game="got") as reference:
        rng = np.random.default_rng(1)
        batch, expected = games.reset(), reference.reset()
        for _ in range(3):
            actions = random_actions(batch, rng)
            batch, expected = games.step(actions), reference.step(actions)
        victim = games._procs[1]
        os.kill(victim.pid, signal.SIGKILL)
        wait_dead(victim)
        actions = random_actions(batch, rng)
        with pytest.raises(VectorGamesError,
                           match=r"worker 1 \(games 4\.\.7\) died \(exit code -9\).*reset\(\)"
                           ) as failure:
            games.step(actions)
        for name in ("agent", "obs", "mask"):  # worker 0 never got the step: its rows stand
            np.testing.assert_array_equal(getattr(games._buffers, name)[:4],
                                          getattr(batch, name)[:4])
        assert not games._conns[0].poll(0.2)  # and no reply waits in its pipe
        assert_every_call_repeats(games, failure.value, actions)

        batch, expected = games.reset(), reference.reset()
        assert victim not in games._procs and all(p.is_alive() for p in games._procs)
        assert games._procs[1]._start_method == start_method
        assert_plays_on_like(games, batch, reference, expected)


@pytest.mark.parametrize("start_method", START_METHODS)
def test_a_worker_killed_during_a_step_breaks_the_batch_until_reset(
        start_method: str) -> None:
    """SIGKILL worker 0 after the step was sent to every worker and before it answers (it is
    stopped first, so it cannot answer in between): the step raises a VectorGamesError naming
    the worker, its exit code and its games, and the other worker's reply is read (nothing is
    left in its pipe for the next call to mistake for its own); every later call raises the
    same error; reset(seeds) starts a fresh worker and gives a fresh VectorGames's batch."""
    with deadline(120), \
            VectorGames(8, 3, seeds=3, num_workers=2, start_method=start_method,
                        **OPTIONS, game="got") as games, \
            VectorGames(8, 3, seeds=5, num_workers=0, **OPTIONS, game="got") as reference:
        rng = np.random.default_rng(2)
        batch = games.reset()
        batch = games.step(random_actions(batch, rng))
        victim = games._procs[0]
        os.kill(victim.pid, signal.SIGSTOP)  # alive, but it cannot answer what it is sent
        gather = games._gather

        def kill_then_gather(*args: object, **kwargs: object) -> list:
            os.kill(victim.pid, signal.SIGKILL)  # every command is sent: now it dies
            return gather(*args, **kwargs)

        games._gather = kill_then_gather
        actions = random_actions(batch, rng)
        with pytest.raises(VectorGamesError,
                           match=r"worker 0 \(games 0\.\.3\) died \(exit code -9\).*reset\(\)"
                           ) as failure:
            games.step(actions)
        del games._gather
        assert not games._conns[1].poll(0.2)  # worker 1's reply was read
        assert_every_call_repeats(games, failure.value, actions)

        batch, expected = games.reset(seeds=5), reference.reset()
        assert victim not in games._procs and all(p.is_alive() for p in games._procs)
        assert_plays_on_like(games, batch, reference, expected)


def test_restore_after_a_worker_died_restarts_it() -> None:
    """restore, like reset, starts a fresh worker for a dead one and carries on from the state
    exactly (the state was taken before the worker died)."""
    with deadline(60), \
            VectorGames(4, 3, seeds=8, num_workers=2, start_method="fork",
                        **OPTIONS, game="got") as games, \
            VectorGames(4, 3, seeds=8, num_workers=0, **OPTIONS, game="got") as reference:
        rng = np.random.default_rng(3)
        batch, expected = games.reset(), reference.reset()
        for _ in range(4):
            actions = random_actions(batch, rng)
            batch, expected = games.step(actions), reference.step(actions)
        state = games.state()
        victim = games._procs[0]
        os.kill(victim.pid, signal.SIGKILL)
        wait_dead(victim)
        with pytest.raises(VectorGamesError, match=r"worker 0 \(games 0\.\.1\) died"):
            games.records()
        batch = games.restore(state)
        assert victim not in games._procs
        assert_plays_on_like(games, batch, reference, expected)


def test_a_hang_fails_by_the_deadline_not_as_a_dead_worker() -> None:
    """What the deadline relies on: a worker that is alive but never answers (stopped) holds
    the step until the alarm, whose TimeoutError (an OSError) comes through as itself, not
    mistaken for a dead worker's broken pipe."""
    with VectorGames(4, 3, seeds=1, num_workers=2, start_method="fork", **OPTIONS,
                     game="got") as games:
        batch = games.reset()
        victim = games._procs[0]
        os.kill(victim.pid, signal.SIGSTOP)
        actions = np.argmax(batch.mask, axis=1)
        try:
            with pytest.raises(TimeoutError, match="hung"), deadline(1):
                games.step(actions)
        finally:
            os.kill(victim.pid, signal.SIGKILL)


def test_an_interrupted_step_breaks_the_batch_until_reset() -> None:
    """A step interrupted before every reply was read (Ctrl-C, an alarm) leaves the unread
    workers out of step: every later call says so, and reset() replaces them and plays on as a
    batch that was never interrupted."""
    with deadline(60), \
            VectorGames(4, 3, seeds=1, num_workers=2, start_method="fork", **OPTIONS,
                        game="got") as games, \
            VectorGames(4, 3, seeds=5, **OPTIONS, game="got") as reference:
        batch = games.reset()
        victim = games._procs[0]
        os.kill(victim.pid, signal.SIGSTOP)
        actions = np.argmax(batch.mask, axis=1)
        with pytest.raises(TimeoutError, match="hung"), deadline(1):
            games.step(actions)
        os.kill(victim.pid, signal.SIGCONT)
        with pytest.raises(VectorGamesError, match=r"interrupted \(TimeoutError\) before "
                           r"workers \[0, 1\] \(games 0\.\.3\).*reset\(\)") as failure:
            games.step(actions)
        assert_every_call_repeats(games, failure.value, actions)
        batch, expected = games.reset(seeds=5), reference.reset()
        assert victim not in games._procs and all(p.is_alive() for p in games._procs)
        assert_plays_on_like(games, batch, reference, expected)
