"""War of the Ring through the batched API (issue 28 item 5): ``VectorGames(n, game="wotr")`` in
process and with 2 worker processes shows, step by step, what the AEC env shows for the same
seeds and actions (the side to act, its observation, mask and infos, the rewards, the end), and
both give the same batches (tests/test_vector.py's comparison, for this game)."""

from __future__ import annotations

import numpy as np
import pytest
from test_vector import assert_same_as_aec, play, random_actions

from boardkit.vector import VectorGames

OPTIONS = {"ruleset": "2e", "max_turns": 1}


@pytest.mark.parametrize("num_workers", [0, 2])
@pytest.mark.parametrize("info_format", ["numeric", "text"])
def test_the_batch_equals_the_aec_env(num_workers: int, info_format: str) -> None:
    """Every step of every game, finished ones (cut off at max_turns, auto-reset to the next
    seed) and the ones in progress, is the AEC env's."""
    options = {**OPTIONS, "info_format": info_format}
    with VectorGames(3, seeds=10, num_workers=num_workers, game="wotr", **options) as games:
        assert games.possible_agents == ["free_peoples", "shadow"] and games.num_players == 2
        episodes = play(games, 90, [10 + g for g in range(3)])
        names = games.possible_agents
    finished = [ep for eps in episodes for ep in eps if ep.finished is not None]
    assert len(finished) >= 3 and all(ep.finished.truncated for ep in finished)
    for eps in episodes:
        assert len(eps) >= 2  # every slot finished a game and went on with the next seed
        for ep in eps:
            assert_same_as_aec(options, ep, names, game="wotr")


def test_in_process_and_worker_processes_give_the_same_batches() -> None:
    batches = []
    for workers in (0, 2):
        with VectorGames(4, seeds=7, num_workers=workers, game="wotr", **OPTIONS) as games:
            rng = np.random.default_rng(3)
            b = games.reset()
            seen = [b]
            for _ in range(60):
                b = games.step(random_actions(b, rng))
                seen.append(b)
            batches.append(seen)
    assert any(f is not None for b in batches[0] for f in b.finished)
    for a, b in zip(*batches, strict=True):
        for name in ("agent", "obs", "mask", "rewards", "done", "truncated"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
        assert a.infos == b.infos
        assert [f and f.record for f in a.finished] == [f and f.record for f in b.finished]
