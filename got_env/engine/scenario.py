"""Build any position from a readable dict or YAML file: for tests, puzzles and curricula.

A scenario starts from the standard setup of its player count and overrides what it names::

    ruleset: 1e              # "2e" (default) or "1e"; the same as options.ruleset
    players: 3               # a count of the ruleset (the standard houses of that count;
                             # default: its largest, 6 in 2e, 5 in 1e)
    seed: 0
    options: {max_rounds: 10}
    round: 2
    start: marches           # where play begins: westeros | planning | action | raids |
                             # marches | consolidate  (the engine then runs to the first decision)
    wildling_threat: 4
    units:                   # replaces ALL units on the board; letters F K S E (footman, knight,
      stark: {winterfell: KF, the-shivering-sea: SS}      #  ship, siege engine)
      lannister: {stoney-sept: F}
    routed: {stark: {winterfell: F}}          # which of those units are routed
    orders: {winterfell: march-0}             # order token ids; the owner is the area's occupant
    power_tokens: {harrenhal: stark}
    power: {stark: 7}                         # available power
    garrisons: {winterfell: 2}                # replaces all garrisons when given
    neutral_forces: {kings-landing: 5}        # replaces all neutral forces when given
    tracks: {iron-throne: [stark, lannister, baratheon]}   # position 1 first
    supply: {stark: 3}
    hands: {stark: [eddard-stark, robb-stark]}    # the house's other cards go to its discard
    westeros_top: {I: [supply], III: [wildlings-attack]}   # these cards drawn first, in order
    wildling_top: [crow-killers]
    blade_used: false
    raven_used: false
    order_bans: [defense]                     # order types banned this planning phase
                                              # (plus "special-march")

A position that breaks the rules is refused with a :class:`ScenarioError` naming the problem:
units of two houses in one area, more pieces than the box holds, ships on land or land units at
sea, units in impassable areas, an order where its house has no units, unknown ids.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import yaml

from ..data import ORDER_TYPES, TRACKS, UNIT_TYPES
from ..data.loader import DECK_NAMES, RULESETS, UNIT_LETTERS, load_ruleset
from .action_phase import ActionPhaseFrame
from .game import RoundFrame, advance
from .game import start as start_game
from .setup import new_game
from .state import LAND, SHIP, CardPlace, GameState, Phase

# Where play begins: (index of the round loop's phase, index of the action phase's step).
STARTS = {
    "westeros": (0, None),
    "planning": (1, None),
    "action": (2, 0),
    "raids": (2, 0),
    "marches": (2, 1),
    "consolidate": (2, 2),
}
KEYS = {"players", "seed", "options", "round", "start", "wildling_threat", "units", "routed",
        "orders", "power_tokens", "power", "garrisons", "neutral_forces", "tracks", "supply",
        "hands", "westeros_top", "wildling_top", "blade_used", "raven_used", "order_bans",
        "impassable", "ruleset"}


class ScenarioError(ValueError):
    """A scenario that names unknown things or breaks the rules of the game."""


def load(path: str | Path) -> GameState:
    """Build the scenario in a YAML file."""
    with open(path, encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    if not isinstance(spec, dict):
        raise ScenarioError(f"{path}: a scenario is a mapping")
    return build(spec)


def build(spec: dict[str, Any]) -> GameState:
    """Build a position from ``spec`` (see the module docstring) and run to its first decision.

    :raises ScenarioError: unknown keys or ids, or a position that breaks the rules.
    """
    unknown = sorted(set(spec) - KEYS)
    if unknown:
        raise ScenarioError(f"unknown scenario key(s) {unknown}; known: {sorted(KEYS)}")
    try:
        options = _options(spec)
        players = spec.get("players", max(load_ruleset(options["ruleset"]).rules.player_counts))
        state = new_game(players, seed=spec.get("seed", 0), options=options)
    except ValueError as e:
        raise ScenarioError(str(e)) from None
    b = _Builder(state)
    try:
        b.apply(spec)
    except KeyError as e:
        raise ScenarioError(str(e.args[0])) from None
    b.check()
    start = spec.get("start", "planning")
    if start not in STARTS:
        raise ScenarioError(f"start must be one of {sorted(STARTS)}, got {start!r}")
    phase_at, action_at = STARTS[start]
    if phase_at == 0 and state.round < 2:
        raise ScenarioError("a Westeros phase needs round >= 2 (there is none in round 1)")
    state.orders_revealed = phase_at == 2
    if action_at is None:
        return start_game(state, at=phase_at)
    state.stack.append(RoundFrame(at=3))
    state.phase = Phase.ACTION
    state.stack.append(ActionPhaseFrame(at=action_at))
    advance(state)
    return state


def _options(spec: dict[str, Any]) -> dict[str, Any]:
    """The game options with the spec's ``ruleset`` key folded in (it may also be given in
    ``options``, but not as two different values)."""
    options = dict(spec.get("options") or {})
    if "ruleset" in spec:
        if options.get("ruleset", spec["ruleset"]) != spec["ruleset"]:
            raise ScenarioError(f"ruleset {spec['ruleset']!r} and options.ruleset "
                                f"{options['ruleset']!r} differ")
        options["ruleset"] = spec["ruleset"]
    options.setdefault("ruleset", "2e")
    if options["ruleset"] not in RULESETS:
        raise ScenarioError(f"ruleset must be one of {RULESETS}, got {options['ruleset']!r}")
    return options


class _Builder:
    def __init__(self, state: GameState):
        self.s = state
        self.rs = state.ruleset

    def house(self, h: str) -> int:
        i = self.rs.house(h)
        if not self.s.in_play[i]:
            raise ScenarioError(f"house {h!r} is not in play with {self.s.num_players} players")
        return i

    def units(self, letters: str, where: str) -> list[int]:
        if not isinstance(letters, str):
            raise ScenarioError(f"{where}: units must be a string of F/K/S/E, got {letters!r}")
        try:
            return [UNIT_TYPES.index(UNIT_LETTERS[c]) for c in letters.replace(" ", "")]
        except KeyError as e:
            raise ScenarioError(f"{where}: unknown unit letter {e.args[0]!r}") from None

    def apply(self, spec: dict[str, Any]) -> None:
        s, rs = self.s, self.rs
        s.round = int(spec.get("round", 1))
        if not 1 <= s.round <= s.options["max_rounds"]:
            raise ScenarioError(f"round must be 1..{s.options['max_rounds']}, got {s.round}")
        if "wildling_threat" in spec:
            t = spec["wildling_threat"]
            if t not in range(0, rs.wildling_threat["max"] + 1, rs.wildling_threat["step"]):
                raise ScenarioError(f"wildling_threat must be one of 0, 2, ..., 12, got {t!r}")
            s.wildling_threat = t
        if "impassable" in spec:
            s.impassable[:] = False
            for a in spec["impassable"]:
                s.impassable[rs.area(a)] = True
        if "units" in spec:
            s.units[:] = 0
            for h, placements in spec["units"].items():
                hi = self.house(h)
                for a, letters in placements.items():
                    for u in self.units(letters, f"units.{h}.{a}"):
                        s.units[rs.area(a), hi, u] += 1
        for h, placements in (spec.get("routed") or {}).items():
            hi = self.house(h)
            for a, letters in placements.items():
                for u in self.units(letters, f"routed.{h}.{a}"):
                    s.routed[rs.area(a), hi, u] += 1
        for a, tok in (spec.get("orders") or {}).items():
            ids = [t.id for t in rs.order_tokens]
            if tok not in ids:
                raise ScenarioError(f"orders.{a}: unknown order token {tok!r}; known: {ids}")
            s.orders[rs.area(a)] = ids.index(tok)
        for a, h in (spec.get("power_tokens") or {}).items():
            s.power_tokens[rs.area(a)] = self.house(h)
        for h, n in (spec.get("power") or {}).items():
            s.power[self.house(h)] = n
        if "garrisons" in spec:
            s.garrisons[:] = 0
            for a, n in spec["garrisons"].items():
                if rs.home_of[rs.area(a)] < 0:
                    raise ScenarioError(f"garrisons.{a}: garrisons stand only in home areas")
                if n and not rs.garrison_strength:
                    raise ScenarioError(f"garrisons.{a}: ruleset {rs.name!r} has no garrisons")
                s.garrisons[rs.area(a)] = n
        if "neutral_forces" in spec:
            s.neutral_forces[:] = 0
            for a, n in spec["neutral_forces"].items():
                s.neutral_forces[rs.area(a)] = n
        for t, order in (spec.get("tracks") or {}).items():
            if t not in TRACKS:
                raise ScenarioError(f"tracks: unknown track {t!r}; known: {TRACKS}")
            idx = [self.house(h) for h in order]
            if sorted(idx) != sorted(np.flatnonzero(s.in_play).tolist()):
                raise ScenarioError(f"tracks.{t}: must list every house in play exactly once")
            s.tracks[TRACKS.index(t), : len(idx)] = idx
        for h, lvl in (spec.get("supply") or {}).items():
            if lvl not in range(len(rs.supply_limits)):
                raise ScenarioError(f"supply.{h}: level must be 0..6, got {lvl!r}")
            s.supply[self.house(h)] = lvl
        for h, cards in (spec.get("hands") or {}).items():
            hi = self.house(h)
            for c in rs.house_cards:
                if c.house == h:
                    s.card_place[c.index] = CardPlace.DISCARD
            for cid in cards:
                c = rs.house_cards[rs.house_card(cid)]
                if c.house != h:
                    raise ScenarioError(f"hands.{h}: {cid} is a {c.house} card")
                s.card_place[c.index] = CardPlace.HAND
            del hi
        for deck, cards in (spec.get("westeros_top") or {}).items():
            if deck not in DECK_NAMES:
                raise ScenarioError(f"westeros_top: unknown deck {deck!r}")
            d = DECK_NAMES.index(deck)
            order = list(s.westeros_decks[d])
            for pos, cid in enumerate(cards):
                idx = next((c.index for c in rs.westeros_cards
                            if c.id == cid and c.deck == deck), None)
                if idx is None or idx not in order[pos:]:
                    raise ScenarioError(f"westeros_top.{deck}: no card {cid!r} left in deck")
                j = order.index(idx, pos)
                order[pos], order[j] = order[j], order[pos]
            s.westeros_decks[d] = order
        if "wildling_top" in spec:
            ids = [c.id for c in rs.wildling_cards]
            order = list(s.wildling_deck)
            for pos, cid in enumerate(spec["wildling_top"]):
                if cid not in ids:
                    raise ScenarioError(f"wildling_top: unknown wildling card {cid!r}")
                j = order.index(ids.index(cid))
                order[pos], order[j] = order[j], order[pos]
            s.wildling_deck = np.array(order, dtype=np.int8)
        s.blade_used = bool(spec.get("blade_used", False))
        s.raven_used = bool(spec.get("raven_used", False))
        for name in spec.get("order_bans") or ():
            kinds = list(ORDER_TYPES) + ["special-march"]
            if name not in kinds:
                raise ScenarioError(f"order_bans: unknown {name!r}; known: {kinds}")
            s.order_bans[kinds.index(name)] = True

    def check(self) -> None:
        """Refuse positions the game cannot reach (names the problem)."""
        s, rs = self.s, self.rs
        hid = [h.id for h in rs.houses]
        for a in rs.areas:
            present = np.flatnonzero(s.units[a.index].sum(axis=1))
            if len(present) > 1:
                raise ScenarioError(f"{a.id}: units of two houses "
                                    f"({', '.join(hid[h] for h in present)}) in one area")
            if not len(present):
                if s.orders[a.index] >= 0:
                    raise ScenarioError(f"orders.{a.id}: an order needs units in the area")
                continue
            if s.impassable[a.index]:
                raise ScenarioError(f"{a.id}: units in an impassable area")
            if s.neutral_forces[a.index]:
                raise ScenarioError(f"{a.id}: units in an area held by a neutral force")
            h = present[0]
            ships = s.units[a.index, h, SHIP]
            total = s.units[a.index, h].sum()
            if rs.kind[a.index] == LAND and ships:
                raise ScenarioError(f"{a.id}: ships cannot stand on land")
            if rs.kind[a.index] != LAND and ships != total:
                raise ScenarioError(f"{a.id}: only ships can be in a sea area or port")
            if rs.kind[a.index] == 2 and total > 3:
                raise ScenarioError(f"{a.id}: a port holds at most 3 ships (R18.2)")
        if (s.routed > s.units).any():
            a, h, u = np.argwhere(s.routed > s.units)[0]
            raise ScenarioError(f"routed.{hid[h]}.{rs.areas[a].id}: more routed "
                                f"{UNIT_TYPES[u]}s than units there")
        for h in np.flatnonzero(s.in_play):
            for u, name in enumerate(UNIT_TYPES):
                n = int(s.units[:, h, u].sum())
                if n > rs.unit_pool[name]:
                    raise ScenarioError(f"{hid[h]} has {n} {name}s; the box holds "
                                        f"{rs.unit_pool[name]} (R2.3.1)")
            if not 0 <= s.power[h] or s.power[h] + (s.power_tokens == h).sum() > \
                    rs.power_tokens_per_house:
                raise ScenarioError(f"{hid[h]}: power available + on the board must be "
                                    f"0..{rs.power_tokens_per_house}")
        for a in np.flatnonzero(s.power_tokens >= 0):
            if rs.kind[a] != LAND:
                raise ScenarioError(f"power_tokens.{rs.areas[a].id}: only on land (R13.1.2)")
            occ = np.flatnonzero(s.units[a].sum(axis=1))
            if len(occ) and occ[0] != s.power_tokens[a]:
                raise ScenarioError(f"power_tokens.{rs.areas[a].id}: an enemy power token "
                                    f"cannot lie under another house's units")
