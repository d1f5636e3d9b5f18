"""The value tool: a learned value of a seat's observation, fitted on the kit's own games with
a γ = 1 return (the seat's final share of the win) and measured per round against the game's
baseline predictor (docs/value.md). Its modules: :mod:`.config`, :mod:`.data` (games to
shards), :mod:`.fit` (the network), :mod:`.report` (explained variance), :mod:`.__main__` (the
command). The network and its checkpoint are :mod:`agents.value`, so that agents can load it."""
