"""The board picture (render_mode="rgb_array"): layout data, array shape, and what it shows.

The hidden-order tests are the ones that matter most: a picture rendered for one house must not
let an agent tell apart two different secret orders of another house (R6: orders are placed face
down until the reveal).
"""

from __future__ import annotations

import gc
import math

import numpy as np
import pytest
from matplotlib.figure import Figure

from got_env.data import DataError
from got_env.engine import start_game
from got_env.render.board import area_parts, board_parts, fixed_part
from got_env.render.canvas import PANEL, part_of_pieces, piece
from got_env.render.layout import (
    BADGE_SIZE,
    _overlap,
    area_pixel,
    badge_anchors,
    check_layout,
    load_layout,
    node_half_size,
)
from got_env.render.picture import board_svg, render_board, save_board_png
from got_env.render.side_panel import draw_panel_number
from got_env.render.style import BOARD_SHAPE, LAND_BORDER, MAP_FRACTION, SEA_BORDER
from got_env.render.svg import SvgParts
from got_env.render.vocabulary import observer_index

WINDOW = 70  # pixels around a node centre that its tokens may touch


@pytest.fixture(scope="module")
def six():
    return start_game(6, seed=0)


def token(state, token_id: str) -> int:
    return [t.id for t in state.ruleset.order_tokens].index(token_id)


def changed_box(a: np.ndarray, b: np.ndarray) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) of the pixels that differ; fails if none differ."""
    rows, cols = np.nonzero((a != b).any(axis=2))
    assert rows.size, "the pictures are identical"
    return int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max())


def assert_change_near(a: np.ndarray, b: np.ndarray, state, *area_ids: str) -> None:
    """The maps differ, and only within WINDOW pixels of the given areas' nodes (the side panel
    may change too: castles held, Power Pool)."""
    map_width = int(BOARD_SHAPE[1] * MAP_FRACTION)
    top, bottom, left, right = changed_box(a[:, :map_width], b[:, :map_width])
    centres = [area_pixel(state.ruleset, i) for i in area_ids]
    assert top >= min(r for r, _ in centres) - WINDOW
    assert bottom <= max(r for r, _ in centres) + WINDOW
    assert left >= min(c for _, c in centres) - WINDOW
    assert right <= max(c for _, c in centres) + WINDOW


# -- layout ------------------------------------------------------------------------------------
def test_layout_covers_exactly_the_board_areas(rs):
    assert set(load_layout(rs)) == {a.id for a in rs.areas}
    assert len(load_layout(rs)) == 58


def test_layout_check_names_a_missing_area(rs):
    positions = load_layout(rs)
    del positions["winterfell"]
    with pytest.raises(DataError, match="'winterfell' has no position"):
        check_layout(positions, rs)


def test_layout_check_names_an_unknown_id(rs):
    positions = load_layout(rs)
    positions["winterfel"] = (1.0, 2.0)
    with pytest.raises(DataError, match="unknown area id 'winterfel'"):
        check_layout(positions, rs)
    with pytest.raises(DataError, match="unknown area id 'kings-landin'"):
        check_layout(load_layout(rs), rs, labels={"kings-landin": "KL"})


def test_layout_is_oriented_like_the_map_of_westeros(rs):
    """North at the top, the Iron Islands west, Dragonstone east, Dorne at the bottom right."""
    p = load_layout(rs)
    y = {k: v[1] for k, v in p.items()}
    x = {k: v[0] for k, v in p.items()}
    assert y["castle-black"] > y["winterfell"] > y["moat-cailin"] > y["riverrun"]
    assert y["riverrun"] > y["kings-landing"] > y["highgarden"] > y["sunspear"]
    assert x["pyke"] < x["riverrun"] < x["dragonstone"]
    assert x["sunset-sea"] < x["lannisport"] and x["the-narrow-sea"] > x["the-twins"]
    assert y["sunspear"] < 20 and x["sunspear"] > 70
    assert y["bay-of-ice"] > 120 and x["bay-of-ice"] < 20


def test_layout_puts_neighbours_close(rs):
    """Land borders are short, every area's nearest neighbour is near, ports lie between."""
    p = load_layout(rs)
    kind = {a.id: a.kind for a in rs.areas}
    for a, b in rs.borders:
        if kind[a] == kind[b] == "land":
            assert math.dist(p[a], p[b]) < 35, (a, b)
    for a in rs.areas:
        assert min(math.dist(p[a.id], p[n]) for n in rs.neighbours(a.id)) < 20, a.id
        if a.kind == "port":
            via_port = math.dist(p[a.port_land], p[a.id]) + math.dist(p[a.id], p[a.port_sea])
            assert via_port <= 1.2 * math.dist(p[a.port_land], p[a.port_sea]), a.id


# -- the array ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [6, 3])
def test_render_board_is_an_rgb_uint8_array(players):
    state = start_game(players, seed=0)
    picture = render_board(state)
    assert picture.shape == BOARD_SHAPE
    assert picture.dtype == np.uint8
    assert picture.ndim == 3 and picture.shape[2] == 3
    assert picture.std() > 10  # not a blank canvas


def test_render_board_is_deterministic_and_leaves_the_state_alone(six):
    before = six.clone()
    assert np.array_equal(render_board(six), render_board(six))
    assert six == before


def test_player_counts_look_different():
    """3 players: the south is impassable, so the picture differs from the 4-player one there."""
    three, four = start_game(3, seed=0), start_game(4, seed=0)
    assert not np.array_equal(render_board(three), render_board(four))


def test_moving_a_unit_changes_the_picture_only_there(six):
    rs = six.ruleset
    moved = six.clone()
    stark, footman = rs.house("stark"), 0
    white_harbor, widows_watch = rs.area("white-harbor"), rs.area("widows-watch")
    assert moved.units[white_harbor, stark, footman] == 1
    moved.units[white_harbor, stark, footman] = 0
    moved.units[widows_watch, stark, footman] = 1
    assert_change_near(render_board(six), render_board(moved), six,
                       "white-harbor", "widows-watch")


def test_routed_units_are_drawn_differently(six):
    routed = six.clone()
    routed.routed[six.ruleset.area("kingswood"), six.ruleset.house("baratheon"), 0] = 1
    assert_change_near(render_board(six), render_board(routed), six, "kingswood")


def test_power_token_and_wildling_threat_change_the_picture(six):
    rs = six.ruleset
    token_state = six.clone()
    token_state.power_tokens[rs.area("harrenhal")] = rs.house("lannister")
    assert_change_near(render_board(six), render_board(token_state), six, "harrenhal")
    threat = six.clone()
    threat.wildling_threat = 8
    _, _, left, _ = changed_box(render_board(six), render_board(threat))
    assert left >= BOARD_SHAPE[1] * MAP_FRACTION  # only the side panel changes


# -- orders and what each house may see ---------------------------------------------------------
def with_order(state, area_id: str, token_id: str, revealed: bool = False):
    s = state.clone()
    s.orders[s.ruleset.area(area_id)] = token(s, token_id)
    s.orders_revealed = revealed
    return s


def test_hidden_enemy_orders_are_indistinguishable(six):
    """Stark sees a "?" on Dragonstone, whatever Baratheon chose; Baratheon sees its own order."""
    march = with_order(six, "dragonstone", "march-special")
    defend = with_order(six, "dragonstone", "defense-1a")
    stark_sees_march = render_board(march, observer="stark")
    assert np.array_equal(stark_sees_march, render_board(defend, observer="stark"))
    # ... but the marker is there: the picture differs from the order-less one, at Dragonstone.
    assert_change_near(render_board(six, observer="stark"), stark_sees_march, six, "dragonstone")
    # The owner (and the omniscient view) tell the two orders apart.
    for observer in ("baratheon", None):
        assert not np.array_equal(render_board(march, observer=observer),
                                  render_board(defend, observer=observer))


def test_observer_by_index_or_id_is_the_same(six):
    march = with_order(six, "dragonstone", "march-special")
    stark = six.ruleset.house("stark")
    assert np.array_equal(render_board(march, observer=stark),
                          render_board(march, observer="stark"))


def test_revealed_orders_are_shown_to_everyone(six):
    march = with_order(six, "dragonstone", "march-special", revealed=True)
    defend = with_order(six, "dragonstone", "defense-1a", revealed=True)
    assert not np.array_equal(render_board(march, observer="stark"),
                              render_board(defend, observer="stark"))


def test_orders_placed_through_the_engine_stay_hidden():
    """A real Planning phase: the first order Baratheon places is a "?" for Lannister."""
    from got_env.engine import apply, pending

    state = start_game(6, seed=0)
    decision = pending(state)
    player = state.ruleset.houses[decision.player].id
    observer = "lannister" if player != "lannister" else "stark"
    area = decision.options[0][1]
    pictures = []
    for action in decision.options:
        if action[1] != area:
            continue
        s = state.clone()
        apply(s, action)
        assert not s.orders_revealed and s.orders[area] >= 0
        pictures.append(render_board(s, observer=observer))
    assert len(pictures) > 1
    assert all(np.array_equal(pictures[0], p) for p in pictures[1:])


# -- files and memory -------------------------------------------------------------------------
def test_save_board_png_writes_a_png(six, tmp_path):
    from matplotlib.image import imread

    path = save_board_png(six, tmp_path / "board.png", observer="stark")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert imread(path).shape[:2] == BOARD_SHAPE[:2]


def test_rendering_keeps_no_figures_alive(six):
    """Per-step rendering must not accumulate matplotlib figures (memory leak)."""
    render_board(six)
    gc.collect()
    before = sum(isinstance(o, Figure) for o in gc.get_objects())
    for _ in range(3):
        render_board(six)
    gc.collect()
    assert sum(isinstance(o, Figure) for o in gc.get_objects()) <= before
    import matplotlib.pyplot as plt

    assert plt.get_fignums() == []


# -- the end of the game, badges, borders -------------------------------------------------------
def test_the_picture_names_the_winner_and_the_ending(six):
    from got_env.engine.state import Outcome, Phase

    over = six.clone()
    over.phase = Phase.ENDED
    over.outcome = Outcome("seven-castles", six.ruleset.house("tyrell"), tuple(range(6)))
    svg = board_svg(over)
    assert "Winner: Tyrell (seven castles held)" in svg and "game over" in svg
    assert "Winner:" not in board_svg(six)
    last_round = over.clone()
    last_round.outcome = Outcome("last-round", six.ruleset.house("stark"), tuple(range(6)))
    assert "Winner: Stark (after the last round)" in board_svg(last_round)
    _, _, left, _ = changed_box(render_board(six), render_board(over))
    assert left >= BOARD_SHAPE[1] * MAP_FRACTION  # said in the side panel


def test_badges_touch_no_other_node_and_no_other_badge(rs):
    """Every area's order badge and every land area's power-token and defender badges, all at
    once (as crowded as a board can be): no box overlaps another node or another badge."""
    anchors = badge_anchors(rs)
    pos = load_layout(rs)
    kind = {a.id: a.kind for a in rs.areas}
    boxes = {}
    for (area_id, badge), (x, y) in anchors.items():
        if badge != "order" and kind[area_id] != "land":
            continue
        w, h = BADGE_SIZE[badge]
        boxes[(area_id, badge)] = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    nodes = {}
    for a in rs.areas:
        (x, y), (hw, hh) = pos[a.id], node_half_size(a)
        nodes[a.id] = (x - hw, y - hh, x + hw, y + hh)
    keys = sorted(boxes)
    for i, k in enumerate(keys):
        for other in keys[i + 1:]:
            assert _overlap(boxes[k], boxes[other]) == 0, (k, other)
        for area_id, box in nodes.items():
            if area_id != k[0]:
                assert _overlap(boxes[k], box) == 0, (k, area_id)
    # Blackwater Bay and the ports, where they were seen overlapping, keep their classic corner
    # only where it is free; the anchors never depend on the state.
    assert badge_anchors(rs) == anchors


def test_sea_borders_are_lighter_than_land_borders():
    def lightness(colour: str) -> float:
        return sum(int(colour[i:i + 2], 16) for i in (1, 3, 5))

    assert lightness(SEA_BORDER) > lightness(LAND_BORDER)


# -- SVG ---------------------------------------------------------------------------------------
def test_board_svg_is_one_document_with_text_as_text(six):
    import xml.etree.ElementTree as ET

    svg = board_svg(six)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "Winterfell" in svg and "Influence tracks" in svg and "Legend" in svg
    assert "http://" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
        'xmlns:xlink="http://www.w3.org/1999/xlink"', "")


def test_board_svg_hides_enemy_orders_like_the_png(six):
    march = with_order(six, "dragonstone", "march-special")
    defend = with_order(six, "dragonstone", "defense-1a")
    assert board_svg(march, observer="stark") == board_svg(defend, observer="stark")
    assert 'id="order-dragonstone"' in board_svg(march, observer="stark")
    assert board_svg(march, observer="baratheon") != board_svg(defend, observer="baratheon")
    assert board_svg(march) != board_svg(defend)


def test_svg_parts_are_drawn_once_and_reused(six):
    drawer = SvgParts()
    first = board_svg(six, drawer=drawer)
    drawn = len(drawer.cache)
    moved = six.clone()
    moved.wildling_threat = 6
    second = board_svg(moved, drawer=drawer)
    assert len(drawer.cache) == drawn + 1  # only the side panel is new
    assert first != second
    assert board_svg(six, drawer=drawer) == first == board_svg(six)


# -- SVG put together from pieces ----------------------------------------------------------------
def boards_with_every_piece(six) -> list:
    """Boards between them showing every kind of piece: orders (hidden from Stark and not),
    power tokens, routed units, garrisons, neutral forces and impassable areas (3 players),
    the wildling threat bar, and the winner's line of a finished game."""
    from got_env.engine.state import Outcome, Phase

    rs = six.ruleset
    busy = with_order(with_order(six, "dragonstone", "march-special"), "winterfell",
                      "defense-1a")
    busy.power_tokens[rs.area("harrenhal")] = rs.house("lannister")
    busy.routed[rs.area("kingswood"), rs.house("baratheon"), 0] = 1
    busy.wildling_threat = 8
    over = busy.clone()
    over.phase = Phase.ENDED
    over.outcome = Outcome("seven-castles", rs.house("tyrell"), tuple(range(6)))
    return [six, busy, with_order(busy, "dragonstone", "march-special", revealed=True), over,
            start_game(3, seed=0)]


def test_svg_from_pieces_is_the_svg_drawn_whole(six):
    """The replay's pages hold what drawing each part whole gives, byte for byte: every part of
    every board, for the full view and for Stark's, and the documents."""
    pieced, whole = SvgParts(), SvgParts(pieces=False)
    for state in boards_with_every_piece(six):
        for observer in (None, "stark"):
            seen = observer_index(state, observer)
            for part in [*board_parts(state, seen), fixed_part(state)]:
                assert pieced(part) == whole(part), part.key
            assert board_svg(state, observer, drawer=pieced) == board_svg(state, observer,
                                                                          drawer=whole)
    assert all(p is not None for p in pieced.pieces.values())  # every piece could be cut
    assert {key[0].__name__ for key in pieced.pieces} == {
        "draw_panel_background", "draw_round_line", "draw_phase_line", "draw_winner_line",
        "draw_seen_by", "draw_threat", "house_chip", "draw_panel_number", "draw_unit_chip",
        "draw_order_token", "draw_power_token", "draw_defenders"}


def test_a_changed_number_draws_one_new_piece(six):
    """Where one number of the side panel changes, only that piece is drawn (the rest of the
    panel is put together from pieces drawn before): what makes a 6-player replay fast."""
    drawer = SvgParts()
    board_svg(six, drawer=drawer)
    pieces = len(drawer.pieces)
    moved = six.clone()
    moved.wildling_threat = 6
    board_svg(moved, drawer=drawer)
    assert len(drawer.pieces) == pieces + 1


def test_a_piece_that_cannot_be_cut_has_its_part_drawn_whole():
    """An artist that writes no element (empty text) cannot be told apart in the document: its
    piece is marked, its part drawn whole (the same picture), the other piece kept."""
    def empty_text(ax) -> None:
        ax.text(0.5, 0.5, "")

    def pieces():
        return [piece(PANEL, draw_panel_number, 0.4, 0.5, 3), piece(PANEL, empty_text)]

    part = part_of_pieces(("test", "cannot be cut"), pieces)
    drawer = SvgParts()
    assert drawer(part) == SvgParts(pieces=False)(part)
    number, empty = (p.key for p in pieces())
    assert drawer.pieces[empty] is None and drawer.pieces[number]


def test_board_parts_are_the_parts_of_each_area(six):
    """The whole-board path (the state read once) and one area at a time (the replay's house
    views) make the same parts."""
    for state in boards_with_every_piece(six):
        for observer in (None, 0):
            parts = [p.key for p in board_parts(state, observer)]
            for area in state.ruleset.areas:
                node, tokens = area_parts(state, area, observer)
                assert parts[1 + area.index] == node.key
                assert parts[1 + len(state.ruleset.areas) + area.index] == tokens.key


def test_load_layout_gives_a_copy(rs):
    load_layout(rs).clear()
    assert len(load_layout(rs)) == 58


def test_svg_bodies_cut_and_put_back_together():
    from got_env.render.svg_pieces import defs_in_order, join_axes, split_axes

    axes = [["<g>\n<path d=\"M 0 0\"/>\n</g>", '<g id="order-x">\n<g>\n<path/>\n</g>\n'
             '<text>M0</text>\n</g>'], []]
    body = join_axes(axes)
    assert body.endswith("\n</g>\n<g/>")
    assert split_axes(body) == axes
    assert split_axes("<g>\n<path/>\n</g>\n<g/>") is None  # an element outside any artist group
    assert split_axes("<g>\n<g>\n</g>") is None  # unbalanced
    defs = {"h1": '<pattern id="h1"/>', "p1": '<clipPath id="p1"/>', "p2": '<clipPath id="p2"/>'}
    used = ['<g style="fill: url(#h1)" clip-path="url(#p2)"/>', '<g clip-path="url(#p1)"/>',
            '<g clip-path="url(#p2)"/>']
    assert defs_in_order(used, defs) == (defs["p2"], defs["p1"], defs["h1"])  # clips first
    assert defs_in_order(['<g clip-path="url(#p9)"/>'], defs) is None
