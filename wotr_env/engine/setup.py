"""A new game from the ruleset's data (facts §2, §2.3): armies, politics, the Fellowship in
Rivendell with Gandalf the Grey as Guide, the Hunt Pool, the shuffled decks, the dice."""

from __future__ import annotations

import numpy as np

from boardkit.frames import advance

from ..data import Ruleset, load_ruleset
from .chance import Chance
from .state import IN_FELLOWSHIP, NO_SIDE, NOT_IN_PLAY, WotrState
from .turn.phases import Turn


def new_state(seed: int | None = 0, ruleset: Ruleset | str = "2e",
              max_turns: int | None = None, run: bool = True) -> WotrState:
    """The starting position; with ``run`` the game runs on to its first decision."""
    rs = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    board, cards = rs.board, rs.cards
    chance = Chance(np.random.default_rng(seed))
    control = np.where(board.settlement >= 0, board.region_side, NO_SIDE).astype(np.int8)
    fortification = rs.board.settlement == 3  # a Fortification is not a Settlement (facts §1.1)
    control[fortification] = NO_SIDE
    kinds = [c.kind for c in cards.characters]
    char_at = np.array([IN_FELLOWSHIP if k == "companion" else NOT_IN_PLAY for k in kinds],
                       np.int16)
    decks: list[list[int]] = []
    for d in ("fp-character", "fp-strategy", "shadow-character", "shadow-strategy"):
        deck = list(cards.deck(d))
        chance.shuffle(deck)
        decks.append(deck)
    pool = [i for i, t in enumerate(cards.tiles) if t.side is None]
    state = WotrState(
        ruleset=rs, chance=chance,
        army=board.start_figures.astype(np.int8), box=np.zeros_like(board.start_figures,
                                                                   np.int8),
        reserve=board.reinforcements.astype(np.int8),
        casualties=np.zeros_like(board.reinforcements, np.int8),
        control=control,
        politics=np.array([n.steps_to_war for n in board.nations], np.int8),
        active=np.array([n.active_at_start for n in board.nations], bool),
        char_at=char_at, char_in_box=np.zeros(len(kinds), bool),
        fellowship_region=board.region("rivendell"),
        guide=cards.character("gandalf-the-grey"),
        hunt_pool=pool, decks=decks, max_turns=max_turns,
    )
    state.dice_pool[:] = [s.start for s in cards.dice.sides]
    state.stack.append(Turn())
    if run:
        advance(state, is_over)
    return state


def is_over(state: WotrState) -> bool:
    return state.winner >= 0 or state.truncated
