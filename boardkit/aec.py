"""The kit's PettingZoo AEC env, :class:`KitEnv`: one env mechanism for every game on the kit
(AGoT's ``got_env.raw_env`` and Goofspiel's ``goofspiel.raw_env`` are small subclasses), read
through the :class:`~boardkit.protocol.Game` protocol only.

One agent acts at a time, the pending decision's player; every decision is asked, secret ones
too (the encoder keeps them out of the others' observations). A house not to act observes an
all-zero mask. Rewards come only at the end, by ``reward`` scheme (:mod:`boardkit.rewards`:
``"zero_sum"``, ``"rank"``, and a subclass's own), from the finished game's ranking
(:func:`boardkit.result.final_result`); a game cut off after ``max_steps`` actions is truncated
and pays nothing. An illegal action raises :class:`~boardkit.decision.IllegalActionError` naming
the action, the decision and the agent, and changes nothing.

Infos (``info_format``): ``"text"`` (the kit's default): the agent to act has
``{"decision": <its kind's label>, "num_legal": <options>}``, the others ``{}``; at the end every
agent has ``{"outcome": <reason>, "winner": <agent>, "ranking": [<agents>]}`` (and ``"draw"``: the
agents that share first place, only when there is a draw). A subclass may add a format of fixed
keys and numbers (AGoT's ``"numeric"``) through three hooks: :attr:`KitEnv._idle_info` (the
template of an agent not to act), :meth:`KitEnv.turn_info` and :meth:`KitEnv._end_info`.

Env options (keyword arguments, :data:`ENV_OPTIONS`; a bad value raises the subclass's
:attr:`KitEnv.option_error`, ``ValueError`` here): ``reward``, ``max_steps`` (or ``max_cycles``,
PettingZoo's name), ``render_mode`` (``"ansi"``: the game's ``text``; ``"human"``: that text
printed; ``"rgb_array"``: a subclass's picture, :meth:`KitEnv._picture`) and ``info_format``.

Speed (docs/speed.md, "Little bookkeeping per step"): the step path reads only tables made at
construction (the decode table, agent names by player number) and callables bound once
(``_pending``, ``_apply``, ``_encode_into``, ``_mask_into``, which a subclass may replace by
faster equivalents: AGoT reads the state's ``pending`` attribute and calls the engine), copies
infos from a template, and rebuilds only the infos that changed.
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .decision import IllegalActionError
from .protocol import Codec, Encoder, Game
from .records import GameRecord
from .result import final_result
from .rewards import REWARD_SCHEMES, end_rewards
from .spaces import LegalActions

__all__ = ["ENV_OPTIONS", "KitEnv", "kit_env_factory", "max_steps_option"]

#: The options of the env itself (every other option is the game's).
ENV_OPTIONS = ("reward", "max_steps", "max_cycles", "render_mode", "info_format")

#: An end as the env reports it: (reason, ranking, drawn), players by number, best first;
#: ``drawn``: the players that share first place, () without a draw.
End = tuple[str, tuple[int, ...], tuple[int, ...]]


class KitEnv(AECEnv):
    """The AEC env of ``game`` with game ``options`` (fixed for every reset) and the env options
    of :data:`ENV_OPTIONS` (module docstring).

    Attributes the tools read: ``game`` (the state), ``rules`` (the :class:`Game`),
    ``game_name`` (its registry name: how ``agents.ismcts.ISMCTSAgent`` finds it), ``options``,
    ``codec``, ``encoder``, ``num_players``, ``reward_scheme``, ``max_steps``, ``info_format``,
    ``steps`` (actions played in this game), ``ruleset`` (None: the variant lives in the
    options; AGoT's env names its Ruleset).

    A subclass sets the class attributes below and may override the hooks: :meth:`_tables`
    (the codec, encoder and players without a probe state), :meth:`_new_state`,
    :meth:`turn_info` / :attr:`_idle_info` / :meth:`_end_info` (its infos),
    :meth:`_end_rewards` (its own reward schemes), :meth:`_truncated_ranking` (the standing of
    a truncated game), :meth:`_picture` (``"rgb_array"``) and :meth:`_game_options` (what a
    record's options hold of the game's).
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "boardkit_v0", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}
    #: The ``reward`` values this env takes (the first is the default).
    reward_schemes: ClassVar[tuple[str, ...]] = REWARD_SCHEMES
    #: The ``info_format`` values this env takes (the first is the default).
    info_formats: ClassVar[tuple[str, ...]] = ("text",)
    #: What a bad env option raises (AGoT: its ``OptionError``, a ValueError).
    option_error: ClassVar[type[Exception]] = ValueError
    #: True when the game's decision kinds are integers (AGoT's ``DecisionKind``, an IntEnum):
    #: :meth:`turn_info` then also takes a kind's number, so that the batched API
    #: (:mod:`boardkit.vector`) sends an acting agent's infos as two numbers.
    numbered_kinds: ClassVar[bool] = False
    ruleset: Any = None

    def __init__(self, game: Game, options: Mapping[str, Any] | None = None, **env_options: Any):
        super().__init__()
        unknown = sorted(set(env_options) - set(ENV_OPTIONS))
        if unknown:
            raise TypeError(f"unknown env option(s) {unknown}: the env's own are {ENV_OPTIONS}, "
                            f"the game's are given in options")
        self.rules = game
        self.game_name = game.name
        self.options: Any = dict(options or {})
        self._configure(env_options)
        self._pending: Callable[[Any], Any] = game.pending
        self._apply: Callable[[Any, Any], None] = game.apply
        self._bind(*self._tables())
        #: the infos of an agent not to act (None: ``{}``), copied by :meth:`_fresh`
        self._idle_info: dict[str, Any] | None = None
        self.game: Any = None
        self._actions: list[int] = []
        self._seed: int | None = None
        self._truncated = False
        self._ended: End | None = None  # the end as reported (the record reads it, not again)
        self._info_agent: str | None = None  # the agent whose infos are not the idle ones
        self.steps = 0

    # -- construction ---------------------------------------------------------------------------
    def _configure(self, env_options: Mapping[str, Any]) -> None:
        """The env options, checked (in this order: reward, max_steps, render_mode,
        info_format)."""
        error = self.option_error
        self.reward_scheme = env_options.get("reward", self.reward_schemes[0])
        if self.reward_scheme not in self.reward_schemes:
            raise error(f"reward must be one of {self.reward_schemes}, got "
                        f"{self.reward_scheme!r}")
        self.max_steps = max_steps_option(env_options, error)
        self.render_mode = env_options.get("render_mode")
        modes = tuple(self.metadata["render_modes"])
        if self.render_mode is not None and self.render_mode not in modes:
            raise error(f"render_mode must be one of {modes} or None, got {self.render_mode!r}")
        self.info_format = env_options.get("info_format", self.info_formats[0])
        if self.info_format not in self.info_formats:
            raise error(f"info_format must be one of {self.info_formats}, got "
                        f"{self.info_format!r}")

    def _tables(self) -> tuple[Codec, Encoder, dict[str, int]]:
        """The codec, the encoder and the players (agent name -> player number, in seat order:
        ``possible_agents``), from a probe state of the options (a subclass that knows them
        from its rules variant makes no state)."""
        game = self.rules
        probe = game.new_state(0, self.options)
        return game.codec(probe), game.encoder(probe), {
            a: game.player_index(probe, a) for a in game.players(self.options)}

    def _bind(self, codec: Codec, encoder: Encoder, players: Mapping[str, int]) -> None:
        """The spaces and the step path's tables."""
        self.codec, self.encoder = codec, encoder
        self.possible_agents = list(players)
        self.num_players = len(self.possible_agents)
        self._player = dict(players)  # agent -> player number
        self._agent_of = {p: a for a, p in players.items()}  # player number -> agent
        #: player number -> its index in possible_agents (AGoT's numeric infos number them so)
        self._seat = {p: i for i, p in enumerate(players.values())}
        self._num_actions = codec.size
        self._moves = decode_table(codec)  # index -> action
        self._encode_into = _writer(encoder.encode, 2)
        self._mask_into = _writer(codec.mask, 1)
        features = spaces.Box(np.zeros(encoder.size, np.float32), encoder.high, dtype=np.float32)
        obs_space = spaces.Dict({"observation": features,
                                 "action_mask": spaces.Box(0, 1, (codec.size,), np.int8)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: LegalActions(codec.size, self, a) for a in self.possible_agents}
        self.state_space = features  # state(): the same features, seen by nobody in particular

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
        self.game = self._new_state(seed)
        self._seed = seed
        self._actions = []
        self._truncated = False
        self._ended = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._info_agent = None
        self.steps = 0
        self._select_agent()

    def step(self, action: int | None) -> None:
        """Play ``action`` (a Python or numpy integer the mask allows) for ``agent_selection``;
        ``None`` for an agent that is done, as PettingZoo wants. A bad action raises
        :class:`~boardkit.decision.IllegalActionError` naming it, the agent and the valid range,
        and changes nothing."""
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("every agent is done (the game ended or was truncated); call "
                               "reset() to start a new game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(
                    f"agent {agent} is done; step(None) is the only action, got {action!r}")
            self._was_dead_step(action)
            return
        if type(action) is int and 0 <= action < self._num_actions:  # the common case
            index = action
        else:
            index = self._check_index(action, agent)
        game = self.game
        decision = self._pending(game)
        move = self._moves[index]
        try:
            self._apply(game, move)  # checks the move first: an illegal one changes nothing
        except ValueError:
            if self._pending(game) is decision and move not in decision.options:
                raise self._illegal(index, decision) from None
            raise
        self._cumulative_rewards[agent] = 0.0
        self._actions.append(index)
        self.steps += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        ended = self._pending(game) is None
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
        player = self._player.get(agent)
        if player is None:
            raise KeyError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        game = self.game
        obs = self._encode_into(game, player, obs)
        d = self._pending(game)
        if d is not None and d.player == player and not (self.terminations.get(agent, True)
                                                          or self.truncations.get(agent, True)):
            mask = self._mask_into(d.options, mask)
        elif mask is None:
            mask = np.zeros(self._num_actions, dtype=np.int8)
        else:
            mask[...] = 0
        return obs, mask

    def state(self) -> np.ndarray:
        """The full-information view (the encoder's, for no observer) for a centralized
        critic."""
        return self.encoder.encode(self.game, None)

    def render(self) -> str | np.ndarray | None:
        """The game's text (``"ansi"``), the picture (``"rgb_array"``, where the game has one),
        or the text printed to stdout (``"human"``, returns None). ``"human"`` prints only when
        render() is called, not on every step: a game may have thousands of decisions."""
        if self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return self._text()
        if self.render_mode == "human":
            print(self._text(), flush=True)
            return None
        return self._picture()

    def close(self) -> None:
        pass

    # -- extras ---------------------------------------------------------------------------------
    def action_name(self, action: int) -> str:
        """A readable name for an action index (the codec's)."""
        return self.codec.name(int(action))

    def legal_mask(self, agent: str) -> np.ndarray | None:
        """int8[N]: ``agent``'s legal actions when it is to act, else None (LegalActions)."""
        d = self._pending(self.game) if self.game is not None else None
        if d is None or not self.agents or self.agent_selection != agent:
            return None
        return self.codec.mask(d.options)

    def legal_actions(self) -> list[int]:
        """The legal action indices of the agent to act, ascending ([] once the game is over)."""
        d = self._pending(self.game) if self.game is not None else None
        return sorted(int(self.codec.encode(a)) for a in d.options) if d else []

    def turn_info(self, kind: Any, num_legal: int) -> dict[str, Any]:
        """The infos of the agent to act while the game is on, a dict of its own: ``kind`` the
        pending decision's kind (its number too, where :attr:`numbered_kinds`), ``num_legal``
        its number of options. The batched API rebuilds the acting agents' infos with it in
        the main process, from the two numbers its workers send."""
        return {"decision": kind.label, "num_legal": num_legal}

    @property
    def record(self) -> GameRecord | None:
        """The game so far as a :class:`~boardkit.records.GameRecord` (None before the first
        reset): the game's name, the options that make this env again (:meth:`_game_options`,
        ``reward``, ``max_steps``), the seed, the actions, the outcome and final digest as they
        stand now (agent names), and the check over them all."""
        if self.game is None:
            return None
        end = self._ended if self._ended is not None else self._result()  # (a state set by hand)
        outcome: dict[str, Any] | None = None
        if end is not None:
            reason, ranking, drawn = end
            names = [self._agent_of[p] for p in ranking]
            outcome = {"reason": reason, "winner": names[0], "ranking": names}
            if drawn:
                outcome["draw"] = [self._agent_of[p] for p in drawn]
        options = {**self._game_options(), "reward": self.reward_scheme,
                   "max_steps": self.max_steps}
        return GameRecord(self.game_name, options, self._seed, list(self._actions), outcome,
                          self.rules.digest(self.game)).sealed()

    def clone(self) -> KitEnv:
        """An independent copy (cheap: the game state is cloned, the tables shared)."""
        new = copy.copy(self)
        new.game = self.rules.clone(self.game)
        new._actions = list(self._actions)
        new.action_spaces = {a: LegalActions(self.codec.size, new, a) for a in self.possible_agents}
        for name in ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations"):
            setattr(new, name, copy.copy(getattr(self, name)))
        new.infos = {a: {k: list(v) if isinstance(v, list) else v for k, v in i.items()}
                     for a, i in self.infos.items()}
        return new

    # -- hooks ----------------------------------------------------------------------------------
    def _game_options(self) -> dict[str, Any]:
        """The game's options as the game's env takes them back (a record's ``options``, with
        the env's ``reward`` and ``max_steps``)."""
        return dict(self.options)

    def _new_state(self, seed: int) -> Any:
        """A new game of this env's options from ``seed``."""
        return self.rules.new_state(seed, self.options)

    @staticmethod
    def _fresh(info: dict[str, Any]) -> dict[str, Any]:
        """A copy of the idle infos (:attr:`_idle_info`) that shares no list with them."""
        return {k: v.copy() if type(v) is list else v for k, v in info.items()}

    def _end_info(self, reason: str, ranking: tuple[int, ...],
                  drawn: tuple[int, ...]) -> dict[str, Any]:
        """One agent's infos once the game ended or was truncated (a dict of its own)."""
        name = self._agent_of
        info: dict[str, Any] = {"outcome": reason, "winner": name[ranking[0]],
                                "ranking": [name[p] for p in ranking]}
        if drawn:
            info["draw"] = [name[p] for p in drawn]
        return info

    def _end_rewards(self, ranking: tuple[int, ...], drawn: tuple[int, ...]) -> dict[str, float]:
        """Every agent's final reward by the reward scheme (:func:`boardkit.rewards.
        end_rewards`, the drawn players sharing first place)."""
        names = [self._agent_of[p] for p in ranking]
        shares = end_rewards(self.reward_scheme, len(names), max(1, len(drawn)))
        return {a: shares[names.index(a)] for a in self.agents}

    def _truncated_ranking(self) -> tuple[int, ...]:
        """The players ranked by the game's ``standing`` (ties in seat order) for a game cut
        off by ``max_steps``: it did not end, so this is no result, only where it stood."""
        standing = self.rules.standing(self.game)
        return tuple(sorted(self._player.values(), key=lambda p: -standing[p]))

    def _text(self) -> str:
        return self.rules.text(self.game, None)

    def _picture(self) -> np.ndarray:
        """The ``"rgb_array"`` render of a subclass that lists that mode."""
        raise NotImplementedError(f"{type(self).__name__} has no picture (render_mode "
                                  f"'rgb_array')")

    # -- internals ------------------------------------------------------------------------------
    def _check_index(self, action: object, agent: str) -> int:
        """The action as an int, or IllegalActionError: only Python and numpy integers in the
        action space are actions (not floats, strings, bools, None or arrays)."""
        valid = f"an integer in 0..{self._num_actions - 1}"
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"action {action!r} ({type(action).__name__}) for agent {agent} is not an action "
                f"index: expected {valid} (a Python or numpy integer)")
        if not 0 <= action < self._num_actions:
            raise IllegalActionError(
                f"action {action!r} for agent {agent} is outside the action space: expected "
                f"{valid}")
        return int(action)

    def _illegal(self, action: int, decision: Any) -> IllegalActionError:
        """The error for an action index that the pending decision does not allow."""
        return IllegalActionError(
            f"action {action} ({self.codec.name(action)}) is not legal for "
            f"{decision.kind.label} of {self.agent_selection}; the action mask lists the "
            f"legal ones")

    def _select_agent(self) -> None:
        """The pending decision's player acts, its infos :meth:`turn_info`; the agent that
        acted before gets the idle infos back (every other agent has them already). Once the
        game is over, the done agents in turn."""
        d = self._pending(self.game)
        if d is not None and not self._truncated:
            agent = self.agent_selection = self._agent_of[d.player]
            infos = self.infos
            last = self._info_agent
            if last != agent:  # every other agent's infos are the idle ones already
                idle = self._idle_info
                for a in self.agents if last is None else (last,):
                    infos[a] = {} if idle is None else self._fresh(idle)  # a dict of its own
            infos[agent] = self.turn_info(d.kind, len(d.options))
            self._info_agent = agent
        else:
            self.agent_selection = self.agents[0]

    def _result(self) -> End | None:
        """The end from the game's state (not from ``infos``, so that records depend neither
        on the info format nor on agents having left ``agents``): the finished game's
        (:func:`boardkit.result.final_result`), or, once truncated, its standing with reason
        ``"truncated"`` and no draw (the game did not end); None while it is on."""
        game = self.game
        if self.rules.outcome(game) is not None:
            r = final_result(self.rules, game, list(self._player.values()))
            return r.reason, tuple(r.ranking), tuple(r.draw)
        if self._truncated:
            return "truncated", tuple(self._truncated_ranking()), ()
        return None

    def _finish(self) -> None:
        end = self._end()
        self.rewards = self._end_rewards(end[1], end[2])
        self.terminations = {a: True for a in self.agents}
        self._set_outcome(end)

    def _truncate(self) -> None:
        """``max_steps`` reached: no reward (the game did not end), the standing in ``infos``
        as at the end, with reason ``"truncated"``."""
        self._truncated = True
        self.truncations = {a: True for a in self.agents}
        self._set_outcome(self._end())

    def _end(self) -> End:
        end = self._result()
        assert end is not None, "the game has neither ended nor been truncated"
        return end

    def _set_outcome(self, end: End) -> None:
        self._ended = end
        self._info_agent = None  # every agent's infos are replaced here
        for a in self.agents:
            self.infos[a] = self._end_info(*end)


def kit_env_factory(game: Game) -> Callable[..., KitEnv]:
    """A plugin's ``make_env`` for a game without an env of its own: the kit's :class:`KitEnv`
    over ``game``; the options of :data:`ENV_OPTIONS` go to the env, the others to the game."""

    def make(**options: Any) -> KitEnv:
        env_kwargs = {k: options.pop(k) for k in ENV_OPTIONS if k in options}
        return KitEnv(game, options, **env_kwargs)

    return make


def decode_table(codec: Codec) -> tuple[Any, ...]:
    """Every action by its index: the codec's own table where it has one (``actions``, AGoT's),
    else decoded once here, so that a step looks its action up rather than calling the
    codec."""
    actions = getattr(codec, "actions", None)
    if isinstance(actions, tuple) and len(actions) == codec.size:
        return actions
    return tuple(codec.decode(i) for i in range(codec.size))


def _writer(fn: Callable[..., np.ndarray], arity: int) -> Callable[..., np.ndarray]:
    """``fn`` itself when it takes an output array after its ``arity`` arguments (AGoT's
    encoder and codec write into a given row), else ``fn`` with its result copied into the
    array when one is given."""
    if _takes_out(getattr(fn, "__func__", fn), arity + hasattr(fn, "__func__")):
        return fn

    def write(*args: Any) -> np.ndarray:
        value = fn(*args[:arity])
        out = args[arity] if len(args) > arity else None
        if out is None:
            return value
        out[...] = value
        return out

    return write


@functools.cache
def _takes_out(fn: Callable[..., Any], arity: int) -> bool:
    """Whether ``fn`` takes more than ``arity`` arguments (once per function: an env is built
    per game slot of a batch, and ``inspect.signature`` is slow)."""
    try:
        return len(inspect.signature(fn).parameters) > arity
    except (TypeError, ValueError):  # a callable without a signature: assume it does not
        return False


def max_steps_option(env_options: Mapping[str, Any],
                     error: type[Exception] = ValueError) -> int | None:
    """``max_steps``, or ``max_cycles`` (PettingZoo's name, as its ``max_cycles_test`` passes it:
    one decision is one cycle here, since one player acts at a time), from the env options
    given (a key absent: not given); both must agree. A bad value raises ``error``."""
    given = {k: env_options[k] for k in ("max_steps", "max_cycles") if k in env_options}
    for key, value in given.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise error(f"{key} must be a positive integer or None, got {value!r}")
    if len(given) == 2 and given["max_steps"] != given["max_cycles"]:
        raise error(f"max_cycles is another name for max_steps; they differ: "
                    f"max_steps={given['max_steps']!r}, max_cycles={given['max_cycles']!r}")
    return next(iter(given.values()), None)
