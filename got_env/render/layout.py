"""Where things lie on the map: the layout of each ruleset (read and checked once), node sizes,
the pixel of an area's node, the label written on it, and the badge anchors.

Badges (order token, power token, garrison or neutral force) hang on their node at anchors chosen
once per ruleset (:func:`badge_anchors`): for each badge, the first of a fixed list of places
around its own node whose box touches no other node and no badge placed before it, as if every
area carried every badge. Deterministic, and independent of the state (so parts stay cacheable).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from ..data import DataError, load_ruleset
from ..data.loader import DATA_ROOT
from .style import BOARD_SHAPE, LAND_SIZE, MAP_FRACTION, MAP_XLIM, MAP_YLIM, PORT_SIZE, SEA_SIZE

if TYPE_CHECKING:
    from ..data import Area, Ruleset

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


def node_half_size(area: Area) -> tuple[float, float]:
    """Half width and half height of an area's node (its box; a sea's ellipse's box)."""
    w, h = {"sea": SEA_SIZE, "land": LAND_SIZE}.get(area.kind, PORT_SIZE)
    return w / 2, h / 2


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
