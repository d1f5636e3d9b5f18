"""Starting positions for 3-6 players (rules spec 4.1-4.3; facts sheet sections 4-6)."""

import numpy as np
import pytest

from got_env.data import TRACKS, UNIT_TYPES
from got_env.engine import CardPlace, GameState, OptionError, Phase, new_game

F, K, S, E = (UNIT_TYPES.index(u) for u in ("footman", "knight", "ship", "siege_engine"))

STARTING_UNITS = {
    "stark": {"winterfell": "KF", "white-harbor": "F", "the-shivering-sea": "S"},
    "lannister": {"lannisport": "KF", "stoney-sept": "F", "the-golden-sound": "S",
                  "port-of-lannisport": "S"},
    "baratheon": {"dragonstone": "KF", "kingswood": "F", "shipbreaker-bay": "SS"},
    "greyjoy": {"pyke": "KF", "port-of-pyke": "S", "ironmans-bay": "S", "greywater-watch": "F"},
    "tyrell": {"highgarden": "KF", "dornish-marches": "F", "redwyne-straits": "S"},
    "martell": {"sunspear": "KF", "salt-shore": "F", "sea-of-dorne": "S"},
}
IN_PLAY = {6: ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"],
           5: ["stark", "lannister", "baratheon", "greyjoy", "tyrell"],
           4: ["stark", "lannister", "baratheon", "greyjoy"],
           3: ["stark", "lannister", "baratheon"]}


def units_of(state: GameState, house: str) -> dict[str, str]:
    rs = state.ruleset
    h = rs.house(house)
    out = {}
    for a in rs.areas:
        row = state.units[a.index, h]
        if row.any():
            out[a.id] = "K" * row[K] + "F" * row[F] + "S" * row[S] + "E" * row[E]
    return out


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_houses_and_starting_units(n):
    """Rules spec 4.1 steps 6, 9 and 4.2; facts §6 (with the errata's Lannister port ship, D1)."""
    s = new_game(n, seed=0)
    rs = s.ruleset
    assert [h.id for h in rs.houses if s.in_play[h.index]] == IN_PLAY[n]
    for h in rs.houses:
        expected = STARTING_UNITS[h.id] if h.id in IN_PLAY[n] else {}
        assert units_of(s, h.id) == expected, h.id


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_home_areas_and_garrisons(n):
    """R13.3.1, R17.1: each house in play controls its home area, which holds a garrison of 2;
    homes of absent houses have neither."""
    s = new_game(n, seed=0)
    rs = s.ruleset
    ctrl = s.control()
    for h in rs.houses:
        home = rs.area(h.home)
        if h.id in IN_PLAY[n]:
            assert ctrl[home] == h.index and s.garrisons[home] == 2
        else:
            assert s.garrisons[home] == 0
    assert int((s.garrisons > 0).sum()) == n


def test_four_player_highgarden_is_empty():
    """Facts §5: at 4 players Highgarden has no garrison, no neutral force, no controller."""
    s = new_game(4, seed=0)
    hg = s.ruleset.area("highgarden")
    assert s.garrisons[hg] == 0 and s.neutral_forces[hg] == 0 and s.control()[hg] == -1
    assert s.neutral_forces[s.ruleset.area("sunspear")] == 5


@pytest.mark.parametrize("n,expected", [
    (6, {"kings-landing": 5, "the-eyrie": 6}),
    (3, {"kings-landing": 5, "the-eyrie": 6}),
    (5, {"kings-landing": 5, "the-eyrie": 6, "sunspear": 5, "salt-shore": 3, "starfall": 3,
         "yronwood": 3, "princes-pass": 3, "the-boneway": 3, "three-towers": 3}),
])
def test_neutral_forces(n, expected):
    """Rules spec 4.3 and facts §5, §12 D4."""
    s = new_game(n, seed=0)
    rs = s.ruleset
    got = {a.id: int(s.neutral_forces[a.index]) for a in rs.areas if s.neutral_forces[a.index]}
    assert got == expected


def test_three_player_impassable_areas():
    """Rules spec 4.3: the twelve "~" tokens make areas impassable; their ports too (facts §2)."""
    s = new_game(3, seed=0)
    blocked = {a.id for a in s.ruleset.areas if s.impassable[a.index]}
    assert len(blocked) == 16
    assert {"pyke", "highgarden", "storms-end", "port-of-pyke", "port-of-storms-end"} <= blocked
    assert not new_game(4, seed=0).impassable.any()


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_tracks_and_dominance_tokens(n):
    """Rules spec 4.1 step 8, facts §4.1: compressed tracks; position 1 holds each dominance token
    (Iron Throne: Baratheon; Blade: Greyjoy, Stark in 3p; Raven: Lannister)."""
    s = new_game(n, seed=0)
    rs = s.ruleset
    for t, name in enumerate(TRACKS):
        assert [rs.houses[h].id for h in s.tracks[t] if h >= 0] == list(rs.setups[n].tracks[name])
        assert (s.tracks[t] >= 0).sum() == n
    holders = [rs.houses[s.holder(t)].id for t in range(3)]
    assert holders == ["baratheon", "stark" if n == 3 else "greyjoy", "lannister"]
    assert [rs.houses[h].id for h in s.turn_order()] == list(rs.setups[n].tracks["iron-throne"])


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_supply_power_victory(n):
    """Facts §4.3-4.5, §6: supply Stark 1, others 2; 5 power each (15 in the Pool); victory track
    Stark 2 (Winterfell, White Harbor), others 1."""
    s = new_game(n, seed=0)
    rs = s.ruleset
    for h in IN_PLAY[n]:
        i = rs.house(h)
        assert s.supply[i] == (1 if h == "stark" else 2)
        assert s.power[i] == 5 and s.power_pool()[i] == 15
        assert s.victory_points()[i] == (2 if h == "stark" else 1)
        assert s.barrels_controlled()[i] == s.supply[i]


def test_round_phase_threat_and_decks():
    """Rules spec 4.1 steps 2, 3, 5; R5.1: round 1 starts with Planning; threat on 2; each
    Westeros deck holds its 10 cards shuffled; the 9 wildling cards shuffled."""
    s = new_game(6, seed=3)
    rs = s.ruleset
    assert (s.round, s.phase, s.wildling_threat) == (1, Phase.PLANNING, 2)
    for d, deck in enumerate(("I", "II", "III")):
        assert sorted(s.westeros_decks[d]) == sorted(c.index for c in rs.westeros_deck(deck))
    assert sorted(s.wildling_deck) == list(range(9))
    assert not s.blade_used and not s.raven_used


def test_hands():
    """Rules spec 4.1 step 7: every house in play holds its 7 house cards; absent houses' cards
    are out of the game."""
    s = new_game(4, seed=0)
    rs = s.ruleset
    for h in rs.houses:
        hand = s.hand(h.index)
        assert len(hand) == (7 if h.id in IN_PLAY[4] else 0)
    assert (s.card_place == CardPlace.OUT_OF_GAME).sum() == 14


def test_lannister_port_ship_option():
    """Facts §12 D2: the port ship stays at 3 players by default; the option removes it."""
    rs = new_game(3).ruleset
    port = rs.area("port-of-lannisport")
    lan = rs.house("lannister")
    assert new_game(3, seed=0).units[port, lan, S] == 1
    s = new_game(3, seed=0, options={"lannister_port_ship_in_3p": False})
    assert s.units[port, lan, S] == 0
    assert new_game(4, seed=0, options={"lannister_port_ship_in_3p": False}).units[
        port, lan, S] == 1


def test_seed_determines_shuffles():
    assert new_game(6, seed=11) == new_game(6, seed=11)
    decks = {tuple(new_game(6, seed=k).wildling_deck) for k in range(10)}
    assert len(decks) > 1


def test_clone_is_equal_and_independent():
    a = new_game(5, seed=1)
    b = a.clone()
    assert a == b
    b.units[0, 0, 0] = 3
    assert a != b and a.units[0, 0, 0] == 0
    c = a.clone()
    assert a.rng.integers(1 << 30) == c.rng.integers(1 << 30)  # same generator state
    c.rng.integers(10)
    assert a != c


def test_control_follows_units_tokens_and_shields():
    """§3 Control, R13.1.1, R13.3.1-R13.3.3: units control; an emptied area stays controlled by a
    power token; an enemy leaving a home area without a token gives it back to its house."""
    s = new_game(6, seed=0)
    rs = s.ruleset
    stark, lan = rs.house("stark"), rs.house("lannister")
    wf, ss = rs.area("winterfell"), rs.area("stoney-sept")
    s.units[ss, lan] = 0
    assert s.control()[ss] == -1
    s.power_tokens[ss] = lan
    assert s.control()[ss] == lan
    s.units[wf, stark] = 0
    s.units[wf, lan, F] = 1
    assert s.control()[wf] == lan
    s.units[wf, lan] = 0
    assert s.control()[wf] == stark
    assert s.power_pool()[lan] == 14


def test_text_rendering():
    text = new_game(3, seed=0).render_text()
    assert "iron-throne  baratheon > lannister > stark" in text
    assert "winterfell [S*] stark: F K | garrison 2" in text
    assert "kings-landing [S*] neutral force 5" in text


@pytest.mark.parametrize("kwargs,match", [
    ({"num_players": 7}, "num_players must be one of"),
    ({"num_players": 2}, "num_players must be one of"),
    ({"num_players": 6, "options": {"tides": True}}, r"unknown option\(s\) \['tides'\]"),
    ({"num_players": 6, "options": {"max_rounds": 0}}, "max_rounds must be"),
    ({"num_players": 6, "options": {"tides_of_battle": "yes"}}, "tides_of_battle must be"),
    ({"num_players": 6, "options": {"ruleset": "3e"}}, "ruleset must be one of"),
])
def test_invalid_options(kwargs, match):
    with pytest.raises(OptionError, match=match):
        new_game(**kwargs)


def test_array_dtypes_are_compact():
    s = new_game(6, seed=0)
    assert s.units.shape == (58, 6, 4) and s.units.dtype == np.int8
    assert s.tracks.shape == (3, 6)
