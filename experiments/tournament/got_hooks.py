"""A Game of Thrones' hooks (:mod:`.game_hooks`): the decisions, the record and the replay page
from the env's record (:class:`boardkit.records.GameRecord`) (its result is the game's own,
``got_env.game.AGoTGame.result``); for the ladder its round limit and endings; for
experiments.play and terminal play the words of its score and the board picture."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def decisions(env: Any) -> int:
    return len(env.record.actions)


def write_replay(env: Any, path: Path, title: str) -> Any:
    from ..replay import write_replay as write

    return write(env.record, path, title=title)


def max_rounds(env: Any) -> int:
    return int(env.game_options["max_rounds"])


def endings() -> dict[str, str]:
    return {"seven-castles": "7 castles", "last-round": "last round"}


def score_label() -> str:
    return "castles/strongholds"


def replay_title() -> str:
    return "got_env replay"


def save_record(env: Any, path: Path) -> None:
    env.record.save(path)


def save_picture(env: Any, path: Path, observer: str | None = None) -> Any:
    from got_env.render import save_board_png

    return save_board_png(env.game, path, observer=observer)
