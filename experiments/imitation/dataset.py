"""The recorded decisions of an imitation run as one compact array set and its ``.npz`` file
(:class:`Dataset`), and the collection a file records (:func:`source_of`): what the config
checks ``data.load`` against and what the fit reads, apart from the games that record them
(:mod:`.data`).

Compact storage, so that ~200k AGoT decisions fit in memory many times over: the observation is
stored in the smallest integer dtype its space's bounds allow (:func:`compact_dtype`; AGoT's and
Goofspiel's bounds are integers in [0, 255]: uint8, a quarter of float32), checked exact on
every observation (a fractional value turns the whole dataset back to float32, never a silent
rounding); masks are bit-packed (``np.packbits``: 1725 actions in 216 bytes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np


def compact_dtype(low: np.ndarray, high: np.ndarray) -> np.dtype:
    """The smallest dtype that holds every value the bounds allow exactly, if they are integer
    bounds: uint8, int16, else float32."""
    low, high = np.asarray(low, np.float64), np.asarray(high, np.float64)
    finite = np.isfinite(low).all() and np.isfinite(high).all()
    if not finite or (low != np.round(low)).any() or (high != np.round(high)).any():
        return np.dtype(np.float32)
    for dtype in (np.uint8, np.int16):
        info = np.iinfo(dtype)
        if low.min() >= info.min and high.max() <= info.max:
            return np.dtype(dtype)
    return np.dtype(np.float32)


@dataclass
class Dataset:
    """The recorded decisions, one row each; ``masks`` bit-packed over ``num_actions``."""

    obs: np.ndarray        #: [N, obs_size], compact dtype
    masks: np.ndarray      #: [N, ceil(num_actions / 8)] uint8, np.packbits of the masks
    actions: np.ndarray    #: [N] int16 (int32 beyond 32767 actions)
    values: np.ndarray     #: [N] float32, the value target (``data.value``: win share or reward)
    games: np.ndarray      #: [N] int32, the game's index
    num_actions: int
    num_games: int
    #: what recorded it (:meth:`ImitateConfig.collection`), kept in the file so that a later
    #: run fits it only under the same collection (``data.load``)
    source: dict[str, Any] | None = None

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    @property
    def bytes_per_decision(self) -> int:
        return int(sum(a.itemsize * (a.shape[1] if a.ndim == 2 else 1)
                       for a in (self.obs, self.masks, self.actions, self.values, self.games)))

    @property
    def nbytes(self) -> int:
        return int(sum(a.nbytes for a in (self.obs, self.masks, self.actions, self.values,
                                           self.games)))

    def joined(self, other: Dataset) -> Dataset:
        """This dataset and ``other``'s decisions after it (a DAgger round's), one copy."""
        if other.num_actions != self.num_actions or other.obs.shape[1:] != self.obs.shape[1:]:
            raise ValueError("joined: datasets of other games or observation sizes")
        dtype = np.result_type(self.obs.dtype, other.obs.dtype)
        return Dataset(obs=np.concatenate([self.obs, other.obs]).astype(dtype, copy=False),
                       masks=np.concatenate([self.masks, other.masks]),
                       actions=np.concatenate([self.actions, other.actions]),
                       values=np.concatenate([self.values, other.values]),
                       games=np.concatenate([self.games, other.games]),
                       num_actions=self.num_actions,
                       num_games=self.num_games + other.num_games, source=self.source)

    def unpacked_masks(self, rows: np.ndarray) -> np.ndarray:
        """bool[len(rows), num_actions]: the masks of ``rows``."""
        return np.unpackbits(self.masks[rows], axis=1, count=self.num_actions).astype(bool)

    def legal_counts(self) -> np.ndarray:
        """int[N]: the number of legal actions of each decision (chance accuracy: 1/count)."""
        table = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).sum(1)
        return table[self.masks].sum(1)

    def save(self, path: str | Path) -> Path:
        """One compressed ``.npz`` (observations are mostly zeros: it shrinks well)."""
        path = Path(path)
        np.savez_compressed(path, obs=self.obs, masks=self.masks, actions=self.actions,
                            values=self.values, games=self.games,
                            num_actions=np.int64(self.num_actions),
                            num_games=np.int64(self.num_games),
                            source=np.array(json.dumps(self.source, sort_keys=True)))
        return path

    @classmethod
    def load(cls, path: str | Path) -> Dataset:
        """The arrays of a :meth:`save` file (no pickles: ``np.load`` refuses object arrays);
        a missing array or a bad source is a ``ValueError`` naming it."""
        with np.load(path, allow_pickle=False) as f:
            missing = [k for k in ("obs", "masks", "actions", "values", "games", "num_actions",
                                   "num_games") if k not in f.files]
            if missing:
                raise ValueError(f"{path}: not an imitation dataset (no {', '.join(missing)})")
            return cls(obs=f["obs"], masks=f["masks"], actions=f["actions"],
                       values=f["values"], games=f["games"],
                       num_actions=int(f["num_actions"]), num_games=int(f["num_games"]),
                       source=_read_source(f, path))


def _read_source(f: Any, path: str | Path) -> dict[str, Any] | None:
    """The collection an open ``.npz`` records (None for a file saved before it did)."""
    if "source" not in f.files:
        return None
    source = json.loads(str(f["source"]))
    if not isinstance(source, dict):
        raise ValueError(f"{path}: its source is not a mapping")
    return source


def source_of(path: str | Path) -> dict[str, Any] | None:
    """The collection a :meth:`Dataset.save` file records, read without its arrays."""
    with np.load(path, allow_pickle=False) as f:
        return _read_source(f, path)
