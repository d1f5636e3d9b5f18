"""A picture of a War of the Ring position for ``render_mode="rgb_array"``: the map of the 105
regions and a side panel of tracks, the Hunt, dice and cards.

Why a node-and-border schematic rather than the printed board: every fact a person or an agent
needs (armies, characters, the Fellowship, who holds what, the tracks, the Hunt Box) must be
readable at a glance from a small image, and the board's art is not ours to ship. The modules
beside this one each draw one part:

- :mod:`~wotr_env.render.layout`: where each region lies (``data/2e/layout.yaml``, checked);
- :mod:`~wotr_env.render.style`: sizes, colours and short names;
- :mod:`~wotr_env.render.board`: the map (borders, regions, armies, characters, Fellowship);
- :mod:`~wotr_env.render.panel`: the side panel (tracks, Hunt, dice, cards).

Figures are built with :class:`matplotlib.figure.Figure` on an Agg canvas, never through
pyplot: no GUI backend is touched and no figure outlives a call. The board's fixed part
(borders, markers, names, legend: half the text) is drawn once per board and size and copied
into the Agg buffer under each picture, so a picture costs only what changed. The same state and
observer give the same bytes. ``observer`` is the side whose view is drawn (its own hand is
named); None is the public view (no hand named). Nothing else of the picture depends on it: the
rest is public.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.image import imsave
from matplotlib.patches import Rectangle

from .board import draw_board, draw_position
from .layout import board_layout
from .panel import draw_panel
from .style import (
    BACKGROUND,
    BASE_HEIGHT,
    DEFAULT_SIZE,
    DPI,
    MAP_FRACTION,
    MAP_XLIM,
    MAP_YLIM,
    PANEL_FILL,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..data.board import Board
    from ..engine.state import WotrState


def _figure(width: int, height: int, facecolor: str) -> tuple[Figure, Axes, Axes]:
    """A figure of ``width`` x ``height`` pixels with the map axes and the panel axes."""
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor=facecolor)
    FigureCanvasAgg(fig)
    map_ax = fig.add_axes((0.0, 0.0, MAP_FRACTION, 1.0))
    map_ax.set_xlim(*MAP_XLIM)
    map_ax.set_ylim(*MAP_YLIM)
    panel_ax = fig.add_axes((MAP_FRACTION, 0.0, 1.0 - MAP_FRACTION, 1.0))
    panel_ax.set_xlim(0, 1)
    panel_ax.set_ylim(1, 0)  # top down: the panel's sections flow from the top
    for ax in (map_ax, panel_ax):
        ax.set_autoscale_on(False)
        ax.axis("off")
    return fig, map_ax, panel_ax


def _pixels(fig: Figure, under: np.ndarray | None = None) -> np.ndarray:
    """Draw the figure (over the RGBA pixels ``under``, if given, instead of its face) and copy
    out its RGB pixels, then clear it so that nothing outlives the call."""
    try:
        renderer = fig.canvas.get_renderer()
        renderer.clear()
        if under is not None:  # the fixed layer, copied into Agg's buffer one to one
            np.asarray(renderer.buffer_rgba())[:] = under
            fig.patch.set_visible(False)
        fig.draw(renderer)
        return np.array(np.asarray(renderer.buffer_rgba())[:, :, :3])
    finally:
        fig.clear()


@functools.lru_cache(maxsize=8)
def _fixed_layer(board: Board, width: int, height: int, fs: float) -> np.ndarray:
    """The picture's fixed part for a board and size (background, borders, region markers and
    names, legend, the panel's paper), drawn once and kept: it is about half the text of a
    picture, and the same for every position."""
    fig, map_ax, panel_ax = _figure(width, height, BACKGROUND)
    draw_board(map_ax, board, fs)
    panel_ax.add_patch(Rectangle((0, 0), 1, 1, fc=PANEL_FILL, ec="none"))
    try:
        fig.canvas.draw()
        layer = np.array(fig.canvas.buffer_rgba())  # RGBA, opaque
    finally:
        fig.clear()
    layer.setflags(write=False)
    return layer


def picture(state: WotrState, observer: int | None = None,
            size: tuple[int, int] = DEFAULT_SIZE) -> np.ndarray:
    """The position as an H x W x 3 uint8 RGB array (``size`` = (W, H) pixels), as ``observer``
    (0 Free Peoples, 1 Shadow, None: public) may see it."""
    width, height = int(size[0]), int(size[1])
    if width < 200 or height < 150:
        raise ValueError(f"picture size {size} is too small to read (at least 200 x 150)")
    if observer not in (None, 0, 1):
        raise ValueError(f"observer must be 0, 1 or None, got {observer!r}")
    fs = min(height / BASE_HEIGHT, width / DEFAULT_SIZE[0])  # font scale
    fixed = _fixed_layer(state.ruleset.board, width, height, fs)
    fig, map_ax, panel_ax = _figure(width, height, BACKGROUND)
    draw_position(map_ax, state, fs)
    draw_panel(panel_ax, state, observer, fs)
    return _pixels(fig, under=fixed)


def region_pixel(board: Board, region: int,
                 size: tuple[int, int] = DEFAULT_SIZE) -> tuple[int, int]:
    """(row, column) of a region's node in a picture of ``size`` (for tests and overlays)."""
    x, y = board_layout(board).xy[region]
    col = (x - MAP_XLIM[0]) / (MAP_XLIM[1] - MAP_XLIM[0]) * MAP_FRACTION * size[0]
    row = (y - MAP_YLIM[1]) / (MAP_YLIM[0] - MAP_YLIM[1]) * size[1]
    return int(round(row)), int(round(col))


def save_png(state: WotrState, path: str | Path, observer: int | None = None,
             size: tuple[int, int] = DEFAULT_SIZE) -> Path:
    """Write :func:`picture` to a PNG file; returns the path."""
    path = Path(path)
    imsave(path, picture(state, observer, size), format="png")
    return path


__all__ = ["picture", "region_pixel", "save_png"]
