"""Play a game of Thrones in the terminal against any agents (issue 14; docs/human.md).

    python -m experiments.human --house stark --opponents heuristic
    python -m experiments.human --house lannister --players 4 --agent stark=heuristic_v2 --seed 3

    python -m experiments.human --game goofspiel --option num_cards=8     # another game

Modules: :mod:`.session` runs the game loop of every game (input from any ``input_fn``, output
to any rich ``Console``) and the command line; a game's own part is its view, found by registry
name (``session.VIEWS``): AGoT's :mod:`.got_view` draws the board as one house sees it (rich)
and :mod:`.got_events` tells what the other houses did and what the game revealed after each
step (:mod:`.view`, :mod:`.events`: the same under their older names); any other game gets
:mod:`.text_view` (the protocol's ``text(state, observer)``, the codec's action names, records
as ``boardkit.records.GameRecord``, every game's).
"""

from .session import HumanSession, main

__all__ = ["HumanSession", "main"]
