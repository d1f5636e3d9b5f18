"""Load and validate one War of the Ring ruleset: its rule properties, board and cards.

``load_ruleset("2e")`` reads ``data/2e/*.yaml`` (``"1e"``: ``data/1e/``, with the 2nd edition
standing in for every file whose 1st-edition text is unknown, :mod:`.source`), checks every
entry, and returns a frozen :class:`Ruleset`. It is cached per ruleset: the engine, the env and
every test share one copy, and a state refers to it instead of carrying it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from .board import Board, load_board
from .cards import Cards, load_cards
from .rules import Rules, parse_rules
from .source import Source


@dataclass(frozen=True)
class Ruleset:
    """Everything the engine needs to know of an edition, read from its data files."""

    name: str
    rules: Rules
    board: Board
    cards: Cards
    # data file -> (the ruleset whose file stands in for it, why)
    stand_ins: tuple[tuple[str, str, str], ...]


def load_ruleset(ruleset: str = "2e", root: Path | str | None = None) -> Ruleset:
    """The ruleset's data, validated (:class:`DataError` names a bad file and entry).

    ``root`` is a folder holding ``2e/`` and ``1e/`` (default: the package's data); with the
    default root the result is cached.
    """
    if root is None:
        return _load_cached(ruleset)
    return _load(Source(ruleset, root))


@functools.cache
def _load_cached(ruleset: str) -> Ruleset:
    return _load(Source(ruleset))


def _load(source: Source) -> Ruleset:
    rules = parse_rules(source.doc("rules.yaml"))
    board = load_board(source)
    cards = load_cards(source)
    stand_ins = tuple((f, other, why) for f, (other, why) in sorted(source.stand_ins.items()))
    return Ruleset(source.ruleset, rules, board, cards, stand_ins)
