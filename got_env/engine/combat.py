"""Combat (rules spec §15, §17, R18.8; D-30 to D-32, D-40, D-43 to D-45, D-47).

One combat is one frame on the stack, pushed by a March, that walks the rulebook's steps:
support -> refusals -> house cards -> reveal (abilities) -> Valyrian Steel Blade -> winner ->
casualties -> retreat -> cleanup. The attacking units stay in the March's start area on the board
(``origin``) until the combat decides: they enter the embattled area if the attacker wins, and are
routed where they stand if he loses (they "retreat to the area they marched from").

Readings recorded here:
* Support (R15.1.1, R15.1.6; DECISIONS Open points 1-3): one declaration (D-30) per Support
  order next to the embattled area, houses in turn order and one house's orders in area order;
  the combatants are asked too (R15.1.3 "may"). Each order's support goes to one side or to
  nobody, on its own: a house may back one side from one area and stay out with another (a third
  house may even back both sides). A combatant may refuse each other house's support (D-31, all
  of that house's orders given to it) before the cards are chosen.
* Casualties beyond the loser's non-routed units are ignored (AMBIG-18).
* AMBIG-12: a retreat that breaks supply (the attacker's, too) first destroys units of the
  retreating house's choice (D-45) until the position fits.
* §15.6 6.3 item 5 with several legal areas that all break supply: the loser must pick one that
  needs the fewest units destroyed (FAQ reading, as S&R), then destroys them (D-45).
* AMBIG-13: a defender never retreats into a neutral force, an impassable area, an area with an
  enemy power token, or an enemy home area still held by its shield.
* R18.2: ships never retreat into a port that would then hold more than 3 ships; such a port is
  not a legal retreat area (like any other illegal area, it may leave no retreat at all).
* AMBIG-15 (DECISIONS Open point 6): a retreat that gives the defender control of a land area
  captures that area's port as in R18.8 (D-47), once the retreat's supply losses are done; the
  winner's capture is decided in the cleanup.
* R15.3.5 with the errata: discard piles are open at every step; hands are hidden while the cards
  are chosen (the chosen cards stay in this frame until both are revealed).

House-card abilities (cards.py, abilities/) act only through the hooks of their
:class:`~got_env.engine.cards.Ability` record, read here for the two revealed cards: static
modifiers of either side's values (:func:`card_value`) and unit values (:func:`unit_values`),
both applied in Iron Throne order of the cards' owners (R15.3.4 (2)), casualty immunity
(:func:`immune_to_casualties`), and steps pushed at the reveal (cancel effects first), after the
winner, after the retreat and after the cleanup (:func:`_next_ability`, R15.3.4); a card may
cancel the opponent's ability (:func:`side_ability`). Those steps steer the rest of the combat
through these fields of its :class:`CombatFrame`:

* ``cards[side]``: the side's card; a step may replace it (Tyrion, Aeron) or set None (no card:
  strength 0, no icons, nothing to discard);
* ``retreat_chooser``: who picks the losing defender's retreat area (Robb);
* ``attackers_stay``: a winning attacker's units do not enter the embattled area; they stay,
  standing, where they marched from (Arianne); should that break his supply, he destroys units
  of his choice among them (D-45, as AMBIG-12 for a losing attacker);
* ``card_to_hand``: sides whose played card goes back to hand instead of the discard pile in the
  cleanup (Roose);
* ``march_token`` (the March that started the combat) and ``entered`` (the attacking units that
  moved in at the cleanup), read by after-combat steps (Loras);
* ``won_at_once``: the side that wins whatever the strengths, because a reveal ability removed
  the other side's last unit (1e spec 8.2; 1e Ser Loras sets it and goes on to the result,
  past the Blade).

Where each part lives (this module is the stage machine, :class:`CombatFrame`, and every public
name of the parts is importable from here too, as before the split):

* :mod:`~got_env.engine.combat_strength`: strength and icons (the revealed cards' static hooks,
  support still counting, initial and final strength); it changes nothing;
* :mod:`~got_env.engine.combat_reveal`: support declared and refused, house cards chosen and
  revealed, Tides of Battle, the Valyrian Steel Blade;
* :mod:`~got_env.engine.combat_abilities`: when the abilities' steps are pushed;
* :mod:`~got_env.engine.combat_resolution`: the winner and the casualties;
* :mod:`~got_env.engine.combat_retreat`: the retreat, routing and its supply losses;
* :mod:`~got_env.engine.combat_cleanup`: the cleanup, the discards, a staying attacker's losses;
* :mod:`~got_env.engine.port_capture`: ports whose land area changed hands (also after a March).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from boardkit.decision import Decision

from .combat_abilities import _after_combat, _after_winner, _reveal
from .combat_cleanup import _act_stay_loss, _run_cleanup, _stay_losses, discard_after_combat
from .combat_resolution import _act_casualty, _casualty, _resolve, combat_units
from .combat_retreat import (
    PORT_CAPACITY,
    _act_retreat,
    _act_retreat_loss,
    _retreat,
    _retreat_losses,
    retreat_areas,
    retreat_losses,
)
from .combat_reveal import (
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
from .combat_strength import (
    card_value,
    defense_bonus,
    final_strength,
    given_support,
    immune_to_casualties,
    initial_strength,
    printed_ability,
    revealed_abilities,
    side_ability,
    supporters,
    unit_values,
)
from .decision import Action
from .frames import ATTACKER, DEFENDER, SIDES, CombatStage, GotFrame, Side, other
from .port_capture import capture_ports_after_control_change
from .state import GameState

__all__ = [  # the names this module had before the split, for the abilities, tests, renderers
    "ATTACKER", "DEFENDER", "PORT_CAPACITY", "SIDES", "CombatFrame", "CombatStage", "Side",
    "capture_ports_after_control_change", "card_value", "combat_frame", "combat_units",
    "defense_bonus", "discard_after_combat", "final_strength", "given_support",
    "immune_to_casualties", "initial_strength", "other", "printed_ability", "retreat_areas",
    "retreat_losses", "revealed_abilities", "side_ability", "supporters", "unit_values",
]

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
