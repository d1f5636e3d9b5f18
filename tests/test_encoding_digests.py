"""Every observation (each player's and the full view), mask, index and name is what it was
before the kit's codec and layout replaced each game's own (issue 38, item 3): the digests of
14,857 states of random games of AGoT (2e 3-6 players, 1e 3-5), War of the Ring (2e, 1e) and
Goofspiel, recorded beforehand in tests/fixtures/encoding_digests.json (tests/encoding_digests.py
says how)."""

from __future__ import annotations

import json

import pytest

from tests.encoding_digests import (
    CASES,
    FIXTURE,
    bounds_digests,
    case_key,
    codec_digests,
    game_digests,
)

RECORDED = json.loads(FIXTURE.read_text())


def test_every_action_index_and_name_is_unchanged():
    assert codec_digests() == RECORDED["codecs"]


def test_every_observation_bound_is_unchanged():
    """The observation spaces' bounds (``encoder.high``), and so their sizes."""
    assert bounds_digests() == RECORDED["bounds"]


@pytest.mark.parametrize("game,options,seed,decisions",
                         [(g, o, s, n) for g, o, seeds, n in CASES for s in seeds],
                         ids=lambda v: v if isinstance(v, str) else None)
def test_every_observation_and_mask_of_a_random_game_is_unchanged(game, options, seed,
                                                                  decisions):
    want = RECORDED["states"][case_key(game, options, seed)].split()
    got = game_digests(game, options, seed, decisions)
    first = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), None)
    assert first is None, f"state {first} of the game differs (observation or mask)"
    assert len(got) == len(want)
