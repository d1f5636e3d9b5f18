"""Game options: names, defaults and validation (one place, so every entry point agrees).

Options change the game, not its presentation. Unknown names and bad values raise
:class:`OptionError` naming the option and what is accepted.
"""

from __future__ import annotations

from typing import Any

from ..data.loader import RULESETS, load_ruleset


class OptionError(ValueError):
    """An unknown game option, or a value it does not accept."""


DEFAULTS: dict[str, Any] = {
    # "2e" (2nd edition, 3-6 players) or "1e" (1st edition, 3-5 players; got_env/data/1e).
    "ruleset": "2e",
    # Number of rounds before the game ends (R5.1: 10). Fewer make short training games.
    "max_rounds": 10,
    # Optional rule: Tides of Battle cards in every combat (rules spec §24; 2e only).
    "tides_of_battle": False,
    # Facts §12 D2: S&R removes Lannister's Port of Lannisport ship in 3-player games. Our
    # default follows the errata, which keeps it; False applies S&R's setup (2e only: the 1st
    # edition has no ports).
    "lannister_port_ship_in_3p": True,
    # End-of-game tie-breaks after the victory track (R22.3): "errata" (land areas, supply, Iron
    # Throne; FFG errata v2.0, facts §12 D6) or "rulebook" (strongholds, supply, power, Iron
    # Throne); the 1st edition has one chain, "first-edition" (supply, power, then a draw). None:
    # the ruleset's default (its rules.yaml ``tiebreaks``, first entry).
    "tiebreak": None,
}

# Options that only some rulesets have: option -> the rule that must be true for it to apply.
# Elsewhere only the default value is accepted (so a record's full option dict still loads).
RULESET_OPTIONS = {"tides_of_battle": "tides_of_battle", "lannister_port_ship_in_3p": "ports"}


def validate_options(num_players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Return the full option dict (defaults filled in), or raise OptionError."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise OptionError(f"unknown option(s) {unknown}; known options: {sorted(DEFAULTS)}")
    full = {**DEFAULTS, **options}
    if full["ruleset"] not in RULESETS:
        raise OptionError(f"ruleset must be one of {RULESETS}, got {full['ruleset']!r}")
    rs = load_ruleset(full["ruleset"])
    counts = rs.rules.player_counts
    if isinstance(num_players, bool) or not isinstance(num_players, int) \
            or num_players not in counts:
        raise OptionError(f"num_players must be one of {counts} for ruleset "
                          f"{full['ruleset']!r}, got {num_players!r}")
    rounds = full["max_rounds"]
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 10:
        raise OptionError(f"max_rounds must be an integer from 1 to 10, got {rounds!r}")
    for flag in ("tides_of_battle", "lannister_port_ship_in_3p"):
        if not isinstance(full[flag], bool):
            raise OptionError(f"{flag} must be True or False, got {full[flag]!r}")
    has = {"tides_of_battle": rs.rules.tides_of_battle,
           "ports": bool((rs.kind == 2).any())}
    for option, rule in RULESET_OPTIONS.items():
        if not has[rule] and full[option] != DEFAULTS[option]:
            raise OptionError(f"option {option} does not apply to ruleset {full['ruleset']!r} "
                              f"(it has no {rule.replace('_', ' ')})")
    chains = rs.rules.tiebreaks
    if full["tiebreak"] is None:
        full["tiebreak"] = chains[0]
    if full["tiebreak"] not in chains:
        raise OptionError(f"tiebreak must be one of {list(chains)} for ruleset "
                          f"{full['ruleset']!r}, got {full['tiebreak']!r}")
    return full
