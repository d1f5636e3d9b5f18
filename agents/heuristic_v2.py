"""Heuristic v2 (issue 13): v1's rules, plus a threat assessment that makes it defend.

:class:`HeuristicV2Agent` is :class:`agents.heuristic.HeuristicAgent` with a few handlers
overridden; everything not named here plays exactly as v1. Like v1 it reads the observation
vector only (no engine state) and every rule is explained in the docstring of the method that
applies it. What changes:

* **Threats** (:class:`_ThreatView`): for every area, the strongest attack a single rival can make
  on it next round: the units of one of its areas that can march there (over land, or by its
  ships: R14 transport), +1 for a March order, plus the support its other neighbouring units can
  give. v1 counted only neighbours' strength. Every v1 rule that reads ``threats()`` (mustering,
  casualties, retreats, Crow Killers) now reads this one.
* **Orders** (D-20, :meth:`HeuristicV2Agent._plan_orders`): our home area, when its units and
  garrison lose to that attack, gets a Defense order first (the special one when even +1 is not
  enough); marches come next (:meth:`_evaluate_march`); Support goes next to planned attacks and
  to our home and castles still threatened after the marches leave; a special Raid next to a
  rival castle (only it removes a Defense order); Consolidate Power elsewhere, with Defense
  before it on a threatened castle.
* **Marches** (D-26/D-27): a March out of our home never leaves it weaker than the threat
  against it (moves are taken back, spreading ones first, and an attack that needed them is
  called off); units do not walk into a free area whose threat beats them (v1 fed rivals one
  Footman at a time); a castle of a rival close to seven is worth more to take (stopping the
  leader).
* **Raven** (D-21/D-22): once orders are revealed, swap an order when a better one exists:
  Defense where a revealed enemy March now beats us, Consolidate Power for a Raid with nothing
  to raid; else look at the wildling card as v1.
* **Bids** (D-06): a track is worth more to a house that stands low on it (King's Court stars,
  the Fiefdoms tie-breaks, the turn order) and more when it fights (Fiefdoms).
* **House cards** (D-32/D-34): the stake of the combat (a home or castle) sets how much win
  chance may be given up to keep a strong card; a tied choice prefers swords when we win and
  fortifications when we lose.
* **Mustering** (D-05): the area whose threat exceeds its defence first.
* **Temperature**: a little seeded noise (Gumbel, scaled by ``temperature``) in the choice of
  marches, house cards and bids, so that games vary; ``temperature=0`` plays deterministically,
  and a given ``seed`` always reproduces the same choices.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from got_env.engine.decision import Action

from .heuristic import (
    BASE_STRENGTH,
    FIEFDOMS,
    FOOTMAN,
    KINGS_COURT,
    KNIGHT,
    LAND,
    SEA,
    SHIP,
    SIEGE,
    HeuristicAgent,
    _choice,
    _p_win,
    _View,
)

#: What holding an area is worth when deciding whether to guard it: a home area most (losing it
#: is a lost castle and the muster base), then strongholds and castles.
HOME_STAKE = 6.0
#: The mean of a standard Gumbel draw, taken off where the noise should not bias a bid upward.
EULER_GAMMA = 0.5772


class _ThreatView(_View):
    """v1's view, with the strongest attack each rival can bring on each area next round."""

    def __init__(self, t: Any, vector: np.ndarray, leader_weight: float = 0.0):
        super().__init__(t, vector)
        self._attack: np.ndarray | None = None
        self.leader_weight = leader_weight

    def attacks(self) -> np.ndarray:
        """[rel house, area]: the strength of the best attack house ``rel`` can make on the area
        next round: the units of one area that can march there (by land, or by its ships'
        transport at sea, R14; Siege Engines +4 against a castle), +1 for the March order, plus
        the strength of its other units that can support a combat there (R15.1.7). 0 where it
        cannot reach or already holds the area. Computed once per observation."""
        if self._attack is not None:
            return self._attack
        t = self.t
        n = t.n
        out = np.zeros((6, n))
        castle = t.fort > 0
        for r in self.rivals:
            st = self.standing[:, r, :]
            land = st[:, FOOTMAN] * 1.0 + st[:, KNIGHT] * 2.0
            reach = t.land_adj.copy()
            ships = (t.kind == SEA) & (st[:, SHIP] > 0)
            for comp in self._components(ships):
                shore = t.adj[comp].any(axis=0) & t.is_land
                reach[np.ix_(shore, shore)] = True
            np.fill_diagonal(reach, False)
            by_land = reach * (land[:, None] + 4.0 * st[:, SIEGE][:, None] * castle[None, :])
            by_sea = t.sea_adj * (st[:, SHIP] * (t.kind == SEA))[:, None]
            src = np.where(t.is_land[None, :], by_land, by_sea)
            sup_each = t.can_support * self.strength[:, r][:, None]   # [s, a]
            support = sup_each.sum(axis=0)
            best = np.where(src > 0, src - sup_each, -np.inf).max(axis=0)
            att = np.where(np.isfinite(best), best + support + 1.0, 0.0)
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
        (1 + LEADER_WEIGHT x each castle of his beyond four): stopping the leader is worth more
        than one more castle elsewhere."""
        val = super().gain(a)
        owner = int(self.control[a])
        if owner > 0 and self.t.fort[a] > 0 and self.leader_weight > 0:
            val *= 1.0 + self.leader_weight * max(0.0, self.victory_points(owner) - 4.0)
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


class HeuristicV2Agent(HeuristicAgent):
    """v1 with threat assessment, defence, Raven swaps, track-aware bids and a temperature
    (see the module docstring)."""

    # The tuning constants, as measured in issue 13's tournaments (a subclass may change them;
    # guarding every castle, not just the home, made v2 lose to v1: 5/30 games).
    #: A March keeps units in an area of at least this stake (:meth:`_ThreatView.stake`: our
    #: home area) ...
    GUARD_STAKE = HOME_STAKE
    #: ... until what stays there is at most this much weaker than the threat against it.
    GUARD_MARGIN = 0.0
    #: Units walk into a free area only if they are at most this much weaker than its threat
    #: (None: no such check) ...
    SAFE_MOVES: float | None = 0.0
    #: ... castles included (False: any move into a castle is allowed).
    SAFE_INTO_CASTLES = True
    #: Planning puts Defense first on our areas of at least this stake (our home area).
    PLAN_GUARD_STAKE = HOME_STAKE
    #: An area left for the last step of planning takes Defense before Consolidate Power when
    #: threatened beyond its units and its stake is at least this.
    REST_DEFENSE_STAKE = 2.0
    #: How much more a leading rival's castle is worth per castle he holds beyond four.
    LEADER_WEIGHT = 0.3
    #: The win chance a house card may give up (to keep a stronger card) in a combat for a home
    #: or a castle (v1: 0.1 in every combat).
    CARD_SLACK_AT_STAKE = 0.0

    def __init__(self, seed: int | None = None, ruleset: str | None = None,
                 temperature: float = 0.2, env: Any = None):
        """``seed`` seeds the generator of the temperature's noise; ``temperature`` scales that
        noise (0: every choice is deterministic); ``ruleset`` and ``env`` as v1's."""
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        self.temperature = float(temperature)
        self.rng = np.random.default_rng(seed)
        super().__init__(seed=seed, ruleset=ruleset, env=env)

    def reset(self) -> None:
        """Forget the previous game (the generator goes on, so the next game differs)."""
        super().reset()
        self._raven_plan: Action | None = None

    def _view(self, observation: np.ndarray) -> _ThreatView:
        """v1's view plus the per-area threat assessment (:class:`_ThreatView`)."""
        return _ThreatView(self.t, observation, self.LEADER_WEIGHT)

    def _noise(self, scale: float = 1.0) -> float:
        """Gumbel noise times ``temperature * scale`` from the seeded generator (0 at
        temperature 0, without drawing, so that a deterministic agent stays deterministic)."""
        if self.temperature <= 0:
            return 0.0
        return float(self.temperature * scale * self.rng.gumbel())

    # ============================================================================================
    # Planning
    def _plan_orders(self, vw: _ThreatView, areas: list[int]) -> dict[int, tuple]:
        """D-20: assign a token to every area without an order, in this order of priority:

        1. Defense on our home area (:attr:`PLAN_GUARD_STAKE`) when its units and garrison do
           not beat the strongest attack a rival can bring next round (the special Defense when
           +1 is not enough): v1 left Lannisport open to the attack that lost Lannister the
           game;
        2. March where :meth:`_evaluate_march` finds a worthwhile plan (which keeps guards
           behind), the best first, with a little noise (``temperature``) so that plans vary;
        3. Support next to a planned attack, and next to our home or castles still weaker than
           their threat after the marches leave;
        4. Raid next to a rival's area; the special Raid next to a rival's castle or home,
           where a Defense order is likely (only it removes one, R12.2);
        5. the rest: Defense first on a castle (:attr:`REST_DEFENSE_STAKE`) whose units do not
           beat its threat, else Consolidate Power (the special one in a castle, to muster),
           as v1."""
        t = self.t
        pool, take = self._token_pool(vw)
        plan: dict[int, int] = {}
        threat = vw.threats()
        held = vw.held()
        # 1. guards
        guards = []
        for a in areas:
            stake = vw.stake(a)
            if t.is_land[a] and stake >= self.PLAN_GUARD_STAKE and threat[a] > 0 \
                    and threat[a] >= held[a]:
                guards.append((stake, threat[a] - held[a], a))
        for _, gap, a in sorted(guards, reverse=True):
            tok = take("defense", want_star=gap >= 1)
            if tok is not None:
                plan[a] = tok
        # 2. marches, best first; later ones do not count the areas earlier ones walk into
        targets: list[int] = []
        claimed: set[int] = set()
        chosen = []
        leaving = np.zeros(t.n)
        left = [a for a in areas if a not in plan]
        while left and len(chosen) < len(pool["march"]):
            evals = [(self._evaluate_march(vw, a, None, claimed, planning=True), a) for a in left]
            noisy = [(e[0] + self._noise(0.5), e, a) for e, a in evals]
            _, (worth, queue, target, need), a = max(noisy, key=lambda e: e[0])
            if worth < 0.6:
                break
            chosen.append((need, a))
            left.remove(a)
            claimed |= {m[2] for m in queue}
            leaving[a] += sum(BASE_STRENGTH[m[1]] for m in queue)
            if target is not None:
                targets.append(target)
        for need, a in sorted(chosen, reverse=True):  # the closest fights get the best tokens
            tok = take("march", want_star=need > -2)
            if tok is not None:
                plan[a] = tok
        # 3. support
        after = held - leaving
        endangered = [b for b in range(t.n) if vw.control[b] == 0 and vw.stake(b) >= 2.0
                      and threat[b] > 0 and threat[b] >= after[b] - 1]
        for a in areas:
            if a in plan or vw.my_strength[a] <= 0:
                continue
            helps_attack = any(t.can_support[a, b] for b in targets)
            if helps_attack or any(t.can_support[a, b] for b in endangered if b != a):
                tok = take("support", want_star=helps_attack)
                if tok is not None:
                    plan[a] = tok
        # 4. raids
        for a in areas:
            if a in plan:
                continue
            near = [int(b) for b in np.flatnonzero(t.can_raid[a]) if vw.occupant[b] > 0]
            if near:
                castle = any(t.fort[b] > 0 for b in near)
                tok = take("raid", want_star=castle)
                if tok is not None:
                    plan[a] = tok
        # 5. the rest
        self._plan_rest(vw, areas, plan, take, defend=lambda a: threat[a] > held[a]
                        and vw.stake(a) >= self.REST_DEFENSE_STAKE)
        return {a: t.tok_key[tok] for a, tok in plan.items()}

    # ============================================================================================
    # Marches
    def _evaluate_march(self, vw: _View, src: int, moves: list[Action] | None,
                        claimed: set[int] | frozenset = frozenset(), planning: bool = False
                        ) -> tuple[float, list[Action], int | None, float]:
        """v1's March plan, then weigh what it leaves behind and where it goes:

        * moves into free areas where the arriving units are weaker than the threat there are
          dropped (:meth:`_safe_moves`);
        * out of our home area (:attr:`GUARD_STAKE`), units are taken back from the plan
          (spreading and approaching moves first, the strongest unit first, then the attack's)
          until what stays (units + garrison) is at least the threat against it; an attack left
          with less than an even chance is called off, and the plan's worth loses the home's
          stake if it still cannot hold."""
        worth, queue, target, need = super()._evaluate_march(vw, src, moves, claimed, planning)
        if not queue or not isinstance(vw, _ThreatView) or not vw.t.is_land[src]:
            return worth, queue, target, need
        if self.SAFE_MOVES is not None:
            queue = self._safe_moves(vw, queue, target)
            if not queue:
                return 0.0, [], None, need
        stake = vw.stake(src)
        threat = float(vw.threats()[src]) - self.GUARD_MARGIN
        if stake < self.GUARD_STAKE or threat <= 0:
            return worth, queue, target, need

        def stays(q: list[Action]) -> float:
            return float(vw.held()[src]) - sum(BASE_STRENGTH[m[1]] for m in q)

        if stays(queue) >= threat:
            return worth, queue, target, need
        attack = [m for m in queue if target is not None and m[2] == target]
        other = [m for m in queue if target is None or m[2] != target]
        other = sorted(other, key=lambda m: -BASE_STRENGTH[m[1]])
        while other and stays(attack + other) < threat:
            other.pop(0)
        if stays(attack + other) < threat and attack:
            attack = sorted(attack, key=lambda m: BASE_STRENGTH[m[1]])
            while attack and stays(attack + other) < threat:
                attack.pop()
            if attack:
                send = np.zeros(4, dtype=int)
                for m in attack:
                    send[m[1]] += 1
                p, need = self._attack_chance(vw, src, target, vw.defender(target), send,
                                              planning)
                if p < 0.5:
                    attack = []
        # keep the order of v1's plan (attack moves first, as v1 plays them)
        budget: dict[Action, int] = {}
        for m in attack + other:
            budget[m] = budget.get(m, 0) + 1
        new_queue = []
        for m in queue:
            if budget.get(m, 0) > 0:
                new_queue.append(m)
                budget[m] -= 1
        if not attack:
            target = None
        if not new_queue:
            return 0.0, [], None, need
        risk = stake * (1.0 if stays(new_queue) < threat else 0.0)
        return worth * len(new_queue) / len(queue) - risk, new_queue, target, need

    def _safe_moves(self, vw: _ThreatView, queue: list[Action], target: int | None
                    ) -> list[Action]:
        """Moves into areas nobody holds are dropped when the units arriving there are weaker
        than the threat against that area by more than :attr:`SAFE_MOVES` (they would only be
        killed next round, v1's spreading fed rivals one Footman at a time); attacks stay."""
        threat = vw.threats()
        into: dict[int, float] = {}
        for m in queue:
            into[m[2]] = into.get(m[2], 0.0) + BASE_STRENGTH[m[1]]
        return [m for m in queue if m[2] == target or vw.defender(m[2]) != -1
                or (not self.SAFE_INTO_CASTLES and vw.t.fort[m[2]] > 0)
                or into[m[2]] + self.SAFE_MOVES >= threat[m[2]]]

    # ============================================================================================
    # Messenger Raven
    def _swap_gain(self, vw: _ThreatView, area: int, token: int) -> float:
        """Worth of replacing our order in ``area`` by ``token`` now that every order is
        revealed: a Defense where a revealed rival March next door (with its revealed Supports)
        beats what we hold there is worth the area's stake (and a March, which v1's plan chose
        on purpose, is never swapped away); Consolidate Power for a Raid that has nothing left
        to raid is worth its power."""
        t = self.t
        now = vw.order[area]
        if now < 0 or vw.occupant[area] != 0:
            return 0.0
        now_type, new_type = t.tok_type[now], t.tok_type[token]
        if now_type == "march":
            return 0.0
        if new_type == "defense" and t.is_land[area]:
            attack = self._revealed_attack(vw, area)
            mine = float(vw.held()[area]) + sum(vw.support_value(s, area, False)
                                                for s in vw.support_areas(0, area))
            before = mine + (t.tok_bonus[now] if now_type == "defense" else 0.0)
            after = mine + float(t.tok_bonus[token])
            stake = max(vw.stake(area), float(t.value[area]))
            if attack > before and after >= attack:
                return stake
            if attack > before and after > before:
                return 0.3 * stake
            return 0.0
        if new_type == "consolidate-power" and now_type == "raid" and t.kind[area] == LAND:
            special = bool(t.tok_special[now])
            has_target = any(vw.occupant[b] > 0 and vw.order[b] >= 0
                             and (t.tok_type[vw.order[b]] != "defense" or special)
                             and t.tok_type[vw.order[b]] != "march"
                             for b in np.flatnonzero(t.can_raid[area]))
            return 0.0 if has_target else 1.0 + float(t.crowns[area])
        return 0.0

    def _revealed_attack(self, vw: _View, area: int) -> float:
        """The strongest attack a revealed rival March can bring on ``area``: the March area's
        units and bonus, plus that rival's revealed Supports next to ``area``."""
        t = self.t
        best = 0.0
        for s in np.flatnonzero(t.adj[:, area] | t.land_adj[:, area]):
            tok = vw.order[s]
            rel = int(vw.occupant[s])
            if tok < 0 or rel <= 0 or t.tok_type[tok] != "march":
                continue
            val = float(vw.strength[s, rel]) + float(t.tok_bonus[tok])
            val += sum(vw.support_value(x, area, True) for x in vw.support_areas(rel, area))
            best = max(best, val)
        return best

    def _raven_options(self, vw: _ThreatView) -> list[tuple[float, Action]]:
        """Every swap we could make, from the observation: each of our ordered areas with each
        unused token (the special ones only within the star limit), with its gain."""
        t = self.t
        avail, stars = self._available_tokens(vw)
        out = []
        for area in np.flatnonzero((vw.order >= 0) & (vw.occupant == 0)):
            now = int(vw.order[area])
            for toks in avail.values():
                for tok in toks:
                    if t.tok_special[tok] and stars <= 0 and not t.tok_special[now]:
                        continue
                    out.append((self._swap_gain(vw, int(area), tok), ("order", int(area), tok)))
        return out

    def _raven_use(self, vw: _View, actions: list[Action]) -> Action:
        """D-21: swap an order when a swap gains at least half a power's worth
        (:meth:`_swap_gain`); else look at the wildling card as v1."""
        self._raven_plan = None
        if _choice("swap-order") in actions and isinstance(vw, _ThreatView):
            best = max(self._raven_options(vw), key=lambda e: e[0], default=(0.0, None))
            if best[0] >= 0.5:
                self._raven_plan = best[1]
                return _choice("swap-order")
        return super()._raven_use(vw, actions)

    def _raven_swap(self, vw: _View, actions: list[Action]) -> Action:
        """D-22: the swap chosen at D-21 when it is offered, else the offered swap that gains
        most; v1's rule when none gains anything."""
        plan, self._raven_plan = self._raven_plan, None
        if plan in actions:
            return plan
        if isinstance(vw, _ThreatView):
            gains = [(self._swap_gain(vw, a[1], a[2]), a) for a in actions if a[0] == "order"]
            best = max(gains, key=lambda e: e[0], default=(0.0, None))
            if best[0] > 0:
                return best[1]
        return super()._raven_swap(vw, actions)

    # ============================================================================================
    # Bids
    def _influence_bid(self, vw: _View, actions: list[Action]) -> Action:
        """D-06: v1's bid (a share of our power per track, a wildling reserve, never more than
        one above the richest rival), with the share scaled by what the track is worth to this
        house where it stands: 1.4x on a track where we stand in the lower half (King's Court:
        where we have no more than one star; they limit our special orders), 1.2x on Fiefdoms
        when our areas are threatened (its ties decide our defences), and a little centred noise
        (``temperature``)."""
        base = super()._influence_bid(vw, actions)
        track = self._bid_track
        pos = vw.position(track, 0)
        scale = 1.0
        if track == KINGS_COURT:
            stars = self.t.stars[vw.n_players][min(pos, vw.n_players - 1)]
            scale = 1.4 if stars <= 1 else 1.0
        elif pos >= vw.n_players / 2:
            scale = 1.4
        if track == FIEFDOMS and isinstance(vw, _ThreatView):
            held = vw.held()
            if any(vw.threats()[a] > held[a] for a in np.flatnonzero(vw.control == 0)):
                scale *= 1.2
        if base[0] != "bid" or (scale == 1.0 and self.temperature <= 0):
            return base
        power = float(vw.power[0])
        richest = max((float(vw.power[r]) for r in vw.rivals), default=0.0)
        want = base[1] * scale + self._noise(1.0) - self.temperature * EULER_GAMMA
        bid = int(max(0, min(round(want), richest + 1, power)))
        return self._closest_bid(actions, bid)

    # ============================================================================================
    # Combat
    def _house_card(self, vw: _View, actions: list[Action]) -> Action:
        """D-32 / D-34: v1's chance to win per card; but the stake of the area (our home, a
        castle) decides how much chance may be given up to keep a strong card: none at all
        for a home or castle, v1's 0.1 elsewhere. Among the cards kept, the cheapest, with
        swords counting when we are likely to win and fortifications when we are likely to
        lose; a little noise (``temperature``) breaks near ties."""
        cards = [a for a in actions if a[0] == "card"]
        if not cards or not isinstance(vw, _ThreatView):
            return super()._house_card(vw, actions)
        t = self.t
        c = self._combat(vw)
        opp = c["dfn"] if c["att"] == 0 else c["att"]
        diff = c["strength"][0] - c["strength"][opp] if 0 in c["strength"] else 0.0
        chosen = vw.chosen_card(opp)
        their = t.card_strength[[chosen]] if chosen >= 0 else t.card_strength[vw.hand(opp)]
        mine = np.array([a[1] for a in cards])
        tie = vw.position(FIEFDOMS, 0) < vw.position(FIEFDOMS, opp)
        p = _p_win(diff, t.card_strength[mine], their, tie)
        if p.max() <= 0:
            return super()._house_card(vw, actions)
        area = c["area"]
        stake = max(vw.stake(area), 3.0 * (t.fort[area] > 0))
        slack = self.CARD_SLACK_AT_STAKE if stake >= 2.0 else 0.1
        good = [i for i in range(len(cards)) if p[i] >= p.max() - slack - 1e-9]
        likely = p.max() >= 0.5

        def cost(i: int) -> float:
            m = mine[i]
            extra = 0.15 * t.card_swords[m] if likely else 0.15 * t.card_forts[m]
            return t.card_strength[m] - 0.3 * p[i] - extra - self._noise(0.3)

        return cards[min(good, key=cost)]

    # ============================================================================================
    # Mustering
    def _muster(self, vw: _View, actions: list[Action]) -> Action:
        """D-05 / D-19: the area whose threat exceeds its defence most is mustered first (new
        units answer the attack), then v1's order (castle level, threat); the units as v1."""
        areas = [a for a in actions if a[0] == "area"]
        if areas and isinstance(vw, _ThreatView):
            threat, held = vw.threats(), vw.held()
            return max(areas, key=lambda a: (threat[a[1]] > held[a[1]], vw.t.fort[a[1]],
                                             threat[a[1]]))
        return super()._muster(vw, actions)


__all__ = ["HeuristicV2Agent"]
