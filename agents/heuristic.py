"""A rule-based agent that plays every decision from its observation alone (no engine state).

It decodes the observation vector with :class:`got_env.encoding.ObservationEncoder` and the legal
actions with :class:`got_env.encoding.ActionCodec`, and uses only public board data from the
ruleset (adjacency, castles, barrels, crowns, home areas). The house axis of the observation is
relative: slot 0 is the agent's own house.

Every kind of decision has one small handler in a dispatch table (:attr:`HeuristicAgent.HANDLERS`,
keyed by :class:`~got_env.engine.decision.DecisionKind`); each handler's docstring says why it
chooses what it chooses. The ideas, in short:

* **Orders** (D-20): March where a reachable castle, stronghold, supply or crown area can be
  taken (empty, or held by defenders weaker than our units + March bonus + own support, with a
  neutral force needing strength >= its token); Defense on valuable areas next to strong enemies;
  Support next to planned attacks and threatened castles; Raid next to enemies; Consolidate Power
  where nothing else is useful (the special one in a castle, to muster).
* **Marches** (D-26..D-28): attack the best target we expect to win, spread spare units into
  valuable empty areas, walk idle armies toward the nearest castle we do not hold, and leave a
  power token in a valuable area we empty.
* **Combat** (D-30..D-45): support our own side or the side against the leading rival; choose the
  house card by its chance to win against the opponent's visible hand, keeping strong cards when
  the fight is hopeless or already won; lose the cheapest units; retreat toward safety.
* **Bids** (D-06, D-08): influence bids sized by our power and the track's value, never more than
  needed to outbid every rival; wildling bids rising with the threat.
* **Mustering** (D-05): Knights in strongholds, Footmen otherwise, Ships where enemy ships are
  near or we have none; the most threatened areas first.

The agent remembers a little between decisions (the order plan of a Planning phase, the moves of
a March in progress, which influence track is being bid on, the power before a wildling bid);
:meth:`reset` forgets it.
"""

from __future__ import annotations

import functools
import math
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from got_env.data import ORDER_TYPES, TRACKS, load_ruleset
from got_env.data.loader import RULESETS
from got_env.encoding import codec_for, encoder_for
from got_env.engine.decision import CHOICES, Action, DecisionKind

K = DecisionKind
FOOTMAN, KNIGHT, SHIP, SIEGE = range(4)
LAND, SEA, PORT = range(3)
IRON_THRONE, FIEFDOMS, KINGS_COURT = range(len(TRACKS))
BASE_STRENGTH = np.array([1.0, 2.0, 1.0, 0.0])  # footman, knight, ship, siege engine (§15.0)
UNIT_COST = {FOOTMAN: 1.0, SHIP: 1.2, SIEGE: 1.5, KNIGHT: 2.0}  # what losing one unit costs
TRACK_SHARE = {IRON_THRONE: 0.25, FIEFDOMS: 0.35, KINGS_COURT: 0.6}  # of the power left
RAID_TARGET_VALUE = {"consolidate-power": 4.0, "support": 3.5, "raid": 2.0, "defense": 2.5,
                     "march": 0.0}


def env_ruleset(env: Any) -> str | None:
    """The ruleset name of a game's env (a PettingZoo env, wrapped or not, or anything with a
    ``ruleset``), or None when ``env`` tells none."""
    raw = getattr(env, "unwrapped", env)
    rs = getattr(raw, "ruleset", None)
    name = getattr(rs, "name", rs)
    return name if isinstance(name, str) else None


def _choice(name: str) -> Action:
    return ("choice", CHOICES.index(name))


@functools.lru_cache(maxsize=4)
def _tables(ruleset_name: str) -> _Tables:
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
        self.value = np.where(self.is_land, 0.3 + 3.0 * (self.fort > 0) + 0.5 * (self.fort == 2)
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
            dist = np.full((self.n, self.n), 99, dtype=int)
            for s in np.flatnonzero(ok):
                dist[s, s] = 0
                q = deque([int(s)])
                while q:
                    a = q.popleft()
                    for b in np.flatnonzero(self.land_adj[a] & ok):
                        if dist[s, b] == 99:
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
        self.strength = self.standing @ BASE_STRENGTH  # [area, rel house]
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
        if self.round >= 10:
            val = 3.0 * (t.fort[a] > 0) + 0.2 * t.is_land[a]
        if self.control[a] > 0 and t.fort[a] > 0:
            val *= 1.4
        return val

    def threats(self) -> np.ndarray:
        """threat() for every area at once."""
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

    def support_value(self, s: int, area: int, for_attacker: bool) -> float:
        """R15.1.2: the support area's units (siege engines only attacking a castle) + bonus."""
        rel = int(self.occupant[s])
        if rel < 0:
            return 0.0
        val = float(self.strength[s, rel])
        if for_attacker and self.t.fort[area] > 0:
            val += 4.0 * self.standing[s, rel, SIEGE]
        if self.order[s] >= 0:
            val += float(self.t.tok_bonus[self.order[s]])
        return val


def _p_win(diff: float, mine: np.ndarray, theirs: np.ndarray, tie_wins: bool) -> np.ndarray:
    """For each of our card strengths, the chance to win by ``diff`` + ours vs one of theirs
    drawn at random (ties go to the better Fiefdoms position)."""
    if mine.size == 0:
        mine = np.zeros(1)
    if theirs.size == 0:
        theirs = np.zeros(1)
    margin = diff + mine[:, None] - theirs[None, :]
    wins = (margin > 0) | ((margin == 0) & tie_wins)
    return wins.mean(axis=1)


class HeuristicAgent:
    """Plays every decision kind with a small, explainable rule (see the module docstring)."""

    def __init__(self, seed: int | None = None, ruleset: str | None = None, env: Any = None):
        """``seed`` is accepted like every agent's, but the rules are deterministic.

        ``ruleset`` ("2e", "1e"): the game's edition; without it, the ruleset of ``env`` (the
        game's env, which agent specs pass); without either, the agent starts on "2e" and
        switches to the ruleset whose observation length it is given (their lengths differ).
        A ruleset that was named and an observation of another length raise ValueError."""
        del seed
        named = ruleset if ruleset is not None else env_ruleset(env)
        self.ruleset = named or "2e"
        self._ruleset_named = named is not None
        self._bind()
        self.reset()

    def _bind(self) -> None:
        self.t = _tables(self.ruleset)
        self.handlers = {kind: getattr(self, name) for kind, name in self.HANDLERS.items()}

    def __getstate__(self) -> dict[str, Any]:
        """Its memory of the game only: the ruleset's tables are rebuilt (shared) on load, so
        that a trainer checkpoint holding many heuristic seats stays small."""
        return {k: v for k, v in self.__dict__.items() if k not in ("t", "handlers")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind()

    def reset(self) -> None:
        """Forget the memory of the previous game."""
        self._order_plan: tuple[Any, dict[int, tuple]] | None = None
        self._march: dict[str, Any] | None = None
        self._last_kind: DecisionKind | None = None
        self._bid_track = 0
        self._wildling_snapshot: tuple[np.ndarray, float] | None = None

    def observe_end(self, *args: Any, **kwargs: Any) -> None:
        """End of a game: nothing to learn, just forget."""
        self.reset()

    # -- entry point ------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask: this agent is not to act")
        if observation.shape[-1] != self.t.encoder.size:
            self._follow_ruleset(observation.shape[-1])
        actions = [self.t.decode[i] for i in legal]
        vw = self._view(observation)
        kind = self._kind(info, vw)
        handler = self.handlers.get(kind, self._default)
        action = handler(vw, actions) if len(actions) > 1 else actions[0]
        self._last_kind = kind
        index = self.t.codec.encode(action)
        if not action_mask[index]:  # a bug in a rule must never make an illegal move
            return int(legal[0])
        return int(index)

    def _follow_ruleset(self, size: int) -> None:
        """Rebind to the ruleset whose observations have ``size`` features (see __init__)."""
        if self._ruleset_named:
            raise ValueError(f"{type(self).__name__} plays ruleset {self.ruleset!r}, whose "
                             f"observations have {self.t.encoder.size} features; got {size}")
        sizes = {name: encoder_for(load_ruleset(name)).size for name in RULESETS}
        found = [name for name, n in sizes.items() if n == size]
        if not found:
            raise ValueError(f"an observation of {size} features is of no ruleset "
                             f"(sizes: {sizes})")
        self.ruleset = found[0]
        self._bind()
        self.reset()

    def _view(self, observation: np.ndarray) -> _View:
        """The decoded observation every handler reads (a subclass may read more from it)."""
        return _View(self.t, observation)

    @staticmethod
    def _kind(info: dict[str, Any], vw: _View) -> DecisionKind:
        label = info.get("decision") if info else None
        if isinstance(label, str) and label:  # info_format="text": "D-20 PLACE_ORDERS"
            return DecisionKind(int(label[2:4]))
        if label:  # the env's default numeric infos: the kind's id (0: no decision)
            return DecisionKind(int(label))
        return DecisionKind(int(np.argmax(vw.v["decision_kind"])) + 1)

    def _default(self, vw: _View, actions: list[Action]) -> Action:
        """Unknown kinds: DONE or "nothing" when offered (doing nothing is never harmful),
        else the first option."""
        for a in actions:
            if a == ("done",) or a == _choice("nothing"):
                return a
        return actions[0]

    # ============================================================================================
    # Westeros phase
    def _throne_of_blades(self, vw: _View, actions: list[Action]) -> Action:
        """D-01: Supply if our barrels exceed our supply level (we grow); else Mustering if our
        castles muster at least as much as any rival's; else nothing."""
        t = vw.t
        ctrl = vw.control
        barrels = float(t.barrels[ctrl == 0].sum())
        if barrels > float(vw.v["supply"][0]):
            return _choice("supply")
        points = [float(t.fort[ctrl == r].sum()) for r in range(t.H)]
        if points[0] >= max((points[r] for r in vw.rivals), default=0.0):
            return _choice("mustering")
        return _choice("nothing")

    def _dark_wings(self, vw: _View, actions: list[Action]) -> Action:
        """D-02: Game of Thrones if our crowns earn at least the average rival's; else a Clash of
        Kings if we hold the most power (we would win the bids); else nothing."""
        crowns = [float(vw.t.crowns[vw.control == r].sum()) for r in range(vw.t.H)]
        rival = [crowns[r] for r in vw.rivals] or [0.0]
        if crowns[0] >= sum(rival) / len(rival):
            return _choice("game-of-thrones")
        if vw.power[0] >= max((vw.power[r] for r in vw.rivals), default=0.0):
            return _choice("clash-of-kings")
        return _choice("nothing")

    def _put_to_the_sword(self, vw: _View, actions: list[Action]) -> Action:
        """D-03: we are the attacking side: banning Defense orders helps our marches."""
        return _choice("no-defense-orders")

    def _reconcile(self, vw: _View, actions: list[Action]) -> Action:
        """D-04: destroy the cheapest unit where it matters least."""
        return self._cheapest_unit(vw, actions)

    def _muster(self, vw: _View, actions: list[Action]) -> Action:
        """D-05 / D-19: pick the area with the most points (the most threatened first), then
        Knights in strongholds, Footmen otherwise, Ships where enemy ships are near or we have
        none; a Footman upgraded to a Knight when no new unit fits; Siege Engines only next to
        an enemy castle; done when nothing left is worth its supply."""
        areas = [a for a in actions if a[0] == "area"]
        if areas:
            threat = vw.threats()
            return max(areas, key=lambda a: (vw.t.fort[a[1]], threat[a[1]]))
        units = [a for a in actions if a[0] in ("muster", "upgrade")]
        best = max(units, key=lambda a: self._muster_score(vw, a), default=None)
        if best is None or self._muster_score(vw, best) < 0.5:
            return ("done",)
        return best

    def _muster_score(self, vw: _View, action: Action) -> float:
        """Worth of one muster option; below 0.5 it is not worth the supply it takes."""
        t = vw.t
        area = action[2] if action[0] == "muster" else int(np.argmax(vw.v["decision_area"]))
        near_enemy_castle = any(t.fort[b] > 0 and vw.control[b] > 0 for b in t.neighbours[area])
        if action[0] == "upgrade":  # a Footman becomes a Knight (+1) or a Siege Engine
            if action[1] == KNIGHT:
                return 1.1
            return 1.0 if near_enemy_castle else 0.0  # a Siege Engine defends with 0
        _, u, dest = action
        if u == KNIGHT:
            return 2.6  # 2 strength for 2 points: the best use of a stronghold
        if u == FOOTMAN:
            return 1.2
        if u == SIEGE:
            return 1.5 if near_enemy_castle else 0.2
        # ships: where rival ships outnumber ours nearby, or we have no fleet there
        sea = dest if t.kind[dest] == SEA else int(np.flatnonzero(t.adj[dest] & (t.kind == SEA))[0])
        seas = np.flatnonzero(t.sea_adj[sea]).tolist() + [sea]
        enemy_ships = vw.standing[seas][:, 1:, SHIP].sum()
        own_ships = vw.mine[seas, SHIP].sum()
        score = 0.5 + 0.7 * (enemy_ships > own_ships) + 0.3 * (own_ships == 0)
        return score + (0.05 if t.kind[dest] == SEA else 0.0)

    def _influence_bid(self, vw: _View, actions: list[Action]) -> Action:
        """D-06: the tracks are bid Iron Throne, Fiefdoms, King's Court in turn. Bid a share of
        our power by the track's worth (King's Court stars most), keep a reserve against a high
        wildling threat, and never more than one above the richest rival's power."""
        if self._last_kind in (K.INFLUENCE_BID, K.RANK_TIED_BIDDERS):
            self._bid_track = min(self._bid_track + 1, 2)
        else:
            self._bid_track = 0
        power = float(vw.power[0])
        reserve = math.ceil(vw.threat / max(vw.n_players, 1)) if vw.threat >= 6 else 0
        budget = max(0.0, power - reserve)
        want = round(TRACK_SHARE[self._bid_track] * budget)
        richest = max((float(vw.power[r]) for r in vw.rivals), default=0.0)
        bid = int(min(want, richest + 1, power))
        return self._closest_bid(actions, bid)

    @staticmethod
    def _closest_bid(actions: list[Action], bid: int) -> Action:
        bids = [a for a in actions if a[0] == "bid"]
        return min(bids, key=lambda a: abs(a[1] - bid))

    def _rank_tied(self, vw: _View, actions: list[Action]) -> Action:
        """D-07 / D-09 (placing a tie): ourselves first; else the rival with the fewest castles
        (never help the leader)."""
        return self._best_house_for_us(vw, actions)

    def _best_house_for_us(self, vw: _View, actions: list[Action]) -> Action:
        houses = [a for a in actions if a[0] == "house"]
        for a in houses:
            if vw.rel(a[1]) == 0:
                return a
        return min(houses, key=lambda a: vw.victory_points(vw.rel(a[1])))

    def _wildling_bid(self, vw: _View, actions: list[Action]) -> Action:
        """D-08: our fair share of the threat (threat / players, +1 when it is high), within
        our power: nothing at threat 0. Remember everyone's power to read the bids later."""
        self._wildling_snapshot = (vw.power.copy(), vw.threat)
        threat = vw.threat
        bid = math.ceil(threat / max(vw.n_players, 1)) + (1 if threat >= 8 else 0)
        return self._closest_bid(actions, int(min(bid, vw.power[0])))

    def _wildling_tied(self, vw: _View, actions: list[Action]) -> Action:
        """D-09: the bids are the power each house lost since our bid. If the Night's Watch won
        the tie is for the reward: take it, else give it to the weakest rival; if it lost the
        tie is for the penalty: give it to the leading rival, never ourselves."""
        houses = [a for a in actions if a[0] == "house"]
        won = True
        if self._wildling_snapshot is not None:
            before, threat = self._wildling_snapshot
            won = float((before - vw.power).clip(min=0).sum()) >= threat
        if won:
            return self._best_house_for_us(vw, actions)
        others = [a for a in houses if vw.rel(a[1]) != 0] or houses
        return max(others, key=lambda a: vw.victory_points(vw.rel(a[1])))

    def _preemptive_penalty(self, vw: _View, actions: list[Action]) -> Action:
        """D-10: units hold castles; track positions can be bought back: drop on the track."""
        return _choice("drop-on-track")

    def _preemptive_track(self, vw: _View, actions: list[Action]) -> Action:
        """D-11: if the offered tracks are exactly where we stand highest, it is our own drop:
        lose Fiefdoms or the Iron Throne, keep King's Court; for a rival, take its King's
        Court (its stars) first."""
        tracks = [a[1] for a in actions if a[0] == "track"]
        pos = [vw.position(tr, 0) for tr in range(3)]
        ours = sorted(tr for tr in range(3) if pos[tr] == min(pos)) == sorted(tracks)
        prefer = [FIEFDOMS, IRON_THRONE, KINGS_COURT] if ours else \
            [KINGS_COURT, FIEFDOMS, IRON_THRONE]
        return next(("track", tr) for tr in prefer if tr in tracks)

    def _destroy_units(self, vw: _View, actions: list[Action]) -> Action:
        """D-12: the cheapest unit where it matters least."""
        return self._cheapest_unit(vw, actions)

    def _crow_upgrade(self, vw: _View, actions: list[Action]) -> Action:
        """D-13: upgrade the Footman facing the strongest enemy."""
        units = [a for a in actions if a[0] == "unit"]
        if not units:
            return ("done",)
        threat = vw.threats()
        return max(units, key=lambda a: threat[a[1]])

    def _crow_replace(self, vw: _View, actions: list[Action]) -> Action:
        """D-14: the Knight facing the least danger goes."""
        threat = vw.threats()
        return min(actions, key=lambda a: threat[a[1]] if a[0] == "unit" else 1e9)

    def _massing_discard(self, vw: _View, actions: list[Action]) -> Action:
        """D-15: discard the weakest card."""
        return min(actions, key=lambda a: self.t.card_strength[a[1]] if a[0] == "card" else 99)

    def _king_top(self, vw: _View, actions: list[Action]) -> Action:
        """D-16: the top of King's Court (stars), then the Iron Throne, where we are not first."""
        for tr in (KINGS_COURT, IRON_THRONE, FIEFDOMS):
            if ("track", tr) in actions and vw.position(tr, 0) > 0:
                return ("track", tr)
        return actions[0]

    def _king_bottom(self, vw: _View, actions: list[Action]) -> Action:
        """D-17: drop where we lose least: the track we are already lower on (Fiefdoms on a
        tie: King's Court stars are worth more)."""
        return max((a for a in actions if a[0] == "track"),
                   key=lambda a: (vw.position(a[1], 0), a[1] == FIEFDOMS))

    def _strongest_card(self, actions: list[Action]) -> Action:
        """The offered card of the highest printed strength, or "done" when none is offered."""
        cards = [a for a in actions if a[0] == "card"]
        if not cards:
            return ("done",)
        return max(cards, key=lambda a: self.t.card_strength[a[1]])

    def _mammoth_retrieve(self, vw: _View, actions: list[Action]) -> Action:
        """D-18: take back the strongest discarded card."""
        return self._strongest_card(actions)

    def _horde_muster(self, vw: _View, actions: list[Action]) -> Action:
        """D-19: muster, in the area a normal muster would pick."""
        return self._muster(vw, actions)

    # ============================================================================================
    # Planning phase
    def _place_orders(self, vw: _View, actions: list[Action]) -> Action:
        """D-20: plan every order of this Planning phase once (see :meth:`_plan_orders`), then
        place the planned token of one area per call (identical tokens are interchangeable)."""
        key = (vw.round, vw.mine.tobytes())
        legal = {}
        for a in actions:
            legal.setdefault(a[1], {})[self.t.tok_key[a[2]]] = a
        if self._order_plan is None or self._order_plan[0] != key:
            self._order_plan = (key, self._plan_orders(vw, sorted(legal)))
        plan = self._order_plan[1]
        for area, tkey in list(plan.items()):
            if area in legal and tkey in legal[area]:
                del plan[area]
                return legal[area][tkey]
        # the plan no longer fits (a star or a token ran out): re-plan what is left
        plan = self._plan_orders(vw, sorted(legal))
        self._order_plan = (key, plan)
        for area, tkey in plan.items():
            if area in legal and tkey in legal[area]:
                del plan[area]
                return legal[area][tkey]
        area = min(legal)
        return next(iter(legal[area].values()))

    def _available_tokens(self, vw: _View) -> tuple[dict[str, list[int]], int]:
        """Our unused tokens by type (best bonus first, Westeros bans applied) and how many
        more special orders King's Court allows us (R10.1.3, §10.3)."""
        t = vw.t
        used = {int(vw.order[a]) for a in np.flatnonzero(vw.order >= 0) if vw.occupant[a] == 0}
        bans = vw.v["order_bans"]
        avail: dict[str, list[int]] = {k: [] for k in ORDER_TYPES}
        for i, typ in enumerate(t.tok_type):
            if i in used or bans[ORDER_TYPES.index(typ)]:
                continue
            if typ == "march" and t.tok_special[i] and bans[5]:
                continue
            avail[typ].append(i)
        for typ in avail:
            avail[typ].sort(key=lambda i: (-t.tok_bonus[i], -t.tok_special[i]))
        stars = t.stars[vw.n_players][min(vw.position(KINGS_COURT, 0), vw.n_players - 1)]
        stars_left = stars - sum(bool(t.tok_special[i]) for i in used)
        return avail, stars_left

    def _plan_orders(self, vw: _View, areas: list[int]) -> dict[int, tuple]:
        """Assign a token to every area still without an order, in this order of priority:
        1. March where :meth:`_evaluate_march` finds a worthwhile plan (the attacks needing
           the most strength get the best March tokens);
        2. Defense on castles and home areas that a rival could attack with more than we hold;
        3. Support next to a planned attack or a threatened castle of ours;
        4. Raid next to a rival's area (its Consolidate Power and Support orders);
        5. Consolidate Power elsewhere (the special one in a castle, to muster there).
        Areas whose wanted type has run out take the next useful type."""
        t = vw.t
        pool, take = self._token_pool(vw)
        plan: dict[int, int] = {}
        threat = vw.threats()
        # 1. marches, best first; later ones do not count the areas earlier ones walk into
        targets: list[int] = []
        claimed: set[int] = set()
        chosen = []
        left = [a for a in areas]
        while left and len(chosen) < len(pool["march"]):
            evals = [(self._evaluate_march(vw, a, None, claimed, planning=True), a) for a in left]
            (worth, queue, target, need), a = max(evals, key=lambda e: e[0][0])
            if worth < 0.6:
                break
            chosen.append((need, a))
            left.remove(a)
            claimed |= {m[2] for m in queue}
            if target is not None:
                targets.append(target)
        for need, a in sorted(chosen, reverse=True):  # the closest fights get the best tokens
            tok = take("march", want_star=need > -2)
            if tok is not None:
                plan[a] = tok
        # 2. defense
        guards = []
        for a in areas:
            if a in plan or not t.is_land[a]:
                continue
            held = vw.my_strength[a] + (vw.garrison[a] if t.home_of[a] == vw.me else 0)
            if t.value[a] >= 2.0 and threat[a] > 0 and threat[a] >= held - 1:
                guards.append((t.value[a] * threat[a], threat[a] - held, a))
        for _, need, a in sorted(guards, reverse=True):
            tok = take("defense", want_star=need >= 1)
            if tok is not None:
                plan[a] = tok
        # 3. support
        endangered = [b for b in np.flatnonzero(vw.control == 0)
                      if t.value[b] >= 2.0 and threat[b] > 0]
        for a in areas:
            if a in plan or vw.my_strength[a] <= 0:
                continue
            helps = any(t.can_support[a, b] for b in targets) or \
                any(t.can_support[a, b] for b in endangered)
            if helps:
                tok = take("support", want_star=any(t.can_support[a, b] for b in targets))
                if tok is not None:
                    plan[a] = tok
        # 4. raids
        for a in areas:
            if a in plan:
                continue
            near = np.flatnonzero(t.can_raid[a])
            if any(vw.occupant[b] > 0 for b in near):
                tok = take("raid", want_star=False)
                if tok is not None:
                    plan[a] = tok
        # 5. consolidate power, then anything left
        self._plan_rest(vw, areas, plan, take)
        return {a: t.tok_key[tok] for a, tok in plan.items()}

    def _plan_rest(self, vw: _View, areas: list[int], plan: dict[int, int],
                   take: Callable[[str, bool], int | None],
                   defend: Callable[[int], bool] = lambda a: False) -> None:
        """The planning's last step: every area still without an order (castles first) takes
        the first type left in its preference list: at sea Support, Raid, Defense, March, CP;
        on land CP first (the special one in a castle, to muster), or Defense first where
        ``defend(area)`` says so (v2's endangered castles)."""
        t = vw.t
        for a in sorted((a for a in areas if a not in plan), key=lambda a: -t.fort[a]):
            if t.kind[a] == SEA:
                prefs = ["support", "raid", "defense", "march", "consolidate-power"]
            elif defend(a):
                prefs = ["defense", "consolidate-power", "support", "raid", "march"]
            else:
                prefs = ["consolidate-power", "support", "defense", "raid", "march"]
            for typ in prefs:
                tok = take(typ, want_star=typ == "consolidate-power" and t.fort[a] > 0)
                if tok is not None:
                    plan[a] = tok
                    break

    def _token_pool(self, vw: _View) -> tuple[dict[str, list[int]],
                                             Callable[[str, bool], int | None]]:
        """The order tokens this planning may still place, by type, and ``take(type,
        want_star)``, which takes the best one of a type out of that pool
        (:meth:`_take_token`, the star limit kept across calls)."""
        avail, stars = self._available_tokens(vw)
        pool = {k: list(v) for k, v in avail.items()}
        stars_left = [stars]

        def take(typ: str, want_star: bool) -> int | None:
            return self._take_token(pool, stars_left, typ, want_star)

        return pool, take

    def _take_token(self, pool: dict[str, list[int]], stars_left: list[int], typ: str,
                    want_star: bool) -> int | None:
        """Take one token of type ``typ`` out of ``pool`` (the best bonus first; a special one
        only if ``want_star`` or nothing else is left, and only while ``stars_left[0]`` allows
        it): the token index, or None when the type has run out."""
        t = self.t
        toks = pool[typ]
        if not toks:
            return None
        order = toks if want_star else sorted(toks, key=lambda i: t.tok_special[i])
        for i in order:
            if t.tok_special[i] and stars_left[0] <= 0:
                continue
            toks.remove(i)
            stars_left[0] -= int(t.tok_special[i])
            return i
        return None

    def _defence_estimate(self, vw: _View, area: int, d: int) -> float:
        """Defender strength before the reveal: units, garrison, a likely Defense order (+1) and
        half of what its neighbours could add in support."""
        t = vw.t
        val = float(vw.strength[area, d]) + 1.0
        if t.home_of[area] == vw.canon(d):
            val += float(vw.garrison[area])
        near = t.can_support[:, area]
        val += 0.5 * float(vw.strength[near, d].sum())
        return val

    def _goal_distance(self, vw: _View) -> np.ndarray:
        """Walking distance from each area to the nearest castle or stronghold we do not hold
        (neutral forces we cannot beat excluded)."""
        t = vw.t
        dist = t.land_distance(vw.impassable)
        goals = np.flatnonzero((t.fort > 0) & (vw.control != 0) & ~vw.impassable
                               & (vw.neutral <= 4))
        if goals.size == 0:
            return np.full(t.n, 99)
        return dist[:, goals].min(axis=1)

    def _raven_use(self, vw: _View, actions: list[Action]) -> Action:
        """D-21: looking at the wildling card is free information; swaps are not worth the
        risk of breaking the plan."""
        if _choice("look-at-wildling-card") in actions:
            return _choice("look-at-wildling-card")
        return _choice("nothing")

    def _raven_swap(self, vw: _View, actions: list[Action]) -> Action:
        """D-22: turn a Consolidate Power next to a rival into a Defense, else the first swap
        offered to a stronger token of the same kind."""
        t = vw.t
        threat = vw.threats()
        for a in actions:
            if a[0] == "order" and t.tok_type[a[2]] == "defense" and threat[a[1]] > 0:
                return a
        return max(actions, key=lambda a: t.tok_bonus[a[2]] if a[0] == "order" else -9)

    def _raven_look(self, vw: _View, actions: list[Action]) -> Action:
        """D-23: keep a harmless card on top (Silence at the Wall, or any card when we hold the
        most power and would win its reward); bury the others."""
        known = np.flatnonzero(vw.v["wildling_top_known"] > 0)
        card = self.t.wildling_ids[int(known[0])] if known.size else ""
        richest = all(vw.power[0] >= vw.power[r] for r in vw.rivals)
        if card == "silence-at-the-wall" or richest:
            return _choice("keep-on-top")
        return _choice("put-on-bottom")

    # ============================================================================================
    # Action phase: raids, marches, consolidate power
    def _raid_score(self, vw: _View, target: int) -> float:
        """Worth of removing the order in ``target``: Consolidate Power (we pillage a power),
        Support (a combat may hinge on it), Raid, Defense (special raid)."""
        tok = vw.order[target]
        if tok < 0:
            return 0.0
        val = RAID_TARGET_VALUE[self.t.tok_type[tok]] + (0.5 if self.t.tok_special[tok] else 0)
        return val + 0.1 * self.t.crowns[target]

    def _raid_to_resolve(self, vw: _View, actions: list[Action]) -> Action:
        """D-24: the Raid with the most valuable target first."""
        t = vw.t

        def best(a: int) -> float:
            special = vw.order[a] >= 0 and t.tok_special[vw.order[a]]
            scores = [self._raid_score(vw, int(b)) for b in np.flatnonzero(t.can_raid[a])
                      if vw.occupant[b] > 0 and vw.order[b] >= 0
                      and (t.tok_type[vw.order[b]] != "defense" or special)]
            return max(scores, default=0.0)

        return max((a for a in actions if a[0] == "area"), key=lambda a: best(a[1]))

    def _raid_target(self, vw: _View, actions: list[Action]) -> Action:
        """D-25: remove the most valuable order in reach; done only when there is none."""
        targets = [a for a in actions if a[0] == "area"]
        if not targets:
            return ("done",)
        return max(targets, key=lambda a: self._raid_score(vw, a[1]))

    def _march_to_resolve(self, vw: _View, actions: list[Action]) -> Action:
        """D-26: the March with the most valuable plan first (attacks before mere moves)."""
        def worth(a: int) -> float:
            return self._evaluate_march(vw, a, None)[0]

        return max((a for a in actions if a[0] == "area"), key=lambda a: worth(a[1]))

    def _march_move(self, vw: _View, actions: list[Action]) -> Action:
        """D-27: plan the whole March once (:meth:`_evaluate_march`), then play its moves one
        by one; a planned move that became illegal (supply) is skipped; done when the plan is
        over, or, when done is not yet legal, the most valuable move still offered. The plan is
        made again if the board is not the one it expects (another game or simulation)."""
        src = int(np.argmax(vw.v["decision_area"]))
        m = self._march
        if m is None or m["key"] != (vw.round, src, vw.me) or \
                not np.array_equal(self._expected_units(m, src), vw.mine):
            moves = [a for a in actions if a[0] == "move"]
            _, queue, target, _ = self._evaluate_march(vw, src, moves)
            m = self._march = {"key": (vw.round, src, vw.me), "start": vw.mine.copy(),
                               "played": [], "queue": queue}
        while m["queue"]:
            move = m["queue"].pop(0)
            if move in actions:
                m["played"].append((move, vw.defender(move[2]) != -1))
                return move
        if ("done",) in actions:
            self._march = None
            return ("done",)
        moves = [a for a in actions if a[0] == "move"]
        own = [a for a in moves if vw.defender(a[2]) == -1]
        move = max(own or moves, key=lambda a: (vw.gain(a[2]), -UNIT_COST[a[1]]))
        m["played"].append((move, vw.defender(move[2]) != -1))
        return move

    @staticmethod
    def _expected_units(m: dict[str, Any], src: int) -> np.ndarray:
        """Our units as the March plan expects them now: its moves into free areas are on the
        board; units sent to attack still wait in the March area."""
        units = m["start"].copy()
        for (_, u, b), waits in m["played"]:
            if not waits:
                units[src, u] -= 1
                units[b, u] += 1
        return units

    def _evaluate_march(self, vw: _View, src: int, moves: list[Action] | None,
                        claimed: set[int] | frozenset = frozenset(), planning: bool = False
                        ) -> tuple[float, list[Action], int | None, float]:
        """(worth, moves, attack target, strength missing) of a March from ``src``; one
        evaluator for planning (orders still hidden, ``planning``) and for the march itself:

        * attack: the target with the best chance x gain, if the chance is at least 1/2 (a
          neutral force only if our strength reaches its token); every unit that can go goes
          (Siege Engines only against castles);
        * spread: each spare unit (Footmen first) walks into a valuable empty area not
          ``claimed`` by another March;
        * approach: with nothing in reach, the army steps toward the nearest castle we lack;
        * a valuable area under threat keeps one unit unless the attack needs it, and does not
          wander off."""
        t = vw.t
        free = vw.standing[src, 0].astype(int)
        if moves is None:  # estimate: every destination our units could reach
            dests = {int(b) for b in np.flatnonzero(t.adj[src]) if not vw.impassable[b]}
            if t.kind[src] == LAND:
                dests = {b for b in dests if t.is_land[b]} | vw.ship_reach(src)
            else:
                dests = {b for b in dests if t.kind[b] == SEA}
            moves = [("move", u, b) for b in dests for u in range(4) if free[u] > 0
                     and ((u == SHIP) == (t.kind[src] != LAND))]
        by_dest: dict[int, list[int]] = {}
        for _, u, b in moves:
            by_dest.setdefault(b, []).append(u)
        threat = vw.threats()
        guard = t.value[src] >= 2.0 and threat[src] > 0 and t.kind[src] == LAND
        # attack
        best, plan_attack, need = 0.0, None, -99.0
        for b, types in by_dest.items():
            d = vw.defender(b)
            if d == -1 or b in claimed:
                continue
            send = np.array([free[u] if u in types else 0 for u in range(4)])
            if t.fort[b] == 0:
                send[SIEGE] = 0
            if send.sum() == 0:
                continue
            p, gap = self._attack_chance(vw, src, b, d, send, planning)
            worth = p * (vw.gain(b) + (1.0 if t.kind[b] == SEA else 0.0)) - (1 - p)
            if p >= 0.5 and worth > best:
                best, plan_attack, need = worth, (b, send), gap
        queue: list[Action] = []
        left = free.copy()
        if plan_attack is not None:
            b, send = plan_attack
            if guard and send.sum() == free.sum() > 1 and send[FOOTMAN] > 0:
                fewer = send.copy()
                fewer[FOOTMAN] -= 1
                if self._attack_chance(vw, src, b, vw.defender(b), fewer, planning)[0] >= 0.6:
                    send = fewer
            for u in (KNIGHT, SIEGE, FOOTMAN, SHIP):
                queue += [("move", u, b)] * int(send[u])
            left -= send
        # spread into valuable empty areas, one unit each, cheapest first
        empties = sorted(((vw.gain(b), b) for b in by_dest if vw.defender(b) == -1
                          and vw.gain(b) > 0.5 and vw.occupant[b] != 0 and b not in claimed),
                         reverse=True)
        spread = 0.0
        for g, b in empties:
            if left.sum() - (1 if guard else 0) <= 0:
                break
            u = next((u for u in (FOOTMAN, SHIP, KNIGHT) if left[u] > 0 and u in by_dest[b]),
                     None)
            if u is None:
                continue
            queue.append(("move", u, b))
            left[u] -= 1
            spread += g
        worth = best + spread
        # approach: with nothing else to do, the army steps toward the nearest castle
        if not queue and t.kind[src] == LAND and not guard:
            goal = self._goal_distance(vw)
            steps = [b for b in by_dest if vw.defender(b) == -1 and goal[b] < goal[src]]
            if steps and goal[src] < 99:
                b = min(steps, key=lambda b: (goal[b], -vw.gain(b)))
                for u in (KNIGHT, FOOTMAN, SIEGE):
                    if u in by_dest[b]:
                        queue += [("move", u, b)] * int(left[u])
                worth = 0.7
        return worth, queue, plan_attack[0] if plan_attack else None, need

    def _attack_chance(self, vw: _View, src: int, area: int, d: int, send: np.ndarray,
                       planning: bool = False) -> tuple[float, float]:
        """(chance, strength gap) of ``send`` units from ``src`` against the defender of
        ``area``: our units + March bonus + our Support, against its units, Defense order,
        garrison and Support (its own in full, third parties' at half); house cards from both
        visible hands. Before the reveal (``planning``) we count +1 for our March token, 70% of
        our neighbours' strength as support, and guess a +1 Defense and half the defender's
        neighbours as support. A neutral force: strength >= token, no cards."""
        t = vw.t
        mine = float(send @ BASE_STRENGTH) + 4.0 * send[SIEGE] * (t.fort[area] > 0)
        if planning:
            mine += 1.0 + 0.7 * sum(float(vw.my_strength[s]) for s in
                                    np.flatnonzero(t.can_support[:, area])
                                    if s != src and vw.occupant[s] == 0)
        else:
            if vw.order[src] >= 0:
                mine += float(t.tok_bonus[vw.order[src]])
            mine += sum(vw.support_value(s, area, True) for s in vw.support_areas(0, area))
        if d == -2:
            return (1.0 if mine >= vw.neutral[area] else 0.0), float(vw.neutral[area]) - mine
        if planning:
            theirs = self._defence_estimate(vw, area, d)
        else:
            theirs = float(vw.strength[area, d])
            if vw.order[area] >= 0 and vw.occupant[area] == d and \
                    t.tok_type[vw.order[area]] == "defense":
                theirs += float(t.tok_bonus[vw.order[area]])
            if t.home_of[area] == vw.canon(d):
                theirs += float(vw.garrison[area])
            theirs += sum(vw.support_value(s, area, False) for s in vw.support_areas(d, area))
            for r in vw.rivals:
                if r != d:
                    theirs += 0.5 * sum(vw.support_value(s, area, False)
                                        for s in vw.support_areas(int(r), area))
        tie = vw.position(FIEFDOMS, 0) < vw.position(FIEFDOMS, d)
        p = float(_p_win(mine - theirs, t.card_strength[vw.hand(0)],
                         t.card_strength[vw.hand(d)], tie).max())
        return p, theirs - mine

    def _leave_token(self, vw: _View, actions: list[Action]) -> Action:
        """D-28: keep a valuable area (castle, barrels, crowns) with a power token when we have
        power to spare; a plain area only when we are rich."""
        area = int(np.argmax(vw.v["decision_area"]))
        worth = self.t.value[area]
        if (worth >= 0.8 and vw.power[0] >= 1) or vw.power[0] >= 4:
            return _choice("yes")
        return _choice("no")

    def _support_neutral(self, vw: _View, actions: list[Action]) -> Action:
        """D-29: helping another house take a neutral castle only makes a rival stronger."""
        return _choice("nothing")

    # ============================================================================================
    # Combat
    def _combat(self, vw: _View) -> dict[str, Any]:
        """The public facts of the combat in progress: area, origin, sides, strengths before
        cards (units, order bonuses, garrison, declared supports)."""
        t = vw.t
        v = vw.v
        area = int(np.argmax(v["combat_area"]))
        origin = int(np.argmax(v["combat_origin"]))
        att = int(np.argmax(v["combat_sides"][0]))
        dfn = int(np.argmax(v["combat_sides"][1]))
        units = v["combat_attackers"]
        a_str = float(units @ BASE_STRENGTH) + 4.0 * units[SIEGE] * (t.fort[area] > 0)
        if vw.order[origin] >= 0 and t.tok_type[vw.order[origin]] == "march":
            a_str += float(t.tok_bonus[vw.order[origin]])
        d_str = float(vw.strength[area, dfn])
        if vw.order[area] >= 0 and vw.occupant[area] == dfn and \
                t.tok_type[vw.order[area]] == "defense":
            d_str += float(t.tok_bonus[vw.order[area]])
        if t.home_of[area] == vw.canon(dfn):
            d_str += float(vw.garrison[area])
        support = v["combat_support"]  # per Support order area: [attacker, defender]
        for s in np.flatnonzero(support[:, 0]):
            a_str += vw.support_value(int(s), area, True)
        for s in np.flatnonzero(support[:, 1]):
            d_str += vw.support_value(int(s), area, False)
        return {"area": area, "origin": origin, "att": att, "dfn": dfn,
                "strength": {att: a_str, dfn: d_str}}

    def _declare_support(self, vw: _View, actions: list[Action]) -> Action:
        """D-30: our own side always; in others' fights, the side against the rival with more
        castles (nothing if they are level)."""
        c = self._combat(vw)
        if c["att"] == 0 and _choice("support-attacker") in actions:
            return _choice("support-attacker")
        if c["dfn"] == 0 and _choice("support-defender") in actions:
            return _choice("support-defender")
        va, vd = vw.victory_points(c["att"]), vw.victory_points(c["dfn"])
        if va > vd and _choice("support-defender") in actions:
            return _choice("support-defender")
        if vd > va and _choice("support-attacker") in actions:
            return _choice("support-attacker")
        return _choice("nothing")

    def _refuse_support(self, vw: _View, actions: list[Action]) -> Action:
        """D-31: support given to our side only adds strength: keep it."""
        return _choice("keep-support")

    def _house_card(self, vw: _View, actions: list[Action]) -> Action:
        """D-32 / D-34: for each card, the chance to win against a random card of the
        opponent's visible hand. Play the cheapest card that reaches the best chance (strong
        cards are kept when the fight is won anyway); when no card can win, the weakest."""
        cards = [a for a in actions if a[0] == "card"]
        if not cards:
            return actions[0]
        t = vw.t
        c = self._combat(vw)
        opp = c["dfn"] if c["att"] == 0 else c["att"]
        diff = c["strength"][0] - c["strength"][opp] if 0 in c["strength"] else 0.0
        theirs = vw.hand(opp)
        chosen = vw.chosen_card(opp)  # after Tyrion's cancel the opponent's card is known
        their_strength = t.card_strength[[chosen]] if chosen >= 0 else t.card_strength[theirs]
        mine = np.array([a[1] for a in cards])
        tie = vw.position(FIEFDOMS, 0) < vw.position(FIEFDOMS, opp)
        p = _p_win(diff, t.card_strength[mine], their_strength, tie)
        if p.max() <= 0:
            key = [(t.card_strength[m], -t.card_forts[m]) for m in mine]
            return cards[min(range(len(cards)), key=key.__getitem__)]
        good = [i for i in range(len(cards)) if p[i] >= p.max() - 0.1]
        i = min(good, key=lambda i: (t.card_strength[mine[i]] - 0.3 * p[i]
                                     - 0.1 * t.card_swords[mine[i]]))
        return cards[i]

    def _tyrion(self, vw: _View, actions: list[Action]) -> Action:
        """D-33: cancel the opponent's card when it is stronger than what he holds on average
        (he must replace it with a weaker one)."""
        c = self._combat(vw)
        opp = c["dfn"] if c["att"] == 0 else c["att"]
        card = vw.chosen_card(opp)
        rest = [x for x in vw.hand(opp) if x != card]
        if card >= 0 and rest and self.t.card_strength[card] > \
                self.t.card_strength[rest].mean():
            return _choice("yes")
        return _choice("no")

    def _aeron(self, vw: _View, actions: list[Action]) -> Action:
        """D-35: swap only if another card turns a loss into a likely win (it costs 2 power)."""
        c = self._combat(vw)
        opp = c["dfn"] if c["att"] == 0 else c["att"]
        t = vw.t
        mine = vw.chosen_card(0)
        theirs = vw.chosen_card(opp)
        if mine < 0 or theirs < 0:
            return ("done",)
        diff = c["strength"][0] - c["strength"][opp] - t.card_strength[theirs]
        tie = vw.position(FIEFDOMS, 0) < vw.position(FIEFDOMS, opp)
        now = _p_win(diff, t.card_strength[[mine]], np.zeros(1), tie)[0]
        cards = [a for a in actions if a[0] == "card"]
        for a in sorted(cards, key=lambda a: t.card_strength[a[1]]):
            if now < 1 and _p_win(diff, t.card_strength[[a[1]]], np.zeros(1), tie)[0] >= 1:
                return a
        return ("done",)

    def _doran(self, vw: _View, actions: list[Action]) -> Action:
        """D-36: send the opponent to the bottom of the track where he stands highest (King's
        Court first on a tie: his stars)."""
        c = self._combat(vw)
        opp = c["dfn"] if c["att"] == 0 else c["att"]
        tracks = [a for a in actions if a[0] == "track"]
        return min(tracks, key=lambda a: (vw.position(a[1], opp), -a[1]))

    def _mace(self, vw: _View, actions: list[Action]) -> Action:
        """D-37: any enemy Footman (they are all alike)."""
        return actions[0]

    def _order_removal(self, vw: _View, actions: list[Action]) -> Action:
        """D-38 / D-41: remove the enemy order that hurts us most: a March or Support next to
        our areas, then Consolidate Power (the special one first), then Defense, then Raid."""
        t = vw.t
        targets = [a for a in actions if a[0] == "area"]
        if not targets:
            return ("done",)
        near_us = t.adj[:, vw.occupant == 0].any(axis=1)
        prio = {"march": 3.0, "support": 2.5, "consolidate-power": 2.0, "defense": 1.5,
                "raid": 1.0}

        def score(a: Action) -> float:
            tok = vw.order[a[1]]
            if tok < 0:
                return 0.0
            return prio[t.tok_type[tok]] + 1.0 * near_us[a[1]] + 0.5 * t.tok_special[tok]

        return max(targets, key=score)

    def _blade_redraw(self, vw: _View, actions: list[Action]) -> Action:
        """D-39: redraw a Tides card that adds no strength."""
        side = 0 if self._combat(vw)["att"] == 0 else 1
        card = np.flatnonzero(vw.v["combat_tides"][side] > 0)
        weak = card.size and self.t.rs.tides_cards[int(card[0])].strength == 0
        return _choice("yes") if weak else _choice("no")

    def _blade_plus_one(self, vw: _View, actions: list[Action]) -> Action:
        """D-40: use the Blade only when its +1 can change who wins (it is spent otherwise)."""
        t = vw.t
        c = self._combat(vw)
        opp = c["dfn"] if c["att"] == 0 else c["att"]
        mine, theirs = vw.chosen_card(0), vw.chosen_card(opp)
        a = c["strength"][0] + (t.card_strength[mine] if mine >= 0 else 0)
        b = c["strength"][opp] + (t.card_strength[theirs] if theirs >= 0 else 0)
        tie = vw.position(FIEFDOMS, 0) < vw.position(FIEFDOMS, opp)
        wins_now = a > b or (a == b and tie)
        wins_then = a + 1 > b or (a + 1 == b and tie)
        return _choice("yes") if wins_then and not wins_now else _choice("no")

    def _renly(self, vw: _View, actions: list[Action]) -> Action:
        """D-42: a Knight is worth more than a Footman: upgrade."""
        units = [a for a in actions if a[0] == "unit"]
        return units[0] if units else ("done",)

    def _casualty(self, vw: _View, actions: list[Action]) -> Action:
        """D-43 / D-45: the cheapest unit first (a losing defender's Siege Engines die in the
        retreat anyway)."""
        return self._cheapest_unit(vw, actions)

    def _cheapest_unit(self, vw: _View, actions: list[Action]) -> Action:
        """The unit whose loss costs least: cheap types first, in areas that keep other units
        and face little danger."""
        units = [a for a in actions if a[0] == "unit"]
        if not units:
            return actions[0]
        t = vw.t
        threat = vw.threats()
        defending = vw.v["combat_area"].any() and int(np.argmax(vw.v["combat_sides"][1])) == 0

        def cost(a: Action) -> float:
            _, area, u = a
            c = UNIT_COST[u]
            if u == SIEGE and defending and vw.v["combat_area"][area] > 0:
                c = 0.0
            if u == SIEGE and t.kind[area] == LAND and not any(
                    t.fort[b] > 0 and vw.control[b] > 0 for b in t.neighbours[area]):
                c = 0.5
            last = vw.units[area, 0].sum() <= 1
            return c + (0.5 * t.value[area] if last else 0.0) + 0.1 * threat[area]

        return min(units, key=cost)

    def _retreat(self, vw: _View, actions: list[Action]) -> Action:
        """D-44: toward safety: our own areas with our units and castles, away from enemies."""
        t = vw.t
        threat = vw.threats()
        areas = [a for a in actions if a[0] == "area"]

        def score(a: Action) -> float:
            b = a[1]
            return (2.0 * (vw.control[b] == 0) + 1.0 * float(vw.mine[b].sum())
                    + 0.5 * t.value[b] - threat[b])

        return max(areas, key=score) if areas else actions[0]

    def _patchface(self, vw: _View, actions: list[Action]) -> Action:
        """D-46: discard the opponent's strongest card."""
        return self._strongest_card(actions)

    def _port_capture(self, vw: _View, actions: list[Action]) -> Action:
        """D-47: take as many of the ships as allowed: a fleet for free."""
        return max((a for a in actions if a[0] == "count"), key=lambda a: a[1])

    def _consolidate_to_resolve(self, vw: _View, actions: list[Action]) -> Action:
        """D-48: the order changes nothing: the area with the most crowns first."""
        return max((a for a in actions if a[0] == "area"), key=lambda a: self.t.crowns[a[1]])

    def _consolidate_special(self, vw: _View, actions: list[Action]) -> Action:
        """D-49: muster (new units take castles) unless we are short of power with no enemy
        near the area."""
        area = int(np.argmax(vw.v["decision_area"]))
        if vw.power[0] < 2 and vw.threats()[area] == 0:
            return _choice("gain-power")
        return _choice("mustering")

    HANDLERS: dict[DecisionKind, str] = {
        K.THRONE_OF_BLADES: "_throne_of_blades",
        K.DARK_WINGS_DARK_WORDS: "_dark_wings",
        K.PUT_TO_THE_SWORD: "_put_to_the_sword",
        K.RECONCILE_ARMIES: "_reconcile",
        K.MUSTER: "_muster",
        K.INFLUENCE_BID: "_influence_bid",
        K.RANK_TIED_BIDDERS: "_rank_tied",
        K.WILDLING_BID: "_wildling_bid",
        K.WILDLING_TIED_BIDDER: "_wildling_tied",
        K.PREEMPTIVE_RAID_PENALTY: "_preemptive_penalty",
        K.PREEMPTIVE_RAID_TRACK: "_preemptive_track",
        K.WILDLING_DESTROY_UNITS: "_destroy_units",
        K.CROW_KILLERS_UPGRADE: "_crow_upgrade",
        K.CROW_KILLERS_REPLACE: "_crow_replace",
        K.MASSING_DISCARD: "_massing_discard",
        K.KING_BEYOND_THE_WALL_TOP: "_king_top",
        K.KING_BEYOND_THE_WALL_BOTTOM: "_king_bottom",
        K.MAMMOTH_RIDERS_RETRIEVE: "_mammoth_retrieve",
        K.HORDE_DESCENDS_MUSTER: "_horde_muster",
        K.PLACE_ORDERS: "_place_orders",
        K.RAVEN_USE: "_raven_use",
        K.RAVEN_SWAP: "_raven_swap",
        K.RAVEN_LOOK: "_raven_look",
        K.RAID_TO_RESOLVE: "_raid_to_resolve",
        K.RAID_TARGET: "_raid_target",
        K.MARCH_TO_RESOLVE: "_march_to_resolve",
        K.MARCH_MOVE: "_march_move",
        K.LEAVE_POWER_TOKEN: "_leave_token",
        K.SUPPORT_AGAINST_NEUTRAL: "_support_neutral",
        K.DECLARE_SUPPORT: "_declare_support",
        K.REFUSE_SUPPORT: "_refuse_support",
        K.HOUSE_CARD: "_house_card",
        K.TYRION_CANCEL: "_tyrion",
        K.REPLACEMENT_CARD: "_house_card",
        K.AERON_SWAP: "_aeron",
        K.DORAN_TRACK: "_doran",
        K.MACE_FOOTMAN: "_mace",
        K.QUEEN_OF_THORNS_ORDER: "_order_removal",
        K.BLADE_REDRAW: "_blade_redraw",
        K.BLADE_PLUS_ONE: "_blade_plus_one",
        K.CERSEI_ORDER: "_order_removal",
        K.RENLY_UPGRADE: "_renly",
        K.CASUALTY: "_casualty",
        K.RETREAT_AREA: "_retreat",
        K.RETREAT_SUPPLY_LOSS: "_casualty",
        K.PATCHFACE: "_patchface",
        K.PORT_CAPTURE: "_port_capture",
        K.CONSOLIDATE_TO_RESOLVE: "_consolidate_to_resolve",
        K.CONSOLIDATE_SPECIAL: "_consolidate_special",
    }
