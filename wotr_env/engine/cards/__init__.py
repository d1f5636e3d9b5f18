"""The Event cards' effects, one small function per card id, by deck (facts §6.2-§6.5).

Each module registers its cards with :func:`wotr_env.engine.events.event`; the registry test
checks that every card id of the data has its function.
"""

from . import (  # noqa: F401
    combat_attacks,  # the Combat effects (facts §6.1): combat_* modules
    combat_hits,
    combat_kills,
    combat_rolls,
    fp_character,
    fp_strategy,
    shadow_character,
    shadow_strategy,
)
