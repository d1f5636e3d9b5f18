"""A single-agent Gymnasium env of any game on the kit: one seat learns, the other seats are
played by policies inside ``step``.

Most RL libraries (Stable-Baselines3, CleanRL, RLlib's single-agent path) train one policy on a
``gymnasium.Env``. :class:`SingleAgentEnv` seats the learner at one seat of a game's AEC env
(:func:`boardkit.envs.make_env`, the game by its registry name) and plays every other seat's
decisions with the given opponents, until the learner must decide again or the game ends: one
``step`` is one decision of the learner, its reward the AEC env's reward for the learner summed
over everything that happened since its previous decision (the end's, by the env's ``reward``
scheme).

It is AGoT's :class:`got_env.wrappers.SingleAgentEnv` without what is AGoT's own (its reward
shaping, per-area observations, castles in the infos), for every other game: a game registers
it under a Gymnasium id of its own with its default opponent reader (War of the Ring:
``wotr_env/WarOfTheRing-v0``, :mod:`wotr_env.wrappers`).

Seats: ``seat=None`` rotates the learning seat at every reset (in seat order from a start drawn
from the seed), ``seat="shadow"`` fixes it. A seeded ``reset(seed=s)`` is deterministic: the
game's seed, the learning seat and the seeds of opponents built from specs are all drawn from
the env's ``np_random``.

Opponents: an agent spec (a registry name such as ``"random"``, ``"module:Class"``, a mapping
with ``name``; read by ``spec_resolver``, which the game's registered env supplies: the kit
itself sits below the agents), an object with ``act(observation, action_mask, info)`` (its
optional ``reset()`` / ``observe_end(reward, info)`` called), a plain callable with that
signature, a list of these (one per opponent, in seat order after the learner) or a mapping
seat -> one of these.

Observations (``obs``): ``"dict"`` (the AEC env's ``{"observation", "action_mask"}``),
``"flat"`` (the feature vector) or ``"normalized"`` (the features divided by their upper bounds,
in [0, 1]: for ``MlpPolicy``). The mask is also :meth:`SingleAgentEnv.action_masks` (sb3-contrib's
MaskablePPO) and ``info["action_mask"]``.

Actions: ``Discrete(N)``, whose ``sample()`` draws a legal action while the learner is to act. A
masked index raises :class:`boardkit.decision.IllegalActionError` by default and changes
nothing; ``illegal_action="random"`` replaces it by a legal one drawn from ``np_random``, flagged
with ``info["illegal_action"] = 1`` and ``illegal_penalty`` added (Gymnasium's any-action
contract, which ``check_env`` tests).

Infos: the AEC env's infos for the learner (the game's own format: War of the Ring's numeric
infos have the same keys at every step), plus ``seat`` (the learner's index in
``possible_agents``), ``rank`` (its place at the end, 0 first, a shared first place 0; -1 while
the game is on), ``action_mask`` and ``illegal_action``; with ``info_strings=True`` also
``seat_name``, ``outcome_name`` (why the game ended: the env's reason word, ``"truncated"`` for a
game cut off; "" while on) and ``ranking_names`` (the seats first to last; [] while on), the
names AGoT's env gives them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .decision import IllegalActionError
from .envs import make_env
from .spaces import LegalActions

ILLEGAL_ACTIONS = ("raise", "random")
OBS_KINDS = ("dict", "flat", "normalized")

Policy = Callable[[np.ndarray, np.ndarray, dict], int]
#: Builds one opponent for one game: ``(seat, env, seed) -> agent`` (an object with ``act`` or
#: a policy callable), called at every reset with the AEC env and a seed from ``np_random``.
AgentFactory = Callable[[str, Any, int], Any]
#: Reads an opponent spec (a registry name or a mapping) into the factory that builds it,
#: checking it now; a bad spec raises ValueError saying why.
SpecResolver = Callable[[object], AgentFactory]

_SPEC_FORMS = ("an agent spec (a registry name such as 'random', 'module:Class', or a mapping "
               "with 'name'), an object with act(observation, action_mask, info), a callable "
               "(observation, action_mask, info) -> int, or a list or a seat -> opponent "
               "mapping of these")


def _given(agent: Any, seat: str, env: Any, seed: int) -> Any:
    """The factory of an opponent given as an object or a callable: that one, in every game."""
    del seat, env, seed
    return agent


def _no_resolver(spec: object) -> AgentFactory:
    raise ValueError("an agent spec needs a spec_resolver (the game's registered single-agent "
                     "env gives one; or pass an object with act(), or a callable)")


def _opponent_factory(spec: object, where: str, resolve: SpecResolver) -> AgentFactory:
    """Validate one opponent (building nothing yet) into the factory that seats it each game."""
    if isinstance(spec, (str, Mapping)):
        try:
            return resolve(spec)
        except ValueError as e:
            raise ValueError(f"bad opponent {spec!r}{where}: {e}") from e
    if isinstance(spec, type):
        raise ValueError(f"bad opponent {spec.__name__}{where}: a class; pass an instance, or an "
                         f"agent spec naming it")
    if callable(getattr(spec, "act", None)) or callable(spec):
        return functools.partial(_given, spec)
    raise ValueError(f"bad opponent {spec!r}{where}: use {_SPEC_FORMS}")


def _call_optional(agent: object, method: str, *args: Any) -> None:
    hook = getattr(agent, method, None)
    if callable(hook):
        hook(*args)


class SingleAgentEnv(gymnasium.Env):
    """One learning seat of the game ``game`` (a registry name) against policies, as a
    ``gymnasium.Env`` (module docstring). ``env_options``: the game's AEC env options
    (``reward``, ``max_steps`` and the game's own), validated by it."""

    #: a game's subclass lists its env's render modes here (``gymnasium.make`` reads the class)
    metadata: dict[str, Any] = {"render_modes": [], "render_fps": 1}

    def __init__(self, game: str, seat: str | None = None, opponents: object = "random",
                 obs: str = "dict", info_strings: bool = False, illegal_action: str = "raise",
                 illegal_penalty: float = 0.0, render_mode: str | None = None,
                 spec_resolver: SpecResolver | None = None, **env_options: Any):
        if render_mode is not None:
            env_options["render_mode"] = render_mode
        self.aec = make_env(game, **env_options)
        self.game_name = game
        if not self.metadata.get("render_modes"):  # a game's registered class lists its own
            self.metadata = {"render_modes": list(self.aec.metadata.get("render_modes", [])),
                             "render_fps": 1}
        self.render_mode = render_mode
        self.seats = list(self.aec.possible_agents)
        self.fixed_seat = None if seat is None else self._check_seat(seat, "seat")
        if obs not in OBS_KINDS:
            raise ValueError(f"obs must be one of {OBS_KINDS}, got {obs!r}")
        self.obs_kind = obs
        if not isinstance(info_strings, bool):
            raise ValueError(f"info_strings must be True or False, got {info_strings!r}")
        self.info_strings = info_strings
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, got "
                             f"{illegal_action!r}")
        self.illegal_action = illegal_action
        if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)):
            raise ValueError(f"illegal_penalty must be a number, got {illegal_penalty!r}")
        self.illegal_penalty = float(illegal_penalty)
        self._spec_resolver = spec_resolver or _no_resolver
        self._opponent_specs = self._check_opponents(opponents)
        num_actions = self.aec.action_space(self.seats[0]).n
        self.action_space = LegalActions(num_actions, self)
        space = self.aec.observation_space(self.seats[0])
        features = space["observation"]
        high = np.asarray(features.high, dtype=np.float32)
        self._scale = np.where(high > 0, 1.0 / np.where(high > 0, high, 1.0), 1.0).astype(
            np.float32)
        self.observation_space = (
            space if obs == "dict" else features if obs == "flat"
            else spaces.Box(0.0, 1.0, features.shape, dtype=np.float32))
        self.learner: str | None = None
        self._rotation_start: int | None = None
        self._games = 0
        self._policies: dict[str, Policy] = {}
        self._agents: dict[str, Any] = {}
        self._mask = np.zeros(num_actions, dtype=np.int8)
        self._live = False

    # -- options --------------------------------------------------------------------------------
    def _check_seat(self, seat: object, what: str) -> str:
        if not isinstance(seat, str) or seat not in self.seats:
            raise ValueError(f"unknown {what} {seat!r}: the seats are {self.seats}")
        return seat

    def _check_opponents(self, opponents: object) -> Any:
        n, resolve = len(self.seats) - 1, self._spec_resolver
        if isinstance(opponents, Mapping) and opponents and set(opponents) <= set(self.seats):
            needed = [s for s in self.seats if s != self.fixed_seat]
            missing = [s for s in needed if s not in opponents]
            if missing:
                raise ValueError(f"opponents has no entry for {missing} (every seat that can be "
                                 f"an opponent needs one)")
            return {s: _opponent_factory(o, f" (for {s})", resolve) for s, o in opponents.items()}
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != n:
                raise ValueError(f"opponents is a list of {len(opponents)}, expected {n} (one per "
                                 f"opponent of a {len(self.seats)}-player game)")
            return [_opponent_factory(o, f" (opponent {i})", resolve)
                    for i, o in enumerate(opponents)]
        return _opponent_factory(opponents, "", resolve)

    # -- gymnasium API --------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new game; ``options={"seat": name}`` picks this game's learning seat (the rotation
        still advances)."""
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = sorted(set(options) - {"seat"})
        if unknown:
            raise ValueError(f"unknown reset option(s) {unknown}; known: ['seat']")
        if seed is not None or self._rotation_start is None:
            self._rotation_start = int(self.np_random.integers(len(self.seats)))
            self._games = 0
        rotated = self.seats[(self._rotation_start + self._games) % len(self.seats)]
        self._games += 1
        if options.get("seat") is not None:
            self.learner = self._check_seat(options["seat"], "reset option seat")
        else:
            self.learner = self.fixed_seat or rotated
        self.aec.reset(seed=int(self.np_random.integers(2**63 - 1)))
        self._seat_opponents()
        self._play_opponents()
        if self._done():
            raise RuntimeError(f"the game ended before {self.learner}'s first decision (a limit "
                               f"such as max_steps is too small)")
        return self._observe(), self._info()

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
                raise IllegalActionError(
                    f"action {index} ({self.aec.action_name(index)}) is not legal for "
                    f"{self.learner}; action_masks() lists the legal ones")
            index = int(self.np_random.choice(np.flatnonzero(self._mask)))
        self.aec.step(index)
        reward = float(self.aec.rewards[self.learner])
        reward += self._play_opponents()
        terminated = bool(self.aec.terminations[self.learner])
        truncated = bool(self.aec.truncations[self.learner])
        reward += self.illegal_penalty if illegal else 0.0
        obs = self._observe()
        info = self._info()
        info["illegal_action"] = int(illegal)
        if terminated or truncated:
            self._end_opponents()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (sb3-contrib's MaskablePPO); all False once
        the game is over."""
        return self._mask.astype(bool)

    def legal_mask(self) -> np.ndarray | None:
        """The learner's legal actions (int8) while it is to act, else None (what
        ``action_space.sample()`` draws from)."""
        return self._mask if self._live else None

    def render(self) -> str | np.ndarray | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def action_name(self, action: int) -> str:
        return self.aec.action_name(action)

    # -- internals ------------------------------------------------------------------------------
    def _seat_opponents(self) -> None:
        i = self.seats.index(self.learner)
        others = self.seats[i + 1:] + self.seats[:i]  # seat order after the learner
        specs = self._opponent_specs
        self._policies, self._agents = {}, {}
        started: set[int] = set()
        for k, seat in enumerate(others):
            if isinstance(specs, dict) and seat not in specs:
                raise ValueError(f"opponents has no entry for {seat}, an opponent of "
                                 f"{self.learner} in this game")
            factory = (specs[seat] if isinstance(specs, dict)
                       else specs[k] if isinstance(specs, list) else specs)
            agent = factory(seat, self.aec, int(self.np_random.integers(2**31 - 1)))
            act = getattr(agent, "act", None)
            self._policies[seat] = act if callable(act) else agent
            self._agents[seat] = agent
            if id(agent) not in started:  # a shared object is reset once per game
                started.add(id(agent))
                _call_optional(agent, "reset")

    def _play_opponents(self) -> float:
        aec, reward = self.aec, 0.0
        while not self._done() and aec.agent_selection != self.learner:
            seat = aec.agent_selection
            o = aec.observe(seat)
            aec.step(int(self._policies[seat](o["observation"], o["action_mask"],
                                              dict(aec.infos[seat]))))
            reward += float(aec.rewards[self.learner])
        return reward

    def _end_opponents(self) -> None:
        ended: set[int] = set()
        for seat, agent in self._agents.items():
            if id(agent) not in ended:
                ended.add(id(agent))
                _call_optional(agent, "observe_end", float(self.aec._cumulative_rewards[seat]),
                               dict(self.aec.infos[seat]))

    def _done(self) -> bool:
        return bool(self.aec.terminations[self.learner] or self.aec.truncations[self.learner])

    def _observe(self) -> Any:
        o = self.aec.observe(self.learner)
        self._mask = o["action_mask"]
        self._live = not self._done()
        if self.obs_kind == "dict":
            return o
        if self.obs_kind == "flat":
            return o["observation"]
        return np.minimum(o["observation"] * self._scale, 1.0, dtype=np.float32)

    def _info(self) -> dict[str, Any]:
        """The AEC env's infos for the learner, plus the kit's keys (module docstring)."""
        info = {k: list(v) if isinstance(v, list) else v
                for k, v in self.aec.infos[self.learner].items()}
        end = None if self._live else self.aec._result()  # the env's own end: reason, ranking
        rank = -1
        if end is not None:
            _, ranking, drawn = end
            player = self.aec._player[self.learner]
            rank = 0 if player in drawn else list(ranking).index(player)
        info.update(seat=self.seats.index(self.learner), rank=rank,
                    action_mask=self._mask.copy(), illegal_action=0)
        if self.info_strings:
            info["seat_name"] = self.learner
            info["outcome_name"] = end[0] if end is not None else ""
            info["ranking_names"] = ([self.aec._agent_of[p] for p in end[1]] if end is not None
                                     else [])
        return info

    def _action_index(self, action: object) -> int:
        """The action as an int; anything not in the action space raises IllegalActionError
        whatever ``illegal_action`` says (a bug of the caller, not a choice of the policy)."""
        if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
            action = action.reshape(()).item()
        n = int(self.action_space.n)
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"action {action!r} ({type(action).__name__}) is not an "
                                     f"action index: expected an integer in 0..{n - 1}")
        if not 0 <= action < n:
            raise IllegalActionError(f"action {action!r} is outside the action space: expected "
                                     f"an integer in 0..{n - 1}")
        return int(action)


__all__ = ["ILLEGAL_ACTIONS", "OBS_KINDS", "AgentFactory", "SingleAgentEnv", "SpecResolver"]
