"""The Game protocol: what a game-neutral tool (a search agent, an env base, a script) needs from
a game, and nothing more, so that one tool serves every game built on the kit (DESIGN.md, "Two
games, one kit"; docs/kit.md).

A game is a stateless object whose methods take and change a mutable *state* (the game's own
type: AGoT's ``GameState``, Goofspiel's numpy arrays); the state carries its rules variant, so a
method never needs more than the state. Players are numbered by ``Decision.player`` (for AGoT a
house index of the ruleset, not a seat number) and named by :meth:`Game.player_name` (the
PettingZoo agent names). Every per-player vector (:meth:`Game.outcome`, :meth:`Game.standing`)
is indexed by that number.

Optional members, which a tool reads with ``getattr`` and a default (so that a new game needs
none of them to start): ``default_policy`` (an agent registry name IS-MCTS rolls out with, else
random rollouts) and ``result(state)`` (:class:`boardkit.result.Ranked`). What a tool needs
besides the rules (the env, agents, views, hooks) is the game's plugin's
(:class:`boardkit.plugin.GamePlugin`).

Decisions and actions are the engine's surface towards players (one pending :class:`Decision` at
a time, an action is one of its options); the codec turns an action into an index of the fixed
action space and back, the encoder a state into one player's observation vector.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np

#: An action: a hashable value, one of a decision's options (AGoT: a tuple such as ("bid", 3)).
Action = Hashable
S = TypeVar("S")


class DecisionKind(Protocol):
    """What kind of choice a decision is; ``label`` names it in infos and logs."""

    @property
    def label(self) -> str: ...


@runtime_checkable
class Decision(Protocol):
    """The one pending choice of a game: ``player`` chooses one of ``options`` (nothing else is
    legal); ``secret``: the choice stays hidden from the other players until the game reveals
    it (a search must not branch on another player's secret choice; an env asks it anyway)."""

    @property
    def player(self) -> int: ...
    @property
    def kind(self) -> DecisionKind: ...
    @property
    def options(self) -> Sequence[Action]: ...
    @property
    def secret(self) -> bool: ...


class Codec(Protocol):
    """Actions <-> indices of the fixed action space of ``size`` indices."""

    @property
    def size(self) -> int: ...
    def encode(self, action: Action) -> int: ...
    def decode(self, index: int) -> Action: ...
    def mask(self, options: Sequence[Action]) -> np.ndarray: ...  # int8[size], 1 = legal
    def name(self, index: int) -> str: ...


class Encoder(Protocol):
    """States -> one player's observation: float32[size], everything it may know and nothing
    else; ``high``: the upper bounds of the features (the observation space is [0, high])."""

    @property
    def size(self) -> int: ...
    @property
    def high(self) -> np.ndarray: ...
    def encode(self, state: Any, observer: int | None) -> np.ndarray: ...


#: How a determinization re-makes other players' hidden choices: ``(state, decision, rng)``.
Model = Callable[[Any, Decision, np.random.Generator], Action]


@runtime_checkable
class Game(Protocol[S]):
    """A game as the tools see it. ``name``: its registry name (:mod:`boardkit.games`)."""

    name: str

    # -- setting up
    def players(self, options: Mapping[str, Any]) -> list[str]:
        """The names of the seats of a game of these options, in seat order (the env's
        ``possible_agents``), before any state exists."""
        ...

    def new_state(self, seed: int | None, options: Mapping[str, Any]) -> S:
        """A new game, run to its first decision; chance is drawn from ``seed`` only."""
        ...

    def scenario(self, spec: Mapping[str, Any]) -> S:
        """A state built from a position description (tests, puzzles, a search's start)."""
        ...

    # -- playing
    def pending(self, state: S) -> Decision | None:
        """The decision the game waits for; None once it has ended."""
        ...

    def apply(self, state: S, action: Action) -> None:
        """Play one of the pending decision's options (a ValueError for anything else, the
        state unchanged) and run the game on to its next decision."""
        ...

    def clone(self, state: S) -> S:
        """An independent copy: a search plays on it, the true state stays as it is."""
        ...

    def round(self, state: S) -> int:
        """A counter of the game's rounds, which a search may roll out to the end of."""
        ...

    # -- scoring
    def outcome(self, state: S) -> np.ndarray | None:
        """None while the game is on; then float[player]: the final scores, higher is better
        (the game's own: AGoT 1 for the winner and 1/k for each of k drawn houses, Goofspiel
        the points won); :func:`boardkit.outcome.win_shares` makes shares of the win of
        them."""
        ...

    def standing(self, state: S) -> np.ndarray:
        """float[player]: a heuristic score of each player's position, higher is better (-inf
        for a player not in the game): what a search values a position it stops at by."""
        ...

    # -- information
    def determinize(self, state: S, observer: int, rng: np.random.Generator,
                    model: Model | None = None) -> S:
        """A copy with everything ``observer`` cannot know drawn again, consistently with its
        observation, and a function of that observation only (so a search reading the game
        through it cannot use hidden information); ``model`` re-makes others' hidden choices
        (None: uniformly)."""
        ...

    def codec(self, state: S) -> Codec:
        """The action codec of the state's rules variant (the same object for every state)."""
        ...

    def encoder(self, state: S) -> Encoder:
        """The observation encoder of the state's rules variant."""
        ...

    def player_name(self, state: S, player: int) -> str:
        """The agent name of player number ``player``."""
        ...

    def player_index(self, state: S, name: str) -> int:
        """The player number of agent ``name``."""
        ...

    def digest(self, state: S) -> str:
        """A short hash of the whole state: equal digests, equal games (records, tests)."""
        ...

    def text(self, state: S, observer: int | None = None) -> str:
        """The position in words, as ``observer`` sees it (None: everything)."""
        ...
