"""Combat (rules spec §15, §17, R18.8, §24; D-30 to D-32, D-39, D-40, D-43 to D-45, D-47).

One combat is one frame on the stack, pushed by a March, that walks the rulebook's steps:
support -> refusals -> house cards -> reveal (abilities) -> Valyrian Steel Blade -> winner ->
casualties -> retreat -> cleanup. The attacking units stay in the March's start area on the board
(``origin``) until the combat decides: they enter the embattled area if the attacker wins, and are
routed where they stand if he loses (they "retreat to the area they marched from").

Readings recorded here:
* Support (R15.1.1, R15.1.6; DECISIONS Open points 1-3): one declaration (D-30) per Support
  order next to the embattled area, houses in turn order and one house's orders in area order;
  the combatants are asked too (R15.1.3 "may"). Each order's support goes to one side or to
  nobody, on its own: a house may back one side from one area and stay out with another (a third
  house may even back both sides). A combatant may refuse each other house's support (D-31, all
  of that house's orders given to it) before the cards are chosen.
* Casualties beyond the loser's non-routed units are ignored (AMBIG-18).
* AMBIG-12: a retreat that breaks supply (the attacker's, too) first destroys units of the
  retreating house's choice (D-45) until the position fits.
* §15.6 6.3 item 5 with several legal areas that all break supply: the loser must pick one that
  needs the fewest units destroyed (FAQ reading, as S&R), then destroys them (D-45).
* AMBIG-13: a defender never retreats into a neutral force, an impassable area, an area with an
  enemy power token, or an enemy home area still held by its shield.
* R18.2: ships never retreat into a port that would then hold more than 3 ships; such a port is
  not a legal retreat area (like any other illegal area, it may leave no retreat at all).
* AMBIG-15 (DECISIONS Open point 6): a retreat that gives the defender control of a land area
  captures that area's port as in R18.8 (D-47), once the retreat's supply losses are done; the
  winner's capture is decided in the cleanup.
* R15.3.5 with the errata: discard piles are open at every step; hands are hidden while the cards
  are chosen (the chosen cards stay in the combat's frame until both are revealed).

House-card abilities (:mod:`.cards`, got_env.engine.abilities) act only through the hooks of
their :class:`~.cards.Ability` record, read for the two revealed cards: static modifiers of
either side's values (:func:`.strength.card_value`) and unit values
(:func:`.strength.unit_values`), both applied in Iron Throne order of the cards' owners
(R15.3.4 (2)), casualty immunity (:func:`.strength.immune_to_casualties`), and steps pushed at
the reveal (cancel effects first), after the winner, after the retreat and after the cleanup
(:mod:`.ability_steps`, R15.3.4); a card may cancel the opponent's ability
(:func:`.strength.side_ability`). Those steps steer the rest of the combat through these fields
of its :class:`~.frame.CombatFrame`:

* ``cards[side]``: the side's card; a step may replace it (Tyrion, Aeron) or set None (no card:
  strength 0, no icons, nothing to discard);
* ``retreat_chooser``: who picks the losing defender's retreat area (Robb);
* ``attackers_stay``: a winning attacker's units do not enter the embattled area; they stay,
  standing, where they marched from (Arianne); should that break his supply, he destroys units
  of his choice among them (D-45, as AMBIG-12 for a losing attacker);
* ``card_to_hand``: sides whose played card goes back to hand instead of the discard pile in the
  cleanup (Roose);
* ``march_token`` (the March that started the combat) and ``entered`` (the attacking units that
  moved in at the cleanup), read by after-combat steps (Loras);
* ``won_at_once``: the side that wins whatever the strengths, because a reveal ability removed
  the other side's last unit (1e spec 8.2; 1e Ser Loras sets it and goes on to the result,
  past the Blade).

The package's modules, each importing only those above it in this list (and, for type hints
only, under ``TYPE_CHECKING``, the frame's class):

* :mod:`.stages`: the combat's sides and stages;
* :mod:`.cards`: the house cards' abilities, one :class:`~.cards.Ability` record of hooks per
  card (registered by got_env.engine.abilities);
* :mod:`.tides`: Tides of Battle, the optional variant;
* :mod:`.strength`: strength and icons (the revealed cards' static hooks, support still
  counting, initial and final strength); it changes nothing;
* :mod:`.ability_steps`: when the abilities' steps are pushed;
* :mod:`.reveal`: support declared and refused, house cards chosen and revealed, Tides of
  Battle, the Valyrian Steel Blade;
* :mod:`.resolution`: the winner and the casualties;
* :mod:`.retreat`: the retreat, routing and its supply losses;
* :mod:`.cleanup`: the cleanup, the discards, a staying attacker's losses;
* :mod:`.frame`: the combat's frame, :class:`~.frame.CombatFrame`, and its stage machine (the
  handler of each stage, from the modules above).

Ports whose land area changed hands are captured by got_env.engine.port_capture (also after a
March).
"""

