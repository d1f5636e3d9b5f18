"""Where each Character's abilities live (facts §3): :data:`ABILITIES` maps a character id to
his abilities, each to the functions and registrations that implement it.

Most abilities sit where the rule they change is (the Guide's Hunt abilities in the Hunt, Take
Them Alive! where a Companion is eliminated, Shadowfax in a group's movement); the rest are in
:mod:`.abilities_battle` (Captain of the West, The White Rider, Servants of the White Hand in
combat, Sorcerer) and :mod:`.abilities_dice` (the Companions' nation steps, The Voice of
Saruman, Messenger of the Dark Tower). The registry test (``tests/wotr/test_registry.py``)
checks that every ability of the data has an entry here and that each entry is real: a callable,
or a :class:`Registered` key found in the registry it names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import abilities_battle as battle_abilities
from . import abilities_dice as dice_abilities
from .armies import leads, movable_characters
from .battle.forces import LEADERSHIP_MODIFIERS, STRENGTH_MODIFIERS
from .battle.round import REVEAL_HOOKS
from .battle.sequence import BATTLE_START_HOOKS
from .characters_entry import ENTRY, REPLACES
from .companions import HOBBITS, eliminate_companion, group_level, separate_companions
from .dice import DIE_ACTIONS
from .events import GuideDraw, guide_draws
from .fellowship import settle_guide
from .hunt import hide_legal, rerolls
from .hunt_tiles import ResolveTile, gollum_guides, tile_reveals
from .minions import FLYERS, flight_destinations, minion_destinations, mouth_destinations


@dataclass(frozen=True)
class Registered:
    """An ability that is an entry of a registry (a die action, a hook list, a table)."""

    registry: Any  # a dict or a list
    key: Any
    name: str

    def present(self) -> bool:
        return self.key in self.registry


def _die_action(name: str) -> Registered:
    return Registered(DIE_ACTIONS, name, f"die action {name!r}")


def _entry(character_id: str) -> Registered:
    return Registered(ENTRY, character_id, f"entry condition of {character_id!r}")


_CAPTAIN = (battle_abilities.captain_of_the_west,
            Registered(STRENGTH_MODIFIERS, battle_abilities.captain_of_the_west,
                       "Combat Strength modifier captain_of_the_west"))
_HOBBIT_GUIDE = (ResolveTile.guide_ability, separate_companions)
_TAKE_THEM_ALIVE = (eliminate_companion, Registered(HOBBITS, "meriadoc", "HOBBITS"))

# character id -> ability name ("guide" for the Guide ability, then the card's names; a few
# card notes too) -> what implements it
ABILITIES: dict[str, dict[str, tuple[Any, ...]]] = {
    "gandalf-the-grey": {
        "guide": (guide_draws, GuideDraw),
        "Captain of the West": _CAPTAIN,
        "Emissary from the West": (_entry("gandalf-the-white"),
                                   Registered(REPLACES, "gandalf-the-white", "REPLACES")),
    },
    "strider": {
        "guide": (hide_legal, _die_action("hide")),
        "Captain of the West": _CAPTAIN,
        "Heir to Isildur": (_entry("aragorn"), Registered(REPLACES, "aragorn", "REPLACES")),
    },
    "boromir": {
        "Captain of the West": _CAPTAIN,
        "High Warden of the White Tower": (dice_abilities.high_warden_of_the_white_tower,
                                           Registered(dice_abilities.NATION_ABILITIES,
                                                      "boromir", "NATION_ABILITIES"),
                                           _die_action("nation-ability")),
    },
    "legolas": {
        "Captain of the West": _CAPTAIN,
        "Prince of Mirkwood": (dice_abilities.prince_of_mirkwood,
                               Registered(dice_abilities.NATION_ABILITIES, "legolas",
                                          "NATION_ABILITIES"),
                               _die_action("nation-ability")),
    },
    "gimli": {
        "Captain of the West": _CAPTAIN,
        "Dwarf of Erebor": (dice_abilities.dwarf_of_erebor,
                            Registered(dice_abilities.NATION_ABILITIES, "gimli",
                                       "NATION_ABILITIES"),
                            _die_action("nation-ability")),
    },
    "meriadoc": {"guide": _HOBBIT_GUIDE, "Take Them Alive!": _TAKE_THEM_ALIVE},
    "peregrin": {"guide": _HOBBIT_GUIDE,
                 "Take Them Alive!": (eliminate_companion,
                                      Registered(HOBBITS, "peregrin", "HOBBITS"))},
    "aragorn": {"Captain of the West": _CAPTAIN, "entry": (_entry("aragorn"),)},
    "gandalf-the-white": {
        "Shadowfax": (group_level,),
        "The White Rider": (battle_abilities.offer_white_rider, battle_abilities.WhiteRider,
                            battle_abilities.white_rider,
                            Registered(BATTLE_START_HOOKS, battle_abilities.offer_white_rider,
                                       "battle start hook offer_white_rider"),
                            Registered(LEADERSHIP_MODIFIERS, battle_abilities.white_rider,
                                       "Leadership modifier white_rider")),
        "entry": (_entry("gandalf-the-white"),),
    },
    "gollum": {
        "guide": (tile_reveals, gollum_guides, ResolveTile.guide_ability),
        "entry": (settle_guide,),
    },
    "saruman": {
        "The Voice of Saruman": (dice_abilities.voice_modes, dice_abilities.VoiceOfSaruman,
                                 _die_action("voice-of-saruman")),
        "Servants of the White Hand": (leads, battle_abilities.servants_of_the_white_hand,
                                       Registered(LEADERSHIP_MODIFIERS,
                                                  battle_abilities.servants_of_the_white_hand,
                                                  "Leadership modifier servants")),
        "never leaves Orthanc": (movable_characters, minion_destinations),
        "entry": (_entry("saruman"),),
    },
    "witch-king": {
        "Sorcerer": (battle_abilities.sorcerer, battle_abilities.SorcererDraw,
                     Registered(REVEAL_HOOKS, battle_abilities.sorcerer,
                                "Combat card reveal hook sorcerer")),
        "counts as a Nazgûl": (battle_abilities.nazgul_leadership, rerolls,
                               Registered(FLYERS, "witch-king", "FLYERS"), flight_destinations),
        "entry": (_entry("witch-king"),),
    },
    "mouth-of-sauron": {
        "Messenger of the Dark Tower": (dice_abilities.messenger_legal, dice_abilities.Messenger,
                                        _die_action("messenger")),
        "moves up to 3 regions alone": (mouth_destinations,),
        "entry": (_entry("mouth-of-sauron"),),
    },
}


def missing(character_id: str, ability: str) -> list[str]:
    """What of an ability's entry is not real: a non-callable, or a registration not found."""
    out = []
    for item in ABILITIES.get(character_id, {}).get(ability, ()):
        if isinstance(item, Registered):
            if not item.present():
                out.append(item.name)
        elif not callable(item):
            out.append(repr(item))
    return out


__all__ = ["ABILITIES", "Registered", "missing"]
