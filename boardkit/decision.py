"""A plain pending decision, and the error for an action that is not one of its options.

:class:`Decision` and :class:`Kind` serve a game on the kit that needs nothing more (Goofspiel);
AGoT keeps its richer ``Decision`` (a context, numbered kinds: ``got_env.engine.decision``),
which satisfies the same structural :class:`~boardkit.protocol.Decision`.

:class:`IllegalActionError` is the one class every game, env and batch raises for an illegal
action (``got_env.engine.IllegalActionError`` is this class), so that one ``except`` catches it
wherever it comes from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Kind:
    """A kind of decision, by its ``label`` (what infos and logs call it)."""

    label: str


@dataclass(frozen=True)
class Decision:
    """``player`` must choose one of ``options``; ``secret``: hidden from the others until the
    game reveals it; ``private``: the options read what only ``player`` knows (his hand), so
    the question is asked even with one option left (played by itself, it would tell the
    others how many he had); ``context``: what it is about."""

    player: int
    kind: Kind
    options: tuple[Any, ...]
    secret: bool = False
    private: bool = False
    # what the choice is about (a region, a battle's sides), as plain values: for infos and logs
    context: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError(f"{self.kind.label} for player {self.player} has no legal option")


class IllegalActionError(ValueError):
    """An action that is not among the pending decision's options (or not an action index of
    the env's space); the state is unchanged. A ValueError, as :meth:`boardkit.protocol.Game.
    apply` promises for anything but an option."""
