"""Every config kind is one declared pydantic schema (experiments.config_model, issue 38 item 8):
numbers out of range (a billion games, ``lr: 1e300``, NaN, infinities, negative counts) and
unknown keys are refused when the file is read, the message naming the key path and the bound;
every config must name its game; every shipped config reads with its kind's schema."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from experiments.config_model import ConfigError, parse_key, parse_section
from experiments.imitation.config import ImitateConfig
from experiments.ladder.config import LadderFile
from experiments.pipeline import PipelineConfig
from experiments.play import PlayFile
from experiments.tournament.config import TournamentFile
from experiments.training.config import TrainConfig

ROOT = Path(__file__).resolve().parent.parent
NAN, INF = math.nan, math.inf

#: kind -> (its schema, a minimal valid mapping)
KINDS: dict[str, tuple[type, dict[str, Any]]] = {
    "tournament": (TournamentFile, {"game": "got"}),
    "ladder": (LadderFile, {"game": "got"}),
    "training": (TrainConfig, {"game": "got"}),
    "imitation": (ImitateConfig, {"game": "got"}),
    "play": (PlayFile, {"game": "got"}),
    "pipeline": (PipelineConfig, {}),
}

BAD = [
    ("tournament", {"games": 1_000_000_000},
     "games must be an integer >= 1 and <= 100000, got 1000000000"),
    ("tournament", {"seed": NAN}, "seed must be an integer >= 0 and <= 4294967295, got nan"),
    ("tournament", {"workers": -1}, "workers must be an integer >= 0 and <= 256, got -1"),
    ("tournament", {"games": True}, "games must be an integer >= 1 and <= 100000, got True"),
    ("tournament", {"gmaes": 3}, "unknown key(s) ['gmaes']"),
    ("ladder", {"games": 1_000_000_000},
     "games must be an integer >= 1 and <= 100000, got 1000000000"),
    ("ladder", {"seed": INF}, "seed must be an integer >= 0 and <= 4294967295, got inf"),
    ("ladder", {"workers": 10**6}, "workers must be an integer >= 0 and <= 256, got 1000000"),
    ("training", {"ppo": {"lr": 1e300}},
     "ppo.lr must be a finite number > 0 and <= 1, got 1e+300"),
    ("training", {"ppo": {"lr": NAN}}, "ppo.lr must be a finite number > 0 and <= 1, got nan"),
    ("training", {"ppo": {"gamma": INF}},
     "ppo.gamma must be a finite number > 0 and <= 1, got inf"),
    ("training", {"ppo": {"entropy": -INF}},
     "ppo.entropy must be a finite number >= 0 and <= 10, got -inf"),
    ("training", {"rollout": {"num_games": 1_000_000_000}},
     "rollout.num_games must be an integer >= 1 and <= 4096, got 1000000000"),
    ("training", {"rollout": {"steps": -5}},
     "rollout.steps must be an integer >= 1 and <= 100000, got -5"),
    ("training", {"eval": {"games": 1_000_000_000}},
     "eval.games must be an integer >= 0 and <= 100000, got 1000000000"),
    ("training", {"updates": 10**12}, "updates must be an integer >= 1 and <= 10000000"),
    ("training", {"shaping": {"castles": NAN}},
     "shaping.castles must be a finite number >= -100 and <= 100, got nan"),
    ("training", {"league": {"weights": {"random": NAN}}},
     "league.weights must be a mapping of names to values each a finite number"),
    ("training", {"ppo": {"lrr": 0.1}}, "ppo: unknown key(s) ['lrr'] (known: ['gamma',"),
    ("imitation", {"train": {"lr": 1e300}},
     "train.lr must be a finite number > 0 and <= 1, got 1e+300"),
    ("imitation", {"data": {"games": 1_000_000_000}},
     "data.games must be an integer >= 2 and <= 100000, got 1000000000"),
    ("imitation", {"dagger": {"rounds": -1}},
     "dagger.rounds must be an integer >= 0 and <= 1000, got -1"),
    ("imitation", {"train": {"holdout": NAN}},
     "train.holdout must be a finite number > 0 and <= 0.5, got nan"),
    ("imitation", {"teachr": "random"}, "unknown key(s) ['teachr']"),
    ("play", {"seed": -1}, "seed must be an integer >= 0 and <= 4294967295, got -1"),
    ("pipeline", {"final": {"games": 1_000_000_000}},
     "final.games must be an integer >= 0 and <= 100000, got 1000000000"),
    ("pipeline", {"final": {"workers": -3}},
     "final.workers must be an integer >= 0 and <= 256, got -3"),
]


@pytest.mark.parametrize("kind, change, message", BAD,
                         ids=[f"{k}-{list(c)[0]}" for k, c, _ in BAD])
def test_out_of_range_values_are_refused_naming_the_key_and_the_bound(kind, change, message):
    cls, good = KINDS[kind]
    parse_section(cls, good)   # the base is valid: the change alone is refused
    with pytest.raises(ConfigError) as info:
        parse_section(cls, {**good, **change})
    assert str(info.value).startswith(message), str(info.value)


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "pipeline"])
def test_every_config_must_name_its_game(kind):
    cls, _ = KINDS[kind]
    with pytest.raises(ConfigError, match=r"^game must be set: one of \['goofspiel', 'got', "
                                          r"'wotr'\]$"):
        parse_section(cls, {})
    with pytest.raises(ConfigError, match=r"^game must be one of .*, got None$"):
        parse_section(cls, {"game": None})


def test_a_command_line_value_is_checked_by_the_same_schema():
    with pytest.raises(ConfigError, match=r"^--updates must be an integer >= 1 and <= 10000000, "
                                          r"got 0$"):
        parse_key(TrainConfig, "updates", 0, "--updates")
    assert parse_key(TrainConfig, "updates", 7, "--updates") == 7


def test_a_schema_made_in_code_is_checked_too():
    """The schemas are pydantic dataclasses: made in code (or replaced), they are validated."""
    with pytest.raises(ValueError, match="less than or equal to 1"):
        TrainConfig(game="got", ppo={"lr": 2.0})


def _kind_of(name: str, raw: dict[str, Any]) -> str:
    if "train" in raw and "final" in raw:
        return "pipeline"
    if "teacher" in raw or name.startswith("imitate"):
        return "imitation"
    if "rungs" in raw:
        return "ladder"
    if "updates" in raw or "ppo" in raw or "rollout" in raw:
        return "training"
    if "lineups" in raw or "round_robin" in raw:
        return "tournament"
    return "play"


SHIPPED = sorted((ROOT / "configs").glob("*.yaml"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_config_reads_and_names_its_game(path):
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    kind = _kind_of(path.stem, raw)
    cls, _ = KINDS[kind]
    cfg = parse_section(cls, raw)
    if kind != "pipeline":   # a pipeline names two other configs, each with its game
        assert raw.get("game") in ("got", "goofspiel", "wotr"), path
        assert cfg.game == raw["game"]
