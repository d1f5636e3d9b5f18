"""The experiment CLIs (tournament, ladder, play, human) on bad config files and bad values:
one line on stderr naming the file (and the key, for a bad value), exit code 2, no traceback;
and their ``--help``, which names the defaults and choices a user needs."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from experiments import ladder as L
from experiments import play as P
from experiments.human import session as H
from experiments.ladder import config as LC
from experiments.tournament import cli as tournament_cli
from experiments.tournament.config import load_config
from got_env.data.loader import RULESETS

ROOT = Path(__file__).resolve().parent.parent
MAINS: dict[str, Callable[[list[str]], int]] = {"tournament": tournament_cli.main, "ladder": L.main,
                                                "play": P.main}


def good(cli: str, out: Path) -> dict:
    """The smallest valid config of each CLI (games never start: every case below fails first)."""
    env = {"num_players": 3, "max_rounds": 1}
    base = {"tournament": {"env": env, "agents": {"a": "random"}, "lineups": [["a", "a", "a"]],
                           "games": 3, "workers": 1, "out": str(out)},
            "ladder": {"env": env, "rungs": {"r1": "random", "r2": "random"}, "games": 3,
                       "workers": 1, "out": str(out)},
            "play": {"env": env, "agents": {"default": "random"}, "out": str(out)}}[cli]
    return {"game": "got", **base}


def fails(cli: str, path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Run the CLI on ``path``; it must exit 2 with one line on stderr naming the file."""
    with pytest.raises(SystemExit) as e:
        MAINS[cli](["--config", str(path), "--no-progress"] if cli != "play"
                   else ["--config", str(path), "--no-picture"])
    err = capsys.readouterr().err
    assert e.value.code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert str(path) in err, err
    return err


# -- unreadable files: every CLI ---------------------------------------------------------------
@pytest.mark.parametrize("cli", list(MAINS))
@pytest.mark.parametrize("content, message", [
    (b"name: caf\xe9\n", "not UTF-8 text"),                     # latin-1, as some editors save
    (b"\xff\xfe\x00n\x00a\x00m\x00e\x00", "not UTF-8 text"),    # UTF-16
    (b"env: {num_players: 3\n", "not valid YAML"),
    (b"env: [1, 2\n", "not valid YAML"),
    (b"a: b: c\n", "not valid YAML"),
    (b"- just\n- a list\n", "mapping"),
    (b"plain text\n", "mapping"),
    (b"\x00\x01\n", "not valid YAML"),                          # control characters
])
def test_an_unreadable_config_is_one_line_and_exit_2(cli, content, message, tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_bytes(content)
    assert message in fails(cli, path, capsys)


@pytest.mark.parametrize("cli", list(MAINS))
def test_a_missing_config_or_a_folder_is_one_line_and_exit_2(cli, tmp_path, capsys):
    assert "cannot read" in fails(cli, tmp_path / "missing.yaml", capsys)
    assert "cannot read" in fails(cli, tmp_path, capsys)


@pytest.mark.parametrize("cli", list(MAINS))
def test_the_real_command_line_on_malformed_yaml(cli, tmp_path):
    """``python -m experiments.<cli> --config bad.yaml``: exit 2, one line, no traceback."""
    path = tmp_path / "bad.yaml"
    path.write_text("env: {num_players: 3\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", f"experiments.{cli}", "--config", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"python -m experiments.{cli}: error: {path}: not valid YAML: "
                           f"expected ',' or '}}', but got '<stream end>' at line 2, column 1\n")


# -- bad values: each error names the key --------------------------------------------------------
def set_key(raw: dict, key: str, value: object) -> None:
    *parents, last = key.split(".")
    for p in parents:
        raw = raw[p]
    raw[last] = value


@pytest.mark.parametrize("cli, key, value, message", [
    ("tournament", "games", "ten", "games must be an integer"),
    ("tournament", "workers", "2", "workers must be an integer"),
    ("tournament", "seed", 1.5, "seed must be an integer"),
    ("tournament", "out", 5, "out must be a folder path"),
    ("tournament", "out", None, "out must be a folder path"),
    ("tournament", "replays", "yes", "replays must be true or false"),
    ("tournament", "env.num_players", "three", "env: num_players"),
    ("tournament", "colour", "red", "unknown key(s) ['colour']"),
    ("tournament", "1", "one", "unknown key(s) [1]"),
    ("ladder", "games", "3", "games must be an integer"),
    ("ladder", "seed", "0", "seed must be an integer"),
    ("ladder", "workers", -1, "workers must be an integer >= 0"),
    ("ladder", "out", ["a"], "out must be a folder path"),
    ("ladder", "rungs.r2", {"name": "random", "games": "3"}, "rungs.r2.games must be"),
    ("ladder", "colour", "red", "unknown key(s) ['colour']"),
    ("play", "seed", "abc", "seed must be an integer"),
    ("play", "seed", [1], "seed must be an integer"),
    ("play", "seed", -1, "seed must be an integer >= 0"),
    ("play", "env", "six players", "env must be a mapping"),
    ("play", "env.num_players", "six", "env: num_players"),
    ("play", "env.colour", "red", "env: unknown option(s) ['colour']"),
    ("play", "agents", ["random"], "agents must be a mapping"),
    ("play", "agents.default", "no_such_agent", "agents.default: agent 'no_such_agent'"),
    ("play", "agents.dragons", "random", "agents for houses not in play: ['dragons']"),
    ("play", "out", 5, "out must be a folder path"),
    ("play", "replay", "yes", "replay must be true or false"),
    ("play", "colour", "red", "unknown key(s) ['colour']"),
    ("play", "1", "one", "unknown key(s) [1]"),
    ("tournament", "game", "chess",
     "game must be one of ['goofspiel', 'got', 'wotr'], got 'chess'"),
    ("ladder", "game", "chess",
     "game must be one of ['goofspiel', 'got', 'wotr'], got 'chess'"),
    ("play", "game", "chess",
     "game must be one of ['goofspiel', 'got', 'wotr'], got 'chess'"),
    ("tournament", "games", 1_000_000_000,
     "games must be an integer >= 1 and <= 100000, got 1000000000"),
    ("ladder", "games", 1_000_000_000,
     "games must be an integer >= 1 and <= 100000, got 1000000000"),
    ("tournament", "seed", float("nan"), "seed must be an integer >= 0 and <= 4294967295"),
    ("ladder", "rungs.r2", {"name": "random", "games": float("inf")},
     "rungs.r2.games must be an integer >= 1 and <= 100000, got "),
])
def test_a_bad_value_names_the_file_and_the_key(cli, key, value, message, tmp_path, capsys):
    raw = good(cli, tmp_path / "runs")
    set_key(raw, key, value)
    path = tmp_path / f"{cli}.yaml"
    text = json.dumps(raw)
    if key == "1":   # a key YAML reads as an integer
        text = text.replace('"1":', "1:")
    path.write_text(text, encoding="utf-8")
    assert message in fails(cli, path, capsys)
    assert not (tmp_path / "runs").exists()     # nothing played, nothing written


@pytest.mark.parametrize("cli", list(MAINS))
def test_a_config_must_name_its_game(cli, tmp_path, capsys):
    raw = good(cli, tmp_path / "runs")
    del raw["game"]
    path = tmp_path / f"{cli}.yaml"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert "game must be set: one of ['goofspiel', 'got', 'wotr']" in fails(cli, path, capsys)
    assert not (tmp_path / "runs").exists()


def test_a_negative_seed_of_play_is_named(tmp_path, capsys):
    """--seed -1 used to reach the agents and fail as 'agents.default: ... non-negative'."""
    path = tmp_path / "play.yaml"
    path.write_text(json.dumps(good("play", tmp_path / "runs")), encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        P.main(["--config", str(path), "--seed", "-1"])
    assert e.value.code == 2 and "--seed must be >= 0, got -1" in capsys.readouterr().err


@pytest.mark.parametrize("cli", list(MAINS))
def test_the_good_configs_above_are_good(cli, tmp_path):
    """The base of the cases above parses, so each case fails on its own key alone."""
    path = tmp_path / "ok.yaml"
    path.write_text(json.dumps(good(cli, tmp_path / "runs")), encoding="utf-8")
    load = {"tournament": load_config, "ladder": LC.load_config, "play": P.load_config}[cli]
    assert load(path)


# -- --help ------------------------------------------------------------------------------------
def help_text(main: Callable[[list[str]], int], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    return " ".join(capsys.readouterr().out.split())   # argparse wraps lines anywhere


def test_help_of_play_explains_the_config(capsys):
    out = help_text(P.main, capsys)
    assert "--config CONFIG YAML config (default: configs/play.yaml" in out
    for key in ("env", "seed", "agents", "out", "replay"):
        assert f"{key}:" in out


def test_help_of_human_lists_the_rulesets(capsys):
    out = help_text(H.main, capsys)   # the tool imports no game: the rulesets in words
    assert "--ruleset RULESET" in out and all(r in out for r in RULESETS)
    assert "default 2e" in out


@pytest.mark.parametrize("main", [tournament_cli.main, L.main], ids=["tournament", "ladder"])
def test_help_of_tournament_and_ladder(main, capsys):
    out = help_text(main, capsys)
    assert "--config CONFIG YAML config (default: configs/" in out and "--games" in out
