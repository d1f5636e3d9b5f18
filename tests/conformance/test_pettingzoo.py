"""PettingZoo's own tests on every game's env (the plugin's ``make_env`` with each variant's
options): ``api_test``, ``seed_test``, ``state_test`` (the env's ``state()`` and the kit's
parallel view, :class:`boardkit.parallel.KitParallelEnv`), ``parallel_api_test`` and
``render_test``. Short cycles by default; the long runs are ``slow``."""

from __future__ import annotations

from typing import Any

import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test, state_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from boardkit import games
from boardkit.parallel import KitParallelEnv

from .play import options_of


def make(case: tuple[str, str], **extra: Any) -> Any:
    name, variant = case
    return games.plugin(name).make_env(**options_of(name, variant), **extra)


def test_api(case):
    api_test(OrderEnforcingWrapper(make(case)), num_cycles=40)


@pytest.mark.slow
def test_api_long(case):
    api_test(OrderEnforcingWrapper(make(case)), num_cycles=1000)


def test_seed(case):
    seed_test(lambda: OrderEnforcingWrapper(make(case)), num_cycles=20)


def test_state_and_parallel(case):
    env = make(case)
    if not callable(getattr(env, "state", None)):
        pytest.skip(f"{case[0]}'s env has no state()")
    state_test(env, KitParallelEnv(make(case)), num_cycles=10)
    parallel_api_test(KitParallelEnv(make(case)), num_cycles=20)


def test_render(case):
    render_test(lambda render_mode=None: OrderEnforcingWrapper(make(case, render_mode=render_mode)))
