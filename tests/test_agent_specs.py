"""Agent specs (agents.AgentSpec, docs/agents.md): every form builds its agent, checkpoints load
by the documented convention, a bad spec fails naming itself, and experiments.play and the
tournament seat agents from a module outside agents/ (also in spawned worker processes, which
must import that module themselves)."""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

import got_env
from agents import REGISTRY, AgentSpec, AgentSpecError, ISMCTSAgent, RandomAgent, make_agent
from experiments import play as P
from experiments.config_files import ConfigError
from experiments.tournament.config import load_config, parse_config
from experiments.tournament.run import run_tournament
from got_env.agents.heuristic import HeuristicAgent

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
FILE = FIXTURES / "my_agents.py"
REL_FILE = "tests/fixtures/my_agents.py"


@pytest.fixture
def on_path(monkeypatch):
    """The fixture folder on sys.path, as a researcher's package would be; ``my_agents`` is
    imported afresh in each test."""
    monkeypatch.syspath_prepend(str(FIXTURES))
    monkeypatch.chdir(ROOT)
    sys.modules.pop("my_agents", None)
    yield
    sys.modules.pop("my_agents", None)


def quiet(_msg: str) -> None:
    pass


def write_json(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data))
    return path


# -- the forms ---------------------------------------------------------------------------------
def test_every_form_parses_to_one_spec():
    plain = AgentSpec(name="random")
    assert AgentSpec.parse("random") == AgentSpec.parse({"name": "random"}) == plain
    assert AgentSpec.parse({"type": "random"}) == AgentSpec.parse({"type": "random",
                                                                  "kwargs": None}) == plain
    full = AgentSpec(name="my_agents:FirstLegalAgent", kwargs={"eps": 0.1})
    assert AgentSpec.parse({"name": "my_agents:FirstLegalAgent", "kwargs": {"eps": 0.1}}) == full
    assert AgentSpec.parse({"name": "my_agents:FirstLegalAgent", "eps": 0.1}) == full
    assert AgentSpec.parse({"type": "my_agents:FirstLegalAgent", "eps": 0.1}) == full
    ck = AgentSpec.parse({"checkpoint": "a.pt"})
    assert ck.name is None and ck.checkpoint == "a.pt"
    assert AgentSpec(name="x:Y", checkpoint=Path("a.pt")).checkpoint == "a.pt"
    for spec in (plain, full, ck, AgentSpec("x:Y", {"k": [1, 2]}, "a.pt")):
        assert AgentSpec.parse(spec) is spec
        assert AgentSpec.parse(spec.to_dict()) == spec
        assert AgentSpec.parse(json.loads(json.dumps(spec.to_dict()))) == spec
        assert pickle.loads(pickle.dumps(spec)) == spec
    assert str(full) == "agent 'my_agents:FirstLegalAgent'"
    assert str(AgentSpec("x:Y", checkpoint="a.pt")) == "agent 'x:Y' with checkpoint 'a.pt'"


def test_registry_names_build_with_their_seed_and_env():
    assert isinstance(make_agent("heuristic", seed=1), HeuristicAgent)
    mask = np.zeros(50, dtype=np.int8)
    mask[[3, 9, 17, 40]] = 1
    a, b = make_agent("random", seed=5), make_agent({"name": "random"}, seed=5)
    assert [a.act(None, mask, {}) for _ in range(20)] == [b.act(None, mask, {}) for _ in range(20)]
    fixed = make_agent({"name": "random", "seed": 5}, seed=99)   # the spec's seed wins
    same = make_agent("random", seed=5)
    assert [fixed.act(None, mask, {}) for _ in range(20)] == \
        [same.act(None, mask, {}) for _ in range(20)]
    env = got_env.raw_env(num_players=3)
    mcts = make_agent({"name": "ismcts", "kwargs": {"simulations": 2}}, env=env, seed=0)
    assert isinstance(mcts, ISMCTSAgent) and mcts.env is env
    assert isinstance(make_agent("random", env=env), RandomAgent)   # env only where taken


def test_module_and_file_forms_build(on_path, monkeypatch):
    import my_agents

    a = make_agent({"name": "my_agents:FirstLegalAgent", "kwargs": {"eps": 0.5}}, seed=4)
    assert type(a) is my_agents.FirstLegalAgent and (a.seed, a.eps) == (4, 0.5)
    b = make_agent(f"{REL_FILE}:FirstLegalAgent", seed=2)
    c = make_agent(f"{FILE}:FirstLegalAgent")
    assert type(b).__name__ == "FirstLegalAgent" and b.seed == 2 and c.seed is None
    assert type(b) is type(c) is type(make_agent(f"{REL_FILE}:FirstLegalAgent"))  # loaded once
    assert type(b) is not my_agents.FirstLegalAgent            # its own module, by path
    assert isinstance(make_agent("my_agents:Nested.Inner", seed=1), my_agents.Nested.Inner)
    made = make_agent("my_agents:make_first_legal", seed=3)    # a factory function
    assert isinstance(made, my_agents.FirstLegalAgent) and made.seed == 3 and made.eps == 0.0
    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    dotted = make_agent("fixtures.my_agents:FirstLegalAgent", eps=0.0)  # extra kwargs
    assert type(dotted).__name__ == "FirstLegalAgent" and dotted.eps == 0.0
    env = got_env.raw_env(num_players=3)
    assert make_agent("my_agents:EnvAgent", env=env).env is env


# -- checkpoints -------------------------------------------------------------------------------
def test_from_checkpoint_is_used_where_the_class_has_it(on_path, tmp_path):
    ckpt = write_json(tmp_path / "eps.json", {"eps": 0.5})
    agent = make_agent({"name": "my_agents:LoadedAgent", "checkpoint": str(ckpt),
                        "kwargs": {"scale": 0.5}}, seed=8)
    assert type(agent).__name__ == "LoadedAgent"
    assert (agent.eps, agent.seed, agent.source) == (0.25, 8, str(ckpt))


def test_else_the_checkpoint_goes_to_the_constructor(on_path, tmp_path):
    ckpt = write_json(tmp_path / "w.json", {})
    agent = make_agent({"name": "my_agents:CheckpointArgAgent", "checkpoint": str(ckpt)}, seed=1)
    assert agent.checkpoint == str(ckpt) and agent.seed == 1
    with pytest.raises(AgentSpecError, match="has no from_checkpoint classmethod and its "
                                             "constructor takes no 'checkpoint'"):
        make_agent({"name": "random", "checkpoint": str(ckpt)})


def test_a_checkpoint_alone_names_its_kind(on_path, tmp_path, monkeypatch):
    import my_agents

    monkeypatch.setitem(REGISTRY, "loaded", my_agents.LoadedAgent)   # a researcher's kind
    ckpt = write_json(tmp_path / "c.json", {"agent": "loaded", "eps": 0.75})
    spec = AgentSpec.parse({"checkpoint": str(ckpt)})
    assert spec.resolved().name == "loaded"
    agent = make_agent(spec, seed=2)
    assert type(agent).__name__ == "LoadedAgent" and agent.eps == 0.75


def test_a_torch_checkpoint_alone_names_its_kind(on_path, tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")
    import my_agents

    monkeypatch.setitem(REGISTRY, "loaded", my_agents.LoadedAgent)
    path = tmp_path / "policy.pt"
    torch.save({"agent": "loaded", "eps": torch.tensor(0.5),
                "weights": {"w": torch.zeros(3)}}, path)
    agent = make_agent({"checkpoint": str(path)}, seed=1)
    assert type(agent).__name__ == "LoadedAgent" and agent.eps == pytest.approx(0.5)
    bare = tmp_path / "bare.pt"
    torch.save({"w": torch.zeros(3)}, bare)
    with pytest.raises(AgentSpecError, match="the checkpoint names no agent kind"):
        make_agent({"checkpoint": str(bare)})


# -- errors ------------------------------------------------------------------------------------
BAD_SPECS = [
    ("alphago", r"^agent 'alphago': unknown agent name \(registry names: \[.*'heuristic'.*"
                r"'random'.*\]; or give 'module:Class'"),
    ("no_such_module_xyz:Agent", r"agent 'no_such_module_xyz:Agent': module "
                                 r"'no_such_module_xyz' not found"),
    ("no_such_pkg_xyz.sub:Agent", r"module 'no_such_pkg_xyz.sub' not found \(no module "
                                  r"'no_such_pkg_xyz'"),
    ("my_agents:Missing", r"agent 'my_agents:Missing': module 'my_agents' has no 'Missing'; "
                          r"agent classes there \(with an act method\): \[.*'FirstLegalAgent'"),
    ("my_agents:", "expected 'module:Class'"),
    ("tests/fixtures/no_such_file.py:Agent", r"file 'tests/fixtures/no_such_file.py' not found"),
    ("my_agents:NotAnAgent", r"agent 'my_agents:NotAnAgent': NotAnAgent has no act\(.*\) "
                             r"method: not an Agent"),
    ({"name": "my_agents:FirstLegalAgent", "kwargs": {"depth": 3}},
     r"agent 'my_agents:FirstLegalAgent': bad arguments \['depth'\] for FirstLegalAgent: got "
     r"an unexpected keyword argument 'depth'; it takes \['eps'\]"),
    ({"name": "my_agents:LoadedAgent", "checkpoint": "missing.pt"},
     r"agent 'my_agents:LoadedAgent' with checkpoint 'missing.pt': checkpoint file "
     r"'missing.pt' not found"),
    ({"checkpoint": "missing.pt"}, r"^agent from checkpoint 'missing.pt': checkpoint file "),
    ({"name": "random", "env": 1}, "'env' is given by the tournament or experiments.play"),
    ({"name": "random", "type": "random"}, "give 'name' or 'type'.*not both"),
    ({"seed": 1}, "no 'name'"),
    ({"name": "random", "kwargs": [1]}, "kwargs must be a mapping"),
    ({"name": "random", "seed": 1, "kwargs": {"seed": 2}}, r"\['seed'\] given both flat"),
    (42, "agent spec 42: a name"),
    ({"name": ""}, "the name must be a non-empty string"),
]


@pytest.mark.parametrize("raw, message", BAD_SPECS)
def test_bad_specs_fail_naming_themselves(on_path, raw, message):
    with pytest.raises(AgentSpecError, match=message):
        AgentSpec.parse(raw).check()
    with pytest.raises(AgentSpecError, match=message):
        make_agent(raw)


@pytest.mark.parametrize("raw, message", [
    ({"name": "my_agents:FirstLegalAgent", "eps": 2.0},
     r"agent 'my_agents:FirstLegalAgent': FirstLegalAgent\(\.\.\.\) raised ValueError: eps must"),
    ("my_agents:make_nothing", r"make_nothing returned 'object', which has no act"),
    ("ismcts", r"agent 'ismcts': ISMCTSAgent plays from the env of its game; build it with env="),
])
def test_errors_only_building_tells_name_the_spec_too(on_path, raw, message):
    AgentSpec.parse(raw).check()
    with pytest.raises(AgentSpecError, match=message) as e:
        make_agent(raw)
    assert isinstance(e.value, ValueError)


def test_an_import_error_inside_the_module_is_not_module_not_found(tmp_path, monkeypatch):
    (tmp_path / "needs_dep.py").write_text("import no_such_dependency_xyz\n\nclass A:\n"
                                           "    def act(self, o, m, i):\n        return 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(AgentSpecError, match=r"importing module 'needs_dep' failed: "
                                             r"ModuleNotFoundError: .*no_such_dependency_xyz"):
        make_agent("needs_dep:A")
    with pytest.raises(AgentSpecError, match=r"importing file .*needs_dep.py' failed"):
        make_agent(f"{tmp_path / 'needs_dep.py'}:A")


def test_an_unreadable_checkpoint_says_to_name_the_class(tmp_path):
    bad = tmp_path / "junk.pt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(AgentSpecError, match=r"cannot read the checkpoint .* name the class"):
        make_agent({"checkpoint": str(bad)})
    text = write_json(tmp_path / "c.json", {"eps": 1})
    with pytest.raises(AgentSpecError, match="names no agent kind"):
        AgentSpec.parse({"checkpoint": str(text)}).check()


# -- experiments.play --------------------------------------------------------------------------
def test_play_seats_agents_from_any_module(on_path):
    import my_agents

    env = got_env.raw_env(num_players=3, max_rounds=1)
    stark, lannister, baratheon = env.possible_agents
    seated = P.build_agents(env, {"default": f"{REL_FILE}:FirstLegalAgent",
                                  stark: {"name": "my_agents:EnvAgent", "kwargs": {"eps": 0.5}},
                                  lannister: "random"}, seed=10)
    assert isinstance(seated[stark], my_agents.EnvAgent) and seated[stark].env is env
    assert seated[stark].seed == 10 and seated[stark].eps == 0.5
    assert isinstance(seated[lannister], RandomAgent)
    assert type(seated[baratheon]).__name__ == "FirstLegalAgent" and seated[baratheon].seed == 12
    P.play_game(env, seated, seed=0)
    assert env.game.outcome is not None
    with pytest.raises(ValueError, match=f"agents.{stark}: agent 'nope': unknown agent name"):
        P.build_agents(env, {stark: "nope"}, seed=0)
    with pytest.raises(ValueError, match="agents.default: agent 'my_agents:NotAnAgent'"):
        P.build_agents(env, {"default": "my_agents:NotAnAgent"}, seed=0)


def test_play_main_runs_a_config_with_an_own_agent(on_path, tmp_path, capsys):
    cfg = tmp_path / "play.yaml"
    cfg.write_text(yaml.safe_dump({
        "game": "got", "env": {"num_players": 3, "max_rounds": 1}, "seed": 1,
        "agents": {"default": "random", "stark": {"name": "my_agents:FirstLegalAgent",
                                                  "kwargs": {"eps": 0.1}}}}))
    assert P.main(["--config", str(cfg), "--out", str(tmp_path / "out"), "--no-picture"]) == 0
    out = capsys.readouterr().out
    assert "(FirstLegalAgent)" in out and "(RandomAgent)" in out
    assert (tmp_path / "out" / "game-1.json").exists()
    cfg.write_text(yaml.safe_dump({"game": "got", "env": {"num_players": 3},
                                   "agents": {"stark": "nope:X"}}))
    with pytest.raises(SystemExit) as e:
        P.main(["--config", str(cfg), "--out", str(tmp_path / "out")])
    assert e.value.code == 2
    assert "agents.stark: agent 'nope:X': module 'nope' not found" in capsys.readouterr().err


# -- tournaments -------------------------------------------------------------------------------
def own_config(tmp_path: Path, ckpt: Path, workers: int, name: str = "own") -> Path:
    """A tiny tournament entering agents from outside agents/: by module, by file path, and
    from a checkpoint, next to a registry agent; written as YAML, as a researcher would."""
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(yaml.safe_dump({
        "game": "got", "name": name, "out": str(tmp_path / "runs"),
        "env": {"num_players": 3, "max_rounds": 1},
        "agents": {"mine": "my_agents:FirstLegalAgent",
                   "byfile": {"name": f"{REL_FILE}:FirstLegalAgent", "kwargs": {"eps": 0.5}},
                   "loaded": {"name": "my_agents:LoadedAgent", "checkpoint": str(ckpt)},
                   "random": {"type": "random"}},
        "lineups": [["mine", "byfile", "loaded"], ["mine", "random", "random"]],
        "games": 3, "seed": 4, "workers": workers}))
    return cfg


def strip(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Game records without their timing, in plan order."""
    recs = [{k: v for k, v in r.items() if k != "seconds"} for r in records]
    return sorted(recs, key=lambda r: (r["game"], r["lineup_index"]))


def read_games(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "games.jsonl").read_text().splitlines()]


def test_a_tournament_enters_agents_from_outside_agents(on_path, tmp_path):
    """In process, then with 2 spawned workers (which import my_agents and load the file and
    the checkpoint themselves): the same games either way."""
    ckpt = write_json(tmp_path / "loaded.json", {"eps": 0.3})
    one = load_config(own_config(tmp_path, ckpt, workers=1, name="one"))
    assert one.agents["random"] == {"type": "random"}            # as written, for config.json
    assert one.specs["byfile"] == AgentSpec(f"{REL_FILE}:FirstLegalAgent", {"eps": 0.5})
    assert pickle.loads(pickle.dumps(one.specs)) == one.specs
    report = run_tournament(one, progress=False, log=quiet)
    assert (report.planned, report.played) == (6, 6)
    assert set(report.results["agents"]) == {"mine", "byfile", "loaded", "random"}
    assert sum(a["wins"] for a in report.results["agents"].values()) == 6
    assert report.results["agent_specs"]["mine"] == "my_agents:FirstLegalAgent"
    saved = json.loads((report.run_dir / "config.json").read_text())
    assert set(saved["checkpoints"]) == {"loaded"} and len(saved["checkpoints"]["loaded"]) == 64

    two = load_config(own_config(tmp_path, ckpt, workers=2, name="two"))
    report2 = run_tournament(two, progress=False, log=quiet)
    assert report2.played == 6
    assert strip(read_games(report2.run_dir)) == strip(read_games(report.run_dir))


def test_a_bad_spec_in_a_tournament_names_the_agent(on_path, tmp_path):
    raw = {"game": "got", "env": {"num_players": 3, "max_rounds": 1},
           "agents": {"a": "random", "x": "my_agents:Missing"}, "lineups": [["a", "a", "x"]]}
    with pytest.raises(ConfigError, match=r"agents\.x: agent 'my_agents:Missing': module "
                                            r"'my_agents' has no 'Missing'"):
        parse_config(raw)
    raw["agents"]["x"] = {"checkpoint": str(tmp_path / "gone.pt")}
    with pytest.raises(ConfigError, match=r"agents\.x: agent from checkpoint .*gone.pt' "
                                            r"not found"):
        parse_config(raw)
    raw["agents"]["x"] = None
    with pytest.raises(ConfigError, match=r"agents\.x: no spec"):
        parse_config(raw)


def test_a_changed_checkpoint_is_another_tournament(on_path, tmp_path, monkeypatch):
    import my_agents

    monkeypatch.setitem(REGISTRY, "loaded", my_agents.LoadedAgent)
    ckpt = write_json(tmp_path / "c.json", {"agent": "loaded", "eps": 0.2})
    raw = {"game": "got", "name": "ck", "out": str(tmp_path),
           "env": {"num_players": 3, "max_rounds": 1},
           "agents": {"a": "random", "c": {"checkpoint": str(ckpt)}},
           "lineups": [["a", "a", "c"]], "games": 1, "workers": 1}
    cfg = parse_config(raw)
    assert cfg.specs["c"].name == "loaded"        # resolved once, up front
    assert run_tournament(cfg, progress=False, log=quiet).played == 1
    assert run_tournament(parse_config(raw), progress=False, log=quiet).played == 0
    write_json(ckpt, {"agent": "loaded", "eps": 0.9})   # trained further
    with pytest.raises(ConfigError, match="another tournament.*checkpoints"):
        run_tournament(parse_config(raw), progress=False, log=quiet)


def test_respelling_a_spec_keeps_the_run_folder(tmp_path):
    raw = {"game": "got", "name": "re", "out": str(tmp_path),
           "env": {"num_players": 3, "max_rounds": 1},
           "agents": {"a": {"type": "random"}, "b": {"type": "random", "seed": 3}},
           "lineups": [["a", "b", "b"]], "games": 2, "workers": 1}
    assert run_tournament(parse_config(raw), progress=False, log=quiet).played == 2
    raw["agents"] = {"a": "random", "b": {"name": "random", "kwargs": {"seed": 3}}}
    assert run_tournament(parse_config(raw), progress=False, log=quiet).played == 0
    raw["agents"]["b"] = {"name": "random", "kwargs": {"seed": 4}}
    with pytest.raises(ConfigError, match="another tournament.*agents"):
        run_tournament(parse_config(raw), progress=False, log=quiet)
