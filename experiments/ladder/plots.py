"""The ladder's pictures (matplotlib, Agg): ratings with intervals (the tournament's picture,
experiments.tournament.plots), the pairwise heat map, and the final round of the games per
match."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402

from ..tournament.plots import plot_ratings, write_plots  # noqa: E402


def _num(x: Any) -> str:
    return "-" if x is None else f"{x:g}"


def plot_rung_ratings(res: dict[str, Any], path: Path) -> None:
    """The rungs' ratings, in the ladder's order."""
    plot_ratings({a: res["rungs"][a]["rating"] for a in res["order"]},
                 f"{res['name']}: ratings over {res['games']} games", path)


def plot_pairwise(res: dict[str, Any], path: Path) -> None:
    rungs = list(res["pairwise"])
    n = res["num_players"]
    grid = np.full((len(rungs), len(rungs)), np.nan)
    fig, ax = plt.subplots(figsize=(1.6 * len(rungs) + 3, 1.1 * len(rungs) + 2))
    for i, row in enumerate(rungs):
        for j, col in enumerate(rungs):
            c = res["pairwise"][row][col]
            if c is None or not c["games"]:
                continue
            grid[i, j] = c["score"]
            lo, hi = c["win_ci95"]
            dark = c["score"] < 0.35 or c["score"] > 1 + 0.65 * (n - 1)
            ax.text(j, i, f"{c['win_rate']:.2f}\n[{lo:.2f}, {hi:.2f}]\nn={c['games']}",
                    ha="center", va="center", fontsize=8, color="white" if dark else "black")
    im = ax.imshow(grid, cmap="RdBu", norm=TwoSlopeNorm(vmin=0, vcenter=1, vmax=n),
                   aspect="auto")
    ax.set_xticks(range(len(rungs)), rungs, rotation=20, ha="right")
    ax.set_yticks(range(len(rungs)), rungs)
    ax.set_xlabel(f"against {n - 1} of")
    ax.set_ylabel("rung (alone)")
    fig.colorbar(im, ax=ax, fraction=0.046, label=f"score: win rate / (1/{n})")
    ax.set_title(f"{res['name']}: win rate alone against the column rung")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_lengths(res: dict[str, Any], path: Path) -> None:
    matches = list(res["matches"])
    cols = min(len(matches), 3) or 1
    rows = math.ceil(len(matches) / cols) or 1
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 2.8 * rows), squeeze=False,
                             sharex=True)
    for ax in axes.flat[len(matches):]:
        ax.set_visible(False)
    for ax, m in zip(axes.flat, matches, strict=False):
        s = res["matches"][m]["lengths"]
        ks = [int(k) for k in s["rounds_hist"]]
        e = s["endings"]
        if "seven-castles" in e:   # AGoT (its tournament hooks): its two endings stacked
            castles = np.array(list(s["castles_hist"].values()))
            other = np.array(list(s["rounds_hist"].values())) - castles
            ax.bar(ks, castles, color="tab:purple", alpha=0.85, label="7 castles")
            ax.bar(ks, other, bottom=castles, color="tab:grey", alpha=0.7, label="last round")
            ax.set_title(f"{m.replace('__', ' vs ')}\nmedian {_num(s['rounds_median'])}, "
                         f"7 castles {e.get('seven-castles', 0)}/{s['games']}", fontsize=9)
        else:                      # another game: the games per final round
            ax.bar(ks, list(s["rounds_hist"].values()), color="tab:grey", alpha=0.7,
                   label="games")
            ax.set_title(f"{m.replace('__', ' vs ')}\nmedian {_num(s['rounds_median'])}",
                         fontsize=9)
        ax.set_xticks(ks)
    axes.flat[0].legend(loc="upper left", fontsize=7)
    for ax in axes[-1]:
        ax.set_xlabel("final round")
    for ax in axes[:, 0]:
        ax.set_ylabel("games")
    fig.suptitle(f"{res['name']}: game lengths")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


PLOTS = {"ratings.png": plot_rung_ratings, "pairwise.png": plot_pairwise,
         "lengths.png": plot_lengths}


def save_plots(res: dict[str, Any], run_dir: Path) -> list[Path]:
    """Write every plot of a ladder into ``run_dir``; returns the paths."""
    return write_plots(PLOTS, res, run_dir)
