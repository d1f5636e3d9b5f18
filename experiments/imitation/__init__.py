"""Imitation learning: the PPO network trained to copy a teacher agent (docs/imitation.md).

:mod:`.config` reads and checks the YAML config, :mod:`.data` plays the teacher's games and
records its decisions compactly, :mod:`.learn` fits the network to them and evaluates it;
``python -m experiments.imitate`` is the command line.
"""
