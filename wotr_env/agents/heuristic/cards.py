"""Event cards: their worth, which one a die plays (WD-32), which to discard (WD-01), which
deck to draw from (WD-33), the cards' own choices (WD-34) and the extra draws (WD-37).

A card's worth is a number per card id (a few words of the card's text say why): for the Free
Peoples the cards that ease the Ring's way (heals, tiles that cost nothing, cards that take the
Hunt's damage), for the Shadow the recruits of many units and the cards that corrupt the
Ring-bearers. A card's choices (WD-34) reuse the army rules where they fit: recruits go where
a muster would, casualties as in battle, moves and attacks as with a die.
"""

from __future__ import annotations

import numpy as np

from wotr_env.engine.decision import DONE, Action, Decision, choice
from wotr_env.engine.fellowship import companions_in_fellowship
from wotr_env.engine.state import FREE_PEOPLES, OFF_MORDOR, SHADOW, WotrState

from .armies import fallback_done, move_score
from .battle import attack_value, casualty
from .common import gate_distance, units
from .fellowship import kept
from .muster import placement_score
from .politics import rank

# Worth by a part of the card's id; the first part found in the id counts.
WORTH: tuple[tuple[str, float], ...] = (
    # Free Peoples: the Ring's way
    ("the-last-battle", 45), ("phial", 40), ("smeagol-helps", 35), ("elven-cloaks", 30),
    ("elven-rope", 30), ("mithril", 35), ("axe-and-bow", 35), ("horn-of-gondor", 35),
    ("wizards-staff", 38), ("athelas", 25), ("bilbos-song", 22), ("another-way", 24),
    ("i-will-go-alone", 20), ("mirror", 12), ("challenge-of-the-king", 10),
    ("a-power-too-great", 20), ("tom-bombadil", 10), ("ents-awake", 16), ("eagles", 12),
    ("house-of-the-stewards", 14), ("grey-company", 12), ("dead-men", 10),
    ("wisdom-of-elrond", 10), ("guards-of-the-citadel", 14), ("imrahil", 12),
    ("red-arrow", 12), ("riders-of-theoden", 12), ("eomer", 12), ("dain", 12),
    # Shadow: the Hunt
    ("morgul-wound", 36), ("candles-of-corpses", 34), ("lure-of-the-ring", 30),
    ("orc-patrol", 30), ("isildurs-bane", 30), ("foul-thing", 30), ("shelobs-lair", 28),
    ("the-ring-is-mine", 28), ("on-on-they-went", 26), ("give-it-to-uss", 24),
    ("breaking-of-the-fellowship", 20), ("flocks-of-crebain", 20), ("nazgul-strike", 18),
    ("nazgul-search", 18), ("lidless-eye", 12), ("cruel-weather", 8), ("worn-with-sorrow", 12),
    # Shadow: the armies
    ("musterings-of-long-planned-war", 45), ("the-king-is-revealed", 42),
    ("orcs-multiplying", 36), ("pits-of-mordor", 36), ("hordes-from-the-east", 32),
    ("many-kings", 32), ("a-new-power-is-rising", 30), ("rage-of-the-dunlendings", 24),
    ("grond", 26), ("fighting-uruk-hai", 26), ("the-shadow-is-moving", 24),
    ("corsairs-of-umbar", 20), ("monsters-roused", 18), ("misty-mountains", 20),
    ("return-of-the-witch-king", 18), ("ringwraiths-are-abroad", 18),
    ("black-captain", 18), ("olog-hai", 16), ("half-orcs", 16), ("hill-trolls", 14),
)
DEFAULT_WORTH = 10.0
RING_CARDS = ("the-last-battle", "phial", "smeagol", "elven-", "mithril", "axe-and-bow",
              "horn-of-gondor", "wizards-staff", "athelas", "bilbos-song", "another-way",
              "i-will-go-alone")
HEALS = ("athelas", "bilbos-song", "another-way", "i-will-go-alone")


def worth(state: WotrState, card: int) -> float:
    """What playing ``card`` is worth now."""
    cid = state.ruleset.cards.events[card].id
    value = DEFAULT_WORTH
    for part, w in WORTH:
        if part in cid:
            value = w
            break
    if any(h in cid for h in HEALS) and state.corruption == 0:
        value = 3.0
    if "i-will-go-alone" in cid and not spare_companions(state):
        value = 2.0  # it would send away a Companion the Fellowship keeps
    if state.ruleset.cards.events[card].side == "shadow" and state.mordor_step != OFF_MORDOR \
            and int(state.ruleset.cards.event_deck[card]) == 2:
        value += 10  # the Hunt's cards count double once the Ring is on the Track
    return value


def spare_companions(state: WotrState) -> list[int]:
    """Companions in the Fellowship beyond those it keeps (fellowship.KEEP)."""
    keep = kept(state)
    return [c for c in companions_in_fellowship(state) if c not in keep]


def companion_card(state: WotrState, d: Decision) -> Action:
    """A card that separates or moves a group: the Companions the Fellowship does not keep,
    then DONE."""
    spare = set(spare_companions(state))
    for o in d.options:
        if o[0] == "character" and o[1] in spare:
            return o
    if DONE in d.options:
        return DONE
    chars = [o for o in d.options if o[0] == "character"]
    keep = kept(state)
    outside = [o for o in chars if o[1] not in keep]
    return (outside or chars or list(d.options))[0]


def play_event(state: WotrState, d: Decision) -> Action:
    cards = [o for o in d.options if o[0] == "card"]
    return max(cards, key=lambda o: worth(state, o[1])) if cards else d.options[0]


def discard(state: WotrState, d: Decision) -> Action:
    cards = [o for o in d.options if o[0] == "card"]
    return min(cards, key=lambda o: worth(state, o[1])) if cards else d.options[0]


def draw_card(state: WotrState, d: Decision) -> Action:
    """WD-33: the Free Peoples draw Character cards (the Ring's), the Shadow Strategy cards
    (recruits), Character cards once the Ring nears Mordor."""
    if d.player == FREE_PEOPLES:
        want = "deck-character"
    else:
        near = state.mordor_step != OFF_MORDOR or state.corruption >= 6
        want = "deck-character" if near else "deck-strategy"
    return choice(want) if choice(want) in d.options else d.options[0]


def extra_draw(state: WotrState, d: Decision) -> Action:
    return choice("yes") if choice("yes") in d.options else d.options[0]


RECRUIT_STEPS = ("recruit", "rage", "misty-mountains", "one-unit-with-an-army", "black-captain")
# Named choices answered by a fixed preference, the first offered.
PREFERRED = {
    "lure-of-the-ring": ("eliminate", "corruption"),  # a Companion is cheaper than Corruption
    "nazgul-strike": ("hunt-roll",),
    "another-way": ("yes",),
}


def event_choice(state: WotrState, d: Decision, rng: np.random.Generator) -> Action:
    """WD-34/WD-35: casualties as in battle, recruits where a muster would go, hits where
    the enemy stands thickest, moves and attacks as with a die, the Fellowship pushed away
    from Mordor, "yes" to an offer; anything else at random."""
    kinds = {o[0] for o in d.options}
    side = d.player
    step = str(d.context.get("step", ""))
    for name in PREFERRED.get(step, ()):
        if choice(name) in d.options:
            return choice(name)
    if "casualty" in kinds:
        return casualty(state, d)
    if step == "companion-card":
        return companion_card(state, d)
    regions = [o for o in d.options if o[0] == "region"]
    if "card_move" in d.context:  # which Army a card moves: the largest
        return max(regions, key=lambda o: units(state, o[1], side)) if regions \
            else fallback_done(d)
    if step == "cruel-weather" and regions:  # the Shadow moves the Fellowship away
        return max(regions, key=lambda o: gate_distance(state, o[1]))
    if regions and any(step.startswith(p) for p in RECRUIT_STEPS):
        return max(regions, key=lambda o: placement_score(state, side, o[1]))
    if regions:
        def enemies(o: Action) -> int:
            return units(state, o[1], 1 - side) + units(state, o[1], 1 - side, box=True)

        if any(enemies(o) for o in regions):
            return max(regions, key=enemies)
        if side == SHADOW:
            return max(regions, key=lambda o: placement_score(state, side, o[1]))
    nations = [o for o in d.options if o[0] == "nation"]
    if nations:
        return min(nations, key=lambda o: rank(side, o[1]) if (o[1] < 5) == (side == 0)
                   else 99)
    if "edge" in kinds:
        edges = [o for o in d.options if o[0] == "edge"]

        def value(o: Action) -> float:
            if units(state, o[2], 1 - side) > 0:
                return attack_value(state, side, o)
            return move_score(state, side, o[1], o[2])

        return max(edges, key=value)
    if choice("yes") in d.options:
        return choice("yes")
    return d.options[int(rng.integers(len(d.options)))]


__all__ = ["discard", "draw_card", "event_choice", "extra_draw", "play_event", "worth"]
