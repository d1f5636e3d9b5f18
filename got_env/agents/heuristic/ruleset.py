"""Which ruleset a heuristic plays: the one it is given (``ruleset=``) or its game's env's
(``env=``), else the 2nd edition. It is never guessed from the observation: an observation of
another ruleset is refused with a clear error, where a guess would hide a caller's mistake."""

from __future__ import annotations

from typing import Any

#: The ruleset of an agent built with neither ``ruleset=`` nor ``env=``.
DEFAULT_RULESET = "2e"


def env_ruleset(env: Any) -> str | None:
    """The ruleset name of a game's env (a PettingZoo env, wrapped or not, or anything with a
    ``ruleset``), or None when ``env`` tells none."""
    raw = getattr(env, "unwrapped", env)
    rs = getattr(raw, "ruleset", None)
    name = getattr(rs, "name", rs)
    return name if isinstance(name, str) else None


def resolve_ruleset(ruleset: str | None, env: Any) -> str:
    """The ruleset an agent plays: ``ruleset``, else ``env``'s, else :data:`DEFAULT_RULESET`;
    ValueError when both are given and differ (the agent would refuse every observation)."""
    from_env = env_ruleset(env)
    if ruleset is not None and from_env is not None and ruleset != from_env:
        raise ValueError(f"ruleset={ruleset!r} but the env given plays ruleset {from_env!r}: "
                         f"give one of them")
    return ruleset or from_env or DEFAULT_RULESET


def check_observation(agent: str, ruleset: str, expected: int, size: int) -> None:
    """ValueError unless an observation of ``size`` features is one of ``ruleset``'s
    (``expected`` features), naming both sizes and the way to fix it."""
    if size != expected:
        raise ValueError(f"{agent} plays ruleset {ruleset!r}, whose observations have "
                         f"{expected} features, but got an observation of {size} features: "
                         f"build it with ruleset= (the game's ruleset) or env= (the game's "
                         f"env)")
