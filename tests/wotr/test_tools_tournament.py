"""War of the Ring through the tournament, the ladder and experiments.play (issue 28 item 5): the
same code that plays AGoT and Goofspiel, with ``env: {game: wotr}`` and nothing of its own. Games
are cut off at ``max_turns`` (a whole random game is thousands of decisions), so they end as
"truncated": ranked by the game's standing, as the env's infos rank them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from boardkit.records import GameRecord
from experiments import game_hooks
from experiments import ladder as L
from experiments import play as P
from experiments.ladder import config as LC
from experiments.tournament.config import load_config, parse_config
from experiments.tournament.records import RECORD_FIELDS
from experiments.tournament.run import run_tournament

ROOT = Path(__file__).resolve().parents[2]
ENV = {"ruleset": "2e", "max_turns": 2}
SIDES = ("free_peoples", "shadow")


def quiet(_msg: str) -> None:
    pass


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def heuristic_or_skip() -> None:
    if importlib.util.find_spec("wotr_env.agents.heuristic") is None:
        pytest.skip("wotr_env.agents.heuristic is not written yet")
    try:
        import wotr_env.agents.heuristic  # noqa: F401
    except ImportError as e:
        pytest.skip(f"wotr_env.agents.heuristic cannot be imported: {e}")


def tournament_raw(workers: int) -> dict:
    return {"game": "wotr", "name": "wotr", "env": dict(ENV),
            "agents": {"a": "random", "b": "random"}, "lineups": [["a", "b"]], "games": 2,
            "workers": workers, "seed": 0}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The tiny tournament (random against random, 2 games) here and on 2 worker processes."""
    out = {}
    for workers in (1, 2):
        cfg = parse_config(tournament_raw(workers), out=tmp_path_factory.mktemp(f"w{workers}"))
        out[workers] = cfg, run_tournament(cfg, progress=False, log=quiet)
    return out


def test_a_wotr_tournament_seats_both_sides_and_writes_its_records_and_report(runs):
    cfg, report = runs[1]
    assert cfg.game == "wotr" and cfg.houses == SIDES and cfg.num_players == 2
    recs = lines(report.run_dir / "games.jsonl")
    assert report.played == 2 and len(recs) == 2
    assert [r["houses"] for r in recs] == [list(SIDES), list(SIDES[::-1])]  # sides swapped
    for r in recs:
        assert set(RECORD_FIELDS) <= set(r)
        assert sorted(r["ranking"]) == sorted(SIDES)
        assert r["winner"] is None and r["winner_agent"] is None  # truncated: no winner
        assert r["reason"] == "truncated" and r["rounds"] == 2 and r["decisions"] > 10
        assert set(r["castles"]) == set(SIDES)  # the standing of each side
        first, second = (r["castles"][s] for s in r["ranking"])
        assert first >= second and "draw" not in r
    res = report.results
    assert res["games"] == 2 and set(res["agents"]) == {"a", "b"}
    # a truncated game has no winner by the rules: it credits no win (experiments.ratings)
    assert sum(a["wins"] for a in res["agents"].values()) == 0
    assert sum(h["wins"] for h in res["houses"].values()) == 0
    assert list(res["houses"]) == list(SIDES)
    for name in ("results.json", "results.csv", "config.json", "win_rates.png", "ratings.png",
                 "houses.png"):
        assert (report.run_dir / name).stat().st_size > 0, name


def test_a_wotr_tournament_plays_the_same_on_worker_processes(runs):
    def records(report):
        return [{k: v for k, v in r.items() if k != "seconds"}
                for r in sorted(lines(report.run_dir / "games.jsonl"), key=lambda r: r["game"])]

    assert records(runs[1][1]) == records(runs[2][1])
    assert runs[1][1].results == runs[2][1].results


def test_a_truncated_games_result_is_the_envs_ranking():
    """The tournament's result of a game cut off at max_turns ranks the sides as the env's own
    end infos do (the game's standing), reason "truncated", no draw."""
    from agents import RandomAgent
    from experiments.play import play_game
    from wotr_env import raw_env

    env = raw_env(max_turns=2, info_format="text")
    play_game(env, {s: RandomAgent(seed=i) for i, s in enumerate(SIDES)}, seed=4)
    result = game_hooks.result("wotr", env)
    assert result.reason == "truncated" and result.draw == ()
    # every agent left the env at the end; its infos were the same for both (the ranking)
    env2 = raw_env(max_turns=2, info_format="text")
    env2.reset(seed=4)
    for action in env.record.actions:
        env2.step(action)
    assert env2.truncations == {s: True for s in SIDES}
    assert [SIDES[p] for p in result.ranking] == env2.infos["shadow"]["ranking"]
    assert env2.infos["free_peoples"]["outcome"] == "truncated"


def test_a_tiny_wotr_ladder_runs_and_writes_its_ratings(tmp_path):
    raw = {"game": "wotr", "name": "wotr", "env": dict(ENV),
           "rungs": {"random": "random", "random_too": {"name": "random"}},
           "games": 2, "seed": 0, "workers": 1}
    cfg = LC.parse_config(raw, out=tmp_path)
    assert cfg.game == "wotr" and cfg.houses == SIDES and cfg.max_rounds == 0
    report = L.run_ladder(cfg, progress=False, log=quiet)
    assert (report.planned, report.played) == (4, 4)
    for name in ("config.json", "ladder.json", "pairwise.csv", "rungs.csv", "lengths.csv",
                 "ladder.md", "ratings.png", "pairwise.png", "lengths.png"):
        assert (report.run_dir / name).stat().st_size > 0, name
    doc = json.loads((report.run_dir / "ladder.json").read_text())
    assert set(doc["order"]) == {"random", "random_too"} and doc["games"] == 4
    assert doc["houses"] == list(SIDES)
    assert doc["lengths"]["endings"] == {"truncated": 4}
    assert doc["lengths"]["rounds_hist"] == {"1": 0, "2": 4}
    md = (report.run_dir / "ladder.md").read_text()
    assert "## Strength ladder (wotr)" in md and "| truncated |" in md


def test_a_wotr_game_plays_and_saves_a_record_and_its_replay(tmp_path, capsys):
    cfg = {"game": "wotr", "env": dict(ENV), "agents": {"default": "random"}, "seed": 3,
           "out": str(tmp_path / "out")}
    path = tmp_path / "wotr.yaml"
    path.write_text(json.dumps(cfg), encoding="utf-8")
    assert P.main(["--config", str(path), "--replay"]) == 0
    out = capsys.readouterr().out
    assert "2-player game, seed 3:" in out and "2 rounds" in out
    assert "no winner, ahead: " in out and "(truncated)" in out
    assert "points  (RandomAgent)" in out
    record = GameRecord.load(tmp_path / "out" / "game-3.json")
    assert record.game == "wotr" and record.seed == 3
    assert record.options == {**ENV, "reward": "zero_sum", "max_steps": None}
    *_, (env, last) = record.walk()  # replays to the recorded outcome and digest
    assert last is None and env.game.truncated and env.game.turn == 2
    assert (tmp_path / "out" / "replay.html").stat().st_size > 0


@pytest.mark.parametrize("name", ["wotr_tournament", "wotr_ladder", "wotr_play"])
def test_the_shipped_wotr_configs_parse(name):
    heuristic_or_skip()  # each names the heuristic: parsing checks that its spec builds
    path = ROOT / "configs" / f"{name}.yaml"
    if name == "wotr_tournament":
        cfg = load_config(path)
        assert cfg.game == "wotr" and cfg.houses == SIDES and cfg.games % 2 == 0
        assert cfg.env == {"ruleset": "2e", "max_turns": 6}
    elif name == "wotr_ladder":
        cfg = LC.load_config(path)
        assert cfg.game == "wotr" and cfg.rung_names == ["random", "heuristic"]
    else:
        cfg = P.load_config(path)
        assert cfg["game"] == "wotr" and cfg["env"] == {"ruleset": "2e", "max_turns": 6}


def test_the_heuristic_plays_a_tiny_tournament(tmp_path):
    """Optional: the registered heuristic (``wotr_heuristic``) against random play."""
    heuristic_or_skip()
    raw = {**tournament_raw(1), "agents": {"h": "wotr_heuristic", "r": "random"},
           "lineups": [["h", "r"]]}
    cfg = parse_config(raw, out=tmp_path)
    report = run_tournament(cfg, progress=False, log=quiet)
    recs = lines(report.run_dir / "games.jsonl")
    assert report.played == 2 and {r["seats"][s] for r in recs for s in SIDES} == {"h", "r"}
