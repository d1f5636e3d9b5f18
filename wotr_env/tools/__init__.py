"""War of the Ring's pieces of the kit's tools, named by its plugin (:mod:`wotr_env.plugin`):
the plan search's (:mod:`.search`)."""
