"""The PettingZoo AEC environment (DESIGN.md "Configuration and interfaces").

``raw_env(**options)`` is the bare :class:`AECEnv`; ``env(**options)`` wraps it in PettingZoo's
usual guards (out-of-bounds actions, call order). Agents are the houses in play
(``"stark"``, ``"lannister"``, ...). Every agent has the same ``Discrete(N)`` action space
(:class:`boardkit.codec.SegmentCodec`, AGoT's segments) and observes
``{"observation": Box(float32, (F,)), "action_mask": Box(int8, (N,))}`` from its own point of view
(:class:`got_env.encoding.ObservationEncoder`); a house that is not to act gets an all-zero mask.
``infos`` keys are documented in docs/env.md ("Infos"): numbers only by default, so that libraries
which turn infos into tensors (TorchRL, Tianshou, RLlib) take them as they are; readable strings
with ``info_format="text"``. The env knows nothing of the rules: it asks the engine.

The env mechanism is the kit's (:class:`boardkit.aec.KitEnv`: order enforcing, the
``LegalActions`` space, reward schemes, truncation, illegal-action errors, render modes, the
agent to act); :class:`raw_env` is AGoT's part of it: its options, its numeric infos, the
``castles`` reward, the standing of a truncated game (R22.3), its record's options and its
picture; its record is the kit's (``env.record``, :class:`boardkit.records.GameRecord`).

Options (validated; an unknown or bad one raises :class:`got_env.engine.OptionError`):
``ruleset`` ("2e", the 2nd edition; "1e", the 1st edition: 3-5 players, 50 areas, 5 houses, so
other observation and action sizes), ``num_players`` (3-6 in 2e, 3-5 in 1e; default the
ruleset's largest: 6 in 2e, 5 in 1e), ``tides_of_battle`` (False; 2e only), ``max_rounds`` (the
ruleset's rounds, 10, and at most that), ``tiebreak`` (the ruleset's first chain: "errata" in 2e,
"first-edition" in 1e), ``lannister_port_ship_in_3p`` (True; 2e only), ``reward`` ("zero_sum",
"castles" or "rank"), ``max_steps`` (None: no truncation; ``max_cycles`` is PettingZoo's name for
it), ``render_mode`` (None, "ansi", "rgb_array", "human":
prints the text board), ``info_format`` ("numeric" or "text").

Draws (1e spec 12: the 1st edition's tie-breaks can leave houses equal; the 2nd edition's end on
the Iron Throne order, so they never do). The engine's ``Outcome.draw`` names the houses that
share the game (they lead ``ranking``, in Iron Throne order). Rewards: ``zero_sum`` pays each of
the k drawn houses (n-k)/(k(n-1)) and every other house -1/(n-1) (the sum stays 0; k = 1 is the
plain +1 / -1/(n-1)); ``rank`` pays the drawn houses the mean of the rewards of the places they
share; ``castles`` does not look at the ranking. A chain that can draw gives the numeric infos a
``draw`` key at every step (see docs/env.md "Infos"); records and text infos name the drawn
houses only when there is a draw, so 2e infos and records are as before.

Readings recorded here:

* Only a draw for first place is shared (1e spec 12 speaks of the winner only): houses still
  equal lower down keep their Iron Throne order in ``ranking`` and in the ``rank`` reward.
* A truncated game (``max_steps``) reports its standing, never a draw: the game did not end.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from boardkit.aec import KitEnv
from boardkit.codec import SegmentCodec
from boardkit.order import OrderEnforcing
from boardkit.rewards import end_rewards
from boardkit.spaces import LegalActions

from . import engine
from .data import load_ruleset
from .encoding import ObservationEncoder, codec_for, encoder_for
from .engine import GameOptions, OptionError, game_options, victory
from .engine.victory import TIEBREAKS
from .game import GAME

# OrderEnforcing, LegalActions and end_rewards were defined here; they are the kit's now, and
# stay importable from here (the same objects).
__all__ = ["ENV_OPTIONS", "INFO_FORMATS", "OUTCOMES", "RENDER_MODES", "REWARD_SCHEMES",
           "LegalActions", "OrderEnforcing", "can_draw", "end_rewards", "env", "raw_env"]

REWARD_SCHEMES = ("zero_sum", "castles", "rank")
RENDER_MODES = ("ansi", "rgb_array", "human")
INFO_FORMATS = ("numeric", "text")
ENV_OPTIONS = ("num_players", "reward", "max_steps", "max_cycles", "render_mode", "info_format")
#: ``infos[agent]["outcome"]`` in the numeric format is ``OUTCOMES.index(reason) + 1`` (0: the
#: game is on), so that a zero-filled info tensor reads as "no outcome yet".
OUTCOMES = ("seven-castles", "last-round", "truncated")


def env(**options: Any) -> OrderEnforcing:
    """The wrapped environment: the kit's order-enforcing guard (reset before step, ...).
    Actions are checked by the raw env itself, with errors that name the action, the agent and
    the valid range (PettingZoo's assert-out-of-bounds guard would answer a bare
    AssertionError)."""
    return OrderEnforcing(raw_env(**options))


def _fresh(info: dict[str, Any]) -> dict[str, Any]:
    """A copy of a numeric infos dict that shares no list with it (``ranking``, ``draw``)."""
    fresh = info.copy()
    fresh["ranking"] = info["ranking"].copy()
    if "draw" in info:
        fresh["draw"] = info["draw"].copy()
    return fresh


class raw_env(KitEnv):  # noqa: N801  (PettingZoo's naming)
    """AGoT's AEC env (module docstring): the kit's :class:`~boardkit.aec.KitEnv` over
    :data:`got_env.game.GAME`, with AGoT's options, numeric infos, ``castles`` reward,
    truncated standing, record options and picture."""

    metadata = {"name": "got_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}
    reward_schemes = REWARD_SCHEMES
    info_formats = INFO_FORMATS
    option_error = OptionError
    numbered_kinds = True

    def __init__(self, **options: Any):
        env_opts = {k: options.pop(k) for k in ENV_OPTIONS if k in options}
        # Checked once; the player count and round defaults come from the ruleset's data there.
        opts: GameOptions = game_options(env_opts.pop("num_players", None), options)
        self.num_players = opts.num_players
        self.game_options = opts.as_dict()  # what states and records have always stored
        self.ruleset = load_ruleset(self.game_options["ruleset"])
        super().__init__(GAME, {**self.game_options, "num_players": self.num_players},
                         **env_opts)
        self.options: GameOptions = opts
        # the engine directly (what GAME's pending and apply do, one call fewer per step)
        self._pending = operator.attrgetter("pending")
        self._apply = engine.apply
        self.can_draw = can_draw(self.game_options["tiebreak"])
        #: the numeric infos of a house not to act, copied (:func:`_fresh`) at every step
        numeric = self._numeric_info(0, 0, None)
        self._idle_info = None if self.info_format == "text" else numeric

    # -- the kit's hooks ------------------------------------------------------------------------
    def _tables(self) -> tuple[SegmentCodec, ObservationEncoder, dict[str, int]]:
        """The ruleset's codec and encoder, and its houses of this player count (no probe
        state: an env is built per game slot of a batch)."""
        houses = self.ruleset.setups[self.num_players].houses
        return (codec_for(self.ruleset), encoder_for(self.ruleset),
                {h: self.ruleset.house(h) for h in houses})

    def _new_state(self, seed: int) -> engine.GameState:
        return engine.start_game(self.num_players, seed=seed, options=self.game_options)

    _fresh = staticmethod(_fresh)  # the idle infos' copy: two lists, copied by name

    def turn_info(self, kind: Any, num_legal: int) -> dict[str, Any]:
        """The infos of the house to act while the game is on (``kind``: the pending decision's
        :class:`~got_env.engine.DecisionKind` or its number): a fresh copy of a template. The
        batched API rebuilds the acting house's infos in the main process with it, from the
        two numbers."""
        if self.info_format == "text":
            return {"decision": engine.DecisionKind(kind).label, "num_legal": num_legal}
        info = _fresh(self._idle_info)
        info["decision"], info["num_legal"] = int(kind), num_legal
        return info

    def _end_info(self, reason: str, ranking: tuple[int, ...],
                  drawn: tuple[int, ...]) -> dict[str, Any]:
        if self.info_format == "text":
            return super()._end_info(reason, ranking, drawn)
        return self._numeric_info(0, 0, (reason, ranking), drawn)

    def _end_rewards(self, ranking: tuple[int, ...], drawn: tuple[int, ...]) -> dict[str, float]:
        """``castles``: each house's castles and strongholds over the number that wins;
        otherwise the kit's schemes."""
        if self.reward_scheme != "castles":
            return super()._end_rewards(ranking, drawn)
        vp = self.game.victory_points()
        target = self.ruleset.setups[self.num_players].castles_to_win
        return {a: float(vp[self._player[a]]) / target for a in self.agents}

    def _truncated_ranking(self) -> tuple[int, ...]:
        """The standing by the victory rules (R22.3)."""
        return tuple(victory.ranking(self.game))

    def _picture(self) -> np.ndarray:
        # matplotlib: loaded only when a picture is asked for (render_mode rgb_array)
        from .render.picture import render_board

        return render_board(self.game)

    def _game_options(self) -> dict[str, Any]:
        """What a record's options hold of the game's (``env.record``, the kit's
        :class:`boardkit.records.GameRecord`): the checked options and the player count."""
        return {**self.game_options, "num_players": self.num_players}

    # -- AGoT's extras --------------------------------------------------------------------------
    def _numeric_info(self, decision: int, num_legal: int,
                      end: tuple[str, tuple[int, ...]] | None,
                      drawn: tuple[int, ...] = ()) -> dict[str, Any]:
        """One agent's infos in the numeric format: always the same keys and shapes (a
        tensor-converting library builds its info spec from the first infos it sees), zeros and
        -1 for what does not apply yet. Houses are numbered by their index in
        ``possible_agents``."""
        seat = self._seat
        if end is None:
            info = {"decision": decision, "num_legal": num_legal, "outcome": 0, "winner": -1,
                    "ranking": [-1] * self.num_players}
        else:
            reason, ranking = end
            info = {"decision": decision, "num_legal": num_legal,
                    "outcome": OUTCOMES.index(reason) + 1, "winner": seat[int(ranking[0])],
                    "ranking": [seat[int(h)] for h in ranking]}
        if self.can_draw:  # fixed shape: the drawn houses, then -1 (all -1 without a draw)
            shared = [seat[int(h)] for h in drawn] if end is not None else []
            info["draw"] = shared + [-1] * (self.num_players - len(shared))
        return info


def can_draw(tiebreak: str) -> bool:
    """Whether the tie-break chain can leave houses equal (1e spec 12: "first-edition"). The 2e
    chains end on the Iron Throne order, which no two houses share, so they never draw."""
    return TIEBREAKS[tiebreak][-1] != "iron_throne"
