"""War of the Ring's PettingZoo AEC env: the kit's :class:`boardkit.aec.KitEnv` over
:data:`wotr_env.game.GAME`.

``wotr_env.env(ruleset="2e", max_turns=None, reward="zero_sum", max_steps=None,
render_mode=None, info_format="numeric")``. Agents ``free_peoples`` and ``shadow``; one acts at a
time (the pending decision's side), secret choices included (the observation keeps them from the
other side: :mod:`wotr_env.encoding.observation`). The action space is one ``Discrete`` of
named segments (:mod:`wotr_env.encoding.actions`), the mask exact.

Ends: a victory condition terminates the game (reward +1 / -1 under ``zero_sum``, 1 / 0 under
``rank``); ``max_turns`` (a game option: the rules have no limit) or ``max_steps`` (decisions)
truncates it, with no reward and the standing in the infos (reason ``"truncated"``).

Infos, ``info_format="numeric"`` (the default; the same keys every step, so that a library
building tensors from infos sees one shape): ``decision`` (the WD number of the pending kind for
the side to act, else 0), ``num_legal``, ``outcome`` (0 while on, else 1 + the index in
:data:`OUTCOMES`), ``winner`` (-1, or 0 free_peoples / 1 shadow), ``ranking`` (two seats, or
-1s). ``"text"``: the kit's words (``decision`` label, ``outcome`` reason, agent names).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardkit.aec import KitEnv
from boardkit.codec import SegmentCodec
from boardkit.order import OrderEnforcing

from .encoding import ObservationEncoder, codec_for, encoder_for
from .engine import apply as engine_apply
from .engine.decision import WD
from .engine.state import SIDE_NAMES
from .game import ENDINGS, GAME, TRUNCATED, check_options

RENDER_MODES = ("ansi", "rgb_array", "human")
INFO_FORMATS = ("numeric", "text")
#: ``infos[agent]["outcome"]`` (numeric) is ``OUTCOMES.index(reason) + 1``; 0: the game is on
OUTCOMES = (*ENDINGS, TRUNCATED)


class raw_env(KitEnv):  # noqa: N801  (PettingZoo's naming)
    """War of the Ring's AEC env (module docstring)."""

    metadata = {"name": "wotr_v0", "render_modes": list(RENDER_MODES),
                "is_parallelizable": False, "render_fps": 1}
    info_formats = INFO_FORMATS
    numbered_kinds = True

    def __init__(self, ruleset: str = "2e", max_turns: int | None = None,
                 num_players: int = 2, **env_options: Any):
        if num_players != 2:  # a tool (the batched API, training) may name the count
            raise ValueError(f"War of the Ring has 2 players (free_peoples, shadow), got "
                             f"num_players={num_players!r}")
        self.ruleset_name, self.max_turns = check_options({"ruleset": ruleset,
                                                           "max_turns": max_turns})
        super().__init__(GAME, {"ruleset": ruleset, "max_turns": max_turns}, **env_options)
        self.ruleset = self.ruleset_name
        self._apply = engine_apply  # the engine directly: one call fewer per step
        self._idle_info = None if self.info_format == "text" else self._numeric(0, 0, None)

    # -- the kit's hooks ------------------------------------------------------------------------
    def _tables(self) -> tuple[SegmentCodec, ObservationEncoder, dict[str, int]]:
        """The ruleset's codec and encoder, without a probe state."""
        return (codec_for(self.ruleset_name), encoder_for(self.ruleset_name),
                {name: i for i, name in enumerate(SIDE_NAMES)})

    def _finish(self) -> None:
        if self.game.truncated and self.game.winner < 0:
            self._truncate()
            return
        super()._finish()

    def turn_info(self, kind: Any, num_legal: int) -> dict[str, Any]:
        if self.info_format == "text":
            return {"decision": WD(kind).label, "num_legal": num_legal}
        return self._numeric(int(kind), num_legal, None)

    def _end_info(self, reason: str, ranking: tuple[int, ...],
                  drawn: tuple[int, ...]) -> dict[str, Any]:
        if self.info_format == "text":
            return super()._end_info(reason, ranking, drawn)
        return self._numeric(0, 0, (reason, ranking))

    @staticmethod
    def _fresh(info: dict[str, Any]) -> dict[str, Any]:
        fresh = info.copy()
        fresh["ranking"] = info["ranking"].copy()
        return fresh

    def _numeric(self, decision: int, num_legal: int,
                 end: tuple[str, tuple[int, ...]] | None) -> dict[str, Any]:
        if end is None:
            return {"decision": decision, "num_legal": num_legal, "outcome": 0, "winner": -1,
                    "ranking": [-1, -1]}
        reason, ranking = end
        return {"decision": 0, "num_legal": 0, "outcome": OUTCOMES.index(reason) + 1,
                "winner": int(ranking[0]), "ranking": [int(p) for p in ranking]}

    def _picture(self) -> np.ndarray:
        from .render import picture  # matplotlib (heavy): loaded only when a picture is drawn

        return picture(self.game)




def env(**options: Any) -> OrderEnforcing:
    """The wrapped env (the kit's order enforcing), as ``got_env.env`` is."""
    return OrderEnforcing(raw_env(**options))  # type: ignore[arg-type]


__all__ = ["INFO_FORMATS", "OUTCOMES", "RENDER_MODES", "env", "raw_env"]
