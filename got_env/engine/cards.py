"""House-card abilities: one table keyed by card id (STYLE.md habit 6).

Combat (combat.py) calls the abilities of the two revealed cards at fixed moments (R15.3.3-R15.3.4,
facts §7 timing words):

* ``cancel``: a step pushed right after the reveal, before every other ability (Tyrion).
* ``reveal``: a step pushed after the cancel abilities, in Iron Throne order (Mace, Doran, ...).
* ``strength`` / ``swords`` / ``fortifications``: static modifiers, ``fn(state, combat, side)
  -> int`` added while strengths and icons are worked out (Stannis, Catelyn, Asha, ...).
* ``after_winner``: a step pushed once the winner is known ("if you win/lose").
* ``after_combat``: a step pushed after the combat cleanup (Patchface, Loras).

Steps are registered with :func:`got_env.engine.flow.step`; their frame carries ``side``
("attacker" or "defender") and they find the combat as the innermost "combat" frame.
Cards without text (``ability: null`` in the data) need no entry. The abilities themselves are
added card by card; a card with text and no entry plays as a plain card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .state import GameState

Modifier = Callable[[GameState, dict, str], int]


@dataclass(frozen=True)
class Ability:
    card: str
    cancel: str | None = None
    reveal: str | None = None
    strength: Modifier | None = None
    swords: Modifier | None = None
    fortifications: Modifier | None = None
    after_winner: str | None = None
    after_combat: str | None = None


ABILITIES: dict[str, Ability] = {}


def register(ability: Ability) -> Ability:
    if ability.card in ABILITIES:
        raise ValueError(f"ability of {ability.card!r} registered twice")
    ABILITIES[ability.card] = ability
    return ability


def combat_frame(state: GameState) -> dict:
    """The innermost combat on the stack (for ability steps)."""
    for frame in reversed(state.stack):
        if frame["step"] == "combat":
            return frame
    raise LookupError("no combat in progress")
