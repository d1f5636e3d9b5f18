"""Game options: names, defaults and validation (one place, so every entry point agrees).

Options change the game, not its presentation. Unknown names and bad values raise
:class:`OptionError` naming the option and what is accepted. :func:`game_options` checks them
once into a frozen :class:`GameOptions`; defaults that depend on the ruleset (the player count,
the number of rounds, the tie-break chain) are read from its data here and nowhere else, so a
1st-edition caller that names no player count gets 5 players, not the 2nd edition's 6.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from ..data.loader import RULESETS, Ruleset, load_ruleset


class OptionError(ValueError):
    """An unknown game option, or a value it does not accept."""


DEFAULTS: dict[str, Any] = {
    # "2e" (2nd edition, 3-6 players) or "1e" (1st edition, 3-5 players; got_env/data/1e).
    "ruleset": "2e",
    # Number of rounds before the game ends, at most the ruleset's (its tracks.yaml ``rounds``;
    # R5.1: 10 in both editions). Fewer make short training games. None: the ruleset's rounds.
    "max_rounds": None,
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


@dataclasses.dataclass(frozen=True)
class GameOptions(Mapping[str, Any]):
    """Checked game options, every default filled in; frozen, so what was checked stays true.

    As a mapping it holds the game options only (the keys of :data:`DEFAULTS`), exactly the dict
    that game states and records have always stored; ``num_players`` is the table size, kept
    beside them because the env and the engine take it as its own argument.
    """

    ruleset: str
    num_players: int
    max_rounds: int
    tides_of_battle: bool
    lannister_port_ship_in_3p: bool
    tiebreak: str

    def __getitem__(self, key: str) -> Any:
        if key not in DEFAULTS:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(DEFAULTS)

    def __len__(self) -> int:
        return len(DEFAULTS)

    def as_dict(self) -> dict[str, Any]:
        """The game options as a plain dict (what :func:`validate_options` returns and states
        and records store), in :data:`DEFAULTS` order."""
        return {key: getattr(self, key) for key in DEFAULTS}


def _ruleset(options: Mapping[str, Any]) -> Ruleset:
    """The ruleset that ``options`` name (the default one if none), or OptionError."""
    name = options.get("ruleset", DEFAULTS["ruleset"])
    if name not in RULESETS:
        raise OptionError(f"ruleset must be one of {RULESETS}, got {name!r}")
    return load_ruleset(name)


def default_num_players(options: Mapping[str, Any] | None = None) -> int:
    """The player count when none is given: the largest the options' ruleset has (6 in 2e, 5 in
    1e). Every entry point (env, vector games, training, evaluation) defaults through here."""
    return max(_ruleset(options or {}).rules.player_counts)


def game_options(num_players: int | None = None,
                 options: Mapping[str, Any] | None = None) -> GameOptions:
    """Check ``options`` (game options only) for ``num_players`` players into a GameOptions.

    :param num_players: None: :func:`default_num_players` of the ruleset.
    :raises OptionError: an unknown option, or a value it does not accept (message names it).
    """
    options = dict(options or {})
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise OptionError(f"unknown option(s) {unknown}; known options: {sorted(DEFAULTS)}")
    full = {**DEFAULTS, **options}
    rs = _ruleset(full)
    counts = rs.rules.player_counts
    if num_players is None:
        num_players = max(counts)
    if isinstance(num_players, bool) or not isinstance(num_players, int) \
            or num_players not in counts:
        raise OptionError(f"num_players must be one of {counts} for ruleset "
                          f"{full['ruleset']!r}, got {num_players!r}")
    if full["max_rounds"] is None:
        full["max_rounds"] = rs.rounds
    rounds = full["max_rounds"]
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= rs.rounds:
        raise OptionError(f"max_rounds must be an integer from 1 to {rs.rounds} (the rounds of "
                          f"ruleset {full['ruleset']!r}), got {rounds!r}")
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
    return GameOptions(num_players=num_players, **full)


def validate_options(num_players: int | None, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return the full option dict (defaults filled in), or raise OptionError: the dict form of
    :func:`game_options`, which game states store."""
    return game_options(num_players, options).as_dict()
