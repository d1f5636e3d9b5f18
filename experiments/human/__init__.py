"""Play a game of Thrones in the terminal against any agents (issue 14; docs/human.md).

    python -m experiments.human --game got --house stark --opponents heuristic
    python -m experiments.human --game got --house lannister --players 4 --agent stark=heuristic_v2

    python -m experiments.human --game goofspiel --option num_cards=8     # another game

Modules: :mod:`.session` runs the game loop of every game (input from any ``input_fn``, output
to any rich ``Console``) and the command line; a game's own part is its view, found by registry
name (its plugin's ``terminal_view``): AGoT's :mod:`got_env.tools.terminal` draws the board as
one house sees it (rich) and :mod:`got_env.tools.terminal_log` tells what the other houses did
and what the game revealed after each step; any other game gets
:mod:`.text_view` (the protocol's ``text(state, observer)``, the codec's action names, records
as ``boardkit.records.GameRecord``, every game's).
"""
