"""A wildling attack (§20.2): its frame, :class:`WildlingAttackFrame`, and its stages (the bids,
a tie broken, the card revealed, each house's part, the threat moved). The readings are
recorded in the package's docstring (got_env.engine.wildlings)."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from boardkit.decision import Decision

from ..decision import Action, DecisionKind
from ..frames import GotFrame
from ..state import IRON_THRONE, GameState
from .cards import FIXED_EFFECTS, WILDLING_EFFECTS, CardEffects


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
