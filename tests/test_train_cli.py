"""``python -m experiments.train`` as a researcher meets it: a bad config file fails at once,
naming the file and the key, with exit status 2 and no traceback; ``--help`` is quick (no torch)
and outlines the config; TensorBoard tags are grouped; the summary line after ``--resume``
agrees with ``progress.csv``."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.train import main
from experiments.training.config import ConfigError, TrainConfig, load_config

ROOT = Path(__file__).resolve().parent.parent

# the file's text (after a valid base) -> what the message must say after "<file>: "
BAD_VALUES = [
    ("env: {num_players: three}", "env: num_players must be one of (3, 4, 5, 6)"),
    ("env: {num_players: true}", "env: num_players must be one of (3, 4, 5, 6)"),
    ("env: {num_players: 7}", "env: num_players must be one of (3, 4, 5, 6)"),
    ("env: {num_players: 3, max_rounds: ten}", "env: max_rounds must be an integer"),
    ("env: {num_players: 3, colour: red}", "env: unknown option(s) ['colour']"),
    ("env: [3]", "env must be a mapping, got [3]"),
    ("network: {kind: mlp, hidden: abc}",
     "network.hidden: expected a non-empty list of positive integers, got 'abc'"),
    ("network: {kind: mlp, hidden: [64, x]}", "network.hidden: expected a non-empty list"),
    ("network: {kind: mlp, hidden: [true]}", "network.hidden: expected a non-empty list"),
    ("network: {kind: mlp, hidden: 128}", "network.hidden: expected a non-empty list"),
    ("network: {kind: structured, embed: '64'}",
     "network.embed: expected a positive integer, got '64'"),
    ("network: {kind: structured, embed: 30, heads: 4}", "network.embed"),
    ("network: {kind: cnn}",
     "network.kind: expected one of ('mlp', 'structured', 'board'), got 'cnn'"),
    ("network: {kind: mlp, depth: 3}", "network: unknown key(s) ['depth']"),
    ("seed: -1", "seed must be an integer >= 0 and <= 4294967295, got -1"),
    ("seed: 1.5", "seed must be an integer >= 0 and <= 4294967295, got 1.5"),
    ("updates: 1e3", "updates must be an integer >= 1 and <= 10000000, got '1e3'"),
    ("checkpoint_every: true",
     "checkpoint_every must be an integer >= 1 and <= 10000000, got True"),
    ("tensorboard: 'no'", "tensorboard must be true or false, got 'no'"),
    ("ppo: {lr: fast}", "ppo.lr must be a finite number > 0 and <= 1, got 'fast'"),
    ("ppo: {lr: 1.0e+300}", "ppo.lr must be a finite number > 0 and <= 1, got 1e+300"),
    ("ppo: {lr: .inf}", "ppo.lr must be a finite number > 0 and <= 1, got inf"),
    ("ppo: {lr: -.inf}", "ppo.lr must be a finite number > 0 and <= 1, got -inf"),
    ("ppo: {epochs: 2.5}", "ppo.epochs must be an integer >= 1 and <= 1000, got 2.5"),
    ("rollout: {num_games: 1000000000}",
     "rollout.num_games must be an integer >= 1 and <= 4096, got 1000000000"),
    ("rollout: {workers: -2}", "rollout.workers must be an integer >= 0 and <= 256, got -2"),
    ("eval: {games: .nan}", "eval.games must be an integer >= 0 and <= 100000, got nan"),
    ("init: {kl: -1}", "init.kl must be a finite number >= 0 and <= 1000, got -1"),
    ("ppo: {gamma: .nan}", "ppo.gamma must be a finite number > 0 and <= 1"),
    ("ppo: {1: 2, lrx: 0.1}", "ppo: unknown key(s) [1, 'lrx']"),
    ("ppo: 3", "ppo must be a mapping of keys (key: value lines), got int 3"),
    ("league: {weights: {random: .inf}}",
     "league.weights must be a mapping of names to values each a finite number, got "
     "{'random': inf}"),
    ("league: {weights: {random: yes}}", "league.weights must be a mapping of names to values "
                                         "each a finite number, got {'random': True}"),
    ("league: {weights: {random: -1}}", "league.weights: expected non-negative finite numbers"),
    ("league: {weights: {1: 1, alien: 1}}", "league.weights: unknown kind(s) [1, 'alien']"),
    ("eval: {opponents: random}", "eval.opponents must be a list of names, got 'random'"),
    ("2: 3\ncolour: red", "unknown key(s) [2, 'colour']"),
    ("game: chess", "game must be one of ['goofspiel', 'got', 'wotr'], got 'chess'"),
    ("game: null", "game must be one of ['goofspiel', 'got', 'wotr'], got None"),
]


def write(tmp_path: Path, text: str, name: str = "x.yaml") -> Path:
    path = tmp_path / name
    game = "" if text.startswith("game:") else "game: got\n"
    path.write_text(f"name: t\nout: {tmp_path}\n{text}\n{game}")
    return path


@pytest.mark.parametrize("text, message", BAD_VALUES, ids=[t for t, _ in BAD_VALUES])
def test_a_bad_value_names_the_file_and_the_key(tmp_path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).startswith(f"{path}: {message}"), str(info.value)


def test_the_cli_reports_a_bad_value_with_exit_2_and_no_traceback(tmp_path, capsys) -> None:
    path = write(tmp_path, "env: {num_players: three}")
    assert main(["--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == (f"error: {path}: env: num_players must be one of (3, 4, 5, 6) for ruleset "
                   f"'2e', got 'three'\n")


TINY = """updates: 1
env: {num_players: 3, max_rounds: 1}
network: {kind: mlp, hidden: [8]}
rollout: {num_games: 3, steps: 5, workers: 0}
eval: {every: 1, games: 3, opponents: [random]}
tensorboard: false
progress: false"""


def test_a_bad_command_line_override_names_the_option(tmp_path, capsys) -> None:
    path = write(tmp_path, TINY)
    assert main(["--config", str(path), "--name", ""]) == 2
    assert "--name must be a non-empty string" in capsys.readouterr().err


def test_malformed_yaml_names_the_file_not_a_unicode_string(tmp_path) -> None:
    path = write(tmp_path, "ppo: {lr: [0.1}")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(f"{path}: not valid YAML") and "<unicode string>" not in message
    assert "at line 3" in message


def test_a_config_that_is_not_utf8_names_the_file(tmp_path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: caf\xe9\n".encode("latin-1"))
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(path))}: not UTF-8 text"):
        load_config(path)


def test_a_missing_config_names_the_file(tmp_path) -> None:
    with pytest.raises(ConfigError, match=r"nope\.yaml: cannot read the config"):
        load_config(tmp_path / "nope.yaml")


def test_help_outlines_the_config_and_imports_no_torch() -> None:
    """``--help`` lists the config's sections (from the config model) and points to the docs,
    without importing torch, the agents or TensorBoard, so that it answers at once."""
    code = ("import sys\n"
            "from experiments.train import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit as e:\n    assert e.code == 0\n"
            "heavy = ('torch', 'tensorboard', 'agents', 'got_env')\n"
            "print('HEAVY', sorted(m for m in heavy if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=120).stdout
    assert "HEAVY []" in out
    assert "docs/training.md" in out
    import dataclasses

    for f in dataclasses.fields(TrainConfig):
        assert re.search(rf"^\s+{f.name}\b", out, re.M), f.name
    assert "num_games" in out and "gae_lambda" in out  # a section's keys are listed with it


def test_python_m_experiments_train_help_works() -> None:
    done = subprocess.run([sys.executable, "-m", "experiments.train", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "--resume" in done.stdout and "rollout" in done.stdout


# -- a run paused and resumed through the command line --------------------------------------------
@pytest.fixture(scope="module")
def resumed_run(tmp_path_factory) -> tuple[Path, str]:
    """(the run folder, the summary line of the resumed half) of a 2-update run paused after
    update 1 and resumed, with TensorBoard on."""
    tmp = tmp_path_factory.mktemp("cli_run")
    cfg = tmp / "tiny.yaml"
    cfg.write_text(f"""game: got
name: tiny
out: {tmp}
seed: 3
updates: 2
env: {{num_players: 3, max_rounds: 2}}
network: {{kind: mlp, hidden: [8]}}
rollout: {{num_games: 3, steps: 30, workers: 0}}
ppo: {{epochs: 1, minibatch: 32}}
league: {{weights: {{current: 1, heuristic: 1, random: 1}}}}
eval: {{every: 1, games: 3}}
checkpoint_every: 1
tensorboard: true
progress: false
""")
    run = tmp / "tiny"
    capture = tmp / "out.txt"
    for extra in (["--until", "1"], ["--resume", str(run / "checkpoints" / "last.pt")]):
        done = subprocess.run([sys.executable, "-m", "experiments.train", "--config", str(cfg),
                               *extra], cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        capture.write_text(done.stdout)
    summary = next(line for line in capture.read_text().splitlines()
                   if line.startswith("tiny: "))
    return run, summary


def test_the_summary_after_resume_agrees_with_the_csv(resumed_run) -> None:
    """Games and wall time in the summary are the run's totals across the resume, the very
    figures of the CSV's last row."""
    run, summary = resumed_run
    with (run / "progress.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    last = rows[-1]
    assert [r["update"] for r in rows] == ["1", "2"]
    games, wall = re.search(r"([\d,]+) games in ([\d.]+) s", summary).groups()
    assert int(games.replace(",", "")) == int(last["games"])
    assert float(wall) == pytest.approx(float(last["wall_s"]), abs=0.051)
    assert float(wall) > float(rows[0]["wall_s"])  # it counts the first half too


def test_tensorboard_tags_are_grouped(resumed_run) -> None:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    run, _ = resumed_run
    tags: set[str] = set()
    for events in (run / "tensorboard").iterdir():
        acc = EventAccumulator(str(events))
        acc.Reload()
        tags |= set(acc.Tags()["scalars"])
    for tag in ("losses/policy_loss", "losses/value_loss", "losses/entropy", "losses/approx_kl",
                "losses/clipfrac", "losses/explained_variance", "charts/learning_rate",
                "charts/SPS", "charts/games", "charts/train_win_random", "eval/random",
                "eval/random_lo", "eval/heuristic_hi"):
        assert tag in tags, (tag, sorted(tags))
    assert all("/" in t for t in tags), sorted(tags)


def test_the_resumed_trainer_checkpoint_is_plain_data(resumed_run) -> None:
    import torch

    run, _ = resumed_run
    for path in (run / "checkpoints" / "last.pt", run / "agent.pt"):
        assert torch.serialization.get_unsafe_globals_in_checkpoint(path) == [], path
        doc = torch.load(path, map_location="cpu", weights_only=True)
        assert doc["format"] in ("got_env-train-2", "got_env-ppo-1")
