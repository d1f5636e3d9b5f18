"""Where a network runs: one reading of a ``device:`` key for every torch tool (the trainer,
the imitation fit, the learned value), so that a missing GPU is refused in the same words
before the first tensor moves, not as a CUDA error deep inside a run."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import torch

#: The device names a config may give: ``auto`` is cuda when torch sees a GPU, else cpu.
DEVICES = ("cpu", "cuda", "auto")


def torch_device(name: str) -> torch.device:
    """``torch.device(name)``, ``auto`` resolved; ``"cuda"`` refused (a ``ValueError`` saying
    why) when this torch has no CUDA or sees no GPU."""
    if name not in DEVICES:
        raise ValueError(f"device: one of {list(DEVICES)}, got {name!r}")
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("device: cuda asked for, but torch.cuda.is_available() is False "
                         f"(torch {torch.__version__}, built with CUDA "
                         f"{torch.version.cuda or 'none'}): use device: cpu")
    return torch.device(name)


@contextlib.contextmanager
def torch_threads(count: int) -> Iterator[None]:
    """torch's intra-op thread count set to ``count`` for a fit and restored after it: the
    count is global to the process, and a later run in the same process (a test's PPO run
    beside a fit) must keep its own, or its float sums come out in another order."""
    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)
