"""The replay page in a real headless browser (Chromium from the system's packages, Playwright).

In the default run and .ci/run (marker ``browser``; alone: ``python -m pytest -m browser``). Needs
``pip install -e '.[browser]'`` (Playwright's Python package; no ``playwright install``: the
system's /usr/bin/chromium is launched) and ``apt-get install chromium``. Skips, naming what is
missing, where either is absent. ``GOT_ENV_SCREENSHOT=docs/replay.png`` writes the screenshot
there (else into the test's temporary folder).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import got_env
from agents import make_agent
from boardkit.records import GameRecord
from experiments.play import play_game
from experiments.replay import main, write_replay

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
RECORD_2 = Path(__file__).parent / "fixtures" / "record-2-3p.json"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


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


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    """A full game (3 players, all 10 rounds unless seven castles end it first, heuristic
    agents) and its replay page."""
    env = got_env.raw_env(num_players=3)
    agents = {h: make_agent("heuristic", env=env, seed=i)
              for i, h in enumerate(env.possible_agents)}
    play_game(env, agents, seed=4)
    assert env.game.outcome is not None
    out = tmp_path_factory.mktemp("replay") / "replay.html"
    write_replay(env.record, out)
    return env.record, out


def planning_secret(record):
    """(step, other house's area id, order face) of the first step at which a house other than
    Stark has an unrevealed order on the board."""
    from got_env.render.log import walk
    from got_env.render.vocabulary import order_abbreviation

    for t, (state, _) in enumerate(walk(record)):
        if state.orders_revealed:
            continue
        occupants = state.occupants()
        for a in state.ruleset.areas:
            token = int(state.orders[a.index])
            if token >= 0 and occupants[a.index] not in (-1, state.ruleset.house("stark")):
                return t, a.id, order_abbreviation(state, token)
    raise AssertionError("no unrevealed order of another house")


def order_text(page, area_id: str) -> str | None:
    """The text of the order badge of an area in the board on screen (None: no badge)."""
    return page.evaluate("""(id) => { const g = document.getElementById('order-' + id);
                                      return g ? g.textContent.trim() : null; }""", area_id)


def test_replay_page_in_chromium(browser, replay, tmp_path):
    record, path = replay
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    steps = page.evaluate("window.replay.steps")
    assert steps == len(record.actions) + 1
    assert page.locator("#board svg").count() == 1
    assert "step 1/" in page.inner_text("#where")

    # buttons and keys step through the game
    page.click("#next")
    page.click("#next")
    assert page.evaluate("window.replay.step()") == 2
    page.click("#prev")
    assert page.evaluate("window.replay.step()") == 1
    page.keyboard.press("ArrowRight")
    assert page.evaluate("window.replay.step()") == 2
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("window.replay.step()") == 0
    page.keyboard.press("PageDown")  # next round
    assert "round 2" in page.inner_text("#where")
    page.keyboard.press("PageUp")
    assert page.evaluate("window.replay.step()") == 0
    page.keyboard.press("ArrowDown")  # next phase: planning -> action
    assert "action" in page.inner_text("#where")
    page.click("#nextCombat")
    if "no combat" not in page.inner_text("#combat"):
        assert "attacks" in page.inner_text("#combat")
        assert "strength" in page.inner_text("#combat")
    page.keyboard.press("End")
    assert page.evaluate("window.replay.step()") == steps - 1
    assert "Winner:" in page.inner_text("#board")
    assert "game over" in page.inner_text("#log")

    # per-house view: another house's unrevealed order is not in that view's page content
    t, area_id, face = planning_secret(record)
    page.evaluate(f"window.replay.go({t})")
    assert order_text(page, area_id) == face  # the full view shows it
    full_log = page.inner_text("#log")
    labels = page.eval_on_selector_all("#view option", "os => os.map(o => o.textContent)")
    page.select_option("#view", str(labels.index("Stark's view")))
    assert page.evaluate("window.replay.view()") == labels.index("Stark's view")
    assert order_text(page, area_id) == "?"
    content = page.inner_html("#board") + page.inner_html("#side")
    assert not re.search(rf'id="order-{area_id}".*?>{re.escape(face)}<', content, re.S)
    hidden_line = next(line for line in full_log.splitlines()
                       if f"ORDER[{area_id}," in line)
    assert hidden_line.split(": ", 1)[1] not in page.inner_text("#log")
    assert "(secret)" in page.inner_text("#log")

    # a combat step, for the screenshot
    page.evaluate("window.replay.setView(0)")
    page.keyboard.press("Home")
    page.click("#nextCombat")
    page.wait_for_timeout(100)
    shot = Path(os.environ.get("GOT_ENV_SCREENSHOT") or tmp_path / "replay.png")
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert errors == []
    assert all(u.startswith("file://") for u in requests), requests
    page.close()


def test_a_page_with_a_crafted_name_runs_in_chromium(browser, tmp_path):
    """A record named to open a comment and a script inside the page's data
    (``game<!--<script>.json``, the default title): the page's own script still runs."""
    record = GameRecord.load(RECORD_2)
    env = got_env.raw_env(**record.options)
    env.reset(seed=record.seed)
    for action in record.actions[:6]:  # a game still on: a short page
        env.step(action)
    name = "game<!--<script>.json"
    env.record.save(tmp_path / name)
    out = tmp_path / "crafted.html"
    assert main([str(tmp_path / name), "--out", str(out), "--views", "full"]) == 0
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(out.as_uri())
    assert page.evaluate("window.replay.steps") == 7
    assert page.locator("#board svg").count() == 1
    assert page.inner_text("#title") == page.title() == f"got_env replay: {name}"
    page.keyboard.press("End")
    assert "step 7/7" in page.inner_text("#where")
    assert errors == []
    page.close()
