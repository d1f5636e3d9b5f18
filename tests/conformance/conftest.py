"""Every case of the suite: one per registered game and conformance variant (its plugin's
``variants``), so that a game gets the whole suite by registering."""

from __future__ import annotations

import pytest

from boardkit import games


def cases() -> list[tuple[str, str]]:
    return [(p.name, variant) for p in games.plugins() for variant in p.variants]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" in metafunc.fixturenames:
        metafunc.parametrize("case", cases(), ids=[f"{g}-{v}" for g, v in cases()])
