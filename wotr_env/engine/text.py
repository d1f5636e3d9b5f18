"""The position in words, for people and logs: what a side sees, or everything.

``text(state, observer)`` shows only what ``observer`` may know: the board, the Fellowship (it
has no secret position: last known region and Progress are public), the Hunt Box and the Hunt
Pool's size and contents (public; not its order), dice, rings, hand sizes per deck (the other
side's counting a combat card it chose and has not revealed: whether it chose one is secret), the
observer's own hand, table cards and victory points. It never shows the other side's hand, its
face-down discards, a deck's order or the pool's order. With ``observer=None`` (a referee's view)
both hands and face-down discards are shown too, and still no order of a deck.
"""

from __future__ import annotations

import numpy as np

from ..data import FIGURES, NATIONS
from .decision import FACES
from .determinize import unrevealed_combat_cards
from .state import (
    ELIMINATED,
    FREE_PEOPLES,
    IN_FELLOWSHIP,
    NO_SIDE,
    NOT_IN_PLAY,
    OFF_MORDOR,
    SHADOW,
    SIDE_NAMES,
    WotrState,
)
from .victory import victory_points

PHASES = ("setup", "draw", "fellowship", "hunt allocation", "action roll", "action resolution",
          "victory check")
SETTLEMENTS = ("town", "city", "stronghold", "fortification")
FIGURE_LETTERS = ("r", "e", "l", "n")  # regular, elite, leader, nazgul
TILE_DAMAGE = {"eye": "eye", "die": "die"}


def text(state: WotrState, observer: int | None = None) -> str:
    """The position as lines of text, as ``observer`` sees it (None: everything but orders)."""
    lines = [_heading(state), _politics(state)]
    lines += _regions(state)
    lines += _characters(state)
    lines += _fellowship(state)
    lines += _hunt(state)
    lines += _dice(state)
    lines += _cards(state, observer)
    fp, shadow = victory_points(state)
    lines.append(f"victory points: free_peoples {fp}, shadow {shadow}")
    if state.pending is not None and not state.over:
        d = state.pending
        lines.append(f"to play: {SIDE_NAMES[d.player]}, {d.kind.label}"
                     + (f", {len(d.options)} options" if observer in (None, d.player) else ""))
    return "\n".join(lines)


def _heading(state: WotrState) -> str:
    phase = PHASES[state.phase] if 0 <= state.phase < len(PHASES) else str(state.phase)
    head = f"turn {state.turn}, phase {state.phase} ({phase})"
    if state.winner >= 0:
        head += f"; {SIDE_NAMES[state.winner]} won by {state.ending}"
    elif state.truncated:
        head += "; truncated"
    return head


def _politics(state: WotrState) -> str:
    parts = []
    for n, nation in enumerate(NATIONS):
        steps = int(state.politics[n])
        where = "at war" if steps == 0 else f"{steps} to war"
        parts.append(f"{nation} {'active' if state.active[n] else 'passive'}, {where}")
    return "politics: " + "; ".join(parts)


def _figures(grid: np.ndarray) -> str:
    """``grid`` (nations, kinds) as 'gondor 3r 1e 1l'."""
    out = []
    for n in np.flatnonzero(grid.sum(axis=1)):
        counts = " ".join(f"{int(grid[n, k])}{FIGURE_LETTERS[k]}" for k in range(len(FIGURES))
                          if grid[n, k])
        out.append(f"{NATIONS[n]} {counts}")
    return ", ".join(out)


def _regions(state: WotrState) -> list[str]:
    """Each region with figures, a settlement of the other side's control or characters."""
    board, cards = state.ruleset.board, state.ruleset.cards
    lines = ["regions:"]
    for r, region in enumerate(board.regions):
        chars = [cards.characters[c].name for c in np.flatnonzero(state.char_at == r)]
        captured = state.control[r] != NO_SIDE and state.control[r] != board.region_side[r]
        army, box = state.army[r], state.box[r]
        if not (army.any() or box.any() or chars or captured):
            continue
        parts = []
        if board.settlement[r] >= 0:
            owner = (f" of {SIDE_NAMES[state.control[r]]}" if state.control[r] != NO_SIDE
                     else "")
            parts.append(f"{SETTLEMENTS[board.settlement[r]]}{owner}")
        if army.any():
            parts.append(_figures(army))
        if box.any():
            parts.append(f"in the Stronghold: {_figures(box)}")
        if chars:
            parts.append("characters: " + ", ".join(chars))
        lines.append(f"  {region.name}: " + "; ".join(parts))
    return lines


def _characters(state: WotrState) -> list[str]:
    cards = state.ruleset.cards
    places = {NOT_IN_PLAY: "not in play", IN_FELLOWSHIP: "in the Fellowship",
              ELIMINATED: "eliminated"}
    out = []
    for c, ch in enumerate(cards.characters):
        if ch.kind == "reference":
            continue
        at = int(state.char_at[c])
        where = places.get(at) or state.ruleset.board.regions[at].name
        out.append(f"{ch.name}: {where}")
    return ["characters: " + "; ".join(out)]


def _fellowship(state: WotrState) -> list[str]:
    cards, board = state.ruleset.cards, state.ruleset.board
    where = (f"Mordor Track step {state.mordor_step}" if state.mordor_step != OFF_MORDOR
             else board.regions[state.fellowship_region].name)
    return [f"fellowship: {where}, progress {state.progress}, "
            f"{'revealed' if state.revealed else 'hidden'}, corruption {state.corruption}, "
            f"guide {cards.characters[state.guide].name}"]


def _tile(state: WotrState, t: int) -> str:
    tile = state.ruleset.cards.tiles[t]
    return tile.name or str(TILE_DAMAGE.get(str(tile.damage), tile.damage)) + (
        "r" if tile.reveal and tile.damage != "eye" else "")


def _hunt(state: WotrState) -> list[str]:
    box = state.hunt_box
    pool = ", ".join(sorted(_tile(state, t) for t in state.hunt_pool))
    lines = [f"hunt box: {int(box[0])} shadow dice, {int(box[1])} eyes, "
             f"{int(box[2])} free peoples dice",
             f"hunt pool ({len(state.hunt_pool)} tiles): {pool}"]
    for name, tiles in (("drawn", state.hunt_drawn), ("removed", state.hunt_removed),
                        ("special tiles in play", state.specials_in_play)):
        if tiles:
            lines.append(f"hunt {name}: " + ", ".join(_tile(state, t) for t in tiles))
    return lines


def _dice(state: WotrState) -> list[str]:
    lines = []
    for side in (FREE_PEOPLES, SHADOW):
        faces = [FACES[f] for f in state.dice[side] if f >= 0]
        rings = int(np.sum(state.rings == side))
        used = ", ring used this turn" if state.ring_used[side] else ""
        lines.append(f"{SIDE_NAMES[side]} dice ({int(state.dice_pool[side])} in pool): "
                     f"{', '.join(faces) or 'none unused'}; elven rings {rings}{used}")
    return lines


def _cards(state: WotrState, observer: int | None) -> list[str]:
    cards = state.ruleset.cards
    deck_of = cards.event_deck
    lines = []
    for side in (FREE_PEOPLES, SHADOW):
        hand = state.hands[side]
        # to the other side a combat card chosen and not yet revealed is still in hand (WD-15)
        seen = hand if observer in (None, side) else hand + unrevealed_combat_cards(state, side)
        sizes = [sum(1 for c in seen if deck_of[c] == 2 * side + k) for k in (0, 1)]
        lines.append(f"{SIDE_NAMES[side]}: hand {sizes[0]} character + {sizes[1]} strategy, "
                     f"decks {len(state.decks[2 * side])} character + "
                     f"{len(state.decks[2 * side + 1])} strategy, "
                     f"{len(state.face_down[side])} discarded face down")
        if observer is None or observer == side:
            lines.append("  hand: " + (", ".join(cards.events[c].name for c in sorted(hand))
                                       or "empty"))
            if state.face_down[side]:
                lines.append("  face down: " + ", ".join(cards.events[c].name
                                                         for c in state.face_down[side]))
        if state.discards[side]:
            lines.append("  discarded: " + ", ".join(cards.events[c].name
                                                     for c in state.discards[side]))
    if state.table:
        lines.append("table: " + ", ".join(cards.events[c].name for c in state.table))
    return lines


__all__ = ["text"]
