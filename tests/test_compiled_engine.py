"""The compiled rules engine (setup.py, got_env/_compiled.py): the hot engine modules compiled by
Cython from their own sources run when the build is current, their sources run when it is stale
or when GOT_ENV_PURE_PYTHON asks, and both give the recorded games' results exactly.

The in-process tests (tests/test_recorded_games.py and the rest of the suite) run the engine as
installed, compiled when it was built; the pure-Python engine is checked here in a subprocess,
since a module is loaded once per process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import got_env
from got_env import _compiled

BUILT = all((_compiled.ENGINE_DIR / f"{m}{_compiled.STAMP}").is_file()
            for m in _compiled.ENGINE_MODULES)
needs_built = pytest.mark.skipif(
    not BUILT, reason="the compiled engine was not built (no C compiler or no Cython at install)")
TESTS = Path(__file__).parent


@needs_built
def test_the_engine_runs_compiled_when_its_build_is_current() -> None:
    if _compiled.pure_python():
        pytest.skip("GOT_ENV_PURE_PYTHON is set: the pure-Python engine runs")
    e = got_env.raw_env(num_players=3)
    e.reset(seed=0)
    e.step(int(e.legal_actions()[0]))
    stale = [m for m in _compiled.ENGINE_MODULES
             if _compiled.source_instead(_compiled.ENGINE_DIR, m) is not None]
    assert not stale, f"compiled from other sources (rebuild: pip install -e .): {stale}"
    assert sorted(_compiled.compiled_engine_modules()) == sorted(_compiled.ENGINE_MODULES)


def test_a_module_compiled_from_another_source_runs_as_its_source(tmp_path, monkeypatch) -> None:
    source = tmp_path / "rule.py"
    source.write_text("X = 1\n")
    monkeypatch.delenv("GOT_ENV_PURE_PYTHON", raising=False)
    assert _compiled.source_instead(tmp_path, "rule") is None  # never compiled: usual import
    (tmp_path / f"rule{_compiled.STAMP}").write_text(_compiled.source_hash(source) + "\n")
    assert _compiled.source_instead(tmp_path, "rule") is None  # compiled from this very source
    monkeypatch.setenv("GOT_ENV_PURE_PYTHON", "1")
    assert _compiled.source_instead(tmp_path, "rule") == source  # pure Python asked for
    monkeypatch.setenv("GOT_ENV_PURE_PYTHON", "0")
    source.write_text("X = 2\n")  # the rule edited after the build
    with pytest.warns(RuntimeWarning, match="compiled from another version of rule.py"):
        assert _compiled.source_instead(tmp_path, "rule") == source


def test_the_pure_python_engine_replays_the_recorded_games() -> None:
    """GOT_ENV_PURE_PYTHON=1 in a new process: every engine module runs from its .py (and the
    encoder and codec in Python), and every recorded game gives the recorded hashes."""
    script = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(TESTS)!r})
        from recorded_games import PATH, play
        from got_env import _compiled
        games = json.loads(PATH.read_text())["games"]
        same = [play(g["num_players"], g["tides_of_battle"], g["seed"], g["actions"])["final"]
                == g["final"] for g in games]
        print(json.dumps({{"compiled": _compiled.compiled_engine_modules(), "same": same}}))
    """)
    env = {**os.environ, "GOT_ENV_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=600, check=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    assert result["compiled"] == []
    assert result["same"] and all(result["same"])
