"""Hits scored by an Event card on an Army (WD-35 EVENT_CASUALTY; facts §6 "card rules").

Usage (the whole public surface)::

    card_hits(state, owner_side, region, hits, box=False, followers=False) -> None

pushes a :class:`CardHits` frame: ``owner_side`` removes ``hits`` casualties, one hit at a
time, from his Army in ``region``'s field (or, ``box=True``, in its Stronghold box), choosing
each exactly as in a battle (remove a Regular, downgrade an Elite, remove an Elite for 2 hits:
the options are ``battle.casualties.figure_casualty_options``, so the battle's rules on
downgrades and lone Elites hold here too). Hits beyond the Army's units are lost; no hit, or
no unit there, pushes nothing that asks.

When the hits wipe out every unit of the Army, its Free Peoples Leaders die with it; Nazgûl,
Companions and Minions stay, unless the card says otherwise: ``followers=True`` (*The Ents
Awake*: "its Nazgûl and Minions die too") removes the Army's Nazgûl and the owner's Characters
there as well. An Army that had no unit before the hits is not "wiped out" by them.
If the hit Army was besieged or besieging, the siege then settles as after a battle (facts
§7.3, §7.4): besiegers gone, the siege ends; garrison gone, the Stronghold falls.

A card's hits are no attack: the card itself calls ``politics.attacked`` when its text says it
acts as one (*Ents Awake*, *Dead Men of Dunharrow*).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardkit.frames import Frame

from ..battle.casualties import figure_casualty_options, remove_casualty
from ..battle.forces import army_at, characters_at, eliminate_followers
from ..battle.siege import settle_siege
from ..decision import WD, Action, Decision
from ..regions import besieged
from ..state import LEADER, NAZGUL, WotrState, log


def card_hits(state: WotrState, owner_side: int, region: int, hits: int, box: bool = False,
              followers: bool = False) -> None:
    """Push the removal of ``hits`` casualties from ``owner_side``'s Army in ``region`` (its
    field, or its Stronghold box when ``box``); see the module docstring."""
    if hits > 0:
        log(state, "card-hits", owner_side, region, hits)
        state.stack.append(CardHits(owner_side, region, hits, box, followers))


@dataclass
class CardHits(Frame):
    """WD-35: the owner absorbs a card's ``hits`` on his Army, one choice per hit (a forced
    one is played without asking); then the wiped-out Army's followers go (module doc)."""

    side: int
    region: int
    hits: int
    box: bool = False
    followers: bool = False
    taken: int = 0  # casualties removed so far

    def figures(self, state: WotrState) -> np.ndarray:
        return army_at(state, self.region, self.side, self.box)

    def run(self, state: WotrState) -> Decision | None:
        options = figure_casualty_options(state, self.figures(state), self.hits) \
            if self.hits > 0 else []
        if not options:
            state.stack.pop()
            self.finish(state)
            return None
        return Decision(self.side, WD.EVENT_CASUALTY, tuple(options),
                        context={"hits": self.hits, "region": self.region, "box": self.box})

    def act(self, state: WotrState, action: Action) -> None:
        _, nation, what = action
        cost = remove_casualty(state, self.region, self.box, nation, what)
        log(state, "casualty", self.side, nation, what)
        self.hits -= min(self.hits, cost)
        self.taken += 1

    def finish(self, state: WotrState) -> None:
        figures = self.figures(state)
        if self.taken == 0 or figures[:, :2].sum() > 0:
            return
        dead = np.zeros_like(figures)
        dead[:, LEADER] = figures[:, LEADER]
        chars: list[int] = []
        if self.followers:
            dead[:, NAZGUL] = figures[:, NAZGUL]
            chars = characters_at(state, self.region, self.side, self.box)
        siege = self.box or besieged(state, self.region)
        log(state, "army-destroyed", self.side, self.region)
        eliminate_followers(state, self.region, self.side, self.box, dead, chars)
        if siege:
            settle_siege(state, self.region, self.side if self.box else 1 - self.side)


__all__ = ["CardHits", "card_hits"]
