"""The tournament script (experiments/tournament.py): the tiny config end to end, its files,
resuming from a cut games.jsonl, house rotation, ratings and the errors of bad configs."""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image

from agents import REGISTRY
from experiments.config_files import ConfigError
from experiments.ratings import openskill_ratings, wilson
from experiments.tournament.cli import main
from experiments.tournament.config import load_config, parse_config, round_robin_lineups
from experiments.tournament.plan import GameFailed, make_plan, play_spec
from experiments.tournament.records import RECORD_FIELDS, check_run_dir
from experiments.tournament.run import run_tournament

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "configs" / "tournament_tiny.yaml"
PLOTS = ("win_rates.png", "ratings.png", "houses.png")


def quiet(_msg: str) -> None:
    pass


def run(out: Path, **overrides):
    cfg = load_config(TINY, out=out, **overrides)
    return cfg, run_tournament(cfg, progress=False, log=quiet)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """The tiny config played once, with its 2 worker processes."""
    cfg, report = run(tmp_path_factory.mktemp("tournament"))
    return cfg, report


def base_raw() -> dict:
    return {"game": "got", "env": {"num_players": 3, "max_rounds": 2},
            "agents": {"a": {"type": "random"}, "b": {"type": "random"}},
            "lineups": [["a", "b", "b"]], "games": 3}


# -- the tiny run and its files ----------------------------------------------------------------
def test_tiny_config_is_as_documented(tiny):
    cfg, report = tiny
    assert cfg.num_players == 4 and cfg.env["max_rounds"] == 2
    assert cfg.games == 4 and cfg.workers == 2 and len(cfg.lineups) == 1
    assert cfg.notes == ()   # 4 games of 4 players: every agent at every house, no note
    assert {s["type"] for s in cfg.agents.values()} == {"random"}
    assert report.planned == 4 and report.played == 4 and report.reused == 0
    assert report.run_dir == cfg.out / "tiny"


def test_games_jsonl_has_one_full_record_per_game(tiny):
    cfg, report = tiny
    recs = lines(report.run_dir / "games.jsonl")
    assert len(recs) == 4
    assert sorted((r["lineup_index"], r["game"]) for r in recs) == [(0, g) for g in range(4)]
    for r in recs:
        assert set(RECORD_FIELDS) <= set(r)
        assert r["lineup"] == list(cfg.lineups[0])
        assert sorted(r["ranking"]) == sorted(cfg.houses) == sorted(r["houses"])
        assert r["ranks"] == [r["ranking"].index(h) + 1 for h in r["houses"]]
        assert r["seats"] == dict(zip(r["houses"], r["lineup"], strict=True))
        assert r["winner"] == r["ranking"][0]
        assert r["winner_agent"] == r["seats"][r["winner"]]
        assert set(r["castles"]) == set(r["houses"])
        assert all(isinstance(c, int) and 0 <= c <= 7 for c in r["castles"].values())
        assert isinstance(r["seed"], int) and len(r["agent_seeds"]) == 4
        assert r["rounds"] <= 2
    assert len({r["seed"] for r in recs}) == 4


def test_results_json_covers_every_agent_and_house(tiny):
    cfg, report = tiny
    res = json.loads((report.run_dir / "results.json").read_text())
    assert res == report.results
    assert res["games"] == 4 and res["num_players"] == 4
    assert set(res["agents"]) == {"alice", "bob"}
    assert sum(a["wins"] for a in res["agents"].values()) == 4
    assert sum(a["seats"] for a in res["agents"].values()) == 4 * 4
    assert res["agents"]["alice"]["seats"] == 4 and res["agents"]["bob"]["seats"] == 12
    assert list(res["houses"]) == list(cfg.houses)
    assert sum(h["wins"] for h in res["houses"].values()) == 4
    assert all(h["games"] == 4 for h in res["houses"].values())
    for a in res["agents"].values():
        lo, hi = a["win_ci95"]
        assert 0 <= lo <= a["win_rate"] <= hi <= 1
        assert 1 <= a["avg_rank"] <= 4 and 0 <= a["avg_castles"] <= 7
        rating = a["rating"]
        assert math.isfinite(rating["mu"]) and 0 < rating["sigma"] < 25 / 3
        assert sum(c["wins"] for c in a["by_house"].values()) == a["wins"]
    assert res["lineups"][0]["games"] == 4 and sum(res["lineups"][0]["wins"].values()) == 4


def test_results_csv_matches_the_json(tiny):
    _, report = tiny
    with open(report.run_dir / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    agents = {r["agent"]: r for r in rows if r["kind"] == "agent"}
    assert set(agents) == {"alice", "bob"}
    assert sum(int(r["wins"]) for r in agents.values()) == 4
    for name, r in agents.items():
        rating = report.results["agents"][name]["rating"]
        assert float(r["mu"]) == pytest.approx(rating["mu"])
        assert float(r["sigma"]) == pytest.approx(rating["sigma"])
    houses = [r for r in rows if r["kind"] == "house"]
    assert sum(int(r["wins"]) for r in houses) == 4
    assert len([r for r in rows if r["kind"] == "agent_house"]) == 2 * 4


def test_plots_are_valid_pngs(tiny):
    _, report = tiny
    for name in PLOTS:
        path = report.run_dir / name
        with Image.open(path) as im:
            im.verify()
        with Image.open(path) as im:
            assert im.format == "PNG" and im.size[0] > 200 and im.size[1] > 200


def test_every_agent_sits_at_every_house(tiny):
    cfg, report = tiny
    houses = list(cfg.houses)
    seen = {a: set() for a in cfg.agent_names}
    for r in lines(report.run_dir / "games.jsonl"):
        g = r["game"]
        assert r["houses"] == [houses[(i + g) % 4] for i in range(4)]
        for a, h in zip(r["lineup"], r["houses"], strict=True):
            seen[a].add(h)
    assert seen == {"alice": set(houses), "bob": set(houses)}
    by_house = report.results["agents"]["alice"]["by_house"]
    assert all(by_house[h]["seats"] >= 1 for h in houses)


# -- resuming ----------------------------------------------------------------------------------
def copy_run(tiny, tmp_path: Path) -> Path:
    _, report = tiny
    shutil.copytree(report.run_dir, tmp_path / "tiny")
    return tmp_path / "tiny" / "games.jsonl"


def test_resume_plays_only_the_missing_games(tiny, tmp_path):
    games = copy_run(tiny, tmp_path)
    kept = games.read_text().splitlines(keepends=True)[:2]
    games.write_text("".join(kept))
    _, report = run(tmp_path)
    assert (report.reused, report.played) == (2, 2)
    assert games.read_text().startswith("".join(kept))
    recs = lines(games)
    assert len(recs) == 4
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in recs]
    orig = [{k: v for k, v in r.items() if k != "seconds"}
            for r in lines(tiny[1].run_dir / "games.jsonl")]
    key = lambda r: (r["lineup_index"], r["game"])  # noqa: E731
    assert sorted(strip, key=key) == sorted(orig, key=key)
    assert report.results == tiny[1].results
    assert (games.parent / "results.json").read_text() == \
        (tiny[1].run_dir / "results.json").read_text()


def test_resume_drops_a_cut_last_line(tiny, tmp_path):
    games = copy_run(tiny, tmp_path)
    text = games.read_text().splitlines(keepends=True)
    games.write_text("".join(text[:3]) + text[3][: len(text[3]) // 2])
    _, report = run(tmp_path, workers=1)
    assert (report.reused, report.played) == (3, 1)
    assert len(lines(games)) == 4 and games.read_text().endswith("\n")
    assert report.results == tiny[1].results


def test_rerun_of_a_finished_tournament_plays_nothing(tiny, tmp_path):
    copy_run(tiny, tmp_path)
    _, report = run(tmp_path)
    assert (report.reused, report.played) == (4, 0)
    assert report.results == tiny[1].results


def test_more_games_extend_a_run(tiny, tmp_path):
    games = copy_run(tiny, tmp_path)
    _, report = run(tmp_path, games=6, workers=1)
    assert (report.reused, report.played) == (4, 2)
    assert len(lines(games)) == 6 and report.results["games"] == 6
    _, report = run(tmp_path, games=3, workers=1)   # fewer: the extra records are left out
    assert (report.played, report.ignored, report.results["games"]) == (0, 3, 3)


def test_a_run_folder_of_another_tournament_is_refused(tiny, tmp_path):
    copy_run(tiny, tmp_path)
    raw = yaml.safe_load(TINY.read_text())
    raw["env"]["max_rounds"] = 3
    cfg = parse_config(raw, out=tmp_path)
    with pytest.raises(ConfigError, match="another tournament.*max_rounds"):
        run_tournament(cfg, progress=False, log=quiet)
    raw = yaml.safe_load(TINY.read_text())
    raw["seed"] = 1
    cfg = parse_config(raw, out=tmp_path)
    with pytest.raises(ConfigError, match="another tournament"):
        run_tournament(cfg, progress=False, log=quiet)


def test_a_run_folder_saved_before_the_game_key_is_agots(tiny, tmp_path):
    """A folder whose config.json names no game was saved when AGoT was the only game
    (boardkit.games.saved_game, the one conversion): an AGoT tournament resumes it, and one of
    another game refuses it, naming the game."""
    copy_run(tiny, tmp_path)
    saved = tmp_path / "tiny" / "config.json"
    doc = json.loads(saved.read_text())
    assert doc.pop("game") == "got"
    saved.write_text(json.dumps(doc))
    cfg, report = run(tmp_path)
    assert report.played == 0 and report.reused == tiny[1].played
    saved.write_text(json.dumps(doc))
    with pytest.raises(ConfigError, match="game: was 'got', now 'goofspiel'"):
        check_run_dir(dataclasses.replace(cfg, game="goofspiel"))


def test_a_corrupt_line_in_the_middle_is_an_error(tiny, tmp_path):
    games = copy_run(tiny, tmp_path)
    text = games.read_text().splitlines(keepends=True)
    games.write_text(text[0] + "{not json\n" + "".join(text[1:]))
    with pytest.raises(ConfigError, match="line 2"):
        run(tmp_path)


# -- config ------------------------------------------------------------------------------------
@pytest.mark.parametrize("change, message", [
    (lambda c: c["agents"].update(x={"type": "nope"}),
     r"agents\.x: agent 'nope': unknown agent name .*'random'"),
    (lambda c: c["agents"].update(x={"seed": 1}), "agents.x: agent spec: no 'name'"),
    (lambda c: c["agents"].update(x={"type": "random", "depth": 3}),
     r"agents\.x: agent 'random': bad arguments \['depth'\]"),
    (lambda c: c["agents"].update(x={"type": "random", "env": 1}), "given by the tournament"),
    (lambda c: c.update(lineups=[["a", "b"]]), "has 2 agents but .* num_players=3"),
    (lambda c: c.update(lineups=[["a", "b", "c"]]), r"unknown agents \['c'\]"),
    (lambda c: c.update(lineups=[]), "lineups must be a non-empty list"),
    (lambda c: c.update(lineup=[["a", "b", "b"]]), r"unknown key\(s\) \['lineup'\]"),
    (lambda c: c.update(round_robin=True), "either lineups or round_robin"),
    (lambda c: c.update(games=0), "games must be an integer >= 1"),
    (lambda c: c.update(games=10**9), r"^games must be an integer >= 1 and <= 100000, got "
                                      r"1000000000$"),
    (lambda c: c.update(seed=-1), "seed must be an integer >= 0"),
    (lambda c: c.update(workers=float("inf")), r"^workers must be an integer >= 0 and <= 256, "
                                               r"got inf$"),
    (lambda c: c.pop("game"), r"^game must be set: one of \['goofspiel', 'got', 'wotr'\]$"),
    (lambda c: c["agents"].update(x={"type": "ismcts", "simulations": -5}),
     r"agents\.x: agent 'ismcts': simulations must be an integer >= 1"),
    (lambda c: c.update(name="a/b"), "name must be a folder name"),
    (lambda c: c["env"].update(num_players=7), "env:"),
    (lambda c: c["env"].update(colour="red"), "env:"),
    (lambda c: c["env"].update(max_steps=100), "max_steps is not allowed"),
    (lambda c: c.update(agents={}), "agents must be a non-empty mapping"),
])
def test_bad_configs_raise_clear_errors(change, message):
    raw = base_raw()
    change(raw)
    with pytest.raises(ConfigError, match=message):
        parse_config(raw)


def test_round_robin_builds_every_combination():
    assert round_robin_lineups(["a", "b"], 3) == [("a", "a", "b"), ("a", "b", "b")]
    assert len(round_robin_lineups(list("abcd"), 3)) == 4
    assert round_robin_lineups(["a"], 3) == [("a", "a", "a")]
    raw = base_raw()
    del raw["lineups"]
    raw["round_robin"] = True
    assert parse_config(raw).lineups == (("a", "a", "b"), ("a", "b", "b"))
    raw["round_robin"] = ["b", "zed"]
    with pytest.raises(ConfigError, match="unknown agents"):
        parse_config(raw)


def test_plan_seeds_are_stable_and_distinct():
    cfg = parse_config(base_raw(), games=6)
    plan = make_plan(cfg)
    assert plan == make_plan(cfg) and len(plan) == 6
    assert len({s.seed for s in plan}) == 6
    assert [s.game for s in plan] == list(range(6))
    assert make_plan(parse_config({**base_raw(), "seed": 1}, games=6))[0].seed != plan[0].seed


class EnvAgent:
    """Takes env= and seed=: checks the tournament hands it the env of its game."""

    built: list = []

    def __init__(self, env, seed=None, eps: float = 0.0):
        self.env, self.rng = env, np.random.default_rng(seed)
        EnvAgent.built.append(self)

    def act(self, observation, action_mask, info):
        assert self.env.game is not None and self.env.game.pending is not None
        return int(self.rng.choice(np.flatnonzero(action_mask)))


def test_agents_taking_env_get_the_game_env(monkeypatch):
    monkeypatch.setitem(REGISTRY, "envy", EnvAgent)
    raw = base_raw()
    raw["agents"]["b"] = {"type": "envy", "eps": 0.1}
    cfg = parse_config(raw)
    EnvAgent.built.clear()
    rec = play_spec(cfg.env, cfg.agents, make_plan(cfg)[0], game=cfg.game)
    assert len(EnvAgent.built) == 2
    assert EnvAgent.built[0].env is EnvAgent.built[1].env
    assert EnvAgent.built[0].env.game.outcome is not None
    assert rec["winner"] in rec["houses"]
    raw["agents"]["b"] = {"type": "envy", "depth": 2}
    with pytest.raises(ConfigError, match="envy"):
        parse_config(raw)


# -- statistics --------------------------------------------------------------------------------
def test_wilson_interval():
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(3, 3)[1] == 1.0 and wilson(0, 3)[0] == 0.0


class BrokenAgent:
    def __init__(self, seed=None):
        pass

    def act(self, observation, action_mask, info):
        raise RuntimeError("boom")


def test_a_failing_game_names_itself(monkeypatch, tmp_path):
    monkeypatch.setitem(REGISTRY, "broken", BrokenAgent)
    raw = base_raw()
    raw["agents"]["b"] = {"type": "broken"}
    cfg = parse_config(raw, out=tmp_path, workers=1)
    with pytest.raises(GameFailed, match=r"game 0 of line-up 0 .*seed \d+.*boom"):
        run_tournament(cfg, progress=False, log=quiet)


def test_openskill_ratings_follow_the_rankings():
    houses = ["stark", "lannister", "baratheon"]
    recs = [{"lineup": ["a", "b", "c"], "houses": houses, "ranking": houses}] * 5
    r = openskill_ratings(recs, ["a", "b", "c"])
    assert r["a"]["mu"] > r["b"]["mu"] > r["c"]["mu"]
    assert all(v["rated_games"] == 5 and v["sigma"] < 25 / 3 for v in r.values())
    selfplay = [{"lineup": ["a", "a", "a"], "houses": houses, "ranking": houses}]
    assert openskill_ratings(selfplay, ["a"])["a"]["rated_games"] == 0


# -- command line ------------------------------------------------------------------------------
def test_cli_help(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "--games" in out and "--workers" in out and "round_robin" in out


def test_cli_runs_and_reports(tmp_path, capsys):
    assert main(["--config", str(TINY), "--out", str(tmp_path), "--games", "4",
                   "--workers", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "played 4 game(s)" in out and "alice" in out and "bob" in out and "note" not in out
    assert len(lines(tmp_path / "tiny" / "games.jsonl")) == 4
    for name in PLOTS:
        assert (tmp_path / "tiny" / name).exists()


def test_cli_bad_config_exits_with_the_reason(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: got\nenv: {num_players: 3}\nagents: {a: {type: alphago}}\n"
                   "lineups: [[a, a, a]]\n")
    with pytest.raises(SystemExit) as e:
        main(["--config", str(bad), "--out", str(tmp_path)])
    assert e.value.code == 2
    assert "agents.a: agent 'alphago': unknown agent name" in capsys.readouterr().err


def test_one_backends_list_for_the_experiments_and_the_library():
    """The experiments' config model names the backends the batched API runs from the one list
    (boardkit.backends, light enough for train --help), not a copy of it."""
    from boardkit.backends import BACKENDS as LIBRARY
    from experiments.config_model import BACKENDS

    assert BACKENDS is LIBRARY and BACKENDS == ("local", "ray")


# -- a second game: Goofspiel through the registry and the kit's env ---------------------------
GOOFSPIEL = ROOT / "configs" / "goofspiel_tournament.yaml"


def goofspiel_raw(workers: int) -> dict:
    """A tiny Goofspiel tournament: IS-MCTS (random rollouts, no prior or model) against random
    play, 4 games of 2 players and 5 cards."""
    return {"game": "goofspiel", "name": "goof", "env": {"num_players": 2, "num_cards": 5},
            "agents": {"mcts": {"name": "ismcts",
                                "kwargs": {"simulations": 10, "rollout": "random",
                                           "prior": None, "model": None, "horizon": "game"}},
                       "random": "random"},
            "lineups": [["mcts", "random"]], "games": 4, "workers": workers}


@pytest.fixture(scope="module")
def goofspiel_runs(tmp_path_factory):
    """The tiny Goofspiel tournament played in this process and on 2 worker processes."""
    runs = {}
    for workers in (1, 2):
        cfg = parse_config(goofspiel_raw(workers), out=tmp_path_factory.mktemp(f"g{workers}"))
        runs[workers] = cfg, run_tournament(cfg, progress=False, log=quiet)
    return runs


def test_a_goofspiel_tournament_seats_its_players_and_records_its_points(goofspiel_runs):
    cfg, report = goofspiel_runs[1]
    assert cfg.game == "goofspiel" and cfg.houses == ("player_0", "player_1")
    recs = lines(report.run_dir / "games.jsonl")
    assert report.played == 4 and len(recs) == 4
    for r in recs:
        assert set(RECORD_FIELDS) <= set(r)
        assert sorted(r["ranking"]) == ["player_0", "player_1"]
        assert r["houses"] == [cfg.houses[(i + r["game"]) % 2] for i in range(2)]
        points = r["castles"]           # the points won: every prize goes to one or none
        assert sum(points.values()) <= 1 + 2 + 3 + 4 + 5
        first, second = (points[h] for h in r["ranking"])
        assert first >= second
        assert ("draw" in r) == (first == second)
        assert r["reason"] == "end" and r["rounds"] == 5 and r["decisions"] == 2 * 5
    res = report.results
    assert res["games"] == 4 and set(res["agents"]) == {"mcts", "random"}
    assert sum(a["wins"] for a in res["agents"].values()) == pytest.approx(4)
    assert all(a["seats"] == 4 for a in res["agents"].values())
    assert list(res["houses"]) == ["player_0", "player_1"]
    for name in ("results.json", "results.csv", *PLOTS):
        assert (report.run_dir / name).is_file()


def test_a_goofspiel_tournament_plays_the_same_on_worker_processes(goofspiel_runs):
    def records(report):
        return [{k: v for k, v in r.items() if k != "seconds"}
                for r in sorted(lines(report.run_dir / "games.jsonl"),
                                key=lambda r: (r["lineup_index"], r["game"]))]

    (_, here), (_, workers) = goofspiel_runs[1], goofspiel_runs[2]
    assert records(here) == records(workers)
    assert here.results == workers.results


def test_the_goofspiel_config_parses():
    cfg = load_config(GOOFSPIEL)
    assert cfg.game == "goofspiel" and cfg.num_players == 2 and cfg.games % 2 == 0


@pytest.mark.parametrize("change, message", [
    (lambda c: c["env"].update(max_rounds=3), "env:"),
    (lambda c: c.update(game="chess"), "game"),
])
def test_bad_goofspiel_configs_raise_clear_errors(change, message):
    raw = goofspiel_raw(1)
    change(raw)
    with pytest.raises(ConfigError, match=message):
        parse_config(raw)


def test_a_run_folder_of_another_game_is_refused(goofspiel_runs, tmp_path):
    cfg, report = goofspiel_runs[1]
    shutil.copytree(report.run_dir, tmp_path / "goof")
    agot = parse_config({**base_raw(), "name": "goof"}, out=tmp_path)
    with pytest.raises(ConfigError, match="game: was 'goofspiel', now 'got'"):
        run_tournament(agot, progress=False, log=quiet)
