"""The side panel: turn and phase, victory points, the Fellowship's tracks, the Political Track,
the Hunt Box and Hunt Pool, action dice and Elven Rings, and the cards.

Hidden information (spec §4, facts §7): the panel shows of a hand only its size per deck, as the
other side sees it (a combat card chosen and not yet revealed still counts in it, WD-15), and
the names of the observer's own hand; with ``observer=None`` (a spectator) no hand is named. The
Hunt Pool is shown as counts per tile value, never in its order; decks only as sizes. Two states
that differ only in what ``observer`` may not see give the same panel.

The panel's axes run x 0..1 left to right and y 0..1 top to bottom; each section writes its
lines from a cursor ``y`` and returns where the next one starts.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.patches import FancyBboxPatch, Rectangle

from ..data import NATION_SIDE, NATIONS
from ..engine.decision import FACES
from ..engine.determinize import unrevealed_combat_cards
from ..engine.state import FREE_PEOPLES, IN_FELLOWSHIP, OFF_MORDOR, SHADOW
from ..engine.text import PHASES
from ..engine.victory import victory_points
from .style import (
    CHARACTER_SHORT,
    FACE_SHORT,
    FIGURE_LETTERS,
    NATION_COLOURS,
    NATION_LABEL,
    SIDE_COLOURS,
    ink_on,
    tint,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..engine.state import WotrState

SIDE_LABEL = ("Free Peoples", "Shadow")
LINE = 0.0205  # one line of body text (axes fraction) at the default size
LEFT = 0.04
WRAP = 58  # characters per wrapped line of body text


def heading(ax: Axes, y: float, text: str, fs: float) -> float:
    """A section heading with a rule under it."""
    ax.text(LEFT, y, text, fontsize=9.2 * fs, weight="bold", va="top", color="#3a2a10")
    ax.plot([LEFT, 0.97], [y + 0.021, y + 0.021], color="#b9a98a", lw=0.6)
    return y + 0.028


def line(ax: Axes, y: float, text: str, fs: float, x: float = LEFT, **kw: object) -> float:
    """One line of body text; returns the next line's y."""
    ax.text(x, y, text, fontsize=7.7 * fs, va="top", **kw)
    return y + LINE


def chip(ax: Axes, x: float, y: float, text: str, colour: str, fs: float,
         size: float = 7.0) -> None:
    """A label on a coloured box (a die face, a nation, a hand)."""
    ax.text(x, y, text, fontsize=size * fs, va="top", ha="left", weight="bold",
            color=ink_on(colour),
            bbox={"boxstyle": "round,pad=0.2", "fc": colour, "ec": "#303030", "lw": 0.4})


# -- sections ---------------------------------------------------------------------------------
def draw_header(ax: Axes, y: float, state: WotrState, observer: int | None, fs: float) -> float:
    """Turn, phase, who is to play (or who won), and whose view this is."""
    ax.text(LEFT, y, f"War of the Ring ({state.ruleset.name})", fontsize=11 * fs,
            weight="bold", va="top")
    y += 0.03
    phase = PHASES[state.phase] if 0 <= state.phase < len(PHASES) else str(state.phase)
    y = line(ax, y, f"Turn {state.turn}, phase {state.phase}: {phase}", fs, weight="bold")
    if state.winner >= 0:
        y = line(ax, y, f"Winner: {SIDE_LABEL[state.winner]} ({state.ending})", fs,
                 weight="bold", color=SIDE_COLOURS[state.winner])
    elif state.truncated:
        y = line(ax, y, "Game cut short (turn limit)", fs, weight="bold")
    elif state.pending is not None:
        d = state.pending
        y = line(ax, y, f"To play: {SIDE_LABEL[d.player]}: {d.kind.label}", fs,
                 color=SIDE_COLOURS[d.player])
    seen = "everyone (public view)" if observer is None else SIDE_LABEL[observer]
    fp, shadow = victory_points(state)
    rules = state.ruleset.rules
    y = line(ax, y, f"Seen by: {seen}", fs, color="#555555")
    ax.text(LEFT, y, "Victory points:", fontsize=7.7 * fs, va="top", weight="bold")
    ax.text(0.34, y, f"FP {fp}/{rules.free_peoples_victory_points}", fontsize=7.7 * fs,
            va="top", weight="bold", color=SIDE_COLOURS[FREE_PEOPLES])
    ax.text(0.56, y, f"Shadow {shadow}/{rules.shadow_victory_points}", fontsize=7.7 * fs,
            va="top", weight="bold", color=SIDE_COLOURS[SHADOW])
    return y + LINE + 0.006


def draw_track(ax: Axes, y: float, label: str, value: int, top: int, colour: str,
               fs: float) -> float:
    """A numbered track 0..top with ``value`` marked."""
    ax.text(LEFT, y, label, fontsize=7.7 * fs, va="top", weight="bold")
    x0, w = 0.30, min(0.052, 0.66 / (top + 1))
    for i in range(top + 1):
        filled = i == value
        ax.add_patch(Rectangle((x0 + i * w, y - 0.001), w * 0.9, 0.017, lw=0.5,
                               ec="#555555", fc=colour if filled else "white"))
        ax.text(x0 + i * w + w * 0.45, y + 0.0075, str(i), ha="center", va="center",
                fontsize=6.0 * fs, color=ink_on(colour) if filled else "#777777",
                weight="bold" if filled else "normal")
    return y + LINE + 0.004


def draw_fellowship(ax: Axes, y: float, state: WotrState, fs: float) -> float:
    """Where the Fellowship was last seen, Progress, Corruption, its guide and Companions."""
    board, cards = state.ruleset.board, state.ruleset.cards
    y = heading(ax, y, "Fellowship", fs)
    where = (f"Mordor Track step {state.mordor_step}" if state.mordor_step != OFF_MORDOR
             else f"last seen: {board.regions[state.fellowship_region].name}")
    y = line(ax, y, f"{'REVEALED' if state.revealed else 'Hidden'}; {where}", fs, weight="bold",
             color="#8b0000" if state.revealed else "black")
    if state.mordor_step == OFF_MORDOR:
        y = draw_track(ax, y, "Progress", state.progress, max(12, state.progress), "#6f9fd8", fs)
    else:
        y = draw_track(ax, y, "Mordor Track", state.mordor_step, 5, "#6f9fd8", fs)
    y = draw_track(ax, y, "Corruption", state.corruption, 12, "#c0392b", fs)
    members = [CHARACTER_SHORT.get(cards.characters[c].id, cards.characters[c].name)
               for c in np.flatnonzero(state.char_at == IN_FELLOWSHIP)]
    guide = CHARACTER_SHORT.get(cards.characters[state.guide].id,
                                cards.characters[state.guide].name)
    text = f"Guide: {guide}; with: {', '.join(members) or 'nobody'}"
    for part in textwrap.wrap(text, WRAP):
        y = line(ax, y, part, fs)
    return y + 0.006


def draw_politics(ax: Axes, y: float, state: WotrState, fs: float) -> float:
    """The Political Track: each nation's box (3, 2, 1 steps from war, At War), filled when
    Active, hollow when Passive; and its reinforcements left."""
    y = heading(ax, y, "Political Track (filled: active, hollow: passive)", fs)
    cols = (0.33, 0.40, 0.47, 0.54)
    for i, name in enumerate(("3", "2", "1", "War")):
        ax.text(cols[i] + 0.025, y, name, ha="center", va="top", fontsize=6.3 * fs,
                color="#555555")
    ax.text(0.63, y, "reinforcements", va="top", fontsize=6.3 * fs, color="#555555")
    y += 0.016
    for n, nation in enumerate(NATIONS):
        colour = NATION_COLOURS[nation]
        chip(ax, LEFT, y, NATION_LABEL[nation], colour, fs, size=6.6)
        steps = int(state.politics[n])
        for i in range(4):
            ax.add_patch(Rectangle((cols[i], y - 0.001), 0.05, 0.016, lw=0.4, ec="#777777",
                                   fc="#eeeeee" if i < 3 else "#e2c9c9"))
        col = cols[3 - min(steps, 3)]
        active = bool(state.active[n])
        ax.add_patch(FancyBboxPatch((col + 0.01, y + 0.002), 0.03, 0.0105,
                                    boxstyle="round,pad=0.001", lw=1.4 * fs, ec=colour,
                                    fc=colour if active else "white"))
        reserve = state.reserve[n]
        text = " ".join(f"{int(c)}{FIGURE_LETTERS[k]}" for k, c in enumerate(reserve) if c)
        ax.text(0.63, y, text or "none", va="top", fontsize=6.6 * fs, family="monospace",
                color=SIDE_COLOURS[0 if NATION_SIDE[nation] == "free_peoples" else 1])
        y += 0.0205
    return y + 0.004


def tile_label(state: WotrState, t: int) -> str:
    """A Hunt tile's public face: its value (Eye, Die, a number), ``r`` if it reveals, ``*``
    for a special tile."""
    cards = state.ruleset.cards
    value = ("Eye" if cards.tile_eye[t] else "Die" if cards.tile_die[t]
             else str(int(cards.tile_damage[t])))
    return value + ("r" if cards.tile_reveal[t] and not cards.tile_eye[t] else "") + (
        "*" if cards.tile_side[t] >= 0 else "")


def draw_hunt(ax: Axes, y: float, state: WotrState, fs: float) -> float:
    """The Hunt Box (Shadow dice, Eye results, Free Peoples dice) and the Hunt Pool's contents,
    counted per value (its order is secret)."""
    y = heading(ax, y, "Hunt", fs)
    box = state.hunt_box
    ax.text(LEFT, y, "Hunt Box:", fontsize=7.7 * fs, va="top", weight="bold")
    x = 0.22
    for text, colour in ((f"Shadow dice {int(box[0])}", SIDE_COLOURS[SHADOW]),
                         (f"Eyes {int(box[1])}", "#7a1010"),
                         (f"FP dice {int(box[2])}", SIDE_COLOURS[FREE_PEOPLES])):
        chip(ax, x, y, text, colour, fs)
        x += 0.066 + 0.0125 * len(text)
    y += LINE + 0.006
    counts = Counter(tile_label(state, t) for t in state.hunt_pool)
    order = sorted(counts, key=lambda k: (not k.startswith("Eye"), not k.startswith("Die"),
                                          -_value(k), k))
    text = "  ".join(f"{k}\u00d7{counts[k]}" for k in order) or "empty"
    y = line(ax, y, f"Hunt Pool ({len(state.hunt_pool)} tiles):", fs, weight="bold")
    for part in textwrap.wrap(text, WRAP):
        y = line(ax, y, part, fs, x=LEFT + 0.02, family="monospace")
    extra = [f"drawn {len(state.hunt_drawn)}", f"out {len(state.hunt_removed)}"]
    if state.specials_in_play:
        extra.append("special in play: " + ", ".join(
            state.ruleset.cards.tiles[t].name or tile_label(state, t)
            for t in state.specials_in_play))
    for part in textwrap.wrap("; ".join(extra) + "  (r: reveals, *: special)", WRAP):
        y = line(ax, y, part, fs, color="#555555")
    return y + 0.006


def _value(label: str) -> int:
    digits = label.rstrip("r*")
    return int(digits) if digits.lstrip("-").isdigit() else 99


def draw_dice(ax: Axes, y: float, state: WotrState, fs: float) -> float:
    """Each side's unused action dice (faces), its pool and its Elven Rings."""
    y = heading(ax, y, "Action dice and Elven Rings", fs)
    for side in (FREE_PEOPLES, SHADOW):
        rings = int(np.sum(state.rings == side))
        used = " (one used)" if state.ring_used[side] else ""
        label = f"{SIDE_LABEL[side]}: {int(state.dice_pool[side])} dice, rings {rings}{used}"
        y = line(ax, y, label, fs, weight="bold", color=SIDE_COLOURS[side])
        faces = [FACE_SHORT[FACES[f]] for f in state.dice[side] if f >= 0]
        x = LEFT + 0.02
        for face in faces:
            chip(ax, x, y, face, tint(SIDE_COLOURS[side], 0.25), fs, size=6.6)
            x += 0.085
        if not faces:
            ax.text(x, y, "no dice left to use", fontsize=6.8 * fs, va="top", color="#555555")
        y += LINE + 0.004
    return y + 0.004


def hand_sizes(state: WotrState, side: int, observer: int | None) -> tuple[int, int]:
    """(character, strategy) cards in ``side``'s hand as ``observer`` sees them: to anyone but
    ``side`` a combat card chosen and not yet revealed is still in the hand (WD-15)."""
    hand = list(state.hands[side])
    if observer != side:
        hand += unrevealed_combat_cards(state, side)
    deck_of = state.ruleset.cards.event_deck
    return (sum(1 for c in hand if deck_of[c] == 2 * side),
            sum(1 for c in hand if deck_of[c] == 2 * side + 1))


def draw_cards(ax: Axes, y: float, state: WotrState, observer: int | None, fs: float) -> float:
    """Hand sizes per deck, deck and discard sizes, the observer's own hand by name, the table."""
    cards = state.ruleset.cards
    y = heading(ax, y, "Event cards", fs)
    for side in (FREE_PEOPLES, SHADOW):
        char, strat = hand_sizes(state, side, observer)
        y = line(ax, y, f"{SIDE_LABEL[side]} hand: {char} character + {strat} strategy", fs,
                 weight="bold", color=SIDE_COLOURS[side])
        y = line(ax, y, f"decks {len(state.decks[2 * side])} + {len(state.decks[2 * side + 1])}"
                 f", discarded {len(state.discards[side])} + {len(state.face_down[side])} face "
                 "down", fs, x=LEFT + 0.02, color="#444444")
        if observer == side:
            names = ", ".join(cards.events[c].name for c in sorted(state.hands[side]))
            for part in textwrap.wrap("your hand: " + (names or "empty"), WRAP):
                y = line(ax, y, part, fs, x=LEFT + 0.02, style="italic")
    if state.table:
        names = ", ".join(cards.events[c].name for c in state.table)
        for part in textwrap.wrap("on the table: " + names, WRAP):
            y = line(ax, y, part, fs)
    return y


def draw_panel(ax: Axes, state: WotrState, observer: int | None, fs: float) -> None:
    """The whole side panel, section after section from the top (its paper is in the
    picture's fixed layer)."""
    y = draw_header(ax, 0.012, state, observer, fs)
    y = draw_fellowship(ax, y, state, fs)
    y = draw_politics(ax, y, state, fs)
    y = draw_hunt(ax, y, state, fs)
    y = draw_dice(ax, y, state, fs)
    draw_cards(ax, y, state, observer, fs)


__all__ = ["draw_cards", "draw_dice", "draw_fellowship", "draw_header", "draw_hunt",
           "draw_panel", "draw_politics", "draw_track", "hand_sizes", "tile_label"]
