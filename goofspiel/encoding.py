"""Goofspiel's action codec (an action is a card index, its own index: the kit's IndexCodec)
and observation encoder (its pieces in the kit's layout, :func:`layout`).

An observation of player p, seats counted from p: its hand, its own bid this turn, the current
prize, the prizes already won or discarded, every player's points and the cards every player
has revealed. Never another player's unrevealed bid (tests/test_goofspiel.py checks this)."""

from __future__ import annotations

import functools

import numpy as np

from boardkit.codec import IndexCodec
from boardkit.layout import Layout, Piece

from .rules import State


def layout(num_players: int, num_cards: int) -> Layout:
    """The observation's pieces: N cards, P players (seats counted from the observer)."""
    n, p = num_cards, num_players
    return Layout((
        Piece("hand", (n,), doc="own cards still in hand"),
        Piece("bid", (n,), doc="own bid this turn"),
        Piece("prize", (n,), doc="the prize card up for bids"),
        Piece("prizes_seen", (n,), doc="the prizes already won or discarded"),
        Piece("points", (p,), n * (n + 1) / 2, "every player's points"),
        Piece("revealed", (p, n), doc="the cards every player has revealed"),
    ))


class Encoder:
    """float32 features: hand, own bid, prize, prizes seen (N each), points (P), revealed (P*N)."""

    def __init__(self, num_players: int, num_cards: int):
        self.num_players, self.num_cards = num_players, num_cards
        self.layout = layout(num_players, num_cards)
        self.size = self.layout.size
        self.high = self.layout.high

    def encode(self, s: State, observer: int | None) -> np.ndarray:
        """``observer`` None: the position as nobody sees it (no bids, no hand)."""
        n, order = s.num_cards, np.roll(np.arange(s.num_players), -(observer or 0))
        hand, bid, prize, seen = (np.zeros(n, np.float32) for _ in range(4))
        if observer is not None:
            hand[s.hands[observer]] = 1
            if s.bids[observer] >= 0:
                bid[s.bids[observer]] = 1
        if s.turn < n:
            prize[s.prizes[s.turn]] = 1
        seen[s.prizes[:s.turn]] = 1
        revealed = ~s.hands[order]
        return np.concatenate([hand, bid, prize, seen, s.points[order].astype(np.float32),
                               revealed.ravel().astype(np.float32)])


@functools.cache
def codec_for(num_cards: int) -> IndexCodec:
    return IndexCodec(num_cards, lambda card: f"bid {card + 1}")


@functools.cache
def encoder_for(num_players: int, num_cards: int) -> Encoder:
    return Encoder(num_players, num_cards)
