"""Shadow Strategy deck (facts §6.5)."""

from __future__ import annotations

from ..decision import WILL
from ..events import event
from ..state import FREE_PEOPLES, WotrState


def all_shadow_at_war(state: WotrState, side: int) -> bool:
    return bool((state.politics[5:] == 0).all())


@event("sh-strat-04-the-day-without-dawn", all_shadow_at_war)
def the_day_without_dawn(state: WotrState, side: int, card: int) -> None:
    """The Free Peoples discard every unused die showing Will of the West."""
    row = state.dice[FREE_PEOPLES]
    kept = [int(f) for f in row if f >= 0 and f != WILL]
    row[:] = -1
    row[:len(kept)] = kept
