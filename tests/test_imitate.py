"""The imitation stage (experiments.imitate, docs/imitation.md): a network fitted to a teacher
copies it on held-out games far better than a uniform legal policy, its checkpoint plays, a bad
config is refused naming the key, and a seed gives the same weights."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
import yaml

from agents.ppo import PPOAgent, load_checkpoint
from boardkit.envs import make_env
from experiments import imitate
from experiments.imitation.config import ConfigError, parse_config
from experiments.imitation.data import collect
from experiments.imitation.dataset import Dataset, compact_dtype


class HighestBid:
    """A deterministic Goofspiel teacher: always bids its highest card (the legal action of
    the largest index), so that a perfect imitation is possible."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        return int(np.flatnonzero(action_mask)[-1])


TEACHER = f"{Path(__file__).resolve()}:HighestBid"


def goofspiel_config(tmp_path: Path, **changes: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "game": "goofspiel", "name": "g", "out": str(tmp_path), "seed": 3,
        "teacher": TEACHER, "env": {"num_players": 2, "num_cards": 5},
        "network": {"kind": "mlp", "hidden": [32]},
        "data": {"games": 24, "save": True},
        "train": {"holdout": 0.25, "epochs": 15, "minibatch": 16, "lr": 0.01}}
    raw.update(changes)
    return raw


def play_one_game(env: Any, agent: PPOAgent, seed: int) -> int:
    """Every seat played by ``agent`` to the end; the number of decisions it made."""
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = agent.act(observation["observation"], observation["action_mask"], info)
        assert observation["action_mask"][action]
        env.step(action)
        steps += 1
    return steps


def test_compact_dtype_from_the_bounds() -> None:
    assert compact_dtype(np.zeros(3), np.array([1, 15, 255])) == np.uint8
    assert compact_dtype(np.array([-3, 0]), np.array([1, 900])) == np.int16
    assert compact_dtype(np.zeros(2), np.array([1.0, 0.5])) == np.float32
    assert compact_dtype(np.zeros(2), np.array([1.0, np.inf])) == np.float32


def test_goofspiel_teacher_is_copied_and_the_checkpoint_plays(tmp_path: Path) -> None:
    cfg = parse_config(goofspiel_config(tmp_path, eval={"games": 4}))
    summary = imitate.run(cfg)
    run = tmp_path / "g"
    assert summary["obs_dtype"] == "uint8" and summary["decisions"] == 24 * 10
    # held-out accuracy far above a uniform legal policy's (about 46% on 5 cards)
    assert summary["heldout_accuracy"] >= summary["chance_accuracy"] + 0.3
    assert summary["heldout_accuracy"] >= 0.9
    rows = (run / "progress.csv").read_text().splitlines()
    assert rows[0].startswith("epoch,") and len(rows) == 1 + 15
    assert summary["eval"]["games"] == 4 and 0 <= summary["eval"]["rate"] <= 1
    data = Dataset.load(run / "dataset.npz")
    assert len(data) == 240 and data.obs.dtype == np.uint8
    assert set(np.unique(data.games[np.isin(data.games, summary["heldout_games"])])) == set(
        summary["heldout_games"])
    env = make_env("goofspiel", num_players=2, num_cards=5)
    agent = PPOAgent(checkpoint=run / "agent.pt", greedy=True, env=env)
    assert play_one_game(env, agent, seed=11) == 10


def test_same_seed_same_weights(tmp_path: Path) -> None:
    def weights(name: str, seed: int) -> dict[str, torch.Tensor]:
        raw = goofspiel_config(tmp_path, name=name, seed=seed,
                               data={"games": 6, "save": False}, train={"epochs": 2})
        imitate.run(parse_config(raw))
        return load_checkpoint(tmp_path / name / "agent.pt")[1]["state_dict"]

    a, b, c = weights("a", 5), weights("b", 5), weights("c", 6)
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(a[k], c[k]) for k in a)


def test_the_value_target_is_the_win_share_or_the_envs_reward(tmp_path: Path) -> None:
    """``data.value``: ``share`` (1 for the winner, 1/2 each for a shared win, 0) or
    ``reward``, the env's final reward of the acting player (Goofspiel's zero_sum for 2 players:
    +1, -1, and 0 for a draw), the scale of the PPO trainer's returns: the same games give
    values that correspond one to one (the teacher against random bids, to have all three)."""
    def values(value: str) -> np.ndarray:
        cfg = parse_config(goofspiel_config(tmp_path, name=value, env={"num_players": 2,
                                                                      "num_cards": 5},
                                            data={"games": 12, "save": False,
                                                  "seats": ["player_0"], "others": "random",
                                                  "value": value}))
        return collect(cfg).values

    share, reward = values("share"), values("reward")
    assert set(np.unique(share)) <= {0.0, 0.5, 1.0} and len(np.unique(share)) > 1
    np.testing.assert_array_equal(reward, 2 * share - 1)
    with pytest.raises(ConfigError, match="data.value"):
        parse_config(goofspiel_config(tmp_path, data={"games": 4, "value": "score"}))


def test_dagger_rounds_label_the_networks_own_games_with_the_teachers_choices(
        tmp_path: Path) -> None:
    """DAgger (``dagger:``): in a round the recorded seats play the network's action while the
    teacher's choice at the same decision is the label; the round's decisions join the
    training data (the held-out games stay the teacher's) and training goes on."""
    cfg = parse_config(goofspiel_config(tmp_path, data={"games": 8, "save": False}))
    lowest = collect(cfg, policy=lambda obs, mask: int(np.flatnonzero(mask)[0]), games=4,
                     first=8)
    teacher = collect(cfg, games=4, first=8)
    assert len(lowest) == len(teacher) == 4 * 10
    assert set(np.unique(lowest.games)) == set(range(8, 12))
    for data in (lowest, teacher):  # the labels are always the teacher's: the highest card
        masks = data.unpacked_masks(np.arange(len(data)))
        assert all(int(np.flatnonzero(m)[-1]) == a for m, a in zip(masks, data.actions,
                                                                     strict=True))
    # the network's play took the games elsewhere: other hands, other positions
    assert not np.array_equal(lowest.obs, teacher.obs)

    raw = goofspiel_config(tmp_path, name="dagger", data={"games": 8, "save": False},
                           train={"epochs": 2, "minibatch": 16, "lr": 0.01},
                           dagger={"rounds": 2, "games": 4, "epochs": 1})
    summary = imitate.run(parse_config(raw))
    rows = (tmp_path / "dagger" / "progress.csv").read_text().splitlines()
    header = rows[0].split(",")
    assert len(rows) == 1 + 2 + 2 * 1
    rounds = [int(r.split(",")[header.index("dagger_round")]) for r in rows[1:]]
    trained = [int(r.split(",")[header.index("train_decisions")]) for r in rows[1:]]
    assert rounds == [0, 0, 1, 2] and trained[2] == trained[0] + 40 == trained[3] - 40
    assert summary["decisions"] == (8 + 2 * 4) * 10


def test_fitting_gives_the_process_its_torch_threads_back(tmp_path: Path) -> None:
    """The fit runs on ``train.threads`` threads; a later run in the same process (the PPO
    trainer's in a test beside a subprocess's) must find the count it had, or its floats
    differ from the subprocess's in their last bits (CI failure of 2026-12-01)."""
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        imitate.run(parse_config(goofspiel_config(tmp_path, data={"games": 4, "save": False},
                                                  train={"epochs": 1, "threads": 1})))
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


def test_bad_config_is_one_line_naming_the_key(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(goofspiel_config(tmp_path, trian={"epochs": 2})))
    with pytest.raises(SystemExit) as e:
        imitate.main(["--config", str(path)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert str(path) in err and "trian" in err and len(err.strip().splitlines()) == 1
    for changes, key in (({"train": {"lr": -1}}, "train.lr"),
                         ({"data": {"seats": ["nobody"]}}, "data.seats"),
                         ({"teacher": "no_such_agent"}, "teacher"),
                         ({"env": {"num_players": 2, "num_cards": 5, "max_steps": 3}},
                          "env.max_steps"),
                         ({"eval": {"games": 3}}, "eval.games")):
        with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
            parse_config(goofspiel_config(tmp_path, **changes))


def test_recorded_seats_only(tmp_path: Path) -> None:
    cfg = parse_config(goofspiel_config(tmp_path, data={"games": 3, "seats": ["player_1"],
                                                        "others": "random"}))
    data = collect(cfg)
    assert len(data) == 3 * 5  # only player_1's five bids per game


def test_agot_heuristic_v2_is_imitated_above_chance(tmp_path: Path) -> None:
    """Two rounds, not one: AGoT's first round starts from the same board in every game (no
    Westeros cards yet), so one-round games would repeat the training positions."""
    raw = {"game": "got", "name": "got", "out": str(tmp_path), "seed": 0,
           "teacher": "heuristic_v2", "env": {"num_players": 3, "max_rounds": 2},
           "network": {"kind": "mlp", "hidden": [64]}, "data": {"games": 8},
           "train": {"holdout": 0.25, "epochs": 20, "minibatch": 16, "lr": 0.003}}
    summary = imitate.run(parse_config(raw))
    assert summary["obs_dtype"] == "uint8"
    assert summary["heldout_accuracy"] >= 2 * summary["chance_accuracy"]
    env = make_env("got", num_players=3, max_rounds=2)
    agent = PPOAgent(checkpoint=tmp_path / "got" / "agent.pt", greedy=True, env=env)
    assert play_one_game(env, agent, seed=4) > 0


def test_ppo_fine_tunes_the_imitated_board_network(tmp_path: Path) -> None:
    """Issue 26's pipeline end to end on a tiny AGoT config: imitation of heuristic_v2 into the
    board network, then PPO starting from its agent.pt (``init``: KL toward it, a value
    warm-up) against a league of heuristic_v2 and random, evaluated against heuristic_v2."""
    from experiments.training.config import parse_config as parse_train
    from experiments.training.ppo import Trainer

    network = {"kind": "board", "embed": 16, "heads": 2, "layers": 1, "hidden": [32]}
    env = {"num_players": 3, "max_rounds": 2}
    imitate.run(parse_config({"game": "got", "name": "im", "out": str(tmp_path), "env": env,
                              "network": network, "data": {"games": 4},
                              "train": {"epochs": 1}}))
    start = tmp_path / "im" / "agent.pt"
    trainer = Trainer(parse_train({
        "game": "got", "name": "ft", "out": str(tmp_path), "updates": 2, "env": env,
        "network": network,
        "rollout": {"num_games": 3, "steps": 30, "workers": 0},
        "ppo": {"epochs": 1, "minibatch": 64},
        "init": {"checkpoint": str(start), "kl": 0.1, "value_warmup": 1},
        "league": {"weights": {"heuristic_v2": 1, "random": 1}},
        "eval": {"every": 2, "games": 3, "opponents": ["heuristic_v2"]},
        "tensorboard": False, "progress": False}))
    imitated, _ = load_checkpoint(start)
    for (k, v), w in zip(imitated.state_dict().items(), trainer.network.state_dict().values(),
                         strict=True):
        assert torch.equal(v, w), k
    evaluations = trainer.run()
    assert [e["update"] for e in evaluations] == [2]
    header, *rows = (tmp_path / "ft" / "progress.csv").read_text().splitlines()
    assert "kl_reference" in header.split(",") and len(rows) == 2


def test_a_saved_dataset_is_fitted_again_only_under_its_own_collection(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``data.load`` fits an earlier run's dataset.npz without playing: the same weights as
    the run that collected it (the same seed and fit); a config that would have collected
    other decisions (another teacher, seed, game count) is refused naming the key."""
    first = goofspiel_config(tmp_path, name="collected", data={"games": 6})
    imitate.run(parse_config(first))
    saved = tmp_path / "collected" / "dataset.npz"
    again = goofspiel_config(tmp_path, name="loaded", data={"games": 6, "load": str(saved)})

    def no_games(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("data.load played the teacher's games")

    monkeypatch.setattr("experiments.imitation.data.collect", no_games)
    imitate.run(parse_config(again))
    assert not (tmp_path / "loaded" / "dataset.npz").exists()
    weights = [load_checkpoint(tmp_path / n / "agent.pt")[1]["state_dict"]
               for n in ("collected", "loaded")]
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])
    for changes, key in (({"seed": 4}, "seed"), ({"teacher": "random"}, "teacher"),
                         ({"data": {"games": 5, "load": str(saved)}}, "data.games")):
        raw = {**again, **changes}
        with pytest.raises(ConfigError, match=f"data.load: .*{key}="):
            parse_config(raw)
    with pytest.raises(ConfigError, match="data.load: .*nowhere.npz"):
        parse_config(goofspiel_config(tmp_path, data={"games": 6,
                                                      "load": str(tmp_path / "nowhere.npz")}))
