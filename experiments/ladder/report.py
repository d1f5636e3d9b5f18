"""The ladder's files: ladder.json, pairwise.csv, rungs.csv, lengths.csv and ladder.md (Markdown
tables ready to paste in the README), and the plots (experiments.ladder.plots)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from .. import game_hooks
from .config import LadderConfig


def _rate(cell: dict[str, Any] | None) -> str:
    if not cell or not cell.get("games", cell.get("seats")):
        return "-"
    lo, hi = cell["win_ci95"]
    return f"{cell['win_rate']:.2f} [{lo:.2f}, {hi:.2f}]"


def _num(x: Any, fmt: str = ".2f") -> str:
    return "-" if x is None else format(x, fmt)


def _write_csv(path: Path, fields: list[str], rows: list[dict[str, Any]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def pairwise_rows(res: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for row, cols in res["pairwise"].items():
        for col, c in cols.items():
            if c is not None:
                rows.append({"rung": row, "opponent": col, "games": c["games"], "wins": c["wins"],
                             "win_rate": c["win_rate"], "win_ci95_low": c["win_ci95"][0],
                             "win_ci95_high": c["win_ci95"][1], "score": c["score"]})
    return rows


def rung_rows(res: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for a in res["order"]:
        t = res["rungs"][a]
        for house, cell in [("", t), *t["by_house"].items()]:
            r = {"rung": a, "house": house, "seats": cell["seats"], "wins": cell["wins"],
                 "win_rate": cell["win_rate"], "win_ci95_low": cell["win_ci95"][0],
                 "win_ci95_high": cell["win_ci95"][1], "score": cell["score"],
                 "avg_castles": cell["avg_castles"], "avg_rank": cell["avg_rank"],
                 "mu": "", "sigma": "", "ordinal": ""}
            if not house:
                r.update({k: t["rating"][k] for k in ("mu", "sigma", "ordinal")})
            rows.append(r)
    return rows


def length_rows(res: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for m, s in [*((m, s["lengths"]) for m, s in res["matches"].items()), ("all", res["lengths"])]:
        r = {"match": m, **{k: v for k, v in s.items()
                            if k not in ("rounds_hist", "castles_hist", "endings")}}
        r.update({f"ended_{e}": k for e, k in s["endings"].items()})
        r.update({f"round_{k}": v for k, v in s["rounds_hist"].items()})
        rows.append(r)
    return rows


def markdown(cfg: LadderConfig, res: dict[str, Any], footer: str = "") -> str:
    n = res["num_players"]
    rungs = cfg.rung_names
    out = [f"## Strength ladder ({cfg.name})", "",
           f"{n} players (env {json.dumps(cfg.env)}), houses rotated; every pair of rungs "
           f"plays the line-ups [A, {', '.join(['B'] * (n - 1))}] and "
           f"[B, {', '.join(['A'] * (n - 1))}]; {res['games']} games in all. Rungs:", ""]
    for r in cfg.rungs:
        out.append(f"- `{r.name}`: `{json.dumps(r.spec)}`")
    for r, why in cfg.skipped:
        out.append(f"- `{r}`: not played ({why})")
    if cfg.only:
        out.append(f"- restricted to {', '.join(cfg.only)} (--only)")
    out += ["", "**Ratings** (openskill Plackett-Luce over every game; ordinal = mu - 3 sigma; "
            f"score = wins / the 1/{n} seat share):", "",
            "| rank | rung | seats | wins | win rate [95% CI] | score | mu ± sigma | ordinal |",
            "|---|---|---|---|---|---|---|---|"]
    for i, a in enumerate(res["order"], 1):
        t = res["rungs"][a]
        rt = t["rating"]
        out.append(f"| {i} | {a} | {t['seats']} | {t['wins']} | {_rate(t)} | "
                   f"{_num(t['score'])} | {rt['mu']:.1f} ± {rt['sigma']:.1f} | "
                   f"{rt['ordinal']:.1f} |")
    out += ["", f"**Pairwise**: the row rung alone against {n - 1} of the column rung: win rate "
            f"[95% Wilson CI] and score (win rate / (1/{n}); 1 = parity):", "",
            "| rung \\ against | " + " | ".join(rungs) + " |",
            "|---|" + "---|" * len(rungs)]
    for row in rungs:
        cells = []
        for col in rungs:
            c = res["pairwise"][row][col]
            cells.append("" if c is None else f"{_rate(c)} ×{_num(c['score'])} (n={c['games']})")
        out.append(f"| {row} | " + " | ".join(cells) + " |")
    houses = res["houses"]
    out += ["", "**Per house**: each rung's win rate at each house, all its games:", "",
            "| rung | " + " | ".join(houses) + " |", "|---|" + "---|" * len(houses)]
    for a in res["order"]:
        bh = res["rungs"][a]["by_house"]
        out.append(f"| {a} | " + " | ".join(f"{_rate(bh[h])} (n={bh[h]['seats']})"
                                            for h in houses) + " |")
    ends = game_hooks.endings(cfg.game) or {e: e for e in res["lengths"]["endings"]}
    out += ["", "**Game lengths and endings** per match (final round; seconds per game of the "
            "playing process):", "",
            "| match | games | round mean | median | min-max | "
            + "".join(f"{label} | " for label in ends.values()) + "s/game |",
            "|---|---|---|---|---|" + "---|" * len(ends) + "---|"]
    for m, s in [*((m, s["lengths"]) for m, s in res["matches"].items()), ("all", res["lengths"])]:
        e = s["endings"]
        rng = "-" if s["rounds_min"] is None else f"{s['rounds_min']}-{s['rounds_max']}"
        out.append(f"| {m.replace('__', ' vs ')} | {s['games']} | {_num(s['rounds_mean'])} | "
                   f"{_num(s['rounds_median'], 'g')} | {rng} | "
                   + "".join(f"{e.get(reason, 0)} | " for reason in ends)
                   + f"{_num(s['seconds_mean'])} |")
    hist = res["lengths"]["rounds_hist"]
    out += ["", "Final round, all games: " + ", ".join(f"{k}: {v}" for k, v in hist.items() if v)]
    out += ["", "![ratings](ratings.png) ![pairwise](pairwise.png) ![game lengths](lengths.png)",
            "", f"({footer})" if footer else "", ""]
    return "\n".join(out)


def write_outputs(cfg: LadderConfig, res: dict[str, Any], footer: str = "") -> list[Path]:
    from .plots import save_plots  # matplotlib: only when the outputs are written

    d = cfg.run_dir
    doc = {**res, "config": cfg.as_dict(), "notes": list(cfg.notes),
           "skipped": [{"rung": r, "why": w} for r, w in cfg.skipped]}
    (d / "ladder.json").write_text(json.dumps(doc, indent=2) + "\n")
    tables = {"pairwise.csv": pairwise_rows(res), "rungs.csv": rung_rows(res),
              "lengths.csv": length_rows(res)}
    for fname, rows in tables.items():
        _write_csv(d / fname, list(rows[0]) if rows else ["rung"], rows)
    (d / "ladder.md").write_text(markdown(cfg, res, footer))
    return [d / "ladder.json", *(d / f for f in tables), d / "ladder.md", *save_plots(res, d)]
