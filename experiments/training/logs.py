"""The trainer's figures, written three ways: a CSV (one row per update, every figure), the same
scalars for TensorBoard (when the ``tensorboard`` package is importable), and a PNG of the
training curve (evaluation win rates with their confidence intervals against decisions).

TensorBoard tags are grouped as CleanRL's are (:func:`tensorboard_tag`: ``losses/...``,
``charts/...``, ``eval/...``), so that runs of either sit side by side; the CSV keeps its flat
column names (:data:`COLUMNS`), which scripts read."""

from __future__ import annotations

import csv
import math
import warnings
from pathlib import Path
from typing import Any

#: The CSV's columns, in order: every figure a row can hold (missing ones are left empty).
COLUMNS = ("update", "decisions", "learner_decisions", "games", "wall_s", "decisions_per_s",
           "lr", "policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction",
           "explained_variance", "train_win_random", "train_win_heuristic",
           "train_win_snapshots", "eval_random", "eval_random_lo", "eval_random_hi",
           "eval_heuristic", "eval_heuristic_lo", "eval_heuristic_hi")
#: Where each update's time went, in seconds (the last columns of every run): the rollout's
#: forward passes (learner and snapshots) and in-process agents, the batched games' steps (the
#: workers, and worker-side seats, while this process waits), the rest of the rollout (its
#: bookkeeping and advantages), the PPO update, and the evaluations.
TIMING = ("time_forward_s", "time_games_s", "time_rollout_other_s", "time_update_s",
          "time_eval_s")
#: The baselines :data:`COLUMNS` has columns for; another opponent adds its own after them.
BASELINES = ("random", "heuristic")
#: The TensorBoard tag of a CSV column, where it is not ``charts/<column>`` or ``eval/...``:
#: CleanRL's names for the same figures.
RENAMED_TAGS = {"policy_loss": "losses/policy_loss", "value_loss": "losses/value_loss",
                "entropy": "losses/entropy", "approx_kl": "losses/approx_kl",
                "clip_fraction": "losses/clipfrac",
                "explained_variance": "losses/explained_variance",
                "lr": "charts/learning_rate", "decisions_per_s": "charts/SPS"}


def columns(opponents: tuple[str, ...] = (), figures: tuple[str, ...] = ()) -> tuple[str, ...]:
    """:data:`COLUMNS`, then the training and evaluation columns of every opponent that is not a
    baseline (a config's agent spec), then ``figures`` (a run's own, e.g. ``kl_reference`` of
    one with a KL term), then :data:`TIMING`."""
    extra = [o for o in opponents if o not in BASELINES]
    return COLUMNS + tuple(c for o in extra for c in (
        f"train_win_{o}", f"eval_{o}", f"eval_{o}_lo", f"eval_{o}_hi")) + tuple(figures) + TIMING


def tensorboard_tag(column: str) -> str:
    """``eval_random_lo`` -> ``eval/random_lo``; the losses and the learning rate under
    CleanRL's names (:data:`RENAMED_TAGS`); every other figure under ``charts/``."""
    if column in RENAMED_TAGS:
        return RENAMED_TAGS[column]
    if column.startswith("eval_"):
        return "eval/" + column.removeprefix("eval_")
    return "charts/" + column


class TrainingLog:
    """Appends rows to ``progress.csv`` (kept across ``--resume``) and TensorBoard events."""

    def __init__(self, run_dir: Path, tensorboard: bool = True, resume: bool = False,
                 opponents: tuple[str, ...] = (), figures: tuple[str, ...] = ()):
        self.path = run_dir / "progress.csv"
        self.columns = columns(opponents, figures)
        if not resume or not self.path.exists():
            with self.path.open("w", newline="") as f:
                csv.writer(f).writerow(self.columns)
        self.writer: Any = None
        if tensorboard:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    # heavy: only for a run whose config asks for TensorBoard events
                    from torch.utils.tensorboard import SummaryWriter
                self.writer = SummaryWriter(str(run_dir / "tensorboard"))
            except ImportError:
                warnings.warn("tensorboard is not installed: TensorBoard logs skipped (the CSV "
                              "has the same figures)", stacklevel=2)

    def truncate(self, last_update: int) -> None:
        """Drop rows after ``last_update`` (a resumed run repeats nothing it logged)."""
        rows = read_rows(self.path)
        with self.path.open("w", newline="") as f:
            w = csv.DictWriter(f, self.columns)
            w.writeheader()
            w.writerows(r for r in rows if int(r["update"]) <= last_update)

    def write(self, row: dict[str, Any]) -> None:
        with self.path.open("a", newline="") as f:
            csv.DictWriter(f, self.columns).writerow({k: row.get(k, "") for k in self.columns})
        if self.writer is not None:
            step = int(row["decisions"])
            for k, v in row.items():
                if k not in ("update", "decisions") and isinstance(v, (int, float)) \
                        and math.isfinite(v):
                    self.writer.add_scalar(tensorboard_tag(k), v, step)
            self.writer.flush()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def plot_evaluations(ax: Any, rows: list[dict[str, str]], opponent: str, colour: str,
                     x_key: str, label: str) -> None:
    """The evaluations of ``rows`` against ``opponent``: win rates (dots joined) and their 95%
    intervals (a band), against the column ``x_key``."""
    pts = [(float(r[x_key]), float(r[f"eval_{opponent}"]), float(r[f"eval_{opponent}_lo"]),
            float(r[f"eval_{opponent}_hi"])) for r in rows if r.get(f"eval_{opponent}")]
    if pts:
        x, y, lo, hi = zip(*pts, strict=True)
        ax.plot(x, y, "o-", color=colour, label=label)
        ax.fill_between(x, lo, hi, color=colour, alpha=0.15)


def plot_curve(csv_path: Path, png_path: Path, title: str) -> Path:
    """Evaluation win rates (with 95% intervals) and training-game win rates against decisions
    played, one line per opponent; the 1/num_players share is where a policy as good as its
    opponents would sit."""
    import matplotlib  # heavy: only when a curve is drawn

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_rows(csv_path)
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    header = rows[0].keys() if rows else ()
    extra = [c.removeprefix("eval_") for c in header
             if c.startswith("eval_") and not c.endswith(("_lo", "_hi"))
             and c.removeprefix("eval_") not in BASELINES]
    colours = ["tab:blue", "tab:red", "tab:green", "tab:purple", "tab:orange", "tab:brown"]
    for i, opponent in enumerate((*BASELINES, *extra)):
        colour = colours[i % len(colours)]
        plot_evaluations(ax, rows, opponent, colour, "decisions", f"eval vs {opponent}")
        train = [(float(r["decisions"]), float(r[f"train_win_{opponent}"]))
                 for r in rows if r.get(f"train_win_{opponent}")]
        if train:
            x, y = zip(*train, strict=True)
            ax.plot(x, y, "-", color=colour, alpha=0.35, lw=0.8,
                    label=f"training games vs {opponent}")
    ax.set_xlabel("decisions played (all houses, all games)")
    ax.set_ylabel("learner's win rate")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(png_path)
    plt.close(fig)
    return png_path
