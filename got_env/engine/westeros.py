"""Westeros phase (rules spec §6.2; facts §8, §12 D9; DECISIONS D-01 to D-03).

Step 1 (advancing the round marker) is done by the round loop. This step reveals the top card of
decks I, II and III, advances the wildling threat by their icons (an attack at once if it reaches
12, §6.2 step 3, R20.1), then resolves the cards in the order I, II, III (§6.2 step 4) through
:data:`WESTEROS_EFFECTS`, one table keyed by card id.

Readings recorded here:
* Winter Is Coming (facts §12 D9, S&R) is replaced when it is revealed, before the icons are
  counted: the whole 10-card deck (also cards drawn in earlier rounds) is reshuffled and the new
  top card is drawn instead, again and again while it is Winter Is Coming. So its entry in the
  table is never resolved.
* The 12-trigger (§6.2 step 3) fires when the threat *reaches* 12 in this step: it was below 12
  and this phase's icons bring it there. Icons beyond 12 are ignored (facts §4.6).
* A deck whose 10 cards have all been drawn is reshuffled (all 10) before the next draw.
* The restriction cards and Put to the Sword set ``state.order_bans`` (index in ORDER_TYPES, 5 for
  special March); the Planning phase reads and clears them.

Frame locals (:class:`WesterosFrame`): ``cards`` (the card index revealed from each deck, set
once) and ``at`` (the next deck to resolve, 3 when done).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from boardkit.decision import Decision

from ..data import DECK_NAMES, ORDER_TYPES
from .bidding import BiddingFrame
from .board import enemy_ships_in, gain_power
from .decision import CHOICES, Action, DecisionKind, choice
from .frames import GotFrame
from .mustering import MusteringFrame
from .state import FIEFDOMS, IRON_THRONE, KINGS_COURT, SHIP, SPECIAL_MARCH_BAN, GameState
from .supply import SupplyFrame
from .wildlings.attack import WildlingAttackFrame

Effect = Callable[[GameState], None]
WINTER_IS_COMING = "winter-is-coming"


@dataclass(frozen=True)
class HolderChoice:
    """A card whose dominance-token holder picks one effect (D-01, D-02, D-03)."""

    kind: DecisionKind
    track: int
    options: tuple[tuple[str, Effect], ...]  # (CHOICES name, effect)

    def effect(self, action: Action) -> Effect:
        return dict(self.options)[CHOICES[action[1]]]


# -- revealing ---------------------------------------------------------------------------------


def card_id(state: GameState, card: int) -> str:
    return state.ruleset.westeros_cards[card].id


def reshuffle(state: GameState, deck: int) -> None:
    """Shuffle all 10 cards of ``deck`` (drawn ones too) with the state's generator."""
    state.westeros_decks[deck] = state.rng.permutation(state.westeros_decks[deck])
    state.westeros_drawn[deck] = 0


def draw(state: GameState, deck: int) -> int:
    """Take the top card of ``deck`` (reshuffling it first if every card has been drawn)."""
    if state.westeros_drawn[deck] >= state.westeros_decks.shape[1]:
        reshuffle(state, deck)
    card = int(state.westeros_decks[deck, state.westeros_drawn[deck]])
    state.westeros_drawn[deck] += 1
    return card


def reveal(state: GameState, deck: int) -> int:
    """§6.2 step 2: the deck's card for this phase; Winter Is Coming is replaced at once by a
    fresh draw from the reshuffled deck, repeatedly (facts §12 D9)."""
    card = draw(state, deck)
    while card_id(state, card) == WINTER_IS_COMING:
        reshuffle(state, deck)
        card = draw(state, deck)
    return card


def advance_threat(state: GameState, icons: int) -> bool:
    """§6.2 step 3, R20.1: +2 strength per icon, at most 12; True if it reached 12 now."""
    wt = state.ruleset.wildling_threat
    before = state.wildling_threat
    state.wildling_threat = min(wt["max"], before + wt["step"] * icons)
    return before < wt["max"] <= state.wildling_threat


# -- card effects ------------------------------------------------------------------------------


def _nothing(state: GameState) -> None:
    """Last Days of Summer, or a holder choosing "nothing"."""


def _replaced_at_reveal(state: GameState) -> None:
    raise RuntimeError("Winter Is Coming is replaced when revealed (facts §12 D9)")


def _supply(state: GameState) -> None:
    """Supply: adjust supply, then reconcile armies (R7.1, R7.4)."""
    state.stack.append(SupplyFrame())


def _mustering(state: GameState) -> None:
    """Mustering: every house in turn order, in all its castle/stronghold areas (R8.1)."""
    state.stack.append(MusteringFrame(houses=state.turn_order(), areas=None))


def _clash_of_kings(state: GameState) -> None:
    """Clash of Kings: bidding on the three influence tracks (§9.2)."""
    state.stack.append(BiddingFrame())


def _wildlings_attack(state: GameState) -> None:
    """Wildlings Attack: an attack with the strength the threat token shows (§20.2)."""
    state.stack.append(WildlingAttackFrame(strength=state.wildling_threat, exclude=[]))


def power_income(state: GameState) -> np.ndarray:
    """int[house]: Game of Thrones income before the Pool limit: crowns printed in the land
    areas each house controls (power tokens are not icons, §6.3), plus 1 per port it owns holding
    its ships while no enemy ship is in the port's sea area (R18.6)."""
    rs = state.ruleset
    ctrl = state.control()
    mine = ctrl >= 0
    income = np.bincount(ctrl[mine], weights=rs.crowns[mine], minlength=rs.num_houses)
    for port in np.flatnonzero(rs.port_land >= 0):
        owner = int(ctrl[rs.port_land[port]])
        if owner >= 0 and state.units[port, owner, SHIP] > 0 \
                and not enemy_ships_in(state, int(rs.port_sea[port]), owner):
            income[owner] += 1
    return income.astype(np.int16)


def _game_of_thrones(state: GameState) -> None:
    """Game of Thrones: every house gains its income, limited by its tokens left in the Power
    Pool (§6.3, R18.6, R2.3.3)."""
    for h, n in enumerate(power_income(state)):
        if state.in_play[h] and n:
            gain_power(state, h, int(n))


def _ban(order_type: str) -> Effect:
    """A card that forbids one kind of order in the next Planning phase (§10.3)."""
    index = SPECIAL_MARCH_BAN if order_type == "special-march" else ORDER_TYPES.index(order_type)

    def ban(state: GameState) -> None:
        state.order_bans[index] = True

    ban.__doc__ = f"No {order_type} orders in the next Planning phase (§10.3)."
    return ban


WESTEROS_EFFECTS: dict[str, Effect | HolderChoice] = {
    # deck I
    "supply": _supply,
    "mustering": _mustering,
    "a-throne-of-blades": HolderChoice(DecisionKind.THRONE_OF_BLADES, IRON_THRONE, (
        ("supply", _supply), ("mustering", _mustering), ("nothing", _nothing))),
    WINTER_IS_COMING: _replaced_at_reveal,
    "last-days-of-summer": _nothing,
    # deck II
    "game-of-thrones": _game_of_thrones,
    "dark-wings-dark-words": HolderChoice(DecisionKind.DARK_WINGS_DARK_WORDS, KINGS_COURT, (
        ("clash-of-kings", _clash_of_kings), ("game-of-thrones", _game_of_thrones),
        ("nothing", _nothing))),
    "clash-of-kings": _clash_of_kings,
    # deck III
    "put-to-the-sword": HolderChoice(DecisionKind.PUT_TO_THE_SWORD, FIEFDOMS, (
        ("no-defense-orders", _ban("defense")),
        ("no-special-march-orders", _ban("special-march")), ("nothing", _nothing))),
    "storm-of-swords": _ban("defense"),
    "rains-of-autumn": _ban("special-march"),
    "sea-of-storms": _ban("raid"),
    "web-of-lies": _ban("support"),
    "feast-for-crows": _ban("consolidate-power"),
    "wildlings-attack": _wildlings_attack,
}


# -- the step ----------------------------------------------------------------------------------


@dataclass(slots=True)
class WesterosFrame(GotFrame):
    """The Westeros phase, both set on its first run (none given by whoever pushes it): the
    card index revealed from each deck (I, II, III), and ``at``, the next deck to resolve (3
    when done)."""

    step: ClassVar[str] = "westeros_phase"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"cards", "at"})

    cards: list[int] | None = None
    at: int | None = None

    def run(self, state: GameState) -> Decision | None:
        """§6.2 steps 2-4: reveal, threat, then resolve cards I, II, III in order."""
        if self.cards is None:
            self._start(state)
            return None
        at = self.at
        if at >= len(self.cards):
            state.stack.pop()
            return None
        effect = self._current(state)
        if isinstance(effect, HolderChoice):
            return Decision(
                player=state.holder(effect.track), kind=effect.kind,
                options=tuple(choice(name) for name, _ in effect.options),
                context={"westeros_card": card_id(state, self.cards[at]),
                         "deck": DECK_NAMES[at]})
        self.at = at + 1
        effect(state)
        return None

    def act(self, state: GameState, action: Action) -> None:
        """The holder's choice on A Throne of Blades, Dark Wings Dark Words or Put to the
        Sword."""
        effect = self._current(state).effect(action)
        self.at += 1
        effect(state)

    def _start(self, state: GameState) -> None:
        """§6.2 steps 2-3: reveal the three cards, move the threat, maybe an attack (R20.1)."""
        self.cards = [reveal(state, d) for d in range(len(DECK_NAMES))]
        self.at = 0
        rs = state.ruleset
        icons = sum(rs.westeros_cards[c].wildling_icon for c in self.cards)
        if advance_threat(state, icons) and state.ruleset.rules.wildlings_attack_at_max:
            state.stack.append(WildlingAttackFrame(strength=rs.wildling_threat["max"],
                                                   exclude=[]))

    def _current(self, state: GameState) -> Effect | HolderChoice:
        return WESTEROS_EFFECTS[card_id(state, self.cards[self.at])]
