"""The PettingZoo environment: API conformance, exact masks, hidden information, rewards,
clones and game records."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test

import got_env
from got_env import GameRecord
from got_env.engine import DecisionKind, IllegalActionError, OptionError
from got_env.engine.invariants import check


def random_step(e, rng) -> None:
    obs, _, term, trunc, _ = e.last()
    if term or trunc:
        e.step(None)
        return
    e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def play_until(e, rng, kind: DecisionKind, limit: int = 5000) -> None:
    for _ in range(limit):
        if e.game.pending is not None and e.game.pending.kind == kind:
            return
        random_step(e, rng)
    raise AssertionError(f"{kind.label} never came up")


def test_pettingzoo_api():
    api_test(got_env.env(num_players=3, max_rounds=2), num_cycles=500)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_agents_are_the_houses_in_play(n):
    e = got_env.raw_env(num_players=n)
    e.reset(seed=0)
    expected = {3: ["stark", "lannister", "baratheon"],
                6: ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]}
    if n in expected:
        assert e.possible_agents == expected[n]
    assert len(e.agents) == n
    assert all(e.action_space(a).n == e.codec.size for a in e.agents)


@pytest.mark.parametrize("kwargs,match", [
    ({"num_players": 2}, "num_players"),
    ({"reward": "elo"}, "reward must be one of"),
    ({"max_steps": 0}, "max_steps"),
    ({"render_mode": "human"}, "render_mode"),
    ({"tides": True}, "unknown option"),
    ({"ruleset": "3e"}, "ruleset"),
])
def test_invalid_options(kwargs, match):
    with pytest.raises(OptionError, match=match):
        got_env.raw_env(**kwargs)


def test_mask_is_exact_and_only_the_actor_has_one():
    """Every unmasked index decodes to a legal option and every legal option is unmasked."""
    e = got_env.raw_env(num_players=4, max_rounds=3)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(400):
        if e.game.pending is None:
            break
        d = e.game.pending
        actor = e.agent_selection
        assert actor == e.ruleset.houses[d.player].id
        mask = e.observe(actor)["action_mask"]
        legal = {e.codec.decode(i) for i in np.flatnonzero(mask)}
        assert legal == set(d.options)
        for other in e.agents:
            if other != actor:
                assert not e.observe(other)["action_mask"].any()
        random_step(e, rng)


def test_illegal_action_raises_and_leaves_the_game_unchanged():
    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    before = e.game.clone()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="D-20 PLACE_ORDERS"):
        e.step(illegal)
    assert e.game == before
    with pytest.raises(ValueError, match="outside the action space"):
        e.step(e.codec.size)
    assert e.game == before


def test_action_names_round_trip():
    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    for i in range(0, e.codec.size, 7):
        assert e.codec.encode(e.codec.decode(i)) == i
    idx = e.codec.encode(("order", e.ruleset.area("winterfell"), 2))
    assert e.action_name(idx) == "ORDER[winterfell,march-special]"
    assert e.action_name(e.codec.encode(("done",))) == "DONE"


def test_orders_hidden_until_the_reveal():
    """R23.1, §10.2: another house's placed orders appear only as face-down tokens."""
    e = got_env.raw_env(num_players=3)
    e.reset(seed=1)
    first = e.agent_selection
    h = e.ruleset.house(first)
    d = e.game.pending
    e.step(e.codec.encode(d.options[0]))
    area = d.options[0][1]
    views = {a: e.encoder.views(e.observe(a)["observation"]) for a in e.agents}
    assert views[first]["order"][area].sum() == 1
    for a in e.agents:
        if a != first:
            assert views[a]["order"][area].sum() == 0
            assert views[a]["order_hidden"][area] == 1
    assert e.game.units[area, h].any()


def test_bids_hidden_until_the_reveal():
    """R23.2, R23.4: a committed bid changes nothing another house observes."""
    e = got_env.raw_env(num_players=3)
    found = False
    for seed in range(20):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(4000):
            d = e.game.pending
            if d is None:
                break
            if d.kind in (DecisionKind.INFLUENCE_BID, DecisionKind.WILDLING_BID):
                bidder = e.agent_selection
                others = [a for a in e.agents if a != bidder]
                before = {a: e.encoder.views(e.observe(a)["observation"]) for a in others}
                e.step(e.codec.encode(max(d.options, key=lambda o: o[1])))
                if e.game.pending is None or e.game.pending.kind != d.kind:
                    random_step(e, rng)
                    continue
                after = {a: e.encoder.views(e.observe(a)["observation"]) for a in others}
                for a in others:
                    for name, view in before[a].items():
                        if name.startswith("decision"):
                            continue
                        assert np.array_equal(view, after[a][name]), name
                found = True
                break
            random_step(e, rng)
        if found:
            break
    assert found


def test_house_card_hidden_until_both_chose():
    """R15.3.1: the attacker's chosen card is not visible to the defender before the reveal."""
    from got_env.engine import scenario

    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    e.game = scenario.build({
        "players": 3, "start": "marches", "neutral_forces": {},
        "units": {"stark": {"winterfell": "KF"}, "lannister": {"castle-black": "F"}},
        "orders": {"winterfell": "march-0", "castle-black": "defense-1a"},
    })
    e._select_agent()
    rs = e.ruleset
    for action in [("area", rs.area("winterfell")), ("move", 1, rs.area("castle-black")),
                   ("done",)]:
        if action in e.game.pending:  # single-option decisions are played without asking
            e.step(e.codec.encode(action))
    while e.game.pending.kind != DecisionKind.HOUSE_CARD:
        e.step(e.codec.encode(e.game.pending.options[0]))
    assert e.agent_selection == "stark"
    before = e.encoder.views(e.observe("lannister")["observation"])
    e.step(e.codec.encode(("card", rs.house_card("eddard-stark"))))
    assert e.agent_selection == "lannister"
    after = e.encoder.views(e.observe("lannister")["observation"])
    assert np.array_equal(before["cards"], after["cards"])


def test_wildling_top_seen_only_by_the_raven_holder():
    """§10.4, R23.5: the Raven holder who looked knows the top wildling card; nobody else."""
    e = got_env.raw_env(num_players=3)
    for seed in range(10):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        play_until(e, rng, DecisionKind.RAVEN_USE)
        raven = e.agent_selection
        e.step(e.codec.encode(("choice", 10)))  # look-at-wildling-card
        looking = e.encoder.views(e.observe(raven)["observation"])["wildling_top_known"]
        assert looking[int(e.game.wildling_deck[0])] == 1  # D-23 is decided seeing the card
        e.step(e.codec.encode(("choice", 11)))  # keep-on-top
        top = int(e.game.wildling_deck[0])
        for a in e.agents:
            seen = e.encoder.views(e.observe(a)["observation"])["wildling_top_known"]
            assert seen.sum() == (1 if a == raven else 0)
            if a == raven:
                assert seen[top] == 1
        return


@pytest.mark.parametrize("scheme", ["zero_sum", "castles", "rank"])
def test_rewards_at_the_end(scheme):
    e = got_env.raw_env(num_players=4, max_rounds=1, reward=scheme)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    totals = {a: 0.0 for a in e.possible_agents}
    while e.agents:
        agent = e.agent_selection
        _, rew, term, trunc, info = e.last()
        totals[agent] += rew
        if term or trunc:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]))))
    outcome = e.game.outcome
    winner = e.ruleset.houses[outcome.winner].id
    if scheme == "zero_sum":
        assert totals[winner] == 1.0
        assert sum(totals.values()) == pytest.approx(0.0)
    elif scheme == "rank":
        order = [e.ruleset.houses[h].id for h in outcome.ranking]
        assert [totals[a] for a in order] == pytest.approx([1.0, 1 / 3, -1 / 3, -1.0])
    else:
        vp = e.game.victory_points()
        assert totals["stark"] == pytest.approx(vp[0] / 7)


def test_truncation_after_max_steps():
    e = got_env.raw_env(num_players=3, max_steps=10)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(10):
        random_step(e, rng)
    assert all(e.truncations.values())
    assert not e.observe(e.agent_selection)["action_mask"].any()


def test_clone_is_independent():
    e = got_env.raw_env(num_players=5)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(30):
        random_step(e, rng)
    c = e.clone()
    assert c.game == e.game
    before = e.game.clone()
    for _ in range(50):
        random_step(c, rng)
    assert e.game == before and c.game != e.game


def test_record_replays_to_the_same_state(tmp_path):
    e = got_env.raw_env(num_players=4, max_rounds=2)
    e.reset(seed=9)
    rng = np.random.default_rng(9)
    while e.game.pending is not None:
        random_step(e, rng)
        check(e.game)
    path = tmp_path / "game.json"
    e.record.save(path)
    again = GameRecord.load(path).replay()
    assert again.game == e.game
    assert again.game.outcome == e.game.outcome


def test_unseeded_reset_is_still_recorded():
    e = got_env.raw_env(num_players=3, max_rounds=1)
    e.reset()
    assert isinstance(e.record.seed, int)


@pytest.mark.parametrize("content,match", [
    ("not json", "cannot read"),
    (json.dumps({"options": {}}), "not a got_env game record"),
    (json.dumps({"format": "got_env-record-1", "options": {}, "seed": "x", "actions": []}),
     "'seed'"),
    (json.dumps({"format": "got_env-record-1", "options": {}, "seed": 1, "actions": ["a"]}),
     "'actions'"),
])
def test_corrupt_record(tmp_path, content, match):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=match):
        GameRecord.load(path)


def test_record_with_an_illegal_action_fails_to_replay(tmp_path):
    rec = GameRecord({"num_players": 3}, 0, [0])  # DONE is not legal when placing orders
    with pytest.raises(IllegalActionError):
        rec.replay()


def test_ansi_render():
    e = got_env.raw_env(num_players=3, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert "iron-throne" in text and "winterfell" in text


def test_state_shows_all_orders():
    e = got_env.raw_env(num_players=3)
    e.reset(seed=1)
    d = e.game.pending
    e.step(e.codec.encode(d.options[0]))
    full = e.encoder.views(e.state())
    assert full["order"][d.options[0][1]].sum() == 1


def test_docs_list_the_layout():
    """docs/env.md documents every action segment and observation piece with its offset."""
    from pathlib import Path

    from got_env.data import load_ruleset
    from got_env.encoding import ActionCodec, layout

    doc = (Path(__file__).resolve().parent.parent / "docs" / "env.md").read_text()
    rs = load_ruleset()
    for seg in ActionCodec(rs).segments:
        assert f"| {seg.kind.upper()} | {seg.offset} | {seg.size} |" in doc
    offset = 0
    for piece in layout(rs):
        assert f"| {piece.name} | {offset} | {piece.shape} |" in doc
        offset += piece.size


def test_deck_order_is_not_observed():
    """Hidden information: the order of the Westeros, wildling and Tides decks never shows."""
    e = got_env.raw_env(num_players=4)
    e.reset(seed=0)
    other = e.clone()
    other.game.westeros_decks[:] = np.roll(other.game.westeros_decks, 1, axis=1)
    other.game.wildling_deck[:] = np.roll(other.game.wildling_deck, 1)
    for a in e.agents:
        assert np.array_equal(e.observe(a)["observation"], other.observe(a)["observation"])


def test_rgb_array_render():
    e = got_env.raw_env(num_players=3, render_mode="rgb_array")
    e.reset(seed=0)
    picture = e.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
