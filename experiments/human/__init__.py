"""Play a game of Thrones in the terminal against any agents (issue 14; docs/human.md).

    python -m experiments.human --house stark --opponents heuristic
    python -m experiments.human --house lannister --players 4 --agent stark=heuristic_v2 --seed 3

Modules: :mod:`.view` draws the board as one house sees it (rich), :mod:`.events` tells what the
other houses did and what the game revealed after each step, :mod:`.session` runs the game loop
(input from any ``input_fn``, output to any rich ``Console``) and the command line.
"""

from .session import HumanSession, main

__all__ = ["HumanSession", "main"]
