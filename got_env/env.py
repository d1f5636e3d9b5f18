"""The PettingZoo AEC environment (DESIGN.md "Configuration and interfaces").

``raw_env(**options)`` is the bare :class:`AECEnv`; ``env(**options)`` wraps it in PettingZoo's
usual guards (out-of-bounds actions, call order). Agents are the houses in play
(``"stark"``, ``"lannister"``, ...). Every agent has the same ``Discrete(N)`` action space
(:class:`got_env.encoding.ActionCodec`) and observes
``{"observation": Box(float32, (F,)), "action_mask": Box(int8, (N,))}`` from its own point of view
(:class:`got_env.encoding.ObservationEncoder`); a house that is not to act gets an all-zero mask.
``infos`` keys are documented in docs/env.md ("Infos"): numbers only by default, so that libraries
which turn infos into tensors (TorchRL, Tianshou, RLlib) take them as they are; readable strings
with ``info_format="text"``. The env knows nothing of the rules: it asks the engine.

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

import copy
import weakref
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import engine
from .data import load_ruleset
from .encoding import codec_for, encoder_for
from .engine import GameOptions, OptionError, game_options

# The records live below the env (got_env.records, docs/layers.md); re-exported here, where they
# were first defined, so that got_env.env.GameRecord and friends stay importable.
from .records import RECORD_FIELDS, RECORD_FORMAT, GameRecord, RecordError  # noqa: F401

REWARD_SCHEMES = ("zero_sum", "castles", "rank")
RENDER_MODES = ("ansi", "rgb_array", "human")
INFO_FORMATS = ("numeric", "text")
ENV_OPTIONS = ("num_players", "reward", "max_steps", "max_cycles", "render_mode", "info_format")
#: ``infos[agent]["outcome"]`` in the numeric format is ``OUTCOMES.index(reason) + 1`` (0: the
#: game is on), so that a zero-filled info tensor reads as "no outcome yet".
OUTCOMES = ("seven-castles", "last-round", "truncated")


def env(**options: Any) -> AECEnv:
    """The wrapped environment: PettingZoo's order-enforcing guard (reset before step, ...).
    Actions are checked by the raw env itself, with errors that name the action, the agent and
    the valid range (PettingZoo's assert-out-of-bounds guard would answer a bare
    AssertionError)."""
    return OrderEnforcing(raw_env(**options))


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing guard with direct paths for what the agent loop does at every
    step: the inherited ``last()`` reads six attributes, and ``agent_iter``'s ``next()`` and
    ``step()`` read ``agents`` and ``agent_selection``, each through two layers of
    ``__getattr__``; here ``last()``, ``step()`` and the iterator ask the raw env, and
    ``agents`` and ``agent_selection`` are properties (same checks, same errors and warnings,
    same values)."""

    def last(self, observe: bool = True) -> tuple:
        if not self._has_reset:
            wrappers.order_enforcing.EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            wrappers.order_enforcing.EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.env.agents:
            wrappers.order_enforcing.EnvLogger.warn_step_after_terminated_truncated()
        else:
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        if not self._has_reset:
            wrappers.order_enforcing.EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection

    def __str__(self) -> str:
        return str(self.env)


class _AgentIterable(wrappers.order_enforcing.AECOrderEnforcingIterable):
    """``OrderEnforcing.agent_iter()``: PettingZoo's order-enforcing iterable, whose iterator
    reads the raw env directly."""

    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(wrappers.order_enforcing.AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing iterator (the same stop rule and the same "call step() or
    reset()" assertion), reading ``agents`` and ``agent_selection`` from the raw env."""

    def __next__(self) -> str:
        guard = self.env
        raw = guard.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert guard._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        guard._has_updated = False
        return raw.agent_selection


class LegalActions(spaces.Discrete):
    """``Discrete(N)`` whose ``sample()`` without a mask draws a *legal* action when its agent is
    to act (and any index otherwise), so that tools which step ``action_space(agent).sample()``
    (PettingZoo's ``state_test``, environment checkers) play real games. With a mask or
    probabilities it is gymnasium's own ``Discrete.sample``.

    ``owner`` (held weakly) tells the legal actions: ``owner.legal_mask(*args)`` returns the
    int8 mask of the agent's legal actions now, or None when it is not to act. The AEC env and
    the single-agent env both use it."""

    def __init__(self, n: int, owner: Any, *args: Any):
        super().__init__(n)
        self._owner = weakref.ref(owner)
        self._args = args

    def sample(self, mask: np.ndarray | None = None,
               probability: np.ndarray | None = None) -> np.int64:
        owner = self._owner() if self._owner is not None else None
        if mask is None and probability is None and owner is not None:
            mask = owner.legal_mask(*self._args)
        if probability is None:  # gymnasium < 1.0 has no probability argument
            return super().sample(mask=mask)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_owner"] = None  # a pickled space (in a saved model) is a plain Discrete(N)
        return state


class raw_env(AECEnv):  # noqa: N801  (PettingZoo's naming)
    metadata = {"name": "got_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, **options: Any):
        super().__init__()
        env_opts = {k: options.pop(k) for k in ENV_OPTIONS if k in options}
        # Checked once; the player count and round defaults come from the ruleset's data there.
        self.options: GameOptions = game_options(env_opts.get("num_players"), options)
        self.num_players = self.options.num_players
        self.game_options = self.options.as_dict()  # what states and records have always stored
        self.reward_scheme = env_opts.get("reward", "zero_sum")
        if self.reward_scheme not in REWARD_SCHEMES:
            raise OptionError(f"reward must be one of {REWARD_SCHEMES}, got "
                              f"{self.reward_scheme!r}")
        self.max_steps = _max_steps(env_opts)
        self.render_mode = env_opts.get("render_mode")
        if self.render_mode is not None and self.render_mode not in RENDER_MODES:
            raise OptionError(f"render_mode must be one of {RENDER_MODES} or None, got "
                              f"{self.render_mode!r}")
        self.info_format = env_opts.get("info_format", "numeric")
        if self.info_format not in INFO_FORMATS:
            raise OptionError(f"info_format must be one of {INFO_FORMATS}, got "
                              f"{self.info_format!r}")
        self.ruleset = load_ruleset(self.game_options["ruleset"])
        self.codec = codec_for(self.ruleset)
        self.encoder = encoder_for(self.ruleset)
        houses = self.ruleset.setups[self.num_players].houses
        self.possible_agents = list(houses)
        self._house = {h: self.ruleset.house(h) for h in houses}
        # ruleset house index -> index in possible_agents, the numbering of the numeric infos
        # (the same in 2e; in a 4-player 1e game Tyrell is house 4 but agent 3)
        self._agent_index = {self.ruleset.house(h): i for i, h in enumerate(houses)}
        self.action_spaces = {a: LegalActions(self.codec.size, self, a) for a in houses}
        self._num_actions = self.codec.size
        self._moves = self.codec.actions  # index -> engine action
        features = spaces.Box(np.zeros(self.encoder.size, np.float32), self.encoder.high,
                              dtype=np.float32)
        obs_space = spaces.Dict({
            "observation": features,
            "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in houses}
        self.can_draw = can_draw(self.game_options["tiebreak"])
        #: the numeric infos of a house not to act, copied (:func:`_fresh`) at every step
        self._idle_info = self._numeric_info(0, 0, None)
        self.state_space = features  # state(): the same features, seen by nobody in particular
        self.game: engine.GameState | None = None
        self._actions: list[int] = []
        self._seed: int | None = None
        self._truncated = False

    # -- PettingZoo API -------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. Game options are fixed by the constructor; PettingZoo's per-reset
        ``options`` argument is accepted for API compatibility and not used."""
        del options
        if seed is None:  # draw one, so that the game record still replays exactly
            seed = int(np.random.SeedSequence().entropy % (1 << 63))
        self.game = engine.start_game(self.num_players, seed=seed, options=self.game_options)
        self._seed = seed
        self._actions = []
        self._truncated = False
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._info_agent: str | None = None  # the house whose infos are not the idle ones
        self.steps = 0
        self._select_agent()

    def step(self, action: int | None) -> None:
        """Play ``action`` (a Python or numpy integer the mask allows) for ``agent_selection``;
        ``None`` for an agent that is done, as PettingZoo wants. A bad action raises
        :class:`got_env.engine.IllegalActionError` naming it, the agent and the valid range,
        and changes nothing."""
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("every agent is done (the game ended or was truncated); call "
                               "reset() to start a new game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise engine.IllegalActionError(
                    f"agent {agent} is done; step(None) is the only action, got {action!r}")
            self._was_dead_step(action)
            return
        if type(action) is int and 0 <= action < self._num_actions:  # the common case
            index = action
        else:
            index = self._check_index(action, agent)
        game = self.game
        decision = game.pending
        move = self._moves[index]
        try:
            engine.apply(game, move)  # checks the move first: an illegal one changes nothing
        except engine.IllegalActionError:
            if game.pending is decision and move not in decision:
                raise self._illegal(index, decision) from None
            raise
        self._cumulative_rewards[agent] = 0.0
        self._actions.append(index)
        self.steps += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        ended = game.pending is None
        if ended:
            self._finish()
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self._truncate()
        self._select_agent()
        if ended:  # only the end pays: on any other step every reward is 0.0, which adds nothing
            self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation and action mask (all zero unless it is to act); also for an
        agent that is done or has been removed from ``agents``."""
        obs, mask = self.observe_into(agent)
        return {"observation": obs, "action_mask": mask}

    def observe_into(self, agent: str, obs: np.ndarray | None = None,
                     mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`observe` as (observation, mask), written into ``obs`` (float32, C-contiguous,
        the observation's size) and ``mask`` (int8, the action space's size) when given: the
        batched API writes straight into its rows."""
        house = self._house.get(agent)
        if house is None:
            raise KeyError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        obs = self.encoder.encode(self.game, house, obs)
        d = self.game.pending
        if d is not None and d.player == house and not (self.terminations.get(agent, True)
                                                         or self.truncations.get(agent, True)):
            mask = self.codec.mask(d.options, mask)
        elif mask is None:
            mask = np.zeros(self._num_actions, dtype=np.int8)
        else:
            mask[...] = 0
        return obs, mask

    def state(self) -> np.ndarray:
        """The full-information view (all orders shown) for a centralized critic."""
        return self.encoder.encode(self.game, None)

    def render(self) -> str | np.ndarray | None:
        """The text board ("ansi"), the picture ("rgb_array"), or the text board printed to
        stdout ("human", returns None). "human" prints only when render() is called, not on every
        step: a game has thousands of decisions."""
        if self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return self.game.render_text()
        if self.render_mode == "human":
            print(self.game.render_text(), flush=True)
            return None
        from .render import render_board

        return render_board(self.game)

    def close(self) -> None:
        pass

    # -- extras ---------------------------------------------------------------------------------
    def action_name(self, action: int) -> str:
        """A readable name for an action index, e.g. ``ORDER[winterfell,march-special]``."""
        return self.codec.name(int(action))

    def legal_mask(self, agent: str) -> np.ndarray | None:
        """int8[N]: ``agent``'s legal actions when it is to act, else None (LegalActions)."""
        d = self.game.pending if self.game is not None else None
        if d is None or not self.agents or self.agent_selection != agent:
            return None
        return self.codec.mask(d.options)

    def legal_actions(self) -> list[int]:
        d = self.game.pending if self.game else None
        return sorted(self.codec.indices(d.options).tolist()) if d else []

    @property
    def record(self) -> GameRecord | None:
        """The game so far as a :class:`GameRecord` (None before the first reset): options,
        seed, actions, the outcome and state digest as they stand now, and the check over them
        all."""
        if self.game is None:
            return None
        reason_ranking = self._reason_and_ranking()
        outcome = None
        if reason_ranking is not None:
            reason, ranking = reason_ranking
            ids = [self.ruleset.houses[h].id for h in ranking]
            outcome = {"reason": reason, "winner": ids[0], "ranking": ids}
            if self._drawn():
                outcome["draw"] = [self.ruleset.houses[h].id for h in self._drawn()]
        return GameRecord({**self.game_options, "num_players": self.num_players,
                           "reward": self.reward_scheme, "max_steps": self.max_steps},
                          self._seed, list(self._actions), outcome, self.game.digest()).sealed()

    def clone(self) -> raw_env:
        """An independent copy (cheap: the game state's arrays are copied, tables shared)."""
        new = copy.copy(self)
        new.game = self.game.clone()
        new._actions = list(self._actions)
        new.action_spaces = {a: LegalActions(self.codec.size, new, a) for a in self.possible_agents}
        for name in ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations"):
            setattr(new, name, copy.copy(getattr(self, name)))
        new.infos = {a: {k: list(v) if isinstance(v, list) else v for k, v in i.items()}
                     for a, i in self.infos.items()}
        return new

    # -- internals ------------------------------------------------------------------------------
    def _check_index(self, action: object, agent: str) -> int:
        """The action as an int, or IllegalActionError: only Python and numpy integers in the
        action space are actions (not floats, strings, bools, None or arrays)."""
        valid = f"an integer in 0..{self.codec.size - 1}"
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise engine.IllegalActionError(
                f"action {action!r} ({type(action).__name__}) for agent {agent} is not an action "
                f"index: expected {valid} (a Python or numpy integer)")
        if not 0 <= action < self.codec.size:
            raise engine.IllegalActionError(
                f"action {action!r} for agent {agent} is outside the action space: expected "
                f"{valid}")
        return int(action)

    def _illegal(self, action: int, decision: engine.Decision) -> engine.IllegalActionError:
        """The error for an action index that the pending decision does not allow."""
        return engine.IllegalActionError(
            f"action {action} ({self.codec.name(action)}) is not legal for "
            f"{decision.kind.label} of {self.agent_selection}; the action mask lists the "
            f"legal ones")

    def _select_agent(self) -> None:
        d = self.game.pending
        if d is not None and not self._truncated:
            agent = self.agent_selection = self.ruleset.houses[d.player].id
            infos = self.infos
            last = self._info_agent
            if last != agent:  # every other house's infos are the idle ones already
                text = self.info_format == "text"
                idle = self._idle_info
                for a in self.agents if last is None else (last,):
                    infos[a] = {} if text else _fresh(idle)  # a dict (and list) of its own
            infos[agent] = self._turn_info(int(d.kind), len(d.options))
            self._info_agent = agent
        else:
            self.agent_selection = self.agents[0]

    def _turn_info(self, decision: int, num_legal: int) -> dict[str, Any]:
        """The infos of the house to act while the game is on (``decision``: the pending
        decision kind's number): a fresh copy of a template. The batched API rebuilds the
        acting house's infos in the main process with it, from the two numbers."""
        if self.info_format == "text":
            return {"decision": engine.DecisionKind(decision).label, "num_legal": num_legal}
        info = _fresh(self._idle_info)
        info["decision"], info["num_legal"] = decision, num_legal
        return info

    def _numeric_info(self, decision: int, num_legal: int,
                      end: tuple[str, tuple[int, ...]] | None) -> dict[str, Any]:
        """One agent's infos in the numeric format: always the same keys and shapes (a
        tensor-converting library builds its info spec from the first infos it sees), zeros and
        -1 for what does not apply yet. Houses are numbered by their index in
        ``possible_agents``."""
        if end is None:
            info = {"decision": decision, "num_legal": num_legal, "outcome": 0, "winner": -1,
                    "ranking": [-1] * self.num_players}
        else:
            reason, ranking = end
            seat = self._agent_index
            info = {"decision": decision, "num_legal": num_legal,
                    "outcome": OUTCOMES.index(reason) + 1, "winner": seat[int(ranking[0])],
                    "ranking": [seat[int(h)] for h in ranking]}
        if self.can_draw:  # fixed shape: the drawn houses, then -1 (all -1 without a draw)
            drawn = [self._agent_index[int(h)] for h in self._drawn()] if end is not None else []
            info["draw"] = drawn + [-1] * (self.num_players - len(drawn))
        return info

    def _finish(self) -> None:
        if self.reward_scheme == "castles":
            vp = self.game.victory_points()
            target = self.ruleset.setups[self.num_players].castles_to_win
            self.rewards = {a: float(vp[self._house[a]]) / target for a in self.agents}
        else:
            ranking = [self.ruleset.houses[h].id for h in self.game.outcome.ranking]
            shares = end_rewards(self.reward_scheme, len(ranking), max(1, len(self._drawn())))
            self.rewards = {a: shares[ranking.index(a)] for a in self.agents}
        self.terminations = {a: True for a in self.agents}
        self._set_outcome()

    def _truncate(self) -> None:
        """``max_steps`` reached: no reward (the game did not end), the standing by the victory
        rules (R22.3) in ``infos`` as at the end, with reason ``"truncated"``."""
        self._truncated = True
        self.truncations = {a: True for a in self.agents}
        self._set_outcome()

    def _drawn(self) -> tuple[int, ...]:
        """The houses that share the game (house indices; 1e spec 12), empty without a draw or
        before the end (a truncated game has no draw)."""
        outcome = self.game.outcome if self.game is not None else None
        return tuple(outcome.draw) if outcome is not None else ()

    def _reason_and_ranking(self) -> tuple[str, tuple[int, ...]] | None:
        """The outcome from the engine's state (house indices), not from ``infos``, so that
        records do not depend on the info format nor on agents having left ``agents``."""
        if self.game.outcome is not None:
            return self.game.outcome.reason, tuple(self.game.outcome.ranking)
        if self._truncated:
            from .engine.victory import ranking

            return "truncated", tuple(ranking(self.game))
        return None

    def _set_outcome(self) -> None:
        self._info_agent = None  # every house's infos are replaced here
        reason, ranking = self._reason_and_ranking()
        ids = [self.ruleset.houses[h].id for h in ranking]
        drawn = [self.ruleset.houses[h].id for h in self._drawn()]
        for a in self.agents:
            if self.info_format == "text":
                self.infos[a] = {"outcome": reason, "winner": ids[0], "ranking": list(ids)}
                if drawn:
                    self.infos[a]["draw"] = list(drawn)
            else:
                self.infos[a] = self._numeric_info(0, 0, (reason, ranking))


def end_rewards(scheme: str, n: int, k: int = 1) -> list[float]:
    """The final reward of each place of the ranking (best first) for ``n`` houses of which the
    first ``k`` share the game (k = 1: one winner). ``"zero_sum"``: (n-k)/(k(n-1)) for each drawn
    house, -1/(n-1) for the others (sums to 0; the draw splits the winner's +1 and the losses
    they would have paid); ``"rank"``: +1 first to -1 last, linear in between, the drawn houses
    each paid the mean of the places they share."""
    if not 1 <= k <= n or n < 2:
        raise ValueError(f"need 1 <= k <= n and n >= 2, got n={n}, k={k}")
    if scheme == "zero_sum":
        return [(n - k) / (k * (n - 1)) if i < k else -1.0 / (n - 1) for i in range(n)]
    if scheme == "rank":
        places = [1.0 - 2.0 * i / (n - 1) for i in range(n)]
        shared = sum(places[:k]) / k
        return [shared] * k + places[k:]
    raise ValueError(f"end_rewards: scheme must be 'zero_sum' or 'rank', got {scheme!r}")


def can_draw(tiebreak: str) -> bool:
    """Whether the tie-break chain can leave houses equal (1e spec 12: "first-edition"). The 2e
    chains end on the Iron Throne order, which no two houses share, so they never draw."""
    from .engine.victory import TIEBREAKS

    return TIEBREAKS[tiebreak][-1] != "iron_throne"


def _fresh(info: dict[str, Any]) -> dict[str, Any]:
    """A copy of a numeric infos dict that shares no list with it (``ranking``, ``draw``)."""
    fresh = info.copy()
    fresh["ranking"] = info["ranking"].copy()
    if "draw" in info:
        fresh["draw"] = info["draw"].copy()
    return fresh


def _max_steps(env_opts: dict[str, Any]) -> int | None:
    """``max_steps``, or ``max_cycles`` (PettingZoo's name, as its ``max_cycles_test`` passes it:
    one decision is one cycle here, since one house acts at a time); both must agree."""
    given = {k: env_opts[k] for k in ("max_steps", "max_cycles") if k in env_opts}
    for key, value in given.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise OptionError(f"{key} must be a positive integer or None, got {value!r}")
    if len(given) == 2 and given["max_steps"] != given["max_cycles"]:
        raise OptionError(f"max_cycles is another name for max_steps; they differ: "
                          f"max_steps={given['max_steps']!r}, max_cycles={given['max_cycles']!r}")
    return next(iter(given.values()), None)
