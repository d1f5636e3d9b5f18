"""The PettingZoo environment: API conformance, exact masks, hidden information, rewards,
clones and game records."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

import got_env
from boardkit.records import GameRecord, RecordError
from got_env.engine import DecisionKind, IllegalActionError, OptionError
from got_env.engine.invariants import check
from got_env.env import OUTCOMES


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
    ({"max_steps": True}, "max_steps"),
    ({"max_cycles": -3}, "max_cycles"),
    ({"max_steps": 5, "max_cycles": 6}, "another name for max_steps"),
    ({"render_mode": "window"}, "render_mode"),
    ({"info_format": "strings"}, "info_format must be one of"),
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
    """R23.1, §10.2: another house's placed orders are not seen, not even where they lie, until
    the reveal; once the house has placed them all, every house sees that it has."""
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
            assert not views[a]["orders_placed"].any()
    assert e.game.units[area, h].any()
    while e.agent_selection == first:
        e.step(e.legal_actions()[0])
    for a in e.agents:
        rel = (h - e.ruleset.house(a)) % 6
        assert np.flatnonzero(e.encoder.views(e.observe(a)["observation"])["orders_placed"]) \
            .tolist() == [rel]


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


def _record_doc(**fields) -> str:
    """An old (AGoT format 3) record's JSON with every field, ``fields`` replacing some."""
    return json.dumps({"format": "got_env-record-3", "options": {}, "seed": 1, "actions": [],
                       "outcome": None, "digest": "", "check": "", **fields})


@pytest.mark.parametrize("content,match", [
    ("not json", "cannot read"),
    (json.dumps({"options": {}}), "not a game record"),
    (json.dumps({"format": "got_env-record-1", "options": {}, "seed": 1, "actions": []}),
     "not a game record of format 'boardkit-record-2'"),
    (_record_doc(seed="x"), "'seed'"),
    (_record_doc(actions=["a"]), "'actions'"),
    (_record_doc(actions=[1.0]), "'actions'"),
    (_record_doc(outcome="won"), "'outcome'"),
    (_record_doc(digest=None), "'digest'"),
    (_record_doc(), "'check' does not match"),
])
def test_corrupt_record(tmp_path, content, match):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=match):
        GameRecord.load(path)


def test_record_with_an_illegal_action_fails_to_replay(tmp_path):
    rec = GameRecord("got", {"num_players": 3}, 0, [0])  # DONE is not legal when placing orders
    with pytest.raises(RecordError, match="index 0 .*not legal for D-20 PLACE_ORDERS"):
        rec.replay()


def test_ansi_render():
    e = got_env.raw_env(num_players=3, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert "iron-throne" in text and "winterfell" in text


def test_human_render_prints_the_text_board(capsys):
    e = got_env.env(num_players=3, render_mode="human")
    e.reset(seed=0)
    assert e.render() is None
    assert capsys.readouterr().out == e.unwrapped.game.render_text() + "\n"
    e.step(e.unwrapped.legal_actions()[0])  # not printed on every step
    assert capsys.readouterr().out == ""


def test_pettingzoo_render_test(capsys):
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: got_env.env(num_players=3, render_mode=render_mode))
    assert "winterfell" in capsys.readouterr().out  # "human" printed the board


def test_max_cycles_is_max_steps():
    e = got_env.env(num_players=3, max_cycles=4)
    assert e.unwrapped.max_steps == 4
    e.reset(seed=0)
    for _ in range(4):
        e.step(e.unwrapped.legal_actions()[0])
    assert all(e.unwrapped.truncations.values())
    assert got_env.raw_env(max_steps=7, max_cycles=7).max_steps == 7
    assert got_env.raw_env(max_cycles=None).max_steps is None


def test_state_shows_all_orders():
    e = got_env.raw_env(num_players=3)
    e.reset(seed=1)
    d = e.game.pending
    e.step(e.codec.encode(d.options[0]))
    full = e.encoder.views(e.state())
    assert full["order"][d.options[0][1]].sum() == 1


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


# --- records that can be trusted ---------------------------------------------------------------

def played_record(n: int = 3, seed: int = 2, max_rounds: int = 2, **options):
    e = got_env.raw_env(num_players=n, max_rounds=max_rounds, **options)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while e.agents and e.game.pending is not None:
        random_step(e, rng)
    return e, e.record


def test_record_stores_outcome_and_digest(tmp_path):
    e, rec = played_record()
    ids = [e.ruleset.houses[h].id for h in e.game.outcome.ranking]
    assert rec.outcome == {"reason": e.game.outcome.reason, "winner": ids[0], "ranking": ids}
    info = e.infos["stark"]  # the numeric infos say the same with house indices
    assert [e.possible_agents[h] for h in info["ranking"]] == ids
    assert e.possible_agents[info["winner"]] == ids[0]
    assert OUTCOMES[info["outcome"] - 1] == e.game.outcome.reason
    assert rec.digest == e.game.digest() and len(rec.digest) == 64
    rec.save(tmp_path / "r.json")
    loaded = GameRecord.load(tmp_path / "r.json")
    assert loaded == rec
    assert loaded.replay().game == e.game


def test_record_with_one_action_changed_to_another_legal_one_is_caught():
    """Swap one action for another legal one in a record built by hand (no check): the replay
    either meets an illegal action later (named by its index) or ends in another state than
    the digest says. (An edit that ends in the same state is caught by the check that
    ``env.record`` carries: tests/test_records.py.)"""
    e, rec = played_record()
    replay = got_env.raw_env(**rec.options)
    replay.reset(seed=rec.seed)
    for i, a in enumerate(rec.actions):  # find a decision with another legal choice
        legal = replay.legal_actions()
        if len(legal) > 1:
            changed = list(rec.actions)
            changed[i] = next(x for x in legal if x != a)
            break
        replay.step(a)
    tampered = GameRecord(rec.game, rec.options, rec.seed, changed, rec.outcome, rec.digest)
    with pytest.raises(RecordError, match="index|differs"):
        tampered.replay()


def test_record_with_actions_after_the_end_fails():
    _, rec = played_record()
    longer = GameRecord(rec.game, rec.options, rec.seed, rec.actions + [0], rec.outcome,
                        rec.digest)
    with pytest.raises(RecordError, match="after the game ended"):
        longer.replay()


def test_digest_tells_states_apart():
    a = got_env.engine.start_game(3, seed=0)
    b = a.clone()
    assert a.digest() == b.digest()
    b.power[0] += 1
    assert a.digest() != b.digest()


# --- bad actions -------------------------------------------------------------------------------

BAD_ACTIONS = [139.5, 139.0, "139", None, float("nan"), [139], True, np.float64(3), (1,),
               -1, 1725, np.int64(1725)]


@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("action", BAD_ACTIONS, ids=repr)
def test_bad_actions_get_a_clear_error_and_change_nothing(wrapped, action):
    e = got_env.env(num_players=3) if wrapped else got_env.raw_env(num_players=3)
    e.reset(seed=0)
    raw = e.unwrapped
    before, agent, steps = raw.game.clone(), raw.agent_selection, list(raw.record.actions)
    with pytest.raises(IllegalActionError) as err:
        e.step(action)
    message = str(err.value)
    assert agent in message and "0..1724" in message and repr(action)[:5] in message
    assert raw.game == before and raw.agent_selection == agent
    assert raw.record.actions == steps


@pytest.mark.parametrize("wrapped", [False, True])
def test_python_and_numpy_integers_are_actions(wrapped):
    e = got_env.env(num_players=3) if wrapped else got_env.raw_env(num_players=3)
    e.reset(seed=0)
    legal = e.unwrapped.legal_actions()
    e.step(np.int64(legal[0]))
    e.step(int(e.unwrapped.legal_actions()[0]))
    e.step(np.int32(e.unwrapped.legal_actions()[0]))
    assert len(e.unwrapped.record.actions) == 3


# --- after truncation and after the end ------------------------------------------------------

def test_truncation_gives_the_standing_and_observe_works_for_everyone():
    from got_env.engine.victory import ranking

    e = got_env.raw_env(num_players=4, max_steps=25)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(25):
        random_step(e, rng)
    acting = e.ruleset.houses[e.game.pending.player].id  # whose decision was cut off
    standing = list(ranking(e.game))
    expected = [e.ruleset.houses[h].id for h in standing]
    for a in e.agents:
        assert e.infos[a] == {"decision": 0, "num_legal": 0, "outcome": 3,
                              "winner": standing[0], "ranking": standing}
        assert e.rewards[a] == 0.0
    outcome = {"reason": "truncated", "winner": expected[0], "ranking": expected}
    assert e.record.outcome == outcome
    for a in e.possible_agents:
        assert not e.observe(a)["action_mask"].any()
    while e.agents:  # PettingZoo: each done agent is stepped with None and removed
        e.step(None)
    for a in e.possible_agents:  # still observable, including the one that was to act
        obs = e.observe(a)
        assert obs["observation"].shape == (e.encoder.size,) and not obs["action_mask"].any()
    assert acting in e.possible_agents
    assert e.record.outcome == outcome  # from the engine, not from infos (emptied by now)
    with pytest.raises(RuntimeError, match="call reset"):
        e.step(None)


def test_truncation_infos_in_the_text_format():
    from got_env.engine.victory import ranking

    e = got_env.raw_env(num_players=4, max_steps=25, info_format="text")
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(25):
        random_step(e, rng)
    expected = [e.ruleset.houses[h].id for h in ranking(e.game)]
    for a in e.agents:
        assert e.infos[a] == {"outcome": "truncated", "winner": expected[0], "ranking": expected}
    assert e.record.outcome == {"reason": "truncated", "winner": expected[0],
                                "ranking": expected}


def test_stepping_after_the_end_is_a_clear_error():
    e, _ = played_record()
    while e.agents:
        e.step(None)
    with pytest.raises(RuntimeError, match="every agent is done"):
        e.step(0)


def test_docs_list_every_infos_key():
    """Every key of both info formats, and the parallel env's ``acting``, is in docs/env.md's
    "Infos" table, with every outcome code."""
    doc = (Path(__file__).parent.parent / "docs" / "env.md").read_text()
    infos = doc[doc.index("## Infos"):]
    infos = infos[:infos.index("\n## ", 1)]
    keys = set()
    for fmt in ("numeric", "text"):
        e, _ = played_record(info_format=fmt)
        keys |= set(e.infos["stark"])
        e.reset(seed=0)
        keys |= set(e.infos[e.agent_selection])
    assert keys == {"decision", "num_legal", "outcome", "winner", "ranking"}
    p = got_env.parallel_env(num_players=3)
    _, pinfos = p.reset(seed=0)
    keys |= set(pinfos["stark"])
    for k in keys:
        assert f"| `{k}` |" in infos, k
    for code, reason in enumerate(OUTCOMES, start=1):
        assert f"{code} `\"{reason}\"`" in infos, reason
    assert "info_format" in infos


# --- infos that tensor-converting libraries take -----------------------------------------------

def test_numeric_infos_have_fixed_keys_and_shapes_and_convert_to_arrays():
    """TorchRL builds its info spec from the first infos and Tianshou stacks them in buffers:
    every agent has the same keys, of the same shape, at every step, numbers only."""
    e = got_env.raw_env(num_players=4, max_rounds=1)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    shapes = {"decision": (), "num_legal": (), "outcome": (), "winner": (), "ranking": (4,)}
    seen_end = False
    while e.agents:
        for a in e.agents:
            info = e.infos[a]
            assert set(info) == set(shapes)
            for k, v in info.items():
                arr = np.asarray(v)
                assert arr.dtype.kind == "i" and arr.shape == shapes[k], (k, v)
        actor = e.agent_selection
        if e.game.pending is not None:
            d = e.game.pending
            assert e.infos[actor]["decision"] == int(d.kind)
            assert DecisionKind(e.infos[actor]["decision"]).label == d.kind.label
            assert e.infos[actor]["num_legal"] == len(d.options) == len(e.legal_actions())
            assert all(e.infos[a]["decision"] == 0 for a in e.agents if a != actor)
            assert e.infos[actor]["outcome"] == 0 and e.infos[actor]["winner"] == -1
        else:
            seen_end = True
            info = e.infos[actor]
            assert info["outcome"] == OUTCOMES.index(e.game.outcome.reason) + 1
            assert info["ranking"] == list(e.game.outcome.ranking)
            assert info["winner"] == e.game.outcome.winner
        random_step(e, rng)
    assert seen_end


def test_text_infos_are_the_readable_strings():
    e = got_env.raw_env(num_players=3, max_rounds=1, info_format="text")
    e.reset(seed=0)
    actor = e.agent_selection
    assert e.infos[actor] == {"decision": "D-20 PLACE_ORDERS",
                              "num_legal": len(e.legal_actions())}
    assert all(e.infos[a] == {} for a in e.agents if a != actor)
    rng = np.random.default_rng(0)
    while e.game.pending is not None:
        random_step(e, rng)
    ids = [e.ruleset.houses[h].id for h in e.game.outcome.ranking]
    assert e.infos["stark"] == {"outcome": e.game.outcome.reason, "winner": ids[0],
                                "ranking": ids}


def test_the_record_does_not_depend_on_the_info_format():
    records = []
    for fmt in ("numeric", "text"):
        e, rec = played_record(info_format=fmt)
        while e.agents:  # every agent stepped out: infos emptied, the record still knows
            e.step(None)
        assert e.record == rec
        records.append(rec)
    assert records[0] == records[1] and records[0].outcome is not None
    assert records[0].replay().record == records[0]


# --- spaces, bounds and PettingZoo's own tests ---------------------------------------------------

def test_observation_bounds_are_finite_and_hold_in_random_games():
    for n, tides in ((3, False), (6, True)):
        e = got_env.raw_env(num_players=n, tides_of_battle=tides)
        e.reset(seed=n)
        rng = np.random.default_rng(n)
        space = e.observation_space("stark")["observation"]
        assert np.isfinite(space.high).all() and (space.low == 0).all()
        assert e.state_space == space
        for i in range(3000):
            if not e.agents:
                break
            if i % 7 == 0:
                for a in e.possible_agents:
                    obs = e.observe(a)["observation"]
                    bad = np.flatnonzero((obs < 0) | (obs > space.high))
                    assert bad.size == 0, [e.encoder.layout.piece_at(i).name for i in bad[:5]]
                assert e.state_space.contains(e.state())
            random_step(e, rng)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_pettingzoo_api_seed_and_state_tests(n):
    from pettingzoo.test import seed_test, state_test

    api_test(got_env.env(num_players=n, max_rounds=2), num_cycles=200)
    seed_test(lambda: got_env.env(num_players=n, max_rounds=2), num_cycles=100)
    state_test(got_env.env(num_players=n), got_env.parallel_env(num_players=n), num_cycles=30)


def test_action_space_sample_is_legal_for_the_acting_agent():
    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    for _ in range(200):
        a = e.agent_selection
        action = e.action_space(a).sample()
        assert action in e.legal_actions()
        e.step(action)


# --- every decision's context is observed ------------------------------------------------------

NEVER_ASKED_IN_RANDOM_PLAY = {
    DecisionKind.MACE_FOOTMAN: "a single option (the one Footman), played without asking",
    DecisionKind.RETREAT_SUPPLY_LOSS: "needs a retreat that breaks supply: rare in random play",
}
COMBAT_CONTEXT = {"area": 0, "attacker": 0, "defender": 1}  # ctx(combat) of both kinds above


def perturbed(state, key: str, value):
    """Another value for a context key, of the same type and in range."""
    rs = state.ruleset
    if isinstance(value, bool):
        return not value
    if key in ("area", "port", "support_area"):
        return (value + 1) % rs.num_areas
    if key == "track":
        return (value + 1) % 3
    if key in ("house", "supporter", "attacker", "defender"):
        return next(h for h in range(rs.num_houses) if state.in_play[h] and h != value)
    if key in ("card", "cancelled"):
        return (value + 1) % len(rs.house_cards)
    if key == "bids":
        return ({h: b + 1 for h, b in value.items()} if isinstance(value, dict)
                else [b + 1 if b >= 0 else b for b in value])
    if key == "points" and isinstance(value, dict):
        return {a: (2 if p == 1 else 1) for a, p in value.items()}
    return value + 1


def encode_with(encoder, state, context, observer=None):
    """The observation with the pending decision's context replaced (the decider's by default)."""
    import dataclasses

    saved = state.pending
    state.pending = dataclasses.replace(saved, context=context)
    try:
        return encoder.encode(state, saved.player if observer is None else observer)
    finally:
        state.pending = saved


def test_every_context_key_is_observed_by_the_decider():
    """Walk every decision kind in random games (Tides on): each context key is mapped into the
    observation or declared redundant, and changing a mapped key's value changes what the
    deciding house observes (and nothing another house observes)."""
    from got_env.encoding.observation import CONTEXT_PIECES, REDUNDANT_CONTEXT

    seen: dict[DecisionKind, int] = {}
    encoder = got_env.raw_env().encoder
    for seed in range(120):
        state = got_env.engine.start_game(6 if seed % 3 else 3, seed=seed,
                                          options={"tides_of_battle": seed % 2 == 0})
        rng = np.random.default_rng(seed)
        while state.pending is not None:
            d = state.pending
            for key in d.context:
                assert key in CONTEXT_PIECES or key in REDUNDANT_CONTEXT, (d.kind.label, key)
            if seen.get(d.kind, 0) < 3:
                seen[d.kind] = seen.get(d.kind, 0) + 1
                base = encoder.encode(state, d.player)
                assert np.array_equal(base, encode_with(encoder, state, dict(d.context)))
                bystander = next(h for h in range(state.ruleset.num_houses)
                                 if state.in_play[h] and h != d.player)
                for key, value in d.context.items():
                    if key not in CONTEXT_PIECES:
                        continue
                    other = {**d.context, key: perturbed(state, key, value)}
                    assert not np.array_equal(base, encode_with(encoder, state, other)), (
                        d.kind.label, key)
                    assert np.array_equal(encoder.encode(state, bystander),
                                          encode_with(encoder, state, other, bystander))
            got_env.engine.apply(state, d.options[rng.integers(len(d.options))])
        if len(seen) + len(NEVER_ASKED_IN_RANDOM_PLAY) >= len(DecisionKind):
            break
    missing = set(DecisionKind) - set(seen) - set(NEVER_ASKED_IN_RANDOM_PLAY)
    assert not missing, sorted(k.label for k in missing)
    assert set(COMBAT_CONTEXT) <= set(CONTEXT_PIECES)


def test_influence_bids_tell_their_track():
    """The audit's case: an Iron Throne bid and a King's Court bid are told apart."""
    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    play_until(e, rng, DecisionKind.INFLUENCE_BID)
    d = e.game.pending
    track = e.encoder.views(e.observe(e.agent_selection)["observation"])["decision_track"]
    assert track.tolist() == [1.0 if t == d.context["track"] else 0.0 for t in range(3)]
    kings_court = e.encoder.views(encode_with(e.encoder, e.game, {"track": 2}))["decision_track"]
    assert kings_court.tolist() == [0.0, 0.0, 1.0]
