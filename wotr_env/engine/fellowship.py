"""The Fellowship: its phase (declare, heal, enter Mordor, change the Guide), its path region
by region, its reveal, its companions and Guide (spec §14, facts §7.6, §7.9, §7.11).

The Fellowship has no secret position: the figure shows its last known region, both sides see
Progress, and where it went is chosen step by step when it is declared or revealed
(:class:`FellowshipPath`), so that the regions it crosses (Shadow Strongholds on a reveal path,
*Balrog of Moria*) are known when the rules need them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardkit.frames import Frame

from .decision import DONE, WD, Action, Decision, choice
from .politics import activate
from .state import FREE_PEOPLES, IN_FELLOWSHIP, OFF_MORDOR, SHADOW, WotrState, log
from .victory import add_corruption

MORDOR_GATES = ("minas-morgul", "morannon")


def companions_in_fellowship(state: WotrState) -> list[int]:
    """Character indices of the Companions in the Fellowship (Gollum is no Companion)."""
    chars = state.ruleset.cards.characters
    return [i for i, c in enumerate(chars)
            if c.kind == "companion" and state.char_at[i] == IN_FELLOWSHIP]


def highest_level_companions(state: WotrState) -> list[int]:
    level = state.ruleset.cards.character_level
    comps = companions_in_fellowship(state)
    if not comps:
        return []
    top = max(level[i] for i in comps)
    return [i for i in comps if level[i] == top]


def settle_guide(state: WotrState) -> None:
    """Keep the Guide a highest-Level Companion, or Gollum when none is left (facts §7.11);
    where several qualify and the Guide is not one of them, the first stands in until the
    Free Peoples choose (:class:`ChangeGuide`)."""
    cards = state.ruleset.cards
    best = highest_level_companions(state)
    if not best:
        gollum = cards.character("gollum")
        state.guide = gollum
        state.char_at[gollum] = IN_FELLOWSHIP
    elif state.guide not in best:
        state.guide = best[0]


def is_fp_city_or_stronghold(state: WotrState, region: int, unconquered: bool) -> bool:
    """A Free Peoples nation's City or Stronghold (``unconquered``: not under Shadow control)."""
    board = state.ruleset.board
    kind = board.regions[region].settlement
    if kind not in ("city", "stronghold") or board.region_side[region] != FREE_PEOPLES:
        return False
    return not unconquered or state.control[region] == FREE_PEOPLES


def fellowship_phase_frames(state: WotrState) -> list[Frame]:
    """Phase 2's steps, in order."""
    return [Declare(), EnterMordor(), ChangeGuide()]


@dataclass
class Declare(Frame):
    """WD-02: the Free Peoples may declare a Hidden Fellowship (facts §7.6)."""

    def run(self, state: WotrState) -> Decision | None:
        if state.revealed or state.mordor_step != OFF_MORDOR:
            state.stack.pop()
            return None
        return Decision(FREE_PEOPLES, WD.DECLARE_FELLOWSHIP, (choice("no"), choice("declare")))

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        if action == choice("declare"):
            state.stack.append(FellowshipPath(state.progress, (state.fellowship_region,),
                                              "declare"))


# What happens when a path is complete, by mode: declare or reveal (hunt.py registers reveal).
PATH_ENDS: dict[str, Callable[[WotrState, tuple[int, ...]], None]] = {}
# ``hook(state, region)`` after the Fellowship was declared in ``region`` (table cards discarded
# then: *The Last Battle*); the cards append.
DECLARE_HOOKS: list[Callable[[WotrState, int], None]] = []


@dataclass
class FellowshipPath(Frame):
    """WD-03: the figure moves region by region, up to ``steps`` (its Progress), then DONE.
    A revealed Fellowship may not end in a Free Peoples City or Stronghold they control."""

    steps: int
    path: tuple[int, ...]
    mode: str  # "declare" | "reveal"

    def run(self, state: WotrState) -> Decision:
        here = self.path[-1]
        steps: list[Action] = []
        if self.steps > 0:
            steps = [("region", int(r)) for r in state.ruleset.board.neighbours[here]
                     if self.mode != "reveal" or end_within(state, int(r), self.steps - 1)]
        blocked = self.mode == "reveal" and is_fp_city_or_stronghold(state, here, True)
        options = steps if blocked and steps else [DONE, *steps]
        return Decision(FREE_PEOPLES, WD.FELLOWSHIP_PATH, tuple(options),
                        context={"mode": self.mode, "steps": self.steps})

    def act(self, state: WotrState, action: Action) -> None:
        if action != DONE:
            self.path = (*self.path, action[1])
            self.steps -= 1
            return
        state.stack.pop()
        state.fellowship_region = self.path[-1]
        state.progress = 0
        state.log.append((state.turn, f"fellowship-{self.mode}", self.path))
        PATH_ENDS.get(self.mode, end_declaration)(state, self.path)


def end_within(state: WotrState, start: int, steps: int) -> bool:
    """A revealed Fellowship at ``start`` can still end its path within ``steps`` regions
    outside every FP-controlled City and Stronghold, so that a step never leads it into a
    dead end (a reveal path that cannot end legally stays where it is: facts §7.6)."""
    board = state.ruleset.board
    seen, frontier = {start}, [start]
    for i in range(steps + 1):
        if any(not is_fp_city_or_stronghold(state, r, True) for r in frontier):
            return True
        if i == steps:
            break
        frontier = [int(n) for r in frontier for n in board.neighbours[r] if int(n) not in seen]
        seen.update(frontier)
    return False


def end_declaration(state: WotrState, path: tuple[int, ...]) -> None:
    """A declaration in a Free Peoples City or Stronghold activates its nation and, if it is
    not under enemy control, heals one Corruption (facts §7.5, §7.6)."""
    here = path[-1]
    if is_fp_city_or_stronghold(state, here, False):
        activate(state, int(state.ruleset.board.region_nation[here]), "declare")
    if is_fp_city_or_stronghold(state, here, True):
        add_corruption(state, -1)
    state.declared_in = here
    for hook in DECLARE_HOOKS:
        hook(state, here)


PATH_ENDS["declare"] = end_declaration

# ``hook(state)`` when the Fellowship becomes Revealed (table cards discarded then: *The Last
# Battle*); the cards append.
REVEAL_HOOKS: list[Callable[[WotrState], None]] = []


def reveal(state: WotrState) -> None:
    """The Fellowship is revealed (a tile, Gollum, a card): off the Mordor Track the Free
    Peoples then move the figure up to Progress regions (WD-03, facts §7.6); on the Track it
    does not move (facts §7.9). Nothing happens to a Fellowship already Revealed."""
    if state.revealed:
        return
    state.revealed = True
    log(state, "fellowship-revealed")
    for hook in REVEAL_HOOKS:
        hook(state)
    if state.mordor_step == OFF_MORDOR:
        state.stack.append(FellowshipPath(state.progress, (state.fellowship_region,), "reveal"))


@dataclass
class EnterMordor(Frame):
    """WD-04 (facts §7.9): in Minas Morgul or Morannon the Free Peoples may enter Mordor;
    in 1e only after declaring there this phase (``rules.mordor_entry``)."""

    def run(self, state: WotrState) -> Decision | None:
        board = state.ruleset.board
        at_gate = (state.mordor_step == OFF_MORDOR
                   and board.regions[state.fellowship_region].id in MORDOR_GATES)
        if at_gate and state.ruleset.rules.mordor_entry == "declared":
            at_gate = state.declared_in == state.fellowship_region
        if not at_gate:
            state.stack.pop()
            return None
        return Decision(FREE_PEOPLES, WD.ENTER_MORDOR, (choice("no"), choice("yes")))

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        if action == choice("yes"):
            enter_mordor(state)


def enter_mordor(state: WotrState) -> None:
    """The figure goes to step 0 of the Mordor Track; the Hunt Pool takes back the Eye tiles
    drawn so far and every special tile put into play (facts §7.9)."""
    eye = state.ruleset.cards.tile_eye
    eyes = [t for t in state.hunt_drawn if eye[t]]
    state.hunt_drawn = [t for t in state.hunt_drawn if t not in eyes]
    state.hunt_pool.extend(eyes + state.specials_in_play)
    state.specials_in_play = []
    state.mordor_step = 0
    state.log.append((state.turn, "enter-mordor"))


@dataclass
class ChangeGuide(Frame):
    """WD-05: at the end of the Fellowship phase the Guide may change to another
    highest-Level Companion (facts §7.6)."""

    def run(self, state: WotrState) -> Decision | None:
        settle_guide(state)
        best = highest_level_companions(state)
        if len(best) < 2:
            state.stack.pop()
            return None
        return Decision(FREE_PEOPLES, WD.CHANGE_GUIDE, tuple(("character", c) for c in best))

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        if action[1] != state.guide:
            state.log.append((state.turn, "guide", action[1]))
        state.guide = action[1]


def mordor_idle_penalty(state: WotrState) -> None:
    """At the end of Action Resolution, a Fellowship on the Mordor Track that neither moved
    nor hid this turn gains one Corruption (facts §7.9)."""
    if state.mordor_step != OFF_MORDOR and not state.fellowship_acted:
        add_corruption(state, 1)


__all__ = ["DECLARE_HOOKS", "PATH_ENDS", "REVEAL_HOOKS", "SHADOW", "FellowshipPath",
           "companions_in_fellowship", "enter_mordor", "fellowship_phase_frames",
           "highest_level_companions", "reveal", "settle_guide"]
