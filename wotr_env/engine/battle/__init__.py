"""A battle (spec §12, §13; facts §7.2-§7.5), one module per part, each importing only those
below it: :mod:`.forces` (who fights: the forces, Leadership, moving figures; the battle's
fields and :func:`~.forces.battle_of`), :mod:`.combat_cards` (the Combat cards' registry and
order), :mod:`.casualties`, :mod:`.round` (a combat round), :mod:`.siege` (Strongholds in
battle), :mod:`.end` (cease, retreat, advance), :mod:`.sequence` (the :class:`Battle` frame
that runs them), :mod:`.attack` (the die actions that start a battle, target and rearguard).
"""
