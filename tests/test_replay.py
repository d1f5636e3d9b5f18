"""The replay page (experiments.replay) without a browser: it builds, needs nothing from the
network, and a house's view holds nothing that house could not see (tests/test_replay_browser.py
opens it in Chromium)."""

from __future__ import annotations

import re

import pytest

import got_env
from agents import make_agent
from experiments.play import play_game
from experiments.replay import (
    FULL,
    ReplayError,
    build_replay,
    main,
    page_data,
    parse_views,
    view_svg,
)
from got_env.render.log import SECRET, walk
from got_env.render.picture import order_abbreviation


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
        frame = next((f for f in reversed(state.stack) if f.get("step") == "combat"), None)
        if combat is None or frame is None or frame.get("revealed"):
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


def test_cli_names_a_corrupt_record(tmp_path, capsys):
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "got_env-record-2", "options": {}, "actions": [1, ')
    with pytest.raises(SystemExit) as e:
        main([str(bad), "--out", str(tmp_path / "x.html")])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "broken.json" in err and "cannot read game record" in err
    assert not (tmp_path / "x.html").exists()


def test_cli_names_a_record_that_does_not_replay(record, tmp_path, capsys):
    path = tmp_path / "changed.json"
    changed = got_env.GameRecord(record.options, record.seed, record.actions[:-3] + [0, 0, 0],
                                 record.outcome, record.digest)
    changed.save(path)
    with pytest.raises(SystemExit):
        main([str(path), "--out", str(tmp_path / "x.html")])
    assert "changed.json" in capsys.readouterr().err


def test_play_writes_a_replay(tmp_path):
    from experiments.play import main as play_main

    config = tmp_path / "play.yaml"
    config.write_text("env: {num_players: 3, max_rounds: 1}\nseed: 2\nagents: {default: random}\n"
                      f"out: {tmp_path / 'out'}\n")
    assert play_main(["--config", str(config), "--no-picture", "--replay"]) == 0
    page = (tmp_path / "out" / "replay.html").read_text()
    assert page_data(page)["seed"] == 2
    config.write_text(config.read_text() + "replay: true\n")
    (tmp_path / "out" / "replay.html").unlink()
    assert play_main(["--config", str(config), "--no-picture"]) == 0
    assert (tmp_path / "out" / "replay.html").exists()


def test_tournament_writes_one_replay_per_game(tmp_path):
    from experiments.tournament import parse_config, run_tournament

    cfg = parse_config({"env": {"num_players": 3, "max_rounds": 1}, "agents": {"r": "random"},
                        "lineups": [["r", "r", "r"]], "games": 2, "workers": 1,
                        "replays": True, "out": str(tmp_path)}, default_name="t")
    run_tournament(cfg, progress=False, log=lambda _: None)
    pages = sorted(p.name for p in (tmp_path / "t" / "replays").iterdir())
    assert pages == ["game-0-0.html", "game-0-1.html"]
    assert page_data((tmp_path / "t" / "replays" / pages[0]).read_text())["steps"]
    with pytest.raises(ValueError, match="replays must be true or false"):
        parse_config({"env": {"num_players": 3}, "agents": {"r": "random"},
                      "lineups": [["r", "r", "r"]], "replays": "yes"})
