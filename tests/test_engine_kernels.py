"""The engine's typed kernels (``got_env/engine/_kernels.pyx``) against their pure-Python
references: army sizes, units in use, the control scan and the supply check give exactly what
the reference code gives, on random boards (ties of two houses in one area included) and in
whole random games; an array they do not expect is left to the reference (None)."""

from __future__ import annotations

import numpy as np
import pytest

from got_env import _compiled, engine
from got_env.engine import board, state

kernels = _compiled.engine_kernels()
needs_kernels = pytest.mark.skipif(
    kernels is None, reason="got_env.engine._kernels not built (no C compiler at install, or "
    "GOT_ENV_PURE_PYTHON set): reinstall with `pip install -e .` to test it")


def random_units(rng: np.random.Generator, areas: int = 58, houses: int = 6) -> np.ndarray:
    """A board where most areas are empty, some hold one house and a few two or three."""
    units = np.zeros((areas, houses, 4), dtype=np.int8)
    for a in range(areas):
        for h in rng.choice(houses, size=rng.choice([0, 0, 1, 1, 2, 3]), replace=False):
            units[a, h] = rng.integers(0, 3, size=4)
    return units


@needs_kernels
def test_army_sizes_and_used_units_are_numpys_sums() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        units = random_units(rng)
        for h in range(units.shape[1]):
            assert kernels.army_sizes(units, h) == units[:, h, :].sum(axis=1).tolist()
            assert kernels.used_units(units, h) == units[:, h, :].sum(axis=0).tolist()
    with pytest.raises(IndexError, match="house 6 outside 0..5"):
        kernels.army_sizes(units, 6)
    with pytest.raises(IndexError, match="house -1 outside 0..5"):
        kernels.used_units(units, -1)


@needs_kernels
@pytest.mark.parametrize("odd", ["int16", "not contiguous", "two axes", "bool"])
def test_an_array_the_kernels_do_not_expect_is_left_to_the_reference(odd: str) -> None:
    units = random_units(np.random.default_rng(1))
    units = {"int16": units.astype(np.int16),
             "not contiguous": np.asfortranarray(units),
             "two axes": units.reshape(58, 24),
             "bool": units.astype(bool)}[odd]
    assert kernels.army_sizes(units, 0) is None
    assert kernels.used_units(units, 0) is None
    assert kernels.occupants(units, [-1] * 58) is None


@needs_kernels
def test_the_control_scan_is_the_reference_scan_ties_included() -> None:
    """Who occupies each area and the control it gives, as ``GameState._occupants_scan``:
    one house with any unit; of several (never at rest) the largest army, the first on a tie."""
    s = engine.start_game(6, seed=3)
    rng = np.random.default_rng(2)
    tied = 0
    for _ in range(60):
        s.units[...] = random_units(rng)
        fallback = rng.integers(-1, 6, size=s.units.shape[0]).tolist()
        got = kernels.occupants(s.units, fallback)
        assert got == s._occupants_scan(fallback)
        counts = s.units.sum(axis=2)
        tied += sum(1 for row in counts if (row > 0).sum() > 1 and (row == row.max()).sum() > 1)
    assert tied > 0  # the random boards did hold ties of two armies in one area
    with pytest.raises(ValueError, match="fallback: expected 58 areas"):
        kernels.occupants(s.units, [-1] * 57)


@needs_kernels
def test_the_supply_check_is_the_reference_check() -> None:
    rng = np.random.default_rng(3)
    outcomes = set()
    for _ in range(3000):
        sizes = rng.choice([0, 0, 0, 1, 2, 3, 4, 5], size=rng.integers(1, 40)).tolist()
        limits = tuple(sorted(rng.integers(2, 5, size=rng.integers(1, 6)).tolist(),
                              reverse=True))
        expected = board._fits_limits(sizes, limits)
        assert kernels.fits_limits(sizes, limits) is expected
        assert kernels.fits_limits(tuple(sizes), limits) is expected  # any sequence, as sorted()
        outcomes.add(expected)
    assert outcomes == {True, False}
    with pytest.raises(ValueError, match="at most 64 armies"):
        kernels.fits_limits([2, 2], (4,) * 65)


def test_the_kernels_are_off_in_pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOT_ENV_PURE_PYTHON", "1")
    assert _compiled.engine_kernels() is None


@needs_kernels
@pytest.mark.parametrize("num_players,options", [(6, {}), (4, {"tides_of_battle": True}),
                                                 (3, {"ruleset": "1e"})])
def test_games_are_the_same_with_the_kernels_and_without(
        num_players: int, options: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seed and random choices give the same options at every decision and the same
    state digests with the kernels and with the reference code."""
    def play(seed: int) -> list[str]:
        s = engine.start_game(num_players, seed=seed, options=dict(options))
        rng = np.random.default_rng(seed)
        trace = []
        for k in range(1500):
            d = engine.pending(s)
            if d is None:
                break
            trace.append(repr(d.options))
            engine.apply(s, d.options[int(rng.integers(len(d.options)))])
            if k % 25 == 0:
                trace.append(s.digest())
        return trace + [s.digest()]

    assert board._KERNELS is not None and state._KERNELS is not None
    with_kernels = play(11)
    monkeypatch.setattr(board, "_KERNELS", None)
    monkeypatch.setattr(state, "_KERNELS", None)
    assert play(11) == with_kernels
