"""One ruleset's data files, with the 2nd edition standing in where a 1st-edition file is unknown.

A file of ``data/1e/`` either holds its own data or says, in full, ``stand_in: 2e`` with a
``reason:`` (and a header comment naming what is unknown): the loader then reads the 2nd
edition's file of the same name and records the stand-in, so that ``python -m wotr_env.data``
and docs/wotr-rules-readings.md can name every one. A stand-in is never copied data: the 1st
edition's known differences are named rule properties (``rules.yaml``), not edited copies.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardkit.datafiles import DataError, read_yaml

from .model import DATA_ROOT, RULESETS


class Source:
    """The files of ``ruleset`` under ``root`` (``root/<ruleset>/<file>.yaml``)."""

    def __init__(self, ruleset: str = "2e", root: Path | str | None = None):
        if ruleset not in RULESETS:
            raise DataError(f"unknown ruleset {ruleset!r}; known: {', '.join(RULESETS)}")
        self.ruleset = ruleset
        self.root = Path(root) if root is not None else DATA_ROOT
        # file name -> (the ruleset whose file was read instead, the reason given)
        self.stand_ins: dict[str, tuple[str, str]] = {}

    def doc(self, name: str) -> dict[str, Any]:
        """The mapping in ``name``; a ``stand_in`` file is replaced by the named ruleset's."""
        doc = read_yaml(self.root / self.ruleset, name)
        if "stand_in" not in doc:
            return doc
        other, reason = doc.get("stand_in"), doc.get("reason")
        if set(doc) != {"stand_in", "reason"}:
            raise DataError(f"{self.ruleset}/{name}: a stand-in file holds only stand_in and "
                            f"reason, found {sorted(doc)}")
        if other not in RULESETS or other == self.ruleset:
            raise DataError(f"{self.ruleset}/{name}: stand_in must name another ruleset "
                            f"({', '.join(r for r in RULESETS if r != self.ruleset)}), got "
                            f"{other!r}")
        if not isinstance(reason, str) or not reason.strip():
            raise DataError(f"{self.ruleset}/{name}: a stand-in needs a reason (what is unknown)")
        stood = read_yaml(self.root / other, name)
        if "stand_in" in stood:
            raise DataError(f"{other}/{name}: stands in for {self.ruleset}/{name} and is itself a "
                            f"stand-in")
        self.stand_ins[name] = (other, reason.strip())
        return stood
