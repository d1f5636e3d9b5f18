"""A single-agent Gymnasium env of any game on the kit: one seat learns, the other seats are
played by policies inside ``step``.

Most RL libraries (Stable-Baselines3, CleanRL, RLlib's single-agent path) train one policy on a
``gymnasium.Env``. :class:`SingleAgentEnv` seats the learner at one seat of a game's AEC env
(:func:`boardkit.envs.make_env`, the game by its registry name) and plays every other seat's
decisions with the given opponents, until the learner must decide again or the game ends: one
``step`` is one decision of the learner, its reward the AEC env's reward for the learner summed
over everything that happened since its previous decision (the end's, by the env's ``reward``
scheme).

A game registers it (or a subclass) under a Gymnasium id of its own with its default opponent
reader (War of the Ring: ``wotr_env/WarOfTheRing-v0``, :mod:`wotr_env.wrappers`). AGoT's
:class:`got_env.wrappers.SingleAgentEnv` subclasses it, adding what is AGoT's own (houses for
seats, its reward shaping, per-area observations, castles in its numeric infos) through the
hooks this class documents (the class attributes ``option_error``, ``seat_option``,
``spec_forms`` and ``class_hint``, the methods under "hooks", and its own ``_check_seat``,
``_check_opponents`` and ``_info``); everything else lives here once.

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
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

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
    """The factory of an opponent given as an object or a callable: that one, in every game
    (a module-level function, so that the factory pickles with the env)."""
    del seat, env, seed
    return agent


def _no_resolver(spec: object) -> AgentFactory:
    raise ValueError("an agent spec needs a spec_resolver (the game's registered single-agent "
                     "env gives one; or pass an object with act(), or a callable)")


def _call_optional(agent: object, method: str, *args: Any) -> None:
    """Call the opponent's optional ``reset()`` / ``observe_end(reward, info)``, the two hooks
    of the Agent protocol an opponent may have."""
    hook = getattr(agent, method, None)
    if callable(hook):
        hook(*args)


class SingleAgentEnv(gymnasium.Env):
    """One learning seat of the game ``game`` (a registry name) against policies, as a
    ``gymnasium.Env`` (module docstring). ``env_options``: the game's AEC env options
    (``reward``, ``max_steps`` and the game's own), validated by it.

    A subclass changes the words and errors through the class attributes below, and what it
    adds through the methods under "hooks" and its own ``_check_seat``, ``_check_opponents``
    and ``_info`` (AGoT's :class:`got_env.wrappers.SingleAgentEnv`); every default here is this
    env's own behaviour."""

    #: a game's subclass lists its env's render modes here (``gymnasium.make`` reads the class)
    metadata: dict[str, Any] = {"render_modes": [], "render_fps": 1}
    #: the error class of a bad option (constructor argument, reset option, opponent): a
    #: subclass of ValueError, so that ``except ValueError`` catches it in every game (AGoT's
    #: OptionError), as :attr:`boardkit.aec.KitEnv.option_error` is for the AEC env
    option_error: ClassVar[type[ValueError]] = ValueError
    #: the word for a seat in the reset option that picks the learner (``{"seat": name}``) and
    #: in the error messages (AGoT's ``"house"``)
    seat_option: ClassVar[str] = "seat"
    #: the forms an opponent may take, as the error for a bad one lists them (a subclass names
    #: its own agents)
    spec_forms: ClassVar[str] = _SPEC_FORMS
    #: what the error for an opponent given as a class adds after "an agent spec naming it"
    class_hint: ClassVar[str] = ""

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
        self.fixed_seat = None if seat is None else self._check_seat(seat, self.seat_option)
        self._init_observations(obs)
        error = self.option_error
        if not isinstance(info_strings, bool):
            raise error(f"info_strings must be True or False, got {info_strings!r}")
        self.info_strings = info_strings
        if illegal_action not in ILLEGAL_ACTIONS:
            raise error(f"illegal_action must be one of {ILLEGAL_ACTIONS}, got "
                        f"{illegal_action!r}")
        self.illegal_action = illegal_action
        if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)) \
                or not math.isfinite(illegal_penalty):
            raise error(f"illegal_penalty must be a finite number, got {illegal_penalty!r}")
        self.illegal_penalty = float(illegal_penalty)
        self._spec_resolver = spec_resolver or _no_resolver
        self._opponent_specs = self._check_opponents(opponents)
        num_actions = self.aec.action_space(self.seats[0]).n
        self.action_space = LegalActions(num_actions, self)
        self.learner: str | None = None  # the learning seat of the current game
        self._rotation_start: int | None = None
        self._games = 0
        self._policies: dict[str, Policy] = {}
        self._agents: dict[str, Any] = {}
        self._mask = np.zeros(num_actions, dtype=np.int8)
        self._live = False

    # -- options --------------------------------------------------------------------------------
    def _check_seat(self, seat: object, what: str) -> str:
        """``seat`` if it is one of :attr:`seats`, else the option error naming it (``what``:
        which option gave it)."""
        if not isinstance(seat, str) or seat not in self.seats:
            raise self.option_error(f"unknown {what} {seat!r}: the seats are {self.seats}")
        return seat

    def _check_opponents(self, opponents: object) -> Any:
        """The validated opponents as factories: one for every seat, a list by seat order, or a
        dict by seat (kept in the form given; built per game by :meth:`_seat_opponents`)."""
        n, error, word = len(self.seats) - 1, self.option_error, self.seat_option
        if isinstance(opponents, Mapping) and opponents and set(opponents) <= set(self.seats):
            needed = [s for s in self.seats if s != self.fixed_seat]
            missing = [s for s in needed if s not in opponents]
            if missing:
                raise error(f"opponents has no entry for {missing} (every {word} that can be "
                            f"an opponent needs one)")
            return {s: self._opponent_factory(o, f" (for {s})") for s, o in opponents.items()}
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != n:
                raise error(f"opponents is a list of {len(opponents)}, expected {n} (one per "
                            f"opponent of a {len(self.seats)}-player game)")
            return [self._opponent_factory(o, f" (opponent {i})") for i, o in enumerate(opponents)]
        return self._opponent_factory(opponents, "")

    def _opponent_factory(self, spec: object, where: str) -> AgentFactory:
        """Validate one opponent (building nothing yet) into the factory that seats it each game;
        ``where`` says which seat, for the error message, which also names the bad value."""
        error = self.option_error
        if isinstance(spec, (str, Mapping)):
            try:
                return self._spec_resolver(spec)
            except ValueError as e:
                raise error(f"bad opponent {spec!r}{where}: {e}") from e
        if isinstance(spec, type):
            raise error(f"bad opponent {spec.__name__}{where}: a class; pass an instance, or an "
                        f"agent spec naming it{self.class_hint}")
        if callable(getattr(spec, "act", None)) or callable(spec):
            return functools.partial(_given, spec)
        raise error(f"bad opponent {spec!r}{where}: use {self.spec_forms}")

    # -- gymnasium API --------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new game; ``options={"seat": name}`` (the key is :attr:`seat_option`) picks this
        game's learning seat (the rotation still advances). The game, the seat and spec-built
        opponents are drawn from ``np_random``, so a seeded reset always starts the same game."""
        super().reset(seed=seed)
        options = dict(options or {})
        word = self.seat_option
        unknown = sorted(set(options) - {word})
        if unknown:
            raise self.option_error(f"unknown reset option(s) {unknown}; known: [{word!r}]")
        if seed is not None or self._rotation_start is None:
            self._rotation_start = int(self.np_random.integers(len(self.seats)))
            self._games = 0
        rotated = self.seats[(self._rotation_start + self._games) % len(self.seats)]
        self._games += 1
        if options.get(word) is not None:
            self.learner = self._check_seat(options[word], f"reset option {word}")
        else:
            self.learner = self.fixed_seat or rotated
        self.aec.reset(seed=int(self.np_random.integers(2**63 - 1)))
        self._seat_opponents()
        self._play_opponents()
        if self._done():
            raise RuntimeError(f"the game ended before {self.learner}'s first decision "
                               f"({self._too_short()})")
        self._game_started()
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
                    f"{self._deciding()}; action_masks() lists the legal ones")
            index = int(self.np_random.choice(np.flatnonzero(self._mask)))
        self.aec.step(index)
        reward = float(self.aec.rewards[self.learner])
        reward += self._play_opponents()
        terminated = bool(self.aec.terminations[self.learner])
        truncated = bool(self.aec.truncations[self.learner])
        extra = self._extra_reward(terminated)
        reward += extra + (self.illegal_penalty if illegal else 0.0)
        obs = self._observe()
        info = self._info()
        info["illegal_action"] = int(illegal)
        self._step_info(info, extra)
        if terminated or truncated:
            self._end_opponents()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (what sb3-contrib's MaskablePPO asks for);
        all False once the game is over."""
        return self._mask.astype(bool)

    def legal_mask(self) -> np.ndarray | None:
        """The learner's legal actions (int8) while it is to act, else None: what
        ``action_space.sample()`` draws from (:class:`boardkit.spaces.LegalActions`)."""
        return self._mask if self._live else None

    def render(self) -> str | np.ndarray | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def action_name(self, action: int) -> str:
        """A readable name for an action index (the AEC env's)."""
        return self.aec.action_name(action)

    # -- hooks: what a subclass adds (AGoT's); the defaults are this env's own -------------------
    def _init_observations(self, obs: str) -> None:
        """Check ``obs`` and set :attr:`obs_kind` and :attr:`observation_space` (here the kinds
        of :data:`OBS_KINDS`), for :meth:`_observation`: a hook, because a subclass may offer
        kinds of its own (AGoT's per-area ``"structured"``)."""
        if obs not in OBS_KINDS:
            raise self.option_error(f"obs must be one of {OBS_KINDS}, got {obs!r}")
        self.obs_kind = obs
        space = self.aec.observation_space(self.seats[0])
        features = space["observation"]
        high = np.asarray(features.high, dtype=np.float32)
        self._scale = np.where(high > 0, 1.0 / np.where(high > 0, high, 1.0), 1.0).astype(
            np.float32)
        self.observation_space = (
            space if obs == "dict" else features if obs == "flat"
            else spaces.Box(0.0, 1.0, features.shape, dtype=np.float32))

    def _observation(self, o: dict[str, np.ndarray]) -> Any:
        """The learner's observation of kind :attr:`obs_kind` from the AEC env's ``o``
        (``{"observation", "action_mask"}``); a hook, with :meth:`_init_observations`."""
        if self.obs_kind == "dict":
            return o
        if self.obs_kind == "flat":
            return o["observation"]
        return np.minimum(o["observation"] * self._scale, 1.0, dtype=np.float32)

    def _too_short(self) -> str:
        """Why a game could end before the learner's first decision, for the error ``reset``
        raises then: a hook, so that a game whose env knows its limits names them."""
        return "a limit such as max_steps is too small"

    def _game_started(self) -> None:
        """Called by ``reset`` once the learner is to act, before its first observation and
        info: a hook for per-game state read from that position (AGoT: the shaping
        potential). Nothing here."""

    def _deciding(self) -> str:
        """Who is deciding, as the error for a masked action names it: the learner here; a hook,
        so that a game names the decision too (AGoT: ``"D-05 MUSTER of stark"``)."""
        return str(self.learner)

    def _extra_reward(self, terminated: bool) -> float:
        """What ``step`` adds to the env's reward (before the illegal-action penalty), read
        once the opponents have played: 0.0 here; a hook for a subclass's reward shaping
        (AGoT's potential-based term, :mod:`got_env.wrappers.shaping`)."""
        del terminated
        return 0.0

    def _step_info(self, info: dict[str, Any], extra: float) -> None:
        """Add a subclass's own keys to ``step``'s ``info`` (``extra``: what
        :meth:`_extra_reward` returned): a hook (AGoT: ``info["shaping"]``). Nothing here."""
        del info, extra

    def _opponent_action(self, action: Any) -> Any:
        """The action an opponent's policy returned, as passed to the AEC env: ``int(action)``
        here (any integer-like value plays); a hook, so that a subclass may pass it unchanged
        for its AEC env to check (AGoT's: a float or None raises IllegalActionError)."""
        return int(action)

    # -- internals ------------------------------------------------------------------------------
    def _seat_opponents(self) -> None:
        """This game's policy for every seat but the learner's (spec-built agents built now,
        with seeds from ``np_random``), and the optional ``reset()`` of each agent called."""
        i = self.seats.index(self.learner)
        others = self.seats[i + 1:] + self.seats[:i]  # seat order after the learner
        specs = self._opponent_specs
        self._policies, self._agents = {}, {}
        started: set[int] = set()
        for k, seat in enumerate(others):
            if isinstance(specs, dict) and seat not in specs:
                raise self.option_error(f"opponents has no entry for {seat}, an opponent of "
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
        """Step the other seats' decisions until the learner's turn or the end; the learner's
        reward over those steps."""
        aec, reward = self.aec, 0.0
        while not self._done() and aec.agent_selection != self.learner:
            seat = aec.agent_selection
            o = aec.observe(seat)
            aec.step(self._opponent_action(self._policies[seat](o["observation"], o["action_mask"],
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
        return self._observation(o)

    def _info(self) -> dict[str, Any]:
        """The AEC env's infos for the learner, plus the kit's keys (module docstring); a
        subclass may give its own (AGoT's numeric infos, read from its engine)."""
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
        """The action as an int; anything that is not an element of the action space (a float,
        a bool, an index out of range) raises IllegalActionError whatever ``illegal_action``
        says, since that is a bug of the caller, not a choice of the policy."""
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
