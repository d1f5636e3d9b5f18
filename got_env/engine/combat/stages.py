"""A combat's vocabulary: its two sides and the stages it walks (read by every module of the
combat, by the house cards' abilities and by the observation encoder)."""

from __future__ import annotations

import enum


class Side(enum.StrEnum):
    """A side of a combat. ``str``-valued, as the digest hashes it (``"attacker"``)."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return _OTHER[self]


_OTHER = {Side.ATTACKER: Side.DEFENDER, Side.DEFENDER: Side.ATTACKER}
SIDES = (Side.ATTACKER, Side.DEFENDER)
ATTACKER, DEFENDER = SIDES


def other(side: Side) -> Side:
    """The side opposing ``side``."""
    return _OTHER[side]


class CombatStage(enum.Enum):
    """Where a combat stands (got_env.engine.combat walks them in this order). The values are
    what the digest hashes."""

    SUPPORT = "support"
    REFUSE = "refuse"
    CARDS = "cards"
    REVEAL = "reveal"
    TIDES_DRAW = "tides_draw"
    TIDES_REDRAW = "tides_redraw"
    BLADE = "blade"
    RESOLVE = "resolve"
    AFTER_WINNER = "after_winner"
    CASUALTIES = "casualties"
    RETREAT = "retreat"
    RETREAT_MOVE = "retreat_move"
    RETREAT_LOSSES = "retreat_losses"
    CLEANUP = "cleanup"
    STAY_LOSSES = "stay_losses"
    AFTER_COMBAT = "after_combat"
    END = "end"
