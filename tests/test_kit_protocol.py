"""The kit's Game protocol (boardkit/protocol.py) and AGoT's implementation of it
(got_env/game.py): the registry resolves games by name, AGoT's methods are the engine's own
results, the search (agents/ismcts.py) imports no game, and seeded IS-MCTS play is the same
as before it went through the protocol (the action list's hash, recorded on the code before)."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

import numpy as np
import pytest

import got_env
from agents import ISMCTSAgent, RandomAgent
from agents.ismcts import evaluate
from boardkit import Game, games
from boardkit.outcome import win_shares
from got_env import engine
from got_env.engine.determinize import determinize
from got_env.game import GAME, AGoTGame, material

ROOT = Path(__file__).resolve().parents[1]

#: sha256 of the seeded games' actions of :func:`seeded_actions`, recorded with the search as
#: it was before the protocol (agents/ismcts.py calling got_env.engine directly).
ISMCTS_ACTIONS_SHA256 = "9640bfddb03e3d3939af9ab18767f5f8a5f9059c0017eeb4e012e7374c18d1cf"


def test_the_registry_resolves_both_games():
    assert games.get("got") is GAME and isinstance(GAME, AGoTGame)
    assert games.get("goofspiel").name == "goofspiel"
    assert {"got", "goofspiel"} <= set(games.names())
    with pytest.raises(KeyError, match="known games"):
        games.get("chess")


def test_agot_implements_the_protocol_by_the_engine():
    assert isinstance(GAME, Game)
    options = {"num_players": 3, "max_rounds": 2}
    s = GAME.new_state(4, options)
    assert GAME.digest(s) == engine.start_game(3, seed=4, options={"max_rounds": 2}).digest()
    assert GAME.players(options) == got_env.raw_env(num_players=3).possible_agents
    d = GAME.pending(s)
    assert d is s.pending and GAME.round(s) == 1 and GAME.outcome(s) is None
    assert GAME.player_index(s, GAME.player_name(s, d.player)) == d.player
    standing = GAME.standing(s)
    assert np.isneginf(standing[~s.in_play]).all()
    assert (standing[s.in_play] == material(s)[s.in_play]).all()
    c = GAME.clone(s)
    GAME.apply(c, d.options[0])
    assert GAME.digest(c) != GAME.digest(s)
    sample = GAME.determinize(s, d.player, np.random.default_rng(3))
    assert sample == determinize(s, d.player, np.random.default_rng(3))
    assert GAME.codec(s) is got_env.raw_env(num_players=3).codec
    assert GAME.encoder(s).encode(s, d.player).shape == (GAME.encoder(s).size,)
    assert GAME.text(s) == s.render_text() and GAME.text(s).startswith("Round 1/2")
    with pytest.raises(ValueError):
        GAME.text(s, d.player)


def test_outcome_scores_give_the_searchs_rewards():
    """A draw's scores (1/k each) and a win's (1) are their own shares of the win."""
    assert win_shares(np.array([0.5, 0.5, 0.0])).tolist() == [0.5, 0.5, 0.0]
    assert win_shares(np.array([3.0, 7.0])).tolist() == [0.0, 1.0]
    s = engine.start_game(3, seed=0)
    r = evaluate(s, game="got")
    assert abs(r.sum() - 1) < 1e-12 and (r[~s.in_play] == 0).all()


def test_the_search_imports_no_game():
    """agents/ismcts.py reaches a game through the protocol and the registry only."""
    tree = ast.parse((ROOT / "agents" / "ismcts.py").read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not {m for m in imported if m.split(".")[0] in ("got_env", "goofspiel")}


def play(num_players, rounds, seed, kwargs_by_seat):
    """One seeded game, IS-MCTS at the given seats and random agents elsewhere: its actions."""
    env = got_env.raw_env(num_players=num_players, max_rounds=rounds)
    agents = {h: RandomAgent(seed=i) for i, h in enumerate(env.possible_agents)}
    for seat, kw in kwargs_by_seat.items():
        agents[env.possible_agents[seat]] = ISMCTSAgent(env=env, **kw)
    env.reset(seed=seed)
    actions = []
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        a = None if term or trunc else agents[agent].act(obs["observation"], obs["action_mask"],
                                                          info)
        actions.append((agent, a))
        env.step(a)
    return actions


def seeded_actions():
    """Two seeded games: heuristic-guided search with reuse and widening, plain random-rollout
    search, and a game-horizon search with a lower temperature (93 searches in all)."""
    a1 = play(3, 3, 5, {0: dict(simulations=8, max_decisions=12, seed=11),
                        2: dict(simulations=3, per_option=None, rollout="random", prior=None,
                                model=None, widening=None, max_decisions=6, seed=12)})
    a2 = play(4, 2, 7, {1: dict(simulations=3, rollout="random", prior="random",
                                model="random", horizon="game", max_decisions=10,
                                temperature=0.5, seed=13)})
    return a1, a2


def test_seeded_ismcts_plays_as_before_the_protocol():
    pytest.importorskip("got_env.agents.heuristic")
    a1, a2 = seeded_actions()
    assert (len(a1), len(a2)) == (111, 66)
    assert hashlib.sha256(repr((a1, a2)).encode()).hexdigest() == ISMCTS_ACTIONS_SHA256
