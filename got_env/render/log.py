"""A game told step by step: decision log lines, the combat on the board, and what one house saw.

Shared by the replay viewer (``experiments.replay``) and terminal play: both show a game through
one house's eyes, so what counts as hidden is decided here, once.

* :func:`walk` replays a game record (the kit's :class:`boardkit.records.GameRecord`) and yields
  the state before every decision with that decision as a :class:`Step`, then the final state
  (with the checks of ``GameRecord.walk``: the record's check first, then each action, its
  outcome and digest).
* :func:`log_line` is one readable line for a step; seen by another house (``viewer``), a
  secret choice (``Decision.secret``: orders being placed, bids, house cards) shows as
  ``(secret)`` only: its effect appears on the board or in the combat once the game reveals it.
* :func:`combat_view` is the combat being fought in a state, as ``viewer`` may see it: house
  cards and Tides of Battle cards before their reveal only to their owner (all of them in the
  full view, ``viewer=None``).
* :func:`outcome_text` names the winner and the ending once the game is over.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardkit.records import GameRecord

from ..engine.combat.resolution import combat_units
from ..engine.combat.stages import SIDES
from ..engine.combat.strength import initial_strength, supporters
from ..engine.visibility import card_visible, tides_visible

if TYPE_CHECKING:
    from ..engine.combat.frame import CombatFrame
    from ..engine.state import GameState

SECRET = "(secret)"
ENDINGS = {"seven-castles": "seven castles held", "last-round": "after the last round",
           "truncated": "stopped (step limit)"}
NUMBER_WORDS = {7: "seven", 8: "eight"}


@dataclass(frozen=True)
class Step:
    """One decision of a game and the action chosen.

    :ivar index: its position in the record's actions (0-based).
    :ivar house: the deciding house's id.
    :ivar kind: the decision kind's label, e.g. ``"D-20 PLACE_ORDERS"``.
    :ivar secret: the choice is hidden from the other houses until the game reveals it.
    """

    index: int
    round: int
    phase: str
    house: str
    kind: str
    action: int
    action_name: str
    secret: bool
    num_legal: int

    def visible_to(self, viewer: str | None) -> bool:
        """Whether ``viewer`` (a house id; None: everyone) may see which action was chosen."""
        return viewer is None or viewer == self.house or not self.secret


def make_step(env: Any, index: int, action: int) -> Step:
    """The :class:`Step` of ``env``'s pending decision answered by ``action`` (before playing)."""
    state = env.game
    d = state.pending
    return Step(index, int(state.round), state.phase.name.lower(),
                state.ruleset.houses[d.player].id, d.kind.label, int(action),
                env.action_name(action), bool(d.secret), len(d.options))


def log_line(step: Step, viewer: str | None = None) -> str:
    """``#12 R1 planning  stark  D-20 PLACE_ORDERS: ORDER[winterfell,march-0]``; the action is
    ``(secret)`` when ``viewer`` may not see it."""
    what = step.action_name if step.visible_to(viewer) else SECRET
    return (f"#{step.index + 1} R{step.round} {step.phase}  {step.house}  {step.kind}: "
            f"{what}")


def walk(record: GameRecord) -> Iterator[tuple[GameState, Step | None]]:
    """Replay ``record``: ``(state, step)`` before each decision (the state is the live one: copy
    it to keep it), then ``(final state, None)``. Raises :class:`boardkit.records.RecordError`
    before the first state when the record's check does not match it or its game, options or
    seed make no game, and later when an action does not replay or the end differs from the
    recorded outcome or digest (the checks of :meth:`GameRecord.walk`, whose replay loop this
    is)."""
    for env, i in record.walk():
        if i is None:
            yield env.game, None
            return
        yield env.game, make_step(env, i, record.actions[i])


def outcome_text(state: GameState) -> str | None:
    """``"Winner: Stark (seven castles held)"`` once the game has ended, else None; the count
    is the setup's (1e spec 12: eight at 3 players), and a draw (1e spec 12) names every house
    sharing it: ``"Draw: Stark, Lannister (after the last round)"``."""
    outcome = state.outcome
    if outcome is None:
        return None
    houses = state.ruleset.houses
    ending = ENDINGS.get(outcome.reason, outcome.reason)
    if outcome.reason == "seven-castles":
        target = state.ruleset.setups[state.num_players].castles_to_win
        ending = f"{NUMBER_WORDS.get(target, str(target))} castles held"
    if outcome.draw:
        return f"Draw: {', '.join(houses[h].name for h in outcome.draw)} ({ending})"
    return f"Winner: {houses[outcome.winner].name} ({ending})"


def combat_frame(state: GameState) -> CombatFrame | None:
    """The innermost combat being fought (its engine frame), or None."""
    return next((f for f in reversed(state.stack) if f.step == "combat"), None)


def combat_view(state: GameState, viewer: str | None = None) -> dict[str, Any] | None:
    """The combat on the board as ``viewer`` may see it (None: no combat), plain values only:
    area, stage, and per side the house, units, initial strength, supporters, house card and
    Tides card (each ``"(secret)"`` while hidden from ``viewer``), final strength and the
    winner once decided."""
    frame = combat_frame(state)
    if frame is None:
        return None
    rs = state.ruleset
    watcher = rs.house(viewer) if viewer is not None else None
    out: dict[str, Any] = {"area": rs.areas[frame.area].name,
                           "from": rs.areas[frame.origin].name,
                           "stage": frame.stage.value if frame.stage else "support"}
    units = ("footman", "knight", "ship", "siege")
    for side in SIDES:
        h = frame.house(side)
        where, counts = combat_units(state, frame, side)
        info: dict[str, Any] = {
            "house": rs.houses[h].name,
            "units": ", ".join(f"{int(n)} {u}" for u, n in zip(units, counts, strict=True) if n),
            "supporters": [rs.houses[s].name for s in supporters(state, frame, side)],
        }
        try:
            info["strength"] = int(initial_strength(state, frame, side))
        except (KeyError, IndexError, ValueError):
            pass
        card = (frame.cards or {}).get(side)
        if card is not None:
            info["card"] = (rs.house_cards[card].name if card_visible(frame, side, watcher)
                            else SECRET)
        tide = (frame.tides or {}).get(side)
        if tide is not None:
            info["tides"] = (rs.tides_cards[tide].id if tides_visible(frame, side, watcher)
                             else SECRET)
        if frame.blade == side:
            info["blade"] = True
        if frame.strength is not None:
            info["final"] = int(frame.strength[side])
        out[str(side)] = info  # plain strings: the view is JSON for the replay page
    if frame.winner is not None:
        out["winner"] = rs.houses[frame.house(frame.winner)].name
    return out
