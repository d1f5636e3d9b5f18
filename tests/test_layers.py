"""The layers contracts (pyproject.toml ``[tool.importlinter]``, docs/layers.md) hold, and break
when an upward import is added: the check is run as CI runs it, ``lint-imports`` in a
subprocess, once on the tree as it is and once on a copy with one arrow pointing up.

And no module imports itself back through others: the strongly connected groups of the import
graph of every package (grimp, the graph import-linter reads; imports under ``TYPE_CHECKING``
left out, as they never run) are counted, on the tree and on a copy with one cycle added."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
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


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module of ``graph`` (module -> the modules
    it imports), each sorted, the largest first: Tarjan's algorithm, iterative (an import chain
    can be deeper than Python's recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return sorted(groups, key=lambda g: (-len(g), g))


def import_cycles(packages: Iterable[str] = PACKAGES) -> list[list[str]]:
    """The import cycles among the modules of ``packages`` (as found on ``sys.path``): grimp's
    graph without the imports under ``TYPE_CHECKING``, read afresh (no cache)."""
    import grimp

    graph = grimp.build_graph(*packages, exclude_type_checking_imports=True, cache_dir=None)
    return strongly_connected({m: graph.find_modules_directly_imported_by(m)
                               for m in graph.modules})


def test_tarjan_finds_each_cycle_once() -> None:
    graph = {"a": ["b"], "b": ["c", "d"], "c": ["a"], "d": ["e"], "e": ["d", "f"], "f": [],
             "g": ["g"]}
    assert strongly_connected(graph) == [["a", "b", "c"], ["d", "e"]]
    chain = {str(i): [str(i + 1)] for i in range(5000)} | {"5000": ["0"]}  # deep: no recursion
    assert len(strongly_connected(chain)[0]) == 5001


def test_no_import_cycles() -> None:
    """0 strongly connected groups of modules in the packages (issue 38, item 7); on failure,
    each group with its modules."""
    pytest.importorskip("grimp", reason="grimp comes with import-linter (the dev extra)")
    for package in PACKAGES:  # the tree under test, not an installed copy elsewhere
        origin = importlib.util.find_spec(package).origin
        assert origin is not None and Path(origin).is_relative_to(ROOT), (package, origin)
    cycles = import_cycles()
    assert not cycles, f"{len(cycles)} import cycle(s):\n" + "\n".join(
        f"  {len(c)}: {', '.join(c)}" for c in cycles)


def test_an_added_cycle_is_counted(tmp_path) -> None:
    """The count on a copy of the tree where the kit's protocol imports the kit's env back (the
    env imports the protocol): one group more than the tree has, naming both."""
    pytest.importorskip("grimp", reason="grimp comes with import-linter (the dev extra)")
    copy_tree(tmp_path)
    protocol = tmp_path / "boardkit" / "protocol.py"
    text = protocol.read_text(encoding="utf-8")
    anchor = "from __future__ import annotations\n"
    assert anchor in text
    protocol.write_text(text.replace(anchor, f"{anchor}\nfrom . import aec  # noqa: F401\n", 1),
                        encoding="utf-8")
    code = ("import importlib.util, json, sys\n"
            f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
            "from test_layers import import_cycles\n"
            "print(importlib.util.find_spec('boardkit').origin)\n"
            "print(json.dumps(import_cycles()))\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300, check=True)
    origin, cycles = done.stdout.splitlines()[-2], json.loads(done.stdout.splitlines()[-1])
    assert Path(origin).is_relative_to(tmp_path), origin  # the copy's graph was read
    assert len(cycles) == len(import_cycles()) + 1
    (group,) = [c for c in cycles if "boardkit.protocol" in c]
    assert {"boardkit.aec", "boardkit.protocol"} <= set(group)


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
