"""Battles started by an Event card, marked so that the card's rules can find them (facts §6.3
#10, §6.5 #2; *Grond* §6.4 #20 may use the same mark).

:func:`start_card_battle` pushes a :class:`CardBattle` marker, then the battle
(``battle.attack.start_battle``): the marker lies just below the battle's frames for as long as
the battle lasts and pops itself after. :func:`battle_card` names the card of the battle being
fought (None for a battle of a die). Rules "for the whole battle" (*Help Unlooked For*) or "in
the first round" (*The Fighting Uruk-hai*) read it through the battle hooks
(``battle.round.REVEAL_HOOKS``, ``battle.combat_cards.PLAY_BANS``).
"""

from __future__ import annotations

from dataclasses import dataclass

from boardkit.frames import Frame

from ..battle.attack import start_battle
from ..battle.combat_cards import PLAY_BANS
from ..battle.forces import force_characters, role_of
from ..battle.sequence import Battle
from ..decision import Action
from ..state import FREE_PEOPLES, WotrState

# Cards whose battle bars the Free Peoples' Combat card in round 1 unless a Companion fights in
# it (*The Fighting Uruk-hai*; *Grond*'s module may add its id).
NO_FP_CARD_IN_ROUND_1: set[str] = set()


@dataclass
class CardBattle(Frame):
    """The mark of a card's battle (below its frames); gone once the battle is over."""

    card_id: str

    def run(self, state: WotrState) -> None:
        state.stack.pop()
        return None


def start_card_battle(state: WotrState, side: int, target: Action, card_id: str,
                      siege_rounds: int = 1) -> None:
    """``side`` attacks ``target`` (a WD-11 option) by the card ``card_id``."""
    state.stack.append(CardBattle(card_id))
    start_battle(state, side, target, siege_rounds=siege_rounds)


def battle_card(state: WotrState) -> str | None:
    """The card that started the battle being fought, if a card did."""
    for i in range(len(state.stack) - 1, 0, -1):
        if isinstance(state.stack[i], Battle):
            below = state.stack[i - 1]
            return below.card_id if isinstance(below, CardBattle) else None
    return None


def companion_fights(state: WotrState, battle: Battle, side: int) -> bool:
    """A Companion (Aragorn and Gandalf the White included) is in ``side``'s force."""
    chars = state.ruleset.cards.characters
    return any(chars[c].kind in ("companion", "upgrade")
               for c in force_characters(state, battle, role_of(battle, side)))


def _round_1_ban(state: WotrState, battle: Battle, side: int) -> bool:
    return (side == FREE_PEOPLES and battle.round == 1
            and battle_card(state) in NO_FP_CARD_IN_ROUND_1
            and not companion_fights(state, battle, side))


PLAY_BANS.append(_round_1_ban)


__all__ = ["NO_FP_CARD_IN_ROUND_1", "CardBattle", "battle_card", "companion_fights",
           "start_card_battle"]
