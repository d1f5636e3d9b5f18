"""Action phase and round structure (rules spec R5.1-R5.4, §12 steps, R12.1.1-R12.1.2, R12.5;
DECISIONS D-24, D-26, D-48)."""

import numpy as np
from engine_helpers import area, at, build, kind, option_areas, option_tokens, orders, who

from got_env.engine import DONE, NO, DecisionKind, Phase, apply, start_game
from got_env.engine.state import FOOTMAN

QUIET = {"I": ["last-days-of-summer"], "II": ["last-days-of-summer"], "III": ["web-of-lies"]}

# Baratheon (Iron Throne 1) raids from Blackwater and Kingswood, Lannister (2) from Stoney
# Sept, Greyjoy (5) from Ironman's Bay; Stark (3) and Tyrell (6) have none. Each raid has a
# target: Tyrell's Support in King's Landing, Stark's in Riverrun.
RAIDERS = {
    "baratheon": {"blackwater": "F", "kingswood": "F"},
    "lannister": {"stoney-sept": "F"},
    "greyjoy": {"ironmans-bay": "S"},
    "tyrell": {"kings-landing": "F"},
    "stark": {"riverrun": "F", "winterfell": "F"},
}
RAID_ORDERS = {"blackwater": "raid-a", "kingswood": "raid-b", "stoney-sept": "raid-a",
               "ironmans-bay": "raid-a", "kings-landing": "support-0a",
               "riverrun": "support-0a", "winterfell": "march-0"}


def raid_sequence(state):
    """Decline every raid; return (house, raid area) in the order they resolve."""
    seen = []
    while kind(state) in (DecisionKind.RAID_TO_RESOLVE, DecisionKind.RAID_TARGET):
        if kind(state) == DecisionKind.RAID_TO_RESOLVE:
            apply(state, state.pending.options[0])
            continue
        seen.append((who(state), state.ruleset.areas[state.pending.context["area"]].id))
        apply(state, DONE)
    return seen


def test_r12_1_1_one_order_each_in_turn_order_round_after_round():
    """R12.1.1, D-24: in Iron Throne order each house resolves one Raid; houses without one
    are skipped; Baratheon's second Raid comes after everyone else's first."""
    s = build(start="raids", units=RAIDERS, orders=RAID_ORDERS, neutral_forces={})
    assert (kind(s), who(s)) == (DecisionKind.RAID_TO_RESOLVE, "baratheon")
    assert option_areas(s) == ["blackwater", "kingswood"]
    apply(s, at(s, "kingswood"))
    seq = raid_sequence(s)
    assert seq == [("baratheon", "kingswood"), ("lannister", "stoney-sept"),
                   ("greyjoy", "ironmans-bay"), ("baratheon", "blackwater")]
    assert (kind(s), who(s)) == (DecisionKind.MARCH_MOVE, "stark")


def test_r12_1_1_turn_order_follows_the_iron_throne_track():
    """R12.1.1, §3 turn order: with the Iron Throne track reordered, so is the resolution."""
    s = build(start="raids", units=RAIDERS, orders=RAID_ORDERS, neutral_forces={},
              tracks={"iron-throne": ["greyjoy", "stark", "tyrell", "lannister", "martell",
                                      "baratheon"]})
    seq = raid_sequence(s)
    assert [h for h, _ in seq] == ["greyjoy", "lannister", "baratheon", "baratheon"]


def test_r12_1_1_a_raided_raid_is_not_resolved():
    """R12.1.1, R12.2.1: a Raid removed by an earlier raid is gone; its house, with no Raid
    left, is skipped."""
    s = build(start="raids", units=RAIDERS, orders=RAID_ORDERS, neutral_forces={})
    apply(s, at(s, "blackwater"))
    assert option_areas(s) == ["kings-landing", "stoney-sept"]
    apply(s, at(s, "stoney-sept"))  # Baratheon removes Lannister's Raid
    assert "stoney-sept" not in orders(s)
    seq = raid_sequence(s)
    assert seq == [("greyjoy", "ironmans-bay"), ("baratheon", "kingswood")]


def test_s12_steps_raids_then_marches_then_consolidate():
    """§12 steps 1-3: every Raid resolves before any March, every March before any CP."""
    s = build(start="raids", options={"max_rounds": 1},
              units={"baratheon": {"dragonstone": "F", "kingswood": "F", "blackwater": "F"},
                     "lannister": {"stoney-sept": "F", "lannisport": "F"},
                     "stark": {"riverrun": "F"}},
              orders={"dragonstone": "consolidate-power-a", "kingswood": "consolidate-power-b",
                      "blackwater": "march-0", "stoney-sept": "raid-a",
                      "lannisport": "support-0a", "riverrun": "support-0a"})
    seen = []
    while s.pending is not None:
        seen.append((kind(s), who(s)))
        apply(s, DONE if DONE in s.pending.options else s.pending.options[0])
    assert seen == [(DecisionKind.RAID_TARGET, "lannister"),
                    (DecisionKind.MARCH_MOVE, "baratheon"),
                    (DecisionKind.CONSOLIDATE_TO_RESOLVE, "baratheon")]


def test_r12_5_cleanup_and_r5_4_game_ends_after_round_10():
    """R12.5, R5.4, R22.3: after the last CP, remaining Support and Defense orders go, routed
    units stand up, the Raven and the Blade turn back; in round 10 the game then ends (no
    Westeros phase of an 11th round)."""
    s = build(start="consolidate", round=10,
              units={"stark": {"winterfell": "FF", "white-harbor": "F"},
                     "lannister": {"lannisport": "K"}},
              routed={"stark": {"winterfell": "F"}, "lannister": {"lannisport": "K"}},
              orders={"winterfell": "defense-special", "white-harbor": "support-0a",
                      "lannisport": "consolidate-power-a"},
              blade_used=True, raven_used=True)
    assert s.pending is None and s.phase == Phase.ENDED
    assert s.outcome.reason == "last-round"
    assert s.round == 10
    assert (s.orders == -1).all()
    assert not s.routed.any()
    assert not s.blade_used and not s.raven_used
    assert not s.orders_revealed


def test_r5_2_next_round_starts_with_a_westeros_phase():
    """R5.2, R12.5, R12.1.2, R5.1: after round 1's Action phase, round 2 opens with a Westeros
    phase (one card of each deck) and then Planning, where every token (used ones included) is
    available again; cleanup left no order, no routed unit, Raven and Blade available."""
    s = build(start="consolidate", westeros_top=QUIET,
              units={"stark": {"winterfell": "F"}, "lannister": {"lannisport": "F"}},
              routed={"stark": {"winterfell": "F"}},
              orders={"winterfell": "defense-special", "lannisport": "consolidate-power-a"},
              blade_used=True, raven_used=True)
    assert s.round == 2
    assert s.westeros_drawn.tolist() == [1, 1, 1]
    assert (kind(s), s.phase) == (DecisionKind.PLACE_ORDERS, Phase.PLANNING)
    assert (s.orders == -1).all() and not s.routed.any()
    assert not s.blade_used and not s.raven_used and not s.orders_revealed
    first = s.ruleset.areas[s.pending.options[0][1]].id
    # Web of Lies bans Support: every other kind, the special tokens included, is back.
    assert option_tokens(s, first) == sorted(
        ["consolidate-power-a", "consolidate-power-special", "defense-1a", "defense-special",
         "march-0", "march-minus-1", "march-special", "raid-a", "raid-special"])


def test_r5_1_round_one_has_no_westeros_phase():
    """R5.1: a new game begins in round 1 with the Planning phase; no Westeros card is drawn."""
    s = start_game(num_players=4, seed=3)
    assert (s.round, s.phase) == (1, Phase.PLANNING)
    assert kind(s) == DecisionKind.PLACE_ORDERS
    assert s.westeros_drawn.tolist() == [0, 0, 0]


def test_r12_1_1_march_loop_in_turn_order():
    """R12.1.1, D-26: Marches alternate in turn order like Raids (Baratheon, Lannister,
    Baratheon); moving units does not change whose turn comes next."""
    s = build(start="marches", options={"max_rounds": 1},
              units={"baratheon": {"kingswood": "F", "blackwater": "F"},
                     "lannister": {"stoney-sept": "F"}},
              orders={"kingswood": "march-0", "blackwater": "march-minus-1",
                      "stoney-sept": "march-0"})
    assert (kind(s), who(s)) == (DecisionKind.MARCH_TO_RESOLVE, "baratheon")
    apply(s, at(s, "blackwater"))
    apply(s, DONE)
    assert (kind(s), who(s), s.pending.context["area"]) == (
        DecisionKind.MARCH_MOVE, "lannister", area(s, "stoney-sept"))
    apply(s, ("move", FOOTMAN, area(s, "harrenhal")))  # nothing left to move: done is played
    assert kind(s) == DecisionKind.LEAVE_POWER_TOKEN
    apply(s, NO)
    assert (kind(s), who(s), s.pending.context["area"]) == (
        DecisionKind.MARCH_MOVE, "baratheon", area(s, "kingswood"))
    apply(s, DONE)
    assert s.phase == Phase.ENDED
    assert np.count_nonzero(s.units[area(s, "harrenhal")]) == 1
