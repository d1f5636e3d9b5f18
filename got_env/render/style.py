"""How the board picture looks: its geometry (figure, map window, node sizes, the side panel's
rows), the colours, and the colour helpers.

Why one module: the fixed text, the map and the side panel are drawn by different modules, and
their marks must line up and match (the cached headings over the panel rows, a house's colour on
the map and in the panel); every one of them reads these values from here.
"""

from __future__ import annotations

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


# -- colour helpers ---------------------------------------------------------------------------
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
