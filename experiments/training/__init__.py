"""The pieces of ``experiments.train`` (PPO self-play), one job per module: the config, the
league, the rollouts, the per-house advantages, the PPO update, the evaluation, the logs."""
