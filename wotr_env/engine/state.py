"""The state of a War of the Ring game: numpy arrays for the board, small lists for card piles.

Everything a rule reads or changes is here, and nothing else is: a state plus its ruleset is
the whole game, so :meth:`WotrState.clone` is a copy of these fields (searches clone at every
iteration; arrays copy in microseconds). Indices follow the data (``wotr_env.data``): regions
in ``board.regions`` order, nations in ``NATIONS`` order (the five Free Peoples first), figure
kinds in ``FIGURES`` order (regular, elite, leader, nazgul), characters and cards in their
files' order.

Hidden information lives in identifiable fields (``hands``, ``decks`` order, ``hunt_pool``
order, ``combat_cards`` not yet revealed), so that the observation and ``determinize`` can be
written, and tested, against this list.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardkit.frames import Frame, copy_stack

from ..data import Ruleset
from .chance import Chance

FREE_PEOPLES, SHADOW = 0, 1
SIDE_NAMES = ("free_peoples", "shadow")
REGULAR, ELITE, LEADER, NAZGUL = 0, 1, 2, 3
NO_SIDE = -1  # control of a region with no settlement

# Where a character is (``char_at``): a region index >= 0, or one of these.
NOT_IN_PLAY = -1  # set aside: Aragorn, Gandalf the White, Gollum, the Minions at the start
IN_FELLOWSHIP = -2
ELIMINATED = -3
OFF_MORDOR = -1  # ``mordor_step`` while the Fellowship is on the map


@dataclass
class WotrState:
    """One game in progress (mutable; the engine's frames change it in place)."""

    ruleset: Ruleset
    chance: Chance
    # -- the board --
    army: np.ndarray  # int8 (regions, nations, 4): figures in each region (outside a box)
    box: np.ndarray  # int8 (regions, nations, 4): figures inside a besieged Stronghold's box
    reserve: np.ndarray  # int8 (nations, 4): reinforcements available
    casualties: np.ndarray  # int8 (nations, 4): Free Peoples figures out for good
    control: np.ndarray  # int8 (regions,): side controlling the settlement, NO_SIDE if none
    politics: np.ndarray  # int8 (nations,): steps still to At War (0 = At War)
    active: np.ndarray  # bool (nations,)
    # -- characters --
    char_at: np.ndarray  # int16 (characters,): region, or NOT_IN_PLAY / IN_FELLOWSHIP / ELIMINATED
    char_in_box: np.ndarray  # bool (characters,): inside a besieged Stronghold's box
    # -- the Fellowship --
    fellowship_region: int
    progress: int = 0
    revealed: bool = False
    corruption: int = 0
    guide: int = 0  # a character index (Gollum when no Companion is left)
    mordor_step: int = OFF_MORDOR
    # -- the Hunt --
    hunt_box: np.ndarray = field(default_factory=lambda: np.zeros(3, np.int8))  # shadow, eyes, fp
    hunt_pool: list[int] = field(default_factory=list)  # tile indices; order hidden
    hunt_drawn: list[int] = field(default_factory=list)  # standard tiles out until the pool empties
    hunt_removed: list[int] = field(default_factory=list)  # out for good
    specials_in_play: list[int] = field(default_factory=list)  # put in play, not yet in the pool
    # -- action dice and Elven Rings --
    dice: np.ndarray = field(default_factory=lambda: np.full((2, 10), -1, np.int8))  # faces
    dice_pool: np.ndarray = field(default_factory=lambda: np.array([4, 7], np.int8))
    rings: np.ndarray = field(default_factory=lambda: np.zeros(3, np.int8))  # owner side; 2 gone
    ring_used: np.ndarray = field(default_factory=lambda: np.zeros(2, bool))
    # -- event cards --
    decks: list[list[int]] = field(default_factory=lambda: [[], [], [], []])  # top = last
    hands: list[list[int]] = field(default_factory=lambda: [[], []])
    discards: list[list[int]] = field(default_factory=lambda: [[], []])  # played, face up
    face_down: list[list[int]] = field(default_factory=lambda: [[], []])  # hand-limit discards
    table: list[int] = field(default_factory=list)  # cards in play on the table
    # -- the turn --
    turn: int = 0
    phase: int = 0  # 1-6 during a turn (spec §5)
    winner: int = -1  # a side once the game has ended
    fp_dice_returned: int = 0  # FP dice taken back from the Hunt Box at this turn's recovery
    fellowship_acted: bool = False  # moved or hidden this turn (the Mordor idle penalty)
    declared_in: int = -1  # the region declared in this Fellowship phase (1e Mordor entry)
    messenger_turn: int = 0  # the turn the Mouth of Sauron's Messenger was last used (once a turn)
    ending: str = ""  # how: corruption, crack-of-doom, shadow-points, free-peoples-points
    max_turns: int | None = None
    truncated: bool = False
    stack: list[Frame] = field(default_factory=list)
    pending: Any = None
    log: list[tuple] = field(default_factory=list)  # public events, in order

    @property
    def over(self) -> bool:
        return self.winner >= 0 or self.truncated

    def clone(self) -> WotrState:
        """An independent copy (the ruleset is shared: it is frozen)."""
        new = copy.copy(self)
        for name in ("army", "box", "reserve", "casualties", "control", "politics", "active",
                     "char_at", "char_in_box", "hunt_box", "dice", "dice_pool", "rings",
                     "ring_used"):
            setattr(new, name, getattr(self, name).copy())
        new.hunt_pool = list(self.hunt_pool)
        new.hunt_drawn = list(self.hunt_drawn)
        new.hunt_removed = list(self.hunt_removed)
        new.specials_in_play = list(self.specials_in_play)
        new.decks = [list(d) for d in self.decks]
        new.hands = [list(h) for h in self.hands]
        new.discards = [list(d) for d in self.discards]
        new.face_down = [list(d) for d in self.face_down]
        new.table = list(self.table)
        new.stack = copy_stack(self.stack)
        new.log = list(self.log)
        new.chance = self.chance.clone()
        return new


def log(state: WotrState, *event: object) -> None:
    """A public event (the log is in every observer's view)."""
    state.log.append((state.turn, *event))
