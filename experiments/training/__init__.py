"""The pieces of ``experiments.train``: PPO self-play in one file read top to bottom
(:mod:`.ppo`: league, seats, rollout, per-seat GAE, update, evaluation, exact resume, the
trainer), beside it the config, the game hooks, the logs and the plain-data encoding of the
trainer's checkpoints."""
