"""Free Peoples Character deck (facts §6.2): every card C-icon.

This module holds the cards that act on the Fellowship, the Hunt Pool and one Army; the others
are in ``fp_character_table`` (#5-#8, table cards in the Hunt), ``fp_character_moves``
(#11, #15-#17, Companions separated or moved) and ``fp_character_armies`` (#18-#22, the Eagles,
the Ents, the Dead Men).

Readings: a card's move of the Fellowship (*There is Another Way*) puts no die into the Hunt
Box (``hunt.move_fellowship(die=False)``); *Challenge of the King*'s three tiles are drawn at
random from the pool as for a Hunt, and fewer are drawn only if the pool has fewer; *The Grey
Company*'s Regular goes back to the reinforcements and its Elite comes from them (as *Hill-Trolls*
swaps Shadow units), the nation the Free Peoples' choice among those that can swap.
"""

from __future__ import annotations

from ..battle.forces import eliminate_character
from ..decision import CHARACTER, WILL, Action, choice
from ..events import event
from ..hunt import hide, move_fellowship
from ..hunt_tiles import draw_tile, return_tile
from ..state import ELITE, FREE_PEOPLES, REGULAR, WotrState, log
from ..victory import add_corruption
from .common import Choose, DrawStrategy, choice_step, guide_is, nation, tile_into_play
from .fp_character_moves import king, with_fp_army
from .recruit import recruit

for _card in ("fp-char-01-elven-cloaks", "fp-char-02-elven-rope",
              "fp-char-03-phial-of-galadriel", "fp-char-04-smeagol-helps-nice-master"):
    event(_card)(lambda state, side, card: tile_into_play(state, card))


@event("fp-char-09-athelas")
def athelas(state: WotrState, side: int, card: int) -> None:
    """Roll 3 dice; heal 1 Corruption per 5+ (per 3+ with Strider as Guide)."""
    need = 3 if guide_is(state, "strider") else 5
    add_corruption(state, -sum(r >= need for r in state.chance.roll(side, 3)))


@event("fp-char-12-bilbos-song")
def bilbos_song(state: WotrState, side: int, card: int) -> None:
    """Heal 1 Corruption (2 with Gollum as Guide)."""
    add_corruption(state, -2 if guide_is(state, "gollum") else -1)


@event("fp-char-13-mirror-of-galadriel")
def mirror_of_galadriel(state: WotrState, side: int, card: int) -> None:
    """An unused Character die becomes Will of the West; in an unconquered Lórien the
    Fellowship also heals 1 Corruption."""
    row = state.dice[FREE_PEOPLES]
    for i in range(len(row)):
        if row[i] == CHARACTER:
            row[i] = WILL
            n = int((row >= 0).sum())
            row[:n] = sorted(row[:n])
            break
    lorien = state.ruleset.board.region("lorien")
    if state.fellowship_region == lorien and state.control[lorien] == FREE_PEOPLES \
            and state.mordor_step < 0:
        add_corruption(state, -1)


# -- #10 There is Another Way -----------------------------------------------------------------


@event("fp-char-10-there-is-another-way")
def there_is_another_way(state: WotrState, side: int, card: int) -> None:
    """Heal 1; then, with Gollum as Guide, the Free Peoples may hide a Revealed Fellowship or
    move a Hidden one ("yes"), a move followed by its Hunt."""
    add_corruption(state, -1)
    if guide_is(state, "gollum"):
        state.stack.append(Choose(side, "another-way"))


@choice_step("another-way", lambda state, frame: (choice("no"), choice("yes")))
def _another_way(state: WotrState, frame: Choose, action: Action) -> None:
    if action != choice("yes"):
        return
    if state.revealed:
        hide(state)
    else:
        move_fellowship(state, die=False)


# -- #14 Challenge of the King ----------------------------------------------------------------


def challenge_condition(state: WotrState, side: int) -> bool:
    """Strider/Aragorn with a Free Peoples Army in a Gondor or Rohan region."""
    k = king(state)
    if k is None or not with_fp_army(state, k):
        return False
    owner = state.ruleset.board.region_nation[state.char_at[k]]
    return owner in (nation(state, "gondor"), nation(state, "rohan"))


@event("fp-char-14-challenge-of-the-king", challenge_condition)
def challenge_of_the_king(state: WotrState, side: int, card: int) -> None:
    """Three tiles drawn: three Eyes go back and Strider/Aragorn is eliminated; otherwise the
    Eyes drawn leave the game and the other tiles go back, without effect."""
    eye = state.ruleset.cards.tile_eye
    tiles = [t for t in (draw_tile(state) for _ in range(3)) if t is not None]
    log(state, "challenge-of-the-king", tuple(tiles))
    three_eyes = len(tiles) == 3 and all(eye[t] for t in tiles)
    for t in tiles:
        if eye[t] and not three_eyes:
            for pile in (state.hunt_pool, state.hunt_drawn):
                if t in pile:
                    pile.remove(t)
            if t not in state.hunt_removed:
                state.hunt_removed.append(t)
        elif t not in state.hunt_pool:
            return_tile(state, t)
    k = king(state)
    if three_eyes and k is not None:
        eliminate_character(state, k)


# -- #23 House of the Stewards, #24 The Grey Company ------------------------------------------


def boromir_in_gondor(state: WotrState, side: int) -> bool:
    where = int(state.char_at[state.ruleset.cards.character("boromir")])
    return where >= 0 and state.ruleset.board.region_nation[where] == nation(state, "gondor")


@event("fp-char-23-house-of-the-stewards", boromir_in_gondor)
def house_of_the_stewards(state: WotrState, side: int, card: int) -> None:
    """A Gondor unit recruited in Boromir's region, then 2 Strategy cards drawn."""
    state.stack.append(DrawStrategy(side, 2))
    where = int(state.char_at[state.ruleset.cards.character("boromir")])
    recruit(state, side, where, nation(state, "gondor"), ("unit",))


def king_with_army(state: WotrState, side: int) -> bool:
    k = king(state)
    return k is not None and with_fp_army(state, k)


@event("fp-char-24-the-grey-company", king_with_army)
def the_grey_company(state: WotrState, side: int, card: int) -> None:
    """In Strider/Aragorn's Army a Regular becomes an Elite of its nation; 2 Strategy cards."""
    state.stack.append(DrawStrategy(side, 2))
    state.stack.append(Choose(side, "grey-company"))


def _grey_company_nations(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    k = king(state)
    if k is None:
        return ()
    where, box = int(state.char_at[k]), bool(state.char_in_box[k])
    grid = state.box if box else state.army
    return tuple(("nation", n) for n in range(5)
                 if grid[where, n, REGULAR] > 0 and state.reserve[n, ELITE] > 0)


@choice_step("grey-company", _grey_company_nations)
def _grey_company_swap(state: WotrState, frame: Choose, action: Action) -> None:
    k = king(state)
    assert k is not None
    where, n = int(state.char_at[k]), action[1]
    grid = state.box if state.char_in_box[k] else state.army
    grid[where, n, REGULAR] -= 1
    state.reserve[n, REGULAR] += 1
    state.reserve[n, ELITE] -= 1
    grid[where, n, ELITE] += 1
    log(state, "upgrade", FREE_PEOPLES, where, n)
