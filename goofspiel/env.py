"""Goofspiel's PettingZoo AEC env: the kit's :class:`boardkit.aec.KitEnv` over :data:`GAME`."""

from __future__ import annotations

from pettingzoo.utils import wrappers

from boardkit.aec import KitEnv

from .game import GAME


class raw_env(KitEnv):  # noqa: N801  (PettingZoo's naming)
    """``raw_env(num_players=2, num_cards=13, max_steps=None, render_mode=None)``."""

    metadata = {**KitEnv.metadata, "name": "goofspiel_v0"}

    def __init__(self, num_players: int = 2, num_cards: int = 13, max_steps: int | None = None,
                 render_mode: str | None = None):
        super().__init__(GAME, {"num_players": num_players, "num_cards": num_cards},
                         max_steps=max_steps, render_mode=render_mode)


def env(**kwargs: object) -> wrappers.OrderEnforcingWrapper:
    """The wrapped env (PettingZoo's order enforcing), as ``got_env.env`` is."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
