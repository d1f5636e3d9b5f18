"""The league: who the learner plays against in each training game.

Random opponents alone are too weak a curriculum (a learner that beats them loses every game to
the heuristic), and pure self-play can chase its own tail. Each training game therefore draws
its opponents with the config's weights: the current policy at every seat (self-play), a past
snapshot of the learner, the heuristic, random play, or an opponent the config names (an agent
spec). The league keeps the snapshots (weights
only, a bounded number) and is saved whole in the trainer's checkpoints, so that ``--resume``
continues with the same opponents.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from .config import LEAGUE_KINDS, LeagueConfig


@dataclass(frozen=True)
class Opponents:
    """One game's draw: its kind, and for ``"snapshots"`` the update the snapshot was taken at."""

    kind: str
    snapshot: int | None = None


class League:
    """Snapshots of the learner and the sampling weights of the opponent kinds.

    A snapshot dropped from the pool (beyond ``max_snapshots``) stays available to the games
    that drew it until :meth:`prune` is told no game uses it any more."""

    def __init__(self, cfg: LeagueConfig):
        self.cfg = cfg
        self.pool: list[int] = []                          # updates that can be drawn
        self.weights: dict[int, dict[str, torch.Tensor]] = {}  # update -> weights
        self._networks: dict[int, torch.nn.Module] = {}    # update -> built network

    def add_snapshot(self, update: int, network: torch.nn.Module) -> None:
        """Keep a frozen copy of the learner's weights (the oldest leaves the pool beyond the
        cap)."""
        self.weights[update] = {k: v.detach().clone() for k, v in network.state_dict().items()}
        self.pool.append(update)
        del self.pool[:-self.cfg.max_snapshots]

    def draw(self, rng: np.random.Generator) -> Opponents:
        """The opponents of a new game; ``snapshots`` falls back to ``current`` until the first
        snapshot exists."""
        # the four kinds first, in their order, then the config's own opponents: a config of
        # the four alone draws exactly as before there were others
        kinds = (*LEAGUE_KINDS, *(k for k in self.cfg.weights if k not in LEAGUE_KINDS))
        weights = np.array([float(self.cfg.weights.get(k, 0.0)) for k in kinds])
        kind = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
        if kind == "snapshots":
            if not self.pool:
                return Opponents("current")
            return Opponents(kind, self.pool[int(rng.integers(len(self.pool)))])
        return Opponents(kind)

    def network(self, update: int, like: torch.nn.Module) -> torch.nn.Module:
        """The snapshot's network (built once, in eval mode, from a copy of ``like``)."""
        net = self._networks.get(update)
        if net is None:
            net = copy.deepcopy(like)
            net.load_state_dict(self.weights[update])
            net.eval()
            self._networks[update] = net
        return net

    def prune(self, in_use: set[int]) -> None:
        """Forget the snapshots that left the pool and that no game plays any more."""
        for update in list(self.weights):
            if update not in self.pool and update not in in_use:
                del self.weights[update]
                self._networks.pop(update, None)

    def state_dict(self) -> dict[str, Any]:
        return {"pool": list(self.pool), "weights": dict(self.weights)}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        self.pool = [int(u) for u in state["pool"]]
        self.weights = {int(u): dict(w) for u, w in state["weights"].items()}
        self._networks = {}
