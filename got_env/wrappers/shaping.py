"""Potential-based reward shaping (Ng, Harada and Russell 1999), as an option.

The game pays only at the end (the zero-sum outcome by default), which makes early learning
slow. Shaping adds ``F = gamma * Phi(s') - Phi(s)`` to each reward, where ``s`` is the state at
which a house decided and ``s'`` the state at its next decision (or the end). Because ``F`` is a
difference of potentials, its discounted sum over an episode telescopes to
``gamma**T * Phi(s_T) - Phi(s_0)``: with ``Phi = 0`` at the end of a game (the terminal state),
every policy's return changes by the same constant ``-Phi(s_0)``, so the optimal policies (and
their ranking) stay those of the unshaped game. That holds for the discount ``gamma`` the
learner uses, so set :attr:`PotentialShaping.gamma` to the algorithm's ``gamma``.

``Phi`` is a weighted sum of what a house holds, each part scaled to about [0, 1]:
``castles * victory_points / castles_to_win + supply * supply_level / max_supply_level``
(castles and strongholds held out of the number that wins at this player count, 7, or 8 in a
3-player 1st-edition game; the supply track 0-6). A custom potential
``potential(state, house) -> float`` replaces the weighted sum.

Two users: :class:`got_env.wrappers.SingleAgentEnv` (``shaping=...``) and
:class:`PotentialShapingWrapper` for the multi-agent AEC env, where each house's shaping term is
its own potential change since its own previous decision.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import BaseWrapper

from ..engine import GameState

Potential = Callable[[GameState, int], float]


@dataclass(frozen=True)
class PotentialShaping:
    """The shaping option: weights of ``Phi``, the learner's discount, or a custom ``Phi``.

    :param castles: weight of castles and strongholds held / castles to win.
    :param supply: weight of the supply level / its maximum.
    :param gamma: the discount of ``F = gamma * Phi(s') - Phi(s)``; the learner's own.
    :param potential: ``(state, house index) -> float`` used instead of the weighted sum.
    """

    castles: float = 1.0
    supply: float = 0.5
    gamma: float = 0.99
    potential: Potential | None = None

    def __post_init__(self) -> None:
        for name in ("castles", "supply", "gamma"):
            value = getattr(self, name)
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not math.isfinite(value)):
                raise ValueError(f"shaping {name} must be a finite number, got {value!r}")
        if not 0.0 < self.gamma <= 1.0:
            raise ValueError(f"shaping gamma must lie in (0, 1], got {self.gamma!r}")
        if self.potential is not None and not callable(self.potential):
            raise ValueError(f"shaping potential must be callable (state, house) -> float, got "
                             f"{self.potential!r}")

    def phi(self, state: GameState, house: int) -> float:
        """``Phi`` of ``house`` (a ruleset house index) in ``state``."""
        if self.potential is not None:
            return float(self.potential(state, house))
        rs = state.ruleset
        value = 0.0
        if self.castles:
            target = rs.setups[state.num_players].castles_to_win
            value += self.castles * float(state.victory_points()[house]) / target
        if self.supply:
            value += self.supply * float(state.supply[house]) / (len(rs.supply_limits) - 1)
        return value

    def end_phi(self, state: GameState, house: int, terminated: bool) -> float:
        """``Phi`` of the state an episode stops in: 0 when the game ended (a terminal state
        has no future, which is what keeps the optimal policies), the potential itself when
        it was only truncated (the learner bootstraps from that state)."""
        return 0.0 if terminated else self.phi(state, house)

    def term(self, phi_before: float, phi_after: float) -> float:
        """``F = gamma * Phi(s') - Phi(s)``."""
        return self.gamma * phi_after - phi_before


SHAPING_KEYS = tuple(f.name for f in fields(PotentialShaping))


def make_shaping(spec: object) -> PotentialShaping | None:
    """The shaping option from its spec: ``None``/``False`` (no shaping, the default),
    ``True`` or ``"potential"`` (default weights), a mapping of :class:`PotentialShaping`'s
    fields (``{"castles": 1.0, "supply": 0.0, "gamma": 0.99}``), or a
    :class:`PotentialShaping`. Anything else raises a ValueError naming it."""
    if spec is None or spec is False:
        return None
    if spec is True or spec == "potential":
        return PotentialShaping()
    if isinstance(spec, PotentialShaping):
        return spec
    if isinstance(spec, Mapping):
        unknown = sorted(set(spec) - set(SHAPING_KEYS))
        if unknown:
            raise ValueError(f"unknown shaping option(s) {unknown}; known: {list(SHAPING_KEYS)}")
        return PotentialShaping(**spec)
    raise ValueError(f"bad shaping={spec!r}: use None, True, 'potential', a mapping of "
                     f"{list(SHAPING_KEYS)} or a PotentialShaping")


class PotentialShapingWrapper(BaseWrapper):
    """The multi-agent AEC env with potential-based shaping added to every house's reward.

    A house's shaping term is paid when its next decision comes (``last()`` at its turn shows
    the env's reward plus ``gamma * Phi(now) - Phi(at its previous decision)``), and once more
    for every house at the end of the game (with ``Phi = 0`` when the game ended, the
    potential itself on truncation). ``rewards`` carries the term on the step that pays it;
    ``_cumulative_rewards`` (what ``last()`` returns) sums it like the env's own rewards.

        env = PotentialShapingWrapper(got_env.env(num_players=3), PotentialShaping(gamma=0.99))
    """

    def __init__(self, env: AECEnv, shaping: PotentialShaping | Mapping[str, Any] | bool = True):
        super().__init__(env)
        made = make_shaping(shaping)
        if made is None:
            raise ValueError("PotentialShapingWrapper needs a shaping, got "
                             f"{shaping!r} (leave the wrapper out for no shaping)")
        self.shaping = made
        self._phi: dict[str, float] = {}  # Phi at each house's latest decision
        self._pending: dict[str, float] = {}  # shaping since the house last acted
        self._ended = False
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        self._phi, self._pending, self._ended = {}, {}, False
        self._after_step({})

    def step(self, action: Any) -> None:
        agent = self.env.agent_selection
        self.env.step(action)
        self._pending.pop(agent, None)  # it acted: its reward so far has been seen
        paid: dict[str, float] = {}
        raw = self.env.unwrapped
        game = raw.game
        if not self._ended and game is not None:
            done = any(raw.terminations.values()) or any(raw.truncations.values())
            if done:
                self._ended = True
                terminated = any(raw.terminations.values())
                for house, before in self._phi.items():
                    h = raw.ruleset.house(house)
                    paid[house] = self.shaping.term(before,
                                                    self.shaping.end_phi(game, h, terminated))
        for house, f in paid.items():
            self._pending[house] = self._pending.get(house, 0.0) + f
        self._after_step(paid)

    def _after_step(self, paid: dict[str, float]) -> None:
        """Note the potential of the house now to decide (paying its term since its previous
        decision), then rebuild ``rewards`` and ``_cumulative_rewards`` from the env's."""
        raw = self.env.unwrapped
        game = raw.game
        if not self._ended and game is not None and game.pending is not None and raw.agents:
            house = raw.agent_selection
            now = self.shaping.phi(game, raw.ruleset.house(house))
            if house in self._phi:
                f = self.shaping.term(self._phi[house], now)
                paid[house] = paid.get(house, 0.0) + f
                self._pending[house] = self._pending.get(house, 0.0) + f
            self._phi[house] = now
        self.rewards = {a: float(r) + paid.get(a, 0.0) for a, r in raw.rewards.items()}
        self._cumulative_rewards = {a: float(r) + self._pending.get(a, 0.0)
                                    for a, r in raw._cumulative_rewards.items()}
