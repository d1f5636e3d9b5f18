"""The Shadow Character cards that move the Nazgûl (facts §6.4 #9, #11, #23, #24).

"Move any or all Nazgûl" is the Character die's move (:class:`~..minions.MoveMinions`) for the
Nazgûl alone: the Witch-king, who counts as a Nazgûl for card text unless named (facts §3.4),
flies with them; the Mouth of Sauron does not. An Army "that contains a Nazgûl" (or the
Witch-king) keeps one with the part that moves or fights: :class:`ArmyWith` and
:class:`KeepFighting` take from the usual moves and rearguards the options that would leave it
behind.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from boardkit.frames import Frame

from ..armies import ArmyMove, edges, movable, movable_characters
from ..battle.attack import Rearguard, attack_targets, start_battle
from ..battle.forces import SORTIE, army_at, units_in
from ..decision import DONE, WD, Action, Decision, choice
from ..events import event
from ..fellowship import reveal
from ..hunt import HuntRoll
from ..minions import MoveMinions, minion_destinations
from ..state import FREE_PEOPLES, NAZGUL, OFF_MORDOR, SHADOW, WotrState, log
from . import table
from .common import SAURON, Choose, choice_step, witch_king
from .conditions import progress
from .recruit import recruit, recruit_target


@dataclass
class MoveNazgul(MoveMinions):
    """Move any or all Nazgûl (WD-24): the Nazgûl and the Witch-king, no other Minion."""

    def run(self, state: WotrState) -> Decision | None:
        decision = super().run(state)
        if decision is None or decision.context.get("stage") != "source":
            return decision
        wk = witch_king(state)
        options = tuple(o for o in decision.options if o[0] != "character" or o[1] == wk)
        if options == (DONE,):
            state.stack.pop()
            return None
        return replace(decision, options=options)


def nazgul_with_fellowship(state: WotrState) -> bool:
    """A Nazgûl (or the Witch-king) is in the Fellowship's region (none on the Mordor Track)."""
    if state.mordor_step != OFF_MORDOR:
        return False
    r = state.fellowship_region
    return bool(state.army[r, SAURON, NAZGUL] + state.box[r, SAURON, NAZGUL] > 0
                or state.char_at[witch_king(state)] == r)


@dataclass
class NazgulFound(Frame):
    """After the Nazgûl moved: with one in the Fellowship's region, *Nazgûl Search* reveals
    the Fellowship (the Free Peoples then move the figure, facts §7.6), *The Nazgûl Strike!*
    lets the Shadow choose its blow."""

    then: str  # "reveal" | "strike"

    def run(self, state: WotrState) -> None:
        state.stack.pop()
        if not nazgul_with_fellowship(state):
            return None
        log(state, "nazgul-find-fellowship", self.then)
        if self.then == "reveal":
            reveal(state)
        else:
            state.stack.append(Choose(SHADOW, "nazgul-strike"))
        return None


@event("sh-char-09-nazgul-search", progress)
def nazgul_search(state: WotrState, side: int, card: int) -> None:
    state.stack.append(NazgulFound("reveal"))
    state.stack.append(MoveNazgul())


@event("sh-char-11-the-nazgul-strike", progress)
def the_nazgul_strike(state: WotrState, side: int, card: int) -> None:
    state.stack.append(NazgulFound("strike"))
    state.stack.append(MoveNazgul())


def fp_character_cards_on_table(state: WotrState) -> list[int]:
    deck = state.ruleset.cards.event_deck
    return sorted(c for c in state.table if int(deck[c]) == 2 * FREE_PEOPLES)


@choice_step("nazgul-strike", lambda state, frame: (
    *(("card", c) for c in fp_character_cards_on_table(state)), choice("hunt-roll")))
def _strike(state: WotrState, frame: Choose, action: Action) -> None:
    """Discard one Free Peoples Character card from the table, or a Hunt roll as if the
    Fellowship had moved (no Progress, no die into the Hunt Box)."""
    if action == choice("hunt-roll"):
        state.stack.append(HuntRoll())
    else:
        table.discard_card(state, action[1])


# ---------------------------------------------------------------------------------------------
# An Army with a Nazgûl, or with the Witch-king


def carries(state: WotrState, need: str, region: int, moved: tuple = (),
            moved_chars: tuple[int, ...] = ()) -> bool:
    """The side's unmoved figures in ``region`` include what ``need`` names ("nazgul": a
    Nazgûl or the Witch-king; "witch-king")."""
    wk_here = witch_king(state) in movable_characters(state, SHADOW, region, moved_chars)
    if need == "witch-king":
        return wk_here
    return wk_here or movable(state, SHADOW, region, moved)[SAURON, NAZGUL] > 0


@dataclass
class ArmyWith(ArmyMove):
    """An Army move (WD-09/10) whose moving part holds a Nazgûl (``need`` "nazgul") or the
    Witch-king ("witch-king")."""

    need: str = "nazgul"

    def run(self, state: WotrState) -> Decision | None:
        decision = super().run(state)
        if decision is None or decision.kind != WD.ARMY_MOVE:
            return decision
        options = tuple(o for o in decision.options if o == DONE or carries(
            state, self.need, o[1], self.moved, self.moved_chars))
        if not options:
            state.stack.pop()
            return None
        return replace(decision, options=options)

    def leave_options(self, state: WotrState) -> list[Action]:
        figs, chars = self.group(state)
        wk = witch_king(state)

        def strips(o: Action) -> bool:
            if o == ("character", wk):
                return self.need == "witch-king" or figs[SAURON, NAZGUL] == 0
            if o == ("unit", SAURON, NAZGUL):
                return self.need == "nazgul" and wk not in chars and figs[SAURON, NAZGUL] <= 1
            return False

        return [o for o in super().leave_options(state) if not strips(o)]


def army_moves(state: WotrState, need: str) -> bool:
    return any(carries(state, need, e[1]) for e in edges(state, SHADOW, True))


def fights_from(state: WotrState, need: str, target: Action) -> bool:
    """The attacking Army of ``target`` (a WD-11 option) holds what ``need`` names."""
    src = target[1]
    box = target[0] == "region" and units_in(state, src, SHADOW, box=True) > 0
    wk = witch_king(state)
    wk_here = state.char_at[wk] == src and bool(state.char_in_box[wk]) == box
    if need == "witch-king":
        return wk_here
    return wk_here or (state.box if box else state.army)[src, SAURON, NAZGUL] > 0


def attacks_with(state: WotrState, need: str) -> list[Action]:
    return [t for t in attack_targets(state, SHADOW, leader=True) if fights_from(state, need, t)]


@dataclass
class KeepFighting(Rearguard):
    """The rearguard (WD-12) of an attack by an Army with a Nazgûl or the Witch-king: what
    ``need`` names is never held back."""

    need: str = "nazgul"

    def run(self, state: WotrState) -> Decision:
        decision = super().run(state)
        force = army_at(state, self.src, SHADOW, self.kind == SORTIE) - self.holding()
        wk = witch_king(state)
        wk_fights = state.char_at[wk] == self.src and wk not in self.rear_chars \
            and bool(state.char_in_box[wk]) == (self.kind == SORTIE)

        def keeps(o: Action) -> bool:
            if o == ("character", wk):
                return self.need == "nazgul" and force[SAURON, NAZGUL] > 0
            if o == ("unit", SAURON, NAZGUL):
                return self.need == "witch-king" or wk_fights or force[SAURON, NAZGUL] > 1
            return True

        return replace(decision, options=tuple(o for o in decision.options if keeps(o)))


def attack_keeping(state: WotrState, target: Action, need: str) -> None:
    """``start_battle``, its rearguard keeping what ``need`` names in the fight."""
    start_battle(state, SHADOW, target, leader=True)
    rg = state.stack.pop()
    state.stack.append(KeepFighting(rg.side, rg.src, rg.dst, rg.kind, rg.leader,
                                    rg.siege_rounds, need=need))


def move_or_attack(state: WotrState, need: str) -> tuple[Action, ...]:
    return ((choice("move"),) if army_moves(state, need) else ()) + (
        (choice("attack"),) if attacks_with(state, need) else ())


def then_move_or_attack(state: WotrState, action: Action, need: str, moves: int) -> None:
    if action == choice("move"):
        state.stack.append(ArmyWith(SHADOW, moves, True, need=need))
    elif action == choice("attack"):
        state.stack.append(Choose(SHADOW, "attack-with", (need,)))


@choice_step("attack-with", lambda state, frame: tuple(attacks_with(state, frame.data[0])))
def _attack_with(state: WotrState, frame: Choose, action: Action) -> None:
    attack_keeping(state, action, frame.data[0])


# ---------------------------------------------------------------------------------------------
# The Ringwraiths Are Abroad (#23), The Black Captain Commands (#24)


@event("sh-char-23-the-ringwraiths-are-abroad")
def the_ringwraiths_are_abroad(state: WotrState, side: int, card: int) -> None:
    """Move any or all Nazgûl; then move two Armies with a Nazgûl, or attack with one."""
    state.stack.append(Choose(SHADOW, "ringwraiths-abroad"))
    state.stack.append(MoveNazgul())


@choice_step("ringwraiths-abroad", lambda state, frame: move_or_attack(state, "nazgul"))
def _ringwraiths(state: WotrState, frame: Choose, action: Action) -> None:
    then_move_or_attack(state, action, "nazgul", 2)


def witch_king_in_play(state: WotrState, side: int) -> bool:
    return bool(state.char_at[witch_king(state)] >= 0)


@event("sh-char-24-the-black-captain-commands", witch_king_in_play)
def the_black_captain_commands(state: WotrState, side: int, card: int) -> None:
    """Recruit 2 Nazgûl with the Witch-king, or move any or all Nazgûl; then the Witch-king's
    Army may move, or attack."""
    state.stack.append(Choose(SHADOW, "black-captain-army"))
    state.stack.append(Choose(SHADOW, "black-captain"))


def _black_captain_options(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    wk_at = int(state.char_at[witch_king(state)])
    options: list[Action] = []
    if wk_at >= 0 and state.reserve[SAURON, NAZGUL] > 0 \
            and recruit_target(state, SHADOW, wk_at) is not None:
        options.append(choice("recruit"))
    if state.army[:, SAURON, NAZGUL].any() or minion_destinations(state, witch_king(state)):
        options.append(choice("move"))
    return tuple(options)


@choice_step("black-captain", _black_captain_options)
def _black_captain(state: WotrState, frame: Choose, action: Action) -> None:
    if action == choice("recruit"):
        recruit(state, SHADOW, int(state.char_at[witch_king(state)]), SAURON,
                ("nazgul", "nazgul"))
    else:
        state.stack.append(MoveNazgul())


@choice_step("black-captain-army", lambda state, frame: (
    (*options, choice("no")) if (options := move_or_attack(state, "witch-king")) else ()))
def _black_captain_army(state: WotrState, frame: Choose, action: Action) -> None:
    then_move_or_attack(state, action, "witch-king", 1)
