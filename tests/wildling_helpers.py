"""Helpers for the wildling tests: start a wildling attack directly (§20.2) and play it.

The attack is pushed on a round frame that ends the game when it resumes (``max_rounds`` equals
the round), so a finished attack leaves the game ended with no decision pending.
"""

from __future__ import annotations

from typing import Any

from got_env.engine import apply, scenario
from got_env.engine.decision import Action, DecisionKind
from got_env.engine.game import RoundFrame, advance
from got_env.engine.state import GameState, Phase
from got_env.engine.wildlings.attack import WildlingAttackFrame


def attack(card: str | list[str] = "silence-at-the-wall", strength: int = 8,
           exclude: tuple[str, ...] = (), threat: int | None = None, **spec: Any) -> GameState:
    """A 3-player game (unless ``players`` is given) in round 2's Westeros phase, a wildling attack
    of ``strength`` under way with ``card`` on top of the wildling deck; the threat token stands
    at ``threat`` (default: ``strength``). Returns at the first decision."""
    cards = [card] if isinstance(card, str) else card
    spec = {"players": 3, "round": 2, "options": {"max_rounds": 2}, "wildling_top": cards,
            "wildling_threat": strength if threat is None else threat, **spec}
    state = scenario.build(spec)
    state.stack.clear()
    state.pending = None
    state.phase = Phase.WESTEROS
    state.stack.append(RoundFrame(at=3))
    state.stack.append(WildlingAttackFrame(strength=strength,
                                           exclude=[house(state, h) for h in exclude]))
    advance(state)
    return state


def house(state: GameState, house_id: str) -> int:
    return state.ruleset.house(house_id)


def area(state: GameState, area_id: str) -> int:
    return state.ruleset.area(area_id)


def card(state: GameState, card_id: str) -> int:
    return state.ruleset.house_card(card_id)


def wildling(state: GameState, card_id: str) -> int:
    return next(c.index for c in state.ruleset.wildling_cards if c.id == card_id)


def bid(state: GameState, **bids: int) -> None:
    """Play the pending D-08 bids of one attack, house by house in the order asked; every house
    asked must be named, and every house named must be asked (a house with no power too: a
    secret decision is asked even with one option, boardkit.frames.advance)."""
    asked = []
    while len(asked) < len(bids) and state.pending is not None \
            and state.pending.kind == DecisionKind.WILDLING_BID:
        hid = state.ruleset.houses[state.pending.player].id
        asked.append(hid)
        apply(state, ("bid", bids[hid]))
    assert sorted(asked) == sorted(bids), f"asked {asked}, bids given for {sorted(bids)}"


def play(state: GameState, kind: DecisionKind, player: str, action: Action) -> None:
    """Check that ``player`` is asked a ``kind`` decision, then play ``action``."""
    d = state.pending
    assert d is not None, "no decision pending"
    assert (d.kind, state.ruleset.houses[d.player].id) == (kind, player), d
    apply(state, action)


def units(state: GameState, house_id: str, area_id: str) -> list[int]:
    """[footmen, knights, ships, siege engines] of the house in the area."""
    return state.units[area(state, area_id), house(state, house_id)].tolist()


def ended(state: GameState) -> bool:
    """The attack (and the test game with it) is over."""
    return state.pending is None and state.phase == Phase.ENDED
