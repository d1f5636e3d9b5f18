"""A game as one plugin: everything the kit's tools need of one game, in one registration
(:class:`GamePlugin`, registered with :func:`boardkit.games.register`), so that a tool never
keeps a table of games of its own nor asks which game it plays (docs/kit.md, "Adding a game").

The rules are the :class:`boardkit.protocol.Game`; the rest is what a tool reads besides:
the env, the agents that only this game has, the invariants the conformance suite checks
(tests/conformance/), and the optional pieces of the tools (PPO network sizes, training and
tournament hooks, views for replay and terminal play, benchmark hooks). An optional
piece left None means the tool's game-neutral default (no shaping, the MLP, the text views).

Where the pieces live: a game package may import only itself and :mod:`boardkit`
(docs/layers.md), so everything a plugin names is the game's own code, in its package (AGoT's
heuristics in ``got_env.agents``, its tool hooks and views in ``got_env.tools``). The pieces
that import heavy optional libraries (torch, rich) are given as *loaders*: zero-argument
functions returning the module, called when a tool first needs it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any

from .protocol import Game

#: A zero-argument function that imports and returns a module of the game's (a tool's hooks).
Loader = Callable[[], ModuleType]

#: The members every :class:`boardkit.protocol.Game` must have (checked at registration).
GAME_MEMBERS = ("name", "players", "new_state", "scenario", "pending", "apply", "clone", "round",
                "outcome", "standing", "determinize", "codec", "encoder", "player_name",
                "player_index", "digest", "text")


class PluginError(TypeError):
    """What was registered is not a game: a missing or wrong member, named."""


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class GamePlugin:
    """One game, as every tool of the kit reads it.

    Required:

    - ``game``: the rules (:class:`boardkit.protocol.Game`); its ``name`` is the registry name.
    - ``make_env(**options)``: the game's raw PettingZoo AEC env (not order-enforcing wrapped:
      tools read ``game``, ``codec``, ``possible_agents``); a bad option: TypeError or
      ValueError. :func:`boardkit.aec.kit_env_factory` makes one for a game without its own env.
    - ``check_invariants(state)``: raises AssertionError naming what is broken in a state
      (units off the board, a card in two places); the conformance suite calls it after every
      action of random games.
    - ``variants``: the rulesets and player counts the conformance suite plays, by a short
      name (``{"2e-3p": {"ruleset": "2e", "num_players": 3}, ...}``): every edition and every
      player count where the rules differ; at least one.

    Optional (None or empty: the tools' game-neutral defaults):

    - ``agents``: the agents only this game has, by the name agent specs use (``"heuristic_v2"``:
      a class or factory taking ``env`` and ``seed`` where it wants them; agents.REGISTRY).
    - ``network``: loader of the PPO network's knowledge of the game (``sizes(variant)``,
      ``structured_layout``, ``check_env``, ``DEFAULT_VARIANT``; agents.ppo). None: the MLP
      sized from the env.
    - ``training``: loader of the trainer's hooks (shaping ``potential``, ``SHAPING_KEYS``,
      ``winner``, ``baseline``, ``RESUME_CLASSES``, ``variant``, ``default_num_players``;
      experiments.training.game_hooks names them all).
    - ``tournament``: loader of the tournament's and terminal play's hooks (``result``,
      ``decisions``, ``record``, ``max_rounds``, ``endings``, ``score_label``, ``replay_title``,
      ``save_record``, ``save_picture``; experiments.game_hooks).
    - ``terminal_view``: loader of the terminal view (``View``, ``make_env(args)``,
      ``DEFAULT_OPPONENTS``, ``DEFAULT_SEAT``, ``SEAT``, ``CLI_OPTIONS``; experiments.human).
      None: the text view.
    - ``replay_view``: loader of the replay view (``FRAGMENT`` fields, ``view_parts``, ``load``
      ...; experiments.replay). None: the text view.
    - ``benchmark``: loader of the benchmark's hooks (``default_players(env_options)``: the
      player counts measured when none are asked for; ``forget_encoding(state)``: drop what a
      state caches of its encoding, so that an encode is timed from scratch;
      experiments.benchmark). None: the options' own player count, nothing to forget.
    - ``value``: loader of the value tool's hooks (``baseline_features(state, player) ->
      float[k]``: what the tool's baseline predictor of the outcome reads, named by
      ``BASELINE_FEATURES``; ``DEFAULT_AGENTS``: the agent specs that play its games;
      experiments.value). None: the tool refuses the game (it has no baseline to beat).
    - ``search``: loader of the plan search's piece (``BASE_POLICY``: the agent kind whose
      plans are searched; ``plan_start(state, decision)``: whether a decision starts a plan;
      ``HORIZON``: where a plan ends, ``"round"`` or a count of the seat's own decisions;
      ``BASE_OPTIONS`` / ``CANDIDATE_OPTIONS``: the base agent's keyword arguments for
      candidate 0 and for the others; ``WIDEN``: fill up with other first actions;
      agents.plan_search). None: every decision a plan start, the horizon the seat's next
      decision, the game's ``default_policy``.
    """

    game: Game
    make_env: Callable[..., Any]
    check_invariants: Callable[[Any], None]
    variants: Mapping[str, Mapping[str, Any]]
    agents: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    network: Loader | None = None
    training: Loader | None = None
    tournament: Loader | None = None
    terminal_view: Loader | None = None
    replay_view: Loader | None = None
    benchmark: Loader | None = None
    value: Loader | None = None
    search: Loader | None = None

    def __post_init__(self) -> None:
        missing = [m for m in GAME_MEMBERS if not hasattr(self.game, m)]
        if missing:
            raise PluginError(f"{self.game!r} is not a game: it lacks the protocol member(s) "
                              f"{', '.join(missing)} (boardkit.protocol.Game)")
        if not isinstance(self.game.name, str) or not self.game.name.isidentifier():
            raise PluginError(f"a game's name must be an identifier, got {self.game.name!r}")
        for member in ("make_env", "check_invariants"):
            if not callable(getattr(self, member)):
                raise PluginError(f"game {self.name!r}: {member} must be callable, "
                                  f"got {getattr(self, member)!r}")
        if not isinstance(self.variants, Mapping) or not self.variants or not all(
                isinstance(k, str) and isinstance(v, Mapping) for k, v in self.variants.items()):
            raise PluginError(f"game {self.name!r}: variants must map at least one name to "
                              f"an options mapping, got {self.variants!r}")
        if not isinstance(self.agents, Mapping) or not all(
                isinstance(k, str) and callable(v) for k, v in self.agents.items()):
            raise PluginError(f"game {self.name!r}: agents must map names to agent "
                              f"factories, got {self.agents!r}")
        for member in ("network", "training", "tournament", "terminal_view", "replay_view",
                       "benchmark", "value", "search"):
            value = getattr(self, member)
            if value is not None and not callable(value):
                raise PluginError(f"game {self.name!r}: {member} must be a loader (a function "
                                  f"returning a module) or None, got {value!r}")
        object.__setattr__(self, "variants",
                           _frozen({k: _frozen(v) for k, v in self.variants.items()}))
        object.__setattr__(self, "agents", _frozen(self.agents))

    @property
    def name(self) -> str:
        """The game's registry name (``game.name``)."""
        return self.game.name

    def hook(self, piece: str, member: str) -> Any:
        """Member ``member`` of the optional piece ``piece`` (``"training"``, ...), None where
        the game has no such piece or the piece no such member (the tool's default)."""
        loader = getattr(self, piece)
        return None if loader is None else getattr(loader(), member, None)
