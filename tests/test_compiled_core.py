"""The compiled core gives exactly what the pure-Python paths give, the reference (issue 10: a
compiled core keeps the pure path and is tested to give identical results): the observation
writer (got_env/encoding/_board.pyx) the encoder's vectors, the mask writer (_mask.pyx) the
codec's masks, the engine's typed kernels (tests/test_engine_kernels.py) the reference code.
tests/test_recorded_games.py replays the recorded games through both encoders as well, and a
new process with ``GOT_ENV_PURE_PYTHON=1`` replays them with the whole core off."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from boardkit.layout import Layout, Piece
from got_env import engine
from got_env.data import load_ruleset
from got_env.encoding import ObservationEncoder, build_codec, observation
from got_env.encoding.actions import mask_writer
from got_env.encoding.observation import _compiled_board

TESTS = Path(__file__).parent

needs_compiled = pytest.mark.skipif(
    _compiled_board() is None,
    reason="the compiled core (got_env.encoding._board) was not built or GOT_ENV_PURE_PYTHON "
           "is set: pip install -e . with a C compiler builds it")

# Pieces the games below must have shown at least once, so that each is compared non-trivially.
EXERCISED = ("units", "routed", "control", "order", "power_tokens", "garrison", "track_position",
             "victory_points", "cards", "westeros_revealed", "order_bans", "decision_player",
             "decision_kind", "combat_sides", "orders_placed")


@needs_compiled
@pytest.mark.parametrize("ruleset,players,tides", [
    ("2e", 3, False), ("2e", 4, True), ("2e", 6, False), ("1e", 3, False), ("1e", 5, False)])
def test_compiled_equals_pure_at_every_decision(ruleset, players, tides):
    """Every house's view and the full-information view, after every decision of a random
    game, are the same vector both ways."""
    rs = load_ruleset(ruleset)
    fast, pure = ObservationEncoder(rs, compiled=True), ObservationEncoder(rs, compiled=False)
    assert fast.compiled and not pure.compiled
    options = {"ruleset": ruleset, "tides_of_battle": True} if tides else {"ruleset": ruleset}
    state = engine.start_game(players, seed=players, options=options)
    rng = np.random.default_rng(players)
    shown: set[str] = set()
    while (d := engine.pending(state)) is not None:
        for observer in (None, *range(rs.num_houses)):
            want = pure.encode(state, observer)
            got = fast.encode(state, observer)
            if not np.array_equal(got, want):
                differ = [p.name for p in pure.layout
                          if not np.array_equal(pure.views(got)[p.name], pure.views(want)[p.name])]
                pytest.fail(f"{ruleset} {players}p, {d.kind.label}, observer {observer}: the "
                            f"pieces {differ} differ")
            shown.update(p.name for p in pure.layout if pure.views(want)[p.name].any())
        engine.apply(state, d.options[int(rng.integers(len(d.options)))])
    exercised = [p for p in EXERCISED if p != "garrison" or ruleset == "2e"]
    assert not set(exercised) - shown, "the game never showed these pieces"


@needs_compiled
@pytest.mark.parametrize("ruleset,players", [("2e", 6), ("2e", 3), ("1e", 4)])
def test_compiled_mask_equals_the_table_look_up(ruleset, players):
    """At every decision of a random game the compiled mask has 1 exactly at the codec's
    indices of the options, and is the same written into a reused row."""
    rs = load_ruleset(ruleset)
    codec = build_codec(rs)
    assert codec.compiled
    row = np.ones(codec.size, dtype=np.int8)
    state = engine.start_game(players, seed=players + 10, options={"ruleset": ruleset})
    rng = np.random.default_rng(players)
    while (d := engine.pending(state)) is not None:
        want = np.zeros(codec.size, dtype=np.int8)
        want[codec.indices(d.options)] = 1
        assert np.array_equal(codec.mask(d.options), want), d.kind.label
        assert codec.mask(d.options, row) is row and np.array_equal(row, want)
        engine.apply(state, d.options[int(rng.integers(len(d.options)))])


@pytest.mark.parametrize("bad,message", [
    ((("bid", 99),), r"action space: \('bid', 99\) \(argument 99 outside 0..20\)"),
    ((("nope", 1),), r"not an action of AGoT's action space: \('nope', 1\)$"),
    ((("bid",),), r"not an action of AGoT's action space: \('bid',\)$"),
    (("bid",), r"not an action of AGoT's action space: 'bid'$")])
def test_a_bad_option_in_a_mask_is_named(bad, message):
    """An option outside the action space gets the reference path's error naming it, compiled
    writer or not."""
    codec = build_codec(load_ruleset("2e"))
    with pytest.raises(ValueError, match=message):
        codec.mask(bad)


@needs_compiled
def test_the_known_wildling_card_both_ways():
    """A house that saw the top wildling card with the Raven (2e §10.4) sees it while it stays
    on top, the others never: the same both ways."""
    rs = load_ruleset("2e")
    fast, pure = ObservationEncoder(rs, compiled=True), ObservationEncoder(rs, compiled=False)
    state = engine.start_game(6, seed=3)
    top = int(state.wildling_deck[0])
    state.wildling_known_top[2] = top
    for observer in (None, *range(6)):
        got = fast.encode(state, observer)
        assert np.array_equal(got, pure.encode(state, observer))
        assert fast.views(got)["wildling_top_known"][top] == (observer == 2)


@needs_compiled
def test_a_wrong_array_is_an_error_naming_it():
    """Bad input to the writer is a ValueError naming the array, never a stray read."""
    rs = load_ruleset("2e")
    enc = ObservationEncoder(rs, compiled=True)
    state = engine.start_game(6, seed=0)
    state.units = state.units.astype(np.int16)
    with pytest.raises(ValueError, match="units: expected 1392 bytes"):
        enc.encode(state, 0)
    state = engine.start_game(6, seed=0)
    state.power = state.power[:3].copy()
    with pytest.raises(ValueError, match="power: expected 6 bytes"):
        enc.encode(state, 0)


@needs_compiled
@pytest.mark.parametrize("corrupt,name", [
    (lambda s: s.orders.__setitem__(3, 99), "orders"),
    (lambda s: s.power_tokens.__setitem__(5, 17), "(control|power_tokens)"),  # control follows
    (lambda s: s.tracks.__setitem__((1, 2), 40), "tracks"),
    (lambda s: s.card_place.__setitem__(4, 9), "card_place"),
    (lambda s: s.westeros_drawn.__setitem__(0, 99), "westeros_drawn"),
    (lambda s: s.wildling_known_top.__setitem__(1, 77), "wildling_known_top")])
def test_a_corrupt_state_is_an_error_not_a_stray_write(corrupt, name):
    """A value the writer would use as an index out of its range (a corrupt or hand-edited
    state) is a ValueError naming the array, raised before anything is written."""
    enc = ObservationEncoder(load_ruleset("2e"), compiled=True)
    state = engine.start_game(6, seed=0)
    corrupt(state)
    out = np.full(enc.size, 5.0, dtype=np.float32)
    with pytest.raises(ValueError, match=f"^{name}: a value outside its range"):
        enc.encode(state, 0, out)
    assert (out == 5.0).all()
    with pytest.raises(ValueError, match="^observer"):
        enc.encode(engine.start_game(6, seed=0), 6)


def test_pure_python_switch(monkeypatch):
    """GOT_ENV_PURE_PYTHON=1 gives the numpy path; compiled=True then says why it cannot."""
    monkeypatch.setenv("GOT_ENV_PURE_PYTHON", "1")
    rs = load_ruleset("2e")
    assert not ObservationEncoder(rs).compiled
    assert not build_codec(rs).compiled and mask_writer((), 0) is None
    with pytest.raises(RuntimeError, match="GOT_ENV_PURE_PYTHON"):
        ObservationEncoder(rs, compiled=True)
    monkeypatch.setenv("GOT_ENV_PURE_PYTHON", "0")
    assert ObservationEncoder(rs).compiled == (_compiled_board() is not None)


def test_an_unpickled_encoder_encodes_the_same():
    """Encoders travel to worker processes pickled (inside envs and rulesets); the compiled
    writer, a C object, is rebuilt there, as the encoder was asked to at construction."""
    import pickle

    rs = load_ruleset("2e")
    state = engine.start_game(4, seed=2)
    codec = build_codec(rs)
    assert pickle.loads(pickle.dumps(codec)).compiled == codec.compiled
    for compiled in (False, None):
        enc = ObservationEncoder(rs, compiled=compiled)
        again = pickle.loads(pickle.dumps(enc))
        assert again.compiled == enc.compiled
        for observer in (None, 0, 3):
            assert np.array_equal(again.encode(state, observer), enc.encode(state, observer))


def test_encode_into_a_given_row():
    """``encode(..., out=row)`` writes the same vector into the row (the batched API's path)."""
    rs = load_ruleset("2e")
    state = engine.start_game(6, seed=4)
    for compiled in (False, None):
        enc = ObservationEncoder(rs, compiled=compiled)
        rows = np.full((2, enc.size), 7.0, dtype=np.float32)
        row = rows[1]
        assert enc.encode(state, 5, row) is row
        assert np.array_equal(rows[1], enc.encode(state, 5))
        assert (rows[0] == 7.0).all()


def _edited_layout(edit):
    """``observation.layout`` with ``edit(pieces)`` applied to its pieces (a list)."""
    original = observation.layout

    def layout(ruleset):
        pieces = list(original(ruleset))
        edit(pieces)
        return Layout(pieces)
    return layout


@needs_compiled
def test_the_writer_reads_its_offsets_from_the_layout(monkeypatch):
    """A layout with pieces added before and among the written ones moves every offset: the
    compiled writer, which holds no copy of the layout, still gives the pure path's vectors."""
    def add_pieces(pieces):
        pieces.insert(0, Piece("first", (5,)))
        pieces.insert([p.name for p in pieces].index("order"), Piece("between", (3, 2)))

    monkeypatch.setattr(observation, "layout", _edited_layout(add_pieces))
    rs = load_ruleset("2e")
    fast, pure = ObservationEncoder(rs, compiled=True), ObservationEncoder(rs, compiled=False)
    assert fast.compiled and fast.layout.pieces[0].name == "first"
    state = engine.start_game(4, seed=5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        d = engine.pending(state)
        for observer in (None, d.player):
            assert np.array_equal(fast.encode(state, observer), pure.encode(state, observer))
        engine.apply(state, d.options[int(rng.integers(len(d.options)))])


def _without(name):
    """An edit of the layout's pieces: piece ``name`` left out."""
    return lambda pieces: pieces.remove(next(p for p in pieces if p.name == name))


def _reshaped(name, shape):
    """An edit of the layout's pieces: piece ``name`` given ``shape``."""
    def edit(pieces):
        i = [p.name for p in pieces].index(name)
        pieces[i] = dataclasses.replace(pieces[i], shape=shape)
    return edit


@needs_compiled
@pytest.mark.parametrize("edit,message", [
    (_without("round"), "no piece 'round'"),
    (_reshaped("control", (58, 6, 2)), "piece 'control' has shape (58, 6, 2)"),
    (_reshaped("decision_player", (5,)), "piece 'decision_player' has shape (5,)")])  # 6 houses
def test_a_layout_the_writer_does_not_fill_is_refused(monkeypatch, edit, message):
    """A piece the writer fills missing, or of another shape than its loops assume (one size
    read from the layout differing between pieces included), is an error when the encoder is
    built, never a vector written askew."""
    monkeypatch.setattr(observation, "layout", _edited_layout(edit))
    with pytest.raises(ValueError, match=re.escape(message)):
        ObservationEncoder(load_ruleset("2e"), compiled=True)


def test_the_pure_python_core_replays_the_recorded_games():
    """GOT_ENV_PURE_PYTHON=1 in a new process (a compiled module, once imported, stays for the
    process): no compiled part runs, the engine's kernels included, and every recorded game
    gives the recorded hashes."""
    script = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(TESTS)!r})
        import got_env
        from got_env.engine import board, state
        from recorded_games import PATH, play
        games = json.loads(PATH.read_text())["games"]
        same = [play(g["num_players"], g["tides_of_battle"], g["seed"], g["actions"])["final"]
                == g["final"] for g in games]
        e = got_env.raw_env(num_players=3)
        compiled = [board._KERNELS is not None, state._KERNELS is not None, e.encoder.compiled,
                    e.codec.compiled]
        print(json.dumps({{"compiled": compiled, "same": same}}))
    """)
    env = {**os.environ, "GOT_ENV_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=600, check=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    assert result["compiled"] == [False] * 4
    assert result["same"] and all(result["same"])
