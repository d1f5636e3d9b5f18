"""A battle's sequence (spec §12.4-§12.8, §13; facts §7.2-§7.3): the defender's Stronghold
choice (WD-13) and the round (:mod:`.round`), then the attacker ceases or continues and the
defender may retreat (:mod:`.end`), or, after a siege battle's last round, the attacker may
extend it (WD-20, :mod:`.siege`); at the end the attacker may advance. The defender's nations
are attacked once per battle (activated and one step toward war, facts §7.5).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..politics import attacked
from ..state import WotrState, log
from .end import CeaseOrContinue, finish
from .forces import DEFENDER, SIEGE, BattleFields, decided, force_units, nations_of_force
from .round import Round
from .siege import ExtendSiege, StrongholdChoice, stronghold_choice_applies

# Called when a battle starts, ``fn(state, battle)``, before its first round: abilities that
# act then push their frames (*The White Rider*, :mod:`..abilities_battle`).
BATTLE_START_HOOKS: list[Callable[..., None]] = []


@dataclass
class Battle(BattleFields):
    """A battle from its first round to the advance, its fields those of
    :class:`.forces.BattleFields`."""

    def run(self, state: WotrState) -> None:
        if self.step == "start":
            log(state, "battle", self.side, self.src, self.dst, self.kind)
            if force_units(state, self, DEFENDER):
                attacked(state, nations_of_force(state, self, DEFENDER))
            self.step = "round"
            for hook in BATTLE_START_HOOKS:
                hook(state, self)
        elif self.step == "round":
            if self.ended or decided(state, self):
                self.step = "end"
                return None
            self.round += 1
            self.step = "after"
            state.stack.append(StrongholdChoice() if stronghold_choice_applies(state)
                               else Round())
        elif self.step == "after":
            self.step = "round"
            if self.ended or decided(state, self):
                return None
            if self.kind == SIEGE:
                self.rounds_left -= 1
                if self.rounds_left <= 0:
                    state.stack.append(ExtendSiege())
                    return None
            state.stack.append(CeaseOrContinue())
        elif self.step == "end":
            self.step = "done"
            finish(state)
        else:
            state.stack.pop()
        return None


__all__ = ["BATTLE_START_HOOKS", "Battle"]
