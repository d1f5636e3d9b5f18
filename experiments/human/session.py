"""The game loop and the command line of ``python -m experiments.human`` (docs/human.md).

The loop and the prompt are every game's; what is the game's own comes from its view, a module
its plugin's ``terminal_view`` (:class:`boardkit.plugin.GamePlugin`; AGoT's
:mod:`got_env.tools.terminal`: its board, combat view and vocabulary, its public log
:mod:`got_env.tools.terminal_log`), else :mod:`.text_view` (the protocol's
``text(state, observer)``, the codec's action names); the record and the pictures come from the
tournament's game hooks (the env's ``boardkit.records.GameRecord``; AGoT's
board picture, no picture for another game).

:class:`HumanSession` plays one game: the agents act for the other houses, the person is asked
through ``input_fn`` (``input`` by default; any callable taking a prompt and returning a line,
raising ``EOFError`` at the end of the input) and everything is written to a rich ``Console``
(which can write to a ``StringIO``). The record is saved at the end, on ``q``, at the end of the
input, on Ctrl-C and on any error (an agent that raises, a bug): a game never ends without its
record. The board picture (as the player's house sees it) is drawn after every round, for a
game that draws one.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from agents import AgentSpecError, make_agent
from agents.base import begin_game, end_game
from boardkit import games

from .. import game_hooks
from ..config_model import GAMES


def view_module(game: str) -> Any:
    """The module of ``game``'s terminal view (``View``, ``make_env``, ``DEFAULT_OPPONENTS``,
    ``DEFAULT_SEAT``, ``SEAT``, ``FLAGS``): its plugin's ``terminal_view``, else
    :mod:`.text_view`."""
    loader = games.plugin(game).terminal_view
    return loader() if loader is not None else importlib.import_module(".text_view", __package__)

HELP = """Commands at a prompt:
  <number>   pick the option with that number
  <words>    list the options whose names hold every word ("march",
             "winterfell raid"); a single match is picked at once
  l          list all the options again
  b          show the board (as your house sees it)
  ?          this help
  q          quit (the game record so far is saved)"""


#: The most digits of an option number: no list is that long, and int() refuses a string of
#: over 4,300 digits (sys.get_int_max_str_digits), so longer ones are never converted.
MAX_DIGITS = 6
#: The most characters of the person's input quoted back in a message.
QUOTE = 40


class Quit(Exception):
    """The person typed ``q``."""


class AgentFailed(RuntimeError):
    """An agent raised in ``act``; the message names its house and class."""


def error_text(e: Exception) -> str:
    """What the person is told of an error that stopped the game (an AgentFailed names the
    agent already)."""
    return str(e) if isinstance(e, AgentFailed) else f"{type(e).__name__}: {e}"


def quoted(line: str) -> str:
    """``line`` as a message quotes it: repr'd (control characters visible), cut short."""
    return repr(line if len(line) <= QUOTE else line[:QUOTE] + "...")


class HumanSession:
    """One game with ``house`` played by a person and ``agents`` (house -> agent) the rest;
    ``game``: the registry name of the game ``env`` plays (default: the env's ``game_name``,
    else AGoT)."""

    def __init__(self, env: Any, house: str, agents: dict[str, Any], seed: int,
                 out: Path, console: Console | None = None,
                 input_fn: Callable[[str], str] = input, stamp: str | None = None,
                 game: str | None = None):
        self.env, self.house, self.agents, self.seed = env, house, agents, seed
        self.game = game or env.game_name
        self.view = view_module(self.game).View(env, house, self.game)
        self.out = Path(out)
        self.console = console or Console()
        self.input_fn = input_fn
        self.stamp = stamp or time.strftime("%Y%m%d-%H%M%S")
        self.log = self.view   # before(action), after(), take(): the public log
        self.record_path: Path | None = None
        self.pictures: list[Path] = []
        self._shown: tuple[int, int] | None = None

    # -- the game -------------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end (0), or until ``q``/end of input (0) or Ctrl-C (130); the record is
        saved in every case, on an error too (which is then raised again)."""
        env, c = self.env, self.console
        env.reset(seed=self.seed)
        c.print(Text.assemble("You play ", self.view.seat_text(self.house),
                              f" in a {env.num_players}-"
                              f"player game (seed {self.seed}) against ",
                              ", ".join(f"{h}={type(a).__name__}" for h, a in
                                        self.agents.items()), ". Type ? for help."))
        try:
            for agent in self.agents.values():
                begin_game(agent)
            self._play()
        except KeyboardInterrupt:
            self._flush()
            self.save("interrupted (Ctrl-C)")
            return 130
        except EOFError:
            self._flush()
            self.save("the input ended before the game did")
            return 0
        except Quit:
            self.save("you quit")
            return 0
        except Exception as e:
            self._flush()
            self.save(error_text(e))
            raise
        self._flush()
        try:
            self._show_board()
            self._announce_end()
        finally:   # the game is over: its record is saved even if an agent's end_game raises
            self.save(None)
        return 0

    def _play(self) -> None:
        env, view = self.env, self.view
        round_now = view.round()
        while not view.over() and env.agents:
            agent = env.agent_selection
            if agent == self.house:
                self._flush()
                action = self.ask()
            else:
                action = self._agent_action(agent)
            self.log.before(action)
            env.step(action)
            self.log.after()
            if view.round() != round_now or view.over():
                self.picture(f"round-{round_now:02d}")
                round_now = view.round()

    def _agent_action(self, house: str) -> int:
        """The agent's action, its error raised as AgentFailed naming the house and agent."""
        agent = self.agents[house]
        obs = self.env.observe(house)
        try:
            return int(agent.act(obs["observation"], obs["action_mask"], self.env.infos[house]))
        except Exception as e:
            raise AgentFailed(f"{house}'s agent ({type(agent).__name__}) raised "
                              f"{type(e).__name__}: {e}") from e

    # -- asking the person ----------------------------------------------------------------------
    def ask(self) -> int:
        """The person's choice among the legal actions; bad input re-prompts, changing nothing."""
        env, c = self.env, self.console
        if self._shown != self.view.shown_key():
            self._show_board()
        options = env.legal_actions()
        names = [env.action_name(a) for a in options]
        for line in self.view.header():
            c.print(line)
        self._list(range(len(options)), names)
        while True:
            line = self.input_fn("> ").strip()
            if not line:
                continue
            low = line.lower()
            if low == "?":
                c.print(Text(HELP))
            elif low == "b":
                self._show_board()
            elif low == "l":
                self._list(range(len(options)), names)
            elif low == "q":
                raise Quit
            elif low.isdecimal():   # the digits int() reads; not '²', which isdigit() passes
                short = len(low) <= MAX_DIGITS
                n = int(low) if short else 0
                if 1 <= n <= len(options):
                    return self._picked(options[n - 1], names[n - 1])
                c.print(Text(f"no option {n if short else quoted(line)}: pick 1 to "
                             f"{len(options)}", style="red"))
            else:
                words = low.split()
                hits = [k for k, name in enumerate(names)
                        if all(w in name.lower() for w in words)]
                if len(hits) == 1:
                    return self._picked(options[hits[0]], names[hits[0]])
                if not hits:
                    c.print(Text(f"no option matches {quoted(line)}", style="red"),
                            "(? for help, l to list)")
                else:
                    c.print(Text(f"{len(hits)} options match {quoted(line)}; pick one by its "
                                 f"number:"))
                    self._list(hits, names)

    def _picked(self, action: int, name: str) -> int:
        self.console.print(Text(f"-> {name}", style="dim"))
        return action

    def _list(self, which: Any, names: list[str]) -> None:
        items = [Text(f"{k + 1:>3}. {names[k]}") for k in which]
        if len(items) <= 12:
            for item in items:
                self.console.print(item, highlight=False)
        else:
            self.console.print(Columns(items, column_first=True, padding=(0, 2)))

    # -- output ---------------------------------------------------------------------------------
    def _show_board(self) -> None:
        self._shown = self.view.shown_key()
        self.console.rule()
        self.console.print(self.view.board())
        self.console.rule()

    def _flush(self) -> None:
        for line in self.log.take():
            self.console.print(line, highlight=False, markup=False)

    def _announce_end(self) -> None:
        env = self.env
        lines = self.view.end_lines()
        if lines is None:
            return
        for line in lines:
            self.console.print(line)
        for name, agent in self.agents.items():
            end_game(agent, env.rewards.get(name, 0.0), env.infos.get(name, {}))

    def picture(self, label: str) -> Path | None:
        """The board picture as the player's house sees it (hidden orders never drawn), for a
        game that draws one (:func:`experiments.game_hooks.save_picture`)."""
        self.out.mkdir(parents=True, exist_ok=True)
        try:
            path = game_hooks.save_picture(self.game, self.env,
                                           self.out / f"{self.stamp}-{label}.png",
                                           observer=self.house)
        except Exception as e:  # noqa: BLE001  (a picture that fails must not end the game)
            self.console.print(Text(f"could not draw the board picture ({label}): "
                                    f"{type(e).__name__}: {e}", style="red"))
            return None
        if path is not None:
            self.pictures.append(path)
        return path

    def save(self, why: str | None) -> Path:
        """Save the record (``<out>/<timestamp>.json``), say where, and why when unfinished."""
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / f"{self.stamp}.json"
        k = 1
        while path.exists() and self.record_path is None:
            k += 1
            path = self.out / f"{self.stamp}-{k}.json"
        game_hooks.save_record(self.game, self.env, path)
        self.record_path = path
        if why:
            self.console.print(f"Game not finished: {why}. Record saved to {path} "
                               f"({game_hooks.decisions(self.game, self.env)} decisions).")
        elif self.view.draws_pictures:
            self.console.print(f"Record saved to {path}; pictures in {self.out}.")
        else:
            self.console.print(f"Record saved to {path}.")
        return path


# -- the command line -----------------------------------------------------------------------------
def parse_spec(text: str) -> Any:
    """An agent spec from the command line: a name, ``module:Class``, ``file.py:Class``, or a
    JSON mapping (``{"name": "ismcts", "kwargs": {...}}``)."""
    text = text.strip()
    return json.loads(text) if text.startswith("{") else text


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m experiments.human",
                                description="Play A Game of Thrones (2nd ed., or the 1st with "
                                "--ruleset 1e), or another game of the kit (--game), in the "
                                "terminal against agents; see docs/human.md.")
    p.add_argument("--game", required=True, choices=GAMES,
                   help="the game's registry name (got: A Game of Thrones)")
    p.add_argument("--house", "--side", "--seat", dest="house", default=None,
                   help="your house (default stark; another game: your seat, default its "
                   "first, e.g. player_0; --side and --seat are the same flag, e.g. "
                   "--side free_peoples)")
    p.add_argument("--opponents", default=None,
                   help="agent spec for every other house (default heuristic; another game: "
                   "random; docs/agents.md)")
    p.add_argument("--agent", action="append", default=[], metavar="HOUSE=SPEC",
                   help="agent spec for one house, e.g. lannister=random (repeatable)")
    p.add_argument("--ruleset", default=None,
                   help="AGoT: the edition (default 2e; 1e: the 1st edition, 3 to 5 players)")
    p.add_argument("--players", type=int, default=None, help="3 to 6 in 2e, 3 to 5 in 1e "
                   "(default: the most, 6 or 5); another game: its num_players option")
    p.add_argument("--seed", type=int, default=None, help="default: drawn, and printed")
    p.add_argument("--max-rounds", type=int, default=None,
                   help="1 to the ruleset's rounds (default: all of them, 10)")
    p.add_argument("--tides", action="store_true", help="play with the Tides of Battle")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an env option of a game other than AGoT, e.g. num_cards=8 "
                   "(repeatable; the value read as JSON where it is)")
    p.add_argument("--out", default="runs/human", help="folder of the record and pictures")
    return p


#: The flags only some games' terminal views read (each view's ``FLAGS`` names its own): given
#: for a game whose view does not read it, refused by name.
VIEW_FLAGS = (("ruleset", "--ruleset"), ("max_rounds", "--max-rounds"), ("tides", "--tides"),
              ("option", "--option"))


def main(argv: list[str] | None = None, *, input_fn: Callable[[str], str] = input,
         console: Console | None = None) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    seed = args.seed if args.seed is not None else int(time.time()) % 100_000
    view = view_module(args.game)
    given = [flag for key, flag in VIEW_FLAGS
             if getattr(args, key) not in (None, False, []) and key not in view.FLAGS]
    if given:
        p.error(f"{', '.join(given)}: not an option of {args.game} (its flags: "
                f"{', '.join(f for k, f in VIEW_FLAGS if k in view.FLAGS)})")
    try:
        env = view.make_env(args)
    except (TypeError, ValueError) as e:   # AGoT's OptionError is a ValueError
        p.error(str(e))
    seat = view.SEAT
    house = args.house if args.house is not None else (view.DEFAULT_SEAT
                                                       or env.possible_agents[0])
    if house not in env.possible_agents:
        p.error(f"unknown {seat} {house!r}: the {seat}s in a {env.num_players}-player game are "
                f"{', '.join(env.possible_agents)}")
    opponents = args.opponents if args.opponents is not None else view.DEFAULT_OPPONENTS
    specs: dict[str, Any] = {h: opponents for h in env.possible_agents if h != house}
    for item in args.agent:
        other, eq, spec = item.partition("=")
        if not eq or not spec:
            p.error(f"--agent {item!r}: expected HOUSE=SPEC, e.g. lannister=random")
        if other not in specs:
            why = f"that is your {seat}" if other == house else (
                f"{seat}s in play are {', '.join(env.possible_agents)}")
            p.error(f"--agent {item!r}: no opponent {seat} {other!r} ({why})")
        specs[other] = item.partition("=")[2]
    agents = {}
    for i, other in enumerate(env.possible_agents):
        if other not in specs:
            continue
        try:
            agents[other] = make_agent(parse_spec(str(specs[other])), env=env, seed=seed + i)
        except (AgentSpecError, json.JSONDecodeError) as e:
            p.error(f"{other}: {e}")
    if input_fn is input and hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")   # bytes that are not text: bad input, no crash
    session = HumanSession(env, house, agents, seed, Path(args.out),
                           console=console, input_fn=input_fn, game=args.game)
    try:
        return session.run()
    except Exception as e:
        saved = (f"the record so far is in {session.record_path}" if session.record_path
                 else "the record could not be saved")
        print(f"error: the game stopped: {error_text(e)}; {saved}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
