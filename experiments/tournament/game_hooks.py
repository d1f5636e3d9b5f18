"""What a tournament reads from a finished game besides the protocol, per game: its result, how
many decisions it took, its replay page. Every game gets the kit's answers (the result from
:func:`boardkit.result.final_result`, the decisions from :meth:`boardkit.aec.KitEnv.record`, the
replay page of its :class:`boardkit.records.KitRecord`, drawn by the game's replay view or the
default text view, :mod:`experiments.replay`); a game whose env or protocol cannot give them
yet names a module of its own in :data:`HOOKS`, keyed by its registry name (imported on first
use), whose functions ``result``, ``decisions`` and ``write_replay`` stand in for the
defaults.

Why a table here and not the game's methods: a decision count and a replay page are the
tournament's needs, not the rules'; AGoT's entry holds just these (its result is the game's
own, :class:`boardkit.result.Ranked`).
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

from boardkit import games
from boardkit.result import Result, final_result

#: Registry name -> the module of the game's tournament hooks.
HOOKS: dict[str, str] = {"got": "experiments.tournament.got_hooks"}


@functools.cache
def _hooks(game: str) -> ModuleType | None:
    return importlib.import_module(HOOKS[game]) if game in HOOKS else None


def _hook(game: str, name: str) -> Any:
    return getattr(_hooks(game), name, None)


def result(game: str, env: Any) -> Result:
    """The result of the game ``env`` has just finished (player numbers of the protocol)."""
    hook = _hook(game, "result")
    if hook is not None:
        return hook(env)
    rules = games.get(game)
    players = [rules.player_index(env.game, a) for a in env.possible_agents]
    return final_result(rules, env.game, players)


def decisions(game: str, env: Any) -> int:
    """How many decisions (actions) the finished game took."""
    hook = _hook(game, "decisions")
    return hook(env) if hook is not None else len(env.record()["actions"])


def write_replay(game: str, env: Any, path: Path, title: str) -> None:
    """The finished game's replay page at ``path``: the game's hook, else the page of the kit
    record of the env's game (:meth:`boardkit.records.KitRecord.from_env`)."""
    hook = _hook(game, "write_replay")
    if hook is not None:
        hook(env, path, title)
        return
    from boardkit.records import KitRecord

    from ..replay import write_replay as write

    write(KitRecord.from_env(env), path, title=title)
