"""The experiments' one config model: each config kind (play, tournament, ladder, train,
imitate, pipeline) is declared once, as frozen pydantic dataclasses (:func:`schema`), whose
fields' types and bounds are the whole of what a single key may be. :func:`parse_section` reads
a YAML mapping into one, so that every CLI refuses the same mistakes with the same words, naming
the key path (``ppo.lr``) and the bound in every error, before anything runs.

A field's type says what a value may be, with the aliases below: :data:`Int` (an integer, not
a bool nor a string of digits), :data:`Float` (a finite number; an integer is taken),
:data:`Bool`, :data:`Text` (a non-empty string), :data:`Folder` (a path: a non-empty string),
:data:`Names` (a YAML list of strings), ``dict`` (a mapping, judged by its owner), a nested
schema (a section: a mapping, or nothing for its defaults: :data:`Section`), a
``Literal`` of choices (:func:`one_of`), ``X | None`` (nothing allowed) and ``Any`` (anything,
judged by the caller); ``Field(ge=, gt=, le=)`` adds the range. Every number has an upper bound
too, so that ``num_games: 1000000000`` or ``lr: 1e300`` is refused when the file is read, not
met as an exhausted memory or a diverged run. What no single key can say (one key's value
against another's) stays with the CLI that owns the config, after the parse.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, Union

import annotated_types
import pydantic
from pydantic import BeforeValidator, ConfigDict, Field, Strict, TypeAdapter, ValidationError

from boardkit import games
from boardkit.backends import BACKENDS as BACKENDS  # where games run (one list, re-exported)

from .config_files import ConfigError, short

Schema = TypeVar("Schema")
T = TypeVar("T")

#: The games a config may name (its required ``game`` key): the registry's names
#: (boardkit.games), known without importing any game, so that ``train --help`` stays quick.
GAMES = tuple(games.names())

#: Bounds shared by the configs: the most games one batch steps in lockstep, one run plays per
#: line-up or opponent, worker processes, a seed (what numpy's and torch's generators both
#: take), and a count of updates, epochs or steps.
MAX_BATCH = 4096
MAX_GAMES = 100_000
MAX_WORKERS = 256
MAX_SEED = 2**32 - 1
MAX_COUNT = 10_000_000

#: What every schema refuses: an unknown key, a NaN or an infinity.
CONFIG = ConfigDict(extra="forbid", allow_inf_nan=False)


def schema(cls: type[Schema]) -> type[Schema]:
    """``cls`` as a config schema: a frozen pydantic dataclass with keyword-only fields (so that
    a required key such as ``game`` may come first), validated whenever one is made."""
    return pydantic.dataclasses.dataclass(frozen=True, kw_only=True, config=CONFIG)(cls)


def _folder(value: Any) -> Any:
    if isinstance(value, Path):
        return value
    if not isinstance(value, str) or not value.strip():
        raise ValueError("a folder path is a non-empty string")
    return Path(value)


def _empty_section(value: Any) -> Any:
    return {} if value is None else value


Int = Annotated[int, Strict()]
Float = Annotated[float, Strict()]
Bool = Annotated[bool, Strict()]
Text = Annotated[str, Strict(), Field(min_length=1)]
Folder = Annotated[Path, BeforeValidator(_folder)]
Names = tuple[Text, ...]
#: A nested schema: a mapping of its keys, or nothing (``ppo:``) for its defaults.
Section = Annotated[T, BeforeValidator(_empty_section)]


def one_of(choices: Iterable[Any]) -> Any:
    """The type of a key that takes one of ``choices`` (a ``Literal``)."""
    return Literal.__getitem__(tuple(choices))


#: The ``game`` key every experiment's config has: any game of the kit's registry.
Game = one_of(GAMES)
#: Where a config's games run (boardkit.backends).
Backend = one_of(BACKENDS)


# -- reading -----------------------------------------------------------------------------------
def parse_section(cls: type[Schema], raw: Any, where: str = "") -> Schema:
    """A ``cls`` (a :func:`schema`) from the mapping ``raw``, or a :class:`ConfigError` naming
    the key path (``where``, the section's, starts it: '' for a whole file) and the bound.
    A section left empty takes its defaults; a whole file must be a mapping."""
    if raw is None and where:
        raw = {}
    if not isinstance(raw, dict):
        shown = "an empty file" if raw is None else f"{type(raw).__name__} {short(raw)}"
        raise ConfigError(f"{where or 'a config'} must be a mapping of keys (key: value lines), "
                          f"got {shown}")
    try:
        return TypeAdapter(cls).validate_python(raw)
    except ValidationError as e:
        raise ConfigError(_message(cls, raw, e.errors(), where)) from None


def parse_key(cls: type, name: str, value: Any, key: str) -> Any:
    """``value`` checked as the field ``name`` of the schema ``cls`` (its type and bounds);
    ``key`` names it in the error (a command line's option: ``--updates``)."""
    field = cls.__pydantic_fields__[name]  # type: ignore[attr-defined]
    tp = Annotated.__class_getitem__((field.annotation, *field.metadata)) \
        if field.metadata else field.annotation  # type: ignore[attr-defined]
    adapter = TypeAdapter(tp, config=CONFIG)
    try:
        return adapter.validate_python(value)
    except ValidationError as e:
        first = e.errors()[0]
        words = _words(field.annotation, field.metadata)
        if words is None:
            raise ConfigError(f"{key}: {first['msg']}, got {short(value)}") from None
        raise ConfigError(f"{key} must be {words}, got {short(value)}") from None


def key_names(keys: Iterable[Any]) -> list[Any]:
    """Keys in order for a message, as YAML read them (``1`` and ``'lr'``), which ``sorted``
    alone cannot compare."""
    return sorted(keys, key=lambda k: (type(k).__name__ != "int", str(k)))


def fields_of(cls: type) -> dict[str, Any]:
    """The schema's fields (pydantic's FieldInfo) by key, in declaration order."""
    return dict(cls.__pydantic_fields__)  # type: ignore[attr-defined]


def sections_of(cls: type) -> dict[str, type]:
    """The schema's nested schemas (its sections) by key."""
    return {name: tp for name, f in fields_of(cls).items()
            if _is_schema(tp := _plain(f.annotation)[0])}


# -- messages ----------------------------------------------------------------------------------
UNKNOWN_KEY = ("unexpected_keyword_argument", "invalid_key", "extra_forbidden")


def _message(cls: type, raw: Any, errors: Sequence[Any], where: str) -> str:
    """One line for the first of pydantic's ``errors``: unknown keys of the shallowest section
    first (all of them, with the known ones), else the first bad value with its key path and
    what the key takes."""
    unknown = [e for e in errors if e["type"] in UNKNOWN_KEY and _schema_at(cls, e["loc"][:-1])]
    if unknown:
        depth = min(len(e["loc"]) for e in unknown)
        parent = next(e["loc"][:-1] for e in unknown if len(e["loc"]) == depth)
        keys = [e["loc"][-1] for e in unknown if e["loc"][:-1] == parent]
        known = list(fields_of(_schema_at(cls, parent)))  # type: ignore[arg-type]
        head = _join(where, parent)
        return (f"{head + ': ' if head else ''}unknown key(s) {key_names(keys)} "
                f"(known: {known})")
    error = errors[0]
    loc = tuple(error["loc"])
    if error["type"] == "missing":
        field = fields_of(_schema_at(cls, loc[:-1]) or cls).get(loc[-1])
        words = _words(field.annotation, field.metadata) if field is not None else None
        return f"{_join(where, loc)} must be set" + (f": {words}" if words else "")
    owner, name, depth = _field_at(cls, loc)
    if owner is None:  # not under a field (the whole file): pydantic's words
        return f"{_join(where, loc) or 'a config'}: {error['msg']}"
    field = fields_of(owner)[name]
    key = _join(where, loc[:depth])
    value = _value_at(raw, loc[:depth])
    tp = _plain(field.annotation)[0]
    if _is_schema(tp):
        return (f"{key} must be a mapping of keys (key: value lines), got "
                f"{type(value).__name__} {short(value)}")
    words = _words(field.annotation, field.metadata)
    if words is None:
        return f"{key}: {error['msg']}, got {short(value)}"
    return f"{key} must be {words}, got {short(value)}"


def _words(annotation: Any, metadata: Sequence[Any] = ()) -> str | None:
    """What a key of this type takes, in words (None where pydantic's own words serve)."""
    tp, bounds = _plain(annotation)
    bounds = [*bounds, *metadata]
    if typing.get_origin(tp) is Literal:
        return f"one of {list(typing.get_args(tp))}"
    if tp is bool:
        return "true or false"
    if tp is int:
        return _range("an integer", bounds)
    if tp is float:
        return _range("a finite number", bounds)
    if tp is str:
        return "a non-empty string"
    if tp is Path:
        return "a folder path (a non-empty string)"
    origin = typing.get_origin(tp) or tp
    if origin is tuple:
        return "a list of names"
    if origin is list:
        return "a list"
    if origin is dict:
        args = typing.get_args(tp)
        inner = _words(args[1]) if len(args) == 2 and args[1] is not Any else None
        return "a mapping" + (f" of names to values each {inner}" if inner else "")
    return None


def _range(kind: str, bounds: Iterable[Any]) -> str:
    parts = []
    for b in bounds:
        for cls, attr, op in ((annotated_types.Ge, "ge", ">="), (annotated_types.Gt, "gt", ">"),
                              (annotated_types.Le, "le", "<="), (annotated_types.Lt, "lt", "<")):
            if isinstance(b, cls):
                parts.append(f"{op} {getattr(b, attr)}")
    return " and ".join([f"{kind} {parts[0]}", *parts[1:]]) if parts else kind


def _plain(annotation: Any) -> tuple[Any, list[Any]]:
    """``annotation`` without ``Annotated`` and ``| None``: (the type, its Annotated bounds)."""
    extra: list[Any] = []
    while True:
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            annotation, *meta = typing.get_args(annotation)
            extra += meta
        elif origin in (Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(args) != 1:
                return annotation, extra
            annotation = args[0]
        else:
            return annotation, extra


def _is_schema(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp) \
        and hasattr(tp, "__pydantic_fields__")


def _schema_at(cls: type, loc: Sequence[Any]) -> type | None:
    """The section of ``cls`` at the key path ``loc`` (``()``: ``cls``), or None."""
    for part in loc:
        field = fields_of(cls).get(part) if isinstance(part, str) else None
        tp = _plain(field.annotation)[0] if field is not None else None
        if not _is_schema(tp):
            return None
        cls = tp
    return cls


def _field_at(cls: type, loc: Sequence[Any]) -> tuple[type | None, str, int]:
    """(the schema holding the field that ``loc`` is in, its key, how many parts of ``loc``
    lead to it): an error inside a mapping or a list is reported at its field."""
    owner: type | None = None
    name = ""
    for depth, part in enumerate(loc, 1):
        field = fields_of(cls).get(part) if isinstance(part, str) else None
        if field is None:
            return owner, name, depth - 1
        owner, name = cls, part
        tp = _plain(field.annotation)[0]
        if not _is_schema(tp):
            return owner, name, depth
        cls = tp
    return owner, name, len(loc)


def _value_at(raw: Any, loc: Sequence[Any]) -> Any:
    for part in loc:
        raw = raw.get(part) if isinstance(raw, dict) else None
    return raw


def _join(where: str, loc: Sequence[Any] | str) -> str:
    parts = [where] if where else []
    for part in ([loc] if isinstance(loc, str) else loc):
        if isinstance(part, int) and parts:
            parts[-1] += f"[{part}]"
        else:
            parts.append(str(part))
    return ".".join(parts)


__all__ = ["BACKENDS", "GAMES", "MAX_BATCH", "MAX_COUNT", "MAX_GAMES", "MAX_SEED",
           "MAX_WORKERS", "Backend", "Bool", "ConfigError", "Field", "Float",
           "Folder", "Game", "Int", "Names", "Section", "Text", "fields_of", "key_names",
           "one_of", "parse_key", "parse_section", "schema", "sections_of"]
