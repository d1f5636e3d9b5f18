"""Which die to use and what it does (WD-07, WD-08): every action an unused die allows gets a
value, less what the die's face is worth for other uses, and the best one is played.

The Free Peoples: hide a Revealed Fellowship, move it (up to a few dice a turn: each die already
in the Hunt Box makes the next Hunt likelier to find it), send Companions away, play the cards
that ease the Ring's way, then the armies. The Shadow: bring its nations to war, bring its
Minions into play (each one more die), attack where it wins, recruit, march, play its cards.
A die with nothing worth doing is passed (when the rules allow) or skipped. A Character's
ability (WD-38) is chosen here too: the Messenger's is an Army action.
"""

from __future__ import annotations

from wotr_env.engine.armies import edges
from wotr_env.engine.battle.attack import attack_targets
from wotr_env.engine.decision import (
    ARMY,
    ARMY_MUSTER,
    CHARACTER,
    EVENT,
    MUSTER,
    WILL,
    Action,
    Decision,
    choice,
)
from wotr_env.engine.dice import unused_dice, usable
from wotr_env.engine.events import playable
from wotr_env.engine.hunt import hunt_level
from wotr_env.engine.muster import placements
from wotr_env.engine.state import FREE_PEOPLES, OFF_MORDOR, SHADOW, WotrState
from wotr_env.engine.turn.hand import HAND_LIMIT
from wotr_env.engine.victory import victory_points

from .armies import best_move, threat
from .battle import THRESHOLD, best_attack
from .cards import worth
from .common import gate_distance
from .fellowship import rerolls_at, wants_separate
from .muster import idle as nazgul_idle
from .muster import nazgul_home
from .politics import diplomacy_value, rank

FACE_COST = {
    FREE_PEOPLES: {CHARACTER: 3.0, WILL: 4.0, EVENT: 1.0, MUSTER: 0.5, ARMY: 0.5,
                   ARMY_MUSTER: 0.7},
    SHADOW: {CHARACTER: 1.0, ARMY: 1.0, MUSTER: 1.0, ARMY_MUSTER: 1.5, EVENT: 1.0},
}
MOVE_RISK = 0.35  # a further move off the Mordor Track while the Hunt finds it at most so often
FIRST_MOVE_RISK = 0.55  # the turn's first move
MORDOR_EYE = 2  # a further move on the Track while an Eye tile would cost at most this
HURRY_RISK = 0.5  # more risk taken per unit of urgency (the Shadow's points / 10)
SEPARATE_VALUE = 95.0


def fellowship_moves(state: WotrState) -> int:
    """Moves this turn so far: the Free Peoples dice in the Hunt Box."""
    return int(state.hunt_box[2])


def hunt_risk(state: WotrState) -> float:
    """The chance that the Fellowship's next move off the Mordor Track is found: every Hunt
    die (at most five) hits on 6, one less per Free Peoples die already in the Hunt Box, a 1
    always misses; the region's re-rolls are extra tries."""
    dice = min(5, hunt_level(state))
    if dice == 0:
        return 0.0
    p = min(5, 1 + fellowship_moves(state)) / 6
    tries = dice + min(dice, rerolls_at(state, state.fellowship_region))
    return 1.0 - (1.0 - p) ** tries


def urgency(state: WotrState) -> float:
    """How pressed the Ring is for time: the Shadow's victory points against its ten, more
    with little Corruption to lose (0 calm .. about 1)."""
    shadow = victory_points(state)[SHADOW]
    return shadow / 10 + (0.1 if state.corruption <= 3 else 0.0)


def move_value(state: WotrState) -> float:
    """Moving the Fellowship: always once a turn on the Mordor Track (a turn without a move
    costs one Corruption), again while an Eye would cost little; off the Track while the Hunt
    is unlikely to find it (the first move of a turn at a higher risk). The more the Shadow's
    armies press, the more risk the Ring takes."""
    moves = fellowship_moves(state)
    hurry = urgency(state)
    if state.mordor_step != OFF_MORDOR:
        eye = hunt_level(state) + moves
        return 90.0 if moves == 0 or eye <= MORDOR_EYE + 3 * hurry else -1.0
    risk = hunt_risk(state)
    limit = (FIRST_MOVE_RISK if moves == 0 else MOVE_RISK) + HURRY_RISK * hurry
    return 80.0 if risk <= limit else -1.0


def action_value(state: WotrState, side: int, face: int, name: str) -> float:
    """What the die action ``name`` with a die of ``face`` is worth now (skip: 0)."""
    if name == "skip":
        return 0.0
    if name == "hide":
        return 100.0
    if name == "move-fellowship":
        return move_value(state)
    if name == "separate":
        return SEPARATE_VALUE if wants_separate(state) else -1.0
    if name == "play-event":
        cards = playable(state, side, face)
        return max((worth(state, c) for c in cards), default=-1.0)
    if name == "draw-event":
        return 15.0 if len(state.hands[side]) < HAND_LIMIT else 2.0
    if name == "diplomacy":
        return diplomacy_value(state, side)
    if name in ("attack", "leader-attack"):
        targets = attack_targets(state, side, leader=name == "leader-attack")
        value, _ = best_attack(state, side, tuple(targets))
        if value <= THRESHOLD[side]:
            return -1.0
        return (55.0 if side == SHADOW else 40.0) + 20.0 * min(value, 2.0)
    if name in ("move-armies", "leader-move"):
        options = tuple(edges(state, side, name == "leader-move"))
        score, _ = best_move(state, side, options)
        if score <= 0:
            return -1.0
        return (30.0 if side == SHADOW else 10.0) + 4.0 * min(score, 10.0)
    if name == "muster":
        return muster_value(state, side)
    if name in ("bring-character", "bring-minion"):
        return 88.0 if side == SHADOW else 60.0
    if name == "move-minions":
        home = nazgul_home(state)
        if home < 0:
            return -1.0
        flyers = [r for r in range(len(state.control)) if state.army[r, 6, 3] > 0]
        return 20.0 if any(r != home and nazgul_idle(state, r) for r in flyers) else -1.0
    if name == "voice-of-saruman":
        return 35.0
    if name == "messenger":
        return max((action_value(state, side, ARMY, n) for n in usable(state, side, ARMY)
                    if n not in ("skip", "messenger")), default=0.0) - 1.0
    if name == "nation-ability":
        return 8.0
    if name == "move-companions":
        return 1.0
    return 0.5  # table cards ended with a die, anything new


def muster_value(state: WotrState, side: int) -> float:
    if side == SHADOW:
        return 42.0
    regions = {r for k in (0, 1) for r in placements(state, side, k)}
    if not regions:
        return -1.0
    return 14.0 + 4.0 * min(3, max(0, max(threat(state, side, r) for r in regions)))


def ranked(state: WotrState, side: int, faces: list[int]) -> list[tuple[float, int, str]]:
    """(value, face, action) for every action of every distinct face, best first."""
    out = []
    for face in sorted(set(faces)):
        cost = FACE_COST[side].get(face, 1.0)
        for name in usable(state, side, face):
            out.append((action_value(state, side, face, name) - cost * (name != "skip"), face,
                        name))
    out.sort(key=lambda x: -x[0])
    return out


def choose_die(state: WotrState, d: Decision) -> Action:
    """WD-07: the die whose best action is worth most; pass when nothing is worth a die and
    passing is allowed; an Elven Ring for the Free Peoples when the Ring needs a Character
    die they do not have."""
    side = d.player
    faces = [o[1] for o in d.options if o[0] == "die"]
    ring = fp_ring(state, d) if side == FREE_PEOPLES else None
    if ring is not None:
        return ring
    best = ranked(state, side, faces)
    if not best:
        return d.options[0]
    value, face, _ = best[0]
    if value < 2.0 and choice("pass") in d.options:
        return choice("pass")
    return ("die", face)


def fp_ring(state: WotrState, d: Decision) -> Action | None:
    """Change a die that has no use for the Ring into a Character die, near or in Mordor."""
    rings = [o for o in d.options if o[0] == "ring" and o[2] == CHARACTER]
    if not rings or state.revealed:
        return None
    faces = unused_dice(state, FREE_PEOPLES)
    if CHARACTER in faces or WILL in faces or move_value(state) < 0:
        return None
    if state.mordor_step == OFF_MORDOR and gate_distance(state, state.fellowship_region) > 2:
        return None
    return min(rings, key=lambda o: FACE_COST[FREE_PEOPLES].get(o[1], 1.0))


def die_action(state: WotrState, d: Decision) -> Action:
    """WD-08 (and the Messenger's Army action): the best action of this die."""
    side = d.player
    face = int(d.context.get("face", EVENT))
    names = [o[1] for o in d.options if o[0] == "action"]
    if not names:
        return d.options[0]
    best = max(names, key=lambda n: action_value(state, side, face, n))
    return ("action", best)


def character_ability(state: WotrState, d: Decision) -> Action:
    """WD-38: a nation (Boromir, Legolas, Gimli), a mode of the Voice of Saruman (recruits
    first), or an Army action for the Messenger (:func:`die_action`'s choice)."""
    if d.context.get("ability") == "messenger":
        return die_action(state, d)
    for name in ("voice-recruit", "voice-elites"):
        if choice(name) in d.options:
            return choice(name)
    nations = [o for o in d.options if o[0] == "nation"]
    if nations:
        return min(nations, key=lambda o: rank(d.player, o[1]))
    return d.options[0]


__all__ = ["action_value", "character_ability", "choose_die", "die_action", "fellowship_moves",
           "move_value", "ranked"]
