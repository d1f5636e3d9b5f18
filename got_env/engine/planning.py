"""Planning phase (rules spec §10; D-20 to D-23): secret orders, the reveal, the Messenger Raven.

Orders are asked of each house in turn order, one area at a time (``("order", area, token)``),
and kept hidden (``state.orders_revealed`` is False) until every house has placed its orders; the
order of asking never changes the outcome since no house sees another's orders before the reveal.

Readings recorded here:
* Order shortage (R10.1.6, DECISIONS Open point 8): a house places orders while it has an area
  without an order and a usable token; when its usable tokens run out, its remaining areas stay
  empty. Since it chooses which areas to fill first, it "places all usable tokens and leaves areas
  of its choice empty". Placement stays hidden, so asking in turn order changes nothing.
* Identical tokens (the two Defense +1, Support +0, Raid and Consolidate Power tokens) are offered
  once: only the first unused copy, so no two options mean the same play.
* Raven swap under a Westeros ban (AMBIG-7): the ban binds the swap, and so does the star limit.
  A swap for a token identical to the one already there (the other Defense +1, ...) changes
  nothing and is not offered.
* Raven look (§10.4, R23.5): a house that keeps the card on top knows the top card
  (``state.wildling_known_top``) until it is drawn. A card put on the bottom makes every house
  that knew it as the top card (the holder, or an earlier Raven holder) stop knowing the top.
* Consolidate Power only on land (``rules.consolidate_power_at_sea`` False, 1e spec 6.1): a CP
  token is not offered for a sea area, neither when placing nor for the Raven's swap (1e 6.3:
  "placement restrictions still apply"). A house whose areas left without an order are all at sea
  and whose usable tokens are all CP tokens places nothing more (as in an order shortage).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from boardkit.decision import Decision

from ..data import ORDER_TYPES, Ruleset
from .decision import Action, DecisionKind, choice
from .frames import GotFrame
from .state import KINGS_COURT, LAND, SPECIAL_MARCH_BAN, GameState


def house_tokens_on_board(state: GameState, house: int) -> dict[int, int]:
    """area -> order token of ``house`` on the board (orders lie only where units are, so the
    owner is the area's controller), by ascending area."""
    orders = state.orders.tolist()
    control = state.control_list()
    return {a: t for a, t in enumerate(orders) if t >= 0 and control[a] == house}


def star_limit(state: GameState, house: int) -> int:
    """Special orders allowed by the house's King's Court position (R10.1.3, facts §4.2)."""
    pos = state.track_position(KINGS_COURT, house)
    return state.ruleset.setups[state.num_players].kings_court_stars[pos]


def _token_table(ruleset: Ruleset) -> tuple[tuple[int, int, bool, bool, tuple], ...]:
    """Per order token: (index, ORDER_TYPES index, special, special March, identity kind);
    built once (``Ruleset.derived``)."""
    return ruleset.derived("token_table", lambda rs: tuple(
        (t.index, ORDER_TYPES.index(t.type), bool(t.special),
         bool(t.special and t.type == "march"), (t.type, t.bonus, t.special))
        for t in rs.order_tokens))


def _token_kinds(ruleset: Ruleset) -> tuple[tuple[int, bool, bool, tuple[int, ...]], ...]:
    """The order tokens grouped by identity kind (type, bonus, special), in the order of each
    kind's first token: (ORDER_TYPES index, special, special March, the kind's token indices
    ascending). Bans and the star limit are properties of the kind, so :func:`usable_tokens`
    decides once per kind instead of once per token (built once, ``Ruleset.derived``)."""
    def build(rs: Ruleset) -> tuple[tuple[int, bool, bool, tuple[int, ...]], ...]:
        kinds: dict[tuple, list] = {}
        for index, type_index, special, special_march, kind in _token_table(rs):
            kinds.setdefault(kind, [type_index, special, special_march, []])[3].append(index)
        return tuple((t, s, m, tuple(indices)) for t, s, m, indices in kinds.values())

    return ruleset.derived("token_kinds", build)


def usable_tokens(state: GameState, house: int, exclude_area: int | None = None,
                  used: set[int] | None = None) -> list[int]:
    """Unused tokens the house may still place (bans and star limit applied), one per kind of
    identical token. ``exclude_area``: count that area's token as returned (Raven swap).
    ``used``: the house's tokens on the board, when the caller has them already.

    The answer depends only on the ruleset, the tokens used, the star limit and the bans, so
    it is kept (:func:`_usable_memo`): asked at every order placement, it repeats across
    houses, rounds and games."""
    if used is None:
        on_board = house_tokens_on_board(state, house)
        if exclude_area is not None:
            on_board.pop(exclude_area, None)
        used = set(on_board.values())
    key = (frozenset(used), star_limit(state, house), state.order_bans.tobytes())
    memo = _usable_memo(state.ruleset)
    out = memo.get(key)
    if out is None:
        if len(memo) >= _USABLE_MEMO_SIZE:
            memo.clear()
        out = memo[key] = _usable(state.ruleset, used, key[1], state.order_bans.tolist())
    return list(out)


_USABLE_MEMO_SIZE = 1 << 14
# id(ruleset) -> (the ruleset, kept alive so that its id is not reused; its memo). Not in
# ``Ruleset.derived``: those tables travel with a pickled ruleset, and a memo need not.
_USABLE_MEMOS: dict[int, tuple[Ruleset, dict]] = {}


def _usable_memo(ruleset: Ruleset) -> dict:
    """The :func:`usable_tokens` answers of ``ruleset`` so far (emptied past
    ``_USABLE_MEMO_SIZE`` entries; every memo dropped past 8 rulesets, as tests build many)."""
    entry = _USABLE_MEMOS.get(id(ruleset))
    if entry is None or entry[0] is not ruleset:
        if len(_USABLE_MEMOS) >= 8:
            _USABLE_MEMOS.clear()
        entry = _USABLE_MEMOS[id(ruleset)] = (ruleset, {})
    return entry[1]


def _usable(ruleset: Ruleset, used: set[int], limit: int, bans: list[bool]) -> tuple[int, ...]:
    """:func:`usable_tokens` computed: ``limit`` is the star limit, ``bans`` the order bans."""
    table = _token_table(ruleset)
    stars_left = limit - sum(table[t][2] for t in used)
    out = []
    for type_index, special, special_march, indices in _token_kinds(ruleset):
        if bans[type_index]:
            continue
        if special and (stars_left <= 0 or (special_march and bans[SPECIAL_MARCH_BAN])):
            continue
        for index in indices:  # the first unused copy stands for the kind
            if index not in used:
                out.append(index)
                break
    out.sort()  # in token order, as one pass over the tokens gives them
    return tuple(out)


def may_place(state: GameState, area: int, token: int) -> bool:
    """Whether order ``token`` may lie in ``area`` (1e spec 6.1: Consolidate Power only on land,
    ``rules.consolidate_power_at_sea`` False; in 2e anywhere, R12.4.2)."""
    rs = state.ruleset
    return rs.rules.consolidate_power_at_sea or rs.kind[area] == LAND \
        or rs.order_tokens[token].type != "consolidate-power"


def placements(state: GameState, areas: list[int], tokens: list[int]) -> tuple[Action, ...]:
    """("order", area, token) for each of ``areas`` and each usable token that may lie there.
    (Here and in other option builders, ``tuple([...])``: a list comprehension, then one copy,
    costs half of what a generator expression fed to ``tuple`` does.)"""
    if state.ruleset.rules.consolidate_power_at_sea:
        return tuple([("order", a, t) for a in areas for t in tokens])
    return tuple([("order", a, t) for a in areas for t in tokens if may_place(state, a, t)])


def _placement(state: GameState, house: int) -> tuple[list[int], set[int]]:
    """(the house's areas with units and no order yet, R10.1.1-R10.1.2; the tokens it has
    placed), in one pass over the house's areas (``GameState.areas_occupied_by``, cached while
    units stay put, as they do all planning): asked at every order placement. (``item`` per
    area: a house holds a handful of areas, and listing all of ``orders`` costs more.)"""
    order_at = state.orders.item
    empty, used = [], set()
    for area in state.areas_occupied_by(house):
        token = order_at(area)
        if token < 0:
            empty.append(area)
        else:
            used.add(token)
    return empty, used


# ---------------------------------------------------------------------------------------------


class PlanningStage(enum.Enum):
    """Where the planning phase stands (§10). The values are what the digest hashes."""

    ASSIGN = "assign"  # houses place their orders in turn order (secret)
    RAVEN = "raven"  # the Messenger Raven holder's choice
    SWAP = "swap"  # ... to replace one of its orders
    LOOK = "look"  # ... to look at the top wildling card


@dataclass(slots=True)
class PlanningFrame(GotFrame):
    """The planning phase: its ``stage``, and ``turn`` (houses done placing) once the orders
    are being placed (both None before its first run)."""

    step: ClassVar[str] = "planning_phase"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"stage", "turn"})

    stage: PlanningStage | None = None
    turn: int | None = None

    def run(self, state: GameState) -> Decision | None:
        """The handler of the frame's stage (:data:`_RUN_STAGE`)."""
        if self.stage is None:
            self.stage = PlanningStage.ASSIGN
        return _RUN_STAGE[self.stage](state, self)

    def act(self, state: GameState, action: Action) -> None:
        """Play ``action`` with the handler of the stage that asked (:data:`_ACT_STAGE`)."""
        _ACT_STAGE[self.stage](state, self, action)


def _ask_orders(state: GameState, frame: PlanningFrame) -> Decision | None:
    """§10.1: each house in turn order places its orders (one secret decision)."""
    order = state.turn_order()
    if frame.turn is None:
        frame.turn = 0
    turn = frame.turn
    while turn < len(order):
        house = order[turn]
        areas, used = _placement(state, house)
        tokens = usable_tokens(state, house, used=used) if areas else []
        options = placements(state, areas, tokens) if areas and tokens else ()
        if options:
            return Decision(house, DecisionKind.PLACE_ORDERS, options,
                            context={"areas_left": len(areas)}, secret=True)
        turn += 1
        frame.turn = turn
    state.orders_revealed = True  # §10.2: all orders turn face up together
    frame.stage = PlanningStage.RAVEN
    return None


def _ask_raven(state: GameState, frame: PlanningFrame) -> Decision | None:
    if state.raven_used:
        return _end(state)
    raven = state.holder(KINGS_COURT)
    options = [choice("nothing")]
    if state.ruleset.rules.raven_looks_at_wildlings:  # 1e spec 6.3, A.6: it only swaps
        options.append(choice("look-at-wildling-card"))
    if _any_swap(state, raven):
        options.insert(1, choice("swap-order"))
    return Decision(raven, DecisionKind.RAVEN_USE, tuple(options))


def _ask_swap(state: GameState, frame: PlanningFrame) -> Decision:
    raven = state.holder(KINGS_COURT)
    return Decision(raven, DecisionKind.RAVEN_SWAP, tuple(_swaps(state, raven)))


def _ask_look(state: GameState, frame: PlanningFrame) -> Decision:
    top = int(state.wildling_deck[0])
    return Decision(state.holder(KINGS_COURT), DecisionKind.RAVEN_LOOK,
                    (choice("keep-on-top"), choice("put-on-bottom")),
                    context={"wildling_card": state.ruleset.wildling_cards[top].id})


def _swaps(state: GameState, house: int) -> list[Action]:
    """("order", area, token): replace the house's order in ``area`` with an unused token
    (§10.4; star limit and Westeros bans bind, AMBIG-7)."""
    return list(_swap_actions(state, house))


def _any_swap(state: GameState, house: int) -> bool:
    """Whether :func:`_swaps` is not empty (the Raven's first question stops at the first)."""
    return next(_swap_actions(state, house), None) is not None


def _swap_actions(state: GameState, house: int) -> Iterator[Action]:
    """The actions of :func:`_swaps`, in order, one at a time."""
    rs = state.ruleset
    on_board = house_tokens_on_board(state, house)
    used = set(on_board.values())
    for area, current in sorted(on_board.items()):
        now = rs.order_tokens[current]
        # as usable_tokens(state, house, exclude_area=area): each token lies in one area only
        for t in usable_tokens(state, house, used=used - {current}):
            new = rs.order_tokens[t]
            if (new.type, new.bonus, new.special) != (now.type, now.bonus, now.special) \
                    and may_place(state, area, t):  # an identical token would change nothing
                yield ("order", area, t)


def _end(state: GameState) -> None:
    state.order_bans[:] = False  # the Westeros restrictions applied to this planning phase only
    state.stack.pop()
    return None


def _act_order(state: GameState, frame: PlanningFrame, action: Action) -> None:
    _, area, token = action
    state.orders[area] = token


def _act_raven(state: GameState, frame: PlanningFrame, action: Action) -> None:
    if action == choice("nothing"):
        _end(state)
    elif action == choice("swap-order"):
        frame.stage = PlanningStage.SWAP
    else:
        frame.stage = PlanningStage.LOOK


def _act_swap(state: GameState, frame: PlanningFrame, action: Action) -> None:
    _act_order(state, frame, action)
    state.raven_used = True
    _end(state)


def _act_look(state: GameState, frame: PlanningFrame, action: Action) -> None:
    raven = state.holder(KINGS_COURT)
    state.raven_used = True
    top = int(state.wildling_deck[0])
    state.wildling_known_top[raven] = top
    if action == choice("put-on-bottom"):
        state.wildling_deck = np.roll(state.wildling_deck, -1)
        # Nobody knows the new top: the holder saw the buried card, and so may a house that
        # saw it on top earlier (it knows where that card went, not what is now on top).
        state.wildling_known_top[state.wildling_known_top == top] = -1
    _end(state)


#: What runs at each stage of the planning phase (in order).
_RUN_STAGE: dict[PlanningStage, Callable[[GameState, PlanningFrame], Decision | None]] = {
    PlanningStage.ASSIGN: _ask_orders,
    PlanningStage.RAVEN: _ask_raven,
    PlanningStage.SWAP: _ask_swap,
    PlanningStage.LOOK: _ask_look,
}
#: Who plays the answer to a stage's decision.
_ACT_STAGE: dict[PlanningStage, Callable[[GameState, PlanningFrame, Action], None]] = {
    PlanningStage.ASSIGN: _act_order,
    PlanningStage.RAVEN: _act_raven,
    PlanningStage.SWAP: _act_swap,
    PlanningStage.LOOK: _act_look,
}
