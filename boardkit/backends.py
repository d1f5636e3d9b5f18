"""Where a batch of games runs: the names :func:`boardkit.vector.make_vector_games` takes, in a
module of their own so that a config validator reads them without importing the batched API
(numpy, multiprocessing) and the two can never disagree."""

#: Games in this machine's processes, or in Ray actors.
BACKENDS = ("local", "ray")
