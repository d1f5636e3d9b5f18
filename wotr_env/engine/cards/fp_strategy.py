"""Free Peoples Strategy deck (facts §6.3): here the political and recruiting cards; the
table cards in :mod:`.fp_strategy_table`, the Army cards in :mod:`.fp_strategy_army`.

*Círdan's Ships* (#13) reads the coastal regions from the map data (``board.coastal``), a
reading of facts §8.2 that no source gives (docs/wotr-rules-readings.md R-D8)."""

from __future__ import annotations

from dataclasses import dataclass

from boardkit.frames import Frame

from ..companions import MOVING_KINDS, MoveCompanions
from ..decision import Action
from ..events import event
from ..politics import activate, advance
from ..regions import units
from ..state import FREE_PEOPLES, SHADOW, WotrState, log
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


CIRDANS_SHIPS = "fp-strat-13-cirdans-ships"


def coastal_fp_armies(state: WotrState) -> list[int]:
    """Coastal regions holding a Free Peoples Army (in the field, or besieged in the box: a card
    may reinforce a besieged Stronghold) where a card may recruit."""
    board = state.ruleset.board
    return [r for r in range(len(board.regions)) if board.coastal[r]
            and (units(state, r, FREE_PEOPLES) or units(state, r, FREE_PEOPLES, box=True))
            and recruit_target(state, FREE_PEOPLES, r) is not None]


@event(CIRDANS_SHIPS, lambda state, side: bool(state.politics[nation(state, "elves")] == 0))
def cirdans_ships(state: WotrState, side: int, card: int) -> None:
    """Elves At War: 2 Elven units (each Regular or Elite) in a coastal region with an FP Army;
    with no such region the card is played for nothing (facts §6 card rules)."""
    state.stack.append(Choose(side, CIRDANS_SHIPS))


@choice_step(CIRDANS_SHIPS, lambda state, frame: tuple(
    ("region", r) for r in coastal_fp_armies(state)))
def _cirdans_region(state: WotrState, frame: Choose, action: Action) -> None:
    recruit(state, FREE_PEOPLES, action[1], nation(state, "elves"), ("unit", "unit"))


# -- Companions on the move (facts §6.3 #4, #7) -----------------------------------------------
ROUSED_BY_COMPANIONS = {"fp-strat-04-book-of-mazarbul": ("dwarves", ("erebor", "ered-luin")),
                        "fp-strat-07-fear-fire-foes": ("the-north", ("the-shire", "bree"))}


@dataclass
class RouseIfCompanionThere(Frame):
    """After the Companions moved: if one (Aragorn and Gandalf the White included, not Gollum)
    stands in one of ``places``, the nation is activated and put straight At War."""

    nation_id: str
    places: tuple[str, ...]

    def run(self, state: WotrState) -> None:
        state.stack.pop()
        chars = state.ruleset.cards.characters
        there = {region(state, p) for p in self.places}
        if any(ch.kind in MOVING_KINDS and int(state.char_at[c]) in there
               for c, ch in enumerate(chars)):
            n = nation(state, self.nation_id)
            activate(state, n)
            if state.active[n] and state.politics[n] > 0:
                state.politics[n] = 0
                log(state, "politics", n, 0)
        return None


def _rousing_card(card_id: str) -> None:
    @event(card_id)
    def play(state: WotrState, side: int, card: int) -> None:
        """Move any or all Companions on the map (as a Character die does), then the test."""
        state.stack.append(RouseIfCompanionThere(*ROUSED_BY_COMPANIONS[card_id]))
        state.stack.append(MoveCompanions())


for _card_id in ROUSED_BY_COMPANIONS:
    _rousing_card(_card_id)

