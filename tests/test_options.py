"""Game options are checked once into a frozen GameOptions whose ruleset-dependent defaults (the
player count, the rounds) come from the ruleset's data, the one place every entry point reads.

Why: the player count used to default to a literal 6 in the env, the training config and the
evaluation, so a 1st-edition (3-5 player) run that named no count failed; ``max_rounds`` was
bounded by a literal 10 rather than by the ruleset's track.
"""

from __future__ import annotations

import dataclasses

import pytest

from experiments.training.config import parse_config
from experiments.training.ppo import eval_num_players
from got_env import raw_env
from got_env.data import load_ruleset
from got_env.data.loader import RULESETS
from got_env.engine import (
    DEFAULTS,
    GameOptions,
    OptionError,
    default_num_players,
    game_options,
    validate_options,
)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_player_count_defaults_agree_everywhere(ruleset: str) -> None:
    """The env, the options and the evaluation take one default: the ruleset's largest count."""
    largest = max(load_ruleset(ruleset).rules.player_counts)
    options = {"ruleset": ruleset}
    assert default_num_players(options) == largest
    assert game_options(None, options).num_players == largest
    assert raw_env(**options).num_players == largest
    assert eval_num_players(options, "got") == largest
    assert eval_num_players({**options, "num_players": 3}, "got") == 3


def test_1e_env_defaults_to_five_players() -> None:
    env = raw_env(ruleset="1e")
    assert env.num_players == 5
    assert len(env.possible_agents) == 5


def test_1e_training_config_without_num_players_reads_five() -> None:
    """What the trainer builds from a 1e config that names no player count: its probe env and
    its evaluation games are 5-player ones (a full training run is too slow for a unit test)."""
    cfg = parse_config({"game": "got", "env": {"ruleset": "1e", "max_rounds": 2},
                        "eval": {"games": 30}})
    assert "num_players" not in cfg.env
    assert raw_env(**cfg.env).num_players == 5  # the trainer's probe (trainer.py)
    assert eval_num_players(cfg.env, cfg.game) == 5


def test_1e_training_config_num_players_property() -> None:
    """10 evaluation games are a multiple of 5 players (not of 6); the trainer's vector games and
    its log read ``cfg.num_players``."""
    cfg = parse_config({"game": "got", "env": {"ruleset": "1e", "max_rounds": 2},
                        "eval": {"games": 10}})
    assert cfg.num_players == 5


@pytest.mark.parametrize("ruleset", RULESETS)
def test_max_rounds_bounded_by_and_defaulting_to_the_data(ruleset: str) -> None:
    rounds = load_ruleset(ruleset).rounds
    assert game_options(None, {"ruleset": ruleset}).max_rounds == rounds
    assert game_options(None, {"ruleset": ruleset, "max_rounds": rounds}).max_rounds == rounds
    with pytest.raises(OptionError, match=rf"max_rounds must be an integer from 1 to {rounds}\b"):
        game_options(None, {"ruleset": ruleset, "max_rounds": rounds + 1})
    with pytest.raises(OptionError, match="max_rounds"):
        raw_env(ruleset=ruleset, max_rounds=rounds + 1)


def test_game_options_is_frozen() -> None:
    opts = game_options(3, {"max_rounds": 4})
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.max_rounds = 9  # type: ignore[misc]
    env = raw_env(num_players=3)
    assert isinstance(env.options, GameOptions)
    with pytest.raises(dataclasses.FrozenInstanceError):
        env.options.num_players = 6  # type: ignore[misc]


def test_dict_form_is_the_one_states_and_records_store() -> None:
    """The mapping holds the game options only, in DEFAULTS order, the same dict as before."""
    opts = game_options(4, {"ruleset": "2e", "tides_of_battle": True})
    expected = {"ruleset": "2e", "max_rounds": 10, "tides_of_battle": True,
                "lannister_port_ship_in_3p": True, "tiebreak": "errata"}
    assert opts.as_dict() == expected
    assert list(opts.as_dict()) == list(DEFAULTS)
    assert dict(opts) == expected and {**opts} == expected
    assert validate_options(4, {"tides_of_battle": True}) == expected
    assert "num_players" not in opts
    with pytest.raises(KeyError):
        opts["num_players"]
    env = raw_env(num_players=4, tides_of_battle=True)
    assert env.game_options == expected
    assert type(env.game_options) is dict
    env.reset(seed=1)
    assert env.game.options == expected  # the engine's state keeps the plain dict
    assert env.record.options == {**expected, "num_players": 4, "reward": "zero_sum",
                                  "max_steps": None}


def test_bad_values_still_name_the_option() -> None:
    with pytest.raises(OptionError, match="num_players must be one of"):
        game_options(6, {"ruleset": "1e"})
    with pytest.raises(OptionError, match="ruleset must be one of"):
        game_options(None, {"ruleset": "3e"})
    with pytest.raises(OptionError, match="ruleset must be one of"):
        default_num_players({"ruleset": "3e"})
    with pytest.raises(OptionError, match="unknown option"):
        game_options(None, {"max_round": 3})
    with pytest.raises(OptionError, match="max_rounds"):
        game_options(None, {"max_rounds": True})
