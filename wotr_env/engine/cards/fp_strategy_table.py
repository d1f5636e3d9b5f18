"""Free Peoples Strategy cards played on the table (facts §6.3 #1-#3); their discards through
:mod:`.table`.

*The Last Battle*: while Aragorn stands with a Free Peoples Army outside every Free Peoples
nation, a die that moves the Fellowship stays out of the Hunt Box (``hunt.HUNT_BOX_EXEMPT``);
it goes when the Fellowship is declared or revealed, or when its condition lapses.

*A Power too Great*, *The Power of Tom Bombadil*: a nation advances; while the card lies on the
table the Shadow's Armies may neither move into nor attack three regions
(``armies.CLOSED_REGIONS``). The Shadow ends it with any die plus one Army-icon card and one
Character card discarded from his hand (die action ``discard-table-card``).
"""

from __future__ import annotations

from ..armies import CLOSED_REGIONS
from ..decision import Action
from ..events import event
from ..hunt import HUNT_BOX_EXEMPT
from ..politics import advance
from ..regions import units
from ..state import FREE_PEOPLES, SHADOW, WotrState, log
from .common import Choose, choice_step, nation
from .table import discard_when, discard_when_lapsed, discard_with_die, in_force

LAST_BATTLE = "fp-strat-01-the-last-battle"
POWER_TOO_GREAT = "fp-strat-02-a-power-too-great"
TOM_BOMBADIL = "fp-strat-03-the-power-of-tom-bombadil"


def aragorn_with_army_abroad(state: WotrState, side: int = FREE_PEOPLES) -> bool:
    """Aragorn is with a Free Peoples Army (field or box) in a region of no Free Peoples
    nation (facts §6.3 #1)."""
    aragorn = state.ruleset.cards.character("aragorn")
    r = int(state.char_at[aragorn])
    if r < 0:
        return False
    owner = int(state.ruleset.board.region_nation[r])
    return (owner < 0 or owner >= 5) and units(state, r, FREE_PEOPLES,
                                               box=bool(state.char_in_box[aragorn])) > 0


@event(LAST_BATTLE, aragorn_with_army_abroad)
def the_last_battle(state: WotrState, side: int, card: int) -> None:
    """On the table (``play_card``); its rule is the Hunt Box exemption below."""


discard_when_lapsed(LAST_BATTLE, aragorn_with_army_abroad)
discard_when("declared", LAST_BATTLE)
discard_when("revealed", LAST_BATTLE)
HUNT_BOX_EXEMPT.append(lambda state: in_force(state, LAST_BATTLE))


# -- the regions closed to the Shadow ---------------------------------------------------------
CLOSED_BY = {POWER_TOO_GREAT: ("elves", ("lorien", "rivendell", "grey-havens")),
             TOM_BOMBADIL: ("the-north", ("old-forest", "the-shire", "buckland"))}


def _closing_card(card_id: str) -> None:
    who, places = CLOSED_BY[card_id]

    @event(card_id)
    def play(state: WotrState, side: int, card: int) -> None:
        advance(state, nation(state, who))

    def closes(state: WotrState, side: int, r: int) -> bool:
        return side == SHADOW and in_force(state, card_id) and \
            state.ruleset.board.regions[r].id in places

    CLOSED_REGIONS.append(closes)
    discard_with_die(card_id, SHADOW, lambda state, face: _cost_payable(state), "end-closing")


def _army_cards(state: WotrState) -> list[int]:
    """Army-icon cards in the Shadow's hand."""
    icon = state.ruleset.cards.event_icon
    return sorted({c for c in state.hands[SHADOW] if int(icon[c]) == 1})


def _character_cards(state: WotrState) -> list[int]:
    """Character cards (of a Character deck) in the Shadow's hand."""
    deck = state.ruleset.cards.event_deck
    return sorted({c for c in state.hands[SHADOW] if int(deck[c]) % 2 == 0})


def _cost_payable(state: WotrState) -> bool:
    return bool(_army_cards(state)) and bool(_character_cards(state))


for _card_id in CLOSED_BY:
    _closing_card(_card_id)


@choice_step("end-closing", lambda state, frame: tuple(("card", c) for c in _army_cards(state)),
             private=True)
def _discard_army_card(state: WotrState, frame: Choose, action: Action) -> None:
    _discard_from_hand(state, action[1])
    state.stack.append(Choose(SHADOW, "end-closing-character"))


@choice_step("end-closing-character",
             lambda state, frame: tuple(("card", c) for c in _character_cards(state)),
             private=True)
def _discard_character_card(state: WotrState, frame: Choose, action: Action) -> None:
    _discard_from_hand(state, action[1])


def _discard_from_hand(state: WotrState, card: int) -> None:
    state.hands[SHADOW].remove(card)
    state.discards[SHADOW].append(card)
    log(state, "discard-face-up", SHADOW, card)


__all__ = ["CLOSED_BY", "LAST_BATTLE", "POWER_TOO_GREAT", "TOM_BOMBADIL",
           "aragorn_with_army_abroad"]
