"""got_env: A Game of Thrones: The Board Game (2nd edition) as a PettingZoo AEC environment.

    import got_env
    env = got_env.env(num_players=4)
    env.reset(seed=0)
"""

from .env import GameRecord, env, raw_env

__all__ = ["GameRecord", "env", "raw_env"]
