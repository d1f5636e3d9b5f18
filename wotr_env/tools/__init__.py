"""War of the Ring's pieces of the kit's tools, named by its plugin (:mod:`wotr_env.plugin`):
the trainer's shaping (:mod:`.training`), the value tool's baseline (:mod:`.value`), the plan
search's (:mod:`.search`)."""
