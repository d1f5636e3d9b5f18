"""The turn (spec §5): its phases in order (:mod:`.phases`), Action Resolution's choice of a die
(:mod:`.resolution`), and the hand limit (:mod:`.hand`)."""
