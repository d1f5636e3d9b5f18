"""The 1st edition's board, setup and victory (1e spec 2, 3, 12, 13; section A items 1-4, 9, 11,
15, 16; readings C.6, C.8, C.9): five houses for 3-5 players, 4 knights and no siege engines,
cities and strongholds, no ports and no garrisons, home crests, the King's Court stars, the tracks
slid up, the unplayed houses' units as neutral forces, the options that do not apply, rivers as
non-adjacency, and the 8/7 stronghold-and-city win and the end-of-game ranking with draws."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from engine_helpers import area, at, build, house, kind, who
from march_helpers import controller, dests, move, play
from march_helpers import march as _march

from got_env.data import TRACKS, UNIT_TYPES, load_ruleset
from got_env.engine import (
    DONE,
    NO,
    YES,
    DecisionKind,
    OptionError,
    Phase,
    apply,
    invariants,
    new_game,
)
from got_env.engine.mustering import muster_options
from got_env.engine.planning import star_limit, usable_tokens
from got_env.engine.scenario import ScenarioError
from got_env.engine.state import FOOTMAN, KNIGHT, SIEGE_ENGINE
from got_env.engine.support import can_support

RS = load_ruleset("1e")
IRON_THRONE, FIEFDOMS, KINGS_COURT = range(3)


def build1e(**spec):
    """A 1st-edition scenario (3 players unless given)."""
    return build(ruleset="1e", **{"players": 3, **spec})


def ids(state, houses) -> list[str]:
    return [state.ruleset.houses[h].id for h in houses]


# -- A.1, spec 13: five houses, 3-5 players -----------------------------------------------------


def test_a1_five_houses_for_three_to_five_players():
    """1e spec 1, 13, A.1: Stark, Lannister, Baratheon, Greyjoy and Tyrell (no Martell); a game
    has 3, 4 or 5 players, with Greyjoy left out at 4 and Greyjoy and Tyrell at 3."""
    assert [h.id for h in RS.houses] == ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]
    in_play = {n: ids(s, np.flatnonzero(s.in_play))
               for n in (3, 4, 5) for s in [new_game(n, options={"ruleset": "1e"})]}
    assert in_play == {3: ["stark", "lannister", "baratheon"],
                       4: ["stark", "lannister", "baratheon", "tyrell"],
                       5: ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]}


@pytest.mark.parametrize("n", [2, 6])
def test_a1_six_or_two_players_refused(n):
    """A.1: no 6-player (or 2-player) game in the 1st edition: a clear OptionError."""
    with pytest.raises(OptionError, match=r"num_players must be one of \(3, 4, 5\) for ruleset "
                                          r"'1e', got " + str(n)):
        new_game(n, options={"ruleset": "1e"})


# -- A.2: 4 knights, no siege engines ---------------------------------------------------------


def _stark_musters(units: dict[str, str]):
    """Stark (supply 6) musters in Winterfell (a stronghold: 2 points) with ``units``."""
    s = build1e(units={"stark": units}, supply={"stark": 6})
    return muster_options(s, house(s, "stark"), area(s, "winterfell"), 2)


def test_a2_no_fifth_knight_and_never_a_siege_engine():
    """1e spec 1, A.2: a house owns 4 knights and no siege engine. With 3 knights on the board
    Stark may muster a knight in Winterfell or upgrade its Footman there; with all 4 out it may
    do neither; a siege engine is never offered (the 2e box has 2)."""
    assert (RS.unit_pool["knight"], RS.unit_pool["siege_engine"]) == (4, 0)
    three = _stark_musters({"winterfell": "F", "karhold": "KK", "white-harbor": "K"})
    assert ("muster", KNIGHT, area(build1e(), "winterfell")) in three
    assert ("upgrade", KNIGHT) in three
    four = _stark_musters({"winterfell": "F", "karhold": "KK", "white-harbor": "KK"})
    assert not [o for o in four if o[1] == KNIGHT]
    assert ("muster", FOOTMAN, area(build1e(), "winterfell")) in four
    for options in (three, four):
        assert not [o for o in options if o[1] == SIEGE_ENGINE]


def test_a2_scenario_refuses_a_fifth_knight_or_a_siege_engine():
    """1e spec 1, A.2: a position with 5 Stark knights or any siege engine is refused."""
    with pytest.raises(ScenarioError, match="5 knights; the box holds 4"):
        build1e(units={"stark": {"winterfell": "KKK", "karhold": "KK"}})
    with pytest.raises(ScenarioError, match="1 siege_engines; the box holds 0"):
        build1e(units={"stark": {"winterfell": "FE"}})


# -- A.3, spec 2.3: cities and strongholds -----------------------------------------------------


def test_a3_cities_and_strongholds_muster_one_and_two_points():
    """1e spec 2.3, 5.2, A.3: a stronghold gives 2 mustering points, a city 1: when the Mustering
    card comes, Lannister may muster in Lannisport (stronghold, 2) and Harrenhal (city, 1)."""
    forts = {a.fortification for a in RS.areas} - {None}
    assert forts == {"city", "stronghold"}
    assert {a.fortification: a.mustering_points for a in RS.areas if a.fortification} == {
        "city": 1, "stronghold": 2}
    s = build1e(round=2, start="westeros", westeros_top={"I": ["mustering"]},
                units={"lannister": {"lannisport": "F", "harrenhal": "F"}})
    while kind(s) == DecisionKind.MUSTER and who(s) != "lannister":
        apply(s, DONE)
    assert kind(s) == DecisionKind.MUSTER and who(s) == "lannister"
    assert s.pending.context["points"] == {area(s, "lannisport"): 2, area(s, "harrenhal"): 1}


def test_a3_cities_and_strongholds_are_victory_sites():
    """1e spec 2.3, 12, A.3: every stronghold and city counts: Lannister holds Lannisport (its
    crest), Riverrun (a stronghold) and Harrenhal (a city) by units, Crackclaw Point (a city) by
    a power token; Stoney Sept (neither) does not count."""
    s = build1e(units={"lannister": {"riverrun": "F", "harrenhal": "F", "stoney-sept": "F"}},
                power_tokens={"crackclaw-point": "lannister"})
    assert int(s.victory_points()[house(s, "lannister")]) == 4


# -- A.4: no ports, no garrisons; home crests (C.6) --------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5])
def test_a4_no_ports_and_no_garrisons(n):
    """A.4, facts 2.2 items 1-2: the board has no port and no home area holds a garrison token;
    a scenario cannot place one, and the invariants reject one."""
    assert "port" not in {a.kind for a in RS.areas}
    s = new_game(n, options={"ruleset": "1e"})
    assert not s.garrisons.any()
    invariants.check(s)
    s.garrisons[area(s, "winterfell")] = 2
    with pytest.raises(invariants.InvariantError, match="without garrisons"):
        invariants.check(s)
    with pytest.raises(ScenarioError, match="has no garrisons"):
        build1e(garrisons={"winterfell": 2})


@pytest.mark.parametrize("leave_token,owner", [(False, "lannister"), (True, "stark")])
def test_c6_home_crest_keeps_control_of_an_empty_home(leave_token, owner):
    """1e spec 2.2, C.6: an empty Lannisport is Lannister's; a Stark Footman there takes it;
    when it marches out, the crest gives it back to Lannister unless Stark leaves a power token
    (then Stark holds it)."""
    s = _march({"ruleset": "1e", "players": 3, "start": "marches",
                "units": {"stark": {"lannisport": "F"}},
                "orders": {"lannisport": "march-0"}}, "stark", "lannisport")
    assert controller(s, "lannisport") == "stark"
    empty = build1e(units={})
    assert empty.control()[area(empty, "lannisport")] == house(empty, "lannister")
    move(s, FOOTMAN, "stoney-sept")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "stark", YES if leave_token else NO)
    assert controller(s, "lannisport") == owner
    assert controller(s, "stoney-sept") == "stark"


# -- A.9, spec 13: King's Court stars and the tracks slid up -----------------------------------


@pytest.mark.parametrize("n,stars", [(3, [3, 3, 2]), (4, [3, 3, 2, 1]), (5, [3, 3, 2, 1, 0])])
def test_a9_kings_court_stars_per_position(n, stars):
    """1e spec 5.3, A.9 (got_env/data/1e/tracks.yaml): position 3 allows 2 special orders and
    the 5th none (the rulebook); with fewer players the markers slide up, so the first positions
    of the 5-player track apply. The last house of a 5-player game is offered no special token."""
    s = new_game(n, options={"ruleset": "1e"})
    order = s.tracks[KINGS_COURT, :n].tolist()
    assert [star_limit(s, h) for h in order] == stars
    last = order[-1]
    specials = [t for t in usable_tokens(s, last) if s.ruleset.order_tokens[t].special]
    assert bool(specials) == (stars[-1] > 0)


def test_13_influence_tracks_slide_up_at_four_players():
    """1e spec 13: at 4 players Greyjoy's markers are left off and those below move up: Tyrell,
    second on the Fiefdoms, is first and holds the Blade (the rulebook's example)."""
    s = new_game(4, options={"ruleset": "1e"})
    tracks = {t: ids(s, s.tracks[i][s.tracks[i] >= 0]) for i, t in enumerate(TRACKS)}
    assert tracks == {"iron-throne": ["baratheon", "lannister", "stark", "tyrell"],
                      "fiefdoms": ["tyrell", "stark", "baratheon", "lannister"],
                      "kings-court": ["lannister", "stark", "baratheon", "tyrell"]}
    assert ids(s, [s.holder(FIEFDOMS)]) == ["tyrell"]


def test_13_three_players_tracks_and_dominance_tokens():
    """1e spec 3 step 4a, 13: at 3 players Stark moves up to first on the Fiefdoms (the Blade);
    Lannister keeps the King's Court (the Raven) and Baratheon the Iron Throne."""
    s = new_game(3, options={"ruleset": "1e"})
    assert ids(s, [s.holder(IRON_THRONE), s.holder(FIEFDOMS), s.holder(KINGS_COURT)]) == [
        "baratheon", "stark", "lannister"]
    assert (s.tracks[:, 3:] < 0).all()


# -- spec 3, 10, 13: starting units and neutral forces -----------------------------------------


def _units(s, h: str) -> dict[str, str]:
    out = {}
    for a in np.flatnonzero(s.units[:, house(s, h)].sum(axis=1)):
        counts = s.units[a, house(s, h)]
        out[s.ruleset.areas[a].id] = "".join("FKSE"[u] * int(counts[u]) for u in range(4))
    return out


TOKENS = {"kings-landing": 5, "the-eyrie": 6, "sunspear": 5}
GREYJOY = {"pyke": 3, "greywater-watch": 1, "ironmans-bay": 1}
TYRELL = {"highgarden": 3, "dornish-marches": 1, "redwyne-straits": 1}


@pytest.mark.parametrize("n,neutral", [(5, TOKENS), (4, {**TOKENS, **GREYJOY}),
                                       (3, {**TOKENS, **GREYJOY, **TYRELL})])
def test_13_unplayed_houses_stand_as_neutral_forces(n, neutral):
    """1e spec 3 step 1, 10, 13: the three tokens at every count, plus each unplayed house's
    starting units, one force per area of their summed strength (footman 1, knight 2, ship 1), at
    sea too: Greyjoy's Pyke Knight + Footman make 3, its ship in Ironman's Bay 1. The unplayed
    houses have no unit of their own; no area is impassable (facts 2.3)."""
    s = new_game(n, options={"ruleset": "1e"})
    got = {s.ruleset.areas[a].id: int(s.neutral_forces[a]) for a in np.flatnonzero(
        s.neutral_forces)}
    assert got == neutral
    for h in np.flatnonzero(~s.in_play):
        assert not s.units[:, h].any()
    assert not s.impassable.any()


def test_3_starting_units_of_the_rulebook():
    """1e spec 3 (worked example): Lannister starts with a Knight and a Footman in Lannisport, a
    Footman in Stoney Sept and a ship in The Golden Sound, supply 2 and 5 power; at 5 players
    Greyjoy with a Knight and a Footman in Pyke and a Footman in Greywater Watch."""
    s = new_game(5, options={"ruleset": "1e"})
    assert _units(s, "lannister") == {"lannisport": "FK", "stoney-sept": "F",
                                      "the-golden-sound": "S"}
    assert {k: v for k, v in _units(s, "greyjoy").items() if v != "S"} == {
        "pyke": "FK", "greywater-watch": "F"}
    assert (int(s.supply[house(s, "lannister")]), int(s.power[house(s, "lannister")])) == (2, 5)


# -- A.11, A.16: options that do not apply -----------------------------------------------------


@pytest.mark.parametrize("option,value,why", [
    ("tides_of_battle", True, "has no tides of battle"),
    ("lannister_port_ship_in_3p", False, "has no ports"),
    ("tiebreak", "errata", "must be one of"),
])
def test_a11_a16_options_of_the_second_edition_refused(option, value, why):
    """A.11 (no Tides of Battle), A.4 (no ports, so no Port of Lannisport ship), A.3 (one tie-
    break chain), A.16 (no expansions: nothing else to switch on): refused, naming the option."""
    with pytest.raises(OptionError, match=f"{option}.*{why}"):
        new_game(3, options={"ruleset": "1e", option: value})


def test_a3_the_first_edition_chain_is_not_a_second_edition_option():
    """A.3: the 2e chains are unchanged; "first-edition" is not one of them."""
    with pytest.raises(OptionError, match="tiebreak must be one of"):
        new_game(3, options={"tiebreak": "first-edition"})


# -- A.15: rivers as non-adjacency -------------------------------------------------------------


def test_a15_rivers_are_non_adjacency_and_the_twins_a_bridge():
    """1e spec 2.1, A.15 (2e facts: river edges are absent pairs, a bridge is a pair): on the
    stand-in board Harrenhal and The Mountains of the Moon, across the Trident, are not
    neighbours: no march and no support between them; The Twins, the bridge over the Green Fork,
    borders The Mountains of the Moon: a march and a support cross it."""
    assert not RS.is_adjacent("harrenhal", "the-mountains-of-the-moon")
    assert RS.is_adjacent("the-twins", "the-mountains-of-the-moon")
    for origin, crosses in (("harrenhal", False), ("the-twins", True)):
        s = _march({"ruleset": "1e", "players": 3,
                    "units": {"stark": {origin: "F"}}, "orders": {origin: "march-0"}},
                   "stark", origin)
        assert ("the-mountains-of-the-moon" in dests(s, FOOTMAN)) == crosses
        assert can_support(s, area(s, origin), area(s, "the-mountains-of-the-moon")) == crosses


# -- spec 12, A.3: victory ---------------------------------------------------------------------

# Lannister holds six strongholds/cities: Lannisport (its crest), Riverrun and Seagard with units,
# Harrenhal, Crackclaw Point and The Reach with power tokens. Its Footmen in The Twins march.
SIX_UNITS = {"riverrun": "F", "seagard": "F", "the-twins": "FF", "stoney-sept": "F"}
SIX_TOKENS = {"harrenhal": "lannister", "crackclaw-point": "lannister",
              "the-reach": "lannister"}


def _to_moat_cailin(players: int, tokens: dict[str, str]):
    s = build1e(players=players, start="marches", units={"lannister": SIX_UNITS},
                power_tokens=tokens,
                orders={"the-twins": "march-0", "stoney-sept": "march-0"})
    assert (kind(s), who(s)) == (DecisionKind.MARCH_TO_RESOLVE, "lannister")
    apply(s, at(s, "the-twins"))
    apply(s, ("move", FOOTMAN, area(s, "moat-cailin")))
    return s


@pytest.mark.parametrize("players,ends", [(3, False), (4, True), (5, True)])
def test_12_seven_strongholds_and_cities_win_at_four_and_five_players(players, ends):
    """1e spec 12, 13, C.8: Lannister's march into Moat Cailin (a city) makes 7 areas with a
    stronghold or city held at once: the game ends on the spot at 4 and 5 players, not at 3."""
    s = _to_moat_cailin(players, SIX_TOKENS)
    assert int(s.victory_points()[house(s, "lannister")]) == 7
    assert (s.phase == Phase.ENDED) == ends
    if ends:
        assert s.outcome.winner == house(s, "lannister")
        assert s.outcome.reason == "seven-castles" and s.outcome.draw == ()
    else:
        assert s.outcome is None and kind(s) == DecisionKind.MARCH_MOVE


def test_12_eight_strongholds_and_cities_win_at_three_players():
    """1e spec 12, 13: at 3 players the 8th (Moat Cailin, with Storm's End's token as the 7th)
    ends the game at once."""
    s = _to_moat_cailin(3, {**SIX_TOKENS, "storms-end": "lannister"})
    assert int(s.victory_points()[house(s, "lannister")]) == 8
    assert s.phase == Phase.ENDED and s.outcome.winner == house(s, "lannister")
    assert s.outcome.draw == ()


def final(**spec):
    """3 players at the end of round 10 (no order left: the game ends at once); no units unless
    given, so each house holds its home by its crest (one stronghold each)."""
    spec.setdefault("units", {})
    s = build1e(round=10, start="consolidate", **spec)
    assert s.phase == Phase.ENDED and s.pending is None
    assert s.outcome.reason == "last-round"
    assert s.outcome.winner == s.outcome.ranking[0]
    return s


def test_12_most_strongholds_and_cities_win_after_round_ten():
    """1e spec 12: after round 10 the house with the most stronghold and city areas wins:
    Baratheon with Dragonstone and Crackclaw Point, though Stark has the higher supply."""
    s = final(units={"baratheon": {"crackclaw-point": "F"}},
              supply={"stark": 4, "lannister": 2, "baratheon": 1})
    assert ids(s, s.outcome.ranking) == ["baratheon", "stark", "lannister"]
    assert s.outcome.draw == ()


def test_12_tie_break_supply_then_available_power_not_land_areas():
    """1e spec 12, A.3, C.9: equal sites, then the higher supply (Stark), then more available
    power (Lannister's 6 over Baratheon's 3); Baratheon's three extra land areas (the errata's
    2e tie-break) count for nothing."""
    s = final(units={"baratheon": {"kingswood": "F", "blackwater": "F", "the-boneway": "F"}},
              supply={"stark": 3, "lannister": 2, "baratheon": 2},
              power={"stark": 0, "lannister": 6, "baratheon": 3})
    assert ids(s, s.outcome.ranking) == ["stark", "lannister", "baratheon"]
    assert s.outcome.draw == ()


def test_c9_power_tokens_on_the_board_do_not_count():
    """Reading C.9: "more power tokens" means available ones: Baratheon's 4 available and 6 on
    the board lose to Lannister's 5 available."""
    tokens = {a: "baratheon" for a in ("kingswood", "blackwater", "the-boneway", "stoney-sept",
                                        "searoad-marches", "the-mountains-of-the-moon")}
    s = final(power_tokens=tokens, supply={"stark": 1, "lannister": 2, "baratheon": 2},
              power={"stark": 5, "lannister": 5, "baratheon": 4})
    assert ids(s, s.outcome.ranking) == ["lannister", "baratheon", "stark"]


def test_12_all_equal_is_a_draw():
    """1e spec 12 ("otherwise the game is a draw"): equal sites, supply and available power:
    Outcome.draw lists the three houses, in Iron Throne order; ``winner`` is the first of them."""
    s = final(supply={"stark": 2, "lannister": 2, "baratheon": 2},
              power={"stark": 5, "lannister": 5, "baratheon": 5})
    assert ids(s, s.outcome.draw) == ["baratheon", "lannister", "stark"]
    assert ids(s, [s.outcome.winner]) == ["baratheon"]
    s = final(supply={"stark": 2, "lannister": 2, "baratheon": 2},
              power={"stark": 5, "lannister": 5, "baratheon": 5},
              tracks={"iron-throne": ["stark", "lannister", "baratheon"]})
    assert ids(s, s.outcome.draw) == ["stark", "lannister", "baratheon"]
    assert ids(s, [s.outcome.winner]) == ["stark"]


def test_12_a_draw_between_the_first_two_only():
    """1e spec 12: Stark has the lower supply; Baratheon and Lannister are equal in all: they
    share the game, Stark is third."""
    s = final(supply={"stark": 1, "lannister": 2, "baratheon": 2},
              power={"stark": 9, "lannister": 5, "baratheon": 5})
    assert ids(s, s.outcome.draw) == ["baratheon", "lannister"]
    assert ids(s, s.outcome.ranking) == ["baratheon", "lannister", "stark"]


# -- the data on the command line --------------------------------------------------------------


def test_cli_prints_the_first_edition():
    """``python -m got_env.data --ruleset 1e``: 50 areas (38 land, 12 sea), no port, 5 houses,
    4 knights and no siege engine, no wildling or Tides of Battle cards."""
    out = subprocess.run([sys.executable, "-m", "got_env.data", "--ruleset", "1e"],
                         capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)
    assert doc["ruleset"] == "1e"
    kinds = [a["kind"] for a in doc["areas"]]
    assert (len(kinds), kinds.count("land"), kinds.count("sea"), kinds.count("port")) == (
        50, 38, 12, 0)
    assert not any(a["port_land"] or a["port_sea"] for a in doc["areas"])
    assert len(doc["houses"]) == 5 and sorted(doc["setups"]) == ["3", "4", "5"]
    assert doc["unit_pool"] == {"footman": 10, "knight": 4, "ship": 6, "siege_engine": 0}
    assert doc["wildling_cards"] == [] and doc["tides_of_battle"] == []
    assert set(UNIT_TYPES) == set(doc["unit_pool"])
