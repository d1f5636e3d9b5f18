"""The 24 house-card abilities of the 2nd edition (facts §7, rules spec R15.3.3-R15.3.7, §21;
DECISIONS D-33 to D-38, D-41, D-42, D-46), one module per house: each card is registered by card
id in :data:`got_env.engine.combat.cards.ABILITIES` with the hooks of its ``Ability`` record
(static functions, and a small frame class for a step: :mod:`.base`); the 1st edition's own
abilities are in :mod:`.first_edition`. Imported by got_env.engine, so every ability is active as
soon as the engine is.

Readings where the text leaves room (pinned down by tests/test_house_cards.py):

* Order (R15.3.4): Tyrion's cancel resolves first, once, against the card revealed with his;
  then the other reveal abilities in Iron Throne order, read afresh after each one (Doran's
  Iron Throne move reorders what is left). A card brought in by a cancel or a swap has its
  abilities applied normally, but Tyrion is not asked again (a card taken by Aeron's swap can
  no longer be cancelled). The Blade (§15.4) is offered after every reveal ability, so Doran's
  Fiefdoms move passes it at once (R21.2).
* Static cards act only once both cards are revealed, and are worked out when the winner is
  decided (Stannis reads the Iron Throne track, Davos the discard pile, Asha and Salladhor the
  support that still counts at that moment).
* "Supported" (Asha, Salladhor): some house's declared, not refused, support still counts for
  the side (its Support order is still on the board; FAQ: any house's support, the owner's
  own included). Queen of Thorns removing the only Support order makes the side unsupported.
* Tyrion (D-33, D-34): the cancelled card goes back to hand and cannot be picked again; with
  no other card the opponent fights with none (0 strength, no icons, nothing discarded).
* Aeron (D-35): needs 2 available power and another card in hand; Aeron is discarded at once,
  so a hand refresh at the cleanup counts him among the discards.
* Mace (D-37): the Footman is among the opponent's attacking (waiting in the start area) or
  defending units, never a supporting one; none against The Blackfish. The action names only
  the area, so the decision is never asked; a standing Footman is destroyed before a routed one
  (facts §12 D9 allows routed ones). The loss lowers that side's strength (R15.3.7).
* Queen of Thorns (D-38): compulsory when the opponent has an order (any type) in an area really
  adjacent to the embattled area; the attacker's start area is never offered.
* Doran (D-36): any of the three tracks, even one where the opponent is already last.
* The Blackfish: no casualties from swords, Mace or Tides of Battle skulls (the combat asks
  :func:`got_env.engine.combat.strength.immune_to_casualties` for all three).
* Catelyn: the defender's Defense order bonus counts twice (+2 for +1, +4 for +2).
* Kevan, Victarion: only the owner's own Footmen / Ships adding strength to his side count 2
  (attacking or supporting him), and only when he attacks. Salladhor: every non-Baratheon Ship
  gives 0 on both sides while his side is supported. These set a value ("2 instead of 1",
  "reduced to 0"), so against each other they resolve in Iron Throne order (R15.3.4 (2)), the
  later one setting the final value: Greyjoy above Baratheon, Victarion's Ships end at 0;
  Baratheon above, Salladhor's 0 is set back to 2 for Victarion's own Ships (other houses' Ships
  stay 0). Multiplying instead would give 0 either way; S&R adds +1 for Victarion and gets 1.
* Order of statics against reveal steps: a static ability has no moment of its own; it is read
  while strengths and icons are worked out, after every reveal step. So Stannis reads the Iron
  Throne track as Doran left it, Asha and Salladhor the support the Queen of Thorns left.
* Balon: the opponent card's printed strength counts 0; its own text bonuses stay.
* Robb (D-44; DECISIONS Open point 5, facts §7 reading): only when the defender lost: Robb's
  player picks among the legal retreat areas with the fewest losses (units the retreat must
  shed for supply); the loser still picks which units those are (D-45). A losing attacker
  retreats to its start area as always.
* Roose: his discard pile returns to hand after the winner is known, Roose himself at the
  cleanup instead of the discard pile.
* Cersei (D-41): any order of the loser, except in the embattled area and the attacker's start
  area (cleared by the cleanup anyway; facts §12 D9, S&R), or none.
* Renly (D-42): a Footman that fought for him: attacking (waiting in the start area, where the
  action names it), defending, or in his area whose Support order still supports him; a standing
  one is upgraded before a routed one (which stays routed); needs an unused Knight.
* Arianne: only the entering is undone. The rest of the cleanup (§15.6 6.4, R17.4) applies as
  for any won attack: the defender's order, power token and garrison in the area go; the
  attackers stay in their start area, standing (they did not retreat). If they now break the
  attacker's supply there, he destroys units of his choice among them (D-45, as AMBIG-12).
* Patchface (D-46): after the cleanup (both cards discarded, hands already refreshed); if the
  discard empties the opponent's hand, every other card of his discard pile, the one he just
  played included, goes back to it (facts §7).
* Ser Loras: only when his units moved in (not if none survived, not against Arianne): the
  March token goes to the conquered area and can be resolved again later this round.
"""

from . import baratheon, first_edition, greyjoy, lannister, martell, stark, tyrell

__all__ = ["baratheon", "first_edition", "greyjoy", "lannister", "martell", "stark", "tyrell"]
