"""A combat round: choosing Combat cards (WD-15), their effects, the Combat roll, the Leader
re-roll, casualties (spec §12.4, §12.5, §13.1, §20 #28-#29; facts §7.2, §7.3).

**Combat roll.** Each side rolls one die per unit of its force, at most 5; a die hits on 5+, a
natural 6 always hits and a natural 1 always misses, whatever the modifiers. The attacker hits
only on 6 in the first round of a field battle against an Army in a City or Fortification
(roll and re-roll), and in every round of a siege battle; a Stronghold gives nothing in a field
battle, nor does the Stronghold the besiegers stand around when relievers attack them.

**Leader re-roll.** Each side re-rolls as many of its missed dice as its Leadership allows
(Leaders and Nazgûl 1 each, Characters their card's value, at most 5, at most the misses).
Re-rolling a miss never hurts, so it is always the maximum, not a decision.

The round's fields that Combat card effects read and change (each a pair indexed by side,
Free Peoples then Shadow) are listed on :class:`Round`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardkit.frames import Frame

from ..decision import WD, Action, Decision, choice
from ..regions import CITY, FORTIFICATION
from ..state import WotrState, log
from .casualties import push_casualties
from .combat_cards import CASUALTIES, COMBAT_EFFECTS, REROLL, ROLL, playable, timeline
from .forces import (
    FIELD,
    SIEGE,
    BattleFields,
    battle_of,
    combat_strength,
    decided,
    leadership,
    role_of,
)

MAX_DICE = 5
Pair = tuple[int, int]
# Called once the round's Combat cards are revealed, ``fn(state, battle, rnd)`` (the
# Witch-king's *Sorcerer*, :mod:`..abilities_battle`).
REVEAL_HOOKS: list[Callable[..., None]] = []


def with_side(pair: tuple, side: int, value: object) -> tuple:
    """``pair`` with the side's entry replaced (frame fields are immutable tuples)."""
    return (value, pair[1]) if side == 0 else (pair[0], value)


def round_of(state: WotrState) -> Round:
    """The combat round being fought (the topmost :class:`Round` on the stack)."""
    for frame in reversed(state.stack):
        if isinstance(frame, Round):
            return frame
    raise RuntimeError("no combat round is being fought")


def hits_of(rolled: list[int], target: int, modifier: int) -> int:
    """Hits among natural results (spec §12.5: a 6 always hits, a 1 always misses)."""
    return sum(1 for d in rolled if d == 6 or (d != 1 and d + modifier >= target))


def target(state: WotrState, side: int) -> int:
    """The number a side's die must reach: 6 for the attacker of a siege battle, or in the
    first round of a field battle against a City or Fortification; else 5 (spec §13.1,
    §20 #28-#29; facts §7.3)."""
    battle = battle_of(state)
    if side != battle.side:
        return 5
    if battle.kind == SIEGE:
        return 6
    settlement = int(state.ruleset.board.settlement[battle.dst])
    if battle.kind == FIELD and battle.round == 1 and settlement in (CITY, FORTIFICATION):
        return 6
    return 5


@dataclass
class Round(Frame):
    """One combat round of the battle below it on the stack.

    Fields for Combat card effects (pairs indexed by side): ``roll_mod``/``reroll_mod`` added
    to each die of the Combat roll / Leader re-roll; ``dice_delta`` dice added to (or, at least
    1 left, taken from) the Combat roll, ``dice_cap`` the most dice it may use; ``forfeit``
    Leadership given up; ``no_reroll`` the re-roll cancelled; ``locked`` misses that may not be
    re-rolled; ``rolled``/``rerolled`` the natural results; ``roll_hits``/``reroll_hits`` their
    hits; ``hits`` the hits scored this round (casualties are taken from these);
    ``cancelled`` the side's Combat card has been cancelled (its later effects are skipped);
    ``silenced`` the Characters whose Leadership is given up or cancelled this round (already
    counted in ``forfeit``); ``abilities_cancelled`` the Characters whose abilities are
    cancelled this round (*Words of Power*); ``extra_hits`` the
    hits of the side's Combat card extra attacks (:func:`extra_attack`; *Mûmakil* counts them).
    """

    cards: Pair = (-1, -1)  # the Combat card each side chose, -1 for none
    held: tuple[int, ...] = ()  # chosen cards out of the hand until the round ends
    stage: str = "cards"
    steps: tuple[tuple, ...] = ()
    at: int = 0
    roll_mod: Pair = (0, 0)
    reroll_mod: Pair = (0, 0)
    dice_delta: Pair = (0, 0)
    dice_cap: Pair = (MAX_DICE, MAX_DICE)
    forfeit: Pair = (0, 0)
    no_reroll: tuple[bool, bool] = (False, False)
    locked: Pair = (0, 0)
    rolled: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    rerolled: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    roll_hits: Pair = (0, 0)
    reroll_hits: Pair = (0, 0)
    hits: Pair = (0, 0)
    cancelled: tuple[bool, bool] = (False, False)
    silenced: tuple[int, ...] = ()
    abilities_cancelled: tuple[int, ...] = ()
    extra_hits: Pair = (0, 0)

    def run(self, state: WotrState) -> None:
        battle = battle_of(state)
        if self.stage == "cards":
            self.stage = "reveal"
            state.stack.append(CombatCards())
            return None
        if self.stage == "reveal":
            for side in (battle.side, 1 - battle.side):
                if self.cards[side] >= 0:
                    log(state, "combat-card", side, self.cards[side])
            self.steps = timeline(state, battle, self.cards)
            self.stage = "steps"
            for hook in REVEAL_HOOKS:
                hook(state, battle, self)
            return None
        if self.stage == "steps" and self.at < len(self.steps) and not (
                battle.ended or decided(state, battle)):
            entry = self.steps[self.at]
            self.at += 1
            self.play(state, entry)
            return None
        for side in (0, 1):  # the round is over: the cards are discarded face up
            if self.cards[side] >= 0:
                state.discards[side].append(self.cards[side])
        self.held = ()
        state.stack.pop()
        return None

    def play(self, state: WotrState, entry: tuple) -> None:
        battle = battle_of(state)
        if entry[0] == "effect":
            _, side, effect_id, part = entry
            if not self.cancelled[side]:
                resolve_effect(state, battle, self, side, effect_id, part)
        elif entry[0] == ROLL:
            for side in (battle.side, 1 - battle.side):
                self.combat_roll(state, side)
        elif entry[0] == REROLL:
            for side in (battle.side, 1 - battle.side):
                self.leader_reroll(state, side)
        elif entry[0] == CASUALTIES:
            push_casualties(state, self.hits)

    def combat_dice(self, state: WotrState, side: int) -> int:
        """Combat Strength as dice: units (and abilities), at most 5, with the cards' changes
        (spec §12.2)."""
        battle = battle_of(state)
        n = min(combat_strength(state, battle, role_of(battle, side)), MAX_DICE)
        delta = self.dice_delta[side]
        if n and delta:
            n = max(1, n + delta)
        return max(0, min(n, self.dice_cap[side], MAX_DICE))

    def combat_roll(self, state: WotrState, side: int) -> None:
        rolled = state.chance.roll(side, self.combat_dice(state, side))
        hits = hits_of(rolled, target(state, side), self.roll_mod[side])
        self.rolled = with_side(self.rolled, side, tuple(rolled))
        self.roll_hits = with_side(self.roll_hits, side, hits)
        self.hits = with_side(self.hits, side, self.hits[side] + hits)
        log(state, "combat-roll", side, tuple(rolled), hits)

    def leader_reroll(self, state: WotrState, side: int) -> None:
        """Re-roll min(Leadership, misses) dice, at most 5 (spec §12.4 step 3)."""
        if self.no_reroll[side]:
            return
        battle = battle_of(state)
        lead = leadership(state, battle, role_of(battle, side)) - self.forfeit[side]
        misses = len(self.rolled[side]) - self.roll_hits[side] - self.locked[side]
        n = max(0, min(lead, misses, MAX_DICE))
        if n == 0:
            return
        rolled = state.chance.roll(side, n)
        hits = hits_of(rolled, target(state, side), self.reroll_mod[side])
        self.rerolled = with_side(self.rerolled, side, tuple(rolled))
        self.reroll_hits = with_side(self.reroll_hits, side, hits)
        self.hits = with_side(self.hits, side, self.hits[side] + hits)
        log(state, "leader-reroll", side, tuple(rolled), hits)


def resolve_effect(state: WotrState, battle: BattleFields, rnd: Round, side: int, effect_id: str,
                   part: int) -> None:
    """Call the registered effect; an unregistered one is no effect (logged as such)."""
    fn = COMBAT_EFFECTS.get(effect_id)
    if fn is None:
        log(state, "combat-effect-unimplemented", side, effect_id)
        return
    fn(state, battle, rnd, side, part)


def extra_attack(state: WotrState, side: int, dice: int, to_hit: int = 5) -> int:
    """An extra attack of a Combat card: ``dice`` (at most 5) hitting on ``to_hit``, with no
    re-roll and no card modifiers, its casualties taken at once (facts §6.1); the hits."""
    rolled = state.chance.roll(side, min(dice, MAX_DICE))
    hits = hits_of(rolled, to_hit, 0)
    log(state, "extra-attack", side, tuple(rolled), hits)
    rnd = round_of(state)
    rnd.extra_hits = with_side(rnd.extra_hits, side, rnd.extra_hits[side] + hits)
    push_casualties(state, with_side((0, 0), side, hits))
    return hits


@dataclass
class CombatCards(Frame):
    """WD-15: both sides choose their Combat card for the round (attacker first)."""

    step: int = 0  # 2e: 0 attacker picks, 1 defender picks; 1e: 0-1 say, 2-3 pick
    said: tuple[bool, bool] = (False, False)  # 1e: (attacker, defender) said yes

    def run(self, state: WotrState) -> Decision | None:
        battle = battle_of(state)
        by_initiative = state.ruleset.rules.combat_card_order == "initiative"
        last = 2 if by_initiative else 4
        if self.step >= last:
            state.stack.pop()
            return None
        who = self.step % 2  # 0 attacker, 1 defender
        side = battle.side if who == 0 else 1 - battle.side
        cards = playable(state, battle, side)
        ctx = {"battle": (battle.src, battle.dst), "round": battle.round}
        if not by_initiative and self.step < 2:
            options = (choice("no"), choice("yes")) if cards else (choice("no"),)
            return Decision(side, WD.COMBAT_CARD, options, private=True, context=ctx)
        if not by_initiative and not self.said[who]:
            self.step += 1
            return None
        options = tuple(("card", c) for c in cards)
        if by_initiative:
            options += (choice("none"),)
        elif not options:  # (said yes, and no card is playable any more)
            self.step += 1
            return None
        return Decision(side, WD.COMBAT_CARD, options, secret=True, context=ctx)

    def act(self, state: WotrState, action: Action) -> None:
        battle = battle_of(state)
        who = self.step % 2
        side = battle.side if who == 0 else 1 - battle.side
        self.step += 1
        if action[0] == "choice":
            if action[1] != "none":
                said = list(self.said)
                said[who] = action[1] == "yes"
                self.said = (said[0], said[1])
                log(state, "combat-card-declared", side, action[1])
            return
        card = action[1]
        state.hands[side].remove(card)
        rnd = round_of(state)
        rnd.held = (*rnd.held, card)
        cards = list(rnd.cards)
        cards[side] = card
        rnd.cards = (cards[0], cards[1])


__all__ = ["MAX_DICE", "REVEAL_HOOKS", "CombatCards", "Round", "extra_attack", "hits_of",
           "resolve_effect", "round_of", "target", "with_side"]
