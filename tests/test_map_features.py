"""Map features (rules spec §19, R19.2-R19.5; facts §2: rivers and bridges are built into the
adjacency list, a border exists only where two areas are adjacent)."""

from __future__ import annotations

from engine_helpers import area
from march_helpers import dests
from march_helpers import march as _march

from got_env.data import load_ruleset
from got_env.engine.state import FOOTMAN, LAND
from got_env.engine.support import can_support

RS = load_ruleset("2e")


def test_r19_2_a_river_separates_harrenhal_from_the_mountains_of_the_moon():
    """R19.2: Harrenhal and The Mountains of the Moon, separated only by the Trident, are not
    adjacent for any purpose: a Footman in Harrenhal cannot march there, nor support a combat
    there."""
    assert not RS.is_adjacent("harrenhal", "the-mountains-of-the-moon")
    s = _march({"players": 3, "units": {"stark": {"harrenhal": "F"}},
                "orders": {"harrenhal": "march-0"}}, "stark", "harrenhal")
    assert "the-mountains-of-the-moon" not in dests(s, FOOTMAN)
    assert not can_support(s, area(s, "harrenhal"), area(s, "the-mountains-of-the-moon"))


def test_r19_3_the_bridge_at_the_twins_makes_them_adjacent():
    """R19.3: where a bridge crosses the river (The Twins over the Green Fork), the two areas are
    adjacent for every purpose: the march and the support both cross."""
    assert RS.is_adjacent("the-twins", "the-mountains-of-the-moon")
    s = _march({"players": 3, "units": {"stark": {"the-twins": "F"}},
                "orders": {"the-twins": "march-0"}}, "stark", "the-twins")
    assert "the-mountains-of-the-moon" in dests(s, FOOTMAN)
    assert can_support(s, area(s, "the-twins"), area(s, "the-mountains-of-the-moon"))


def test_r19_4_r19_5_the_only_islands_are_dragonstone_pyke_and_the_arbor():
    """R19.4, R19.5: the land areas with no land neighbour are exactly Dragonstone, Pyke and The
    Arbor; the small islands drawn without a white border are no area at all (facts §2: the
    board's 38 land areas)."""
    land = [a.id for a in RS.areas if RS.kind[a.index] == LAND]
    islands = {a for a in land
               if not any(RS.is_adjacent(a, b) for b in land if b != a)}
    assert islands == {"dragonstone", "pyke", "the-arbor"}
    assert len(land) == 38
