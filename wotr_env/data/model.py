"""The vocabulary of War of the Ring's data files: sides, nations, settlements, figures, decks.

Ids are the fact sheet's (``../shared/facts/war-of-the-ring.md``): kebab-case English names. The
engine indexes its numpy arrays by the position of an id in these tuples, so their order is part
of the data format (an observation's nation block follows ``NATIONS``).
"""

from __future__ import annotations

from pathlib import Path

from boardkit.datafiles import DataError  # the kit's class: one for every game's data

DATA_ROOT = Path(__file__).resolve().parent
RULESETS = ("2e", "1e")

SIDES = ("free_peoples", "shadow")
# Free Peoples nations first, then the Shadow's: a side's nations are a contiguous block.
NATIONS = ("dwarves", "elves", "gondor", "the-north", "rohan", "isengard", "sauron", "southrons")
NATION_SIDE = {n: ("free_peoples" if i < 5 else "shadow") for i, n in enumerate(NATIONS)}
# Settlement kinds; a fortification is not a settlement (facts §1.1) but is kept in this field.
SETTLEMENTS = ("town", "city", "stronghold", "fortification")
# Army figures: a nation's regulars and elites, and its leaders (Free Peoples) or Nazgûl (Sauron).
FIGURES = ("regular", "elite", "leader", "nazgul")
DECKS = ("fp-character", "fp-strategy", "shadow-character", "shadow-strategy")

__all__ = ["DATA_ROOT", "DECKS", "FIGURES", "NATIONS", "NATION_SIDE", "RULESETS", "SETTLEMENTS",
           "SIDES", "DataError"]
