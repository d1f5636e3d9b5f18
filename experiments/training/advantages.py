"""Generalised advantage estimation per house, on the step stream of one game slot.

In this game a house often decides several times in a row (all its orders, then a muster, then
a bid) and then waits while the others decide. Its trajectory is its own decisions only: the
transition from one of its decisions to its *next* decision, with every reward the house
received in between (the game pays at the end, to every house at once). GAE then runs over
each house's chain of decisions, never across another house's decision or across the end of a
game (a slot starts its next game at once, in the same stream).

A decision whose house has not decided again yet (and whose game has not ended) is
*incomplete*: its reward and next value are not known. The trainer keeps it (and the stream
after it) for the next rollout, where it completes; a complete decision whose successor is
incomplete gets the one-step bootstrapped estimate (its successor's advantage taken as 0), as
at the end of any PPO rollout.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Advantages:
    """Per step of the stream (meaningful where ``acting[t] >= 0``)."""

    advantages: np.ndarray   # float64[T]
    returns: np.ndarray      # float64[T]: advantage + value, the value target
    complete: np.ndarray     # bool[T]: reward and successor known
    rewards: np.ndarray      # float64[T]: the (shaped) reward of each transition


def house_advantages(acting: np.ndarray, values: np.ndarray, rewards: np.ndarray,
                     dones: np.ndarray, gamma: float, lam: float,
                     potentials: np.ndarray | None = None) -> Advantages:
    """GAE for every learner decision of one stream of ``T`` steps.

    :param acting: int[T]: the house that decided at step ``t`` when it is a learner's decision
        (learnt from now or kept from the last rollout), else -1 (an opponent's decision).
    :param values: float[T]: the value estimate at each decision.
    :param rewards: float[T, H]: what each house received on step ``t`` (after its action).
    :param dones: bool[T]: the game ended on step ``t`` (the next step starts a new game).
    :param potentials: float[T] or None: the shaping potential of the deciding house's
        observation at step ``t``; the transition's reward becomes ``r + gamma * Phi(s') -
        Phi(s)`` with ``Phi = 0`` at the end of a game, which leaves the optimal policy alone.
    """
    acting = np.asarray(acting)
    T = len(acting)
    values = np.asarray(values, dtype=np.float64)
    rewards = np.asarray(rewards, dtype=np.float64)
    dones = np.asarray(dones, dtype=bool)
    phi = np.zeros(T) if potentials is None else np.asarray(potentials, dtype=np.float64)
    successor = np.full(T, -1)      # the house's next decision, when no game end intervenes
    terminal = np.zeros(T, bool)
    complete = np.zeros(T, bool)
    reward = np.zeros(T)
    num_houses = rewards.shape[1] if rewards.ndim == 2 else 0
    open_step = [-1] * num_houses   # each house's decision waiting for its successor
    for t in range(T):
        h = int(acting[t])
        if h >= 0:
            prev = open_step[h]
            if prev >= 0:           # this decision completes the house's previous one
                successor[prev], complete[prev] = t, True
            open_step[h] = t
        for house in range(num_houses):  # rewards of step t go to each house's open decision
            if open_step[house] >= 0:
                reward[open_step[house]] += rewards[t, house]
        if dones[t]:
            for house in range(num_houses):
                s = open_step[house]
                if s >= 0:
                    terminal[s] = complete[s] = True
                open_step[house] = -1
    shaped = reward.copy()
    if potentials is not None:
        next_phi = np.where(terminal | (successor < 0), 0.0, phi[np.maximum(successor, 0)])
        shaped = reward + gamma * next_phi - phi
    adv = np.zeros(T)
    for t in range(T - 1, -1, -1):
        if acting[t] < 0 or not complete[t]:
            continue
        if terminal[t]:
            adv[t] = shaped[t] - values[t]
            continue
        u = successor[t]
        delta = shaped[t] + gamma * values[u] - values[t]
        adv[t] = delta + (gamma * lam * adv[u] if complete[u] else 0.0)
    return Advantages(advantages=adv, returns=adv + values, complete=complete, rewards=shaped)
