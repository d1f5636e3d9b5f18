"""A rule-based War of the Ring player for both sides (issue 28 item 3).

``policy.choose(state, rng)`` answers the pending decision of an engine state as the side to
act sees it (``wotr_env.engine.determinize.determinize(true_state, side, rng)``), with one of
its options. One module per job: :mod:`.fellowship` (declare, path, Mordor, Guide, Hunt damage,
Companions), :mod:`.hunt` (allocation, Hunt table cards), :mod:`.dice` (which die, which
action), :mod:`.armies` (targets, moves, garrisons), :mod:`.muster` (recruits, Characters,
Nazgûl), :mod:`.battle` (attacks, sieges, casualties), :mod:`.politics`, :mod:`.cards`;
:mod:`.policy` dispatches by decision kind.
"""
