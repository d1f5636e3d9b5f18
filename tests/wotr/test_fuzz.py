"""Random games with the invariants after every decision (issue 27, items 4-6).

Each game is ``new_state(seed, ruleset, max_turns=100)`` played by picking uniformly among the
options of every pending decision, so every option the engine offers is accepted or the game
fails with the seed, the decision and the option to replay it; every option must have an index
in the env's action space. After every decision
``invariants.check`` must find nothing; now and then an action that is not an option is tried
and must raise ``IllegalActionError`` leaving the digest unchanged; a game must end as the
rules say (facts §7.12): Corruption 12, the Crack of Doom, 10 Shadow or 4 Free Peoples victory
points at the Victory Check, or truncated at ``max_turns``.

The default suite plays 20 games a ruleset, one test each (``-n auto`` spreads them); the long
runs (300 games a ruleset; 1,000 games a ruleset reported by how they ended) are marked
``slow`` (``pytest -m slow -s tests/wotr/test_fuzz.py`` prints the report). The harness asks
nothing of the rules but the engine's interface, so it keeps working as rules are added.
"""

from __future__ import annotations

import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import pytest

from wotr_env.encoding.actions import codec_for
from wotr_env.engine import (
    FREE_PEOPLES,
    SHADOW,
    WD,
    IllegalActionError,
    WotrState,
    apply,
    new_state,
)
from wotr_env.engine.decision import DONE, choice
from wotr_env.engine.digest import digest
from wotr_env.engine.invariants import check
from wotr_env.engine.victory import CORRUPTION_MAX, MORDOR_STEPS, victory_points

RULESETS = ("2e", "1e")
MAX_TURNS = 100
FAST_GAMES, LONG_GAMES, REPORT_GAMES = 20, 300, 1000
PROBE_EVERY = 25  # decisions between two illegal actions tried
MAX_DECISIONS = 100_000  # a game past this is stuck in a loop
ENDINGS = {"corruption": SHADOW, "crack-of-doom": FREE_PEOPLES, "shadow-points": SHADOW,
           "free-peoples-points": FREE_PEOPLES}
NOT_OPTIONS = (DONE, ("count", 99), ("card", 999), ("region", -5), ("die", 99), choice("pass"),
               ("choice", "no such choice"), ("edge", 0, 0), [1, 2], None, "done")


class FuzzFailure(AssertionError):
    """A random game broke a rule of the harness; the message says how to replay it."""


@dataclass
class GameResult:
    """How one random game went."""

    seed: int
    ruleset: str
    decisions: int = 0
    turns: int = 0
    ending: str = ""
    kinds: Counter = field(default_factory=Counter)  # decision kind labels asked


def play_random(seed: int, ruleset: str, max_turns: int = MAX_TURNS) -> GameResult:
    """Play one random game to its end, checking everything the harness checks."""
    state = new_state(seed, ruleset, max_turns=max_turns)
    rng = np.random.default_rng([seed, RULESETS.index(ruleset)])
    result = GameResult(seed, ruleset)
    _sound(state, result, "at the start")
    while not state.over:
        decision = state.pending
        if decision is None:
            raise FuzzFailure(f"{_where(state, result)}: the game is not over and nothing is "
                              f"pending")
        result.kinds[decision.kind.label] += 1
        _encodable(state, decision, result)
        if result.decisions % PROBE_EVERY == 0:
            _probe_illegal(state, rng, result)
        action = decision.options[int(rng.integers(len(decision.options)))]
        try:
            apply(state, action)
        except Exception as e:
            raise FuzzFailure(f"{_where(state, result)}: the offered option {action!r} of "
                              f"{decision.kind.label} (player {decision.player}) raised "
                              f"{e!r}") from e
        result.decisions += 1
        _sound(state, result, f"after {action!r} of {decision.kind.label}")
        if result.decisions >= MAX_DECISIONS:
            raise FuzzFailure(f"{_where(state, result)}: no end after {MAX_DECISIONS} decisions")
    result.turns = state.turn
    result.ending = _ending(state, result, max_turns)
    return result


def _encodable(state: WotrState, decision, result: GameResult) -> None:
    """Every option has an index in the env's action space (a card's jump once offered an
    ``edge`` between regions that share no border, which the env could not mask)."""
    codec = codec_for(result.ruleset)
    for option in decision.options:
        try:
            codec.encode(option)
        except ValueError as e:
            raise FuzzFailure(f"{_where(state, result)}: {decision.kind.label} offers {e}") \
                from None


def _where(state: WotrState, result: GameResult) -> str:
    return (f"{result.ruleset} seed {result.seed}, decision {result.decisions}, turn "
            f"{state.turn} phase {state.phase} (replay: play_random({result.seed}, "
            f"{result.ruleset!r}))")


def _sound(state: WotrState, result: GameResult, when: str) -> None:
    bad = check(state)
    if bad:
        recent = state.log[-8:]
        raise FuzzFailure(f"{_where(state, result)}, {when}: {'; '.join(bad)}; last events "
                          f"{recent}")


def _probe_illegal(state: WotrState, rng: np.random.Generator, result: GameResult) -> None:
    """An action that is not an option raises IllegalActionError and changes nothing."""
    candidates = [a for a in NOT_OPTIONS if a not in state.pending.options]
    bad = candidates[int(rng.integers(len(candidates)))]
    before = digest(state)
    try:
        apply(state, bad)
    except IllegalActionError:
        pass
    else:
        raise FuzzFailure(f"{_where(state, result)}: {bad!r} was accepted, not an option")
    if digest(state) != before:
        raise FuzzFailure(f"{_where(state, result)}: the illegal {bad!r} changed the state")


def _ending(state: WotrState, result: GameResult, max_turns: int) -> str:
    """How the game ended, checked against the victory rules (facts §7.12)."""
    where = _where(state, result)
    if state.pending is not None:
        raise FuzzFailure(f"{where}: a decision is pending in an ended game")
    if state.truncated:
        if state.winner >= 0 or state.turn != max_turns:
            raise FuzzFailure(f"{where}: truncated at turn {state.turn} with winner "
                              f"{state.winner}")
        return "truncated"
    if state.ending not in ENDINGS or ENDINGS[state.ending] != state.winner:
        raise FuzzFailure(f"{where}: ended by {state.ending!r} with winner {state.winner}")
    fp, shadow = victory_points(state)
    holds = {
        "corruption": state.corruption >= CORRUPTION_MAX,
        "crack-of-doom": state.mordor_step >= MORDOR_STEPS and state.corruption < CORRUPTION_MAX,
        "shadow-points": state.phase == 6 and shadow >= state.ruleset.rules.shadow_victory_points,
        "free-peoples-points": state.phase == 6
        and fp >= state.ruleset.rules.free_peoples_victory_points
        and shadow < state.ruleset.rules.shadow_victory_points,
    }[state.ending]
    if not holds:
        raise FuzzFailure(f"{where}: ended by {state.ending} but its condition does not hold "
                          f"(corruption {state.corruption}, Mordor step {state.mordor_step}, "
                          f"points {fp}/{shadow}, phase {state.phase})")
    return state.ending


def play_many(seeds: range, ruleset: str, workers: int | None = None) -> list[GameResult]:
    """Random games over ``seeds``, in parallel processes."""
    workers = workers or min(len(seeds), os.cpu_count() or 1)
    if workers <= 1:
        return [play_random(s, ruleset) for s in seeds]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(play_random, seeds, [ruleset] * len(seeds)))


def report(results: list[GameResult]) -> str:
    """The games by how they ended, their lengths and the decision kinds they reached."""
    endings = Counter(r.ending for r in results)
    kinds: Counter = Counter()
    for r in results:
        kinds.update(r.kinds)
    lines = [f"{len(results)} random {results[0].ruleset} games, max_turns={MAX_TURNS}:"]
    lines += [f"  {name:<20} {endings.get(name, 0):>5}" for name in (*ENDINGS, "truncated")]
    lines.append(f"  decisions per game: mean {np.mean([r.decisions for r in results]):.0f}, "
                 f"max {max(r.decisions for r in results)}; turns: mean "
                 f"{np.mean([r.turns for r in results]):.1f}")
    lines.append(f"  decision kinds reached ({len(kinds)}): " + ", ".join(sorted(kinds)))
    missing = [k.label for k in WD if k.label not in kinds]
    lines.append(f"  decision kinds not reached ({len(missing)}): " + ", ".join(missing))
    return "\n".join(lines)


# -- the default suite ----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", range(FAST_GAMES))
def test_random_game(seed: int, ruleset: str) -> None:
    """One random game: invariants after every decision, every option accepted, illegal actions
    refused without a change, an ending the rules allow (issue 27 items 4-6, facts §7.12)."""
    result = play_random(seed, ruleset)
    assert result.ending in (*ENDINGS, "truncated")


def test_the_harness_catches_a_broken_invariant(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule that breaks an invariant is reported with its seed and decision (the harness can
    fail): a draw that loses its card."""
    from wotr_env.engine.turn import phases as turn

    real = turn.DrawPhase.run

    def losing(self: turn.DrawPhase, state: WotrState) -> None:
        real(self, state)
        if state.turn == 2:
            state.hands[FREE_PEOPLES].pop()

    monkeypatch.setattr(turn.DrawPhase, "run", losing)
    with pytest.raises(FuzzFailure, match=r"2e seed 0, decision \d+, turn 2 .*cards: "):
        play_random(0, "2e")


def test_the_harness_catches_an_accepted_illegal_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that accepted any action would be caught by the illegal-action probe."""
    monkeypatch.setitem(globals(), "apply", lambda state, action: None)
    with pytest.raises(FuzzFailure, match="was accepted, not an option"):
        play_random(0, "2e")


def test_the_harness_checks_the_ending() -> None:
    """An ending outside the victory rules is refused (facts §7.12)."""
    state = new_state(0, "2e", max_turns=1, run=False)
    state.winner, state.ending = FREE_PEOPLES, "corruption"
    with pytest.raises(FuzzFailure, match="ended by 'corruption' with winner 0"):
        _ending(state, GameResult(0, "2e"), 1)
    state.winner, state.ending = SHADOW, "shadow-points"
    state.phase = 6
    with pytest.raises(FuzzFailure, match="its condition does not hold"):
        _ending(state, GameResult(0, "2e"), 1)


# -- the long runs --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_many_random_games(ruleset: str) -> None:
    """300 random games a ruleset (issue 27, items 4 and 6)."""
    results = play_many(range(FAST_GAMES, FAST_GAMES + LONG_GAMES), ruleset)
    assert len(results) == LONG_GAMES
    print("\n" + report(results))


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_games_end_as_the_rules_say(ruleset: str) -> None:
    """1,000 random games a ruleset, reported by how they ended; none outside the victory rules
    (issue 27, item 5; facts §7.12)."""
    start = FAST_GAMES + LONG_GAMES
    results = play_many(range(start, start + REPORT_GAMES), ruleset)
    assert {r.ending for r in results} <= {*ENDINGS, "truncated"}
    print("\n" + report(results))
