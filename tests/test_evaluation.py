"""The fixed evaluation suite (experiments.evaluation, ``python -m experiments.evaluate``): config
errors named, paired seatings (every seed once per seat), the Wilson interval of its figures,
resuming plays only the missing games, a changed config refused naming the key, and the same
games run to run with heuristics in worker processes."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from experiments.config_files import ConfigError
from experiments.evaluate import main
from experiments.evaluation.config import CANDIDATE, EVAL_SEEDS, load_suite, parse_suite
from experiments.evaluation.plan import paired_plan
from experiments.evaluation.results import lineup_figures, markdown_table
from experiments.evaluation.run import run_suite
from experiments.tournament.records import read_games

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "configs" / "eval"
SMOKE = EVAL / "agot_v2_smoke.yaml"


def smoke_raw(**changes: Any) -> dict[str, Any]:
    return {**yaml.safe_load(SMOKE.read_text()), **changes}


def quiet(_msg: str) -> None:
    pass


def records_without_time(run_dir: Path) -> dict[tuple[int, int], dict[str, Any]]:
    """Each game's record by its key, less the seconds it took (the fields that vary)."""
    return {(r["lineup_index"], r["game"]): {k: v for k, v in r.items()
                                             if k not in ("seconds", "seat_seconds")}
            for r in read_games(run_dir / "games.jsonl")}


# -- config errors ---------------------------------------------------------------------------
@pytest.mark.parametrize("changes, words", [
    ({"opponents": {"heuristic_v2": "no_such_agent"}}, "opponents.heuristic_v2"),
    ({"candidate": "no_such_agent"}, "candidate"),
    ({"lineups": {"v2": ["heuristic_v2", "nobody"]}}, "unknown opponents ['nobody']"),
    ({"lineups": {"v2": ["heuristic_v2"]}}, "has 1 opponent(s) but the game has 3 seats"),
    ({"lineups": {"v2": ["heuristic_v2"] * 3}}, "has 3 opponent(s) but the game has 3 seats"),
    ({"min_games": 300}, "too few seeds: 2 seed(s) x 3 seatings = 6 games"),
    ({"seeds": {"first": 0, "count": 2}}, "overlap the seeds training uses"),
    ({"seeds": {"first": EVAL_SEEDS.stop - 1, "count": 2}}, "overlap the seeds training uses"),
    ({"seeds": {"first": 900_000}}, "seeds.count"),
    ({"candidate": None}, "no candidate"),
    ({"opponents": {"candidate": "random"}}, "the candidate's name"),
    ({"seed": 3}, "seed"),
])
def test_a_bad_config_is_refused_naming_the_key(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_suite(smoke_raw(**changes))
    assert words in str(err.value), str(err.value)


def test_the_command_line_names_a_bad_candidate(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--config", str(SMOKE), "--candidate", "no_such_agent", "--out", str(tmp_path)])
    assert done.value.code == 2
    assert "no_such_agent" in capsys.readouterr().err


def test_the_shipped_suites_have_300_games_a_line_up_on_reserved_seeds() -> None:
    suites = {p.stem: load_suite(p) for p in sorted(EVAL.glob("*.yaml"))}
    assert set(suites) >= {"agot_v2", "agot_v2_smoke", "wotr_heuristic"}
    for name, cfg in suites.items():
        assert set(cfg.seeds) <= set(EVAL_SEEDS), name
        if name != "agot_v2_smoke":
            assert len(cfg.seeds) * cfg.num_players >= 300, name
    assert len(suites["agot_v2"].seeds) == 100 and suites["agot_v2"].num_players == 3
    assert len(suites["wotr_heuristic"].seeds) == 150
    assert suites["wotr_heuristic"].num_players == 2


def test_the_candidate_comes_from_the_command_line(tmp_path: Path) -> None:
    cfg = load_suite(SMOKE, candidate={"name": "heuristic_v2", "kwargs": {"temperature": 0}},
                     out=tmp_path)
    assert cfg.candidate == {"name": "heuristic_v2", "kwargs": {"temperature": 0}}
    assert cfg.label.startswith("candidate-") and cfg.run_dir.parent == tmp_path / cfg.name
    assert load_suite(SMOKE, candidate="heuristic_v2").label == "heuristic_v2"


# -- paired seatings --------------------------------------------------------------------------
@pytest.mark.parametrize("config", ["agot_v2.yaml", "wotr_heuristic.yaml"])
def test_every_seed_is_played_once_with_the_candidate_in_every_seat(config: str) -> None:
    cfg = load_suite(EVAL / config)
    plan = paired_plan(cfg)
    n = cfg.num_players
    assert len(plan) == len(cfg.lineups) * len(cfg.seeds) * n
    assert len({s.key for s in plan}) == len(plan)
    for li in range(len(cfg.lineups)):
        for seed in cfg.seeds:
            games = [s for s in plan if s.lineup_index == li and s.seed == seed]
            seats = [s.houses[s.lineup.index(CANDIDATE)] for s in games]
            assert sorted(seats) == sorted(cfg.houses), (li, seed)
            # every agent's seed is its house's for the deal: the same draws whoever sits there
            by_house = {h: a for s in games for h, a in zip(s.houses, s.agent_seeds, strict=True)}
            assert all(dict(zip(s.houses, s.agent_seeds, strict=True)) == by_house for s in games)
    # the games of seed k are the line-up's games k*n .. k*n + n - 1: a prefix is whole seeds
    assert [s.seed for s in plan[:n]] == [cfg.seeds[0]] * n


# -- the figures -------------------------------------------------------------------------------
def record(cfg: Any, rotation: int, winner_seat: int | None, *, reason: str = "castles",
           draw: list[str] | None = None) -> dict[str, Any]:
    """A hand-made record of line-up 0 with the candidate at house ``rotation``; the seat
    ``winner_seat`` (0: the candidate) ranks first, or nobody wins when the game is cut."""
    n = cfg.num_players
    houses = [cfg.houses[(rotation + i) % n] for i in range(n)]
    order = list(range(n)) if winner_seat is None else \
        [winner_seat] + [i for i in range(n) if i != winner_seat]
    rec = {"lineup_index": 0, "game": rotation, "lineup": [CANDIDATE, "a", "b"][:n],
           "houses": houses, "seed": 900_000, "ranking": [houses[i] for i in order],
           "reason": reason, "seconds": 1.0}
    if draw:
        rec["draw"] = draw
    return rec


def test_win_rate_and_wilson_interval_against_hand_computed_values() -> None:
    cfg = load_suite(EVAL / "agot_v2.yaml")
    # 100 wins in 300 games: p = 1/3, z = 1.959964; centre (p + z^2/600) / (1 + z^2/300)
    # = 0.335440, half-width z sqrt(p(1-p)/300 + z^2/360000) / (1 + z^2/300) = 0.053047
    records = [record(cfg, g % 3, 0 if g < 100 else 1) for g in range(300)]
    t = lineup_figures(cfg, records)
    assert t["games"] == 300 and t["wins"] == 100 and t["win_rate"] == pytest.approx(1 / 3,
                                                                                     abs=1e-4)
    assert t["win_ci95"] == pytest.approx([0.2824, 0.3885], abs=1e-4)
    assert sum(s["games"] for s in t["by_seat"].values()) == 300
    assert {h: s["wins"] for h, s in t["by_seat"].items()} == {"stark": 34, "lannister": 33,
                                                               "baratheon": 33}
    assert t["complete_seeds"] == 0   # the hand-made records all claim one seed
    # a draw of k houses credits 1/k; a game cut at a limit credits nobody, and says who led
    drawn = record(cfg, 0, 0, draw=["stark", "lannister"])
    cut = record(cfg, 1, 0, reason="truncated")
    t = lineup_figures(cfg, [drawn, cut])
    assert t["wins"] == float(Fraction(1, 2)) and t["draws"] == 1
    assert t["truncated"] == 1 and t["ahead_when_truncated"] == 1
    assert t["win_ci95"][0] < 0.25 < t["win_ci95"][1]


# -- running, resuming, reproducing ------------------------------------------------------------
def test_a_resumed_suite_plays_only_the_missing_games_and_equals_one_run(tmp_path: Path) -> None:
    whole = load_suite(SMOKE, out=tmp_path / "whole")
    report = run_suite(whole, progress=False, log=quiet)
    assert (report.planned, report.played) == (6, 6)
    parts = load_suite(SMOKE, out=tmp_path / "parts")
    first = run_suite(parts, first_seeds=1, progress=False, log=quiet)
    assert (first.played, first.results["lineups"]["v2"]["games"]) == (3, 3)
    assert first.results["lineups"]["v2"]["complete_seeds"] == 1
    rest = run_suite(parts, progress=False, log=quiet)
    assert (rest.reused, rest.played) == (3, 3)
    again = run_suite(parts, progress=False, log=quiet)
    assert again.played == 0
    assert records_without_time(parts.run_dir) == records_without_time(whole.run_dir)
    timing = ("seconds_per_game", "candidate_seconds_per_game")
    summary = {k: v for k, v in report.results["lineups"]["v2"].items() if k not in timing}
    assert summary == {k: v for k, v in again.results["lineups"]["v2"].items()
                       if k not in timing}
    # the candidate's own seconds: a part of each game's
    recs = read_games(parts.run_dir / "games.jsonl")
    assert all(0 < sum(r["seat_seconds"].values()) <= r["seconds"] for r in recs)
    t = again.results["lineups"]["v2"]
    assert 0 <= t["candidate_seconds_per_game"] < t["seconds_per_game"]
    files = json.loads((parts.run_dir / "results.json").read_text())
    assert files["lineups"]["v2"]["games"] == 6
    assert "| v2 (heuristic_v2, heuristic_v2) | 6 |" in markdown_table(files)


def test_a_changed_config_is_refused_for_the_same_folder_naming_what_changed(
        tmp_path: Path) -> None:
    cfg = parse_suite(smoke_raw(out=str(tmp_path)))
    run_suite(cfg, first_seeds=1, progress=False, log=quiet)
    env = smoke_raw(out=str(tmp_path), env={"num_players": 3, "max_rounds": 3})
    with pytest.raises(ConfigError, match="env: was"):
        run_suite(parse_suite(env), progress=False, log=quiet)
    seeds = smoke_raw(out=str(tmp_path), seeds={"first": 999_000, "count": 3}, min_games=6)
    with pytest.raises(ConfigError, match="seeds: was"):
        run_suite(parse_suite(seeds), progress=False, log=quiet)
    other = smoke_raw(out=str(tmp_path), candidate="random",
                      opponents={"heuristic_v2": {"name": "heuristic_v2",
                                                  "kwargs": {"temperature": 0.5}}})
    with pytest.raises(ConfigError, match="opponents: was"):
        run_suite(parse_suite(other), progress=False, log=quiet)


def test_heuristics_in_worker_processes_replay_the_same_games_run_to_run(
        tmp_path: Path) -> None:
    """The suite run twice over 2 worker processes and once in this process gives the very same
    games (their final states' digests included), with heuristic_v2's seeded noise in play."""
    runs = []
    for i, workers in enumerate((2, 2, 1)):
        cfg = load_suite(SMOKE, candidate="heuristic_v2", out=tmp_path / str(i),
                         workers=workers)
        run_suite(cfg, progress=False, log=quiet)
        runs.append(records_without_time(cfg.run_dir))
    assert len(runs[0]) == 6 and all(r["digest"] for r in runs[0].values())
    assert runs[0] == runs[1] == runs[2]


def test_heuristic_v2_seats_in_the_batched_apis_workers_replay_the_same_games() -> None:
    """The other place heuristic_v2 plays in worker processes (the trainer's evaluation and
    rollouts, ``seats_in_workers``): its seats inside the batched API's shards, built per game
    from the game's seed (``agents.make_agent``, so that the workers need not import torch), the
    learner's seat played by a fixed rule, give the same finished games (digests) over 2 worker
    processes, twice, and in this process (3 games: the learner once at each seat)."""
    import numpy as np

    from agents import make_agent
    from boardkit.vector import VectorGames

    games, n, base = 3, 3, 900_500
    seats = [{h: "heuristic_v2" for h in range(n) if h != g % n} for g in range(games)]

    def digests(workers: int) -> list[str]:
        out: dict[int, str] = {}
        with VectorGames(games, n, seeds=base, num_workers=workers, game="got",
                         worker_seats=seats, agent_factory=make_agent, max_rounds=2) as vec:
            batch = vec.reset()
            while len(out) < games:
                batch = vec.step(np.argmax(batch.mask, axis=1))
                for g, finished in enumerate(batch.finished):
                    if finished is not None:
                        out.setdefault(g, finished.record.digest)
        return [out[g] for g in range(games)]

    first = digests(2)
    assert len(set(first)) == games
    assert digests(2) == first == digests(0)
