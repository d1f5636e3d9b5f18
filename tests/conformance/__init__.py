"""The conformance suite: every registered game and ruleset (``boardkit.games``, each plugin's
``variants``) against the kit's contract (docs/kit.md, "Adding a game")."""
