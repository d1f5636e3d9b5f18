"""War of the Ring's replay page (issue 28 item 5): the kit's text view (``GAME.text(state,
observer)``) gives a page with a view per side, and the Free Peoples' view never holds the
Shadow's hand (nor its face-down discards, nor its secret choices) and the reverse: in the page's
data step by step, in a one-side page's whole HTML, and on screen in headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import wotr_env
from agents import RandomAgent
from boardkit.records import GameRecord
from experiments.play import play_game
from experiments.replay import FULL, build_replay, main, page_data, write_replay
from wotr_env.game import GAME

SIDES = ("free_peoples", "shadow")
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def wotr_record(seed: int = 4, max_turns: int = 6) -> GameRecord:
    """A random game cut off after ``max_turns`` turns, as its env's record."""
    env = wotr_env.raw_env(max_turns=max_turns)
    play_game(env, {a: RandomAgent(seed=seed + i) for i, a in enumerate(SIDES)}, seed)
    return env.record


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return wotr_record()


def hidden_cards(state, side: int) -> set[int]:
    """The event cards of ``side`` no other side may see now: its hand, its face-down
    discards."""
    return set(state.hands[side]) | set(state.face_down[side])


def words(state, cards: set[int]) -> set[str]:
    """Each card's name and id (the codec's action names say ``CARD[<id>]``)."""
    events = state.ruleset.cards.events
    return {events[c].name for c in cards} | {events[c].id for c in cards}


def blob(page: str) -> str:
    """Everything a page says: its HTML and its data decoded (non-ASCII names as they are)."""
    return page + json.dumps(page_data(page), ensure_ascii=False)


def test_the_page_has_a_view_per_side_and_each_holds_only_its_sides_cards(record, tmp_path,
                                                                          capsys):
    path = tmp_path / "wotr.json"
    record.save(path)
    out = tmp_path / "wotr.html"
    assert main([str(path), "--out", str(out)]) == 0
    assert f"{len(record.actions) + 1} steps, 3 view(s)" in capsys.readouterr().out
    data = page_data(out.read_text())
    assert [v["name"] for v in data["views"]] == [FULL, *SIDES]
    assert len(data["steps"]) == len(record.actions) + 1
    views = {v["name"]: v for v in data["views"]}
    names = record.new_env().game.ruleset.cards.events
    held = 0
    for t, (env, i) in enumerate(record.walk()):
        state = env.game
        texts = {name: data["texts"][views[name]["text"][t]] for name in views}
        assert texts[FULL] == GAME.text(state, None)
        for me, other in ((0, 1), (1, 0)):
            mine = texts[SIDES[me]]
            assert mine == GAME.text(state, me)
            assert not [w for w in words(state, hidden_cards(state, other)) if w in mine], (
                t, SIDES[me])
            assert all(names[c].name in mine and names[c].name in texts[FULL]
                       for c in state.hands[me])  # its own hand: in its view and the full one
            held += len(state.hands[other])
        if i is not None and state.pending.secret:  # only its own side sees the choice
            d = state.pending
            assert str(t) in views[SIDES[d.player]]["secret"]
            assert str(t) not in views[SIDES[1 - d.player]]["secret"]
            assert data["steps"][t][4] is None
    assert held > 0  # the sides held cards: the check above had something to hide


@pytest.mark.parametrize("side", [0, 1])
def test_a_one_side_page_never_names_the_other_sides_hidden_cards(record, side):
    """The page of one side (``--views free_peoples``): nothing in its HTML or data names a card
    the other side held hidden to the end (its hand, its face-down discards), nor holds the
    seed (which decides the decks)."""
    page, figures = build_replay(record, views=[SIDES[side]])
    assert figures["views"] == [SIDES[side]]
    *_, (env, _) = record.walk()
    final = env.game
    other = 1 - side
    secret = words(final, hidden_cards(final, other))
    assert final.hands[other] and final.face_down[other]  # the game left both to hide
    everything = blob(page)
    assert not [w for w in secret if w in everything]
    own = {final.ruleset.cards.events[c].name for c in final.hands[side]}
    assert all(w in everything for w in own)  # its own hand is there
    data = page_data(page)
    assert data["seed"] is None
    # the other side's secret choices are there only as "(secret)": no action name
    secret_steps = [t for t, (env, i) in enumerate(record.walk())
                    if i is not None and env.game.pending.secret
                    and env.game.pending.player == other]
    assert secret_steps, "the game has no secret choice of the other side"
    assert not set(map(str, secret_steps)) & set(data["views"][0]["secret"])
    assert all(data["steps"][t][4] is None for t in secret_steps)


def test_a_wotr_tournament_writes_replay_pages_with_both_sides(tmp_path):
    from experiments.tournament.config import parse_config
    from experiments.tournament.run import run_tournament

    cfg = parse_config({"game": "wotr", "env": {"max_turns": 1}, "agents": {"r": "random"},
                        "lineups": [["r", "r"]], "games": 2, "workers": 1, "replays": True,
                        "out": str(tmp_path)}, default_name="w")
    run_tournament(cfg, progress=False, log=lambda _: None)
    pages = sorted((tmp_path / "w" / "replays").iterdir())
    assert [p.name for p in pages] == ["game-0-0.html", "game-0-1.html"]
    data = page_data(pages[0].read_text())
    assert [v["name"] for v in data["views"]] == [FULL, *SIDES]


# -- the page in a real browser ---------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright is not installed: pip install -e '.[browser]'")
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.mark.browser
def test_each_sides_view_in_chromium_hides_the_other_sides_hand(browser, record, tmp_path):
    out = tmp_path / "wotr.html"
    write_replay(record, out, title="wotr replay")
    states = [GAME.clone(env.game) for env, _ in record.walk()]  # walk gives the live env
    last = len(states) - 1
    final = states[-1]
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(out.as_uri())
    assert page.evaluate("window.replay.steps") == len(states)
    labels = page.eval_on_selector_all("#view option", "os => os.map(o => o.textContent)")
    assert labels == ["Full view (everything)", "Free_peoples's view", "Shadow's view"]
    page.keyboard.press("End")
    assert page.evaluate("window.replay.step()") == last
    full = page.inner_text("#board")
    for side in (0, 1):
        assert all(w in full for w in words(final, set(final.hands[side])) - {
            final.ruleset.cards.events[c].id for c in final.hands[side]})
    for side, other in ((0, 1), (1, 0)):
        page.select_option("#view", str(labels.index(f"{SIDES[side].capitalize()}'s view")))
        board = page.inner_text("#board")
        log = page.inner_text("#log")
        assert "hand: " in board
        hidden = words(final, hidden_cards(final, other))
        assert not [w for w in hidden if w in board or w in log]
        # a step in the middle too, chosen where the other side holds cards
        t = last // 2
        page.evaluate(f"window.replay.go({t})")
        board = page.inner_text("#board")
        assert not [w for w in words(states[t], hidden_cards(states[t], other)) if w in board]
        # the other side's last secret choice (a face-down discard): "(secret)", no card
        t = max(k for k, s in enumerate(states[:-1])
                if s.pending.secret and s.pending.player == other)
        page.evaluate(f"window.replay.go({t})")
        decision = page.inner_text("#decision")
        assert decision.endswith(": (secret)") and "CARD[" not in decision
        page.keyboard.press("End")
    assert errors == []
    assert all(u.startswith("file://") for u in requests), requests
    page.close()
