"""The docs' tables of each game's action space and observation are what the kit's codec and
layout describe (tests/docs_tables.py writes them)."""

from __future__ import annotations

import pytest

from tests.docs_tables import TABLES, written


@pytest.mark.parametrize("page,key", list(TABLES), ids=lambda v: v)
def test_the_docs_table_is_the_described_one(page, key):
    assert written(page, key) == TABLES[page, key](), \
        f"docs/{page}'s table {key!r} is stale: python -m tests.docs_tables rewrites it"


def test_both_editions_of_war_of_the_ring_share_their_tables():
    """docs/wotr.md shows one table each: the editions' spaces are the same."""
    from wotr_env.data import load_ruleset
    from wotr_env.encoding import codec_for
    from wotr_env.encoding.observation import layout

    assert codec_for("1e").describe() == codec_for("2e").describe()
    assert layout(load_ruleset("1e")).describe() == layout(load_ruleset("2e")).describe()
