"""Decision kinds (WD-01 ... WD-38, ``../shared/DECISIONS-wotr.md``) and the action vocabulary.

The engine always waits on one :class:`boardkit.decision.Decision` whose ``kind`` is a
:class:`WD` member. An action is a small tuple whose first item names its segment of the action
space (``docs/wotr-engine.md``): ``("region", r)``, ``("edge", a, b)``, ``("die", face)``,
``("choice", name)``... Choices are named by strings from one closed list (:data:`CHOICES`), so
the action space stays fixed.
"""

from __future__ import annotations

import enum

from boardkit.decision import Decision, IllegalActionError

Action = tuple


class WD(enum.IntEnum):
    """Kinds of decision, numbered and named as in ../shared/DECISIONS-wotr.md."""

    DISCARD = 1
    DECLARE_FELLOWSHIP = 2
    FELLOWSHIP_PATH = 3
    ENTER_MORDOR = 4
    CHANGE_GUIDE = 5
    HUNT_ALLOCATION = 6
    CHOOSE_DIE = 7
    DIE_ACTION = 8
    ARMY_MOVE = 9
    SPLIT_ARMY = 10
    ATTACK_TARGET = 11
    REARGUARD = 12
    STRONGHOLD_CHOICE = 13
    SIEGE_ADVANCE = 14
    COMBAT_CARD = 15
    COMBAT_CARD_CHOICE = 16
    CASUALTY = 17
    CEASE_OR_CONTINUE = 18
    RETREAT = 19
    EXTEND_SIEGE = 20
    ADVANCE_AFTER_BATTLE = 21
    SEPARATE_COMPANIONS = 22
    MOVE_COMPANIONS = 23
    MOVE_MINIONS = 24
    HUNT_TABLE_CARD = 25
    HUNT_GUIDE_ABILITY = 26
    HUNT_CASUALTY = 27
    MUSTER_COMBINATION = 28
    MUSTER_PLACEMENT = 29
    BRING_CHARACTER = 30
    DIPLOMACY = 31
    PLAY_EVENT = 32
    DRAW_CARD = 33
    EVENT_CHOICE = 34
    EVENT_CASUALTY = 35
    OVERSTACK = 36
    EXTRA_DRAW = 37
    CHARACTER_ABILITY = 38

    @property
    def label(self) -> str:
        return f"WD-{self.value:02d} {self.name}"


# The die faces (facts §5), in the order of the DIE segment.
FACES = ("character", "army", "muster", "army_muster", "event", "will_of_the_west", "eye")
CHARACTER, ARMY, MUSTER, ARMY_MUSTER, EVENT, WILL, EYE = range(7)

# Named options of ("choice", name) actions: one closed list.
CHOICES = (
    "yes", "no", "pass", "skip", "none", "all", "part", "declare", "field-battle",
    "into-siege", "advance", "stay", "cease", "continue", "guide", "random-companion", "stop",
    "deck-character", "deck-strategy", "muster-2r", "muster-2l", "muster-rl", "muster-e",
    # Shadow Character cards (cards/shadow_character*.py)
    "random-card", "hunt-roll", "move", "attack", "recruit", "corruption", "eliminate",
    # Saruman's The Voice of Saruman (abilities_dice.py)
    "voice-recruit", "voice-elites",
)

# Die actions (the ACTION segment): what a die of a face may do (facts §7.1).
DIE_ACTIONS = (
    "move-armies", "attack", "leader-move", "leader-attack", "move-fellowship", "hide",
    "separate", "move-companions", "move-minions", "play-event", "draw-event", "diplomacy",
    "muster", "bring-character", "bring-minion", "nation-ability", "voice-of-saruman", "messenger",
    "will-as-face", "skip",
    "discard-palantir",  # The Palantir of Orthanc's forced discard (facts §6.4 #21)
    "discard-table-card",  # a table card its text lets a die end (cards/table.py)
)

DONE: Action = ("done",)


def choice(name: str) -> Action:
    """The action that picks the named choice (ValueError for an unknown name)."""
    if name not in CHOICES:
        raise ValueError(f"unknown choice {name!r}")
    return ("choice", name)


__all__ = ["CHOICES", "DIE_ACTIONS", "DONE", "FACES", "WD", "Action", "Decision",
           "IllegalActionError", "choice"]
