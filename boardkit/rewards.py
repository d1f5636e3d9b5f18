"""The end-of-game rewards of the kit's env (:class:`boardkit.aec.KitEnv`), by scheme, from a
finished game's ranking: the same numbers for every game, so that a learner's returns mean the
same thing whichever game it plays.

``"zero_sum"``: +1 for the winner, -1/(n-1) for each other player (sums to 0); a draw for first
place between k players splits the winner's +1 and the losses they would have paid:
(n-k)/(k(n-1)) each. ``"rank"``: +1 first to -1 last, linear in between, the k drawn players
each paid the mean of the places they share. A game may add its own schemes (AGoT's
``"castles"``, from the castles held).
"""

from __future__ import annotations

#: The schemes every game on the kit has.
REWARD_SCHEMES = ("zero_sum", "rank")


def end_rewards(scheme: str, n: int, k: int = 1) -> list[float]:
    """The final reward of each place of the ranking (best first) for ``n`` players of which the
    first ``k`` share the game (k = 1: one winner). ``"zero_sum"``: (n-k)/(k(n-1)) for each drawn
    player, -1/(n-1) for the others (sums to 0; the draw splits the winner's +1 and the losses
    they would have paid); ``"rank"``: +1 first to -1 last, linear in between, the drawn players
    each paid the mean of the places they share."""
    if not 1 <= k <= n or n < 2:
        raise ValueError(f"need 1 <= k <= n and n >= 2, got n={n}, k={k}")
    if scheme == "zero_sum":
        return [(n - k) / (k * (n - 1)) if i < k else -1.0 / (n - 1) for i in range(n)]
    if scheme == "rank":
        places = [1.0 - 2.0 * i / (n - 1) for i in range(n)]
        shared = sum(places[:k]) / k
        return [shared] * k + places[k:]
    raise ValueError(f"end_rewards: scheme must be 'zero_sum' or 'rank', got {scheme!r}")

