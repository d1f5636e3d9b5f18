"""Plan-level search: a few whole plans of a base policy, each rolled out to the plan's end, the
best one followed (issue 39, item 3).

**Why plans, not single decisions.** A strong heuristic (AGoT's ``heuristic_v2``) decides a
round's orders or a March at once; a search over single decisions (IS-MCTS) must rebuild those
plans move by move and pays for it (68 s a game). Here a *plan* is the base agent itself, with one
seed and temperature, playing our seat until the plan ends: the search only asks which of the
base agent's own plans to follow, so that every candidate is coherent and few rollouts tell them
apart.

**Where plans start and end** comes from the game's plugin piece ``search``
(:func:`search_piece`; AGoT: ``got_env/tools/search.py``: the first order placement of a round,
each influence bid and house card, to the round's end; War of the Ring: the Hunt allocation and
a side's first action die of a turn, to the turn's end). A game without the piece: every
decision starts a plan, which lasts the seat's next decision, and the base policy is the game's
``default_policy``.

**One search** (:meth:`PlanSearchAgent.search`), at a plan start with more than one option:

1. *candidates*: candidate 0 is the base agent with the piece's ``BASE_OPTIONS`` (AGoT: v2 at
   temperature 0); candidates 1.. are the base agent with ``CANDIDATE_OPTIONS`` (a temperature)
   and a seed each, kept only if their first decisions (our seat's decisions from the plan start
   to the first decision of another player, in one determinization) differ from every kept
   candidate's, up to ``plans`` distinct ones; a piece with ``WIDEN`` fills the rest with the
   other first actions, each followed by candidate 0's agent;
2. *rollouts*: ``rollouts`` determinizations of the true state for our seat
   (``game.determinize``: only what the seat observes, the others' hidden choices re-made by the
   base policy), the same for every candidate (common random numbers: the same samples and
   seeds, so that candidates differ only by their plans); in each, our seat plays the
   candidate, the others the base policy (as it plays: AGoT's v2 at its own temperature), to
   the horizon;
3. *value*: the seat's share of :func:`agents.ismcts.evaluate` (the outcome of an ended game,
   else a softmax of the game's ``standing``), or of a learned value (``value=``: a callable on
   the seats' observations, :func:`agents.ismcts.value_reward`);
4. *commit*: the best mean (ties: the lower candidate, so candidate 0) is played for the rest of
   the plan: a fresh agent of the same seed and options acting on the real game, which makes
   the same choices as in the rollouts where it sees the same observations (its first action
   is the one searched, since a seat's first decisions depend on its observation only). After
   the horizon, the base agent (candidate 0's options) plays until the next plan start; a plan
   start within a plan begins a new search.

The search reads the state only through ``game.determinize``, so two true states the seat cannot
tell apart give the same move (tests/test_plan_search.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

import numpy as np
import pydantic
from pydantic import ConfigDict, Field, Strict

from agents.ismcts import (
    ObservationPolicy,
    ValueFunction,
    check_numbers,
    default_policy,
    evaluate,
    resolve_game,
    resolve_value,
    value_reward,
)
from agents.registry import REGISTRY, kind_of
from boardkit import games
from boardkit.protocol import Action, Decision, Game

State = Any
#: At most this many seeds are drawn per wanted candidate before the search settles for fewer
#: distinct plans (a nearly deterministic base agent repeats itself).
DRAWS_PER_PLAN = 2
#: The first decisions compared to tell plans apart stop after this many of our seat's own.
SIGNATURE_DECISIONS = 40


# -- the game's piece --------------------------------------------------------------------------


def _every_decision(state: State, decision: Decision) -> bool:
    return True


@dataclass(frozen=True)
class SearchPiece:
    """What a game tells the plan search (its plugin's ``search`` piece; module docstring).

    ``base_policy``: the agent kind whose plans are searched (None: the game's
    ``default_policy``, else random play); ``plan_start(state, decision)``: whether a decision
    starts a plan; ``horizon``: ``"round"`` (until ``game.round`` changes) or n (the seat's next n
    decisions); ``base_options`` / ``candidate_options``: keyword arguments of the base agent
    for candidate 0 and for the others (given only where its factory takes them); ``widen``:
    fill the candidates up with other first actions: a bool, or a function ``(state, decision) ->
    bool`` (the piece's ``widen``, over its ``WIDEN``)."""

    base_policy: str | None = None
    plan_start: Callable[[State, Decision], bool] = _every_decision
    horizon: str | int = 1
    base_options: Mapping[str, Any] = field(default_factory=dict)
    candidate_options: Mapping[str, Any] = field(default_factory=dict)
    widen: bool | Callable[[State, Decision], bool] = True


def search_piece(game: Game) -> SearchPiece:
    """The plugin's ``search`` piece of ``game`` (a game registered by its name), each member
    it leaves out at the default of :class:`SearchPiece`; all defaults for an unregistered
    game or one without the piece."""
    try:
        plugin = games.plugin(game.name)
    except KeyError:
        plugin = None
    if plugin is None or plugin.game is not game or plugin.search is None:
        return SearchPiece(base_policy=default_policy(game))
    module = plugin.search()
    defaults = SearchPiece()
    return SearchPiece(
        base_policy=getattr(module, "BASE_POLICY", None) or default_policy(game),
        plan_start=getattr(module, "plan_start", defaults.plan_start),
        horizon=getattr(module, "HORIZON", defaults.horizon),
        base_options=dict(getattr(module, "BASE_OPTIONS", {})),
        candidate_options=dict(getattr(module, "CANDIDATE_OPTIONS", {})),
        widen=getattr(module, "widen", None) or bool(getattr(module, "WIDEN", defaults.widen)))


# -- options -----------------------------------------------------------------------------------

_Int = Annotated[int, Strict()]
_Float = Annotated[float, Strict()]


@pydantic.dataclasses.dataclass(frozen=True, kw_only=True,
                                config=ConfigDict(allow_inf_nan=False))
class PlanNumbers:
    """The numbers of a plan search with their ranges (:class:`PlanSearchAgent`'s parameters of
    the same names), checked when a config is read (:meth:`PlanSearchAgent.check_options`)."""

    plans: _Int = Field(6, ge=1, le=1000)
    rollouts: _Int = Field(3, ge=1, le=100_000)
    temperature: _Float | None = Field(None, ge=0, le=1000)


def check_horizon(horizon: Any) -> None:
    """ValueError unless ``horizon`` is None (the game's), ``"round"`` or a count >= 1."""
    if horizon is None or horizon == "round":
        return
    if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1:
        raise ValueError(f"horizon must be 'round', a number of the seat's decisions >= 1, or "
                         f"None (the game's), got {horizon!r}")


# -- candidates --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """One plan: the base agent built with ``options`` and ``seed`` playing our seat, after
    ``first`` (a forced first action) if given."""

    seed: int
    options: Mapping[str, Any]
    first: Action | None = None


def _build(factory: Callable[..., Any], env: Any, seed: int, options: Mapping[str, Any]) -> Any:
    """An agent of ``factory`` given ``env``, ``seed`` and those ``options`` it takes."""
    params = _parameters(factory)
    kw: dict[str, Any] = {k: v for k, v in options.items() if k in params}
    if "env" in params:
        kw["env"] = env
    if "seed" in params:
        kw["seed"] = seed
    return factory(**kw)


def _parameters(fn: Callable[..., Any]) -> Mapping[str, Any]:
    import inspect

    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}


class _Seat:
    """Our seat's play in a simulation: the candidate's agent over a :class:`SimEnv`, its
    forced first action first."""

    def __init__(self, candidate: Candidate, factory: Callable[..., Any], ruleset: Any,
                 num_players: int, game: Game):
        self.first = candidate.first
        self.policy = ObservationPolicy(
            ruleset, num_players, game=game,
            factory=lambda env=None: _build(factory, env, candidate.seed, candidate.options))

    def __call__(self, state: State, decision: Decision, rng: np.random.Generator) -> Action:
        if self.first is not None:
            first, self.first = self.first, None
            return first
        return self.policy(state, decision, rng)


# -- the agent ---------------------------------------------------------------------------------


class PlanSearchAgent:
    """Follows the best of a few plans of the base policy at each plan start (module docstring).

    Needs the env (``env=``), like :class:`agents.ismcts.ISMCTSAgent`: it reads the true state
    only to determinize it for the acting seat.

    :param plans: K, the most distinct candidate plans per search (1: the base agent alone).
    :param rollouts: R, rollouts per candidate (the same R samples for every candidate).
    :param horizon: None (the game's piece), ``"round"`` or the seat's next n decisions.
    :param value: None (the hand-written standing), a value function on the seats'
        observations (:data:`agents.ismcts.ValueFunction`) or a checkpoint path.
    :param temperature: the candidates' temperature where the base agent has one (None: the
        piece's ``CANDIDATE_OPTIONS``).
    :param base: the agent kind whose plans are searched (None: the piece's).
    :param widen: fill the candidates up with the other first actions (None: as the piece says;
        True/False: at every plan start or never).
    :param seed: seeds the candidates' seeds and the determinizations.
    :param game: the game (an object or a registry name; None: the env's ``game_name``).
    """

    def __init__(self, env: Any, plans: int = 6, rollouts: int = 3,
                 horizon: str | int | None = None, value: ValueFunction | str | None = None,
                 temperature: float | None = None, base: str | None = None,
                 widen: bool | None = None, seed: int | None = None,
                 game: Game | str | None = None):
        self.check_options(dict(plans=plans, rollouts=rollouts, horizon=horizon, value=value,
                                temperature=temperature, base=base, widen=widen))
        self.env = env
        raw = env.unwrapped
        self.game = resolve_game(game if game is not None else getattr(raw, "game_name", None))
        self.piece = search_piece(self.game)
        self.plans = plans
        self.rollouts = rollouts
        self.horizon = self.piece.horizon if horizon is None else horizon
        self.widen = self.piece.widen if widen is None else widen
        self.value = resolve_value(value)
        kind = base or self.piece.base_policy
        if kind is None:
            kind = "random"
        self.base_kind = kind_of(kind, "the plan search's base policy")
        self.factory = REGISTRY[self.base_kind]
        self.base_options = dict(self.piece.base_options)
        self.candidate_options = dict(self.piece.candidate_options)
        if temperature is not None:
            self.candidate_options["temperature"] = temperature
        self.ruleset = getattr(raw, "ruleset", None)
        self.num_players = raw.num_players
        self.rng = np.random.default_rng(seed)
        self.seconds = 0.0        # time spent searching (all searches of this agent)
        self.searches = 0
        self.last_means: list[float] = []
        self.last_candidates: list[Candidate] = []
        self.last_choice: int | None = None
        self.reset()

    @classmethod
    def check_options(cls, kwargs: Mapping[str, Any]) -> None:
        """The numbers (:class:`PlanNumbers`), ``horizon``, ``value``, ``widen`` and ``base``
        of a spec's keyword arguments, checked without building the agent (a ValueError naming
        the option)."""
        check_numbers(PlanNumbers, kwargs)
        check_horizon(kwargs.get("horizon"))
        value = kwargs.get("value")
        if value is not None and not callable(value) and (not isinstance(value, str)
                                                          or not value):
            raise ValueError(f"value must be None, a checkpoint path or a callable on "
                             f"observations, got {value!r}")
        if kwargs.get("widen") not in (None, True, False):
            raise ValueError(f"widen must be true, false or None (the game's), got "
                             f"{kwargs['widen']!r}")
        base = kwargs.get("base")
        if base is not None:
            kind_of(base, "the plan search's option base")

    def reset(self) -> None:
        """A new game: no plan, a fresh base agent."""
        self._plan: Any = None
        self._plan_first: Action | None = None
        self._plan_round = 0
        self._plan_left = 0
        self._base = _build(self.factory, self.env, int(self.rng.integers(2**31)),
                            self.base_options)

    # -- acting --------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask: this agent is not to act")
        raw = self.env.unwrapped
        state = raw.game
        decision = self.game.pending(state)
        seat = self.game.player_index(state, raw.agent_selection)
        if legal.size > 1 and self.piece.plan_start(state, decision):
            start = time.perf_counter()
            candidate = self.search(state, seat)
            self.seconds += time.perf_counter() - start
            self.searches += 1
            self._commit(state, candidate)
        elif self._plan is not None and not self._plan_over(state):
            pass
        else:
            self._plan = None
        agent = self._base if self._plan is None else self._plan
        if self._plan is not None:
            self._plan_left -= 1
            if self._plan_first is not None:
                first, self._plan_first = self._plan_first, None
                return int(raw.codec.encode(first))
        return int(agent.act(observation, action_mask, info))

    def _commit(self, state: State, candidate: Candidate) -> None:
        self._plan = _build(self.factory, self.env, candidate.seed, candidate.options)
        self._plan_first = candidate.first
        self._plan_round = self.game.round(state)
        self._plan_left = self.horizon if isinstance(self.horizon, int) else 0

    def _plan_over(self, state: State) -> bool:
        if self.horizon == "round":
            return self.game.round(state) != self._plan_round
        return self._plan_left <= 0

    # -- the search ----------------------------------------------------------------------------
    def search(self, state: State, seat: int) -> Candidate:
        """The candidate to follow from the plan start ``state`` (our ``seat`` decides)."""
        game = self.game
        seeds = [int(s) for s in self.rng.integers(2**31, size=self.rollouts)]
        samples = [game.determinize(state, seat, np.random.default_rng(s),
                                    model=self._others(s)) for s in seeds]
        candidates = self._candidates(samples[0], seat)
        self.last_candidates = candidates
        if len(candidates) == 1:
            self.last_means, self.last_choice = [], 0
            return candidates[0]
        means = []
        for candidate in candidates:
            total = 0.0
            for s, sample in zip(seeds, samples, strict=True):
                total += self._rollout(game.clone(sample), seat, candidate, s)
            means.append(total / len(samples))
        best = 0
        for k, m in enumerate(means):
            if m > means[best]:
                best = k
        self.last_means, self.last_choice = means, best
        return candidates[best]

    def _others(self, seed: int) -> ObservationPolicy:
        """The base policy as it plays (its own options), for every seat but ours."""
        return ObservationPolicy(self.ruleset, self.num_players, factory=self.factory,
                                 seed=seed, game=self.game)

    def _candidates(self, sample: State, seat: int) -> list[Candidate]:
        """Candidate 0 and up to ``plans - 1`` others with distinct first decisions."""
        decision = self.game.pending(sample)
        kept = [Candidate(int(self.rng.integers(2**31)), self.base_options)]
        signatures = {self._signature(sample, seat, kept[0])}
        draws = 0
        while len(kept) < self.plans and draws < DRAWS_PER_PLAN * (self.plans - 1):
            draws += 1
            candidate = Candidate(int(self.rng.integers(2**31)), self.candidate_options)
            signature = self._signature(sample, seat, candidate)
            if signature not in signatures:
                signatures.add(signature)
                kept.append(candidate)
        widen = self.widen
        if callable(widen):
            widen = widen(sample, decision)
        if widen and len(kept) < self.plans:
            firsts = {sig[0] for sig in signatures}
            others = [a for a in decision.options if a not in firsts]
            for i in self.rng.permutation(len(others))[:self.plans - len(kept)]:
                kept.append(Candidate(kept[0].seed, self.base_options, first=others[int(i)]))
        return kept

    def _signature(self, sample: State, seat: int, candidate: Candidate) -> tuple[Action, ...]:
        """The candidate's first decisions: our seat's actions from the plan start until another
        player decides, the horizon, or :data:`SIGNATURE_DECISIONS` (a function of our seat's
        observations only)."""
        game = self.game
        s = game.clone(sample)
        play = self._seat(candidate)
        rng = np.random.default_rng(0)
        start_round = game.round(s)
        actions: list[Action] = []
        while len(actions) < SIGNATURE_DECISIONS:
            d = game.pending(s)
            if d is None or d.player != seat or self._past(s, d, seat, start_round, len(actions)):
                break
            a = play(s, d, rng)
            actions.append(a)
            game.apply(s, a)
        return tuple(actions)

    def _seat(self, candidate: Candidate) -> _Seat:
        return _Seat(candidate, self.factory, self.ruleset, self.num_players, self.game)

    def _past(self, s: State, d: Decision, seat: int, start_round: int, own: int) -> bool:
        """Whether a simulation at ``s``, pending ``d``, is past the horizon (``own``: our seat's
        decisions so far): the round has changed, or our seat is to make its decision n + 1 (so
        that the others' answers to our n decisions are played, as a Goofspiel turn is)."""
        if self.horizon == "round":
            return self.game.round(s) != start_round
        return d.player == seat and own >= self.horizon

    def _rollout(self, s: State, seat: int, candidate: Candidate, seed: int) -> float:
        """Our seat's reward after playing ``candidate`` in the sample ``s`` to the horizon."""
        game = self.game
        mine, others = self._seat(candidate), self._others(seed + 1)
        rng = np.random.default_rng(seed)
        start_round = game.round(s)
        own = 0
        while True:
            d = game.pending(s)
            if d is None or self._past(s, d, seat, start_round, own):
                break
            if d.player == seat:
                game.apply(s, mine(s, d, rng))
                own += 1
            else:
                game.apply(s, others(s, d, rng))
        reward = evaluate(s, game=game) if self.value is None \
            else value_reward(s, self.value, game)
        return float(reward[seat])

