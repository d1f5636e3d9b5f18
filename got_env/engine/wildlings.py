"""Wildling attacks (rules spec §20.2, facts §4.6 and §9), the 9 wildling cards, and the 1st
edition's fixed reward and penalty (``rules.wildlings == "fixed"``, 1e spec 5.4, A.5).

Steps:

* ``wildling_attack`` (frame ``strength``, ``exclude``): every house in play and not excluded bids
  in secret, in turn order (D-08); Night's Watch strength is the sum of the bids and wins if it is
  at least ``strength`` (§20.2 items 2-4). The highest bidder (Night's Watch win) or the lowest
  (wildling win) is found, ties broken by the Iron Throne holder (D-09, §9.3). The top wildling
  card is revealed and resolved through :data:`WILDLING_EFFECTS`: the highest bidder's reward, or
  the lowest bidder's penalty first and then every other bidder's, in turn order (errata, facts
  §9). Then the threat token moves (facts §4.6) and the attack ends.
* ``wildling_choice`` (frame ``kind``, ``player``, ``house``, ``left``, ...): every choice a card
  asks (D-10 to D-19), one parametrised mechanism: :data:`CHOICES` gives each decision kind its
  options and what one pick does; ``left`` counts the picks still due (``("done",)`` ends early).
* 1st edition (``rules.wildlings == "fixed"``, 1e spec 5.4): the same bids, sum and tie-break, but
  no card: the highest bidder may take one used house card back into hand (D-18's choice), or
  every bidder removes units worth 2 mustering points, the lowest bidder 4, in turn order (D-12's
  choice, frame key ``points``: ``left`` then counts points, not units). Then the threat goes to 0
  (tracks.yaml: ``after_wildling_victory_drop`` 12).

Readings recorded here:

* Order of the consequences (AMBIG-17): bids leave the bidders' available power when they are
  revealed (they lie on the table, which the state counts as Power Pool, so "discarded to the
  Pool" needs nothing more); then the card is resolved; then the threat token moves. So Preemptive
  Raid's new attack is bid with the power left after the first bids, Skinchanger Scout's reward
  gives back the bid itself, and its penalties take only power still available.
* The revealed card goes to the bottom of the deck as soon as it is revealed (the deck array has
  no place for a card being resolved). A new attack started by Preemptive Raid thus reveals the
  next card, never the Preemptive Raid being resolved. Knowledge of the old top card from the
  Messenger Raven (``wildling_known_top``) is cleared: that card is now face up.
* Threat token (facts §4.6, AMBIG-16): a Night's Watch win sets it to 0, a wildling win moves it
  back 2 spaces (-4 strength, not below 0) from where it stands. In an attack started by the
  threat or a Wildlings Attack card the token stands at the attack's strength. After Preemptive
  Raid's Night's Watch result the token ends on 0 whatever the new attack does, since the first
  attack moves the token after its card.
* "Every other house" are the bidders other than the lowest, in the turn order of the moment the
  card is revealed (A King Beyond the Wall moves the lowest bidder but never changes the others'
  relative order).
* Crow Killers' penalties (D-14, DECISIONS Open point 7: the affected house chooses): he picks
  his Knights one at a time; each is replaced while an unused Footman is left, destroyed after.
* Ties are broken by the Iron Throne holder even when he takes no part in the attack (§9.3;
  Preemptive Raid's new attack).
* Choices that cannot change the result are not asked: a house that must destroy or replace as
  many units as it has, or replace all its Knights with Footmen enough (or none) for all.
* Massing on the Milkwater, lowest bidder: the literal reading (facts §12 D9, wildling_cards.yaml):
  all cards of the highest printed strength, even if that is every card in hand. A hand emptied
  that way is refilled as after a house's 7th card (R15.3.6): the cards just discarded stay in the
  discard pile and the others come back, so that a house always holds a card to fight with.
* Preemptive Raid, lowest bidder: D-10 offers both penalties whatever his units and positions; a
  drop of 2 on a track stops at its last position. The highest track is the one where his position
  is nearest to 1; if several, the Iron Throne holder picks among them (D-11, facts §12 D9).
* The Horde Descends, highest bidder (D-19): only his Castle/Stronghold areas where normal
  mustering can place something are offered (as the mustering step itself does); the chosen area
  is mustered through the ``mustering`` step with that one area.
* The Horde Descends, lowest bidder (facts §12 D9): if one of his Castle/Stronghold areas holds 2
  or more of his units, he destroys 2 in one such area; otherwise 2 anywhere.
* Units destroyed by a wildling card never leave a power token behind (R13.1.4): control of the
  emptied area follows from what is left there (a power token already lying there, a home shield,
  or nobody).

Readings recorded here for the 1st edition (1e spec 5.4, A.5; the lead copies them to
docs/rules-readings.md):

* The 1e decisions reuse the 2e kinds with the same shape: the bids are D-08, the tie for the
  highest or lowest bidder D-09 (asked of the Iron Throne holder, 1e 5.4 items 4-5, reading C.12),
  the Night's Watch reward D-18 (one discarded card of the highest bidder back to his hand, or
  ``("done",)``; not asked when he has no discard), the losses D-12 (one own unit at a time,
  ``("unit", area, type)``).
* Losses are counted in mustering points (1e 5.4 item 5: footman 1, knight 2, ship 1, the
  mustering costs, engine/mustering.py COSTS); every bidder pays in turn order, the lowest bidder
  in his place in that order (not first, as the 2e errata has it for the cards).
* A house pays the smallest total of at least what it owes that its units can make (reading C.10:
  the smallest overshoot); with fewer points on the board than owed it loses every unit. Each
  pick offers only the units after whose removal that total can still be made exactly, so a house
  can never overpay by picking badly (with only knights left while 1 point is owed, say). A knight
  is removed whole, never downgraded to a footman (1e 5.4 item 5). When every unit left must go,
  they go without asking.
* No power token is ever placed in an area these losses empty (1e 5.4 item 5): destroying a unit
  places nothing, and control follows from what is left there (as for the 2e cards above).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..data import UNIT_TYPES
from .board import destroy_unit, unused_units
from .decision import DONE, Action, Decision, DecisionKind, choice
from .flow import pop, push, step
from .frames import MISSING, WildlingAttackFrame, WildlingStage, typed
from .mustering import COSTS, can_muster, mustering_areas
from .state import FIEFDOMS, FOOTMAN, IRON_THRONE, KINGS_COURT, KNIGHT, CardPlace, GameState
from .tracks import move_down, move_to_bottom, move_to_top

TRACK_IDS = (IRON_THRONE, FIEFDOMS, KINGS_COURT)
ALL_UNIT_TYPES = tuple(range(len(UNIT_TYPES)))
PREEMPTIVE_RAID_STRENGTH = 6  # facts §9, §4.6
PREEMPTIVE_RAID_DROP = 2  # positions on the track, facts §9


class Role(enum.IntEnum):
    """Which part of a wildling card a house resolves (§20.2 consequences item 2)."""

    REWARD = 0  # Night's Watch victory: the highest bidder
    LOWEST = 1  # wildling victory: the lowest bidder
    OTHERS = 2  # wildling victory: every other bidder


# =============================================================================================
# The attack (§20.2)


def bidders(state: GameState, frame: WildlingAttackFrame) -> list[int]:
    """Houses taking part in this attack, in turn order (D-08: all but ``exclude``)."""
    return [h for h in state.turn_order() if h not in frame.exclude]


def _next_bidder(state: GameState, frame: WildlingAttackFrame) -> int | None:
    """The first house in turn order that has not yet bid, or None once all have."""
    return next((h for h in bidders(state, frame) if frame.bids[h] < 0), None)


def _start(state: GameState, frame: WildlingAttackFrame) -> None:
    """Fill the attack's own locals on its first run (whoever pushed it gave only its inputs)."""
    frame.bids = [-1] * state.ruleset.num_houses
    frame.stage = WildlingStage.BID
    frame.won = False
    frame.chosen = -1
    frame.tied = []
    frame.card = -1
    frame.queue = []


def _reveal_bids(state: GameState, frame: WildlingAttackFrame) -> None:
    """§20.2 items 2-4: bids revealed and taken out of available power; the outcome; the highest
    or lowest bidder, or the tie the Iron Throne holder breaks (§9.3)."""
    houses = bidders(state, frame)
    bids = frame.bids
    for h in houses:
        state.power[h] -= bids[h]
    frame.won = sum(bids[h] for h in houses) >= frame.strength
    best = (max if frame.won else min)(bids[h] for h in houses)
    tied = [h for h in houses if bids[h] == best]
    frame.tied = tied
    if len(tied) == 1:
        frame.chosen = tied[0]
    frame.stage = WildlingStage.CARD if len(tied) == 1 else WildlingStage.TIE


def _reveal_card(state: GameState, frame: WildlingAttackFrame) -> None:
    """Consequences items 1 and 3: the top card is revealed and goes to the bottom; queue who
    resolves what (the lowest bidder first, then the others in turn order: errata, facts §9)."""
    card = int(state.wildling_deck[0])
    state.wildling_deck = np.roll(state.wildling_deck, -1)
    state.wildling_known_top[state.wildling_known_top == card] = -1
    frame.card = card
    chosen = frame.chosen
    if frame.won:
        frame.queue = [[int(Role.REWARD), chosen]]
    else:
        others = [[int(Role.OTHERS), h] for h in bidders(state, frame) if h != chosen]
        frame.queue = [[int(Role.LOWEST), chosen]] + others
    frame.stage = WildlingStage.EFFECTS


def _queue_fixed_consequences(state: GameState, frame: WildlingAttackFrame) -> None:
    """1e 5.4 items 4-5 (no wildling card): the highest bidder's reward, or every bidder's losses
    in turn order, the lowest bidder's among them."""
    chosen = frame.chosen
    if frame.won:
        frame.queue = [[int(Role.REWARD), chosen]]
    else:
        frame.queue = [[int(Role.LOWEST if h == chosen else Role.OTHERS), h]
                          for h in bidders(state, frame)]
    frame.stage = WildlingStage.EFFECTS


def _effects(state: GameState, frame: WildlingAttackFrame) -> CardEffects:
    """What each role does: the revealed card's parts, or the 1e fixed ones (1e 5.4)."""
    if state.ruleset.rules.wildlings == "fixed":
        return FIXED_EFFECTS
    return WILDLING_EFFECTS[state.ruleset.wildling_cards[frame.card].id]


def _resolve_next(state: GameState, frame: WildlingAttackFrame) -> None:
    """Consequences item 2: one house's part of the card (which may push its choices); once the
    queue is empty, the card's closing effect after a wildling victory."""
    effects = _effects(state, frame)
    if frame.queue:
        role, house = frame.queue.pop(0)
        (effects.reward, effects.lowest, effects.others)[role](state, house, frame)
        return
    frame.stage = WildlingStage.THREAT
    if not frame.won and effects.after_penalties is not None:
        effects.after_penalties(state, -1, frame)


def _move_threat(state: GameState, frame: WildlingAttackFrame) -> None:
    """§20.2 item 5, facts §4.6: Night's Watch win -> 0; wildling win -> 2 spaces back (-4)."""
    rule = state.ruleset.wildling_threat
    if frame.won:
        state.wildling_threat = rule["after_nights_watch_victory"]
    else:
        state.wildling_threat = max(0, state.wildling_threat - rule["after_wildling_victory_drop"])


def act_attack(state: GameState, frame: WildlingAttackFrame | dict, action: Action) -> None:
    """D-08: record the bid in the frame only (secret); D-09: the tied house picked."""
    if type(frame) is dict:  # a position built from dicts with its decision already pending
        frame = typed(state.stack)
    if frame.stage is WildlingStage.BID:
        frame.bids[_next_bidder(state, frame)] = action[1]
    else:
        frame.chosen = action[1]
        frame.stage = WildlingStage.CARD


@step("wildling_attack", act=act_attack)
def run_attack(state: GameState, frame: WildlingAttackFrame | dict) -> Decision | None:
    """A wildling attack of ``frame.strength`` (§20.2), without the houses in ``exclude``: the
    handler of its stage (:data:`_RUN_STAGE`). A frame built as a dict (scenarios) is first made
    typed in place, and the loop comes back."""
    if type(frame) is dict:
        typed(state.stack)
        return None
    if frame.stage is MISSING:
        _start(state, frame)
    return _RUN_STAGE[frame.stage](state, frame)


def _ask_bid(state: GameState, frame: WildlingAttackFrame) -> Decision | None:
    h = _next_bidder(state, frame)
    if h is not None:
        return Decision(h, DecisionKind.WILDLING_BID,
                        tuple([("bid", n) for n in range(int(state.power[h]) + 1)]),
                        {"strength": frame.strength}, secret=True)
    _reveal_bids(state, frame)
    return None


def _ask_tie(state: GameState, frame: WildlingAttackFrame) -> Decision:
    return Decision(state.holder(IRON_THRONE), DecisionKind.WILDLING_TIED_BIDDER,
                    tuple(("house", h) for h in frame.tied),
                    {"highest": frame.won, "bids": list(frame.bids)})


def _card(state: GameState, frame: WildlingAttackFrame) -> None:
    """The top card revealed, or (1e, no wildling cards) the fixed consequences queued."""
    if state.ruleset.rules.wildlings == "fixed":
        _queue_fixed_consequences(state, frame)
    else:
        _reveal_card(state, frame)


def _end_attack(state: GameState, frame: WildlingAttackFrame) -> None:
    _move_threat(state, frame)
    pop(state)


#: What runs at each stage of a wildling attack (in order).
_RUN_STAGE: dict[WildlingStage, Callable[[GameState, WildlingAttackFrame], Decision | None]] = {
    WildlingStage.BID: _ask_bid,
    WildlingStage.TIE: _ask_tie,
    WildlingStage.CARD: _card,
    WildlingStage.EFFECTS: _resolve_next,
    WildlingStage.THREAT: _end_attack,
}


# =============================================================================================
# Choices asked by the cards (D-10 to D-19): one step, one table


@dataclass(frozen=True)
class ChoiceSpec:
    """How one kind of card choice is asked: ``options(state, frame)`` (empty: nothing left to
    choose, the choice ends), ``pick(state, frame, action)`` plays one option other than
    ``("done",)``, and ``settle(state, frame)`` optionally resolves at once what no choice can
    change (it sets ``frame["left"]`` to 0 when it does)."""

    options: Callable[[GameState, dict], tuple[Action, ...]]
    pick: Callable[[GameState, dict, Action], None]
    settle: Callable[[GameState, dict], None] | None = None
    cost: Callable[[Action], int] | None = None  # how much of ``left`` one pick uses (default 1)


def ask(state: GameState, kind: DecisionKind, house: int, left: int = 1,
        player: int | None = None, **extra) -> None:
    """Push a card choice of ``kind`` about ``house`` (asked of ``player``, default ``house``),
    ``left`` picks at most."""
    push(state, "wildling_choice", kind=int(kind), house=house, left=left,
         player=house if player is None else player, **extra)


def act_choice(state: GameState, frame: dict, action: Action) -> None:
    if action == DONE:
        frame["left"] = 0
        return
    spec = choice_spec(frame)
    spec.pick(state, frame, action)
    frame["left"] -= 1 if spec.cost is None else spec.cost(action)


def choice_spec(frame: dict) -> ChoiceSpec:
    """How the frame's choice is asked: its kind's entry, or the 1e losses in mustering points
    (frame key ``points``, 1e 5.4 item 5)."""
    return POINT_LOSSES if frame.get("points") else CHOICES[DecisionKind(frame["kind"])]


@step("wildling_choice", act=act_choice)
def run_choice(state: GameState, frame: dict) -> Decision | None:
    """Ask the next pick of a card choice, or end it (D-10 to D-19)."""
    kind = DecisionKind(frame["kind"])
    spec = choice_spec(frame)
    if frame["left"] > 0 and spec.settle is not None:
        spec.settle(state, frame)
    options = spec.options(state, frame) if frame["left"] > 0 else ()
    if not options:
        pop(state)
        return None
    return Decision(frame["player"], kind, options, {"house": frame["house"],
                                                     "left": frame["left"]})


def _optional(options: tuple[Action, ...]) -> tuple[Action, ...]:
    """A "may" choice: the options plus ``("done",)``, or nothing when there is no option."""
    return options + (DONE,) if options else ()


# -- units ------------------------------------------------------------------------------------


def _own_units(state: GameState, house: int, types: tuple[int, ...],
               areas: list[int] | None = None) -> tuple[Action, ...]:
    """("unit", area, type) for each of ``types`` the house has in ``areas`` (None: anywhere)."""
    where = range(state.ruleset.num_areas) if areas is None else sorted(areas)
    units = state.units[:, house, :].tolist()  # one conversion, not a numpy read per unit
    return tuple(("unit", int(a), u) for a in where for u in types if units[a][u])


def _destroy_options(state: GameState, frame: dict) -> tuple[Action, ...]:
    """D-12: one own unit in the allowed areas."""
    return _own_units(state, frame["house"], ALL_UNIT_TYPES, frame["areas"])


def _destroy_pick(state: GameState, frame: dict, action: Action) -> None:
    """Destroy the unit (§3; no power token is left, R13.1.4); ``same_area``: the next ones must
    come from that area too (The Horde Descends)."""
    _, area, unit_type = action
    destroy_unit(state, area, frame["house"], unit_type)
    if frame["same_area"]:
        frame["areas"] = [area]


def _destroy_settle(state: GameState, frame: dict) -> None:
    """All the allowed units must go anyway: destroy them without asking."""
    options = _destroy_options(state, frame)
    areas = {a for _, a, _ in options}
    count = sum(int(state.units[a, frame["house"], u]) for _, a, u in options)
    if count <= frame["left"] and (len(areas) <= 1 or not frame["same_area"]):
        for _, a, u in options:
            while state.units[a, frame["house"], u]:
                destroy_unit(state, a, frame["house"], u)
        frame["left"] = 0


def _replace_unit(state: GameState, area: int, house: int, old: int, new: int) -> None:
    """One unit of type ``old`` becomes an unused unit of type ``new`` (its old one to the box)."""
    state.units[area, house, old] -= 1
    state.units[area, house, new] += 1
    state.routed[area, house, old] = min(state.routed[area, house, old],
                                         state.units[area, house, old])


def _upgrade_options(state: GameState, frame: dict) -> tuple[Action, ...]:
    """D-13: a Footman anywhere, while an unused Knight is left; or done."""
    if unused_units(state, frame["house"], KNIGHT) <= 0:
        return ()
    return _optional(_own_units(state, frame["house"], (FOOTMAN,)))


def _upgrade_pick(state: GameState, frame: dict, action: Action) -> None:
    _replace_unit(state, action[1], frame["house"], FOOTMAN, KNIGHT)


def _knight_options(state: GameState, frame: dict) -> tuple[Action, ...]:
    """D-14: one own Knight, to be replaced by an unused Footman, or destroyed if none is left."""
    return _own_units(state, frame["house"], (KNIGHT,))


def _knight_pick(state: GameState, frame: dict, action: Action) -> None:
    _, area, _ = action
    if unused_units(state, frame["house"], FOOTMAN) > 0:
        _replace_unit(state, area, frame["house"], KNIGHT, FOOTMAN)
    else:
        destroy_unit(state, area, frame["house"], KNIGHT)


def _knight_settle(state: GameState, frame: dict) -> None:
    """Every Knight is affected and Footmen are enough for all, or for none: no choice left."""
    h = frame["house"]
    knights = int(state.units[:, h, KNIGHT].sum())
    footmen = unused_units(state, h, FOOTMAN)
    if frame["left"] >= knights and (footmen >= knights or footmen <= 0):
        for _, a, _ in _knight_options(state, frame):
            while state.units[a, h, KNIGHT]:
                _knight_pick(state, frame, ("unit", a, KNIGHT))
        frame["left"] = 0


# -- 1e losses in mustering points (1e 5.4 item 5, reading C.10) -----------------------------


def _unit_values(state: GameState, house: int) -> list[int]:
    """The mustering-point worth of each of the house's units on the board (1e 5.4 item 5)."""
    counts = state.units[:, house, :].sum(axis=0).tolist()
    return [COSTS[u] for u in ALL_UNIT_TYPES for _ in range(counts[u])]


def _payable(values: list[int]) -> set[int]:
    """Every total that some of these units make together (0 included)."""
    totals = {0}
    for v in values:
        totals |= {t + v for t in totals}
    return totals


def loss_total(state: GameState, house: int, owed: int) -> int:
    """Points the house actually removes when it owes ``owed`` (reading C.10): the smallest total
    of at least ``owed`` its units can make, or all its units when they are worth less."""
    values = _unit_values(state, house)
    if sum(values) <= owed:
        return sum(values)
    return min(t for t in _payable(values) if t >= owed)


def _point_loss_options(state: GameState, frame: dict) -> tuple[Action, ...]:
    """D-12 in points: each own unit worth no more than is left to pay and after whose removal
    the rest can still be paid exactly."""
    house, left = frame["house"], frame["left"]
    values = _unit_values(state, house)
    allowed = set()
    for v in set(values):
        rest = list(values)
        rest.remove(v)
        if v <= left and left - v in _payable(rest):
            allowed.add(v)
    return tuple(a for a in _own_units(state, house, ALL_UNIT_TYPES) if COSTS[a[2]] in allowed)


def _point_loss_pick(state: GameState, frame: dict, action: Action) -> None:
    """Remove the unit whole (no knight is downgraded; no power token is left, 1e 5.4 item 5)."""
    _, area, unit_type = action
    destroy_unit(state, area, frame["house"], unit_type)


def _point_loss_settle(state: GameState, frame: dict) -> None:
    """Every unit left must go: remove them all without asking."""
    house = frame["house"]
    if sum(_unit_values(state, house)) > frame["left"]:
        return
    for _, a, u in _own_units(state, house, ALL_UNIT_TYPES):
        while state.units[a, house, u]:
            destroy_unit(state, a, house, u)
    frame["left"] = 0


POINT_LOSSES = ChoiceSpec(_point_loss_options, _point_loss_pick, _point_loss_settle,
                          cost=lambda action: COSTS[action[2]])


# -- cards in hand ----------------------------------------------------------------------------


def _massing_options(state: GameState, frame: dict) -> tuple[Action, ...]:
    """D-15: one card in hand, if the house holds 2 or more."""
    hand = state.hand(frame["house"])
    return tuple(("card", c) for c in hand) if len(hand) >= 2 else ()


def _to_discard(state: GameState, frame: dict, action: Action) -> None:
    state.card_place[action[1]] = CardPlace.DISCARD


def _retrieve_options(state: GameState, frame: dict) -> tuple[Action, ...]:
    """D-18: one card of the discard pile, or none."""
    return _optional(tuple(("card", c) for c in state.discards(frame["house"])))


def _to_hand(state: GameState, frame: dict, action: Action) -> None:
    state.card_place[action[1]] = CardPlace.HAND


# -- tracks -----------------------------------------------------------------------------------


def _tracks(*tracks: int) -> Callable[[GameState, dict], tuple[Action, ...]]:
    """Options ("track", t) for fixed tracks (D-16, D-17)."""
    return lambda state, frame: tuple(("track", t) for t in tracks)


def _frame_tracks(state: GameState, frame: dict) -> tuple[Action, ...]:
    """D-11: the tracks listed in the frame (where the house stands equally high)."""
    return tuple(("track", t) for t in frame["tracks"])


def _on_track(move: Callable[[GameState, int, int], None]) -> Callable[..., None]:
    """A pick ("track", t) that moves the house on t with ``move(state, t, house)``."""
    return lambda state, frame, action: move(state, action[1], frame["house"])


def _drop(state: GameState, track: int, house: int) -> None:
    move_down(state, track, house, PREEMPTIVE_RAID_DROP)


def highest_tracks(state: GameState, house: int) -> list[int]:
    """The influence tracks where ``house`` stands highest (nearest to position 1)."""
    pos = [state.track_position(t, house) for t in TRACK_IDS]
    return [t for t, p in zip(TRACK_IDS, pos, strict=True) if p == min(pos)]


# -- the rest ---------------------------------------------------------------------------------


def _penalty_pick(state: GameState, frame: dict, action: Action) -> None:
    """D-10: destroy 2 units (-> D-12) or drop 2 places on his highest track (-> D-11, asked of
    the Iron Throne holder, facts §12 D9)."""
    h = frame["house"]
    if action == choice("destroy-units"):
        ask(state, DecisionKind.WILDLING_DESTROY_UNITS, h, left=2, areas=None, same_area=False)
    else:
        ask(state, DecisionKind.PREEMPTIVE_RAID_TRACK, h, player=state.holder(IRON_THRONE),
            tracks=highest_tracks(state, h))


def _muster_options(state: GameState, frame: dict) -> tuple[Action, ...]:
    """D-19: one own Castle/Stronghold area where mustering can place something (R8), or
    none."""
    h, points = frame["house"], state.ruleset.fort_level
    return _optional(tuple(("area", a) for a in mustering_areas(state, h)
                           if can_muster(state, h, a, int(points[a]))))


def _muster_pick(state: GameState, frame: dict, action: Action) -> None:
    """Normal mustering (R8), in that one area only."""
    push(state, "mustering", houses=[frame["house"]], areas=[action[1]])


K = DecisionKind
CHOICES: dict[DecisionKind, ChoiceSpec] = {
    K.PREEMPTIVE_RAID_PENALTY: ChoiceSpec(
        lambda state, frame: (choice("destroy-units"), choice("drop-on-track")), _penalty_pick),
    K.PREEMPTIVE_RAID_TRACK: ChoiceSpec(_frame_tracks, _on_track(_drop)),
    K.WILDLING_DESTROY_UNITS: ChoiceSpec(_destroy_options, _destroy_pick, _destroy_settle),
    K.CROW_KILLERS_UPGRADE: ChoiceSpec(_upgrade_options, _upgrade_pick),
    K.CROW_KILLERS_REPLACE: ChoiceSpec(_knight_options, _knight_pick, _knight_settle),
    K.MASSING_DISCARD: ChoiceSpec(_massing_options, _to_discard),
    K.KING_BEYOND_THE_WALL_TOP: ChoiceSpec(_tracks(*TRACK_IDS), _on_track(move_to_top)),
    K.KING_BEYOND_THE_WALL_BOTTOM: ChoiceSpec(_tracks(FIEFDOMS, KINGS_COURT),
                                              _on_track(move_to_bottom)),
    K.MAMMOTH_RIDERS_RETRIEVE: ChoiceSpec(_retrieve_options, _to_hand),
    K.HORDE_DESCENDS_MUSTER: ChoiceSpec(_muster_options, _muster_pick),
}


# =============================================================================================
# The wildling cards (facts §9): one small effect per card part, one table by card id

Effect = Callable[[GameState, int, dict], None]  # (state, house, the attack's frame)


@dataclass(frozen=True)
class CardEffects:
    """One wildling card: the highest bidder's reward, the lowest bidder's and every other
    bidder's penalties, and what follows all penalties (wildling victory only)."""

    reward: Effect
    lowest: Effect
    others: Effect
    after_penalties: Effect | None = None


def nothing(state: GameState, house: int, attack: dict) -> None:
    """Nothing happens (Silence at the Wall; Preemptive Raid's other houses)."""


def asks(kind: DecisionKind, left: int = 1, **extra) -> Effect:
    """The effect that asks ``house`` a card choice of ``kind`` (up to ``left`` picks)."""
    return lambda state, house, attack: ask(state, kind, house, left=left, **extra)


def destroys(n: int) -> Effect:
    """Destroys ``n`` of his units anywhere, all if fewer (D-12)."""
    return asks(K.WILDLING_DESTROY_UNITS, left=n, areas=None, same_area=False)


def destroys_in_own_castle(n: int) -> Effect:
    """The Horde Descends, lowest bidder: ``n`` units in one own Castle/Stronghold area holding
    ``n`` or more of them; if no such area, ``n`` anywhere (facts §12 D9)."""

    def effect(state: GameState, house: int, attack: dict) -> None:
        areas = [a for a in mustering_areas(state, house) if state.units[a, house].sum() >= n]
        ask(state, K.WILDLING_DESTROY_UNITS, house, left=n, areas=areas or None,
            same_area=bool(areas))

    return effect


def knights_to_footmen(n: int | None) -> Effect:
    """Crow Killers' penalty: ``n`` of his Knights (None: all) each replaced by an unused
    Footman, destroyed if none is left (D-14)."""

    def effect(state: GameState, house: int, attack: dict) -> None:
        knights = int(state.units[:, house, KNIGHT].sum())
        ask(state, K.CROW_KILLERS_REPLACE, house, left=knights if n is None else min(n, knights))

    return effect


def supply_moves(steps: int) -> Effect:
    """Rattleshirt's Raiders: ``steps`` spaces on the supply track, kept within 0..6."""

    def effect(state: GameState, house: int, attack: dict) -> None:
        top = len(state.ruleset.supply_limits) - 1
        state.supply[house] = min(top, max(0, int(state.supply[house]) + steps))

    return effect


def everyone_reconciles(state: GameState, house: int, attack: dict) -> None:
    """Rattleshirt's Raiders: "then all houses reconcile armies" (R7.4, D-04)."""
    push(state, "reconcile", houses=state.turn_order())


def loses_power(n: int | None) -> Effect:
    """Skinchanger Scout's penalty: ``n`` available power tokens (None: all) to the Pool."""

    def effect(state: GameState, house: int, attack: dict) -> None:
        state.power[house] -= state.power[house] if n is None else min(n, state.power[house])

    return effect


def gets_bid_back(state: GameState, house: int, attack: dict) -> None:
    """Skinchanger Scout's reward: the power he bid in this attack comes back."""
    state.power[house] += attack["bids"][house]


def takes_back_discards(state: GameState, house: int, attack: dict) -> None:
    """Massing on the Milkwater's reward: his whole discard pile back into his hand."""
    for c in state.discards(house):
        state.card_place[c] = CardPlace.HAND


def discards_strongest(state: GameState, house: int, attack: dict) -> None:
    """Massing on the Milkwater's lowest bidder: with 2+ cards in hand, every card of the highest
    printed strength in hand is discarded (literal reading, facts §12 D9); an emptied hand is
    refilled as in R15.3.6 (the cards just discarded stay out)."""
    hand = state.hand(house)
    if len(hand) < 2:
        return
    cards = state.ruleset.house_cards
    top = max(cards[c].strength for c in hand)
    gone = [c for c in hand if cards[c].strength == top]
    for c in gone:
        state.card_place[c] = CardPlace.DISCARD
    if len(gone) == len(hand):
        for c in state.discards(house):
            if c not in gone:
                state.card_place[c] = CardPlace.HAND


def bottom_of_every_track(state: GameState, house: int, attack: dict) -> None:
    """A King Beyond the Wall's lowest bidder: the last position of all three tracks (R21.1)."""
    for t in TRACK_IDS:
        move_to_bottom(state, t, house)


def new_attack_without_him(state: GameState, house: int, attack: dict) -> None:
    """Preemptive Raid's reward: a new attack of strength 6 at once, in which the highest bidder
    takes no part (nor anyone excluded from this one)."""
    push(state, "wildling_attack", strength=PREEMPTIVE_RAID_STRENGTH,
         exclude=list(attack["exclude"]) + [house])


def loses_worth(owed: int) -> Effect:
    """1e 5.4 item 5: the house removes units worth ``owed`` mustering points (reading C.10)."""

    def effect(state: GameState, house: int, attack: dict) -> None:
        total = loss_total(state, house, owed)
        if total > 0:
            ask(state, K.WILDLING_DESTROY_UNITS, house, left=total, points=True)

    return effect


WILDLING_EFFECTS: dict[str, CardEffects] = {
    "silence-at-the-wall": CardEffects(nothing, nothing, nothing),
    "preemptive-raid": CardEffects(new_attack_without_him, asks(K.PREEMPTIVE_RAID_PENALTY),
                                   nothing),
    "crow-killers": CardEffects(asks(K.CROW_KILLERS_UPGRADE, left=2), knights_to_footmen(None),
                                knights_to_footmen(2)),
    "rattleshirts-raiders": CardEffects(supply_moves(+1), supply_moves(-2), supply_moves(-1),
                                        after_penalties=everyone_reconciles),
    "massing-on-the-milkwater": CardEffects(takes_back_discards, discards_strongest,
                                            asks(K.MASSING_DISCARD)),
    "a-king-beyond-the-wall": CardEffects(asks(K.KING_BEYOND_THE_WALL_TOP), bottom_of_every_track,
                                          asks(K.KING_BEYOND_THE_WALL_BOTTOM)),
    "mammoth-riders": CardEffects(asks(K.MAMMOTH_RIDERS_RETRIEVE), destroys(3), destroys(2)),
    "the-horde-descends": CardEffects(asks(K.HORDE_DESCENDS_MUSTER), destroys_in_own_castle(2),
                                      destroys(1)),
    "skinchanger-scout": CardEffects(gets_bid_back, loses_power(None), loses_power(2)),
}

# 1e 5.4 items 4-5: no card; the highest bidder may take one used house card back, every house
# removes units worth 2 mustering points, the lowest bidder 4 (reading C.10).
FIXED_EFFECTS = CardEffects(asks(K.MAMMOTH_RIDERS_RETRIEVE), loses_worth(4), loses_worth(2))
