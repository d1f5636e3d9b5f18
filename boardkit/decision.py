"""A plain pending decision and the error for an action that is not one of its options, for a
game on the kit that needs nothing more (Goofspiel). AGoT keeps its own, compiled with its
engine (``got_env.engine.decision``), which satisfies the same :class:`~boardkit.protocol.
Decision` protocol."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Kind:
    """A kind of decision, by its ``label`` (what infos and logs call it)."""

    label: str


@dataclass(frozen=True)
class Decision:
    """``player`` must choose one of ``options``; ``secret``: hidden from the others until the
    game reveals it."""

    player: int
    kind: Kind
    options: tuple[Any, ...]
    secret: bool = False

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError(f"{self.kind.label} for player {self.player} has no legal option")


class IllegalActionError(ValueError):
    """An action that is not among the pending decision's options; the state is unchanged."""
