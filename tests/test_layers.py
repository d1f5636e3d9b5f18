"""The layers contracts (pyproject.toml ``[tool.importlinter]``, docs/layers.md) hold, and break
when an upward import is added: the check is run as CI runs it, ``lint-imports`` in a
subprocess, once on the tree as it is and once on a copy with one arrow pointing up."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("importlinter", reason="import-linter is in the dev extra: pip install -e "
                                           "'.[dev]'")

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("boardkit", "got_env", "goofspiel", "wotr_env", "agents", "experiments")


def lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` (the console script next to this interpreter) on the tree at ``cwd``,
    with its pyproject.toml, without the cache, so that the tree read is the one there."""
    script = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("no lint-imports script next to the interpreter (pip install -e '.[dev]')")
    env = {**os.environ, "COLUMNS": "200"}  # one line per contract in the report
    return subprocess.run([script, "--config", str(cwd / "pyproject.toml"), "--no-cache"],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
                          check=False)


def copy_tree(dest: Path) -> None:
    """The three packages' sources and pyproject.toml under ``dest`` (no build outputs: the
    import graph is read from the .py files)."""
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.c", "*.pyc", "checkpoints")
    for name in PACKAGES:
        shutil.copytree(ROOT / name, dest / name, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")


def test_the_layers_contracts_are_kept():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(("upward", "contract", "edge"), [
    # the engine reaching up to the agents: across the packages (and inside got_env too, since
    # agents imports got_env.wrappers: both contracts break)
    ("import agents", "packages: experiments > agents > games > boardkit",
     "got_env.engine.state -> agents"),
    # the engine reaching up to the env: inside got_env only
    ("import got_env.env", "got_env modules", "got_env.engine.state -> got_env.env"),
])
def test_an_upward_import_breaks_its_contract(tmp_path, upward, contract, edge):
    copy_tree(tmp_path)
    state = tmp_path / "got_env" / "engine" / "state.py"
    text = state.read_text(encoding="utf-8")
    anchor = "from __future__ import annotations\n"
    assert anchor in text
    state.write_text(text.replace(anchor, f"{anchor}\n{upward}  # noqa: F401\n", 1),
                     encoding="utf-8")
    result = lint_imports(tmp_path)
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert f"{contract} BROKEN" in out, out
    assert edge in out, out
