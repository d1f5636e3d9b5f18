"""The PettingZoo AEC environment (DESIGN.md "Configuration and interfaces").

``raw_env(**options)`` is the bare :class:`AECEnv`; ``env(**options)`` wraps it in PettingZoo's
usual guards (out-of-bounds actions, call order). Agents are the houses in play
(``"stark"``, ``"lannister"``, ...). Every agent has the same ``Discrete(N)`` action space
(:class:`got_env.encoding.ActionCodec`) and observes
``{"observation": Box(float32, (F,)), "action_mask": Box(int8, (N,))}`` from its own point of view
(:class:`got_env.encoding.ObservationEncoder`); a house that is not to act gets an all-zero mask.
``infos[agent]`` carries ``decision`` (the kind, e.g. ``"D-20 PLACE_ORDERS"``) for the agent to
act. The env knows nothing of the rules: it asks the engine.

Options (validated; an unknown or bad one raises :class:`got_env.engine.OptionError`):
``ruleset`` ("2e"), ``num_players`` (3-6, default 6), ``tides_of_battle`` (False), ``max_rounds``
(10), ``tiebreak`` ("errata"), ``lannister_port_ship_in_3p`` (True), ``reward`` ("zero_sum",
"castles" or "rank"), ``max_steps`` (None: no truncation), ``render_mode`` (None, "ansi",
"rgb_array").
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import engine
from .data import load_ruleset
from .encoding import ActionCodec, ObservationEncoder
from .engine import OptionError, validate_options

REWARD_SCHEMES = ("zero_sum", "castles", "rank")
RENDER_MODES = ("ansi", "rgb_array")
ENV_OPTIONS = ("num_players", "reward", "max_steps", "render_mode")


def env(**options: Any) -> AECEnv:
    """The wrapped environment (PettingZoo's assert-out-of-bounds and order-enforcing guards)."""
    e: AECEnv = raw_env(**options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


@dataclass
class GameRecord:
    """What replays a game exactly: the options, the seed and every action index."""

    options: dict[str, Any]
    seed: int | None
    actions: list[int] = field(default_factory=list)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps({"format": "got_env-record-1", "options": self.options,
                                          "seed": self.seed, "actions": self.actions}))

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a saved record; a corrupt file raises ValueError naming what is wrong."""
        try:
            doc = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise ValueError(f"cannot read game record {path}: {e}") from None
        if not isinstance(doc, dict) or doc.get("format") != "got_env-record-1":
            raise ValueError(f"{path}: not a got_env game record (missing or wrong 'format')")
        opts, seed, actions = doc.get("options"), doc.get("seed"), doc.get("actions")
        if not isinstance(opts, dict):
            raise ValueError(f"{path}: 'options' must be a mapping")
        if seed is not None and not isinstance(seed, int):
            raise ValueError(f"{path}: 'seed' must be an integer or null")
        if not isinstance(actions, list) or not all(isinstance(a, int) for a in actions):
            raise ValueError(f"{path}: 'actions' must be a list of integers")
        return cls(opts, seed, actions)

    def replay(self) -> raw_env:
        """A new env with the record's game played through (raises on an illegal action)."""
        e = raw_env(**self.options)
        e.reset(seed=self.seed)
        for i, a in enumerate(self.actions):
            if e.game is None or e.game.pending is None:
                raise ValueError(f"record has {len(self.actions) - i} actions after the game end")
            e.step(a)
        return e


class raw_env(AECEnv):  # noqa: N801  (PettingZoo's naming)
    metadata = {"name": "got_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, **options: Any):
        super().__init__()
        env_opts = {k: options.pop(k) for k in ENV_OPTIONS if k in options}
        self.num_players = env_opts.get("num_players", 6)
        self.game_options = validate_options(self.num_players, options)
        self.reward_scheme = env_opts.get("reward", "zero_sum")
        if self.reward_scheme not in REWARD_SCHEMES:
            raise OptionError(f"reward must be one of {REWARD_SCHEMES}, got "
                              f"{self.reward_scheme!r}")
        self.max_steps = env_opts.get("max_steps")
        if self.max_steps is not None and (not isinstance(self.max_steps, int)
                                           or self.max_steps < 1):
            raise OptionError(f"max_steps must be a positive integer or None, got "
                              f"{self.max_steps!r}")
        self.render_mode = env_opts.get("render_mode")
        if self.render_mode is not None and self.render_mode not in RENDER_MODES:
            raise OptionError(f"render_mode must be one of {RENDER_MODES} or None, got "
                              f"{self.render_mode!r}")
        self.ruleset = load_ruleset(self.game_options["ruleset"])
        self.codec = ActionCodec(self.ruleset)
        self.encoder = ObservationEncoder(self.ruleset)
        houses = self.ruleset.setups[self.num_players].houses
        self.possible_agents = list(houses)
        self._house = {h: self.ruleset.house(h) for h in houses}
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in houses}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in houses}
        self.game: engine.GameState | None = None
        self.record: GameRecord | None = None

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
        self.record = GameRecord({**self.game_options, "num_players": self.num_players,
                                  "reward": self.reward_scheme, "max_steps": self.max_steps},
                                 seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.steps = 0
        self._select_agent()

    def step(self, action: int) -> None:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self.game.pending
        move = self._decode_legal(int(action), decision)
        self._cumulative_rewards[agent] = 0.0
        engine.apply(self.game, move)
        self.record.actions.append(int(action))
        self.steps += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game.pending is None:
            self._finish()
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        self._select_agent()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        house = self._house[agent]
        obs = self.encoder.encode(self.game, house)
        mask = np.zeros(self.codec.size, dtype=np.int8)
        d = self.game.pending
        if d is not None and d.player == house and not (self.terminations[agent]
                                                         or self.truncations[agent]):
            mask = self.codec.mask(d.options)
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The full-information view (all orders shown) for a centralized critic."""
        return self.encoder.encode(self.game, None)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return self.game.render_text()
        from .render import render_board

        return render_board(self.game)

    def close(self) -> None:
        pass

    # -- extras ---------------------------------------------------------------------------------
    def action_name(self, action: int) -> str:
        """A readable name for an action index, e.g. ``ORDER[winterfell,march-special]``."""
        return self.codec.name(int(action))

    def legal_actions(self) -> list[int]:
        d = self.game.pending if self.game else None
        return sorted(self.codec.encode(a) for a in d.options) if d else []

    def clone(self) -> raw_env:
        """An independent copy (cheap: the game state's arrays are copied, tables shared)."""
        new = copy.copy(self)
        new.game = self.game.clone()
        new.record = GameRecord(dict(self.record.options), self.record.seed,
                                list(self.record.actions))
        for name in ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations"):
            setattr(new, name, copy.copy(getattr(self, name)))
        new.infos = {a: dict(i) for a, i in self.infos.items()}
        return new

    # -- internals ------------------------------------------------------------------------------
    def _decode_legal(self, action: int, decision: engine.Decision) -> engine.Action:
        if not 0 <= action < self.codec.size:
            raise ValueError(f"action {action} outside the action space 0..{self.codec.size - 1}")
        move = self.codec.decode(action)
        if move not in decision:
            raise engine.IllegalActionError(
                f"action {action} ({self.codec.name(action)}) is not legal for "
                f"{decision.kind.label} of {self.agent_selection}; the action mask lists the "
                f"legal ones")
        return move

    def _select_agent(self) -> None:
        d = self.game.pending
        if d is not None and not any(self.truncations.values()):
            self.agent_selection = self.ruleset.houses[d.player].id
            for a in self.agents:
                self.infos[a] = {}
            self.infos[self.agent_selection] = {"decision": d.kind.label,
                                               "num_legal": len(d.options)}
        else:
            self.agent_selection = self.agents[0]

    def _finish(self) -> None:
        outcome = self.game.outcome
        n = len(self.agents)
        ranking = [self.ruleset.houses[h].id for h in outcome.ranking]
        if self.reward_scheme == "zero_sum":
            winner = self.ruleset.houses[outcome.winner].id
            self.rewards = {a: 1.0 if a == winner else -1.0 / (n - 1) for a in self.agents}
        elif self.reward_scheme == "castles":
            vp = self.game.victory_points()
            target = self.ruleset.castles_to_win
            self.rewards = {a: float(vp[self._house[a]]) / target for a in self.agents}
        else:  # rank: +1 for first, -1 for last, linear in between
            self.rewards = {a: 1.0 - 2.0 * ranking.index(a) / (n - 1) for a in self.agents}
        self.terminations = {a: True for a in self.agents}
        for a in self.agents:
            self.infos[a] = {"outcome": outcome.reason, "winner": ranking[0],
                             "ranking": ranking}
