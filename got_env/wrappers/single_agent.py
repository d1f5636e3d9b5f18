"""A single-agent Gymnasium env: one house learns, the other houses are played by policies.

Most RL libraries (Stable-Baselines3, CleanRL, RLlib's single-agent path) train one policy on a
``gymnasium.Env``. :class:`SingleAgentEnv` seats the learner at one house of the AEC game
(:mod:`got_env.env`) and plays every other house's decisions inside ``step`` with the given
opponents, until the learner must decide again or the game ends. So one ``step`` is one decision
of the learner; the reward is the AEC env's reward for the learner summed over everything that
happened since its previous decision (by default the zero-sum outcome, paid at the end), plus the
optional potential-based shaping term (:mod:`got_env.wrappers.shaping`).

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
(sb3-contrib's MaskablePPO, via :meth:`action_masks`) never send one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from ..engine import IllegalActionError, OptionError
from ..env import OUTCOMES, LegalActions, raw_env
from .observations import ObservationTransform, check_obs_kind
from .shaping import PotentialShaping, make_shaping

# info["outcome"] is 1 + the index of the reason in got_env.env.OUTCOMES (0 while the game is
# on), as in the AEC env's numeric infos.
ILLEGAL_ACTIONS = ("raise", "random")

Policy = Callable[[np.ndarray, np.ndarray, dict], int]


#: Builds one opponent for one game: ``(house, env, seed) -> agent``, an object with
#: ``act(observation, action_mask, info)`` or a plain policy callable. Called at every reset, with
#: the AEC env and a seed drawn from the single-agent env's ``np_random``.
AgentFactory = Callable[[str, raw_env, int], Any]
#: Reads an opponent spec (a registry name or a mapping, docs/wrappers.md "Opponents") into the
#: factory that builds it, checking it now; a bad spec raises ValueError saying why.
SpecResolver = Callable[[object], AgentFactory]

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


def _given(agent: Any, house: str, env: raw_env, seed: int) -> Any:
    """The factory of an opponent given as an object or a callable: that one, in every game."""
    del house, env, seed
    return agent


def _opponent_factory(spec: object, where: str, resolve: SpecResolver) -> AgentFactory:
    """Validate one opponent (building nothing yet) into the factory that seats it each game;
    ``where`` says which seat, for the error message, which also names the bad value."""
    if isinstance(spec, (str, Mapping)):
        try:
            return resolve(spec)
        except ValueError as e:
            raise OptionError(f"bad opponent {spec!r}{where}: {e}") from e
    if isinstance(spec, type):
        raise OptionError(f"bad opponent {spec.__name__}{where}: a class; pass an instance, or "
                          f"an agent spec naming it (its registry name or 'module:Class')")
    if callable(getattr(spec, "act", None)) or callable(spec):
        return functools.partial(_given, spec)
    raise OptionError(f"bad opponent {spec!r}{where}: use {_SPEC_FORMS}")


def _call_optional(agent: object, method: str, *args: Any) -> None:
    """Call the opponent's optional ``reset()`` / ``observe_end(reward, info)``, the two hooks
    of the Agent protocol an opponent may have (docs/wrappers.md, "Opponents")."""
    hook = getattr(agent, method, None)
    if callable(hook):
        hook(*args)


class SingleAgentEnv(gymnasium.Env):
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
    """

    metadata = {"render_modes": list(raw_env.metadata["render_modes"]), "render_fps": 1}

    def __init__(self, house: str | None = None, opponents: object = "random",
                 obs: str = "dict", shaping: object = None, info_strings: bool = False,
                 illegal_action: str = "raise", illegal_penalty: float = 0.0,
                 render_mode: str | None = None, spec_resolver: SpecResolver = agent_specs,
                 **env_options: Any):
        self.aec = raw_env(render_mode=render_mode, **env_options)
        self.render_mode = render_mode
        self.houses = list(self.aec.possible_agents)
        self.fixed_house = None if house is None else self._check_house(house, "house")
        self.obs_kind = check_obs_kind(obs)
        self.transform = ObservationTransform(self.obs_kind, self.aec.ruleset, self.aec.encoder)
        self.shaping: PotentialShaping | None = make_shaping(shaping)
        if not isinstance(info_strings, bool):
            raise OptionError(f"info_strings must be True or False, got {info_strings!r}")
        self.info_strings = info_strings
        if illegal_action not in ILLEGAL_ACTIONS:
            raise OptionError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, got "
                              f"{illegal_action!r}")
        self.illegal_action = illegal_action
        if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)):
            raise OptionError(f"illegal_penalty must be a number, got {illegal_penalty!r}")
        self.illegal_penalty = float(illegal_penalty)
        self._spec_resolver = spec_resolver
        self._opponent_specs = self._check_opponents(opponents)
        self.action_space = LegalActions(self.aec.codec.size, self)
        self.observation_space = self.transform.space
        self.learner: str | None = None  # the learning house of the current game
        self._rotation_start: int | None = None
        self._games = 0
        self._policies: dict[str, Policy] = {}
        self._agents: dict[str, Any] = {}
        self._mask = np.zeros(self.aec.codec.size, dtype=np.int8)
        self._live = False
        self._phi = 0.0

    # -- options --------------------------------------------------------------------------------
    def _check_house(self, house: object, what: str) -> str:
        if not isinstance(house, str) or house not in self.houses:
            raise OptionError(f"unknown {what} {house!r}: the houses in play in a "
                              f"{self.aec.num_players}-player game are {self.houses}")
        return house

    def _check_opponents(self, opponents: object) -> Any:
        """The validated opponents as factories: one for every seat, a list by seat, or a dict
        by house (kept in the form given; built per game by :meth:`_seat_opponents`)."""
        n, resolve = len(self.houses) - 1, self._spec_resolver
        all_houses = {h.id for h in self.aec.ruleset.houses}
        if isinstance(opponents, Mapping) and opponents and set(opponents) <= all_houses:
            unknown = sorted(set(opponents) - set(self.houses))
            if unknown:
                raise OptionError(f"opponents for houses not in play: {unknown}; the houses "
                                  f"in play are {self.houses}")
            needed = [h for h in self.houses if h != self.fixed_house]
            missing = [h for h in needed if h not in opponents]
            if missing:
                raise OptionError(f"opponents has no entry for {missing} (every house that can "
                                  f"be an opponent needs one)")
            return {h: _opponent_factory(s, f" (for {h})", resolve) for h, s in opponents.items()}
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != n:
                raise OptionError(f"opponents is a list of {len(opponents)}, expected {n} (one "
                                  f"per opponent in a {len(self.houses)}-player game)")
            return [_opponent_factory(s, f" (opponent {i})", resolve)
                    for i, s in enumerate(opponents)]
        return _opponent_factory(opponents, "", resolve)

    # -- gymnasium API --------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new game. ``options={"house": "stark"}`` picks the learning house of this game
        (the rotation still advances). The game, the house and registry-built opponents are
        drawn from ``np_random``, so a seeded reset always starts the same game."""
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = sorted(set(options) - {"house"})
        if unknown:
            raise OptionError(f"unknown reset option(s) {unknown}; known: ['house']")
        if seed is not None or self._rotation_start is None:
            self._rotation_start = int(self.np_random.integers(len(self.houses)))
            self._games = 0
        rotated = self.houses[(self._rotation_start + self._games) % len(self.houses)]
        self._games += 1
        if options.get("house") is not None:
            self.learner = self._check_house(options["house"], "reset option house")
        else:
            self.learner = self.fixed_house or rotated
        self.aec.reset(seed=int(self.np_random.integers(2**63 - 1)))
        self._seat_opponents()
        self._play_opponents()
        if self._done():
            raise RuntimeError(f"the game ended before {self.learner}'s first decision "
                               f"(max_steps={self.aec.max_steps} is too small)")
        self._phi = self._potential()
        obs = self._observe()
        return obs, self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponents until the learner is to act again
        or the game is over."""
        if self.aec.game is None:
            raise RuntimeError("call reset() before step()")
        if not self._live:
            raise RuntimeError("the game is over (terminated or truncated); call reset()")
        index = self._action_index(action)
        illegal = not self._mask[index]
        if illegal:
            if self.illegal_action == "raise":
                d = self.aec.game.pending
                raise IllegalActionError(
                    f"action {index} ({self.aec.action_name(index)}) is not legal for "
                    f"{d.kind.label} of {self.learner}; action_masks() lists the legal ones")
            index = int(self.np_random.choice(np.flatnonzero(self._mask)))
        self.aec.step(index)
        reward = float(self.aec.rewards[self.learner])
        reward += self._play_opponents()
        terminated = bool(self.aec.terminations[self.learner])
        truncated = bool(self.aec.truncations[self.learner])
        shaping_term = 0.0
        if self.shaping is not None:
            before = self._phi
            self._phi = self._potential(terminated)
            shaping_term = self.shaping.term(before, self._phi)
        reward += shaping_term + (self.illegal_penalty if illegal else 0.0)
        obs = self._observe()
        info = self._info()
        info["illegal_action"] = int(illegal)
        if self.shaping is not None:
            info["shaping"] = shaping_term
        if terminated or truncated:
            self._end_opponents()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (what sb3-contrib's MaskablePPO asks for);
        all False once the game is over."""
        return self._mask.astype(bool)

    def legal_mask(self) -> np.ndarray | None:
        """The learner's legal actions (int8) while it is to act, else None: what
        ``action_space.sample()`` draws from (:class:`got_env.env.LegalActions`)."""
        return self._mask if self._live else None

    def render(self) -> str | np.ndarray | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def action_name(self, action: int) -> str:
        """A readable name for an action index (the AEC env's)."""
        return self.aec.action_name(action)

    # -- internals ------------------------------------------------------------------------------
    def _seat_opponents(self) -> None:
        """This game's policy for every house but the learner's (registry agents built now,
        with seeds from ``np_random``), and the optional ``reset()`` of each agent called."""
        i = self.houses.index(self.learner)
        others = self.houses[i + 1:] + self.houses[:i]  # table order after the learner
        specs = self._opponent_specs
        self._policies, self._agents = {}, {}
        started: set[int] = set()
        for seat, house in enumerate(others):
            if isinstance(specs, dict) and house not in specs:
                raise OptionError(f"opponents has no entry for {house}, an opponent of "
                                  f"{self.learner} in this game")
            factory = (specs[house] if isinstance(specs, dict)
                       else specs[seat] if isinstance(specs, list) else specs)
            agent = factory(house, self.aec, int(self.np_random.integers(2**31 - 1)))
            act = getattr(agent, "act", None)
            self._policies[house] = act if callable(act) else agent
            self._agents[house] = agent
            if id(agent) not in started:  # a shared object is reset once per game
                started.add(id(agent))
                _call_optional(agent, "reset")

    def _play_opponents(self) -> float:
        """Step the other houses' decisions until the learner's turn or the end; the learner's
        reward over those steps."""
        aec, reward = self.aec, 0.0
        while not self._done() and aec.agent_selection != self.learner:
            house = aec.agent_selection
            o = aec.observe(house)
            aec.step(self._policies[house](o["observation"], o["action_mask"],
                                           dict(aec.infos[house])))
            reward += float(aec.rewards[self.learner])
        return reward

    def _end_opponents(self) -> None:
        ended: set[int] = set()
        for house, agent in self._agents.items():
            if id(agent) not in ended:
                ended.add(id(agent))
                _call_optional(agent, "observe_end", float(self.aec._cumulative_rewards[house]),
                               dict(self.aec.infos[house]))

    def _done(self) -> bool:
        return bool(self.aec.terminations[self.learner] or self.aec.truncations[self.learner])

    def _potential(self, terminated: bool = False) -> float:
        if self.shaping is None:
            return 0.0
        house = self.aec.ruleset.house(self.learner)
        return self.shaping.end_phi(self.aec.game, house, terminated)

    def _observe(self) -> Any:
        o = self.aec.observe(self.learner)
        self._mask = o["action_mask"]
        self._live = not self._done()
        return self.transform(o["observation"], self._mask)

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
            from ..engine.victory import ranking

            return "truncated", tuple(int(h) for h in ranking(game))
        return None

    def _action_index(self, action: object) -> int:
        """The action as an int; anything that is not an element of the action space (a float,
        a bool, an index out of range) raises IllegalActionError whatever ``illegal_action``
        says, since that is a bug of the caller, not a choice of the policy."""
        if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
            action = action.reshape(()).item()
        n = self.aec.codec.size
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"action {action!r} ({type(action).__name__}) is not an "
                                     f"action index: expected an integer in 0..{n - 1}")
        if not 0 <= action < n:
            raise IllegalActionError(f"action {action!r} is outside the action space: expected "
                                     f"an integer in 0..{n - 1}")
        return int(action)
