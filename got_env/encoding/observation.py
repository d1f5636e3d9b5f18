"""Per-player observation tensors: one float32 vector with a documented layout, plus named views.

The layout is the kit's (:class:`boardkit.layout.Layout`): named pieces (:func:`layout`), laid
one after the other in that order.
The house axis (``H``: the ruleset's houses, 6 in the 2nd edition, 5 in the 1st) is **relative
to the observer**: index 0 is the observer's own house, then the others in the data's house
order, continuing round from the observer (houses not in play stay zero). Cards follow their
owners: ``cards[h_rel, k, place]`` is the k-th card (data order) of that house. Every size
follows the ruleset (1e: 50 areas, 5 houses, no ports, no wildling or Tides cards, so those
pieces have length 0), so 1e and 2e observations have different lengths.

Hidden information is left out, never zeroed after the fact: another house's orders before the
reveal are not shown at all, not even where its face-down tokens lie (which areas a house fills
first, or leaves empty when it runs out of tokens, is its secret); ``orders_placed`` says which
houses have finished placing theirs, a fact that depends on the turn order only. Secret bids and
house cards
being chosen live only in the engine's stack, which is never read here except for the public
parts of a combat, the Westeros and wildling decks' order is never encoded, and the top wildling
card appears only to a house that saw it with the Messenger Raven while it is still on top.

Values are raw counts and levels (units 0-10, power 0-20, supply 0-6, threat 0-12, round 1-10);
one-hot pieces are 0/1. Built with numpy indexing only (no Python loop over areas), or, when the
compiled core was built, by its C writer (``_board.pyx``), which gives the same vectors.
"""

from __future__ import annotations

import numpy as np

from boardkit.layout import Layout, Piece

from ..data import TRACKS, UNIT_TYPES, Ruleset
from ..engine.combat.frame import CombatFrame
from ..engine.combat.stages import SIDES, Side
from ..engine.decision import DecisionKind
from ..engine.marches import MarchFrame
from ..engine.planning import PlanningFrame, PlanningStage
from ..engine.state import CardPlace, GameState, Phase
from ..engine.visibility import orders_hidden, tides_visible
from ._compiled import compiled_class

CARDS_PER_HOUSE = 7  # both editions: seven house cards per house (checked per ruleset)


# ObservationEncoder._writer after unpickling (built at the first encode): a singleton that
# survives pickling, unlike a sentinel object
_REBUILD = False


def _compiled_board() -> type | None:
    """The compiled board writer (``_board.pyx``), or None (:func:`compiled_class`)."""
    return compiled_class("_board", "BoardWriter")


def layout(ruleset: Ruleset) -> Layout:
    """The observation's pieces, in order (their sizes add up to the vector's length), each with
    the highest value it can take (the lowest is always 0) and what it holds."""
    rs = ruleset
    A, U, T, H = rs.num_areas, len(UNIT_TYPES), len(rs.order_tokens), rs.num_houses
    n_westeros = len(rs.westeros_cards)
    most_units = float(max(rs.unit_pool.values()))
    most_neutral = float(max(max(s.neutral_forces.values(), default=0) for s in rs.setups.values()))
    forts = float((rs.fort_level > 0).sum())
    power = float(rs.power_tokens_per_house)
    return Layout((
        Piece("area_kind", (A, 3), doc="land, sea, port"),
        Piece("area_fortification", (A, 2), doc="castle, stronghold"),
        Piece("area_icons", (A, 2), 2.0, "barrels, crowns"),
        Piece("area_home", (A, H), doc="whose home area"),
        Piece("units", (A, H, U), most_units, "units by house and type"),
        Piece("routed", (A, H, U), most_units, "routed units"),
        Piece("control", (A, H), doc="who controls the area"),
        Piece("order", (A, T), doc="the order token shown there"),
        Piece("power_tokens", (A, H), doc="a house's power token"),
        Piece("garrison", (A,), float(rs.garrison_strength), "garrison strength"),
        Piece("neutral_force", (A,), most_neutral, "neutral force strength"),
        Piece("impassable", (A,), doc="not passable at this player count"),
        Piece("in_play", (H,), doc="the house is played"),
        Piece("orders_placed", (H,), doc="planning: the house has placed all its orders"),
        Piece("track_position", (len(TRACKS), H, H), doc="track, house, position one-hot"),
        Piece("supply", (H,), float(len(rs.supply_limits) - 1), "supply level"),
        Piece("power", (H,), power, "power tokens available"),
        Piece("victory_points", (H,), forts, "castles and strongholds held"),
        Piece("cards", (H, CARDS_PER_HOUSE, 3),
              doc="house card: in hand, discarded, revealed in this combat"),
        Piece("westeros_revealed", (3, n_westeros),
              doc="the cards of this round's Westeros phase, per deck"),
        Piece("order_bans", (6,), doc="order types banned this round"),
        Piece("wildling_threat", (1,), float(rs.wildling_threat["max"]), "wildling track"),
        Piece("wildling_top_known", (len(rs.wildling_cards),),
              doc="the top wildling card, to a house that looked (Raven)"),
        Piece("round", (1,), float(rs.rounds), "game round"),
        Piece("phase", (len(Phase),), doc="game phase"),
        Piece("blade_used", (1,), doc="Valyrian Steel Blade used this round"),
        Piece("raven_used", (1,), doc="Messenger Raven used this round"),
        Piece("decision_kind", (len(DecisionKind),), doc="the pending decision's kind"),
        Piece("decision_player", (H,), doc="the deciding house"),
        # The pending decision's context (CONTEXT_PIECES), seen by the deciding house only.
        Piece("decision_area", (A,), doc="context: the area"),
        Piece("decision_order_area", (A,), doc="context: the Support order being declared"),
        Piece("decision_track", (len(TRACKS),), doc="context: the track bid for"),
        Piece("decision_house", (H,), doc="context: the house named"),
        Piece("decision_sides", (2, H), doc="context: attacker, defender"),
        Piece("decision_card", (H, CARDS_PER_HOUSE),
              doc="context: the card named (Tyrion, replacement)"),
        Piece("decision_count", (1,), float(A),
              doc="context: casualties, picks, points, ships left"),
        Piece("decision_flag", (1,), doc="context: the Night's Watch won (D-09)"),
        Piece("decision_bids", (H,), power, "context: the revealed bids of a tie"),
        Piece("decision_area_points", (A,), 2.0, "context: mustering points left per area"),
        Piece("march_attack_area", (A,), doc="where the March's attack goes, once chosen"),
        Piece("march_waiting", (U,), most_units, "units committed to that attack"),
        Piece("combat_sides", (2, H), doc="combat: attacker, defender"),
        Piece("combat_area", (A,), doc="combat: the area attacked"),
        Piece("combat_origin", (A,), doc="combat: where the attack comes from"),
        Piece("combat_attackers", (U,), most_units, "combat: the attacking units"),
        Piece("combat_support", (A, 2), doc="combat: Support given to attacker, defender"),
        Piece("combat_tides", (2, len(rs.tides_cards)),
              doc="combat: attacker's, defender's Tides of Battle card"),
    ))


# Where each key of a decision's context goes in the observation. Every key that any decision
# puts in its context is here or in REDUNDANT_CONTEXT (tests/test_env.py walks every kind).
CONTEXT_PIECES: dict[str, str] = {
    "area": "decision_area",
    "port": "decision_area",
    "support_area": "decision_order_area",
    "track": "decision_track",
    "house": "decision_house",
    "supporter": "decision_house",
    "attacker": "decision_sides",
    "defender": "decision_sides",
    "card": "decision_card",
    "cancelled": "decision_card",
    "left": "decision_count",
    "areas_left": "decision_count",
    "position": "decision_count",
    "ships": "decision_count",
    "points": "decision_count",  # an int in an area's mustering, a dict (area -> points) before
    "removed": "decision_count",  # 1e spec 7.1: orders a two-area special Raid removed so far
    "highest": "decision_flag",
    "bids": "decision_bids",
}

# Context keys whose content the observation already carries elsewhere (key -> where).
REDUNDANT_CONTEXT: dict[str, str] = {
    "order_type": "decision_kind (D-24 raid, D-26 march, D-48 consolidate power)",
    "strength": "wildling_threat",
    "supply": "supply",
    "limits": "supply (the limits are the ruleset's table at that level)",
    "westeros_card": "decision_kind (D-01 to D-03 belong to one card each) and westeros_revealed",
    "deck": "westeros_revealed",
    "wildling_card": "wildling_top_known (set while the Raven holder looks)",
}


class ObservationEncoder:
    """Encodes states of one ruleset. Build once; ``encode(state, house)`` per step.

    Speed (the encoder runs for every agent at every step): everything that depends only on the
    ruleset and the observer is computed here once: a template per observer with the static
    pieces filled in, the gather indices that put the houses in the observer's order, and the
    flat offset of every piece. ``encode`` then copies the template and writes the dynamic
    facts with a few flat-index numpy writes, no Python loop over areas or houses.

    ``compiled``: write the vector, all but the pieces read from the engine's stack
    (:meth:`_encode_stack`), with the compiled writer (``_board.pyx``, a few microseconds)
    instead of numpy (the reference path, its board part cached per state). None (the default)
    uses it when it was built and ``GOT_ENV_PURE_PYTHON`` is not set; True requires it; False
    never. Both give equal vectors (tests/test_compiled_core.py).
    """

    def __init__(self, ruleset: Ruleset, compiled: bool | None = None):
        self.ruleset = ruleset
        #: the observation's pieces, offsets and bounds (the kit's layout)
        self.layout = layout(ruleset)
        self.size = self.layout.size
        self.high = self.layout.high
        self._slices = self.layout.slices
        self._at = self.layout.offsets
        rs = ruleset
        A, U, T = rs.num_areas, len(UNIT_TYPES), len(rs.order_tokens)
        self.num_houses = H = rs.num_houses
        self._num_tokens = T
        house_of_card = np.array([rs.house(c.house) for c in rs.house_cards])
        per_house = np.bincount(house_of_card, minlength=H)
        if (per_house != CARDS_PER_HOUSE).any():
            raise ValueError(f"ruleset {rs.name!r}: the observation expects {CARDS_PER_HOUSE} "
                             f"house cards per house, the data has {per_house.tolist()}")
        self._cards_by_house = np.stack([np.flatnonzero(house_of_card == h) for h in range(H)])
        self._card_owner = house_of_card
        self._card_slot = np.zeros(len(house_of_card), dtype=np.int64)  # k-th card of its house
        for cards in self._cards_by_house:
            self._card_slot[cards] = np.arange(len(cards))
        # card place -> slot of the "cards" piece (indexed by place + 1, since OUT_OF_GAME = -1)
        self._place_code = np.full(max(CardPlace) + 2, -1, dtype=np.int64)
        for code, place in enumerate((CardPlace.HAND, CardPlace.DISCARD, CardPlace.CHOSEN)):
            self._place_code[place + 1] = code
        # per observer: rel[i] = canonical house at slot i, to_rel = its inverse
        self._rel = [np.roll(np.arange(H), -o) for o in range(H)]
        self._to_rel = [np.argsort(r) for r in self._rel]
        a, h, u = np.meshgrid(np.arange(A), np.arange(H), np.arange(U), indexing="ij")
        self._units_gather = [((a * H + r[h]) * U + u).ravel() for r in self._rel]
        self._cards_gather = [self._cards_by_house[r].ravel() for r in self._rel]
        self._template = [self._static_template(o) for o in range(H)]
        self._board_end = self._slices["cards"].stop
        self._board_gather = [self._relative_gather(o) for o in range(H)]
        self._compiled_asked = compiled
        self._writer = self._board_writer(compiled)

    def __getstate__(self) -> dict:
        """Pickled without the compiled writer (a C object), which is rebuilt at the first
        ``encode`` after unpickling, as asked at construction (not in ``__setstate__``: the
        ruleset, which caches its encoder, may not be whole yet): encoders travel to worker
        processes inside envs and rulesets."""
        state = self.__dict__.copy()
        state["_writer"] = _REBUILD
        return state

    def _board_writer(self, compiled: bool | None) -> object | None:
        """The compiled writer for this ruleset's layout, or None for the numpy path."""
        if compiled is False:
            return None
        writer = _compiled_board()
        if writer is None:
            if compiled:
                raise RuntimeError("compiled=True, but got_env.encoding._board is not available "
                                   "(not built, or GOT_ENV_PURE_PYTHON is set); reinstall with a "
                                   "C compiler: pip install -e .")
            return None
        # the layout table, its one copy: the writer reads every offset and size from it
        pieces = {p.name: (self._at[p.name], p.shape) for p in self.layout}
        return writer(pieces, np.stack(self._template), np.stack(self._to_rel).astype(np.int64),
                      self._card_owner.astype(np.int64), self._card_slot, self._place_code,
                      (self.ruleset.fort_level > 0).astype(np.int8))

    @property
    def compiled(self) -> bool:
        """Whether the observation is written by the compiled writer."""
        return self._unpickled_writer() is not None

    def _unpickled_writer(self) -> object | None:
        """``_writer``, first rebuilt if this encoder was unpickled (``__getstate__``)."""
        if self._writer is _REBUILD:
            self._writer = self._board_writer(self._compiled_asked)
        return self._writer

    def _static_template(self, observer: int) -> np.ndarray:
        """The vector with the pieces that never change in a game of this ruleset filled in."""
        rs = self.ruleset
        A = rs.num_areas
        out = np.zeros(self.size, dtype=np.float32)
        v = self.views(out)
        v["area_kind"][np.arange(A), rs.kind] = 1
        v["area_fortification"][:, 0] = rs.fort_level == 1
        v["area_fortification"][:, 1] = rs.fort_level == 2
        v["area_icons"][:, 0] = rs.barrels
        v["area_icons"][:, 1] = rs.crowns
        homes = rs.home_of >= 0
        v["area_home"][np.flatnonzero(homes), self._to_rel[observer][rs.home_of[homes]]] = 1
        out.flags.writeable = False
        return out

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named, shaped views into an observation vector (no copy): ``layout.views``."""
        return self.layout.views(vector)

    def encode(self, state: GameState, observer: int | None,
               out: np.ndarray | None = None) -> np.ndarray:
        """The observation of house ``observer``; ``None`` gives the full-information view
        (every order shown, canonical house order) used for a centralized critic. ``out``: a
        C-contiguous float32 vector of this size to write it into (a batch's row), returned;
        by default a new one."""
        writer = self._writer
        if writer is _REBUILD:
            writer = self._unpickled_writer()
        if writer is not None:
            return self._encode_compiled(state, observer, out)
        if out is not None:
            out[...] = self.encode(state, observer)
            return out
        o = 0 if observer is None else observer
        at = self._at
        to_rel = self._to_rel[o]
        out = self._board(state, o)
        orders = state.orders
        placed = (orders >= 0).nonzero()[0]
        if placed.size:
            if orders_hidden(state, observer):  # an order's area is its owner's
                placed = placed[state.control()[placed] == observer]
            out[at["order"] + placed * self._num_tokens + orders[placed]] = 1
        if state.phase == Phase.WESTEROS:  # the face-up cards being resolved
            drawn = (state.westeros_drawn > 0).nonzero()[0]
            cards = state.westeros_decks[drawn, state.westeros_drawn[drawn] - 1]
            out[at["westeros_revealed"] + drawn * len(self.ruleset.westeros_cards) + cards] = 1
        out[self._slices["order_bans"]] = state.order_bans
        out[at["wildling_threat"]] = state.wildling_threat
        d = state.pending
        if observer is not None and state.wildling_deck.size:  # 1e: no wildling deck
            known = state.wildling_known_top[observer]
            top = int(state.wildling_deck[0])
            looking = (d is not None and d.player == observer
                       and d.kind == DecisionKind.RAVEN_LOOK)
            if looking or (known >= 0 and known == top):
                out[at["wildling_top_known"] + top] = 1  # §10.4: he sees the card
        out[at["round"]] = state.round
        out[at["phase"] + int(state.phase)] = 1
        out[at["blade_used"]] = state.blade_used
        out[at["raven_used"]] = state.raven_used

        if d is not None:
            out[at["decision_kind"] + int(d.kind) - 1] = 1
            out[at["decision_player"] + to_rel[d.player]] = 1
        self._encode_stack(state, out, to_rel, observer)
        return out

    def _encode_stack(self, state: GameState, out: np.ndarray, to_rel: np.ndarray,
                      observer: int | None) -> None:
        """The pieces read from the engine's stack (both paths): ``orders_placed``, the
        pending decision's context (the deciding house's view only) and the combat."""
        d = state.pending
        if state.phase == Phase.PLANNING:
            self._encode_planning(state, out, to_rel)
        if d is not None and (observer is None or observer == d.player):
            self._encode_context(state, d.context, out, to_rel)
        for frame in reversed(state.stack):
            if type(frame) is CombatFrame:
                self._encode_combat(frame, out, to_rel, observer)
                break

    def _encode_compiled(self, state: GameState, observer: int | None,
                         out: np.ndarray | None) -> np.ndarray:
        """``encode`` with the compiled writer doing everything but what reads the stack."""
        o = 0 if observer is None else observer
        d = state.pending
        phase = state.phase
        if out is None:
            out = np.empty(self.size, dtype=np.float32)
        looking = (d is not None and d.player == observer and d.kind == DecisionKind.RAVEN_LOOK)
        self._writer.write(  # type: ignore[attr-defined]
            out, o, state.orders_revealed or observer is None,
            -1 if observer is None else observer,
            (state.units, state.routed, state.control(), state.power_tokens, state.garrisons,
             state.neutral_forces, state.impassable, state.in_play, state.tracks, state.supply,
             state.power, state.card_place, state.orders, state.order_bans,
             state.westeros_drawn, state.westeros_decks, state.wildling_deck,
             state.wildling_known_top),
            phase, phase == Phase.WESTEROS, state.round, state.wildling_threat,
            state.blade_used, state.raven_used, 0 if d is None else d.kind,
            -1 if d is None else d.player, looking)
        self._encode_stack(state, out, self._to_rel[o], observer)
        return out

    # The board pieces (every piece up to "cards" but the orders) follow only the units, power
    # tokens, tracks, supply, power and cards: placing an order, bidding or choosing a card
    # changes none of them, and all observers share them up to the order of the houses. So they
    # are built once in canonical house order, kept on the state with the bytes of those arrays
    # as the key, and each observer's copy is one gather through its house permutation.
    _BOARD_ARRAYS = ("units", "routed", "power_tokens", "garrisons", "neutral_forces",
                     "impassable", "in_play", "tracks", "supply", "power", "card_place")

    def _board(self, state: GameState, o: int) -> np.ndarray:
        """A new vector with the template and the board pieces of observer ``o`` filled in.
        The canonical board is kept on the state itself (so that many games encoded in turn,
        as in the batched API, each keep theirs), keyed by the bytes of the arrays it reads."""
        key = b"".join([getattr(state, name).tobytes() for name in self._BOARD_ARRAYS])
        cached = state.__dict__.get("_board_cache")
        if cached is None or cached[0] != key or cached[1] is not self:
            cached = (key, self, self._canonical_board(state), {})
            state.__dict__["_board_cache"] = cached
        seen = cached[3]  # observer -> its board, once gathered (a house often acts in a row)
        board = seen.get(o)
        if board is None:
            board = seen[o] = cached[2][self._board_gather[o]]
        out = np.empty(self.size, dtype=np.float32)
        out[: self._board_end] = board
        out[self._board_end:] = 0
        return out

    def _canonical_board(self, state: GameState) -> np.ndarray:
        """The board pieces seen by house 0 (canonical house order), up to the "cards" piece."""
        at = self._at
        H = self.num_houses
        out = self._template[0].copy()
        out[self._slices["units"]] = state.units.ravel()
        if state.routed.any():
            out[self._slices["routed"]] = state.routed.ravel()
        ctrl = state.control()
        held = (ctrl >= 0).nonzero()[0]
        out[at["control"] + held * H + ctrl[held]] = 1
        tokens = (state.power_tokens >= 0).nonzero()[0]
        out[at["power_tokens"] + tokens * H + state.power_tokens[tokens]] = 1
        out[self._slices["garrison"]] = state.garrisons
        out[self._slices["neutral_force"]] = state.neutral_forces
        out[self._slices["impassable"]] = state.impassable
        out[self._slices["in_play"]] = state.in_play
        t, pos = (state.tracks >= 0).nonzero()
        out[at["track_position"] + (t * H + state.tracks[t, pos]) * H + pos] = 1
        out[self._slices["supply"]] = state.supply
        out[self._slices["power"]] = state.power
        out[self._slices["victory_points"]] = state.victory_points()
        code = self._place_code[state.card_place[self._cards_gather[0]] + 1]
        shown = (code >= 0).nonzero()[0]
        out[at["cards"] + shown * 3 + code[shown]] = 1
        out = out[: self._board_end]
        out.flags.writeable = False
        return out

    def _relative_gather(self, o: int) -> np.ndarray:
        """Indices into a canonical vector's board part giving observer ``o``'s board part: every
        house axis of every board piece reordered by ``rel`` (the houses round from ``o``)."""
        index = np.arange(self.size, dtype=np.int64)
        v = self.views(index)
        rel = self._rel[o]
        out = index.copy()
        w = self.views(out)
        for name, axis in (("area_home", 1), ("units", 1), ("routed", 1), ("control", 1),
                           ("power_tokens", 1), ("in_play", 0), ("orders_placed", 0),
                           ("track_position", 1), ("supply", 0), ("power", 0),
                           ("victory_points", 0), ("cards", 0)):
            w[name][...] = np.take(v[name], rel, axis=axis)
        return out[: self._board_end]

    def _encode_planning(self, state: GameState, out: np.ndarray, to_rel: np.ndarray) -> None:
        """``orders_placed``: the houses done placing (the first ``turn`` in turn order)."""
        for frame in state.stack:
            if type(frame) is PlanningFrame:
                if frame.stage is PlanningStage.ASSIGN and frame.turn:
                    base = self._at["orders_placed"]
                    for h in state.turn_order()[: frame.turn]:  # (cheaper than fancy indexing)
                        out[base + to_rel[h]] = 1
                return

    def _encode_context(self, state: GameState, context: dict, out: np.ndarray,
                        to_rel: np.ndarray) -> None:
        """What tells this decision from another of its kind (CONTEXT_PIECES). Only the deciding
        house sees it: a context may name what only that house knows (D-23's card)."""
        at = self._at
        H = self.num_houses
        for key, value in context.items():
            piece = CONTEXT_PIECES.get(key)
            if piece is None:
                continue
            base = at[piece]
            if piece in ("decision_area", "decision_order_area", "decision_track"):
                out[base + value] = 1
            elif piece == "decision_house":
                out[base + to_rel[value]] = 1
            elif piece == "decision_sides":
                out[base + (0 if key == "attacker" else H) + to_rel[value]] = 1
            elif piece == "decision_card":
                owner = int(self._card_owner[value])
                out[base + to_rel[owner] * CARDS_PER_HOUSE + self._card_slot[value]] = 1
            elif piece == "decision_bids":
                bids = value.items() if isinstance(value, dict) else enumerate(value)
                for h, b in bids:
                    if b >= 0:
                        out[base + to_rel[h]] = b
            elif key == "points" and isinstance(value, dict):
                for area, points in value.items():
                    out[at["decision_area_points"] + area] = points
            else:  # counts and flags
                out[base] = float(value)
        if state.pending.kind == DecisionKind.MARCH_MOVE:
            march = next((f for f in reversed(state.stack) if type(f) is MarchFrame), None)
            if march is not None and march.attack:
                out[at["march_attack_area"] + march.attack["area"]] = 1
                out[self._slices["march_waiting"]] = march.attack["units"]

    def _encode_combat(self, combat: CombatFrame, out: np.ndarray, to_rel: np.ndarray,
                       observer: int | None) -> None:
        """The public facts of the combat in progress (never the cards being chosen)."""
        at = self._at
        H = self.num_houses
        out[at["combat_sides"] + to_rel[combat.attacker]] = 1
        out[at["combat_sides"] + H + to_rel[combat.defender]] = 1
        out[at["combat_area"] + combat.area] = 1
        out[at["combat_origin"] + combat.origin] = 1
        out[self._slices["combat_attackers"]] = combat.units
        if combat.support_given is not None:  # per Support order (R15.1)
            for area, side in combat.support_given.items():
                out[at["combat_support"] + area * 2 + (0 if side == Side.ATTACKER else 1)] = 1
        tides = {} if combat.tides is None else combat.tides
        for i, side in enumerate(SIDES):
            card = tides.get(side)
            # one's own Tides card is seen once drawn, the opponent's at the reveal (§24)
            if card is not None and tides_visible(combat, side, observer):
                out[at["combat_tides"] + i * len(self.ruleset.tides_cards) + card] = 1
