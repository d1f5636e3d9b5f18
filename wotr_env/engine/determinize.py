"""Determinization: one sample of what a side cannot know, drawn consistently with what it sees
(searches over hidden information, e.g. IS-MCTS, search such samples instead of the true state).

What is hidden in War of the Ring (issue 27, "Scope and shape"), and how each is drawn again:

* **The opponent's hand.** Its size *per deck* is public (the backs of the Character and Strategy
  cards differ), so for each of the opponent's decks the cards the observer cannot see (that
  deck's draw pile, the opponent's cards of that deck in hand, face down in its hand-limit
  discards, and chosen as a combat card not yet revealed) are pooled and dealt again: the same
  number to each place, the rest back into the draw pile in random order.
* **The opponent's face-down discards** (``state.face_down``, spec §7.2): which deck each came
  from is public (its back), so each keeps its place in the pile and its deck and is dealt from
  that deck's pool.
* **A combat card chosen and not yet revealed** by the opponent (WD-15, while the round's
  :class:`~.battle.round.CombatCards` frame asks): whether the opponent chose a card at all is
  hidden in 2e ("none" is a secret option too), so its choice is undone (the card back to its
  hand), the hand is dealt again, and the choice is made again uniformly among the options the
  sampled hand gives, by the frame itself (its ``run`` and ``act``).
* **Every deck's order**, the observer's own too (its contents are known: every card of that deck
  not seen elsewhere): shuffled.
* **The Hunt Pool's order** (its contents are public): shuffled.
* **Future chance**: ``state.chance`` gets a generator seeded from ``rng`` and no scripted draws
  (the true generator's state decides future rolls and tiles: it is hidden too).

Never changed: the observer's hand, face-down discards and held cards, everything on the board,
the Fellowship (it has no secret position), the Hunt Box, dice, rings, face-up discards, table
cards, the log, the stack (but for the opponent's hidden combat card). An opponent's pending
decision is asked again of the sample (its options may read the opponent's hand).

**Consistency.** That the opponent is being asked a decision is public, and so is what it did
before: a sample whose opponent could not be asked it (no option left, or one option, which the
engine plays without asking), or could not have made its hidden combat choice (1e: it said it
would play a card and the sampled hand has none), is rejected and drawn again (at most
:data:`TRIES` times; then the opponent's true cards stand in, the only case in which a sample
reads hidden facts).

A sample is a function of the observer's view and ``rng`` alone: whatever is drawn again is first
put in a canonical order (sorted), the opponent's new hand is sorted, and ``rng`` is used in an
order fixed by public facts, so two states the observer cannot tell apart give equal samples
(equal :func:`~wotr_env.engine.digest.digest`) for equal generators.

Reading: the sample is drawn from what the observer sees now, not from a perfect memory of the
game (a card once seen and since shuffled back, say); the state does not keep that history.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from .battle.round import CombatCards, Round
from .battle.sequence import Battle
from .chance import Chance
from .decision import Decision
from .state import WotrState

TRIES = 100  # samples drawn before the opponent's true cards stand in


def determinize(state: WotrState, observer: int,
                rng: np.random.Generator | int | None = None) -> WotrState:
    """A copy of ``state`` with everything ``observer`` (0 Free Peoples, 1 Shadow) cannot know
    drawn again from ``rng``; ``state`` itself is not changed. See the module docstring."""
    rng = np.random.default_rng(rng)
    for _ in range(TRIES):
        s = _sample(state, observer, rng, deal=True)
        if s is not None:
            return s
    s = _sample(state, observer, rng, deal=False)
    assert s is not None  # nothing hidden of the opponent's was redrawn: nothing to reject
    return s


def _sample(state: WotrState, observer: int, rng: np.random.Generator,
            deal: bool) -> WotrState | None:
    """One sample, or None when it contradicts what the observer saw."""
    s = state.clone()
    opponent = 1 - observer
    if deal:
        redo = _undo_combat_choices(s, opponent)
        for deck in (2 * opponent, 2 * opponent + 1):
            _deal_hidden(s, opponent, deck, rng)
        try:
            for at, step in redo:
                _redo_combat_choice(s, at, step, rng)
        except ValueError:  # the sampled hand offers no option the opponent was sure to have
            return None
    for deck in (2 * observer, 2 * observer + 1):
        s.decks[deck] = _shuffled(s.decks[deck], rng)
    s.hunt_pool = _shuffled(s.hunt_pool, rng)
    s.chance = Chance(np.random.Generator(np.random.PCG64(int(rng.integers(2**63)))))
    asked = s.pending
    if deal and asked is not None and asked.player != observer:
        try:
            again = s.stack[-1].run(s)
        except ValueError:  # no option in the sample
            return None
        if not _same_question(asked, again):
            return None
        s.pending = again
    return s


def _same_question(asked: Decision, again: Decision | None) -> bool:
    """The sample asks the opponent the decision it is asked, as the engine would ask it."""
    return (again is not None and again.kind == asked.kind and again.player == asked.player
            and (again.secret or again.private or len(again.options) > 1))


def _shuffled(cards: list[int], rng: np.random.Generator) -> list[int]:
    return [int(c) for c in rng.permutation(sorted(cards))] if cards else []


def _deal_hidden(s: WotrState, opponent: int, deck: int, rng: np.random.Generator) -> None:
    """Pool the cards of ``deck`` the observer cannot see and deal them again to the same places:
    the opponent's hand, its face-down discards, the draw pile."""
    deck_of = s.ruleset.cards.event_deck
    hand = s.hands[opponent]
    in_hand = [c for c in hand if deck_of[c] == deck]
    face_down = [i for i, c in enumerate(s.face_down[opponent]) if deck_of[c] == deck]
    pool = in_hand + [s.face_down[opponent][i] for i in face_down] + s.decks[deck]
    dealt = _shuffled(pool, rng)
    s.hands[opponent] = sorted([c for c in hand if deck_of[c] != deck] + dealt[:len(in_hand)])
    dealt = dealt[len(in_hand):]
    for i in face_down:
        s.face_down[opponent][i] = dealt.pop()
    s.decks[deck] = dealt


# -- combat cards chosen and not yet revealed (battle.round.CombatCards, battle.round.Round) -----


def _combat_frames(s: WotrState) -> list[tuple[int, Any, Any, Any]]:
    """(index, CombatCards frame, its Round, its Battle) for each round asking for cards."""
    out = []
    for i, f in enumerate(s.stack):
        if isinstance(f, CombatCards):
            rnd = next(g for g in reversed(s.stack[:i]) if isinstance(g, Round))
            battle = next(g for g in reversed(s.stack[:i]) if isinstance(g, Battle))
            out.append((i, f, rnd, battle))
    return out


def unrevealed_combat_cards(state: WotrState, side: int) -> list[int]:
    """The combat cards ``side`` has chosen and not yet revealed: to the other side they are
    still in its hand (whether a card was chosen at all is secret, WD-15)."""
    return [int(rnd.cards[side]) for _, _, rnd, _ in _combat_frames(state)
            if rnd.cards[side] >= 0]


def _pick_step(s: WotrState, battle: Any, side: int) -> int:
    """The CombatCards step at which ``side`` picks its card (2e: attacker 0, defender 1; 1e:
    after both said yes or no, attacker 2, defender 3)."""
    who = 0 if battle.side == side else 1
    return who if s.ruleset.rules.combat_card_order == "initiative" else 2 + who


def _undo_combat_choices(s: WotrState, opponent: int) -> list[tuple[int, int]]:
    """Put back into the opponent's hand each combat card it chose and has not revealed;
    (frame index, pick step) of each choice to make again."""
    redo = []
    for i, f, rnd, battle in _combat_frames(s):
        step = _pick_step(s, battle, opponent)
        if f.step <= step:
            continue  # not asked yet
        card = rnd.cards[opponent]
        if card >= 0:
            s.hands[opponent].append(card)
            held = list(rnd.held)
            held.remove(card)
            rnd.held = tuple(held)
            cards = list(rnd.cards)
            cards[opponent] = -1
            rnd.cards = (cards[0], cards[1])
        redo.append((i, step))
    return redo


def _redo_combat_choice(s: WotrState, at: int, step: int, rng: np.random.Generator) -> None:
    """Ask the frame at ``at`` its question of ``step`` again, of the sample, and play a uniform
    option (the frame's own ``act`` takes the card out of the hand); ValueError if it has none."""
    again = copy.copy(s.stack[at])
    again.step = step
    s.stack.append(again)
    try:
        decision = again.run(s)
        if decision is not None:
            again.act(s, decision.options[int(rng.integers(len(decision.options)))])
        elif step >= 2 and again.said[step % 2]:  # 1e: said yes, and no card is playable
            raise ValueError("no playable combat card in the sampled hand")
    finally:
        assert s.stack[-1] is again
        s.stack.pop()


__all__ = ["TRIES", "determinize", "unrevealed_combat_cards"]
