"""``python -m experiments.benchmark --game wotr`` (issue 28 item 5): every figure measured through
the kit (the env, the protocol, ``VectorGames(game="wotr")``) on a tiny budget, under the names
AGoT's figures have, decisions per random game among them; the chess_v6 ratios where PettingZoo's
classic games are installed."""

from __future__ import annotations

import json

import pytest

from experiments import benchmark
from experiments.benchmark import common, kit

FIGURES = ("AEC steps/s", "AEC games/s", "engine decisions/s", "engine games/s",
           "engine decisions/game", "vector 0w decisions/s", "vector 2w decisions/s",
           "vector 2w views decisions/s", "clone us", "encode us", "encode in play us",
           "mask us")


def test_a_tiny_wotr_run_writes_its_json_and_prints_its_table(tmp_path, capsys) -> None:
    assert benchmark.main(["--game", "wotr", "--option", "max_turns=1", "--seconds", "0.01",
                           "--repeats", "1", "--states", "3", "--games", "2",
                           "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "game wotr {'max_turns': 1}" in out and "2 players" in out
    for label in ("AEC agent-steps/s", "engine decisions/s", "decisions per random game",
                  "vector, 2 workers: decisions/s", "state clone (us)", "mask (us)"):
        assert label in out, label
    (path,) = tmp_path.glob("benchmark-*.json")
    doc = json.loads(path.read_text())
    assert doc["options"]["game"] == "wotr" and doc["options"]["players"] == [2]
    assert doc["options"]["env"] == {"max_turns": 1}
    by = {(f["name"], f["players"]): f for f in doc["figures"]}
    for name in FIGURES:
        f = by[name, 2]
        assert f["median"] > 0 and f["min"] <= f["median"] <= f["max"], name
    # decisions per game: the engine's decisions over its games, of the same whole games
    assert by["engine decisions/game", 2]["median"] == pytest.approx(
        by["engine decisions/s", 2]["median"] / by["engine games/s", 2]["median"])
    if common.classic_envs():  # pettingzoo[classic] installed: the ratios to chess_v6
        assert by["AEC / chess_v6", 2]["median"] > 0 and "AEC / chess_v6" in out
        assert by["vector 2w / chess_v6", 2]["median"] > 0


def test_the_wotr_engine_rate_and_samples_go_through_the_protocol() -> None:
    decisions, games = kit.engine_rate("wotr", {"max_turns": 1}, 0.01, 0)
    assert decisions > 10 * games > 0
    samples = kit.sample_states("wotr", {"max_turns": 1}, 3, 0)
    assert len(samples) == 3 and all(s.player in (0, 1) for s in samples)


def test_a_bad_wotr_option_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as e:
        benchmark.main(["--game", "wotr", "--option", "max_turns=0"])
    assert e.value.code == 2 and "wotr env" in capsys.readouterr().err
