"""The tables of each game's action space and observation in its docs, generated from the kit's
codec and layout (``SegmentCodec.describe``, ``Layout.describe``): each sits between
``<!-- table: KEY -->`` and ``<!-- end table -->``; tests/test_docs_tables.py checks that every
one is what its codec or layout describes. Rewrite them after a change of either:
``python -m tests.docs_tables``."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _got(ruleset: str, what: str) -> str:
    from got_env.data import load_ruleset
    from got_env.encoding import codec_for, layout

    rs = load_ruleset(ruleset)
    return codec_for(rs).describe() if what == "actions" else layout(rs).describe()


def _wotr(what: str) -> str:
    from wotr_env.data import load_ruleset
    from wotr_env.encoding import codec_for
    from wotr_env.encoding.observation import layout

    return codec_for("2e").describe() if what == "actions" else \
        layout(load_ruleset("2e")).describe()


#: (page, key) -> the table
TABLES: dict[tuple[str, str], Callable[[], str]] = {
    ("env.md", "got 2e actions"): lambda: _got("2e", "actions"),
    ("env.md", "got 2e observation"): lambda: _got("2e", "observation"),
    ("env.md", "got 1e actions"): lambda: _got("1e", "actions"),
    ("env.md", "got 1e observation"): lambda: _got("1e", "observation"),
    ("wotr.md", "wotr actions"): lambda: _wotr("actions"),
    ("wotr.md", "wotr observation"): lambda: _wotr("observation"),
}


def pattern(key: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- table: {re.escape(key)} -->\n)(.*?)(<!-- end table -->)", re.S)


def written(page: str, key: str) -> str | None:
    """The table the page holds under ``key``, or None."""
    found = pattern(key).search((DOCS / page).read_text())
    return None if found is None else found.group(2)


def _escaped(table: str) -> str:
    """``table`` as a literal in ``re.sub``'s replacement."""
    return table.replace("\\", "\\\\")


def write() -> None:
    for (page, key), describe in TABLES.items():
        path = DOCS / page
        text, n = pattern(key).subn(rf"\g<1>{_escaped(describe())}\g<3>", path.read_text())
        if n != 1:
            raise SystemExit(f"{page}: no <!-- table: {key} --> ... <!-- end table -->")
        path.write_text(text)


if __name__ == "__main__":
    write()
