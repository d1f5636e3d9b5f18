"""Shared fixtures."""

import pytest
from combat_helpers import record_combat_ends

from got_env.data import load_ruleset


@pytest.fixture(scope="session")
def rs():
    """The packaged 2nd edition ruleset."""
    return load_ruleset("2e")


@pytest.fixture
def ended(monkeypatch):
    """Copies of the state taken as each combat ends (see combat_helpers.record_combat_ends)."""
    return record_combat_ends(monkeypatch)
