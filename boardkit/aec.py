"""A PettingZoo AEC env for any :class:`~boardkit.protocol.Game`: one agent acts at a time, the
pending decision's player; every decision is asked, secret ones too (the encoder keeps them from
the others' observations); rewards come at the end, zero-sum shares of the win
(``num_players * share - 1``: +1 / -1 in a two-player game, 0 each for a tie); a game cut off
after ``max_steps`` actions is truncated with no rewards; :meth:`KitEnv.record` gives what
replays the game (seed, options, action indices).

AGoT's env (``got_env.env``) predates this base and keeps its own richer one (reward schemes,
numeric infos, game records); moving it onto this base is a later step (docs/kit.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .outcome import win_shares
from .protocol import Game


class KitEnv(AECEnv):
    """The AEC env of ``game`` with game ``options`` (fixed for every reset).

    Attributes as AGoT's env has them, so that the tools read either: ``game`` (the state),
    ``codec``, ``encoder``, ``num_players``, ``game_name`` (the registry name: how
    ``agents.ismcts.ISMCTSAgent`` finds the :class:`Game`), ``rules`` (the Game itself).
    """

    metadata = {"name": "boardkit_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: Game, options: Mapping[str, Any] | None = None,
                 max_steps: int | None = None, render_mode: str | None = None):
        super().__init__()
        self.rules = game
        self.game_name = game.name
        self.options = dict(options or {})
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = game.players(self.options)
        self.num_players = len(self.possible_agents)
        self.ruleset = None  # the variant lives in the options; AGoT's env names its Ruleset
        probe = game.new_state(0, self.options)  # the spaces: the codec's and encoder's sizes
        self.codec, self.encoder = game.codec(probe), game.encoder(probe)
        features = spaces.Box(np.zeros(self.encoder.size, np.float32), self.encoder.high,
                              dtype=np.float32)
        obs = spaces.Dict({"observation": features,
                           "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8)})
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self.game: Any = None
        self._seed: int | None = None
        self._actions: list[int] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; ``options`` (PettingZoo's per-reset ones) are not used."""
        del options
        if seed is None:  # draw one, so that the record still replays exactly
            seed = int(np.random.SeedSequence().entropy % (1 << 63))
        self.game = self.rules.new_state(seed, self.options)
        self._seed, self._actions, self.steps = seed, [], 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select_agent()

    def step(self, action: int | None) -> None:
        """Play the action index ``action`` for ``agent_selection`` (None for a done agent);
        an index the mask refuses raises ValueError and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self.rules.pending(self.game)
        if action is None or not 0 <= int(action) < self.codec.size \
                or self.codec.decode(int(action)) not in d.options:
            raise ValueError(f"action {action!r} is not legal for {agent} now")
        self.rules.apply(self.game, self.codec.decode(int(action)))
        self._actions.append(int(action))
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        scores = self.rules.outcome(self.game)
        if scores is not None:
            shares = win_shares(scores)
            for a in self.agents:
                self.rewards[a] = float(self.num_players * shares[self._index(a)] - 1)
                self.terminations[a] = True
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        self._select_agent()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._index(agent)
        d = self.rules.pending(self.game)
        mask = self.codec.mask(d.options) if d is not None and d.player == player else \
            np.zeros(self.codec.size, np.int8)
        return {"observation": self.encoder.encode(self.game, player), "action_mask": mask}

    def render(self) -> str | None:
        return None if self.render_mode is None else self.rules.text(self.game, None)

    def close(self) -> None:
        pass

    def legal_actions(self) -> list[int]:
        d = self.rules.pending(self.game) if self.game is not None else None
        return sorted(self.codec.encode(a) for a in d.options) if d else []

    def action_name(self, action: int) -> str:
        return self.codec.name(int(action))

    def record(self) -> dict[str, Any]:
        """What replays this game: ``rules.new_state(seed, options)``, then every action."""
        return {"game": self.game_name, "seed": self._seed, "options": dict(self.options),
                "actions": list(self._actions)}

    def _index(self, agent: str) -> int:
        return self.rules.player_index(self.game, agent)

    def _select_agent(self) -> None:
        """The pending decision's player acts; once the game is over, the done agents in turn."""
        d = self.rules.pending(self.game)
        for a in self.agents:
            self.infos[a] = {}
        if d is not None and not any(self.truncations.values()):
            self.agent_selection = self.rules.player_name(self.game, d.player)
            self.infos[self.agent_selection] = {"decision": d.kind.label,
                                                "num_legal": len(d.options)}
        elif self.agents:
            self.agent_selection = self.agents[0]
