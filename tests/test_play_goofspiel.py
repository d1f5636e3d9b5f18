"""experiments.play on a game other than AGoT: the same command plays Goofspiel, reports its
result from the tournament's game hooks and saves a kit record that replays (no board picture:
Goofspiel has no picture hook)."""

from __future__ import annotations

import json
from pathlib import Path

from boardkit.records import GameRecord
from experiments import play as P

ROOT = Path(__file__).resolve().parent.parent


def test_a_goofspiel_game_plays_and_saves_its_record(tmp_path, capsys):
    cfg = {"game": "goofspiel", "env": {"num_players": 2, "num_cards": 5},
           "agents": {"default": "random",
                      "player_1": {"name": "ismcts", "kwargs": {"simulations": 4,
                                                                 "horizon": "game"}}},
           "seed": 3, "out": str(tmp_path / "out")}
    path = tmp_path / "goof.yaml"
    path.write_text(json.dumps(cfg), encoding="utf-8")
    assert P.main(["--config", str(path), "--replay"]) == 0
    out = capsys.readouterr().out
    assert "2-player game, seed 3:" in out and "5 rounds" in out
    assert "winner: player_" in out or "draw: player_0, player_1" in out
    assert "points  (RandomAgent)" in out and "points  (ISMCTSAgent)" in out
    assert "final board" not in out
    record = GameRecord.load(tmp_path / "out" / "game-3.json")
    assert record.game == "goofspiel" and record.seed == 3 and len(record.actions) == 10
    *_, (env, last) = record.walk()      # replays to the recorded outcome and digest
    assert last is None and env.game.pending is None
    assert (tmp_path / "out" / "replay.html").stat().st_size > 0
    assert not list((tmp_path / "out").glob("*.png"))


def test_the_shipped_goofspiel_play_config_parses():
    cfg = P.load_config(ROOT / "configs" / "goofspiel_play.yaml")
    assert cfg["game"] == "goofspiel" and cfg["env"] == {"num_players": 2, "num_cards": 8}
