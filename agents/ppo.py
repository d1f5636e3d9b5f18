"""The learned agent: a masked policy and value network, and :class:`PPOAgent`, which plays it.

One network is shared by every house: the observation is already relative to the observer (the
observer is house slot 0 in every piece), so a house's decision looks the same to the network
whichever house it is. Illegal actions get probability exactly zero: their logits are replaced by
:data:`MASKED_LOGIT` before the softmax, whose exponential is 0 in float32, so sampling can
never pick one (``tests/test_ppo.py`` checks it as a property).

Two architectures, chosen by ``network.kind`` in a training config:

* ``"mlp"``: the whole (normalised) vector through a multilayer perceptron; the baseline.
* ``"structured"`` (AGoT only): the per-area columns of the vector (the ``"structured"``
  observation of :mod:`got_env.wrappers.observations`: units, control, orders, ... of each area)
  embedded by one shared layer, then attention layers in which an area attends only to itself
  and its neighbours on the board (a graph attention over the adjacency), pooled and joined with
  the global features. It shares weights across areas, so it learns about "an area" once.

The network is game-neutral; what a game adds is found by its registry name in
the game plugin's ``network`` (AGoT: :mod:`got_env.agents.networks`, its sizes per ruleset,
the structured layout, the ruleset check). Any other game gets the MLP, sized from its env's
observation and action spaces (``obs_size``, ``num_actions``), which the checkpoint keeps.

A checkpoint (:func:`save_checkpoint`) holds the network's kind and sizes, its weights (the
observation normaliser's running statistics are buffers of the network, so they travel with
it), its game (a checkpoint without one was saved before checkpoints named their game, when AGoT
was the only one: :func:`boardkit.games.saved_game`, the one conversion of such files), the
ruleset (AGoT's variant; None for another game), and whatever the trainer adds (its config, its
figures). ``PPOAgent()`` with no argument plays the checkpoint shipped with the package
(:data:`SHIPPED_CHECKPOINT`).

Checkpoints are plain data (tensors and builtins) and are read with ``torch.load(...,
weights_only=True)`` (:func:`read_torch_file`): unpickling anything else could run code from
the file, so a file that holds other objects is refused, unread (:class:`UnsafeCheckpointError`).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch
from torch import nn

from agents.base import begin_game, end_game
from agents.registry import UnknownKindError, build_kind, kind_of
from boardkit import games

__all__ = ["CHECKPOINT_FORMAT", "NO_PRIOR", "SHIPPED_CHECKPOINT",
           "CheckpointError", "MLPPolicy", "MASKED_LOGIT", "ObsNormalizer", "PPOAgent",
           "PolicyStep", "StructuredPolicy", "UnsafeCheckpointError", "build_network",
           "check_file_prior", "check_network_spec", "check_prior_choice", "load_checkpoint",
           "masked_logits", "prior_logits", "read_torch_file", "save_checkpoint"]

#: What a checkpoint file says it is, so that a file of another kind fails with a clear error.
CHECKPOINT_FORMAT = "got_env-ppo-1"
#: The trained checkpoint shipped with the package (configs/ppo_selfplay.yaml trained it).
SHIPPED_CHECKPOINT = Path(__file__).with_name("checkpoints") / "ppo_selfplay.pt"
#: The logit of an illegal action: exp(-1e9 - max) is exactly 0 in float32.
MASKED_LOGIT = -1e9
NETWORK_KINDS = ("mlp", "structured", "board")
#: The keys of a spec that name a prior agent (any kind): ``prior``, an agent spec string (a
#: registry name such as ``"heuristic_v2"``, or ``"module:Class"``), and ``prior_bonus``.
PRIOR_KEYS = ("prior", "prior_bonus")
#: The keys of each kind's spec besides ``kind`` (the constructors' keyword arguments, and the
#: prior's).
NETWORK_KEYS = {"mlp": ("hidden", *PRIOR_KEYS),
                "structured": ("embed", "heads", "layers", "hidden", *PRIOR_KEYS),
                "board": ("embed", "heads", "layers", "hidden", *PRIOR_KEYS)}
#: The prior's choice in a row where no prior agent chose (an opponent's decision, a network
#: without a prior): the ``prior`` tensor a network reads holds one action per row, or this.
NO_PRIOR = -1
#: ``prior_bonus`` when a spec names a prior without one: with a zero network output the prior's
#: choice is played with probability sigmoid(4) = 98.2% at every decision, whatever the number
#: of legal actions (issue 26's probe: docs/results.md).
DEFAULT_PRIOR_BONUS = 4.0


def game_networks(game: str) -> Any:
    """The module of what the networks know of ``game`` (``sizes(variant)``,
    ``structured_layout(variant)``, ``check_env(...)``, ``DEFAULT_VARIANT``): its plugin's
    ``network`` (:class:`boardkit.plugin.GamePlugin`, loaded on first use), or None for a game
    without one, which plays the MLP sized from its env."""
    loader = games.plugin(game).network
    return loader() if loader is not None else None


def env_game(env: Any) -> str | None:
    """The registry name of the game an env plays: a kit env's ``game_name``, None for
    anything else (a stand-in)."""
    name = getattr(getattr(env, "unwrapped", env), "game_name", None)
    return name if isinstance(name, str) else None


class CheckpointError(ValueError):
    """A checkpoint that cannot be played: not a file of this format, or not for this env."""


class UnsafeCheckpointError(CheckpointError):
    """A file whose pickle names objects other than tensors and builtins. It is refused without
    being unpickled, because unpickling such an object runs whatever code it names."""

    def __init__(self, path: Path, names: Sequence[str], what: str = "checkpoint"):
        self.path, self.names = path, list(names)
        super().__init__(f"{path}: the {what} holds objects that are not plain data "
                         f"({', '.join(self.names)}); it is refused unread, since loading them "
                         f"could run code (checkpoints are read with torch.load(..., "
                         f"weights_only=True): tensors and builtins only)")


def read_torch_file(path: str | Path, what: str = "checkpoint") -> Any:
    """``torch.load(path, weights_only=True)`` on the CPU. A file holding other objects raises
    :class:`UnsafeCheckpointError` (listing what it holds); one torch cannot read at all raises
    :class:`CheckpointError`; either names the file."""
    path = Path(path)
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # pickle, zip or torch errors: all mean "not a readable checkpoint"
        text = str(e)
        names = _unsafe_globals(path) or re.findall(r"GLOBAL ([\w.]+)", text)
        if names:
            raise UnsafeCheckpointError(path, names, what) from None
        raise CheckpointError(f"cannot read {what} {path}: {type(e).__name__}: "
                              f"{_reason(text)}") from None


def _unsafe_globals(path: Path) -> list[str]:
    """The classes and functions a torch file's pickle names beyond what ``weights_only``
    allows, found by scanning its opcodes (nothing is unpickled); [] when it cannot tell."""
    try:
        return list(torch.serialization.get_unsafe_globals_in_checkpoint(path))
    except Exception:  # not a zip-format torch file: torch.load's own error says why
        return []


def _reason(text: str) -> str:
    """What torch's error says is wrong with the file, without its advice to load the file
    with ``weights_only=False`` (which would run whatever code it holds)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if lines and lines[0].startswith("Weights only load failed"):
        told = [line for line in lines[1:] if "weights_only" not in line
                and not line.startswith("Check the documentation")]
        lines = told or ["torch.load(weights_only=True) refused it"]
    return (lines or ["unknown error"])[0][:300]


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with every action the mask forbids set to :data:`MASKED_LOGIT`."""
    return torch.where(mask.bool(), logits, torch.full_like(logits, MASKED_LOGIT))


def prior_logits(logits: torch.Tensor, mask: torch.Tensor, prior: torch.Tensor,
                 bonus: float) -> torch.Tensor:
    """``logits`` plus the prior's bonus at the prior agent's choice (``prior``: int64 ``[B]``,
    one action per row, :data:`NO_PRIOR` where none chose): ``bonus + log(legal - 1)``, so
    that where the network's own logits are equal the prior's choice has probability
    ``sigmoid(bonus)`` whether 2 or 300 actions are legal (a flat bonus would follow the prior
    less the more actions there are). A row without a choice is unchanged."""
    legal = (mask > 0).sum(-1, keepdim=True)
    extra = bonus + torch.log((legal - 1).clamp(min=1).to(logits.dtype))
    chosen = torch.arange(logits.shape[-1], device=logits.device) == prior.unsqueeze(-1)
    return logits + chosen.to(logits.dtype) * extra


def check_prior_choice(mask: np.ndarray, action: int) -> int:
    """The prior agent's ``action``, checked against the mask: ValueError when the mask does
    not allow it (a prior that plays another game's actions, say)."""
    if not mask[action]:
        raise ValueError(f"the prior agent chose action {action}, which the mask does not allow")
    return int(action)


class PolicyStep(NamedTuple):
    """What :meth:`_PolicyBase.get_action_and_value` answers for a batch of decisions."""

    action: torch.Tensor     #: int64[B]: the action taken (sampled, greedy, or the one given)
    logp: torch.Tensor       #: float[B]: its log-probability under the masked policy
    entropy: torch.Tensor    #: float[B]: the policy's entropy (masked actions add 0)
    value: torch.Tensor      #: float[B]: the value estimate
    log_probs: torch.Tensor  #: float[B, N]: every action's log-probability (the KL term's)


class ObsNormalizer(nn.Module):
    """Running mean and variance of the observations (Chan et al.'s parallel update), applied as
    ``clip((x - mean) / sqrt(var + eps), -clip, clip)``. Its statistics are buffers, so they are
    saved with the network; only the trainer calls :meth:`update`."""

    def __init__(self, size: int, clip: float = 5.0, eps: float = 1e-8):
        super().__init__()
        self.clip, self.eps = clip, eps
        self.register_buffer("mean", torch.zeros(size, dtype=torch.float64))
        self.register_buffer("var", torch.ones(size, dtype=torch.float64))
        self.register_buffer("count", torch.tensor(1e-4, dtype=torch.float64))

    @torch.no_grad()
    def update(self, batch: torch.Tensor) -> None:
        x = batch.double()
        n = x.shape[0]
        if n == 0:
            return
        mean, var = x.mean(0), x.var(0, unbiased=False)
        total = self.count + n
        delta = mean - self.mean
        self.mean += delta * n / total
        self.var.copy_((self.var * self.count + var * n + delta**2 * self.count * n / total)
                       / total)
        self.count.copy_(total)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        z = (x - self.mean.float()) / torch.sqrt(self.var.float() + self.eps)
        return z.clamp(-self.clip, self.clip)


def _mlp(sizes: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:], strict=True):
        layers += [nn.Linear(a, b), nn.Tanh()]
    return nn.Sequential(*layers)


class _PolicyBase(nn.Module):
    """What both architectures share: the normaliser, the two heads, masked evaluation, and an
    optional *prior agent* (issue 26, residual policy): ``prior`` names an agent whose choice at
    each decision is passed to the network as its own tensor (``prior``: one action per row) by
    whoever plays it, and gets ``prior_bonus`` added to its logit (:func:`prior_logits`); the
    network learns when to depart from it. Without a prior (the default) a choice changes
    nothing.

    Two questions, asked the same way by the rollout and the update (CleanRL's):
    :meth:`get_value` and :meth:`get_action_and_value`."""

    #: the prior agent's spec string, or None (no prior)
    prior: str | None = None
    prior_bonus: float = DEFAULT_PRIOR_BONUS

    def __init__(self, obs_size: int, num_actions: int, trunk_out: int):
        super().__init__()
        self.obs_size, self.num_actions = obs_size, num_actions
        self.normalizer = ObsNormalizer(obs_size)
        self.policy_head = nn.Linear(trunk_out, num_actions)
        self.value_head = nn.Linear(trunk_out, 1)
        # Small initial logits: the first policy is close to uniform over the legal actions.
        nn.init.orthogonal_(self.policy_head.weight, gain=0.01)
        nn.init.zeros_(self.policy_head.bias)
        nn.init.orthogonal_(self.value_head.weight, gain=1.0)
        nn.init.zeros_(self.value_head.bias)

    def features(self, z: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def set_prior(self, prior: str | None, bonus: float | None = None) -> None:
        """Name the prior agent (None: none) and its bonus (None: the default)."""
        self.prior = prior
        self.prior_bonus = DEFAULT_PRIOR_BONUS if bonus is None else float(bonus)

    def head(self, logits: torch.Tensor, mask: torch.Tensor,
             prior: torch.Tensor | None = None) -> torch.Tensor:
        """The policy's final logits: the prior's bonus at its choice, then the mask."""
        if self.prior is not None and prior is not None:
            logits = prior_logits(logits, mask, prior, self.prior_bonus)
        return masked_logits(logits, mask)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor, prior: torch.Tensor | None = None
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """(masked logits ``[B, N]``, value ``[B]``) of a batch of raw observations;
        ``prior``: the prior agent's choice per row (:data:`NO_PRIOR`: none), or None."""
        h = self.features(self.normalizer(obs))
        return self.head(self.policy_head(h), mask, prior), self.value_head(h).squeeze(-1)

    def get_value(self, obs: torch.Tensor) -> torch.Tensor:
        """The value estimate ``[B]`` of a batch of raw observations."""
        return self.value_head(self.features(self.normalizer(obs))).squeeze(-1)

    def get_action_and_value(self, obs: torch.Tensor, mask: torch.Tensor,
                             prior: torch.Tensor | None = None,
                             action: torch.Tensor | None = None, *,
                             generator: torch.Generator | None = None,
                             greedy: bool = False) -> PolicyStep:
        """The masked policy's step on a batch: ``action`` given (the update), else sampled
        with ``generator`` (the rollout), or the most probable one (``greedy``); with its
        log-probability, the policy's entropy, the value and every log-probability."""
        logits, value = self(obs, mask, prior)
        log_probs = torch.log_softmax(logits, -1)
        if action is None:
            action = logits.argmax(-1) if greedy else torch.multinomial(
                log_probs.exp(), 1, generator=generator).squeeze(-1)
        logp = log_probs.gather(-1, action.unsqueeze(-1)).squeeze(-1)
        # masked actions have probability exactly 0: they add 0 to the entropy
        entropy = -(log_probs.exp() * log_probs).sum(-1)
        return PolicyStep(action, logp, entropy, value, log_probs)

    def layout_spec(self) -> dict[str, Any]:
        """The kind and sizes (what the constructor takes)."""
        raise NotImplementedError

    def spec(self) -> dict[str, Any]:
        """What :func:`build_network` builds this network from: the kind, the sizes and, with
        a prior, ``prior`` and ``prior_bonus``."""
        out = self.layout_spec()
        if self.prior is not None:
            out.update(prior=self.prior, prior_bonus=self.prior_bonus)
        return out


def _size(value: Any, key: str, minimum: int = 1) -> int:
    """``value`` as a layer size: an integer (not a bool, not a string of digits) of at least
    ``minimum``; else ValueError naming ``key``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        what = "a positive integer" if minimum == 1 else f"an integer of at least {minimum}"
        raise ValueError(f"{key}: expected {what}, got {value!r}")
    return int(value)


def _sizes(value: Any, key: str, empty: bool = False) -> list[int]:
    """``value`` as a list of layer sizes (``empty``: [] is allowed); else ValueError."""
    ok = isinstance(value, list | tuple) and (empty or len(value) > 0) and all(
        not isinstance(h, bool) and isinstance(h, int | np.integer) and h >= 1 for h in value)
    if not ok:
        what = "a list" if empty else "a non-empty list"
        raise ValueError(f"{key}: expected {what} of positive integers, got {value!r}")
    return [int(h) for h in value]


def _attention_sizes(embed: Any, heads: Any, layers: Any) -> tuple[int, int, int]:
    """The structured network's sizes, checked: the heads split the embedding evenly."""
    embed, heads = _size(embed, "network.embed"), _size(heads, "network.heads")
    layers = _size(layers, "network.layers", minimum=0)
    if embed % heads:
        raise ValueError(f"network.embed ({embed}) must be a multiple of network.heads "
                         f"({heads})")
    return embed, heads, layers


class MLPPolicy(_PolicyBase):
    """The vector through ``hidden`` tanh layers, then the policy and value heads."""

    def __init__(self, obs_size: int, num_actions: int, hidden: Sequence[int] = (256, 256)):
        hidden = _sizes(hidden, "network.hidden")
        super().__init__(obs_size, num_actions, hidden[-1])
        self.hidden = hidden
        self.trunk = _mlp([obs_size, *hidden])

    def features(self, z: torch.Tensor) -> torch.Tensor:
        return self.trunk(z)

    def layout_spec(self) -> dict[str, Any]:
        return {"kind": "mlp", "hidden": list(self.hidden)}


class StructuredPolicy(_PolicyBase):
    """Areas embedded by one shared layer, ``layers`` rounds of attention restricted to each
    area's neighbourhood (itself and the areas adjacent to it), mean- and max-pooled, joined
    with the embedded global features, then ``hidden`` tanh layers."""

    def __init__(self, obs_size: int, num_actions: int, *, area_index: np.ndarray,
                 global_index: np.ndarray, adjacency: np.ndarray, embed: int = 64,
                 heads: int = 4, layers: int = 2, hidden: Sequence[int] = (256,)):
        hidden = _sizes(hidden, "network.hidden", empty=True)
        embed, heads, layers = _attention_sizes(embed, heads, layers)
        super().__init__(obs_size, num_actions, hidden[-1] if hidden else 3 * embed)
        self.embed_size, self.heads, self.num_layers, self.hidden = embed, heads, layers, hidden
        self.register_buffer("area_index", torch.as_tensor(area_index, dtype=torch.long))
        self.register_buffer("global_index", torch.as_tensor(global_index, dtype=torch.long))
        num_areas, width = area_index.shape
        # attention mask: True where attention is *not* allowed (PyTorch's convention)
        near = torch.as_tensor(np.array(adjacency, dtype=bool)) | torch.eye(num_areas,
                                                                        dtype=torch.bool)
        self.register_buffer("blocked", ~near)
        self.area_embed = nn.Linear(width, embed)
        self.area_position = nn.Parameter(torch.zeros(num_areas, embed))
        self.attention = nn.ModuleList(
            nn.TransformerEncoderLayer(embed, heads, dim_feedforward=2 * embed, dropout=0.0,
                                       batch_first=True) for _ in range(layers))
        self.global_embed = nn.Sequential(nn.Linear(len(global_index), embed), nn.Tanh())
        self.trunk = _mlp([3 * embed, *hidden]) if hidden else nn.Identity()

    def contextual_areas(self, z: torch.Tensor) -> torch.Tensor:
        """``[B, areas, embed]``: each area's embedding after the attention rounds."""
        areas = torch.tanh(self.area_embed(z[:, self.area_index]) + self.area_position)
        for layer in self.attention:
            areas = layer(areas, src_mask=self.blocked)
        return areas

    def pooled(self, z: torch.Tensor, areas: torch.Tensor) -> torch.Tensor:
        """The areas mean- and max-pooled, joined with the global features, through the trunk."""
        pooled = torch.cat([areas.mean(1), areas.amax(1),
                            self.global_embed(z[:, self.global_index])], dim=-1)
        return self.trunk(pooled)

    def features(self, z: torch.Tensor) -> torch.Tensor:
        return self.pooled(z, self.contextual_areas(z))

    def layout_spec(self) -> dict[str, Any]:
        return {"kind": "structured", "embed": self.embed_size, "heads": self.heads,
                "layers": self.num_layers, "hidden": list(self.hidden)}


class BoardPolicy(StructuredPolicy):
    """The structured network whose policy follows the board (issue 26 item 3): each action
    that names an area (an order placed there, a March from or into it, a muster, a unit of it
    chosen, ...) is scored from that area's own embedding after the attention rounds, by a
    weight vector of its own, plus the global head's logit; an action naming no area (bids,
    cards, tracks, choices) from the global head alone. So "march into Moat Cailin" reads Moat
    Cailin's features and its neighbours', instead of a row of one flat head unrelated to them.
    ``action_area``: int[actions], the area of each action, -1 for none (the game's module
    gives it, :func:`got_env.agents.networks.board_layout`)."""

    def __init__(self, obs_size: int, num_actions: int, *, action_area: np.ndarray,
                 **structured: Any):
        super().__init__(obs_size, num_actions, **structured)
        area = torch.as_tensor(np.asarray(action_area), dtype=torch.long)
        if area.shape != (num_actions,):
            raise ValueError(f"action_area: expected {num_actions} entries, got "
                             f"{tuple(area.shape)}")
        num_areas = self.area_index.shape[0]
        # -1 (no area) points at a zero row appended after the areas
        self.register_buffer("action_area", torch.where(area < 0, num_areas, area))
        self.action_weight = nn.Parameter(torch.zeros(num_actions, self.embed_size))
        nn.init.normal_(self.action_weight, std=0.01)  # small: the first policy near uniform
        self._group_actions(area.numpy(), num_areas, num_actions)

    def _group_actions(self, area: np.ndarray, num_areas: int, num_actions: int) -> None:
        """The actions grouped by area, so that :meth:`forward` scores each area's actions with
        one small matrix product ``[B, E] x [E, K]`` instead of gathering a ``[B, actions, E]``
        copy of the embeddings (the same sums, 3x faster at a minibatch of 512): ``slots[r,
        k]`` is area ``r``'s ``k``-th action (``num_actions``, a zero row, past its last);
        ``place[a]`` is action ``a``'s place in the flattened ``[areas * K]`` scores, and
        ``named[a]`` 1 where it names an area. Derived from ``action_area``: not saved."""
        per_area = [np.flatnonzero(area == r) for r in range(num_areas)]
        width = max(1, max((len(a) for a in per_area), default=1))
        slots = np.full((num_areas, width), num_actions, dtype=np.int64)
        place = np.zeros(num_actions, dtype=np.int64)
        for r, actions in enumerate(per_area):
            slots[r, :len(actions)] = actions
            place[actions] = r * width + np.arange(len(actions))
        self.register_buffer("slots", torch.as_tensor(slots), persistent=False)
        self.register_buffer("place", torch.as_tensor(place), persistent=False)
        self.register_buffer("named", torch.as_tensor(area >= 0, dtype=torch.float32),
                             persistent=False)

    def area_scores(self, areas: torch.Tensor) -> torch.Tensor:
        """``[B, actions]``: each area action's own weights times its area's embedding (0 for
        an action naming no area)."""
        weights = torch.cat([self.action_weight, self.action_weight.new_zeros(
            1, self.embed_size)])[self.slots]                        # [areas, K, E]
        scores = torch.einsum("bre,rke->brk", areas, weights)       # [B, areas, K]
        return scores.reshape(areas.shape[0], -1)[:, self.place] * self.named

    def forward(self, obs: torch.Tensor, mask: torch.Tensor, prior: torch.Tensor | None = None
                ) -> tuple[torch.Tensor, torch.Tensor]:
        z = self.normalizer(obs)
        areas = self.contextual_areas(z)
        h = self.pooled(z, areas)
        logits = self.policy_head(h) + self.area_scores(areas)
        return self.head(logits, mask, prior), self.value_head(h).squeeze(-1)

    def layout_spec(self) -> dict[str, Any]:
        return {**super().layout_spec(), "kind": "board"}


def check_network_spec(spec: Any) -> None:
    """Raise ValueError naming the key (``network.hidden: ...``) when ``spec`` is not one
    :func:`build_network` builds: another kind, an unknown key, a size that is not a positive
    integer (a string or a bool is not), an ``embed`` that ``heads`` does not divide. Checked
    before building, so that a training config fails with the key, not deep inside torch."""
    if not isinstance(spec, Mapping):
        raise ValueError(f"network: expected a mapping, got {spec!r}")
    kind = spec.get("kind", "mlp")
    if kind not in NETWORK_KINDS:
        raise ValueError(f"network.kind: expected one of {NETWORK_KINDS}, got {kind!r}")
    allowed = NETWORK_KEYS[kind]
    unknown = sorted((k for k in spec if k != "kind" and k not in allowed), key=str)
    if unknown:
        raise ValueError(f"network: unknown key(s) {unknown} for kind {kind!r} (allowed: "
                         f"{list(allowed)})")
    cls = MLPPolicy if kind == "mlp" else StructuredPolicy
    defaults = {name: p.default for name, p in inspect.signature(cls).parameters.items()
                if name in allowed}
    values = {**defaults, **{k: v for k, v in spec.items() if k != "kind"}}
    _sizes(values["hidden"], "network.hidden", empty=kind != "mlp")
    if kind != "mlp":
        _attention_sizes(values["embed"], values["heads"], values["layers"])
    _check_prior(spec)


def _check_prior(spec: Mapping[str, Any]) -> None:
    """``prior``: a non-empty agent spec string (or None); ``prior_bonus``: a finite number,
    given only with a prior."""
    prior = spec.get("prior")
    if prior is not None and (not isinstance(prior, str) or not prior.strip()):
        raise ValueError(f"network.prior: expected an agent spec string (a registry name such "
                         f"as 'heuristic_v2', or 'module:Class'), got {prior!r}")
    if "prior_bonus" in spec:
        bonus = spec["prior_bonus"]
        if prior is None:
            raise ValueError("network.prior_bonus: given without network.prior")
        if isinstance(bonus, bool) or not isinstance(bonus, int | float) \
                or not np.isfinite(bonus):
            raise ValueError(f"network.prior_bonus: expected a finite number, got {bonus!r}")


def check_file_prior(path: Path, doc: Mapping[str, Any], prior: str | None = None) -> None:
    """A checkpoint's ``network.prior`` must be a registered agent kind, or the very spec the
    caller's own config names (``prior``): a ``module:Class`` or ``path.py:Class`` read from a
    file is never built. :class:`CheckpointError` naming the key otherwise."""
    network = doc.get("network")
    named = network.get("prior") if isinstance(network, Mapping) else None
    if named is None or (prior is not None and named == prior):
        return
    try:
        kind_of(named, "network.prior")
    except UnknownKindError as e:
        raise CheckpointError(f"{path}: the checkpoint's {e}; a prior of your own is given "
                              f"by your own training config (network.prior)") from None


def build_network(spec: Mapping[str, Any], ruleset: str | None = "2e", *,
                  game: str, obs_size: int | None = None,
                  num_actions: int | None = None) -> _PolicyBase:
    """The network a spec names (``{"kind": "mlp", "hidden": [...]}`` or ``{"kind":
    "structured", "embed", "heads", "layers", "hidden"}``), sized for the observation and
    action space of ``game``: AGoT's of ``ruleset`` (its plugin's ``network`` module), any
    other game's from ``obs_size`` and ``num_actions`` (its env's spaces). Unknown keys are
    errors, so that a typo is not ignored (:func:`check_network_spec`); ``"structured"`` needs
    a game whose module gives the layout (ValueError naming ``network.kind`` otherwise)."""
    check_network_spec(spec)
    spec = dict(spec)
    kind = spec.pop("kind", "mlp")
    prior, bonus = spec.pop("prior", None), spec.pop("prior_bonus", None)
    network = _build_layout(kind, spec, ruleset, game, obs_size, num_actions)
    network.set_prior(prior, bonus)
    return network


def _build_layout(kind: str, spec: dict[str, Any], ruleset: str | None, game: str,
                  obs_size: int | None, num_actions: int | None) -> _PolicyBase:
    """The network of ``kind`` and sizes ``spec`` (checked by :func:`build_network`)."""
    module = game_networks(game)
    if module is not None:
        variant = ruleset if ruleset is not None else module.DEFAULT_VARIANT
        obs_size, num_actions = module.sizes(variant)
    elif obs_size is None or num_actions is None:
        raise ValueError(f"a network for game {game!r} needs its obs_size and num_actions "
                         f"(the env's observation and action spaces)")
    if kind == "mlp":
        return MLPPolicy(obs_size, num_actions, **spec)
    if module is None or not hasattr(module, "structured_layout"):
        raise ValueError(f"network.kind: {kind!r} is built on a game's board layout, which "
                         f"game {game!r} does not give (use kind: mlp)")
    if kind == "board":
        return BoardPolicy(obs_size, num_actions, **module.board_layout(variant), **spec)
    return StructuredPolicy(obs_size, num_actions, **module.structured_layout(variant), **spec)


# -- checkpoints ---------------------------------------------------------------------------------
def save_checkpoint(path: str | Path, network: _PolicyBase, ruleset: str | None = "2e", *,
                    game: str, **extra: Any) -> Path:
    """Write the network (kind, sizes, weights and normaliser), its game and ruleset (AGoT's
    variant; None for a game without one) and ``extra`` (the trainer's config and figures) as
    one torch file that :func:`load_checkpoint` reads back. ``extra``
    must be plain data (builtins and tensors): TypeError, and no file, otherwise, since the
    file could not be read back with ``weights_only=True``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"format": CHECKPOINT_FORMAT, "agent": "ppo", "game": game,
           "ruleset": ruleset,
           "network": network.spec(), "obs_size": network.obs_size,
           "num_actions": network.num_actions,
           "state_dict": {k: v.detach().clone() for k, v in network.state_dict().items()},
           **extra}
    tmp = path.with_name(path.name + ".tmp")
    torch.save(doc, tmp)
    unsafe = _unsafe_globals(tmp)
    if unsafe:
        tmp.unlink()
        raise TypeError(f"a checkpoint must be plain data (builtins and tensors); this one "
                        f"would hold {unsafe}")
    tmp.replace(path)  # never a half-written checkpoint under the real name
    return path


def load_checkpoint(path: str | Path, prior: str | None = None
                    ) -> tuple[_PolicyBase, dict[str, Any]]:
    """(network in eval mode, the whole checkpoint document). A file that is missing, not a
    torch file, holding objects that are not plain data (:func:`read_torch_file`), of another
    format, whose network names a prior agent that is neither a registered kind nor ``prior``
    (the spec the caller's own config names: :func:`check_file_prior`), or whose weights do not
    fit its network raises :class:`CheckpointError` naming the file and what is wrong."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no checkpoint file at {path}")
    doc = read_torch_file(path)
    if not isinstance(doc, dict) or doc.get("format") != CHECKPOINT_FORMAT:
        found = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        raise CheckpointError(f"{path}: not a got_env PPO checkpoint of format "
                              f"{CHECKPOINT_FORMAT!r} (found {found!r})")
    game = games.saved_game(doc)
    if not isinstance(game, str):
        raise CheckpointError(f"{path}: the checkpoint's game must be a registry name, got "
                              f"{game!r}")
    try:
        needed = ("network", "state_dict", "ruleset") if game_networks(game) is not None else (
            "network", "state_dict", "obs_size", "num_actions")
    except KeyError as e:
        raise CheckpointError(f"{path}: {e.args[0]}") from None
    for key in needed:
        if key not in doc:
            raise CheckpointError(f"{path}: the checkpoint has no {key!r}")
    check_file_prior(path, doc, prior)
    try:
        network = build_network(doc["network"], doc.get("ruleset"), game=game,
                                obs_size=doc.get("obs_size"),
                                num_actions=doc.get("num_actions"))
        network.load_state_dict(doc["state_dict"])
    except (ValueError, RuntimeError, KeyError, TypeError) as e:
        raise CheckpointError(f"{path}: its weights do not fit its network "
                              f"{doc['network']}: {e}") from None
    network.eval()
    return network, doc


class PPOAgent:
    """Plays a trained policy through the :class:`agents.base.Agent` protocol.

    :param checkpoint: a file written by ``experiments.train`` (or :func:`save_checkpoint`);
        None plays the shipped one (:data:`SHIPPED_CHECKPOINT`).
    :param greedy: pick the most probable legal action instead of sampling from the policy.
    :param seed: the sampling generator's seed.
    :param env: the game's env (agent specs pass it): another game than the checkpoint's, a
        game of another ruleset (the shipped one is 2e-only) or of other sizes raises
        :class:`CheckpointError` naming both.
    """

    def __init__(self, checkpoint: str | Path | None = None, greedy: bool = False,
                 seed: int | None = None, env: Any = None):
        self.checkpoint = Path(checkpoint) if checkpoint is not None else SHIPPED_CHECKPOINT
        self.network, self.document = load_checkpoint(self.checkpoint)
        self.game = str(games.saved_game(self.document))
        ruleset = self.document.get("ruleset")
        self.ruleset = str(ruleset) if ruleset is not None else None
        if env is not None:
            self.check_env(env)
        self.greedy = bool(greedy)
        self.generator = torch.Generator().manual_seed(
            int(seed) if seed is not None else int(np.random.SeedSequence().entropy % 2**63))
        self.prior = self._build_prior(env, seed)

    def _build_prior(self, env: Any, seed: int | None) -> Any:
        """The network's prior agent (None without one), built from its spec with ``env`` and
        a seed of its own derived from ``seed``; it sees every decision of this agent's house,
        as it would playing it."""
        name = self.network.prior
        if name is None:
            return None
        own = None if seed is None else (int(seed) * 7919 + 1) % 2**31
        return build_kind(name, f"{self.checkpoint}: network.prior", env=env, seed=own)

    def reset(self) -> None:
        """A new game: the prior agent forgets the last one."""
        if self.prior is not None:
            begin_game(self.prior)

    def observe_end(self, reward: float, info: dict[str, Any]) -> None:
        if self.prior is not None:
            end_game(self.prior, reward, info)

    @classmethod
    def from_checkpoint(cls, path: str | Path, **kwargs: Any) -> PPOAgent:
        return cls(checkpoint=path, **kwargs)

    def check_env(self, env: Any) -> None:
        """Raise :class:`CheckpointError` when ``env`` plays another game, another ruleset,
        or has other observation or action sizes, than the network was trained for."""
        raw = getattr(env, "unwrapped", env)
        game = env_game(raw)
        if game is None:
            return  # not a game env (a spec being checked): nothing to compare
        net = self.network
        if game != self.game:
            raise CheckpointError(f"{self.checkpoint}: trained for game {self.game!r}; this env "
                                  f"plays {game!r}: train a checkpoint for it (experiments."
                                  f"train with game: {game})")
        module = game_networks(game)
        if module is not None:
            module.check_env(self.checkpoint, self.ruleset or module.DEFAULT_VARIANT, net, raw,
                             CheckpointError)
            return
        agent = raw.possible_agents[0]
        sizes = (int(raw.observation_space(agent)["observation"].shape[0]),
                 int(raw.action_space(agent).n))
        if sizes != (net.obs_size, net.num_actions):
            raise CheckpointError(
                f"{self.checkpoint}: trained for observations of {net.obs_size} and "
                f"{net.num_actions} actions; this {game} env has {sizes[0]} and {sizes[1]} "
                f"(other env options?)")

    @torch.no_grad()
    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        net = self.network
        if observation.shape != (net.obs_size,) or action_mask.shape != (net.num_actions,):
            what = (f"game {self.game!r}, ruleset {self.ruleset!r}" if self.ruleset is not None
                    else f"game {self.game!r}")
            raise CheckpointError(f"{self.checkpoint}: the network ({what}) "
                                  f"takes observations of {net.obs_size} and masks of "
                                  f"{net.num_actions}, got {observation.shape} and "
                                  f"{action_mask.shape} (a game of another ruleset?)")
        if not action_mask.any():
            raise ValueError("no legal action in the mask: this agent is not to act")
        prior = None
        if self.prior is not None:
            choice = check_prior_choice(action_mask,
                                        self.prior.act(observation, action_mask, info))
            prior = torch.tensor([choice])
        obs = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
        mask = torch.as_tensor(action_mask).unsqueeze(0)
        logits, _ = net(obs, mask, prior)
        if self.greedy:
            return int(logits.argmax(-1))
        probs = torch.softmax(logits, -1)
        return int(torch.multinomial(probs, 1, generator=self.generator))
