"""War of the Ring's data: ``load_ruleset("2e" | "1e")`` and the records it returns."""

from .loader import Ruleset, load_ruleset
from .model import DATA_ROOT, DECKS, FIGURES, NATION_SIDE, NATIONS, RULESETS, SIDES, DataError
from .rules import Rules

__all__ = ["DATA_ROOT", "DECKS", "FIGURES", "NATIONS", "NATION_SIDE", "RULESETS", "SIDES",
           "DataError", "Rules", "Ruleset", "load_ruleset"]
