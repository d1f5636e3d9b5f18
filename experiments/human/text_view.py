"""Any game of the kit without a terminal view of its own (its plugin's ``terminal_view`` None
): the position is the protocol's ``text(state, observer)`` (the player's view: a game
keeps another player's secrets out of it), the options are the codec's action names, the log
says what the other players chose, a secret choice only as "made a secret choice (hidden)", and
the end is the result of :func:`experiments.game_hooks.result`.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from boardkit import games
from boardkit.envs import make_env as kit_env

from .. import game_hooks

#: The agent of every other seat when ``--opponents`` is not given (a game's heuristic is its
#: own; random play is every game's).
#: The game-specific flags this view reads (session.VIEW_FLAGS): env options as KEY=VALUE.
FLAGS = ("option",)
DEFAULT_OPPONENTS = "random"
#: The seat played when ``--house`` is not given: None, the first of ``possible_agents``.
DEFAULT_SEAT = None
#: What a seat is called in messages.
SEAT = "seat"


def option_value(text: str) -> Any:
    """A ``--option KEY=VALUE`` value: JSON where it reads as JSON (``8``, ``true``), else the
    text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def make_env(args: Any) -> Any:
    """The raw env of ``args.game`` (:func:`boardkit.envs.make_env`) with the ``--option``
    values and ``--players`` as ``num_players``; TypeError or ValueError for a bad option."""
    options: dict[str, Any] = {}
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"--option {item!r}: expected KEY=VALUE, e.g. num_cards=8")
        options[key] = option_value(value)
    if args.players is not None:
        options["num_players"] = args.players
    return kit_env(args.game, **options)


class View:
    """A kit game as the session shows it to ``house``."""

    def __init__(self, env: Any, house: str, game: str | None = None):
        self.env, self.house = env, house
        self.game = game or env.game_name
        self.rules = games.get(self.game)
        self.lines: list[str] = []
        self._decision: Any = None

    #: whether the game draws board pictures (the session's last message says where they are)
    draws_pictures = False

    def seat_text(self, house: str) -> Text:
        return Text(house, style="bold")

    def _me(self) -> int:
        return self.rules.player_index(self.env.game, self.house)

    def over(self) -> bool:
        return self.rules.pending(self.env.game) is None

    def round(self) -> int:
        return int(self.rules.round(self.env.game))

    def shown_key(self) -> tuple[int, ...]:
        """The position is shown again at the first decision of each round."""
        return (self.round(),)

    def board(self) -> RenderableType:
        return Text(self.rules.text(self.env.game, self._me()))

    def header(self) -> list[RenderableType]:
        d = self.rules.pending(self.env.game)
        return [Text.assemble(("Your choice: ", "bold"), d.kind.label)]

    # -- the public log: before(action), after(), take() ------------------------------------------
    def before(self, action: int) -> None:
        self._decision = self.rules.pending(self.env.game)
        self._action = int(action)

    def after(self) -> None:
        d = self._decision
        if d is None or d.player == self._me():   # the session shows the player's own picks
            return
        who = self.rules.player_name(self.env.game, d.player)
        self.lines.append(f"{who}: made a secret choice (hidden)" if d.secret
                          else f"{who}: {self.env.action_name(self._action)}")

    def take(self) -> list[str]:
        out, self.lines = self.lines, []
        return out

    def end_lines(self) -> list[RenderableType] | None:
        """The final ranking with each player's score, or None while the game is on."""
        if not self.over():
            return None
        game = self.game
        result = game_hooks.result(game, self.env)

        def name(p: int) -> str:
            return self.rules.player_name(self.env.game, p)

        if result.draw:
            head = f"Draw: {', '.join(name(p) for p in result.draw)}"
        elif result.reason == "truncated":  # cut off at a limit: no winner, only who led
            head = f"No winner, cut off at the limit; ahead: {name(result.ranking[0])}"
        else:
            head = f"Winner: {name(result.ranking[0])}"
        lines: list[RenderableType] = [Text(f"Game over. {head} ({result.reason}), round "
                                            f"{self.round()}.", style="bold")]
        label = game_hooks.score_label(game)
        for place, p in enumerate(result.ranking, 1):
            you = "  <- you" if name(p) == self.house else ""
            lines.append(f"  {place}. {name(p):<10} {result.scores[p]:g} {label}{you}")
        return lines
