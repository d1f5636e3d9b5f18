"""Reading and checking a game's YAML data files: what every game's data loader shares.

A game keeps its facts (board, cards, setups) in plain YAML files and reads them through one
loader of its own; the loader checks everything on load so that a typo in the data fails at once,
with a :class:`DataError` naming the file and the entry, instead of surfacing later as a wrong
rule. The YAML is read with the safe loader only: a data file cannot carry code.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import yaml


class DataError(ValueError):
    """A game-data file is missing, malformed or inconsistent; the message names the entry."""


class Checker:
    """Small helpers that raise :class:`DataError` with the file and the entry named."""

    def __init__(self, file: str):
        self.file = file

    def fail(self, entry: str, problem: str) -> None:
        raise DataError(f"{self.file}: {entry}: {problem}")

    def require(self, ok: bool, entry: str, problem: str) -> None:
        if not ok:
            self.fail(entry, problem)

    def field(self, record: Any, key: str, entry: str, types: type | tuple[type, ...]) -> Any:
        """``record[key]``, checked to be present and of ``types`` (a bool is not an int)."""
        if not isinstance(record, dict):
            self.fail(entry, f"expected a mapping, got {type(record).__name__}")
        if key not in record:
            self.fail(entry, f"missing field {key!r}")
        value = record[key]
        if not isinstance(value, types) or (isinstance(value, bool) and types is int):
            self.fail(entry, f"field {key!r} has the wrong type ({value!r})")
        return value

    def one_of(self, value: Any, allowed: Any, entry: str, what: str) -> None:
        """``value`` is one of ``allowed`` (a vocabulary), else a DataError listing them."""
        if value not in allowed:
            self.fail(entry, f"unknown {what} {value!r} (known: {', '.join(map(str, allowed))})")

    def unique(self, ids: list[str], what: str) -> None:
        for i, n in Counter(ids).items():
            if n > 1:
                self.fail(f"{what} {i!r}", "duplicate id")


def read_yaml(directory: Path, name: str) -> dict[str, Any]:
    """The mapping in ``directory/name``; any failure to read or parse it is a DataError."""
    path = directory / name
    try:
        with path.open(encoding="utf-8") as f:
            doc = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except FileNotFoundError:
        raise DataError(f"{name}: file not found in {directory}") from None
    except UnicodeDecodeError as e:
        raise DataError(f"{name}: not UTF-8 text (offset {e.start} in {directory}); save the "
                        f"file as UTF-8") from None
    except OSError as e:
        raise DataError(f"{name}: cannot read it in {directory}: {e.strerror or e}") from None
    except yaml.YAMLError as e:
        raise DataError(f"{name}: not valid YAML: {e}") from None
    if not isinstance(doc, dict):
        raise DataError(f"{name}: expected a mapping at top level")
    return doc
