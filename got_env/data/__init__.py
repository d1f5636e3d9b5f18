"""Declarative game data: one folder of YAML files per ruleset, read by :mod:`.loader` into the
records of :mod:`.model`."""

from .loader import load_ruleset
from .model import (
    AREA_KINDS,
    DECK_NAMES,
    ORDER_TYPES,
    TRACKS,
    UNIT_TYPES,
    Area,
    DataError,
    House,
    HouseCard,
    OrderToken,
    Ruleset,
    Setup,
    TidesCard,
    WesterosCard,
    WildlingCard,
)

__all__ = [
    "AREA_KINDS", "DECK_NAMES", "ORDER_TYPES", "TRACKS", "UNIT_TYPES", "Area", "DataError",
    "House", "HouseCard", "OrderToken", "Ruleset", "Setup", "TidesCard", "WesterosCard",
    "WildlingCard", "load_ruleset",
]
