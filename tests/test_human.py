"""experiments.human: a person plays in the terminal (issue 14). Scripted sessions: moves come
from a list (or from standard input in a subprocess), output goes to a rich Console on a
StringIO."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

import got_env
from agents import make_agent
from boardkit.records import GameRecord
from experiments.human.session import HumanSession, main
from got_env.tools.terminal import board

ROOT = Path(__file__).resolve().parent.parent
GAME = ["--game", "got", "--house", "stark", "--players", "3", "--max-rounds", "2", "--seed", "1",
        "--opponents", "heuristic"]


def console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=200, color_system=None, force_terminal=False), buf


def feed(lines, then_forever: str | None = None):
    """An input_fn giving ``lines`` in turn, then ``then_forever`` (or EOFError)."""
    it = iter(lines)

    def input_fn(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            if then_forever is None:
                raise EOFError from None
            return then_forever
    return input_fn


def only(path: Path, pattern: str) -> Path:
    found = sorted(path.glob(pattern))
    assert len(found) == 1, found
    return found[0]


def test_scripted_game_plays_to_the_end_and_its_record_replays(tmp_path):
    con, buf = console()
    script = ["?", "b", "l", "march", "order", "2", "raid", "1"]
    rc = main(GAME + ["--out", str(tmp_path)], input_fn=feed(script, "1"), console=con)
    out = buf.getvalue()
    assert rc == 0
    assert "Game over. Winner:" in out and "Orders revealed:" in out
    record = GameRecord.load(only(tmp_path, "*.json"))
    assert record.outcome is not None and record.outcome["reason"] == "last-round"
    env = record.replay()
    assert env.game.outcome is not None
    pictures = sorted(tmp_path.glob("*-round-*.png"))
    assert len(pictures) >= 1
    assert pictures[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_stdin_session_in_a_subprocess(tmp_path):
    """The real command line, moves as lines on standard input, to the end of the game."""
    done = subprocess.run([sys.executable, "-m", "experiments.human", *GAME, "--out",
                           str(tmp_path)], input="winterfell\n" + "1\n" * 3000, text=True,
                          capture_output=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Game over. Winner:" in done.stdout
    GameRecord.load(only(tmp_path, "*.json")).replay()


def test_end_of_input_mid_game_saves_the_record(tmp_path):
    con, buf = console()
    rc = main(GAME + ["--out", str(tmp_path)], input_fn=feed(["1"] * 5), console=con)
    assert rc == 0
    assert "input ended before the game did" in buf.getvalue()
    record = GameRecord.load(only(tmp_path, "*.json"))
    assert record.outcome is None and len(record.actions) > 5
    record.replay()


def test_ctrl_c_saves_the_record(tmp_path):
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt
    con, buf = console()
    assert main(GAME + ["--out", str(tmp_path)], input_fn=interrupt, console=con) == 130
    assert "Ctrl-C" in buf.getvalue()
    GameRecord.load(only(tmp_path, "*.json")).replay()


def seated(num_players: int = 3, seed: int = 1):
    env = got_env.raw_env(num_players=num_players, max_rounds=2, info_format="text")
    env.reset(seed=seed)
    bots = {h: make_agent("heuristic", env=env, seed=seed + i)
            for i, h in enumerate(env.possible_agents) if h != "stark"}
    return env, bots


def play_bots_until_stark(env, bots) -> None:
    while env.agent_selection != "stark":
        h = env.agent_selection
        obs = env.observe(h)
        env.step(int(bots[h].act(obs["observation"], obs["action_mask"], env.infos[h])))


def test_invalid_input_re_prompts_without_changing_the_game(tmp_path):
    env, bots = seated()
    play_bots_until_stark(env, bots)
    con, buf = console()
    session = HumanSession(env, "stark", bots, 1, tmp_path, console=con,
                           input_fn=feed(["999", "0", "xyzzy", "?", "b", "", "3"]))
    digest, actions = env.game.digest(), list(env.record.actions)
    picked = session.ask()
    assert picked == env.legal_actions()[2]
    assert env.game.digest() == digest and env.record.actions == actions
    out = buf.getvalue()
    assert "no option 999" in out and "no option 0" in out
    assert "no option matches 'xyzzy'" in out and "Commands at a prompt" in out


def hidden_orders(env, me: str) -> list[tuple[str, str]]:
    """(area id, order token id) of every order of another house, from the omniscient state."""
    g, rs = env.game, env.ruleset
    control = g.control()
    return [(rs.areas[a].id, rs.order_tokens[int(g.orders[a])].id)
            for a in range(len(g.orders))
            if g.orders[a] >= 0 and control[a] != rs.house(me)]


def rows_of(text: str, area: str) -> list[str]:
    return [line for line in text.splitlines() if line.split()[:1] == [area]]


def test_the_display_never_shows_another_house_s_unrevealed_order(tmp_path):
    env, bots = seated()
    play_bots_until_stark(env, bots)
    assert env.infos["stark"]["decision"] == "D-20 PLACE_ORDERS"
    hidden = hidden_orders(env, "stark")
    assert hidden, "the other houses placed their orders before stark"
    tokens = {t.id for t in env.ruleset.order_tokens}
    con, buf = console()
    con.print(board(env, "stark"))
    text = buf.getvalue()
    for area, _ in hidden:
        (row,) = rows_of(text, area)
        assert not any(t in row for t in tokens), row

    # the whole session's output up to stark's first choice: board and log alike
    env2, bots2 = seated()
    con2, buf2 = console()
    session = HumanSession(env2, "stark", bots2, 1, tmp_path, console=con2,
                           input_fn=feed(["b"]))
    assert session.run() == 0  # end of input at the first prompt: the record is saved
    shown = buf2.getvalue()
    assert "placed an order (hidden)" in shown
    for area, token in hidden:
        assert not [line for line in shown.splitlines() if area in line and token in line]

    # stark's own order is shown as soon as it is placed; every order once revealed
    first = env.legal_actions()[0]
    area_id = env.action_name(first)[len("ORDER["):].split(",")[0]
    token_id = env.action_name(first).rstrip("]").split(",")[1]
    env.step(first)
    buf.truncate(0), buf.seek(0)
    con.print(board(env, "stark"))
    assert token_id in rows_of(buf.getvalue(), area_id)[0]
    while not env.game.orders_revealed:
        env.step(env.legal_actions()[0])
    buf.truncate(0), buf.seek(0)
    con.print(board(env, "stark"))
    revealed = buf.getvalue()
    for area, token in hidden:
        assert token in rows_of(revealed, area)[0]


@pytest.mark.parametrize("argv, message", [
    (["--house", "dragons"], "unknown house 'dragons'"),
    (["--house", "greyjoy", "--players", "3"], "unknown house 'greyjoy'"),
    (["--opponents", "no_such_agent"], "no_such_agent"),
    (["--agent", "lannister=no_such_agent"], "no_such_agent"),
    (["--agent", "stark=random"], "that is your house"),
    (["--agent", "lannister"], "expected HOUSE=SPEC"),
    (["--players", "7"], "num_players"),
])
def test_bad_arguments_exit_2_with_a_clear_error(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["--game", "got", *argv, "--out", str(tmp_path)], input_fn=feed([]))
    assert e.value.code == 2
    assert message in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_bad_house_from_the_command_line_exits_2():
    done = subprocess.run([sys.executable, "-m", "experiments.human", "--game", "got",
                           "--house", "dragons"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert "unknown house 'dragons'" in done.stderr


def test_bids_are_shown_only_once_every_house_has_bid(tmp_path):
    """At each of stark's secret bids, the log has not shown this bidding's bids yet; after it,
    every bidding that stark took part in was revealed."""
    from got_env.engine import DecisionKind

    env = got_env.raw_env(num_players=3, max_rounds=2, info_format="text")
    bots = {h: make_agent("heuristic", env=env, seed=10 + i)
            for i, h in enumerate(env.possible_agents) if h != "stark"}
    con, buf = console()
    asked = []

    def input_fn(prompt: str) -> str:
        d = env.game.pending
        if d.kind in (DecisionKind.INFLUENCE_BID, DecisionKind.WILDLING_BID):
            since = buf.getvalue().rsplit("Westeros deck", 1)[-1]
            title = ("Bids on " + ("iron-throne", "fiefdoms", "kings-court")[d.context["track"]]
                     if d.kind == DecisionKind.INFLUENCE_BID else "Wildling attack")
            assert title not in since
            asked.append(title)
        return "1"

    session = HumanSession(env, "stark", bots, 10, tmp_path, console=con, input_fn=input_fn)
    assert session.run() == 0
    assert asked, "seed 10 has a bidding in round 2"
    out = buf.getvalue()
    for title in asked:
        assert title in out


# -- odd input and errors (audit item 6) -------------------------------------------------------
@pytest.mark.parametrize("line", ["²", "9" * 5000, "1" + "0" * 4300, "٣٣٣", "⁹⁹", "1.5", "+2",
                                  "[bold]x", "\x00", "x" * 5000])
def test_odd_input_re_prompts_with_a_short_message(line, tmp_path):
    """``isdigit()`` is true of '²' (int() refuses it) and a 5,000-digit number is over int()'s
    digit limit: both re-prompt like any bad input, with a message that stays short."""
    env, bots = seated()
    play_bots_until_stark(env, bots)
    con, buf = console()
    answers, marks = [line, "3"], []

    def input_fn(prompt: str) -> str:
        marks.append(len(buf.getvalue()))
        return answers[len(marks) - 1]

    session = HumanSession(env, "stark", bots, 1, tmp_path, console=con, input_fn=input_fn)
    digest = env.game.digest()
    assert session.ask() == env.legal_actions()[2]
    assert env.game.digest() == digest
    message = buf.getvalue()[marks[0]:marks[1]]
    assert 0 < len(message) < 200 and message.count("\n") == 1, message


class BrokenAgent:
    """An agent whose every act raises: the session must still save the game so far."""

    def __init__(self, seed=None):
        pass

    def act(self, observation, action_mask, info):
        raise RuntimeError("boom")


def test_an_error_during_the_session_saves_the_record_and_is_raised(tmp_path):
    env = got_env.raw_env(num_players=3, max_rounds=2, info_format="text")
    bots = {"lannister": make_agent("heuristic", env=env, seed=2), "baratheon": BrokenAgent()}
    con, buf = console()
    session = HumanSession(env, "stark", bots, 1, tmp_path, console=con,
                           input_fn=feed([], "1"))
    with pytest.raises(RuntimeError, match="boom"):
        session.run()
    assert session.record_path is not None and session.record_path.exists()
    assert "Game not finished: baratheon's agent (BrokenAgent) raised RuntimeError: boom" \
        in buf.getvalue()
    record = GameRecord.load(session.record_path)
    assert record.outcome is None
    record.replay()


def test_cli_error_during_the_game_exits_1_naming_the_record(tmp_path, capsys, monkeypatch):
    from agents import REGISTRY

    monkeypatch.setitem(REGISTRY, "broken", BrokenAgent)
    con, buf = console()
    rc = main(GAME + ["--agent", "baratheon=broken", "--out", str(tmp_path)],
              input_fn=feed([], "1"), console=con)
    assert rc == 1
    err = capsys.readouterr().err
    record = only(tmp_path, "*.json")
    assert "baratheon's agent (BrokenAgent) raised RuntimeError: boom" in err
    assert str(record) in err and "Traceback" not in err
    GameRecord.load(record).replay()


def test_undecodable_stdin_re_prompts(tmp_path):
    """Bytes that are not UTF-8 on a strict standard input are bad input, not a crash."""
    import os

    done = subprocess.run([sys.executable, "-m", "experiments.human", *GAME, "--out",
                           str(tmp_path)], input=b"\xff\xfe\nq\n", capture_output=True,
                          cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"})
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert b"no option matches" in done.stdout and b"you quit" in done.stdout
    GameRecord.load(only(tmp_path, "*.json")).replay()


# -- another game: Goofspiel through the text view -------------------------------------------------
GOOF = ["--game", "goofspiel", "--option", "num_cards=5", "--seed", "2"]


def test_a_goofspiel_game_from_stdin_finishes_and_saves_a_kit_record(tmp_path):
    """The real command line on the kit's second game: the position is the protocol's text
    (the player's own view), options by the codec's names, a random opponent, the record a
    record that replays."""

    done = subprocess.run([sys.executable, "-m", "experiments.human", *GOOF, "--out",
                           str(tmp_path)], input="?\nl\n" + "1\n" * 50, text=True,
                          capture_output=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "You play player_0 in a 2-player game (seed 2) against player_1=RandomAgent" in out
    assert "Your choice: bid" in out and "turn 1/5: prize" in out
    assert "player_1: made a secret choice (hidden)" in out
    assert "Game over." in out and "points" in out and "Record saved to" in out
    record = GameRecord.load(only(tmp_path, "*.json"))
    assert record.game == "goofspiel" and record.seed == 2 and len(record.actions) == 10
    *_, (env, last) = record.walk()
    assert last is None and env.game.pending is None
    assert not list(tmp_path.glob("*.png"))


def test_goofspiel_session_never_shows_the_other_bid(tmp_path):
    """player_1 bids first in seat order only after player_0; as player_1, the text at the
    prompt holds no bid of player_0 for the turn in play."""
    con, buf = console()
    shown: list[str] = []

    def input_fn(prompt: str) -> str:
        shown.append(buf.getvalue())
        return "1"

    rc = main([*GOOF, "--house", "player_1", "--out", str(tmp_path)], input_fn=input_fn,
              console=con)
    assert rc == 0 and len(shown) == 5
    assert all("player_0: hand" not in text for text in shown)
    assert "player_1: hand" in shown[0]


@pytest.mark.parametrize("argv, message", [
    (["--game", "goofspiel", "--ruleset", "1e"], "--ruleset: not an option of goofspiel"),
    (["--game", "goofspiel", "--house", "stark"], "unknown seat 'stark'"),
    (["--game", "goofspiel", "--option", "colour=red"], "colour"),
    (["--game", "got", "--option", "num_cards=3"], "--option: not an option of got"),
])
def test_bad_goofspiel_arguments_exit_2(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(argv + ["--out", str(tmp_path)], input_fn=feed([]))
    assert e.value.code == 2
    assert message in capsys.readouterr().err
