"""Free Peoples Character deck (facts §6.2): every card C-icon."""

from __future__ import annotations

from ..decision import CHARACTER, WILL
from ..events import event
from ..state import FREE_PEOPLES, WotrState
from ..victory import add_corruption
from .common import guide_is, tile_into_play

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

