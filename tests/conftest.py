"""Shared fixtures; and the whole suite runs its heuristic agents strict: a failed rule of theirs
raises instead of playing a fallback (got_env/agents/heuristic/strict.py). An environment variable,
set at import, so that the worker processes of tournaments and batched games inherit it."""

import os

import pytest
from combat_helpers import record_combat_ends

from got_env.data import load_ruleset

os.environ.setdefault("GOT_ENV_STRICT_AGENTS", "1")


@pytest.fixture(scope="session")
def rs():
    """The packaged 2nd edition ruleset."""
    return load_ruleset("2e")


@pytest.fixture
def ended(monkeypatch):
    """Copies of the state taken as each combat ends (see combat_helpers.record_combat_ends)."""
    return record_combat_ends(monkeypatch)
