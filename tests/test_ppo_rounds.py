"""Issue 39's trainer options: discounting per round (``ppo.discount_per``), truncated games
bootstrapping (``ppo.truncation``), the learner's seats, ``device``, War of the Ring's shaping
potential; the defaults train exactly as before, and a run with the new options paused and
resumed equals one in one go."""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import torch
from train_helpers import paused_and_resumed

import wotr_env
from boardkit.vector import VectorGames
from experiments.training.config import ConfigError, parse_config
from experiments.training.ppo import Collector, Trainer, house_advantages, standing_rewards


# -- per-round GAE on a hand-made trajectory ----------------------------------------------------
def _trajectory() -> dict:
    """One game, two houses; house 0 decides at steps 0 and 2 (round 1) and 3 (round 2); step
    1 and 4 are the other house's; the game ends on step 4 (round 3), paying house 0 +1."""
    rewards = np.zeros((5, 2))
    rewards[4] = [1.0, -1.0]
    return {"acting": np.array([0, -1, 0, 0, -1]),
            "values": np.array([0.5, 0.0, 0.4, 0.3, 0.0]),
            "rewards": rewards, "dones": np.array([False, False, False, False, True]),
            "rounds": np.array([1, 1, 1, 2, 3]), "end_rounds": np.array([0, 0, 0, 0, 3])}


def test_per_round_discount_is_one_within_a_round() -> None:
    """gamma 0.9, lambda 0.8 per round: t3 is terminal (A = 1 - 0.3); t2 -> t3 crosses one
    round (0.9 * 0.3 - 0.4 + 0.72 * 0.7); t0 -> t2 is the same round (discount 1):
    0.4 - 0.5 + 0.374."""
    t = _trajectory()
    a = house_advantages(t["acting"], t["values"], t["rewards"], t["dones"], 0.9, 0.8,
                         rounds=t["rounds"], end_rounds=t["end_rounds"])
    assert a.complete.tolist() == [True, False, True, True, False]
    np.testing.assert_allclose(a.advantages[[0, 2, 3]], [0.274, 0.374, 0.7], rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.returns[[0, 2, 3]], [0.774, 0.774, 1.0], rtol=0, atol=1e-12)
    # per decision, the same trajectory: t0 -> t2 is discounted too
    d = house_advantages(t["acting"], t["values"], t["rewards"], t["dones"], 0.9, 0.8)
    np.testing.assert_allclose(d.advantages[[0, 2, 3]],
                               [0.9 * 0.4 - 0.5 + 0.72 * 0.374, 0.374, 0.7], atol=1e-12)


def test_with_gamma_one_the_per_round_return_is_the_final_outcome() -> None:
    """gamma = 1 (and lambda = 1: the Monte Carlo return, not a mix with the values): every
    decision's return is the game's outcome; lambda 0.3 mixes in the values only across
    rounds (t2 -> t3), never within one (t0 and t2 get the same return)."""
    t = _trajectory()
    a = house_advantages(t["acting"], t["values"], t["rewards"], t["dones"], 1.0, 1.0,
                         rounds=t["rounds"], end_rounds=t["end_rounds"])
    np.testing.assert_allclose(a.returns[[0, 2, 3]], [1.0, 1.0, 1.0], rtol=0, atol=1e-15)
    mixed = house_advantages(t["acting"], t["values"], t["rewards"], t["dones"], 1.0, 0.3,
                             rounds=t["rounds"], end_rounds=t["end_rounds"])
    # t2: 0.3 + 0.3 * (1 - 0.3) = 0.51, and t0 the same (lambda ** 0 within round 1)
    np.testing.assert_allclose(mixed.returns[[0, 2, 3]], [0.51, 0.51, 1.0], atol=1e-12)


def test_per_round_shaping_discounts_the_next_potential_by_the_rounds_elapsed() -> None:
    t = _trajectory()
    phi = np.array([0.2, 0.0, 0.5, 0.1, 0.0])
    a = house_advantages(t["acting"], t["values"], t["rewards"], t["dones"], 0.9, 0.8, phi,
                         rounds=t["rounds"], end_rounds=t["end_rounds"])
    # r + gamma**k * Phi(next) - Phi(s); Phi = 0 at the end
    np.testing.assert_allclose(a.rewards[[0, 2, 3]], [0.5 - 0.2, 0.9 * 0.1 - 0.5, 1.0 - 0.1],
                               atol=1e-12)


def test_rounds_that_go_back_are_refused() -> None:
    t = _trajectory()
    with pytest.raises(ValueError, match="earlier round"):
        house_advantages(t["acting"], t["values"], t["rewards"], t["dones"], 0.9, 0.8,
                         rounds=np.array([2, 1, 1, 1, 1]), end_rounds=t["end_rounds"])


# -- truncated games ----------------------------------------------------------------------------
def _truncated() -> dict:
    t = _trajectory()
    t["rewards"] = np.zeros((5, 2))              # a cut pays nothing
    boot = np.zeros((5, 2))
    boot[4] = [0.6, -0.6]                        # the values of the final observations
    t["bootstrap"] = boot
    return t


def test_a_truncated_games_return_is_its_bootstrapped_value() -> None:
    t = _truncated()
    flat = house_advantages(t["acting"], t["values"], t["rewards"], t["dones"], 1.0, 1.0,
                            rounds=t["rounds"], end_rounds=t["end_rounds"],
                            bootstrap=t["bootstrap"])
    np.testing.assert_allclose(flat.returns[[0, 2, 3]], [0.6, 0.6, 0.6], rtol=0, atol=1e-15)
    # per round: the cut (round 3) is one round after house 0's last decision (round 2)
    per_round = house_advantages(t["acting"], t["values"], t["rewards"], t["dones"], 0.9, 1.0,
                                 rounds=t["rounds"], end_rounds=t["end_rounds"],
                                 bootstrap=t["bootstrap"])
    assert per_round.returns[3] == pytest.approx(0.9 * 0.6, abs=1e-15)
    # per decision: as a successor's value, one gamma
    per_decision = house_advantages(t["acting"], t["values"], t["rewards"], t["dones"], 0.9,
                                    1.0, bootstrap=t["bootstrap"])
    assert per_decision.returns[3] == pytest.approx(0.9 * 0.6, abs=1e-15)
    # without a bootstrap (ppo.truncation: zero), as before: the cut is worth 0
    zero = house_advantages(t["acting"], t["values"], t["rewards"], t["dones"], 1.0, 1.0)
    np.testing.assert_allclose(zero.returns[[0, 2, 3]], [0.0, 0.0, 0.0], rtol=0, atol=1e-15)


def test_standing_rewards_pay_the_schemes_rewards_for_the_standings_ranking() -> None:
    np.testing.assert_array_equal(standing_rewards(np.array([0.2, -0.2]), "zero_sum"),
                                  [1.0, -1.0])
    np.testing.assert_array_equal(standing_rewards(np.array([0.0, 0.0]), "zero_sum"),
                                  [0.0, 0.0])    # tied: the win shared
    np.testing.assert_array_equal(standing_rewards(np.array([1.0, 3.0, 2.0]), "rank"),
                                  [-1.0, 1.0, 0.0])


def test_the_env_reports_a_max_turns_cut_as_truncation_and_max_rounds_as_an_end() -> None:
    """War of the Ring's max_turns truncates (no reward, the standing at the cut); AGoT's
    max_rounds is a rules end (castles decide: rewards paid), never a truncation."""
    for game, options, n, cut in (("wotr", {"max_turns": 1}, 2, True),
                                  ("got", {"max_rounds": 1}, 3, False)):
        with VectorGames(1, n, seeds=0, game=game, **options) as vec:
            batch, rng = vec.reset(), np.random.default_rng(0)
            rounds = [int(batch.round[0])]
            while batch.finished[0] is None:
                batch = vec.step(np.array([rng.choice(np.flatnonzero(batch.mask[0]))]))
                rounds.append(int(batch.round[0]))
            end = batch.finished[0]
            assert end.truncated is cut and end.round == 1 and len(end.standing) == n
            assert (not end.rewards.any()) is cut
            assert rounds[0] == 1 and sorted(rounds[:-1]) == rounds[:-1]   # never backwards


def _wotr_collector(truncation: str) -> Collector:
    cfg = parse_config({"game": "wotr", "env": {"max_turns": 1},
                        "ppo": {"truncation": truncation, "discount_per": "round",
                                "gamma": 1.0, "gae_lambda": 1.0},
                        "league": {"weights": {"current": 1.0}},
                        "rollout": {"workers": 0}, "eval": {"games": 0, "opponents": ["random"]}})
    return Collector(cfg, 2, 1, None)


def test_the_collector_bootstraps_a_cut_from_its_final_observations_value_or_standing(
        ) -> None:
    """A game cut on a step: under ``value`` each house's bootstrap is the network's value of
    its final observation; under ``standing`` the step pays the standing's rewards; under
    ``zero`` neither."""
    net = torch.nn.Module()
    net.get_value = lambda obs: obs.sum(-1) * 0.25   # a stand-in value: what it was given
    ended = SimpleNamespace(truncated=True, obs=np.array([[1.0, 1.0], [2.0, 0.0]], np.float32),
                            standing=np.array([0.1, -0.3]), round=4)
    value = _wotr_collector("value")
    np.testing.assert_array_equal(value._bootstrap(ended, net), [0.5, 0.5])
    np.testing.assert_array_equal(value._standing_reward(ended), [0.0, 0.0])
    standing = _wotr_collector("standing")
    np.testing.assert_array_equal(standing._standing_reward(ended), [1.0, -1.0])
    np.testing.assert_array_equal(standing._bootstrap(ended, net), [0.0, 0.0])
    zero = _wotr_collector("zero")
    assert not zero._standing_reward(ended).any() and not zero._bootstrap(ended, net).any()
    ended.truncated = False               # a rules end: nothing added whatever the option
    assert not value._bootstrap(ended, net).any()
    assert not standing._standing_reward(ended).any()


def _wotr_tiny(folder: Path, **changes: object) -> dict:
    raw = {"game": "wotr", "name": "tiny", "out": str(folder), "seed": 5, "updates": 3,
           "env": {"max_turns": 1}, "network": {"kind": "mlp", "hidden": [16]},
           "rollout": {"num_games": 2, "steps": 60, "workers": 0},
           "ppo": {"epochs": 1, "minibatch": 64, "discount_per": "round",
                   "truncation": "standing", "gamma": 1.0, "gae_lambda": 1.0},
           "shaping": {"progress": 0.0}, "league": {"weights": {"current": 1.0}},
           "eval": {"every": 3, "games": 2, "opponents": ["random"]},
           "checkpoint_every": 1, "tensorboard": False, "progress": False}
    raw.update(changes)
    return raw


def test_a_wotr_run_cut_at_max_turns_learns_the_standings_reward(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """gamma = lambda = 1 per round, truncation standing, every game cut after turn 1, a value
    head that says 0: every learnt decision's return is the standing's reward of its side in
    its game (+1, -1, or 0 when tied; 0 too for a decision whose game is still on, bootstrapped
    from the value), and some are not 0; with truncation zero every return is 0 (issue 26's
    stall: a cut game teaches nothing). The rules' standing after one turn of random play is a
    tie; here it favours the Free Peoples, so that the cut pays +1 / -1."""
    from wotr_env.game import WotrGame

    monkeypatch.setattr(WotrGame, "standing", lambda self, state: np.array([0.3, -0.3]))
    returns = {}
    for mode in ("standing", "zero"):
        trainer = Trainer(parse_config(_wotr_tiny(tmp_path / mode, ppo={
            "discount_per": "round", "truncation": mode, "gamma": 1.0, "gae_lambda": 1.0})))
        with torch.no_grad():
            trainer.network.value_head.weight.zero_()
            trainer.network.value_head.bias.zero_()
        games = VectorGames(2, 2, seeds=5, game="wotr", max_turns=1)
        batch = trainer.collector.start(games, trainer.league)
        _, rollout, results, _ = trainer.collector.collect(games, batch, trainer.network,
                                                           trainer.league, 100)
        games.close()
        returns[mode] = rollout.returns
        assert len(results) >= 2 and len(rollout.returns) > 50
    assert set(np.unique(returns["standing"])) <= {-1.0, 0.0, 1.0}
    assert np.any(returns["standing"] == 1.0) and np.any(returns["standing"] == -1.0)
    assert not np.any(returns["zero"])


# -- defaults unchanged ---------------------------------------------------------------------------
#: The tiny Goofspiel run below trained by main at cec1573 (before issue 39's options): the
#: sha256 of its network's weights and of its progress.csv without the timings, and its
#: decisions. Recorded with /work/main's trainer; the defaults must give exactly this.
RECORDED_DEFAULT_RUN = ("bf3cf72afcfcbdd4", "22dbdae0767ed5ab", 360)


def _goofspiel_tiny(folder: Path, **changes: object) -> dict:
    raw = {"game": "goofspiel", "name": "tiny", "out": str(folder), "seed": 3, "updates": 3,
           "env": {"num_players": 2, "num_cards": 5}, "network": {"kind": "mlp", "hidden": [16]},
           "rollout": {"num_games": 4, "steps": 30, "workers": 0},
           "ppo": {"epochs": 2, "minibatch": 32},
           "league": {"weights": {"current": 0.5, "random": 0.5}, "snapshot_every": 2},
           "eval": {"every": 3, "games": 10, "opponents": ["random"]},
           "checkpoint_every": 1, "tensorboard": False, "progress": False}
    raw.update(changes)
    return raw


def _digest(trainer: Trainer, folder: Path) -> tuple[str, str, int]:
    h = hashlib.sha256()
    for k, v in trainer.network.state_dict().items():
        h.update(k.encode())
        h.update(v.detach().cpu().numpy().tobytes())
    with open(folder / "tiny" / "progress.csv") as f:
        rows = [{k: v for k, v in r.items() if not k.endswith("_s") and k != "decisions_per_s"}
                for r in csv.DictReader(f)]
    return (h.hexdigest()[:16], hashlib.sha256(repr(rows).encode()).hexdigest()[:16],
            trainer.decisions)


@pytest.mark.parametrize("explicit", [{}, {"device": "cpu", "ppo": {
    "epochs": 2, "minibatch": 32, "discount_per": "decision", "truncation": "zero"}}])
def test_the_defaults_and_device_cpu_train_the_recorded_run(tmp_path: Path,
                                                            explicit: dict) -> None:
    """The defaults (discount per decision, truncation zero, device cpu), left out or given,
    train bit for bit the run main trained before these options existed; the run's
    config.yaml names none of them (an older checkpoint's config still matches)."""
    trainer = Trainer(parse_config(_goofspiel_tiny(tmp_path, **explicit)),
                      log=lambda *a: None)
    trainer.run()
    assert _digest(trainer, tmp_path) == RECORDED_DEFAULT_RUN
    import yaml

    written = yaml.safe_load((tmp_path / "tiny" / "config.yaml").read_text())
    assert "device" not in written and "learner_seats" not in written["league"]
    assert not {"discount_per", "truncation"} & set(written["ppo"])
    assert not {"progress", "corruption", "points"} & set(written["shaping"])


def test_device_cuda_is_refused_without_a_gpu(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ConfigError, match=r"device: 'cuda'.*torch.cuda.is_available\(\) is "
                                          r"False"):
        parse_config(_goofspiel_tiny(tmp_path, device="cuda"))
    with pytest.raises(ConfigError, match="device"):
        parse_config(_goofspiel_tiny(tmp_path, device="tpu"))
    assert Trainer(parse_config(_goofspiel_tiny(tmp_path, device="auto"))).device.type == "cpu"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_device_cuda_trains_on_the_gpu_and_plays_on_the_cpu(tmp_path: Path) -> None:
    trainer = Trainer(parse_config(_goofspiel_tiny(tmp_path, device="cuda")))
    trainer.run()
    assert next(trainer.network.parameters()).is_cuda
    assert not next(trainer.actor.parameters()).is_cuda
    for v, w in zip(trainer.network.state_dict().values(), trainer.actor.state_dict().values(),
                    strict=True):
        assert torch.equal(v.cpu(), w)


def test_bad_new_keys_name_themselves(tmp_path: Path) -> None:
    for change, match in (
            ({"ppo": {"discount_per": "turn"}}, "ppo.discount_per"),
            ({"ppo": {"truncation": "bootstrap"}}, "ppo.truncation"),
            ({"league": {"weights": {"random": 1.0}, "learner_seats": ["stark"]}},
             "league.learner_seats"),
            ({"shaping": {"castles": 1.0}}, "has no shaping potential")):
        with pytest.raises(ConfigError, match=match):
            parse_config(_goofspiel_tiny(tmp_path, **change))
    with pytest.raises(ConfigError, match=r"shaping: \['castles'\] are not weights"):
        parse_config(_wotr_tiny(tmp_path, shaping={"castles": 1.0}))


def test_the_learner_plays_only_its_seats(tmp_path: Path) -> None:
    cfg = parse_config(_goofspiel_tiny(tmp_path, league={
        "weights": {"random": 1.0}, "learner_seats": ["player_1"]}))
    trainer = Trainer(cfg)
    for _ in range(20):
        seats, _ = trainer.collector.seat_game(trainer.league)
        assert [s.kind for s in seats] == ["agent", "learner"]


# -- paused and resumed equals one go, with the new options --------------------------------------
def test_a_wotr_run_with_the_new_options_paused_and_resumed_equals_one_go(
        tmp_path: Path) -> None:
    """Per-round discount, value bootstrap of truncated games, War of the Ring's shaping, the
    learner as the Free Peoples against random: paused after update 1, resumed, the same
    network, counters and progress rows as the run in one go."""
    def config(folder: Path) -> dict:
        return _wotr_tiny(folder, ppo={"discount_per": "round", "truncation": "value",
                                       "gamma": 0.98, "gae_lambda": 0.95, "epochs": 1,
                                       "minibatch": 64},
                          shaping={"progress": 0.5, "corruption": 0.5, "points": 0.5},
                          league={"weights": {"current": 1.0, "random": 1.0},
                                  "learner_seats": ["free_peoples"]})

    paused_and_resumed(config, tmp_path, until=1)

    def rows(folder: str) -> list[dict]:
        with open(tmp_path / folder / "tiny" / "progress.csv") as f:
            return [{k: v for k, v in r.items()
                     if not k.endswith("_s") and k != "decisions_per_s"}
                    for r in csv.DictReader(f)]

    assert rows("a") == rows("b")


# -- War of the Ring's shaping potential ------------------------------------------------------
def _potential(**weights: float):
    from experiments.training.game_hooks import potential

    shaping = SimpleNamespace(**{"progress": 0.0, "corruption": 0.0, "points": 0.0, **weights})
    return potential("wotr", shaping, wotr_env.raw_env())


def _observations(spec_changes: dict) -> tuple[np.ndarray, np.ndarray]:
    """(the Free Peoples', the Shadow's) observation of the scenario state."""
    from wotr_env.game import GAME

    env = wotr_env.raw_env()
    env.reset(seed=0)
    state = env.game
    for key, value in spec_changes.items():
        setattr(state, key, value)
    enc = GAME.encoder(state)
    return enc.encode(state, 0), enc.encode(state, 1)


def test_wotr_potential_moves_the_right_way_for_each_side() -> None:
    """Down the Mordor Track: the Free Peoples' potential rises, the Shadow's falls; more
    Corruption: the reverse; every weight 0: no shaping."""
    assert _potential() is None
    ring, corruption = _potential(progress=1.0), _potential(corruption=1.0)
    start_fp, start_sh = _observations({})
    deep_fp, deep_sh = _observations({"mordor_step": 3})
    assert ring(deep_fp, 0) == pytest.approx(ring(start_fp, 0) + 4 / 6)
    assert ring(deep_sh, 1) == pytest.approx(ring(start_sh, 1) - 4 / 6)
    corrupt_fp, corrupt_sh = _observations({"corruption": 6})
    assert corruption(corrupt_fp, 0) == pytest.approx(corruption(start_fp, 0) - 0.5)
    assert corruption(corrupt_sh, 1) == pytest.approx(corruption(start_sh, 1) + 0.5)


def test_wotr_potential_counts_each_sides_points_toward_its_own_target() -> None:
    """The Shadow holding a Free Peoples Stronghold (2 points of its 10): its potential rises
    by 0.2, the Free Peoples' falls by 2/10."""
    from wotr_env.game import GAME

    points = _potential(points=1.0)
    env = wotr_env.raw_env()
    env.reset(seed=0)
    state = env.game
    enc = GAME.encoder(state)
    before = enc.encode(state, 0), enc.encode(state, 1)
    board = state.ruleset.board
    stronghold = int(np.flatnonzero((board.vp == 2) & (board.region_side == 0))[0])
    state.control[stronghold] = 1
    after = enc.encode(state, 0), enc.encode(state, 1)
    assert points(after[1], 1) - points(before[1], 1) == pytest.approx(0.2)
    assert points(after[0], 0) - points(before[0], 0) == pytest.approx(-0.2)


def test_a_stream_of_an_older_checkpoint_reads_as_per_decision_without_bootstraps() -> None:
    """A trainer checkpoint written before issue 39 holds streams without rounds or
    bootstraps (the codec rebuilds the object's dict as it was): read back, they get zeros,
    which is how they were trained (per decision, a cut worth 0)."""
    from experiments.training.ppo import Stream

    old = Stream.__new__(Stream)
    old.__dict__.update({"acting": [0, 1], "values": [0.5, 0.1], "potentials": [0.0, 0.0],
                         "rewards": [np.zeros(2), np.zeros(2)], "dones": [False, False],
                         "ids": [3, 4]})
    stream = old.cut(0)
    assert stream.rounds == [0, 0] and stream.end_rounds == [0, 0]
    np.testing.assert_array_equal(np.stack(stream.bootstrap), np.zeros((2, 2)))
    later = stream.cut(1)
    assert later.acting == [1] and later.rounds == [0] and len(later.bootstrap) == 1


def test_the_batchs_rounds_are_the_same_from_worker_processes() -> None:
    """``Batch.round`` travels through the shared buffers: the games stepped in a worker give
    the rounds (and the finished games' rounds and standings) of the games stepped here."""
    def rounds(workers: int) -> tuple[list[list[int]], list[tuple[int, list[float]]]]:
        seen, ends = [], []
        with VectorGames(2, 3, seeds=4, num_workers=workers, game="got", max_rounds=2) as vec:
            batch, rng = vec.reset(), np.random.default_rng(1)
            for _ in range(120):
                seen.append(batch.round.tolist())
                batch = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in batch.mask]))
                ends += [(f.round, f.standing.tolist()) for f in batch.finished if f is not None]
        return seen, ends

    here, there = rounds(0), rounds(1)
    assert here == there and max(max(r) for r in here[0]) == 2
