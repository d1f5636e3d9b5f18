"""Characters' abilities in battle (facts §3.1, §3.2, §3.4; spec §12.2, §12.3): *Captain of the
West*, *The White Rider*, the combat half of *Servants of the White Hand*, the Witch-king's
*Sorcerer*, and his Leadership counting as a Nazgûl's for card texts.

They plug into lists the battle modules consult, so that the battle code names no Character:
Combat Strength and Leadership modifiers (:data:`.battle.forces.STRENGTH_MODIFIERS`,
:data:`.battle.forces.LEADERSHIP_MODIFIERS`), the battle's start
(:data:`.battle.sequence.BATTLE_START_HOOKS`) and the reveal of a round's Combat cards
(:data:`.battle.round.REVEAL_HOOKS`).

Readings: each Captain of the West in the battle adds his +1 (several add up; the 5-dice cap
still holds); Gandalf the White has no Captain of the West (his card has none). The White Rider
is offered only when the Shadow force has Nazgûl Leadership to cancel; once given up, his
Leadership and every Nazgûl's (the Witch-king's 2 included) count for nothing in the re-roll and
in card texts until the battle ends. Sorcerer: the Witch-king must be in the Shadow force when
the first round's cards are revealed; the draw (optional, WD-37) comes once that round is over,
even if the card was cancelled, and the 1st edition, whose text is unknown, uses the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from boardkit.frames import Frame

from .battle.forces import (
    LEADERSHIP_MODIFIERS,
    STRENGTH_MODIFIERS,
    battle_of,
    force,
    force_characters,
    role_of,
    side_of,
)
from .battle.round import REVEAL_HOOKS
from .battle.sequence import BATTLE_START_HOOKS
from .decision import WD, Action, Decision, choice
from .state import ELITE, FREE_PEOPLES, NAZGUL, SHADOW, WotrState, log
from .turn.hand import DiscardToLimit

if TYPE_CHECKING:
    from .battle.round import Round
    from .battle.sequence import Battle

CAPTAINS = ("gandalf-the-grey", "strider", "boromir", "legolas", "gimli", "aragorn")
ISENGARD = 5
# Tests ``fn(state, character) -> bool`` of a Character whose abilities are cancelled now (a
# Combat card such as *Words of Power* appends one): his battle abilities then do nothing.
ABILITIES_CANCELLED: list[Callable[[WotrState, int], bool]] = []


def _char(state: WotrState, character_id: str) -> int:
    return state.ruleset.cards.character(character_id)


def cancelled(state: WotrState, character: int) -> bool:
    return any(fn(state, character) for fn in ABILITIES_CANCELLED)


def in_force(state: WotrState, battle: Battle, side: int, character: int) -> bool:
    """The Character takes part in the battle on ``side`` (not in the rearguard)."""
    return character in force_characters(state, battle, role_of(battle, side))


# ---------------------------------------------------------------------------------------------
# Combat Strength and Leadership


def captain_of_the_west(state: WotrState, battle: Battle, role: int) -> int:
    """+1 Combat Strength to the Free Peoples force for each Captain of the West in it (facts
    §3.1, §3.2); the 5-dice cap is the round's."""
    if side_of(battle, role) != FREE_PEOPLES:
        return 0
    characters = state.ruleset.cards.characters
    return sum(1 for c in force_characters(state, battle, role)
               if characters[c].id in CAPTAINS and not cancelled(state, c))


def servants_of_the_white_hand(state: WotrState, battle: Battle, role: int) -> int:
    """While Saruman is in play every Isengard Elite in the Shadow force is also a Leader:
    +1 Leadership each (facts §3.4; the movement half is :func:`.armies.leads`)."""
    if side_of(battle, role) != SHADOW or state.char_at[_char(state, "saruman")] < 0:
        return 0
    return int(force(state, battle, role)[ISENGARD, ELITE])


def white_rider_active(state: WotrState, battle: Battle) -> bool:
    """Gandalf the White gave up his Leadership at the battle's start and is still in it."""
    white = _char(state, "gandalf-the-white")
    return battle.white_rider and in_force(state, battle, FREE_PEOPLES, white) \
        and not cancelled(state, white)


def _nazgul_leadership(state: WotrState, battle: Battle) -> int:
    """1 per Nazgûl in the Shadow force, and the Witch-king's card value (spec §20 #38)."""
    shadow = role_of(battle, SHADOW)
    witch_king = _char(state, "witch-king")
    lead = int(force(state, battle, shadow)[:, NAZGUL].sum())
    if in_force(state, battle, SHADOW, witch_king):
        lead += int(state.ruleset.cards.character_leadership[witch_king])
    return lead


def nazgul_leadership(state: WotrState, battle: Battle, side: int = SHADOW) -> int:
    """The "Nazgûl Leadership" Combat card texts read (facts §6.1): the Witch-king counts as a
    Nazgûl for card texts unless named (facts §3.4); none for the Free Peoples, none while
    *The White Rider* cancels it."""
    if side != SHADOW or white_rider_active(state, battle):
        return 0
    return _nazgul_leadership(state, battle)


def white_rider(state: WotrState, battle: Battle, role: int) -> int:
    """Leadership lost under *The White Rider* (facts §3.2): Gandalf the White's own on the Free
    Peoples' side, all the Nazgûl's on the Shadow's."""
    if not white_rider_active(state, battle):
        return 0
    if side_of(battle, role) == FREE_PEOPLES:
        white = _char(state, "gandalf-the-white")
        return -int(state.ruleset.cards.character_leadership[white])
    return -_nazgul_leadership(state, battle)


def offer_white_rider(state: WotrState, battle: Battle) -> None:
    """At a battle's start: Gandalf the White in the Free Peoples force, against Nazgûl
    Leadership, may use *The White Rider* (WD-16)."""
    white = _char(state, "gandalf-the-white")
    if in_force(state, battle, FREE_PEOPLES, white) and _nazgul_leadership(state, battle) > 0:
        state.stack.append(WhiteRider())


@dataclass
class WhiteRider(Frame):
    """WD-16: give up Gandalf the White's Leadership to cancel the Nazgûl's for the battle."""

    def run(self, state: WotrState) -> Decision:
        return Decision(FREE_PEOPLES, WD.COMBAT_CARD_CHOICE, (choice("no"), choice("yes")),
                        context={"ability": "the-white-rider"})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        if action == choice("yes"):
            battle_of(state).white_rider = True
            log(state, "white-rider")


# ---------------------------------------------------------------------------------------------
# Sorcerer


def sorcerer(state: WotrState, battle: Battle, rnd: Round) -> None:
    """The Shadow played a Combat card in the first round with the Witch-king in the battle:
    once the round is over he may draw a card of that card's deck (facts §3.4, WD-37). The
    draw's frame goes under the round, so that it runs when the round ends."""
    card = rnd.cards[SHADOW]
    if battle.round != 1 or card < 0:
        return
    witch_king = _char(state, "witch-king")
    if not in_force(state, battle, SHADOW, witch_king) or cancelled(state, witch_king):
        return
    deck = int(state.ruleset.cards.event_deck[card])
    at = next(i for i, f in enumerate(state.stack) if f is rnd)
    state.stack.insert(at, SorcererDraw(deck))


@dataclass
class SorcererDraw(Frame):
    """WD-37: the Shadow may draw one card from ``deck`` (if it is not exhausted)."""

    deck: int

    def run(self, state: WotrState) -> Decision | None:
        if not state.decks[self.deck]:
            state.stack.pop()
            return None
        return Decision(SHADOW, WD.EXTRA_DRAW, (choice("no"), choice("yes")),
                        context={"deck": self.deck, "ability": "sorcerer"})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        if action == choice("yes"):
            state.hands[SHADOW].append(state.decks[self.deck].pop())
            log(state, "draw", SHADOW, self.deck)
            state.stack.append(DiscardToLimit(SHADOW))


STRENGTH_MODIFIERS.append(captain_of_the_west)
LEADERSHIP_MODIFIERS.extend((white_rider, servants_of_the_white_hand))
BATTLE_START_HOOKS.append(offer_white_rider)
REVEAL_HOOKS.append(sorcerer)

__all__ = ["ABILITIES_CANCELLED", "CAPTAINS", "SorcererDraw", "WhiteRider", "cancelled",
           "captain_of_the_west", "in_force", "nazgul_leadership", "offer_white_rider",
           "servants_of_the_white_hand", "sorcerer", "white_rider", "white_rider_active"]
