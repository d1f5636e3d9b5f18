"""Army moves by Event card (facts §6.3 #11 #12, §6.5 #7 #8): an Army, or a part of it split off
first, moves along a path of regions or straight to a named one, picking up and dropping nobody
on the way (rulebook p.28 "Using an Event card to move Armies", restated in facts §6).

:class:`CardMove` asks, for each Army the card moves: the region it leaves (WD-34), the part
that goes (WD-10: ``all``, or ``part`` then the figures left behind, one at a time, DONE), then
each step (WD-09: ``("edge", from, to)`` across a border, or ``("region", to)`` where the card
sends the Army straight to a region that need not border it, which no border action could
name; DONE ends the path where the card allows it); the Army then goes along the path in one go.
The card's :class:`MoveRule` says how far, where the path may lead (``nexts``: the neighbours by
default; a card that moves "straight to" a region names it), where it may end, which Armies may
go and what the moving part must keep.

Every step obeys the rules the card does not override: the region is free for army movement
(no enemy units in its field), no card in play closes it to the side (``armies.closed``), every
moving figure may enter it (a nation not At War stays within its borders), no region is entered
twice. A step is offered only if the path can still end where the card allows. Once the path is
chosen the figures move along it region by region (``armies.move_figures``: an enemy Settlement
without defenders is captured on entering, even on the way, and a Shadow Army entering a Free
Peoples nation's region activates it). The stacking limit is checked where the Army ends
(WD-36). Figures that moved in this card may not move again in it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from boardkit.frames import Frame

from ..armies import Moved, check_stacking, closed, may_enter, movable, movable_characters
from ..armies import move_figures as army_move
from ..battle.siege import settle_siege
from ..decision import DONE, WD, Action, Decision, choice
from ..regions import NATIONS_OF, enter, free_for_movement, lone_leaders, units
from ..state import FREE_PEOPLES, LEADER, NAZGUL, WotrState, log

N_NATIONS, N_KINDS = 8, 4


@dataclass(frozen=True)
class MoveRule:
    """How a card moves an Army (see the module docstring)."""

    steps: int
    sources: Callable[[WotrState, int], list[int]]  # (state, side) -> regions to leave
    ends: Callable[[WotrState, CardMove, int], bool]  # may the path end in region?
    nexts: Callable[[WotrState, CardMove, int], list[int]] | None = None  # default: neighbours
    keeps: Callable[[WotrState, tuple[int, ...]], bool] = lambda state, chars: True
    from_box: bool = False  # the source Army may be inside its Stronghold's box


MOVE_RULES: dict[str, MoveRule] = {}


@dataclass
class CardMove(Frame):
    """WD-34, WD-10, WD-09 for one card: ``moves_left`` different Armies (DONE after the
    first ends the card's moves)."""

    side: int
    rule: str
    moves_left: int = 1
    moved: Moved = ()
    moved_chars: tuple[int, ...] = ()
    src: int = -1
    box: bool = False
    stage: str = "source"  # source, split, part, path
    stay: tuple[tuple[int, int], ...] = ()
    stay_chars: tuple[int, ...] = ()
    group: tuple[int, ...] = ()  # flat (nation * 4 + kind) counts of the moving part
    chars: tuple[int, ...] = ()
    path: tuple[int, ...] = ()  # the regions entered so far

    # -- what moves ---------------------------------------------------------------------------
    def available(self, state: WotrState, region: int, box: bool) -> np.ndarray:
        if box:
            figs = np.zeros(state.army.shape[1:], np.int16)
            figs[NATIONS_OF[self.side]] = state.box[region, NATIONS_OF[self.side]]
            return figs
        return movable(state, self.side, region, self.moved).astype(np.int16)

    def available_chars(self, state: WotrState, region: int, box: bool) -> tuple[int, ...]:
        if box:
            level = state.ruleset.cards.character_level
            side_of = state.ruleset.cards.character_side
            return tuple(int(c) for c in np.flatnonzero((state.char_at == region)
                                                         & state.char_in_box)
                         if side_of[c] == self.side and level[c] > 0)
        return movable_characters(state, self.side, region, self.moved_chars)

    def going(self, state: WotrState) -> tuple[np.ndarray, tuple[int, ...]]:
        figs = self.available(state, self.src, self.box)
        for n, k in self.stay:
            figs[n, k] -= 1
        chars = tuple(c for c in self.available_chars(state, self.src, self.box)
                      if c not in self.stay_chars)
        return figs, chars

    def figures(self) -> np.ndarray:
        return np.array(self.group, np.int16).reshape(N_NATIONS, N_KINDS)

    # -- where it may go ----------------------------------------------------------------------
    def steps_from(self, state: WotrState, here: int, visited: tuple[int, ...]) -> list[int]:
        rule = MOVE_RULES[self.rule]
        options = rule.nexts(state, self, here) if rule.nexts is not None else \
            [int(r) for r in state.ruleset.board.neighbours[here]]
        figs = self.figures()
        return [b for b in options if b not in visited
                and free_for_movement(state, b, self.side) and not closed(state, self.side, b)
                and not (figs * ~may_enter(state, b)).any()]

    def can_end(self, state: WotrState, here: int, left: int, visited: tuple[int, ...]) -> bool:
        """The path standing in ``here`` (entered already) can end where the card allows."""
        if MOVE_RULES[self.rule].ends(state, self, here):
            return True
        return left > 0 and any(self.can_end(state, b, left - 1, (*visited, b))
                                for b in self.steps_from(state, here, visited))

    def next_steps(self, state: WotrState) -> list[int]:
        here = self.path[-1] if self.path else self.src
        left = MOVE_RULES[self.rule].steps - len(self.path)
        if left <= 0:
            return []
        visited = (self.src, *self.path)
        return [b for b in self.steps_from(state, here, visited)
                if self.can_end(state, b, left - 1, (*visited, b))]

    def can_go(self, state: WotrState, figs: np.ndarray) -> bool:
        """``figs`` (with a unit) leaving the source can make a move the card allows."""
        if figs[:, :2].sum() == 0:
            return False
        trial = replace(self, group=tuple(int(x) for x in figs.flat), path=())
        return bool(trial.next_steps(state))

    def could_go(self, state: WotrState, figs: np.ndarray) -> bool:
        """Some part of ``figs`` can go: the units of one nation with those of the nations At
        War and the Nazgûl (a nation not At War only keeps the others within its borders, so
        leaving the other nations' figures behind is what a split can do)."""
        free = figs.copy()
        free[state.politics != 0] = 0
        free[:, NAZGUL] = figs[:, NAZGUL]
        for n in np.flatnonzero(figs[:, :2].sum(axis=1)):
            part = free.copy()
            part[n] = figs[n]
            if self.can_go(state, part):
                return True
        return False

    def source_ok(self, state: WotrState, region: int) -> bool:
        """Some part of the Army there can make a move the card allows."""
        trial = replace(self, src=region, box=self.source_box(state, region), stay=(),
                        stay_chars=(), path=())
        figs, chars = trial.going(state)
        return MOVE_RULES[self.rule].keeps(state, chars) and trial.could_go(state, figs)

    def source_box(self, state: WotrState, region: int) -> bool:
        return MOVE_RULES[self.rule].from_box and units(state, region, self.side) == 0 \
            and units(state, region, self.side, box=True) > 0

    # -- decisions ----------------------------------------------------------------------------
    def run(self, state: WotrState) -> Decision | None:
        if self.stage == "source":
            options: list[Action] = [("region", r) for r in
                                     MOVE_RULES[self.rule].sources(state, self.side)
                                     if self.source_ok(state, r)]
            if not options:
                state.stack.pop()
                return None
            if self.moved:
                options.insert(0, DONE)
            return Decision(self.side, WD.EVENT_CHOICE, tuple(options),
                            context={"card_move": self.rule})
        if self.stage in ("split", "part"):
            leave = self.leave_options(state)
            goes = self.can_go(state, self.going(state)[0])
            if self.stage == "split":
                options = ([choice("all")] if goes else []) + ([choice("part")] if leave else [])
            else:
                options = ([DONE] if goes and (self.stay or self.stay_chars) else []) + leave
            return Decision(self.side, WD.SPLIT_ARMY, tuple(options),
                            context={"region": self.src, "part": self.stage == "part"})
        here = self.path[-1] if self.path else self.src
        jump = MOVE_RULES[self.rule].nexts is not None
        options = [("region", b) if jump else ("edge", here, b) for b in self.next_steps(state)]
        if self.path and MOVE_RULES[self.rule].ends(state, self, here):
            options.insert(0, DONE)
        return Decision(self.side, WD.ARMY_MOVE, tuple(options), context={"card_move": self.rule})

    def leave_options(self, state: WotrState) -> list[Action]:
        """Figures that may stay behind: some part of what goes can still make a move the card
        allows (:meth:`could_go`), keeps what the card needs; a Free Peoples Leader stays only
        where a unit stays."""
        figs, chars = self.going(state)
        staying_units = (units(state, self.src, self.side, self.box)
                         - int(figs[:, :2].sum()))
        out: list[Action] = []
        for n, k in zip(*np.nonzero(figs), strict=True):
            trial = figs.copy()
            trial[n, k] -= 1
            if (k == LEADER and self.side == FREE_PEOPLES and staying_units == 0) \
                    or not self.could_go(state, trial):
                continue
            out.append(("unit", int(n), int(k)))
        keeps = MOVE_RULES[self.rule].keeps
        out += [("character", c) for c in chars if keeps(state, tuple(x for x in chars if x != c))]
        return out

    def act(self, state: WotrState, action: Action) -> None:
        if self.stage == "source":
            if action == DONE:
                state.stack.pop()
                return
            self.src, self.stage = action[1], "split"
            self.box = self.source_box(state, self.src)
        elif action == choice("part"):
            self.stage = "part"
        elif action[0] == "unit":
            self.stay = (*self.stay, (action[1], action[2]))
        elif action[0] == "character":
            self.stay_chars = (*self.stay_chars, action[1])
        elif self.stage in ("split", "part"):  # "all", or DONE after what stays
            figs, chars = self.going(state)
            self.group, self.chars, self.stage = tuple(int(x) for x in figs.flat), chars, "path"
        elif action == DONE:
            self.finish(state)
        else:  # ("edge", here, to) or, for a card's jump, ("region", to)
            self.step(state, action[-1])

    def step(self, state: WotrState, to: int) -> None:
        self.path = (*self.path, to)
        if not self.next_steps(state):  # the path can go no further
            self.finish(state)

    def finish(self, state: WotrState) -> None:
        """The Army goes along its path, region by region, in one go (no decision between:
        only its end counts for the stacking limit)."""
        figs = self.figures()
        here = self.src
        for i, to in enumerate(self.path):
            if self.box and i == 0:
                leave_box(state, self.side, here, to, figs, self.chars)
            else:
                army_move(state, self.side, here, to, figs, self.chars)
            here = to
        end = self.path[-1]
        self.moved = (*self.moved, *((end, int(n), int(k)) for n, k in zip(*np.nonzero(figs),
                                                                            strict=True)
                                     for _ in range(int(figs[n, k]))))
        self.moved_chars = (*self.moved_chars, *self.chars)
        self.moves_left -= 1
        self.src, self.box, self.stage, self.path = -1, False, "source", ()
        self.stay, self.stay_chars, self.group, self.chars = (), (), (), ()
        if self.moves_left == 0:
            state.stack.pop()
        check_stacking(state, self.side, end)


def leave_box(state: WotrState, side: int, src: int, to: int, figs: np.ndarray,
              chars: tuple[int, ...]) -> None:
    """A besieged Army leaves its Stronghold's box by card: left without units, the box's
    Leaders die and the Stronghold falls to the besiegers (facts §7.3, §7.4)."""
    state.box[src] -= figs.astype(np.int8)
    state.army[to] += figs.astype(np.int8)
    for c in chars:
        state.char_at[c] = to
        state.char_in_box[c] = False
    log(state, "army-move", side, src, to, tuple(int(x) for x in figs.ravel()), tuple(chars))
    lone_leaders(state, src)
    settle_siege(state, src, side)
    enter(state, to, side)


__all__ = ["MOVE_RULES", "CardMove", "MoveRule", "leave_box"]
