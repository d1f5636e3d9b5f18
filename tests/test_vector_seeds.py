"""Bad seeds are refused before any game is touched (issue 38, item 8): ``VectorGames.reset``
checks every seed first (before, ``reset(seeds=[7, -2])`` reset game 0 and then failed), and the
constructor refuses what ``reset`` would."""

from __future__ import annotations

import numpy as np
import pytest

from boardkit import games as registry
from boardkit.vector import VectorGames
from boardkit.vector_lockstep import MAX_SEED

BAD_SEEDS = [
    ([7, -2], r"seeds must lie in 0\.\.9223372036854775807 \(2\*\*63 - 1\), got -2 for game 1"),
    ([2**63, 7], r"got 9223372036854775808 for game 0"),
    (-1, "got -1 for game 0"),
    (MAX_SEED, r"got 9223372036854775808 for game 1"),       # seeds + g: game 1 overflows
    ([7, 1.5], "seeds must be an integer or 2 integers"),
    ([7, True], "seeds must be an integer or 2 integers"),
    ([7], "seeds must be an integer or 2 integers"),
    ("ab", "seeds must be an integer or 2 integers"),
    (2.0, "seeds must be an integer or 2 integers"),
]


def digests(games: VectorGames) -> list[str]:
    """Every in-process game's state digest (the game's own, :meth:`Game.digest`)."""
    rules = registry.get(games.game)
    return [rules.digest(env.game) for env in games._shard.envs]


@pytest.mark.parametrize("seeds, message", BAD_SEEDS)
def test_a_refused_reset_leaves_every_game_as_it_was(seeds, message) -> None:
    with VectorGames(2, num_players=2, game="goofspiel", seeds=3, num_cards=4) as games:
        batch = games.reset()
        batch = games.step(np.argmax(batch.mask, axis=1))
        before, state = digests(games), games.state()
        with pytest.raises(ValueError, match=message):
            games.reset(seeds=seeds)
        assert digests(games) == before
        assert games.state() == state                  # seed streams and records too
        games.step(np.argmax(batch.mask, axis=1))      # and the games play on


def test_a_refused_reset_with_workers_leaves_every_game_as_it_was() -> None:
    with VectorGames(2, num_players=2, game="goofspiel", seeds=3, num_workers=2,
                     num_cards=4) as games:
        batch = games.reset()
        state = games.state()
        with pytest.raises(ValueError, match="got -2 for game 1"):
            games.reset(seeds=[7, -2])
        assert games.state() == state
        games.step(np.argmax(batch.mask, axis=1))


@pytest.mark.parametrize("seeds, message", BAD_SEEDS)
def test_bad_seeds_are_refused_at_construction(seeds, message) -> None:
    with pytest.raises(ValueError, match=message):
        VectorGames(2, num_players=2, game="goofspiel", seeds=seeds, num_workers=2)


def test_the_largest_seeds_are_taken() -> None:
    with VectorGames(2, num_players=2, game="goofspiel", seeds=[0, MAX_SEED],
                     num_cards=3) as games:
        games.reset()
        assert [r.seed for r in games.records()] == [0, MAX_SEED]
