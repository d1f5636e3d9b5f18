"""Goofspiel's PettingZoo AEC env: the kit's :class:`boardkit.aec.KitEnv` over :data:`GAME`, with
all that the kit's env gives (order enforcing, legal sampling, the ``zero_sum`` and ``rank``
rewards, truncation, text infos, the text render)."""

from __future__ import annotations

from boardkit.aec import KitEnv
from boardkit.order import OrderEnforcing

from .game import GAME


class raw_env(KitEnv):  # noqa: N801  (PettingZoo's naming)
    """``raw_env(num_players=2, num_cards=13, max_steps=None, render_mode=None,
    reward="zero_sum", max_cycles=None)``: the env options as the kit's env takes them
    (:data:`boardkit.aec.ENV_OPTIONS`; ``max_steps`` and ``max_cycles`` are one option under
    two names)."""

    metadata = {**KitEnv.metadata, "name": "goofspiel_v0"}

    def __init__(self, num_players: int = 2, num_cards: int = 13, max_steps: int | None = None,
                 render_mode: str | None = None, reward: str = "zero_sum",
                 max_cycles: int | None = None):
        cut = {k: v for k, v in (("max_steps", max_steps), ("max_cycles", max_cycles))
               if v is not None}
        super().__init__(GAME, {"num_players": num_players, "num_cards": num_cards},
                         render_mode=render_mode, reward=reward, **cut)


def env(**kwargs: object) -> OrderEnforcing:
    """The wrapped env (the kit's order enforcing), as ``got_env.env`` is."""
    return OrderEnforcing(raw_env(**kwargs))  # type: ignore[arg-type]
