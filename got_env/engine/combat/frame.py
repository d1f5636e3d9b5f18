"""The combat's frame (:class:`CombatFrame`: its fields and its stage machine) and
:func:`combat_frame`, the innermost combat on the stack. What each field means, and which
module plays which stage, is told in the package's docstring (got_env.engine.combat)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from boardkit.decision import Decision

from ..decision import Action
from ..frames import GotFrame
from ..state import GameState
from .ability_steps import _after_combat, _after_winner, _reveal
from .cleanup import _act_stay_loss, _run_cleanup, _stay_losses
from .resolution import _act_casualty, _casualty, _resolve
from .retreat import _act_retreat, _act_retreat_loss, _retreat, _retreat_losses
from .reveal import (
    _act_blade,
    _act_card,
    _act_redraw,
    _act_refusal,
    _act_support,
    _ask_blade,
    _ask_cards,
    _ask_refusal,
    _ask_support,
    _draw_tides,
    _show_tides,
)
from .stages import ATTACKER, DEFENDER, CombatStage, Side

#: (timing, side, card): an ability step already pushed in this part of the combat.
AbilityKey = tuple[str, Side, int]


@dataclass(slots=True)
class CombatFrame(GotFrame):
    """One combat. The first six fields come from the March that starts it; the others are None
    until the combat sets them (the module docstring says who sets which). Its ``run`` and
    ``act`` call the handler of its ``stage`` (:data:`_RUN_STAGE`, :data:`_ACT_STAGE`)."""

    step: ClassVar[str] = "combat"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({
        "stage", "support_given", "asked", "march_token", "support_areas", "refusals", "cards",
        "tides_deck", "tides", "revealed", "abilities_done", "blade_side", "tides_revealed",
        "blade", "strength", "winner", "loser", "casualties", "retreat_to", "retreated",
        "control_before_retreat", "stayed", "entered", "won_at_once", "retreat_chooser",
        "attackers_stay", "card_to_hand"})

    attacker: int
    defender: int
    area: int
    origin: int
    units: list[int]  # the attacking units still waiting in ``origin``
    march_bonus: int
    stage: CombatStage | None = None
    support_given: dict[int, Side] | None = None  # Support area -> side it backs
    asked: list[int] | None = None
    march_token: int | None = None
    support_areas: dict[int, list[int]] | None = None
    refusals: list[list] | None = None  # [side, supporter] pairs asked so far
    cards: dict[Side, int | None] | None = None
    tides_deck: list[int] | None = None
    tides: dict[Side, int] | None = None
    revealed: bool | None = None
    abilities_done: dict[AbilityKey, None] | None = None  # an ordered set
    blade_side: Side | None = None
    tides_revealed: bool | None = None
    blade: Side | None = None
    strength: dict[Side, int] | None = None
    winner: Side | None = None
    loser: Side | None = None
    casualties: list[list] | None = None  # [side, casualties left]
    retreat_to: int | None = None
    retreated: list[int] | None = None
    control_before_retreat: list[int] | None = None
    stayed: list[int] | None = None
    entered: list[int] | None = None
    won_at_once: Side | None = None
    retreat_chooser: int | None = None
    attackers_stay: bool | None = None
    card_to_hand: list[Side] | None = None

    def run(self, state: GameState) -> Decision | None:
        """Run the handler of the frame's stage (the first: support)."""
        if self.stage is None:
            self.stage = CombatStage.SUPPORT
        return _RUN_STAGE[self.stage](state, self)

    def act(self, state: GameState, action: Action) -> None:
        """Play ``action`` with the handler of the stage that asked."""
        _ACT_STAGE[self.stage](state, self, action)

    def house(self, side: Side) -> int:
        """The house fighting on ``side``."""
        return self.attacker if side == ATTACKER else self.defender

    def side_of(self, house: int) -> Side | None:
        """The side ``house`` fights on, None if it is not a combatant."""
        if house == self.attacker:
            return ATTACKER
        return DEFENDER if house == self.defender else None

    def digest_items(self) -> dict[str, Any]:
        """As every frame's, with the ability keys as the ``"timing:side:card"`` strings the
        digest has always hashed."""
        out = GotFrame.digest_items(self)
        if self.abilities_done is not None:
            out["abilities_done"] = [f"{t}:{side.value}:{card}"
                                     for t, side, card in self.abilities_done]
        return out


def combat_frame(state: GameState) -> CombatFrame:
    """The innermost combat on the stack (for the ability steps, which read and change it)."""
    stack = state.stack
    for i in range(len(stack) - 1, -1, -1):
        frame = stack[i]
        if type(frame) is CombatFrame:
            return frame
    raise LookupError("no combat in progress")


def _end(state: GameState, frame: CombatFrame) -> None:
    state.stack.pop()


Run = Callable[[GameState, CombatFrame], "Decision | None"]
Act = Callable[[GameState, CombatFrame, Action], None]

#: What runs at each stage (the combat's program, in rulebook order; RETREAT_MOVE is passed
#: through within one handler and never run).
_RUN_STAGE: dict[CombatStage, Run] = {
    CombatStage.SUPPORT: _ask_support,
    CombatStage.REFUSE: _ask_refusal,
    CombatStage.CARDS: _ask_cards,
    CombatStage.REVEAL: _reveal,
    CombatStage.TIDES_DRAW: _draw_tides,
    CombatStage.TIDES_REDRAW: _show_tides,
    CombatStage.BLADE: _ask_blade,
    CombatStage.RESOLVE: _resolve,
    CombatStage.AFTER_WINNER: _after_winner,
    CombatStage.CASUALTIES: _casualty,
    CombatStage.RETREAT: _retreat,
    CombatStage.RETREAT_LOSSES: _retreat_losses,
    CombatStage.CLEANUP: _run_cleanup,
    CombatStage.STAY_LOSSES: _stay_losses,
    CombatStage.AFTER_COMBAT: _after_combat,
    CombatStage.END: _end,
}
#: Who plays the answer to a stage's decision (the stage the frame is in when it is asked).
_ACT_STAGE: dict[CombatStage, Act] = {
    CombatStage.SUPPORT: _act_support,
    CombatStage.REFUSE: _act_refusal,
    CombatStage.CARDS: _act_card,
    CombatStage.TIDES_REDRAW: _act_redraw,
    CombatStage.RESOLVE: _act_blade,
    CombatStage.CASUALTIES: _act_casualty,
    CombatStage.RETREAT: _act_retreat,
    CombatStage.RETREAT_LOSSES: _act_retreat_loss,
    CombatStage.STAY_LOSSES: _act_stay_loss,
}
