"""Every game's record of a game (saved as the tools save it,
:func:`experiments.game_hooks.save_record`) refuses an edit: one action changed to
another legal one is a RecordError when the record is read and replayed (the replay tool's
:func:`experiments.replay.load_record`, then ``walk``).

The record is the kit's one format (:class:`boardkit.records.GameRecord`), whose check over the
whole content refuses the edit before anything is played."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boardkit import games
from boardkit.records import RecordError
from experiments.game_hooks import save_record
from experiments.replay import load_record

from .play import options_of


def played_record(case, tmp_path, steps=30, seed=4):
    """A short random game of the env saved at a path, and the steps at which another legal
    action was possible, with those alternatives (action indices)."""
    name, variant = case
    env = games.plugin(name).make_env(**options_of(name, variant))
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    choices: dict[int, list[int]] = {}
    for t in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        legal = [int(i) for i in np.flatnonzero(env.observe(agent)["action_mask"])]
        action = legal[rng.integers(len(legal))]
        if len(legal) > 1:
            choices[t] = [i for i in legal if i != action]
        env.step(action)
    path = tmp_path / "record.json"
    save_record(name, env, path)
    return path, choices


def replay(path):
    record = load_record(path)
    for _ in record.walk():
        pass


def test_the_record_replays(case, tmp_path):
    path, _ = played_record(case, tmp_path)
    replay(path)


def test_an_edited_action_is_refused(case, tmp_path):
    path, choices = played_record(case, tmp_path)
    assert choices, "no step with a choice"
    doc = json.loads(path.read_text())
    step = sorted(choices)[len(choices) // 2]
    doc["actions"][step] = choices[step][0]
    path.write_text(json.dumps(doc))
    with pytest.raises(RecordError):
        replay(path)
