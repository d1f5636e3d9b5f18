"""Every house card with text has its ability in the table, and no card without text has one
(STYLE.md habit 6; facts §7; got_env/engine/combat/cards.py)."""

import pytest

import got_env.engine  # noqa: F401  (registers the abilities)
from got_env.engine.abilities.base import CardStep
from got_env.engine.combat.cards import ABILITIES, STEP_HOOKS, Ability

HOOKS = ("strength", "swords", "fortifications", "unit_value", "no_casualties") + STEP_HOOKS


def test_every_card_with_text_has_an_ability(rs):
    """facts §7: the 24 cards whose data has an ``ability`` (with text) are all registered under
    that id, and have at least one hook."""
    with_text = [c for c in rs.house_cards if c.ability is not None]
    assert len(with_text) == 24
    missing = [c.id for c in with_text if c.ability not in ABILITIES]
    assert missing == []
    for c in with_text:
        assert c.text, f"{c.id} has an ability but no text"
        ability = ABILITIES[c.ability]
        assert ability.card == c.id
        assert any(getattr(ability, h) for h in HOOKS), f"{c.id}: no hook set"


def test_cards_without_text_have_no_ability(rs):
    """facts §7: the 18 plain cards (strength and icons only) have no entry."""
    plain = [c.id for c in rs.house_cards if c.ability is None]
    assert len(plain) == 18
    assert [c for c in plain if c in ABILITIES] == []


def test_table_names_only_cards_of_the_data(rs):
    """No stray entry: every key of the table is a card of the data."""
    ids = {c.id for c in rs.house_cards}
    assert set(ABILITIES) <= ids
    assert len(ABILITIES) == 24


@pytest.mark.parametrize("card", sorted(ABILITIES))
def test_ability_steps_are_registered(card):
    """Each step an ability names (cancel, reveal, after the winner, after combat) is an ability
    step's frame class named for the card, and each static hook is callable."""
    ability: Ability = ABILITIES[card]
    for hook in STEP_HOOKS:
        step = getattr(ability, hook)
        if step is not None:
            assert issubclass(step, CardStep) and step.step == f"card:{card}", (card, hook)
    for hook in ("strength", "swords", "fortifications", "unit_value"):
        fn = getattr(ability, hook)
        assert fn is None or callable(fn)


def test_registering_a_card_twice_is_refused():
    """cards.register refuses a second ability for the same card."""
    from got_env.engine.combat.cards import register

    with pytest.raises(ValueError, match="registered twice"):
        register(Ability("tyrion-lannister"))
