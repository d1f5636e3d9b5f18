"""``python -m experiments.value {data,fit,report,all} --config configs/value/agot.yaml``:
the value tool's stages (docs/value.md). ``data`` plays and writes the shards not yet on disk
(a re-run resumes; a larger ``data.games`` adds shards); ``fit`` fits the network on the
training games and saves the checkpoint; ``report`` measures it and the game's baseline on the
held-out games, per round, and writes ``report.json`` and ``report.md`` in the run folder;
``all`` runs the three in turn."""

from __future__ import annotations

import argparse
import sys

from experiments import config_files

from .config import load_config

STAGES = ("data", "fit", "report", "all")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m experiments.value", description=__doc__)
    parser.add_argument("stage", choices=STAGES)
    parser.add_argument("--config", required=True, help="a value config (configs/value/)")
    args = parser.parse_args(argv)
    try:
        cfg = load_config(args.config)
    except config_files.ConfigError as e:
        config_files.exit_config_error(parser, e)

    def say(text: str) -> None:
        print(text, flush=True)

    try:
        if args.stage in ("data", "all"):
            from .data import collect  # the stage's own imports only

            written = collect(cfg, say)
            say(f"data: {written} shard(s) written, {cfg.data.games} games in "
                f"{cfg.run_dir / 'shards'}")
        if args.stage in ("fit", "all"):
            from .fit import fit

            fit(cfg, say)
        if args.stage in ("report", "all"):
            from .report import report

            say(report(cfg))
    except (ValueError, FileNotFoundError) as e:  # a bad shard, checkpoint or device, named
        parser.exit(1, f"{parser.prog}: error: {config_files.one_line(str(e))}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
