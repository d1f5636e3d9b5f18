"""What the marks on the board say: order token faces (and what an observer may see of an
order), unit letters, the icons of a land area, the tracks' names.

Hidden information lives here: while ``state.orders_revealed`` is False an order is shown only
to its own house; other houses' orders read as :data:`HIDDEN_ORDER` ("?"), so a picture drawn for
one player never leaks what another planned. ``observer=None`` is the omniscient view.

The unit letters are the text board's (:data:`got_env.engine.render_text.UNIT_LETTER`), so the
picture, the text board and the terminal view write a unit the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..data import TRACKS, UNIT_TYPES
from ..engine.render_text import UNIT_LETTER

if TYPE_CHECKING:
    from ..data import Area, OrderToken, Ruleset
    from ..engine.state import GameState

TRACK_NAMES = dict(zip(TRACKS, ("Iron Throne", "Fiefdoms", "King's Court"), strict=True))
ORDER_LETTER = {"march": "M", "defense": "D", "support": "S", "raid": "R",
                "consolidate-power": "CP"}
HIDDEN_ORDER = "?"
CASTLE_ICON, BARREL_ICON, CROWN_ICON, STAR = "\u265c", "\u26c1", "\u265b", "\u2605"  # ♜ ⛁ ♛ ★


def token_face(token: OrderToken) -> str:
    """Short face of an order token: M-1 M0 M+1★ D+1 D+2★ S0 S+1★ R R★ CP CP★."""
    text = ORDER_LETTER.get(token.type, token.type[:2].upper())
    if token.bonus is not None:
        text += f"{token.bonus:+d}" if token.bonus else "0"
    return text + (STAR if token.special else "")


def order_faces(ruleset: Ruleset) -> tuple[str, ...]:
    """:func:`token_face` of every order token of the ruleset, by token index (kept on the
    ruleset: every order on every drawn board is looked up)."""
    return ruleset.derived("render.order_faces",
                           lambda rs: tuple(token_face(t) for t in rs.order_tokens))


def order_abbreviation(state: GameState, token: int) -> str:
    """Short face of order token ``token`` (an index into the ruleset's tokens)."""
    return order_faces(state.ruleset)[token]


def observer_index(state: GameState, observer: int | str | None) -> int | None:
    """Accept a house index or a house id (PettingZoo agent names) for the observer."""
    if observer is None:
        return None
    if isinstance(observer, str):
        return state.ruleset.house(observer)
    return int(observer)


def seen_face(faces: tuple[str, ...], token: int, revealed: bool, owner: int,
              observer: int | None) -> str | None:
    """The rule of :func:`visible_order` on plain values (so a whole board's orders can be read
    from the state once): the face, ``"?"`` for another house's order before the reveal, or
    None where there is no order (``token`` < 0)."""
    if token < 0:
        return None
    if observer is None or revealed or owner == observer:
        return faces[token]
    return HIDDEN_ORDER


def visible_order(state: GameState, area: int, owner: int, observer: int | None) -> str | None:
    """What the observer may see of the order in ``area``: its face, ``"?"``, or None (no order).

    Orders are placed face down (R6) and stay secret from other houses until the reveal; the
    owner is the house whose units the order commands, i.e. the area's holder.
    """
    return seen_face(order_faces(state.ruleset), int(state.orders[area]),
                     bool(state.orders_revealed), owner, observer)


def letters_of(counts: list[int], routed: list[int]) -> str:
    """Unit letters from one house's counts and routed counts per unit type (in UNIT_TYPES
    order), routed ones lowercase and first: F K S E, f k s e."""
    letters = []
    for u, (n, r) in enumerate(zip(counts, routed, strict=True)):
        letters += [UNIT_LETTER[UNIT_TYPES[u]].lower()] * r
        letters += [UNIT_LETTER[UNIT_TYPES[u]]] * (n - r)
    return "".join(letters)


def unit_letters(state: GameState, area: int, house: int) -> str:
    """A house's units in an area as letters, routed ones lowercase (as on the text board)."""
    return letters_of(state.units[area, house].tolist(), state.routed[area, house].tolist())


def icon_text(area: Area) -> str:
    """Castle or city (♜) / stronghold (♜♜), barrels (⛁) and crowns (♛) printed in a land
    area (one ♜ per mustering point: 1e's cities are its castles)."""
    forts = CASTLE_ICON * area.mustering_points
    parts = [forts, BARREL_ICON * area.barrels, CROWN_ICON * area.crowns]
    return " ".join(p for p in parts if p)
