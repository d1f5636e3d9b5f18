"""Wildling attacks (rules spec §20.2, facts §4.6 and §9), the 9 wildling cards, and the 1st
edition's fixed reward and penalty (``rules.wildlings == "fixed"``, 1e spec 5.4, A.5).

Steps:

* the attack (:class:`~.attack.WildlingAttackFrame`: ``strength``, ``exclude``): every house in
  play and not excluded bids in secret, in turn order (D-08); Night's Watch strength is the sum of
  the bids and wins if it is at least ``strength`` (§20.2 items 2-4). The highest bidder (Night's
  Watch win) or the lowest (wildling win) is found, ties broken by the Iron Throne holder (D-09,
  §9.3). The top wildling card is revealed and resolved through :data:`.cards.WILDLING_EFFECTS`: the
  highest bidder's reward, or the lowest bidder's penalty first and then every other bidder's, in
  turn order (errata, facts §9). Then the threat token moves (facts §4.6) and the attack ends.
* a card's choice (:class:`~.choices.WildlingChoiceFrame`: ``kind``, ``player``, ``house``,
  ``left``, ...): every choice a card asks (D-10 to D-19), one parametrised mechanism:
  :data:`.choices.CHOICES` gives each decision kind its
  options and what one pick does; ``left`` counts the picks still due (``("done",)`` ends early).
* 1st edition (``rules.wildlings == "fixed"``, 1e spec 5.4): the same bids, sum and tie-break, but
  no card: the highest bidder may take one used house card back into hand (D-18's choice), or
  every bidder removes units worth 2 mustering points, the lowest bidder 4, in turn order (D-12's
  choice, frame field ``points``: ``left`` then counts points, not units). Then the threat goes to 0
  (tracks.yaml: ``after_wildling_victory_drop`` 12).

Readings recorded here:

* Order of the consequences (AMBIG-17): bids leave the bidders' available power when they are
  revealed (they lie on the table, which the state counts as Power Pool, so "discarded to the
  Pool" needs nothing more); then the card is resolved; then the threat token moves. So Preemptive
  Raid's new attack is bid with the power left after the first bids, Skinchanger Scout's reward
  gives back the bid itself, and its penalties take only power still available.
* The revealed card goes to the bottom of the deck as soon as it is revealed (the deck array has
  no place for a card being resolved). A new attack started by Preemptive Raid thus reveals the
  next card, never the Preemptive Raid being resolved. Knowledge of the old top card from the
  Messenger Raven (``wildling_known_top``) is cleared: that card is now face up.
* Threat token (facts §4.6, AMBIG-16): a Night's Watch win sets it to 0, a wildling win moves it
  back 2 spaces (-4 strength, not below 0) from where it stands. In an attack started by the
  threat or a Wildlings Attack card the token stands at the attack's strength. After Preemptive
  Raid's Night's Watch result the token ends on 0 whatever the new attack does, since the first
  attack moves the token after its card.
* "Every other house" are the bidders other than the lowest, in the turn order of the moment the
  card is revealed (A King Beyond the Wall moves the lowest bidder but never changes the others'
  relative order).
* Crow Killers' penalties (D-14, DECISIONS Open point 7: the affected house chooses): he picks
  his Knights one at a time; each is replaced while an unused Footman is left, destroyed after.
* Ties are broken by the Iron Throne holder even when he takes no part in the attack (§9.3;
  Preemptive Raid's new attack).
* Choices that cannot change the result are not asked: a house that must destroy or replace as
  many units as it has, or replace all its Knights with Footmen enough (or none) for all.
* Massing on the Milkwater, lowest bidder: the literal reading (facts §12 D9, wildling_cards.yaml):
  all cards of the highest printed strength, even if that is every card in hand. A hand emptied
  that way is refilled as after a house's 7th card (R15.3.6): the cards just discarded stay in the
  discard pile and the others come back, so that a house always holds a card to fight with.
* Preemptive Raid, lowest bidder: D-10 offers both penalties whatever his units and positions; a
  drop of 2 on a track stops at its last position. The highest track is the one where his position
  is nearest to 1; if several, the Iron Throne holder picks among them (D-11, facts §12 D9).
* The Horde Descends, highest bidder (D-19): only his Castle/Stronghold areas where normal
  mustering can place something are offered (as the mustering step itself does); the chosen area
  is mustered through the ``mustering`` step with that one area.
* The Horde Descends, lowest bidder (facts §12 D9): if one of his Castle/Stronghold areas holds 2
  or more of his units, he destroys 2 in one such area; otherwise 2 anywhere.
* Units destroyed by a wildling card never leave a power token behind (R13.1.4): control of the
  emptied area follows from what is left there (a power token already lying there, a home shield,
  or nobody).

Readings recorded here for the 1st edition (1e spec 5.4, A.5; the lead copies them to
docs/rules-readings.md):

* The 1e decisions reuse the 2e kinds with the same shape: the bids are D-08, the tie for the
  highest or lowest bidder D-09 (asked of the Iron Throne holder, 1e 5.4 items 4-5, reading C.12),
  the Night's Watch reward D-18 (one discarded card of the highest bidder back to his hand, or
  ``("done",)``; not asked when he has no discard), the losses D-12 (one own unit at a time,
  ``("unit", area, type)``).
* Losses are counted in mustering points (1e 5.4 item 5: footman 1, knight 2, ship 1, the
  mustering costs, engine/mustering.py COSTS); every bidder pays in turn order, the lowest bidder
  in his place in that order (not first, as the 2e errata has it for the cards).
* A house pays the smallest total of at least what it owes that its units can make (reading C.10:
  the smallest overshoot); with fewer points on the board than owed it loses every unit. Each
  pick offers only the units after whose removal that total can still be made exactly, so a house
  can never overpay by picking badly (with only knights left while 1 point is owed, say). A knight
  is removed whole, never downgraded to a footman (1e 5.4 item 5). When every unit left must go,
  they go without asking.
* No power token is ever placed in an area these losses empty (1e 5.4 item 5): destroying a unit
  places nothing, and control follows from what is left there (as for the 2e cards above).

The package's modules, each importing only those above it in this list (and, for type hints
only, under ``TYPE_CHECKING``, the attack's frame class):

* :mod:`.choices`: the cards' choices, one step (:class:`~.choices.WildlingChoiceFrame`) and
  its table of choices;
* :mod:`.cards`: each card's effects, by card id, and the 1e fixed ones;
* :mod:`.attack`: the attack's frame (:class:`~.attack.WildlingAttackFrame`) and its stages.
"""

