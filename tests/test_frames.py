"""Typed engine frames (got_env/engine/frames.py): each typed frame (combat, March, planning,
wildling attack, and the steps without a stage machine: the round, the phases, bidding, raids,
mustering, supply, ...) reads and hashes as the dict it replaced, copies with the state, and
keeps the dict interface for untyped readers."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from got_env import engine
from got_env.engine.flow import push
from got_env.engine.frames import (
    FRAME_CLASSES,
    MISSING,
    CombatFrame,
    CombatStage,
    MarchFrame,
    MarchStage,
    PlanningStage,
    Side,
    WildlingAttackFrame,
    WildlingStage,
)


def combat_states(seed: int, tides: bool = True, limit: int = 40) -> list:
    """States of a random game with a combat on the stack (up to ``limit``)."""
    state = engine.start_game(6, seed=seed, options={"tides_of_battle": tides})
    rng = np.random.default_rng(seed)
    out = []
    while (d := engine.pending(state)) is not None and len(out) < limit:
        if any(f["step"] == "combat" for f in state.stack):
            out.append(state.clone())
        engine.apply(state, d.options[int(rng.integers(len(d.options)))])
    return out


@pytest.fixture(scope="module")
def states() -> list:
    found = [s for seed in range(4) for s in combat_states(seed)]
    assert found, "no combat in the sample games"
    return found


def combat_of(state) -> CombatFrame:
    return next(f for f in reversed(state.stack) if f["step"] == "combat")


def test_combat_frames_are_typed(states):
    for s in states:
        frame = combat_of(s)
        assert type(frame) is CombatFrame
        assert frame.stage is CombatStage(frame.stage.value)


def test_dict_round_trip_and_digest(states):
    """The old dict (to_dict) reads back to the same frame and hashes to the same digest."""
    for s in states:
        frame = combat_of(s)
        as_dict = frame.to_dict()
        assert as_dict["step"] == "combat"
        assert CombatFrame.from_dict(as_dict) == frame
        plain = s.clone()
        plain.stack[plain.stack.index(combat_of(plain))] = as_dict
        assert plain.digest() == s.digest()


def test_abilities_done_keeps_the_old_strings(states):
    for s in states:
        frame = combat_of(s)
        if frame.abilities_done is not MISSING and frame.abilities_done:
            for _timing, side, card in frame.abilities_done:
                assert isinstance(side, Side) and isinstance(card, int)
            assert frame.to_dict()["abilities_done"] == [
                f"{t}:{s.value}:{c}" for t, s, c in frame.abilities_done]


def test_clone_copies_the_frame(states):
    s = states[-1]
    copy = s.clone()
    mine, theirs = combat_of(s), combat_of(copy)
    assert mine == theirs and mine is not theirs
    theirs.units[0] += 5
    assert mine.units[0] == theirs.units[0] - 5
    assert copy.digest() != s.digest()


def test_pickle(states):
    for s in states[:5]:
        again = pickle.loads(pickle.dumps(s))
        assert again == s and again.digest() == s.digest()


def test_dict_interface():
    frame = CombatFrame.from_dict({"step": "combat", "attacker": 1, "defender": 2, "area": 3,
                                   "origin": 4, "units": [1, 0, 0, 0], "march_bonus": 0})
    assert frame["step"] == "combat" and frame["area"] == 3
    assert "stage" not in frame and frame.get("stage", "x") == "x"
    frame["winner"] = "attacker"
    assert frame.winner is Side.ATTACKER and frame["winner"] == "attacker"
    assert frame.setdefault("card_to_hand", []) == [] and "card_to_hand" in frame
    assert frame.pop("winner") is Side.ATTACKER and "winner" not in frame
    with pytest.raises(KeyError):
        frame["nonsense"] = 1
    with pytest.raises(KeyError):
        CombatFrame.from_dict({**frame.to_dict(), "nonsense": 1})


def test_enums_equal_the_old_strings():
    assert CombatStage.SUPPORT == "support" and CombatStage("after_combat").value == "after_combat"
    assert Side.ATTACKER.other is Side.DEFENDER and {"attacker": 1}[Side.ATTACKER] == 1
    assert f"{Side.DEFENDER}" == "defender"


def test_a_dict_combat_on_the_stack_is_typed_when_run(states):
    """A position built from dicts (scenarios) plays on as the typed frame would."""
    s = states[0]
    plain = s.clone()
    plain.stack[plain.stack.index(combat_of(plain))] = combat_of(plain).to_dict()
    for game in (s.clone(), plain):
        rng = np.random.default_rng(0)
        for _ in range(30):
            d = engine.pending(game)
            if d is None:
                break
            engine.apply(game, d.options[int(rng.integers(len(d.options)))])
        game_digest = game.digest()
        if game is not plain:
            want = game_digest
    assert game_digest == want


# --- every typed frame (the March, the planning phase, the wildling attack, the combat) ------

TYPED_STEPS = ("march", "planning_phase", "wildling_attack", "combat")


@pytest.fixture(scope="module")
def step_states() -> dict[str, list]:
    """Per typed step, states of random games with that step innermost on the stack (the 1e
    games have fixed wildling consequences and a Raven that looks)."""
    found: dict[str, list] = {name: [] for name in TYPED_STEPS}
    for seed, (players, ruleset) in enumerate(((6, "2e"), (5, "1e"), (4, "2e"))):
        state = engine.start_game(players, seed=seed, options={"ruleset": ruleset})
        rng = np.random.default_rng(seed)
        while (d := engine.pending(state)) is not None:
            name = state.stack[-1]["step"]
            if name in found and len(found[name]) < 25 * (seed + 1):
                found[name].append(state.clone())
            engine.apply(state, d.options[int(rng.integers(len(d.options)))])
    for name, sample in found.items():
        assert sample, f"no {name} in the sample games"
    return found


@pytest.mark.parametrize("name", TYPED_STEPS)
def test_every_typed_frame_reads_and_hashes_as_its_dict(step_states, name):
    cls = FRAME_CLASSES[name]
    for s in step_states[name]:
        frame = s.stack[-1]
        assert type(frame) is cls and frame.stage is type(frame.stage)(frame.stage.value)
        as_dict = frame.to_dict()
        assert list(as_dict)[0] == "step" and cls.from_dict(as_dict) == frame
        plain = s.clone()
        plain.stack[-1] = as_dict
        assert plain.digest() == s.digest()


@pytest.mark.parametrize("name", TYPED_STEPS)
def test_a_dict_frame_on_the_stack_plays_on_as_the_typed_one(step_states, name):
    """A position built from dicts (scenarios), decision pending or not, plays on the same."""
    for s in step_states[name][::7]:
        plain = s.clone()
        plain.stack[-1] = plain.stack[-1].to_dict()
        digests = []
        for game in (s.clone(), plain):
            rng = np.random.default_rng(1)
            for _ in range(20):
                if (d := engine.pending(game)) is None:
                    break
                engine.apply(game, d.options[int(rng.integers(len(d.options)))])
            digests.append(game.digest())
        assert digests[0] == digests[1]


def test_stage_enums_equal_the_old_strings():
    assert MarchStage.NEUTRAL_SUPPORT == "neutral_support" and PlanningStage("look").value == "look"
    assert WildlingStage.THREAT == "threat"
    frame = MarchFrame.from_dict({"step": "march", "area": 3, "house": 1, "stage": "token"})
    assert frame.stage is MarchStage.TOKEN and frame.get("remove_order", True) is True
    frame["remove_order"] = False
    assert frame.to_dict() == {"step": "march", "area": 3, "house": 1, "stage": "token",
                               "remove_order": False}
    with pytest.raises(KeyError):
        MarchFrame.from_dict({"step": "march", "area": 3})  # no house
    with pytest.raises(ValueError):
        MarchFrame.from_dict({"step": "combat", "area": 3, "house": 1})


def test_push_builds_the_typed_frame():
    state = engine.start_game(3, seed=0)
    frame = push(state, "wildling_attack", strength=4, exclude=[])
    assert type(frame) is WildlingAttackFrame and state.stack[-1] is frame
    assert frame.to_dict() == {"step": "wildling_attack", "strength": 4, "exclude": []}


# --- the steps without a stage machine (the round loop, the phases, the orders, ...) --------

from got_env.engine.abilities.base import CardFrame  # noqa: E402
from got_env.engine.abilities.lannister import TyrionFrame, TyrionStage  # noqa: E402
from got_env.engine.action_phase import ActionPhaseFrame, ResolveOrdersFrame  # noqa: E402
from got_env.engine.bidding import BiddingFrame  # noqa: E402
from got_env.engine.consolidate import ConsolidateFrame  # noqa: E402
from got_env.engine.frames import PortCaptureFrame  # noqa: E402
from got_env.engine.game import RoundFrame  # noqa: E402
from got_env.engine.mustering import MusteringFrame  # noqa: E402
from got_env.engine.raids import RaidFrame  # noqa: E402
from got_env.engine.supply import ReconcileFrame, SupplyFrame  # noqa: E402
from got_env.engine.westeros import WesterosFrame  # noqa: E402

PLAIN_STEPS = {"round": RoundFrame, "westeros_phase": WesterosFrame,
               "action_phase": ActionPhaseFrame, "resolve_orders": ResolveOrdersFrame,
               "clash_of_kings": BiddingFrame, "raid": RaidFrame, "consolidate": ConsolidateFrame,
               "mustering": MusteringFrame, "supply": SupplyFrame, "reconcile": ReconcileFrame,
               "port_capture": PortCaptureFrame}
#: seen in every sample below (the others are rarer: a reconcile, a port capture)
COMMON_STEPS = ("round", "westeros_phase", "action_phase", "resolve_orders", "clash_of_kings",
                "raid", "mustering")


@pytest.fixture(scope="module")
def stack_states() -> dict[str, list]:
    """Per step of :data:`PLAIN_STEPS`, states of random games (both editions) with a frame of
    that step anywhere on the stack: (state, index of the innermost such frame)."""
    found: dict[str, list] = {name: [] for name in PLAIN_STEPS}
    for seed, (players, ruleset) in enumerate(((6, "2e"), (5, "1e"), (4, "2e"), (3, "2e"))):
        state = engine.start_game(players, seed=seed, options={"ruleset": ruleset})
        rng = np.random.default_rng(seed)
        while (d := engine.pending(state)) is not None:
            for i in range(len(state.stack) - 1, -1, -1):
                name = state.stack[i]["step"]
                if name in found and len(found[name]) < 20 * (seed + 1):
                    found[name].append((state.clone(), i))
            engine.apply(state, d.options[int(rng.integers(len(d.options)))])
    for name in COMMON_STEPS:
        assert found[name], f"no {name} in the sample games"
    return found


def test_push_registers_every_step_of_the_procedure():
    for name, cls in PLAIN_STEPS.items():
        assert FRAME_CLASSES[name] is cls and cls.step == name


@pytest.mark.parametrize("name", list(PLAIN_STEPS))
def test_plain_step_frames_read_and_hash_as_their_dict(stack_states, name):
    """Frames seen in real games: typed, to_dict/from_dict both ways, the digest of the state
    with the old dict in the frame's place the same."""
    cls = PLAIN_STEPS[name]
    for s, i in stack_states[name]:
        frame = s.stack[i]
        assert type(frame) is cls
        as_dict = frame.to_dict()
        assert list(as_dict)[0] == "step" and as_dict["step"] == name
        assert cls.from_dict(as_dict) == frame and cls.from_dict(as_dict).to_dict() == as_dict
        for key, value in as_dict.items():
            assert frame[key] == value and key in frame
        plain = s.clone()
        plain.stack[i] = as_dict
        assert plain.digest() == s.digest()


@pytest.mark.parametrize("name", COMMON_STEPS)
def test_a_plain_step_dict_frame_plays_on_as_the_typed_one(stack_states, name):
    """Every frame of the stack made a dict again (a position built from dicts): the game plays
    on to the same digests."""
    for s, _ in stack_states[name][::9]:
        plain = s.clone()
        plain.stack[:] = [f if type(f) is dict else f.to_dict() for f in plain.stack]
        assert plain.digest() == s.digest()
        digests = []
        for game in (s.clone(), plain):
            rng = np.random.default_rng(2)
            trail = []
            for _ in range(40):
                if (d := engine.pending(game)) is None:
                    break
                engine.apply(game, d.options[int(rng.integers(len(d.options)))])
                trail.append(game.digest())
            digests.append(trail)
        assert digests[0] == digests[1]


def test_every_frame_on_the_stack_is_typed(stack_states):
    """Every frame the engine pushes, the house cards' ability steps' too, is typed."""
    for sample in stack_states.values():
        for s, _ in sample[::5]:
            for f in s.stack:
                assert type(f) is FRAME_CLASSES[f["step"]], f


@pytest.fixture(scope="module")
def card_states() -> list:
    """States of random games (both editions) with a house card's ability step on the stack."""
    out = []
    for seed, (players, ruleset) in enumerate(((6, "2e"), (5, "1e"), (5, "2e"), (4, "1e"))):
        state = engine.start_game(players, seed=seed, options={"ruleset": ruleset})
        rng = np.random.default_rng(seed)
        while (d := engine.pending(state)) is not None:
            if state.stack[-1]["step"].startswith("card:"):
                out.append(state.clone())
            engine.apply(state, d.options[int(rng.integers(len(d.options)))])
    assert out, "no ability step in the sample games"
    return out


def test_card_frames_read_hash_and_pickle_as_their_dict(card_states):
    for s in card_states:
        frame = s.stack[-1]
        cls = FRAME_CLASSES[frame["step"]]
        assert type(frame) is cls and isinstance(frame, CardFrame)
        assert isinstance(frame.side, Side)
        as_dict = frame.to_dict()
        assert list(as_dict)[:2] == ["step", "side"] and cls.from_dict(as_dict) == frame
        plain = s.clone()
        plain.stack[-1] = as_dict
        assert plain.digest() == s.digest()
        again = pickle.loads(pickle.dumps(s))
        assert type(again.stack[-1]) is cls and again.digest() == s.digest()


def test_tyrion_frame_stage_enum():
    frame = TyrionFrame.from_dict({"step": "card:tyrion-lannister", "side": "defender",
                                   "stage": "replace", "cancelled": 7})
    assert frame.side is Side.DEFENDER and frame.stage is TyrionStage.REPLACE
    assert TyrionStage.CANCEL == "cancel" and frame["cancelled"] == 7
    assert frame.to_dict() == {"step": "card:tyrion-lannister", "side": "defender",
                               "stage": "replace", "cancelled": 7}
    assert FRAME_CLASSES["card:tyrion-lannister"] is TyrionFrame


def test_plain_step_dict_interface():
    frame = MusteringFrame.from_dict({"step": "mustering", "houses": [2], "areas": None})
    assert frame.left is MISSING and "left" not in frame and frame.get("left") is None
    frame["left"], frame["at"] = {5: 2}, -1
    assert frame.to_dict() == {"step": "mustering", "houses": [2], "areas": None,
                               "left": {5: 2}, "at": -1}
    raid = RaidFrame(area=3, house=1)
    assert raid.to_dict() == {"step": "raid", "area": 3, "house": 1}
    raid.removed = 1
    assert raid["removed"] == 1 and RaidFrame.from_dict(raid.to_dict()) == raid
    assert SupplyFrame().to_dict() == {"step": "supply"}
    with pytest.raises(KeyError):
        RoundFrame.from_dict({"step": "round"})  # no "at"
    with pytest.raises(KeyError):
        BiddingFrame.from_dict({"step": "clash_of_kings", "stage": "bid"})


def test_push_builds_the_plain_step_frames():
    state = engine.start_game(3, seed=0)
    frame = push(state, "mustering", houses=[0], areas=[4])
    assert type(frame) is MusteringFrame and state.stack[-1] is frame
    assert frame.to_dict() == {"step": "mustering", "houses": [0], "areas": [4]}
    assert type(push(state, "clash_of_kings")) is BiddingFrame
