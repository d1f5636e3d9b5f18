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

Speed: text is what costs in matplotlib, and most of it (area names, icons, headings, legend)
never changes during a game. That text is drawn once per (ruleset, impassable areas) on a
transparent layer, cached as pixels, and laid over each step's picture of the changing parts.

SVG (:func:`board_svg`, the replay viewer): the same picture as a vector document, drawn by the
same functions. The picture is cut into parts (:func:`board_parts`: the borders, each area's node,
each area's units and tokens, the side panel, the fixed text); each part is drawn alone on a
transparent figure of the same geometry, written as SVG, and the parts are stacked in one
document (:func:`svg_document`). A part is named by a key of everything it shows, so a caller
that draws many steps of a game (:class:`SvgParts`) draws each distinct part once. In SVG the
fixed text is drawn directly (on top, ``FIXED_ZORDER``), not laid over as pixels, and text stays
text (``svg.fonttype: none``), which keeps documents small.

Badges (order token, power token, garrison or neutral force) hang on their node at anchors chosen
once per ruleset (:func:`badge_anchors`): for each badge, the first of a fixed list of places
around its own node whose box touches no other node and no badge placed before it, as if every
area carried every badge. Deterministic, and independent of the state (so parts stay cacheable).

Figures are built with :class:`matplotlib.figure.Figure` on an Agg canvas, never through pyplot:
no GUI backend is touched, no global figure registry keeps them alive, and each figure is cleared
and dropped as soon as its pixels are copied, so rendering every step does not leak memory.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import matplotlib
import numpy as np
import yaml
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Ellipse, FancyBboxPatch, Rectangle

from ..data import TRACKS, UNIT_TYPES, DataError
from ..data.loader import DATA_ROOT

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..data import Area, Ruleset
    from ..engine.state import GameState

# -- picture geometry -------------------------------------------------------------------------
FIG_INCHES = (11.0, 11.0)
DPI = 100
BOARD_SHAPE = (int(FIG_INCHES[1] * DPI), int(FIG_INCHES[0] * DPI), 3)  # H x W x RGB
MAP_FRACTION = 0.70  # share of the width given to the map; the side panel takes the rest
MAP_XLIM, MAP_YLIM = (-4.0, 104.0), (-1.0, 151.0)

LAND_SIZE = (13.6, 7.4)  # node width, height in map units
SEA_SIZE = (15.0, 6.4)
PORT_SIZE = (7.0, 4.6)

# Side panel rows (axes fraction, top down). Fixed so that the cached headings line up.
Y_ROUND, Y_THREAT = 0.965, 0.87
Y_TRACKS, TRACK_STEP = 0.80, 0.068
Y_HOUSES, HOUSE_STEP = 0.57, 0.031
Y_LEGEND, LEGEND_STEP = 0.315, 0.0255
HOUSE_COLUMNS = (("castles", 0.40), ("supply", 0.56), ("power", 0.72), ("pool", 0.87))
FIXED_ZORDER = 20  # the fixed text lies over everything, as its cached pixels do in the PNG
WINNER_FILL = "#fff3b0"

# -- colours ----------------------------------------------------------------------------------
HOUSE_COLOURS = {
    "stark": "#b9c3ca",  # grey/white
    "lannister": "#b8262b",
    "baratheon": "#f2c40f",
    "greyjoy": "#262626",
    "tyrell": "#2e8b3e",
    "martell": "#e8771b",
}
UNKNOWN_HOUSE_COLOUR = "#8e44ad"
LAND_FILL = "#f3ead2"  # parchment: nobody holds it
SEA_FILL = "#bcd8ee"
PORT_FILL = "#dde6ee"
IMPASSABLE_FILL, IMPASSABLE_HATCH = "#6b6b6b", "#909090"
BACKGROUND = "#e4eef5"
PANEL_FILL = "#f7f3ea"
LAND_BORDER, SEA_BORDER = "#9aa5ad", "#b3cde3"  # sea lanes light: they are many

UNIT_LETTER = dict(zip(UNIT_TYPES, "FKSE", strict=True))
TRACK_NAMES = dict(zip(TRACKS, ("Iron Throne", "Fiefdoms", "King's Court"), strict=True))
ORDER_LETTER = {"march": "M", "defense": "D", "support": "S", "raid": "R",
                "consolidate-power": "CP"}
HIDDEN_ORDER = "?"
CASTLE_ICON, BARREL_ICON, CROWN_ICON, STAR = "\u265c", "\u26c1", "\u265b", "\u2605"  # ♜ ⛁ ♛ ★
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


# -- layout -----------------------------------------------------------------------------------
@functools.cache
def _read_layout(ruleset_name: str) -> tuple[dict[str, tuple[float, float]], dict[str, str]]:
    path = Path(DATA_ROOT) / ruleset_name / "layout.yaml"
    try:
        with path.open(encoding="utf-8") as f:
            doc = yaml.safe_load(f)
    except FileNotFoundError:
        raise DataError(f"layout.yaml: file not found in {path.parent}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("positions"), dict):
        raise DataError("layout.yaml: expected a mapping with a 'positions' mapping")
    positions: dict[str, tuple[float, float]] = {}
    for area_id, xy in doc["positions"].items():
        if (not isinstance(xy, list) or len(xy) != 2
                or not all(isinstance(v, (int, float)) for v in xy)):
            raise DataError(f"layout.yaml: area {area_id!r}: position must be [x, y], got {xy!r}")
        positions[area_id] = (float(xy[0]), float(xy[1]))
    labels = {k: str(v) for k, v in (doc.get("labels") or {}).items()}
    return positions, labels


def check_layout(positions: dict[str, object], ruleset: Ruleset,
                 labels: dict[str, str] | None = None) -> None:
    """Fail with a DataError naming the id if an area has no position or an id is not an area.

    A missing node would silently drop an area (and its units) from every picture; an unknown id
    is almost always a typo of a real one, so both are errors at load time.
    """
    known = {a.id for a in ruleset.areas}
    for area in ruleset.areas:
        if area.id not in positions:
            raise DataError(f"layout.yaml: area {area.id!r} has no position")
    for area_id in list(positions) + list(labels or {}):
        if area_id not in known:
            raise DataError(f"layout.yaml: unknown area id {area_id!r}")


def load_layout(ruleset: Ruleset) -> dict[str, tuple[float, float]]:
    """Map position of every area: x west->east over 0..100, y south->north over 0..150."""
    positions, labels = _read_layout(ruleset.name)
    check_layout(positions, ruleset, labels)
    return dict(positions)


def area_pixel(ruleset: Ruleset, area_id: str) -> tuple[int, int]:
    """(row, column) of an area's node centre in the rendered picture (for tests and overlays)."""
    x, y = load_layout(ruleset)[area_id]
    height, width = BOARD_SHAPE[:2]
    col = (x - MAP_XLIM[0]) / (MAP_XLIM[1] - MAP_XLIM[0]) * MAP_FRACTION * width
    row = (1.0 - (y - MAP_YLIM[0]) / (MAP_YLIM[1] - MAP_YLIM[0])) * height
    return int(round(row)), int(round(col))


def area_label(area: Area, ruleset: Ruleset) -> str:
    """The name written on a node: the layout's short label if any, "Port" for ports (a port's
    place between its land and its sea says whose it is), else the area name."""
    _, labels = _read_layout(ruleset.name)
    if area.id in labels:
        return labels[area.id]
    return "Port" if area.kind == "port" else area.name


# -- small vocabulary helpers -----------------------------------------------------------------
def house_colour(house_id: str) -> str:
    """The colour of a house's plastic and tokens (a fallback purple for an unknown house)."""
    return HOUSE_COLOURS.get(house_id, UNKNOWN_HOUSE_COLOUR)


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (Greyjoy black needs white text)."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


def tint(colour: str, amount: float = 0.45) -> str:
    """``colour`` mixed with white, so black area names stay legible on a held area's fill."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(255 - (255 - c) * amount) for c in rgb]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def order_abbreviation(state: GameState, token: int) -> str:
    """Short face of an order token: M-1 M0 M+1★ D+1 D+2★ S0 S+1★ R R★ CP CP★."""
    t = state.ruleset.order_tokens[token]
    text = ORDER_LETTER.get(t.type, t.type[:2].upper())
    if t.bonus is not None:
        text += f"{t.bonus:+d}" if t.bonus else "0"
    return text + (STAR if t.special else "")


def observer_index(state: GameState, observer: int | str | None) -> int | None:
    """Accept a house index or a house id (PettingZoo agent names) for the observer."""
    if observer is None:
        return None
    if isinstance(observer, str):
        return state.ruleset.house(observer)
    return int(observer)


def visible_order(state: GameState, area: int, owner: int, observer: int | None) -> str | None:
    """What the observer may see of the order in ``area``: its face, ``"?"``, or None (no order).

    Orders are placed face down (R6) and stay secret from other houses until the reveal; the
    owner is the house whose units the order commands, i.e. the area's holder.
    """
    token = int(state.orders[area])
    if token < 0:
        return None
    if observer is None or state.orders_revealed or owner == observer:
        return order_abbreviation(state, token)
    return HIDDEN_ORDER


def unit_letters(state: GameState, area: int, house: int) -> str:
    """A house's units in an area as letters, routed ones lowercase (as on the text board)."""
    letters = []
    for u, n in enumerate(state.units[area, house]):
        routed = int(state.routed[area, house, u])
        letters += [UNIT_LETTER[UNIT_TYPES[u]].lower()] * routed
        letters += [UNIT_LETTER[UNIT_TYPES[u]]] * (int(n) - routed)
    return "".join(letters)


def icon_text(area: Area) -> str:
    """Castle or city (♜) / stronghold (♜♜), barrels (⛁) and crowns (♛) printed in a land
    area (one ♜ per mustering point: 1e's cities are its castles)."""
    forts = CASTLE_ICON * area.mustering_points
    parts = [forts, BARREL_ICON * area.barrels, CROWN_ICON * area.crowns]
    return " ".join(p for p in parts if p)


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


# -- the fixed layer: names, icons, headings, legend ------------------------------------------
def draw_area_names(ax: Axes, ruleset: Ruleset, impassable: np.ndarray) -> None:
    """Each area's name; for land also its fort/barrel/crown icons (or "impassable")."""
    pos = load_layout(ruleset)
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


# -- the changing layer: the map --------------------------------------------------------------
def draw_borders(ax: Axes, ruleset: Ruleset, pos: dict[str, tuple[float, float]]) -> None:
    """Borders as light lines; a border that touches the sea is dashed blue, like a sea lane."""
    kinds = {a.id: a.kind for a in ruleset.areas}
    by_land, by_sea = [], []
    for a, b in ruleset.borders:
        (by_land if kinds[a] == kinds[b] == "land" else by_sea).append([pos[a], pos[b]])
    ax.add_collection(LineCollection(by_land, colors=LAND_BORDER, linewidths=0.8, zorder=1))
    ax.add_collection(LineCollection(by_sea, colors=SEA_BORDER, linewidths=0.7,
                                     linestyles=(0, (3, 2)), zorder=1))


def node_half_size(area: Area) -> tuple[float, float]:
    """Half width and half height of an area's node (its box; a sea's ellipse's box)."""
    w, h = {"sea": SEA_SIZE, "land": LAND_SIZE}.get(area.kind, PORT_SIZE)
    return w / 2, h / 2


def draw_area_node(ax: Axes, area: Area, xy: tuple[float, float], owner_colour: str | None,
                   impassable: bool) -> tuple[float, float]:
    """The node of one area: box for land, ellipse for sea, small box for a port; filled with a
    tint of the holder's colour and outlined in it. Returns the half width and half height, where
    the tokens are hung."""
    x, y = xy
    edge = owner_colour or ("#8a7a5a" if area.kind == "land" else "#5f86a8")
    lw = 2.6 if owner_colour else 0.8
    half_w, half_h = node_half_size(area)
    w, h = 2 * half_w, 2 * half_h
    if area.kind == "sea":
        fill = tint(owner_colour, 0.3) if owner_colour else SEA_FILL
        ax.add_patch(Ellipse((x, y), w, h, fc=fill, ec=edge, lw=lw, zorder=2))
        return half_w, half_h
    if impassable:
        fill, edge = IMPASSABLE_FILL, "black"
    elif owner_colour:
        fill = tint(owner_colour)
    else:
        fill = LAND_FILL if area.kind == "land" else PORT_FILL
    corner, style = (x - w / 2, y - h / 2), "round,pad=0,rounding_size=1.2"
    ax.add_patch(FancyBboxPatch(corner, w, h, boxstyle=style, fc=fill, ec=edge, lw=lw, zorder=2))
    if impassable:  # a light hatch over the dark fill: the white name on it stays readable
        ax.add_patch(FancyBboxPatch(corner, w, h, boxstyle=style, fc="none",
                                    ec=IMPASSABLE_HATCH, lw=0, hatch="//", zorder=2))
    return half_w, half_h


def unit_chips(state: GameState, area: int) -> tuple[tuple[str, str], ...]:
    """(house id, unit letters) of every house with units in the area, in house order."""
    rs = state.ruleset
    return tuple((rs.houses[h].id, unit_letters(state, area, h))
                 for h in range(rs.num_houses) if state.units[area, h].any())


def draw_units(ax: Axes, chips: tuple[tuple[str, str], ...], area: Area,
               xy: tuple[float, float], half_h: float) -> None:
    """One chip per house with units here, in the house colour, letters F K S E (routed: lower)."""
    if not chips:
        return
    x, y = xy
    row_y = y - 1.4 if area.kind == "sea" else y - half_h + 1.45
    step = 6.0
    x0 = x - step * (len(chips) - 1) / 2
    for k, (house_id, letters) in enumerate(chips):
        colour = house_colour(house_id)
        ax.text(x0 + k * step, row_y, letters, ha="center", va="center", fontsize=7,
                weight="bold", family="monospace", color=ink_on(colour), zorder=6,
                bbox={"boxstyle": "round,pad=0.18", "fc": colour, "ec": "black", "lw": 0.5})


# -- badges: where each area's tokens hang ------------------------------------------------------
# Badge box sizes (map units, about the drawn box) and the places tried around the own node, as
# (fx, fy, dx, dy): centre at (x + fx * half_w + dx, y + fy * half_h + dy). The first place of
# each kind is the classic corner: order top right, power bottom right, defenders bottom left.
BADGE_SIZE = {"order": (5.0, 2.6), "power": (3.4, 3.4), "defender": (3.8, 2.8)}
BADGE_PLACES = {
    "order": ((1, 1, -0.4, -0.2), (-1, 1, 0.4, -0.2), (1, 0, 0.8, 0), (0, 1, 0, 0.6),
              (-1, 0, -0.8, 0), (1, -1, -0.4, 0.2), (0, -1, 0, -0.6)),
    "power": ((1, -1, -0.3, 0.5), (1, 0, 0.9, 0), (-1, -1, 0.3, 0.5), (1, 1, -0.3, -0.5),
              (-1, 0, -0.9, 0), (0, -1, 0, -0.9)),
    "defender": ((-1, -1, 0.6, 0.5), (-1, 0, -0.9, 0), (-1, 1, 0.6, -0.5), (0, -1, 0, -0.9),
                 (1, 0, 0.9, 0)),
}


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Overlapping area of two boxes (x0, y0, x1, y1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


@functools.cache
def _badge_anchors(ruleset_name: str, areas: tuple[tuple[str, str], ...]
                   ) -> dict[tuple[str, str], tuple[float, float]]:
    from ..data import load_ruleset

    rs = load_ruleset(ruleset_name)
    pos = load_layout(rs)
    nodes = {}
    for area in rs.areas:
        (x, y), (hw, hh) = pos[area.id], node_half_size(area)
        nodes[area.id] = (x - hw, y - hh, x + hw, y + hh)
    placed: list[tuple[float, float, float, float]] = []
    anchors = {}
    for kind in BADGE_PLACES:
        bw, bh = BADGE_SIZE[kind]
        for area in rs.areas:
            (x, y), (hw, hh) = pos[area.id], node_half_size(area)
            if kind != "order" and area.kind != "land":  # power tokens, garrisons and neutral
                fx, fy, dx, dy = BADGE_PLACES[kind][0]  # forces lie on land only
                anchors[(area.id, kind)] = (x + fx * hw + dx, y + fy * hh + dy)
                continue
            best, best_cost = None, None
            for fx, fy, dx, dy in BADGE_PLACES[kind]:
                cx, cy = x + fx * hw + dx, y + fy * hh + dy
                box = (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)
                cost = sum(_overlap(box, n) for a, n in nodes.items() if a != area.id)
                cost += sum(_overlap(box, b) for b in placed)
                if best_cost is None or cost < best_cost - 1e-9:
                    best, best_cost = (cx, cy, box), cost
                if cost == 0:
                    break
            anchors[(area.id, kind)] = best[:2]
            placed.append(best[2])
    return anchors


def badge_anchors(ruleset: Ruleset) -> dict[tuple[str, str], tuple[float, float]]:
    """``(area id, "order" | "power" | "defender") -> (x, y)``: where each badge is drawn, chosen
    once per ruleset so that no badge box touches another node or an earlier badge (module
    docstring). Order badges are placed first, then power tokens, then defenders (these two on
    land areas only: nothing else carries them)."""
    return _badge_anchors(ruleset.name, tuple((a.id, a.kind) for a in ruleset.areas))


def draw_order_token(ax: Axes, text: str, owner_colour: str | None, xy: tuple[float, float],
                     gid: str | None = None) -> None:
    """The order token at its badge anchor; a hidden one is a dark "?" disc."""
    x, y = xy
    hidden = text == HIDDEN_ORDER
    ax.text(x, y, text, ha="center", va="center", fontsize=7.0 if hidden else 6.4,
            weight="bold", color="white" if hidden else "black", zorder=8, gid=gid,
            bbox={"boxstyle": "circle,pad=0.2" if hidden else "round,pad=0.2",
                  "fc": "#3b3b3b" if hidden else "#fff8e0",
                  "ec": owner_colour or "black", "lw": 1.4})


def draw_power_token(ax: Axes, house_id: str, xy: tuple[float, float]) -> None:
    """A power token left to hold an area: a disc in the house colour with a "P"."""
    x, y = xy
    colour = house_colour(house_id)
    ax.add_patch(Circle((x, y), 1.4, fc=colour, ec="black", lw=0.7, zorder=7))
    ax.text(x, y, "P", ha="center", va="center", fontsize=5.8, weight="bold",
            color=ink_on(colour), zorder=8)


def draw_defenders(ax: Axes, garrison: tuple[int, str] | None, neutral: int,
                   xy: tuple[float, float]) -> None:
    """Garrison (G, in the home house's colour) or neutral force (N, white)."""
    x, y = xy
    if garrison:
        strength, colour = garrison
        ax.text(x, y, f"G{strength}", ha="center", va="center", fontsize=5.8,
                weight="bold", color=ink_on(colour), zorder=8,
                bbox={"boxstyle": "square,pad=0.15", "fc": colour, "ec": "black", "lw": 0.6})
    if neutral:
        ax.text(x, y, f"N{neutral}", ha="center", va="center", fontsize=5.8,
                weight="bold", color="black", zorder=8,
                bbox={"boxstyle": "square,pad=0.15", "fc": "white", "ec": "black", "lw": 0.6})


# -- parts: the picture cut into independently drawable pieces ---------------------------------
class Part(NamedTuple):
    """One piece of the picture: ``draw(map_ax, panel_ax)`` draws it; ``key`` names everything
    it shows (equal keys: equal drawings), so a drawn part can be reused."""

    key: tuple
    draw: Callable[[Axes, Axes], None]


def area_parts(state: GameState, area: Area, observer: int | None) -> tuple[Part, Part]:
    """The node of one area, and its units and tokens (drawn over every node)."""
    rs = state.ruleset
    i, xy = area.index, load_layout(rs)[area.id]
    owner = int(state.control()[i])
    owner_colour = house_colour(rs.houses[owner].id) if owner >= 0 else None
    impassable = bool(state.impassable[i])
    half_w, half_h = node_half_size(area)
    anchors = badge_anchors(rs)
    chips = unit_chips(state, i)
    order = visible_order(state, i, owner, observer)
    power = rs.houses[state.power_tokens[i]].id if state.power_tokens[i] >= 0 else None
    garrison = None
    if state.garrisons[i]:
        home = rs.home_of[i]
        garrison = (int(state.garrisons[i]),
                    house_colour(rs.houses[home].id) if home >= 0 else "#bbbbbb")
    neutral = int(state.neutral_forces[i])

    def node(map_ax: Axes, panel_ax: Axes) -> None:
        draw_area_node(map_ax, area, xy, owner_colour, impassable)

    def tokens(map_ax: Axes, panel_ax: Axes) -> None:
        draw_units(map_ax, chips, area, xy, half_h)
        if order is not None:
            draw_order_token(map_ax, order, owner_colour, anchors[(area.id, "order")],
                             gid=f"order-{area.id}")
        if power is not None:
            draw_power_token(map_ax, power, anchors[(area.id, "power")])
        draw_defenders(map_ax, garrison, neutral, anchors[(area.id, "defender")])

    return (Part(("node", rs.name, area.id, owner_colour, impassable), node),
            Part(("tokens", rs.name, area.id, chips, order, owner_colour, power, garrison,
                  neutral), tokens))


def board_parts(state: GameState, observer: int | None = None,
                show_viewer: bool = True) -> list[Part]:
    """The changing parts of the picture, in drawing order: borders, every area's node, every
    area's units and tokens, the side panel (the fixed text is :func:`fixed_part`)."""
    rs = state.ruleset
    areas = [area_parts(state, a, observer) for a in rs.areas]

    def borders(map_ax: Axes, panel_ax: Axes) -> None:
        draw_borders(map_ax, rs, load_layout(rs))

    panel = panel_content(state, observer if show_viewer else None, show_viewer)

    def side(map_ax: Axes, panel_ax: Axes) -> None:
        draw_side_panel(panel_ax, panel)

    return ([Part(("borders", rs.name), borders)] + [n for n, _ in areas]
            + [t for _, t in areas] + [Part(("panel", rs.name, panel), side)])


def fixed_part(state: GameState) -> Part:
    """The text that never changes in a game (drawn as pixels once in the PNG path)."""
    rs, impassable = state.ruleset, np.asarray(state.impassable, dtype=bool)

    def fixed(map_ax: Axes, panel_ax: Axes) -> None:
        draw_fixed_text(map_ax, panel_ax, rs, impassable)

    return Part(("fixed", rs.name, impassable.tobytes()), fixed)


def draw_map(ax: Axes, state: GameState, observer: int | None) -> None:
    """Borders, then every area's node with the units and tokens on it."""
    for part in board_parts(state, observer)[:-1]:
        part.draw(ax, None)


# -- the changing layer: the side panel -------------------------------------------------------
def house_chip(ax: Axes, x: float, y: float, house_id: str, text: str, size: float = 7.5) -> None:
    """A label on the house colour, so the panel's rows match the colours on the map."""
    colour = house_colour(house_id)
    ax.text(x, y, text, ha="left", va="center", fontsize=size, weight="bold",
            color=ink_on(colour),
            bbox={"boxstyle": "round,pad=0.25", "fc": colour, "ec": "black", "lw": 0.5})


class PanelContent(NamedTuple):
    """Everything the side panel shows (plain values: the panel part's key)."""

    round: int
    rounds: int
    phase: str
    seen_by: str | None  # None: no "Seen by" line
    threat: int
    threat_max: int
    tracks: tuple[tuple[str, ...], ...]  # per track, house ids from position 1
    houses: tuple[tuple[str, str, tuple[int, ...]], ...]  # (id, name, castles supply power pool)
    winner: str | None  # "Winner: Stark (seven castles held)" once the game is over


def panel_content(state: GameState, observer: int | None,
                  show_viewer: bool = True) -> PanelContent:
    """What the side panel shows for ``state`` (``show_viewer``: the "Seen by" line)."""
    from .log import outcome_text

    rs = state.ruleset
    seen = None
    if show_viewer:
        seen = "everyone (all orders shown)" if observer is None else rs.houses[observer].name
    vp, pool = state.victory_points(), state.power_pool()
    houses = tuple((h.id, h.name, (int(vp[i]), int(state.supply[i]), int(state.power[i]),
                                   int(pool[i])))
                   for i, h in enumerate(rs.houses) if state.in_play[i])
    return PanelContent(int(state.round), int(state.options.get("max_rounds", rs.rounds)),
                        state.phase.name.capitalize(), seen, int(state.wildling_threat),
                        int(rs.wildling_threat.get("max", 12)),
                        tuple(tuple(rs.houses[int(h)].id for h in state.tracks[t] if h >= 0)
                              for t in range(len(TRACKS))),
                        houses, outcome_text(state))


def draw_round_and_threat(ax: Axes, panel: PanelContent) -> None:
    """Round, phase (or the winner and the ending), whose view this is, the wildling threat as a
    0-12 bar."""
    over = "" if panel.winner is None else ", game over"
    ax.text(0.04, Y_ROUND, f"Round {panel.round}/{panel.rounds}{over}", fontsize=13,
            weight="bold", va="center")
    if panel.winner is None:
        ax.text(0.04, Y_ROUND - 0.032, f"{panel.phase} phase", fontsize=10, va="center")
    else:
        ax.text(0.04, Y_ROUND - 0.032, panel.winner, fontsize=8.5, weight="bold",
                va="center", gid="winner",
                bbox={"boxstyle": "round,pad=0.3", "fc": WINNER_FILL, "ec": "#8a7a5a",
                      "lw": 0.8})
    if panel.seen_by is not None:
        ax.text(0.04, Y_ROUND - 0.062, f"Seen by: {panel.seen_by}", fontsize=8, va="center",
                color="#333333")
    ax.text(0.04, Y_THREAT, f"Wildling threat {panel.threat}/{panel.threat_max}", fontsize=9,
            va="center")
    bar_y = Y_THREAT - 0.04
    ax.add_patch(Rectangle((0.04, bar_y), 0.9, 0.02, fc="white", ec="black", lw=0.6))
    share = min(max(panel.threat / panel.threat_max, 0.0), 1.0)
    ax.add_patch(Rectangle((0.04, bar_y), 0.9 * share, 0.02, fc="#5d7fa3", ec="none"))


def draw_track_positions(ax: Axes, panel: PanelContent) -> None:
    """Each influence track's houses, position 1 (the dominance token holder) first."""
    for t, houses in enumerate(panel.tracks):
        y = Y_TRACKS - 0.032 - t * TRACK_STEP - 0.03
        for k, house_id in enumerate(houses):
            house_chip(ax, 0.05 + k * 0.155, y, house_id,
                       f"{k + 1} {house_id[:3].capitalize()}", size=7)


def draw_house_rows(ax: Axes, panel: PanelContent) -> None:
    """Per house in play: castles (victory points), supply level, available power, Power Pool."""
    y = Y_HOUSES - 0.03
    for house_id, name, values in panel.houses:
        y -= HOUSE_STEP
        house_chip(ax, 0.05, y, house_id, name)
        for (_, x), v in zip(HOUSE_COLUMNS, values, strict=True):
            ax.text(x, y, str(int(v)), fontsize=9, ha="center", va="center")


def draw_side_panel(ax: Axes, panel: PanelContent) -> None:
    """The changing parts of the panel (its headings and legend are in the fixed layer)."""
    ax.add_patch(Rectangle((0, 0), 1, 1, fc=PANEL_FILL, ec="#8a7a5a", lw=1.0))
    draw_round_and_threat(ax, panel)
    draw_track_positions(ax, panel)
    draw_house_rows(ax, panel)


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


# -- SVG ----------------------------------------------------------------------------------------
# Text as text, deterministic ids, and short font lists (the fonts matplotlib measures with).
SVG_RC = {"svg.fonttype": "none", "svg.hashsalt": "got_env", "svg.id": None,
          "font.sans-serif": ["DejaVu Sans", "sans-serif"],
          "font.monospace": ["DejaVu Sans Mono", "monospace"]}
_NO_ROTATION = re.compile(r' transform="rotate\(-0 [^)]*\)"')
_AUTO_ID = re.compile(r' id="(?:figure|axes|patch|text|line2d|LineCollection|PatchCollection)'
                      r'_\d+"')
_DEFS = re.compile(r"<clipPath .*?</clipPath>|<pattern .*?</pattern>", re.S)
_DIGITS = re.compile(r"(\d\.\d\d)\d+")  # coordinates to 1/100 pt: a third of the bytes
_INDENT = re.compile(r"\n\s+")
_BODY = re.compile(r'<g id="figure_1">\n(.*)\n </g>\n', re.S)


class SvgPart(NamedTuple):
    """A part as SVG: its elements (figure coordinates) and the definitions they refer to (clip
    paths, hatch patterns)."""

    body: str
    clips: tuple[str, ...]


class SvgParts:
    """Draws parts as SVG, each distinct key once (one reusable transparent figure)."""

    def __init__(self) -> None:
        self.cache: dict[tuple, SvgPart] = {}
        self._fig: tuple[Figure, Axes, Axes] | None = None

    def __call__(self, part: Part) -> SvgPart:
        got = self.cache.get(part.key)
        if got is None:
            got = self.cache[part.key] = self._draw(part)
        return got

    def _draw(self, part: Part) -> SvgPart:
        if self._fig is None:
            self._fig = new_board_figure(transparent=True)
            self._fig[0].patch.set_visible(False)
        fig, map_ax, panel_ax = self._fig
        buf = io.StringIO()
        with matplotlib.rc_context(SVG_RC):
            try:
                part.draw(map_ax, panel_ax)
                fig.savefig(buf, format="svg", metadata={"Date": None})
            finally:
                for ax in (map_ax, panel_ax):
                    for artist in [*ax.patches, *ax.texts, *ax.collections, *ax.lines]:
                        artist.remove()
        svg = buf.getvalue()
        match = _BODY.search(svg)
        body = _AUTO_ID.sub("", match.group(1)) if match else ""
        body = _NO_ROTATION.sub("", _INDENT.sub("\n", _DIGITS.sub(r"\1", body))).strip()
        return SvgPart(body, tuple(_DEFS.findall(svg)))


def svg_document(parts: list[SvgPart], title: str | None = None) -> str:
    """One SVG document of the picture from its parts, in drawing order."""
    width, height = FIG_INCHES[0] * 72, FIG_INCHES[1] * 72
    clips = list(dict.fromkeys(c for p in parts for c in p.clips))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{width:g}pt" height="{height:g}pt" viewBox="0 0 {width:g} {height:g}" '
            f'version="1.1">')
    return "\n".join([head, svg_preamble(title), *(p.body for p in parts if p.body),
                      "<defs>", *clips, "</defs>", "</svg>"])


def svg_preamble(title: str | None = None) -> str:
    """What every document starts with: the style matplotlib writes and the background."""
    width, height = FIG_INCHES[0] * 72, FIG_INCHES[1] * 72
    head = f"<title>{title}</title>" if title else ""
    return (f'{head}<defs><style type="text/css">*{{stroke-linejoin: round; stroke-linecap: '
            f'butt}}</style></defs><rect width="{width:g}" height="{height:g}" '
            f'fill="{BACKGROUND}"/>')


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
    from matplotlib.image import imsave

    path = Path(path)
    imsave(path, render_board(state, observer), format="png")
    return path
