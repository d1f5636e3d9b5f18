"""What the tools that play games (a tournament, the ladder, ``experiments.play``, terminal play)
read from a finished game besides the protocol, per game: its result, how many decisions it
took, its replay page, its record and picture saved. It sits beside those tools, not in one of
them, since each of them reads it (the trainer's own hooks are :mod:`experiments.training.
game_hooks`). Every game gets the kit's answers (the result from
:func:`boardkit.result.final_result`, the decisions from the env's ``record``, the
replay page of that :class:`boardkit.records.GameRecord`, drawn by the game's replay view or the
default text view, :mod:`experiments.replay`); a game whose env or protocol cannot give them
yet gives a module of its own as its plugin's ``tournament`` piece
(:class:`boardkit.plugin.GamePlugin`, loaded on first use), whose functions ``result``,
``decisions`` and ``record`` stand in for the defaults.

Why a table here and not the game's methods: a decision count and a replay page are the
tournament's needs, not the rules'; AGoT's entry holds just these (its result is the game's
own, :class:`boardkit.result.Ranked`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardkit import games
from boardkit.result import Result, final_result

from .replay import write_replay as write_replay_page


def _hook(game: str, name: str) -> Any:
    return games.plugin(game).hook("tournament", name)


def result(game: str, env: Any) -> Result:
    """The result of the game ``env`` has just finished (player numbers of the protocol). A
    game cut off by a limit of its own options (War of the Ring's ``max_turns``) has no outcome:
    its result is where it stood, as the env's infos give it (:class:`boardkit.aec.KitEnv`):
    the players ranked by the game's ``standing`` (ties in seat order), no draw, the standing
    as the scores, reason ``"truncated"``."""
    hook = _hook(game, "result")
    if hook is not None:
        return hook(env)
    rules = games.get(game)
    players = [rules.player_index(env.game, a) for a in env.possible_agents]
    if rules.outcome(env.game) is None and rules.pending(env.game) is None:
        standing = rules.standing(env.game)
        ranking = tuple(sorted(players, key=lambda p: -standing[p]))
        return Result(ranking, (), {p: round(float(standing[p]), 4) + 0.0 for p in players},
                      "truncated")
    return final_result(rules, env.game, players)


def decisions(game: str, env: Any) -> int:
    """How many decisions (actions) the finished game took."""
    hook = _hook(game, "decisions")
    return hook(env) if hook is not None else len(env.record.actions)


def write_replay(game: str, env: Any, path: Path, title: str) -> Any:
    """The finished game's replay page at ``path``, of the game's own record (its ``record``
    hook), else of the env's record (:class:`boardkit.records.GameRecord`); returns what the
    replay writer returns (its figures: bytes, seconds), for a tool that reports them."""
    hook = _hook(game, "record")
    return write_replay_page(env.record if hook is None else hook(env), path, title=title)


# -- what the ladder, experiments.play and terminal play read besides ----------------------------
def max_rounds(game: str, env: Any) -> int:
    """The last round the env's games can reach (the ladder's length histograms), 0 where the
    game has no fixed limit (the histogram then runs to the longest game played)."""
    hook = _hook(game, "max_rounds")
    return int(hook(env)) if hook is not None else 0


def endings(game: str) -> dict[str, str]:
    """The reasons a game of ``game`` ends that the ladder's length tables always show, each
    with its column label, first the one whose games its histogram marks (AGoT: seven castles,
    then the last round); empty: the reasons the games recorded, by name."""
    hook = _hook(game, "endings")
    return dict(hook()) if hook is not None else {}


def score_label(game: str) -> str:
    """What a result's scores count, in words (AGoT: castles/strongholds)."""
    hook = _hook(game, "score_label")
    return str(hook()) if hook is not None else "points"


def replay_title(game: str) -> str:
    """The start of a single game's replay page title (experiments.play)."""
    hook = _hook(game, "replay_title")
    return str(hook()) if hook is not None else f"{game} replay"


def save_record(game: str, env: Any, path: Path) -> None:
    """Save the (possibly unfinished) game ``env`` plays to ``path``: the game's hook, else the
    env's record (:class:`boardkit.records.GameRecord`)."""
    hook = _hook(game, "save_record")
    if hook is not None:
        hook(env, path)
        return
    env.record.save(path)


def save_picture(game: str, env: Any, path: Path, observer: str | None = None) -> Path | None:
    """A picture of the board at ``path`` (as ``observer`` sees it: None, all of it), for a
    game that draws one; None for a game without pictures."""
    hook = _hook(game, "save_picture")
    return None if hook is None else Path(hook(env, path, observer))
