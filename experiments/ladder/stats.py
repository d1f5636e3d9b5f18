"""The ladder's statistics, pure functions of the matches' game records (the lines of each
match's games.jsonl): pairwise win rates, per-rung and per-house results with openskill ratings
(experiments.ratings.summarize over every game), game lengths and endings."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..ratings import agent_wins, as_number, summarize, wilson

#: AGoT's endings (got_env.tools.tournament.endings), the default of the functions here;
#: the ladder passes each game's own (game_hooks.endings).
ENDINGS = ("seven-castles", "last-round")


def interleave(by_match: Sequence[Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Every game of the ladder in rating order: game index, then match, then line-up (so that
    no match is rated entirely before another)."""
    keyed = [(r["game"], m, r["lineup_index"], r) for m, recs in enumerate(by_match)
             for r in recs]
    return [k[-1] for k in sorted(keyed, key=lambda k: k[:3])]


def lone_cell(records: Sequence[dict[str, Any]], rung: str, num_players: int) -> dict[str, Any]:
    """``rung``'s results in the games where it sits alone against copies of one opponent."""
    games = [r for r in records if r["lineup"].count(rung) == 1]
    wins = as_number(sum(agent_wins(r, rung) for r in games))  # a draw's share counts
    n = len(games)
    lo, hi = wilson(wins, n)
    rate = wins / n if n else None
    return {"games": n, "wins": wins, "win_rate": rate, "win_ci95": [lo, hi],
            "score": rate * num_players if n else None}


def match_summary(a: str, b: str, records: Sequence[dict[str, Any]],
                  num_players: int) -> dict[str, Any]:
    """Both line-ups together: wins of each rung and its score, wins over the wins its share of
    the seats would give (1 = as strong as the other)."""
    out: dict[str, Any] = {"rungs": [a, b], "games": len(records), "wins": {}, "score": {}}
    for x in (a, b):
        wins = as_number(sum(agent_wins(r, x) for r in records))
        share = sum(r["lineup"].count(x) for r in records) / num_players
        out["wins"][x] = wins
        out["score"][x] = wins / share if share else None
    return out


def pairwise(matches: Sequence[tuple[str, str, Sequence[dict[str, Any]]]], rungs: Sequence[str],
             num_players: int) -> dict[str, dict[str, dict[str, Any] | None]]:
    """table[row][col]: the row rung alone against num_players - 1 copies of the column rung
    (win rate, 95 % Wilson interval, score = win rate / (1/num_players)); None on the diagonal
    and for pairs without a match."""
    table: dict[str, dict[str, dict[str, Any] | None]] = {
        r: {c: None for c in rungs} for r in rungs}
    for a, b, recs in matches:
        table[a][b] = lone_cell(recs, a, num_players)
        table[b][a] = lone_cell(recs, b, num_players)
    return table


def lengths(records: Sequence[dict[str, Any]], max_rounds: int,
            endings: Sequence[str] = ENDINGS) -> dict[str, Any]:
    """Final round (mean, median, min, max, games per round), endings and seconds per game.
    ``endings``: the reasons always counted (zero or not), the first also per round
    (``castles_hist``, ``castles_share``: AGoT's seven castles); none: the reasons recorded."""
    first = endings[0] if endings else None
    rounds = [int(r["rounds"]) for r in records]
    seconds = [float(r["seconds"]) for r in records if "seconds" in r]
    ends = Counter(r["reason"] for r in records)
    top = max([max_rounds, *rounds])
    n = len(records)
    return {"games": n,
            "rounds_mean": statistics.fmean(rounds) if n else None,
            "rounds_median": statistics.median(rounds) if n else None,
            "rounds_min": min(rounds) if n else None,
            "rounds_max": max(rounds) if n else None,
            "rounds_hist": {str(k): rounds.count(k) for k in range(1, top + 1)},
            "castles_hist": {str(k): sum(int(r["rounds"]) == k and r["reason"] == first
                                         for r in records) for k in range(1, top + 1)},
            "endings": {e: ends.get(e, 0) for e in sorted(set(endings) | set(ends))},
            "castles_share": ends.get(first, 0) / n if n and first else None,
            "seconds_mean": statistics.fmean(seconds) if seconds else None,
            "seconds_max": max(seconds) if seconds else None,
            "decisions_mean": (statistics.fmean(int(r["decisions"]) for r in records)
                               if n and all("decisions" in r for r in records) else None)}


def ladder_results(name: str, rungs: Sequence[str], houses: Sequence[str], max_rounds: int,
                   matches: Sequence[tuple[str, str, str, Sequence[dict[str, Any]]]],
                   endings: Sequence[str] = ENDINGS) -> dict[str, Any]:
    """Every statistic of the ladder. ``matches``: (match name, rung a, rung b, records);
    ``houses``: the seats; ``endings``: the game's (:func:`lengths`)."""
    n = len(houses)
    games = interleave([m[3] for m in matches])
    stats = summarize(games, list(rungs), list(houses))
    agents = stats["agents"]
    for t in agents.values():   # wins over the wins of the seat share (1/n per seat)
        t["score"] = t["win_rate"] * n if t["seats"] else None
        for cell in t["by_house"].values():
            cell["score"] = cell["win_rate"] * n if cell["seats"] else None
    order = sorted(rungs, key=lambda a: (-agents[a]["rating"]["mu"],
                                         -agents[a]["rating"]["ordinal"]))
    per_match = {mname: {**match_summary(a, b, recs, n),
                         "lengths": lengths(recs, max_rounds, endings)}
                 for mname, a, b, recs in matches}
    return {"name": name, "num_players": n, "houses": list(houses), "games": len(games),
            "rating_model": "openskill PlackettLuce (mu 25, sigma 25/3) over each game's final "
                            "ranking, every game of the ladder (game index, then match, then "
                            "line-up)",
            "order": order, "rungs": agents, "house_totals": stats["houses"],
            "pairwise": pairwise([(a, b, recs) for _, a, b, recs in matches], rungs, n),
            "matches": per_match, "lengths": lengths(games, max_rounds, endings)}
