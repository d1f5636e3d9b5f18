"""The Event cards' effects, one small function per card id, by deck (facts §6.2-§6.5): the
Combat effects in ``combat_*`` (their choices in ``combat``), each deck in its module and the
deck's ``_armies``, ``_moves``, ``_nazgul``, ``_corsairs``, ``_army`` and ``_table`` parts, on
the shared pieces (``common``, ``conditions``, ``table``, ``card_tile``, ``card_battles``,
``hits``, ``moves``, ``recruit``).

Each module registers its cards with :func:`wotr_env.engine.events.event` when imported
(:mod:`wotr_env.engine` imports every one); the registry test checks that every card id of the
data has its function.
"""
