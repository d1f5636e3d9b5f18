"""A Game of Thrones' tournament hooks (:mod:`.game_hooks`): the decisions and the replay page
from the env's :class:`got_env.GameRecord` (its result is the game's own,
``got_env.game.AGoTGame.result``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def decisions(env: Any) -> int:
    return len(env.record.actions)


def write_replay(env: Any, path: Path, title: str) -> None:
    from ..replay import write_replay as write

    write(env.record, path, title=title)
