"""Random play through the Game protocol, shared by the conformance tests and run as a script
by the same-digest-in-another-process test:

    python tests/conformance/play.py GAME VARIANT SEED STEPS   # prints the digests, one a line
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from boardkit import games


def options_of(name: str, variant: str) -> dict[str, Any]:
    """The options of one of the plugin's conformance variants (a fresh dict)."""
    return dict(games.plugin(name).variants[variant])


def random_play(name: str, variant: str, seed: int, steps: int) -> Iterator[Any]:
    """The live state before each of at most ``steps`` random actions (uniform over the
    pending decision's options, drawn from ``seed``), then the last state."""
    game = games.get(name)
    state = game.new_state(seed, options_of(name, variant))
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        decision = game.pending(state)
        if decision is None:
            break
        yield state
        game.apply(state, decision.options[int(rng.integers(len(decision.options)))])
    yield state


def digests(name: str, variant: str, seed: int, steps: int) -> list[str]:
    """The state's digest before each action of :func:`random_play`, and at its end."""
    game = games.get(name)
    return [game.digest(state) for state in random_play(name, variant, seed, steps)]


if __name__ == "__main__":
    game_name, variant_name, seed_text, steps_text = sys.argv[1:]
    print("\n".join(digests(game_name, variant_name, int(seed_text), int(steps_text))))
