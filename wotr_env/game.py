"""War of the Ring as the kit's :class:`boardkit.protocol.Game` (``boardkit.games.get("wotr")``):
what a game-neutral tool (IS-MCTS, the env, tournaments, the batched API) needs of it, read
from the engine (:mod:`wotr_env.engine`) and the encodings (:mod:`wotr_env.encoding`).

Options: ``ruleset`` ("2e", the default, or "1e") and ``max_turns`` (None, the default: the
rules have no turn limit; a number truncates the game after that turn). Players: 0
``free_peoples``, 1 ``shadow``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from boardkit.codec import SegmentCodec
from boardkit.result import Result

from .data import RULESETS
from .encoding import ObservationEncoder, codec_for, encoder_for
from .engine import apply as engine_apply
from .engine import build, new_state
from .engine.decision import Decision
from .engine.determinize import determinize
from .engine.digest import digest
from .engine.state import FREE_PEOPLES, SHADOW, SIDE_NAMES, WotrState
from .engine.text import text
from .engine.victory import victory_points

OPTIONS = ("ruleset", "max_turns")
#: How a game ended (``WotrState.ending``), and the word for a game cut at ``max_turns``.
ENDINGS = ("corruption", "crack-of-doom", "shadow-points", "free-peoples-points")
TRUNCATED = "truncated"


def check_options(options: Mapping[str, Any]) -> tuple[str, int | None]:
    """(ruleset, max_turns) of ``options``; ValueError naming a bad or unknown option."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"unknown War of the Ring option(s) {unknown}; the options are "
                         f"{list(OPTIONS)}")
    ruleset = options.get("ruleset", "2e")
    if ruleset not in RULESETS:
        raise ValueError(f"ruleset must be one of {list(RULESETS)}, got {ruleset!r}")
    max_turns = options.get("max_turns")
    if max_turns is not None and (isinstance(max_turns, bool) or not isinstance(max_turns, int)
                                  or max_turns < 1):
        raise ValueError(f"max_turns must be a positive integer or None, got {max_turns!r}")
    return ruleset, max_turns


class WotrGame:
    """The protocol's methods over :class:`~wotr_env.engine.state.WotrState`."""

    name = "wotr"
    default_policy = "wotr_heuristic"

    # -- setting up
    def players(self, options: Mapping[str, Any]) -> list[str]:
        """The two sides, whatever the options (a tool may pass its own, ``num_players``)."""
        del options
        return list(SIDE_NAMES)

    def new_state(self, seed: int | None, options: Mapping[str, Any]) -> WotrState:
        ruleset, max_turns = check_options(options)
        return new_state(seed, ruleset, max_turns=max_turns)

    def scenario(self, spec: Mapping[str, Any]) -> WotrState:
        return build(dict(spec))

    # -- playing
    def pending(self, state: WotrState) -> Decision | None:
        return None if state.over else state.pending

    def apply(self, state: WotrState, action: Any) -> None:
        engine_apply(state, action)

    def clone(self, state: WotrState) -> WotrState:
        return state.clone()

    def round(self, state: WotrState) -> int:
        return state.turn

    # -- scoring
    def outcome(self, state: WotrState) -> np.ndarray | None:
        """1 for the winner, 0 for the loser; None while on or once truncated (no result)."""
        if state.winner < 0:
            return None
        scores = np.zeros(2)
        scores[state.winner] = 1.0
        return scores

    def result(self, state: WotrState) -> Result:
        """The winner first; the reason is how it ended (:data:`ENDINGS`); scores: victory
        points."""
        if state.winner < 0:
            raise ValueError("the game has not ended: it has no result")
        vp = victory_points(state)
        return Result((state.winner, 1 - state.winner), (), {0: float(vp[0]), 1: float(vp[1])},
                      state.ending)

    def standing(self, state: WotrState) -> np.ndarray:
        """Each side's distance to its nearest victory, as a margin in [-1, 1]: the Free
        Peoples' best of the Ring's way through Mordor and 4 points, the Shadow's best of
        Corruption towards 12 and 10 points."""
        if state.winner >= 0:
            return np.array([1.0, -1.0]) if state.winner == FREE_PEOPLES else \
                np.array([-1.0, 1.0])
        fp_vp, sh_vp = victory_points(state)
        ring = (state.mordor_step + 1) / 6 if state.mordor_step >= 0 else 0.0
        fp = max(fp_vp / 4, ring * (1 - state.corruption / 12))
        sh = max(sh_vp / 10, state.corruption / 12)
        return np.array([fp - sh, sh - fp])

    # -- information
    def determinize(self, state: WotrState, observer: int, rng: np.random.Generator,
                    model: Any = None) -> WotrState:
        """The engine's sample (:mod:`wotr_env.engine.determinize`); ``model`` is not used: an
        opponent's hidden Combat card is chosen again uniformly among the sample's options."""
        del model
        return determinize(state, observer, rng)

    def codec(self, state: WotrState) -> SegmentCodec:
        return codec_for(state.ruleset)

    def encoder(self, state: WotrState) -> ObservationEncoder:
        return encoder_for(state.ruleset)

    def player_name(self, state: WotrState | None, player: int) -> str:
        return SIDE_NAMES[player]

    def player_index(self, state: WotrState | None, name: str) -> int:
        try:
            return SIDE_NAMES.index(name)
        except ValueError:
            raise KeyError(f"unknown side {name!r}; the sides are {list(SIDE_NAMES)}") from None

    def digest(self, state: WotrState) -> str:
        return digest(state)

    def text(self, state: WotrState, observer: int | None = None) -> str:
        return text(state, observer)


GAME = WotrGame()

__all__ = ["ENDINGS", "GAME", "OPTIONS", "SHADOW", "TRUNCATED", "WotrGame", "check_options"]
