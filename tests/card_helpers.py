"""Helpers for the house-card tests (tests/test_cards_*.py): play a card with its text, or as a
plain card of the same strength and icons (its ability taken out of the table for the test), and
read hands, discard piles and tracks by id."""

from __future__ import annotations

from combat_helpers import cards_of

from got_env.engine import CardPlace
from got_env.engine.combat.cards import ABILITIES
from got_env.engine.state import GameState
from got_env.engine.tracks import track_order

TEXT = [True, False]  # parametrize: the card with its text / as a plain card
TRACK_IDS = ("iron-throne", "fiefdoms", "kings-court")


def with_text(monkeypatch, card: str, text: bool) -> None:
    """Unless ``text``, ``card`` plays as a plain card: same strength and icons, no ability."""
    assert card in ABILITIES
    if not text:
        monkeypatch.delitem(ABILITIES, card)


def hand(state: GameState, house: str) -> list[str]:
    return cards_of(state, house, CardPlace.HAND)


def discards(state: GameState, house: str) -> list[str]:
    return cards_of(state, house, CardPlace.DISCARD)


def track(state: GameState, track_id: str) -> list[str]:
    """House ids on a track, position 1 first."""
    order = track_order(state, TRACK_IDS.index(track_id))
    return [state.ruleset.houses[h].id for h in order]


def card_action(state: GameState, card: str) -> tuple:
    return ("card", state.ruleset.house_card(card))


def area_action(state: GameState, area: str) -> tuple:
    return ("area", state.ruleset.area(area))
