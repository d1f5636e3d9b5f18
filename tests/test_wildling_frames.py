"""The wildling cards' choice frame (got_env/engine/wildling_frames.py): typed like the attack's
own frame, it reads and hashes as the dict ``wildling_choice`` frame it replaced (the same keys in
the same order, ``kind`` the plain int), copies and pickles with the state, and a position built
from dicts plays on as the typed one. Also: the split modules' names stay importable from
got_env.engine.combat and got_env.engine.wildlings."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from wildling_helpers import attack

from got_env import engine
from got_env.engine.decision import DecisionKind
from got_env.engine.frames import FRAME_CLASSES, MISSING
from got_env.engine.wildling_frames import WildlingChoiceFrame

CARDS = ("preemptive-raid", "crow-killers", "massing-on-the-milkwater",
         "a-king-beyond-the-wall", "mammoth-riders", "the-horde-descends")
#: the dict frame's keys, in the order ``ask`` gave them (one group of extras at most)
BASE = ["step", "kind", "house", "left", "player"]
EXTRAS = ([], ["areas", "same_area"], ["tracks"], ["points"])


def choice_states() -> list:
    """States with a wildling card choice innermost: scenario attacks of the cards that ask
    choices, with random bids and picks, and random 1e games (losses in mustering points)."""
    found = []
    for card in CARDS:
        for seed in range(6):
            state = attack(card, strength=8 if seed % 2 else 0)
            rng = np.random.default_rng(seed)
            while (d := engine.pending(state)) is not None and \
                    any(f["step"] == "wildling_attack" for f in state.stack):
                if state.stack[-1]["step"] == "wildling_choice":
                    found.append(state.clone())
                engine.apply(state, d.options[int(rng.integers(len(d.options)))])
    for seed in range(2):
        state = engine.start_game(5, seed=seed, options={"ruleset": "1e"})
        rng = np.random.default_rng(seed)
        while (d := engine.pending(state)) is not None:
            if state.stack[-1]["step"] == "wildling_choice":
                found.append(state.clone())
            engine.apply(state, d.options[int(rng.integers(len(d.options)))])
    return found


@pytest.fixture(scope="module")
def states() -> list:
    found = choice_states()
    kinds = {int(s.stack[-1].kind) for s in found}
    assert len(kinds) >= 6, kinds
    assert any(s.stack[-1].points is True for s in found), "no 1e losses in the sample"
    return found


def test_the_choice_frame_is_registered():
    assert FRAME_CLASSES["wildling_choice"] is WildlingChoiceFrame


def test_choice_frames_read_and_hash_as_their_dicts(states):
    for s in states:
        frame = s.stack[-1]
        assert type(frame) is WildlingChoiceFrame and type(frame.kind) is DecisionKind
        as_dict = frame.to_dict()
        assert list(as_dict)[:5] == BASE and list(as_dict)[5:] in EXTRAS
        assert type(as_dict["kind"]) is int and as_dict["kind"] == frame.kind
        back = WildlingChoiceFrame.from_dict(as_dict)
        assert back == frame and type(back.kind) is DecisionKind
        plain = s.clone()
        plain.stack[-1] = as_dict
        assert plain.digest() == s.digest()


def test_a_dict_choice_frame_plays_on_as_the_typed_one(states):
    """A position built from dicts (scenarios), its decision pending, plays on the same."""
    for s in states[::3]:
        plain = s.clone()
        plain.stack[-1] = plain.stack[-1].to_dict()
        digests = []
        for game in (s.clone(), plain):
            rng = np.random.default_rng(1)
            for _ in range(15):
                if (d := engine.pending(game)) is None:
                    break
                engine.apply(game, d.options[int(rng.integers(len(d.options)))])
            digests.append(game.digest())
        assert digests[0] == digests[1]


def test_clone_and_pickle_copy_the_choice_frame(states):
    s = states[0]
    copy = s.clone()
    assert copy.stack[-1] is not s.stack[-1] and copy.stack[-1] == s.stack[-1]
    copy.stack[-1].left += 1
    assert copy.stack[-1].left == s.stack[-1].left + 1
    again = pickle.loads(pickle.dumps(s))
    assert again.stack[-1] == s.stack[-1] and again.digest() == s.digest()


def test_the_dict_interface_of_a_choice_frame():
    frame = WildlingChoiceFrame.from_dict({"step": "wildling_choice", "kind": 12, "house": 1,
                                           "left": 2, "player": 1, "areas": None,
                                           "same_area": False})
    assert frame.kind is DecisionKind.WILDLING_DESTROY_UNITS and frame["areas"] is None
    assert "tracks" not in frame and frame.tracks is MISSING and frame.get("points") is None
    frame["left"] -= 1
    assert frame.to_dict() == {"step": "wildling_choice", "kind": 12, "house": 1, "left": 1,
                               "player": 1, "areas": None, "same_area": False}
    with pytest.raises(KeyError):
        WildlingChoiceFrame.from_dict({"step": "wildling_choice", "kind": 12, "house": 1,
                                       "left": 1, "player": 1, "bids": []})


@pytest.mark.parametrize(("module", "names"), [
    ("combat", ("initial_strength", "final_strength", "side_ability", "given_support",
                "supporters", "defense_bonus", "immune_to_casualties", "other", "SIDES",
                "combat_units", "retreat_areas", "retreat_losses", "discard_after_combat",
                "capture_ports_after_control_change", "run_combat", "act_combat",
                "run_port_capture", "PORT_CAPACITY", "card_value", "unit_values")),
    ("wildlings", ("WILDLING_EFFECTS", "FIXED_EFFECTS", "CHOICES", "POINT_LOSSES", "Role",
                   "CardEffects", "ChoiceSpec", "ask", "run_attack", "run_choice",
                   "act_attack", "act_choice", "loss_total", "highest_tracks", "bidders",
                   "TRACK_IDS", "PREEMPTIVE_RAID_STRENGTH", "PREEMPTIVE_RAID_DROP")),
])
def test_the_old_modules_still_export_every_name(module, names):
    import importlib

    mod = importlib.import_module(f"got_env.engine.{module}")
    assert all(hasattr(mod, n) for n in names)
    assert set(mod.__all__) <= set(dir(mod))
