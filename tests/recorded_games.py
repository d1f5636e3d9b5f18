"""Recorded games: the proof that an optimisation keeps results identical.

``python tests/recorded_games.py`` plays a fixed set of random games (every player count, with
and without Tides of Battle) and writes, for each, its actions and a running SHA-256 over
everything a user can see at every step: the state's digest, every house's observation, the
acting house's mask, the full-information ``state()``, rewards and infos. Checkpoints every
``EVERY`` steps locate a divergence. ``tests/test_recorded_games.py`` replays them with the
current code and demands the same hashes.

Re-record only when the rules change on purpose (say so in the commit), never to make an
optimisation pass.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

import got_env

PATH = Path(__file__).parent / "data" / "recorded_games.json"
EVERY = 50
GAMES = [  # (num_players, tides_of_battle, seed)
    (3, False, 11), (3, True, 12), (4, False, 13), (4, True, 14),
    (5, False, 15), (5, True, 16), (6, False, 17), (6, True, 18),
]


def step_bytes(e) -> bytes:
    """Everything observable after a step, as bytes."""
    parts = [e.game.digest().encode(), e.state().tobytes(), e.agent_selection.encode()]
    for a in e.possible_agents:
        obs = e.observe(a)
        parts += [obs["observation"].tobytes(), obs["action_mask"].tobytes()]
        parts.append(repr((e.rewards.get(a), e.terminations.get(a), e.truncations.get(a),
                           e.infos.get(a))).encode())
    return b"|".join(parts)


def play(num_players: int, tides: bool, seed: int, actions: list[int] | None = None) -> dict:
    """Play a game (random masked actions from ``seed``, or the given ``actions``) and hash it."""
    # infos as recorded: the readable format (the default numeric one is tested in test_env.py)
    e = got_env.raw_env(num_players=num_players, tides_of_battle=tides, info_format="text")
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    h = hashlib.sha256(step_bytes(e))
    played, checkpoints = [], []
    i = 0
    while e.game.pending is not None:
        if actions is None:
            a = int(rng.choice(e.legal_actions()))
        elif i < len(actions):
            a = actions[i]
        else:
            break
        e.step(a)
        played.append(a)
        h.update(step_bytes(e))
        i += 1
        if i % EVERY == 0:
            checkpoints.append(h.hexdigest())
    return {"num_players": num_players, "tides_of_battle": tides, "seed": seed,
            "actions": played, "checkpoints": checkpoints, "final": h.hexdigest()}


def main() -> None:
    games = [play(n, t, s) for n, t, s in GAMES]
    PATH.parent.mkdir(exist_ok=True)
    PATH.write_text(json.dumps({"every": EVERY, "games": games}) + "\n")
    print(f"wrote {PATH}: {len(games)} games, {sum(len(g['actions']) for g in games)} steps")


if __name__ == "__main__":
    main()
