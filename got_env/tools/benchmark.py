"""A Game of Thrones' benchmark hooks (its plugin's ``benchmark`` piece, read by
``python -m experiments.benchmark --game got``): what the game-neutral benchmark cannot know of
AGoT. Everything else (the env, the rules through the protocol, ``VectorGames``) it measures as
it measures every game, so that AGoT's figures are the ones its own benchmark measured before
(the same env, engine calls, encoder and codec, under the same figure names)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from got_env.engine.state import GameState
from got_env.game import ruleset_of


def default_players(env_options: Mapping[str, Any]) -> tuple[int, ...]:
    """The player counts measured when none are asked for: every count of the options'
    ruleset (2e: 3-6, 1e: 3-5), so that one run covers every board."""
    return tuple(ruleset_of(env_options).rules.player_counts)


def forget_encoding(state: GameState) -> None:
    """Drop the board the observation encoder keeps on a state, so that "encode us" times the
    encoding of a state never encoded (a search agent's fresh sample, a new game), not a cache
    hit."""
    state.__dict__.pop("_board_cache", None)
