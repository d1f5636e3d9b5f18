"""Information-set Monte Carlo tree search (single observer, Cowling, Powley & Whitehouse 2012).

**How it sees the game.** The PettingZoo env gives an agent only its observation; a search agent
needs a full state to simulate from. :class:`ISMCTSAgent` is therefore built with the env
(``ISMCTSAgent(env=env)``; ``experiments/play.py`` and the tournament pass ``env=`` to agents
whose constructor takes it) and hands ``env.unwrapped.game`` and the acting house
(``env.unwrapped.agent_selection``) to the search. The search knows no game: it plays one
through the kit's :class:`boardkit.protocol.Game` (``game=``: an object or a registry name;
the agent's default: its env's ``game_name``), and reads the state *only through*
``game.determinize``: every iteration starts from a fresh determinization, a clone in which
everything the acting house cannot know (AGoT: other houses' hidden orders, secret bids and chosen
house cards, deck orders, Tides of Battle cards, the generator) is drawn again consistently with its
observation. The root decision is taken from a sample (it is the house's own, the same in
every sample) and the move is checked against the action mask. Since a sample depends only on
what the house observes, so does the search: two true states the house cannot tell apart give
the same move (tests/test_ismcts.py checks this).

**One iteration** (:meth:`ISMCTS.search`):

1. *determinize* the root state for the acting house (the observer); other houses' hidden
   choices are re-made by a ``model`` policy (the heuristic agent by default) or uniformly;
2. *select*: descend the tree, one node per decision seen by the observer, children keyed by
   ``(player, action)``; at each node only the children legal in this determinization compete
   (availability-aware UCB1: ``mean + c * sqrt(ln(availability) / visits)``, where availability
   counts the iterations in which the child was legal). Other houses' *secret* choices (orders,
   bids, house cards) are not tree nodes: the observer never sees them, so they are played by
   the rollout policy and the tree goes on past them (the observer's information set does not
   branch on them). Public choices of every house are nodes, each maximising its own reward;
3. *expand* one untried legal action: the ``prior`` policy's choice first, then random ones;
   with progressive ``widening`` a node visited n times has at most 1 + widening * sqrt(n)
   children, so a small budget refines the prior's play instead of spreading thin over the
   ~20 options of an order placement;
4. *roll out* with a pluggable policy ``(state, decision, rng) -> action`` until the game ends,
   the round ends (``horizon="round"``, ``game.round``), or ``max_decisions`` decisions after
   the root;
5. *evaluate* (:func:`evaluate`): a per-house reward vector in [0, 1]: the shares of the win
   of an ended game (``game.outcome``), else a softmax share of the game's ``standing`` (AGoT:
   a material score, castles first, then land areas, units, supply and power);
6. *backpropagate*: each node adds the reward of the house that chose the action leading to it.

The move played is the root's most visited child. Budget: ``simulations`` per decision, at most
``per_option`` per legal option (a yes/no question costs little), or ``seconds`` per decision.
When the house decides again right after its move with nothing new observed (its next order
placement, March move or muster), the search starts from the subtree of that move, whose
visits count towards the budget (``reuse``).

Policies: :func:`random_policy`, and :class:`ObservationPolicy`, which turns any observation
agent (``act(observation, action_mask, info) -> index``, e.g. the heuristic agent) into a
policy: it encodes the simulated state from the deciding house's point of view and hands it a
small env-like view (:class:`SimEnv`) of the simulated game for agents built with ``env=``.
:func:`make_policy` builds either from a name.

Defaults of :class:`ISMCTSAgent` (50 simulations, 4 per option, the game's default policy for
rollouts, prior and model (AGoT: the heuristic), widening 1): about a minute per 3-player AGoT
game on one CPU core; ``configs/ismcts_vs_heuristic.yaml`` is the tournament that measures its
win rate against the heuristic agent.
"""

from __future__ import annotations

import importlib
import inspect
import math
import time
from collections.abc import Callable, Mapping
from typing import Annotated, Any

import annotated_types
import numpy as np
import pydantic
from pydantic import ConfigDict, Field, Strict

from agents.registry import REGISTRY
from boardkit import games
from boardkit.outcome import win_shares
from boardkit.protocol import Action, Codec, Decision, Encoder, Game

#: A rollout policy ``(state, decision, rng) -> action``; the state is the game's own.
Policy = Callable[[Any, Decision, np.random.Generator], Action]
#: A game's state, as its :class:`Game` takes it (the search never looks inside).
State = Any

def resolve_game(game: Game | str | None) -> Game:
    """A :class:`Game` from an object or a registry name; ValueError for None (a search plays
    the game it is given, never a default one)."""
    if game is None:
        raise ValueError("no game given: pass game= (a registry name such as 'got', or a "
                         "boardkit.protocol.Game)")
    return games.get(game) if isinstance(game, str) else game

# -- rollout policies --------------------------------------------------------------------------


def random_policy(state: State, decision: Decision, rng: np.random.Generator) -> Action:
    """A uniformly random legal option."""
    return decision.options[int(rng.integers(len(decision.options)))]


class SimEnv:
    """The part of the env an observation agent may read, over a simulated game: ``unwrapped``
    (itself), ``game`` (the simulated state, as an env's ``game``), ``ruleset`` (the env's rules
    variant, as given), ``codec``, ``encoder``, ``num_players``, ``possible_agents``,
    ``agent_selection``, ``observe(agent)``, ``legal_actions()``, ``action_name(i)``; ``rules``:
    the :class:`Game` it plays. Codec and encoder are the game's for the first state it is
    given, unless given."""

    def __init__(self, ruleset: Any, num_players: int, codec: Codec | None = None,
                 encoder: Encoder | None = None, game: Game | str | None = None):
        self.rules = resolve_game(game)
        self.ruleset = ruleset
        self.num_players = num_players
        self.codec = codec
        self.encoder = encoder
        self.possible_agents = self.rules.players({"ruleset": ruleset,
                                                   "num_players": num_players})
        self.agents = list(self.possible_agents)
        self.game: State | None = None
        self.agent_selection = self.possible_agents[0]

    @property
    def unwrapped(self) -> SimEnv:
        return self

    def set_game(self, state: State) -> None:
        rules = self.rules
        self.game = state
        if self.codec is None:
            self.codec = rules.codec(state)
        if self.encoder is None:
            self.encoder = rules.encoder(state)
        d = rules.pending(state)
        if d is not None:
            self.agent_selection = rules.player_name(state, d.player)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        house = self.rules.player_index(self.game, agent)
        d = self.rules.pending(self.game)
        mask = self.codec.mask(d.options) if d is not None and d.player == house else \
            np.zeros(self.codec.size, dtype=np.int8)
        return {"observation": self.encoder.encode(self.game, house), "action_mask": mask}

    def legal_actions(self) -> list[int]:
        d = self.rules.pending(self.game) if self.game is not None else None
        return sorted(self.codec.encode(a) for a in d.options) if d else []

    def action_name(self, action: int) -> str:
        return self.codec.name(int(action))


class ObservationPolicy:
    """An observation agent as a rollout policy: ``policy(state, decision, rng) -> action``.

    ``agent``: an object with ``act(observation, action_mask, info) -> int``; or ``factory``, a
    callable (an agent class, say) called once per house in play with ``seed=`` and, if it takes
    it, ``env=`` (a :class:`SimEnv` following the simulated game). One agent per house, built on
    first use, so that stateful agents keep one identity each. The agent sees exactly the
    deciding house's observation of the simulated state (and, through ``env``, the simulated
    game itself, which is a determinization: no true hidden information). ``ruleset``: the
    env's rules variant (AGoT: its Ruleset); ``game``: see :func:`resolve_game`.
    """

    def __init__(self, ruleset: Any, num_players: int, agent: Any = None,
                 factory: Callable[..., Any] | None = None, seed: int | None = None,
                 game: Game | str | None = None, **agent_kwargs: Any):
        if (agent is None) == (factory is None):
            raise ValueError("give exactly one of agent= and factory=")
        self.env = SimEnv(ruleset, num_players, game=game)
        self._agent = agent
        self._factory = factory
        self._kwargs = agent_kwargs
        self._seed = seed
        self._agents: dict[int, Any] = {}

    def agent_for(self, house: int) -> Any:
        if self._agent is not None:
            return self._agent
        if house not in self._agents:
            kw = dict(self._kwargs)
            params = _parameters(self._factory)
            if "env" in params:
                kw["env"] = self.env
            if "seed" in params and "seed" not in kw:
                kw["seed"] = None if self._seed is None else self._seed + house
            self._agents[house] = self._factory(**kw)
        return self._agents[house]

    def reset(self) -> None:
        """Before each simulation: agents forget plans made in another determinization."""
        for agent in [self._agent, *self._agents.values()]:
            if hasattr(agent, "reset"):
                agent.reset()

    def __call__(self, state: State, decision: Decision, rng: np.random.Generator) -> Action:
        env = self.env
        env.set_game(state)
        agent = self.agent_for(decision.player)
        obs = env.encoder.encode(state, decision.player)
        mask = env.codec.mask(decision.options)
        info = {"decision": decision.kind.label, "num_legal": len(decision.options)}
        return env.codec.decode(int(agent.act(obs, mask, info)))


def _parameters(fn: Callable[..., Any]) -> dict[str, Any]:
    try:
        return dict(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return {}


def default_policy(game: Game) -> str | None:
    """The agent registry name a game names for its searches' rollouts, priors and opponent
    models (the optional ``default_policy`` member of the protocol: AGoT's heuristic), or None:
    IS-MCTS then rolls out at random, with no prior and no model, so that a new game needs
    no agent of its own before it can be searched."""
    return getattr(game, "default_policy", None)


def make_policy(spec: str | Policy, ruleset: Any, num_players: int,
                seed: int | None = None, game: Game | str | None = None) -> Policy:
    """``"random"``, ``"heuristic"`` (got_env.agents.heuristic.HeuristicAgent through
    :class:`ObservationPolicy`), any other agent registry name, or a policy callable."""
    if callable(spec):
        return spec
    if spec == "random":
        return random_policy
    if spec not in REGISTRY:
        raise ValueError(f"unknown rollout policy {spec!r}: 'random', an agent name "
                         f"({sorted(REGISTRY)}) or a callable (state, decision, rng) -> action")
    return ObservationPolicy(ruleset, num_players, factory=REGISTRY[spec], seed=seed, game=game)


# -- evaluation --------------------------------------------------------------------------------

def evaluate(state: State, temperature: float = 1.0, game: Game | str | None = None
             ) -> np.ndarray:
    """float[player] in [0, 1]: the shares of the win of an ended game (of ``game.outcome``'s
    top score: 1 for the winner, 1/k for each of the k players of a draw); else a softmax share
    of ``game.standing`` with ``temperature`` (AGoT: of the material score, in castles). Not
    in play: 0."""
    game = resolve_game(game)
    scores = game.outcome(state)
    if scores is not None:
        return win_shares(scores)
    z = game.standing(state) / temperature
    z = np.exp(z - z.max())
    return z / z.sum()


#: A learned value: the observation vectors of the seats in play, float32[n, obs_size] -> each
#: seat's expected share of the win, float[n] (the ``value`` branch's ``ValueFunction``).
ValueFunction = Callable[[np.ndarray], np.ndarray]


def value_reward(state: State, value: ValueFunction, game: Game | str | None = None
                 ) -> np.ndarray:
    """float[player] in [0, 1] like :func:`evaluate`, but an unfinished position is scored by a
    learned ``value`` on each seat's own observation (``game.encoder(state).encode(state,
    seat)``) instead of the hand-written standing: its outputs, clipped at 0, as shares of the
    seats in play (those whose standing is finite; a uniform share if all are 0). An ended
    game: the shares of the win, as :func:`evaluate`."""
    game = resolve_game(game)
    scores = game.outcome(state)
    if scores is not None:
        return win_shares(scores)
    standing = np.asarray(game.standing(state), dtype=np.float64)
    seats = np.flatnonzero(np.isfinite(standing))
    encoder = game.encoder(state)
    observations = np.stack([encoder.encode(state, int(p)) for p in seats])
    v = np.asarray(value(observations), dtype=np.float64).reshape(-1)
    if v.shape != (len(seats),) or not np.isfinite(v).all():
        raise ValueError(f"the value function must give one finite number per observation: "
                         f"{len(seats)} observations in, {v.tolist()!r} out")
    v = np.clip(v, 0.0, None)
    reward = np.zeros(len(standing))
    reward[seats] = v / v.sum() if v.sum() > 0 else 1.0 / len(seats)
    return reward


def resolve_value(value: ValueFunction | str | None) -> ValueFunction | None:
    """A value function from a callable, None, or a checkpoint path, which is read by
    ``agents.value.load_value`` (the learned value's loader, imported only when a path is
    given); ValueError naming the path where there is no loader or no such file."""
    if value is None or callable(value):
        return value
    if not isinstance(value, str) or not value:
        raise ValueError(f"value must be None, a checkpoint path or a callable on observations, "
                         f"got {value!r}")
    try:
        loader = importlib.import_module("agents.value").load_value
    except (ImportError, AttributeError):
        raise ValueError(f"value {value!r}: no value loader in this installation "
                         f"(agents.value.load_value); pass a callable") from None
    return loader(value)


# -- the tree ----------------------------------------------------------------------------------


class Node:
    """One node: the edge into it (``player`` chose it) carries ``visits``, ``total`` reward of
    that player and ``avail`` (iterations in which it was legal at its parent)."""

    __slots__ = ("player", "visits", "total", "avail", "children")

    def __init__(self, player: int = -1):
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[tuple[int, Action], Node] = {}

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


_Int = Annotated[int, Strict()]
_Float = Annotated[float, Strict()]


@pydantic.dataclasses.dataclass(frozen=True, kw_only=True,
                                config=ConfigDict(allow_inf_nan=False))
class SearchNumbers:
    """The numbers of a search, declared once with their ranges (:class:`ISMCTS`'s parameters
    of the same names), so that a config's ``simulations: -5`` or ``c: .nan`` is refused when
    the config is read (:meth:`ISMCTSAgent.check_options`), not met mid-tournament."""

    simulations: _Int | None = Field(100, ge=1, le=10_000_000)
    seconds: _Float | None = Field(None, gt=0, le=86_400)
    per_option: _Int | None = Field(None, ge=1, le=10_000_000)
    widening: _Float | None = Field(None, ge=0, le=1000)
    c: _Float = Field(0.5, ge=0, le=1000)
    max_decisions: _Int | None = Field(None, ge=1, le=10_000_000)
    temperature: _Float = Field(1.0, gt=0, le=1000)

    @classmethod
    def check(cls, numbers: Mapping[str, Any]) -> None:
        """ValueError naming the first number out of its type or range (``numbers``: any of
        the fields; other keys are not looked at)."""
        check_numbers(cls, numbers)


def check_numbers(numbers_class: type, numbers: Mapping[str, Any]) -> None:
    """ValueError naming the first of ``numbers`` out of the type or range its field of
    ``numbers_class`` (a frozen pydantic dataclass such as :class:`SearchNumbers`) declares;
    keys that are not fields are not looked at."""
    cls = numbers_class
    given = {k: v for k, v in numbers.items() if k in cls.__pydantic_fields__}
    try:
        cls(**given)
    except pydantic.ValidationError as e:
        name = str(e.errors()[0]["loc"][0])
        field = cls.__pydantic_fields__[name]
        kind = "an integer" if "int" in str(field.annotation) else "a finite number"
        bounds = [f"{op} {getattr(m, attr)}" for m in field.metadata
                  for t, attr, op in ((annotated_types.Ge, "ge", ">="),
                                      (annotated_types.Gt, "gt", ">"),
                                      (annotated_types.Le, "le", "<="))
                  if isinstance(m, t)]
        none = " (or None)" if "None" in str(field.annotation) else ""
        raise ValueError(f"{name} must be {kind} {' and '.join(bounds)}{none}, got "
                         f"{given[name]!r}") from None


class ISMCTS:
    """The search. ``search(state, house)`` returns the action for the pending decision of
    ``house``; ``state`` is read only through :func:`determinize`.

    :param simulations: iterations per decision (None: only ``seconds`` counts).
    :param seconds: time per decision (None: only ``simulations`` counts).
    :param per_option: if set, at most ``per_option`` iterations per legal option of the root
        decision (a yes/no question gets fewer than an order placement).
    :param policy: rollout policy ``(state, decision, rng) -> action``.
    :param prior: a policy whose choice is the first child expanded at every node (None: random
        order); with ``widening`` it makes the search refine that policy's play.
    :param model: the policy that re-makes other houses' hidden choices in each determinization
        (``determinize(..., model=)``; None: uniformly random).
    :param widening: progressive widening: a node visited ``n`` times has at most
        ``1 + widening * sqrt(n)`` children legal in the current sample (None: all options).
    :param c: UCB1 exploration constant (rewards lie in [0, 1]).
    :param horizon: ``"round"``: roll out to the end of the current round (evaluate at the
        first decision of the next one); ``"game"``: to the end of the game.
    :param max_decisions: at most this many decisions after the root per iteration (None: no
        limit), then evaluate.
    :param temperature: of the evaluation's softmax.
    :param reuse: start from the subtree of the move just made when the same house decides
        again at once with nothing new observed (its visits count towards the budget).
    :param game: the :class:`Game` searched (an object or a registry name; None: AGoT).
    :param value: None (the default: :func:`evaluate`'s standing scores a rollout cut at the
        horizon), or a learned value function (:data:`ValueFunction`) that scores it instead
        (:func:`value_reward`); an ended game is scored by its outcome either way.
    """

    def __init__(self, simulations: int | None = 100, seconds: float | None = None,
                 per_option: int | None = None, policy: Policy = random_policy,
                 prior: Policy | None = None, model: Policy | None = None,
                 widening: float | None = None, c: float = 0.5, horizon: str = "round",
                 max_decisions: int | None = None, temperature: float = 1.0,
                 reuse: bool = True, seed: int | None = None, game: Game | str | None = None,
                 value: ValueFunction | None = None):
        SearchNumbers.check(dict(simulations=simulations, seconds=seconds,
                                 per_option=per_option, widening=widening, c=c,
                                 max_decisions=max_decisions, temperature=temperature))
        if simulations is None and seconds is None:
            raise ValueError("give a budget: simulations and/or seconds")
        if horizon not in ("round", "game"):
            raise ValueError(f"horizon must be 'round' or 'game', got {horizon!r}")
        self.simulations = simulations
        self.seconds = seconds
        self.per_option = per_option
        self.policy = policy
        self.prior = prior
        self.model = model
        self.widening = widening
        self.c = c
        self.horizon = horizon
        self.max_decisions = max_decisions
        self.temperature = temperature
        self.reuse = reuse
        self.rng = np.random.default_rng(seed)
        self.game = resolve_game(game)
        self.value = value
        self._encoder: Encoder | None = None
        self._carry: tuple[int, np.ndarray, Node] | None = None
        self.last_root: Node | None = None
        self.last_iterations = 0

    def search(self, state: State, house: int) -> Action:
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        sample = self._sample(state, house)
        decision = self.game.pending(sample)  # the house's own: the same in every sample
        if decision is None or decision.player != house:
            raise ValueError("search needs a pending decision of the searching house")
        limit = self.simulations
        if self.per_option is not None:
            cap = self.per_option * len(decision.options)
            limit = cap if limit is None else min(limit, cap)
        root = self._reused_root(sample, house)
        pristine = self.game.clone(sample) if self.reuse else None
        legal = set(decision.options)
        n = 0
        while True:
            searched = any(p == house and a in legal for p, a in root.children)
            if searched and limit is not None and root.visits >= limit:
                break
            if searched and deadline is not None and n > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(root, sample if n == 0 else self._sample(state, house), house)
            n += 1
        self.last_root, self.last_iterations = root, n
        action, child = max(((a, ch) for (p, a), ch in root.children.items()
                             if p == house and a in legal),
                            key=lambda item: (item[1].visits, item[1].mean))
        if pristine is not None:
            self._keep(pristine, house, action, child)
        return action

    def _observation(self, state: State, house: int) -> np.ndarray:
        if self._encoder is None:
            self._encoder = self.game.encoder(state)
        return self._encoder.encode(state, house)

    def _reused_root(self, sample: State, house: int) -> Node:
        """The subtree kept from the last search if this decision is the one it led to (the
        house's observation is the one expected after its last move), else a new root."""
        carry, self._carry = self._carry, None
        if carry is not None and carry[0] == house \
                and np.array_equal(carry[1], self._observation(sample, house)):
            return carry[2]
        return Node()

    def _keep(self, sample: State, house: int, action: Action, child: Node) -> None:
        """Keep the chosen child's subtree when the house decides again right after its move
        (a sequence of order placements, March moves, musterings): the next search starts from
        it if the observation then is the one seen here after the move."""
        self.game.apply(sample, action)
        d = self.game.pending(sample)
        if d is not None and d.player == house:
            self._carry = (house, self._observation(sample, house), child)

    def _sample(self, state: State, house: int) -> State:
        """A fresh determinization; the policies first forget plans made in the last one."""
        for p in (self.policy, self.prior, self.model):
            if hasattr(p, "reset"):
                p.reset()
        return self.game.determinize(state, house, self.rng, model=self.model)

    def _done(self, s: State, round_at_root: int, depth: int) -> bool:
        if self.game.pending(s) is None:
            return True
        if self.horizon == "round" and self.game.round(s) != round_at_root:
            return True
        return self.max_decisions is not None and depth >= self.max_decisions

    def _iterate(self, root: Node, s: State, house: int) -> None:
        rng, policy, game = self.rng, self.policy, self.game
        start_round = game.round(s)
        path = [root]
        node = root
        depth = 0
        # selection and expansion: stop after the first new node
        while not self._done(s, start_round, depth):
            d = game.pending(s)
            if d.secret and d.player != house:  # unseen by the observer: not a tree node
                game.apply(s, policy(s, d, rng))
                depth += 1
                continue
            if len(path) > 1 and path[-1].visits == 0:
                break  # the node just expanded: roll out from here
            key = self._child(node, d, s)
            node = node.children[key]
            path.append(node)
            game.apply(s, key[1])
            depth += 1
        # rollout
        while not self._done(s, start_round, depth):
            game.apply(s, policy(s, game.pending(s), rng))
            depth += 1
        reward = evaluate(s, self.temperature, game) if self.value is None \
            else value_reward(s, self.value, game)
        root.visits += 1
        for child in path[1:]:
            child.visits += 1
            child.total += reward[child.player]

    def _child(self, node: Node, d: Decision, s: State) -> tuple[int, Action]:
        """The key of the child to follow at ``node`` for decision ``d``: a new one while
        widening allows (the prior's choice first), else the best by availability-aware UCB1."""
        children = node.children
        keys = [(d.player, a) for a in d.options]
        tried = [k for k in keys if k in children]
        for k in tried:
            children[k].avail += 1
        allowed = len(keys) if self.widening is None else \
            1 + int(self.widening * math.sqrt(node.visits))
        if len(tried) < min(allowed, len(keys)):
            key = None
            if self.prior is not None:
                key = (d.player, self.prior(s, d, self.rng))
                if key in children:
                    key = None
            if key is None:
                untried = [k for k in keys if k not in children]
                key = untried[int(self.rng.integers(len(untried)))]
            children[key] = Node(d.player)
            children[key].avail += 1
            return key
        c = self.c
        best, best_v = tried[0], -math.inf
        for k in tried:
            ch = children[k]
            v = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if v > best_v:
                best, best_v = k, v
        return best


# -- the agent ---------------------------------------------------------------------------------


class ISMCTSAgent:
    """Plays with :class:`ISMCTS` from the acting house's information set.

    Needs the env (``env=``, wrapped or raw): ``act`` reads ``env.unwrapped.game`` (the state)
    and the acting house (``env.unwrapped.agent_selection``) and hands them to the search, which
    sees the state only through the game's ``determinize`` (module docstring). The legal actions
    are the unmasked indices of ``action_mask``; the env's ``codec`` turns the search's action
    into one.

    :param game: the :class:`Game` the env plays (an object or a registry name); None: the one
        the env names by its ``game_name`` (the kit's env base sets it), else AGoT.

    :param rollout: ``"random"``, ``"heuristic"`` or another agent registry name (played
        through :class:`ObservationPolicy`), or a policy callable ``(state, decision, rng)``;
        ``"default"``: the game's :func:`default_policy` (AGoT: the heuristic; a game that
        names none: random rollouts).
    :param prior: None, or a policy given like ``rollout``, whose choice is expanded first
        (``"default"``: the game's default policy, or None for a game that names none).
    :param model: None (uniform), or a policy given like ``rollout``, that re-makes the other
        houses' hidden choices in each determinization (``"default"`` as for ``prior``).
    :param value: None (the hand-written standing), a value function or a checkpoint path
        (:func:`resolve_value`) scoring the rollouts cut at the horizon.
    Other parameters: see :class:`ISMCTS`.
    """

    def __init__(self, env: Any, simulations: int | None = 50, seconds: float | None = None,
                 per_option: int | None = 4, rollout: str | Policy = "default",
                 prior: str | Policy | None = "default",
                 model: str | Policy | None = "default", widening: float | None = 1.0,
                 c: float = 0.5, horizon: str = "round",
                 max_decisions: int | None = None, temperature: float = 1.0,
                 reuse: bool = True, seed: int | None = None, game: Game | str | None = None,
                 value: ValueFunction | str | None = None):
        self.env = env
        raw = env.unwrapped
        self.game = resolve_game(game if game is not None else getattr(raw, "game_name", None))
        ruleset = getattr(raw, "ruleset", None)

        def build(spec: str | Policy | None, offset: int, fallback: str | None = None
                  ) -> Policy | None:
            if spec == "default":
                spec = default_policy(self.game) or fallback
            return None if spec is None else make_policy(
                spec, ruleset, raw.num_players, seed=None if seed is None else seed + offset,
                game=self.game)

        self.search = ISMCTS(simulations=simulations, seconds=seconds, per_option=per_option,
                             policy=build(rollout, 1000, "random"), prior=build(prior, 2000),
                             model=build(model, 3000), widening=widening, c=c,
                             horizon=horizon, max_decisions=max_decisions,
                             temperature=temperature, reuse=reuse, seed=seed,
                             game=self.game, value=resolve_value(value))

    @classmethod
    def check_options(cls, kwargs: Mapping[str, Any]) -> None:
        """The numbers of a spec's keyword arguments (:class:`SearchNumbers`) and its
        ``horizon``, checked without building the agent (``agents.AgentSpec.check`` calls
        this, so that a tournament refuses ``simulations: -5`` when it reads its config)."""
        SearchNumbers.check(kwargs)
        if "simulations" in kwargs and kwargs["simulations"] is None \
                and kwargs.get("seconds") is None:
            raise ValueError("give a budget: simulations and/or seconds")
        if kwargs.get("horizon", "round") not in ("round", "game"):
            raise ValueError(f"horizon must be 'round' or 'game', got {kwargs['horizon']!r}")
        value = kwargs.get("value")
        if value is not None and not callable(value) and (not isinstance(value, str)
                                                          or not value):
            raise ValueError(f"value must be None, a checkpoint path or a callable on "
                             f"observations, got {value!r}")

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask: this agent is not to act")
        if legal.size == 1:
            return int(legal[0])
        raw = self.env.unwrapped
        house = self.game.player_index(raw.game, raw.agent_selection)
        action = raw.codec.encode(self.search.search(raw.game, house))
        if not action_mask[action]:  # cannot happen: determinize keeps the house's decision
            raise RuntimeError(f"search returned {raw.codec.name(action)}, not legal")
        return int(action)
