"""War of the Ring's training hooks (its plugin's ``training`` piece, read by
:mod:`experiments.training.game_hooks`): a shaping potential from what decides the game, so that
a side that makes 185-290 decisions a game hears about its progress before the end (issue 39
item 6).

The potential of a side's own observation, with the config's ``shaping`` weights::

    Phi(free_peoples) =  progress * ring - corruption * corruption / 12 + points * margin
    Phi(shadow)       = -progress * ring + corruption * corruption / 12 + points * margin

where ``ring`` is the Ring-bearers' way down the Mordor Track (0 off it, then step / 6, as
the rules' standing counts it: :meth:`wotr_env.game.WotrGame.standing`), ``corruption`` the
Ring-bearers' Corruption (12 ends the game for the Shadow), and ``margin`` the side's own
victory points out of the number it wins with less the opponent's out of theirs (the Free
Peoples win with 4, the Shadow with 10). The trainer uses ``gamma * Phi(s') - Phi(s)`` with
``Phi = 0`` at the end of a game: potential-based (Ng et al., 1999), so it leaves the optimal
policy alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..data.loader import load_ruleset
from ..encoding import encoder_for
from ..engine.state import FREE_PEOPLES

#: The ``shaping`` keys of the config this game's potential reads.
SHAPING_KEYS = ("progress", "corruption", "points")
#: Corruption that ends the game (the Ring-bearers are corrupted).
MAX_CORRUPTION = 12.0
#: Steps of the Mordor Track: the last reaches the Crack of Doom.
TRACK_STEPS = 6.0


def seat_potential(shaping: Any, env: Any) -> Callable[[np.ndarray, int], float] | None:
    """Phi of a side's own observation (``seat``: 0 Free Peoples, 1 Shadow, the env's
    ``possible_agents`` order), or None when every weight is 0."""
    w_ring, w_corruption, w_points = (float(getattr(shaping, k, 0.0)) for k in SHAPING_KEYS)
    if not (w_ring or w_corruption or w_points):
        return None
    ruleset = str(getattr(env, "ruleset_name", "2e"))
    encoder = encoder_for(ruleset)
    rules = load_ruleset(ruleset).rules
    fp_target = float(rules.free_peoples_victory_points)
    sh_target = float(rules.shadow_victory_points)
    views = encoder.views(np.arange(encoder.size))
    corruption = int(views["fellowship"][1])
    track = views["mordor_step"].astype(np.int64)   # off the Track, then steps 0..5
    own_vp, opp_vp = (int(i) for i in views["victory_points"])

    def phi(obs: np.ndarray, seat: int) -> float:
        step = int(np.argmax(obs[track]))           # 0: off the Track; k: step k - 1
        ring = step / TRACK_STEPS
        corrupted = float(obs[corruption]) / MAX_CORRUPTION
        fp = seat == FREE_PEOPLES
        margin = (obs[own_vp] / (fp_target if fp else sh_target)
                  - obs[opp_vp] / (sh_target if fp else fp_target))
        sign = 1.0 if fp else -1.0
        return float(sign * (w_ring * ring - w_corruption * corrupted) + w_points * margin)

    return phi
