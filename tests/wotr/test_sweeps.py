"""The whole-board sweeps (engine/sweeps.py) give the moves and attack targets that the
per-region rules give, Army by Army: an optimisation that must change no game.

The references below are the per-region definitions (``armies.may_enter``/``valid_group``,
``battle.attack.can_attack_from``), asked one region and one border at a time as the engine did
before the sweeps; they are compared at every decision of random games of both rulesets (sieges,
nations not At War, Saruman's Elites, Armies that moved already in an action all occur)."""

from __future__ import annotations

import numpy as np
import pytest

from wotr_env.engine import FREE_PEOPLES, WD, apply, build, is_over, new_state
from wotr_env.engine.armies import (
    ArmyMove,
    closed,
    edges,
    may_enter,
    movable,
    movable_characters,
    valid_group,
)
from wotr_env.engine.battle.attack import attack_targets, can_attack_from
from wotr_env.engine.battle.forces import units_in
from wotr_env.engine.regions import NATIONS_OF, free_for_movement
from wotr_env.engine.state import WotrState


def reference_edges(state: WotrState, side: int, need_leader: bool, moved: tuple = (),
                    moved_chars: tuple[int, ...] = ()) -> list[tuple]:
    board = state.ruleset.board
    out = []
    field = state.army[:, NATIONS_OF[side], :2].sum(axis=(1, 2))
    for a in (int(x) for x in np.flatnonzero(field > 0)):
        base = movable(state, side, a, moved)
        if base[:, :2].sum() == 0:
            continue
        chars = movable_characters(state, side, a, moved_chars)
        for b in (int(x) for x in board.neighbours[a]):
            if not free_for_movement(state, b, side) or closed(state, side, b):
                continue
            if valid_group(state, base * may_enter(state, b), chars, need_leader):
                out.append(("edge", a, b))
    return out


def reference_targets(state: WotrState, side: int, leader: bool) -> list[tuple]:
    board = state.ruleset.board
    enemy = 1 - side
    out: list[tuple] = []
    own = state.army[:, NATIONS_OF[side], :2].sum(axis=(1, 2))
    for r in (int(x) for x in np.flatnonzero(own)):
        if not can_attack_from(state, r, side, False, leader):
            continue
        out.extend(("edge", r, int(t)) for t in board.neighbours[r]
                   if units_in(state, int(t), enemy))
        if units_in(state, r, enemy, box=True):
            out.append(("region", r))
    inside = state.box[:, NATIONS_OF[side], :2].sum(axis=(1, 2))
    for r in (int(x) for x in np.flatnonzero(inside)):
        if units_in(state, r, enemy) and can_attack_from(state, r, side, True, leader):
            out.append(("region", r))
    return [t for t in out if not closed(state, side, t[-1])]


@pytest.mark.parametrize("ruleset,seed", [("2e", 2), ("2e", 8), ("1e", 3)])  # with sieges
def test_sweeps_match_the_per_region_rules_in_random_games(ruleset: str, seed: int) -> None:
    """spec §10 (moves), §12.1 (attacks), facts §7.5 (nations not At War): the same options,
    for both sides, before every choice of a die and at every move of an Army move."""
    state = new_state(seed, ruleset, max_turns=15)
    rng = np.random.default_rng(seed)
    checked = {"moved": 0, "siege": 0, "targets": 0}
    while not is_over(state):
        frame = state.stack[-1]
        if state.pending.kind == WD.CHOOSE_DIE:
            for side in (0, 1):
                for flag in (False, True):
                    assert edges(state, side, flag) == reference_edges(state, side, flag)
                    want = reference_targets(state, side, flag)
                    assert attack_targets(state, side, flag) == want
                    checked["targets"] += bool(want)
            checked["siege"] += bool(state.box.any())
        if isinstance(frame, ArmyMove) and frame.moved and not frame.edge:
            checked["moved"] += 1
            for flag in (False, True):  # (True: as if a Leader had to go too)
                args = (frame.side, flag, frame.moved, frame.moved_chars)
                assert edges(state, *args) == reference_edges(state, *args)
        options = state.pending.options
        apply(state, options[rng.integers(len(options))])
    assert all(checked.values()), checked  # each case came up: the test compares something


def test_a_character_that_moved_no_longer_leads_an_army_move() -> None:
    """spec §10.3 (no figure moves twice), facts §7.1 (a Character die moves an Army with a
    Character): Strider, moved already in this action, no longer lets his Army move with a
    Leader; the sweep and the per-region rules agree."""
    state = build({"armies": {"osgiliath": {"gondor": {"regular": 2}}},
                   "politics": {"gondor": {"steps": 0, "active": True}},
                   "characters": {"strider": "osgiliath"}})
    strider = state.ruleset.cards.character("strider")
    assert edges(state, FREE_PEOPLES, True) == reference_edges(state, FREE_PEOPLES, True) != []
    assert edges(state, FREE_PEOPLES, True, (), (strider,)) == []
    assert reference_edges(state, FREE_PEOPLES, True, (), (strider,)) == []
