"""Free Peoples Strategy deck (facts §6.3)."""

from __future__ import annotations

from ..decision import Action
from ..events import event
from ..politics import activate, advance
from ..regions import units
from ..state import FREE_PEOPLES, SHADOW, WotrState
from .common import Choose, DrawStrategy, choice_step, nation, region
from .recruit import recruit, recruit_target


@event("fp-strat-08-wisdom-of-elrond")
def wisdom_of_elrond(state: WotrState, side: int, card: int) -> None:
    """Activate one Free Peoples nation of the player's choice and advance it one step."""
    state.stack.append(Choose(side, "wisdom-of-elrond"))


@choice_step("wisdom-of-elrond", lambda state, frame: tuple(("nation", n) for n in range(5)))
def _wisdom_nation(state: WotrState, frame: Choose, action: Action) -> None:
    activate(state, action[1])
    advance(state, action[1])


# -- recruiting cards (facts §6.3 #9, #14-#24): figures from the reinforcements, cards/recruit.py
FIXED_RECRUITS: dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]] = {
    "fp-strat-14-guards-of-the-citadel": (("minas-tirith", "gondor", ("unit", "leader")),),
    "fp-strat-15-celeborns-galadhrim": (("lorien", "elves", ("unit",)),),
    "fp-strat-17-grimbeorn-the-old-son-of-beorn": (("carrock", "the-north", ("unit", "leader")),),
    "fp-strat-18-imrahil-of-dol-amroth": (("dol-amroth", "gondor", ("unit", "leader")),),
    "fp-strat-19-king-brands-men": (("dale", "the-north", ("regular", "regular")),),
    "fp-strat-20-swords-in-eriador": (("the-shire", "the-north", ("unit",)),
                                      ("ered-luin", "dwarves", ("unit",))),
    "fp-strat-21-kindred-of-glorfindel": (("rivendell", "elves", ("unit",)),),
    "fp-strat-22-dain-ironfoots-guard": (("erebor", "dwarves", ("unit", "leader")),),
    "fp-strat-24-thranduils-archers": (("woodland-realm", "elves", ("unit",)),),
}
DRAWS_A_STRATEGY_CARD = {"fp-strat-15-celeborns-galadhrim", "fp-strat-19-king-brands-men",
                         "fp-strat-20-swords-in-eriador", "fp-strat-21-kindred-of-glorfindel",
                         "fp-strat-24-thranduils-archers"}


def _fixed_recruit(card_id: str) -> None:
    @event(card_id)
    def play(state: WotrState, side: int, card: int) -> None:
        if card_id in DRAWS_A_STRATEGY_CARD:
            state.stack.append(DrawStrategy(side))
        for where, who, figures in reversed(FIXED_RECRUITS[card_id]):
            recruit(state, side, region(state, where), nation(state, who), figures)


for _card_id in FIXED_RECRUITS:
    _fixed_recruit(_card_id)


@event("fp-strat-09-the-red-arrow", lambda state, side: bool(state.active[2]))
def the_red_arrow(state: WotrState, side: int, card: int) -> None:
    """Gondor Active: advance Rohan one step; recruit a Rohan unit and Leader in Edoras."""
    advance(state, nation(state, "rohan"))
    recruit(state, side, region(state, "edoras"), nation(state, "rohan"), ("unit", "leader"))


def _rohan_regions(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    """Riders of Théoden: Edoras, or a Rohan region with a Companion; Éomer: a free Rohan
    region with a Settlement. Only regions where a card may recruit are offered."""
    board, cards = state.ruleset.board, state.ruleset.cards
    rohan = nation(state, "rohan")
    out = []
    for r in range(len(board.regions)):
        if board.region_nation[r] != rohan or recruit_target(state, FREE_PEOPLES, r) is None:
            continue
        if frame.step == "riders-of-theoden":
            companion = any(state.char_at[c] == r and cards.characters[c].kind == "companion"
                            for c in range(len(cards.characters)))
            ok = board.regions[r].id == "edoras" or companion
        else:
            ok = 0 <= board.settlement[r] <= 2 and not units(state, r, SHADOW)
        if ok:
            out.append(("region", r))
    return tuple(out)


@event("fp-strat-16-riders-of-theoden")
def riders_of_theoden(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "riders-of-theoden"))


@event("fp-strat-23-eomer-son-of-eomund")
def eomer(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "eomer"))


def _rohan_recruit(state: WotrState, frame: Choose, action: Action) -> None:
    recruit(state, frame.side, action[1], nation(state, "rohan"), ("unit", "leader"))


choice_step("riders-of-theoden", _rohan_regions)(_rohan_recruit)
choice_step("eomer", _rohan_regions)(_rohan_recruit)
