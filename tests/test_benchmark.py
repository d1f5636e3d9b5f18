"""The benchmark's pieces run on a tiny budget, so that the script cannot rot unnoticed."""

from __future__ import annotations

import json

import numpy as np
import pytest

import got_env
from experiments import benchmark
from experiments.benchmark import common, kit

AGOT = {"num_players": 3}


def test_each_measurement_gives_a_positive_rate() -> None:
    steps, games = common.aec_rate(lambda: got_env.env(num_players=3, max_rounds=1), 0.01, 0)
    assert steps > games > 0
    decisions, games = kit.engine_rate("got", AGOT, 0.01, 0)
    assert decisions > games > 0
    run = kit.KitVectorRun("got", AGOT, 2, 0, seed=0)
    try:
        decisions, _ = run.rate(0.01)
        assert decisions > 0
    finally:
        run.close()
    samples = kit.sample_states("got", AGOT, 4, 0)
    assert len(samples) == 4
    assert common.micro_us(lambda s: s.state.clone(), samples, calls=1) > 0


def test_agot_s_hooks_give_its_player_counts_and_a_cold_encode() -> None:
    """AGoT's plugin piece ``benchmark`` (got_env.tools.benchmark): every count of the ruleset
    by default, and the encoder's cached board dropped before an "unrelated states" encode."""
    assert list(kit.player_configs("got", {}, None)) == [3, 4, 5, 6]
    assert list(kit.player_configs("got", {"ruleset": "1e"}, None)) == [3, 4, 5]
    assert list(kit.player_configs("got", {}, [4])) == [4]
    assert list(kit.player_configs("goofspiel", {}, None)) == [2]  # no hook: the options' count
    (sample,) = kit.sample_states("got", AGOT, 1, 0)
    encoder = got_env.game.GAME.encoder(sample.state)
    warm = encoder.encode(sample.state, sample.player)
    forget = got_env.plugin.PLUGIN.hook("benchmark", "forget_encoding")
    sample.state.__dict__["_board_cache"] = None  # the pure-Python encoder's cached board
    forgotten = []
    cold = kit.cold_encode(encoder, sample,
                           lambda s: (forget(s), forgotten.append("_board_cache" in s.__dict__)))
    assert forgotten == [False] and (cold == warm).all()


def test_a_tiny_full_run_writes_the_json_and_prints_the_table(tmp_path, capsys) -> None:
    assert benchmark.main(["--game", "got", "--players", "3", "--seconds", "0.01", "--repeats",
                           "1", "--states", "2", "--games", "2", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "game got {}" in out
    assert "AEC agent-steps/s" in out and "vector, 2 workers: decisions/s" in out
    assert "vector, 2 workers, copy=False: decisions/s" in out
    (path,) = tmp_path.glob("benchmark-*.json")
    doc = json.loads(path.read_text())
    assert {"machine", "versions", "load_average", "options", "figures"} <= set(doc)
    assert doc["options"]["game"] == "got" and doc["options"]["players"] == [3]
    names = {f["name"] for f in doc["figures"]}
    assert {"AEC steps/s", "engine decisions/s", "vector 2w decisions/s",
            "vector 2w views decisions/s", "clone us",
            "encode us", "mask us"} <= names
    for f in doc["figures"]:
        assert f["min"] <= f["median"] <= f["max"] and len(f["repeats"]) >= 1
    if common.classic_envs():  # pettingzoo[classic] installed: the ratio of the same repeat
        fig = {f["name"]: f for f in doc["figures"]}
        assert fig["AEC / chess_v6"]["median"] == pytest.approx(
            fig["AEC steps/s"]["median"] / fig["chess_v6 steps/s"]["median"])
        assert "AEC / chess_v6 agent-steps/s" in out
        for name in ("vector 2w", "vector 2w views"):
            ratios = fig[f"{name} / chess_v6"]["repeats"]
            assert ratios == pytest.approx([v / c for v, c in zip(
                fig[f"{name} decisions/s"]["repeats"], fig["chess_v6 steps/s"]["repeats"],
                strict=True)])
        assert "vector, 2 workers, copy=False / chess_v6" in out



def test_uniform_legal_picks_each_legal_action_alike() -> None:
    """The batched measurement's random policy: only legal actions, each about equally often."""
    uniform_legal = common.uniform_legal
    rng = np.random.default_rng(0)
    mask = np.zeros((3, 10), dtype=np.int8)
    mask[0, [1, 4, 7]] = 1
    mask[1, 9] = 1
    mask[2, :] = 1
    picks = np.stack([uniform_legal(mask, rng) for _ in range(3000)])
    assert set(picks[:, 0]) == {1, 4, 7} and set(picks[:, 1]) == {9}
    assert np.bincount(picks[:, 0], minlength=10)[[1, 4, 7]].min() > 900  # 1,000 expected
    assert len(set(picks[:, 2])) == 10
    mask[1] = 0
    with pytest.raises(ValueError, match="game 1 has no legal action"):
        uniform_legal(mask, rng)


def test_a_tiny_goofspiel_run_writes_its_json(tmp_path, capsys) -> None:
    """``--game goofspiel``: every figure through the env, the protocol and
    ``VectorGames(game=...)``, under the figure names every game's run has."""
    assert benchmark.main(["--game", "goofspiel", "--option", "num_cards=4", "--players", "2",
                           "3", "--seconds", "0.01", "--repeats", "1", "--states", "2",
                           "--games", "2", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "game goofspiel {'num_cards': 4}" in out and "AEC agent-steps/s" in out
    (path,) = tmp_path.glob("benchmark-*.json")
    doc = json.loads(path.read_text())
    assert {"machine", "versions", "load_average", "options", "figures"} <= set(doc)
    assert doc["options"]["game"] == "goofspiel" and doc["options"]["players"] == [2, 3]
    assert doc["options"]["env"] == {"num_cards": 4}
    by = {(f["name"], f["players"]): f for f in doc["figures"]}
    for n in (2, 3):
        for name in ("AEC steps/s", "engine decisions/s", "vector 0w decisions/s",
                     "vector 2w decisions/s", "vector 2w views decisions/s", "clone us",
                     "encode us", "encode in play us", "mask us"):
            f = by[name, n]
            assert f["median"] > 0 and f["min"] <= f["median"] <= f["max"], (name, n)


def test_the_kit_engine_rate_goes_through_the_protocol() -> None:
    decisions, games = kit.engine_rate("goofspiel", {"num_cards": 4}, 0.01, 0)
    assert decisions >= 8 * games > 0          # 4 turns of 2 bids each per game
    samples = kit.sample_states("goofspiel", {"num_cards": 4}, 3, 0)
    assert len(samples) == 3 and all(s.player in (0, 1) for s in samples)


@pytest.mark.parametrize("argv, message", [
    ([], "the following arguments are required: --game"),
    (["--game", "goofspiel", "--option", "colour=red"], "goofspiel env"),
    (["--game", "got", "--option", "num_cards=4"], "got env {'num_cards': 4"),
    (["--game", "got", "--option", "ruleset=3e"], "unknown ruleset '3e'"),
    (["--game", "got", "--option", "ruleset=1e", "--players", "6"],
     "got env {'ruleset': '1e', 'num_players': 6}"),
    (["--game", "got", "--option", "ruleset"], "--option 'ruleset': expected KEY=VALUE"),
])
def test_bad_options_exit_2(argv, message, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        benchmark.main(argv)
    assert e.value.code == 2 and message in capsys.readouterr().err
