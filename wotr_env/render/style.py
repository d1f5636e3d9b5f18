"""How the War of the Ring picture looks: its geometry, colours and the short words it writes.

Why one module: the map and the side panel are drawn by different modules, and their marks must
match (a nation's colour on the map and on the Political Track, a figure's letter in a chip and
in the legend); both read these values from here.
"""

from __future__ import annotations

DPI = 100
DEFAULT_SIZE = (1600, 1000)  # width, height in pixels
BASE_HEIGHT = 1000  # font sizes below are for this height; other sizes scale them
MAP_FRACTION = 0.745  # share of the width given to the map; the side panel takes the rest
# The map window in layout.yaml's frame (x east, y south): the regions span x 185..930.
MAP_XLIM, MAP_YLIM = (150.0, 975.0), (705.0, -12.0)  # y reversed: north up

# -- colours ----------------------------------------------------------------------------------
BACKGROUND = "#dfe8ee"  # the sea and the map's margin
PANEL_FILL = "#f7f3ea"
BORDER_LINE = "#8d8d8d"
SIDE_COLOURS = ("#1d4fa8", "#b3181e")  # Free Peoples blue, Shadow red (index: side)
NEUTRAL_FILL = "#e9e2cf"  # a region of no nation
NATION_COLOURS = {  # Free Peoples in cool colours, the Shadow in warm ones
    "dwarves": "#8a5a2b",
    "elves": "#2f9e6a",
    "gondor": "#3b6fd8",
    "the-north": "#36b3c9",
    "rohan": "#7ab83a",
    "isengard": "#e2b714",
    "sauron": "#c0392b",
    "southrons": "#e07b1f",
}
NATION_SHORT = {"dwarves": "Dw", "elves": "El", "gondor": "Go", "the-north": "No",
                "rohan": "Ro", "isengard": "Is", "sauron": "Sa", "southrons": "SE"}
NATION_LABEL = {"dwarves": "Dwarves", "elves": "Elves", "gondor": "Gondor",
                "the-north": "The North", "rohan": "Rohan", "isengard": "Isengard",
                "sauron": "Sauron", "southrons": "Southrons & E."}
FELLOWSHIP_COLOUR = "#d4a017"  # the ring's gold
BESIEGED_EDGE = "#202020"

# -- words ------------------------------------------------------------------------------------
FIGURE_LETTERS = ("R", "E", "L", "N")  # regular, elite, leader, Nazgûl (FIGURES order)
SETTLEMENT_MARKERS = ("o", "h", "s", "D")  # town, city, stronghold, fortification
SETTLEMENT_NAMES = ("Town", "City", "Stronghold", "Fortification")
NO_SETTLEMENT_MARKER = "."
FACE_SHORT = {"character": "Chr", "army": "Arm", "muster": "Mus", "army_muster": "A/M",
              "event": "Evt", "will_of_the_west": "Will", "eye": "Eye"}
CHARACTER_SHORT = {  # the name written on the map: short, and unambiguous
    "gandalf-the-grey": "Gandalf", "strider": "Strider", "boromir": "Boromir",
    "legolas": "Legolas", "gimli": "Gimli", "meriadoc": "Merry", "peregrin": "Pippin",
    "aragorn": "Aragorn", "gandalf-the-white": "Gandalf W", "gollum": "Gollum",
    "saruman": "Saruman", "witch-king": "Witch-king", "mouth-of-sauron": "Mouth",
}
BESIEGED_MARK = "\u2302"  # ⌂: inside a besieged Stronghold's box


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


def tint(colour: str, amount: float = 0.45) -> str:
    """``colour`` mixed with white (``amount`` of the colour kept)."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * amount):02x}" for c in rgb)


__all__ = ["BACKGROUND", "BASE_HEIGHT", "BESIEGED_EDGE", "BESIEGED_MARK", "BORDER_LINE",
           "CHARACTER_SHORT", "DEFAULT_SIZE", "DPI", "FACE_SHORT", "FELLOWSHIP_COLOUR",
           "FIGURE_LETTERS", "MAP_FRACTION", "MAP_XLIM", "MAP_YLIM", "NATION_COLOURS",
           "NATION_LABEL", "NATION_SHORT", "NEUTRAL_FILL", "NO_SETTLEMENT_MARKER", "PANEL_FILL",
           "SETTLEMENT_MARKERS", "SETTLEMENT_NAMES", "SIDE_COLOURS", "ink_on", "tint"]
