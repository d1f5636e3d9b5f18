"""Where the Fellowship's label goes: the spot round its region that covers the least of what
is already drawn near it (other nodes, names, army chips, characters).

Why: the Fellowship's region is often a crowded one (Rivendell, Minas Tirith, the Mordor
border), and a label at a fixed side would hide the armies or characters it stands beside. The
boxes are estimates in layout units at the default picture size (text widths from character
counts); the choice is deterministic: the first candidate of least overlap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .layout import board_layout
from .style import MAP_XLIM, MAP_YLIM

if TYPE_CHECKING:
    from ..engine.state import WotrState

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in layout units (y down)
NAME_CHAR, CHIP_CHAR, LINE_UNITS = 3.0, 3.8, 9.5  # width of a character, height of a line
# Candidate spots (dx, dy, ha, va) round a node, in order of preference.
SPOTS = ((-13, -2, "right", "center"), (0, -17, "center", "bottom"),
         (13, -2, "left", "center"), (-11, 12, "right", "top"), (11, 12, "left", "top"),
         (0, 14, "center", "top"), (-11, -12, "right", "bottom"), (11, -12, "left", "bottom"))


def text_box(x: float, y: float, width: float, height: float, ha: str, va: str) -> Box:
    """The box of a text of ``width`` x ``height`` anchored at (x, y) as matplotlib does."""
    x0 = {"left": x, "center": x - width / 2, "right": x - width}[ha]
    y0 = {"top": y, "center": y - height / 2, "bottom": y - height}[va]
    return (x0, y0, x0 + width, y0 + height)


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def obstacles(state: WotrState, chips: dict[int, list[str]]) -> list[Box]:
    """What the map draws round each node: its marker, name and army chips (``chips``: the
    chip texts per region)."""
    lay = board_layout(state.ruleset.board)
    out: list[Box] = []
    for r, (x, y) in enumerate(lay.xy):
        out.append((x - 6, y - 6, x + 6, y + 6))
        out.append(text_box(x, y - 6.5, NAME_CHAR * len(lay.labels[r]), LINE_UNITS,
                            "center", "bottom"))
        for k, text in enumerate(chips.get(r, [])):
            out.append(text_box(x, y + 9 + 10.5 * k, CHIP_CHAR * len(text) + 3, 10,
                                "center", "center"))
    return out


def best_spot(state: WotrState, region: int, lines: list[str],
              around: list[Box]) -> tuple[float, float, str, str]:
    """(x, y, ha, va) of the label ``lines`` next to ``region``'s node that covers the least of
    ``around`` (and stays inside the map)."""
    lay = board_layout(state.ruleset.board)
    x, y = lay.xy[region]
    width, height = CHIP_CHAR * max(map(len, lines)) + 4, LINE_UNITS * len(lines) + 3
    best, best_cost = None, np.inf
    for dx, dy, ha, va in SPOTS:
        box = text_box(x + dx, y + dy, width, height, ha, va)
        cost = sum(overlap(box, b) for b in around)
        if (box[0] < MAP_XLIM[0] or box[2] > MAP_XLIM[1] or box[1] < MAP_YLIM[1]
                or box[3] > MAP_YLIM[0]):
            cost += 1e6  # off the map window
        if cost < best_cost - 1e-9:
            best, best_cost = (x + dx, y + dy, ha, va), cost
    assert best is not None
    return best


__all__ = ["SPOTS", "best_spot", "obstacles", "overlap", "text_box"]
