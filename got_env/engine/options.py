"""Game options: names, defaults and validation (one place, so every entry point agrees).

Options change the game, not its presentation. Unknown names and bad values raise
:class:`OptionError` naming the option and what is accepted.
"""

from __future__ import annotations

from typing import Any

from ..data.loader import PLAYER_COUNTS, RULESETS


class OptionError(ValueError):
    """An unknown game option, or a value it does not accept."""


DEFAULTS: dict[str, Any] = {
    "ruleset": "2e",
    # Number of rounds before the game ends (R5.1: 10). Fewer make short training games.
    "max_rounds": 10,
    # Optional rule: Tides of Battle cards in every combat (rules spec §24).
    "tides_of_battle": False,
    # Facts §12 D2: S&R removes Lannister's Port of Lannisport ship in 3-player games. Our
    # default follows the errata, which keeps it; False applies S&R's setup.
    "lannister_port_ship_in_3p": True,
    # End-of-game tie-breaks after the victory track (R22.3): "errata" (land areas, supply, Iron
    # Throne; FFG errata v2.0, facts §12 D6) or "rulebook" (strongholds, supply, power, Iron
    # Throne).
    "tiebreak": "errata",
}


def validate_options(num_players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Return the full option dict (defaults filled in), or raise OptionError."""
    if isinstance(num_players, bool) or not isinstance(num_players, int) \
            or num_players not in PLAYER_COUNTS:
        raise OptionError(f"num_players must be one of {PLAYER_COUNTS}, got {num_players!r}")
    options = dict(options or {})
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise OptionError(f"unknown option(s) {unknown}; known options: {sorted(DEFAULTS)}")
    full = {**DEFAULTS, **options}
    if full["ruleset"] not in RULESETS:
        raise OptionError(f"ruleset must be one of {RULESETS}, got {full['ruleset']!r}")
    rounds = full["max_rounds"]
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 10:
        raise OptionError(f"max_rounds must be an integer from 1 to 10, got {rounds!r}")
    for flag in ("tides_of_battle", "lannister_port_ship_in_3p"):
        if not isinstance(full[flag], bool):
            raise OptionError(f"{flag} must be True or False, got {full[flag]!r}")
    if full["tiebreak"] not in ("errata", "rulebook"):
        raise OptionError(f"tiebreak must be 'errata' or 'rulebook', got {full['tiebreak']!r}")
    return full
