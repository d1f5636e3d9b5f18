"""Determinization: one sample of the hidden information, as seen by one house (IS-MCTS).

:func:`determinize` returns a clone of a state in which every fact the given house does not
know is drawn again, consistently with what it knows, and everything it knows is kept as it is.
Search agents (``agents/ismcts.py``) search such samples instead of the true state, so that they
never use information the house could not have.

What is hidden is exactly what :mod:`got_env.encoding.observation` leaves out of the house's
observation (its module docstring lists it); each item is re-sampled here:

* **Other houses' orders before the reveal** (``state.orders`` while ``orders_revealed`` is
  False, in areas occupied by another house): the observation does not show them in
  those areas. Each such house gets a fresh legal placement in exactly the same areas: one
  token per area, each token once, no banned order type or banned special March, no more
  special tokens than its King's Court position allows (built with
  :func:`got_env.engine.planning.usable_tokens`, which applies these rules). A house that had
  to leave areas empty (R10.1.6: out of usable tokens) had placed as many tokens as it could;
  any legal placement of that many tokens uses them all up as well, so the sample stays a
  state the rules can reach. Uniformly: areas in random order, a uniformly drawn kind of
  usable token in each.
* **How the hidden choices are re-made** (orders, bids, cards): uniformly among the legal
  options by default, or by a ``model`` of the other houses (a policy ``(state, decision, rng)
  -> action``, e.g. the heuristic agent through ``agents.ismcts.ObservationPolicy``), asked the
  very decision the house was asked (a Planning placement, a bid, a house card) with that
  house's hidden values cleared from the sample first, so the model cannot echo the truth.
* **Committed secret bids** of other houses (a Clash of Kings frame while some house is still
  to bid on the current track, and a wildling attack in its bid stage): in 0..that house's
  available power (bids leave ``state.power`` only when revealed).
* **A house card chosen but not yet revealed** by another house (a combat frame in its cards
  stage): one of that house's hand. The chosen card still counts as in hand
  (``card_place`` becomes CHOSEN only at the reveal), so the hand *is* the set of cards it may
  have chosen, and ``card_place`` is left untouched (hands and discards are public).
* **Tides of Battle** (a combat frame with a ``tides_deck``): the order of the combat's Tides
  deck, and a card another house has drawn but not yet revealed (``tides_revealed`` False): that
  card and the deck are pooled and dealt again. The house's own drawn card is kept.
* **Westeros decks**: the undrawn part of each deck (``westeros_decks[d, westeros_drawn[d]:]``)
  is shuffled; drawn cards (public, including this phase's face-up cards) keep their places.
* **Wildling deck** (2nd edition only; the 1st has no wildling cards, 1e spec 5.4): shuffled,
  except the top card when the house knows it (Messenger Raven,
  ``wildling_known_top[house]`` equal to the top, or a Raven look it is deciding on right now)
  and the cards revealed by attacks still being resolved (at the bottom). Another house that
  knows the top card knows the new top card of the sample (``wildling_known_top`` only ever
  holds the current top or -1).
* **The generator**: ``state.rng`` is re-seeded from ``rng``, so that future chance (Westeros
  reshuffles, Tides decks) differs across samples; the true generator's state is itself hidden
  information (it decides future draws).

Never changed: the house's own orders, bids, cards and Tides card, everything revealed, units,
routed units, tracks, power, supply, power tokens, garrisons, hands and discard piles (public),
drawn Westeros cards, the pending decision as the house sees it. Hence
``ObservationEncoder.encode(determinize(s, h, rng), h) == ObservationEncoder.encode(s, h)``
(tests/test_determinize.py checks this along random games).

A sample is a function of the house's observation and ``rng`` alone (and of the model, when
one is given): whatever is re-drawn is first put in a canonical order (sorted) or cleared, so
two states that the house cannot tell apart give the same sample for the same ``rng``
(``determinize(determinize(s, h, a), h, b) == determinize(s, h, b)``). A search that reads the
game only through this function can therefore not depend on hidden information.

Readings: the sample is drawn from what the observation shows, not from the whole history a
player with perfect recall remembers (which wildling cards went to the bottom in earlier rounds,
bids revealed long ago); the engine's state does not keep that history. A Tides card discarded
by an opponent's Valyrian Steel Blade redraw is gone from the state and is not pooled.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from boardkit.decision import Decision

from .bidding import BiddingFrame
from .combat.frame import CombatFrame
from .combat.stages import CombatStage
from .decision import Action, DecisionKind
from .planning import PlanningFrame, usable_tokens
from .state import GameState
from .visibility import bids_revealed, card_visible, cards_revealed, orders_hidden, tides_visible
from .wildlings.attack import WildlingAttackFrame, WildlingStage

__all__ = ["Model", "determinize", "hidden_order_areas"]

Model = Callable[[GameState, Decision, np.random.Generator], Action]


def determinize(state: GameState, house: int, rng: np.random.Generator | int | None = None,
                model: Model | None = None) -> GameState:
    """A clone of ``state`` with everything ``house`` does not know drawn again from ``rng``.

    ``model``: how other houses' hidden *choices* (orders, bids, house cards) are made again: a
    policy ``(state, decision, rng) -> action`` asked the same decision the house was asked
    (its hidden values are cleared first, so the model never sees them); None: uniformly among
    the legal options. ``state`` itself is never changed. See the module docstring.
    """
    rng = np.random.default_rng(rng)
    s = state.clone()
    resampled_orders = _orders(s, house, rng, model)
    _bids(s, house, rng, model)
    _combat(s, house, rng, model)
    _westeros(s, rng)
    _wildlings(s, house, rng)
    s.rng = np.random.Generator(np.random.PCG64(int(rng.integers(2**63))))
    _refresh_pending(s, house, resampled_orders)
    return s


def _choose(s: GameState, decision: Decision, rng: np.random.Generator,
            model: Model | None) -> Action:
    """A legal option of ``decision``: the model's (asked with ``decision`` pending), else
    uniform."""
    if model is not None:
        saved, s.pending = s.pending, decision
        try:
            action = model(s, decision, rng)
        finally:
            s.pending = saved
        if action in decision:
            return action
    return decision.options[int(rng.integers(len(decision.options)))]


# -- orders -------------------------------------------------------------------------------------


def _owners(state: GameState, areas: np.ndarray) -> np.ndarray:
    """The occupant of each area (-1 if empty): the owner of an order placed there."""
    counts = state.units[areas].sum(axis=2)
    return np.where(counts.max(axis=1) > 0, counts.argmax(axis=1), -1)


def hidden_order_areas(state: GameState, house: int) -> dict[int, list[int]]:
    """Other house -> areas where it has a face-down order that ``house`` cannot see."""
    if not orders_hidden(state, house):
        return {}
    placed = np.flatnonzero(state.orders >= 0)
    out: dict[int, list[int]] = {}
    for a, h in zip(placed, _owners(state, placed), strict=True):
        if h >= 0 and h != house:
            out.setdefault(int(h), []).append(int(a))
    return out


def _orders(s: GameState, house: int, rng: np.random.Generator,
            model: Model | None) -> set[int]:
    """A fresh legal placement of every other house's hidden orders, in the same areas; the
    houses in turn order, all hidden orders cleared first. Uniform: areas in random order, a
    uniformly drawn kind of usable token in each; with a model: the model places one order at
    a time as in the Planning phase (D-20), offered the areas still to fill."""
    hidden = hidden_order_areas(s, house)
    old = s.orders.copy()
    for areas in hidden.values():
        s.orders[areas] = -1
    done = set()
    for h in s.turn_order():
        if h not in hidden:
            continue
        areas = hidden[h]
        left = list(rng.permutation(areas)) if model is None else sorted(areas)
        while left:
            tokens = usable_tokens(s, h)
            if not tokens:  # only a position built by hand can get here: keep the true one
                s.orders[areas] = old[areas]
                break
            if model is None:
                a, t = int(left[0]), tokens[int(rng.integers(len(tokens)))]
            else:
                d = Decision(h, DecisionKind.PLACE_ORDERS,
                             tuple(("order", a, t) for a in left for t in tokens),
                             context={"areas_left": len(left)}, secret=True)
                _, a, t = _choose(s, d, rng, model)
            s.orders[a] = t
            left.remove(a)
        else:
            done.add(h)
    return done


# -- bids, house cards, Tides of Battle ---------------------------------------------------------


def _bids(s: GameState, house: int, rng: np.random.Generator, model: Model | None) -> None:
    """Other houses' committed bids that are not yet revealed: 0..available power."""
    for f in s.stack:
        if type(f) is BiddingFrame and f.bids is not None:
            if bids_revealed(f, s.turn_order()):
                continue  # all have bid on this track: the bids are revealed
            kind, context = DecisionKind.INFLUENCE_BID, {"track": f.track}
        elif type(f) is WildlingAttackFrame:
            if f.stage is not WildlingStage.BID:
                continue
            kind, context = DecisionKind.WILDLING_BID, {"strength": f.strength}
        else:
            continue
        bids = f.bids
        redo = [h for h in s.turn_order() if h != house and bids[h] >= 0]
        for h in redo:
            bids[h] = -1
        for h in redo:
            d = Decision(h, kind, tuple(("bid", n) for n in range(int(s.power[h]) + 1)),
                         context=context, secret=True)
            bids[h] = int(_choose(s, d, rng, model)[1])


def _combat(s: GameState, house: int, rng: np.random.Generator, model: Model | None) -> None:
    """Another house's chosen, unrevealed house card; the Tides deck and unrevealed Tides cards
    (hidden as :mod:`~got_env.engine.visibility` says)."""
    for f in s.stack:
        if type(f) is not CombatFrame:
            continue
        if f.stage is CombatStage.CARDS and not cards_revealed(f):
            for side, card in list(f.cards.items()):
                if card is None or card_visible(f, side, house):
                    continue
                h = f.house(side)
                hand = s.hand(h)  # the chosen card is still in hand until the reveal
                if card not in hand:
                    hand.append(card)
                del f.cards[side]
                d = Decision(h, DecisionKind.HOUSE_CARD, tuple(("card", c) for c in hand),
                             context={"area": f.area, "attacker": f.attacker,
                                      "defender": f.defender}, secret=True)
                f.cards[side] = int(_choose(s, d, rng, model)[1])
        if f.tides_deck is not None:
            drawn = {} if f.tides is None else f.tides
            hidden = [side for side in drawn if not tides_visible(f, side, house)]
            pool = sorted(f.tides_deck + [drawn[side] for side in hidden])
            pool = [int(c) for c in rng.permutation(pool)] if pool else []
            for side in hidden:
                drawn[side] = pool.pop()
            f.tides_deck = pool


# -- decks --------------------------------------------------------------------------------------


def _westeros(s: GameState, rng: np.random.Generator) -> None:
    """The undrawn Westeros cards of each deck, shuffled."""
    for d in range(s.westeros_decks.shape[0]):
        k = int(s.westeros_drawn[d])
        s.westeros_decks[d, k:] = rng.permutation(np.sort(s.westeros_decks[d, k:]))


def _wildlings(s: GameState, house: int, rng: np.random.Generator) -> None:
    """The wildling deck, shuffled but for the cards ``house`` knows the place of (none to
    shuffle in the 1st edition, which has no wildling cards: 1e spec 5.4)."""
    deck = s.wildling_deck
    if not deck.size:
        return
    old_top = int(deck[0])
    fixed = np.zeros(len(deck), dtype=bool)
    looking = s.pending is not None and s.pending.kind == DecisionKind.RAVEN_LOOK \
        and s.pending.player == house
    if looking or s.wildling_known_top[house] == old_top:
        fixed[0] = True
    for f in s.stack:  # revealed by an attack still being resolved: face up, at the bottom
        if type(f) is WildlingAttackFrame and f.card is not None and f.card >= 0:
            fixed |= deck == f.card
    free = np.flatnonzero(~fixed)
    deck[free] = rng.permutation(np.sort(deck[free]))
    others = (np.arange(len(s.wildling_known_top)) != house) & (s.wildling_known_top >= 0)
    s.wildling_known_top[others] = deck[0]


def _refresh_pending(s: GameState, house: int, resampled_orders: set[int]) -> None:
    """Rebuild another house's pending decision whose options or context read re-sampled facts:
    its Planning placement (usable tokens) or its Raven look (the top wildling card)."""
    d = s.pending
    if d is None or d.player == house:
        return
    stale = (d.kind == DecisionKind.PLACE_ORDERS and d.player in resampled_orders) or \
        d.kind == DecisionKind.RAVEN_LOOK
    if stale and s.stack and type(s.stack[-1]) is PlanningFrame:
        s.pending = s.stack[-1].run(s)  # idempotent in the assign and look stages
