"""The pictures of a tournament's results (matplotlib, Agg backend): win rates per agent with
95 % Wilson intervals, openskill ratings per agent (:func:`plot_ratings`, which the ladder
draws its ratings with too), win rates per house."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def _rate_bars(ax: Any, names: list[str], rows: list[dict[str, Any]], chance: float,
               color: str) -> None:
    rates = np.array([r["win_rate"] or 0.0 for r in rows])
    lo = np.array([r["win_ci95"][0] for r in rows])
    hi = np.array([r["win_ci95"][1] for r in rows])
    x = np.arange(len(names))
    ax.bar(x, rates, color=color, alpha=0.8)
    yerr = np.clip([rates - lo, hi - rates], 0, None)
    ax.errorbar(x, rates, yerr=yerr, fmt="none", ecolor="black", capsize=4)
    ax.axhline(chance, color="grey", linestyle="--", linewidth=1,
               label=f"chance 1/{round(1 / chance)}")
    labels = [f"{name}\n{r['wins']}/{r.get('seats', r.get('games'))}"
              for name, r in zip(names, rows, strict=True)]
    ax.set_xticks(x, labels)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95 % Wilson CI)")
    ax.legend(loc="upper right", fontsize=8)


def plot_win_rates(results: dict[str, Any], path: Path) -> None:
    agents = list(results["agents"])
    fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(agents) + 2), 4))
    _rate_bars(ax, agents, [results["agents"][a] for a in agents],
               1.0 / results["num_players"], "tab:blue")
    ax.set_title(f"{results['name']}: win rate per agent ({results['games']} games)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


#: The normal quantile of a 95 % interval, for the ratings' mu +- 1.96 sigma bars.
Z95 = 1.959963984540054


def plot_ratings(ratings: dict[str, dict[str, float]], title: str, path: Path) -> None:
    """Openskill ratings as bars of mu with 95 % intervals (mu +- 1.96 sigma), in the order of
    ``ratings`` (name -> {mu, sigma}): the tournament's and the ladder's ratings picture."""
    names = list(ratings)
    mu = np.array([ratings[a]["mu"] for a in names])
    sigma = np.array([ratings[a]["sigma"] for a in names])
    fig, ax = plt.subplots(figsize=(max(4.5, 1.3 * len(names) + 2), 4))
    x = np.arange(len(names))
    ax.bar(x, mu, color="tab:green", alpha=0.75)
    ax.errorbar(x, mu, yerr=Z95 * sigma, fmt="none", ecolor="black", capsize=5)
    for xi, m, s in zip(x, mu, sigma, strict=True):
        ax.annotate(f"{m:.1f}±{s:.1f}", (xi, m + Z95 * s), textcoords="offset points",
                    xytext=(0, 3), ha="center", fontsize=8)
    ax.axhline(25.0, color="grey", linestyle="--", linewidth=1, label="initial mu 25")
    ax.set_xticks(x, names, rotation=15, ha="right")
    ax.set_ylabel("openskill mu (bars: ± 1.96 sigma)")
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_agent_ratings(results: dict[str, Any], path: Path) -> None:
    """The tournament's agents, best first."""
    agents = sorted(results["agents"], key=lambda a: -results["agents"][a]["rating"]["mu"])
    plot_ratings({a: results["agents"][a]["rating"] for a in agents},
                 f"{results['name']}: ratings", path)


def plot_houses(results: dict[str, Any], path: Path) -> None:
    houses = list(results["houses"])
    agents = list(results["agents"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(max(8.0, 2.2 * len(houses) + 4), 4),
                                      gridspec_kw={"width_ratios": [1, 1.2]})
    _rate_bars(left, houses, [results["houses"][h] for h in houses],
               1.0 / results["num_players"], "tab:orange")
    left.set_title("win rate per house (all agents)")
    grid = np.full((len(agents), len(houses)), np.nan)
    for i, a in enumerate(agents):
        for j, h in enumerate(houses):
            cell = results["agents"][a]["by_house"][h]
            if cell["seats"]:
                grid[i, j] = cell["win_rate"]
                right.text(j, i, f"{cell['wins']}/{cell['seats']}", ha="center", va="center",
                           fontsize=8, color="white" if cell["win_rate"] < 0.6 else "black")
    im = right.imshow(grid, vmin=0, vmax=1, cmap="viridis", aspect="auto")
    right.set_xticks(range(len(houses)), houses, rotation=20, ha="right")
    right.set_yticks(range(len(agents)), agents)
    right.set_title("win rate of each agent at each house")
    fig.colorbar(im, ax=right, fraction=0.046)
    fig.suptitle(f"{results['name']} ({results['games']} games)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


PLOTS = {"win_rates.png": plot_win_rates, "ratings.png": plot_agent_ratings,
         "houses.png": plot_houses}


def write_plots(plots: dict[str, Any], results: dict[str, Any], run_dir: Path) -> list[Path]:
    """Draw each of ``plots`` (file name -> function of the results and a path) into
    ``run_dir``; returns the paths. The tournament's and the ladder's plots are written so."""
    for name, fn in plots.items():
        fn(results, run_dir / name)
    return [run_dir / name for name in plots]


def save_plots(results: dict[str, Any], run_dir: Path) -> list[Path]:
    """Write every plot of a tournament into ``run_dir``; returns the paths."""
    return write_plots(PLOTS, results, run_dir)
