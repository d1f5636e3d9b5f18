"""Identical results: the recorded games (tests/recorded_games.py) replay with the current engine,
encoder and env to the same hashes at every checkpoint, so a speed-up that changes any state,
observation, mask, reward or info fails here."""

from __future__ import annotations

import json

import pytest
from recorded_games import EVERY, GAMES, PATH, play

RECORDED = json.loads(PATH.read_text())["games"]


@pytest.mark.parametrize("path", ["default", "pure-python"])
@pytest.mark.parametrize("game", RECORDED, ids=lambda g: f"{g['num_players']}p-tides"
                         f"{int(g['tides_of_battle'])}-seed{g['seed']}")
def test_recorded_game_replays_identically(game, path, monkeypatch):
    """Through the default encoder (the compiled writer when it was built) and through the
    pure-Python one (the reference)."""
    if path == "pure-python":
        monkeypatch.setenv("GOT_ENV_PURE_PYTHON", "1")
    again = play(game["num_players"], game["tides_of_battle"], game["seed"], game["actions"])
    assert again["actions"] == game["actions"]
    for k, (want, got) in enumerate(zip(game["checkpoints"], again["checkpoints"], strict=True)):
        assert got == want, f"first difference before step {(k + 1) * EVERY}"
    assert again["final"] == game["final"]


def test_random_play_still_chooses_the_recorded_actions():
    """The same seed gives the same random game (masks in the same order)."""
    n, tides, seed = GAMES[0]
    assert play(n, tides, seed)["actions"] == RECORDED[0]["actions"]
