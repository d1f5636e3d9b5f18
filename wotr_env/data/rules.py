"""The rule properties of a ruleset (``rules.yaml``): every edition difference as a named value.

One engine plays both editions; where they differ it reads a property here (``rules.mordor_entry
== "declared"``), never the edition's number, so that a difference is data that a test can flip
in either edition, and a variant is a new ``rules.yaml``, not a branch in the code.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from boardkit.datafiles import Checker

# property -> the values it may take (a tuple of choices, or a type)
CHOICES: dict[str, tuple[Any, ...] | type] = {
    "edition": (1, 2),
    "hunt_minimum_allocation": bool,
    "mordor_entry": ("present", "declared"),
    "combat_card_order": ("initiative", "defender_first"),
    "skip_die": bool,
    "elven_rings_per_turn": ("per_side", "shared"),
    "shadow_ring_changes_eye": bool,
    "gandalf_guide_draw": ("same_type", "character_only"),
    "companion_enemy_stronghold": ("stop", "forbidden"),
    "shadow_victory_points": int,
    "free_peoples_victory_points": int,
}


@dataclass(frozen=True)
class Rules:
    """The named rule properties; their meaning is in ``data/2e/rules.yaml``'s comments."""

    edition: int
    hunt_minimum_allocation: bool
    mordor_entry: str
    combat_card_order: str
    skip_die: bool
    elven_rings_per_turn: str
    shadow_ring_changes_eye: bool
    gandalf_guide_draw: str
    companion_enemy_stronghold: str
    shadow_victory_points: int
    free_peoples_victory_points: int

    def replace(self, **changes: Any) -> Rules:
        """These rules with some properties changed, each checked as the file's would be."""
        return parse_rules({**self.to_json(), **changes}, "rules (replace)")

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def parse_rules(doc: dict[str, Any], file: str = "rules.yaml") -> Rules:
    """Check that ``doc`` names every property once, each with an allowed value."""
    c = Checker(file)
    for key in doc:
        c.require(key in CHOICES, f"property {key!r}",
                  f"unknown rule property (known: {', '.join(CHOICES)})")
    values: dict[str, Any] = {}
    for key, allowed in CHOICES.items():
        if isinstance(allowed, type):
            value = c.field(doc, key, f"property {key!r}", allowed)
            c.require(allowed is not int or value > 0, f"property {key!r}",
                      f"must be positive, got {value!r}")
        else:
            value = doc.get(key) if key in doc else c.field(doc, key, f"property {key!r}", object)
            c.require(value in allowed and type(value) is type(allowed[0]), f"property {key!r}",
                      f"must be one of {', '.join(map(repr, allowed))}, got {value!r}")
        values[key] = value
    return Rules(**values)
