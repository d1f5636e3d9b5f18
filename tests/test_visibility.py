"""One place decides what an observer may see (got_env/engine/visibility.py): house cards and
Tides cards of a combat, placed orders, bids."""

from __future__ import annotations

from got_env import engine
from got_env.engine.bidding import BiddingFrame
from got_env.engine.combat.frame import CombatFrame
from got_env.engine.combat.stages import CombatStage, Side
from got_env.engine.visibility import (
    bid_visible,
    bids_revealed,
    card_visible,
    order_visible,
    orders_hidden,
    tides_visible,
)
from got_env.engine.wildlings.attack import WildlingAttackFrame, WildlingStage


def combat(**extra) -> CombatFrame:
    return CombatFrame(attacker=0, defender=1, area=3, origin=4, units=[1, 0, 0, 0],
                       march_bonus=0, stage=CombatStage.CARDS, cards={Side.ATTACKER: 5}, **extra)


def test_house_cards_own_at_once_others_at_the_reveal():
    frame = combat()
    assert card_visible(frame, Side.ATTACKER, 0) and card_visible(frame, "attacker", None)
    assert not card_visible(frame, Side.ATTACKER, 1) and not card_visible(frame, "attacker", 2)
    frame.revealed = True
    assert card_visible(frame, Side.ATTACKER, 1) and card_visible(frame, Side.DEFENDER, 2)


def test_tides_cards_own_once_drawn_others_at_the_reveal():
    frame = combat(tides={Side.ATTACKER: 2, Side.DEFENDER: 7})
    assert tides_visible(frame, Side.DEFENDER, 1) and tides_visible(frame, Side.DEFENDER, None)
    assert not tides_visible(frame, Side.DEFENDER, 0)
    frame.tides_revealed = True
    assert tides_visible(frame, Side.DEFENDER, 0)


def test_orders_hidden_until_the_reveal():
    state = engine.start_game(3, seed=0)
    assert not state.orders_revealed  # the first Planning phase
    assert orders_hidden(state, 0) and not orders_hidden(state, None)
    area = int(state.units.sum(axis=(1, 2)).nonzero()[0][0])
    owner = int(state.units[area].sum(axis=1).argmax())
    assert order_visible(state, area, owner) and order_visible(state, area, None)
    assert not order_visible(state, area, (owner + 1) % 3)
    state.orders_revealed = True
    assert order_visible(state, area, (owner + 1) % 3)


def test_bids_shown_once_everybody_has_bid():
    frame = BiddingFrame(track=0, bids=[3, -1, 0])
    assert not bids_revealed(frame, [0, 1, 2]) and bid_visible(frame, 0, [0, 1, 2], 0)
    assert not bid_visible(frame, 0, [0, 1, 2], 1) and bid_visible(frame, 0, [0, 1, 2], None)
    frame.bids[1] = 2
    assert bids_revealed(frame, [0, 1, 2]) and bid_visible(frame, 0, [0, 1, 2], 1)
    attack = WildlingAttackFrame(strength=6, exclude=[], stage=WildlingStage.BID)
    assert not bids_revealed(attack, [0, 1, 2])
    attack.stage = WildlingStage.EFFECTS
    assert bids_revealed(attack, [0, 1, 2])
