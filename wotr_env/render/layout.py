"""Where each region is drawn: ``data/2e/layout.yaml`` read, checked against the map, and kept.

Why a data file: the positions are facts taken from a public map transcription (the file's
header names it), not something to compute; and why checked: a region missing from the layout
would silently drop its armies from every picture, and an unknown id is almost always a typo, so
both are a :class:`DataError` naming the entry when the file is read.

The 1st-edition ruleset plays on the 2nd edition's map (``1e/map.yaml`` stands in with 2e's), so
one layout serves both: it is always read from ``data/2e``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from boardkit.datafiles import read_yaml

from ..data import DATA_ROOT, DataError

LAYOUT_DIR = DATA_ROOT / "2e"
LAYOUT_FILE = "layout.yaml"


class Layout(NamedTuple):
    """Positions in the file's frame (x east, y south), one row per region in map order."""

    xy: np.ndarray  # float (regions, 2)
    labels: tuple[str, ...]  # the name written on each node
    width: float  # the frame: x in 0..width, y in 0..height
    height: float


def check_layout(doc: dict[str, Any], region_ids: tuple[str, ...],
                 names: tuple[str, ...]) -> Layout:
    """The layout of ``doc`` (a parsed layout.yaml) for the regions ``region_ids`` (map order;
    ``names``: their names, the default labels). Every region must be listed exactly once with
    numeric ``x`` and ``y`` inside the frame; anything else is a DataError naming the entry."""
    frame = doc.get("frame")
    if not isinstance(frame, dict) or not all(_number(frame.get(k)) for k in ("width", "height")):
        raise DataError(f"{LAYOUT_FILE}: expected 'frame: {{width: W, height: H, y: down}}'")
    width, height = float(frame["width"]), float(frame["height"])
    entries = doc.get("regions")
    if not isinstance(entries, list):
        raise DataError(f"{LAYOUT_FILE}: expected a 'regions' list of {{id, x, y}} entries")
    index = {r: i for i, r in enumerate(region_ids)}
    xy = np.full((len(region_ids), 2), np.nan)
    labels = list(names)
    for n, entry in enumerate(entries):
        rid = entry.get("id") if isinstance(entry, dict) else None
        if rid not in index:
            raise DataError(f"{LAYOUT_FILE}: regions[{n}]: unknown region id {rid!r}")
        if not np.isnan(xy[index[rid], 0]):
            raise DataError(f"{LAYOUT_FILE}: region {rid!r} is listed twice")
        x, y = entry.get("x"), entry.get("y")
        if not (_number(x) and _number(y) and 0 <= x <= width and 0 <= y <= height):
            raise DataError(f"{LAYOUT_FILE}: region {rid!r}: x and y must be numbers in the "
                            f"frame 0..{width:g} x 0..{height:g}, got x={x!r}, y={y!r}")
        xy[index[rid]] = (x, y)
        if "label" in entry:
            labels[index[rid]] = str(entry["label"])
    missing = [r for r in region_ids if np.isnan(xy[index[r], 0])]
    if missing:
        raise DataError(f"{LAYOUT_FILE}: region {missing[0]!r} has no position"
                        + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
    return Layout(xy, tuple(labels), width, height)


def _number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and bool(np.isfinite(v))


def read_layout(region_ids: tuple[str, ...], names: tuple[str, ...],
                directory: Path = LAYOUT_DIR) -> Layout:
    """``directory/layout.yaml`` read and checked (:func:`check_layout`)."""
    return check_layout(read_yaml(Path(directory), LAYOUT_FILE), region_ids, names)


@functools.cache
def _cached(region_ids: tuple[str, ...], names: tuple[str, ...]) -> Layout:
    return read_layout(region_ids, names)


def board_layout(board: Any) -> Layout:
    """The package's layout for ``board`` (a :class:`wotr_env.data.board.Board`), read once."""
    return _cached(tuple(r.id for r in board.regions), tuple(r.name for r in board.regions))


__all__ = ["LAYOUT_DIR", "LAYOUT_FILE", "Layout", "board_layout", "check_layout", "read_layout"]
