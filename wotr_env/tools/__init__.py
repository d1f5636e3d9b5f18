"""War of the Ring's pieces for the kit's tools (its plugin's, :mod:`wotr_env.plugin`)."""
