"""Shared fixtures."""

import pytest

from got_env.data import load_ruleset


@pytest.fixture(scope="session")
def rs():
    """The packaged 2nd edition ruleset."""
    return load_ruleset("2e")
