"""The rules of every game through the Game protocol (:class:`boardkit.protocol.Game`): its
invariants hold under random play (the plugin's ``check_invariants``), a game is the same in
another process (another ``PYTHONHASHSEED``), an observer's observation does not change when
only what it cannot know changes (the differential check of tests/test_hidden_information.py
and tests/wotr/test_hidden_information.py, through the protocol: determinize, then compare),
and a malformed or unmasked action is refused with the state untouched, by the game and by its
env. A few short games by default; the long sweeps are ``slow``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from boardkit import games

from .play import digests, options_of, random_play

ROOT = Path(__file__).resolve().parents[2]


def seat_numbers(name: str, variant: str, state) -> list[int]:
    """The player numbers of every seat (AGoT: house indices of the ruleset)."""
    game = games.get(name)
    return [game.player_index(state, agent) for agent in game.players(options_of(name, variant))]


# -- invariants --------------------------------------------------------------------------------
def _check_games(case, seeds, steps):
    name, variant = case
    plugin = games.plugin(name)
    played = 0
    for seed in seeds:
        for state in random_play(name, variant, seed, steps):
            plugin.check_invariants(state)
            played += 1
    assert played > len(seeds)


def test_invariants_under_random_play(case):
    _check_games(case, seeds=range(2), steps=150)


@pytest.mark.slow
def test_invariants_under_random_play_long(case):
    _check_games(case, seeds=range(20), steps=5000)


def test_check_invariants_can_fail(case):
    """The plugin's check is not a stub: it refuses a state that is not one of the game's."""
    name, variant = case
    with pytest.raises((AssertionError, AttributeError, TypeError, ValueError, IndexError)):
        games.plugin(name).check_invariants(object())


# -- the same game in another process ----------------------------------------------------------
def test_same_digests_in_another_process(case):
    name, variant = case
    here = digests(name, variant, seed=3, steps=60)
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(ROOT / "tests/conformance/play.py"), name, variant,
                           "3", "60"], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=300, check=True)
    assert done.stdout.split() == here
    assert len(set(here)) > 1  # the digest follows the game


# -- hidden information ------------------------------------------------------------------------
def _hidden_information(case, seeds, steps, every):
    name, variant = case
    game = games.get(name)
    rng = np.random.default_rng(0)
    checked = redrawn = 0
    for seed in seeds:
        for t, state in enumerate(random_play(name, variant, seed, steps)):
            if t % every or game.pending(state) is None:
                continue
            before = game.digest(state)
            encoder = game.encoder(state)
            for observer in seat_numbers(name, variant, state):
                seen = encoder.encode(state, observer)
                for _ in range(2):
                    other = game.determinize(state, observer, rng)
                    redrawn += game.digest(other) != before
                    assert np.array_equal(encoder.encode(other, observer), seen), (
                        f"{name} {variant} seed {seed} step {t}: player {observer}'s "
                        f"observation changed when only what it cannot know was drawn again")
                    d, e = game.pending(state), game.pending(other)
                    if d.player == observer:  # its own decision: the same options
                        assert e is not None and e.player == observer
                        assert list(e.options) == list(d.options)
                checked += 1
            assert game.digest(state) == before, "determinize changed the true state"
    assert checked > 0
    assert redrawn > 0, "determinize never drew anything again: the check compared nothing"


def test_hidden_information(case):
    _hidden_information(case, seeds=range(2), steps=120, every=15)


@pytest.mark.slow
def test_hidden_information_long(case):
    _hidden_information(case, seeds=range(10), steps=2000, every=7)


# -- bad actions -------------------------------------------------------------------------------
NOT_AN_ACTION = ("not-an-action", -1)


def test_the_game_refuses_an_action_that_is_not_an_option(case):
    name, variant = case
    game = games.get(name)
    for t, state in enumerate(random_play(name, variant, seed=5, steps=40)):
        decision = game.pending(state)
        if decision is None or t % 4:
            continue
        codec = game.codec(state)
        unmasked = np.flatnonzero(codec.mask(decision.options) == 0)
        bad = [NOT_AN_ACTION] + [codec.decode(int(i)) for i in unmasked[:3]]
        before = game.digest(state)
        for action in bad:
            with pytest.raises(ValueError):
                game.apply(state, action)
            assert game.digest(state) == before, f"{action!r} changed the state"
            assert game.pending(state) == decision or game.pending(state) is decision


def test_the_env_refuses_malformed_and_unmasked_actions(case):
    name, variant = case
    env = games.plugin(name).make_env(**options_of(name, variant))
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    game = games.get(name)
    size = env.action_space(env.agent_selection).n
    for t in range(40):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        mask = env.observe(agent)["action_mask"]
        if t % 4 == 0:
            before, rewards = game.digest(env.game), dict(env._cumulative_rewards)
            unmasked = [int(i) for i in np.flatnonzero(mask == 0)[:2]]
            for action in [-1, size, size + 7, 1.0, "0", True, None, np.array([0]),
                           np.int64(-1), *unmasked]:
                with pytest.raises(ValueError):
                    env.step(action)
                assert game.digest(env.game) == before, f"{action!r} changed the game"
                assert env.agent_selection == agent
                assert dict(env._cumulative_rewards) == rewards
        legal = np.flatnonzero(mask)
        env.step(int(legal[rng.integers(len(legal))]))
