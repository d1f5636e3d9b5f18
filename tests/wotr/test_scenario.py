"""The scenario builder (scenario.py): every key lands where it says, scripted chance gives the
scripted values, and every impossible position raises :class:`ScenarioError` naming its entry
(issue 27, "Scope and shape": a scenario builder with scripted randomness)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from wotr_env.data import FIGURES, NATIONS
from wotr_env.engine import FREE_PEOPLES, SHADOW, WD, ScenarioError, build, play
from wotr_env.engine.chance import ScriptError
from wotr_env.engine.decision import ARMY, ARMY_MUSTER, CHARACTER, EVENT, MUSTER, WILL, choice
from wotr_env.engine.digest import digest
from wotr_env.engine.invariants import check
from wotr_env.engine.scenario import KEYS
from wotr_env.engine.state import ELIMINATED, IN_FELLOWSHIP, NO_SIDE, NOT_IN_PLAY

FULL: dict[str, Any] = {
    "ruleset": "2e", "turn": 4, "start": "action", "to_act": "shadow", "seed": 11,
    "max_turns": 9,
    "armies": {"osgiliath": {"gondor": {"regular": 2, "leader": 1}},
               "gorgoroth": {"sauron": {"regular": 3, "elite": 1, "nazgul": 2}}},
    "boxes": {"minas-tirith": {"gondor": {"regular": 3, "elite": 1}}},
    "control": {"dale": "shadow"},
    "politics": {"gondor": {"steps": 1, "active": True}, "sauron": {"steps": 0}},
    "characters": {"strider": "minas-tirith", "boromir": "eliminated", "saruman": "orthanc",
                   "gimli": "out"},
    "fellowship": {"region": "moria", "progress": 3, "revealed": True, "corruption": 5,
                   "guide": "strider", "mordor_step": -1},
    "hunt": {"box": {"shadow": 2, "eyes": 1, "fp": 1}, "drawn": ["std-3-1"],
             "removed": ["std-eye-1"], "specials_in_play": ["shelobs-lair"]},
    "dice": {"free_peoples": ["character", "event"], "shadow": ["army", "muster", "event"]},
    "dice_pool": {"free_peoples": 5},
    "rings": ["free_peoples", "shadow", "gone"],
    "hands": {"free_peoples": ["fp-char-09-athelas"], "shadow": ["sh-strat-06-stormcrow"]},
    "decks": {"fp-strategy": ["fp-strat-01-the-last-battle", "fp-strat-02-a-power-too-great"]},
    "table": ["fp-strat-06-faramirs-rangers"],
    "casualties": {"rohan": {"regular": 2}},
    "rolls": {"free_peoples": [1, 2], "shadow": [6]},
    "tiles": ["std-2-1"],
    "companions": ["legolas"],
}


def test_every_key_is_exercised() -> None:
    """The test scenario names every key the builder knows."""
    assert set(FULL) == KEYS


def test_every_key_lands_in_the_state() -> None:
    """Each key of a scenario sets the part of the state it names; the reinforcements are what
    each nation owns less what is placed (scenario.py)."""
    s = build(FULL)
    rs = s.ruleset
    board, cards = rs.board, rs.cards
    r, n, k = board.region, NATIONS.index, FIGURES.index
    assert check(s) == []
    assert (s.turn, s.phase, s.max_turns, s.pending.player, s.pending.kind) == (
        4, 5, 9, SHADOW, WD.CHOOSE_DIE)
    assert s.army[r("osgiliath"), n("gondor")].tolist() == [2, 0, 1, 0]
    assert s.army[r("gorgoroth"), n("sauron")].tolist() == [3, 1, 0, 2]
    assert s.box[r("minas-tirith"), n("gondor")].tolist() == [3, 1, 0, 0]
    assert s.army.sum() == 9 and s.box.sum() == 4
    assert s.casualties[n("rohan"), k("regular")] == 2
    assert (s.reserve == board.figures - s.army.sum(0) - s.box.sum(0) - s.casualties).all()
    assert s.control[r("dale")] == SHADOW
    assert s.control[r("minas-tirith")] == FREE_PEOPLES
    assert s.control[r("fords-of-isen")] == NO_SIDE  # a Fortification is not a Settlement
    assert (s.politics[n("gondor")], s.active[n("gondor")]) == (1, True)
    assert s.politics[n("sauron")] == 0
    assert s.politics[n("rohan")] == board.nations[n("rohan")].steps_to_war
    c = cards.character
    assert s.char_at[c("strider")] == r("minas-tirith")
    assert s.char_at[c("boromir")] == ELIMINATED
    assert s.char_at[c("gimli")] == NOT_IN_PLAY
    assert s.char_at[c("saruman")] == r("orthanc")
    assert s.char_at[c("legolas")] == IN_FELLOWSHIP  # a Companion starts in the Fellowship
    assert s.char_at[c("aragorn")] == NOT_IN_PLAY
    assert (s.fellowship_region, s.progress, s.revealed, s.corruption, s.guide, s.mordor_step) \
        == (r("moria"), 3, True, 5, c("strider"), -1)
    t = cards.tile
    assert s.hunt_box.tolist() == [2, 1, 1]
    assert (s.hunt_drawn, s.hunt_removed, s.specials_in_play) == (
        [t("std-3-1")], [t("std-eye-1")], [t("shelobs-lair")])
    assert sorted(s.hunt_pool) == [i for i in range(16)
                                   if i not in (t("std-3-1"), t("std-eye-1"))]
    assert sorted(int(f) for f in s.dice[FREE_PEOPLES] if f >= 0) == [CHARACTER, EVENT]
    assert sorted(int(f) for f in s.dice[SHADOW] if f >= 0) == [ARMY, MUSTER, EVENT]
    assert s.dice_pool.tolist() == [5, 7]
    assert s.rings.tolist() == [FREE_PEOPLES, SHADOW, 2]
    e = cards.card
    assert s.hands == [[e("fp-char-09-athelas")], [e("sh-strat-06-stormcrow")]]
    assert s.decks[1][-2:] == [e("fp-strat-02-a-power-too-great"),
                               e("fp-strat-01-the-last-battle")]  # the first listed on top
    assert [len(d) for d in s.decks] == [23, 23, 24, 23]  # tops stay in their deck
    assert s.table == [e("fp-strat-06-faramirs-rangers")]
    assert list(s.chance.rolls[FREE_PEOPLES]) == [1, 2] and list(s.chance.rolls[SHADOW]) == [6]
    assert list(s.chance.tiles) == [t("std-2-1")]
    assert list(s.chance.companions) == [c("legolas")]


def test_yaml_text_gives_the_same_position() -> None:
    """A scenario may be YAML text: the same position as the dict (equal digests)."""
    import yaml

    assert digest(build(yaml.safe_dump(FULL))) == digest(build(FULL))


def test_the_seed_shuffles_the_rest_of_each_deck() -> None:
    """The cards a scenario does not place are shuffled under the named tops by ``seed``."""
    assert build({"seed": 1}).decks == build({"seed": 1}).decks
    assert build({"seed": 1}).decks != build({"seed": 2}).decks


def test_scripted_rolls_come_first_then_the_generator() -> None:
    """``rolls``: every d6 a side rolls takes its next scripted value; then the seeded generator
    (chance.py)."""
    s = build({"start": "turn", "seed": 3, "characters": {"strider": "out"},
               "rolls": {"free_peoples": [6, 6, 5, 3], "shadow": [1, 2, 3, 4, 5, 5, 5]}})
    play(s, choice("no"), ("count", 0))
    assert sorted(int(f) for f in s.dice[FREE_PEOPLES] if f >= 0) == [MUSTER, EVENT, WILL, WILL]
    assert sorted(int(f) for f in s.dice[SHADOW] if f >= 0) == [
        CHARACTER, ARMY, MUSTER, ARMY_MUSTER, EVENT, EVENT, EVENT]
    a, b = build({"seed": 5, "rolls": {"shadow": [2]}}), build({"seed": 5})
    assert a.chance.roll(SHADOW, 1) == [2]
    assert a.chance.roll(SHADOW, 4) == b.chance.roll(SHADOW, 4)


def test_scripted_tiles_and_companions() -> None:
    """``tiles`` and ``companions`` name the next Hunt tiles and random companions; a scripted
    tile that is not in the pool is an error when it is drawn (chance.py)."""
    s = build({"tiles": ["std-eye-2", "std-3-2"], "companions": ["gimli"],
               "hunt": {"drawn": ["std-3-2"]}})
    cards = s.ruleset.cards
    at = s.chance.pick_tile(s.hunt_pool)
    assert s.hunt_pool[at] == cards.tile("std-eye-2")
    with pytest.raises(ScriptError, match="not in the pool"):
        s.chance.pick_tile(s.hunt_pool)
    everyone = [cards.character(x) for x in ("strider", "gimli", "legolas")]
    assert s.chance.pick_companion(everyone) == cards.character("gimli")
    assert s.chance.pick_companion(everyone) in everyone


@pytest.mark.parametrize(("spec", "message"), [
    ({"army": {}}, r"unknown scenario keys \['army'\]"),
    ({"armies": []}, r"armies: expected a mapping of regions"),
    ({"armies": {"mordor": {}}}, r"armies: unknown region 'mordor'"),
    ({"armies": {"gondor": {}}}, r"armies: unknown region 'gondor'"),
    ({"armies": {"osgiliath": {"rohirrim": {}}}}, r"armies\.osgiliath: unknown nation 'rohirrim'"),
    ({"armies": {"osgiliath": {"gondor": {"knight": 1}}}},
     r"armies\.osgiliath\.gondor: unknown figure kind 'knight'"),
    ({"armies": {"osgiliath": {"gondor": {"regular": -1}}}},
     r"armies\.osgiliath\.gondor\.regular: not a count"),
    ({"armies": {"lorien": {"elves": {"nazgul": 1}}}},
     r"armies\.lorien\.elves: elves has no nazgul figures"),
    ({"armies": {"osgiliath": {"gondor": {"regular": 6}, "rohan": {"regular": 5}}}},
     r"armies\.osgiliath: 11 units, over 10"),
    ({"boxes": {"minas-tirith": {"gondor": {"regular": 6}}}},
     r"boxes\.minas-tirith: 6 units, over 5"),
    ({"armies": {"erebor": {"dwarves": {"elite": 5}}}, "boxes": {"erebor": {"dwarves":
                                                                       {"elite": 1}}}},
     r"dwarves: more elite figures placed than the 5 it owns"),
    ({"casualties": {"gondor": {"regular": 99}}}, r"gondor: more regular figures"),
    ({"casualties": {"mordor": {}}}, r"casualties: unknown nation 'mordor'"),
    ({"control": {"fangorn": "shadow"}}, r"control\.fangorn: no settlement there"),
    ({"control": {"dale": "orcs"}}, r"control\.dale: unknown side 'orcs'"),
    ({"politics": {"gondor": {"steps": 4}}}, r"politics\.gondor: steps must be 0-3"),
    ({"politics": {"gondor": {"steps": 0, "active": False}}},
     r"politics\.gondor: a Passive nation cannot be At War"),
    ({"characters": {"frodo": "rivendell"}}, r"characters: unknown character 'frodo'"),
    ({"characters": {"strider": "valinor"}},
     r"characters\.strider: unknown region or place .*'valinor'"),
    ({"fellowship": {"region": "valinor"}}, r"fellowship\.region: unknown region 'valinor'"),
    ({"fellowship": {"guide": "frodo"}}, r"fellowship\.guide: unknown character 'frodo'"),
    ({"fellowship": {"corruption": 13}}, r"fellowship\.corruption: 13 is not in 0\.\.12"),
    ({"fellowship": {"progress": -1}}, r"fellowship\.progress: -1 is not in 0\.\.12"),
    ({"fellowship": {"mordor_step": 6}}, r"fellowship\.mordor_step: 6 is not in -1\.\.5"),
    ({"hunt": {"pool": ["std-eye-9"]}}, r"hunt\.pool: unknown Hunt tile 'std-eye-9'"),
    ({"hunt": {"drawn": ["std-3-1"], "removed": ["std-3-1"]}}, r"hunt: a tile is in two places"),
    ({"hands": {"free_peoples": ["fp-char-99"]}}, r"hands\.free_peoples: unknown card"),
    ({"hands": {"orcs": []}}, r"hands: unknown side 'orcs'"),
    ({"hands": {"free_peoples": ["fp-char-09-athelas"]}, "table": ["fp-char-09-athelas"]},
     r"table: card 'fp-char-09-athelas' is also in hands\.free_peoples"),
    ({"decks": {"fp-character": ["fp-strat-01-the-last-battle"]}},
     r"decks\.fp-character: a card of another deck"),
    ({"dice": {"free_peoples": ["sword"]}}, r"dice\.free_peoples: unknown die face 'sword'"),
    ({"dice": {"free_peoples": ["army"]}}, r"dice\.free_peoples: no unused army die"),
    ({"dice": {"shadow": ["will_of_the_west"]}}, r"dice\.shadow: no unused will_of_the_west"),
    ({"dice": {"shadow": ["eye"]}}, r"dice\.shadow: no unused eye die"),
    ({"dice": {"free_peoples": ["event"] * 5}}, r"dice\.free_peoples: more unused dice than"),
    ({"dice": {"gollum": []}}, r"dice: unknown side 'gollum'"),
    ({"dice_pool": {"gollum": 1}}, r"dice_pool: unknown side 'gollum'"),
    ({"rings": ["free_peoples"]}, r"rings: 1 owners for the 3 Elven Rings"),
    ({"rings": ["free_peoples", "elrond", "gone"]}, r"rings\[1\]: unknown side 'elrond'"),
    ({"rolls": {"shadow": [7]}}, r"a scripted roll must be 1-6, got 7"),
    ({"tiles": ["std-9"]}, r"tiles: unknown Hunt tile 'std-9'"),
    ({"companions": ["frodo"]}, r"companions: unknown character 'frodo'"),
    ({"start": "hunt"}, r"start: 'hunt' \(use action or turn\)"),
    ({"to_act": "orcs"}, r"to_act: unknown side 'orcs'"),
])
def test_an_impossible_position_names_its_entry(spec: dict[str, Any], message: str) -> None:
    """Each impossible description raises ScenarioError whose message names the entry
    (scenario.py; issue 27: "Impossible positions raise a named error")."""
    with pytest.raises(ScenarioError, match=message):
        build(spec)


def test_a_scenario_is_a_mapping() -> None:
    """Neither a list nor YAML text of a list is a scenario."""
    with pytest.raises(ScenarioError, match="a scenario is a mapping"):
        build("- 1\n- 2\n")


def test_a_built_position_is_sound_in_both_editions() -> None:
    """A position built in 1e holds the same invariants as in 2e, and runs to a decision."""
    for ruleset in ("2e", "1e"):
        s = build({**FULL, "ruleset": ruleset})
        assert check(s) == [] and s.ruleset.name == ruleset
        assert s.pending is not None and not np.any(s.army < 0)
