"""The replay page (experiments.replay) without a browser: it builds, needs nothing from the
network, and a house's view holds nothing that house could not see (tests/test_replay_browser.py
opens it in Chromium)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import got_env
from agents import make_agent
from boardkit.records import GameRecord
from experiments.play import play_game
from experiments.replay import (
    FULL,
    ReplayError,
    build_replay,
    fragment_of,
    main,
    page_data,
    parse_views,
    render_page,
    view_module,
)
from got_env.render import board as board_picture
from got_env.render.log import SECRET, walk
from got_env.render.vocabulary import order_abbreviation
from got_env.tools.replay import house_view_parts, view_svg

RECORD_2 = Path(__file__).parent / "fixtures" / "record-2-3p.json"


@pytest.fixture(scope="module")
def record():
    """A full short game: 3 players, 2 rounds, heuristic agents."""
    env = got_env.raw_env(num_players=3, max_rounds=2)
    agents = {h: make_agent("heuristic", env=env, seed=i)
              for i, h in enumerate(env.possible_agents)}
    play_game(env, agents, seed=4)
    assert env.game.outcome is not None
    return env.record


@pytest.fixture(scope="module")
def page(record):
    html, figures = build_replay(record)
    return html, figures


@pytest.fixture(scope="module")
def stark_page(record):
    html, _ = build_replay(record, views=["stark"])
    return html


def order_badge(svg: str, area_id: str) -> str | None:
    """The text in an area's order badge (None: no badge)."""
    m = re.search(rf'<g id="order-{re.escape(area_id)}">.*?<text[^>]*>([^<]*)</text>', svg,
                  re.S)
    return None if m is None else m.group(1).strip()


def hidden_orders(record):
    """Per step, (area id, owner id, face) of every unrevealed order on the board."""
    out = []
    for state, _ in walk(record):
        occ = state.occupants()
        rs = state.ruleset
        here = []
        if not state.orders_revealed:
            for a in rs.areas:
                if state.orders[a.index] >= 0:
                    here.append((a.id, rs.houses[occ[a.index]].id,
                                 order_abbreviation(state, int(state.orders[a.index]))))
        out.append(here)
    return out


def test_page_builds_with_every_view_and_step(record, page):
    html, figures = page
    data = page_data(html)
    assert figures["steps"] == len(record.actions) + 1 == len(data["steps"])
    assert [v["name"] for v in data["views"]] == [FULL, "stark", "lannister", "baratheon"]
    for v in data["views"]:
        assert len(v["pics"]) == len(v["combat"]) == figures["steps"]
        assert v["pics"][0][0] == -1  # a keyframe first
    last = view_svg(data, FULL, figures["steps"] - 1)
    assert "Winner:" in last and "game over" in last
    assert data["combat_starts"], "a 2-round heuristic game has a combat"
    assert any(c is not None for c in data["views"][0]["combat"])


def test_page_is_self_contained(page):
    html, _ = page
    assert not re.search(r'(?:src|href)\s*=\s*["\']?\s*(?:https?:)?//', html, re.I)
    assert "<link" not in html and "@import" not in html
    assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", html)
    assert "<script src" not in html


def test_full_view_shows_orders_and_house_view_hides_them(record, page, stark_page):
    data, stark = page_data(page[0]), page_data(stark_page)
    assert [v["name"] for v in stark["views"]] == ["stark"]
    checked = 0
    for t, orders in enumerate(hidden_orders(record)):
        for area_id, owner, face in orders:
            full_badge = order_badge(view_svg(data, FULL, t), area_id)
            assert full_badge == face
            for d in (data, stark):
                badge = order_badge(view_svg(d, "stark", t), area_id)
                assert badge == (face if owner == "stark" else "?"), (t, area_id)
            checked += owner != "stark"
    assert checked > 10


def test_house_page_holds_no_other_houses_secrets(record, stark_page):
    """Other houses' secret choices (orders being placed, bids, house cards) are not in a
    Stark-only page at all, unless Stark made the same choice itself; combats show other
    houses' cards only once revealed."""
    own, others = set(), set()
    for _, step in walk(record):
        if step is not None and step.secret:
            (own if step.house == "stark" else others).add(step.action_name)
    assert others - own
    for name in others - own:
        assert name not in stark_page, name
    data = page_data(stark_page)
    assert data["seed"] is None  # it decides the decks' order
    view = data["views"][0]
    for t, (state, _) in enumerate(walk(record)):
        combat = view["combat"][t]
        frame = next((f for f in reversed(state.stack) if f.step == "combat"), None)
        if combat is None or frame is None or frame.revealed:
            continue
        for side in ("attacker", "defender"):
            if combat[side]["house"] != "Stark" and "card" in combat[side]:
                assert combat[side]["card"] == SECRET
    secret_steps = [t for t, s in enumerate(data["steps"]) if s[2] is not None and s[4] is None]
    assert secret_steps
    for t in secret_steps:
        assert (str(t) in view["secret"]) == (data["steps"][t][2] == "stark")


def test_every_draws_fewer_pictures(record, page):
    html, _ = build_replay(record, every=10)
    data = page_data(html)
    assert len(data["steps"]) == len(page_data(page[0])["steps"])
    assert len(data["parts"]) < len(page_data(page[0])["parts"])


def test_views_option():
    houses = ["stark", "lannister", "baratheon"]
    assert parse_views("all", houses) == [FULL, *houses]
    assert parse_views("stark, full", houses) == ["stark", FULL]
    with pytest.raises(ReplayError, match="'tyrell'"):
        parse_views("tyrell", houses)


def test_cli_writes_a_page(record, tmp_path, capsys):
    path = tmp_path / "game.json"
    record.save(path)
    out = tmp_path / "replay.html"
    assert main([str(path), "--out", str(out), "--views", "full", "--every", "20"]) == 0
    assert "<!DOCTYPE html>" in out.read_text()
    assert "1 view(s)" in capsys.readouterr().out


def fixture_doc() -> dict:
    """The saved format-2 record of tests/fixtures (3 players, 2 rounds, random actions)."""
    return json.loads(RECORD_2.read_text())


def sealed_doc(**options) -> dict:
    """The fixture record in the current format, its options changed, its check matching."""
    record = GameRecord.load(RECORD_2)
    return dataclasses.replace(record, options={**record.options, **options}).sealed().to_json()


BAD_RECORDS = {  # file name -> (content, what the one line must say)
    "broken.json": ('{"format": "got_env-record-2", "options": {}, "actions": [1, ',
                    "cannot read game record"),
    "unknown-option.json": (sealed_doc(foo=1), "'options'"),
    "other-ruleset.json": (sealed_doc(ruleset="1e"), "'options'"),
    "max-rounds-text.json": (sealed_doc(max_rounds="2"), "max_rounds"),
    "outcome-null.json": ({**fixture_doc(), "outcome": None}, "'outcome'"),
    "extra-field.json": ({**fixture_doc(), "comment": "mine"}, "unknown field"),
    "no-digest.json": ({k: v for k, v in fixture_doc().items() if k != "digest"},
                       "'digest' is missing"),
    "edited.json": ({**sealed_doc(), "seed": 4}, "changed"),
    "list.json": ([], "not a game record"),
}


@pytest.mark.parametrize("name", BAD_RECORDS)
def test_cli_names_a_bad_record_in_one_line(tmp_path, capsys, name):
    """Exit 2, one line on stderr naming the file and what is wrong, no page written."""
    content, says = BAD_RECORDS[name]
    bad = tmp_path / name
    bad.write_text(content if isinstance(content, str) else json.dumps(content))
    assert main([str(bad), "--out", str(tmp_path / "x.html")]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.count("\n") == 1 and name in out.err and says in out.err, out.err
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("where", ["missing.json", "."])
def test_cli_names_a_file_it_cannot_read(tmp_path, capsys, where):
    assert main([str(tmp_path / where), "--out", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read game record" in err


def test_cli_exits_2_without_a_traceback(tmp_path):
    """The command itself, as a user runs it."""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(sealed_doc(max_rounds="2")))
    run = subprocess.run([sys.executable, "-m", "experiments.replay", str(bad), "--out",
                          str(tmp_path / "x.html")], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent, timeout=120)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.startswith("python -m experiments.replay: error: ")
    assert "bad.json" in run.stderr


def test_cli_names_a_record_that_does_not_replay(record, tmp_path, capsys):
    path = tmp_path / "changed.json"
    changed = GameRecord(record.game, record.options, record.seed,
                         record.actions[:-3] + [0, 0, 0], record.outcome, record.digest)
    changed.save(path)
    assert main([str(path), "--out", str(tmp_path / "x.html")]) == 2
    assert "changed.json" in capsys.readouterr().err


# --- crafted titles and file names -------------------------------------------------------------

CRAFTED = ["got_env replay: game<!--<script>.json", "</script><script>alert(1)</script>",
           "<!-- -->", "{{DATA}}", "{{TITLE}}", "&amp; <b> \"q\" \u2028 ]]>"]
XHTML = "{http://www.w3.org/1999/xhtml}"


def parsed_page(page: str):
    """The page as an HTML5 parser builds it (html5lib: the algorithm browsers follow)."""
    html5lib = pytest.importorskip("html5lib")
    return html5lib.parse(page)


def assert_page_intact(page: str, data: dict) -> None:
    """The page's two scripts are there as written: the data (which parses back to ``data``)
    and the viewer's code; the title element holds the title."""
    tree = parsed_page(page)
    scripts = tree.findall(f".//{XHTML}script")
    assert [s.get("id") for s in scripts] == ["data", None]
    assert scripts[0].get("type") == "application/json"
    assert json.loads(scripts[0].text) == data
    assert scripts[1].text.lstrip().startswith('"use strict"')
    assert "window.replay" in scripts[1].text
    assert tree.find(f".//{XHTML}title").text == data["title"]
    assert tree.find(f".//{XHTML}h1").get("id") == "title"


@pytest.mark.parametrize("title", CRAFTED)
def test_a_crafted_title_leaves_the_page_intact(page, title):
    data = {**page_data(page[0]), "title": title}
    built = render_page(data, fragment_of(view_module("got")))
    assert_page_intact(built, data)
    payload = built[built.index('id="data">'):built.index("</script>")]
    assert "<" not in payload[len('id="data">'):] and "&" not in payload


def test_a_crafted_file_name_leaves_the_page_intact(tmp_path):
    name = "game<!--<script>.json"
    record = GameRecord.load(RECORD_2)
    env = got_env.raw_env(**record.options)
    env.reset(seed=record.seed)
    for action in record.actions[:4]:  # a game still on: a short page
        env.step(action)
    env.record.save(tmp_path / name)
    assert main([str(tmp_path / name), "--out", str(tmp_path / "x.html"), "--views",
                 "full"]) == 0
    page = (tmp_path / "x.html").read_text()
    assert page_data(page)["title"] == f"got_env replay: {name}"
    assert_page_intact(page, page_data(page))


# --- the build: fast, with the same page as before ---------------------------------------------

#: sha256 of the fixture record's page data (json.dumps, sorted keys), title "fixture", as built
#: before the build was made faster. Re-record only when the picture or the page's data change
#: on purpose (say so in the commit), never to make a speed-up pass.
FIXTURE_PAGE_DATA = {
    "all": "06d4c3e9b2eb5786881432c91f38009726b55eac5277058d0ff70d2bf2521a57",
    "stark,full": "b5c4955009391d32057dbd35e0b8268d70f4a6cb498ef3b53774c8fbbd6d8180",
}


@pytest.mark.parametrize("views", FIXTURE_PAGE_DATA)
def test_the_fixture_record_gives_the_page_data_it_gave(views):
    record = GameRecord.load(RECORD_2)
    page, _ = build_replay(record, views=parse_views(views, ["stark", "lannister",
                                                            "baratheon"]), title="fixture")
    data = json.dumps(page_data(page), sort_keys=True).encode()
    assert hashlib.sha256(data).hexdigest() == FIXTURE_PAGE_DATA[views]


def test_house_view_parts_are_the_house_board_parts(record):
    """The shortcut of the build (a house view is the full view with the orders it cannot see
    drawn for it) gives the parts ``board_parts`` gives that house, at every step."""
    checked = 0
    for state, _ in walk(record):
        full = board_picture.board_parts(state, None, show_viewer=False)
        for house in range(state.ruleset.num_houses):
            if not state.in_play[house]:
                continue
            want = [p.key for p in board_picture.board_parts(state, house, show_viewer=False)]
            assert [p.key for p in house_view_parts(state, full, house)] == want
            checked += want != [p.key for p in full]
    assert checked > 10


def test_the_build_draws_the_board_once_a_step(record, monkeypatch):
    """Not once a step and a view: house views reuse the full view's parts."""
    calls = []
    board_parts = board_picture.board_parts

    def counting(*args, **kwargs):
        calls.append(1)
        return board_parts(*args, **kwargs)

    monkeypatch.setattr(board_picture, "board_parts", counting)
    _, figures = build_replay(record)
    assert len(calls) == figures["steps"]


def test_play_writes_a_replay(tmp_path):
    from experiments.play import main as play_main

    config = tmp_path / "play.yaml"
    config.write_text("game: got\nenv: {num_players: 3, max_rounds: 1}\nseed: 2\n"
                      "agents: {default: random}\n"
                      f"out: {tmp_path / 'out'}\n")
    assert play_main(["--config", str(config), "--no-picture", "--replay"]) == 0
    page = (tmp_path / "out" / "replay.html").read_text()
    assert page_data(page)["seed"] == 2
    config.write_text(config.read_text() + "replay: true\n")
    (tmp_path / "out" / "replay.html").unlink()
    assert play_main(["--config", str(config), "--no-picture"]) == 0
    assert (tmp_path / "out" / "replay.html").exists()


def test_tournament_writes_one_replay_per_game(tmp_path):
    from experiments.tournament.config import parse_config
    from experiments.tournament.run import run_tournament

    cfg = parse_config({"game": "got", "env": {"num_players": 3, "max_rounds": 1},
                        "agents": {"r": "random"},
                        "lineups": [["r", "r", "r"]], "games": 2, "workers": 1,
                        "replays": True, "out": str(tmp_path)}, default_name="t")
    run_tournament(cfg, progress=False, log=lambda _: None)
    pages = sorted(p.name for p in (tmp_path / "t" / "replays").iterdir())
    assert pages == ["game-0-0.html", "game-0-1.html"]
    assert page_data((tmp_path / "t" / "replays" / pages[0]).read_text())["steps"]
    with pytest.raises(ValueError, match="replays must be true or false"):
        parse_config({"game": "got", "env": {"num_players": 3}, "agents": {"r": "random"},
                      "lineups": [["r", "r", "r"]], "replays": "yes"})


# --- other games: the kit record and the default text view (Goofspiel) -------------------------

def goofspiel_record(seed: int = 3, num_cards: int = 6):
    """A whole Goofspiel game of two random agents, as the record of its env."""
    import goofspiel
    from agents import RandomAgent

    env = goofspiel.env(num_players=2, num_cards=num_cards)
    agents = {a: RandomAgent(seed=seed + i) for i, a in enumerate(env.possible_agents)}
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        env.step(None if term or trunc else
                 agents[agent].act(obs["observation"], obs["action_mask"], info))
    return env.unwrapped.record


def test_a_goofspiel_game_replays_into_a_page_of_player_views(tmp_path, capsys):
    from goofspiel import GAME

    record = goofspiel_record()
    path = tmp_path / "goof.json"
    record.save(path)
    assert GameRecord.load(path) == record
    out = tmp_path / "goof.html"
    assert main([str(path), "--out", str(out)]) == 0
    assert "13 steps, 3 view(s)" in capsys.readouterr().out  # 12 bids and the end
    page = out.read_text()
    data = page_data(page)
    assert_page_intact(page, data)
    assert [v["name"] for v in data["views"]] == [FULL, "player_0", "player_1"]
    assert len(data["steps"]) == len(record.actions) + 1 == 13
    assert data["seed"] == record.seed and data["title"] == "replay: goof.json"
    assert data["steps"][0][2:] == ["player_0", "bid", None]  # a bid is secret: no name
    views = {v["name"]: v for v in data["views"]}
    state = GAME.new_state(record.seed, {k: record.options[k] for k in ("num_players",
                                                                        "num_cards")})
    checked = 0
    for t, action in enumerate([*record.actions, None]):
        for name, observer in ((FULL, None), ("player_0", 0), ("player_1", 1)):
            assert data["texts"][views[name]["text"][t]] == GAME.text(state, observer)
        if state.bids[0] >= 0:  # player 0 has bid, unrevealed: player 1's view must not say it
            for card in np.flatnonzero(state.hands[0]):  # any other bid: the same text
                other = GAME.clone(state)
                other.bids[0] = card
                assert data["texts"][views["player_1"]["text"][t]] == GAME.text(other, 1)
            assert str(t - 1) not in views["player_1"]["secret"]
            assert views["player_0"]["secret"][str(t - 1)] == f"bid {state.bids[0] + 1}"
            checked += 1
        if action is not None:
            GAME.apply(state, action)
    assert checked == 6


def test_a_player_only_goofspiel_page_holds_no_seed_nor_others_bids():
    record = goofspiel_record(seed=5)
    page, figures = build_replay(record, views=["player_1"])
    data = page_data(page)
    assert data["seed"] is None and figures["views"] == ["player_1"]
    assert set(data["views"][0]["secret"]) == {str(t) for t in range(1, 12, 2)}
    assert all("player_0:" not in text for text in data["texts"])


GOOF_BAD = {  # file name -> (change to the saved record, what the one line must say)
    "no-game.json": (lambda d: d.pop("game"), "'game' is missing"),
    "bad-actions.json": (lambda d: d.update(actions="1,2"), "'actions'"),
    "illegal.json": (lambda d: d["actions"].__setitem__(2, d["actions"][0]), "'check'"),
    "edited-seed.json": (lambda d: d.update(seed=d["seed"] + 1), "'check'"),
    "extra.json": (lambda d: d.update(comment="mine"), "unknown field"),
}
#: crafted records whose check matches their content: the replay names what is wrong
GOOF_CRAFTED = {
    "unknown-game.json": (lambda d: d.update(game="chess"), "'game'"),
    "illegal.json": (lambda d: d["actions"].__setitem__(2, d["actions"][0]),
                     "index 2 of the record does not replay"),
    "edited-seed.json": (lambda d: d.update(seed=d["seed"] + 1), "does not replay|differs"),
    "bad-options.json": (lambda d: d.update(options={"num_players": 9}), "'options'"),
    "edited-digest.json": (lambda d: d.update(digest="0" * 16), "'digest'"),
}


def write_doc(path: Path, doc: dict, seal: bool = False) -> Path:
    """``doc`` saved at ``path``; ``seal``: with the check of its content (a crafted record)."""
    if seal:
        doc = GameRecord(**{k: doc[k] for k in doc if k not in ("format", "check")}
                         ).sealed().to_json()
    path.write_text(json.dumps(doc))
    return path


def assert_one_line(capsys, argv: list[str], name: str, says: str) -> None:
    """``main(argv)`` exits 2 with one line on stderr naming the file and what is wrong (a
    regular expression), nothing on stdout."""
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1, out.err
    assert name in out.err and re.search(says, out.err), out.err


@pytest.mark.parametrize("name", GOOF_BAD)
def test_a_corrupt_goofspiel_record_is_named_in_one_line(tmp_path, capsys, name):
    change, says = GOOF_BAD[name]
    doc = goofspiel_record().to_json()
    change(doc)
    bad = write_doc(tmp_path / name, doc)
    assert_one_line(capsys, [str(bad), "--out", str(tmp_path / "x.html")], name, says)
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("name", GOOF_CRAFTED)
def test_a_crafted_goofspiel_record_is_named_in_one_line(tmp_path, capsys, name):
    change, says = GOOF_CRAFTED[name]
    doc = goofspiel_record().to_json()
    change(doc)
    bad = write_doc(tmp_path / name, doc, seal=True)
    assert_one_line(capsys, [str(bad), "--out", str(tmp_path / "x.html")], name, says)
    assert not (tmp_path / "x.html").exists()


# --- a record of another game or edition than its header claims --------------------------------

def wotr_doc(**options) -> dict:
    """A short War of the Ring game's saved record."""
    import wotr_env
    from agents import RandomAgent

    env = wotr_env.raw_env(max_turns=1, **options)
    play_game(env, {a: RandomAgent(seed=i) for i, a in enumerate(env.possible_agents)}, 4)
    return env.record.to_json()


def got_doc(**options) -> dict:
    return {**sealed_doc(), **({"options": {**sealed_doc()["options"], **options}}
                               if options else {})}


MISMATCHED = {  # file name -> (the record, sealed?, what the one line must say)
    "wotr-as-got.json": (lambda: {**wotr_doc(), "game": "got"}, True, "'options'"),
    "wotr-as-goofspiel.json": (lambda: {**wotr_doc(), "game": "goofspiel"}, True,
                               "'options'"),
    "wotr-as-got-unsealed.json": (lambda: {**wotr_doc(), "game": "got"}, False, "'check'"),
    "wotr-2e-as-1e.json": (lambda: {**wotr_doc(), "options": {
        **wotr_doc()["options"], "ruleset": "1e"}}, True, "does not replay|differs"),
    "got-2e-as-1e.json": (lambda: got_doc(ruleset="1e", tiebreak="first-edition",
                                          lannister_port_ship_in_3p=None), True,
                          "'options'|does not replay|differs"),
    "goofspiel-as-wotr.json": (lambda: {**goofspiel_record().to_json(), "game": "wotr"}, True,
                               "'options'"),
    "kit-got-missing-fields.json": (lambda: {"format": "boardkit-record-2", "game": "got",
                                             "options": {}, "seed": 3}, False,
                                    "'actions' is missing"),
    "kit-got-only-a-game.json": (lambda: {"format": "boardkit-record-2", "game": "got"}, False,
                                 "'options' is missing"),
    "old-kit-record-naming-got.json": (lambda: {
        "format": "boardkit-record-1", "game": "got", "options": {"ruleset": "2e"}, "seed": 3,
        "actions": wotr_doc()["actions"], "digest": "0" * 16}, False,
        "does not replay|differs"),
}


@pytest.mark.parametrize("name", MISMATCHED)
def test_a_record_of_another_game_or_edition_is_named_in_one_line(tmp_path, capsys, name):
    """Another game's or edition's record under this header (its check matching or not), a
    kit record naming a game with fields missing: exit 2, one line, no page (before: an
    AttributeError traceback for a kit record naming AGoT)."""
    make, seal, says = MISMATCHED[name]
    doc = make()
    if seal:
        doc = {k: v for k, v in doc.items() if k != "check"}
    bad = write_doc(tmp_path / name, doc, seal=seal)
    assert_one_line(capsys, [str(bad), "--out", str(tmp_path / "x.html")], name, says)
    assert not (tmp_path / "x.html").exists()


def test_an_old_kit_record_of_agot_replays(tmp_path, capsys):
    """The kit's old format naming AGoT, with an AGoT game in it (before: an AttributeError
    traceback): read, replayed to its digest, shown."""
    old = json.loads(RECORD_2.read_text())
    doc = {"format": "boardkit-record-1", "game": "got", **{
        k: old[k] for k in ("options", "seed", "actions", "digest")}}
    path = write_doc(tmp_path / "old.json", doc)
    assert main([str(path), "--out", str(tmp_path / "x.html"), "--views", "full"]) == 0
    assert "1 view(s)" in capsys.readouterr().out


def test_the_cli_exits_2_on_another_games_record_without_a_traceback(tmp_path):
    for name in ("wotr-as-got.json", "kit-got-missing-fields.json"):
        make, seal, _ = MISMATCHED[name]
        doc = make()
        bad = write_doc(tmp_path / name, {k: v for k, v in doc.items() if k != "check"}
                        if seal else doc, seal=seal)
        run = subprocess.run([sys.executable, "-m", "experiments.replay", str(bad), "--out",
                              str(tmp_path / "x.html")], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent.parent, timeout=120)
        assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
        assert run.stderr.count("\n") == 1 and name in run.stderr


def test_the_cli_exits_2_on_a_corrupt_goofspiel_record(tmp_path):
    doc = goofspiel_record().to_json()
    doc["digest"] = "0" * 16
    bad = tmp_path / "goof.json"
    bad.write_text(json.dumps(doc))  # its check no longer matches
    run = subprocess.run([sys.executable, "-m", "experiments.replay", str(bad), "--out",
                          str(tmp_path / "x.html")], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent, timeout=120)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "goof.json" in run.stderr and "'check'" in run.stderr


def test_a_goofspiel_tournament_writes_replays(tmp_path):
    from experiments.tournament.config import parse_config
    from experiments.tournament.run import run_tournament

    cfg = parse_config({"game": "goofspiel", "env": {"num_players": 2, "num_cards": 5},
                        "agents": {"r": "random"}, "lineups": [["r", "r"]], "games": 2,
                        "workers": 1, "replays": True, "out": str(tmp_path)}, default_name="g")
    run_tournament(cfg, progress=False, log=lambda _: None)
    pages = sorted((tmp_path / "g" / "replays").iterdir())
    assert [p.name for p in pages] == ["game-0-0.html", "game-0-1.html"]
    data = page_data(pages[0].read_text())
    assert len(data["steps"]) == 11 and [v["name"] for v in data["views"]][1:] == [
        "player_0", "player_1"]
