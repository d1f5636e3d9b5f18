"""The War of the Ring heuristic (``wotr_env.agents.heuristic``, issue 28 item 3): it answers every
decision with one of its options, and its main rules decide as intended in built positions.

The slow tests play 200 games a side and ruleset against a uniformly random opponent and assert
the Wilson 95% lower bound of the heuristic's win rate (issue 28: at least 0.85 over at least
100 games), and that every one of those games ends by a victory condition within 40 turns; and
report the heuristic's games against itself (``pytest -s -m slow tests/wotr/test_heuristic.py``
prints the tallies).
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from experiments.ratings import wilson
from wotr_env.agents.heuristic.fellowship import declare_target, reveal_target
from wotr_env.agents.heuristic.policy import choose
from wotr_env.engine import FREE_PEOPLES, SHADOW, WD, apply, build, new_state
from wotr_env.engine.decision import CHARACTER, DONE, choice
from wotr_env.engine.determinize import determinize
from wotr_env.engine.state import SIDE_NAMES


def r(state, rid: str) -> int:
    return state.ruleset.board.region(rid)


def heuristic(state, rng: np.random.Generator):
    """The heuristic's answer for the side to act, from its own view (a determinization)."""
    side = state.pending.player
    return choose(determinize(state, side, rng), rng)


def play_game(seed: int, ruleset: str, heuristic_sides: tuple[int, ...], max_turns: int):
    """A game of the heuristic (``heuristic_sides``) against uniform random choices; every
    answer of the heuristic is checked to be one of the options."""
    state = new_state(seed, ruleset, max_turns=max_turns)
    rngs = [np.random.default_rng([seed, 0]), np.random.default_rng([seed, 1])]
    kinds = set()
    while not state.over:
        d = state.pending
        rng = rngs[d.player]
        if d.player in heuristic_sides:
            action = heuristic(state, rng)
            assert action in d.options, (d.kind, action, d.options)
            kinds.add(d.kind)
        else:
            action = d.options[int(rng.integers(len(d.options)))]
        apply(state, action)
    return state, kinds


@pytest.mark.parametrize("ruleset", ["2e", "1e"])
@pytest.mark.parametrize("sides", [(FREE_PEOPLES,), (SHADOW,), (FREE_PEOPLES, SHADOW)])
def test_every_answer_is_an_option_in_short_games(ruleset: str, sides: tuple[int, ...]) -> None:
    """Short games (6 turns) against random and against itself: the heuristic always answers
    with an option of the pending decision, and the games run to their end."""
    for seed in (3, 4):
        state, kinds = play_game(seed, ruleset, sides, max_turns=6)
        assert state.over
        assert WD.CHOOSE_DIE in kinds


def test_a_revealed_fellowship_hides() -> None:
    """A Revealed Fellowship cannot move: the Character die hides it (facts §7.6)."""
    state = build({"fellowship": {"region": "fangorn", "revealed": True, "progress": 0},
                   "dice": {"free_peoples": ["character"]}})
    rng = np.random.default_rng(0)
    assert choose(state, rng) == ("die", CHARACTER)  # not an Elven Ring
    apply(state, ("die", CHARACTER))
    assert choose(state, rng) == ("action", "hide")


def test_a_hidden_fellowship_moves_with_a_character_die() -> None:
    """With an empty Hunt Box the Character die moves the Fellowship (facts §7.6); only the
    two Companions the heuristic keeps are left, so none is sent away first."""
    out = {c: "eliminated" for c in ("boromir", "legolas", "gimli", "meriadoc", "peregrin")}
    state = build({"fellowship": {"region": "rivendell"}, "characters": out,
                   "dice": {"free_peoples": ["character", "muster"]}})
    rng = np.random.default_rng(0)
    assert choose(state, rng) == ("die", CHARACTER)
    apply(state, ("die", CHARACTER))
    assert choose(state, rng) == ("action", "move-fellowship")


def test_the_fellowship_is_declared_into_mordor_and_enters_it() -> None:
    """Progress enough to reach an entrance of Mordor: declared there, then on the Mordor
    Track (facts §7.6, §7.9)."""
    state = build({"fellowship": {"region": "dagorlad", "progress": 1}, "start": "turn"})
    rng = np.random.default_rng(0)
    while state.pending.kind != WD.DECLARE_FELLOWSHIP:
        apply(state, heuristic(state, rng))
    assert choose(state, rng) == choice("declare")
    apply(state, choice("declare"))
    assert choose(state, rng) == ("region", r(state, "morannon"))
    apply(state, ("region", r(state, "morannon")))  # no Progress left: the path ends there
    assert state.fellowship_region == r(state, "morannon")
    assert state.pending.kind == WD.ENTER_MORDOR
    assert choose(state, rng) == choice("yes")


def test_no_declaration_while_mordor_is_out_of_reach() -> None:
    """From Rivendell with little Progress and no Corruption to heal, the Fellowship stays
    unseen where it is."""
    state = build({"fellowship": {"region": "rivendell", "progress": 3}})
    assert declare_target(state, r(state, "rivendell"), 3) is None
    assert declare_target(state, r(state, "rivendell"), 10) in (r(state, "morannon"),
                                                                r(state, "minas-morgul"))


def test_a_reveal_path_avoids_shadow_strongholds_and_free_peoples_havens() -> None:
    """Revealed with Progress 1 at Hollin, the figure does not step into Moria (a Shadow
    Stronghold: one more tile), though Moria is nearer Mordor; revealed in Rivendell it leaves
    (no reveal path ends in a Free Peoples Stronghold) towards Mordor (facts §7.6)."""
    from wotr_env.agents.heuristic.common import gate_distance

    state = build({"fellowship": {"region": "hollin"}})
    assert reveal_target(state, r(state, "hollin"), 1) != r(state, "moria")
    end = reveal_target(state, r(state, "rivendell"), 2)
    assert end != r(state, "rivendell")
    assert gate_distance(state, end) < gate_distance(state, r(state, "rivendell"))


def test_the_shadow_allocates_hunt_dice() -> None:
    """The Hunt allocation puts at least one die in the Hunt Box (spec §6.3)."""
    state = new_state(5, "2e", max_turns=3)
    rng = np.random.default_rng(0)
    while state.pending.kind != WD.HUNT_ALLOCATION:
        apply(state, heuristic(state, rng))
    action = choose(state, rng)
    assert action in state.pending.options and action[1] >= 1


def test_an_army_attacks_a_weaker_adjacent_army() -> None:
    """Eight Sauron Regulars and two Nazgûl next to one Gondor Regular: the Army die attacks
    it (spec §12.1)."""
    state = build({
        "armies": {"minas-morgul": {"sauron": {"regular": 8, "nazgul": 2}},
                   "south-ithilien": {"gondor": {"regular": 1}}},
        "politics": {"sauron": {"steps": 0}, "gondor": {"steps": 0, "active": True}},
        "dice": {"shadow": ["army"]}, "to_act": "shadow"})
    rng = np.random.default_rng(0)
    assert state.pending.kind == WD.DIE_ACTION
    assert choose(state, rng) == ("action", "attack")
    apply(state, ("action", "attack"))  # the only target: no WD-11 asked
    assert state.pending.context["battle"] == (r(state, "minas-morgul"),
                                               r(state, "south-ithilien"))
    assert choose(state, rng) == DONE  # no rearguard


def test_an_army_does_not_attack_a_stronger_one() -> None:
    """Two Sauron Regulars next to six Gondor units: no attack (the die does something else
    or nothing)."""
    state = build({
        "armies": {"minas-morgul": {"sauron": {"regular": 2}},
                   "south-ithilien": {"gondor": {"regular": 4, "elite": 2}}},
        "politics": {"sauron": {"steps": 0}, "gondor": {"steps": 0, "active": True}},
        "dice": {"shadow": ["army"]}, "to_act": "shadow"})
    assert choose(state, np.random.default_rng(0)) != ("action", "attack")


def test_a_stronghold_under_attack_goes_into_the_siege() -> None:
    """Ten Sauron units attack three Gondor units in Minas Tirith: the defenders retreat
    into the Stronghold, where the attacker hits only on 6 (spec §13.2)."""
    state = build({
        "armies": {"osgiliath": {"sauron": {"regular": 8, "elite": 2, "nazgul": 1}},
                   "minas-tirith": {"gondor": {"regular": 3}}},
        "politics": {"sauron": {"steps": 0}, "gondor": {"steps": 0, "active": True}},
        "dice": {"shadow": ["army"]}, "to_act": "shadow"})
    rng = np.random.default_rng(0)
    apply(state, ("action", "attack"))
    while state.pending.player == SHADOW:  # the rearguard
        apply(state, heuristic(state, rng))
    assert state.pending.kind == WD.STRONGHOLD_CHOICE
    assert choose(state, rng) == choice("into-siege")


def test_a_garrison_stays_in_a_threatened_stronghold() -> None:
    """A Gondor Army leaving Minas Tirith while a Shadow Army stands two regions away keeps a
    garrison there (armies.garrison_needed): the move is split."""
    from wotr_env.agents.heuristic.armies import garrison_needed, split_army
    from wotr_env.engine.decision import Decision

    state = build({
        "armies": {"south-ithilien": {"sauron": {"regular": 6}},
                   "minas-tirith": {"gondor": {"regular": 4}}},
        "politics": {"gondor": {"steps": 0, "active": True}}})
    assert garrison_needed(state, FREE_PEOPLES, r(state, "minas-tirith")) >= 1
    move = Decision(FREE_PEOPLES, WD.SPLIT_ARMY, (choice("all"), choice("part")),
                    context={"edge": (r(state, "minas-tirith"), r(state, "lossarnach")),
                             "part": False})
    assert split_army(state, move) == choice("part")


def test_a_defender_in_its_own_city_does_not_retreat() -> None:
    """After a round in Edoras (a City), the defender stays: leaving would give the City
    away (spec §12.7)."""
    state = build({
        "armies": {"folde": {"isengard": {"regular": 9}},
                   "edoras": {"rohan": {"regular": 2}}},
        "politics": {"isengard": {"steps": 0}, "rohan": {"steps": 0, "active": True}},
        "dice": {"shadow": ["army"]}, "to_act": "shadow",
        "rolls": {"shadow": [1] * 10, "free_peoples": [1] * 10}})
    rng = np.random.default_rng(0)
    apply(state, ("action", "attack"))
    while state.pending.kind != WD.RETREAT:
        apply(state, heuristic(state, rng))
    assert choose(state, rng) == choice("stay")


def test_the_shadow_brings_its_nations_to_war_first() -> None:
    """A Muster die when Sauron is one step from war: diplomacy (facts §7.5)."""
    state = build({"armies": {"minas-morgul": {"sauron": {"regular": 5}}},
                   "politics": {"sauron": {"steps": 1}},
                   "dice": {"shadow": ["muster"]}, "to_act": "shadow"})
    assert choose(state, np.random.default_rng(0)) == ("action", "diplomacy")


def test_every_kind_has_a_rule() -> None:
    """Every decision kind (WD-01 ... WD-38) has a rule of its own."""
    from wotr_env.agents.heuristic.policy import RANDOM_RULES, RULES

    assert set(WD) == set(RULES) | set(RANDOM_RULES)


def wilson_lower(k: int, n: int, z: float = 1.96) -> float:
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["2e", "1e"])
@pytest.mark.parametrize("side", [FREE_PEOPLES, SHADOW])
def test_the_heuristic_beats_random(side: int, ruleset: str) -> None:
    """Issue 28 item 3: 200 games a side (seeds 1000-1199) against uniform random choices:
    the Wilson 95% lower bound of the win rate is at least 0.85 (the issue asks for 100 games
    at least; 200 narrow the interval), and every game ends by a victory condition within 40
    turns (``pytest -s`` prints the tally)."""
    games = 200
    wins, endings, turns = 0, Counter(), []
    for seed in range(1000, 1000 + games):
        state, _ = play_game(seed, ruleset, (side,), max_turns=40)
        assert not state.truncated and state.ending, (seed, state.turn)
        wins += state.winner == side
        endings[state.ending] += 1
        turns.append(state.turn)
    lo, hi = wilson(wins, games)
    print(f"\n{ruleset} heuristic as {SIDE_NAMES[side]} vs random: {wins}/{games} "
          f"[{lo:.3f}, {hi:.3f}]; endings {dict(endings)}; turns mean "
          f"{np.mean(turns):.1f}, max {max(turns)}")
    assert wilson_lower(wins, games) >= 0.85, wins


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["2e", "1e"])
def test_the_heuristic_against_itself(ruleset: str) -> None:
    """Issue 28 item 3, the report of the heuristic's games against itself: 100 games (seeds
    2000-2099, at most 60 turns), how often each side wins and by which condition (``pytest
    -s`` prints it). Each game ends by a victory condition of the side it names, or truncated."""
    games, tally = 100, Counter()
    for seed in range(2000, 2000 + games):
        state, _ = play_game(seed, ruleset, (FREE_PEOPLES, SHADOW), max_turns=60)
        if state.truncated:
            tally["truncated"] += 1
            continue
        assert (state.winner == SHADOW) == (state.ending in ("corruption", "shadow-points")), \
            (seed, state.ending, state.winner)
        tally[(SIDE_NAMES[state.winner], state.ending)] += 1
    shadow = sum(n for k, n in tally.items() if k != "truncated" and k[0] == "shadow")
    print(f"\n{ruleset} heuristic against itself, {games} games: Shadow wins {shadow}; "
          f"{dict(tally)}")
    assert sum(tally.values()) == games
