"""How much of the outcome the learned value explains on the held-out games, per round and
overall, beside the game's baseline predictor fitted on the same games as the network.

The explained variance of a predictor ŷ of the outcome y over rows is ``1 - Var(y - ŷ) /
Var(y)`` (PPO's diagnostic, issue 26's figure); R² ``1 - Σ(y - ŷ)² / Σ(y - ȳ)²`` is given
beside it (it also charges a constant bias). The baseline is a least-squares fit, with an
intercept, of the share of the win on the game's baseline features (its plugin's
``baseline_features``: AGoT's castle count; War of the Ring's points, Corruption, progress),
one fit per round bucket, on the training and validation games (everything the network's fit
read). The difference's 95% interval is a bootstrap over the held-out games (resampled whole,
since one game's rows move together).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from agents.value import load_value
from boardkit import games

from .config import ValueConfig
from .data import Rows, load_rows
from .split import HELD_OUT, game_parts

#: Bootstrap resamples of the held-out games for the difference's interval.
RESAMPLES = 1000
#: Rows predicted at a time.
BLOCK = 4096


def explained_variance(y: np.ndarray, pred: np.ndarray) -> float:
    """``1 - Var(y - pred) / Var(y)``; NaN when ``y`` does not vary."""
    var = float(np.var(y))
    return float("nan") if var == 0 else 1.0 - float(np.var(y - pred)) / var


def r_squared(y: np.ndarray, pred: np.ndarray) -> float:
    """``1 - Σ(y - pred)² / Σ(y - mean y)²``; NaN when ``y`` does not vary."""
    total = float(((y - y.mean()) ** 2).sum())
    return float("nan") if total == 0 else 1.0 - float(((y - pred) ** 2).sum()) / total


def bucket_of(rounds: np.ndarray, buckets: Sequence[int] | None) -> np.ndarray:
    """Each row's bucket: the index of the last first-round at or below its round (rounds
    before the first bucket go to it); ``None``: the rounds themselves."""
    if buckets is None:
        return rounds.astype(np.int64)
    return np.maximum(np.searchsorted(np.asarray(buckets), rounds, side="right") - 1, 0)


def bucket_names(keys: np.ndarray, buckets: Sequence[int] | None, top: int) -> list[str]:
    """``"3"``, ``"3-4"``, ``"9+"``: the rounds each bucket key holds."""
    if buckets is None:
        return [str(int(k)) for k in keys]
    names = []
    for k in keys:
        lo = buckets[k]
        hi = buckets[k + 1] - 1 if k + 1 < len(buckets) else None
        names.append(str(lo) if hi == lo else f"{lo}-{hi}" if hi is not None else
                     (f"{lo}+" if top > lo else str(lo)))
    return names


def linear_fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares weights of ``y`` on ``x`` with an intercept (the last weight)."""
    a = np.column_stack([x, np.ones(len(x))])
    return np.linalg.lstsq(a, y, rcond=None)[0]


def baseline_predictions(fit_rows: Rows, fit_keys: np.ndarray, rows: Rows,
                         keys: np.ndarray) -> np.ndarray:
    """The baseline's prediction of each of ``rows``: the linear fit of its bucket on
    ``fit_rows`` (a bucket with no fitting row: the fitting rows' mean)."""
    pred = np.full(len(rows), float(fit_rows.targets.mean()))
    for k in np.unique(keys):
        here, there = keys == k, fit_keys == k
        if there.any():
            w = linear_fit(fit_rows.features[there].astype(np.float64),
                           fit_rows.targets[there].astype(np.float64))
            pred[here] = np.column_stack([rows.features[here], np.ones(here.sum())]) @ w
    return pred


def value_predictions(cfg: ValueConfig, rows: Rows) -> np.ndarray:
    value = load_value(cfg.checkpoint_path, game=cfg.game, obs_size=rows.obs.shape[1],
                       device=cfg.fit.device)
    return np.concatenate([value(rows.obs[at:at + BLOCK]) for at in range(0, len(rows), BLOCK)]
                          ).astype(np.float64)


def compare(y: np.ndarray, net: np.ndarray, base: np.ndarray, games_of: np.ndarray,
            seed: int) -> dict:
    """The network's and the baseline's EV and R² over these rows, and the bootstrap 95%
    interval of the EV difference (network - baseline) over their games."""
    out = {"rows": int(len(y)), "games": int(np.unique(games_of).size),
           "ev_value": explained_variance(y, net), "ev_baseline": explained_variance(y, base),
           "r2_value": r_squared(y, net), "r2_baseline": r_squared(y, base)}
    out["ev_difference"] = out["ev_value"] - out["ev_baseline"]
    ids, back = np.unique(games_of, return_inverse=True)
    members = [np.flatnonzero(back == i) for i in range(len(ids))]
    gen = np.random.default_rng(seed)
    diffs = []
    for _ in range(RESAMPLES):
        rows = np.concatenate([members[i] for i in gen.integers(0, len(ids), len(ids))])
        diffs.append(explained_variance(y[rows], net[rows])
                     - explained_variance(y[rows], base[rows]))
    lo, hi = np.nanpercentile(diffs, [2.5, 97.5]) if len(ids) > 1 else (np.nan, np.nan)
    out["ev_difference_95"] = [float(lo), float(hi)]
    return out


def measure(cfg: ValueConfig, rows: Rows) -> dict:
    """The report's figures (plain data) from ``rows`` (all games' rows)."""
    part = game_parts(rows.games, cfg.fit.validation, cfg.fit.holdout, cfg.fit.seed)
    held, fitted = rows.take(np.flatnonzero(part == HELD_OUT)), rows.take(
        np.flatnonzero(part != HELD_OUT))
    if not len(held):
        raise ValueError(f"report: no held-out game among {cfg.data.games} (fit.holdout "
                         f"{cfg.fit.holdout}): record more games")
    buckets = cfg.report.buckets
    keys, fit_keys = bucket_of(held.rounds, buckets), bucket_of(fitted.rounds, buckets)
    y = held.targets.astype(np.float64)
    net = value_predictions(cfg, held)
    base = baseline_predictions(fitted, fit_keys, held, keys)
    present = np.unique(keys)
    names = bucket_names(present, buckets, int(held.rounds.max()))
    per = [{"rounds": name, **compare(y[keys == k], net[keys == k], base[keys == k],
                                      held.games[keys == k], cfg.fit.seed)}
           for k, name in zip(present, names, strict=True)]
    return {"game": cfg.game, "games": cfg.data.games,
            "held_out_games": int(np.unique(held.games).size),
            "fitted_games": int(np.unique(fitted.games).size),
            "first_seed": cfg.data.first_seed, "agents": list(cfg.agent_specs()),
            "baseline_features": list(games.plugin(cfg.game).hook("value",
                                                                  "BASELINE_FEATURES")),
            "truncated_games": int(np.unique(rows.games[~rows.ended]).size),
            "checkpoint": str(cfg.checkpoint_path),
            "overall": compare(y, net, base, held.games, cfg.fit.seed), "per_round": per}


def _cell(x: float) -> str:
    return "n/a" if np.isnan(x) else f"{x:.3f}"


def table(figures: dict) -> str:
    """The report as a Markdown table, one line per round bucket and one overall."""
    lines = [f"{figures['game']}: {figures['held_out_games']} held-out games of "
             f"{figures['games']} (seeds {figures['first_seed']}+, {figures['agents']}; "
             f"{figures['truncated_games']} cut at the limit); baseline: "
             f"{', '.join(figures['baseline_features'])}", "",
             "| round | rows | EV value | EV baseline | difference [95%] | R² value | "
             "R² baseline |", "|---|---|---|---|---|---|---|"]
    for name, f in [*((p["rounds"], p) for p in figures["per_round"]),
                    ("all", figures["overall"])]:
        lo, hi = f["ev_difference_95"]
        lines.append(f"| {name} | {f['rows']} | {_cell(f['ev_value'])} | "
                     f"{_cell(f['ev_baseline'])} | {_cell(f['ev_difference'])} "
                     f"[{_cell(lo)}, {_cell(hi)}] | {_cell(f['r2_value'])} | "
                     f"{_cell(f['r2_baseline'])} |")
    return "\n".join(lines)


def report(cfg: ValueConfig) -> str:
    """Measure the saved value on the held-out games; write ``report.json`` and ``report.md``
    in the run folder; the table."""
    figures = measure(cfg, load_rows(cfg))
    cfg.run_dir.mkdir(parents=True, exist_ok=True)
    (cfg.run_dir / "report.json").write_text(json.dumps(figures, indent=1) + "\n")
    text = table(figures)
    (cfg.run_dir / "report.md").write_text(text + "\n")
    return text
