"""The text that never changes during a game: area names and icons, the side panel's headings,
the legend; and its cached pixels for the PNG path.

Speed: text is what costs in matplotlib, and most of it never changes during a game. That text
is drawn once per (ruleset, impassable areas) on a transparent layer, cached as pixels, and laid
over each step's picture of the changing parts. In SVG it is drawn directly, on top
(``FIXED_ZORDER``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..data import TRACKS, UNIT_TYPES
from .canvas import figure_pixels, new_board_figure
from .layout import area_label, layout
from .style import (
    FIXED_ZORDER,
    HOUSE_COLUMNS,
    LEGEND_STEP,
    TRACK_STEP,
    Y_HOUSES,
    Y_LEGEND,
    Y_TRACKS,
)
from .vocabulary import BARREL_ICON, CASTLE_ICON, CROWN_ICON, STAR, TRACK_NAMES, icon_text

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..data import Ruleset

UNIT_LEGEND = dict(zip(UNIT_TYPES, ("F footman", "K knight", "S ship", "E siege"), strict=True))
LEGEND = (
    f"{CASTLE_ICON} castle   {CASTLE_ICON * 2} stronghold",
    f"{BARREL_ICON} barrel (supply)   {CROWN_ICON} crown (power)",
    "Units: F footman  K knight  S ship  E siege",
    "          lowercase letter = routed",
    "Order badge: M march  D defense",
    "          S support  R raid  CP consolidate",
    f"          {STAR} special order    ? hidden order",
    "P power token   G garrison   N neutral force",
    "Thick outline / tint: the area's holder",
    "Dark hatch: impassable area",
    "Lines: borders (dashed blue: by sea)",
)


def legend(ruleset: Ruleset) -> tuple[str, ...]:
    """:data:`LEGEND` in the ruleset's words: the 1st edition calls its castles cities, has no
    siege engines and no garrisons (1e spec 2.3, A.2), so those are not listed; the 2nd
    edition's legend is :data:`LEGEND` itself."""
    lines = list(LEGEND)
    small = "city" if any(a.fortification == "city" for a in ruleset.areas) else "castle"
    lines[0] = f"{CASTLE_ICON} {small}   {CASTLE_ICON * 2} stronghold"
    units = [UNIT_LEGEND[u] for u in UNIT_TYPES if ruleset.unit_pool.get(u, 0) > 0]
    lines[2] = "Units: " + "  ".join(units)
    if not ruleset.garrison_strength:
        lines[7] = lines[7].replace("   G garrison", "")
    return tuple(lines)


# -- the fixed layer: names, icons, headings, legend ------------------------------------------
def draw_area_names(ax: Axes, ruleset: Ruleset, impassable: np.ndarray) -> None:
    """Each area's name; for land also its fort/barrel/crown icons (or "impassable")."""
    pos = layout(ruleset)
    for area in ruleset.areas:
        x, y = pos[area.id]
        label = area_label(area, ruleset)
        if area.kind == "sea":
            ax.text(x, y + 1.4, label, ha="center", va="center", fontsize=6.6, style="italic",
                    color="#1f3f5f", zorder=FIXED_ZORDER)
            continue
        blocked = bool(impassable[area.index])
        if area.kind == "port":
            ax.text(x, y + 1.15, label, ha="center", va="center", fontsize=5.8,
                    color="white" if blocked else "#33475b", zorder=FIXED_ZORDER)
        else:
            ax.text(x, y + 2.3, label, ha="center", va="center", fontsize=6.6, weight="bold",
                    color="white" if blocked else "black", zorder=FIXED_ZORDER)
            icons = "impassable" if blocked else icon_text(area)
            if icons:
                ax.text(x, y + 0.15, icons, ha="center", va="center",
                        fontsize=6.4 if blocked else 7.6,
                        color="white" if blocked else "#5a4630",
                        zorder=FIXED_ZORDER)


def draw_panel_headings(ax: Axes) -> None:
    """Section titles and column heads of the side panel."""
    ax.text(0.04, Y_TRACKS, "Influence tracks", fontsize=10, weight="bold", va="center",
            zorder=FIXED_ZORDER)
    for t, track in enumerate(TRACKS):
        ax.text(0.04, Y_TRACKS - 0.032 - t * TRACK_STEP, TRACK_NAMES[track], fontsize=8,
                va="center", zorder=FIXED_ZORDER)
    ax.text(0.04, Y_HOUSES, "Houses", fontsize=10, weight="bold", va="center",
            zorder=FIXED_ZORDER)
    for name, x in HOUSE_COLUMNS:
        ax.text(x, Y_HOUSES - 0.03, name, fontsize=7.5, ha="center", va="center", color="#333333",
                zorder=FIXED_ZORDER)


def draw_legend(ax: Axes, ruleset: Ruleset) -> None:
    """What the marks on the map mean (in the ruleset's words, :func:`legend`)."""
    ax.text(0.04, Y_LEGEND, "Legend", fontsize=10, weight="bold", va="center",
            zorder=FIXED_ZORDER)
    for k, line in enumerate(legend(ruleset)):
        ax.text(0.04, Y_LEGEND - 0.03 - k * LEGEND_STEP, line, fontsize=7.6, va="center",
                zorder=FIXED_ZORDER)


def draw_fixed_text(map_ax: Axes, panel_ax: Axes, ruleset: Ruleset,
                    impassable: np.ndarray) -> None:
    """Everything that never changes in a game: area names and icons, headings, the legend."""
    draw_area_names(map_ax, ruleset, impassable)
    draw_panel_headings(panel_ax)
    draw_legend(panel_ax, ruleset)


class FixedLayer(NamedTuple):
    """The non-transparent pixels of the fixed text: where they are, their colour and alpha."""

    rows: np.ndarray
    cols: np.ndarray
    rgb: np.ndarray  # float32[n, 3], 0..255
    alpha: np.ndarray  # float32[n, 1], 0..1

    def over(self, picture: np.ndarray) -> np.ndarray:
        """Lay the text over an RGB uint8 picture (straight alpha, as Agg writes it)."""
        below = picture[self.rows, self.cols].astype(np.float32)
        blended = self.rgb * self.alpha + below * (1.0 - self.alpha)
        picture[self.rows, self.cols] = np.rint(blended).astype(np.uint8)
        return picture


_FIXED_LAYERS: dict[tuple[str, bytes], FixedLayer] = {}


def fixed_layer(ruleset: Ruleset, impassable: np.ndarray) -> FixedLayer:
    """The text that never changes in a game, drawn once per (ruleset, impassable areas).

    Only the few pixels the text touches are kept, so the cache stays small and laying it over
    a picture costs little.
    """
    key = (ruleset.name, np.asarray(impassable, dtype=bool).tobytes())
    layer = _FIXED_LAYERS.get(key)
    if layer is None:
        fig, map_ax, panel_ax = new_board_figure(transparent=True)
        draw_fixed_text(map_ax, panel_ax, ruleset, impassable)
        rgba = figure_pixels(fig)
        rows, cols = np.nonzero(rgba[:, :, 3])
        layer = FixedLayer(rows, cols, rgba[rows, cols, :3].astype(np.float32),
                           rgba[rows, cols, 3:].astype(np.float32) / 255.0)
        if len(_FIXED_LAYERS) >= 8:  # one per player count in practice; never grows unbounded
            _FIXED_LAYERS.clear()
        _FIXED_LAYERS[key] = layer
    return layer
