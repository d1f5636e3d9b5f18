"""The map's changing parts: borders, each area's node, each area's units and tokens; and the
whole board cut into parts (:func:`board_parts`), each named by everything it shows.

Why parts: the SVG drawer and the replay draw many steps of a game, and most of a board is as it
was a step ago; a part made before is taken from the ruleset's :class:`RulesetDrawing` instead
of made again, and a part drawn before is not drawn again.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.patches import Circle, Ellipse, FancyBboxPatch

from .canvas import MAP, Part, Piece, part_of_pieces, piece
from .fixed_text import draw_fixed_text
from .layout import badge_anchors, layout, node_half_size
from .side_panel import panel_content, panel_pieces
from .style import (
    IMPASSABLE_FILL,
    IMPASSABLE_HATCH,
    LAND_BORDER,
    LAND_FILL,
    PORT_FILL,
    SEA_BORDER,
    SEA_FILL,
    house_colour,
    ink_on,
    tint,
)
from .vocabulary import HIDDEN_ORDER, letters_of, order_faces, seen_face

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..data import Area, Ruleset
    from ..engine.state import GameState

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


# -- the board cut into parts -----------------------------------------------------------------
PART_CACHE = 8192  # board parts kept per ruleset (a 6-player game makes about 1,000)


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
