"""Heuristic v2 (issue 13): v1's rules, plus a threat assessment that makes it defend.

:class:`HeuristicV2Agent` is :class:`got_env.agents.heuristic.HeuristicAgent` with a few rules
replaced in its table (:attr:`HeuristicV2Agent.HANDLERS`, v1's updated) and a few hooks
overridden; everything not named here plays exactly as v1. Like v1 it reads the observation
vector only (no engine state) and every rule is explained in the docstring of the function
that applies it. What changes:

* **Threats** (:mod:`.view`, :class:`_ThreatView`): for every area, the strongest attack a
  single rival can make on it next round: the units of one of its areas that can march there
  (over land, or by its ships: R14 transport), +1 for a March order, plus the support its other
  neighbouring units can give. v1 counted only neighbours' strength. Every v1 rule that reads
  ``threats()`` (mustering, casualties, retreats, Crow Killers) now reads this one.
* **Orders** (D-20, :mod:`.orders`): our home area, when its units and garrison lose to that
  attack, gets a Defense order first (the special one when even +1 is not enough); marches come
  next; Support goes next to planned attacks and to our home and castles still threatened after
  the marches leave; a special Raid next to a rival castle (only it removes a Defense order);
  Consolidate Power elsewhere, with Defense before it on a threatened castle.
* **Marches** (D-26/D-27, :mod:`.marches`): a March out of our home never leaves it weaker than
  the threat against it (moves are taken back, spreading ones first, and an attack that needed
  them is called off); units do not walk into a free area whose threat beats them (v1 fed
  rivals one Footman at a time); a castle of a rival close to seven is worth more to take
  (stopping the leader).
* **Raven** (D-21/D-22, :mod:`.raven`): once orders are revealed, swap an order when a better
  one exists: Defense where a revealed enemy March now beats us, Consolidate Power for a Raid
  with nothing to raid; else look at the wildling card as v1.
* **Bids** (D-06, :mod:`.bidding`): a track is worth more to a house that stands low on it
  (King's Court stars, the Fiefdoms tie-breaks, the turn order) and more when it fights
  (Fiefdoms).
* **House cards** (D-32/D-34, :mod:`.house_cards`): the stake of the combat (a home or castle)
  sets how much win chance may be given up to keep a strong card; a tied choice prefers swords
  when we win and fortifications when we lose.
* **Mustering** (D-05, :mod:`.mustering`): the area whose threat exceeds its defence first.
* **Temperature**: a little seeded noise (Gumbel, scaled by ``temperature``) in the choice of
  marches, house cards and bids, so that games vary; ``temperature=0`` plays deterministically,
  and a given ``seed`` always reproduces the same choices.
"""

from .agent import HeuristicV2Agent

__all__ = ["HeuristicV2Agent"]
