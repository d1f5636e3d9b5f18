"""What every rule of the heuristic reads: distances on the map, armies and their strength,
the regions that matter (Settlements, the Mordor gates), each a small function of the state.

Distances are the number of region borders (a breadth-first search once per board, cached), so
"towards" means one step shorter on the map, whatever blocks the way today.
"""

from __future__ import annotations

import functools
from collections import deque

import numpy as np

from wotr_env.engine.regions import NATIONS_OF
from wotr_env.engine.state import ELITE, LEADER, NAZGUL, REGULAR, WotrState

STRONGHOLD, CITY, TOWN = 2, 1, 0  # board.settlement codes
MORDOR_GATES = ("minas-morgul", "morannon")
UNREACHABLE = 99


@functools.lru_cache(maxsize=8)
def _distances(board: object) -> np.ndarray:
    neighbours = board.neighbours  # type: ignore[attr-defined]
    n = len(neighbours)
    dist = np.full((n, n), UNREACHABLE, np.int16)
    for start in range(n):
        dist[start, start] = 0
        queue = deque([start])
        while queue:
            r = queue.popleft()
            for m in neighbours[r]:
                m = int(m)
                if dist[start, m] == UNREACHABLE:
                    dist[start, m] = dist[start, r] + 1
                    queue.append(m)
    return dist


def distances(state: WotrState) -> np.ndarray:
    """(regions, regions): borders crossed on the shortest way between two regions."""
    return _distances(state.ruleset.board)


def region_id(state: WotrState, r: int) -> str:
    return state.ruleset.board.regions[r].id


def gates(state: WotrState) -> list[int]:
    board = state.ruleset.board
    return [board.region(g) for g in MORDOR_GATES]


def gate_distance(state: WotrState, r: int) -> int:
    """Borders from ``r`` to the nearer entrance of Mordor."""
    d = distances(state)
    return int(min(d[r, g] for g in gates(state)))


# Per-decision memo: values read from one state while one decision is being chosen (the state
# does not change meanwhile). It starts afresh for another state, or for the same one once the
# game has moved on (another pending decision, a longer log).
MEMO: dict[tuple, object] = {}
_MADE_FOR: list[object] = [None, -1, None]  # the state, its log's length, its pending decision


def memo(state: WotrState, key: tuple, make):  # type: ignore[no-untyped-def]
    """``make()``, computed once per decision for ``key``."""
    made_for = _MADE_FOR
    if made_for[0] is not state or made_for[1] != len(state.log) \
            or made_for[2] is not state.pending:
        MEMO.clear()
        made_for[:] = [state, len(state.log), state.pending]
    try:
        return MEMO[key]
    except KeyError:
        value = MEMO[key] = make()
        return value


def _tables(state: WotrState, side: int, box: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(units, hit points, leadership) per region of the side's figures (field or box)."""
    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        grid = (state.box if box else state.army)[:, NATIONS_OF[side]].astype(np.int32)
        n = grid[:, :, REGULAR].sum(1) + grid[:, :, ELITE].sum(1)
        hp = grid[:, :, REGULAR].sum(1) + 2 * grid[:, :, ELITE].sum(1)
        lead = grid[:, :, LEADER].sum(1) + grid[:, :, NAZGUL].sum(1)
        cards = state.ruleset.cards
        mine = (state.char_at >= 0) & (state.char_in_box == box) \
            & (cards.character_side == side)
        for c in np.flatnonzero(mine):
            lead[int(state.char_at[c])] += int(cards.character_leadership[c])
        return n, hp, lead
    return memo(state, ("tables", side, box), make)  # type: ignore[return-value]


def units(state: WotrState, r: int, side: int, box: bool = False) -> int:
    return int(_tables(state, side, box)[0][r])


def hit_points(state: WotrState, r: int, side: int, box: bool = False) -> int:
    """Hits the side's units there can take: a Regular one, an Elite two."""
    return int(_tables(state, side, box)[1][r])


def leadership(state: WotrState, r: int, side: int, box: bool = False) -> int:
    """Leaders and Nazgûl one each, Characters their card's value (no abilities)."""
    return int(_tables(state, side, box)[2][r])


def army_regions(state: WotrState, side: int) -> list[int]:
    """Regions where the side has units in the field."""
    return memo(state, ("armies", side), lambda: [int(r) for r in
                                           np.flatnonzero(_tables(state, side, False)[0] > 0)])


def settlement(state: WotrState, r: int) -> int:
    return int(state.ruleset.board.settlement[r])


def is_stronghold(state: WotrState, r: int) -> bool:
    return settlement(state, r) == STRONGHOLD


def vp(state: WotrState, r: int) -> int:
    return int(state.ruleset.board.vp[r])


def expected_hits(dice: int, hit_on: int, rerolls: int) -> float:
    """Expected hits of ``dice`` (at most 5) hitting on ``hit_on``+, re-rolling up to
    ``rerolls`` misses."""
    dice = min(5, dice)
    p = (7 - hit_on) / 6
    misses = dice * (1 - p)
    return dice * p + min(rerolls, misses) * p


def exchange(a_units: int, a_hp: int, a_lead: int, d_units: int, d_hp: int, d_lead: int,
             a_hit: int = 5, first_at_six: bool = False) -> float:
    """How much better the attacker fares than the defender if they fight it out (> 0: the
    defender runs out of hit points first): rounds the attacker lasts over rounds the defender
    lasts, minus one."""
    if d_units <= 0:
        return 10.0
    if a_units <= 0:
        return -1.0
    a_hits = expected_hits(a_units, a_hit, a_lead)
    if first_at_six:  # a City or Fortification: the first round at 6 only
        a_hits = (expected_hits(a_units, 6, a_lead) + 2 * a_hits) / 3
    d_hits = expected_hits(d_units, 5, d_lead)
    return (a_hp / max(d_hits, 0.05)) / (d_hp / max(a_hits, 0.05)) - 1.0


def battle_edge(state: WotrState, attacker: int, src: int, dst: int, siege: bool,
                src_box: bool = False) -> float:
    """:func:`exchange` for the attacker's Army at ``src`` (its field, or its box for a
    sortie) against the defenders at ``dst`` (the box for a siege battle)."""
    defender = 1 - attacker
    fortified = settlement(state, dst) in (CITY, 3) and not siege and not src_box
    return exchange(units(state, src, attacker, src_box), hit_points(state, src, attacker, src_box),
                    leadership(state, src, attacker, src_box),
                    units(state, dst, defender, box=siege), hit_points(state, dst, defender, siege),
                    leadership(state, dst, defender, box=siege),
                    6 if siege else 5, fortified)


__all__ = ["CITY", "MORDOR_GATES", "STRONGHOLD", "TOWN", "army_regions", "battle_edge",
           "distances", "exchange", "expected_hits", "gate_distance", "gates", "hit_points",
           "is_stronghold", "leadership", "memo", "region_id", "settlement", "units", "vp"]
