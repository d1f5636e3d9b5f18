"""The 9 wildling cards (facts §9) and the 1st edition's fixed reward and penalty (1e spec 5.4):
one small effect per card part, one table by card id (:data:`WILDLING_EFFECTS`), read by the
attack (:mod:`.attack`) for the revealed card. An effect that needs a choice asks it through
:mod:`.choices`; the readings are recorded in the package's docstring.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..decision import DecisionKind
from ..mustering import mustering_areas
from ..state import KNIGHT, CardPlace, GameState
from ..supply import ReconcileFrame
from ..tracks import move_to_bottom
from .choices import TRACK_IDS, ask, loss_total

if TYPE_CHECKING:  # (the attack, above, reads this module's table: only its type is named here)
    from .attack import WildlingAttackFrame

K = DecisionKind
PREEMPTIVE_RAID_STRENGTH = 6  # facts §9, §4.6

Effect = Callable[[GameState, int, "WildlingAttackFrame"], None]  # (state, house, the attack)


@dataclass(frozen=True)
class CardEffects:
    """One wildling card: the highest bidder's reward, the lowest bidder's and every other
    bidder's penalties, and what follows all penalties (wildling victory only)."""

    reward: Effect
    lowest: Effect
    others: Effect
    after_penalties: Effect | None = None


def nothing(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
    """Nothing happens (Silence at the Wall; Preemptive Raid's other houses)."""


def asks(kind: DecisionKind, left: int = 1, **extra) -> Effect:
    """The effect that asks ``house`` a card choice of ``kind`` (up to ``left`` picks)."""
    return lambda state, house, attack: ask(state, kind, house, left=left, **extra)


def destroys(n: int) -> Effect:
    """Destroys ``n`` of his units anywhere, all if fewer (D-12)."""
    return asks(K.WILDLING_DESTROY_UNITS, left=n, areas=None, same_area=False)


def destroys_in_own_castle(n: int) -> Effect:
    """The Horde Descends, lowest bidder: ``n`` units in one own Castle/Stronghold area holding
    ``n`` or more of them; if no such area, ``n`` anywhere (facts §12 D9)."""

    def effect(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
        areas = [a for a in mustering_areas(state, house) if state.units[a, house].sum() >= n]
        ask(state, K.WILDLING_DESTROY_UNITS, house, left=n, areas=areas or None,
            same_area=bool(areas))

    return effect


def knights_to_footmen(n: int | None) -> Effect:
    """Crow Killers' penalty: ``n`` of his Knights (None: all) each replaced by an unused
    Footman, destroyed if none is left (D-14)."""

    def effect(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
        knights = int(state.units[:, house, KNIGHT].sum())
        ask(state, K.CROW_KILLERS_REPLACE, house, left=knights if n is None else min(n, knights))

    return effect


def supply_moves(steps: int) -> Effect:
    """Rattleshirt's Raiders: ``steps`` spaces on the supply track, kept within 0..6."""

    def effect(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
        top = len(state.ruleset.supply_limits) - 1
        state.supply[house] = min(top, max(0, int(state.supply[house]) + steps))

    return effect


def everyone_reconciles(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
    """Rattleshirt's Raiders: "then all houses reconcile armies" (R7.4, D-04)."""
    state.stack.append(ReconcileFrame(houses=state.turn_order()))


def loses_power(n: int | None) -> Effect:
    """Skinchanger Scout's penalty: ``n`` available power tokens (None: all) to the Pool."""

    def effect(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
        state.power[house] -= state.power[house] if n is None else min(n, state.power[house])

    return effect


def gets_bid_back(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
    """Skinchanger Scout's reward: the power he bid in this attack comes back."""
    state.power[house] += attack.bids[house]


def takes_back_discards(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
    """Massing on the Milkwater's reward: his whole discard pile back into his hand."""
    for c in state.discards(house):
        state.card_place[c] = CardPlace.HAND


def discards_strongest(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
    """Massing on the Milkwater's lowest bidder: with 2+ cards in hand, every card of the highest
    printed strength in hand is discarded (literal reading, facts §12 D9); an emptied hand is
    refilled as in R15.3.6 (the cards just discarded stay out)."""
    hand = state.hand(house)
    if len(hand) < 2:
        return
    cards = state.ruleset.house_cards
    top = max(cards[c].strength for c in hand)
    gone = [c for c in hand if cards[c].strength == top]
    for c in gone:
        state.card_place[c] = CardPlace.DISCARD
    if len(gone) == len(hand):
        for c in state.discards(house):
            if c not in gone:
                state.card_place[c] = CardPlace.HAND


def bottom_of_every_track(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
    """A King Beyond the Wall's lowest bidder: the last position of all three tracks (R21.1)."""
    for t in TRACK_IDS:
        move_to_bottom(state, t, house)


def new_attack_without_him(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
    """Preemptive Raid's reward: a new attack of strength 6 at once, in which the highest bidder
    takes no part (nor anyone excluded from this one). (A frame of the attack's own class: the
    attack's module reads this one's table, so this one does not import it.)"""
    state.stack.append(type(attack)(strength=PREEMPTIVE_RAID_STRENGTH,
                                    exclude=list(attack.exclude) + [house]))


def loses_worth(owed: int) -> Effect:
    """1e 5.4 item 5: the house removes units worth ``owed`` mustering points (reading C.10)."""

    def effect(state: GameState, house: int, attack: WildlingAttackFrame) -> None:
        total = loss_total(state, house, owed)
        if total > 0:
            ask(state, K.WILDLING_DESTROY_UNITS, house, left=total, points=True)

    return effect


#: Each card's parts, by card id.
WILDLING_EFFECTS: dict[str, CardEffects] = {
    "silence-at-the-wall": CardEffects(nothing, nothing, nothing),
    "preemptive-raid": CardEffects(new_attack_without_him, asks(K.PREEMPTIVE_RAID_PENALTY),
                                   nothing),
    "crow-killers": CardEffects(asks(K.CROW_KILLERS_UPGRADE, left=2), knights_to_footmen(None),
                                knights_to_footmen(2)),
    "rattleshirts-raiders": CardEffects(supply_moves(+1), supply_moves(-2), supply_moves(-1),
                                        after_penalties=everyone_reconciles),
    "massing-on-the-milkwater": CardEffects(takes_back_discards, discards_strongest,
                                            asks(K.MASSING_DISCARD)),
    "a-king-beyond-the-wall": CardEffects(asks(K.KING_BEYOND_THE_WALL_TOP), bottom_of_every_track,
                                          asks(K.KING_BEYOND_THE_WALL_BOTTOM)),
    "mammoth-riders": CardEffects(asks(K.MAMMOTH_RIDERS_RETRIEVE), destroys(3), destroys(2)),
    "the-horde-descends": CardEffects(asks(K.HORDE_DESCENDS_MUSTER), destroys_in_own_castle(2),
                                      destroys(1)),
    "skinchanger-scout": CardEffects(gets_bid_back, loses_power(None), loses_power(2)),
}


# 1e 5.4 items 4-5: no card; the highest bidder may take one used house card back, every house
# removes units worth 2 mustering points, the lowest bidder 4 (reading C.10).
FIXED_EFFECTS = CardEffects(asks(K.MAMMOTH_RIDERS_RETRIEVE), loses_worth(4), loses_worth(2))
