"""Goofspiel's state and rules: N cards per hand (values 1..N), a prize deck shuffled by the
seed; each turn every player bids one card of their hand, secretly (asked one at a time, in seat
order, hidden until all have bid); the highest unique bid wins the prize's value, ties discard
it; the game ends when the hands are empty.

Cards and prizes are indices 0..N-1 (value = index + 1). A bid stays in its hand until the
reveal, so a hand is always public knowledge: the cards not yet revealed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from boardkit import Decision, IllegalActionError, Kind

BID = Kind("bid")
MIN_PLAYERS, MAX_PLAYERS = 2, 4
#: The hand sizes a game takes: cards, bids and prizes are int8 indices, and the observation
#: grows with the square of the hand, so a bound keeps a bad option from overflowing mid-game
#: (200 cards) or exhausting memory (10**9) instead of failing at once.
MIN_CARDS, MAX_CARDS = 1, 100


class OptionError(ValueError):
    """A Goofspiel option that the game does not take; the message names it and its range."""


def check_sizes(num_players: object, num_cards: object) -> tuple[int, int]:
    """``(num_players, num_cards)``, each an integer (not a bool) in its range
    (:data:`MIN_PLAYERS`..:data:`MAX_PLAYERS`, :data:`MIN_CARDS`..:data:`MAX_CARDS`), or an
    :class:`OptionError` naming the option and the range."""
    out = []
    for name, value, lo, hi in (("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS),
                                ("num_cards", num_cards, MIN_CARDS, MAX_CARDS)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
                or not lo <= value <= hi:
            raise OptionError(f"Goofspiel's {name} must be an integer in {lo}..{hi}, "
                              f"got {value!r}")
        out.append(int(value))
    return out[0], out[1]


@dataclass(eq=False)
class State:
    """One game. ``prizes``: the deck's order; ``turn``: the current prize is
    ``prizes[turn]``; ``hands``: bool[player, card]; ``bids``: this turn's bids (-1: none yet);
    ``played``: int[turn, player], the revealed bids; ``points``: won so far."""

    prizes: np.ndarray
    hands: np.ndarray
    bids: np.ndarray
    played: np.ndarray
    points: np.ndarray
    turn: int = 0
    pending: Decision | None = field(default=None)

    @property
    def num_players(self) -> int:
        return self.hands.shape[0]

    @property
    def num_cards(self) -> int:
        return self.hands.shape[1]

    def clone(self) -> State:
        return State(self.prizes.copy(), self.hands.copy(), self.bids.copy(),
                     self.played.copy(), self.points.copy(), self.turn, self.pending)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.prizes, self.hands, self.bids, self.played, self.points


def new_state(num_players: int = 2, num_cards: int = 13, seed: int | None = None) -> State:
    """A new game, its first bid pending (:class:`OptionError` for sizes out of range)."""
    num_players, num_cards = check_sizes(num_players, num_cards)
    prizes = np.random.default_rng(seed).permutation(num_cards).astype(np.int8)
    s = State(prizes, np.ones((num_players, num_cards), bool),
              np.full(num_players, -1, np.int8), np.full((num_cards, num_players), -1, np.int8),
              np.zeros(num_players, np.int32))
    ask(s)
    return s


def ask(s: State) -> None:
    """The next pending decision: the first player who has not bid this turn, or None."""
    waiting = np.flatnonzero(s.bids < 0)
    if s.turn >= s.num_cards or waiting.size == 0:
        s.pending = None
        return
    p = int(waiting[0])
    s.pending = Decision(p, BID, tuple(int(c) for c in np.flatnonzero(s.hands[p])), secret=True)


def apply(s: State, card: int) -> None:
    """Player ``pending.player`` bids ``card``; the last bid of a turn reveals and scores it."""
    d = s.pending
    if d is None or card not in d.options:
        raise IllegalActionError(f"bid {card!r} is not legal now (options: "
                                 f"{None if d is None else d.options})")
    s.bids[d.player] = card
    if (s.bids >= 0).all():
        reveal(s)
    ask(s)


def reveal(s: State) -> None:
    """All have bid: the highest unique bid wins the prize's value (ties discard it)."""
    bids = s.bids
    values, counts = np.unique(bids, return_counts=True)
    unique = values[counts == 1]
    if unique.size:
        s.points[int(np.flatnonzero(bids == unique.max())[0])] += int(s.prizes[s.turn]) + 1
    s.hands[np.arange(s.num_players), bids] = False
    s.played[s.turn] = bids
    s.bids = np.full(s.num_players, -1, np.int8)
    s.turn += 1
