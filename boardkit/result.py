"""A finished game's result as a tool reports it (a tournament's records, ratings): who placed
where, who shared a draw, each player's final score and why the game ended.

:meth:`Game.outcome` alone cannot say it for every game: AGoT's outcome is 1 for the winner and
0 for every other house, but its rules rank all houses (castles, then supply, then power) and
its score of record is the castles held, not the outcome. So a game may provide the optional
:meth:`Ranked.result`; :func:`final_result` reads it, or else derives the result from
``outcome`` (the scores, ranked highest first: Goofspiel's points).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .protocol import Game


@dataclass(frozen=True)
class Result:
    """``ranking``: player numbers, first to last (only those in the game); ``draw``: the
    players sharing first place, () when one won alone; ``scores``: player -> its final score
    of record (AGoT: castles and strongholds held; Goofspiel: points); ``reason``: why it
    ended, in a word."""

    ranking: tuple[int, ...]
    draw: tuple[int, ...]
    scores: Mapping[int, float]
    reason: str


@runtime_checkable
class Ranked(Protocol):
    """The optional member of :class:`boardkit.protocol.Game` that gives the full result of a
    finished game, for games whose ``outcome`` does not rank every player."""

    def result(self, state: Any) -> Result: ...


def final_result(game: Game, state: Any, players: Sequence[int]) -> Result:
    """The result of the finished game ``state`` among ``players`` (player numbers): the
    game's own (:class:`Ranked`), or its outcome's scores ranked highest first, ties in the
    order of ``players``, a tie for the top a draw. ValueError while the game is on."""
    if isinstance(game, Ranked):
        return game.result(state)
    scores = game.outcome(state)
    if scores is None:
        raise ValueError("the game has not ended: it has no result")
    ranking = tuple(sorted(players, key=lambda p: -scores[p]))
    top = [p for p in ranking if scores[p] == scores[ranking[0]]]
    return Result(ranking, tuple(top) if len(top) > 1 else (),
                  {p: float(scores[p]) for p in players}, "end")
