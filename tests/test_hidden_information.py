"""Differential tests for hidden information: a secret choice (orders, bids, house cards) or a
hidden card (the Raven's look at the wildling deck, a Tides of Battle draw) must change nothing
that another house observes before the game reveals it: not its observation, not its mask, not
its infos, not who is asked next (``agent_selection``), nor how many times.

Each test branches a game in two at a secret point (two different legal choices, or two
different hidden cards), then plays both branches on in lockstep: the house with the secret
plays the first legal action in each branch (its own view may differ), every other house plays
the same random action index in both (its view must be identical, so the same index is legal).
The comparison runs until the reveal: the first decision that is not part of the same secret
sequence.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import got_env
from got_env.engine import DecisionKind
from got_env.engine.combat.frame import CombatFrame

D = DecisionKind
SECRET_KINDS = (D.PLACE_ORDERS, D.INFLUENCE_BID, D.WILDLING_BID, D.HOUSE_CARD)


def same_sequence(a, b) -> Callable:
    """A test for "still inside the secret sequence that is pending in the branches ``a`` and
    ``b`` now": a secret decision, asked by the same frame of the engine's stack (the planning
    phase, one Clash of Kings, one wildling attack, one combat), on the same track."""
    frames = {id(x): x.game.stack[-1] for x in (a, b)}
    track = a.game.pending.context.get("track")

    def still(x) -> bool:
        d = x.game.pending
        return (d is not None and d.secret and bool(x.game.stack)
                and x.game.stack[-1] is frames[id(x)] and d.context.get("track") == track)

    return still


def views(e, agents) -> dict:
    out = {}
    for a in agents:
        o = e.observe(a)
        out[a] = (o["observation"].tobytes(), o["action_mask"].tobytes(), repr(e.infos[a]))
    return out


def differences(a, b, va: dict, vb: dict) -> list[str]:
    """Which agent sees what differently (observation pieces, mask, infos)."""
    out = []
    for agent in va:
        if va[agent] == vb[agent]:
            continue
        oa, ob = a.observe(agent), b.observe(agent)
        pa, pb = a.encoder.views(oa["observation"]), b.encoder.views(ob["observation"])
        out += [f"{agent}:{k}" for k in pa if not np.array_equal(pa[k], pb[k])]
        if va[agent][1:] != vb[agent][1:]:
            out.append(f"{agent}: mask or infos")
    return out


def compare_branches(a, b, secret_of: str, still_hidden: Callable, rng, limit: int = 400) -> int:
    """Play branches ``a`` and ``b`` in lockstep while ``still_hidden(a)`` and assert that every
    house but ``secret_of`` sees the same; returns the number of steps compared."""
    others = [x for x in a.possible_agents if x != secret_of]
    steps = 0
    while steps < limit and a.agents and b.agents and still_hidden(a) and still_hidden(b):
        assert a.agent_selection == b.agent_selection, (
            f"{secret_of}'s secret changed who is asked next at step {steps}")
        va, vb = views(a, others), views(b, others)
        assert va == vb, (f"{secret_of}'s secret shows in another house's view at step {steps}: "
                          f"{differences(a, b, va, vb)}")
        actor = a.agent_selection
        if a.terminations[actor] or a.truncations[actor]:
            break
        if actor == secret_of:
            a.step(a.legal_actions()[0])
            b.step(b.legal_actions()[0])
        else:
            action = int(rng.choice(a.legal_actions()))
            a.step(action)
            b.step(action)
        steps += 1
    return steps


def branch_secret_choices(n: int, seed: int, tides: bool, max_branches: int,
                          every: int = 1, **options: object) -> dict[int, int]:
    """One random game; at every ``every``-th secret decision with two or more options, branch on
    two different choices and compare. Returns branches per decision kind. ``options``: further
    env options (``ruleset="1e"``: tests/test_1e_env.py)."""
    e = got_env.raw_env(num_players=n, tides_of_battle=tides, max_rounds=10, **options)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    counts: dict[int, int] = {}
    seen = 0
    while e.agents and e.game.pending is not None and sum(counts.values()) < max_branches:
        d = e.game.pending
        legal = e.legal_actions()
        if d.secret and len(legal) >= 2:
            seen += 1
            if seen % every == 0:
                x, y = rng.choice(legal, size=2, replace=False)
                a, b = e.clone(), e.clone()
                still = same_sequence(a, b)
                a.step(int(x))
                b.step(int(y))
                compare_branches(a, b, e.agent_selection, still, rng)
                counts[int(d.kind)] = counts.get(int(d.kind), 0) + 1
        e.step(int(rng.choice(legal)))
    return counts


@pytest.mark.parametrize("n,tides", [(3, False), (4, True), (5, False), (6, True)])
def test_secret_choices_do_not_show(n, tides):
    """Orders (D-20), influence bids (D-06), wildling bids (D-08) and house cards (D-32)."""
    counts: dict[int, int] = {}
    for seed in range(2):
        for k, c in branch_secret_choices(n, 100 + seed, tides, max_branches=60, every=3).items():
            counts[k] = counts.get(k, 0) + c
    assert counts.get(int(D.PLACE_ORDERS), 0) > 10


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_thousands_of_secret_choices_do_not_show(n):
    counts: dict[int, int] = {}
    for seed in range(20):
        for k, c in branch_secret_choices(n, 1000 + seed, seed % 2 == 1,
                                          max_branches=400).items():
            counts[k] = counts.get(k, 0) + c
        if sum(counts.values()) >= 1500:
            break
    total = sum(counts.values())
    assert total >= 1000, counts
    assert all(counts.get(int(k), 0) > 0 for k in SECRET_KINDS), counts


def play_to(e, rng, pred: Callable, limit: int = 20000) -> None:
    for _ in range(limit):
        if e.game.pending is not None and pred(e.game.pending):
            return
        if not e.agents:
            break
        e.step(int(rng.choice(e.legal_actions())))
    pytest.skip("the decision did not come up in this game")


def first_branch(kind: DecisionKind, n: int = 6, seed: int = 3, tides: bool = False,
                 pred: Callable | None = None):
    e = got_env.raw_env(num_players=n, tides_of_battle=tides)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    play_to(e, rng, lambda d: d.kind == kind and len(d.options) >= 2
            and (pred is None or pred(e, d)))
    return e, rng


def audit_position():
    """The audit's reproduction: 3 players, seed 0, 121 random choices among the legal actions
    with ``default_rng(0)`` (a secret decision with a single option, which the engine used to
    play without asking, is answered without drawing). Lannister then places its orders in round
    5: eight areas, Defense banned, one special order allowed."""
    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    draws = 0
    while draws < 121:
        legal = e.legal_actions()
        if len(legal) == 1 and e.game.pending.secret:
            e.step(legal[0])
            continue
        e.step(int(rng.choice(legal)))
        draws += 1
    return e


def test_orders_star_or_plain_raid_do_not_show():
    """R10.1.3: the star Raid uses up Lannister's one special order, so a later area can be left
    with a single legal token. Asked anyway, the number and timing of Lannister's decisions is the
    same whichever Raid it placed in Riverrun, and so is everything Stark and Baratheon see."""
    e = audit_position()
    rs = e.ruleset
    assert (e.agent_selection, e.game.round, e.game.pending.kind) == ("lannister", 5,
                                                                      D.PLACE_ORDERS)
    riverrun = rs.area("riverrun")
    star = rs.order_tokens.index(next(t for t in rs.order_tokens if t.id == "raid-special"))
    plain = rs.order_tokens.index(next(t for t in rs.order_tokens if t.id == "raid-a"))
    for first in (0, -1):  # Lannister fills its other areas with the first or the last option
        a, b = e.clone(), e.clone()
        a.step(e.codec.encode(("order", riverrun, star)))
        b.step(e.codec.encode(("order", riverrun, plain)))
        steps = 0
        while a.agent_selection == "lannister" or b.agent_selection == "lannister":
            assert a.agent_selection == b.agent_selection == "lannister", steps
            assert views(a, ["stark", "baratheon"]) == views(b, ["stark", "baratheon"])
            a.step(a.legal_actions()[first])
            b.step(b.legal_actions()[first])
            steps += 1
        assert steps == 7  # the seven other areas, one decision each, in both lines
        assert views(a, ["stark", "baratheon"]) == views(b, ["stark", "baratheon"])


@pytest.mark.parametrize("kind", [D.INFLUENCE_BID, D.WILDLING_BID, D.HOUSE_CARD])
def test_each_secret_sequence(kind):
    """One branch per secret sequence: the lowest and the highest legal choice."""
    e, rng = first_branch(kind, seed=5)
    legal = e.legal_actions()
    a, b = e.clone(), e.clone()
    still = same_sequence(a, b)
    a.step(legal[0])
    b.step(legal[-1])
    compare_branches(a, b, e.agent_selection, still, rng)


def test_a_house_with_one_card_left_is_still_asked():
    """A secret decision with one legal option is asked, not played silently
    (boardkit.frames.advance)."""
    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    play_to(e, rng, lambda d: d.secret and len(d.options) == 1)
    assert e.observe(e.agent_selection)["action_mask"].sum() == 1


def test_raven_look_does_not_show_the_card():
    """R10.4 / §10.4: only the Raven holder sees the top wildling card. Two branches differ only
    in that card; no other house that does not know the top sees a difference while the planning
    phase lasts."""
    e, rng = first_branch(D.RAVEN_USE, seed=7)
    a, b = e.clone(), e.clone()
    deck = b.game.wildling_deck
    k = int(np.flatnonzero(deck != deck[0])[0])
    deck[[0, k]] = deck[[k, 0]]
    holder = e.agent_selection
    knows = {e.ruleset.houses[h].id for h in range(e.ruleset.num_houses)
             if e.game.wildling_known_top[h] >= 0}
    look = e.codec.encode(("choice", got_env.engine.CHOICES.index("look-at-wildling-card")))
    if look not in e.legal_actions():
        pytest.skip("no look offered")
    for x in (a, b):
        x.step(look)
    others = [h for h in e.possible_agents if h != holder and h not in knows]
    round_ = e.game.round

    def planning(x):
        return x.game.round == round_ and x.game.phase == got_env.engine.Phase.PLANNING

    assert views(a, others) == views(b, others)
    assert views(a, [holder]) != views(b, [holder])  # the holder does see the card
    compare_branches(a, b, holder, planning, rng)


def test_tides_card_is_seen_by_its_drawer_only():
    """§24: each combatant sees only its own Tides card until both are revealed. Two branches
    differ in the defender's card; nobody but the defender sees a difference before the
    reveal."""
    e, rng = first_branch(D.HOUSE_CARD, seed=11, tides=True)
    combat = next(f for f in reversed(e.game.stack) if type(f) is CombatFrame)
    a, b = e.clone(), e.clone()
    deck = next(f for f in reversed(b.game.stack) if type(f) is CombatFrame).tides_deck
    rs = e.ruleset
    k = next(i for i in range(3, len(deck)) if rs.tides_cards[deck[i]] != rs.tides_cards[deck[1]])
    deck[1], deck[k] = deck[k], deck[1]
    defender = rs.houses[combat.defender].id

    def hidden(x):
        f = next((f for f in reversed(x.game.stack) if type(f) is CombatFrame), None)
        return f is not None and not f.tides_revealed

    compare_branches(a, b, defender, hidden, rng)
