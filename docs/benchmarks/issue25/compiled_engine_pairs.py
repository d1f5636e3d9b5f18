"""The compiled rules engine's gain through the batched API (issue 25's bar: 1.2x).

Decisions/s of ``VectorGames`` (128 games, 6 players, 2 worker processes, random masked play;
``experiments.benchmark.VectorRun`` of the tree measured) for two source trees, in alternating
pairs of fresh processes (which tree goes first alternates), 8 seconds each after a 3-second
warm-up. Run as ``python compiled_engine_pairs.py TREE_A TREE_B [PAIRS]`` with the interpreter
of a venv that has both trees' dependencies; prints each pair, the medians and the ratio A/B.
"""

from __future__ import annotations

import statistics
import subprocess
import sys

CODE = ("from experiments.benchmark import VectorRun; r = VectorRun(128, 6, 2, seed=1); "
        "r.rate(3.0); print(r.rate(8.0)[0]); r.close()")


def rate(tree: str) -> float:
    """One process's decisions/s with ``tree`` first on the path."""
    out = subprocess.run([sys.executable, "-c", CODE], cwd=tree, capture_output=True,
                         text=True, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": tree},
                         check=True)
    return float(out.stdout.split()[-1])


def main() -> None:
    arms = sys.argv[1:3]
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    results: dict[str, list[float]] = {a: [] for a in arms}
    for p in range(pairs):
        for arm in arms if p % 2 == 0 else arms[::-1]:
            results[arm].append(rate(arm))
        print(p, {a: round(v[-1]) for a, v in results.items()}, flush=True)
    ratios = [x / y for x, y in zip(results[arms[0]], results[arms[1]], strict=True)]
    for arm, values in results.items():
        print(f"{arm}: median {statistics.median(values):.0f} "
              f"({min(values):.0f}-{max(values):.0f})")
    print(f"ratio {arms[0]}/{arms[1]}: median {statistics.median(ratios):.3f} "
          f"({min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
