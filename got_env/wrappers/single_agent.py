"""A single-agent Gymnasium env: one house learns, the other houses are played by policies.

Most RL libraries (Stable-Baselines3, CleanRL, RLlib's single-agent path) train one policy on a
``gymnasium.Env``. :class:`SingleAgentEnv` seats the learner at one house of the AEC game
(:mod:`got_env.env`) and plays every other house's decisions inside ``step`` with the given
opponents, until the learner must decide again or the game ends. So one ``step`` is one decision
of the learner; the reward is the AEC env's reward for the learner summed over everything that
happened since its previous decision (by default the zero-sum outcome, paid at the end), plus the
optional potential-based shaping term (:mod:`got_env.wrappers.shaping`).

It is the kit's game-neutral :class:`boardkit.single_agent.SingleAgentEnv` (``game="got"``),
which holds the seat rotation, the opponents, the step loop, the masks and the illegal-action
handling; this subclass adds what is AGoT's own through the kit's hooks: houses for seats (the
``house=`` argument and reset option, and the errors naming the houses in play),
:class:`~got_env.engine.OptionError` for a bad option, the reward shaping, the observation
kinds of :mod:`got_env.wrappers.observations` (``"structured"`` among them), its numeric infos
and the default opponent reader :func:`agent_specs`.

Seats: ``house=None`` rotates the learning house at every reset (a different house each game,
in table order from a start drawn from the seed), ``house="stark"`` fixes it. A seeded
``reset(seed=s)`` is deterministic: the game's seed, the learning house and the seeds of
registry-built opponents are all drawn from the env's ``np_random``.

The action space is ``Discrete(N)`` (the AEC env's). Its ``sample()`` draws a legal action while
the learner is to act, as the AEC env's does. A masked (illegal) index raises
:class:`got_env.engine.IllegalActionError` by default, as in the AEC env, and changes nothing:
a learner whose masks are broken is stopped, not silently corrected. Gymnasium's contract is
that every element of the action space may be passed to ``step`` (and its checker passes an
action sampled in another state), so ``illegal_action="random"`` replaces a masked index by a
legal one drawn from ``np_random``, flagged with ``info["illegal_action"] = 1`` and
``illegal_penalty`` added: for learners without masks, and for ``check_env``. Masked learners
(sb3-contrib's MaskablePPO, via :meth:`~SingleAgentEnv.action_masks`) never send one.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from boardkit.single_agent import ILLEGAL_ACTIONS, AgentFactory, SpecResolver
from boardkit.single_agent import SingleAgentEnv as KitSingleAgentEnv

from ..engine import OptionError, victory
from ..env import OUTCOMES, raw_env
from .observations import ObservationTransform, check_obs_kind
from .shaping import PotentialShaping, make_shaping

# info["outcome"] is 1 + the index of the reason in got_env.env.OUTCOMES (0 while the game is
# on), as in the AEC env's numeric infos.

#: the game's registry name (:func:`boardkit.envs.make_env` builds its :class:`raw_env`)
GAME = "got"

_SPEC_FORMS = ("an agent spec (a registry name such as 'random', 'heuristic' or 'ismcts', "
              "'module:Class', 'path/to/file.py:Class', or a mapping with 'name'), an object "
              "with act(observation, action_mask, info), a callable (observation, action_mask, "
              "info) -> int, or a list or a house -> opponent mapping of these")


def agent_specs(spec: object) -> AgentFactory:
    """The default :data:`SpecResolver`: ``agents.AgentSpec``, the one reader of agent specs
    (every script names agents with it), checked now and built afresh each game with the
    game's env and seed (docs/agents.md)."""
    # The single import of the agents layer from got_env: agent specs are that layer's
    # vocabulary, and the env only takes them as a convenience. Made lazily, when a spec is
    # given, and exempted by name in the layers contract (docs/layers.md, "Exemptions"); a
    # caller passes its own resolver (spec_resolver=) to do without it.
    import agents

    return functools.partial(_build_spec, agents.AgentSpec.parse(spec).check())


def _build_spec(spec: Any, house: str, env: raw_env, seed: int) -> Any:
    """A new agent from a checked ``agents.AgentSpec`` (the same for any seat: ``house`` is
    unused). A module-level function, so that the factory pickles with the env."""
    del house
    return spec.build(env=env, seed=seed)


class SingleAgentEnv(KitSingleAgentEnv):
    """One learning house against policies, as a ``gymnasium.Env``.

    :param house: None (rotate the learning house at each reset) or a house in play.
    :param opponents: who plays the other houses: an agent registry name (``"random"``,
        ``"heuristic"``, ``"ismcts"``; built afresh each game with a seed from the env), a
        mapping ``{"name": ..., **kwargs}``, an object with ``act(observation, action_mask,
        info) -> int`` (the Agent protocol; shared by every opponent seat, its optional
        ``reset()`` / ``observe_end(reward, info)`` are called), a plain callable with that
        signature, a list of these (one per opponent, in table order after the learner) or a
        mapping house -> one of these (every house that can be an opponent named).
    :param obs: ``"dict"`` (default), ``"flat"``, ``"normalized"`` or ``"structured"``
        (:mod:`got_env.wrappers.observations`).
    :param shaping: None (default: the env's reward only), True, a mapping of weights or a
        :class:`~got_env.wrappers.shaping.PotentialShaping`.
    :param info_strings: add readable names to ``info`` (numbers only by default, so that vector
        envs can stack infos into arrays).
    :param illegal_action: ``"raise"`` (default: a masked action is an error) or ``"random"``
        (replace it by a legal one, flagged in ``info``; Gymnasium's any-action contract).
    :param illegal_penalty: added to the reward of a step whose action was masked (0 by
        default; negative values teach a learner without masks to avoid them).
    :param render_mode: None or one of the AEC env's render modes (``"ansi"``,
        ``"rgb_array"``, ...); ``render()`` draws the AEC env's board.
    :param spec_resolver: reads the opponents given as agent specs (names, mappings) into
        factories (:data:`SpecResolver`); :func:`agent_specs` (the agents package's
        ``AgentSpec``) by default.
    :param env_options: the AEC env's options (``num_players``, ``max_rounds``, ``reward``,
        ``max_steps``, ...; docs/env.md), validated by it.

    The seats are the houses: :attr:`houses` and :attr:`fixed_house` are the kit's ``seats``
    and ``fixed_seat``, and ``learner`` is the learning house of the current game.
    """

    metadata = {"render_modes": list(raw_env.metadata["render_modes"]), "render_fps": 1}
    option_error = OptionError
    seat_option = "house"
    spec_forms = _SPEC_FORMS
    class_hint = " (its registry name or 'module:Class')"

    def __init__(self, house: str | None = None, opponents: object = "random",
                 obs: str = "dict", shaping: object = None, info_strings: bool = False,
                 illegal_action: str = "raise", illegal_penalty: float = 0.0,
                 render_mode: str | None = None, spec_resolver: SpecResolver = agent_specs,
                 **env_options: Any):
        if "game" in env_options or "seat" in env_options:
            # the kit's arguments, not options of this env: the AEC env's error names them
            # (an unknown option), as it always has
            raw_env(render_mode=render_mode, **env_options)
        self.shaping: PotentialShaping | None = make_shaping(shaping)
        self._phi = 0.0  # the shaping potential at the learner's latest decision
        super().__init__(GAME, seat=house, opponents=opponents, obs=obs,
                         info_strings=info_strings, illegal_action=illegal_action,
                         illegal_penalty=illegal_penalty, render_mode=render_mode,
                         spec_resolver=spec_resolver, **env_options)

    @property
    def houses(self) -> list[str]:
        """The houses in play, in table order (the kit's ``seats``)."""
        return self.seats

    @property
    def fixed_house(self) -> str | None:
        """The learning house given as ``house=``, or None when it rotates (``fixed_seat``)."""
        return self.fixed_seat

    # -- options --------------------------------------------------------------------------------
    def _check_seat(self, seat: object, what: str) -> str:
        if not isinstance(seat, str) or seat not in self.houses:
            raise OptionError(f"unknown {what} {seat!r}: the houses in play in a "
                              f"{self.aec.num_players}-player game are {self.houses}")
        return seat

    def _check_opponents(self, opponents: object) -> Any:
        """The kit's check, after AGoT's own: a mapping may name any house of the ruleset (one
        not in play is an error saying so), and a list of the wrong length is counted in
        houses in play."""
        if isinstance(opponents, Mapping) and opponents:
            named, in_play = set(opponents), set(self.houses)
            if named <= {h.id for h in self.aec.ruleset.houses} and not named <= in_play:
                raise OptionError(f"opponents for houses not in play: {sorted(named - in_play)}; "
                                  f"the houses in play are {self.houses}")
        elif isinstance(opponents, Sequence) and not isinstance(opponents, str):
            n = len(self.houses) - 1
            if len(opponents) != n:
                raise OptionError(f"opponents is a list of {len(opponents)}, expected {n} (one "
                                  f"per opponent in a {len(self.houses)}-player game)")
        return super()._check_opponents(opponents)

    # -- the kit's hooks ------------------------------------------------------------------------
    def _init_observations(self, obs: str) -> None:
        """The observation kinds of :mod:`got_env.wrappers.observations`."""
        self.obs_kind = check_obs_kind(obs)
        self.transform = ObservationTransform(self.obs_kind, self.aec.ruleset, self.aec.encoder)
        self.observation_space = self.transform.space

    def _observation(self, o: dict[str, np.ndarray]) -> Any:
        return self.transform(o["observation"], self._mask)

    def _too_short(self) -> str:
        return f"max_steps={self.aec.max_steps} is too small"

    def _game_started(self) -> None:
        """The shaping potential of the learner's first decision."""
        self._phi = self._potential()

    def _deciding(self) -> str:
        """The pending decision's kind and the learning house."""
        return f"{self.aec.game.pending.kind.label} of {self.learner}"

    def _extra_reward(self, terminated: bool) -> float:
        """The shaping term (0.0 without shaping): gamma * Phi(now) - Phi(before), the
        potential read at the learner's decisions (:mod:`got_env.wrappers.shaping`)."""
        if self.shaping is None:
            return 0.0
        before = self._phi
        self._phi = self._potential(terminated)
        return self.shaping.term(before, self._phi)

    def _step_info(self, info: dict[str, Any], extra: float) -> None:
        """``info["shaping"]``, the step's shaping term (with shaping only)."""
        if self.shaping is not None:
            info["shaping"] = extra

    def _opponent_action(self, action: Any) -> Any:
        """Unchanged: the AEC env checks it (a float or None raises IllegalActionError)."""
        return action

    # -- internals ------------------------------------------------------------------------------
    def _potential(self, terminated: bool = False) -> float:
        if self.shaping is None:
            return 0.0
        house = self.aec.ruleset.house(self.learner)
        return self.shaping.end_phi(self.aec.game, house, terminated)

    def _info(self) -> dict[str, Any]:
        """The same keys at every step, numbers only unless ``info_strings`` (so that vector
        envs and tensor-converting libraries can stack infos): the learner's house index and
        mask, the decision kind (its D-number; 0 once the game is over) and the number of
        legal actions, the learner's castles; the outcome code (0 while the game is on, else
        1 + its index in :data:`OUTCOMES`), the winner, the learner's rank (0 = first) and the
        ranking as house indices (-1 while the game is on). House indices are positions in the
        env's ``possible_agents``, as in the AEC env's numeric infos (the ruleset's house index
        differs where a house before them is not played: Tyrell is agent 3 in a 4-player 1st
        edition game). Read from the engine, not from the AEC env's infos, so that they do not
        depend on its ``info_format``."""
        rs, game = self.aec.ruleset, self.aec.game
        me = self.houses.index(self.learner)
        me_rs = rs.house(self.learner)
        n = len(self.houses)
        d = game.pending if self._live else None
        info: dict[str, Any] = {
            "house": me, "action_mask": self._mask.copy(),
            "decision": int(d.kind) if d is not None else 0,
            "num_legal": len(d.options) if d is not None else 0,
            "castles": int(game.victory_points()[me_rs]),
            "outcome": 0, "winner": -1, "rank": -1,
            "ranking": np.full(n, -1, dtype=np.int64),
            "illegal_action": 0,
        }
        if self.shaping is not None:
            info["potential"] = self._phi
            info["shaping"] = 0.0
        end = self._outcome()
        if end is not None:
            reason, ranking = end
            ranking = tuple(self.houses.index(rs.houses[h].id) for h in ranking)
            info["outcome"] = OUTCOMES.index(reason) + 1
            info["winner"] = int(ranking[0])
            info["rank"] = list(ranking).index(me)
            info["ranking"] = np.array(ranking, dtype=np.int64)
        if self.info_strings:
            info["house_name"] = self.learner
            info["decision_name"] = d.kind.label if d is not None else ""
            info["outcome_name"] = end[0] if end is not None else ""
            info["winner_name"] = rs.houses[end[1][0]].id if end is not None else ""
            info["ranking_names"] = ([rs.houses[h].id for h in end[1]] if end is not None
                                     else [])
        return info

    def _outcome(self) -> tuple[str, tuple[int, ...]] | None:
        """(reason, ranking as house indices) once the game ended or was truncated, else None."""
        game = self.aec.game
        if game.outcome is not None:
            return game.outcome.reason, tuple(int(h) for h in game.outcome.ranking)
        if self.aec.truncations.get(self.learner):
            return "truncated", tuple(int(h) for h in victory.ranking(game))
        return None


__all__ = ["GAME", "ILLEGAL_ACTIONS", "OUTCOMES", "AgentFactory", "SingleAgentEnv",
           "SpecResolver", "agent_specs"]
