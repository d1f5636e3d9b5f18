"""The figure every picture is drawn on, and the drawable parts and pieces of a picture.

Figures are built with :class:`matplotlib.figure.Figure` on an Agg canvas, never through pyplot:
no GUI backend is touched, no global figure registry keeps them alive, and each figure is cleared
and dropped as soon as its pixels are copied, so rendering every step does not leak memory.

A part (:class:`Part`) or piece (:class:`Piece`) is named by a key of everything it shows, so
the PNG path, the SVG drawer and the replay can reuse what was drawn before.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .style import BACKGROUND, DPI, FIG_INCHES, MAP_FRACTION, MAP_XLIM, MAP_YLIM

if TYPE_CHECKING:
    from matplotlib.axes import Axes

# -- figures ----------------------------------------------------------------------------------
def new_board_figure(transparent: bool) -> tuple[Figure, Axes, Axes]:
    """A figure with the map axes and the side-panel axes, both layers sharing one geometry."""
    fig = Figure(figsize=FIG_INCHES, dpi=DPI, facecolor="none" if transparent else BACKGROUND)
    FigureCanvasAgg(fig)
    map_ax = fig.add_axes((0.0, 0.0, MAP_FRACTION, 1.0))
    map_ax.set_xlim(*MAP_XLIM)
    map_ax.set_ylim(*MAP_YLIM)
    panel_ax = fig.add_axes((MAP_FRACTION, 0.0, 1.0 - MAP_FRACTION, 1.0))
    panel_ax.set_xlim(0, 1)
    panel_ax.set_ylim(0, 1)
    for ax in (map_ax, panel_ax):
        ax.set_autoscale_on(False)
        ax.axis("off")
    return fig, map_ax, panel_ax


def figure_pixels(fig: Figure) -> np.ndarray:
    """Draw the figure and copy out its RGBA pixels, then clear it so nothing outlives the call."""
    try:
        fig.canvas.draw()
        return np.asarray(fig.canvas.buffer_rgba()).copy()
    finally:
        fig.clear()


# -- parts: the picture cut into independently drawable pieces ---------------------------------
MAP, PANEL = 0, 1  # the axes a piece draws on


class Piece(NamedTuple):
    """A few artists of a part, drawn by ``draw(map_ax, panel_ax)``; ``key`` names all they
    show (equal keys: equal drawings). Pieces recur far more often than whole parts (one house
    chip in a side panel that changed elsewhere), so the SVG drawer draws each distinct one once
    (module docstring of :mod:`got_env.render.svg_pieces`)."""

    key: tuple
    draw: Callable[[Axes, Axes], None]


def piece(axes: int, draw: Callable[..., None], *args: Hashable) -> Piece:
    """The piece ``draw(ax, *args)`` on the map (``MAP``) or the side panel (``PANEL``): named
    by the function and its arguments, which must be all that it draws from."""
    if axes == MAP:
        return Piece((draw, MAP, *args), lambda map_ax, panel_ax: draw(map_ax, *args))
    return Piece((draw, PANEL, *args), lambda map_ax, panel_ax: draw(panel_ax, *args))


class Part(NamedTuple):
    """One piece of the picture: ``draw(map_ax, panel_ax)`` draws it; ``key`` names everything
    it shows (equal keys: equal drawings), so a drawn part can be reused. ``pieces``, where set,
    makes the part's pieces, which draw it when drawn in order (and ``draw`` does just that):
    it is only called for a part not drawn before, so a board's parts cost little to make."""

    key: tuple
    draw: Callable[[Axes, Axes], None]
    pieces: Callable[[], list[Piece]] | None = None


def part_of_pieces(key: tuple, pieces: Callable[[], list[Piece]]) -> Part:
    """A part that is its pieces, drawn in order."""
    def draw(map_ax: Axes, panel_ax: Axes) -> None:
        for p in pieces():
            p.draw(map_ax, panel_ax)

    return Part(key, draw, pieces)
