"""Every decision kind of DECISIONS-wotr.md (WD-01 ... WD-38) is reached (issue 27, item 2):
random games of both editions reach all but the Mordor entry, which a Fellowship at the
Black Gate reaches (facts §7.9)."""

from __future__ import annotations

import numpy as np
import pytest

from wotr_env.engine import WD, apply, build, is_over, new_state


def kinds_of_random_games(seeds: range, max_turns: int) -> set[WD]:
    seen: set[WD] = set()
    for seed in seeds:
        for ruleset in ("2e", "1e"):
            s = new_state(seed, ruleset, max_turns=max_turns)
            rng = np.random.default_rng(seed)
            while not is_over(s):
                d = s.pending
                seen.add(d.kind)
                apply(s, d.options[rng.integers(len(d.options))])
    return seen


def test_the_mordor_entry_is_asked_at_the_black_gate() -> None:
    """facts §7.9: in Morannon during the Fellowship phase the Free Peoples are asked."""
    s = build({"start": "turn", "fellowship": {"region": "morannon"}})
    while s.pending.kind not in (WD.ENTER_MORDOR, WD.CHOOSE_DIE):
        apply(s, s.pending.options[0])
    assert s.pending.kind == WD.ENTER_MORDOR


@pytest.mark.slow
def test_random_games_reach_every_other_decision_kind() -> None:
    """20 random games per edition, 60 turns at most (about 75 s)."""
    seen = kinds_of_random_games(range(20), 60)
    missing = [k.label for k in WD if k not in seen and k != WD.ENTER_MORDOR]
    assert not missing, f"never asked: {missing}"
