"""Statistics of a tournament: win rates with Wilson intervals, castles, ranks, openskill ratings.

Everything here is a pure function of the game records (the lines of a tournament's
``games.jsonl``), so results can always be recomputed from that file. A record needs:
``lineup`` (agent names by seat), ``houses`` (house by seat), ``ranking`` (houses, first to last)
and ``castles`` ({house: castles and strongholds held at the end}); a drawn game (1e spec 12: the
1st edition's tie-breaks can leave houses equal) also has ``draw`` (the houses sharing it).

Draws: each of the k drawn houses is credited 1/k of a win (so a game always gives out one win
in all, and the win counts stay sums of games), and every drawn house ranks first (1, 1, ...,
then k + 1 for the next: competition ranking), which is also the tie openskill is given. Win
counts are whole numbers (ints) until a draw adds a fraction.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from openskill.models import PlackettLuce

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion; (0, 1) when ``n`` is 0. ``wins``
    may hold a draw's fractions of a win (module docstring)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # clamp: rounding must not put p outside its own interval (p = 0 or 1)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def seat_ranks(record: dict[str, Any]) -> list[int]:
    """The final rank (1 = winner, and every house of a draw) of each seat of a game record."""
    position = {h: i + 1 for i, h in enumerate(record["ranking"])}
    drawn = set(record.get("draw") or ())
    return [1 if h in drawn else position[h] for h in record["houses"]]


def seat_credits(record: dict[str, Any]) -> list[Fraction]:
    """The win credit of each seat: 1 for the winner, 1/k for each of the k houses of a draw,
    0 for the others (they add up to 1 in every game that ended by its rules). A game cut off
    by a limit of its options (reason ``"truncated"``: War of the Ring's ``max_turns``) has no
    winner by the rules: nobody is credited, though its ranking by standing still feeds the
    ratings."""
    if record.get("reason") == "truncated":
        return [Fraction(0)] * len(record["houses"])
    drawn = list(record.get("draw") or ())
    if drawn:
        return [Fraction(1, len(drawn)) if h in drawn else Fraction(0)
                for h in record["houses"]]
    return [Fraction(int(h == record["ranking"][0])) for h in record["houses"]]


def agent_wins(record: dict[str, Any], agent: str) -> Fraction:
    """The wins credited to ``agent`` in one game (all its seats; a draw's share, see
    :func:`seat_credits`)."""
    return sum((c for a, c in zip(record["lineup"], seat_credits(record), strict=True)
                if a == agent), Fraction(0))


def as_number(value: Fraction) -> int | float:
    """A win count for tables and JSON: an int when whole (every game without a draw), else a
    float."""
    return int(value) if value.denominator == 1 else float(value)


class _Tally:
    """Seats, wins, castles and ranks accumulated for one agent, house or agent at a house."""

    __slots__ = ("seats", "wins", "castles", "ranks")

    def __init__(self) -> None:
        self.seats = self.castles = self.ranks = 0
        self.wins = Fraction(0)

    def add(self, won: Fraction, castles: int, rank: int) -> None:
        self.seats += 1
        self.wins += won
        self.castles += castles
        self.ranks += rank

    def as_dict(self, seats_key: str = "seats") -> dict[str, Any]:
        n = self.seats
        wins = as_number(self.wins)
        lo, hi = wilson(wins, n)
        return {seats_key: n, "wins": wins,
                "win_rate": wins / n if n else None, "win_ci95": [lo, hi],
                "avg_castles": self.castles / n if n else None,
                "avg_rank": self.ranks / n if n else None}


def openskill_ratings(records: Iterable[dict[str, Any]],
                      agents: Sequence[str]) -> dict[str, dict[str, float]]:
    """Plackett-Luce ratings (openskill) from the final ranking of each game, games taken in the
    order given. Every seat is a one-player team ranked by its final place. An agent holding
    several seats of one game receives the mean of its seats' updated mu and sigma; a game whose
    seats all belong to one agent carries no information about skill and is skipped."""
    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agents}
    rated = {a: 0 for a in agents}
    for rec in records:
        lineup = rec["lineup"]
        if len(set(lineup)) < 2:
            continue
        teams = [[ratings[a]] for a in lineup]
        new = model.rate(teams, ranks=seat_ranks(rec))
        updates: dict[str, list[Any]] = {}
        for a, team in zip(lineup, new, strict=True):
            updates.setdefault(a, []).append(team[0])
        for a, rs in updates.items():
            mu = sum(r.mu for r in rs) / len(rs)
            sigma = sum(r.sigma for r in rs) / len(rs)
            ratings[a] = model.rating(mu=mu, sigma=sigma, name=a)
            rated[a] += 1
    return {a: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma,
                "rated_games": rated[a]} for a, r in ratings.items()}


def summarize(records: Sequence[dict[str, Any]], agents: Sequence[str],
              houses: Sequence[str]) -> dict[str, Any]:
    """Per agent, per house and per agent at each house: seats, wins, win rate with its 95 %
    Wilson interval, average castles at the end, average rank; plus openskill ratings per agent.
    ``agents`` and ``houses`` fix the order of the tables."""
    by_agent = {a: _Tally() for a in agents}
    by_house = {h: _Tally() for h in houses}
    by_agent_house = {a: {h: _Tally() for h in houses} for a in agents}
    for rec in records:
        ranks, credits = seat_ranks(rec), seat_credits(rec)
        for a, h, r, won in zip(rec["lineup"], rec["houses"], ranks, credits, strict=True):
            c = int(rec["castles"][h])
            for t in (by_agent[a], by_house[h], by_agent_house[a][h]):
                t.add(won, c, r)
    ratings = openskill_ratings(records, agents)
    agent_table = {}
    for a in agents:
        row = by_agent[a].as_dict()
        row["rating"] = ratings[a]
        row["by_house"] = {h: by_agent_house[a][h].as_dict() for h in houses}
        agent_table[a] = row
    return {"games": len(records),
            "agents": agent_table,
            "houses": {h: by_house[h].as_dict("games") for h in houses}}
