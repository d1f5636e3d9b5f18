"""The heuristics play exactly as they did: seeded games whose every chosen action index and
final state are hashed, against hashes taken from the code before it was reorganised into
``got_env/agents/heuristic/`` (issue 25). A change of any rule, constant or tie-break changes a
hash; a change meant to alter play must update these literals on purpose."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest

import got_env
from agents import RandomAgent
from got_env.agents.heuristic import HeuristicAgent, HeuristicV2Agent

#: (ruleset, players, tides_of_battle, max_rounds, seed, seats) -> sha256 of the game's actions
#: and final state digest, computed from the heuristics as they were before the package split.
EXPECTED: dict[tuple[str, int, bool, int, int, str], str] = {
    ("2e", 3, False, 4, 1, "mixed"):
        "b63690d3b39b5c5dbea82dbb7e3801bf4bf347f84c540299af2ca616a6450856",
    ("2e", 3, False, 4, 2, "mixed"):
        "0cdba37498c9d3f216ac8f4220b6ca86f618321b1982f2ef7a99fa2de2643c30",
    ("2e", 3, False, 4, 3, "heuristics"):
        "c1fdc8da6b55a84a45309dc04f08ca80546d1dcdddd42bdd4f7510a127a9d961",
    ("2e", 4, False, 4, 4, "mixed"):
        "6cf5ed9f980cbac5a79669d3c839a739072c8e8e9cf3dc3a2373ea4c5c4cdf4b",
    ("2e", 4, False, 4, 5, "mixed"):
        "98bddbba6b57a57de2d7a570c609749c07d3d5c462f518d4da05ad5523123095",
    ("2e", 4, False, 4, 6, "heuristics"):
        "43ae54b0cf76980b56ac37179f737e9b73aebaec0830852916ed04e379f4d074",
    ("2e", 6, False, 3, 7, "mixed"):
        "3e46f977a5bdf4980e160ef06210518da59a5b815fa9fbfc3e19fe9f2436bab9",
    ("2e", 6, False, 3, 8, "mixed"):
        "e0850ee36759d5374f83be25abe46225ef4408feb8e4fe0dbd9bb18eccf721a5",
    ("2e", 6, False, 3, 9, "heuristics"):
        "b196d37118721aa4bf990953aa4e3c6ac4b91e0dc0d294992f6f5f2fda09ef61",
    ("2e", 4, True, 4, 10, "mixed"):
        "4e3cae02c0babfa448ebcd9f0a415a04ef44cce74255f9c7df025dc151f99323",
    ("2e", 4, True, 4, 11, "mixed"):
        "aa02c2d5f5ab2e5f91fddce1cb55a5b739d9ba1544856fb77694c715b0488db8",
    ("2e", 4, True, 4, 12, "heuristics"):
        "98334003115128e6c5e5a0abd2d749efaa13c254e8c8729f0a04a13205f03387",
    ("1e", 3, False, 4, 13, "mixed"):
        "c3de841f28f60dc4b210a346254d6603d926defeab050441dfc31adc98bcf247",
    ("1e", 3, False, 4, 14, "mixed"):
        "246a7d58d320f4282d16032b3a23d05ec4f99d6e18701108a238984a0118a39d",
    ("1e", 3, False, 4, 15, "heuristics"):
        "ba24590b15e592702f4454d9dc7a82896e44af940dd4f07c2811ed69237d321a",
    ("1e", 5, False, 3, 16, "mixed"):
        "26d9847a3efe6968d885847266f76fc67e8ad032d1da5f8d22c9964ca9c0efe8",
    ("1e", 5, False, 3, 17, "mixed"):
        "ab1711ae1334e7633ffe1e93f6c61860213900e5189c0f6d2c8a08347408190f",
    ("1e", 5, False, 3, 18, "heuristics"):
        "5c51582360ae9bad1f2e12ca539e8ca08923c79802fb9090e525bba8660bd2dc",
}

#: The seatings: which agent plays seat ``i`` is ``SEATINGS[seats][(i + seed) % len(...)]``.
SEATINGS = {"mixed": ("v1", "v2", "random"), "heuristics": ("v1", "v2")}


def seat(i: int, env: Any, seed: int, seats: str) -> Any:
    """Seat ``i``'s agent, built with the game's env as agent specs build it; v2 at its default
    temperature, so that its seeded noise is exercised too."""
    kinds = SEATINGS[seats]
    kind = kinds[(i + seed) % len(kinds)]
    if kind == "v1":
        return HeuristicAgent(seed=seed + i, env=env)
    if kind == "v2":
        return HeuristicV2Agent(seed=seed + i, env=env)
    return RandomAgent(seed=seed + i)


def game_hash(ruleset: str, players: int, tides: bool, max_rounds: int, seed: int,
              seats: str) -> str:
    """One seeded game: the sha256 of every action index played, then the final digest."""
    e = got_env.raw_env(num_players=players, ruleset=ruleset, tides_of_battle=tides,
                        max_rounds=max_rounds)
    e.reset(seed=seed)
    agents = {a: seat(i, e, seed, seats) for i, a in enumerate(e.possible_agents)}
    h = hashlib.sha256()
    for a in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        action = None
        if not (term or trunc):
            action = int(agents[a].act(obs["observation"], obs["action_mask"], info))
            assert obs["action_mask"][action]
            h.update(np.int32(action).tobytes())
        e.step(action)
    h.update(e.game.digest().encode())
    return h.hexdigest()


@pytest.mark.parametrize("case", list(EXPECTED), ids=lambda c: "-".join(map(str, c)))
def test_heuristic_games_are_unchanged(case):
    assert game_hash(*case) == EXPECTED[case]
