"""The War of the Ring board data (map.yaml, nations.yaml, setup.yaml and wotr_env/data/board.py).

The expected values come from the fact sheet (``../shared/facts/war-of-the-ring.md``), read from
a verbatim copy of its tables (fixtures/facts_map_tables.md: §1.2, §1.3, §2.1, §2.2) by the
small markdown parsers below, independently of the YAML, so the tests run where the sheet is
absent (CI); one test checks the copy against the sheet where it is present.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from wotr_env.data.board import Board, load_board
from wotr_env.data.model import DATA_ROOT, FIGURES, NATIONS, DataError
from wotr_env.data.source import Source

FIXTURE = Path(__file__).parent / "fixtures" / "facts_map_tables.md"
SHEET = Path(__file__).parents[3] / "shared/facts/war-of-the-ring.md"
SECTIONS = ("### 1.2 ", "### 1.3 ", "### 2.1 ", "### 2.2 ")
# The sheet's nation names (its tables) -> our ids (model.NATIONS).
NATION_NAMES = {"Dwarves": "dwarves", "Elves": "elves", "Gondor": "gondor",
                "The North": "the-north", "Rohan": "rohan", "Isengard": "isengard",
                "Sauron": "sauron", "Southrons & Easterlings": "southrons"}
SIDE_NAMES = {"FP": "free_peoples", "Shadow": "shadow", "neutral": None}
LETTERS = {"r": "regular", "e": "elite", "L": "leader", "N": "nazgul"}
FILES = ("map.yaml", "nations.yaml", "setup.yaml")


# --- the sheet's tables, parsed ------------------------------------------------------------------

def section(text: str, head: str) -> str:
    """The section starting at heading ``head``, up to the next heading, trailing rules cut."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(head))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")), len(lines))
    body = lines[start:end]
    while body and body[-1].strip() in ("", "---"):
        body.pop()
    return "\n".join(body)


def table_rows(text: str) -> list[list[str]]:
    """The cells of every markdown table row in ``text`` (header and rule rows included)."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.split("\n") if line.startswith("|")]


def parse_figures(text: str) -> dict[str, int]:
    """``"4r 1e 1N"`` -> {kind: count} over every kind of FIGURES."""
    out = dict.fromkeys(FIGURES, 0)
    for n, letter in re.findall(r"(\d+)\s*([reLN])\b", text):
        out[LETTERS[letter]] += int(n)
    return out


@pytest.fixture(scope="module")
def facts() -> str:
    return FIXTURE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sheet_regions(facts: str) -> list[dict]:
    """facts §1.2: one dict per row of the regions table, in its # order."""
    rows = []
    for cells in table_rows(section(facts, "### 1.2 ")):
        if not cells[0].isdigit():
            continue
        num, rid, name, nation, side, settlement, vp, start, degree = cells
        rows.append({"num": int(num), "id": rid.strip("`"), "name": name,
                     "nation": None if nation == "—" else NATION_NAMES[nation],
                     "side": SIDE_NAMES[side],
                     "settlement": None if settlement == "—" else settlement,
                     "vp": int(vp or 0), "start": start, "degree": int(degree)})
    return rows


@pytest.fixture(scope="module")
def sheet_pairs(facts: str) -> set[tuple[str, str]]:
    """facts §1.3: the unordered adjacency pairs, each as a sorted tuple."""
    pairs = set()
    for line in section(facts, "### 1.3 ").split("\n"):
        m = re.match(r"\* `([a-z-]+)` — (.*)$", line)
        if m:
            for b in re.findall(r"`([a-z-]+)`", m.group(2)):
                pairs.add(tuple(sorted((m.group(1), b))))
    return pairs


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board(Source("2e"))


# --- the fixture is the sheet --------------------------------------------------------------------

def test_fixture_equals_the_fact_sheet(facts: str) -> None:
    """The fixture's sections are verbatim those of the sheet (when the sheet is present)."""
    if not SHEET.exists():
        pytest.skip(f"{SHEET} not found (the fact sheet lies outside the repository)")
    sheet = SHEET.read_text(encoding="utf-8")
    for head in SECTIONS:
        assert section(facts, head) == section(sheet, head), f"section {head.strip()} differs"


# --- the map -------------------------------------------------------------------------------------

def test_regions_equal_the_sheet(board: Board, sheet_regions: list[dict]) -> None:
    """facts §1.2: id, name, nation, side, settlement, VP of every region, in the sheet's order."""
    assert len(sheet_regions) == 105
    fields = ("id", "name", "nation", "side", "settlement", "vp")
    diffs = []
    for row, region in zip(sheet_regions, board.regions, strict=True):
        assert region.index == row["num"] - 1
        for f in fields:
            if getattr(region, f) != row[f]:
                diffs.append((row["id"], f, row[f], getattr(region, f)))
    assert diffs == []


def test_borders_equal_the_sheet(board: Board, sheet_pairs: set[tuple[str, str]]) -> None:
    """facts §1.3: the 232 unordered pairs, each once."""
    assert len(sheet_pairs) == 232
    ours = set(board.borders)
    assert len(ours) == len(board.borders) == 232
    assert sorted(ours - sheet_pairs) == [] and sorted(sheet_pairs - ours) == []


def test_neighbour_counts_equal_the_sheet(board: Board, sheet_regions: list[dict]) -> None:
    """facts §1.2 "neighbours" column, and §1.3's degree sum 464 = 2 x 232."""
    diffs = [(row["id"], row["degree"], len(board.neighbours[board.region(row["id"])]))
             for row in sheet_regions
             if len(board.neighbours[board.region(row["id"])]) != row["degree"]]
    assert diffs == []
    assert int(board.adjacency.sum()) == 464


def test_index_tables(board: Board) -> None:
    """The arrays agree with the records, are symmetric where they should be, and read-only."""
    adj = board.adjacency
    assert adj.shape == (105, 105) and adj.dtype == bool
    assert (adj == adj.T).all() and not adj.diagonal().any()
    for r in board.regions:
        assert board.region(r.id) == r.index
        assert list(board.neighbours[r.index]) == sorted(np.flatnonzero(adj[r.index]))
        assert board.region_nation[r.index] == (NATIONS.index(r.nation) if r.nation else -1)
        assert board.vp[r.index] == r.vp
    assert board.start_figures.shape == (105, 8, 4)
    assert board.reinforcements.shape == board.figures.shape == (8, 4)
    for a in (adj, board.vp, board.start_figures, board.reinforcements, board.neighbours[0]):
        with pytest.raises(ValueError):
            a.flat[0] = a.flat[0]
    with pytest.raises(KeyError, match="mordor"):
        board.region("mordor")
    assert board.nation("the-north") == 3


def test_summary_counts(board: Board) -> None:
    """facts §0: regions, pairs, nations, settlements, VP on the board, figures."""
    regions = board.regions
    assert (len(regions), len(board.borders), len(board.nations)) == (105, 232, 8)
    by_side = {s: sum(r.side == s for r in regions) for s in ("free_peoples", "shadow", None)}
    assert by_side == {"free_peoples": 30, "shadow": 22, None: 53}
    kinds = {}
    for r in regions:
        if r.settlement:
            kinds.setdefault(r.settlement, {"free_peoples": 0, "shadow": 0, None: 0})
            kinds[r.settlement][r.side] += 1
    assert kinds == {"stronghold": {"free_peoples": 8, "shadow": 8, None: 0},
                     "city": {"free_peoples": 4, "shadow": 2, None: 0},
                     "town": {"free_peoples": 8, "shadow": 6, None: 0},
                     "fortification": {"free_peoples": 1, "shadow": 0, None: 1}}
    cities = {r.name for r in regions if r.settlement == "city"}
    assert cities == {"Dale", "Edoras", "Pelargir", "The Shire", "Angmar", "Far Harad"}
    forts = {r.id: r.nation for r in regions if r.settlement == "fortification"}
    assert forts == {"fords-of-isen": "rohan", "osgiliath": None}
    assert sum(r.vp for r in regions if r.side == "free_peoples") == 20
    assert sum(r.vp for r in regions if r.side == "shadow") == 18
    fig = {n.side: np.zeros(4, int) for n in board.nations}
    for n in board.nations:
        fig[n.side] += board.figures[n.index]
    assert list(fig["free_peoples"]) == [45, 30, 20, 0]  # 75 units + 20 Leaders
    assert list(fig["shadow"]) == [72, 18, 0, 8]  # 90 units + 8 Nazgûl
    assert [n.side for n in board.nations] == ["free_peoples"] * 5 + ["shadow"] * 3


# --- the coast and the east edge: a reading, not a sourced fact (facts §8.2) ---------------------

# facts §8.2, row "Coastal regions": the two public lists, by region name ([JC]'s approximation,
# [TM]'s list). The data holds the regions both call coastal (the conservative reading).
JC_COAST = {"Ered Luin", "North Ered Luin", "South Ered Luin", "Forlindon", "Harlindon",
            "Grey Havens", "Tower Hills", "Andrast", "Anfalas", "Dol Amroth", "Lossarnach",
            "Pelargir"}
TM_COAST = {"Grey Havens", "North Ered Luin", "Forlindon", "Harlindon", "Evendim", "Arnor",
            "South Ered Luin", "Minhiriath", "Enedwaith", "Drúwaith Iaur", "Andrast", "Anfalas",
            "Dol Amroth", "Lamedon", "Pelargir", "West Harondor", "Umbar"}
# facts §8.2, row "East-edge regions of S&E": the likely candidates [INF].
EAST_EDGE = {"North Rhûn", "East Rhûn", "South Rhûn", "Khand", "Far Harad"}


def test_the_coast_is_the_regions_both_lists_call_coastal(board: Board) -> None:
    """facts §8.2 (reading R-D8, R-D9): ``board.coastal`` is the intersection of [JC]'s and
    [TM]'s lists (plain Ered Luin, in [JC]'s only, is out); Gondor's coast is Anfalas, Dol
    Amroth and Pelargir; the array is read-only and the 1st edition reads the same."""
    names = {r.name for r in board.regions}
    assert JC_COAST <= names and TM_COAST <= names  # every listed name is a region of the map
    coast = {r.name for r in board.regions if board.coastal[r.index]}
    assert coast == JC_COAST & TM_COAST and "Ered Luin" not in coast
    gondor = {r.id for r in board.regions if board.coastal[r.index] and r.nation == "gondor"}
    assert gondor == {"anfalas", "dol-amroth", "pelargir"}
    assert board.coastal.dtype == bool and board.coastal.shape == (105,)
    with pytest.raises(ValueError):
        board.coastal[0] = True
    assert (load_board(Source("1e")).coastal == board.coastal).all()


def test_the_east_edge_is_the_sheets_southron_candidates(board: Board) -> None:
    """facts §8.2 (reading R-D10): ``board.east_edge`` is the five candidates the sheet names,
    each a Southron & Easterling region; read-only."""
    edge = {r.name for r in board.regions if board.east_edge[r.index]}
    assert edge == EAST_EDGE
    assert all(r.nation == "southrons" for r in board.regions if board.east_edge[r.index])
    with pytest.raises(ValueError):
        board.east_edge[0] = True


# --- nations and setup ---------------------------------------------------------------------------

def test_political_start_equals_the_sheet(board: Board, facts: str) -> None:
    """facts §2.1: Active or Passive, and the steps to At War."""
    rows = [c for c in table_rows(section(facts, "### 2.1 ")) if c[0] in NATION_NAMES]
    assert len(rows) == 8
    for name, side, starts, steps, _box in rows:
        n = board.nations[board.nation(NATION_NAMES[name])]
        assert (n.name, n.side) == (name, SIDE_NAMES[side])
        assert n.active_at_start == (starts.strip("*") == "Active"), name
        assert n.steps_to_war == int(steps), name


def test_figures_equal_the_sheet(board: Board, facts: str) -> None:
    """facts §2.2: Regulars, Elites, Leaders or Nazgûl per nation, and their total."""
    rows = [c for c in table_rows(section(facts, "### 2.2 ")) if len(c) == 5
            and c[0] in NATION_NAMES]
    assert len(rows) == 8
    for name, regular, elite, special, total in rows:
        n = board.nations[board.nation(NATION_NAMES[name])]
        want = parse_figures(f"{regular}r {elite}e " + special.replace(" ", ""))
        assert n.figures == want, name
        assert sum(n.figures.values()) == int(total), name


def test_setup_plus_reinforcements_equal_figures(board: Board) -> None:
    """facts §2.2, §8.1: for every nation, on the board + in reserve = its figures."""
    assert (board.start_figures.sum(axis=0) + board.reinforcements == board.figures).all()


def test_start_armies_equal_the_sheet(board: Board, facts: str,
                                      sheet_regions: list[dict]) -> None:
    """facts §2.2 "Starting armies" (and §1.2's start-figures column): region by region."""
    by_name = {r["name"]: r["id"] for r in sheet_regions}
    want = np.zeros((105, 8, 4), dtype=int)
    rows = [c for c in table_rows(section(facts, "### 2.2 ")) if len(c) == 4
            and c[0] in NATION_NAMES]
    assert len(rows) == 8
    for name, placed, on_board, reserve in rows:
        j = board.nation(NATION_NAMES[name])
        for part in placed.split(";"):
            region, figures = re.match(r"\s*(.+?)\s+(\d.*)$", part).groups()
            want[board.region(by_name[region]), j] = list(parse_figures(figures).values())
        assert list(board.start_figures[:, j].sum(axis=0)) == list(parse_figures(on_board).values())
        assert list(board.reinforcements[j]) == list(parse_figures(reserve).values()), name
    assert (board.start_figures == want).all()
    column = np.zeros_like(want)
    for row in sheet_regions:
        if row["start"]:
            m = re.match(r"(.+?) (\d.*)$", row["start"])
            column[row["num"] - 1, board.nation(NATION_NAMES[m[1]])] = list(
                parse_figures(m[2]).values())
    assert (board.start_figures == column).all()
    # facts §1.1: Osgiliath belongs to no nation and starts with 2 Gondor Regulars
    assert board.regions[board.region("osgiliath")].nation is None
    assert list(board.start_figures[board.region("osgiliath"), board.nation("gondor")]) == \
        [2, 0, 0, 0]
    records = {(a.region, a.nation): list(a.figures.values()) for a in board.start_armies}
    assert len(records) == int((board.start_figures.sum(axis=2) > 0).sum()) == 35
    for (rid, nid), figures in records.items():
        assert list(board.start_figures[board.region(rid), board.nation(nid)]) == figures


# --- the 1st edition -----------------------------------------------------------------------------

def test_1e_reads_the_2e_board_through_stand_ins(board: Board) -> None:
    """facts §1, §2.2, §8.5: the 1E map, nations and setup are unknown; 2E stands in, recorded."""
    source = Source("1e")
    first = load_board(source)
    assert sorted(source.stand_ins) == list(FILES)
    assert all(other == "2e" and why for other, why in source.stand_ins.values())
    assert "Dwarves" in source.stand_ins["setup.yaml"][1]
    assert first.regions == board.regions and first.borders == board.borders
    assert (first.start_figures == board.start_figures).all()


# --- malformed data ------------------------------------------------------------------------------

def _copy_2e(tmp_path: Path) -> Path:
    (tmp_path / "2e").mkdir()
    for name in FILES:
        shutil.copy(DATA_ROOT / "2e" / name, tmp_path / "2e" / name)
    return tmp_path / "2e"


BROKEN = [  # (file, text, replacement, the error's start: file and entry, then the problem)
    ("map.yaml", "id: bree, name: Bree, nation: the-north", "id: bree, name: Bree, nation: arnor",
     "2e/map.yaml: region 'bree': unknown nation 'arnor'"),
    ("map.yaml", "Bree, nation: the-north, settlement: town", "Bree, nation: the-north, "
     "settlement: village", "2e/map.yaml: region 'bree': unknown settlement 'village'"),
    ("map.yaml", "{id: buckland, name: Buckland", "{id: bree, name: Buckland",
     "2e/map.yaml: region 'bree': duplicate id"),
    ("map.yaml", "sauron, settlement: city, vp: 1", "sauron, settlement: city, vp: 2",
     "2e/map.yaml: region 'angmar': vp 2, but a region with settlement city is worth 1"),
    ("map.yaml", "Andrast, nation: null, settlement: null", "Andrast, nation: null, "
     "settlement: town",
     "2e/map.yaml: region 'andrast': a town must lie in a nation"),
    ("map.yaml", "{id: andrast, name: Andrast, nation: null, settlement: null",
     "{id: andrast, name: Andrast, nation: null, setlement: null",
     "2e/map.yaml: region 'andrast': unknown field(s) ['setlement']"),
    ("map.yaml", "barad-dur: [gorgoroth]", "barad-dur: [gorgorth]",
     "2e/map.yaml: adjacent 'barad-dur': unknown neighbour 'gorgorth'"),
    ("map.yaml", "barad-dur: [gorgoroth]", "barad-dur: [barad-dur, gorgoroth]",
     "2e/map.yaml: adjacent 'barad-dur': a region cannot border itself"),
    ("map.yaml", "gorgoroth: [minas-morgul", "gorgoroth: [barad-dur, minas-morgul",
     "2e/map.yaml: adjacent 'gorgoroth': the border gorgoroth -- barad-dur is listed twice"),
    ("map.yaml", "  withered-heath: [woodland-realm]\n", "",
     "2e/map.yaml: counts: adjacent_pairs: 231 listed, 232 declared"),
    ("map.yaml", "  barad-dur: [gorgoroth]\n", "",
     "2e/map.yaml: region 'barad-dur': has no border"),
    ("map.yaml", "east_edge: [north-rhun,", "east_edge: [north-rhn,",
     "2e/map.yaml: east_edge: unknown region 'north-rhn'"),
    ("map.yaml", "dol-amroth, pelargir]", "dol-amroth, pelargir, anfalas]",
     "2e/map.yaml: coastal: 'anfalas' is listed twice"),
    ("map.yaml", "east_edge: [north-rhun, east-rhun, south-rhun, khand, far-harad]\n", "",
     "2e/map.yaml: top level: missing field 'east_edge'"),
    ("map.yaml", "coastal: [north-ered-luin,", "coastal: [north-ered-luin, 7,",
     "2e/map.yaml: coastal: unknown region 7"),
    ("nations.yaml", "id: elves", "id: elfs", "2e/nations.yaml: nation 'elfs': unknown nation"),
    ("nations.yaml", "steps_to_war: 2\n  figures: {regular: 15", "steps_to_war: 4\n  figures: "
     "{regular: 15", "2e/nations.yaml: nation 'gondor': steps_to_war 4"),
    ("nations.yaml", "{regular: 12, elite: 6}", "{regular: 12, elite: 6, leader: 0}",
     "2e/nations.yaml: nation 'isengard': isengard cannot have leaders"),
    ("setup.yaml", "umbar: {regular: 3}", "umbar: {regular: 3, nazgul: 1}",
     "2e/setup.yaml: setup 'southrons' in 'umbar': southrons cannot have nazgul"),
    ("setup.yaml", "orthanc: {regular: 4, elite: 1}", "orthanc: {regular: 4, elite: 1, leader: 1}",
     "2e/setup.yaml: setup 'isengard' in 'orthanc': isengard cannot have leaders"),
    ("setup.yaml", "reinforcements: {regular: 2, elite: 3", "reinforcements: {regular: 3, elite: 3",
     "2e/setup.yaml: setup 'dwarves': regular: 3 on the board + 3 in reserve != the 5"),
    ("setup.yaml", "north-dunland: {regular: 1}", "fords-of-isen: {regular: 1}",
     "2e/setup.yaml: setup 'isengard' in 'fords-of-isen': the region is rohan's"),
    ("setup.yaml", "moria: {regular: 2}", "moria: {regular: 2}\n      osgiliath: {regular: 1}",
     "2e/setup.yaml: setup 'sauron': regular: 29 on the board + 8 in reserve != the 36"),
    ("setup.yaml", "nurn: {regular: 2}", "osgiliath: {regular: 2}",
     "2e/setup.yaml: region 'osgiliath': starts with figures of both sides"),
    ("setup.yaml", "ered-luin: {regular: 1}", "ered-luin: {regular: one}",
     "2e/setup.yaml: setup 'dwarves' in 'ered-luin': regular: a count is a whole number"),
]


@pytest.mark.parametrize(("file", "old", "new", "message"), BROKEN,
                         ids=[re.sub(r"[^a-z0-9]+", "-", m.split(": ", 1)[1][:36].lower())
                              .strip("-") for *_, m in BROKEN])
def test_malformed_data_names_file_and_entry(tmp_path: Path, file: str, old: str, new: str,
                                             message: str) -> None:
    path = _copy_2e(tmp_path) / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the edit's anchor {old!r} must occur once in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(DataError, match="^" + re.escape(message)):
        load_board(Source("2e", tmp_path))


def test_1e_stand_in_error_names_the_2e_file(tmp_path: Path) -> None:
    """A fault in a file read for the 1st edition names the 2nd's file, the one to fix."""
    two = _copy_2e(tmp_path)
    (tmp_path / "1e").mkdir()
    for name in FILES:
        shutil.copy(DATA_ROOT / "1e" / name, tmp_path / "1e" / name)
    path = two / "map.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("vp: 1}", "vp: 3}", 1),
                    encoding="utf-8")
    with pytest.raises(DataError, match=r"^2e/map\.yaml: region 'angmar': vp 3"):
        load_board(Source("1e", tmp_path))


def test_the_packaged_data_loads_for_both_rulesets() -> None:
    for ruleset in ("2e", "1e"):
        assert len(load_board(Source(ruleset)).regions) == 105
