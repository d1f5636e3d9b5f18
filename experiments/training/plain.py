"""Plain data: the trainer's state in types that ``torch.load(weights_only=True)`` reads.

A pickle can hold any object, and unpickling an object runs whatever its ``__reduce__`` names:
a trainer checkpoint read with ``weights_only=False`` could run code from the file. So the
trainer stores its state as builtins (None, bools, numbers, strings, bytes, lists, tuples, sets,
dicts) and tensors only, and this module turns the few objects it also holds into such data and
back:

* numpy arrays and scalars become ``{"__plain__": "ndarray" | "scalar", "dtype", "shape",
  "data": bytes}`` (numeric dtypes only: exactly the same values and dtype come back);
* numpy generators become their bit generator's state (``{"__plain__": "Generator", ...}``);
* members of an enum the codec was given become ``{"__plain__": "enum", "class", "value"}``;
* instances of a class the codec was given become ``{"__plain__": "object", "class", "state"}``
  (their ``__getstate__``), rebuilt by ``__new__`` and ``__setstate__`` (or their ``__dict__``).

Decoding creates only those classes: a file that names another is refused, so a crafted file
can at worst give wrong numbers, never run code. Object identity is not kept (an object reached
twice comes back as two equal copies); the trainer's state shares nothing that it mutates.
"""

from __future__ import annotations

import enum
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import numpy as np
import torch

#: The key that marks an encoded object (a plain dict that has it is wrapped, so it stays one).
TAG = "__plain__"
#: What ``weights_only=True`` reads as it is (exact types: a subclass, such as ``np.float64`` of
#: float or a named tuple of tuple, is not plain).
SCALARS = (type(None), bool, int, float, complex, str, bytes)
#: Numpy dtype kinds stored as raw bytes: bool, signed and unsigned integers, floats, complex.
NUMERIC_KINDS = "biufc"
#: The bit generators a numpy Generator may be rebuilt on.
BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")


def class_name(cls: type) -> str:
    """``module:qualname``, how a file names a class."""
    return f"{cls.__module__}:{cls.__qualname__}"


class PlainCodec:
    """Encodes a state into plain data and decodes it back, knowing only ``classes`` (enums and
    ordinary classes) besides builtins, tensors, numpy arrays, scalars and generators."""

    def __init__(self, classes: Iterable[type]):
        self.classes = {class_name(c): c for c in classes}

    # -- encoding -----------------------------------------------------------------------------
    def encode(self, x: Any) -> Any:
        """``x`` as plain data; TypeError naming the type of anything it cannot store."""
        t = type(x)
        if t in SCALARS or t in (torch.Tensor, torch.nn.Parameter):
            return x
        if t is list:
            return [self.encode(v) for v in x]
        if t is tuple:
            return tuple(self.encode(v) for v in x)
        if t in (set, frozenset):
            return t(self.encode(v) for v in x)
        if t in (dict, OrderedDict):
            return self._encode_dict(x)
        if t is np.ndarray or isinstance(x, np.generic):
            return _encode_array(x)
        if t is np.random.Generator:
            return {TAG: "Generator", "state": self.encode(x.bit_generator.state)}
        name = class_name(t)
        if self.classes.get(name) is not t:
            raise TypeError(f"cannot store a {name} as plain data: give its class to the "
                            f"PlainCodec (experiments.training.ppo.RESUME_CLASSES)")
        if isinstance(x, enum.Enum):
            return {TAG: "enum", "class": name, "value": self.encode(x.value)}
        return {TAG: "object", "class": name, "state": self.encode(x.__getstate__())}

    def _encode_dict(self, x: dict) -> Any:
        pairs = [(self.encode(k), self.encode(v)) for k, v in x.items()]
        if TAG in x or not all(_hashable(k) for k, _ in pairs):
            # a dict that would read as a tag, or keys that became dicts: stored as its items
            return {TAG: "dict", "items": pairs}
        out = dict(pairs)
        return OrderedDict(out) if type(x) is OrderedDict else out

    # -- decoding -----------------------------------------------------------------------------
    def decode(self, x: Any) -> Any:
        """What :meth:`encode` was given; ValueError for a tag or class it does not know."""
        t = type(x)
        if t is list:
            return [self.decode(v) for v in x]
        if t is tuple:
            return tuple(self.decode(v) for v in x)
        if t in (set, frozenset):
            return t(self.decode(v) for v in x)
        if t in (dict, OrderedDict):
            if TAG in x:
                return self._decode_tagged(x)
            out = {self.decode(k): self.decode(v) for k, v in x.items()}
            return OrderedDict(out) if t is OrderedDict else out
        return x

    def _decode_tagged(self, x: dict) -> Any:
        kind = x[TAG]
        if kind == "dict":
            return {self.decode(k): self.decode(v) for k, v in x["items"]}
        if kind in ("ndarray", "scalar"):
            return _decode_array(x)
        if kind == "Generator":
            return _decode_generator(self.decode(x["state"]))
        if kind in ("enum", "object"):
            cls = self.classes.get(x.get("class"))  # type: ignore[arg-type]
            if cls is None:
                raise ValueError(f"plain data names the class {x.get('class')!r}, which is not "
                                 f"one a trainer checkpoint holds ({sorted(self.classes)})")
            if kind == "enum":
                return cls(self.decode(x["value"]))
            return _rebuild(cls, self.decode(x["state"]))
        raise ValueError(f"plain data with an unknown tag {kind!r}")


def _hashable(x: Any) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _encode_array(x: np.ndarray | np.generic) -> dict[str, Any]:
    if x.dtype.kind not in NUMERIC_KINDS:
        raise TypeError(f"cannot store a numpy {x.dtype} array as plain data (numeric only)")
    a = np.asarray(x)   # tobytes() is in C order whatever the array's layout
    return {TAG: "ndarray" if isinstance(x, np.ndarray) else "scalar", "dtype": a.dtype.str,
            "shape": list(a.shape), "data": a.tobytes()}


def _decode_array(x: dict[str, Any]) -> np.ndarray | np.generic:
    dtype = np.dtype(str(x["dtype"]))
    if dtype.kind not in NUMERIC_KINDS:
        raise ValueError(f"plain data holds an array of dtype {dtype}, not a numeric one")
    a = np.frombuffer(bytes(x["data"]), dtype=dtype).reshape([int(n) for n in x["shape"]])
    return a[()] if x[TAG] == "scalar" else a.copy()   # copy: writable, owning its memory


def _decode_generator(state: dict[str, Any]) -> np.random.Generator:
    name = state.get("bit_generator") if isinstance(state, dict) else None
    if name not in BIT_GENERATORS:
        raise ValueError(f"plain data holds a generator on {name!r}, not one of "
                         f"{BIT_GENERATORS}")
    bit_generator = getattr(np.random, name)()
    bit_generator.state = state
    return np.random.Generator(bit_generator)


def _rebuild(cls: type, state: Any) -> Any:
    obj = cls.__new__(cls)
    setstate = getattr(obj, "__setstate__", None)
    if setstate is not None:
        setstate(state)
    elif state is not None:
        obj.__dict__.update(state)
    return obj
