"""v2's view of an observation: v1's, plus the strongest attack each rival can bring on each
area next round (:class:`_ThreatView`), which every v1 rule reading ``threats()`` then reads."""

from __future__ import annotations

import numpy as np

from got_env.engine.state import FOOTMAN, KNIGHT, SEA, SHIP, SIEGE_ENGINE

from ..view import _Tables, _View

#: What holding an area is worth when deciding whether to guard it: a home area most (losing it
#: is a lost castle and the muster base), then strongholds and castles.
HOME_STAKE = 6.0
#: A rival's castles beyond this many make each of his castles worth more to take.
LEADER_CASTLES = 4.0
#: What a March order adds to an attack we guess at (its bonus is hidden until the reveal).
GUESSED_MARCH_BONUS = 1.0


class _ThreatView(_View):
    """v1's view, with the strongest attack each rival can bring on each area next round."""

    def __init__(self, t: _Tables, vector: np.ndarray, leader_weight: float = 0.0):
        super().__init__(t, vector)
        self._attack: np.ndarray | None = None
        self.leader_weight = leader_weight

    def attacks(self) -> np.ndarray:
        """[rel house, area]: the strength of the best attack house ``rel`` can make on the area
        next round: the units of one area that can march there (by land, or by its ships'
        transport at sea, R14; Siege Engines with their strength against a castle), +1 for the
        March order, plus the strength of its other units that can support a combat there
        (R15.1.7). 0 where it cannot reach or already holds the area. Computed once per
        observation."""
        if self._attack is not None:
            return self._attack
        t = self.t
        n = t.n
        out = np.zeros((t.H, n))
        castle = t.fort > 0
        footman, knight = float(t.base_strength[FOOTMAN]), float(t.base_strength[KNIGHT])
        for r in self.rivals:
            st = self.standing[:, r, :]
            land = st[:, FOOTMAN] * footman + st[:, KNIGHT] * knight
            reach = t.land_adj.copy()
            ships = (t.kind == SEA) & (st[:, SHIP] > 0)
            for comp in self._components(ships):
                shore = t.adj[comp].any(axis=0) & t.is_land
                reach[np.ix_(shore, shore)] = True
            np.fill_diagonal(reach, False)
            by_land = reach * (land[:, None]
                               + t.siege_bonus * st[:, SIEGE_ENGINE][:, None] * castle[None, :])
            by_sea = t.sea_adj * (st[:, SHIP] * (t.kind == SEA))[:, None]
            src = np.where(t.is_land[None, :], by_land, by_sea)
            sup_each = t.can_support * self.strength[:, r][:, None]   # [s, a]
            support = sup_each.sum(axis=0)
            best = np.where(src > 0, src - sup_each, -np.inf).max(axis=0)
            att = np.where(np.isfinite(best), best + support + GUESSED_MARCH_BONUS, 0.0)
            att[(self.occupant == r) | self.impassable] = 0.0
            out[r] = att
        self._attack = out
        return out

    def _components(self, ships: np.ndarray) -> list[np.ndarray]:
        """Groups of sea areas holding a house's ships that touch each other (a transport
        chain)."""
        t = self.t
        left = set(int(s) for s in np.flatnonzero(ships))
        comps = []
        while left:
            seed = left.pop()
            comp, frontier = {seed}, [seed]
            while frontier:
                for b in np.flatnonzero(t.sea_adj[frontier.pop()] & ships):
                    if int(b) in left:
                        left.discard(int(b))
                        comp.add(int(b))
                        frontier.append(int(b))
            mask = np.zeros(t.n, dtype=bool)
            mask[list(comp)] = True
            comps.append(mask)
        return comps

    def gain(self, a: int) -> float:
        """v1's worth of taking area ``a``, raised for a castle of a rival close to winning
        (1 + leader weight x each castle of his beyond :data:`LEADER_CASTLES`): stopping the
        leader is worth more than one more castle elsewhere."""
        val = super().gain(a)
        owner = int(self.control[a])
        if owner > 0 and self.t.fort[a] > 0 and self.leader_weight > 0:
            val *= 1.0 + self.leader_weight * max(0.0, self.victory_points(owner)
                                                  - LEADER_CASTLES)
        return val

    def threats(self) -> np.ndarray:
        """The strongest single rival's attack on each area (:meth:`attacks`)."""
        if not len(self.rivals):
            return np.zeros(self.t.n)
        return self.attacks()[self.rivals].max(axis=0)

    def held(self) -> np.ndarray:
        """Our defence of each area before orders and cards: our standing units, plus the
        garrison of our home area."""
        garrison = np.where(self.t.home_of == self.me, self.garrison, 0.0)
        return self.my_strength + garrison * (self.control == 0)

    def cover(self) -> np.ndarray:
        """The strength our units in neighbouring areas could add with Support orders."""
        return self.t.can_support.T.astype(float) @ self.my_strength

    def stake(self, a: int) -> float:
        """What losing area ``a`` costs us: our home area most, then castles by v1's value."""
        t = self.t
        if t.home_of[a] == self.me:
            return HOME_STAKE
        return float(t.value[a]) if t.fort[a] > 0 else 0.0
