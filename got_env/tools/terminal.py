"""A Game of Thrones in the terminal (its plugin's ``terminal_view``, read by experiments.human):
the board as one house sees it, drawn with rich, nothing it could not see at the table; and
:class:`View`, what the game-neutral session asks of AGoT (its env from the command line, the
public log of :mod:`.terminal_log`, the decision's header, the end of the game).

Public facts come from the game state's public arrays (units, routed units, power tokens,
garrisons, neutral forces, tracks, supply, power, house cards in hand and discarded, which are
public in this game). Orders come from the house's **observation** (``order`` piece), which holds
another house's orders only once the game has revealed them, not even where its face-down tokens
lie; so the text cannot show an order the house has not seen. The wildling card on top appears
only when the observation says the house saw it (Messenger Raven). Of a combat in progress only
the public parts are shown (``got_env.render.log.combat_view``): the sides, their units and
strength, the support declared, and the other house's card and Tides card once revealed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from got_env.data import ORDER_TYPES, TRACKS
from got_env.env import raw_env
from got_env.render import vocabulary
from got_env.render.log import combat_view, outcome_text

from .terminal_log import PublicLog

if TYPE_CHECKING:
    from got_env.env import raw_env

HOUSE_STYLE = {"stark": "bold white", "lannister": "bold red", "baratheon": "bold yellow",
               "greyjoy": "bold bright_black", "tyrell": "bold green", "martell": "bold magenta"}
LEGEND = ("units: F footman, K knight, S ship, E siege engine (lowercase: routed); S* stronghold, "
          "C castle (1e: city); b barrel, c crown; cards name:strength; orders: yours, every "
          "house's once revealed")


def house_text(house_id: str) -> Text:
    return Text(house_id, style=HOUSE_STYLE.get(house_id, "bold"))


def seen_orders(env: raw_env, house: str) -> dict[int, int]:
    """area -> order token index, as far as ``house``'s observation shows them."""
    views = env.encoder.views(env.observe(house)["observation"])
    grid = views["order"]
    return {int(a): int(np.argmax(grid[a])) for a in np.flatnonzero(grid.any(axis=1))}


def seen_wildling_top(env: raw_env, house: str) -> str | None:
    views = env.encoder.views(env.observe(house)["observation"])
    top = np.flatnonzero(views["wildling_top_known"])
    return env.ruleset.wildling_cards[int(top[0])].id if top.size else None


def unit_letters(state: Any, area: int, h: int) -> str:
    """A house's units in an area, spaced ("f F K"): the picture's letters (one definition of
    the unit letters, :data:`got_env.engine.render_text.UNIT_LETTER`), routed ones lowercase."""
    return " ".join(vocabulary.unit_letters(state, area, h))


def card_label(rs: Any, c: int) -> str:
    card = rs.house_cards[c]
    return f"{card.id}:{card.strength}"


def board(env: raw_env, house: str) -> Group:
    """The whole board as ``house`` sees it (a rich renderable)."""
    state, rs = env.game, env.ruleset
    hid = [h.id for h in rs.houses]
    parts: list[Any] = []
    head = Text(f"Round {state.round}/{state.options['max_rounds']}  ·  {state.phase.name.title()}"
                f"  ·  wildling threat {state.wildling_threat}  ·  you are ", style="bold")
    head.append_text(house_text(house))
    parts.append(head)

    tracks = Table(box=None, show_header=False, padding=(0, 1))
    for t, name in enumerate(TRACKS):
        row = Text()
        for k, h in enumerate(int(x) for x in state.tracks[t] if x >= 0):
            if k:
                row.append(" > ")
            row.append_text(house_text(hid[h]))
        tracks.add_row(name, row)
    flags = [f"blade {'used' if state.blade_used else 'ready'}",
             f"raven {'used' if state.raven_used else 'ready'}"]
    banned = [ORDER_TYPES[i] if i < len(ORDER_TYPES) else "special march"
              for i in np.flatnonzero(state.order_bans)]
    if banned:
        flags.append("banned this round: " + ", ".join(banned))
    tracks.add_row("", ", ".join(flags))
    parts.append(tracks)

    houses = Table(box=None, padding=(0, 1), header_style="bold underline")
    for col in ("house", "castles", "supply", "power", "cards"):
        houses.add_column(col, no_wrap=True)
    vp = state.victory_points()
    hands = []
    for h in range(rs.num_houses):
        if not state.in_play[h]:
            continue
        hand = state.hand(h)
        houses.add_row(house_text(hid[h]), str(int(vp[h])), str(int(state.supply[h])),
                       str(int(state.power[h])), str(len(hand)))
        gone = [card_label(rs, c) for c in np.flatnonzero(state.card_place == 1)
                if rs.house_cards[c].house == hid[h]]
        line = Text.assemble(house_text(hid[h]), " hand: ",
                             " ".join(card_label(rs, c) for c in hand))
        if gone:
            line.append("  discarded: " + " ".join(gone), style="dim")
        hands.append(line)
    parts.append(houses)
    parts.extend(hands)

    orders = seen_orders(env, house)
    control = state.control()
    areas = Table(box=None, padding=(0, 1), header_style="bold underline")
    for col in ("area", "", "holder", "units", "order", "power", "other"):
        areas.add_column(col, no_wrap=True)
    blocked = []
    for a in rs.areas:
        i = a.index
        units = [(hid[h], unit_letters(state, i, h)) for h in range(rs.num_houses)
                 if state.units[i, h].any()]
        other = []
        if state.garrisons[i]:
            other.append(f"garrison {state.garrisons[i]}")
        if state.neutral_forces[i]:
            other.append(f"neutral {state.neutral_forces[i]}")
        if state.impassable[i]:
            blocked.append(a.id)
            continue
        token = state.power_tokens[i]
        if not (units or other or i in orders or token >= 0 or control[i] >= 0):
            continue
        fort = {"stronghold": "S*", "castle": "C", "city": "C"}.get(a.fortification or "", "")
        icons = "b" * a.barrels + "c" * a.crowns
        holder = house_text(hid[control[i]]) if control[i] >= 0 else Text("")
        order = rs.order_tokens[orders[i]].id if i in orders else ""
        areas.add_row(a.id, " ".join(x for x in (fort, icons) if x), holder,
                      "; ".join(u for _, u in units) if len(units) == 1 else
                      "; ".join(f"{h}: {u}" for h, u in units),
                      order, hid[token] if token >= 0 else "", ", ".join(other))
    parts.append(areas)
    if blocked:
        parts.append(Text("impassable: " + ", ".join(blocked), style="dim"))

    combat = public_combat(env, house)
    if combat:
        parts.append(Text(combat, style="bold"))
    drawn = [rs.westeros_cards[int(state.westeros_decks[d, state.westeros_drawn[d] - 1])].id
             for d in range(len(state.westeros_drawn)) if state.westeros_drawn[d] > 0]
    if state.phase.name == "WESTEROS" and drawn:
        parts.append(Text("Westeros cards this round: " + ", ".join(drawn)))
    top = seen_wildling_top(env, house)
    if top:
        parts.append(Text(f"you know the top wildling card: {top}"))
    parts.append(Text(LEGEND, style="dim"))
    return Group(*parts)


def public_combat(env: raw_env, house: str) -> str | None:
    """The combat in progress as ``house`` may see it (``got_env.render.log.combat_view``: a
    card shows before the reveal only to its owner)."""
    view = combat_view(env.game, house)
    if view is None:
        return None
    sides = []
    for side in ("attacker", "defender"):
        info = view[side]
        text = f"{info['house']} ({side}) {info['units'] or 'no units'}"
        for key, label in (("strength", "strength"), ("card", "card"), ("tides", "tides"),
                           ("final", "final strength")):
            if key in info:
                text += f", {label} {info[key]}"
        if info["supporters"]:
            text += ", supported by " + " ".join(info["supporters"])
        sides.append(text)
    text = f"Combat in {view['area']} (from {view['from']}): " + " vs ".join(sides)
    if "winner" in view:
        text += f"; {view['winner']} wins"
    return text


def describe_context(env: raw_env, context: dict[str, Any]) -> str:
    """The pending decision's context in words (only the deciding house is shown this)."""
    rs = env.ruleset
    hid = [h.id for h in rs.houses]
    out = []
    for key, value in context.items():
        if key in ("area", "port", "support_area") and isinstance(value, int):
            value = rs.areas[value].id
        elif key == "track" and isinstance(value, int):
            value = TRACKS[value]
        elif key in ("house", "supporter", "attacker", "defender") and isinstance(value, int):
            value = hid[value]
        elif key in ("card", "cancelled") and isinstance(value, int):
            value = rs.house_cards[value].id
        elif key == "wildling_card" and isinstance(value, int):
            value = rs.wildling_cards[value].id
        elif key == "westeros_card" and isinstance(value, int):
            value = rs.westeros_cards[value].id
        elif key == "bids":
            pairs = value.items() if isinstance(value, dict) else enumerate(value)
            value = ", ".join(f"{hid[h]} {b}" for h, b in pairs if b >= 0)
        elif key == "points" and isinstance(value, dict):
            value = ", ".join(f"{rs.areas[a].id} {p}" for a, p in value.items())
        out.append(f"{key}: {value}")
    return "; ".join(out)


# -- what the session asks of AGoT ----------------------------------------------------------
#: The agent of every other house when ``--opponents`` is not given.
#: The game-specific flags of experiments.human this view reads (AGoT's options).
FLAGS = ("ruleset", "max_rounds", "tides")
DEFAULT_OPPONENTS = "heuristic"
#: The house played when ``--house`` is not given.
DEFAULT_SEAT = "stark"
#: What a seat is called in messages.
SEAT = "house"


def make_env(args: Any) -> Any:
    """AGoT's env of the command line's ``--ruleset``, ``--players``, ``--max-rounds`` and
    ``--tides`` (text infos: the decision's header names its kind); an OptionError (a
    ValueError) for a bad one."""
    players = {} if args.players is None else {"num_players": args.players}
    return raw_env(ruleset=args.ruleset or "2e", max_rounds=args.max_rounds,
                           tides_of_battle=args.tides, info_format="text", **players)


class View:
    """AGoT as the session shows it to ``house``: the board of :func:`board`, the log of
    :class:`PublicLog`, the combat and the decision's context above the options."""

    def __init__(self, env: raw_env, house: str, game: str):
        self.env, self.house = env, house
        self.log = PublicLog(env, house)

    #: whether the game draws board pictures (the session's last message says where they are)
    draws_pictures = True

    def seat_text(self, house: str) -> Text:
        return house_text(house)

    def before(self, action: int) -> None:
        self.log.before(action)

    def after(self) -> None:
        self.log.after()

    def take(self) -> list[str]:
        return self.log.take()

    def over(self) -> bool:
        return self.env.game.pending is None

    def round(self) -> int:
        return int(self.env.game.round)

    def shown_key(self) -> tuple[int, ...]:
        """The board is shown again at the first decision of each phase."""
        return (self.env.game.round, int(self.env.game.phase))

    def board(self) -> RenderableType:
        return board(self.env, self.house)

    def header(self) -> list[RenderableType]:
        """The combat in progress (if any), then the decision's kind and context."""
        env = self.env
        out: list[RenderableType] = []
        combat = public_combat(env, self.house)
        if combat:
            out.append(Text(combat))
        context = describe_context(env, env.game.pending.context)
        out.append(Text.assemble(("Your choice: ", "bold"), env.infos[self.house]["decision"],
                                 f"  ({context})" if context else ""))
        return out

    def end_lines(self) -> list[RenderableType] | None:
        """The final ranking with castles, or None while the game is not over."""
        env, g = self.env, self.env.game
        outcome = env.record.outcome
        if outcome is None:
            return None
        vp = g.victory_points()
        lines: list[RenderableType] = [Text(f"Game over. {outcome_text(g)}, round {g.round}.",
                                            style="bold")]
        for place, h in enumerate(outcome["ranking"], 1):
            you = "  <- you" if h == self.house else ""
            lines.append(f"  {place}. {h:<10} {int(vp[env.ruleset.house(h)])} castles{you}")
        return lines
