"""Agents, and the one way every script names them: agent specs.

Every agent implements :class:`agents.base.Agent`. ``experiments.play``, the tournament configs
and Python code build agents from a *spec* (:class:`AgentSpec`, docs/agents.md), so that a
researcher's own agent or a trained checkpoint enters a game without editing this package:

- a registered agent kind (:data:`REGISTRY`, :mod:`agents.registry`): the game-neutral
  ``"random"``, ``"ismcts"``, ``"plan_search"``, ``"ppo"``, and every game plugin's own agents
  (AGoT's ``"heuristic"`` = ``"heuristic_v1"``, ``"heuristic_v2"``; War of the Ring's
  ``"wotr_heuristic"``);
- ``"module:Class"`` (any importable module) or ``"path/to/file.py:Class"``;
- a mapping ``{"name": <one of those>, "kwargs": {...}, "checkpoint": "path/to/file.pt"}``, every
  key but ``name`` optional; the older flat style ``{"name": ..., <kwarg>: <value>, ...}`` (or
  ``type`` for ``name``, as tournament configs spell it) still reads;
- ``{"checkpoint": "path/to/file.pt"}`` alone: the checkpoint names its agent kind under
  ``"agent"``, which must be a registered kind. A file never makes this package import a module
  or run a file it names: ``module:Class`` and ``path.py:Class`` come only from the spec, which
  is the user's own config or command line.

A spec with a checkpoint is built by the class's ``from_checkpoint(path, **kwargs)`` classmethod
if it has one, else by ``Class(checkpoint=path, **kwargs)``. A class with a
``check_options(kwargs)`` classmethod (IS-MCTS's) has the spec's keyword arguments checked by it
(a ValueError naming the option) before anything is built. Agents whose constructor (or
``from_checkpoint``) has an ``env`` or ``seed`` parameter get the game's env and a seed from the
script (``seed`` only where the spec does not fix it).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from boardkit import games

from .base import Agent
from .ismcts import ISMCTSAgent
from .plan_search import PlanSearchAgent
from .random_agent import RandomAgent
from .registry import REGISTRY, UnknownKindError, kind_of


def ppo_agent(checkpoint: str | None = None, greedy: bool = False,
              seed: int | None = None, env: Any = None) -> Any:
    """:class:`agents.ppo.PPOAgent` (the shipped checkpoint unless one is given), imported
    only when asked for, so that the other agents do not pay for importing torch. ``env``: the
    game's, to refuse a checkpoint of another ruleset (the shipped one is 2e-only)."""
    from .ppo import PPOAgent  # torch, a heavy dependency: only when a PPO agent is built

    return PPOAgent(checkpoint=checkpoint, greedy=greedy, seed=seed, env=env)


#: The game-neutral kinds, then every registered game's own (its plugin's ``agents``: AGoT's
#: ``heuristic``/``heuristic_v1``/``heuristic_v2``, War of the Ring's ``wotr_heuristic``).
REGISTRY.update({
    "random": RandomAgent,
    "ismcts": ISMCTSAgent,  # takes env= (given by the script that seats it)
    "plan_search": PlanSearchAgent,  # takes env=, like IS-MCTS
    "ppo": ppo_agent,       # the shipped checkpoint, or {name: ppo, checkpoint: path.pt}
    **games.agents(),
})

#: Constructor arguments the script that seats an agent fills in, never a spec: the game's env,
#: and a seed derived from the game's (unless the spec fixes ``seed``).
AUTO_ARGS = ("env", "seed")
#: The keys of a spec mapping that are not the agent's keyword arguments.
SPEC_KEYS = ("name", "type", "kwargs", "checkpoint")
#: Where a checkpoint names its agent kind, for a spec that gives only the checkpoint.
CHECKPOINT_KIND_KEY = "agent"
#: Checkpoints read as YAML/JSON (anything else is read with ``torch.load(weights_only=True)``).
TEXT_CHECKPOINTS = (".json", ".yaml", ".yml")

_ENV_PLACEHOLDER = object()   # stands in for the game's env when a spec is checked unbuilt


class AgentSpecError(ValueError):
    """A spec that names no agent that can be built; the message starts with the spec, so that
    a config with many agents says which one is wrong."""


@dataclass(frozen=True)
class AgentSpec:
    """One agent, as named in a config: what to build and with which arguments.

    ``name``: a :data:`REGISTRY` name, ``"module:Class"`` or ``"path/to/file.py:Class"``
    (``Class`` may be a dotted attribute path, or any factory function returning an agent);
    None only with a ``checkpoint`` that names its class. ``kwargs``: keyword arguments of the
    constructor (or of ``from_checkpoint``). ``checkpoint``: a file path.

    A spec holds names, not classes, so it pickles to worker processes cheaply and each worker
    imports the agent's module itself; :meth:`parse` reads every config form.
    """

    name: str | None = None
    kwargs: dict[str, Any] = field(default_factory=dict, hash=False)
    checkpoint: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.checkpoint, Path):
            object.__setattr__(self, "checkpoint", str(self.checkpoint))
        if self.name is not None and (not isinstance(self.name, str) or not self.name.strip()):
            raise AgentSpecError(f"agent spec {self.name!r}: the name must be a non-empty "
                                 f"string (a registry name, 'module:Class' or "
                                 f"'path/to/file.py:Class')")
        if self.checkpoint is not None and (not isinstance(self.checkpoint, str)
                                            or not self.checkpoint):
            raise AgentSpecError(f"{self}: checkpoint must be a file path, "
                                 f"got {self.checkpoint!r}")
        if self.name is None and self.checkpoint is None:
            raise AgentSpecError("agent spec: no 'name' (a registry name, 'module:Class' or "
                                 "'path/to/file.py:Class') and no 'checkpoint'")
        if not isinstance(self.kwargs, dict) or not all(isinstance(k, str) for k in self.kwargs):
            raise AgentSpecError(f"{self}: kwargs must be a mapping of argument names to "
                                 f"values, got {self.kwargs!r}")
        if "env" in self.kwargs:
            raise AgentSpecError(f"{self}: 'env' is given by the tournament or experiments.play "
                                 f"(the env of the agent's game), not by the spec")
        if self.checkpoint is not None and "checkpoint" in self.kwargs:
            raise AgentSpecError(f"{self}: the checkpoint is given twice (as 'checkpoint' and "
                                 f"in kwargs)")

    def __str__(self) -> str:
        if self.name is None:
            return f"agent from checkpoint {self.checkpoint!r}"
        if self.checkpoint is None:
            return f"agent {self.name!r}"
        return f"agent {self.name!r} with checkpoint {self.checkpoint!r}"

    # -- reading -------------------------------------------------------------------------------
    @classmethod
    def parse(cls, raw: Any) -> AgentSpec:
        """A spec from any of its config forms (module docstring); an AgentSpec is returned as
        it is. Only the syntax is read here: nothing is imported and no file is opened."""
        if isinstance(raw, AgentSpec):
            return raw
        if isinstance(raw, str):
            return cls(name=raw)
        if not isinstance(raw, Mapping):
            raise AgentSpecError(f"agent spec {raw!r}: a name ('heuristic', 'module:Class', "
                                 f"'path/to/file.py:Class') or a mapping with 'name', "
                                 f"'kwargs', 'checkpoint'")
        rest = dict(raw)
        if "name" in rest and "type" in rest:
            raise AgentSpecError(f"agent spec {raw!r}: give 'name' or 'type' (its older "
                                 f"spelling), not both")
        name = rest.pop("name") if "name" in rest else rest.pop("type", None)
        kwargs = rest.pop("kwargs", None)
        kwargs = {} if kwargs is None else kwargs
        if not isinstance(kwargs, Mapping):
            raise AgentSpecError(f"agent spec {raw!r}: kwargs must be a mapping, got {kwargs!r}")
        checkpoint = rest.pop("checkpoint", None)
        twice = sorted(set(rest) & set(kwargs))
        if twice:
            raise AgentSpecError(f"agent spec {raw!r}: {twice} given both flat and in kwargs")
        return cls(name=name, kwargs={**rest, **kwargs}, checkpoint=checkpoint)

    def to_dict(self) -> dict[str, Any]:
        """The canonical mapping form (what :meth:`parse` reads back to an equal spec)."""
        out: dict[str, Any] = {}
        if self.name is not None:
            out["name"] = self.name
        if self.kwargs:
            out["kwargs"] = dict(self.kwargs)
        if self.checkpoint is not None:
            out["checkpoint"] = self.checkpoint
        return out

    # -- resolving -----------------------------------------------------------------------------
    def checkpoint_path(self) -> Path:
        """The checkpoint file, which must exist (relative paths are from the working
        directory, which worker processes share)."""
        if self.checkpoint is None:
            raise AgentSpecError(f"{self}: has no checkpoint")
        path = Path(self.checkpoint).expanduser()
        if not path.is_file():
            where = "" if path.is_absolute() else f" (looked at {path.resolve()})"
            raise AgentSpecError(f"{self}: checkpoint file {self.checkpoint!r} not found{where}")
        return path

    def resolved(self) -> AgentSpec:
        """This spec with its name filled in: a checkpoint-only spec reads the agent kind its
        checkpoint names, once, so that workers building it per game need not."""
        if self.name is not None:
            return self
        return replace(self, name=self._checkpoint_kind())

    def _checkpoint_kind(self) -> str:
        """The registered agent kind the checkpoint names under ``"agent"``. Anything else
        (a ``module:Class``, a ``path.py:Class``) is refused unimported: a file may choose among
        the registered agents, never bring code of its own."""
        path = self.checkpoint_path()
        try:
            if path.suffix.lower() in TEXT_CHECKPOINTS:
                data = yaml.safe_load(path.read_text(encoding="utf-8"))
            else:  # plain data only: a pickle that would run code is refused unread
                from agents.ppo import read_torch_file  # torch, a heavy dependency

                data = read_torch_file(path)
        except Exception as e:  # any unreadable file: say which and how to name the class
            first = (str(e).strip().splitlines() or [""])[0][:200]   # torch's run for pages
            raise AgentSpecError(f"{self}: cannot read the checkpoint to find its agent kind "
                                 f"({type(e).__name__}: {first}); name the class in the spec: "
                                 f"{{name: 'module:Class', checkpoint: ...}}") from e
        if not isinstance(data, Mapping) or CHECKPOINT_KIND_KEY not in data:
            raise AgentSpecError(f"{self}: the checkpoint names no agent kind (expected a "
                                 f"mapping with key {CHECKPOINT_KIND_KEY!r}: a registered kind, "
                                 f"{sorted(REGISTRY)}); name the class in the spec: "
                                 f"{{name: 'module:Class', checkpoint: ...}}")
        try:
            return kind_of(data[CHECKPOINT_KIND_KEY], f"the checkpoint's "
                                                      f"{CHECKPOINT_KIND_KEY!r} key")
        except UnknownKindError as e:
            raise AgentSpecError(f"{self}: {e}") from None

    def target(self) -> Callable[..., Any]:
        """The class (or factory) the name stands for: a registered kind, else the module or
        file the spec (never a file it reads) names, imported."""
        spec = self.resolved()
        name = spec.name
        assert name is not None
        found = REGISTRY.get(name)
        if found is not None:
            return found
        if ":" not in name:
            raise AgentSpecError(f"{spec}: unknown agent name (registry names: "
                                 f"{sorted(REGISTRY)}; or give 'module:Class' or "
                                 f"'path/to/file.py:Class')")
        where, _, attr = name.rpartition(":")
        if not where or not attr or not all(p.isidentifier() for p in attr.split(".")):
            raise AgentSpecError(f"{spec}: expected 'module:Class' or "
                                 f"'path/to/file.py:Class'")
        if _is_file(where):
            module, what = _load_file(spec, where), f"file {where!r}"
        else:
            module, what = _import(spec, where), f"module {where!r}"
        obj: Any = module
        for part in attr.split("."):
            if not hasattr(obj, part):
                agents = sorted(n for n, v in vars(module).items()
                                if inspect.isclass(v) and callable(getattr(v, "act", None)))
                raise AgentSpecError(f"{spec}: {what} has no {attr!r}; agent classes there "
                                     f"(with an act method): {agents}")
            obj = getattr(obj, part)
        if not callable(obj):
            raise AgentSpecError(f"{spec}: {attr!r} in {what} is a {type(obj).__name__}, not "
                                 f"a class or a factory")
        return obj

    def _plan(self, env: Any, seed: int | None,
              extra: Mapping[str, Any]) -> tuple[Callable[..., Any], tuple[Any, ...],
                                                 dict[str, Any]]:
        """What to call, with which arguments: the constructor or ``from_checkpoint``, the
        spec's kwargs over ``extra``'s, and env and seed where that callable names them."""
        target = self.target()
        if inspect.isclass(target) and not callable(getattr(target, "act", None)):
            raise AgentSpecError(f"{self}: {target.__qualname__} has no act(observation, "
                                 f"action_mask, info) method: not an Agent "
                                 f"(agents.base.Agent)")
        check_options = getattr(target, "check_options", None)
        if callable(check_options):  # an agent that declares its options' types and ranges
            try:
                check_options(self.kwargs)
            except ValueError as e:
                raise AgentSpecError(f"{self}: {e}") from None
        kwargs = {**self.kwargs, **extra}
        fn: Callable[..., Any] = target
        args: tuple[Any, ...] = ()
        if self.checkpoint is not None:
            path = self.checkpoint_path()
            loader = getattr(target, "from_checkpoint", None)
            if callable(loader):
                fn, args = loader, (str(path),)
            else:
                params = _parameters(target)
                if params is not None and "checkpoint" not in params and not any(
                        p.kind is p.VAR_KEYWORD for p in params.values()):
                    raise AgentSpecError(f"{self}: {_qualname(target)} has no from_checkpoint "
                                         f"classmethod and its constructor takes no "
                                         f"'checkpoint' argument")
                kwargs["checkpoint"] = str(path)
        params = _parameters(fn) or {}
        if "env" in params and env is not None:
            kwargs["env"] = env
        elif "env" in params and params["env"].default is inspect.Parameter.empty:
            raise AgentSpecError(f"{self}: {_qualname(fn)} plays from the env of its game; build "
                                 f"it with env= (the tournament and experiments.play do)")
        if "seed" in params and "seed" not in kwargs and seed is not None:
            kwargs["seed"] = seed
        return fn, args, kwargs

    def _bind(self, fn: Callable[..., Any], args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> None:
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError):  # a builtin or C factory: the call itself will tell
            return
        try:
            sig.bind(*args, **kwargs)
        except TypeError as e:
            skip = set(AUTO_ARGS) | ({"checkpoint"} if self.checkpoint is not None else set())
            takes = [p for i, p in enumerate(sig.parameters)
                     if p not in skip and not (args and i < len(args))]
            raise AgentSpecError(f"{self}: bad arguments {sorted(self.kwargs)} for "
                                 f"{_qualname(fn)}: {e}; it takes {takes}") from None

    def check(self) -> AgentSpec:
        """Everything short of building the agent: the name resolves to a class with ``act``,
        the checkpoint exists, the kwargs fit the signature. Returns :meth:`resolved`, so a
        tournament finds a bad spec before it starts any game."""
        spec = self.resolved()
        fn, args, kwargs = spec._plan(_ENV_PLACEHOLDER, 0, {})
        spec._bind(fn, args, kwargs)
        return spec

    def build(self, *, env: Any = None, seed: int | None = None, **extra: Any) -> Agent:
        """A fresh agent. ``env`` and ``seed`` go to a constructor (or ``from_checkpoint``) that
        names them (``seed`` unless the spec fixes it); ``extra`` adds keyword arguments."""
        spec = self.resolved()
        fn, args, kwargs = spec._plan(env, seed, extra)
        spec._bind(fn, args, kwargs)
        try:
            agent = fn(*args, **kwargs)
        except (TypeError, ValueError) as e:
            raise AgentSpecError(f"{spec}: {_qualname(fn)}(...) raised "
                                 f"{type(e).__name__}: {e}") from e
        if not callable(getattr(agent, "act", None)):
            raise AgentSpecError(f"{spec}: {_qualname(fn)} returned "
                                 f"{type(agent).__name__!r}, which has no act(observation, "
                                 f"action_mask, info) method: not an Agent (agents.base.Agent)")
        return agent


def make_agent(spec: Any, *, env: Any = None, seed: int | None = None, **kwargs: Any) -> Agent:
    """Build an agent from a spec (any form :meth:`AgentSpec.parse` reads, e.g. ``"heuristic"``
    or ``"my_pkg.agents:Greedy"``). ``env``/``seed`` are given where the agent takes them;
    ``kwargs`` are more constructor arguments, over the spec's own."""
    return AgentSpec.parse(spec).build(env=env, seed=seed, **kwargs)


# -- helpers -----------------------------------------------------------------------------------
def _is_file(where: str) -> bool:
    """A file path, not a dotted module name: it ends in .py or has a folder separator."""
    return where.endswith(".py") or "/" in where or "\\" in where


def _import(spec: AgentSpec, module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name and (module == e.name or module.startswith(e.name + ".")):
            raise AgentSpecError(f"{spec}: module {module!r} not found (no module "
                                 f"{e.name!r} on sys.path: install its package or add its "
                                 f"folder to PYTHONPATH)") from None
        raise AgentSpecError(f"{spec}: importing module {module!r} failed: "
                             f"{type(e).__name__}: {e}") from e
    except Exception as e:  # an error in the module itself, at import time
        raise AgentSpecError(f"{spec}: importing module {module!r} failed: "
                             f"{type(e).__name__}: {e}") from e


def _load_file(spec: AgentSpec, where: str) -> ModuleType:
    """Import a .py file by its path, once per process: a module name derived from the absolute
    path keeps two files of the same name apart and lets later games reuse the module."""
    path = Path(where).expanduser().resolve()
    if not path.is_file():
        raise AgentSpecError(f"{spec}: file {where!r} not found (looked at {path})")
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:12]
    name = f"_agent_file_{re.sub(r'[^0-9A-Za-z_]', '_', path.stem)}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    loader_spec = importlib.util.spec_from_file_location(name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise AgentSpecError(f"{spec}: {where!r} cannot be imported as a Python file")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[name] = module   # before running it, as import does (dataclasses need it)
    try:
        loader_spec.loader.exec_module(module)
    except Exception as e:
        del sys.modules[name]
        raise AgentSpecError(f"{spec}: importing file {where!r} failed: "
                             f"{type(e).__name__}: {e}") from e
    return module


def _parameters(fn: Any) -> dict[str, inspect.Parameter] | None:
    """The parameters of a callable, or None where they cannot be inspected."""
    try:
        return dict(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return None


def _qualname(fn: Any) -> str:
    return getattr(fn, "__qualname__", None) or type(fn).__name__


__all__ = ["AUTO_ARGS", "REGISTRY", "Agent", "AgentSpec", "AgentSpecError",
           "ISMCTSAgent", "RandomAgent", "make_agent"]
