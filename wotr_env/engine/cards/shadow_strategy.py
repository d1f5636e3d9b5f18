"""Shadow Strategy deck (facts §6.5): here The Day Without Dawn and the recruiting cards; the
table cards in :mod:`.shadow_strategy_table`, the Army cards in :mod:`.shadow_strategy_army`.

*Hordes from the East* (#21) reads the regions on the map's east edge from the map data
(``board.east_edge``), a reading of facts §8.2 that no source gives (docs/wotr-rules-readings.md
R-D10)."""

from __future__ import annotations

import numpy as np

from ..decision import WILL, Action
from ..events import Condition, always, event
from ..regions import free, units
from ..state import ELITE, FREE_PEOPLES, REGULAR, SHADOW, WotrState
from .common import Choose, choice_step, nation, region
from .conditions import all_shadow_at_war, at_war, in_play
from .recruit import recruit, recruit_target


@event("sh-strat-04-the-day-without-dawn", all_shadow_at_war)
def the_day_without_dawn(state: WotrState, side: int, card: int) -> None:
    """The Free Peoples discard every unused die showing Will of the West."""
    row = state.dice[FREE_PEOPLES]
    kept = [int(f) for f in row if f >= 0 and f != WILL]
    row[:] = -1
    row[:len(kept)] = kept


# -- recruiting cards (facts §6.5 #12-#24): figures from the reinforcements, cards/recruit.py
FIXED_RECRUITS: dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]] = {
    "sh-strat-16-a-new-power-is-rising": (
        ("north-dunland", "isengard", ("regular", "regular")),
        ("south-dunland", "isengard", ("regular", "regular")),
        ("orthanc", "isengard", ("unit", "unit"))),
    "sh-strat-18-the-king-is-revealed": (
        ("minas-morgul", "sauron", ("regular",) * 5 + ("nazgul",)),),
    "sh-strat-20-orcs-multiplying-again": (
        ("dol-guldur", "sauron", ("regular",) * 3), ("mount-gundabad", "sauron", ("regular",) * 3)),
    "sh-strat-22-monsters-roused": (
        ("angmar", "sauron", ("regular",)), ("ettenmoors", "sauron", ("regular",)),
        ("weather-hills", "sauron", ("regular",)), ("trollshaws", "sauron", ("elite",))),
    "sh-strat-23-musterings-of-long-planned-war": (
        ("gorgoroth", "southrons", ("regular",) * 5), ("nurn", "sauron", ("regular",) * 5)),
}


PRECONDITIONS: dict[str, Condition] = {
    "sh-strat-16-a-new-power-is-rising": in_play("saruman"),
    "sh-strat-18-the-king-is-revealed": in_play("aragorn"),
    "sh-strat-23-musterings-of-long-planned-war": all_shadow_at_war,
}


def _fixed_recruit(card_id: str) -> None:
    @event(card_id, PRECONDITIONS.get(card_id, always))
    def play(state: WotrState, side: int, card: int) -> None:
        for where, who, figures in reversed(FIXED_RECRUITS[card_id]):
            recruit(state, side, region(state, where), nation(state, who), figures)


for _card_id in FIXED_RECRUITS:
    _fixed_recruit(_card_id)


@event("sh-strat-12-return-of-the-witch-king", in_play("witch-king"))
def return_of_the_witch_king(state: WotrState, side: int, card: int) -> None:
    """The Witch-king moves to Angmar; 2 Sauron Regulars and 1 Elite are recruited there."""
    angmar = region(state, "angmar")
    state.char_at[state.ruleset.cards.character("witch-king")] = angmar
    recruit(state, side, angmar, nation(state, "sauron"), ("regular", "regular", "elite"))


def _with_shadow_army(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    """A region holding a Shadow Army where the card may recruit."""
    return tuple(("region", r) for r in range(len(state.ruleset.board.regions))
                 if (units(state, r, SHADOW) or units(state, r, SHADOW, box=True))
                 and recruit_target(state, SHADOW, r) is not None)


@event("sh-strat-13-half-orcs-and-goblin-men", at_war("isengard"))
def half_orcs(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "one-unit-with-an-army", ("isengard",)))


@event("sh-strat-14-olog-hai", at_war("sauron"))
def olog_hai(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "one-unit-with-an-army", ("sauron",)))


@choice_step("one-unit-with-an-army", _with_shadow_army)
def _one_unit(state: WotrState, frame: Choose, action: Action) -> None:
    recruit(state, SHADOW, action[1], nation(state, frame.data[0]), ("unit",))


@event("sh-strat-15-hill-trolls", at_war("sauron"))
def hill_trolls(state: WotrState, side: int, card: int) -> None:
    """Two Sauron Regulars anywhere become Elites (the Regulars back to the reserve)."""
    state.stack.append(Choose(side, "hill-trolls", (2,)))


def _sauron_regulars(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    sauron = nation(state, "sauron")
    if frame.data[0] <= 0 or state.reserve[sauron, ELITE] <= 0:
        return ()
    return tuple(("region", int(r)) for r in np.flatnonzero(state.army[:, sauron, REGULAR]))


@choice_step("hill-trolls", _sauron_regulars)
def _hill_troll(state: WotrState, frame: Choose, action: Action) -> None:
    sauron, r = nation(state, "sauron"), action[1]
    state.army[r, sauron, REGULAR] -= 1
    state.reserve[sauron, REGULAR] += 1
    state.reserve[sauron, ELITE] -= 1
    state.army[r, sauron, ELITE] += 1
    state.stack.append(Choose(SHADOW, "hill-trolls", (frame.data[0] - 1,)))


@event("sh-strat-19-shadows-on-the-misty-mountains")
def shadows_on_the_misty_mountains(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "misty-mountains"))


@choice_step("misty-mountains", lambda state, frame: tuple(
    ("region", region(state, r)) for r in ("mount-gram", "moria")
    if recruit_target(state, SHADOW, region(state, r)) is not None))
def _misty(state: WotrState, frame: Choose, action: Action) -> None:
    recruit(state, SHADOW, action[1], nation(state, "sauron"), ("unit", "unit", "nazgul"))


def _three_places(card_id: str, nation_id: str, settlement_codes: tuple[int, ...],
                  condition: Condition) -> None:
    """2 Regulars of the nation in each of 3 different Settlements of the listed kinds."""

    @event(card_id, condition)
    def play(state: WotrState, side: int, card: int) -> None:
        state.stack.append(Choose(side, card_id, ((),)))

    def options(state: WotrState, frame: Choose) -> tuple[Action, ...]:
        chosen = frame.data[0]
        if len(chosen) >= 3:
            return ()
        board = state.ruleset.board
        n = nation(state, nation_id)
        return tuple(("region", r) for r in range(len(board.regions))
                     if board.region_nation[r] == n and board.settlement[r] in settlement_codes
                     and r not in chosen and recruit_target(state, SHADOW, r) is not None)

    @choice_step(card_id, options)
    def then(state: WotrState, frame: Choose, action: Action) -> None:
        state.stack.append(Choose(SHADOW, card_id, ((*frame.data[0], action[1]),)))
        recruit(state, SHADOW, action[1], nation(state, nation_id), ("regular", "regular"))


_three_places("sh-strat-17-many-kings-to-the-service-of-mordor", "southrons", (0, 1, 2), always)
_three_places("sh-strat-24-pits-of-mordor", "sauron", (2,), at_war("sauron"))


HORDES_FROM_THE_EAST = "sh-strat-21-hordes-from-the-east"


def eastern_regions(state: WotrState) -> list[int]:
    """Free Southron & Easterling regions touching the east edge of the map."""
    board, southrons = state.ruleset.board, nation(state, "southrons")
    return [r for r in range(len(board.regions)) if board.east_edge[r]
            and board.region_nation[r] == southrons and free(state, r, SHADOW)]


@event(HORDES_FROM_THE_EAST, at_war("southrons"))
def hordes_from_the_east(state: WotrState, side: int, card: int) -> None:
    """Southrons & Easterlings At War: 5 of their Regulars in one such region."""
    state.stack.append(Choose(side, HORDES_FROM_THE_EAST))


@choice_step(HORDES_FROM_THE_EAST, lambda state, frame: tuple(
    ("region", r) for r in eastern_regions(state)))
def _hordes_region(state: WotrState, frame: Choose, action: Action) -> None:
    recruit(state, SHADOW, action[1], nation(state, "southrons"), ("regular",) * 5)

