"""The Event cards' effects, one small function per card id, by deck (facts §6.2-§6.5).

Each module registers its cards with :func:`wotr_env.engine.events.event`; the registry test
checks that every card id of the data has its function.
"""

from . import fp_character, fp_strategy, shadow_character, shadow_strategy  # noqa: F401
