"""Wildling attacks (rules spec §20.2, facts §4.6 and §9), the 9 wildling cards, and the 1st
edition's fixed reward and penalty (``rules.wildlings == "fixed"``, 1e spec 5.4, A.5).

Steps:

* ``wildling_attack`` (frame ``strength``, ``exclude``): every house in play and not excluded bids
  in secret, in turn order (D-08); Night's Watch strength is the sum of the bids and wins if it is
  at least ``strength`` (§20.2 items 2-4). The highest bidder (Night's Watch win) or the lowest
  (wildling win) is found, ties broken by the Iron Throne holder (D-09, §9.3). The top wildling
  card is revealed and resolved through :data:`WILDLING_EFFECTS`: the highest bidder's reward, or
  the lowest bidder's penalty first and then every other bidder's, in turn order (errata, facts
  §9). Then the threat token moves (facts §4.6) and the attack ends.
* ``wildling_choice`` (frame ``kind``, ``player``, ``house``, ``left``, ...): every choice a card
  asks (D-10 to D-19), one parametrised mechanism: :data:`CHOICES` gives each decision kind its
  options and what one pick does; ``left`` counts the picks still due (``("done",)`` ends early).
* 1st edition (``rules.wildlings == "fixed"``, 1e spec 5.4): the same bids, sum and tie-break, but
  no card: the highest bidder may take one used house card back into hand (D-18's choice), or
  every bidder removes units worth 2 mustering points, the lowest bidder 4, in turn order (D-12's
  choice, frame key ``points``: ``left`` then counts points, not units). Then the threat goes to 0
  (tracks.yaml: ``after_wildling_victory_drop`` 12).

Readings recorded here:

* Order of the consequences (AMBIG-17): bids leave the bidders' available power when they are
  revealed (they lie on the table, which the state counts as Power Pool, so "discarded to the
  Pool" needs nothing more); then the card is resolved; then the threat token moves. So Preemptive
  Raid's new attack is bid with the power left after the first bids, Skinchanger Scout's reward
  gives back the bid itself, and its penalties take only power still available.
* The revealed card goes to the bottom of the deck as soon as it is revealed (the deck array has
  no place for a card being resolved). A new attack started by Preemptive Raid thus reveals the
  next card, never the Preemptive Raid being resolved. Knowledge of the old top card from the
  Messenger Raven (``wildling_known_top``) is cleared: that card is now face up.
* Threat token (facts §4.6, AMBIG-16): a Night's Watch win sets it to 0, a wildling win moves it
  back 2 spaces (-4 strength, not below 0) from where it stands. In an attack started by the
  threat or a Wildlings Attack card the token stands at the attack's strength. After Preemptive
  Raid's Night's Watch result the token ends on 0 whatever the new attack does, since the first
  attack moves the token after its card.
* "Every other house" are the bidders other than the lowest, in the turn order of the moment the
  card is revealed (A King Beyond the Wall moves the lowest bidder but never changes the others'
  relative order).
* Crow Killers' penalties (D-14, DECISIONS Open point 7: the affected house chooses): he picks
  his Knights one at a time; each is replaced while an unused Footman is left, destroyed after.
* Ties are broken by the Iron Throne holder even when he takes no part in the attack (§9.3;
  Preemptive Raid's new attack).
* Choices that cannot change the result are not asked: a house that must destroy or replace as
  many units as it has, or replace all its Knights with Footmen enough (or none) for all.
* Massing on the Milkwater, lowest bidder: the literal reading (facts §12 D9, wildling_cards.yaml):
  all cards of the highest printed strength, even if that is every card in hand. A hand emptied
  that way is refilled as after a house's 7th card (R15.3.6): the cards just discarded stay in the
  discard pile and the others come back, so that a house always holds a card to fight with.
* Preemptive Raid, lowest bidder: D-10 offers both penalties whatever his units and positions; a
  drop of 2 on a track stops at its last position. The highest track is the one where his position
  is nearest to 1; if several, the Iron Throne holder picks among them (D-11, facts §12 D9).
* The Horde Descends, highest bidder (D-19): only his Castle/Stronghold areas where normal
  mustering can place something are offered (as the mustering step itself does); the chosen area
  is mustered through the ``mustering`` step with that one area.
* The Horde Descends, lowest bidder (facts §12 D9): if one of his Castle/Stronghold areas holds 2
  or more of his units, he destroys 2 in one such area; otherwise 2 anywhere.
* Units destroyed by a wildling card never leave a power token behind (R13.1.4): control of the
  emptied area follows from what is left there (a power token already lying there, a home shield,
  or nobody).

Readings recorded here for the 1st edition (1e spec 5.4, A.5; the lead copies them to
docs/rules-readings.md):

* The 1e decisions reuse the 2e kinds with the same shape: the bids are D-08, the tie for the
  highest or lowest bidder D-09 (asked of the Iron Throne holder, 1e 5.4 items 4-5, reading C.12),
  the Night's Watch reward D-18 (one discarded card of the highest bidder back to his hand, or
  ``("done",)``; not asked when he has no discard), the losses D-12 (one own unit at a time,
  ``("unit", area, type)``).
* Losses are counted in mustering points (1e 5.4 item 5: footman 1, knight 2, ship 1, the
  mustering costs, engine/mustering.py COSTS); every bidder pays in turn order, the lowest bidder
  in his place in that order (not first, as the 2e errata has it for the cards).
* A house pays the smallest total of at least what it owes that its units can make (reading C.10:
  the smallest overshoot); with fewer points on the board than owed it loses every unit. Each
  pick offers only the units after whose removal that total can still be made exactly, so a house
  can never overpay by picking badly (with only knights left while 1 point is owed, say). A knight
  is removed whole, never downgraded to a footman (1e 5.4 item 5). When every unit left must go,
  they go without asking.
* No power token is ever placed in an area these losses empty (1e 5.4 item 5): destroying a unit
  places nothing, and control follows from what is left there (as for the 2e cards above).

Where each part lives (this module is the attack; every public name of the parts is importable
from here too, as before the split):

* :mod:`~got_env.engine.wildling_cards`: each card's effects, by card id, and the 1e fixed ones;
* :mod:`~got_env.engine.wildling_choices`: the ``wildling_choice`` step and its table of choices.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from boardkit.decision import Decision

from .decision import Action, DecisionKind
from .frames import GotFrame
from .state import IRON_THRONE, GameState
from .wildling_cards import (
    FIXED_EFFECTS,
    PREEMPTIVE_RAID_STRENGTH,
    WILDLING_EFFECTS,
    CardEffects,
    Effect,
    asks,
    bottom_of_every_track,
    destroys,
    destroys_in_own_castle,
    discards_strongest,
    everyone_reconciles,
    gets_bid_back,
    knights_to_footmen,
    loses_power,
    loses_worth,
    new_attack_without_him,
    nothing,
    supply_moves,
    takes_back_discards,
)
from .wildling_choices import (
    ALL_UNIT_TYPES,
    CHOICES,
    POINT_LOSSES,
    PREEMPTIVE_RAID_DROP,
    TRACK_IDS,
    ChoiceSpec,
    WildlingChoiceFrame,
    ask,
    highest_tracks,
    loss_total,
)

__all__ = [  # the names this module had before the split, for tests and other readers
    "ALL_UNIT_TYPES", "CHOICES", "FIXED_EFFECTS", "K", "POINT_LOSSES", "PREEMPTIVE_RAID_DROP",
    "PREEMPTIVE_RAID_STRENGTH", "TRACK_IDS", "WILDLING_EFFECTS", "CardEffects", "ChoiceSpec",
    "Effect", "Role", "WildlingAttackFrame", "WildlingChoiceFrame", "WildlingStage", "ask",
    "asks", "bidders", "bottom_of_every_track", "destroys", "destroys_in_own_castle",
    "discards_strongest", "everyone_reconciles", "gets_bid_back", "highest_tracks",
    "knights_to_footmen", "loses_power", "loses_worth", "loss_total", "new_attack_without_him",
    "nothing", "supply_moves", "takes_back_discards",
]

K = DecisionKind


class Role(enum.IntEnum):
    """Which part of a wildling card a house resolves (§20.2 consequences item 2)."""

    REWARD = 0  # Night's Watch victory: the highest bidder
    LOWEST = 1  # wildling victory: the lowest bidder
    OTHERS = 2  # wildling victory: every other bidder


class WildlingStage(enum.Enum):
    """Where a wildling attack stands (§20.2), in order. The values are what the digest
    hashes."""

    BID = "bid"  # the houses bid in turn order (secret)
    TIE = "tie"  # the Iron Throne holder breaks a tie for the highest or lowest bid
    CARD = "card"  # the top card revealed, or (1e) the fixed consequences queued
    EFFECTS = "effects"  # each queued house's part, one at a time
    THREAT = "threat"  # the threat track moves, the attack ends


# =============================================================================================
# The attack (§20.2)


@dataclass(slots=True)
class WildlingAttackFrame(GotFrame):
    """One wildling attack: ``strength`` and ``exclude`` (houses taking no part) from whoever
    pushes it; the others all appear on its first run (:meth:`_start`): one bid per house (-1:
    not yet), whether the Night's Watch won, the chosen (highest or lowest) bidder, the tied
    bidders, the revealed card (-1: none yet), the queue of ``[role, house]`` parts still to
    resolve."""

    step: ClassVar[str] = "wildling_attack"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset(
        {"bids", "stage", "won", "chosen", "tied", "card", "queue"})

    strength: int
    exclude: list[int]
    bids: list[int] | None = None
    stage: WildlingStage | None = None
    won: bool | None = None
    chosen: int | None = None
    tied: list[int] | None = None
    card: int | None = None
    queue: list[list[int]] | None = None

    def run(self, state: GameState) -> Decision | None:
        """A wildling attack of ``strength`` (§20.2), without the houses in ``exclude``: the
        handler of its stage (:data:`_RUN_STAGE`)."""
        if self.stage is None:
            self._start(state)
        return _RUN_STAGE[self.stage](state, self)

    def act(self, state: GameState, action: Action) -> None:
        """D-08: record the bid in the frame only (secret); D-09: the tied house picked."""
        if self.stage is WildlingStage.BID:
            self.bids[_next_bidder(state, self)] = action[1]
        else:
            self.chosen = action[1]
            self.stage = WildlingStage.CARD

    def _start(self, state: GameState) -> None:
        """Fill the attack's own locals on its first run (whoever pushed it gave only its
        inputs)."""
        self.bids = [-1] * state.ruleset.num_houses
        self.stage = WildlingStage.BID
        self.won = False
        self.chosen = -1
        self.tied = []
        self.card = -1
        self.queue = []


def bidders(state: GameState, frame: WildlingAttackFrame) -> list[int]:
    """Houses taking part in this attack, in turn order (D-08: all but ``exclude``)."""
    return [h for h in state.turn_order() if h not in frame.exclude]


def _next_bidder(state: GameState, frame: WildlingAttackFrame) -> int | None:
    """The first house in turn order that has not yet bid, or None once all have."""
    return next((h for h in bidders(state, frame) if frame.bids[h] < 0), None)


def _reveal_bids(state: GameState, frame: WildlingAttackFrame) -> None:
    """§20.2 items 2-4: bids revealed and taken out of available power; the outcome; the highest
    or lowest bidder, or the tie the Iron Throne holder breaks (§9.3)."""
    houses = bidders(state, frame)
    bids = frame.bids
    for h in houses:
        state.power[h] -= bids[h]
    frame.won = sum(bids[h] for h in houses) >= frame.strength
    best = (max if frame.won else min)(bids[h] for h in houses)
    tied = [h for h in houses if bids[h] == best]
    frame.tied = tied
    if len(tied) == 1:
        frame.chosen = tied[0]
    frame.stage = WildlingStage.CARD if len(tied) == 1 else WildlingStage.TIE


def _reveal_card(state: GameState, frame: WildlingAttackFrame) -> None:
    """Consequences items 1 and 3: the top card is revealed and goes to the bottom; queue who
    resolves what (the lowest bidder first, then the others in turn order: errata, facts §9)."""
    card = int(state.wildling_deck[0])
    state.wildling_deck = np.roll(state.wildling_deck, -1)
    state.wildling_known_top[state.wildling_known_top == card] = -1
    frame.card = card
    chosen = frame.chosen
    if frame.won:
        frame.queue = [[int(Role.REWARD), chosen]]
    else:
        others = [[int(Role.OTHERS), h] for h in bidders(state, frame) if h != chosen]
        frame.queue = [[int(Role.LOWEST), chosen]] + others
    frame.stage = WildlingStage.EFFECTS


def _queue_fixed_consequences(state: GameState, frame: WildlingAttackFrame) -> None:
    """1e 5.4 items 4-5 (no wildling card): the highest bidder's reward, or every bidder's losses
    in turn order, the lowest bidder's among them."""
    chosen = frame.chosen
    if frame.won:
        frame.queue = [[int(Role.REWARD), chosen]]
    else:
        frame.queue = [[int(Role.LOWEST if h == chosen else Role.OTHERS), h]
                          for h in bidders(state, frame)]
    frame.stage = WildlingStage.EFFECTS


def _effects(state: GameState, frame: WildlingAttackFrame) -> CardEffects:
    """What each role does: the revealed card's parts, or the 1e fixed ones (1e 5.4)."""
    if state.ruleset.rules.wildlings == "fixed":
        return FIXED_EFFECTS
    return WILDLING_EFFECTS[state.ruleset.wildling_cards[frame.card].id]


def _resolve_next(state: GameState, frame: WildlingAttackFrame) -> None:
    """Consequences item 2: one house's part of the card (which may push its choices); once the
    queue is empty, the card's closing effect after a wildling victory."""
    effects = _effects(state, frame)
    if frame.queue:
        role, house = frame.queue.pop(0)
        (effects.reward, effects.lowest, effects.others)[role](state, house, frame)
        return
    frame.stage = WildlingStage.THREAT
    if not frame.won and effects.after_penalties is not None:
        effects.after_penalties(state, -1, frame)


def _move_threat(state: GameState, frame: WildlingAttackFrame) -> None:
    """§20.2 item 5, facts §4.6: Night's Watch win -> 0; wildling win -> 2 spaces back (-4)."""
    rule = state.ruleset.wildling_threat
    if frame.won:
        state.wildling_threat = rule["after_nights_watch_victory"]
    else:
        state.wildling_threat = max(0, state.wildling_threat - rule["after_wildling_victory_drop"])


def _ask_bid(state: GameState, frame: WildlingAttackFrame) -> Decision | None:
    h = _next_bidder(state, frame)
    if h is not None:
        return Decision(h, DecisionKind.WILDLING_BID,
                        tuple([("bid", n) for n in range(int(state.power[h]) + 1)]),
                        context={"strength": frame.strength}, secret=True)
    _reveal_bids(state, frame)
    return None


def _ask_tie(state: GameState, frame: WildlingAttackFrame) -> Decision:
    return Decision(state.holder(IRON_THRONE), DecisionKind.WILDLING_TIED_BIDDER,
                    tuple(("house", h) for h in frame.tied),
                    context={"highest": frame.won, "bids": list(frame.bids)})


def _card(state: GameState, frame: WildlingAttackFrame) -> None:
    """The top card revealed, or (1e, no wildling cards) the fixed consequences queued."""
    if state.ruleset.rules.wildlings == "fixed":
        _queue_fixed_consequences(state, frame)
    else:
        _reveal_card(state, frame)


def _end_attack(state: GameState, frame: WildlingAttackFrame) -> None:
    _move_threat(state, frame)
    state.stack.pop()


#: What runs at each stage of a wildling attack (in order).
_RUN_STAGE: dict[WildlingStage, Callable[[GameState, WildlingAttackFrame], Decision | None]] = {
    WildlingStage.BID: _ask_bid,
    WildlingStage.TIE: _ask_tie,
    WildlingStage.CARD: _card,
    WildlingStage.EFFECTS: _resolve_next,
    WildlingStage.THREAT: _end_attack,
}
