"""The pieces of ``experiments.train`` (PPO self-play), one job per module: the config, the
trainer, the league, the rollouts, the per-house advantages, the PPO update, the evaluation,
the logs, and the plain-data encoding of the trainer's checkpoints."""
