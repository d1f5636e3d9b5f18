"""A picture of the board for ``render_mode="rgb_array"``: the map of Westeros plus a side panel.

Why a node-and-border schematic rather than the printed map: every fact an agent or a person needs
(who holds an area, which units and tokens lie there, where the borders run) must be readable at a
glance from a small image, and the map art is not ours to ship. Each area is a node placed where it
lies on the printed map (``got_env/data/<ruleset>/layout.yaml``); borders are light lines, dashed
blue where they touch the sea.

What is drawn, per area: the owner's colour (``state.control()``), castle/stronghold and the
barrel/crown icons, units as letters (F K S E, routed ones lowercase), the order token, power
token, garrison, neutral force, and a dark hatch over impassable areas. The side panel holds the
round, phase, wildling threat, the three influence tracks and each house's castles (victory
points), supply and power.

Hidden information: while ``state.orders_revealed`` is False an order is drawn only for the
observer's own house; other houses' orders show as a "?" marker, so a picture rendered for one
player never leaks what another planned. ``observer=None`` is the omniscient view (all orders).

The picture is drawn by the modules beside this one, each with one job:

- :mod:`~got_env.render.style`: geometry (figure, map window, node sizes, panel rows), colours;
- :mod:`~got_env.render.vocabulary`: what the marks say (order faces, hidden orders, unit letters);
- :mod:`~got_env.render.layout`: where areas and their badges lie (the ruleset's layout.yaml);
- :mod:`~got_env.render.canvas`: the figure, and the parts and pieces a picture is cut into;
- :mod:`~got_env.render.fixed_text`: the text that never changes in a game (cached as pixels);
- :mod:`~got_env.render.board`: the map's changing parts, and :func:`board_parts`;
- :mod:`~got_env.render.side_panel`: the round, threat, tracks and house rows;
- :mod:`~got_env.render.svg`: the same picture as an SVG document (:class:`SvgParts`).

This module holds the entry points (:func:`render_board`, :func:`save_board_png`,
:func:`board_svg`); a caller wanting one of the drawing's parts imports it from the module that
defines it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.image import imsave

from .board import board_parts, fixed_part
from .canvas import figure_pixels, new_board_figure
from .fixed_text import fixed_layer
from .svg import SvgParts, svg_document
from .vocabulary import observer_index

if TYPE_CHECKING:
    from ..engine.state import GameState


# -- public API -------------------------------------------------------------------------------
def render_board(state: GameState, observer: int | str | None = None) -> np.ndarray:
    """The board as a ``BOARD_SHAPE`` (H x W x 3) uint8 RGB array, for ``render_mode="rgb_array"``.

    ``observer`` (house index or id) hides other houses' unrevealed orders; None shows them all.
    """
    seen = observer_index(state, observer)
    fig, map_ax, panel_ax = new_board_figure(transparent=False)
    for part in board_parts(state, seen):
        part.draw(map_ax, panel_ax)
    picture = np.ascontiguousarray(figure_pixels(fig)[:, :, :3])
    return fixed_layer(state.ruleset, state.impassable).over(picture)


def board_svg(state: GameState, observer: int | str | None = None, show_viewer: bool = True,
              drawer: SvgParts | None = None) -> str:
    """The picture of :func:`render_board` as an SVG document (text as text). ``drawer`` reuses
    parts already drawn (pass one :class:`SvgParts` for the steps of a game)."""
    drawer = drawer or SvgParts()
    parts = board_parts(state, observer_index(state, observer), show_viewer)
    parts.append(fixed_part(state))
    return svg_document([drawer(p) for p in parts])


def save_board_png(state: GameState, path: str | Path,
                   observer: int | str | None = None) -> Path:
    """Write the same picture as :func:`render_board` to a PNG file; returns the path."""
    path = Path(path)
    imsave(path, render_board(state, observer), format="png")
    return path
