"""Game records that can be trusted, one format for every game (docs/replay.md "Records"): a
record changed anywhere, one action included, never replays silently, whatever the game; every
bad record is a :class:`RecordError` naming the field or the check, never another error; the
older formats (AGoT's 2 and 3, the kit's 1 of War of the Ring and Goofspiel) are still read,
converted by replaying them once, and rewritten by :func:`boardkit.records.upgrade`."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from boardkit.envs import make_env
from boardkit.records import FORMAT, GameRecord, RecordError, main, upgrade

FIXTURES = Path(__file__).parent / "fixtures"
#: AGoT, saved by the format before the check (3 players, 2 rounds, random actions, seed 3)
RECORD_2 = FIXTURES / "record-2-3p.json"
#: AGoT, saved by format 3 (its own check; 3 players, 1 round, random actions, seed 5)
RECORD_3 = FIXTURES / "record-3-3p.json"
#: War of the Ring, saved by the kit's format 1 (no outcome, no check): max_turns 12, seed 90,
#: random agents; action 491 is the event choice REGION[north-dunland], and REGION[hollin]
#: there ends the game in the same state
KIT_WOTR = FIXTURES / "kit-record-1-wotr.json"
#: Goofspiel, saved by the kit's format 1 (3 players, 6 cards, random agents, seed 2)
KIT_GOOF = FIXTURES / "kit-record-1-goofspiel.json"

#: a short game of each registered game and ruleset: registry name, env options
GAMES = {"got-2e": ("got", {"num_players": 3, "max_rounds": 1}),
         "got-1e": ("got", {"ruleset": "1e", "num_players": 3, "max_rounds": 1}),
         "wotr-2e": ("wotr", {"max_turns": 1}),
         "wotr-1e": ("wotr", {"ruleset": "1e", "max_turns": 1}),
         "goofspiel": ("goofspiel", {"num_players": 3, "num_cards": 5})}


def random_game(game: str, options: dict, seed: int) -> tuple[GameRecord, list[list[int]]]:
    """A random game's record (``env.record``) and the legal action indices at each of its
    decisions."""
    e = make_env(game, **options)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    legal = []
    while e.agents and not any(e.terminations.values()) and not any(e.truncations.values()):
        legal.append(e.legal_actions())
        e.step(int(rng.choice(legal[-1])))
    return e.record, legal


def single_action_edits(record: GameRecord,
                        legal: list[list[int]]) -> Iterator[tuple[int, int]]:
    """``(index, new action)``: at every index, every other legal action, an illegal one in the
    action space and one outside it."""
    size = make_env(record.game, **record.options).codec.size
    for i, (action, ok) in enumerate(zip(record.actions, legal, strict=True)):
        yield from ((i, a) for a in ok if a != action)
        allowed = set(ok)
        illegal = next((a for a in range(size) if a not in allowed), None)
        if illegal is not None:  # (every index is legal at a Goofspiel player's first bid)
            yield i, illegal
        yield i, size


def assert_every_edit_is_caught(record: GameRecord, legal: list[list[int]]) -> int:
    """Replay every single-action edit of ``record``; each must raise RecordError naming the
    check (it is verified before anything is played). Returns how many edits were tried."""
    tried = 0
    for i, new in single_action_edits(record, legal):
        actions = list(record.actions)
        actions[i] = new
        with pytest.raises(RecordError, match="'check' does not match"):
            dataclasses.replace(record, actions=actions).replay()
        tried += 1
    return tried


@pytest.mark.parametrize("name,seed", [("got-2e", 0), ("got-2e", 1), ("got-1e", 2),
                                       ("wotr-2e", 3), ("wotr-1e", 4), ("goofspiel", 5)])
def test_every_single_action_edit_of_every_game_is_caught(name, seed):
    """Every index, every other legal action there, and illegal ones: none replays. Some of
    these edits end in the very state the record ends in (an unused order swapped for another),
    so the final digest alone does not catch them; the record's check does."""
    record, legal = random_game(*GAMES[name], seed)
    assert record.replay().record == record
    assert assert_every_edit_is_caught(record, legal) > len(record.actions) * 2


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("options", [{"num_players": 3, "max_rounds": 10},
                                     {"num_players": 6, "max_rounds": 3}])
def test_every_single_action_edit_of_a_longer_game_is_caught(seed, options):
    record, legal = random_game("got", options, seed)
    assert assert_every_edit_is_caught(record, legal) > len(record.actions) * 2


def test_a_wotr_event_choice_changed_to_another_region_is_caught(tmp_path):
    """War of the Ring: the event choice REGION[north-dunland] at index 491 changed to
    REGION[hollin] plays to the very same end (outcome and final state): a replay alone cannot
    tell, the record's check refuses it (in memory, and in a saved file)."""
    record = GameRecord.load(KIT_WOTR)  # the format-1 fixture, converted: it has a check now
    env = make_env(record.game, **record.options)
    hollin = next(i for i in range(env.codec.size) if env.codec.name(i) == "REGION[hollin]")
    assert env.codec.name(record.actions[491]) == "REGION[north-dunland]"
    actions = list(record.actions)
    actions[491] = hollin
    edited = dataclasses.replace(record, actions=actions)
    same = dataclasses.replace(edited, check=None).replay()  # without the check: no complaint
    assert same.record.digest == record.digest and same.record.outcome == record.outcome
    with pytest.raises(RecordError, match="'check' does not match"):
        edited.replay()
    path = tmp_path / "wotr.json"
    record.save(path)
    doc = json.loads(path.read_text())
    doc["actions"][491] = hollin
    path.write_text(json.dumps(doc))
    with pytest.raises(RecordError, match=r"wotr\.json.*'check' does not match"):
        GameRecord.load(path)


@pytest.mark.parametrize("name", list(GAMES))
def test_an_edited_saved_record_is_caught(tmp_path, name):
    """The same through a file: the record as saved, one action changed in the JSON."""
    record, legal = random_game(*GAMES[name], 0)
    i = next(k for k, ok in enumerate(legal) if len(ok) > 1)
    path = tmp_path / "game.json"
    record.save(path)
    doc = json.loads(path.read_text())
    assert doc["format"] == FORMAT == "boardkit-record-2" and doc["game"] == record.game
    assert GameRecord.load(path) == record
    doc["actions"][i] = next(a for a in legal[i] if a != record.actions[i])
    path.write_text(json.dumps(doc))
    with pytest.raises(RecordError, match="changed"):
        GameRecord.load(path)


EDITS = {
    "game": lambda r: dataclasses.replace(r, game="goofspiel" if r.game != "goofspiel"
                                          else "wotr"),
    "seed": lambda r: dataclasses.replace(r, seed=r.seed + 1),
    "options-reward": lambda r: dataclasses.replace(r, options={**r.options, "reward": "rank"}),
    "options-max_steps": lambda r: dataclasses.replace(r, options={**r.options,
                                                                   "max_steps": 10_000}),
    "outcome": lambda r: dataclasses.replace(r, outcome={
        **r.outcome, "ranking": r.outcome["ranking"][::-1]}),
    "digest": lambda r: dataclasses.replace(r, digest="0" * 64),
    "last-action-dropped": lambda r: dataclasses.replace(r, actions=r.actions[:-1],
                                                         outcome=None),
    "check": lambda r: dataclasses.replace(r, check="0" * 64),
}


@pytest.mark.parametrize("edit", list(EDITS))
@pytest.mark.parametrize("name", ["got-2e", "wotr-2e", "goofspiel"])
def test_an_edit_of_any_field_is_caught(name, edit):
    """Options that do not change the game (the reward scheme, a step limit never reached)
    included."""
    record, _ = random_game(*GAMES[name], 1)
    with pytest.raises(RecordError, match="'check' does not match"):
        EDITS[edit](record).replay()


def test_an_in_memory_record_changed_after_it_was_taken_is_caught():
    record, legal = random_game(*GAMES["got-2e"], 2)
    i = next(k for k, ok in enumerate(legal) if len(ok) > 1)
    record.actions[i] = next(a for a in legal[i] if a != record.actions[i])
    with pytest.raises(RecordError, match="changed"):
        record.replay()


def test_a_record_taken_mid_game_replays_to_where_it_stood():
    e = make_env("wotr", max_turns=2)
    e.reset(seed=1)
    for _ in range(30):
        e.step(e.legal_actions()[0])
    record = e.record
    assert record.outcome is None and len(record.actions) == 30
    assert record.replay().record == record


def test_a_game_cut_by_max_steps_replays_as_cut():
    e = make_env("goofspiel", num_players=2, num_cards=5, max_steps=3)
    e.reset(seed=0)
    while not any(e.truncations.values()):
        e.step(e.legal_actions()[0])
    record = e.record
    assert record.outcome["reason"] == "truncated" and record.options["max_steps"] == 3
    assert record.replay().record == record
    longer = dataclasses.replace(record, actions=[*record.actions, 0], check=None)
    with pytest.raises(RecordError, match="after the game ended"):
        longer.replay()


# --- older formats: read, converted by replaying them once, rewritten by upgrade ---------------

@pytest.mark.parametrize("path,game", [(RECORD_2, "got"), (RECORD_3, "got"),
                                       (KIT_WOTR, "wotr"), (KIT_GOOF, "goofspiel")])
def test_an_old_record_is_read_as_the_replayed_games_record(path, game):
    old = json.loads(path.read_text())
    record = GameRecord.load(path)
    assert record.game == game and record.check == record.content_check()
    assert (record.seed, record.actions, record.digest) == (old["seed"], old["actions"],
                                                            old["digest"])
    assert {k: record.options[k] for k in old["options"]} == old["options"]
    if "outcome" in old:
        assert record.outcome == old["outcome"]
    assert record.replay().record == record


@pytest.mark.parametrize("path", [RECORD_2, RECORD_3, KIT_WOTR, KIT_GOOF])
def test_upgrade_rewrites_an_old_record_once(tmp_path, path):
    copy = tmp_path / path.name
    copy.write_text(path.read_text())
    assert upgrade(copy) is True
    assert json.loads(copy.read_text())["format"] == FORMAT
    assert GameRecord.load(copy) == GameRecord.load(path)
    assert upgrade(copy) is False


def test_the_upgrade_command(tmp_path, capsys):
    paths = []
    for path in (RECORD_3, KIT_GOOF):
        paths.append(tmp_path / path.name)
        paths[-1].write_text(path.read_text())
    assert main([str(p) for p in paths]) == 0
    assert capsys.readouterr().out.count(f"upgraded to {FORMAT}") == 2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**json.loads(KIT_GOOF.read_text()), "seed": 3}))
    before = bad.read_text()
    assert main([str(paths[0]), str(bad)]) == 2
    out = capsys.readouterr()
    assert "already" in out.out and out.err.count("\n") == 1 and "bad.json" in out.err
    assert bad.read_text() == before  # a file that fails stays as it is


@pytest.mark.parametrize("path,changes,match", [
    (RECORD_3, {"seed": 4}, "'check' does not match"),  # format 3's own check
    (RECORD_3, {"actions": ...}, "'actions' is missing"),
    (RECORD_2, {"outcome": None}, "'outcome'"),  # a finished game recorded as still on
    (RECORD_2, {"seed": 4}, "replayed|does not replay"),  # format 2: checked by its replay
    (RECORD_2, {"check": "0" * 64}, "unknown field.*'check'"),  # format 2 has no check
    (KIT_GOOF, {"digest": "0" * 16}, "'digest'"),  # format 1: checked by its digest
    (KIT_GOOF, {"game": "chess"}, "unknown game 'chess'"),
    (KIT_GOOF, {"outcome": None}, "unknown field.*'outcome'"),
    (KIT_WOTR, {"options": {"ruleset": "1e", "max_turns": 12}}, "does not replay|differs"),
])
def test_a_bad_old_record_is_refused(tmp_path, path, changes, match):
    doc = json.loads(path.read_text())
    for key, value in changes.items():
        if value is ...:
            del doc[key]
        else:
            doc[key] = value
    bad = tmp_path / "old.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(RecordError, match=match):
        GameRecord.load(bad)


# --- bad records: RecordError naming the field -------------------------------------------------

@pytest.mark.parametrize("options,match", [
    ({"ruleset": "1e", "tiebreak": "errata"}, "tiebreak"),  # another ruleset's option
    ({"foo": 1}, "foo"),
    ({"max_rounds": "2"}, "max_rounds"),
    ({"num_players": 7}, "num_players"),
    ({"reward": "gold"}, "reward"),
    ({"max_steps": 0}, "max_steps"),
    ({"ruleset": "3e"}, "ruleset"),
])
def test_options_no_env_accepts(tmp_path, options, match):
    """Through a file whose check matches (the options were saved so): the replay names the
    field and what is wrong with it."""
    record = GameRecord.load(RECORD_2)
    bad = dataclasses.replace(record, options={**record.options, **options}).sealed()
    with pytest.raises(RecordError, match=rf"'options'.*{match}"):
        bad.replay()
    bad.save(tmp_path / "bad.json")
    loaded = GameRecord.load(tmp_path / "bad.json")
    with pytest.raises(RecordError, match=rf"'options'.*{match}"):
        loaded.replay()


@pytest.mark.parametrize("game", ["chess", "os", "got_env.env", "__import__"])
def test_a_game_not_registered_is_refused_and_nothing_imported(game):
    record = dataclasses.replace(GameRecord.load(KIT_GOOF), game=game).sealed()
    before = set(sys.modules)
    with pytest.raises(RecordError, match=f"'game'.*unknown game '{game}'"):
        record.replay()
    assert set(sys.modules) - before == set()


def test_another_games_options_are_refused():
    goof = GameRecord.load(KIT_GOOF)
    record = dataclasses.replace(goof, game="wotr").sealed()
    with pytest.raises(RecordError, match="'options'"):
        record.replay()


@pytest.mark.parametrize("seed", [-1, None])
def test_a_seed_no_env_accepts(seed):
    """A null seed would replay another game (reset draws one), not fail at some action."""
    record = dataclasses.replace(GameRecord.load(RECORD_2), seed=seed, check=None)
    with pytest.raises(RecordError, match="'seed'"):
        record.replay()


def write_doc(tmp_path: Path, **changes) -> Path:
    """The format-3 AGoT fixture in the current format, fields changed (``...`` removes one)."""
    doc = GameRecord.load(RECORD_3).to_json()
    for key, value in changes.items():
        if value is ...:
            del doc[key]
        else:
            doc[key] = value
    path = tmp_path / "record.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_well_formed_record_loads(tmp_path):
    assert GameRecord.load(write_doc(tmp_path)) == GameRecord.load(RECORD_3)


@pytest.mark.parametrize("changes,match", [
    ({"comment": "hi"}, "unknown field.*'comment'"),
    ({"game": ...}, "'game' is missing"),
    ({"outcome": ...}, "'outcome' is missing"),
    ({"digest": ...}, "'digest' is missing"),
    ({"seed": ...}, "'seed' is missing"),
    ({"actions": ...}, "'actions' is missing"),
    ({"options": ...}, "'options' is missing"),
    ({"check": ...}, "'check' is missing"),
    ({"game": 3}, "'game'"),
    ({"options": [1]}, "'options'"),
    ({"digest": 12}, "'digest'"),
    ({"seed": None}, "'seed' must be an integer"),
    ({"seed": True}, "'seed' must be an integer"),
    ({"actions": [1.0]}, "'actions'"),
    ({"actions": "12"}, "'actions'"),
    ({"outcome": {"reason": "last-round"}}, "'outcome'"),
    ({"outcome": {"reason": 1, "winner": "stark", "ranking": []}}, "'outcome'"),
    ({"check": 5}, "'check'"),
    ({"check": "0" * 64}, "'check' does not match"),
    ({"format": "boardkit-record-9"}, "format"),
    ({"format": ["boardkit-record-2"]}, "format"),
])
def test_bad_fields_are_named_on_load(tmp_path, changes, match):
    path = write_doc(tmp_path, **changes)
    with pytest.raises(RecordError, match=rf"record\.json: .*{match}"):
        GameRecord.load(path)


@pytest.mark.parametrize("text", ["[]", "null", "3", '"boardkit-record-2"'])
def test_a_record_that_is_not_a_mapping(tmp_path, text):
    (tmp_path / "r.json").write_text(text)
    with pytest.raises(RecordError, match="not a game record"):
        GameRecord.load(tmp_path / "r.json")


@pytest.mark.parametrize("text,match", [
    ("[" * 100_000 + "]" * 100_000, "cannot read"),  # nested too deep
    ("not json", "cannot read"),
    ('{"format": "boardkit-record-2", "seed": NaN}', "NaN is not a value"),
    ('{"format": "boardkit-record-2", "seed": 1' + "0" * 5000 + "}", "cannot read"),
])
def test_hostile_json_is_a_record_error(tmp_path, text, match):
    (tmp_path / "r.json").write_text(text)
    with pytest.raises(RecordError, match=match):
        GameRecord.load(tmp_path / "r.json")


def test_a_file_too_large_is_refused_unread(tmp_path, monkeypatch):
    import boardkit.records

    monkeypatch.setattr(boardkit.records, "MAX_BYTES", 100)
    with pytest.raises(RecordError, match="larger than"):
        GameRecord.load(RECORD_3)


def test_a_file_that_is_not_utf8_or_not_there(tmp_path):
    (tmp_path / "r.json").write_bytes(b"\xff\xfe{")
    for path in (tmp_path / "r.json", tmp_path / "missing.json", tmp_path):
        with pytest.raises(RecordError, match="cannot read"):
            GameRecord.load(path)
