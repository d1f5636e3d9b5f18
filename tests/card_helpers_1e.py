"""Helpers for the 1st-edition house-card tests (tests/test_1e_house_cards.py): 1e positions at the
March step with all five houses, a card played with its text or as a plain card of the same
strength and icons (its ability taken out of its table for the test), and the 1e hands by id.

At 5 players (got_env/data/1e/tracks.yaml): Iron Throne Baratheon, Lannister, Stark, Greyjoy,
Tyrell; Fiefdoms Greyjoy (the Blade), Tyrell, Stark, Baratheon, Lannister; 5 power each.
"""

from __future__ import annotations

from typing import Any

from combat_helpers import build

from got_env.engine.combat.cards import ABILITIES, FIRST_EDITION_ABILITIES
from got_env.engine.state import GameState

HOUSE_CARDS_1E = {
    "stark": ["catelyn-stark", "eddard-stark", "greatjon-umber", "lord-mormont",
              "maester-luwin", "robb-stark", "sir-rodrik-cassel"],
    "lannister": ["cersei-lannister", "jaime-lannister", "kevan-lannister", "lannister-captain",
                  "tyrion-lannister", "tywin-lannister", "vargo-hoat"],
    "baratheon": ["melisandre-of-asshai", "renly-baratheon", "robert-baratheon",
                  "salladhor-saan", "ser-axell-florent", "ser-davos-seaworth",
                  "stannis-baratheon"],
    "greyjoy": ["aeron-damphair", "asha-greyjoy", "balon-greyjoy", "blacktyde-captain",
                "euron-crows-eye", "theon-greyjoy", "victarion-greyjoy"],
    "tyrell": ["brienne-of-tarth", "garlan-tyrell", "mace-tyrell", "margaery-tyrell",
               "queen-of-thorns", "ser-loras-tyrell", "tyrell-captain"],
}


def build_1e(**spec: Any) -> GameState:
    """A 5-player 1st-edition position at the March step, no neutral forces."""
    return build(ruleset="1e", players=5, **spec)


def with_text_1e(monkeypatch, ability: str, text: bool) -> None:
    """Unless ``text``, the card whose ability id is ``ability`` plays as a plain card."""
    table = FIRST_EDITION_ABILITIES if ability in FIRST_EDITION_ABILITIES else ABILITIES
    assert ability in table
    if not text:
        monkeypatch.delitem(table, ability)


def others(house: str, *cards: str) -> list[str]:
    """The house's 1e cards except ``cards``, sorted."""
    return sorted(set(HOUSE_CARDS_1E[house]) - set(cards))
