"""War of the Ring's PettingZoo env (issue 28 item 1): PettingZoo's own API tests for both
rulesets, the action space's segments and names, the exact mask, bounded observations, infos,
truncation by ``max_turns``, records that replay, and bad input refused with the state
untouched."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test, state_test

import wotr_env
from boardkit import games
from boardkit.decision import IllegalActionError
from boardkit.envs import make_env
from boardkit.records import GameRecord
from wotr_env.encoding import codec_for
from wotr_env.engine import apply, is_over, new_state
from wotr_env.env import OUTCOMES

RULESETS = ("2e", "1e")


def random_step(e, rng) -> None:
    obs, _, term, trunc, _ = e.last()
    if term or trunc:
        e.step(None)
        return
    e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_api_seed_and_state_tests(ruleset):
    api_test(wotr_env.env(ruleset=ruleset, max_turns=3), num_cycles=300)
    seed_test(lambda: wotr_env.env(ruleset=ruleset, max_turns=3), num_cycles=200)
    state_test(wotr_env.env(ruleset=ruleset, max_turns=3),
               wotr_env.parallel_env(ruleset=ruleset, max_turns=3), num_cycles=50)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_render_test(ruleset, capsys):
    render_test(lambda render_mode=None: wotr_env.env(ruleset=ruleset, max_turns=2,
                                                      render_mode=render_mode))


def test_the_action_space_is_one_discrete_of_named_segments():
    """DECISIONS-wotr.md, "Action space": about 850 indices in named segments, a readable name
    for every index, the same space for both editions."""
    codec = codec_for("2e")
    assert codec.size == codec_for("1e").size == 869
    assert [s.kind for s in codec.segments] == [
        "done", "choice", "count", "die", "action", "ring", "region", "edge", "nation", "unit",
        "casualty", "figure", "character", "card"]
    assert codec.segment("edge").size == 464  # 232 borders, each way
    names = [codec.name(i) for i in range(codec.size)]
    assert len(set(names)) == codec.size
    board = wotr_env.engine.state.WotrState  # noqa: F841  (the engine is importable)
    osg, mt = (new_state(0).ruleset.board.region(r) for r in ("osgiliath", "minas-tirith"))
    assert codec.name(codec.encode(("edge", osg, mt))) == "EDGE[osgiliath>minas-tirith]"
    assert codec.name(codec.encode(("casualty", 2, "downgrade"))) == "CASUALTY[gondor,downgrade]"
    assert codec.name(codec.encode(("card", 10))).startswith("CARD[fp-")
    with pytest.raises(ValueError, match="not an action"):
        codec.encode(("edge", osg, osg))
    with pytest.raises(ValueError, match="outside"):
        codec.decode(codec.size)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_option_of_random_games_has_its_own_index(ruleset):
    """The mask is exact: every option of every decision encodes to an index of its own that
    decodes back to it, and the mask has a 1 exactly there."""
    codec = codec_for(ruleset)
    for seed in range(3):
        state = new_state(seed, ruleset, max_turns=8)
        rng = np.random.default_rng(seed)
        while not is_over(state):
            options = state.pending.options
            mask = codec.mask(options)
            idx = sorted(codec.encode(o) for o in options)
            assert np.flatnonzero(mask).tolist() == idx
            assert [codec.decode(i) for i in idx] == sorted(options, key=codec.encode)
            apply(state, options[rng.integers(len(options))])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_observations_stay_within_their_bounds(ruleset):
    e = wotr_env.raw_env(ruleset=ruleset, max_turns=10)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    space = e.observation_space("shadow")["observation"]
    for i in range(3000):
        if not e.agents:
            break
        if i % 5 == 0:
            for a in e.possible_agents:
                obs = e.observe(a)["observation"]
                bad = np.flatnonzero((obs < 0) | (obs > space.high))
                assert bad.size == 0, e.encoder.layout.piece_at(bad[0]).name
            assert e.state_space.contains(e.state())
        random_step(e, rng)


def test_the_game_and_its_env_are_found_by_name():
    game = games.get("wotr")
    assert game.name == "wotr" and "wotr" in games.names()
    e = make_env("wotr", ruleset="1e", max_turns=2)
    assert isinstance(e, wotr_env.raw_env) and e.ruleset == "1e"
    assert e.possible_agents == ["free_peoples", "shadow"]


def test_bad_options_are_named():
    with pytest.raises(ValueError, match="ruleset"):
        wotr_env.env(ruleset="3e")
    with pytest.raises(ValueError, match="max_turns"):
        wotr_env.env(max_turns=0)
    with pytest.raises(ValueError, match="reward"):
        wotr_env.env(reward="castles")


def test_an_illegal_action_is_refused_and_changes_nothing():
    e = wotr_env.raw_env()
    e.reset(seed=1)
    digest = e.rules.digest(e.game)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        e.step(illegal)
    with pytest.raises(IllegalActionError, match="outside"):
        e.step(10_000)
    with pytest.raises(IllegalActionError, match="not an action index"):
        e.step(1.5)
    assert e.rules.digest(e.game) == digest and e.steps == 0


def test_max_turns_truncates_without_a_reward():
    """The rules have no turn limit; ``max_turns`` cuts the game: truncated, no reward, the
    standing in the infos with reason "truncated"."""
    e = wotr_env.raw_env(max_turns=2)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    while not (any(e.truncations.values()) or any(e.terminations.values())):
        random_step(e, rng)
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert e.game.turn == 2 and e.game.winner < 0
    info = e.infos["shadow"]
    assert info["outcome"] == OUTCOMES.index("truncated") + 1 and sorted(info["ranking"]) == [0, 1]
    assert all(e._cumulative_rewards[a] == 0.0 for a in e.agents)


def test_a_finished_game_pays_the_winner_and_names_the_ending():
    e = wotr_env.raw_env(info_format="text")
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(e.possible_agents, 0.0)
    while e.agents:
        obs, r, term, trunc, info = e.last()
        total[e.agent_selection] += r
        if term or trunc:
            e.step(None)
            continue
        random_step(e, rng)
    winner = e.game.winner
    assert winner in (0, 1) and e.game.ending in OUTCOMES
    names = e.possible_agents
    assert total[names[winner]] == 1.0 and total[names[1 - winner]] == -1.0


def test_a_record_replays_and_is_checked(tmp_path):
    e = wotr_env.raw_env(max_turns=3)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    while e.agents and not any(e.truncations.values()):
        random_step(e, rng)
    record = e.record
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record and len(loaded.actions) == e.steps
    last = None
    for env, _ in loaded.walk():
        last = env.game
    assert games.get("wotr").digest(last) == record.digest


def test_clone_is_independent():
    e = wotr_env.raw_env(max_turns=5)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(50):
        random_step(e, rng)
    c = e.clone()
    before = e.rules.digest(e.game)
    for _ in range(30):
        random_step(c, rng)
    assert e.rules.digest(e.game) == before != c.rules.digest(c.game)
