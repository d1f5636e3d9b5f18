"""The 1st edition (``ruleset="1e"``, issue 15) above the engine: the env's spaces sized for the
ruleset (50 areas, 5 houses, no ports, no wildling or Tides cards), PettingZoo's API, seed and
state tests at 3, 4 and 5 players, hidden information, the batched API against the AEC env,
draws (1e spec 12) in rewards, infos, records and tournament tables, the agents, determinization,
the picture, the benchmark, and random games with the invariants checked after every decision
(a few by default, 200 per player count with ``-m slow``).
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test, state_test
from test_env import encode_with, perturbed
from test_hidden_information import branch_secret_choices, compare_branches, same_sequence
from test_vector import assert_same_as_aec, play

import got_env
from agents import AgentSpecError, make_agent
from boardkit.records import GameRecord
from got_env.agents.heuristic import HeuristicAgent
from got_env.engine import DecisionKind, OptionError, scenario
from got_env.engine.determinize import determinize
from got_env.engine.invariants import check
from got_env.engine.victory import TIEBREAKS
from got_env.env import OUTCOMES, can_draw, end_rewards

D = DecisionKind
PLAYERS = (3, 4, 5)
HOUSES = {3: ["stark", "lannister", "baratheon"],
          4: ["stark", "lannister", "baratheon", "tyrell"],
          5: ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]}
NUMERIC_KEYS = {"decision", "num_legal", "outcome", "winner", "ranking", "draw"}


def first_edition(n: int = 3, **options) -> got_env.raw_env:
    return got_env.raw_env(ruleset="1e", num_players=n, **options)


def random_step(e, rng) -> None:
    obs, _, term, trunc, _ = e.last()
    e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# --- spaces and options -----------------------------------------------------------------------

@pytest.mark.parametrize("n", PLAYERS)
def test_spaces_are_sized_for_the_first_edition(n):
    """1e spec 1, A.1-A.2: five houses, 50 areas and no ports, no siege engines, no wildling or
    Tides cards; the codec and the observation follow the ruleset (their 2e sizes stay)."""
    e = first_edition(n)
    e.reset(seed=0)
    assert e.possible_agents == HOUSES[n] and e.agents == HOUSES[n]
    rs = e.ruleset
    assert (rs.num_areas, rs.num_houses, len(rs.wildling_cards), len(rs.tides_cards)) == \
        (50, 5, 0, 0)
    assert (e.codec.segment("area").size, e.codec.segment("house").size,
            e.codec.segment("card").size) == (50, 5, 35)
    assert (e.codec.size, e.encoder.size) == (1493, 4802)
    assert all(e.action_space(a).n == 1493 for a in e.agents)
    obs = e.observe("stark")  # house slot 0 is the observer, then round the data order
    assert obs["observation"].shape == (4802,) and obs["action_mask"].shape == (1493,)
    v = e.encoder.views(obs["observation"])
    assert v["units"].shape == (50, 5, 4) and v["cards"].shape == (5, 7, 3)
    assert v["wildling_top_known"].shape == (0,) and v["combat_tides"].shape == (2, 0)
    assert not v["area_kind"][:, 2].any()  # no ports
    assert v["in_play"].tolist() == [float(h.id in HOUSES[n]) for h in rs.houses]
    assert e.observation_space("stark")["observation"].contains(obs["observation"])
    two = got_env.raw_env(num_players=n)
    assert (two.codec.size, two.encoder.size) == (1725, 6238)


def test_the_default_player_count_is_the_ruleset_s_largest():
    """1e spec 13: 3 to 5 players; without num_players a 1e env seats five (a 2e one six)."""
    assert got_env.raw_env(ruleset="1e").possible_agents == HOUSES[5]
    assert len(got_env.raw_env().possible_agents) == 6


@pytest.mark.parametrize("kwargs,match", [
    ({"num_players": 6}, "num_players must be one of"),
    ({"num_players": 2}, "num_players must be one of"),
    ({"tides_of_battle": True}, "does not apply to ruleset '1e'"),
    ({"lannister_port_ship_in_3p": False}, "does not apply to ruleset '1e'"),
    ({"tiebreak": "errata"}, "tiebreak must be one of"),
])
def test_options_the_first_edition_refuses(kwargs, match):
    """A.11, A.1, A.3: no Tides of Battle, no ports, 3-5 players, one tie-break chain."""
    with pytest.raises(OptionError, match=match):
        got_env.raw_env(ruleset="1e", **kwargs)


# --- PettingZoo's own tests ---------------------------------------------------------------------

@pytest.mark.parametrize("n", PLAYERS)
def test_pettingzoo_api_seed_and_state_tests(n):
    api_test(got_env.env(ruleset="1e", num_players=n, max_rounds=2), num_cycles=200)
    seed_test(lambda: got_env.env(ruleset="1e", num_players=n, max_rounds=2), num_cycles=100)
    state_test(got_env.env(ruleset="1e", num_players=n),
               got_env.parallel_env(ruleset="1e", num_players=n), num_cycles=30)


@pytest.mark.parametrize("n", PLAYERS)
def test_numeric_infos_have_fixed_keys_and_a_draw_entry(n):
    """A chain that can draw (1e spec 12) gives every agent a ``draw`` list of num_players ints
    at every step: -1 while the game is on, then the drawn houses (or -1 without a draw)."""
    e = first_edition(n, max_rounds=1)
    e.reset(seed=n)
    rng = np.random.default_rng(n)
    seen_end = False
    while e.agents:
        for a in e.agents:
            info = e.infos[a]
            assert set(info) == NUMERIC_KEYS
            assert np.asarray(info["draw"]).shape == (n,)
            assert np.asarray(info["draw"]).dtype.kind == "i"
        if e.game.pending is None:
            seen_end = True
            seat = {e.ruleset.house(a): i for i, a in enumerate(e.possible_agents)}
            info = e.infos[e.agent_selection]
            drawn = [seat[h] for h in e.game.outcome.draw]
            assert info["draw"] == drawn + [-1] * (n - len(drawn))
            assert info["ranking"] == [seat[h] for h in e.game.outcome.ranking]
            assert sorted(info["ranking"]) == list(range(n))  # indices into possible_agents
        else:
            assert all(e.infos[a]["draw"] == [-1] * n for a in e.agents)
        random_step(e, rng)
    assert seen_end
    assert can_draw("first-edition") and not can_draw("errata") and not can_draw("rulebook")
    assert set(TIEBREAKS) == {"errata", "rulebook", "first-edition"}


# --- hidden information -------------------------------------------------------------------------

@pytest.mark.parametrize("n", PLAYERS)
def test_secret_choices_do_not_show(n):
    """Orders (D-20), influence bids (D-06), the 1e wildling bids (D-08, 1e spec 5.4) and house
    cards (D-32) change nothing another house observes before the reveal."""
    counts: dict[int, int] = {}
    for seed in range(2):
        for k, c in branch_secret_choices(n, 200 + seed, False, max_branches=60, every=3,
                                          ruleset="1e").items():
            counts[k] = counts.get(k, 0) + c
    assert counts.get(int(D.PLACE_ORDERS), 0) > 10


@pytest.mark.parametrize("kind", [D.INFLUENCE_BID, D.WILDLING_BID, D.HOUSE_CARD])
def test_each_secret_sequence(kind):
    """One branch per secret sequence of a 1e game: the lowest and the highest legal choice."""
    e = first_edition(5)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(20000):
        d = e.game.pending
        if d is not None and d.kind == kind and len(d.options) >= 2:
            break
        e.step(int(rng.choice(e.legal_actions())))
    else:
        pytest.fail(f"{kind.label} never came up")
    legal = e.legal_actions()
    a, b = e.clone(), e.clone()
    still = same_sequence(a, b)
    a.step(legal[0])
    b.step(legal[-1])
    assert compare_branches(a, b, e.agent_selection, still, rng) >= 1


def test_every_context_key_of_a_first_edition_game_is_observed():
    """Each context key of the 1e decisions (the two-area special Raid's ``removed``, 1e spec
    7.1; the wildling losses in mustering points, 1e 5.4) is mapped into the decider's
    observation (a change of it changes that, and nothing a bystander sees) or redundant."""
    from got_env.encoding.observation import CONTEXT_PIECES, REDUNDANT_CONTEXT

    encoder = first_edition().encoder
    seen: dict[tuple[DecisionKind, str], int] = {}
    for seed in range(80):
        if seed >= 12 and (D.RAID_TARGET, "removed") in seen:
            break
        state = got_env.engine.start_game(PLAYERS[seed % 3], seed=seed,
                                          options={"ruleset": "1e"})
        rng = np.random.default_rng(seed)
        while state.pending is not None:
            d = state.pending
            for key, value in d.context.items():
                assert key in CONTEXT_PIECES or key in REDUNDANT_CONTEXT, (d.kind.label, key)
                if key not in CONTEXT_PIECES or seen.get((d.kind, key), 0) >= 2:
                    continue
                seen[(d.kind, key)] = seen.get((d.kind, key), 0) + 1
                base = encoder.encode(state, d.player)
                other = {**d.context, key: perturbed(state, key, value)}
                assert not np.array_equal(base, encode_with(encoder, state, other)), (
                    d.kind.label, key)
                bystander = next(h for h in np.flatnonzero(state.in_play) if h != d.player)
                assert np.array_equal(encoder.encode(state, bystander),
                                      encode_with(encoder, state, other, bystander))
            got_env.engine.apply(state, d.options[rng.integers(len(d.options))])
    assert (D.RAID_TARGET, "removed") in seen  # the second target of a two-area Raid


def test_samples_keep_the_observation_in_a_first_edition_game():
    """got_env/engine/determinize.py on a 1e game (no wildling deck to shuffle, 1e spec 5.4):
    a sample shows its house exactly what the true state shows and is a legal state."""
    e = first_edition(4)
    rng = np.random.default_rng(3)
    state = got_env.engine.start_game(4, seed=3, options={"ruleset": "1e"})
    in_play = np.flatnonzero(state.in_play)
    steps = 0
    while state.pending is not None:
        d = state.pending
        if steps % 4 == 0:
            for house in {d.player, int(rng.choice(in_play))}:
                before = state.clone()
                sample = determinize(state, house, rng)
                assert state == before
                assert np.array_equal(e.encoder.encode(sample, house),
                                      e.encoder.encode(state, house))
                check(sample)
        got_env.engine.apply(state, d.options[int(rng.integers(len(d.options)))])
        steps += 1
    assert steps > 100


# --- the batched API ------------------------------------------------------------------------------

def test_batch_equals_the_aec_env():
    """The batched API on 1e games (4 players: Tyrell is house 4 of the ruleset and agent 3):
    every step of every game shows what the AEC env shows, final infos and rewards included."""
    from boardkit.vector import VectorGames

    options = {"ruleset": "1e", "num_players": 4, "max_rounds": 2, "reward": "rank"}
    with VectorGames(2, 4, seeds=70, ruleset="1e", max_rounds=2, reward="rank",
                     game="got") as games:
        assert (games.observation_size, games.action_size) == (4802, 1493)
        assert games.possible_agents == HOUSES[4]
        episodes = play(games, 220, [70, 71])
        names = games.possible_agents
    assert sum(ep.finished is not None for eps in episodes for ep in eps) >= 2
    for eps in episodes:
        for ep in eps:
            assert_same_as_aec(options, ep, names)


# --- draws ---------------------------------------------------------------------------------------

def drawn_env(baratheon_power: int, reward: str = "zero_sum", info_format: str = "numeric"):
    """Round 10 of a 3-player 1e game, Consolidate Power about to be resolved: each house holds
    two stronghold/city areas (Stark Winterfell by its home, White Harbor; Lannister Lannisport
    by its home, The Reach; Baratheon Dragonstone by its home, Storm's End), supply 1 each.
    Stark's two CP orders (no crowns) take its power from 3 to 5, Lannister has 5, Baratheon
    ``baratheon_power``; Stark is asked which order to resolve first (D-48), then the game ends.
    """
    e = first_edition(3, reward=reward, info_format=info_format)
    e.reset(seed=0)
    e.game = scenario.build({
        "ruleset": "1e", "players": 3, "round": 10, "start": "consolidate",
        "units": {"stark": {"white-harbor": "F", "the-stony-shore": "F"},
                  "lannister": {"the-reach": "F"}, "baratheon": {"storms-end": "F"}},
        "orders": {"white-harbor": "consolidate-power-a",
                   "the-stony-shore": "consolidate-power-b"},
        "power": {"stark": 3, "lannister": 5, "baratheon": baratheon_power},
        "supply": {"stark": 1, "lannister": 1, "baratheon": 1},
        "tracks": {"iron-throne": ["baratheon", "lannister", "stark"]},
    })
    e._select_agent()
    assert e.agent_selection == "stark" and e.game.pending.kind == D.CONSOLIDATE_TO_RESOLVE
    assert e.game.victory_points()[:3].tolist() == [2, 2, 2]
    e.step(e.legal_actions()[0])
    assert e.game.outcome is not None and e.game.outcome.reason == "last-round"
    assert e.game.power[:3].tolist() == [5, 5, baratheon_power]
    return e


@pytest.mark.parametrize("reward,expected", [
    ("zero_sum", {"stark": 0.0, "lannister": 0.0, "baratheon": 0.0}),
    ("rank", {"stark": 0.0, "lannister": 0.0, "baratheon": 0.0}),
    ("castles", {"stark": 2 / 8, "lannister": 2 / 8, "baratheon": 2 / 8}),
])
def test_a_full_tie_after_round_10_is_a_draw_of_every_house(reward, expected):
    """1e spec 12 (reading C.9): equal castles, supply and available power after the last round:
    the game is a draw between all three; zero_sum pays (n-k)/(k(n-1)) = 0 each, rank the mean
    of the three places (0), castles 2 of the 8 that win at 3 players."""
    e = drawn_env(5, reward)
    assert e.game.outcome.draw == (2, 1, 0)  # Iron Throne order: Baratheon, Lannister, Stark
    assert e.rewards == pytest.approx(expected)
    assert all(e.terminations.values())
    for a in e.agents:
        assert e.infos[a]["draw"] == [2, 1, 0] and e.infos[a]["winner"] == 2
        assert e.infos[a]["outcome"] == OUTCOMES.index("last-round") + 1
    assert e.record.outcome == {"reason": "last-round", "winner": "baratheon",
                                "ranking": ["baratheon", "lannister", "stark"],
                                "draw": ["baratheon", "lannister", "stark"]}


@pytest.mark.parametrize("reward,expected", [
    ("zero_sum", {"lannister": 0.25, "stark": 0.25, "baratheon": -0.5}),
    ("rank", {"lannister": 0.5, "stark": 0.5, "baratheon": -1.0}),
])
def test_two_houses_share_the_game_and_its_reward(reward, expected, tmp_path):
    """1e spec 12: Baratheon has one power less, so Lannister and Stark stay equal and share the
    game: zero_sum (n-k)/(k(n-1)) = 1/4 each and -1/(n-1) = -1/2 for Baratheon (sum 0); rank
    the mean of places 1 and 2 (+1 and 0), -1 for the last. Text infos and the saved record
    name the drawn houses."""
    e = drawn_env(4, reward)
    assert e.game.outcome.draw == (1, 0)
    assert e.rewards == pytest.approx(expected)
    assert sum(e.rewards.values()) == pytest.approx(0.0)
    assert e.infos["baratheon"]["draw"] == [1, 0, -1]
    assert e.infos["baratheon"]["ranking"] == [1, 0, 2]
    record = e.record
    assert record.outcome["draw"] == ["lannister", "stark"]
    record.save(tmp_path / "draw.json")
    assert GameRecord.load(tmp_path / "draw.json") == record
    text = drawn_env(4, reward, info_format="text")
    assert text.infos["stark"] == {"outcome": "last-round", "winner": "lannister",
                                   "ranking": ["lannister", "stark", "baratheon"],
                                   "draw": ["lannister", "stark"]}


def test_end_rewards_share_the_win_and_keep_the_sum():
    """The reward table: k = 1 is exactly the 2e formula (+1, -1/(n-1); rank +1 .. -1); a draw
    of k splits the winner's share and keeps zero_sum's sum at 0."""
    for n in (3, 4, 5, 6):
        assert end_rewards("zero_sum", n) == [1.0] + [-1.0 / (n - 1)] * (n - 1)
        assert end_rewards("rank", n) == [1.0 - 2.0 * i / (n - 1) for i in range(n)]
        for k in range(1, n + 1):
            zs = end_rewards("zero_sum", n, k)
            assert sum(zs) == pytest.approx(0.0)
            assert zs[:k] == [pytest.approx((n - k) / (k * (n - 1)))] * k
            assert sum(end_rewards("rank", n, k)) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="k <= n"):
        end_rewards("zero_sum", 3, 4)
    with pytest.raises(ValueError, match="scheme"):
        end_rewards("castles", 3)


def test_tournament_tables_credit_a_draw_as_a_shared_win():
    """Each of the k drawn houses gets 1/k of a win; all of them rank first (ratings too)."""
    from experiments.ratings import seat_credits, seat_ranks, summarize

    houses = ["stark", "lannister", "baratheon"]
    draw = {"lineup": ["heuristic", "random", "random"], "houses": houses,
            "ranking": ["lannister", "stark", "baratheon"], "draw": ["lannister", "stark"],
            "castles": {"stark": 2, "lannister": 2, "baratheon": 2}}
    win = {"lineup": ["heuristic", "random", "random"], "houses": houses,
           "ranking": ["stark", "baratheon", "lannister"],
           "castles": {"stark": 4, "lannister": 1, "baratheon": 2}}
    assert seat_ranks(draw) == [1, 1, 3] and [float(c) for c in seat_credits(draw)] == \
        [0.5, 0.5, 0.0]
    stats = summarize([draw, win], ["heuristic", "random"], houses)
    heuristic, random_ = stats["agents"]["heuristic"], stats["agents"]["random"]
    assert (heuristic["wins"], heuristic["win_rate"]) == (1.5, 0.75)
    assert (random_["wins"], random_["seats"]) == (0.5, 4)
    assert stats["houses"]["lannister"]["wins"] == 0.5
    assert stats["houses"]["stark"]["wins"] == 1.5
    assert heuristic["avg_rank"] == 1.0
    plain = summarize([win], ["heuristic", "random"], houses)
    assert plain["agents"]["heuristic"]["wins"] == 1
    assert isinstance(plain["agents"]["heuristic"]["wins"], int)  # 2e tables stay ints


def test_a_first_edition_tournament_runs(tmp_path):
    """experiments.tournament with ``env: {ruleset: 1e}``: games of the 1st edition, results."""
    from experiments.tournament.config import parse_config
    from experiments.tournament.run import run_tournament

    cfg = parse_config({"game": "got", "env": {"ruleset": "1e", "num_players": 3, "max_rounds": 2},
                        "agents": {"heuristic": "heuristic", "random": "random"},
                        "lineups": [["heuristic", "random", "random"]], "games": 3,
                        "workers": 1, "out": str(tmp_path)}, default_name="t1e")
    assert cfg.houses == tuple(HOUSES[3])
    report = run_tournament(cfg, progress=False, log=lambda _: None)
    assert report.played == 3 and report.results["games"] == 3
    wins = report.results["agents"]
    assert wins["heuristic"]["wins"] + wins["random"]["wins"] == pytest.approx(3)


# --- agents --------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["random", "heuristic", "heuristic_v2"])
def test_agents_play_first_edition_games(spec):
    """Every observation agent plays 1e games to the end (5 and 3 players) through agent specs."""
    for n in (5, 3):
        e = first_edition(n, max_rounds=3)
        seated = {a: make_agent(spec, env=e, seed=i) for i, a in enumerate(e.possible_agents)}
        from experiments.play import play_game

        play_game(e, seated, seed=n)
        assert e.game.outcome is not None and not e.agents


def test_ismcts_plays_a_first_edition_decision():
    """agents/ismcts.py (determinization, heuristic rollouts) on a 1e game."""
    e = first_edition(3, max_rounds=2)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    agent = make_agent({"name": "ismcts", "kwargs": {"simulations": 3}}, env=e, seed=0)
    asked = 0
    while e.game.pending is not None and asked < 4:
        if e.agent_selection == "lannister" and len(e.legal_actions()) > 1:
            obs = e.observe("lannister")
            action = agent.act(obs["observation"], obs["action_mask"], e.infos["lannister"])
            assert obs["action_mask"][action]
            e.step(action)
            asked += 1
        else:
            random_step(e, rng)
    assert asked == 4


def test_ismcts_scores_a_draw_as_a_shared_win():
    """1e spec 12: the search's value of a drawn end is 1/k for each of the k drawn houses."""
    from agents.ismcts import evaluate

    assert evaluate(drawn_env(4).game, game="got").tolist() == [0.5, 0.5, 0.0, 0.0, 0.0]
    assert evaluate(drawn_env(5).game, game="got").tolist() == pytest.approx(
        [1 / 3] * 3 + [0.0] * 2)


def test_the_heuristic_finds_its_ruleset():
    """Named or from the env (else 2e); another ruleset's observations are refused with a
    clear error."""
    e = first_edition(3)
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)
    info = e.infos[e.agent_selection]
    assert make_agent("heuristic", env=e).ruleset == "1e"
    assert HeuristicAgent(ruleset="1e").ruleset == "1e"
    free = HeuristicAgent()  # no ruleset, no env: the 2nd edition, never guessed from the obs
    assert free.ruleset == "2e"
    with pytest.raises(ValueError, match="plays ruleset '2e'.*4802.*ruleset=.*env="):
        free.act(obs["observation"], obs["action_mask"], info)
    with pytest.raises(ValueError, match="plays ruleset '2e'.*4802"):
        HeuristicAgent(ruleset="2e").act(obs["observation"], obs["action_mask"], info)


def test_the_shipped_ppo_checkpoint_refuses_a_first_edition_game():
    """The shipped checkpoint is 2e-only: seating it in a 1e game names both rulesets and
    sizes, instead of a shape error inside the network."""
    pytest.importorskip("torch")
    from agents.ppo import CheckpointError, PPOAgent

    e = first_edition(3)
    with pytest.raises(AgentSpecError, match=r"trained for ruleset '2e'.*ruleset '1e'"):
        make_agent("ppo", env=e)
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)
    with pytest.raises(CheckpointError, match="ruleset '2e'.*another ruleset"):
        PPOAgent(seed=0).act(obs["observation"], obs["action_mask"], {})
    assert make_agent("ppo", env=got_env.raw_env(num_players=3), seed=0).ruleset == "2e"


# --- tools ---------------------------------------------------------------------------------------

def test_the_picture_and_texts_speak_first_edition():
    """The picture reads got_env/data/1e/layout.yaml; its legend says city (1e spec 2.3) and
    lists no siege engine or garrison (A.2); a draw is announced as one (1e spec 12)."""
    from got_env.render.fixed_text import LEGEND, legend
    from got_env.render.log import outcome_text
    from got_env.render.style import BOARD_SHAPE

    e = first_edition(4, render_mode="rgb_array")
    e.reset(seed=0)
    assert e.render().shape == BOARD_SHAPE
    lines = legend(e.ruleset)
    assert "city" in lines[0] and not any("siege" in s or "garrison" in s for s in lines)
    assert legend(got_env.raw_env().ruleset) == LEGEND
    assert outcome_text(drawn_env(4).game) == "Draw: Lannister, Stark (after the last round)"


def test_the_benchmark_takes_a_ruleset():
    from experiments import benchmark
    from experiments.benchmark import kit

    options = {"ruleset": "1e", "num_players": 3}
    decisions, games = kit.engine_rate("got", options, 0.01, 0)
    assert decisions > 0 and games > 0
    run = kit.KitVectorRun("got", options, 2, 0, seed=0)
    try:
        assert run.games.observation_size == 4802 and run.rate(0.01)[0] > 0
    finally:
        run.close()
    with pytest.raises(SystemExit):
        benchmark.main(["--game", "got", "--option", "ruleset=1e", "--players", "6"])


# --- random games with the invariants ---------------------------------------------------------

def fuzz_game(n: int, seed: int) -> int:
    """One random game through the AEC env: the engine's invariants after every decision, the
    acting house's observation in bounds and its mask exactly the options; at the end, the
    outcome, the rewards and the draw agree (1e spec 12). Returns the decisions played."""
    e = first_edition(n)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    high = e.observation_space("stark")["observation"].high
    totals = {a: 0.0 for a in e.possible_agents}
    decisions = 0
    while e.agents:
        agent = e.agent_selection
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        d = e.game.pending
        assert obs["action_mask"].sum() == len(d.options)
        assert ((obs["observation"] >= 0) & (obs["observation"] <= high)).all()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        check(e.game)
        decisions += 1
    outcome, game = e.game.outcome, e.game
    assert sorted(outcome.ranking) == sorted(np.flatnonzero(game.in_play).tolist())
    assert sum(totals.values()) == pytest.approx(0.0)
    vp = game.victory_points()
    if outcome.reason == "seven-castles":
        assert vp[outcome.winner] >= game.ruleset.setups[n].castles_to_win
        assert outcome.draw == ()
    k = max(1, len(outcome.draw))
    assert tuple(outcome.draw) == tuple(outcome.ranking[:len(outcome.draw)])
    winner = game.ruleset.houses[outcome.winner].id
    assert e.record.outcome["ranking"] == [game.ruleset.houses[h].id for h in outcome.ranking]
    assert totals[winner] == pytest.approx((n - k) / (k * (n - 1)))
    if outcome.draw:
        keys = {(int(vp[h]), int(game.supply[h]), int(game.power[h])) for h in outcome.draw}
        assert len(keys) == 1
    return decisions


@pytest.mark.parametrize("n", PLAYERS)
def test_random_games_keep_the_invariants(n):
    """A few full random 1e games per player count, checked after every decision."""
    assert sum(fuzz_game(n, seed) for seed in range(3)) > 300


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYERS)
def test_random_games_keep_the_invariants_many_games(n):
    """200 full random 1e games per player count, checked after every decision."""
    for seed in range(1000, 1200):
        fuzz_game(n, seed)


def test_the_trainers_heuristic_seats_play_the_configs_ruleset():
    """The trainer's league and evaluation seat heuristics for the config's ruleset (they are
    no longer guessed from the observation)."""
    pytest.importorskip("torch")
    from experiments.training.ppo import opponent_seat

    assert opponent_seat("heuristic", 0, "got", {"ruleset": "1e"}).agent.ruleset == "1e"
    assert opponent_seat("heuristic", 0, "got").agent.ruleset == "2e"
