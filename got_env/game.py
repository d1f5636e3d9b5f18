"""A Game of Thrones as a :class:`boardkit.protocol.Game`: the protocol's methods delegate to
the engine and the encoding, unchanged, so that the kit's tools (agents/ismcts.py first) play
AGoT without importing got_env. :data:`GAME` is what ``boardkit.games.get("got")`` returns.

Beside the protocol: :func:`material`, AGoT's material score, which :meth:`AGoTGame.standing`
reports (the search's value of a position it stops at).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from boardkit.codec import SegmentCodec
from boardkit.decision import Decision
from boardkit.result import Result

from . import engine
from .data import Ruleset, load_ruleset
from .encoding import ObservationEncoder, codec_for, encoder_for
from .engine.decision import Action
from .engine.determinize import Model, determinize
from .engine.options import default_num_players
from .engine.scenario import build
from .engine.state import LAND, GameState

# Weights of the material score (castles are worth 1): what decides the game (castles), what
# takes castles (land areas, units), and the tie-breaks after castles (supply, then power).
WEIGHTS = {"castles": 1.0, "areas": 0.12, "units": 0.08, "supply": 0.1, "power": 0.03}


def material(state: GameState) -> np.ndarray:
    """float[house]: the material score of each house (0 for houses not in play)."""
    rs = state.ruleset
    ctrl = state.control()
    land = (rs.kind == LAND) & (ctrl >= 0)
    areas = np.bincount(ctrl[land], minlength=rs.num_houses)
    units = state.units.sum(axis=(0, 2)).astype(np.float64)  # units of every type
    w = WEIGHTS
    score = (w["castles"] * state.victory_points() + w["areas"] * areas + w["units"] * units
             + w["supply"] * state.supply + w["power"] * state.power)
    return np.where(state.in_play, score, 0.0)


def ruleset_of(options: Mapping[str, Any]) -> Ruleset:
    """The ruleset that ``options["ruleset"]`` names (a Ruleset or its id; default 2e)."""
    rs = options.get("ruleset", "2e")
    return rs if isinstance(rs, Ruleset) else load_ruleset(rs)


class AGoTGame:
    """AGoT through the protocol. Players are house indices of the state's ruleset (every
    per-player vector has ``ruleset.num_houses`` entries, houses not in play included)."""

    name = "got"
    WEIGHTS = WEIGHTS
    #: The agent IS-MCTS rolls out with, expands first and models the others by, unless told.
    default_policy = "heuristic"

    def players(self, options: Mapping[str, Any]) -> list[str]:
        rs = ruleset_of(options)
        n = options.get("num_players")
        return list(rs.setups[default_num_players(options) if n is None else int(n)].houses)

    def new_state(self, seed: int | None, options: Mapping[str, Any]) -> GameState:
        opts = dict(options)
        return engine.start_game(opts.pop("num_players", None), seed, opts)

    def scenario(self, spec: Mapping[str, Any]) -> GameState:
        return build(dict(spec))

    def pending(self, state: GameState) -> Decision | None:
        return state.pending

    def apply(self, state: GameState, action: Action) -> None:
        engine.apply(state, action)

    def clone(self, state: GameState) -> GameState:
        return state.clone()

    def round(self, state: GameState) -> int:
        return state.round

    def outcome(self, state: GameState) -> np.ndarray | None:
        """1 for the winner (0 for the others; 1/k for each of the k houses of a draw, 1e spec
        12), None while the game is on."""
        if state.outcome is None:
            return None
        r = np.zeros(state.ruleset.num_houses)
        winners = list(state.outcome.draw) or [state.outcome.winner]
        r[winners] = 1.0 / len(winners)
        return r

    def result(self, state: GameState) -> Result:
        """The engine's own result (:class:`boardkit.result.Ranked`): the full ranking of the
        houses, a 1st-edition draw, and the castles and strongholds each house in play holds
        (what a tournament reports; :meth:`outcome` only marks the winner)."""
        if state.outcome is None:
            raise ValueError("the game has not ended: it has no result")
        vp, ranking = state.victory_points(), tuple(state.outcome.ranking)
        return Result(ranking, tuple(state.outcome.draw), {h: int(vp[h]) for h in ranking},
                      state.outcome.reason)

    def standing(self, state: GameState) -> np.ndarray:
        """:func:`material`, -inf for the houses not in play."""
        return np.where(state.in_play, material(state), -np.inf)

    def material(self, state: GameState) -> np.ndarray:
        return material(state)

    def determinize(self, state: GameState, observer: int, rng: np.random.Generator,
                    model: Model | None = None) -> GameState:
        return determinize(state, observer, rng, model=model)

    def codec(self, state: GameState) -> SegmentCodec:
        return codec_for(state.ruleset)

    def encoder(self, state: GameState) -> ObservationEncoder:
        return encoder_for(state.ruleset)

    def player_name(self, state: GameState, player: int) -> str:
        return state.ruleset.houses[player].id

    def player_index(self, state: GameState, name: str) -> int:
        return state.ruleset.house(name)

    def digest(self, state: GameState) -> str:
        return state.digest()

    def text(self, state: GameState, observer: int | None = None) -> str:
        """The whole board in words (``GameState.render_text``); AGoT has no per-house text
        yet, so an observer is refused rather than shown hidden orders."""
        if observer is not None:
            raise ValueError("AGoT's text shows the whole board: pass observer=None")
        return state.render_text()


#: The game ``boardkit.games.get("got")`` returns.
GAME = AGoTGame()
