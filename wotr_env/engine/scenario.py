"""Positions from a description (a dict, or YAML text), with scripted chance, for tests.

A scenario names only what differs from an empty board: armies and Stronghold boxes, control,
politics, characters, the Fellowship, the Hunt, dice, Elven Rings, hands, deck tops, table
cards, casualties; the reinforcements are what each nation owns less what the scenario puts
elsewhere. ``rolls`` (per side: every d6 that side rolls takes the next value), ``tiles`` (the
next Hunt tiles drawn) and ``companions`` (the next random companions) make the outcome known.

``start`` says where play begins: ``"action"`` (phase 5 with ``to_act`` to choose a die, the
default), ``"turn"`` (phase 1 of the next turn). A test may also push its own frames.

An impossible position raises :class:`ScenarioError` naming what is wrong (an unknown id, more
figures than a nation owns, a figure kind a nation does not have, over ten units in a region or
five in a box, a card in two places).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import yaml

from boardkit.frames import advance

from ..data import FIGURES, NATIONS, SIDES, Ruleset, load_ruleset
from .chance import Chance, ScriptError
from .decision import EYE, FACES
from .setup import is_over
from .state import ELIMINATED, IN_FELLOWSHIP, NO_SIDE, NOT_IN_PLAY, OFF_MORDOR, WotrState
from .turn.phases import Turn, VictoryCheck
from .turn.resolution import ActionResolution

KEYS = {"ruleset", "turn", "start", "to_act", "armies", "boxes", "control", "politics",
        "characters", "fellowship", "hunt", "dice", "dice_pool", "rings", "hands", "decks",
        "table", "casualties", "rolls", "tiles", "companions", "seed", "max_turns"}
UNITS_PER_REGION, UNITS_PER_BOX = 10, 5


class ScenarioError(ValueError):
    """The description is not a position the rules allow; the message names the entry."""


def _side(name: Any, entry: str) -> int:
    if name not in SIDES:
        raise ScenarioError(f"{entry}: unknown side {name!r} (use {' or '.join(SIDES)})")
    return SIDES.index(name)


def _index(lookup: Any, value: Any, what: str, entry: str) -> int:
    try:
        return lookup(value)
    except (KeyError, ValueError):
        raise ScenarioError(f"{entry}: unknown {what} {value!r}") from None


def _figures(rs: Ruleset, spec: Any, entry: str, out: np.ndarray) -> None:
    """``{region: {nation: {kind: n}}}`` into ``out`` (regions, nations, kinds)."""
    if not isinstance(spec, dict):
        raise ScenarioError(f"{entry}: expected a mapping of regions")
    for rid, nations in spec.items():
        r = _index(rs.board.region, rid, "region", entry)
        if not isinstance(nations, dict):
            raise ScenarioError(f"{entry}.{rid}: expected a mapping of nations")
        for nid, kinds in nations.items():
            n = _index(NATIONS.index, nid, "nation", f"{entry}.{rid}")
            for kind, count in (kinds or {}).items():
                k = _index(FIGURES.index, kind, "figure kind", f"{entry}.{rid}.{nid}")
                if not isinstance(count, int) or count < 0:
                    raise ScenarioError(f"{entry}.{rid}.{nid}.{kind}: not a count: {count!r}")
                if count and rs.board.figures[n, k] == 0:
                    raise ScenarioError(f"{entry}.{rid}.{nid}: {nid} has no {kind} figures")
                out[r, n, k] = count


def build(spec: dict[str, Any] | str) -> WotrState:
    """The position ``spec`` describes, run on to its first decision."""
    if isinstance(spec, str):
        spec = yaml.safe_load(spec)
    if not isinstance(spec, dict):
        raise ScenarioError("a scenario is a mapping")
    unknown = set(spec) - KEYS
    if unknown:
        raise ScenarioError(f"unknown scenario keys {sorted(unknown)} (known: {sorted(KEYS)})")
    rs = load_ruleset(spec.get("ruleset", "2e"))
    board, cards = rs.board, rs.cards
    shape = board.start_figures.shape
    army, box = np.zeros(shape, np.int8), np.zeros(shape, np.int8)
    _figures(rs, spec.get("armies", {}), "armies", army)
    _figures(rs, spec.get("boxes", {}), "boxes", box)
    casualties = np.zeros(board.figures.shape, np.int8)
    for nid, kinds in spec.get("casualties", {}).items():
        n = _index(NATIONS.index, nid, "nation", "casualties")
        for kind, count in kinds.items():
            casualties[n, _index(FIGURES.index, kind, "figure kind", f"casualties.{nid}")] = count
    units = army[:, :, :2].sum(axis=(1, 2))
    for r in np.flatnonzero(units > UNITS_PER_REGION):
        raise ScenarioError(f"armies.{board.regions[r].id}: {units[r]} units, over "
                            f"{UNITS_PER_REGION} in a region")
    in_box = box[:, :, :2].sum(axis=(1, 2))
    for r in np.flatnonzero(in_box > UNITS_PER_BOX):
        raise ScenarioError(f"boxes.{board.regions[r].id}: {in_box[r]} units, over "
                            f"{UNITS_PER_BOX} in a Stronghold box")
    reserve = board.figures.astype(np.int16) - army.sum(0) - box.sum(0) - casualties
    for n, k in zip(*np.nonzero(reserve < 0), strict=True):
        raise ScenarioError(f"{NATIONS[n]}: more {FIGURES[k]} figures placed than the "
                            f"{board.figures[n, k]} it owns")

    control = np.where((board.settlement >= 0) & (board.settlement != 3), board.region_side,
                       NO_SIDE).astype(np.int8)
    for rid, side in spec.get("control", {}).items():
        r = _index(board.region, rid, "region", "control")
        if control[r] == NO_SIDE:
            raise ScenarioError(f"control.{rid}: no settlement there")
        control[r] = _side(side, f"control.{rid}")
    politics = np.array([n.steps_to_war for n in board.nations], np.int8)
    active = np.array([n.active_at_start for n in board.nations], bool)
    for nid, p in spec.get("politics", {}).items():
        n = _index(NATIONS.index, nid, "nation", "politics")
        politics[n] = p.get("steps", politics[n])
        active[n] = p.get("active", active[n])
        if not 0 <= politics[n] <= 3:
            raise ScenarioError(f"politics.{nid}: steps must be 0-3")
        if politics[n] == 0 and not active[n]:
            raise ScenarioError(f"politics.{nid}: a Passive nation cannot be At War")

    kinds = [c.kind for c in cards.characters]
    char_at = np.array([IN_FELLOWSHIP if k == "companion" else NOT_IN_PLAY for k in kinds],
                       np.int16)
    places = {"fellowship": IN_FELLOWSHIP, "out": NOT_IN_PLAY, "eliminated": ELIMINATED}
    for cid, where in spec.get("characters", {}).items():
        c = _index(cards.character, cid, "character", "characters")
        char_at[c] = places[where] if where in places else _index(
            board.region, where, "region or place (fellowship, out, eliminated)",
            f"characters.{cid}")

    fs = spec.get("fellowship", {})
    chance = Chance(np.random.default_rng(spec.get("seed", 0)))
    state = WotrState(
        ruleset=rs, chance=chance, army=army, box=box, reserve=reserve.astype(np.int8),
        casualties=casualties, control=control, politics=politics, active=active,
        char_at=char_at, char_in_box=np.zeros(len(kinds), bool),
        fellowship_region=_index(board.region, fs.get("region", "rivendell"), "region",
                                 "fellowship.region"),
        progress=int(fs.get("progress", 0)), revealed=bool(fs.get("revealed", False)),
        corruption=int(fs.get("corruption", 0)),
        guide=_index(cards.character, fs.get("guide", "gandalf-the-grey"), "character",
                     "fellowship.guide"),
        mordor_step=int(fs.get("mordor_step", OFF_MORDOR)),
        turn=int(spec.get("turn", 1)), max_turns=spec.get("max_turns"),
    )
    for key, value, low, high in (("progress", state.progress, 0, 12),
                                  ("corruption", state.corruption, 0, 12),
                                  ("mordor_step", state.mordor_step, OFF_MORDOR, 5)):
        if not low <= value <= high:
            raise ScenarioError(f"fellowship.{key}: {value} is not in {low}..{high}")
    _hunt(state, spec.get("hunt", {}))
    _cards(state, spec)
    for side_name, faces in spec.get("dice", {}).items():
        side = _side(side_name, "dice")
        codes = sorted(_index(FACES.index, f, "die face", f"dice.{side_name}") for f in faces)
        for f in set(codes) - set(int(x) for x in cards.die_faces[side]) | ({EYE} & set(codes)):
            raise ScenarioError(f"dice.{side_name}: no unused {FACES[f]} die (an Eye goes to "
                                "the Hunt Box; a side's die shows only its own faces)")
        if len(codes) > state.dice.shape[1]:
            raise ScenarioError(f"dice.{side_name}: {len(codes)} dice, over any pool")
        state.dice[side, :len(codes)] = codes
    state.dice_pool[:] = [s.start for s in cards.dice.sides]
    for side_name, n in spec.get("dice_pool", {}).items():
        state.dice_pool[_side(side_name, "dice_pool")] = n
    for side, name in enumerate(SIDES):
        if (state.dice[side] >= 0).sum() > state.dice_pool[side]:
            raise ScenarioError(f"dice.{name}: more unused dice than the "
                                f"{state.dice_pool[side]} of its pool")
    rings = spec.get("rings", ["free_peoples"] * 3)
    if len(rings) != len(state.rings):
        raise ScenarioError(f"rings: {len(rings)} owners for the {len(state.rings)} Elven Rings")
    for i, owner in enumerate(rings):
        state.rings[i] = 2 if owner == "gone" else _side(owner, f"rings[{i}]")
    rolls = spec.get("rolls", {})
    try:
        chance.script(rolls=(list(rolls.get("free_peoples", [])), list(rolls.get("shadow", []))),
                      tiles=[_index(cards.tile, t, "Hunt tile", "tiles")
                             for t in spec.get("tiles", [])],
                      companions=[_index(cards.character, c, "character", "companions")
                                  for c in spec.get("companions", [])])
    except ScriptError as e:
        raise ScenarioError(str(e)) from None

    state.stack.append(Turn())
    start = spec.get("start", "action")
    if start == "action":
        state.phase = 5
        state.stack.append(VictoryCheck())
        state.stack.append(ActionResolution(_side(spec.get("to_act", "free_peoples"), "to_act")))
    elif start == "turn":
        state.turn -= 1
    else:
        raise ScenarioError(f"start: {start!r} (use action or turn)")
    advance(state, is_over)
    return state


def _hunt(state: WotrState, spec: dict[str, Any]) -> None:
    cards = state.ruleset.cards
    box = spec.get("box", {})
    state.hunt_box[:] = [box.get("shadow", 0), box.get("eyes", 0), box.get("fp", 0)]

    def tiles(key: str) -> list[int]:
        return [_index(cards.tile, t, "Hunt tile", f"hunt.{key}") for t in spec.get(key, [])]

    state.hunt_drawn, state.hunt_removed = tiles("drawn"), tiles("removed")
    state.specials_in_play = tiles("specials_in_play")
    elsewhere = set(state.hunt_drawn + state.hunt_removed + state.specials_in_play)
    state.hunt_pool = tiles("pool") if "pool" in spec else [
        i for i, t in enumerate(cards.tiles) if t.side is None and i not in elsewhere]
    seen = state.hunt_pool + state.hunt_drawn + state.hunt_removed + state.specials_in_play
    if len(seen) != len(set(seen)):
        raise ScenarioError("hunt: a tile is in two places")


def _cards(state: WotrState, spec: dict[str, Any]) -> None:
    """Hands, deck tops (the rest of each deck shuffled under them) and table cards."""
    cards = state.ruleset.cards
    placed: dict[int, str] = {}

    def card(cid: Any, entry: str) -> int:
        c = _index(cards.card, cid, "card", entry)
        if c in placed:
            raise ScenarioError(f"{entry}: card {cid!r} is also in {placed[c]}")
        placed[c] = entry
        return c

    for side_name, ids in spec.get("hands", {}).items():
        side = _side(side_name, "hands")
        state.hands[side] = [card(c, f"hands.{side_name}") for c in ids]
    state.table = [card(c, "table") for c in spec.get("table", [])]
    tops = spec.get("decks", {})
    for d, deck in enumerate(("fp-character", "fp-strategy", "shadow-character",
                              "shadow-strategy")):
        top = [card(c, f"decks.{deck}") for c in tops.get(deck, [])]
        if any(cards.events[c].deck != deck for c in top):
            raise ScenarioError(f"decks.{deck}: a card of another deck")
        rest = [c for c in cards.deck(deck) if c not in placed]
        state.chance.shuffle(rest)
        state.decks[d] = rest + top[::-1]  # the first listed is drawn first
