"""The map: borders, a node per region, and what stands on each (armies, characters, the
Fellowship), plus the legend in the map's empty south-west corner (the sea west of Andrast).

Each region is a node at its layout position (``data/2e/layout.yaml``), shaped by its settlement
(circle Town, hexagon City, square Stronghold, diamond Fortification, dot none) and filled with
its nation's colour; a settlement the enemy holds gets a halo in its controller's side colour.
Around a node: its name above, armies below (one chip per nation, ``Go 3R1E1L``; ``⌂`` marks the
figures inside a besieged Stronghold's box), characters to the right, the Fellowship to the left.
Everything drawn here is public (the board is open; the Fellowship's last known region and
Progress are public, facts §7 and spec §9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.patches import Circle, FancyBboxPatch

from ..data import NATIONS
from ..engine.state import NO_SIDE, OFF_MORDOR
from .layout import board_layout
from .placement import LINE_UNITS, NAME_CHAR, Box, best_spot, obstacles, text_box
from .style import (
    BESIEGED_EDGE,
    BESIEGED_MARK,
    BORDER_LINE,
    CHARACTER_SHORT,
    FELLOWSHIP_COLOUR,
    FIGURE_LETTERS,
    NATION_COLOURS,
    NATION_LABEL,
    NATION_SHORT,
    NEUTRAL_FILL,
    NO_SETTLEMENT_MARKER,
    SETTLEMENT_MARKERS,
    SETTLEMENT_NAMES,
    SIDE_COLOURS,
    ink_on,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..data.board import Board
    from ..engine.state import WotrState

MARKER_SIZE = {"o": 42, "h": 62, "s": 62, "D": 40, ".": 20}  # scatter sizes (points^2)
CHIP_STEP = 10.5  # layout units between stacked army chips


def figures_text(counts: np.ndarray) -> str:
    """A nation's figures in one region as ``3R1E1L`` (regular, elite, leader, Nazgûl)."""
    return "".join(f"{int(c)}{FIGURE_LETTERS[k]}" for k, c in enumerate(counts) if c)


def army_chips(state: WotrState, r: int) -> list[tuple[str, str, bool]]:
    """(nation id, text, besieged) of each nation's figures in region ``r``: first those
    outside, then those in the Stronghold's box."""
    chips = []
    for grid, besieged in ((state.army[r], False), (state.box[r], True)):
        for n in np.flatnonzero(grid.sum(axis=1)):
            text = f"{NATION_SHORT[NATIONS[n]]} {figures_text(grid[n])}"
            chips.append((NATIONS[n], (BESIEGED_MARK + " " if besieged else "") + text, besieged))
    return chips


def characters_here(state: WotrState, r: int) -> list[str]:
    """The short names of the characters in region ``r`` (⌂: inside the besieged box)."""
    cards = state.ruleset.cards
    out = []
    for c in np.flatnonzero(state.char_at == r):
        ch = cards.characters[c]
        name = CHARACTER_SHORT.get(ch.id, ch.name)
        out.append((BESIEGED_MARK if state.char_in_box[c] else "") + name)
    return out


def draw_borders(ax: Axes, board: Board) -> None:
    """One light line per border (each unordered pair once)."""
    xy = board_layout(board).xy
    nb = board.neighbours
    segs = [(xy[a], xy[b]) for a in range(len(nb)) for b in nb[a] if a < b]
    ax.add_collection(LineCollection(segs, colors=BORDER_LINE, linewidths=0.6, zorder=1))


def node_shapes(board: Board) -> list[str]:
    """Each region's marker: its settlement's shape, a dot for none."""
    return [SETTLEMENT_MARKERS[s] if s >= 0 else NO_SETTLEMENT_MARKER for s in board.settlement]


def draw_node_markers(ax: Axes, board: Board, regions: list[int], fs: float) -> None:
    """The markers of ``regions``: settlement shape, filled with the nation's colour."""
    xy, shapes = board_layout(board).xy, node_shapes(board)
    for shape in sorted({shapes[r] for r in regions}):
        idx = [r for r in regions if shapes[r] == shape]
        fill = [NATION_COLOURS[NATIONS[n]] if n >= 0 else NEUTRAL_FILL
                for n in board.region_nation[idx]]
        ax.scatter(xy[idx, 0], xy[idx, 1], s=MARKER_SIZE[shape] * fs ** 2, marker=shape,
                   c=fill, edgecolors="#303030", linewidths=0.6 * fs, zorder=3)


def draw_nodes(ax: Axes, board: Board, fs: float) -> None:
    """Every region's marker and name (the board's fixed part)."""
    lay = board_layout(board)
    draw_node_markers(ax, board, list(range(len(board.regions))), fs)
    for r, (x, y) in enumerate(lay.xy):
        ax.text(x, y - 6.5, lay.labels[r], ha="center", va="bottom", fontsize=5.9 * fs,
                color="#202020", zorder=4)


def draw_control(ax: Axes, state: WotrState, fs: float) -> None:
    """A halo in the controller's side colour under each settlement the enemy holds (its
    marker drawn again over it)."""
    board = state.ruleset.board
    xy, shapes = board_layout(board).xy, node_shapes(board)
    captured = [int(r) for r in np.flatnonzero(
        (state.control != NO_SIDE) & (state.control != board.region_side))]
    for r in captured:
        ax.scatter(*xy[r], s=MARKER_SIZE[shapes[r]] * 2.6 * fs ** 2, marker=shapes[r],
                   c=SIDE_COLOURS[int(state.control[r])], linewidths=0, zorder=2)
    draw_node_markers(ax, board, captured, fs)


def draw_armies(ax: Axes, state: WotrState, fs: float) -> dict[int, list[str]]:
    """The army chips of every region, stacked below its node; returns their texts."""
    xy = board_layout(state.ruleset.board).xy
    drawn: dict[int, list[str]] = {}
    for r in np.flatnonzero(state.army.any(axis=(1, 2)) | state.box.any(axis=(1, 2))):
        x, y = xy[r]
        for k, (nation, text, besieged) in enumerate(army_chips(state, r)):
            drawn.setdefault(int(r), []).append(text)
            colour = NATION_COLOURS[nation]
            ax.text(x, y + 9 + k * CHIP_STEP, text, ha="center", va="center",
                    fontsize=6.6 * fs, weight="bold", family="monospace", color=ink_on(colour),
                    zorder=6, bbox={"boxstyle": "round,pad=0.18", "fc": colour,
                                    "ec": BESIEGED_EDGE if besieged else "white",
                                    "lw": 1.4 if besieged else 0.5,
                                    "ls": "--" if besieged else "-"})
    return drawn


def character_lines(state: WotrState, r: int) -> list[tuple[int, list[str]]]:
    """(side, lines) of the characters in region ``r``: a chip per side, two names a line."""
    cards = state.ruleset.cards
    names = characters_here(state, r)
    here = np.flatnonzero(state.char_at == r)
    out = []
    for side in (0, 1):
        mine = [n for n, c in zip(names, here, strict=True) if cards.character_side[c] == side]
        if mine:
            out.append((side, [", ".join(mine[i:i + 2]) for i in range(0, len(mine), 2)]))
    return out


def draw_characters(ax: Axes, state: WotrState, fs: float) -> list[Box]:
    """Characters on the map, right of their region's node: a chip per side in its colour, the
    Free Peoples' rising above the node's middle and the Shadow's hanging below it (the army
    chips lie under the node, its name over it). Returns the chips' estimated boxes."""
    xy = board_layout(state.ruleset.board).xy
    boxes: list[Box] = []
    for r in sorted({int(a) for a in state.char_at if a >= 0}):
        chips = character_lines(state, r)
        x, y = xy[r, 0] + 7, xy[r, 1]
        for side, lines in chips:
            colour = SIDE_COLOURS[side]
            ya, va = ((y + 1, "center") if len(chips) == 1 else
                      (y - 3.5, "bottom") if side == 0 else (y - 2.5, "top"))
            ax.text(x, ya, "\n".join(lines), ha="left", va=va, fontsize=5.8 * fs,
                    style="italic", weight="bold", color=colour, zorder=7, linespacing=1.0,
                    bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": colour,
                          "lw": 0.7, "alpha": 0.9})
            boxes.append(text_box(x, ya, NAME_CHAR * max(map(len, lines)) + 3,
                                  LINE_UNITS * len(lines) + 1, "left", va))
    return boxes


def fellowship_lines(state: WotrState) -> list[str]:
    """The Fellowship's public marks: Progress (or its Mordor Track step), revealed or hidden."""
    where = (f"Mordor {state.mordor_step}" if state.mordor_step != OFF_MORDOR
             else f"Progress {state.progress}")
    return ["Fellowship", f"{where}, {'REVEALED' if state.revealed else 'hidden'}"]


def draw_fellowship(ax: Axes, state: WotrState, fs: float, around: list[Box]) -> None:
    """The Fellowship figure: a gold ring round its last known region, and its label where it
    hides least of the rest (``around``: what is drawn, :mod:`.placement`)."""
    x, y = board_layout(state.ruleset.board).xy[state.fellowship_region]
    ax.add_patch(Circle((x, y), 8.5, fc="none", ec=FELLOWSHIP_COLOUR, lw=3.0 * fs, zorder=5))
    lines = fellowship_lines(state)
    lx, ly, ha, va = best_spot(state, state.fellowship_region, lines, around)
    ax.text(lx, ly, "\n".join(lines), ha=ha, va=va, fontsize=6.4 * fs, weight="bold",
            color="#8b0000" if state.revealed else "black", zorder=8, linespacing=1.0,
            multialignment="center", bbox={"boxstyle": "round,pad=0.2", "fc": FELLOWSHIP_COLOUR,
                                           "ec": "black", "lw": 0.6})


def draw_legend(ax: Axes, fs: float) -> None:
    """What the marks mean, in the sea west of Andrast (no region lies there)."""
    x0, y0 = 160.0, 330.0
    ax.add_patch(FancyBboxPatch((x0 - 6, y0 - 12), 160, 262, boxstyle="round,pad=2",
                                fc="white", ec="#888888", lw=0.6, alpha=0.85, zorder=2))
    ax.text(x0, y0, "Legend", fontsize=7.5 * fs, weight="bold", va="center", zorder=3)
    y = y0 + 16
    for shape, name in zip(SETTLEMENT_MARKERS, SETTLEMENT_NAMES, strict=True):
        ax.scatter(x0 + 6, y, s=MARKER_SIZE[shape] * fs ** 2, marker=shape, c="white",
                   edgecolors="#303030", linewidths=0.6 * fs, zorder=3)
        ax.text(x0 + 16, y, name, fontsize=6.3 * fs, va="center", zorder=3)
        y += 13
    ax.scatter(x0 + 6, y, s=MARKER_SIZE["s"] * 3.2 * fs ** 2, marker="s", c=SIDE_COLOURS[1],
               linewidths=0, zorder=3)
    ax.scatter(x0 + 6, y, s=MARKER_SIZE["s"] * fs ** 2, marker="s", c="white",
               edgecolors="#303030", linewidths=0.6 * fs, zorder=3)
    ax.text(x0 + 16, y, "captured (halo: holder)", fontsize=6.3 * fs, va="center", zorder=3)
    y += 16
    for text in ("Go 3R1E1L: Gondor, 3 regulars,", "  1 elite, 1 leader (N: Nazgûl)",
                 f"{BESIEGED_MARK} dashed: besieged in the box", "italic: characters",
                 "gold ring: the Fellowship"):
        ax.text(x0, y, text, fontsize=6.0 * fs, va="center", zorder=3)
        y += 12
    y += 4
    for n, nation in enumerate(NATIONS):
        colour = NATION_COLOURS[nation]
        col, row = n % 2, n // 2
        ax.text(x0 + col * 75, y + row * 13, f"{NATION_SHORT[nation]} {NATION_LABEL[nation]}",
                fontsize=6.0 * fs, va="center", color=ink_on(colour), zorder=3,
                bbox={"boxstyle": "round,pad=0.15", "fc": colour, "ec": "none"})


def draw_board(ax: Axes, board: Board, fs: float) -> None:
    """The map's fixed part: borders, region markers and names, the legend (drawn once per
    picture size and kept as pixels, :mod:`~wotr_env.render.picture`)."""
    draw_borders(ax, board)
    draw_nodes(ax, board, fs)
    draw_legend(ax, fs)


def draw_position(ax: Axes, state: WotrState, fs: float) -> None:
    """What changes on the map: control, armies, characters, the Fellowship."""
    draw_control(ax, state, fs)
    chips = draw_armies(ax, state, fs)
    characters = draw_characters(ax, state, fs)
    draw_fellowship(ax, state, fs, obstacles(state, chips) + characters)


__all__ = ["army_chips", "character_lines", "characters_here", "draw_armies", "draw_board",
           "draw_borders", "draw_characters", "draw_control", "draw_fellowship",
           "draw_legend", "draw_node_markers", "draw_nodes", "draw_position", "fellowship_lines",
           "figures_text", "node_shapes"]
