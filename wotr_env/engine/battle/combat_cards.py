"""Combat cards: which a side may play, the registry of their effects, and the order in which
they resolve (spec §7.6, §20 #24-#25; facts §6.1, §7.2).

**Choosing** (the round's first step, :class:`.round.CombatCards`). Every round each side may
play one Event card from hand as a Combat card. In the 2nd edition (``rules.combat_card_order ==
"initiative"``) the attacker chooses a card or none, then the defender; each choice is secret
and always asked, even with "none" the only option, so that who is asked says nothing about a
hand. In the 1st edition (``"defender_first"``, spec §7.6) the attacker then the defender first
*say* whether they will play a card (public: yes is offered only with a playable card), then
those who said yes choose their card, secretly. A chosen card is out of the hand until the round
ends (the round's ``held``), then discarded face up.

**Effects.** A card's effect is code keyed by its Combat effect id in :data:`COMBAT_EFFECTS`,
registered with :func:`combat_effect`, one small function each::

    def effect(state: WotrState, battle: BattleFields, rnd: Round, side: int, part: int) -> None

called when the effect's timing comes (``part`` indexes the effect's initiatives: Mûmakil has
two). The function may change the round's fields (``roll_mod``, ``reroll_mod``, ``dice_delta``,
``dice_cap``, ``forfeit``, ``no_reroll``, ``locked``, ``hits``, ``cancelled``: each a pair
indexed by side, see :class:`~.round.Round`), push frames (decisions of WD-16, extra attacks:
:func:`~.round.extra_attack`, casualties: :func:`~.casualties.push_casualties`), which all run
before the round goes on, or set ``battle.ended`` (a retreat before the roll).
``condition(state, battle, side) -> bool`` says whether the card may be played at all (facts
§6.1's condition column); a card without one is always playable.

The 38 effects are registered by ``cards/combat_*`` (their WD-16 choices: ``cards/combat``).
**A card whose effect is not registered** would still be playable (a player may always spend a
card) and **resolve as no effect**: :func:`unregistered` lists those ids, and a registry test
asserts that it is empty.

**Order.** Each effect resolves at its initiative; the round's own steps sit between them: the
Combat roll after initiative 3, the Leader re-roll after 4, casualties after 6 (facts §6.1: 0-3
act before or on the roll, 4 before the re-roll, 5-6 after it, 7 after casualties). In the 2nd
edition the lower initiative goes first, the defender's on a tie (facts §7.2). In the 1st
edition, which has no initiative numbers, each effect keeps the same place relative to the
round's steps (its text says when it acts) and, between two cards at the same step, the
defender's goes first (spec §7.6, §20 #24).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..state import WotrState
from .forces import BattleFields

# (the round is a :class:`.round.Round`, a module above this one)
Effect = Callable[[WotrState, BattleFields, Any, int, int], None]
Condition = Callable[[WotrState, BattleFields, int], bool]
COMBAT_EFFECTS: dict[str, Effect] = {}
COMBAT_CONDITIONS: dict[str, Condition] = {}
# ``ban(state, battle, side) -> bool``: the side may play no Combat card now (*Grond*: none for
# the Free Peoples in round 1 without a Companion); the Event cards' modules append.
PLAY_BANS: list[Condition] = []

# The round's own steps on the initiative scale (doubled so that they fall between numbers).
ROLL, REROLL, CASUALTIES = "roll", "reroll", "casualties"
STEP_TIME = {ROLL: 7, REROLL: 9, CASUALTIES: 13}  # after 3, after 4, after 6
STEP_PHASE = {ROLL: 1, REROLL: 3, CASUALTIES: 5}  # 1e: between the phases below


def combat_effect(effect_id: str, condition: Condition | None = None) -> Callable[[Effect],
                                                                                 Effect]:
    """Register the effect of Combat effect ``effect_id`` (and its play condition)."""

    def register(fn: Effect) -> Effect:
        if effect_id in COMBAT_EFFECTS:
            raise ValueError(f"combat effect {effect_id!r} registered twice")
        COMBAT_EFFECTS[effect_id] = fn
        if condition is not None:
            COMBAT_CONDITIONS[effect_id] = condition
        return fn

    return register


def unregistered(state: WotrState) -> list[str]:
    """The Combat effect ids of the data that resolve as no effect for want of code."""
    return [e.id for e in state.ruleset.cards.combat if e.id not in COMBAT_EFFECTS]


def effect_of(state: WotrState, card: int) -> Any:
    """The Combat effect record of an Event card."""
    cards = state.ruleset.cards
    return cards.combat[int(cards.event_combat[card])]


def playable(state: WotrState, battle: BattleFields, side: int) -> list[int]:
    """The cards of the side's hand it may play as a Combat card now, in id order."""
    if any(ban(state, battle, side) for ban in PLAY_BANS):
        return []
    out = []
    for card in sorted(set(state.hands[side])):
        condition = COMBAT_CONDITIONS.get(effect_of(state, card).id)
        if condition is None or condition(state, battle, side):
            out.append(card)
    return out


def phase_1e(initiative: int) -> int:
    """The step of the round an effect acts at: before/at the roll, before the re-roll, after
    it, after casualties (0, 2, 4, 6 between the round's own steps 1, 3, 5)."""
    return 0 if initiative <= 3 else 2 if initiative == 4 else 4 if initiative <= 6 else 6


def timeline(state: WotrState, battle: BattleFields, cards: tuple[int, int]) -> tuple[tuple, ...]:
    """The round's steps and the chosen cards' effects in the order they resolve: entries
    ("effect", side, effect id, part) and (step,)."""
    by_initiative = state.ruleset.rules.combat_card_order == "initiative"
    entries: list[tuple[tuple[int, int, int], tuple]] = []
    for step in (ROLL, REROLL, CASUALTIES):
        time = STEP_TIME[step] if by_initiative else STEP_PHASE[step]
        entries.append(((time, -1, 0), (step,)))
    for side, card in enumerate(cards):
        if card < 0:
            continue
        effect = effect_of(state, card)
        tie = 0 if side != battle.side else 1  # the defender's first
        for part, init in enumerate(effect.initiatives):
            key = (2 * init, tie, 0) if by_initiative else (phase_1e(init), tie, init)
            entries.append((key, ("effect", side, effect.id, part)))
    return tuple(e for _, e in sorted(entries, key=lambda x: x[0]))


__all__ = ["CASUALTIES", "COMBAT_CONDITIONS", "COMBAT_EFFECTS", "PLAY_BANS", "REROLL", "ROLL",
           "Condition", "Effect", "combat_effect", "effect_of", "phase_1e", "playable",
           "timeline", "unregistered"]
