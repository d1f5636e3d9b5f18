"""A Game of Thrones' public log (terminal play, :mod:`.terminal`): what the other houses did,
and what the game revealed, step by step: honest to the rules.

:class:`PublicLog` watches every step of the game (``before(action)`` then ``after()``) and
keeps readable lines of public events only:

- another house's open choice (a march move, a support, a raid, a muster, ...) by its action
  name; a secret one (order, bid, house card) only as "placed an order (hidden)" and the like;
- the orders, when the game reveals them (all at once, after the last house has placed);
- the bids of a Clash of Kings track, or of a wildling attack, once every house has bid, then
  the track's new order, or whether the Night's Watch held and the wildling card;
- the house cards of a combat at their reveal, the Tides of Battle cards at theirs, then the
  strengths and the winner;
- the Westeros cards as they are drawn.

Bids and cards are read from the engine's frames (held by reference, since a frame may be popped
within the step that finishes it) and written only once the game has revealed them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from got_env.data import TRACKS
from got_env.engine import DecisionKind
from got_env.engine.wildlings.attack import WildlingStage

if TYPE_CHECKING:
    from got_env.env import raw_env

SECRET_WORDS = {DecisionKind.PLACE_ORDERS: "placed an order",
                DecisionKind.INFLUENCE_BID: "bid on {track}",
                DecisionKind.WILDLING_BID: "bid against the wildlings",
                DecisionKind.HOUSE_CARD: "chose a house card"}


class PublicLog:
    """Public events of one game, seen by house ``me`` (its own actions are logged as "you")."""

    def __init__(self, env: raw_env, me: str):
        self.env, self.rs = env, env.ruleset
        self.me = self.rs.house(me)
        self.hid = [h.id for h in self.rs.houses]
        self.lines: list[str] = []
        self._announced: set[tuple[int, str, int]] = set()
        self._snap: dict[str, Any] = {}

    # -- before and after one step --------------------------------------------------------------
    def before(self, action: int) -> None:
        g = self.env.game
        d = g.pending
        frames = []
        for f in g.stack:
            if f.step in ("combat", "clash_of_kings", "wildling_attack"):
                frames.append((f, {k: _copy(getattr(f, k, None)) for k in
                                   ("track", "bids", "stage", "revealed", "tides_revealed",
                                             "strength", "card")}))
        self._snap = {"revealed": g.orders_revealed, "drawn": g.westeros_drawn.copy(),
                      "frames": frames, "decision": d, "action": int(action)}

    def after(self) -> None:
        g, s = self.env.game, self._snap
        d, action = s["decision"], s["action"]
        self._log_action(d, action)
        for frame, old in s["frames"]:
            if frame.step == "combat":
                self._combat(frame, old)
            elif frame.step == "clash_of_kings":
                self._clash(frame, old, d, action)
            else:
                self._wildlings(frame, old, d, action)
        if not s["revealed"] and g.orders_revealed:
            self._orders()
        for deck, n in enumerate(g.westeros_drawn):
            if n > s["drawn"][deck]:
                card = self.rs.westeros_cards[int(g.westeros_decks[deck, n - 1])]
                self.lines.append(f"Westeros deck {card.deck}: {card.name}")

    def take(self) -> list[str]:
        """The lines logged since the last call, runs of the same line folded into one."""
        out: list[str] = []
        count = 0
        for i, line in enumerate(self.lines):
            count += 1
            if i + 1 < len(self.lines) and self.lines[i + 1] == line:
                continue
            out.append(line if count == 1 else f"{line} (x{count})")
            count = 0
        self.lines = []
        return out

    # -- the kinds of event ---------------------------------------------------------------------
    def _log_action(self, d: Any, action: int) -> None:
        if d.player == self.me:  # the session shows the player's own picks
            return
        who = self.hid[d.player]
        name = self.env.action_name(action)
        if d.secret and d.player != self.me:
            words = SECRET_WORDS.get(d.kind, "made a secret choice")
            track = d.context.get("track")
            words = words.format(track=TRACKS[track] if isinstance(track, int) else "")
            self.lines.append(f"{who}: {words} (hidden)")
        else:
            self.lines.append(f"{who}: {name}")

    def _orders(self) -> None:
        g = self.env.game
        control = g.control()
        by_house: dict[int, list[str]] = {}
        for a in range(len(g.orders)):
            if g.orders[a] >= 0:
                by_house.setdefault(int(control[a]), []).append(
                    f"{self.rs.areas[a].id} {self.rs.order_tokens[int(g.orders[a])].id}")
        self.lines.append("Orders revealed:")
        for h in g.turn_order():
            if h in by_house:
                self.lines.append(f"  {self.hid[h]}: " + ", ".join(by_house[h]))

    def _combat(self, frame: Any, old: dict) -> None:
        rs, hid = self.rs, self.hid
        where = rs.areas[frame.area].id
        if frame.revealed and not old["revealed"]:
            cards = frame.cards or {}
            self.lines.append(f"Combat in {where}: " + " vs ".join(
                f"{hid[frame.house(side)]} ({side}) plays {rs.house_cards[cards[side]].name}"
                for side in ("attacker", "defender") if side in cards))
        if frame.tides_revealed and not old["tides_revealed"]:
            tides = frame.tides or {}
            self.lines.append(f"Tides of Battle in {where}: " + ", ".join(
                f"{hid[frame.house(side)]} {rs.tides_cards[tides[side]].id}"
                for side in ("attacker", "defender") if side in tides))
        if frame.strength is not None and old["strength"] is None:
            st = frame.strength
            self.lines.append(f"Combat in {where}: {hid[frame.house(frame.winner)]} wins, "
                              f"strength {st['attacker']} (attacker {hid[frame.attacker]}) to "
                              f"{st['defender']} (defender {hid[frame.defender]})")

    def _clash(self, frame: Any, old: dict, d: Any, action: int) -> None:
        t = old["track"]
        if t is None or t >= len(TRACKS):
            return
        if frame.track == t:
            bids = list(frame.bids)
        else:  # the track finished within this step: the bids as they stood, plus this one
            bids = list(old["bids"])
            if d.kind == DecisionKind.INFLUENCE_BID:
                bids[d.player] = self.env.codec.decode(action)[1]
        self._bids(frame, t, bids, f"Bids on {TRACKS[t]}", complete=True)
        if frame.track is not None and frame.track != t:
            order = [self.hid[int(h)] for h in self.env.game.tracks[t] if h >= 0]
            self.lines.append(f"{TRACKS[t]} is now: " + " > ".join(order))

    def _wildlings(self, frame: Any, old: dict, d: Any, action: int) -> None:
        if old["stage"] is WildlingStage.BID and frame.stage is not WildlingStage.BID:
            bids = list(frame.bids)
            total = sum(b for b in bids if b > 0)
            self._bids(frame, 0, bids, f"Wildling attack of strength {frame.strength}: bids",
                       complete=False)
            self.lines.append(f"The Night's Watch {'holds' if frame.won else 'falls'} "
                              f"({total} against {frame.strength})")
        card = frame.card
        if card is not None and card >= 0 and old["card"] != card:
            self.lines.append(f"Wildling card: {self.rs.wildling_cards[card].name}")

    def _bids(self, frame: Any, t: int, bids: list[int], title: str, complete: bool) -> None:
        """Announce the bids once, when all are in (``complete``: every house must have bid;
        else the houses that bid)."""
        g = self.env.game
        key = (g.round, id(frame), frame.step, t)
        houses = [int(h) for h in g.turn_order()]
        if key in self._announced or (complete and any(bids[h] < 0 for h in houses)):
            return
        self._announced.add(key)
        self.lines.append(title + ": " + ", ".join(f"{self.hid[h]} {bids[h]}"
                                                   for h in houses if bids[h] >= 0))


def _copy(value: Any) -> Any:
    if isinstance(value, (list, dict)):
        return type(value)(value)
    return value
