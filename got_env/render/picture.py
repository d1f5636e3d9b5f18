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
that draws many steps of a game (:class:`SvgParts`) draws each distinct part once; the parts
that change often (the side panel, each area's tokens) are made of pieces, named the same way,
and a new part is put together from its pieces' elements, each distinct piece drawn once
(:mod:`got_env.render.svg_pieces`: the same bytes, a fifth of the time for a replay). In SVG the
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
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import matplotlib
import numpy as np
import yaml
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Ellipse, FancyBboxPatch, Rectangle

from ..data import TRACKS, UNIT_TYPES, DataError
from ..data.loader import DATA_ROOT
from .svg_pieces import defs_by_id, defs_in_order, join_axes, split_axes

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..data import Area, OrderToken, Ruleset
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


def _checked_layout(ruleset: Ruleset) -> dict[str, tuple[float, float]]:
    positions, labels = _read_layout(ruleset.name)
    check_layout(positions, ruleset, labels)
    return positions


def layout(ruleset: Ruleset) -> dict[str, tuple[float, float]]:
    """:func:`load_layout` checked once per ruleset and shared (read only: do not change it).

    Drawing a board asks for positions many times (every node, badge and name); checking the
    layout against the ruleset's areas each time was a noticeable share of a replay's build.
    """
    return ruleset.derived("render.layout", _checked_layout)


def load_layout(ruleset: Ruleset) -> dict[str, tuple[float, float]]:
    """Map position of every area: x west->east over 0..100, y south->north over 0..150 (a
    copy the caller may change; the layout is checked against the ruleset's areas)."""
    return dict(layout(ruleset))


def area_pixel(ruleset: Ruleset, area_id: str) -> tuple[int, int]:
    """(row, column) of an area's node centre in the rendered picture (for tests and overlays)."""
    x, y = layout(ruleset)[area_id]
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


def token_face(token: OrderToken) -> str:
    """Short face of an order token: M-1 M0 M+1★ D+1 D+2★ S0 S+1★ R R★ CP CP★."""
    text = ORDER_LETTER.get(token.type, token.type[:2].upper())
    if token.bonus is not None:
        text += f"{token.bonus:+d}" if token.bonus else "0"
    return text + (STAR if token.special else "")


def order_faces(ruleset: Ruleset) -> tuple[str, ...]:
    """:func:`token_face` of every order token of the ruleset, by token index (kept on the
    ruleset: every order on every drawn board is looked up)."""
    return ruleset.derived("render.order_faces",
                           lambda rs: tuple(token_face(t) for t in rs.order_tokens))


def order_abbreviation(state: GameState, token: int) -> str:
    """Short face of order token ``token`` (an index into the ruleset's tokens)."""
    return order_faces(state.ruleset)[token]


def observer_index(state: GameState, observer: int | str | None) -> int | None:
    """Accept a house index or a house id (PettingZoo agent names) for the observer."""
    if observer is None:
        return None
    if isinstance(observer, str):
        return state.ruleset.house(observer)
    return int(observer)


def seen_face(faces: tuple[str, ...], token: int, revealed: bool, owner: int,
              observer: int | None) -> str | None:
    """The rule of :func:`visible_order` on plain values (so a whole board's orders can be read
    from the state once): the face, ``"?"`` for another house's order before the reveal, or
    None where there is no order (``token`` < 0)."""
    if token < 0:
        return None
    if observer is None or revealed or owner == observer:
        return faces[token]
    return HIDDEN_ORDER


def visible_order(state: GameState, area: int, owner: int, observer: int | None) -> str | None:
    """What the observer may see of the order in ``area``: its face, ``"?"``, or None (no order).

    Orders are placed face down (R6) and stay secret from other houses until the reveal; the
    owner is the house whose units the order commands, i.e. the area's holder.
    """
    return seen_face(order_faces(state.ruleset), int(state.orders[area]),
                     bool(state.orders_revealed), owner, observer)


def letters_of(counts: list[int], routed: list[int]) -> str:
    """Unit letters from one house's counts and routed counts per unit type (in UNIT_TYPES
    order), routed ones lowercase and first: F K S E, f k s e."""
    letters = []
    for u, (n, r) in enumerate(zip(counts, routed, strict=True)):
        letters += [UNIT_LETTER[UNIT_TYPES[u]].lower()] * r
        letters += [UNIT_LETTER[UNIT_TYPES[u]]] * (n - r)
    return "".join(letters)


def unit_letters(state: GameState, area: int, house: int) -> str:
    """A house's units in an area as letters, routed ones lowercase (as on the text board)."""
    return letters_of(state.units[area, house].tolist(), state.routed[area, house].tolist())


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
    return board_unit_chips(state)[area]


def board_unit_chips(state: GameState) -> tuple[tuple[tuple[str, str], ...], ...]:
    """:func:`unit_chips` of every area, read from the arrays once per board and kept while
    the units stay the same (most decisions move none)."""
    drawing = ruleset_drawing(state.ruleset)
    key = (state.units.tobytes(), state.routed.tobytes())
    if drawing.chips[0] != key:
        house_ids = drawing.house_ids
        chips = tuple(tuple((house_ids[h], letters_of(counts, routed[h]))
                            for h, counts in enumerate(units) if any(counts))
                      for units, routed in zip(state.units.tolist(), state.routed.tolist(),
                                               strict=True))
        drawing.chips = (key, chips)
    return drawing.chips[1]


def unit_chip_pieces(chips: tuple[tuple[str, str], ...], area: Area, xy: tuple[float, float],
                     half_h: float) -> list[Piece]:
    """One chip per house with units here, side by side on the node's lower edge (a sea's: its
    middle), as pieces (:func:`draw_unit_chip`)."""
    if not chips:
        return []
    x, y = xy
    row_y = y - 1.4 if area.kind == "sea" else y - half_h + 1.45
    step = 6.0
    x0 = x - step * (len(chips) - 1) / 2
    return [piece(MAP, draw_unit_chip, x0 + k * step, row_y, house_id, letters)
            for k, (house_id, letters) in enumerate(chips)]


def draw_unit_chip(ax: Axes, x: float, y: float, house_id: str, letters: str) -> None:
    """A house's units in one area: letters F K S E (routed: lower case) on the house colour."""
    colour = house_colour(house_id)
    ax.text(x, y, letters, ha="center", va="center", fontsize=7,
            weight="bold", family="monospace", color=ink_on(colour), zorder=6,
            bbox={"boxstyle": "round,pad=0.18", "fc": colour, "ec": "black", "lw": 0.5})


def draw_units(ax: Axes, chips: tuple[tuple[str, str], ...], area: Area,
               xy: tuple[float, float], half_h: float) -> None:
    """One chip per house with units here, in the house colour, letters F K S E (routed: lower)."""
    for chip in unit_chip_pieces(chips, area, xy, half_h):
        chip.draw(ax, ax)


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
    pos = layout(rs)
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
    land areas only: nothing else carries them). Kept on the ruleset (read only): every area's
    tokens ask for it at every drawn step."""
    return ruleset.derived("render.badge_anchors", lambda rs: _badge_anchors(
        rs.name, tuple((a.id, a.kind) for a in rs.areas)))


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
MAP, PANEL = 0, 1  # the axes a piece draws on
PART_CACHE = 8192  # board parts kept per ruleset (a 6-player game makes about 1,000)


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


class RulesetDrawing:
    """What drawing any board of a ruleset needs, worked out once and kept on the ruleset
    (``Ruleset.derived``): node positions and sizes, badge anchors, colours, order faces, the
    borders part, and the last board's unit chips. Reading these per area and per step (the
    layout checked again each time, the anchors' key rebuilt) was a fifth of a replay's
    build."""

    def __init__(self, rs: Ruleset):
        pos, anchors = layout(rs), badge_anchors(rs)
        self.name = rs.name
        self.areas = rs.areas
        self.xy = [pos[a.id] for a in rs.areas]
        self.half_h = [node_half_size(a)[1] for a in rs.areas]
        self.anchors = [tuple(anchors[(a.id, kind)] for kind in ("order", "power", "defender"))
                        for a in rs.areas]
        self.house_ids = [h.id for h in rs.houses]
        self.colours = [house_colour(h) for h in self.house_ids]
        self.garrison_colours = [self.colours[home] if home >= 0 else "#bbbbbb"
                                 for home in rs.home_of.tolist()]
        self.faces = order_faces(rs)
        self.borders = Part(("borders", rs.name),
                            lambda map_ax, panel_ax: draw_borders(map_ax, rs, pos))
        self.chips: tuple = (None, ())  # (units and routed bytes, board_unit_chips)
        self.parts: dict[tuple, Part] = {}  # board parts by key (node, tokens, panel)

    def keep(self, part: Part) -> Part:
        """Keep ``part`` in :attr:`parts` (emptied now and then: a long run of games, say an
        env rendering every step, draws ever new boards) and give it back."""
        if len(self.parts) >= PART_CACHE:
            self.parts.clear()
        self.parts[part.key] = part
        return part


def ruleset_drawing(ruleset: Ruleset) -> RulesetDrawing:
    """The :class:`RulesetDrawing` of ``ruleset`` (made on first use)."""
    return ruleset.derived("render.drawing", RulesetDrawing)


def area_parts(state: GameState, area: Area, observer: int | None) -> tuple[Part, Part]:
    """The node of one area, and its units and tokens (drawn over every node)."""
    i = area.index
    return _area_parts(ruleset_drawing(state.ruleset), i, state.control_list()[i],
                       bool(state.impassable[i]), board_unit_chips(state)[i],
                       int(state.orders[i]), bool(state.orders_revealed),
                       int(state.power_tokens[i]), int(state.garrisons[i]),
                       int(state.neutral_forces[i]), observer)


def _area_parts(d: RulesetDrawing, i: int, owner: int, impassable: bool,
                chips: tuple[tuple[str, str], ...], token: int, revealed: bool,
                power_token: int, garrison: int, neutral: int,
                observer: int | None) -> tuple[Part, Part]:
    """:func:`area_parts` from plain values (read from the state once per board by
    :func:`board_parts`), the parts taken from ``d.parts`` where made before."""
    area = d.areas[i]
    owner_colour = d.colours[owner] if owner >= 0 else None
    order = seen_face(d.faces, token, revealed, owner, observer)
    power = d.house_ids[power_token] if power_token >= 0 else None
    defender = (garrison, d.garrison_colours[i]) if garrison else None
    key = ("node", d.name, area.id, owner_colour, impassable)
    node = d.parts.get(key)
    if node is None:
        node = d.keep(Part(key, functools.partial(_draw_node, area, d.xy[i], owner_colour,
                                                  impassable)))
    key = ("tokens", d.name, area.id, chips, order, owner_colour, power, defender, neutral)
    tokens = d.parts.get(key)
    if tokens is None:
        tokens = d.keep(part_of_pieces(key, functools.partial(
            token_pieces, area, d.xy[i], d.half_h[i], d.anchors[i], chips, order, owner_colour,
            power, defender, neutral)))
    return node, tokens


def _draw_node(area: Area, xy: tuple[float, float], owner_colour: str | None, impassable: bool,
               map_ax: Axes, panel_ax: Axes) -> None:
    draw_area_node(map_ax, area, xy, owner_colour, impassable)


def token_pieces(area: Area, xy: tuple[float, float], half_h: float,
                 anchors: tuple[tuple[float, float], ...], chips: tuple[tuple[str, str], ...],
                 order: str | None, owner_colour: str | None, power: str | None,
                 garrison: tuple[int, str] | None, neutral: int) -> list[Piece]:
    """An area's units, order (``order``: what the viewer may see of it), power token and
    defenders, as pieces; ``anchors``: its order, power and defender badge anchors."""
    pieces = unit_chip_pieces(chips, area, xy, half_h)
    if order is not None:
        pieces.append(piece(MAP, draw_order_token, order, owner_colour, anchors[0],
                            f"order-{area.id}"))
    if power is not None:
        pieces.append(piece(MAP, draw_power_token, power, anchors[1]))
    if garrison or neutral:
        pieces.append(piece(MAP, draw_defenders, garrison, neutral, anchors[2]))
    return pieces


def board_parts(state: GameState, observer: int | None = None,
                show_viewer: bool = True) -> list[Part]:
    """The changing parts of the picture, in drawing order: borders, every area's node, every
    area's units and tokens, the side panel (the fixed text is :func:`fixed_part`).

    The state's arrays are read once for the whole board (control, orders, tokens, the unit
    chips), not once per area, and a part made before is taken from the ruleset's
    :class:`RulesetDrawing` rather than made again: most of a board is as it was a step ago.
    """
    d = ruleset_drawing(state.ruleset)
    revealed = bool(state.orders_revealed)
    columns = zip(state.control_list(), map(bool, state.impassable.tolist()),
                  board_unit_chips(state), state.orders.tolist(), state.power_tokens.tolist(),
                  state.garrisons.tolist(), state.neutral_forces.tolist(), strict=True)
    areas = [_area_parts(d, i, owner, impassable, chips, token, revealed, power, garrison,
                         neutral, observer)
             for i, (owner, impassable, chips, token, power, garrison, neutral)
             in enumerate(columns)]
    panel = panel_content(state, observer if show_viewer else None, show_viewer)
    key = ("panel", d.name, panel)
    side = d.parts.get(key)
    if side is None:
        side = d.keep(part_of_pieces(key, functools.partial(panel_pieces, panel)))
    return [d.borders, *(n for n, _ in areas), *(t for _, t in areas), side]


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


def draw_panel_background(ax: Axes) -> None:
    """The panel's parchment and frame."""
    ax.add_patch(Rectangle((0, 0), 1, 1, fc=PANEL_FILL, ec="#8a7a5a", lw=1.0))


def draw_round_line(ax: Axes, text: str) -> None:
    """"Round 3/10" (and ", game over" at the end)."""
    ax.text(0.04, Y_ROUND, text, fontsize=13, weight="bold", va="center")


def draw_phase_line(ax: Axes, phase: str) -> None:
    """The phase under the round while the game goes on."""
    ax.text(0.04, Y_ROUND - 0.032, f"{phase} phase", fontsize=10, va="center")


def draw_winner_line(ax: Axes, winner: str) -> None:
    """The winner and the ending, boxed, where the phase was."""
    ax.text(0.04, Y_ROUND - 0.032, winner, fontsize=8.5, weight="bold",
            va="center", gid="winner",
            bbox={"boxstyle": "round,pad=0.3", "fc": WINNER_FILL, "ec": "#8a7a5a", "lw": 0.8})


def draw_seen_by(ax: Axes, seen_by: str) -> None:
    """Whose view the picture is."""
    ax.text(0.04, Y_ROUND - 0.062, f"Seen by: {seen_by}", fontsize=8, va="center",
            color="#333333")


def draw_threat(ax: Axes, threat: int, threat_max: int) -> None:
    """The wildling threat in words and as a bar."""
    ax.text(0.04, Y_THREAT, f"Wildling threat {threat}/{threat_max}", fontsize=9, va="center")
    bar_y = Y_THREAT - 0.04
    ax.add_patch(Rectangle((0.04, bar_y), 0.9, 0.02, fc="white", ec="black", lw=0.6))
    share = min(max(threat / threat_max, 0.0), 1.0)
    ax.add_patch(Rectangle((0.04, bar_y), 0.9 * share, 0.02, fc="#5d7fa3", ec="none"))


def draw_panel_number(ax: Axes, x: float, y: float, value: int) -> None:
    """One number of a house's row (castles, supply, power, pool)."""
    ax.text(x, y, str(int(value)), fontsize=9, ha="center", va="center")


def round_and_threat_pieces(panel: PanelContent) -> list[Piece]:
    """Round, phase (or the winner and the ending), whose view this is, the wildling threat as a
    0-12 bar."""
    over = "" if panel.winner is None else ", game over"
    pieces = [piece(PANEL, draw_round_line, f"Round {panel.round}/{panel.rounds}{over}"),
              piece(PANEL, draw_phase_line, panel.phase) if panel.winner is None
              else piece(PANEL, draw_winner_line, panel.winner)]
    if panel.seen_by is not None:
        pieces.append(piece(PANEL, draw_seen_by, panel.seen_by))
    pieces.append(piece(PANEL, draw_threat, panel.threat, panel.threat_max))
    return pieces


def track_pieces(panel: PanelContent) -> list[Piece]:
    """Each influence track's houses, position 1 (the dominance token holder) first."""
    pieces = []
    for t, houses in enumerate(panel.tracks):
        y = Y_TRACKS - 0.032 - t * TRACK_STEP - 0.03
        for k, house_id in enumerate(houses):
            pieces.append(piece(PANEL, house_chip, 0.05 + k * 0.155, y, house_id,
                                f"{k + 1} {house_id[:3].capitalize()}", 7))
    return pieces


def house_row_pieces(panel: PanelContent) -> list[Piece]:
    """Per house in play: castles (victory points), supply level, available power, Power Pool."""
    pieces = []
    y = Y_HOUSES - 0.03
    for house_id, name, values in panel.houses:
        y -= HOUSE_STEP
        pieces.append(piece(PANEL, house_chip, 0.05, y, house_id, name, 7.5))
        for (_, x), v in zip(HOUSE_COLUMNS, values, strict=True):
            pieces.append(piece(PANEL, draw_panel_number, x, y, v))
    return pieces


def panel_pieces(panel: PanelContent) -> list[Piece]:
    """The changing parts of the panel, as pieces (its headings and legend are in the fixed
    layer)."""
    return [piece(PANEL, draw_panel_background), *round_and_threat_pieces(panel),
            *track_pieces(panel), *house_row_pieces(panel)]


def _draw_pieces(ax: Axes, pieces: list[Piece]) -> None:
    for p in pieces:
        p.draw(ax, ax)


def draw_round_and_threat(ax: Axes, panel: PanelContent) -> None:
    """:func:`round_and_threat_pieces`, drawn on the panel axes ``ax``."""
    _draw_pieces(ax, round_and_threat_pieces(panel))


def draw_track_positions(ax: Axes, panel: PanelContent) -> None:
    """:func:`track_pieces`, drawn on the panel axes ``ax``."""
    _draw_pieces(ax, track_pieces(panel))


def draw_house_rows(ax: Axes, panel: PanelContent) -> None:
    """:func:`house_row_pieces`, drawn on the panel axes ``ax``."""
    _draw_pieces(ax, house_row_pieces(panel))


def draw_side_panel(ax: Axes, panel: PanelContent) -> None:
    """:func:`panel_pieces`, drawn on the panel axes ``ax``."""
    _draw_pieces(ax, panel_pieces(panel))


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


class _Element(NamedTuple):
    """One artist of a piece as SVG: on which axes, its zorder, its place among the piece's
    artists, its element."""

    axes: int
    zorder: float
    index: int
    text: str


class SvgParts:
    """Draws parts as SVG, each distinct key once (one reusable transparent figure).

    A part made of pieces (``Part.pieces``) is put together from its pieces' elements, each
    distinct piece drawn once (:mod:`got_env.render.svg_pieces`): the same bytes as drawing the
    whole part, at a fraction of the cost where most pieces recur (a side panel is some fifty
    pieces; in a 6-player game 122 panels hold about 600 distinct ones). The new pieces of a
    part are drawn together on one figure, then cut apart. A piece that cannot be cut (the
    document is not as expected) is marked, and a part that holds it is drawn whole.
    ``pieces=False`` draws every part whole: the reference the tests hold the pieced drawing to.
    """

    def __init__(self, pieces: bool = True) -> None:
        self.use_pieces = pieces
        self.cache: dict[tuple, SvgPart] = {}
        self.pieces: dict[tuple, tuple[_Element, ...] | None] = {}  # None: cannot be cut
        self.defs: dict[str, str] = {}  # id -> clip path or hatch pattern the pieces use
        self._fig: tuple[Figure, Axes, Axes] | None = None

    def __call__(self, part: Part) -> SvgPart:
        got = self.cache.get(part.key)
        if got is None:
            if part.pieces is not None and self.use_pieces:
                got = self._assemble(part.pieces())
            if got is None:
                got = self._draw(part)
            self.cache[part.key] = got
        return got

    def _render(self, draw: Callable[[Axes, Axes], None]) -> tuple[str, str]:
        """(body, document) of what ``draw(map_ax, panel_ax)`` draws; the body is the figure's
        content, ids of plain groups removed, coordinates shortened, not indented."""
        if self._fig is None:
            self._fig = new_board_figure(transparent=True)
            self._fig[0].patch.set_visible(False)
            FigureCanvasSVG(self._fig[0])
        fig, map_ax, panel_ax = self._fig
        buf = io.StringIO()
        # What savefig would do around print_svg, less its general machinery (a tenth of the
        # cost of a small piece): the SVG settings for the drawing, then the figure's dpi and
        # the settings as they were. Only SVG_RC's keys are set and put back, not all of
        # rcParams copied (matplotlib.rc_context), which cost as much again.
        saved = {k: matplotlib.rcParams[k] for k in SVG_RC}
        try:
            matplotlib.rcParams.update(SVG_RC)
            draw(map_ax, panel_ax)
            fig.canvas.print_svg(buf, metadata={"Date": None})
        finally:
            fig.dpi = DPI
            matplotlib.rcParams.update(saved)
            for ax in (map_ax, panel_ax):
                for artist in [*ax.patches, *ax.texts, *ax.collections, *ax.lines]:
                    artist.remove()
        svg = buf.getvalue()
        match = _BODY.search(svg)
        body = _AUTO_ID.sub("", match.group(1)) if match else ""
        body = _NO_ROTATION.sub("", _INDENT.sub("\n", _DIGITS.sub(r"\1", body))).strip()
        return body, svg

    def _draw(self, part: Part) -> SvgPart:
        body, svg = self._render(part.draw)
        return SvgPart(body, tuple(_DEFS.findall(svg)))

    def _assemble(self, pieces: list[Piece]) -> SvgPart | None:
        """The part that is these pieces, from their elements; None if one cannot be cut."""
        new = {p.key: p for p in pieces if p.key not in self.pieces}
        if new:
            self._cut(list(new.values()))
        elements = []
        for at, p in enumerate(pieces):
            drawn = self.pieces[p.key]
            if drawn is None:
                return None
            elements += [(e.axes, e.zorder, at, e.index, e.text) for e in drawn]
        elements.sort(key=lambda e: e[:4])  # as matplotlib draws: by zorder, then as added
        clips = defs_in_order((e[4] for e in elements), self.defs)
        if clips is None:
            return None
        return SvgPart(join_axes([[e[4] for e in elements if e[0] == a] for a in (MAP, PANEL)]),
                       clips)

    def _cut(self, pieces: list[Piece]) -> None:
        """Draw ``pieces`` on one figure and keep each one's elements (``self.pieces``)."""
        artists: tuple[list, list] = ([], [])  # per axes: (zorder, added, piece, index)

        def draw(map_ax: Axes, panel_ax: Axes) -> None:
            axes = (map_ax, panel_ax)
            for n, p in enumerate(pieces):
                before = [{id(a) for a in ax.get_children()} for ax in axes]
                p.draw(map_ax, panel_ax)
                index = 0
                for k, ax in enumerate(axes):
                    for artist in ax.get_children():
                        if id(artist) not in before[k]:
                            artists[k].append((artist.get_zorder(), len(artists[k]), n, index))
                            index += 1

        body, svg = self._render(draw)
        found = _DEFS.findall(svg)
        defs = defs_by_id(found)
        split = split_axes(body)
        if (split is not None and [len(e) for e in split] == [len(a) for a in artists]
                and defs_in_order([t for e in split for t in e], defs) == tuple(found)):
            cut: list[list[_Element]] = [[] for _ in pieces]
            for k, (elements, drawn) in enumerate(zip(split, artists, strict=True)):
                # the k-th axes' elements are its artists sorted as matplotlib draws them
                for text, (zorder, _, n, index) in zip(elements, sorted(drawn), strict=True):
                    cut[n].append(_Element(k, zorder, index, text))
            self.defs.update(defs)
            for p, elements in zip(pieces, cut, strict=True):
                self.pieces[p.key] = tuple(elements)
        elif len(pieces) > 1:
            for p in pieces:  # find the one that cannot be cut: the others still can
                self._cut([p])
        else:
            self.pieces[pieces[0].key] = None


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
