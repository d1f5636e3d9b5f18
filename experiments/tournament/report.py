"""A tournament's results from its game records: the statistics (experiments.ratings) per
agent, house and line-up, written as results.json, results.csv and the plots, and printed as a
table."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..ratings import agent_wins, as_number, summarize
from .config import Config


def compute_results(cfg: Config, records: list[dict[str, Any]]) -> dict[str, Any]:
    """Every statistic, from game records of this config's plan (in plan order)."""
    stats = summarize(records, cfg.agent_names, cfg.houses)
    lineups = []
    for li, lu in enumerate(cfg.lineups):
        recs = [r for r in records if r["lineup_index"] == li]
        wins = {a: as_number(sum(agent_wins(r, a) for r in recs)) for a in dict.fromkeys(lu)}
        lineups.append({"lineup": list(lu), "games": len(recs), "wins": wins})
    return {"name": cfg.name, "num_players": cfg.num_players, "games": stats["games"],
            "games_per_lineup": cfg.games, "env": cfg.env,
            "agent_specs": {a: cfg.agents[a] for a in cfg.agent_names},
            "rating_model": "openskill PlackettLuce (mu 25, sigma 25/3) over each game's final "
                            "ranking, games in plan order (game index, then line-up)",
            "agents": stats["agents"], "houses": stats["houses"], "lineups": lineups}


CSV_FIELDS = ("kind", "agent", "house", "seats", "wins", "win_rate", "win_ci95_low",
              "win_ci95_high", "avg_castles", "avg_rank", "mu", "sigma", "ordinal")


def csv_rows(results: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Long format: one row per agent, per house and per agent at each house."""
    def row(kind: str, agent: str, house: str, t: dict[str, Any]) -> dict[str, Any]:
        r = {"kind": kind, "agent": agent, "house": house,
             "seats": t.get("seats", t.get("games")), "wins": t["wins"],
             "win_rate": t["win_rate"], "win_ci95_low": t["win_ci95"][0],
             "win_ci95_high": t["win_ci95"][1], "avg_castles": t["avg_castles"],
             "avg_rank": t["avg_rank"], "mu": "", "sigma": "", "ordinal": ""}
        if "rating" in t:
            r.update({k: t["rating"][k] for k in ("mu", "sigma", "ordinal")})
        return r

    for a, t in results["agents"].items():
        yield row("agent", a, "", t)
    for h, t in results["houses"].items():
        yield row("house", "", h, t)
    for a, t in results["agents"].items():
        for h, cell in t["by_house"].items():
            yield row("agent_house", a, h, cell)


def write_results(cfg: Config, results: dict[str, Any]) -> list[Path]:
    from .plots import save_plots  # matplotlib: only when the outputs are written

    run_dir = cfg.run_dir
    (run_dir / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    with open(run_dir / "results.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        w.writerows(csv_rows(results))
    plots = save_plots(results, run_dir)
    return [run_dir / "results.json", run_dir / "results.csv", *plots]


def format_table(results: dict[str, Any]) -> str:
    lines = [f"{'agent':<16}{'seats':>6}{'wins':>6}  {'win rate [95% CI]':<22}{'castles':>8}"
             f"{'rank':>6}  {'mu ± sigma':<14}"]
    for a, t in results["agents"].items():
        lo, hi = t["win_ci95"]
        rate = f"{t['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]" if t["seats"] else "-"
        rt = t["rating"]
        lines.append(f"{a:<16}{t['seats']:>6}{t['wins']:>6g}  {rate:<22}"
                     f"{(t['avg_castles'] or 0):>8.2f}{(t['avg_rank'] or 0):>6.2f}  "
                     f"{rt['mu']:.2f} ± {rt['sigma']:.2f}")
    lines.append(f"{'house':<16}{'games':>6}{'wins':>6}  {'win rate [95% CI]':<22}{'castles':>8}"
                 f"{'rank':>6}")
    for h, t in results["houses"].items():
        lo, hi = t["win_ci95"]
        rate = f"{t['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]" if t["games"] else "-"
        lines.append(f"{h:<16}{t['games']:>6}{t['wins']:>6g}  {rate:<22}"
                     f"{(t['avg_castles'] or 0):>8.2f}{(t['avg_rank'] or 0):>6.2f}")
    return "\n".join(lines)
