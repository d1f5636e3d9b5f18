"""War of the Ring in the terminal (issue 28 item 5): ``python -m experiments.human --game wotr
--side free_peoples`` plays through the kit's text view (the position as the player's side sees
it, the codec's action names, the other side's secret choices as hidden), scripted from stdin."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from agents import RandomAgent
from boardkit.envs import make_env
from boardkit.records import GameRecord
from experiments.human.session import HumanSession, main

ROOT = Path(__file__).resolve().parents[2]
WOTR = ["--game", "wotr", "--option", "max_turns=1", "--seed", "3"]
SIDES = ("free_peoples", "shadow")


def only(path: Path, pattern: str) -> Path:
    found = list(path.glob(pattern))
    assert len(found) == 1, found
    return found[0]


def test_a_wotr_game_from_stdin_as_the_free_peoples_finishes_and_saves_its_record(tmp_path):
    """The real command line: ``--side free_peoples``, the first option at every prompt."""
    done = subprocess.run([sys.executable, "-m", "experiments.human", *WOTR, "--side",
                           "free_peoples", "--out", str(tmp_path)],
                          input="?\nl\n" + "1\n" * 400, text=True, capture_output=True,
                          cwd=ROOT, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "You play free_peoples in a 2-player game (seed 3) against shadow=RandomAgent" in out
    assert "Your choice: WD-" in out and "turn 1, phase" in out
    assert "free_peoples: hand" in out and "  hand: " in out
    assert "Game over. No winner, cut off at the limit; ahead: " in out
    assert "(truncated), round 1." in out and "<- you" in out and "Record saved to" in out
    record = GameRecord.load(only(tmp_path, "*.json"))
    assert record.game == "wotr" and record.seed == 3 and record.options["max_turns"] == 1
    *_, (env, last) = record.walk()
    assert last is None and env.game.truncated


@pytest.mark.parametrize("side, other", [("free_peoples", 1), ("shadow", 0)])
def test_the_session_never_shows_the_other_sides_hand(side, other, tmp_path):
    """At every prompt, everything printed so far holds no card the other side then holds
    hidden (its hand, its face-down discards) — by name or by the codec's ``CARD[id]`` — and
    its secret choices are printed as hidden."""
    env = make_env("wotr", max_turns=2)
    buf = io.StringIO()
    con = Console(file=buf, width=120, force_terminal=False, color_system=None)
    prompts = 0

    def input_fn(prompt: str) -> str:
        nonlocal prompts
        prompts += 1
        state = env.game
        events = state.ruleset.cards.events
        hidden = set(state.hands[other]) | set(state.face_down[other])
        shown = buf.getvalue()
        leaks = [events[c].name for c in hidden if events[c].name in shown
                 or f"CARD[{events[c].id}]" in shown]
        assert not leaks, leaks
        return "1"

    session = HumanSession(env, side, {SIDES[other]: RandomAgent(seed=1)}, seed=5,
                           out=tmp_path, console=con, input_fn=input_fn, game="wotr")
    assert session.run() == 0
    assert prompts > 5
    shown = buf.getvalue()
    assert f"{side}: hand" in shown and "Game over." in shown
    if env.game.face_down[other]:
        assert f"{SIDES[other]}: made a secret choice (hidden)" in shown



@pytest.mark.parametrize("argv, message", [
    (["--game", "wotr", "--side", "sauron"], "unknown seat 'sauron'"),
    (["--game", "wotr", "--ruleset", "1e"], "--ruleset: not an option of wotr"),
    (["--game", "wotr", "--option", "max_turns=0"], "max_turns"),
    (["--game", "wotr", "--option", "num_players=3"], "2 players"),
])
def test_bad_wotr_arguments_exit_2(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(argv + ["--out", str(tmp_path)], input_fn=lambda _p: "q")
    assert e.value.code == 2
    assert message in capsys.readouterr().err
