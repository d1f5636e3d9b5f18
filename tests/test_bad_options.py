"""Options out of range are refused at construction, naming the option and its range (issue 38,
item 8): the single-agent env's ``illegal_penalty`` (NaN or inf would poison every return), and
Goofspiel's ``num_players`` and ``num_cards`` (before, ``num_cards=200`` overflowed its int8
cards mid-game and ``10**9`` exhausted memory building the prize deck)."""

from __future__ import annotations

import numpy as np
import pytest

import goofspiel
from agents import RandomAgent
from boardkit.envs import make_env
from boardkit.single_agent import SingleAgentEnv
from got_env.engine import OptionError as GotOptionError
from got_env.wrappers import SingleAgentEnv as GotSingleAgentEnv


@pytest.mark.parametrize("penalty", [float("nan"), float("inf"), -float("inf"), np.nan, "1",
                                     True, None])
def test_illegal_penalty_must_be_a_finite_number(penalty) -> None:
    with pytest.raises(ValueError, match=r"illegal_penalty must be a finite number, got "):
        SingleAgentEnv("goofspiel", illegal_action="random", illegal_penalty=penalty)
    with pytest.raises(GotOptionError, match=r"illegal_penalty must be a finite number"):
        GotSingleAgentEnv(num_players=3, illegal_action="random", illegal_penalty=penalty)


def test_a_finite_illegal_penalty_is_taken() -> None:
    env = SingleAgentEnv("goofspiel", illegal_action="random", illegal_penalty=-1,
                         opponents=RandomAgent(seed=0))
    assert env.illegal_penalty == -1.0
    assert SingleAgentEnv("goofspiel", illegal_penalty=np.float64(0.5),
                          opponents=RandomAgent(seed=0)).illegal_penalty == 0.5


BAD_GOOFSPIEL = [
    ({"num_cards": 200}, r"Goofspiel's num_cards must be an integer in 1\.\.100, got 200"),
    ({"num_cards": 10**9}, r"num_cards must be an integer in 1\.\.100, got 1000000000"),
    ({"num_cards": 0}, r"num_cards must be an integer in 1\.\.100, got 0"),
    ({"num_cards": 5.5}, r"num_cards must be an integer in 1\.\.100, got 5\.5"),
    ({"num_cards": "5"}, r"num_cards must be an integer in 1\.\.100, got '5'"),
    ({"num_cards": True}, r"num_cards must be an integer in 1\.\.100, got True"),
    ({"num_players": 1}, r"Goofspiel's num_players must be an integer in 2\.\.4, got 1"),
    ({"num_players": 9}, r"num_players must be an integer in 2\.\.4, got 9"),
]


@pytest.mark.parametrize("options, message", BAD_GOOFSPIEL)
def test_goofspiel_refuses_options_out_of_range_at_construction(options, message) -> None:
    builds = [lambda: goofspiel.raw_env(**options), lambda: make_env("goofspiel", **options),
              lambda: goofspiel.GAME.new_state(0, options)]
    if "num_players" in options:   # players() reads the player count alone
        builds.append(lambda: goofspiel.GAME.players(options))
    for build in builds:
        with pytest.raises(goofspiel.OptionError, match=message):
            build()


def test_goofspiel_refuses_an_unknown_game_option() -> None:
    with pytest.raises(goofspiel.OptionError, match=r"unknown Goofspiel option\(s\) "
                                                    r"\['num_card'\]"):
        goofspiel.GAME.new_state(0, {"num_card": 5})


def test_the_largest_goofspiel_plays_to_its_end() -> None:
    """100 cards (the bound) play to the end with the int8 cards: the bound is a real one."""
    env = goofspiel.raw_env(num_players=4, num_cards=100)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, done, truncated, _ = env.last()
        env.step(None if done or truncated else
                 int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.game.turn == 100 and int(env.game.points.sum()) <= 5050
