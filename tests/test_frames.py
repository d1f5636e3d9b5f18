"""AGoT's frames on the kit's loop (got_env/engine/frames.py, boardkit/frames.py): every step of
the engine is a slotted dataclass with its own ``run`` and ``act``; a clone copies the frames'
lists and dicts; the digest hashes a frame as its step and the fields it has, so that the digest
of every state is the one the engine's older dict frames gave."""

from __future__ import annotations

import dataclasses
import enum
import pickle

import numpy as np
import pytest

from got_env import engine
from got_env.engine.abilities.lannister import TyrionLannister, TyrionStage
from got_env.engine.bidding import BiddingFrame
from got_env.engine.combat.frame import CombatFrame
from got_env.engine.combat.stages import CombatStage, Side
from got_env.engine.decision import DecisionKind
from got_env.engine.frames import GotFrame, field_names
from got_env.engine.game import RoundFrame, advance
from got_env.engine.marches import MarchFrame, MarchStage
from got_env.engine.mustering import MusteringFrame
from got_env.engine.planning import PlanningStage
from got_env.engine.raids import RaidFrame
from got_env.engine.supply import SupplyFrame
from got_env.engine.wildlings.attack import WildlingStage
from got_env.engine.wildlings.choices import WildlingChoiceFrame

#: (players, ruleset, tides, seed) -> {decisions played: the state's digest}, recorded with the
#: engine's dict frames (before they became kit frames) at the first decision of each kind of
#: frame innermost (the comment: its step; "card": a house card's ability step).
DIGESTS = {
    (6, "2e", True, 3): {
        0: "bb80f48f78b5f575420008dfe9a12e326c2067922fa17d7d750629774c482def",  # planning_phase
        22: "652a9daad4d29c0d912b83e058b935d51522a3c6c096d1dc350d847a3753dec4",  # resolve_orders
        23: "e297151d1f6b179db51593ca84edec12aa8109816f9f9634bfadc7a6ad4fad79",  # march
        36: "16d04b290ce94a25f9ba28d42142f46269a3db0c9414168da35f34367c2e2dc2",  # consolidate
        37: "2a3cad3ec3fc5c1635121e1b695fb55b7b896e8cb66e786df986486447959ea5",  # mustering
        56: "1fd9c0c6a71b129db0ae631952129cfcd8485550a75121ad2b615912442f65de",  # clash_of_kings
        131: "0369dfbd8c8e8888313a5feeb9bc38b8a052c5c3e5c319f6ce10421fb65a89bd",  # westeros_phase
        159: "9891d706c02859994aac6174f61d0aa28e523a4b41549b5078f5a9457c8d9d93",  # combat
        173: "3ed02c9b9e31f003cc8253816c677d33843e8b4270cea49f5176247ef06f4f8d",  # card
        183: "033ec7c8a3dcea9a10ddfe738f0b39c1e143ccc33432e6e36ab099e3bf223486",  # wildling_attack
        288: "38c39368733642b8da89aec5c627cbf7165295c2facd61382461c57660ebf278",  # wildling_choice
        370: "f7b6939746e61921494bc3325cab98cc4c2751b72cf77e0d4118eea058e67321",  # raid
    },
    (5, "1e", False, 2): {
        0: "b51e73491db695b6d0893143f21d676d8e4ff4bb52275d02262e3407b6fda418",  # planning_phase
        16: "3f889c1789bb282dde128de636e32eba3c2f70fd6b72b9fa780d65d6547c200e",  # resolve_orders
        17: "98c4130f4a7671f639ebcb8ab26f72c1f060c55872192b4603f2827cb9739a1f",  # raid
        19: "b407229a63d98247c3ae7a50d2ea7422a6a6bb5120a97b3f9aca35d954d0c29e",  # march
        27: "43c5c1cbec7e5a4e6e27470d5ca985ec39089c45b692cd9097d7bc5363a97d90",  # westeros_phase
        80: "6e5ad59d7aa851d11a60ee9dce66a288b1cdbfc7a6d8ee47367089443f2293cf",  # combat
        121: "aa1ee5c0b8a29125ed1d908a9f24d9f90e6860593bbf7eed72f616f92446edb2",  # mustering
        132: "5475ff897c4c0b8ecdb7eeb65ac58b21fb1722d9a95815e7b8ec188b68de640e",  # clash_of_kings
        233: "9173575ef5e5caa034d7fb75815436967d55347b86ce646a65026206456f5a7d",  # wildling_attack
        239: "1151195d4b76a768aa3dda3b254d23004047c8b88fb0d964d3c969519da4d67b",  # wildling_choice
    },
    (4, "2e", False, 5): {
        0: "38e87acf5c2418ece0ebdd010dbe15bd0e5bc99ecb212b158fb5501434def617",  # planning_phase
        15: "ae00b7c15fc75ff8642c35c25135e4f2a3acdda159511a55d9cf259924d1453a",  # resolve_orders
        17: "433a8a4c6aba854259765673c5af215d15dff1046c07ed894b243f789603c4d2",  # march
        30: "6702f901fd8a0c3c8f8037a480095cb607b423731bcaf1ed61c5123cbfb013a9",  # combat
        32: "beed7ec499d15750b1ef50d44187e4ef23806bd3783903600d9e4dd19dd33f59",  # card
        39: "0abab5650a8fb08c2266870607c1c1f6ee209adce64c2f4308b806f5e0ac2dec",  # westeros_phase
        40: "7b02203710186967e2fb7ab63ebe117d209d87dbf914c02e104b732cc31ad6f7",  # wildling_attack
        59: "97961afa93f86b33f8ba64e8634bf3703548c49a6a85165bbd88b1fd13ed4be2",  # raid
        63: "ba6dc9f4a9157cb79ec07737444d1b03df1c878a35da2e423cd135d1793bd650",  # consolidate
        65: "e038614adb91e0ed8fac33b2ade17e63d6cfe2487ae3b10d45da97cf243515ed",  # mustering
        83: "cb851e908c68324034ab2bfd4f3b7d44f6502535f8a170a4758baad46d787be8",  # clash_of_kings
        242: "343cc5f70ac2c057dd31ee96253e0e7a75564e67520e5391764fe6c9095c4e38",  # wildling_choice
    },
}


def play(players: int, ruleset: str, tides: bool, seed: int):
    """The states of a random game, one per decision (each a clone), with the number played."""
    options = {"ruleset": ruleset} | ({"tides_of_battle": True} if tides else {})
    state = engine.start_game(players, seed=seed, options=options)
    rng = np.random.default_rng(seed)
    n = 0
    while (d := engine.pending(state)) is not None:
        yield n, state
        engine.apply(state, d.options[int(rng.integers(len(d.options)))])
        n += 1


@pytest.fixture(scope="module")
def states() -> list:
    """Clones of states of random games (both editions, with and without Tides of Battle)."""
    return [s.clone() for game in DIGESTS for n, s in play(*game) if n % 3 == 0]


@pytest.mark.parametrize("game", list(DIGESTS), ids=str)
def test_digests_are_the_dict_frames_digests(game):
    want = DIGESTS[game]
    got = {n: s.digest() for n, s in play(*game) if n in want}
    assert got == want


def test_every_frame_is_a_slotted_dataclass_with_its_own_step(states):
    by_step: dict[str, type] = {}
    for s in states:
        for f in s.stack:
            cls = type(f)
            assert isinstance(f, GotFrame) and dataclasses.is_dataclass(f)
            assert not hasattr(f, "__dict__"), cls  # slotted all the way up
            assert by_step.setdefault(cls.step, cls) is cls  # one class per step
            assert cls.OPTIONAL <= set(field_names(cls)), cls
            assert set(cls.PRESENT_WITH) | set(cls.PRESENT_WITH.values()) <= set(
                field_names(cls)), cls
    assert {"round", "planning_phase", "action_phase", "resolve_orders", "march", "combat",
            "westeros_phase", "clash_of_kings", "mustering", "raid"} <= set(by_step)
    assert any(name.startswith("card:") for name in by_step)


def test_stages_are_enums_not_strings():
    for stages in (CombatStage, MarchStage, PlanningStage, WildlingStage, TyrionStage):
        assert issubclass(stages, enum.Enum) and not issubclass(stages, str)
        assert all(type(stage.value) is str for stage in stages)  # what the digest hashes
    assert CombatStage.SUPPORT != "support"


def test_digest_items_leave_out_what_a_frame_does_not_have_yet():
    march = MarchFrame(area=3, house=1)
    assert march.digest_items() == {"step": "march", "area": 3, "house": 1}
    march.stage, march.control_before = MarchStage.MOVE, [0]
    assert march.digest_items() == {"step": "march", "area": 3, "house": 1,
                                    "stage": MarchStage.MOVE, "attack": None,
                                    "control_before": [0]}  # attack: None, and there
    muster = MusteringFrame(houses=[2], areas=None)
    assert muster.digest_items() == {"step": "mustering", "houses": [2], "areas": None}
    muster.at = -1
    assert muster.digest_items()["left"] is None  # between two houses
    destroy = WildlingChoiceFrame(kind=DecisionKind.WILDLING_DESTROY_UNITS, house=1, left=2,
                                  player=1, points=True)
    assert set(destroy.digest_items()) == {"step", "kind", "house", "left", "player", "points"}
    destroy = WildlingChoiceFrame(kind=DecisionKind.WILDLING_DESTROY_UNITS, house=1, left=2,
                                  player=1, areas=None, same_area=False)
    assert destroy.digest_items()["areas"] is None and "tracks" not in destroy.digest_items()
    assert SupplyFrame().digest_items() == {"step": "supply"}
    raid = RaidFrame(area=3, house=1)
    assert "removed" not in raid.digest_items()
    raid.removed = 1
    assert raid.digest_items()["removed"] == 1


def test_a_combat_hashes_its_ability_keys_as_strings():
    combat = CombatFrame(attacker=0, defender=1, area=3, origin=4, units=[1, 0, 0, 0],
                         march_bonus=0)
    assert set(combat.digest_items()) == {"step", "attacker", "defender", "area", "origin",
                                          "units", "march_bonus"}
    combat.abilities_done = {("reveal", Side.DEFENDER, 7): None, ("cancel", Side.ATTACKER, 2):
                             None}
    assert combat.digest_items()["abilities_done"] == ["reveal:defender:7", "cancel:attacker:2"]


def test_clone_copies_every_frame(states):
    s = next(s for s in states if any(type(f) is CombatFrame for f in s.stack))
    copy = s.clone()
    assert copy == s and copy.digest() == s.digest()
    for mine, theirs in zip(s.stack, copy.stack, strict=True):
        assert mine == theirs and mine is not theirs
    combat = next(f for f in reversed(copy.stack) if type(f) is CombatFrame)
    combat.units[0] += 5
    assert copy.digest() != s.digest() and copy != s


def test_pickle(states):
    for s in states[::40]:
        again = pickle.loads(pickle.dumps(s))
        assert again == s and again.digest() == s.digest()
        assert [type(f) for f in again.stack] == [type(f) for f in s.stack]


def test_a_position_built_from_frames_plays():
    """Positions are built by pushing frames: a Clash of Kings pushed on a round that ends the
    game, then played out."""
    state = engine.new_game(3, seed=0, options={"max_rounds": 1})
    state.stack.append(RoundFrame(at=3))
    state.stack.append(BiddingFrame())
    advance(state)
    assert state.pending.kind is DecisionKind.INFLUENCE_BID and state.pending.secret
    while (d := engine.pending(state)) is not None:
        engine.apply(state, d.options[0])
    assert state.outcome is not None


def test_tyrion_keeps_his_stage_and_the_cancelled_card():
    frame = TyrionLannister(side=Side.DEFENDER)
    assert frame.digest_items() == {"step": "card:tyrion-lannister", "side": Side.DEFENDER}
    frame.stage, frame.cancelled = TyrionStage.REPLACE, 7
    assert frame.digest_items() == {"step": "card:tyrion-lannister", "side": Side.DEFENDER,
                                    "stage": TyrionStage.REPLACE, "cancelled": 7}
