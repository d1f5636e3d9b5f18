"""What an observer may see of the hidden parts of a game: one place for the rules of "revealed
yet" (issue 25, item 3), read by the observation encoder, the replay's log and
:mod:`~got_env.engine.determinize` (which re-samples exactly what these call hidden), so that
the three cannot drift apart.

``observer`` is a house index, or None for the omniscient view (sees everything).

* House cards (R15.3.5 with the errata): a side's chosen card is seen by its own house at
  once, by everybody once both are revealed.
* Tides of Battle cards (§24): one's own once drawn, the opponent's at the reveal.
* Orders (R7, planning): face down until the reveal; an order is its area's occupant's.
* Bids (R14.1, R16.3): secret until every house has bid; then all are shown together.
"""

from __future__ import annotations

from .bidding import BiddingFrame
from .board import occupant
from .combat.frame import CombatFrame
from .combat.stages import Side
from .state import GameState
from .wildlings.attack import WildlingAttackFrame, WildlingStage


def card_visible(frame: CombatFrame, side: Side, observer: int | None) -> bool:
    """Whether ``observer`` may know the house card ``side`` has chosen in this combat."""
    return observer is None or frame.revealed is True or frame.house(side) == observer


def cards_revealed(frame: CombatFrame) -> bool:
    """Whether both chosen house cards are face up (every observer sees them)."""
    return frame.revealed is True


def tides_visible(frame: CombatFrame, side: Side, observer: int | None) -> bool:
    """Whether ``observer`` may know the Tides of Battle card ``side`` has drawn."""
    return observer is None or frame.tides_revealed is True or frame.house(side) == observer


def tides_revealed(frame: CombatFrame) -> bool:
    """Whether the drawn Tides cards are face up."""
    return frame.tides_revealed is True


def orders_hidden(state: GameState, observer: int | None) -> bool:
    """Whether ``observer`` sees only his own placed orders (planning, before the reveal)."""
    return not (state.orders_revealed or observer is None)


def order_visible(state: GameState, area: int, observer: int | None) -> bool:
    """Whether ``observer`` may know the order placed in ``area``."""
    return not orders_hidden(state, observer) or occupant(state, area) == observer


def bids_revealed(frame: BiddingFrame | WildlingAttackFrame, houses: list[int]) -> bool:
    """Whether the bids of a bidding frame are shown: a Clash of Kings track once every house of
    ``houses`` has bid (``bids`` -1 until then), a wildling attack once past its bid stage."""
    if type(frame) is WildlingAttackFrame:
        return frame.stage is not WildlingStage.BID
    bids = frame.bids
    return bids is None or not any(bids[h] < 0 for h in houses)


def bid_visible(frame: BiddingFrame | WildlingAttackFrame, house: int, houses: list[int],
                observer: int | None) -> bool:
    """Whether ``observer`` may know ``house``'s bid in a bidding frame."""
    return observer is None or house == observer or bids_revealed(frame, houses)
