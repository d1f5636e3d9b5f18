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

Figures are built with :class:`matplotlib.figure.Figure` on an Agg canvas, never through pyplot:
no GUI backend is touched, no global figure registry keeps them alive, and each figure is cleared
and dropped as soon as its pixels are copied, so rendering every step does not leak memory.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

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
LAND_BORDER, SEA_BORDER = "#9aa5ad", "#7fa7c9"

UNIT_LETTER = dict(zip(UNIT_TYPES, "FKSE", strict=True))
TRACK_NAMES = dict(zip(TRACKS, ("Iron Throne", "Fiefdoms", "King's Court"), strict=True))
ORDER_LETTER = {"march": "M", "defense": "D", "support": "S", "raid": "R",
                "consolidate-power": "CP"}
HIDDEN_ORDER = "?"
CASTLE_ICON, BARREL_ICON, CROWN_ICON, STAR = "\u265c", "\u26c1", "\u265b", "\u2605"  # ♜ ⛁ ♛ ★
LEGEND = (
    f"{CASTLE_ICON} castle   {CASTLE_ICON * 2} stronghold",
    f"{BARREL_ICON} barrel (supply)   {CROWN_ICON} crown (power)",
    "Units: F footman  K knight  S ship  E siege",
    "          lowercase letter = routed",
    "Order (top right): M march  D defense",
    "          S support  R raid  CP consolidate",
    f"          {STAR} special order    ? hidden order",
    "P power token   G garrison   N neutral force",
    "Thick outline / tint: the area's holder",
    "Dark hatch: impassable area",
    "Lines: borders (dashed blue: by sea)",
)


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
    """Castle (♜) / stronghold (♜♜), barrels (⛁) and crowns (♛) printed in a land area."""
    forts = CASTLE_ICON * {"castle": 1, "stronghold": 2}.get(area.fortification or "", 0)
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
                    color="#1f3f5f")
            continue
        blocked = bool(impassable[area.index])
        if area.kind == "port":
            ax.text(x, y + 1.15, label, ha="center", va="center", fontsize=5.8,
                    color="white" if blocked else "#33475b")
        else:
            ax.text(x, y + 2.3, label, ha="center", va="center", fontsize=6.6, weight="bold",
                    color="white" if blocked else "black")
            icons = "impassable" if blocked else icon_text(area)
            if icons:
                ax.text(x, y + 0.15, icons, ha="center", va="center",
                        fontsize=6.4 if blocked else 7.6,
                        color="white" if blocked else "#5a4630")


def draw_panel_headings(ax: Axes) -> None:
    """Section titles and column heads of the side panel."""
    ax.text(0.04, Y_TRACKS, "Influence tracks", fontsize=10, weight="bold", va="center")
    for t, track in enumerate(TRACKS):
        ax.text(0.04, Y_TRACKS - 0.032 - t * TRACK_STEP, TRACK_NAMES[track], fontsize=8,
                va="center")
    ax.text(0.04, Y_HOUSES, "Houses", fontsize=10, weight="bold", va="center")
    for name, x in HOUSE_COLUMNS:
        ax.text(x, Y_HOUSES - 0.03, name, fontsize=7.5, ha="center", va="center", color="#333333")


def draw_legend(ax: Axes) -> None:
    """What the marks on the map mean."""
    ax.text(0.04, Y_LEGEND, "Legend", fontsize=10, weight="bold", va="center")
    for k, line in enumerate(LEGEND):
        ax.text(0.04, Y_LEGEND - 0.03 - k * LEGEND_STEP, line, fontsize=7.6, va="center")


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
        draw_area_names(map_ax, ruleset, impassable)
        draw_panel_headings(panel_ax)
        draw_legend(panel_ax)
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


def draw_area_node(ax: Axes, area: Area, xy: tuple[float, float], owner_colour: str | None,
                   impassable: bool) -> tuple[float, float]:
    """The node of one area: box for land, ellipse for sea, small box for a port; filled with a
    tint of the holder's colour and outlined in it. Returns the half width and half height, where
    the tokens are hung."""
    x, y = xy
    edge = owner_colour or ("#8a7a5a" if area.kind == "land" else "#5f86a8")
    lw = 2.6 if owner_colour else 0.8
    if area.kind == "sea":
        w, h = SEA_SIZE
        fill = tint(owner_colour, 0.3) if owner_colour else SEA_FILL
        ax.add_patch(Ellipse((x, y), w, h, fc=fill, ec=edge, lw=lw, zorder=2))
        return w / 2, h / 2
    w, h = LAND_SIZE if area.kind == "land" else PORT_SIZE
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
    return w / 2, h / 2


def draw_units(ax: Axes, state: GameState, area: Area, xy: tuple[float, float],
               half_h: float) -> None:
    """One chip per house with units here, in the house colour, letters F K S E (routed: lower)."""
    x, y = xy
    chips = [(h, unit_letters(state, area.index, h))
             for h in range(state.ruleset.num_houses) if state.units[area.index, h].any()]
    if not chips:
        return
    row_y = y - 1.4 if area.kind == "sea" else y - half_h + 1.45
    step = 6.0
    x0 = x - step * (len(chips) - 1) / 2
    for k, (h, letters) in enumerate(chips):
        colour = house_colour(state.ruleset.houses[h].id)
        ax.text(x0 + k * step, row_y, letters, ha="center", va="center", fontsize=7,
                weight="bold", family="monospace", color=ink_on(colour), zorder=6,
                bbox={"boxstyle": "round,pad=0.18", "fc": colour, "ec": "black", "lw": 0.5})


def draw_order_token(ax: Axes, text: str, owner_colour: str | None, xy: tuple[float, float],
                     half_w: float, half_h: float) -> None:
    """The order token on the node's top-right corner; a hidden one is a dark "?" disc."""
    x, y = xy[0] + half_w - 0.4, xy[1] + half_h - 0.2
    hidden = text == HIDDEN_ORDER
    ax.text(x, y, text, ha="center", va="center", fontsize=7.0 if hidden else 6.4,
            weight="bold", color="white" if hidden else "black", zorder=8,
            bbox={"boxstyle": "circle,pad=0.2" if hidden else "round,pad=0.2",
                  "fc": "#3b3b3b" if hidden else "#fff8e0",
                  "ec": owner_colour or "black", "lw": 1.4})


def draw_power_token(ax: Axes, house_id: str, xy: tuple[float, float], half_w: float,
                     half_h: float) -> None:
    """A power token left to hold an area: a disc in the house colour with a "P"."""
    x, y = xy[0] + half_w - 0.3, xy[1] - half_h + 0.5
    colour = house_colour(house_id)
    ax.add_patch(Circle((x, y), 1.4, fc=colour, ec="black", lw=0.7, zorder=7))
    ax.text(x, y, "P", ha="center", va="center", fontsize=5.8, weight="bold",
            color=ink_on(colour), zorder=8)


def draw_defenders(ax: Axes, state: GameState, area: Area, xy: tuple[float, float],
                   half_w: float, half_h: float) -> None:
    """Garrison (G, in the home house's colour) or neutral force (N, white) at bottom-left."""
    i = area.index
    x, y = xy[0] - half_w + 0.6, xy[1] - half_h + 0.5
    if state.garrisons[i]:
        home = state.ruleset.home_of[i]
        colour = house_colour(state.ruleset.houses[home].id) if home >= 0 else "#bbbbbb"
        ax.text(x, y, f"G{state.garrisons[i]}", ha="center", va="center", fontsize=5.8,
                weight="bold", color=ink_on(colour), zorder=8,
                bbox={"boxstyle": "square,pad=0.15", "fc": colour, "ec": "black", "lw": 0.6})
    if state.neutral_forces[i]:
        ax.text(x, y, f"N{state.neutral_forces[i]}", ha="center", va="center", fontsize=5.8,
                weight="bold", color="black", zorder=8,
                bbox={"boxstyle": "square,pad=0.15", "fc": "white", "ec": "black", "lw": 0.6})


def draw_map(ax: Axes, state: GameState, observer: int | None) -> None:
    """Borders, then every area's node with the units and tokens on it."""
    rs = state.ruleset
    pos = load_layout(rs)
    control = state.control()
    hid = [h.id for h in rs.houses]
    draw_borders(ax, rs, pos)
    for area in rs.areas:
        i, xy = area.index, pos[area.id]
        owner = int(control[i])
        owner_colour = house_colour(hid[owner]) if owner >= 0 else None
        half_w, half_h = draw_area_node(ax, area, xy, owner_colour, bool(state.impassable[i]))
        draw_units(ax, state, area, xy, half_h)
        order = visible_order(state, i, owner, observer)
        if order is not None:
            draw_order_token(ax, order, owner_colour, xy, half_w, half_h)
        if state.power_tokens[i] >= 0:
            draw_power_token(ax, hid[state.power_tokens[i]], xy, half_w, half_h)
        draw_defenders(ax, state, area, xy, half_w, half_h)


# -- the changing layer: the side panel -------------------------------------------------------
def house_chip(ax: Axes, x: float, y: float, house_id: str, text: str, size: float = 7.5) -> None:
    """A label on the house colour, so the panel's rows match the colours on the map."""
    colour = house_colour(house_id)
    ax.text(x, y, text, ha="left", va="center", fontsize=size, weight="bold",
            color=ink_on(colour),
            bbox={"boxstyle": "round,pad=0.25", "fc": colour, "ec": "black", "lw": 0.5})


def draw_round_and_threat(ax: Axes, state: GameState, observer: int | None) -> None:
    """Round, phase, whose view this is, and the wildling threat as a 0-12 bar."""
    rounds = state.options.get("max_rounds", state.ruleset.rounds)
    ax.text(0.04, Y_ROUND, f"Round {state.round}/{rounds}", fontsize=13, weight="bold",
            va="center")
    ax.text(0.04, Y_ROUND - 0.032, f"{state.phase.name.capitalize()} phase", fontsize=10,
            va="center")
    seen = ("everyone (all orders shown)" if observer is None
            else state.ruleset.houses[observer].name)
    ax.text(0.04, Y_ROUND - 0.06, f"Seen by: {seen}", fontsize=8, va="center", color="#333333")
    top = state.ruleset.wildling_threat.get("max", 12)
    ax.text(0.04, Y_THREAT, f"Wildling threat {state.wildling_threat}/{top}", fontsize=9,
            va="center")
    bar_y = Y_THREAT - 0.04
    ax.add_patch(Rectangle((0.04, bar_y), 0.9, 0.02, fc="white", ec="black", lw=0.6))
    share = min(max(state.wildling_threat / top, 0.0), 1.0)
    ax.add_patch(Rectangle((0.04, bar_y), 0.9 * share, 0.02, fc="#5d7fa3", ec="none"))


def draw_track_positions(ax: Axes, state: GameState) -> None:
    """Each influence track's houses, position 1 (the dominance token holder) first."""
    hid = [h.id for h in state.ruleset.houses]
    for t in range(len(TRACKS)):
        y = Y_TRACKS - 0.032 - t * TRACK_STEP - 0.03
        houses = [int(h) for h in state.tracks[t] if h >= 0]
        for k, h in enumerate(houses):
            house_chip(ax, 0.05 + k * 0.155, y, hid[h], f"{k + 1} {hid[h][:3].capitalize()}",
                       size=7)


def draw_house_rows(ax: Axes, state: GameState) -> None:
    """Per house in play: castles (victory points), supply level, available power, Power Pool."""
    rs = state.ruleset
    vp, pool = state.victory_points(), state.power_pool()
    y = Y_HOUSES - 0.03
    for h, house in enumerate(rs.houses):
        if not state.in_play[h]:
            continue
        y -= HOUSE_STEP
        house_chip(ax, 0.05, y, house.id, house.name)
        values = (vp[h], state.supply[h], state.power[h], pool[h])
        for (_, x), v in zip(HOUSE_COLUMNS, values, strict=True):
            ax.text(x, y, str(int(v)), fontsize=9, ha="center", va="center")


def draw_side_panel(ax: Axes, state: GameState, observer: int | None) -> None:
    """The changing parts of the panel (its headings and legend are in the fixed layer)."""
    ax.add_patch(Rectangle((0, 0), 1, 1, fc=PANEL_FILL, ec="#8a7a5a", lw=1.0))
    draw_round_and_threat(ax, state, observer)
    draw_track_positions(ax, state)
    draw_house_rows(ax, state)


# -- public API -------------------------------------------------------------------------------
def render_board(state: GameState, observer: int | str | None = None) -> np.ndarray:
    """The board as a ``BOARD_SHAPE`` (H x W x 3) uint8 RGB array, for ``render_mode="rgb_array"``.

    ``observer`` (house index or id) hides other houses' unrevealed orders; None shows them all.
    """
    seen = observer_index(state, observer)
    fig, map_ax, panel_ax = new_board_figure(transparent=False)
    draw_map(map_ax, state, seen)
    draw_side_panel(panel_ax, state, seen)
    picture = np.ascontiguousarray(figure_pixels(fig)[:, :, :3])
    return fixed_layer(state.ruleset, state.impassable).over(picture)


def save_board_png(state: GameState, path: str | Path,
                   observer: int | str | None = None) -> Path:
    """Write the same picture as :func:`render_board` to a PNG file; returns the path."""
    from matplotlib.image import imsave

    path = Path(path)
    imsave(path, render_board(state, observer), format="png")
    return path
