"""The observations and masks of random games, as digests: what tests/test_encoding_digests.py
compares with the fixture tests/fixtures/encoding_digests.json, recorded before the kit's codec
and layout replaced each game's own (issue 38, item 3), so that the change is proved to leave
every observation (every player's and the full view), every mask, and every action's index and
name as they were.

A state's digest is the SHA-256 (its first 8 hex digits) of its observations, in player order then
the full view, and of its mask; a codec's digest covers every index's decoded action and name.
Regenerate (only when an observation is meant to change): ``python -m tests.encoding_digests``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from boardkit import games

FIXTURE = Path(__file__).parent / "fixtures" / "encoding_digests.json"

#: (game, options, seeds, decisions per game): random games whose every state is digested
CASES: tuple[tuple[str, dict, tuple[int, ...], int], ...] = (
    ("got", {"ruleset": "2e", "num_players": 3}, (3, 4, 5), 1500),
    ("got", {"ruleset": "2e", "num_players": 4}, (9, 10, 11), 1500),
    ("got", {"ruleset": "2e", "num_players": 5}, (15, 16, 17), 1500),
    ("got", {"ruleset": "2e", "num_players": 6}, (21, 22, 23), 1500),
    ("got", {"ruleset": "1e", "num_players": 3}, (27, 28, 29), 1500),
    ("got", {"ruleset": "1e", "num_players": 4}, (33, 34, 35), 1500),
    ("got", {"ruleset": "1e", "num_players": 5}, (39, 40, 41), 1500),
    ("wotr", {"ruleset": "2e", "max_turns": 20}, (3, 4, 5), 1500),
    ("wotr", {"ruleset": "1e", "max_turns": 20}, (9, 10, 11), 1500),
    ("goofspiel", {"num_players": 3, "num_cards": 8}, (1, 2), 100),
)


def case_key(game: str, options: dict, seed: int) -> str:
    return f"{game} {json.dumps(options, sort_keys=True)} seed {seed}"


def _short(h: hashlib._Hash) -> str:
    return h.hexdigest()[:8]


def codec_digest(codec) -> str:
    """Every index's action (``decode``) and ``name``, and the codec's size."""
    h = hashlib.sha256(str(codec.size).encode())
    for i in range(codec.size):
        h.update(repr((codec.decode(i), codec.name(i))).encode())
    return _short(h)


def game_digests(game_name: str, options: dict, seed: int, decisions: int) -> list[str]:
    """The digest of every state of one random game (its first ``decisions`` decisions)."""
    game = games.get(game_name)
    state = game.new_state(seed, options)
    players = [game.player_index(state, p) for p in game.players(options)]
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(decisions):
        decision = game.pending(state)
        if decision is None:
            break
        encoder, codec = game.encoder(state), game.codec(state)
        h = hashlib.sha256()
        for observer in (*players, None):
            h.update(np.ascontiguousarray(encoder.encode(state, observer), np.float32).tobytes())
        options_ = decision.options
        h.update(np.asarray(codec.mask(options_), np.int8).tobytes())
        out.append(_short(h))
        game.apply(state, options_[int(rng.integers(len(options_)))])
    return out


def codec_digests() -> dict[str, str]:
    """Each game's and ruleset's codec digest."""
    out = {}
    for game_name, options, _, _ in CASES:
        game = games.get(game_name)
        state = game.new_state(0, options)
        out[f"{game_name} {options.get('ruleset', '')}".strip()] = \
            codec_digest(game.codec(state))
    return out


def bounds_digests() -> dict[str, str]:
    """Each game's and ruleset's observation bounds (``encoder.high``, which gives ``size``)."""
    out = {}
    for game_name, options, _, _ in CASES:
        game = games.get(game_name)
        state = game.new_state(0, options)
        high = np.asarray(game.encoder(state).high, np.float32)
        key = f"{game_name} {json.dumps(options, sort_keys=True)}"
        out[key] = _short(hashlib.sha256(high.tobytes()))
    return out


def compute() -> dict:
    states = {case_key(g, o, s): game_digests(g, o, s, n) for g, o, seeds, n in CASES
              for s in seeds}
    return {"codecs": codec_digests(), "bounds": bounds_digests(), "states": states}


if __name__ == "__main__":
    data = compute()
    data["states"] = {k: " ".join(v) for k, v in data["states"].items()}  # one line a game
    FIXTURE.write_text(json.dumps(data, indent=1) + "\n")
    print(sum(len(v.split()) for v in data["states"].values()), "states", file=sys.stderr)
