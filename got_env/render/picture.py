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
:func:`board_svg`) and gives every public name of those modules (``from got_env.render.picture
import ...``), so callers need not know where each one lives.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.image import imsave

from .board import (
    PART_CACHE,
    RulesetDrawing,
    area_parts,
    board_parts,
    board_unit_chips,
    draw_area_node,
    draw_borders,
    draw_defenders,
    draw_map,
    draw_order_token,
    draw_power_token,
    draw_unit_chip,
    draw_units,
    fixed_part,
    ruleset_drawing,
    token_pieces,
    unit_chip_pieces,
    unit_chips,
)
from .canvas import MAP, PANEL, Part, Piece, figure_pixels, new_board_figure, part_of_pieces, piece
from .fixed_text import (
    LEGEND,
    UNIT_LEGEND,
    FixedLayer,
    draw_area_names,
    draw_fixed_text,
    draw_legend,
    draw_panel_headings,
    fixed_layer,
    legend,
)
from .layout import (
    BADGE_PLACES,
    BADGE_SIZE,
    area_label,
    area_pixel,
    badge_anchors,
    check_layout,
    layout,
    load_layout,
    node_half_size,
)
from .side_panel import (
    PanelContent,
    draw_house_rows,
    draw_panel_background,
    draw_panel_number,
    draw_phase_line,
    draw_round_and_threat,
    draw_round_line,
    draw_seen_by,
    draw_side_panel,
    draw_threat,
    draw_track_positions,
    draw_winner_line,
    house_chip,
    house_row_pieces,
    panel_content,
    panel_pieces,
    round_and_threat_pieces,
    track_pieces,
)
from .style import (
    BACKGROUND,
    BOARD_SHAPE,
    DPI,
    FIG_INCHES,
    FIXED_ZORDER,
    HOUSE_COLOURS,
    HOUSE_COLUMNS,
    HOUSE_STEP,
    IMPASSABLE_FILL,
    IMPASSABLE_HATCH,
    LAND_BORDER,
    LAND_FILL,
    LAND_SIZE,
    LEGEND_STEP,
    MAP_FRACTION,
    MAP_XLIM,
    MAP_YLIM,
    PANEL_FILL,
    PORT_FILL,
    PORT_SIZE,
    SEA_BORDER,
    SEA_FILL,
    SEA_SIZE,
    TRACK_STEP,
    UNKNOWN_HOUSE_COLOUR,
    WINNER_FILL,
    Y_HOUSES,
    Y_LEGEND,
    Y_ROUND,
    Y_THREAT,
    Y_TRACKS,
    house_colour,
    ink_on,
    tint,
)
from .svg import SVG_RC, SvgPart, SvgParts, svg_document, svg_preamble
from .vocabulary import (
    BARREL_ICON,
    CASTLE_ICON,
    CROWN_ICON,
    HIDDEN_ORDER,
    ORDER_LETTER,
    STAR,
    TRACK_NAMES,
    UNIT_LETTER,
    icon_text,
    letters_of,
    observer_index,
    order_abbreviation,
    order_faces,
    seen_face,
    token_face,
    unit_letters,
    visible_order,
)

if TYPE_CHECKING:
    from ..engine.state import GameState

__all__ = [  # the public names of the picture's modules, and this one's
    "BACKGROUND", "BADGE_PLACES", "BADGE_SIZE", "BARREL_ICON", "BOARD_SHAPE", "CASTLE_ICON",
    "CROWN_ICON", "DPI", "FIG_INCHES", "FIXED_ZORDER", "FixedLayer", "HIDDEN_ORDER",
    "HOUSE_COLOURS", "HOUSE_COLUMNS", "HOUSE_STEP", "IMPASSABLE_FILL", "IMPASSABLE_HATCH",
    "LAND_BORDER", "LAND_FILL", "LAND_SIZE", "LEGEND", "LEGEND_STEP", "MAP", "MAP_FRACTION",
    "MAP_XLIM", "MAP_YLIM", "ORDER_LETTER", "PANEL", "PANEL_FILL", "PART_CACHE", "PORT_FILL",
    "PORT_SIZE", "PanelContent", "Part", "Piece", "RulesetDrawing", "SEA_BORDER", "SEA_FILL",
    "SEA_SIZE", "STAR", "SVG_RC", "SvgPart", "SvgParts", "TRACK_NAMES", "TRACK_STEP", "UNIT_LEGEND",
    "UNIT_LETTER", "UNKNOWN_HOUSE_COLOUR", "WINNER_FILL", "Y_HOUSES", "Y_LEGEND", "Y_ROUND",
    "Y_THREAT", "Y_TRACKS", "area_label", "area_parts", "area_pixel", "badge_anchors",
    "board_parts", "board_svg", "board_unit_chips", "check_layout", "draw_area_names",
    "draw_area_node", "draw_borders", "draw_defenders", "draw_fixed_text", "draw_house_rows",
    "draw_legend", "draw_map", "draw_order_token", "draw_panel_background", "draw_panel_headings",
    "draw_panel_number", "draw_phase_line", "draw_power_token", "draw_round_and_threat",
    "draw_round_line", "draw_seen_by", "draw_side_panel", "draw_threat", "draw_track_positions",
    "draw_unit_chip", "draw_units", "draw_winner_line", "figure_pixels", "fixed_layer",
    "fixed_part", "house_chip", "house_colour", "house_row_pieces", "icon_text", "ink_on", "layout",
    "legend", "letters_of", "load_layout", "new_board_figure", "node_half_size", "observer_index",
    "order_abbreviation", "order_faces", "panel_content", "panel_pieces", "part_of_pieces", "piece",
    "render_board", "round_and_threat_pieces", "ruleset_drawing", "save_board_png", "seen_face",
    "svg_document", "svg_preamble", "tint", "token_face", "token_pieces", "track_pieces",
    "unit_chip_pieces", "unit_chips", "unit_letters", "visible_order",
]


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
