"""Hidden information (issue 28 item 2): two states that differ only in what a side cannot
know -- the opponent's hand (the same sizes per deck), every deck's order, the Hunt Pool's
order, the opponent's face-down discards, the opponent's chosen and unrevealed Combat card, and
future chance -- give that side the same observation, byte for byte, and the same infos; the
side asked next, the kind of its decision, and whether it is asked at all never depend on them
(a decision the engine would play by itself in one state and ask in the other tells how many
options the opponent had); the side's own options do not depend on them either; and IS-MCTS's
samples (the game's ``determinize``) are a function of the side's view alone.

Positions come from real (random) games of both editions; the full sweep of at least 2,000
positions is marked ``slow``.
"""

from __future__ import annotations

import numpy as np
import pytest

from wotr_env.encoding import encoder_for
from wotr_env.engine import apply, is_over, new_state
from wotr_env.engine.chance import Chance
from wotr_env.engine.decision import WD
from wotr_env.engine.determinize import (
    _deal_hidden,
    _redo_combat_choice,
    _undo_combat_choices,
    determinize,
)
from wotr_env.engine.digest import digest
from wotr_env.engine.state import WotrState


def positions(ruleset: str, games: int, every: int, max_turns: int = 30):
    """States of random games, one every ``every`` decisions (a fresh clone each)."""
    for seed in range(games):
        state = new_state(seed, ruleset, max_turns=max_turns)
        rng = np.random.default_rng(1000 + seed)
        n = 0
        while not is_over(state):
            if n % every == 0:
                yield state.clone()
            options = state.pending.options
            apply(state, options[rng.integers(len(options))])
            n += 1


def variant(state: WotrState, observer: int, rng: np.random.Generator) -> WotrState | None:
    """``state`` with everything ``observer`` cannot know drawn again (as determinize draws it,
    but without rejecting any draw: a draw the engine would ask differently is what this test
    looks for); None when the opponent's redone Combat card choice is impossible (1e: it said
    "yes" in public and the drawn hand has no playable card: not a position the observer could
    be in)."""
    s = state.clone()
    opponent = 1 - observer
    redo = _undo_combat_choices(s, opponent)
    for deck in (2 * opponent, 2 * opponent + 1):
        _deal_hidden(s, opponent, deck, rng)
    try:
        for at, step in redo:
            _redo_combat_choice(s, at, step, rng)
    except ValueError:
        return None
    for deck in range(4):
        s.decks[deck] = [int(c) for c in rng.permutation(s.decks[deck])]
    s.hunt_pool = [int(t) for t in rng.permutation(s.hunt_pool)]
    s.chance = Chance(np.random.default_rng(int(rng.integers(2**63))))
    return s


def asked_again(s: WotrState):
    """The decision the top frame asks of ``s`` now (on a copy: asking may change a frame);
    IMPOSSIBLE when it has no option (a drawn hand that contradicts a public choice, e.g. a
    die spent to play an event with no playable card in it)."""
    c = s.clone()
    try:
        return c.stack[-1].run(c)
    except ValueError:
        return IMPOSSIBLE


IMPOSSIBLE = object()


SKIPPED = "skipped"


def check_position(state: WotrState, observer: int, rng: np.random.Generator) -> str | None:
    """What ``observer`` could learn from hidden facts at ``state``, or None."""
    other = variant(state, observer, rng)
    if other is None:
        return None
    enc = encoder_for(state.ruleset)
    a, b = enc.encode(state, observer), enc.encode(other, observer)
    if a.tobytes() != b.tobytes():
        bad = np.flatnonzero(a != b)
        pieces = sorted({enc.layout.piece_at(i).name for i in bad})
        return f"observation differs in {pieces}"
    asked, again = state.pending, asked_again(other)
    if again is IMPOSSIBLE:
        return None
    same = asked_again(state)
    if same is None or (same.player, same.kind, tuple(same.options)) != \
            (asked.player, asked.kind, tuple(asked.options)):
        return SKIPPED  # its frame changes itself before asking: it cannot be asked again
    if again is None and asked.kind == WD.COMBAT_CARD and asked.player != observer:
        return None  # 1e: he said "yes" in public; a drawn hand with no card is not his
    if again is None and asked.private and asked.player != observer:
        # a question read off his hand that the drawn hand cannot answer: the public choice
        # that led here (a die spent to end a table card by discarding a Character card) rules
        # that hand out, so it is no position the observer could be in
        return None
    if again is None:
        return f"{asked.kind.label}: the variant asks nothing"
    if (again.player, again.kind) != (asked.player, asked.kind):
        return f"{asked.kind.label} of {asked.player}: the variant asks {again.kind.label}"
    if not (again.secret or again.private) and len(again.options) == 1 \
            and len(asked.options) > 1:
        return f"{asked.kind.label} of {asked.player}: asked here, played by itself there"
    if asked.player == observer and tuple(again.options) != tuple(asked.options):
        return f"{asked.kind.label}: the observer's own options differ"
    return None


def sweep(ruleset: str, games: int, every: int) -> tuple[int, list[str]]:
    """(positions x observers checked, the leaks found); the observation is compared at every
    position, the question only where the pending frame can be asked again."""
    rng = np.random.default_rng(7)
    checked, found = 0, []
    for state in positions(ruleset, games, every):
        for observer in (0, 1):
            problem = check_position(state, observer, rng)
            checked += 1
            if problem and problem != SKIPPED:
                found.append(f"turn {state.turn} observer {observer}: {problem}")
    return checked, found


@pytest.mark.parametrize("ruleset", ["2e", "1e"])
def test_hidden_facts_change_nothing_a_side_sees(ruleset):
    checked, found = sweep(ruleset, games=3, every=23)
    assert checked > 100
    assert found == [], f"{len(found)} of {checked}: {found[:8]}"


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["2e", "1e"])
def test_hidden_facts_change_nothing_a_side_sees_over_thousands_of_positions(ruleset):
    checked, found = sweep(ruleset, games=12, every=7)
    print(f"\n{ruleset}: {checked} positions x observers checked, {len(found)} leaks")
    assert checked >= 2000
    assert found == [], f"{len(found)} of {checked}: {found[:8]}"


def test_the_check_itself_sees_a_leak():
    """The harness can fail: an observation that showed the opponent's hand would differ."""
    state = next(positions("2e", 1, 1))
    other = variant(state, 0, np.random.default_rng(0))
    assert other is not None and sorted(other.hands[1]) != sorted(state.hands[1])


@pytest.mark.parametrize("ruleset", ["2e", "1e"])
def test_samples_depend_only_on_the_view(ruleset):
    """IS-MCTS reads the game through determinize: two states the observer cannot tell apart
    give equal samples for equal generators."""
    rng = np.random.default_rng(3)
    n = 0
    for state in positions(ruleset, 2, 41):
        for observer in (0, 1):
            other = variant(state, observer, rng)
            if other is None:
                continue
            a = determinize(state, observer, np.random.default_rng(n))
            b = determinize(other, observer, np.random.default_rng(n))
            assert digest(a) == digest(b), (ruleset, state.turn, observer)
            n += 1
    assert n > 20
