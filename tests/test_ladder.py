"""The strength ladder (experiments/ladder): a tiny ladder end to end and its files, its tables
recomputed from the games' records, optional rungs, resuming, and the errors of bad configs."""

from __future__ import annotations

import csv
import json
import shutil
import statistics
from pathlib import Path

import pytest
from PIL import Image

from experiments import ladder as L
from experiments.ladder import config as LC
from experiments.ratings import wilson
from experiments.tournament.records import GAMES_FILE

OUTPUTS = ("config.json", "ladder.json", "pairwise.csv", "rungs.csv", "lengths.csv", "ladder.md",
           "ratings.png", "pairwise.png", "lengths.png")
MATCH = "random__heuristic"


def tiny_raw(tmp: Path) -> dict:
    """Random against the heuristic, 3 players, 2 rounds, 3 games per line-up; and a PPO rung
    whose checkpoint does not exist."""
    return {"game": "got", "name": "tiny", "env": {"num_players": 3, "max_rounds": 2},
            "rungs": {"random": "random", "heuristic": "heuristic",
                      "ppo": {"name": "ppo", "checkpoint": str(tmp / "missing.pt"),
                              "optional": True}},
            "games": 3, "seed": 0, "workers": 0}


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ladder")
    cfg = LC.parse_config(tiny_raw(tmp), out=tmp / "runs")
    log: list[str] = []
    report = L.run_ladder(cfg, progress=False, log=log.append)
    return cfg, report, log


# -- the tiny run ------------------------------------------------------------------------------
def test_tiny_ladder_writes_every_output(tiny):
    cfg, report, _ = tiny
    assert cfg.rung_names == ["random", "heuristic"] and len(cfg.matches) == 1
    assert report.planned == 6 and report.played == 6 and report.reused == 0
    assert report.run_dir == cfg.out / "tiny"
    for name in OUTPUTS:
        assert (report.run_dir / name).stat().st_size > 0, name
    for name in ("ratings.png", "pairwise.png", "lengths.png"):
        with Image.open(report.run_dir / name) as im:
            assert im.format == "PNG" and im.size[0] > 100
    games = report.run_dir / "matches" / MATCH / GAMES_FILE
    assert len(lines(games)) == 6
    md = (report.run_dir / "ladder.md").read_text()
    for heading in ("**Ratings**", "**Pairwise**", "**Per house**", "**Game lengths"):
        assert heading in md
    doc = json.loads((report.run_dir / "ladder.json").read_text())
    assert set(doc["order"]) == {"random", "heuristic"} and doc["games"] == 6


def test_pairwise_table_matches_the_records(tiny):
    cfg, report, _ = tiny
    recs = lines(report.run_dir / "matches" / MATCH / GAMES_FILE)
    rows = {(r["rung"], r["opponent"]): r for r in read_csv(report.run_dir / "pairwise.csv")}
    doc = json.loads((report.run_dir / "ladder.json").read_text())
    assert set(rows) == {("random", "heuristic"), ("heuristic", "random")}
    for alone, other in (("heuristic", "random"), ("random", "heuristic")):
        games = [r for r in recs if r["lineup"] == [alone, other, other]]
        wins = sum(r["winner_agent"] == alone for r in games)
        row = rows[(alone, other)]
        assert int(row["games"]) == len(games) == 3 and int(row["wins"]) == wins
        assert float(row["win_rate"]) == pytest.approx(wins / 3)
        assert float(row["score"]) == pytest.approx(wins / 3 * 3)
        lo, hi = wilson(wins, 3)
        assert float(row["win_ci95_low"]) == pytest.approx(lo)
        assert float(row["win_ci95_high"]) == pytest.approx(hi)
        cell = doc["pairwise"][alone][other]
        assert (cell["games"], cell["wins"]) == (3, wins)
        assert doc["pairwise"][alone][alone] is None
    # per rung and per house, over both line-ups
    for rung in ("random", "heuristic"):
        seats = sum(r["lineup"].count(rung) for r in recs)
        wins = sum(r["winner_agent"] == rung for r in recs)
        t = doc["rungs"][rung]
        assert (t["seats"], t["wins"]) == (seats, wins) == (9, wins)
        for house in cfg.houses:
            at = [r for r in recs if r["seats"][house] == rung]
            cell = t["by_house"][house]
            assert cell["seats"] == len(at)
            assert cell["wins"] == sum(r["winner"] == house for r in at)
    # game lengths
    length = doc["matches"][MATCH]["lengths"]
    rounds = [r["rounds"] for r in recs]
    assert length["rounds_mean"] == pytest.approx(statistics.fmean(rounds))
    assert length["rounds_median"] == statistics.median(rounds)
    assert sum(length["rounds_hist"].values()) == 6
    assert sum(length["endings"].values()) == 6
    assert length["endings"]["last-round"] == sum(r["reason"] == "last-round" for r in recs)


def test_optional_rung_without_checkpoint_is_skipped_with_a_note(tiny):
    cfg, report, log = tiny
    assert [r for r, _ in cfg.skipped] == ["ppo"]
    assert any("ppo" in m and "missing.pt not found" in m for m in log)
    assert "`ppo`: not played" in (report.run_dir / "ladder.md").read_text()
    doc = json.loads((report.run_dir / "ladder.json").read_text())
    assert doc["skipped"][0]["rung"] == "ppo" and "ppo" not in doc["rungs"]


def test_resume_does_not_replay_finished_games(tiny, tmp_path):
    cfg, report, _ = tiny
    shutil.copytree(report.run_dir, tmp_path / "tiny")
    games = tmp_path / "tiny" / "matches" / MATCH / GAMES_FILE
    before = lines(games)
    again = L.run_ladder(LC.parse_config(tiny_raw(tmp_path), out=tmp_path, workers=1),
                         progress=False, log=lambda _s: None)
    assert (again.played, again.reused) == (0, 6)
    assert lines(games) == before
    # an interrupted match: the last two games are gone, and only they are played again
    games.write_text("".join(json.dumps(r) + "\n" for r in before[:4]))
    again = L.run_ladder(LC.parse_config(tiny_raw(tmp_path), out=tmp_path, workers=1),
                         progress=False, log=lambda _s: None)
    assert (again.played, again.reused) == (2, 4)
    after = lines(games)
    assert after[:4] == before[:4]
    drop = ("seconds",)
    def games_of(rows: list[dict]) -> list[dict]:  # in plan order: workers finish in any order
        return sorted(({k: v for k, v in r.items() if k not in drop} for r in rows),
                      key=lambda r: (r["lineup_index"], r["game"]))

    assert games_of(after[4:]) == games_of(before[4:])
    assert again.results["pairwise"] == report.results["pairwise"]


# -- configs -----------------------------------------------------------------------------------
def base(**extra) -> dict:
    return {"game": "got", "env": {"num_players": 3, "max_rounds": 2},
            "rungs": {"random": "random", "heuristic": "heuristic"}, "games": 3, **extra}


def test_unknown_agent_fails_naming_it(tmp_path):
    raw = base()
    raw["rungs"]["mystery"] = "no_such_agent"
    with pytest.raises(LC.ConfigError, match=r"rungs\.mystery: agent 'no_such_agent': unknown"):
        LC.parse_config(raw, out=tmp_path)
    raw["rungs"]["mystery"] = {"name": "ismcts", "kwargs": {"rollout": "no_such_policy"}}
    with pytest.raises(LC.ConfigError, match=r"rungs\.mystery: .*no_such_policy"):
        LC.parse_config(raw, out=tmp_path)
    # a rung not marked optional fails on its missing checkpoint instead of being skipped
    raw["rungs"]["mystery"] = {"name": "ppo", "checkpoint": str(tmp_path / "none.pt")}
    with pytest.raises(LC.ConfigError, match=r"rungs\.mystery: .*none\.pt.*not found"):
        LC.parse_config(raw, out=tmp_path)
    assert not (tmp_path / "ladder").exists()   # no game, no folder


def test_cli_names_the_bad_agent(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    raw = base(out=str(tmp_path))
    raw["rungs"]["mystery"] = "no_such_agent"
    path.write_text(json.dumps(raw))
    with pytest.raises(SystemExit) as e:
        L.main(["--config", str(path), "--no-progress"])
    assert e.value.code == 2
    assert "rungs.mystery: agent 'no_such_agent'" in capsys.readouterr().err


@pytest.mark.parametrize("raw, message", [
    (base(games=0), r"^games must be an integer >= 1"),
    (base(colour="red"), r"unknown key\(s\) \['colour'\]"),
    ({**base(), "rungs": {"random": "random"}}, r"^rungs must be a mapping of at least two"),
    ({**base(), "rungs": {"random": "random", "a__b": "heuristic"}}, r"^rungs: a rung name"),
    ({**base(), "rungs": {"random": "random", "h": {"name": "heuristic", "games": -1}}},
     r"^rungs\.h\.games must be an integer >= 1"),
    ({**base(), "rungs": {"random": "random", "h": {"name": "heuristic", "optional": "yes"}}},
     r"^rungs\.h\.optional must be true or false"),
    (base(pairs=[{"rungs": ["random", "nobody"], "games": 3}]),
     r"^pairs\[0\]\.rungs names unknown rungs \['nobody'\]"),
    (base(pairs=[{"rungs": ["random", "heuristic"]}]), r"^pairs\[0\]\.games must be"),
    (base(env={"num_players": 3, "max_steps": 10}), r"^env\.max_steps is not allowed"),
    (base(env={"num_players": 9}), r"^env: "),
    (base(backend="cloud"), r"backend must be one of"),
    (base(games=10**9), r"^games must be an integer >= 1 and <= 100000, got 1000000000$"),
    (base(pairs=[{"rungs": ["random", "heuristic"], "games": 10**9}]),
     r"^pairs\[0\]\.games must be an integer >= 1 and <= 100000, got 1000000000$"),
    ({**base(), "rungs": {"random": "random",
                          "m": {"name": "ismcts", "kwargs": {"simulations": -5}}}},
     r"^rungs\.m: agent 'ismcts': simulations must be an integer >= 1"),
    ({k: v for k, v in base().items() if k != "game"}, r"^game must be set"),
])
def test_bad_configs_name_the_key(raw, message, tmp_path):
    with pytest.raises(LC.ConfigError, match=message):
        LC.parse_config(raw, out=tmp_path)


def test_games_per_pair_only_and_seeds(tmp_path):
    raw = base(games=6, pairs=[{"rungs": ["heuristic", "random"], "games": 9}])
    raw["rungs"]["slow"] = {"name": "heuristic", "games": 3}
    cfg = LC.parse_config(raw, out=tmp_path)
    games = {(m.a, m.b): m.games for m in cfg.matches}
    assert games == {("random", "heuristic"): 9, ("random", "slow"): 3, ("heuristic", "slow"): 3}
    m = cfg.matches[0]
    assert m.tournament.lineups == (("random", "heuristic", "heuristic"),
                                    ("heuristic", "random", "random"))
    assert m.tournament.run_dir == tmp_path / "ladder" / "matches" / "random__heuristic"
    assert len({mm.tournament.seed for mm in cfg.matches}) == 3
    assert {mm.games for mm in LC.parse_config(raw, out=tmp_path, games=12).matches} == {12}
    only = LC.parse_config(raw, out=tmp_path, only=["slow", "random"])
    assert only.rung_names == ["random", "slow"] and len(only.matches) == 1
    assert only.matches[0].tournament.seed == cfg.matches[1].tournament.seed
    with pytest.raises(LC.ConfigError, match=r"--only names 'nobody', not a rung"):
        LC.parse_config(raw, out=tmp_path, only=["random", "nobody"])


def test_shipped_config_parses_when_its_agents_exist():
    """configs/ladder.yaml: every rung but the optional PPO one must build."""
    from agents import REGISTRY

    if "heuristic_v2" not in REGISTRY:
        pytest.skip("heuristic_v2 not in the registry yet")
    cfg = LC.load_config(LC.DEFAULT_CONFIG)
    assert cfg.env["num_players"] == 3
    names = cfg.rung_names + [r for r, _ in cfg.skipped]
    assert names[:4] == ["random", "heuristic_v1", "heuristic_v2", "ismcts_v2"]


# -- another game: Goofspiel -------------------------------------------------------------------
def test_a_tiny_goofspiel_ladder_runs_and_writes_its_ratings(tmp_path):
    """The ladder on the kit's second game: seats from the env's possible_agents, results from
    the tournament's game hooks, endings and round limit from the game (none of AGoT's)."""
    raw = {"game": "goofspiel", "name": "goof", "env": {"num_players": 2, "num_cards": 4},
           "rungs": {"random": "random",
                     "ismcts": {"name": "ismcts", "kwargs": {"simulations": 4,
                                                             "horizon": "game"}}},
           "games": 2, "seed": 0, "workers": 1}
    cfg = LC.parse_config(raw, out=tmp_path)
    assert cfg.game == "goofspiel" and cfg.houses == ("player_0", "player_1")
    assert cfg.max_rounds == 0 and cfg.matches[0].tournament.game == "goofspiel"
    report = L.run_ladder(cfg, progress=False, log=lambda _s: None)
    assert (report.planned, report.played) == (4, 4)
    for name in OUTPUTS:
        assert (report.run_dir / name).stat().st_size > 0, name
    doc = json.loads((report.run_dir / "ladder.json").read_text())
    assert set(doc["order"]) == {"random", "ismcts"} and doc["games"] == 4
    assert doc["houses"] == ["player_0", "player_1"]
    for rung in ("random", "ismcts"):
        assert doc["rungs"][rung]["seats"] == 4 and "mu" in doc["rungs"][rung]["rating"]
    assert doc["lengths"]["endings"] == {"end": 4}
    assert doc["lengths"]["rounds_hist"] == {"1": 0, "2": 0, "3": 0, "4": 4}
    rows = read_csv(report.run_dir / "rungs.csv")
    assert {r["rung"] for r in rows} == {"random", "ismcts"}
    md = (report.run_dir / "ladder.md").read_text()
    assert "| end | s/game |" in md and "7 castles" not in md


def test_the_shipped_goofspiel_ladder_config_parses():
    cfg = LC.load_config(LC.DEFAULT_CONFIG.parent / "goofspiel_ladder.yaml")
    assert cfg.game == "goofspiel" and cfg.rung_names == ["random", "ismcts_20", "ismcts_100"]
    assert {m.games for m in cfg.matches} == {20, 10}
