"""The heuristic agent: always a legal action, choices that follow its rules, and its strength
against random play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import got_env
from agents import REGISTRY, RandomAgent, make_agent
from experiments.ratings import wilson
from experiments.tournament.config import load_config
from experiments.tournament.run import run_tournament
from got_env.agents.heuristic import HeuristicAgent
from got_env.engine import DecisionKind, scenario

K = DecisionKind


# -- helpers ----------------------------------------------------------------------------------


def scenario_env(spec: dict) -> got_env.raw_env:
    """An env whose game is the scenario ``spec`` (tests/test_env.py pattern)."""
    e = got_env.raw_env(num_players=spec.get("players", 3))
    e.reset(seed=0)
    e.game = scenario.build(spec)
    e._select_agent()
    return e


def ask(agent: HeuristicAgent, e: got_env.raw_env) -> tuple:
    """The heuristic's choice for the pending decision, as an engine action (checked legal)."""
    house = e.agent_selection
    obs = e.observe(house)
    index = agent.act(obs["observation"], obs["action_mask"], e.infos[house])
    assert obs["action_mask"][index], f"illegal action {e.action_name(index)}"
    return e.codec.decode(index)


def play_heuristic_until(e: got_env.raw_env, kind: DecisionKind, house: str | None = None,
                         limit: int = 2000) -> dict[str, HeuristicAgent]:
    """Every seat played by a heuristic agent until ``kind`` is asked (of ``house``)."""
    agents = {a: HeuristicAgent(seed=i) for i, a in enumerate(e.possible_agents)}
    for _ in range(limit):
        d = e.game.pending
        assert d is not None, f"{kind.label} never came up"
        if d.kind == kind and (house is None or e.agent_selection == house):
            return agents
        e.step(e.codec.encode(ask(agents[e.agent_selection], e)))
    raise AssertionError(f"{kind.label} never came up")


def moves_of_march(e: got_env.raw_env, house: str) -> list[tuple]:
    """The moves a heuristic agent plays in the March now being asked of ``house``."""
    agent = HeuristicAgent(seed=0)
    play_heuristic_until(e, K.MARCH_MOVE, house)
    moves = []
    while e.game.pending is not None and e.game.pending.kind == K.MARCH_MOVE:
        action = ask(agent, e)
        if action[0] != "move":
            break
        moves.append(action)
        e.step(e.codec.encode(action))
    return moves


def observation_with(e: got_env.raw_env, house: str, **values: float) -> np.ndarray:
    """The house's observation with some named pieces overwritten (e.g. wildling_threat=0)."""
    obs = e.observe(house)["observation"].copy()
    views = e.encoder.views(obs)
    for name, value in values.items():
        views[name][...] = value
    return obs


def mask_of(e: got_env.raw_env, actions: list[tuple]) -> np.ndarray:
    return e.codec.mask(tuple(actions))


# -- fuzz: a legal action at every decision ---------------------------------------------------


@pytest.mark.parametrize("n,options", [(3, {}), (4, {}), (5, {}), (6, {}),
                                       (3, {"tides_of_battle": True}),
                                       (6, {"tides_of_battle": True})])
def test_plays_every_seat_of_full_games_legally(n, options):
    """Self-play at every seat: each answer is an unmasked index, the game reaches its end."""
    e = got_env.raw_env(num_players=n, **options)
    agents = {a: HeuristicAgent(seed=i) for i, a in enumerate(e.possible_agents)}
    e.reset(seed=n)
    for a in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        action = None
        if not (term or trunc):
            action = agents[a].act(obs["observation"], obs["action_mask"], info)
            assert obs["action_mask"][action], f"{info['decision']}: {e.action_name(action)}"
        e.step(action)
    assert e.game.outcome is not None


def answer_every_decision(n: int, seed: int, mix: float, **options) -> set[str]:
    """A game in which the heuristic is asked at every decision of every seat and must answer
    with a masked index; with probability ``mix`` a random legal move is played instead, which
    reaches positions self-play never does. Returns the decision kinds seen."""
    e = got_env.raw_env(num_players=n, **options)
    rng = np.random.default_rng(seed)
    agents = {a: HeuristicAgent(seed=seed + i) for i, a in enumerate(e.possible_agents)}
    e.reset(seed=seed)
    kinds = set()
    for a in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        action = None
        if not (term or trunc):
            action = agents[a].act(obs["observation"], obs["action_mask"], info)
            assert obs["action_mask"][action], f"{info['decision']}: {e.action_name(action)}"
            kinds.add(info["decision"])
            if rng.random() < mix:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
    return kinds


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_answers_legally_in_random_games(n):
    """Half-random games, two per player count (one with Tides of Battle)."""
    kinds = answer_every_decision(n, seed=100 + n, mix=0.5)
    kinds |= answer_every_decision(n, seed=200 + n, mix=0.5, tides_of_battle=True)
    assert len(kinds) >= 20


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_answers_legally_in_many_random_games(n):
    """The long fuzz: 40 games per player count, from pure self-play to nearly random."""
    for seed in range(40):
        answer_every_decision(n, seed=seed, mix=(0.0, 0.2, 0.5, 0.9)[seed % 4],
                              tides_of_battle=seed % 2 == 1)


def wildlings_scenario(card: str) -> dict:
    """A wildling attack of strength 10 that the Night's Watch loses: after Game of Thrones
    Stark holds 1 power, its rivals 2 or more, so Stark is the lowest bidder; Stark is first on
    every track. Lannister has three Knights (Crow Killers asks which two to replace)."""
    return {
        "players": 3, "round": 2, "start": "westeros", "wildling_threat": 10,
        "westeros_top": {"I": ["supply"], "II": ["game-of-thrones"], "III": ["wildlings-attack"]},
        "wildling_top": [card], "power": {"stark": 0, "lannister": 1, "baratheon": 0},
        "units": {"stark": {"winterfell": "KF", "white-harbor": "F"},
                  "lannister": {"lannisport": "KK", "stoney-sept": "K"},
                  "baratheon": {"dragonstone": "KF", "kingswood": "F"}},
        "tracks": {t: ["stark", "lannister", "baratheon"]
                   for t in ("iron-throne", "fiefdoms", "kings-court")},
    }


@pytest.mark.parametrize("card,kind", [
    ("preemptive-raid", K.PREEMPTIVE_RAID_PENALTY),
    ("preemptive-raid", K.PREEMPTIVE_RAID_TRACK),
    ("massing-on-the-milkwater", K.MASSING_DISCARD),
    ("a-king-beyond-the-wall", K.KING_BEYOND_THE_WALL_BOTTOM),
    ("mammoth-riders", K.WILDLING_DESTROY_UNITS),
    ("crow-killers", K.CROW_KILLERS_REPLACE),
])
def test_rare_wildling_decisions(card, kind):
    """Decisions of the wildling cards, reached with every seat played by the heuristic."""
    e = scenario_env(wildlings_scenario(card))
    agents = play_heuristic_until(e, kind)
    ask(agents[e.agent_selection], e)


def test_own_preemptive_raid_drop_spares_kings_court():
    """D-10/D-11: the lowest bidder drops on a track; Stark, first everywhere and the Iron
    Throne holder, recognises its own drop and gives up Fiefdoms, keeping King's Court."""
    e = scenario_env(wildlings_scenario("preemptive-raid"))
    agents = play_heuristic_until(e, K.PREEMPTIVE_RAID_TRACK)
    assert e.agent_selection == "stark"
    assert ask(agents["stark"], e) == ("track", 1)  # fiefdoms


def test_massing_discards_the_weakest_card():
    """D-15: the discarded card is the weakest in hand."""
    e = scenario_env(wildlings_scenario("massing-on-the-milkwater"))
    agents = play_heuristic_until(e, K.MASSING_DISCARD)
    house = e.agent_selection
    hand = e.game.hand(e.ruleset.house(house))
    _, card = ask(agents[house], e)
    strength = [e.ruleset.house_cards[c].strength for c in hand]
    assert e.ruleset.house_cards[card].strength == min(strength)


def test_raven_swap_is_answered():
    """D-22 (the agent itself never asks for a swap): after a swap chosen for it, it answers
    legally with a token of the same area."""
    e = scenario_env({"players": 3, "start": "planning",
                      "tracks": {"kings-court": ["stark", "lannister", "baratheon"]}})
    play_heuristic_until(e, K.RAVEN_USE)
    e.step(e.codec.encode(("choice", 9)))  # swap-order
    assert e.game.pending.kind == K.RAVEN_SWAP
    assert ask(HeuristicAgent(), e)[0] == "order"


# -- its rules --------------------------------------------------------------------------------


def test_attacks_a_weakly_held_castle_it_can_beat():
    """Two Knights (4) against a lone Footman in Seagard (1, Defense +1): the March takes
    both Knights into Seagard."""
    e = scenario_env({
        "players": 3, "start": "marches",
        "units": {"stark": {"the-twins": "KK", "winterfell": "F"},
                  "lannister": {"seagard": "F", "lannisport": "F"},
                  "baratheon": {"dragonstone": "F"}},
        "orders": {"the-twins": "march-0", "seagard": "defense-1a"},
    })
    seagard = e.ruleset.area("seagard")
    assert moves_of_march(e, "stark") == [("move", 1, seagard)] * 2


def test_does_not_attack_a_castle_it_cannot_beat():
    """A lone Footman (1) against Knights, a Footman and a Defense +2 in Seagard: no attack."""
    e = scenario_env({
        "players": 3, "start": "marches",
        "units": {"stark": {"the-twins": "F", "winterfell": "F"},
                  "lannister": {"seagard": "KKF", "lannisport": "F"},
                  "baratheon": {"dragonstone": "F"}},
        "orders": {"the-twins": "march-0", "seagard": "defense-special"},
    })
    seagard = e.ruleset.area("seagard")
    assert all(m[2] != seagard for m in moves_of_march(e, "stark"))


@pytest.mark.parametrize("token,attacks", [("march-special", True), ("march-0", False)])
def test_neutral_force_needs_strength_at_least_its_token(token, attacks):
    """King's Landing's neutral force is 5: two Knights (4) attack it with March +1, not
    with March +0 (R16.2: strength >= token)."""
    e = scenario_env({
        "players": 3, "start": "marches",
        "units": {"stark": {"crackclaw-point": "KK", "winterfell": "F"},
                  "lannister": {"lannisport": "F"}, "baratheon": {"dragonstone": "F"}},
        "orders": {"crackclaw-point": token},
    })
    kl = e.ruleset.area("kings-landing")
    moved = [m for m in moves_of_march(e, "stark") if m[2] == kl]
    assert bool(moved) == attacks


def test_plans_a_march_toward_a_beatable_castle():
    """D-20: Stark's Knights next to a weakly held Seagard get a March order."""
    e = scenario_env({
        "players": 3, "start": "planning",
        "units": {"stark": {"the-twins": "KK", "winterfell": "F"},
                  "lannister": {"seagard": "F", "lannisport": "F"},
                  "baratheon": {"dragonstone": "F"}},
    })
    agents = play_heuristic_until(e, K.PLACE_ORDERS, "stark")
    twins = e.ruleset.area("the-twins")
    orders = {}
    while e.game.pending.kind == K.PLACE_ORDERS and e.agent_selection == "stark":
        action = ask(agents["stark"], e)
        orders[action[1]] = e.ruleset.order_tokens[action[2]].type
        e.step(e.codec.encode(action))
    assert orders[twins] == "march"


def test_defends_a_threatened_castle():
    """D-20: a lone Knight in Moat Cailin, next to a big Lannister army it cannot beat,
    gets a Defense order."""
    e = scenario_env({
        "players": 3, "start": "planning",
        "units": {"stark": {"moat-cailin": "K"},
                  "lannister": {"the-twins": "KKF", "seagard": "KK", "lannisport": "F"},
                  "baratheon": {"dragonstone": "F"}},
    })
    agents = play_heuristic_until(e, K.PLACE_ORDERS, "stark")
    action = ask(agents["stark"], e)
    assert action[1] == e.ruleset.area("moat-cailin")
    assert e.ruleset.order_tokens[action[2]].type == "defense"


def test_raids_consolidate_power_first():
    """D-25: among a Support, a Raid and a Consolidate Power order in reach, the raid takes
    the Consolidate Power (it pillages a power token)."""
    e = scenario_env({
        "players": 3, "start": "raids",
        "units": {"stark": {"harrenhal": "F", "winterfell": "F"},
                  "lannister": {"riverrun": "F", "stoney-sept": "F", "lannisport": "F"},
                  "baratheon": {"blackwater": "F", "dragonstone": "F"}},
        "orders": {"harrenhal": "raid-a", "riverrun": "support-0a",
                   "stoney-sept": "consolidate-power-a", "blackwater": "raid-a"},
        "tracks": {"iron-throne": ["stark", "lannister", "baratheon"]},  # Stark raids first
    })
    play_heuristic_until(e, K.RAID_TARGET, "stark")
    assert ask(HeuristicAgent(), e) == ("area", e.ruleset.area("stoney-sept"))


def combat_scenario(stark_units: str, lannister_units: str) -> got_env.raw_env:
    """Stark marches from the Twins into Seagard held by Lannister; play runs to Stark's card."""
    e = scenario_env({
        "players": 3, "start": "marches",
        "units": {"stark": {"the-twins": stark_units, "winterfell": "F"},
                  "lannister": {"seagard": lannister_units, "lannisport": "F"},
                  "baratheon": {"dragonstone": "F"}},
        "orders": {"the-twins": "march-0"},
    })
    e.step(e.codec.encode(("move", 1 if "K" in stark_units else 0, e.ruleset.area("seagard"))))
    if ("done",) in e.game.pending:  # a single option (done) is played without asking
        e.step(e.codec.encode(("done",)))
    while e.game.pending.kind != K.HOUSE_CARD or e.agent_selection != "stark":
        e.step(e.codec.encode(e.game.pending.options[0]))
    return e


def test_house_card_keeps_strong_cards_when_the_fight_is_won():
    """D-32: one Knight (2) against a Footman (1): Robb (3) beats every Lannister card (Stark
    wins ties, first on Fiefdoms), so Eddard (4) is kept for later."""
    e = combat_scenario("KK", "F")
    units = e.game.stack[-1].units
    assert units[1] == 1  # one Knight attacks (the test moved one)
    _, card = ask(HeuristicAgent(), e)
    # 2 vs 1: a card of strength s wins against Lannister's o when 1 + s >= o (ties to Stark)
    assert e.ruleset.house_cards[card].strength == 3


def test_house_card_weakest_when_the_fight_is_hopeless():
    """D-32: a lone Footman against three Knights: no card can win, play the weakest."""
    e = combat_scenario("F", "KKK")
    _, card = ask(HeuristicAgent(), e)
    hand = e.game.hand(e.ruleset.house("stark"))
    assert e.ruleset.house_cards[card].strength == min(
        e.ruleset.house_cards[c].strength for c in hand)


def test_casualty_is_the_cheapest_unit():
    """D-43: a Footman goes before a Knight."""
    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    wf = e.ruleset.area("winterfell")
    options = [("unit", wf, 0), ("unit", wf, 1)]
    obs = e.observe("stark")["observation"]
    index = HeuristicAgent().act(obs, mask_of(e, options), {"decision": K.CASUALTY.label})
    assert e.codec.decode(index) == ("unit", wf, 0)


def test_wildling_bid_rises_with_the_threat():
    """D-08: nothing at threat 0, then bids that never fall as the threat rises, within the
    available power."""
    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    mask = mask_of(e, [("bid", n) for n in range(8)])
    bids = []
    for threat in (0, 2, 4, 6, 8, 10, 12):
        obs = observation_with(e, "stark", wildling_threat=threat, power=7)
        index = HeuristicAgent().act(obs, mask, {"decision": K.WILDLING_BID.label})
        bids.append(e.codec.decode(index)[1])
    assert bids[0] == 0
    assert bids == sorted(bids) and bids[-1] > bids[1]


def test_influence_bid_never_overpays():
    """D-06: with 10 power against rivals holding 1, the Iron Throne bid is at most 2."""
    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    obs = observation_with(e, "stark", power=1)
    e.encoder.views(obs)["power"][0] = 10
    index = HeuristicAgent().act(obs, mask_of(e, [("bid", n) for n in range(11)]),
                                 {"decision": K.INFLUENCE_BID.label})
    assert 1 <= e.codec.decode(index)[1] <= 2


def test_supports_its_own_side():
    """D-30: a combatant with a Support order next to the fight supports itself."""
    e = scenario_env({
        "players": 3, "start": "marches",
        "units": {"stark": {"the-twins": "KK", "moat-cailin": "F", "winterfell": "F"},
                  "lannister": {"seagard": "F", "lannisport": "F"},
                  "baratheon": {"dragonstone": "F"}},
        "orders": {"the-twins": "march-0", "moat-cailin": "support-0a"},
    })
    play_heuristic_until(e, K.DECLARE_SUPPORT, "stark")
    assert ask(HeuristicAgent(), e) == ("choice", 13)  # support-attacker


# -- registry, speed, strength ----------------------------------------------------------------


def test_registered_and_seated_by_default():
    import yaml

    from experiments.play import DEFAULT_CONFIG

    assert REGISTRY["heuristic"] is HeuristicAgent and "random" in REGISTRY
    assert isinstance(make_agent("heuristic", seed=1), HeuristicAgent)
    cfg = yaml.safe_load(open(DEFAULT_CONFIG, encoding="utf-8"))
    assert cfg["agents"]["default"]["name"] == "heuristic_v2"  # the main job seats v2 (issue 13)


HEURISTIC_VS_RANDOM = Path(__file__).resolve().parents[1] / "configs" / "heuristic_vs_random.yaml"


def heuristic_wins(tmp_path: Path, **overrides: object) -> tuple[float, int]:
    """The heuristic's wins and seats in configs/heuristic_vs_random.yaml's tournament (one
    heuristic against two random agents, houses rotated), played here."""
    cfg = load_config(HEURISTIC_VS_RANDOM, out=tmp_path, workers=1, **overrides)
    agent = run_tournament(cfg, progress=False, log=lambda _: None).results["agents"]
    return agent["heuristic"]["wins"], agent["heuristic"]["seats"]


def test_beats_random_agents(tmp_path):
    """12 three-player games, houses rotated: at least 9 wins against two random agents."""
    wins, seats = heuristic_wins(tmp_path, games=12)
    assert seats == 12 and wins >= 9


def test_wilson_interval():
    lo, hi = wilson(180, 200)
    assert lo < 0.9 < hi and 0.85 < lo and hi < 0.94
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.slow
def test_wins_90_percent_of_200_games_against_random(tmp_path):
    """The acceptance run: the config's 201 three-player games, houses rotated, >= 90% wins."""
    wins, seats = heuristic_wins(tmp_path)
    assert seats == 201 and wins >= 181


def test_random_agent_still_available():
    assert isinstance(make_agent("random", seed=0), RandomAgent)


# -- its ruleset and its own errors (issue 25) ------------------------------------------------


def test_the_ruleset_is_given_or_read_from_the_env_else_2e():
    first = got_env.raw_env(num_players=3, ruleset="1e")
    assert HeuristicAgent().ruleset == "2e"
    assert HeuristicAgent(ruleset="1e").ruleset == "1e"
    assert HeuristicAgent(env=first).ruleset == "1e"
    assert make_agent("heuristic", env=first).ruleset == "1e"
    with pytest.raises(ValueError, match="ruleset='2e' but the env given plays ruleset '1e'"):
        HeuristicAgent(ruleset="2e", env=first)


def test_an_observation_of_another_ruleset_is_refused_not_guessed():
    """An agent built without ruleset= or env= plays 2e: a 1e observation names both sizes and
    how to build the agent, instead of the agent switching rulesets on its own."""
    e = got_env.raw_env(num_players=3, ruleset="1e")
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)
    agent = HeuristicAgent()
    with pytest.raises(ValueError, match=rf"plays ruleset '2e', whose observations have "
                                         rf"{agent.t.encoder.size} features, but got an "
                                         rf"observation of {e.encoder.size} features: build "
                                         rf"it with ruleset=.*or env="):
        agent.act(obs["observation"], obs["action_mask"], e.infos[e.agent_selection])
    assert agent.ruleset == "2e"


class _BrokenCasualty(HeuristicAgent):
    """A heuristic whose casualty rule picks an action that is never legal there."""

    HANDLERS = {**HeuristicAgent.HANDLERS, K.CASUALTY: lambda agent, vw, actions: ("done",)}


class _NoCasualtyRule(HeuristicAgent):
    """A heuristic without a casualty rule."""

    HANDLERS = {k: v for k, v in HeuristicAgent.HANDLERS.items() if k != K.CASUALTY}


def casualty_question() -> tuple[np.ndarray, np.ndarray, dict, list[int]]:
    """A D-43 decision with two legal units (observation, mask, info, legal indices)."""
    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    wf = e.ruleset.area("winterfell")
    mask = mask_of(e, [("unit", wf, 1), ("unit", wf, 0)])
    return (e.observe("stark")["observation"], mask, {"decision": K.CASUALTY.label},
            np.flatnonzero(mask).tolist())


@pytest.mark.parametrize("cls", [_BrokenCasualty, _NoCasualtyRule])
def test_a_failed_rule_raises_when_strict(monkeypatch, cls):
    from got_env.agents.heuristic import STRICT_ENV, HeuristicRuleError

    monkeypatch.setenv(STRICT_ENV, "1")
    obs, mask, info, _ = casualty_question()
    with pytest.raises(HeuristicRuleError, match="D-43 CASUALTY"):
        cls().act(obs, mask, info)


@pytest.mark.parametrize("cls", [_BrokenCasualty, _NoCasualtyRule])
def test_a_failed_rule_warns_once_and_plays_a_fallback_when_not_strict(monkeypatch, recwarn,
                                                                         cls):
    from got_env.agents.heuristic import STRICT_ENV, HeuristicFallbackWarning

    monkeypatch.setenv(STRICT_ENV, "0")
    obs, mask, info, legal = casualty_question()
    agent = cls()
    assert [agent.act(obs, mask, info) for _ in range(3)] == [legal[0]] * 3
    warned = [w for w in recwarn if issubclass(w.category, HeuristicFallbackWarning)]
    assert len(warned) == 1 and "D-43 CASUALTY" in str(warned[0].message)


def test_the_strict_switch_is_read_when_an_agent_is_built_or_unpickled(monkeypatch):
    """Changing the variable later does not change a built agent; a pickled agent (sent to a
    worker) takes the variable of the process that loads it."""
    import pickle

    from got_env.agents.heuristic import STRICT_ENV, HeuristicRuleError

    monkeypatch.setenv(STRICT_ENV, "0")
    obs, mask, info, legal = casualty_question()
    agent = _BrokenCasualty()
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.warns(RuntimeWarning):
        assert agent.act(obs, mask, info) == legal[0]
    with pytest.raises(HeuristicRuleError):
        pickle.loads(pickle.dumps(agent)).act(obs, mask, info)
