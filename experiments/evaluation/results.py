"""The suite's figures from its game records: per line-up the candidate's games, wins (a draw's
share; a game cut off at a limit credits no win, as experiments.ratings reads it), win rate with
its 95% Wilson interval, the same per seat, and seconds a game; written as results.json and a
markdown table. Seconds a game: the whole game's, and the candidate's own (its ``act`` calls:
the records' ``seat_seconds``)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from statistics import mean
from typing import Any

from ..ratings import as_number, seat_credits, wilson
from .config import CANDIDATE, SuiteConfig


def _rate(wins: Fraction, games: int) -> dict[str, Any]:
    lo, hi = wilson(float(wins), games)
    return {"games": games, "wins": as_number(wins),
            "win_rate": round(float(wins) / games, 4) if games else None,
            "win_ci95": [round(lo, 4), round(hi, 4)]}


def candidate_credit(record: dict[str, Any]) -> Fraction:
    """The candidate's win credit in one game (1, a draw's 1/k, or 0)."""
    return seat_credits(record)[record["lineup"].index(CANDIDATE)]


def lineup_figures(cfg: SuiteConfig, records: list[dict[str, Any]]) -> dict[str, Any]:
    """One line-up's figures from its records (any subset of its games: a run cut short)."""
    seat: dict[str, list[Fraction]] = {h: [] for h in cfg.houses}
    truncated = ahead = draws = 0
    for rec in records:
        house = rec["houses"][rec["lineup"].index(CANDIDATE)]
        seat[house].append(candidate_credit(rec))
        if rec["reason"] == "truncated":
            truncated += 1
            ahead += rec["ranking"][0] == house
        draws += bool(rec.get("draw"))
    seeds = {}
    for rec in records:
        seeds[rec["seed"]] = seeds.get(rec["seed"], 0) + 1
    timed = [r["seat_seconds"][r["houses"][r["lineup"].index(CANDIDATE)]]
             for r in records if "seat_seconds" in r]
    wins = sum((c for cs in seat.values() for c in cs), Fraction(0))
    return {**_rate(wins, len(records)),
            "by_seat": {h: _rate(sum(cs, Fraction(0)), len(cs)) for h, cs in seat.items()},
            "complete_seeds": sum(c == cfg.num_players for c in seeds.values()),
            "truncated": truncated, "ahead_when_truncated": ahead, "draws": draws,
            "seconds_per_game": round(mean(r["seconds"] for r in records), 3)
            if records else None,
            "candidate_seconds_per_game": round(mean(timed), 3) if timed else None}


def suite_results(cfg: SuiteConfig, records: list[dict[str, Any]]) -> dict[str, Any]:
    """Every line-up's figures (records of the plan, in any order)."""
    return {"suite": cfg.name, "game": cfg.game, "candidate": cfg.candidate,
            "label": cfg.label, "env": cfg.env, "seeds": [cfg.seeds[0], cfg.seeds[-1]],
            "seatings": cfg.num_players, "games_planned": len(cfg.seeds) * cfg.num_players,
            "lineups": {name: {"opponents": list(opps), **lineup_figures(
                cfg, [r for r in records if r["lineup_index"] == li])}
                for li, (name, opps) in enumerate(cfg.lineups.items())}}


def markdown_table(results: dict[str, Any]) -> str:
    """The line-ups as a markdown table: one row each, per-seat rates in one cell."""
    lines = [f"Suite `{results['suite']}` ({results['game']}), candidate `{results['label']}`: "
             f"seeds {results['seeds'][0]}-{results['seeds'][1]}, {results['seatings']} "
             f"seatings each, {results['games_planned']} games a line-up planned.", "",
             "| line-up | games | wins | win rate [95% CI] | by seat | truncated (ahead) | "
             "s/game (candidate's) |", "|---|---|---|---|---|---|---|"]
    for name, t in results["lineups"].items():
        rate = "-" if not t["games"] else \
            f"{t['win_rate']:.3f} [{t['win_ci95'][0]:.3f}, {t['win_ci95'][1]:.3f}]"
        seats = ", ".join(f"{h} {s['wins']:g}/{s['games']}" for h, s in t["by_seat"].items())
        secs = "-" if t["seconds_per_game"] is None else f"{t['seconds_per_game']:.2f}"
        if t["candidate_seconds_per_game"] is not None:
            secs += f" ({t['candidate_seconds_per_game']:.2f})"
        lines.append(f"| {name} ({', '.join(t['opponents'])}) | {t['games']} | {t['wins']:g} | "
                     f"{rate} | {seats} | {t['truncated']} ({t['ahead_when_truncated']}) | "
                     f"{secs} |")
    return "\n".join(lines)


def write_results(run_dir: Path, results: dict[str, Any]) -> list[Path]:
    (run_dir / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (run_dir / "results.md").write_text(markdown_table(results) + "\n")
    return [run_dir / "results.json", run_dir / "results.md"]
