"""Victory: seven castles at once (R5.3, R22.1-R22.2; 1e spec 12: eight at 3 players) and the
ranking after the last round (R22.3-R22.4, with the errata's tie-break chain by default, facts §12
D6; the 1st edition's chain ends in a draw, 1e spec 12)."""

from __future__ import annotations

import numpy as np

from .state import IRON_THRONE, LAND, GameState, Outcome, Phase

# Tie-break chains after the victory track (R22.3). "errata" is FFG Errata v2.0 (S&R does the
# same); "rulebook" is the printed list. Chosen with the option `tiebreak`.
# "first-edition" (1e spec 12, reading C.9): supply, then available power; houses still equal
# share the game (a draw, Outcome.draw); the Iron Throne order only lists them.
TIEBREAKS = {
    "errata": ("land_areas", "supply", "iron_throne"),
    "rulebook": ("strongholds", "supply", "power", "iron_throne"),
    "first-edition": ("supply", "power"),
}


def _keys(state: GameState, house: int, chain: tuple[str, ...]) -> tuple:
    ctrl = state.control()
    rs = state.ruleset
    value = {
        "land_areas": lambda: int(((ctrl == house) & (rs.kind == LAND)).sum()),
        "strongholds": lambda: int(((ctrl == house) & (rs.fort_level == 2)).sum()),
        "supply": lambda: int(state.supply[house]),
        "power": lambda: int(state.power[house]),
        "iron_throne": lambda: -state.track_position(IRON_THRONE, house),
    }
    return (int(state.victory_points()[house]),) + tuple(value[k]() for k in chain)


def _chain(state: GameState) -> tuple[str, ...]:
    return TIEBREAKS[state.options.get("tiebreak") or state.ruleset.rules.tiebreaks[0]]


def ranking(state: GameState) -> tuple[int, ...]:
    """Houses in play, best first: victory points, then the configured tie-break chain (the Iron
    Throne holder does not decide, R22.4). The 2e chains end on Iron Throne order, so they are
    total; after the 1st edition's, houses still equal stand in Iron Throne order (a draw)."""
    chain = _chain(state)
    houses = state.turn_order()
    return tuple(sorted(houses, key=lambda h: _keys(state, h, chain), reverse=True))


def drawn_first(state: GameState, order: tuple[int, ...]) -> tuple[int, ...]:
    """The houses sharing first place when the tie-breaks leave them equal (1e spec 12: "the game
    is a draw"); empty when one house is first, which the 2e chains always give."""
    chain = _chain(state)
    best = _keys(state, order[0], chain)
    tied = tuple(h for h in order if _keys(state, h, chain) == best)
    return tied if len(tied) > 1 else ()


def castles_to_win(state: GameState) -> int:
    """Castles (1e: cities) and strongholds held at once to win (R5.3; 1e spec 12: 8 at 3p)."""
    return state.ruleset.setups[state.num_players].castles_to_win


def end_game(state: GameState, reason: str, winner: int | None = None) -> None:
    order = ranking(state)
    draw: tuple[int, ...] = ()
    if winner is not None:
        order = (winner,) + tuple(h for h in order if h != winner)
    else:
        draw = drawn_first(state, order)
    state.outcome = Outcome(reason=reason, winner=order[0], ranking=order, draw=draw)
    state.phase = Phase.ENDED
    state.pending = None


def check_immediate_victory(state: GameState) -> bool:
    """End the game if a house controls 7 castles/strongholds now (R5.3, R22.2). If several
    reached it at once (only possible through simultaneous effects), the ranking decides.

    Asked after every step of the engine, so the common case is short: when no unit and no
    power token has moved since the last check (which found no winner), control cannot have
    changed, and neither can the answer."""
    units, tokens = state.units.tobytes(), state.power_tokens.tobytes()
    last = state.__dict__.get("_victory_checked")
    if last is not None and last[0] == units and last[1] == tokens:
        return False
    state.__dict__["_victory_checked"] = (units, tokens)
    target = castles_to_win(state)
    if state.most_victory_points() < target:
        return False
    vp = state.victory_points()
    winners = np.flatnonzero(vp >= target)
    best = [h for h in ranking(state) if h in set(winners.tolist())][0]
    end_game(state, "seven-castles", winner=best)
    return True
