"""Rule-based agents for AGoT that play every decision from their observation alone (no engine
state): :class:`HeuristicAgent` (v1) and :class:`HeuristicV2Agent` (v2, :mod:`.v2`).

They decode the observation vector with :class:`got_env.encoding.ObservationEncoder` and the
legal actions with AGoT's codec (:func:`got_env.encoding.codec_for`), and use only public board
data from the ruleset (adjacency, castles, barrels, crowns, home areas, unit strengths). The
house axis of the observation is relative: slot 0 is the agent's own house.

Every kind of decision has one small rule, a function in the module of its part of the round,
dispatched by the table :attr:`HeuristicAgent.HANDLERS` (DecisionKind -> function); each rule's
docstring says why it chooses what it chooses:

* :mod:`.westeros`: the Westeros cards' choices (D-01..D-04);
* :mod:`.mustering`: where and what to muster (D-05, D-19): Knights in strongholds, Footmen
  otherwise, Ships where enemy ships are near or we have none; the most threatened areas first;
* :mod:`.bidding`: influence bids (D-06, D-07) sized by our power and the track's value, never
  more than needed to outbid every rival;
* :mod:`.wildlings`: wildling bids rising with the threat (D-08, D-09) and the cards' choices
  (D-10..D-18);
* :mod:`.orders`: the Planning phase's orders (D-20): March where a reachable castle,
  stronghold, supply or crown area can be taken (empty, or held by defenders weaker than our
  units + March bonus + own support, with a neutral force needing strength >= its token);
  Defense on valuable areas next to strong enemies; Support next to planned attacks and
  threatened castles; Raid next to enemies; Consolidate Power where nothing else is useful
  (the special one in a castle, to muster);
* :mod:`.raven`: the Messenger Raven (D-21..D-23);
* :mod:`.raids`: the Raids (D-24, D-25);
* :mod:`.marches`: the Marches (D-26..D-29): attack the best target we expect to win, spread
  spare units into valuable empty areas, walk idle armies toward the nearest castle we do not
  hold, and leave a power token in a valuable area we empty;
* :mod:`.combat` and :mod:`.house_cards`: support our own side or the side against the leading
  rival (D-30, D-31); choose the house card by its chance to win against the opponent's visible
  hand, keeping strong cards when the fight is hopeless or already won (D-32..D-42, D-46); lose
  the cheapest units and retreat toward safety (D-43..D-45, D-47);
* :mod:`.consolidate`: Consolidate Power (D-48, D-49).

Beside them: :mod:`.view` (the decoded observation and the ruleset's tables), :mod:`.choices`
(pickers several parts share), :mod:`.ruleset` (which ruleset an agent plays: ``ruleset=`` or
``env=``, else "2e"), :mod:`.strict` (a rule's own failure: a warning and a fallback, or an
error with ``GOT_ENV_STRICT_AGENTS=1``) and :mod:`.agent` (the class and its table).
"""

from .agent import HeuristicAgent
from .ruleset import env_ruleset
from .strict import STRICT_ENV, HeuristicFallbackWarning, HeuristicRuleError
from .v2 import HeuristicV2Agent

__all__ = ["STRICT_ENV", "HeuristicAgent", "HeuristicFallbackWarning", "HeuristicRuleError",
           "HeuristicV2Agent", "env_ruleset"]
