"""The experiments' one config model: each command line's config (play, tournament, ladder,
train) is a frozen dataclass, and :func:`parse_section` validates a YAML mapping into it by
the fields' types, so that every CLI rejects the same mistakes with the same words and names the
key path (``ppo.lr``) in every error.

A field's type says what a value may be: ``int``, ``float`` (finite; an integer is taken),
``bool``, ``str`` (non-empty), ``Path`` (a non-empty string), ``tuple[str, ...]`` (a YAML list
of strings), ``list`` (its items judged by its owner), ``dict`` (a mapping, judged by its
owner), a nested dataclass (a section: a mapping, or nothing for its defaults), ``X | None``
(nothing allowed) and ``Any`` (anything, judged by the caller). :func:`bounded` adds a range or a
list of choices to a field. What no single key can say
(one key's value against another's) stays with the CLI that owns the config, after the parse.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar, Union

from boardkit import games
from boardkit.backends import BACKENDS as BACKENDS  # where games run (one list, re-exported)

from .config_files import ConfigError, short

Section = TypeVar("Section")

#: The games a config may name (its ``game`` key): the registry's names (boardkit.games), known
#: without importing any game, so that ``train --help`` stays quick.
GAMES = tuple(games.names())


def bounded(default: Any = dataclasses.MISSING, *, minimum: float | None = None,
            maximum: float | None = None, above: float | None = None,
            choices: Iterable[Any] | None = None) -> Any:
    """A dataclass field with a range (``minimum``/``maximum`` inclusive, ``above`` exclusive) or
    a list of ``choices``, which :func:`parse_section` checks with the type."""
    meta = {"minimum": minimum, "maximum": maximum, "above": above,
            "choices": tuple(choices) if choices is not None else None}
    return dataclasses.field(default=default, metadata={k: v for k, v in meta.items()
                                                        if v is not None})


def game_field(games: Iterable[str] = GAMES) -> Any:
    """The ``game`` key every experiment's config has: which game it plays, one of ``games``
    (every game of the kit's registry; AGoT, ``got``, by default)."""
    return bounded("got", choices=games)


def key_names(keys: Iterable[Any]) -> list[Any]:
    """Keys in order for a message, as YAML read them (``1`` and ``'lr'``), which ``sorted``
    alone cannot compare."""
    return sorted(keys, key=lambda k: (type(k).__name__ != "int", str(k)))


def _join(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _range_words(kind: str, meta: dict[str, Any]) -> str:
    bounds = [f"{op} {meta[k]}" for k, op in (("minimum", ">="), ("above", ">"),
                                                 ("maximum", "<=")) if k in meta]
    return " and ".join([f"{kind} {bounds[0]}", *bounds[1:]]) if bounds else kind


def _in_range(value: float, meta: dict[str, Any]) -> bool:
    lo, hi, above = meta.get("minimum"), meta.get("maximum"), meta.get("above")
    return ((lo is None or value >= lo) and (hi is None or value <= hi)
            and (above is None or value > above))


def _optional(tp: Any) -> tuple[Any, bool]:
    """``X | None`` -> (X, True); any other type -> (it, False)."""
    if typing.get_origin(tp) in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(tp)) == 2:
            return args[0], True
    return tp, False


def parse_value(tp: Any, value: Any, key: str, meta: dict[str, Any] | None = None) -> Any:
    """``value`` checked against the type ``tp`` (and a field's range or choices in ``meta``);
    a bool is not an integer and a string of digits is not a number."""
    meta = meta or {}
    tp, nullable = _optional(tp)
    if value is None and nullable:
        return None
    choices = meta.get("choices")
    if choices is not None and value not in choices:
        raise ConfigError(f"{key} must be one of {list(choices)}, got {short(value)}")
    if dataclasses.is_dataclass(tp):
        return parse_section(tp, value, key)
    if tp is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{key} must be true or false, got {short(value)}")
    elif tp is int:
        if isinstance(value, bool) or not isinstance(value, int) or not _in_range(value, meta):
            raise ConfigError(f"{key} must be {_range_words('an integer', meta)}, "
                              f"got {short(value)}")
    elif tp is float:
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not math.isfinite(value) or not _in_range(value, meta)):
            raise ConfigError(f"{key} must be {_range_words('a finite number', meta)}, "
                              f"got {short(value)}")
        return float(value)
    elif tp is str:
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{key} must be a non-empty string, got {short(value)}")
    elif tp is Path:
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"{key} must be a folder path (a non-empty string), "
                              f"got {short(value)}")
        return Path(value)
    elif typing.get_origin(tp) is tuple:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{key} must be a list of names, got {short(value)}")
        return tuple(value)
    elif tp is list or typing.get_origin(tp) is list:
        if not isinstance(value, list):
            raise ConfigError(f"{key} must be a list, got {short(value)}")
        return list(value)
    elif tp is dict or typing.get_origin(tp) is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{key} must be a mapping, got {short(value)}")
        return dict(value)
    return value


def parse_section(cls: type[Section], raw: Any, where: str = "") -> Section:
    """A ``cls`` (a frozen dataclass) from the mapping ``raw``: each key checked by its field's
    type, missing keys at their defaults, an unknown key or a missing required one refused;
    ``where`` is the section's key path ('' for a whole file), which starts every message. A
    section left empty (``ppo:``) takes its defaults; a whole file must be a mapping."""
    if raw is None and where:
        raw = {}
    if not isinstance(raw, dict):
        shown = "an empty file" if raw is None else f"{type(raw).__name__} {short(raw)}"
        raise ConfigError(f"{where or 'a config'} must be a mapping of keys (key: value lines), "
                          f"got {shown}")
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = [k for k in raw if k not in fields]
    if unknown:
        raise ConfigError(f"{where + ': ' if where else ''}unknown key(s) {key_names(unknown)} "
                          f"(known: {list(fields)})")
    hints = typing.get_type_hints(cls)
    values = {}
    for name, f in fields.items():
        if name in raw:
            values[name] = parse_value(hints[name], raw[name], _join(where, name),
                                       dict(f.metadata))
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ConfigError(f"{_join(where, name)} must be set")
    return cls(**values)
