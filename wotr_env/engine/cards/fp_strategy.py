"""Free Peoples Strategy deck (facts §6.3)."""

from __future__ import annotations

from ..decision import Action
from ..events import event
from ..politics import activate, advance
from ..state import WotrState
from .common import Choose, choice_step


@event("fp-strat-08-wisdom-of-elrond")
def wisdom_of_elrond(state: WotrState, side: int, card: int) -> None:
    """Activate one Free Peoples nation of the player's choice and advance it one step."""
    state.stack.append(Choose(side, "wisdom-of-elrond"))


@choice_step("wisdom-of-elrond", lambda state, frame: tuple(("nation", n) for n in range(5)))
def _wisdom_nation(state: WotrState, frame: Choose, action: Action) -> None:
    activate(state, action[1])
    advance(state, action[1])
