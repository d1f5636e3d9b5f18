"""A round-robin tournament between agents: line-ups of agents play N games each, houses rotated,
in parallel worker processes or Ray tasks; win rates, castles, ranks and openskill ratings per
agent and house. How to run one and its config: :mod:`.cli` (``python -m experiments.tournament
--help``).

The package: :mod:`.config` (the config file and its checks), :mod:`.plan` (the games and
their seeds; one game played), :mod:`.records` (the run folder's games.jsonl), :mod:`.run`
(playing the missing games on a backend), :mod:`.report` (results, tables, files),
:mod:`.plots` and :mod:`.cli` (the command line; its error tail the ladder's too). What it reads
from a finished game (its result, decisions and replay page, per game; AGoT's: its plugin's
``tournament`` piece, :mod:`got_env.tools.tournament`) is :mod:`experiments.game_hooks`, which
the other tools that play games read too. Each name is imported from its module; this package
re-exports none.
"""
