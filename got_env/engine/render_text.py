"""A readable text board: round and phase, the tracks, then every area that holds something.

Example line: ``winterfell [S*] stark: K F | garrison 2`` (``S*``: stronghold; ``C``: castle).
Orders are shown as placed; hiding them from a given player is the observation layer's job.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..data import TRACKS, UNIT_TYPES

if TYPE_CHECKING:  # (the state, above this module, shows itself with it: GameState.render_text)
    from .state import GameState

UNIT_LETTER = dict(zip(UNIT_TYPES, "FKSE", strict=True))


def render_text(state: GameState) -> str:
    rs = state.ruleset
    hid = [h.id for h in rs.houses]
    lines = [
        f"Round {state.round}/{state.options['max_rounds']}  phase {state.phase.name}  "
        f"wildling threat {state.wildling_threat}  ({state.num_players} players, "
        f"ruleset {rs.name})"
    ]
    for t, name in enumerate(TRACKS):
        order = [hid[h] for h in state.tracks[t] if h >= 0]
        lines.append(f"  {name:<12} " + " > ".join(order))
    vp = state.victory_points()
    pool = state.power_pool()
    for h in range(rs.num_houses):
        if not state.in_play[h]:
            continue
        hand = ", ".join(rs.house_cards[c].id for c in state.hand(h))
        lines.append(
            f"  {hid[h]:<10} castles {vp[h]}  supply {state.supply[h]}  power {state.power[h]} "
            f"(pool {pool[h]})  hand: {hand}"
        )
    lines.append("Areas:")
    control = state.control()
    for a in rs.areas:
        i = a.index
        parts = []
        for h in range(rs.num_houses):
            if state.units[i, h].any():
                letters = []
                for u, n in enumerate(state.units[i, h]):
                    routed = int(state.routed[i, h, u])
                    letters += [UNIT_LETTER[UNIT_TYPES[u]].lower()] * routed
                    letters += [UNIT_LETTER[UNIT_TYPES[u]]] * (int(n) - routed)
                parts.append(f"{hid[h]}: {' '.join(letters)}")
        if state.orders[i] >= 0:
            parts.append(f"order {rs.order_tokens[state.orders[i]].id}")
        if state.power_tokens[i] >= 0:
            parts.append(f"power token {hid[state.power_tokens[i]]}")
        if state.garrisons[i]:
            parts.append(f"garrison {state.garrisons[i]}")
        if state.neutral_forces[i]:
            parts.append(f"neutral force {state.neutral_forces[i]}")
        if state.impassable[i]:
            parts.append("impassable")
        if not parts:
            continue
        fort = {"stronghold": " [S*]", "castle": " [C]"}.get(a.fortification or "", "")
        owner = f" ({hid[control[i]]})" if control[i] >= 0 and not state.units[i].any() else ""
        lines.append(f"  {a.id}{fort}{owner} " + " | ".join(parts))
    return "\n".join(lines)
