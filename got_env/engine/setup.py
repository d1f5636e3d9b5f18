"""Build the exact starting position for 3-6 players (rules spec 4.1-4.3, facts sections 4-6)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..data import TRACKS, UNIT_TYPES, load_ruleset
from .options import game_options
from .state import NO_HOUSE, CardPlace, GameState, Phase


def new_game(num_players: int | None = None, seed: int | None = None,
             options: dict[str, Any] | None = None) -> GameState:
    """The starting position, not yet started: see :func:`got_env.engine.start_game`
    (``num_players`` None: the ruleset's largest player count)."""
    return _setup(num_players, seed, options)


def _setup(num_players: int | None, seed: int | None,
           options: dict[str, Any] | None) -> GameState:
    """A fresh game at the start of round 1's Planning phase (no Westeros phase in round 1).

    Setup steps of rules spec 4.1: the wildling deck and the three Westeros decks are shuffled
    with the state's own generator (seeded by ``seed``), the threat token starts at 2, neutral
    force tokens and impassable areas follow the player count (facts §5), influence tracks are the
    6-player order compressed toward position 1, each house in play gets its starting units, its
    garrison, its 7 house cards in hand, its supply level and 5 available power.

    :raises OptionError: unknown option or bad value (including ``num_players``).
    """
    checked = game_options(num_players, options)
    opts, num_players = checked.as_dict(), checked.num_players
    rs = load_ruleset(opts["ruleset"])
    setup = rs.setups[num_players]
    nA, nH, nU = rs.num_areas, rs.num_houses, len(UNIT_TYPES)
    rng = np.random.Generator(np.random.PCG64(seed))

    in_play = np.zeros(nH, dtype=bool)
    for h in setup.houses:
        in_play[rs.house(h)] = True

    units = np.zeros((nA, nH, nU), dtype=np.int8)
    removed = {} if opts["lannister_port_ship_in_3p"] else \
        setup.optional_removed_units.get("lannister_port_ship_in_3p", {})
    for h, placements in setup.starting_units.items():
        for a, counts in placements.items():
            for u, n in counts.items():
                n -= removed.get(h, {}).get(a, {}).get(u, 0)
                units[rs.area(a), rs.house(h), UNIT_TYPES.index(u)] += n

    garrisons = np.zeros(nA, dtype=np.int8)
    for h in setup.houses:
        garrisons[rs.area(rs.houses[rs.house(h)].home)] = rs.garrison_strength

    neutral = np.zeros(nA, dtype=np.int8)
    for a, s in setup.neutral_forces.items():
        neutral[rs.area(a)] = s
    impassable = np.zeros(nA, dtype=bool)
    for a in setup.impassable:
        impassable[rs.area(a)] = True

    tracks = np.full((len(TRACKS), nH), NO_HOUSE, dtype=np.int8)
    for t, track in enumerate(TRACKS):
        for pos, h in enumerate(setup.tracks[track]):
            tracks[t, pos] = rs.house(h)

    supply = np.zeros(nH, dtype=np.int8)
    power = np.zeros(nH, dtype=np.int8)
    for h in setup.houses:
        supply[rs.house(h)] = rs.starting_supply[h]
        power[rs.house(h)] = rs.starting_power

    card_place = np.array(
        [CardPlace.HAND if c.house in setup.houses else CardPlace.OUT_OF_GAME
         for c in rs.house_cards], dtype=np.int8)

    decks = np.stack([
        rng.permutation([c.index for c in rs.westeros_deck(d)]).astype(np.int8)
        for d in ("I", "II", "III")
    ])
    wildlings = rng.permutation(len(rs.wildling_cards)).astype(np.int8)

    return GameState(
        ruleset=rs,
        num_players=num_players,
        options=opts,
        rng=rng,
        units=units,
        routed=np.zeros_like(units),
        orders=np.full(nA, -1, dtype=np.int8),
        power_tokens=np.full(nA, NO_HOUSE, dtype=np.int8),
        power=power,
        garrisons=garrisons,
        neutral_forces=neutral,
        impassable=impassable,
        tracks=tracks,
        supply=supply,
        in_play=in_play,
        card_place=card_place,
        westeros_decks=decks,
        westeros_drawn=np.zeros(3, dtype=np.int8),
        wildling_deck=wildlings,
        order_bans=np.zeros(6, dtype=bool),
        wildling_known_top=np.full(nH, -1, dtype=np.int8),
        wildling_threat=rs.wildling_threat["start"],
        round=1,
        phase=Phase.PLANNING,
    )
