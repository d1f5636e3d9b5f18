"""Goofspiel as a :class:`boardkit.protocol.Game` (:data:`GAME`, ``boardkit.games.get(
"goofspiel")``). Options: ``num_players`` (2), ``num_cards`` (13). Hidden from a player: the
other players' bids of this turn until the reveal, and the order of the prizes still to come
(what :meth:`Goofspiel.determinize` draws again)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from boardkit import Decision, Model
from boardkit.codec import IndexCodec

from . import rules
from .encoding import Encoder, codec_for, encoder_for
from .rules import BID, State

#: The game's options and their defaults (the env's own options are not the game's).
DEFAULTS: dict[str, int] = {"num_players": 2, "num_cards": 13}


def _sizes(options: Mapping[str, Any]) -> tuple[int, int]:
    """The checked ``(num_players, num_cards)`` of ``options``: an unknown option or a value
    out of range raises :class:`rules.OptionError` naming it, before any state is made."""
    unknown = sorted(set(options) - set(DEFAULTS), key=str)
    if unknown:
        raise rules.OptionError(f"unknown Goofspiel option(s) {unknown} (options: "
                                f"{list(DEFAULTS)})")
    return rules.check_sizes(options.get("num_players", DEFAULTS["num_players"]),
                             options.get("num_cards", DEFAULTS["num_cards"]))


class Goofspiel:
    """Goofspiel through the protocol: players are seats 0..P-1, named ``player_<i>``."""

    name = "goofspiel"

    def players(self, options: Mapping[str, Any]) -> list[str]:
        """The seats of ``options``' player count (checked; the other keys are not read here:
        tools pass the env's options too, which the env itself checks)."""
        count, _ = rules.check_sizes(options.get("num_players", DEFAULTS["num_players"]),
                                     DEFAULTS["num_cards"])
        return [f"player_{i}" for i in range(count)]

    def new_state(self, seed: int | None, options: Mapping[str, Any]) -> State:
        return rules.new_state(*_sizes(options), seed=seed)

    def scenario(self, spec: Mapping[str, Any]) -> State:
        """``prizes``: the deck's order (card values, first prize first); ``played``: the bids
        (values) of the turns already played, one list per turn."""
        prizes = [v - 1 for v in spec["prizes"]]
        s = rules.new_state(spec.get("num_players", DEFAULTS["num_players"]), len(prizes))
        s.prizes[:] = prizes
        for turn in spec.get("played", []):
            for value in turn:
                rules.apply(s, value - 1)
        return s

    def pending(self, state: State) -> Decision | None:
        return state.pending

    def apply(self, state: State, action: int) -> None:
        rules.apply(state, action)

    def clone(self, state: State) -> State:
        return state.clone()

    def round(self, state: State) -> int:
        return state.turn

    def outcome(self, state: State) -> np.ndarray | None:
        return None if state.pending is not None else state.points.astype(np.float64)

    def standing(self, state: State) -> np.ndarray:
        """Points won so far (a prize still to come is anyone's)."""
        return state.points.astype(np.float64)

    def determinize(self, state: State, observer: int, rng: np.random.Generator,
                    model: Model | None = None) -> State:
        """The prizes to come shuffled, others' bids of this turn cleared and bid again (by
        ``model``, else uniformly from their hands, which are public) in seat order."""
        rng = np.random.default_rng(rng)
        s = state.clone()
        s.prizes[s.turn + 1:] = rng.permutation(np.sort(s.prizes[s.turn + 1:]))
        others = [p for p in np.flatnonzero(s.bids >= 0) if p != observer]
        s.bids[others] = -1
        for p in others:
            d = Decision(int(p), BID, tuple(int(c) for c in np.flatnonzero(s.hands[p])), True)
            s.bids[p] = model(s, d, rng) if model is not None else \
                d.options[int(rng.integers(len(d.options)))]
        return s

    def codec(self, state: State) -> IndexCodec:
        return codec_for(state.num_cards)

    def encoder(self, state: State) -> Encoder:
        return encoder_for(state.num_players, state.num_cards)

    def player_name(self, state: State, player: int) -> str:
        return f"player_{player}"

    def player_index(self, state: State, name: str) -> int:
        return int(name.removeprefix("player_"))

    def digest(self, state: State) -> str:
        h = hashlib.sha256(str(state.turn).encode())
        for a in state.arrays():
            h.update(a.tobytes())
        return h.hexdigest()[:16]

    def text(self, state: State, observer: int | None = None) -> str:
        """The prize, the points, the bids revealed so far (public), and the hand and bid of
        ``observer`` only (None: every player's): another player's bid of this turn is never
        in a player's text (the replay viewer's player views show this text)."""
        n = state.num_cards
        prize = f"prize {state.prizes[state.turn] + 1}" if state.turn < n else "game over"
        lines = [f"turn {state.turn + 1}/{n}: {prize}; points {state.points.tolist()}"]
        for turn in range(state.turn):
            bids = [int(b) + 1 for b in state.played[turn]]
            lines.append(f"turn {turn + 1}: prize {state.prizes[turn] + 1}, bids {bids}")
        for p in range(state.num_players):
            if observer is None or observer == p:
                hand = [int(c) + 1 for c in np.flatnonzero(state.hands[p])]
                bid = int(state.bids[p])
                lines.append(f"player_{p}: hand {hand}, bid {bid + 1 if bid >= 0 else '-'}")
        return "\n".join(lines)


#: The game ``boardkit.games.get("goofspiel")`` returns.
GAME = Goofspiel()
