"""How much of the outcome the learned value explains on the held-out games, per round and
overall, beside the game's baseline predictors fitted on the same games as the network.

The explained variance of a predictor ŷ of the outcome y over rows is ``1 - Var(y - ŷ) /
Var(y)`` (PPO's diagnostic, issue 26's figure); R² ``1 - Σ(y - ŷ)² / Σ(y - ȳ)²`` is given
beside it (it also charges a constant bias). The baseline is a least-squares fit, with an
intercept, of the share of the win on the game's baseline features (its plugin's
``baseline_features``: AGoT's castle count; War of the Ring's points, Corruption, progress),
one fit per round bucket, on the training and validation games (everything the network's fit
read). A second baseline adds the seat (its player index, one-hot) to the features: a value
that only learned which seat wins more often beats the first, not the second. Each
difference's 95% interval is a bootstrap over the held-out games (resampled whole, since one
game's rows move together).
"""

from __future__ import annotations

import dataclasses
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


def with_seat(rows: Rows, seats: int) -> Rows:
    """``rows`` with the seat's player index, one-hot over ``seats``, added to the baseline
    features: the second baseline, which also knows that some seats win more often than others
    (AGoT's houses under the same heuristic) whatever their castles."""
    onehot = np.eye(seats, dtype=np.float32)[rows.players]
    return dataclasses.replace(rows, features=np.column_stack([rows.features, onehot]))


def _interval(values: list[float]) -> list[float]:
    if len(values) < 2:
        return [float("nan"), float("nan")]
    lo, hi = np.nanpercentile(values, [2.5, 97.5])
    return [float(lo), float(hi)]


def compare(y: np.ndarray, predictions: dict[str, np.ndarray], games_of: np.ndarray,
            seed: int) -> dict:
    """Each predictor's EV and R² over these rows (``predictions``: name -> prediction, the
    network's first as ``value``), and for each other one the EV difference ``value - other``
    with its bootstrap 95% interval over the rows' games."""
    out: dict = {"rows": int(len(y)), "games": int(np.unique(games_of).size)}
    for name, pred in predictions.items():
        out[f"ev_{name}"] = explained_variance(y, pred)
        out[f"r2_{name}"] = r_squared(y, pred)
    ids, back = np.unique(games_of, return_inverse=True)
    members = [np.flatnonzero(back == i) for i in range(len(ids))]
    gen = np.random.default_rng(seed)
    others = [n for n in predictions if n != "value"]
    diffs: dict[str, list[float]] = {n: [] for n in others}
    for _ in range(RESAMPLES if len(ids) > 1 else 0):
        rows = np.concatenate([members[i] for i in gen.integers(0, len(ids), len(ids))])
        ev = explained_variance(y[rows], predictions["value"][rows])
        for n in others:
            diffs[n].append(ev - explained_variance(y[rows], predictions[n][rows]))
    for n in others:
        out[f"ev_value_minus_{n}"] = out["ev_value"] - out[f"ev_{n}"]
        out[f"ev_value_minus_{n}_95"] = _interval(diffs[n])
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
    seats = int(rows.players.max()) + 1
    predictions = {"value": value_predictions(cfg, held),
                   "baseline": baseline_predictions(fitted, fit_keys, held, keys),
                   "baseline_seat": baseline_predictions(with_seat(fitted, seats), fit_keys,
                                                         with_seat(held, seats), keys)}
    present = np.unique(keys)
    names = bucket_names(present, buckets, int(held.rounds.max()))
    per = [{"rounds": name, **compare(y[keys == k], {n: p[keys == k]
                                                     for n, p in predictions.items()},
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
            "overall": compare(y, predictions, held.games, cfg.fit.seed), "per_round": per}


def _cell(x: float) -> str:
    return "n/a" if np.isnan(x) else f"{x:.3f}"


def _difference(f: dict, other: str) -> str:
    lo, hi = f[f"ev_value_minus_{other}_95"]
    return f"{_cell(f[f'ev_value_minus_{other}'])} [{_cell(lo)}, {_cell(hi)}]"


def table(figures: dict) -> str:
    """The report as a Markdown table, one line per round bucket and one overall."""
    lines = [f"{figures['game']}: {figures['held_out_games']} held-out games of "
             f"{figures['games']} (seeds {figures['first_seed']}+, {figures['agents']}; "
             f"{figures['truncated_games']} cut at the limit); baseline: "
             f"{', '.join(figures['baseline_features'])}; baseline+seat: the same and the "
             f"seat", "",
             "| round | rows | EV value | EV baseline | value - baseline [95%] | "
             "EV baseline+seat | value - baseline+seat [95%] | R² value | R² baseline |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, f in [*((p["rounds"], p) for p in figures["per_round"]),
                    ("all", figures["overall"])]:
        lines.append(f"| {name} | {f['rows']} | {_cell(f['ev_value'])} | "
                     f"{_cell(f['ev_baseline'])} | {_difference(f, 'baseline')} | "
                     f"{_cell(f['ev_baseline_seat'])} | {_difference(f, 'baseline_seat')} | "
                     f"{_cell(f['r2_value'])} | {_cell(f['r2_baseline'])} |")
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
