"""The pending decision of every game on the kit, and the error for an action that is not one of
its options.

:class:`Decision` is the one decision class of the kit's games (AGoT, War of the Ring,
Goofspiel): who chooses, what kind of choice it is, its legal options, whether it is secret or
private, and its context. Its ``kind`` is anything with a ``label`` (the name infos and logs
use): :class:`Kind` for a game that needs nothing more (Goofspiel), a game's own enum otherwise
(AGoT's numbered ``DecisionKind``, War of the Ring's ``WD``).

:class:`IllegalActionError` is the one class every game, env and batch raises for an illegal
action (``got_env.engine.IllegalActionError`` is this class), so that one ``except`` catches it
wherever it comes from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class Labelled(Protocol):
    """A kind of decision: anything with a ``label`` (an enum with a ``label`` property, or
    :class:`Kind`)."""

    @property
    def label(self) -> str: ...


@dataclass(frozen=True)
class Kind:
    """A kind of decision, by its ``label`` (what infos and logs call it)."""

    label: str


@dataclass(frozen=True, init=False)
class Decision:
    """``player`` must choose one of ``options`` (a stable order; nothing else is legal);
    ``kind``: what kind of choice (anything with a ``label``); ``secret``: hidden from the
    others until the game reveals it; ``private``: the options read what only ``player`` knows
    (his hand), so the question is asked even with one option left (played by itself, it would
    tell the others how many he had); ``context``: what it is about (a region, a battle's
    sides), as plain values, for infos and logs (not compared)."""

    player: int
    kind: Labelled
    options: tuple[Any, ...]
    secret: bool = False
    private: bool = False
    context: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __init__(self, player: int, kind: Labelled, options: tuple[Any, ...],
                 secret: bool = False, private: bool = False,
                 context: dict[str, Any] | None = None) -> None:
        """As the dataclass's own ``__init__`` (the same fields and defaults), written out: a
        game builds one at every step that asks, and a frozen dataclass sets each field
        through ``object.__setattr__``, several times slower than filling ``__dict__`` at
        once."""
        if not options:
            raise ValueError(f"{kind.label} for player {player} has no legal option")
        self.__dict__.update(player=player, kind=kind, options=options, secret=secret,
                             private=private, context={} if context is None else context)

    def __contains__(self, action: object) -> bool:
        # A plain scan: a decision is checked once or twice (env, then engine), and scanning
        # even a hundred small tuples costs less than hashing them into a set.
        return action in self.options


class IllegalActionError(ValueError):
    """An action that is not among the pending decision's options (or not an action index of
    the env's space); the state is unchanged. A ValueError, as :meth:`boardkit.protocol.Game.
    apply` promises for anything but an option."""
