"""Game records that can be trusted (docs/env.md "Records"): a record changed anywhere, one
action included, never replays silently, and every bad record is a :class:`RecordError` naming
the field, never another error."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import got_env
from got_env import GameRecord, RecordError
from got_env.env import RECORD_FORMAT

FIXTURES = Path(__file__).parent / "fixtures"
#: a record saved by the format before the check (3 players, 2 rounds, random actions, seed 3)
RECORD_2 = FIXTURES / "record-2-3p.json"


def random_game(seed: int, max_rounds: int = 1,
                num_players: int = 3) -> tuple[GameRecord, list[list[int]]]:
    """A random game's record and the legal action indices at each of its decisions."""
    e = got_env.raw_env(num_players=num_players, max_rounds=max_rounds)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    legal = []
    while e.game.pending is not None:
        legal.append(e.legal_actions())
        e.step(int(rng.choice(legal[-1])))
    return e.record, legal


def single_action_edits(record: GameRecord,
                        legal: list[list[int]]) -> Iterator[tuple[int, int]]:
    """``(index, new action)``: at every index, every other legal action, an illegal one in the
    action space and one outside it."""
    size = got_env.raw_env(**record.options).codec.size
    for i, (action, ok) in enumerate(zip(record.actions, legal, strict=True)):
        others = [a for a in ok if a != action]
        yield from ((i, a) for a in others)
        allowed = set(ok)
        yield i, next(a for a in range(size) if a not in allowed)
        yield i, size


def assert_every_edit_is_caught(record: GameRecord, legal: list[list[int]]) -> int:
    """Replay every single-action edit of ``record``; each must raise RecordError. Returns how
    many edits were tried."""
    tried = 0
    for i, new in single_action_edits(record, legal):
        actions = list(record.actions)
        actions[i] = new
        with pytest.raises(RecordError):
            dataclasses.replace(record, actions=actions).replay()
        tried += 1
    return tried


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_single_action_edit_is_caught(seed):
    """Every index, every other legal action there, and illegal ones: none replays. Some of
    these edits end in the very state the record ends in (an unused order swapped for another),
    so the final digest alone does not catch them; the record's check does."""
    record, legal = random_game(seed)
    assert record.replay().record == record
    assert assert_every_edit_is_caught(record, legal) > len(record.actions) * 2


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("num_players,max_rounds", [(3, 10), (6, 3)])
def test_every_single_action_edit_of_a_longer_game_is_caught(seed, num_players, max_rounds):
    record, legal = random_game(seed, max_rounds, num_players)
    assert assert_every_edit_is_caught(record, legal) > len(record.actions) * 2


def test_an_edited_saved_record_is_caught(tmp_path):
    """The same through a file: the record as saved, one action changed in the JSON."""
    record, legal = random_game(0)
    i = next(k for k, ok in enumerate(legal) if len(ok) > 1)
    path = tmp_path / "game.json"
    record.save(path)
    doc = json.loads(path.read_text())
    assert doc["format"] == RECORD_FORMAT == "got_env-record-3"
    doc["actions"][i] = next(a for a in legal[i] if a != record.actions[i])
    path.write_text(json.dumps(doc))
    with pytest.raises(RecordError, match="changed"):
        GameRecord.load(path)


@pytest.mark.parametrize("edit", [
    pytest.param(lambda r: dataclasses.replace(r, seed=r.seed + 1), id="seed"),
    pytest.param(lambda r: dataclasses.replace(r, options={**r.options, "reward": "rank"}),
                 id="options-reward"),
    pytest.param(lambda r: dataclasses.replace(r, options={**r.options, "max_steps": 10_000}),
                 id="options-max_steps"),
    pytest.param(lambda r: dataclasses.replace(r, outcome={**r.outcome,
                                                          "ranking": r.outcome["ranking"][::-1]}),
                 id="outcome"),
    pytest.param(lambda r: dataclasses.replace(r, digest="0" * 64), id="digest"),
    pytest.param(lambda r: dataclasses.replace(r, actions=r.actions[:-1], outcome=None),
                 id="last-action-dropped"),
    pytest.param(lambda r: dataclasses.replace(r, check="0" * 64), id="check"),
])
def test_an_edit_of_any_field_is_caught(edit):
    """Options that do not change the game (the reward scheme, a step limit never reached)
    included."""
    record, _ = random_game(1)
    with pytest.raises(RecordError):
        edit(record).replay()


def test_an_in_memory_record_changed_after_it_was_taken_is_caught():
    record, legal = random_game(2)
    i = next(k for k, ok in enumerate(legal) if len(ok) > 1)
    record.actions[i] = next(a for a in legal[i] if a != record.actions[i])
    with pytest.raises(RecordError, match="changed"):
        record.replay()


# --- records of format 2 (before the check) ------------------------------------------------------

def test_a_format_2_record_still_replays():
    """Read and checked as before: the outcome and the final state's digest."""
    doc = json.loads(RECORD_2.read_text())
    assert doc["format"] == "got_env-record-2" and "check" not in doc
    record = GameRecord.load(RECORD_2)
    assert record.check is None
    env = record.replay()
    assert env.game.digest() == record.digest and env.record.outcome == record.outcome
    assert env.record.check is not None  # the replayed game's record is of the new format


def test_a_format_2_record_upgrades_by_replaying_and_saving(tmp_path):
    path = tmp_path / "new.json"
    GameRecord.load(RECORD_2).replay().record.save(path)
    assert json.loads(path.read_text())["format"] == RECORD_FORMAT
    again = GameRecord.load(path)
    assert again.actions == GameRecord.load(RECORD_2).actions and again.check is not None


def write_doc(tmp_path: Path, **changes) -> Path:
    """The format-2 fixture with fields changed (a value of ``...`` removes the field)."""
    doc = json.loads(RECORD_2.read_text())
    for key, value in changes.items():
        if value is ...:
            del doc[key]
        else:
            doc[key] = value
    path = tmp_path / "record.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_finished_format_2_record_without_outcome_fails(tmp_path):
    """``"outcome": null`` says the game is still on; the replayed game ended."""
    record = GameRecord.load(write_doc(tmp_path, outcome=None))
    with pytest.raises(RecordError, match="'outcome'"):
        record.replay()


def test_a_format_2_record_edited_into_another_game_fails(tmp_path):
    """The weaker check of format 2: an edit that changes the game ends in another state."""
    doc = json.loads(RECORD_2.read_text())
    record = GameRecord.load(write_doc(tmp_path, seed=doc["seed"] + 1))
    with pytest.raises(RecordError):
        record.replay()


# --- bad records: RecordError naming the field ---------------------------------------------------

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
    bad = dataclasses.replace(record, options={**record.options, **options}, check=None)
    with pytest.raises(RecordError, match=rf"'options'.*{match}"):
        bad.replay()
    bad.save(tmp_path / "bad.json")
    loaded = GameRecord.load(tmp_path / "bad.json")
    with pytest.raises(RecordError, match=rf"'options'.*{match}"):
        loaded.replay()


@pytest.mark.parametrize("seed", [-1, None])
def test_a_seed_no_env_accepts(seed):
    """A null seed would replay another game (reset draws one), not fail at some action."""
    record = dataclasses.replace(GameRecord.load(RECORD_2), seed=seed)
    with pytest.raises(RecordError, match="'seed'"):
        record.replay()


@pytest.mark.parametrize("changes,match", [
    ({"comment": "hi"}, "unknown field.*'comment'"),
    ({"outcome": ...}, "'outcome' is missing"),
    ({"digest": ...}, "'digest' is missing"),
    ({"seed": ...}, "'seed' is missing"),
    ({"actions": ...}, "'actions' is missing"),
    ({"options": ...}, "'options' is missing"),
    ({"digest": 12}, "'digest'"),
    ({"seed": None}, "'seed' must be an integer"),
    ({"outcome": {"reason": "last-round"}}, "'outcome'"),
    ({"format": "got_env-record-3"}, "'check' is missing"),
    ({"format": "got_env-record-3", "check": 5}, "'check'"),
    ({"check": "0" * 64}, "unknown field.*'check'"),  # format 2 has no check
    ({"format": "got_env-record-9"}, "format"),
    ({"format": ["got_env-record-3"]}, "format"),
])
def test_bad_fields_are_named_on_load(tmp_path, changes, match):
    path = write_doc(tmp_path, **changes)
    with pytest.raises(RecordError, match=match):
        GameRecord.load(path)


def test_a_record_that_is_not_a_mapping(tmp_path):
    for text in ("[]", "null", "3", '"got_env-record-3"'):
        (tmp_path / "r.json").write_text(text)
        with pytest.raises(RecordError, match="not a got_env game record"):
            GameRecord.load(tmp_path / "r.json")


def test_deeply_nested_json_is_a_record_error(tmp_path):
    (tmp_path / "r.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "r.json")
