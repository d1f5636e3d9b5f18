"""The one registry of games (:mod:`boardkit.games`) takes only games: a
:class:`boardkit.plugin.GamePlugin` whose game has every protocol member, under a name not
taken (unless replaced on purpose); and a registered game is at once a case of this suite."""

from __future__ import annotations

import dataclasses

import pytest

from boardkit import games
from boardkit.aec import kit_env_factory
from boardkit.envs import make_env
from boardkit.plugin import GAME_MEMBERS, GamePlugin, PluginError
from goofspiel.game import Goofspiel
from goofspiel.plugin import check_invariants

from .conftest import cases


class Renamed(Goofspiel):
    name = "goofspiel_stand_in"


def plugin_of(game, **changes) -> GamePlugin:
    fields = {"game": game, "make_env": kit_env_factory(game),
              "check_invariants": check_invariants, "variants": {"2p": {"num_cards": 4}}}
    return GamePlugin(**{**fields, **changes})


@pytest.fixture
def stand_in():
    plugin = plugin_of(Renamed())
    games.register(plugin)
    yield plugin
    games.unregister(plugin.name)


def test_the_shipped_games_are_registered():
    assert {"got", "goofspiel", "wotr"} <= set(games.names())
    assert {(p.name, v) for p in games.plugins() for v in p.variants} >= {
        ("goofspiel", "2p"), ("got", "2e-3p"), ("got", "1e-5p"), ("wotr", "2e"), ("wotr", "1e")}


def test_a_registered_game_is_found_and_gets_the_suite(stand_in):
    assert games.plugin("goofspiel_stand_in") is stand_in
    assert games.get("goofspiel_stand_in") is stand_in.game
    assert ("goofspiel_stand_in", "2p") in cases()
    assert make_env("goofspiel_stand_in", num_cards=3).game_name == "goofspiel_stand_in"


@pytest.mark.parametrize("member", GAME_MEMBERS[1:])
def test_a_game_missing_a_protocol_member_is_refused(member):
    game = Renamed()

    class Missing:
        """Goofspiel without ``member``."""

        def __getattr__(self, attr):
            if attr == member:
                raise AttributeError(attr)
            return getattr(game, attr)

    with pytest.raises(PluginError, match=f"lacks the protocol member.*{member}"):
        plugin_of(Missing())


def test_what_is_not_a_plugin_or_not_a_game_is_refused():
    with pytest.raises(PluginError, match="GamePlugin"):
        games.register(Renamed())  # the bare game: not a plugin
    with pytest.raises(PluginError, match="is not a game"):
        plugin_of(object())
    with pytest.raises(PluginError, match="variants"):
        plugin_of(Renamed(), variants={})
    with pytest.raises(PluginError, match="make_env must be callable"):
        plugin_of(Renamed(), make_env="goofspiel.env:raw_env")
    with pytest.raises(PluginError, match="network must be a loader"):
        plugin_of(Renamed(), network="got_env.agents.networks")
    with pytest.raises(PluginError, match="agents must map"):
        plugin_of(Renamed(), agents={"x": "not callable"})


def test_a_taken_name_is_refused_unless_replaced_on_purpose(stand_in):
    other = plugin_of(Renamed())
    with pytest.raises(ValueError, match="already registered.*replace=True"):
        games.register(other)
    assert games.plugin("goofspiel_stand_in") is stand_in
    games.register(stand_in)  # the same plugin again: nothing changes
    games.register(other, replace=True)
    assert games.plugin("goofspiel_stand_in") is other
    shipped = games.plugin("goofspiel")
    with pytest.raises(ValueError, match="already registered"):
        games.register(dataclasses.replace(shipped))
    assert games.plugin("goofspiel") is shipped


def test_an_unknown_game_names_the_known_ones():
    with pytest.raises(KeyError, match="unknown game 'chess'.*goofspiel, got"):
        games.plugin("chess")


def test_a_plugin_is_frozen():
    plugin = games.plugin("goofspiel")
    with pytest.raises(dataclasses.FrozenInstanceError):
        plugin.make_env = None  # type: ignore[misc]
    with pytest.raises(TypeError):
        plugin.variants["new"] = {}  # type: ignore[index]
