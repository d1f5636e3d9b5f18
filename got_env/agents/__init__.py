"""Agents for *A Game of Thrones: The Board Game* only: what knows this game's rules beyond the
observation and action spaces (its heuristics, :mod:`got_env.agents.heuristic`; the PPO
network's sizes, :mod:`got_env.agents.networks`). Agents that play any game through the env's
interface (random, IS-MCTS, PPO) stay in :mod:`agents`. They live in the game package so
that its plugin (:mod:`got_env.plugin`) can name them without importing a layer above it."""
