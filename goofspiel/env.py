"""Goofspiel's PettingZoo AEC env: the kit's :class:`boardkit.aec.KitEnv` over :data:`GAME`, with
all that the kit's env gives (order enforcing, legal sampling, the ``zero_sum`` and ``rank``
rewards, truncation, text infos, the text render)."""

from __future__ import annotations

from typing import Any

from boardkit.aec import KitEnv
from boardkit.order import OrderEnforcing

from .game import GAME
from .rules import OptionError


class raw_env(KitEnv):  # noqa: N801  (PettingZoo's naming)
    """``raw_env(num_players=2, num_cards=13, **env_options)``: the game's two options (checked
    here: :class:`goofspiel.rules.OptionError` naming a value out of range), and the
    kit env's own (:data:`boardkit.aec.ENV_OPTIONS`: ``reward``, ``max_steps``/``max_cycles``,
    ``render_mode``, ``info_format``)."""

    metadata = {**KitEnv.metadata, "name": "goofspiel_v0"}
    option_error = OptionError  # the game's options and the env's: one error, as AGoT's

    def __init__(self, num_players: int = 2, num_cards: int = 13, **env_options: Any):
        super().__init__(GAME, {"num_players": num_players, "num_cards": num_cards},
                         **env_options)


def env(**kwargs: Any) -> OrderEnforcing:
    """The wrapped env (the kit's order enforcing), as ``got_env.env`` is."""
    return OrderEnforcing(raw_env(**kwargs))  # type: ignore[arg-type]
