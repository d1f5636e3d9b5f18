"""The changing side panel: round and phase (or the winner), whose view it is, the wildling
threat, the influence tracks, and each house's row (castles, supply, power, Power Pool).

What it shows is read from the state into plain values (:class:`PanelContent`, the panel part's
key); the panel is drawn as pieces (:func:`panel_pieces`), which the SVG drawer reuses one by one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from matplotlib.patches import Rectangle

from ..data import TRACKS
from .canvas import PANEL, Piece, piece
from .log import outcome_text
from .style import (
    HOUSE_COLUMNS,
    HOUSE_STEP,
    PANEL_FILL,
    TRACK_STEP,
    WINNER_FILL,
    Y_HOUSES,
    Y_ROUND,
    Y_THREAT,
    Y_TRACKS,
    house_colour,
    ink_on,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..engine.state import GameState

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
