"""The fixed evaluation suite (``python -m experiments.evaluate``, docs/evaluation.md): one
candidate agent against fixed line-ups of opponents on deal seeds set in the config file, every
seed played with the candidate in every seat. :mod:`.config` (the file and its checks),
:mod:`.plan` (the paired seatings as tournament games), :mod:`.run` (playing the missing games
through experiments.tournament, resumable), :mod:`.results` (win rates, Wilson intervals,
per-seat rates, the markdown table). Each name is imported from its module."""
