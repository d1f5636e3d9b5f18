"""What the heuristics read: the public board facts of a ruleset (:class:`_Tables`, built once
per ruleset and shared by every agent) and one decoded observation (:class:`_View`, built per
decision). Only public data is read, so that the agents play from their observation alone."""

from __future__ import annotations

import functools
from collections import deque

import numpy as np

from got_env.data import UNIT_TYPES, load_ruleset
from got_env.encoding import codec_for, encoder_for
from got_env.engine.state import LAND, PORT, SEA, SHIP, SIEGE_ENGINE

#: The mustering points (``fort_level``) of a stronghold; a castle has 1, other areas 0.
STRONGHOLD = 2
#: The walking distance of an area that cannot be reached.
UNREACHABLE = 99


@functools.lru_cache(maxsize=4)
def tables_for(ruleset_name: str) -> _Tables:
    """The shared tables of a ruleset (a few per process: one per ruleset in use)."""
    return _Tables(ruleset_name)


class _Tables:
    """Public board facts computed once per ruleset (shared by every agent instance)."""

    def __init__(self, ruleset_name: str):
        rs = load_ruleset(ruleset_name)
        self.rs = rs
        self.codec = codec_for(rs)
        self.encoder = encoder_for(rs)
        self.decode = [self.codec.decode(i) for i in range(self.codec.size)]
        self.H = rs.num_houses  # the observation's house axis (6 in 2e, 5 in 1e)
        n = rs.num_areas
        self.n = n
        # §15.0: a Siege Engine's printed strength counts only against a castle or stronghold;
        # ``base_strength`` is every unit's strength elsewhere, ``siege_bonus`` what it adds there.
        printed = np.array([float(rs.unit_strength[u]) for u in UNIT_TYPES])
        self.base_strength = printed.copy()
        self.base_strength[SIEGE_ENGINE] = 0.0
        self.siege_bonus = float(printed[SIEGE_ENGINE])
        self.last_round = rs.rounds  # of a full game (a shorter game's max_rounds is not seen)
        self.adj = rs.adjacency.astype(bool)
        self.kind = rs.kind.astype(int)
        self.is_land = self.kind == LAND
        self.fort = rs.fort_level.astype(int)
        self.barrels = rs.barrels.astype(float)
        self.crowns = rs.crowns.astype(float)
        self.home_of = rs.home_of.astype(int)
        self.port_of = rs.port_of.astype(int)
        self.home_area = {int(h): int(a) for a, h in enumerate(self.home_of) if h >= 0}
        self.neighbours = [np.flatnonzero(self.adj[a]) for a in range(n)]
        # R15.1.7-R15.1.8, R18.4: which area's units may support a combat in which area.
        k = self.kind
        src, dst = k[:, None], k[None, :]
        self.can_support = self.adj & (((src == LAND) & (dst == LAND))
                                       | ((src == SEA) & (dst != PORT))
                                       | ((src == PORT) & (dst == SEA)))
        # R12.2.5: raid geometry (land -> land; sea -> anything; port -> its sea).
        self.can_raid = self.adj & (((src == LAND) & (dst == LAND)) | (src == SEA)
                                    | ((src == PORT) & (dst == SEA)))
        self.land_adj = self.adj & (src == LAND) & (dst == LAND)
        self.sea_adj = self.adj & (src == SEA) & (dst == SEA)
        # Static worth of an area: castles and strongholds win the game; barrels raise supply;
        # crowns give power.
        self.value = np.where(self.is_land, 0.3 + 3.0 * (self.fort > 0)
                              + 0.5 * (self.fort == STRONGHOLD)
                              + 0.8 * self.barrels + 0.6 * self.crowns, 0.0)
        toks = rs.order_tokens
        self.tok_type = [t.type for t in toks]
        self.tok_bonus = np.array([t.bonus or 0 for t in toks])
        self.tok_special = np.array([int(t.special) for t in toks])
        self.tok_key = [(t.type, t.bonus, t.special) for t in toks]
        cards = rs.house_cards
        self.card_strength = np.array([c.strength for c in cards], dtype=float)
        self.card_swords = np.array([c.swords for c in cards], dtype=float)
        self.card_forts = np.array([c.fortifications for c in cards], dtype=float)
        house_of_card = np.array([rs.house(c.house) for c in cards])
        self.cards_by_house = np.stack([np.flatnonzero(house_of_card == h)
                                        for h in range(self.H)])
        self.wildling_ids = [c.id for c in rs.wildling_cards]
        self.stars = {p: s.kings_court_stars for p, s in rs.setups.items()}
        self._dist: dict[bytes, np.ndarray] = {}

    def land_distance(self, impassable: np.ndarray) -> np.ndarray:
        """All-pairs walking distance over passable land areas (BFS; cached per setup)."""
        key = impassable.tobytes()
        if key not in self._dist:
            ok = self.is_land & ~impassable
            dist = np.full((self.n, self.n), UNREACHABLE, dtype=int)
            for s in np.flatnonzero(ok):
                dist[s, s] = 0
                q = deque([int(s)])
                while q:
                    a = q.popleft()
                    for b in np.flatnonzero(self.land_adj[a] & ok):
                        if dist[s, b] == UNREACHABLE:
                            dist[s, b] = dist[s, a] + 1
                            q.append(int(b))
            self._dist[key] = dist
        return self._dist[key]


class _View:
    """One decoded observation, from the agent's point of view (house slot 0 = itself)."""

    def __init__(self, t: _Tables, vector: np.ndarray):
        v = t.encoder.views(vector)
        self.t = t
        self.v = v
        self.units = v["units"]  # [area, rel house, unit]
        self.standing = self.units - v["routed"]
        self.strength = self.standing @ t.base_strength  # [area, rel house]
        self.mine = self.units[:, 0, :]
        self.my_strength = self.strength[:, 0]
        self.in_play = v["in_play"] > 0
        others = self.in_play.copy()
        others[0] = False
        self.rivals = np.flatnonzero(others)
        self.enemy_strength = self.strength[:, 1:].sum(axis=1)
        counts = self.units.sum(axis=2)
        self.occupant = np.where(counts.any(axis=1), counts.argmax(axis=1), -1)
        ctrl = v["control"]
        self.control = np.where(ctrl.any(axis=1), ctrl.argmax(axis=1), -1)
        self.me = t.home_of[int(np.argmax(v["area_home"][:, 0]))]
        self.order = np.where(v["order"].any(axis=1), v["order"].argmax(axis=1), -1)
        self.garrison = v["garrison"]
        self.neutral = v["neutral_force"]
        self.impassable = v["impassable"] > 0
        self.power = v["power"]
        self.round = int(v["round"][0])
        self.threat = float(v["wildling_threat"][0])
        self.n_players = int(self.in_play.sum())

    # -- houses ---------------------------------------------------------------------------------
    def canon(self, rel: int) -> int:
        """Data-order house index of relative slot ``rel``."""
        return (self.me + rel) % self.t.H

    def rel(self, canon: int) -> int:
        return (canon - self.me) % self.t.H

    def position(self, track: int, rel: int) -> int:
        """0-based position of a house (relative slot) on a track."""
        row = self.v["track_position"][track, rel]
        return int(np.argmax(row)) if row.any() else self.t.H

    def victory_points(self, rel: int) -> float:
        return float(self.v["victory_points"][rel])

    def hand(self, rel: int) -> np.ndarray:
        """Card indices in the hand of a house (the hands are public in this encoding)."""
        cards = self.t.cards_by_house[self.canon(rel)]
        return cards[self.v["cards"][rel, :, 0] > 0]

    def chosen_card(self, rel: int) -> int:
        """The card a house revealed in this combat, -1 before the reveal."""
        cards = self.t.cards_by_house[self.canon(rel)]
        where = np.flatnonzero(self.v["cards"][rel, :, 2] > 0)
        return int(cards[where[0]]) if where.size else -1

    # -- areas ----------------------------------------------------------------------------------
    def gain(self, a: int) -> float:
        """What taking area ``a`` is worth to us: nothing if we already hold it; an enemy's
        castle counts more (it also costs him a point); in the last round only castles."""
        if self.control[a] == 0:
            return 0.0
        t = self.t
        val = float(t.value[a])
        if self.round >= t.last_round:
            val = 3.0 * (t.fort[a] > 0) + 0.2 * t.is_land[a]
        if self.control[a] > 0 and t.fort[a] > 0:
            val *= 1.4
        return val

    def threats(self) -> np.ndarray:
        """For every area, the strength of the strongest rival's units that could support a
        combat there (a cheap stand-in for the attack it could make)."""
        if not len(self.rivals):
            return np.zeros(self.t.n)
        s = self.t.can_support.T.astype(float) @ self.strength[:, self.rivals]
        return s.max(axis=1)

    def defender(self, a: int) -> int:
        """Who defends ``a`` against us: a rival slot, -2 for a neutral force, -1 nobody."""
        if self.neutral[a] > 0:
            return -2
        occ = int(self.occupant[a])
        if occ > 0:
            return occ
        owner = self.t.home_of[a]
        if self.garrison[a] > 0 and owner >= 0 and owner != self.me:
            return self.rel(owner)
        return -1

    def ship_reach(self, origin: int) -> set[int]:
        """Land areas our land units in ``origin`` reach through seas holding our ships (R14)."""
        t = self.t
        ours = (t.kind == SEA) & (self.mine[:, SHIP] > 0)
        frontier = [int(s) for s in np.flatnonzero(t.adj[origin] & ours)]
        seen = set(frontier)
        while frontier:
            for nxt in np.flatnonzero(t.adj[frontier.pop()] & ours):
                if int(nxt) not in seen:
                    seen.add(int(nxt))
                    frontier.append(int(nxt))
        reach = set()
        for s in seen:
            reach.update(int(a) for a in np.flatnonzero(t.adj[s] & t.is_land))
        reach.discard(origin)
        return {a for a in reach if not self.impassable[a]}

    def support_areas(self, rel: int, area: int) -> list[int]:
        """Areas holding a visible Support order of house ``rel`` able to support ``area``."""
        t = self.t
        out = []
        for s in np.flatnonzero(t.can_support[:, area] & (self.order >= 0)):
            if t.tok_type[self.order[s]] == "support" and self.occupant[s] == rel:
                out.append(int(s))
        return out

    def attack_strength(self, units: np.ndarray, area: int) -> float:
        """What ``units`` (counts per unit type) bring attacking ``area``: their printed
        strengths, Siege Engines only against a castle."""
        t = self.t
        return float(units @ t.base_strength) \
            + t.siege_bonus * units[SIEGE_ENGINE] * (t.fort[area] > 0)

    def defence_strength(self, area: int, d: int) -> float:
        """What house ``d`` (relative) defends ``area`` with before supports and cards: its
        units, its revealed Defense order there, the garrison of its home."""
        t = self.t
        val = float(self.strength[area, d])
        if self.order[area] >= 0 and self.occupant[area] == d and \
                t.tok_type[self.order[area]] == "defense":
            val += float(t.tok_bonus[self.order[area]])
        if t.home_of[area] == self.canon(d):
            val += float(self.garrison[area])
        return val

    def support_value(self, s: int, area: int, for_attacker: bool) -> float:
        """R15.1.2: the support area's units (siege engines only attacking a castle) + bonus."""
        rel = int(self.occupant[s])
        if rel < 0:
            return 0.0
        val = float(self.strength[s, rel])
        if for_attacker and self.t.fort[area] > 0:
            val += self.t.siege_bonus * self.standing[s, rel, SIEGE_ENGINE]
        if self.order[s] >= 0:
            val += float(self.t.tok_bonus[self.order[s]])
        return val
