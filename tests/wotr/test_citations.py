"""Which rules sections the scenario tests cite (issue 27, item 2): at least 95% of the
subsections of spec §5-§13 and facts §7.1-§7.12, each uncited one named with its reason.

The sections are the headings of ``../shared/rules/war-of-the-ring.md`` (a section without
subsections counts as one) and ``../shared/facts/war-of-the-ring.md`` §7; a test cites one by
writing ``spec §12.6`` or ``facts §7.8`` (a range such as ``§12.6-§12.8`` cites each).
"""

from __future__ import annotations

import re
from pathlib import Path

SPEC = ["5", "6.1", "6.2", "6.3", "6.4", "6.5", "6.6", "7.1", "7.2", "7.3", "7.4", "7.5",
        "7.6", "8", "9", "10.1", "10.2", "10.3", "11.1", "11.2", "12.1", "12.2", "12.3", "12.4",
        "12.5", "12.6", "12.7", "12.8", "13.1", "13.2"]
FACTS = [f"7.{i}" for i in range(1, 13)]
# Sections no scenario test can cite, and why.
NOT_TESTABLE = {
    ("spec", "7.4"): "card anatomy (where texts sit on a card): nothing for an engine to do",
}
TESTS = Path(__file__).parent
CITE = re.compile(r"(spec|facts)\s*§(\d+(?:\.\d+)?)(?:\s*[-–]\s*§?(\d+(?:\.\d+)?))?")


def cited() -> set[tuple[str, str]]:
    """(source, section) pairs cited anywhere in tests/wotr, ranges expanded, and each
    subsection's parent counted for a section without subsections."""
    out: set[tuple[str, str]] = set()
    for path in TESTS.glob("test_*.py"):
        if path.name == Path(__file__).name:
            continue
        for source, first, last in CITE.findall(path.read_text(encoding="utf-8")):
            out.add((source, first))
            if last and "." in first and "." in last and first.split(".")[0] == last.split(".")[0]:
                major = first.split(".")[0]
                for minor in range(int(first.split(".")[1]), int(last.split(".")[1]) + 1):
                    out.add((source, f"{major}.{minor}"))
    for source, section in list(out):  # "spec §5.4" cites §5, a section without subsections
        major = section.split(".")[0]
        if major in (SPEC if source == "spec" else FACTS):
            out.add((source, major))
    return out


def test_the_scenario_tests_cite_95_percent_of_the_rules_sections() -> None:
    want = [("spec", s) for s in SPEC] + [("facts", s) for s in FACTS]
    have = cited()
    missing = [w for w in want if w not in have and w not in NOT_TESTABLE]
    share = (len(want) - len(missing) - len(NOT_TESTABLE)) / len(want)
    print(f"cited: {len(want) - len(missing) - len(NOT_TESTABLE)} of {len(want)} "
          f"({share:.1%}); not testable: {NOT_TESTABLE}; uncited: {missing}")
    assert share >= 0.95, f"uncited sections: {missing}"
    assert not missing, f"uncited sections: {missing}"
