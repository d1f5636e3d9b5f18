"""The picture of a position (``wotr_env.render``, issue 28 item 1) and its region layout.

What is checked: the array's shape and type, that the same position gives the same bytes, that
moving a figure changes the picture where the figure went, that the layout file names every
region once with a usable position (a DataError naming the bad entry otherwise) and lies like
the map (neighbours near, no node on another's border), and that the picture never shows what
its observer may not know: the other side's hand (spec §4, WD-15) or the Hunt Pool's order.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardkit.datafiles import read_yaml
from wotr_env.data import DATA_ROOT, DataError, load_ruleset
from wotr_env.engine import build, new_state
from wotr_env.render import board_layout, check_layout, picture, read_layout
from wotr_env.render.layout import LAYOUT_FILE
from wotr_env.render.picture import region_pixel

BOARD = load_ruleset("2e").board
CARDS = load_ruleset("2e").cards
IDS = tuple(r.id for r in BOARD.regions)
NAMES = tuple(r.name for r in BOARD.regions)


def _doc() -> dict:
    return read_yaml(DATA_ROOT / "2e", LAYOUT_FILE)


# -- the array --------------------------------------------------------------------------------
def test_picture_is_an_rgb_uint8_array_of_the_asked_size() -> None:
    state = new_state(0)
    image = picture(state)
    assert image.shape == (1000, 1600, 3) and image.dtype == np.uint8
    small = picture(state, size=(800, 500))
    assert small.shape == (500, 800, 3) and small.dtype == np.uint8
    assert image.std() > 10  # not a blank page


def test_the_same_position_gives_the_same_bytes() -> None:
    state = new_state(3)
    first = picture(state, observer=0)
    assert picture(state, observer=0).tobytes() == first.tobytes()
    assert picture(state.clone(), observer=0).tobytes() == first.tobytes()


def test_moving_a_unit_changes_the_picture_where_it_went() -> None:
    state = new_state(0)
    moved = state.clone()
    src, dst = BOARD.region("minas-tirith"), BOARD.region("osgiliath")
    gondor = list(np.flatnonzero(moved.army[src].sum(axis=1)))[0]
    moved.army[src, gondor, 0] -= 1
    moved.army[dst, gondor, 0] += 1
    before, after = picture(state), picture(moved)
    assert before.tobytes() != after.tobytes()
    rows, cols = np.nonzero((before != after).any(axis=2))
    row, col = region_pixel(BOARD, dst)
    near = (np.abs(rows - row) < 60) & (np.abs(cols - col) < 60)
    assert near.any(), "the new chip at Osgiliath is drawn by its node"
    far = (np.abs(rows - row) > 120) | (np.abs(cols - col) > 120)
    assert not far.any(), "nothing away from Minas Tirith and Osgiliath changed"


def _map_changes(before: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows, columns) of the map pixels (the panel aside) that differ."""
    rows, cols = np.nonzero((before != after).any(axis=2))
    on_map = cols < int(0.745 * 1600)
    return rows[on_map], cols[on_map]


def _near(rows: np.ndarray, cols: np.ndarray, region: str, reach: int = 180) -> np.ndarray:
    row, col = region_pixel(BOARD, BOARD.region(region))
    return (np.abs(rows - row) < reach) & (np.abs(cols - col) < reach)


def _changed_near(before: np.ndarray, after: np.ndarray, region: str) -> bool:
    """Whether the map changed, and only within 180 pixels of ``region``'s node."""
    rows, cols = _map_changes(before, after)
    return len(rows) > 0 and bool(_near(rows, cols, region).all())


def test_the_fellowship_characters_and_captures_show_by_their_region() -> None:
    """The Fellowship's last known region, Progress and reveal (spec §9: public), a character
    and a captured settlement each change the map by their region."""
    state = build({"fellowship": {"region": "bree", "progress": 2}})
    base = picture(state)
    moved = state.clone()
    moved.fellowship_region = BOARD.region("minas-tirith")
    rows, cols = _map_changes(base, picture(moved))
    at_bree, at_minas_tirith = _near(rows, cols, "bree"), _near(rows, cols, "minas-tirith")
    assert at_bree.any() and at_minas_tirith.any() and (at_bree | at_minas_tirith).all()
    for change in ("revealed", "progress"):
        other = state.clone()
        setattr(other, change, True if change == "revealed" else 3)
        after = picture(other)
        assert _changed_near(base, after, "bree"), change
        assert not np.array_equal(base[:, 1200:], after[:, 1200:]), "the panel says it too"
    other = state.clone()
    other.char_at[CARDS.character("saruman")] = BOARD.region("orthanc")
    assert _changed_near(base, picture(other), "orthanc")
    other = state.clone()
    other.control[BOARD.region("edoras")] = 1  # the Shadow holds Edoras
    assert _changed_near(base, picture(other), "edoras")


def test_the_1e_ruleset_draws_on_the_2e_map() -> None:
    image = picture(new_state(1, ruleset="1e"))
    assert image.shape == (1000, 1600, 3)


def test_a_bad_observer_or_size_is_refused() -> None:
    state = new_state(0)
    with pytest.raises(ValueError, match="observer"):
        picture(state, observer=2)
    with pytest.raises(ValueError, match="too small"):
        picture(state, size=(100, 80))


# -- hidden information -----------------------------------------------------------------------
def _other_shadow_hand(state):
    """``state`` with the Shadow's hand swapped for other cards of the same decks (sizes per
    deck kept; the cards taken out go back into the decks)."""
    other = state.clone()
    deck_of = other.ruleset.cards.event_deck
    new_hand = []
    for card in other.hands[1]:
        deck = other.decks[int(deck_of[card])]
        new_hand.append(deck.pop(0))  # the bottom card of the same deck
        deck.insert(0, card)
    other.hands[1] = new_hand
    assert sorted(new_hand) != sorted(state.hands[1])
    return other


@pytest.mark.parametrize("seed", [0, 5])
def test_the_shadow_hand_is_hidden_from_the_free_peoples_and_the_public(seed: int) -> None:
    """spec §4: a hand is secret; only its size per deck shows (WD-15)."""
    state = new_state(seed)
    other = _other_shadow_hand(state)
    for observer in (0, None):
        assert picture(state, observer).tobytes() == picture(other, observer).tobytes()
    # the Shadow sees its own hand by name: the test could fail
    assert picture(state, 1).tobytes() != picture(other, 1).tobytes()


def test_the_hunt_pool_order_is_not_shown() -> None:
    """facts §7: the Hunt Pool's contents are public, its order is not."""
    state = new_state(2)
    shuffled = state.clone()
    shuffled.hunt_pool = list(reversed(shuffled.hunt_pool))
    assert picture(state).tobytes() == picture(shuffled).tobytes()
    fewer = state.clone()
    fewer.hunt_pool = fewer.hunt_pool[1:]
    assert picture(state).tobytes() != picture(fewer).tobytes()


# -- the layout file --------------------------------------------------------------------------
def test_the_layout_places_every_region_once() -> None:
    layout = read_layout(IDS, NAMES)
    assert layout.xy.shape == (105, 2) and np.isfinite(layout.xy).all()
    assert len({tuple(p) for p in layout.xy.tolist()}) == 105
    assert len(_doc()["regions"]) == 105


def test_a_missing_region_is_a_data_error_naming_it() -> None:
    doc = _doc()
    doc["regions"] = [e for e in doc["regions"] if e["id"] != "minas-tirith"]
    with pytest.raises(DataError, match="'minas-tirith' has no position"):
        check_layout(doc, IDS, NAMES)


@pytest.mark.parametrize("bad", ["far", None, True, -5, 5000, float("nan")])
def test_a_bad_coordinate_is_a_data_error_naming_the_region(bad: object) -> None:
    doc = _doc()
    entry = next(e for e in doc["regions"] if e["id"] == "moria")
    entry["y"] = bad
    with pytest.raises(DataError, match="region 'moria': x and y must be numbers"):
        check_layout(doc, IDS, NAMES)


def test_a_duplicate_or_unknown_id_is_a_data_error_naming_it() -> None:
    doc = _doc()
    doc["regions"].append({"id": "bree", "x": 1, "y": 1})
    with pytest.raises(DataError, match="'bree' is listed twice"):
        check_layout(doc, IDS, NAMES)
    doc = _doc()
    doc["regions"][3]["id"] = "mordor"
    with pytest.raises(DataError, match="unknown region id 'mordor'"):
        check_layout(doc, IDS, NAMES)


def test_a_bad_layout_file_is_a_data_error(tmp_path) -> None:
    text = (DATA_ROOT / "2e" / LAYOUT_FILE).read_text(encoding="utf-8")
    (tmp_path / LAYOUT_FILE).write_text(text.replace("{id: bree, x: ", "{id: bree, x: q"),
                                        encoding="utf-8")
    with pytest.raises(DataError, match="region 'bree'"):
        read_layout(IDS, NAMES, tmp_path)
    (tmp_path / LAYOUT_FILE).write_text("regions: [\n", encoding="utf-8")
    with pytest.raises(DataError, match="not valid YAML"):
        read_layout(IDS, NAMES, tmp_path)


def test_the_layout_lies_like_the_map() -> None:
    """Neighbours near, non-neighbours apart, and no border line running through a third
    region's node (which would read as a border it does not have)."""
    xy = board_layout(BOARD).xy
    dist = np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1))
    np.fill_diagonal(dist, np.inf)
    assert dist.min() >= 35, "two nodes overlap"
    borders = [(a, int(b)) for a in range(len(IDS)) for b in BOARD.neighbours[a] if a < b]
    assert max(dist[a, b] for a, b in borders) < 190
    # each region's nearest other node is one of its neighbours, but for a few on a long border
    nearest_not_neighbour = [IDS[a] for a in range(len(IDS))
                             if int(np.argmin(dist[a])) not in set(BOARD.neighbours[a].tolist())]
    assert len(nearest_not_neighbour) <= 10, nearest_not_neighbour
    for a, b in borders:
        p, q = xy[a], xy[b]
        t = np.clip(((xy - p) @ (q - p)) / ((q - p) @ (q - p)), 0, 1)
        gap = np.hypot(*(xy - (p + t[:, None] * (q - p))).T)
        gap[[a, b]] = np.inf
        assert gap.min() > 12, f"border {IDS[a]}-{IDS[b]} runs through {IDS[int(gap.argmin())]}"
