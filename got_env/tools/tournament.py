"""A Game of Thrones' tournament hooks (its plugin's ``tournament`` piece, read by
experiments.game_hooks; the decisions, the record and its saving are the defaults':
the env's :class:`boardkit.records.GameRecord`) (its result is the game's own,
``got_env.game.AGoTGame.result``); for the ladder its round limit and endings; for
experiments.play and terminal play the words of its score and the board picture."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def max_rounds(env: Any) -> int:
    return int(env.game_options["max_rounds"])


def endings() -> dict[str, str]:
    return {"seven-castles": "7 castles", "last-round": "last round"}


def score_label() -> str:
    return "castles/strongholds"


def replay_title() -> str:
    return "got_env replay"


def save_picture(env: Any, path: Path, observer: str | None = None) -> Any:
    # matplotlib: loaded only when a picture is saved
    from got_env.render.picture import save_board_png

    return save_board_png(env.game, path, observer=observer)
