"""The typed frame of the wildling cards' choices (``wildling_choice``, D-10 to D-19; the
attack's own frame is :class:`~got_env.engine.frames.WildlingAttackFrame`). Declared here, next
to the wildling modules, on the one :class:`~got_env.engine.frames.Frame` base: it reads, writes
and hashes as the dict it replaces (:meth:`~got_env.engine.frames.Frame.to_dict` rebuilds it
key for key, ``kind`` back to the plain int the dict held), so recorded games replay unchanged.
"""

from __future__ import annotations

from typing import ClassVar

from .decision import DecisionKind
from .frames import MISSING, Convert, Frame, _Missing, frame_class


@frame_class
class WildlingChoiceFrame(Frame):
    """One card choice (got_env.engine.wildling_choices): its ``kind`` (which choice, and so
    its options and what a pick does), the ``house`` it is about, the picks (or, with
    ``points``, mustering points) ``left``, the ``player`` asked (the house itself, but the Iron
    Throne holder for Preemptive Raid's track). The rest only where a kind needs it: ``areas``
    (None: anywhere) and ``same_area`` for the units destroyed, ``tracks`` for Preemptive
    Raid's tied highest tracks, ``points`` for the 1st edition's losses in mustering points.
    The fields are in the order the dict had its keys (whoever asks the choice gives at most
    one of the three groups)."""

    step: ClassVar[str] = "wildling_choice"
    TYPED: ClassVar[dict[str, Convert]] = {"kind": DecisionKind}
    PLAIN: ClassVar[dict[str, Convert]] = {"kind": int}  # the dict held the kind's number

    kind: DecisionKind
    house: int
    left: int
    player: int
    areas: list[int] | None | _Missing = MISSING
    same_area: bool | _Missing = MISSING
    tracks: list[int] | _Missing = MISSING
    points: bool | _Missing = MISSING
