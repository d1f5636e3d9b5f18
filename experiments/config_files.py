"""Reading the experiments' YAML config files, so that every command line that takes a config
(play, tournament, ladder, train) fails the same way on a bad one: one line naming the file,
and the key for a bad value, and exit code 2 — never a traceback.

:func:`read_yaml` turns every way a file can be unreadable (missing, a folder, not UTF-8, not
YAML) into a :class:`ConfigError`; :func:`read_config` adds the file's name to the errors of a
parser (the keys' types and ranges: experiments.config_model); :func:`check_env` builds the
``env`` options once; :func:`exit_config_error` prints the error the way argparse does and
exits 2. ``ConfigError`` is a ``ValueError``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import yaml

Parsed = TypeVar("Parsed")


class ConfigError(ValueError):
    """A config file that cannot be read, or a bad value in one; the message names the key."""


def one_line(text: str) -> str:
    """``text`` on one line: messages of YAML and of agents' constructors can span several,
    and an error of a command line is one line."""
    return " ".join(text.split())


def short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters: a whole file can end up in a message."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _yaml_problem(e: yaml.YAMLError) -> str:
    """A YAML error in one line: the problem and where (the full message quotes the text)."""
    mark = getattr(e, "problem_mark", None)
    problem = getattr(e, "problem", None) or str(e)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    return f"{problem}{where}"


def read_yaml(path: str | Path) -> Any:
    """The document of a YAML file; every way the file can fail to read is a ConfigError
    starting with the path."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ConfigError(f"{path}: cannot read the config: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset "
                          f"{e.start}); save the file as UTF-8") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: not valid YAML: {_yaml_problem(e)}") from None


def read_config(path: str | Path, parse: Callable[[Any], Parsed]) -> Parsed:
    """``parse`` of the YAML file at ``path``, every ConfigError starting with the path."""
    raw = read_yaml(path)
    try:
        return parse(raw)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None


def check_env(value: Any, key: str = "env", forbidden: dict[str, str] | None = None, *,
              game: str) -> tuple[dict[str, Any], Any]:
    """The ``env`` mapping of the options of ``game``'s env (none: the defaults) and a
    throw-away raw env built from it (:func:`boardkit.envs.make_env`), so that a bad option
    fails before any game (and the caller learns the seats, ``possible_agents``);
    ``forbidden``: option -> why the caller does not take it."""
    from boardkit.envs import make_env  # here, not at the top: reading a file needs no game

    env = {} if value is None else value
    if not isinstance(env, dict):
        raise ConfigError(f"{key} must be a mapping of {game} env options, got {env!r}")
    for option, why in (forbidden or {}).items():
        if option in env:
            raise ConfigError(f"{key}.{option} is not allowed: {why}")
    try:
        return dict(env), make_env(game, **env)
    except (KeyError, TypeError, ValueError) as e:  # a game's OptionError is a ValueError
        raise ConfigError(f"{key}: {e.args[0] if isinstance(e, KeyError) else e}") from None


def exit_config_error(parser: argparse.ArgumentParser, error: Exception) -> NoReturn:
    """Print ``prog: error: <message>`` on one line (without argparse's usage lines, which
    have nothing to do with a bad file) and exit 2, like any usage error."""
    parser.exit(2, f"{parser.prog}: error: {one_line(str(error))}\n")
