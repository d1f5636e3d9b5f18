"""The Shadow Character deck's table cards (facts §6.4 #15-#17, #21, #22): each stays on the
table until its discard condition, and acts through a hook of the rule it changes.

* *Worn with Sorrow and Toil* (#15): after a Hunt casualty of the Fellowship
  (``hunt_tiles.CASUALTY_HOOKS``) the Shadow may make the Free Peoples discard one Character
  card, random from hand or chosen from the table;
* *Flocks of Crebain* (#16): WD-25 before a Hunt roll (``hunt_cards``, moment "roll"), +1 to
  every die;
* both go when the Fellowship is declared in an unconquered Free Peoples City or Stronghold
  (``table.discard_when("declared")``);
* *Balrog of Moria* (#17): when a declaration's or a reveal's path (``fellowship.PATH_ENDS``)
  moves into, out of or through Moria, the Shadow may discard it to draw a tile (WD-25, moment
  "path"); its Combat use "as if played from hand" is not written yet (the Combat effects
  helper's work);
* *The Palantír of Orthanc* (#21): after each Shadow card played with an Event die
  (``events.EVENT_DIE_HOOKS``) the Shadow may draw a card (WD-37); the Free Peoples may force
  its discard with a Will of the West die, or any die and an Elven Ring (die action
  ``discard-palantir``);
* *Wormtongue* (#22): Rohan is activated only by a Companion, a declaration (its only City and
  Stronghold are Edoras and Helm's Deep), or an attack on Edoras or Helm's Deep
  (``politics.ACTIVATION_LIMITS``); the card goes when Rohan is activated;
* both need Saruman in play and go when he is eliminated
  (``battle.forces.CHARACTER_ELIMINATED``; ``table.discard_when_lapsed`` as well).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from boardkit.frames import Frame

from ...data import NATIONS
from .. import hunt  # noqa: F401  (registers the "reveal" path end wrapped below)
from ..battle.forces import CHARACTER_ELIMINATED, battle_of
from ..decision import ARMY, ARMY_MUSTER, CHARACTER, EVENT, MUSTER, WD, WILL, Action, Decision
from ..decision import choice as named
from ..dice import die_action
from ..drawing import DECK_CHOICES
from ..events import EVENT_DIE_HOOKS, event
from ..fellowship import PATH_ENDS, is_fp_city_or_stronghold
from ..hunt_cards import HuntCard, HuntDraw, register_hunt_card
from ..hunt_tiles import CASUALTY_HOOKS
from ..politics import ACTIVATION_LIMITS
from ..state import FREE_PEOPLES, SHADOW, WotrState, log
from ..turn.hand import DiscardToLimit, draw
from . import table
from .card_tile import CardTile
from .common import Choose, choice_step, region

WORN = "sh-char-15-worn-with-sorrow-and-toil"
CREBAIN = "sh-char-16-flocks-of-crebain"
BALROG = "sh-char-17-balrog-of-moria"
PALANTIR = "sh-char-21-the-palantir-of-orthanc"
WORMTONGUE = "sh-char-22-wormtongue"
ROHAN = NATIONS.index("rohan")


def on_table(state: WotrState, card_id: str) -> int:
    """The card's index if it lies on the table, else -1."""
    card = state.ruleset.cards.card(card_id)
    return card if card in state.table else -1


def saruman_in_play(state: WotrState, side: int) -> bool:
    return bool(state.char_at[state.ruleset.cards.character("saruman")] >= 0)


def _nothing(state: WotrState, side: int, card: int) -> None:
    """Played on the table: it acts through its hooks."""


for _card, _condition in ((WORN, None), (CREBAIN, None), (BALROG, None),
                          (PALANTIR, saruman_in_play), (WORMTONGUE, saruman_in_play)):
    (event(_card, _condition) if _condition else event(_card))(_nothing)


# ---------------------------------------------------------------------------------------------
# Worn with Sorrow and Toil (#15)


def _fp_character_cards(pile: list[int], state: WotrState) -> list[int]:
    deck = state.ruleset.cards.event_deck
    return sorted(c for c in set(pile) if int(deck[c]) == 2 * FREE_PEOPLES)


def _worn_casualty(state: WotrState, companion: int) -> None:
    if on_table(state, WORN) >= 0:
        state.stack.append(Choose(SHADOW, "worn-with-sorrow"))


CASUALTY_HOOKS.append(_worn_casualty)


def _worn_options(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    options: list[Action] = [("card", c) for c in _fp_character_cards(state.table, state)]
    if _fp_character_cards(state.hands[FREE_PEOPLES], state):
        options.append(named("random-card"))
    return (*options, named("no")) if options else ()


@choice_step("worn-with-sorrow", _worn_options)
def _worn(state: WotrState, frame: Choose, action: Action) -> None:
    """A table card chosen, or a Character card drawn at random from the Free Peoples' hand
    (their backs show the deck); either goes to their discard pile, face up."""
    if action == named("no"):
        return
    if action[0] == "card":
        table.discard_card(state, action[1])
        return
    cards = _fp_character_cards(state.hands[FREE_PEOPLES], state)
    state.chance.shuffle(cards)
    state.hands[FREE_PEOPLES].remove(cards[0])
    state.discards[FREE_PEOPLES].append(cards[0])
    log(state, "random-discard", FREE_PEOPLES, cards[0])


# ---------------------------------------------------------------------------------------------
# Flocks of Crebain (#16)


def _crebain(state: WotrState, card: int, draw: HuntDraw) -> HuntDraw:
    table.discard_card(state, card)
    return replace(draw, bonus=draw.bonus + 1)


register_hunt_card(CREBAIN, HuntCard("roll", lambda state, draw: True, _crebain))


# ---------------------------------------------------------------------------------------------
# The Fellowship's path: Balrog of Moria (#17); the declaration that discards #15 and #16


@dataclass
class BalrogOfMoria(Frame):
    """WD-25 (moment "path"): the Shadow may discard *Balrog of Moria* to draw a tile."""

    can_reveal: bool

    def run(self, state: WotrState) -> Decision | None:
        card = on_table(state, BALROG)
        if card < 0:
            state.stack.pop()
            return None
        return Decision(SHADOW, WD.HUNT_TABLE_CARD, (("card", card), named("no")),
                        context={"when": "path"})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        if action != named("no"):
            table.discard_card(state, action[1])
            state.stack.append(CardTile("balrog", self.can_reveal))


PathEnd = Callable[[WotrState, tuple[int, ...]], None]


def _path_end(mode: str, previous: PathEnd) -> PathEnd:
    """The path's end as before, then *Balrog of Moria*'s part in it."""

    def end(state: WotrState, path: tuple[int, ...]) -> None:
        previous(state, path)
        home = mode == "declare" and is_fp_city_or_stronghold(state, path[-1], True)
        if on_table(state, BALROG) >= 0 and len(path) > 1 and region(state, "moria") in path:
            state.stack.append(BalrogOfMoria(can_reveal=not home))
    return end


for _mode in ("declare", "reveal"):
    PATH_ENDS[_mode] = _path_end(_mode, PATH_ENDS[_mode])
for _card_id in (WORN, CREBAIN):
    table.discard_when("declared", _card_id,
                       lambda state, where: is_fp_city_or_stronghold(state, where, True))


# ---------------------------------------------------------------------------------------------
# The Palantír of Orthanc (#21)


@dataclass
class PalantirDraw(Frame):
    """WD-37: the Shadow may draw one more card, from either deck not exhausted."""

    def run(self, state: WotrState) -> Decision | None:
        decks = [named(name) for i, name in enumerate(DECK_CHOICES) if state.decks[2 + i]]
        if not decks:
            state.stack.pop()
            return None
        return Decision(SHADOW, WD.EXTRA_DRAW, (named("no"), *decks), context={"card": PALANTIR})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        if action != named("no"):
            draw(state, SHADOW, DECK_CHOICES.index(action[1]))
            state.stack.append(DiscardToLimit(SHADOW))


def _palantir_draw(state: WotrState, side: int, card: int) -> None:
    if side == SHADOW and table.in_force(state, PALANTIR) \
            and state.ruleset.cards.events[card].id != PALANTIR:
        state.stack.append(PalantirDraw())


EVENT_DIE_HOOKS.append(_palantir_draw)


def ring_free(state: WotrState) -> bool:
    """The Free Peoples hold an Elven Ring they may use this turn (spec §6.6)."""
    if not (state.rings == FREE_PEOPLES).any() or state.ring_used[FREE_PEOPLES]:
        return False
    return not (state.ruleset.rules.elven_rings_per_turn == "shared" and state.ring_used.any())


def _discard_legal(state: WotrState, side: int, face: int) -> bool:
    return side == FREE_PEOPLES and table.on_table(state, PALANTIR) \
        and (face == WILL or ring_free(state))


@die_action("discard-palantir", (CHARACTER, ARMY, MUSTER, ARMY_MUSTER, EVENT, WILL),
            _discard_legal, per_face=True)
def discard_palantir(state: WotrState, side: int, face: int) -> None:
    """A Will of the West die, or any die with an Elven Ring (which goes to the Shadow, as
    when it changes a die), discards *The Palantír of Orthanc*."""
    if face != WILL:
        ring = int(next(i for i in range(len(state.rings)) if state.rings[i] == FREE_PEOPLES))
        state.rings[ring] = SHADOW
        state.ring_used[FREE_PEOPLES] = True
        log(state, "elven-ring", FREE_PEOPLES, face, -1)
    table.discard_from_table(state, PALANTIR)


# ---------------------------------------------------------------------------------------------
# Wormtongue (#22); Saruman eliminated (#21, #22)


def _attack_on_edoras_or_helms_deep(state: WotrState) -> bool:
    try:
        battle = battle_of(state)
    except RuntimeError:  # an "attack" by a card with no battle (Ents, Dead Men)
        return False
    return battle.dst in (region(state, "edoras"), region(state, "helms-deep"))


def _wormtongue(state: WotrState, nation: int, cause: str) -> bool:
    if nation != ROHAN or not table.in_force(state, WORMTONGUE):
        return True
    allowed = cause in ("companion", "declare") or (
        cause == "attack" and _attack_on_edoras_or_helms_deep(state))
    if allowed:  # Rohan is activated: the card goes
        table.discard_from_table(state, WORMTONGUE)
    return allowed


ACTIVATION_LIMITS.append(_wormtongue)


def _saruman_eliminated(state: WotrState, character: int) -> None:
    """Both cards go at once (the sweep of ``table`` would catch them before the next die)."""
    if character == state.ruleset.cards.character("saruman"):
        for card_id in (PALANTIR, WORMTONGUE):
            table.discard_from_table(state, card_id)


CHARACTER_ELIMINATED.append(_saruman_eliminated)
for _card_id in (PALANTIR, WORMTONGUE):
    table.discard_when_lapsed(_card_id, lambda state: saruman_in_play(state, SHADOW))
