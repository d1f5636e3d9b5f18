"""A Game of Thrones' pieces of the kit's tools, named by its plugin (:mod:`got_env.plugin`):
the trainer's hooks (:mod:`.training`), the tournament's (:mod:`.tournament`), the benchmark's
(:mod:`.benchmark`), the value tool's baseline (:mod:`.value`), the terminal view
(:mod:`.terminal`, its public log :mod:`.terminal_log`), the replay view (:mod:`.replay`) and the
plan search's piece (:mod:`.search`)."""
