"""The tournament's plan and one game of it: which line-up plays which houses with which seeds
(from the config alone, so that a rerun plays the same games), and playing one planned game in
a worker process into its record."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents import make_agent
from boardkit import games
from boardkit.envs import make_env

from .. import game_hooks
from ..play import play_game
from .config import Config


class GameFailed(RuntimeError):
    """A game raised; the message names the game, its line-up, houses and seed."""


@dataclass(frozen=True)
class GameSpec:
    lineup_index: int
    game: int
    lineup: tuple[str, ...]
    houses: tuple[str, ...]     # the house of each seat
    seed: int
    agent_seeds: tuple[int, ...]

    @property
    def key(self) -> tuple[int, int]:
        return self.lineup_index, self.game


def make_plan(cfg: Config) -> list[GameSpec]:
    """Every game of the tournament, game index first (so that any prefix is balanced across
    line-ups). Seeds derive from (config seed, line-up index, game index) alone."""
    n = cfg.num_players
    plan = []
    for g in range(cfg.games):
        for li, lineup in enumerate(cfg.lineups):
            houses = tuple(cfg.houses[(i + g) % n] for i in range(n))
            state = np.random.SeedSequence([cfg.seed, li, g]).generate_state(n + 1, np.uint32)
            plan.append(GameSpec(li, g, lineup, houses, int(state[0]),
                                 tuple(int(s) for s in state[1:])))
    return plan


# -- playing one game (in a worker process) ----------------------------------------------------
def build_agent(spec: Any, env: Any, seed: int) -> Any:
    """An agent from its spec (any form agents.AgentSpec reads); ``env`` and ``seed`` are
    passed where the constructor takes them (``seed`` only when the spec does not fix it)."""
    return make_agent(spec, env=env, seed=seed)


def play_spec(env_options: dict[str, Any], agent_specs: dict[str, Any],
              spec: GameSpec, replays: str | None = None, *, game: str,
              time_seats: bool = False) -> dict[str, Any]:
    """Play one game of the plan; returns its record (a line of games.jsonl). ``agent_specs``:
    name -> spec (an AgentSpec, or any form it parses); it is pickled to worker processes.
    ``replays``: a folder to write the game's replay page to (``game-<lineup>-<game>.html``).
    ``game``: the registry name of the game played (:mod:`boardkit.games`); its env comes from
    :func:`boardkit.envs.make_env`, its result from :mod:`.game_hooks`. ``time_seats``: the
    record also holds ``seat_seconds``, the seconds each house's agent spent in ``act``."""
    try:
        env = make_env(game, **env_options)
        seats = zip(spec.lineup, spec.houses, spec.agent_seeds, strict=True)
        seated = {house: build_agent(agent_specs[agent], env, aseed)
                  for agent, house, aseed in seats}
        clock = {house: 0.0 for house in spec.houses}
        if time_seats:
            seated = {house: _Timed(agent, clock, house) for house, agent in seated.items()}
        start = time.perf_counter()
        play_game(env, seated, spec.seed)
        seconds = time.perf_counter() - start
        result = game_hooks.result(game, env)
        rules = games.get(game)

        def name(player: int) -> str:
            return rules.player_name(env.game, player)

        ranking = [name(p) for p in result.ranking]
        scores = {name(p): _number(s) for p, s in result.scores.items()}
        if replays is not None:
            game_hooks.write_replay(game, env,
                                    Path(replays) / f"game-{spec.lineup_index}-{spec.game}.html",
                                    f"{game} replay: line-up {spec.lineup_index} "
                                    f"{list(spec.lineup)}, game {spec.game}")
        decisions = game_hooks.decisions(game, env)
        rounds = int(rules.round(env.game))
        digest = rules.digest(env.game)
    except Exception as e:
        raise GameFailed(f"game {spec.game} of line-up {spec.lineup_index} {list(spec.lineup)} "
                         f"(houses {list(spec.houses)}, seed {spec.seed}) failed: "
                         f"{type(e).__name__}: {e}") from e
    place = {h: i + 1 for i, h in enumerate(ranking)}
    # a game cut off at a limit of its options has no winner by the rules, only a side ahead
    # (its ranking), as experiments.play and experiments.ratings read it
    winner = None if result.reason == "truncated" else ranking[0]
    drawn = {"draw": [name(p) for p in result.draw]} if result.draw else {}
    for h in drawn.get("draw", ()):
        place[h] = 1   # every house of a draw ranks first (experiments.ratings)
    return {"lineup_index": spec.lineup_index, "game": spec.game,
            "lineup": list(spec.lineup), "houses": list(spec.houses),
            "seats": dict(zip(spec.houses, spec.lineup, strict=True)),
            "seed": spec.seed, "agent_seeds": list(spec.agent_seeds),
            "ranking": ranking, "ranks": [place[h] for h in spec.houses],
            "castles": {h: scores[h] for h in spec.houses},
            "winner": winner, "winner_agent": None if winner is None
            else spec.lineup[spec.houses.index(winner)],
            "reason": result.reason, "rounds": rounds,
            "decisions": decisions, "digest": digest, "seconds": round(seconds, 3),
            **({"seat_seconds": {h: round(clock[h], 3) for h in spec.houses}}
               if time_seats else {}), **drawn}


class _Timed:
    """An agent whose ``act`` calls are timed into ``clock[house]``; everything else is the
    agent's own (``reset``, ``observe_end``, any attribute)."""

    def __init__(self, agent: Any, clock: dict[str, float], house: str):
        self._agent, self._clock, self._house = agent, clock, house

    def act(self, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return self._agent.act(*args, **kwargs)
        finally:
            self._clock[self._house] += time.perf_counter() - start

    def __getattr__(self, name: str) -> Any:
        if name in ("_agent", "_clock", "_house"):   # not set yet (a copy being made)
            raise AttributeError(name)
        return getattr(self._agent, name)


def _number(score: float) -> int | float:
    """A score for the record: an int when whole (AGoT's castles, Goofspiel's points)."""
    return int(score) if float(score).is_integer() else float(score)
