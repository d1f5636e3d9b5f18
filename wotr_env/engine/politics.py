"""The Political Track (facts §7.5, spec §15): activation, steps toward At War, diplomacy.

``politics[n]`` is the number of steps nation ``n`` still needs to reach At War (0 = At War).
A Passive Free Peoples nation stops one step above At War until it is activated; the Shadow's
nations start Active. The triggers (an enemy Army entering a nation's region, an Army with its
units attacked, a Settlement captured, a Companion's arrival, the Witch-king's entry) call
:func:`activate` and :func:`advance` from the rules where they happen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardkit.frames import Frame

from ..data import NATION_SIDE, NATIONS
from .decision import ARMY_MUSTER, MUSTER, WD, Action, Decision
from .dice import die_action
from .state import WotrState, log

SIDE_OF = tuple(0 if NATION_SIDE[n] == "free_peoples" else 1 for n in NATIONS)


def at_war(state: WotrState, nation: int) -> bool:
    return bool(state.politics[nation] == 0)


# ``limit(state, nation, cause) -> bool``: False forbids the activation (*Wormtongue*: Rohan
# only by a Companion, a declaration, an attack on Edoras or Helm's Deep); the cards append.
ACTIVATION_LIMITS: list[Callable[[WotrState, int, str], bool]] = []


def activate(state: WotrState, nation: int, cause: str = "") -> None:
    """Flip a Passive nation to Active (no effect on an Active one). ``cause``: "companion",
    "declare", "attack", or "" for any other (an Army entering, a card, the Witch-king)."""
    if nation >= 0 and not state.active[nation] \
            and all(limit(state, nation, cause) for limit in ACTIVATION_LIMITS):
        state.active[nation] = True
        log(state, "activate", nation)


def can_advance(state: WotrState, nation: int) -> bool:
    """One more step is possible: not At War, and a Passive nation not on the last step."""
    steps = int(state.politics[nation])
    return steps > 1 or (steps == 1 and bool(state.active[nation]))


# ``hook(state, nation, cause)`` after a nation advanced (*Threats and Promises* goes when an FP
# nation advances by an "attack" or a "companion" ability); the cards append.
ADVANCE_HOOKS: list[Callable[[WotrState, int, str], None]] = []
# ``limit(state, side, nation) -> bool``: False forbids a Muster die's diplomacy on the nation
# (*Threats and Promises*: no passive FP nation); the cards append.
DIPLOMACY_LIMITS: list[Callable[[WotrState, int, int], bool]] = []


def advance(state: WotrState, nation: int, cause: str = "") -> None:
    """One step toward At War, where the track allows it. ``cause``: "attack", "companion"
    (a Companion's ability), or "" for any other."""
    if nation >= 0 and can_advance(state, nation):
        state.politics[nation] -= 1
        log(state, "politics", nation, int(state.politics[nation]))
        for hook in ADVANCE_HOOKS:
            hook(state, nation, cause)


def attacked(state: WotrState, nations: set[int]) -> None:
    """An Army holding units of ``nations`` is attacked: each is activated and moves one step
    (once per battle, however many rounds: the battle calls this once)."""
    for n in sorted(nations):
        activate(state, n, "attack")
        advance(state, n, "attack")


def diplomacy_targets(state: WotrState, side: int) -> list[int]:
    return [n for n in range(len(NATIONS)) if SIDE_OF[n] == side and can_advance(state, n)
            and all(limit(state, side, n) for limit in DIPLOMACY_LIMITS)]


def diplomacy_legal(state: WotrState, side: int) -> bool:
    return bool(diplomacy_targets(state, side))


@die_action("diplomacy", (MUSTER, ARMY_MUSTER), diplomacy_legal)
def start_diplomacy(state: WotrState, side: int, face: int) -> None:
    state.stack.append(Diplomacy(side))


@dataclass
class Diplomacy(Frame):
    """WD-31: a Muster die moves one friendly nation one step toward At War (facts §7.1)."""

    side: int

    def run(self, state: WotrState) -> Decision:
        return Decision(self.side, WD.DIPLOMACY,
                        tuple(("nation", n) for n in diplomacy_targets(state, self.side)))

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        advance(state, action[1])
