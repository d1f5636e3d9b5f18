"""One side's observation: a bounded float32 vector of everything that side may know.

Side-relative: "own" is the observer's side, "opponent" the other; the nations are listed own
side's first (the Free Peoples' five then the Shadow's three for the Free Peoples, the Shadow's
three first for the Shadow), so that one network may play either side. :func:`layout` names
every piece in order with its shape, in the kit's layout (:class:`boardkit.layout.Layout`:
offsets, views, ``describe()``); the bounds (``high``) are the rules' maxima. The
full-information view (``observer=None``, the env's ``state()``) is the Free Peoples' layout
with the Shadow's hand added in the opponent's slot.

What is never in it (issue 28, "Hidden information"): the opponent's hand (only its size per
deck), any deck's order (only sizes), the Hunt Pool's order (only its contents), the
opponent's face-down discards (only how many from each deck), the opponent's Combat card
before the round reveals it (not even whether he chose one), and the pending decision of the
opponent beyond its kind (its options may read his hand). The Fellowship has no secret place:
its region is the figure's. Everything else of the state is public and in it: the board,
characters, politics, reserves and casualties, the Fellowship and the Hunt, dice, Elven Rings,
face-up discards and table cards, the turn, victory points, the battle being fought.
"""

from __future__ import annotations

import functools

import numpy as np

from boardkit.layout import Layout, Piece

from ..data import Ruleset, load_ruleset
from ..engine.battle.round import Round
from ..engine.battle.sequence import Battle
from ..engine.decision import FACES, WD
from ..engine.determinize import unrevealed_combat_cards
from ..engine.state import (
    ELIMINATED,
    FREE_PEOPLES,
    IN_FELLOWSHIP,
    NOT_IN_PLAY,
    SHADOW,
    SIDE_NAMES,
    WotrState,
)

MAX_TURN = 100  # turns are not bounded by the rules; the feature saturates here
N_TILES = 24
MORDOR_STEPS = 7  # off the Track, then its steps 0..5
CHAR_PLACES = 4  # in the Fellowship, not in play, eliminated, inside a Stronghold box
BATTLE_KINDS = ("field", "siege", "sortie")
MAX_CONTEXT = 10  # hits, damage, moves left, limits, rounds saturate here


def layout(ruleset: Ruleset) -> Layout:
    """The observation's pieces, in order, each with the rules' maximum as its ``high``."""
    board, cards = ruleset.board, ruleset.cards
    R, N, C, E = len(board.regions), len(board.nations), len(cards.characters), \
        len(cards.events)
    F = len(FACES)
    limit = 15.0  # figures of one kind of a nation in one place (a 10-stack, reserves)
    return Layout((
        Piece("army", (R, N, 4), limit, "region, nation (own first), kind: in the field"),
        Piece("box", (R, N, 4), limit, "inside a besieged Stronghold's box"),
        Piece("control", (R, 2), doc="region held by own side, by the opponent"),
        Piece("fellowship_at", (R,), doc="the Fellowship figure's region"),
        Piece("character_at", (C, R), doc="character, region"),
        Piece("character_place", (C, CHAR_PLACES),
              doc="in the Fellowship, not in play, eliminated, in a Stronghold box"),
        Piece("politics", (N, 3), 3.0, "steps to war, active, at war"),
        Piece("reserve", (N, 4), 40.0, "figures in reserve, by kind"),
        Piece("casualties", (N, 4), 40.0, "figures lost, by kind"),
        Piece("fellowship", (6,), 12.0, "progress, corruption, revealed, in Mordor, acted "
                                        "this turn, declared this phase"),
        Piece("guide", (C,), doc="the Fellowship's guide"),
        Piece("mordor_step", (MORDOR_STEPS,), doc="off the Mordor Track, then its steps"),
        Piece("hunt_box", (3,), 10.0, "Shadow dice, Eye results, Free Peoples' dice"),
        Piece("hunt_pool", (N_TILES,), doc="tiles in the Hunt Pool (never their order)"),
        Piece("hunt_drawn", (N_TILES,), doc="tiles drawn"),
        Piece("hunt_removed", (N_TILES,), doc="tiles out of the game"),
        Piece("specials_in_play", (N_TILES,), doc="special tiles in play"),
        Piece("dice", (2, F), 10.0, "unused dice by face: own, opponent"),
        Piece("dice_pool", (2,), 10.0, "Action Dice: own, opponent"),
        Piece("rings", (3, 3), doc="Elven Ring: own, opponent's, gone"),
        Piece("ring_used", (2,), doc="an Elven Ring used this turn: own, opponent"),
        Piece("hand", (E,), doc="own hand"),
        Piece("opponent_hand", (E,), doc="only in the full view (state())"),
        Piece("hand_sizes", (4,), 10.0, "own character, strategy; opponent's"),
        Piece("deck_sizes", (4,), 25.0, "own character, strategy; opponent's"),
        Piece("face_down", (E,), doc="own face-down discards"),
        Piece("opponent_face_down", (2,), 25.0, "how many, per deck"),
        Piece("discards", (E,), doc="face up, both sides"),
        Piece("table", (E,), doc="cards on the table"),
        Piece("turn", (3,), float(MAX_TURN), "turn, phase, turns left (0 without a limit)"),
        Piece("victory_points", (2,), 30.0, "own, opponent"),
        Piece("to_act", (2,), doc="own turn to decide, opponent's"),
        Piece("decision_kind", (len(WD),), doc="the pending decision's kind"),
        Piece("context_regions", (2, R), doc="a decision's source, target region"),
        Piece("context_face", (F,), doc="a decision's die face"),
        Piece("context_numbers", (4,), float(MAX_CONTEXT),
              doc="hits or damage, moves left, limit, round"),
        Piece("battle", (4 + len(BATTLE_KINDS),), float(MAX_CONTEXT),
              "on, own attack, round, rounds left; field, siege, sortie"),
        Piece("battle_regions", (2, R), doc="attacker's, defender's region"),
        Piece("combat_card", (E,), doc="own chosen Combat card this round"),
        Piece("revealed_combat_card", (E,), doc="the opponent's, once revealed"),
    ))


class ObservationEncoder:
    """States -> one side's observation (the kit's ``Encoder``); build once per ruleset."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset_name = ruleset.name
        board, cards = ruleset.board, ruleset.cards
        self.n_regions, self.n_nations = len(board.regions), len(board.nations)
        self.n_characters, self.n_cards = len(cards.characters), len(cards.events)
        #: the observation's pieces, offsets and bounds (the kit's layout)
        self.layout = layout(ruleset)
        self.size = self.layout.size
        self.high = self.layout.high
        fp = [n.index for n in board.nations if n.side == SIDE_NAMES[FREE_PEOPLES]]
        sh = [n.index for n in board.nations if n.side == SIDE_NAMES[SHADOW]]
        #: nation order per observer side: own side's nations first
        self.nation_order = (np.array(fp + sh), np.array(sh + fp))
        #: the same order as runs of consecutive nations, (to, from) slices: the board's
        #: arrays are copied block by block, with no gather
        self._runs = tuple(_runs(order) for order in self.nation_order)
        #: per side, the points it scores for controlling each region (an enemy City 1, an
        #: enemy Stronghold 2: engine.victory.victory_points as a dot product)
        vp = board.vp.astype(np.int64)
        self._points = (vp * (board.region_side == SHADOW),
                        vp * (board.region_side == FREE_PEOPLES))
        #: per card, 1 for a Strategy card, 0 for a Character card (its deck 0..3 is FP
        #: character, FP strategy, Shadow character, Shadow strategy)
        self.is_strategy = tuple(int(d) % 2 for d in cards.event_deck)
        self._slices = self.layout.slices

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named, shaped views into an observation vector (no copy): ``layout.views``."""
        return self.layout.views(vector)

    def encode(self, state: WotrState, observer: int | None,
               out: np.ndarray | None = None) -> np.ndarray:
        """``observer``'s observation (0 Free Peoples, 1 Shadow; None: everything), written
        into ``out`` when given."""
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out[...] = 0
        me = FREE_PEOPLES if observer is None else observer
        you = 1 - me
        sl = self._slices
        order = self.nation_order[me]
        shape = (self.n_regions, self.n_nations, 4)
        army, box = out[sl["army"]].reshape(shape), out[sl["box"]].reshape(shape)
        for to, frm in self._runs[me]:
            army[:, to] = state.army[:, frm]
            box[:, to] = state.box[:, frm]
        control = out[sl["control"]].reshape(self.n_regions, 2)
        control[:, 0] = state.control == me
        control[:, 1] = state.control == you
        if state.fellowship_region >= 0:
            out[sl["fellowship_at"].start + state.fellowship_region] = 1
        self._characters(state, out)
        politics = out[sl["politics"]].reshape(self.n_nations, 3)
        politics[:, 0] = state.politics[order]
        politics[:, 1] = state.active[order]
        politics[:, 2] = state.politics[order] == 0
        out[sl["reserve"]] = state.reserve[order].ravel()
        out[sl["casualties"]] = state.casualties[order].ravel()
        out[sl["fellowship"]] = (state.progress, state.corruption, state.revealed,
                                 state.mordor_step >= 0, state.fellowship_acted,
                                 state.declared_in >= 0)
        if state.guide >= 0:
            out[sl["guide"].start + state.guide] = 1
        out[sl["mordor_step"].start + min(state.mordor_step + 1, MORDOR_STEPS - 1)] = 1
        out[sl["hunt_box"]] = state.hunt_box
        for name, tiles in (("hunt_pool", state.hunt_pool), ("hunt_drawn", state.hunt_drawn),
                            ("hunt_removed", state.hunt_removed),
                            ("specials_in_play", state.specials_in_play)):
            out[sl[name]][tiles] = 1
        self._dice(state, out, me)
        self._cards(state, out, me, observer is None)
        limit = state.max_turns or 0
        out[sl["turn"]] = (min(state.turn, MAX_TURN), state.phase,
                           max(0, min(limit - state.turn, MAX_TURN)) if limit else 0)
        held = state.control
        points = (int(self._points[FREE_PEOPLES] @ (held == FREE_PEOPLES)),
                  int(self._points[SHADOW] @ (held == SHADOW)))
        out[sl["victory_points"]] = (points[me], points[you])
        self._decision(state, out, me, observer)
        self._battle(state, out, me)
        return out

    # -- pieces --------------------------------------------------------------------------------
    def _characters(self, state: WotrState, out: np.ndarray) -> None:
        at = self._slices["character_at"].start
        place = self._slices["character_place"].start
        for c, r in enumerate(state.char_at.tolist()):
            if r >= 0:
                out[at + c * self.n_regions + r] = 1
                if state.char_in_box[c]:
                    out[place + c * CHAR_PLACES + 3] = 1
            elif r == IN_FELLOWSHIP:
                out[place + c * CHAR_PLACES] = 1
            elif r == NOT_IN_PLAY:
                out[place + c * CHAR_PLACES + 1] = 1
            elif r == ELIMINATED:
                out[place + c * CHAR_PLACES + 2] = 1

    def _dice(self, state: WotrState, out: np.ndarray, me: int) -> None:
        sl = self._slices
        dice = out[sl["dice"]].reshape(2, len(FACES))
        for i, side in enumerate((me, 1 - me)):
            faces = state.dice[side]
            dice[i] = np.bincount(faces[faces >= 0], minlength=len(FACES))
        out[sl["dice_pool"]] = (state.dice_pool[me], state.dice_pool[1 - me])
        rings = out[sl["rings"]].reshape(3, 3)
        for ring, owner in enumerate(state.rings.tolist()):
            rings[ring, 2 if owner == 2 else (0 if owner == me else 1)] = 1
        out[sl["ring_used"]] = (state.ring_used[me], state.ring_used[1 - me])

    def _cards(self, state: WotrState, out: np.ndarray, me: int, full: bool) -> None:
        sl = self._slices
        you = 1 - me
        out[sl["hand"]][state.hands[me]] = 1
        if full:
            out[sl["opponent_hand"]][state.hands[you]] = 1
        strategy = self.is_strategy  # counted in Python: the lists are short
        sizes = []
        for side in (me, you):
            held = state.hands[side]
            if side == you and state.stack and any(isinstance(f, Battle) for f in state.stack):
                # his chosen, unrevealed Combat card still counts as in his hand
                held = held + unrevealed_combat_cards(state, you)
            n_strategy = sum(strategy[c] for c in held)
            sizes += [len(held) - n_strategy, n_strategy]
        out[sl["hand_sizes"]] = sizes
        out[sl["deck_sizes"]] = [len(state.decks[2 * side + k]) for side in (me, you)
                                 for k in (0, 1)]
        out[sl["face_down"]][state.face_down[me]] = 1
        theirs = state.face_down[you]
        n_strategy = sum(strategy[c] for c in theirs)
        out[sl["opponent_face_down"]] = (len(theirs) - n_strategy, n_strategy)
        for side in (0, 1):
            out[sl["discards"]][state.discards[side]] = 1
        out[sl["table"]][state.table] = 1

    def _decision(self, state: WotrState, out: np.ndarray, me: int,
                  observer: int | None) -> None:
        d = state.pending
        if d is None:
            return
        sl = self._slices
        mine = observer is None or d.player == me
        out[sl["to_act"].start + (0 if d.player == me else 1)] = 1
        out[sl["decision_kind"].start + int(d.kind) - 1] = 1
        if not mine:  # the opponent's context may read his hand: only its kind is public
            return
        ctx = d.context
        regions = sl["context_regions"].start
        pair = ctx.get("battle") or ctx.get("edge")
        if pair is not None:
            out[regions + pair[0]] = 1
            out[regions + self.n_regions + pair[1]] = 1
        for key in ("region", "src"):
            r = ctx.get(key)
            if isinstance(r, (int, np.integer)) and r >= 0:
                out[regions + r] = 1
        face = ctx.get("face")
        if isinstance(face, (int, np.integer)) and face >= 0:
            out[sl["context_face"].start + face] = 1
        numbers = (ctx.get("hits", ctx.get("damage", 0)), ctx.get("moves_left", 0),
                   ctx.get("limit", 0), ctx.get("round", 0))
        out[sl["context_numbers"]] = [min(int(x), MAX_CONTEXT)
                                      if isinstance(x, (int, np.integer)) else 0
                                      for x in numbers]

    def _battle(self, state: WotrState, out: np.ndarray, me: int) -> None:
        battle = rnd = None
        for frame in reversed(state.stack):
            if rnd is None and battle is None and isinstance(frame, Round):
                rnd = frame
            elif isinstance(frame, Battle):
                battle = frame
                break
        if battle is None:
            return
        sl = self._slices
        kind = BATTLE_KINDS.index(battle.kind) if battle.kind in BATTLE_KINDS else 0
        info = [1, battle.side == me, min(battle.round, MAX_CONTEXT),
                min(battle.rounds_left, MAX_CONTEXT), 0, 0, 0]
        info[4 + kind] = 1
        out[sl["battle"]] = info
        regions = sl["battle_regions"].start
        out[regions + battle.src] = 1
        out[regions + self.n_regions + battle.dst] = 1
        if rnd is not None:
            if rnd.cards[me] >= 0:
                out[sl["combat_card"].start + rnd.cards[me]] = 1
            if rnd.stage != "cards" and rnd.stage != "reveal" and rnd.cards[1 - me] >= 0:
                out[sl["revealed_combat_card"].start + rnd.cards[1 - me]] = 1


def _runs(order: np.ndarray) -> tuple[tuple[slice, slice], ...]:
    """``order`` (a permutation) as (to, from) slices of consecutive indices."""
    out, start = [], 0
    for i in range(1, len(order) + 1):
        if i == len(order) or order[i] != order[i - 1] + 1:
            out.append((slice(start, i), slice(int(order[start]), int(order[i - 1]) + 1)))
            start = i
    return tuple(out)


def encoder_for(ruleset: Ruleset | str) -> ObservationEncoder:
    """The encoder of a ruleset (or its name), built once per process."""
    return _encoder(ruleset if isinstance(ruleset, str) else ruleset.name)


@functools.lru_cache(maxsize=4)
def _encoder(name: str) -> ObservationEncoder:
    return ObservationEncoder(load_ruleset(name))
