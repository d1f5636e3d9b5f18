"""One place decides what an observer may see (got_env/engine/visibility.py): house cards and
Tides cards of a combat, placed orders, bids."""

from __future__ import annotations

from got_env import engine
from got_env.engine.frames import CombatFrame, Side
from got_env.engine.visibility import (
    bid_visible,
    bids_revealed,
    card_visible,
    order_visible,
    orders_hidden,
    tides_visible,
)


def combat(**extra) -> CombatFrame:
    return CombatFrame.from_dict({"step": "combat", "attacker": 0, "defender": 1, "area": 3,
                                  "origin": 4, "units": [1, 0, 0, 0], "march_bonus": 0,
                                  "stage": "cards", "cards": {"attacker": 5}, **extra})


def test_house_cards_own_at_once_others_at_the_reveal():
    frame = combat()
    assert card_visible(frame, Side.ATTACKER, 0) and card_visible(frame, "attacker", None)
    assert not card_visible(frame, Side.ATTACKER, 1) and not card_visible(frame, "attacker", 2)
    frame.revealed = True
    assert card_visible(frame, Side.ATTACKER, 1) and card_visible(frame, Side.DEFENDER, 2)


def test_tides_cards_own_once_drawn_others_at_the_reveal():
    frame = combat(tides={"attacker": 2, "defender": 7})
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
    frame = {"step": "clash_of_kings", "track": 0, "bids": [3, -1, 0]}
    assert not bids_revealed(frame, [0, 1, 2]) and bid_visible(frame, 0, [0, 1, 2], 0)
    assert not bid_visible(frame, 0, [0, 1, 2], 1) and bid_visible(frame, 0, [0, 1, 2], None)
    frame["bids"][1] = 2
    assert bids_revealed(frame, [0, 1, 2]) and bid_visible(frame, 0, [0, 1, 2], 1)
    assert not bids_revealed({"step": "wildling_attack", "stage": "bid"}, [0, 1, 2])
    assert bids_revealed({"step": "wildling_attack", "stage": "resolve"}, [0, 1, 2])
