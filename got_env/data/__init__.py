"""Declarative game data: one folder of YAML files per ruleset, read by :mod:`.loader`."""

from .loader import (
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
    load_ruleset,
)

__all__ = [
    "AREA_KINDS", "DECK_NAMES", "ORDER_TYPES", "TRACKS", "UNIT_TYPES", "Area", "DataError",
    "House", "HouseCard", "OrderToken", "Ruleset", "Setup", "TidesCard", "WesterosCard",
    "WildlingCard", "load_ruleset",
]
