"""Goofspiel as one plugin of the kit (:class:`boardkit.plugin.GamePlugin`, registered as
``"goofspiel"``): the rules and the env, and no tool piece of its own: every tool's
game-neutral default serves it (the worked example of docs/kit.md, "Adding a game")."""

from __future__ import annotations

import numpy as np

from boardkit.plugin import GamePlugin

from .env import raw_env
from .game import GAME
from .rules import State


def check_invariants(state: State) -> None:
    """Every card is in a hand or played once; the points won are the prizes revealed."""
    n, cards = state.hands.shape
    played = state.played[:state.turn]
    assert played.shape == (state.turn, n), f"played has shape {played.shape}"
    for p in range(n):
        seen = np.zeros(cards, dtype=int)
        seen[played[:, p]] += 1
        seen += state.hands[p].astype(int)
        assert (seen == 1).all(), f"player {p}: a card held and played, or lost"
    assert state.points.sum() <= state.prizes[:state.turn].sum() + state.turn, \
        "more points won than prizes revealed"


PLUGIN = GamePlugin(
    game=GAME,
    make_env=raw_env,
    check_invariants=check_invariants,
    variants={"2p": {"num_players": 2, "num_cards": 6}, "3p": {"num_players": 3, "num_cards": 5}},
)
