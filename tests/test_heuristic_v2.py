"""Heuristic v2 (issue 13): its new rules in small positions, where v1 plays otherwise; its
temperature and seed; legal answers in half-random games; pickling."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from test_heuristic import ask, scenario_env

import got_env
from agents import REGISTRY, make_agent
from got_env.agents.heuristic import HeuristicAgent, HeuristicV2Agent
from got_env.engine import DecisionKind

K = DecisionKind

# Stark can reach Lannisport only by ship: its army in Seagard, its ships in Ironman's Bay and
# the Golden Sound (R14 transport). v1 sees one Ship next to Lannisport; v2 sees the army.
TRANSPORT_THREAT = {"stark": {"seagard": "KKF", "ironmans-bay": "S", "the-golden-sound": "S",
                              "winterfell": "F"},
                    "baratheon": {"dragonstone": "F"}}


def lannister_orders(agent: HeuristicAgent, spec: dict) -> dict[str, str]:
    """The orders ``agent`` places for Lannister (the others played by v1), by area id."""
    e = scenario_env(spec)
    while not (e.game.pending.kind == K.PLACE_ORDERS and e.agent_selection == "lannister"):
        e.step(e.codec.encode(ask(HeuristicAgent(), e)))
    out = {}
    while e.game.pending.kind == K.PLACE_ORDERS and e.agent_selection == "lannister":
        action = ask(agent, e)
        out[e.ruleset.areas[action[1]].id] = e.ruleset.order_tokens[action[2]].type
        e.step(e.codec.encode(action))
    return out


def lannister_moves(agent: HeuristicAgent, spec: dict) -> list[tuple]:
    """The moves ``agent`` plays in Lannister's March now asked."""
    e = scenario_env(spec)
    moves = []
    while e.game.pending is not None and e.game.pending.kind == K.MARCH_MOVE \
            and e.agent_selection == "lannister":
        action = ask(agent, e)
        if action[0] == "move":
            moves.append(action)
        e.step(e.codec.encode(action))
    return moves


def test_defends_a_home_threatened_by_ship_transport():
    """D-20: one Footman and the garrison (3) in Lannisport against Stark's Knights, which its
    ships can carry there (5, +1 March, +1 Ship support): v2 puts Defense on Lannisport; v1,
    blind to transport, consolidates there."""
    spec = {"players": 3, "start": "planning",
            "units": {"lannister": {"lannisport": "F", "stoney-sept": "F"}, **TRANSPORT_THREAT}}
    assert lannister_orders(HeuristicV2Agent(seed=0, temperature=0.0), spec)["lannisport"] \
        == "defense"
    assert lannister_orders(HeuristicAgent(), spec)["lannisport"] != "defense"


def test_does_not_march_out_of_a_home_a_rival_could_take():
    """D-27: a March from Lannisport (Knight, Footman, garrison: 5) with Stark's army a ship
    ride away (7): v2 keeps both units home; v1 walks the Footman out."""
    spec = {"players": 3, "start": "marches", "orders": {"lannisport": "march-0"},
            "units": {"lannister": {"lannisport": "KF"}, **TRANSPORT_THREAT}}
    assert lannister_moves(HeuristicV2Agent(seed=0, temperature=0.0), spec) == []
    assert lannister_moves(HeuristicAgent(), spec) != []


def test_raven_swaps_for_a_defense_when_a_revealed_march_threatens():
    """D-21/D-22: after the reveal, Stark's March +1 with a Knight and a Footman (4) faces
    Lannisport's Footman and garrison (3) under Consolidate Power: v2 (holding the Raven)
    swaps it for the special Defense (5); v1 only looks at the wildling card."""
    spec = {"players": 3, "start": "planning",
            "units": {"lannister": {"lannisport": "F", "stoney-sept": "F"},
                      "stark": {"riverrun": "KF", "winterfell": "F"},
                      "baratheon": {"dragonstone": "F"}},
            "orders": {"lannisport": "consolidate-power-a", "stoney-sept": "raid-a",
                       "riverrun": "march-special", "winterfell": "consolidate-power-a",
                       "dragonstone": "consolidate-power-a"},
            "tracks": {"kings-court": ["lannister", "stark", "baratheon"]}}
    e = scenario_env(spec)
    assert e.game.pending.kind == K.RAVEN_USE and e.agent_selection == "lannister"
    assert ask(HeuristicAgent(), e) == ("choice", 10)  # look-at-wildling-card
    agent = HeuristicV2Agent(seed=0, temperature=0.0)
    use = ask(agent, e)
    assert use == ("choice", 9)  # swap-order
    e.step(e.codec.encode(use))
    assert e.game.pending.kind == K.RAVEN_SWAP
    _, area, token = ask(agent, e)
    assert area == e.ruleset.area("lannisport")
    assert e.ruleset.order_tokens[token].type == "defense"


# -- temperature, seeds, legality, pickling ---------------------------------------------------


def play(agents_for: dict, n: int, seed: int, mix: float = 0.0, max_rounds: int = 3,
         tides: bool = False) -> list[int]:
    """A short game; every seat's agent must answer with a masked index (``mix``: the share of
    random legal moves played instead, to reach positions self-play does not). The actions."""
    e = got_env.raw_env(num_players=n, max_rounds=max_rounds, tides_of_battle=tides)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    agents = {a: agents_for(i) for i, a in enumerate(e.possible_agents)}
    actions = []
    for a in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        action = None
        if not (term or trunc):
            action = agents[a].act(obs["observation"], obs["action_mask"], info)
            assert obs["action_mask"][action], f"{info['decision']}: {e.action_name(action)}"
            if mix and rng.random() < mix:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            actions.append(int(action))
        e.step(action)
    return actions


def test_temperature_zero_is_deterministic_whatever_the_seed():
    one = play(lambda i: HeuristicV2Agent(seed=i, temperature=0.0), 3, seed=5)
    other = play(lambda i: HeuristicV2Agent(seed=100 + i, temperature=0.0), 3, seed=5)
    assert one == other


def test_a_seed_reproduces_a_noisy_game_and_another_seed_varies_it():
    one = play(lambda i: HeuristicV2Agent(seed=i, temperature=0.3), 3, seed=5)
    again = play(lambda i: HeuristicV2Agent(seed=i, temperature=0.3), 3, seed=5)
    other = play(lambda i: HeuristicV2Agent(seed=100 + i, temperature=0.3), 3, seed=5)
    assert one == again
    assert one != other


def test_negative_temperature_is_refused():
    with pytest.raises(ValueError):
        HeuristicV2Agent(temperature=-0.1)


@pytest.mark.parametrize("n,tides", [(3, False), (6, True)])
def test_answers_legally_in_half_random_games(n, tides):
    """Half-random games at 3 and 6 players: every answer is a masked index."""
    for seed in range(2):
        play(lambda i, s=seed: HeuristicV2Agent(seed=s * 10 + i), n, seed=300 + seed,
             mix=0.5, max_rounds=4, tides=tides)


def test_pickles_with_its_memory_and_generator():
    """Mid-game, a pickled copy (tables rebuilt, generator state kept) answers the next
    decisions exactly as the original does."""
    e = got_env.raw_env(num_players=3, max_rounds=3)
    e.reset(seed=2)
    agents = {a: HeuristicV2Agent(seed=i, temperature=0.5) for i, a in enumerate(e.possible_agents)}
    for _ in range(40):
        a = e.agent_selection
        obs = e.observe(a)
        e.step(agents[a].act(obs["observation"], obs["action_mask"], e.infos[a]))
    copies = {a: pickle.loads(pickle.dumps(ag)) for a, ag in agents.items()}
    assert copies["stark"].t is agents["stark"].t and copies["stark"].temperature == 0.5
    for _ in range(60):
        if e.game.outcome is not None:
            break
        a = e.agent_selection
        obs = e.observe(a)
        mine = agents[a].act(obs["observation"], obs["action_mask"], e.infos[a])
        assert copies[a].act(obs["observation"], obs["action_mask"], e.infos[a]) == mine
        e.step(mine)


def test_registered_beside_v1():
    assert REGISTRY["heuristic_v2"] is HeuristicV2Agent
    assert REGISTRY["heuristic_v1"] is HeuristicAgent
    assert REGISTRY["heuristic"] is HeuristicAgent   # existing configs keep meaning v1
    agent = make_agent({"name": "heuristic_v2", "kwargs": {"temperature": 0.0}}, seed=3)
    assert isinstance(agent, HeuristicV2Agent) and agent.temperature == 0.0
    agent.reset()


def test_every_kind_has_a_rule_and_v2_replaces_only_its_own():
    """Both tables cover every decision kind; v2's is v1's with v2's rules for the kinds it
    plays otherwise (the rest, and its planning and marches, go through hooks)."""
    assert set(HeuristicAgent.HANDLERS) == set(DecisionKind)
    assert set(HeuristicV2Agent.HANDLERS) == set(DecisionKind)
    changed = {k for k in DecisionKind
               if HeuristicV2Agent.HANDLERS[k] is not HeuristicAgent.HANDLERS[k]}
    assert changed == {K.MUSTER, K.HORDE_DESCENDS_MUSTER, K.INFLUENCE_BID, K.RAVEN_USE,
                       K.RAVEN_SWAP, K.HOUSE_CARD, K.REPLACEMENT_CARD}
