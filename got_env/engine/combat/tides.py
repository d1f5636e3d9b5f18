"""Tides of Battle, the optional variant (rules spec §24; facts §10, §12 D7; D-39).

With the option ``tides_of_battle=True``, every combat between two houses (never against a
neutral force) goes:

1. right before the house cards are chosen, all 24 Tides cards are shuffled into a fresh deck
   (FAQ v1.0, facts §10), kept in the combat frame (hidden);
2. after both house cards are revealed and their reveal abilities done, each combatant draws the
   top card (attacker first) and sees only his own;
3. a combatant holding the unused Valyrian Steel Blade may discard his card and draw again, and
   must keep the new one (D-39); that uses the Blade;
4. both cards are revealed; then the Blade, if still unused, may give its +1 (errata: both uses
   are offered, the Blade still once per round, facts §12 D7);
5. each side adds its card's strength to its combat strength and its swords and fortifications
   to its house card's icons; after the sword casualties, each skull makes the *opponent* take
   one more casualty, whoever won; fortifications do not stop skulls; garrisons and The
   Blackfish's units are immune (R17.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import GameState

if TYPE_CHECKING:  # (frame.py, which runs the stages drawing these cards, declares the frame)
    from .frame import CombatFrame


def fresh_deck(state: GameState) -> list[int]:
    """The 24 cards (tides card indices, copies expanded) shuffled with the game's generator."""
    cards = [c.index for c in state.ruleset.tides_cards for _ in range(c.copies)]
    return [int(i) for i in state.rng.permutation(cards)]


def in_use(state: GameState, frame: CombatFrame) -> bool:
    return bool(state.options.get("tides_of_battle")) and frame.tides_deck is not None


def draw(frame: CombatFrame, side: str) -> None:
    """The side takes the top card of the combat's Tides deck."""
    frame.tides[side] = frame.tides_deck.pop(0)


def value(state: GameState, frame: CombatFrame, side: str, what: str) -> int:
    """The side's revealed Tides card's strength, swords, fortifications or skulls (0 before the
    reveal or without the variant)."""
    if frame.tides_revealed is not True:
        return 0
    card = frame.tides.get(side)
    return 0 if card is None else getattr(state.ruleset.tides_cards[card], what)
