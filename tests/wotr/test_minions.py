"""Moving the Nazgûl and Minions with a Shadow Character die (WD-24; facts §7.1, §7.3, §7.7,
§3.4; spec §11.2, §20 #2, #34, #35)."""

from __future__ import annotations

from wotr_env.data import NATIONS, load_ruleset
from wotr_env.engine import build, play
from wotr_env.engine.decision import CHARACTER, DONE, WD
from wotr_env.engine.regions import STRONGHOLD
from wotr_env.engine.state import FREE_PEOPLES, NAZGUL

RS = load_ruleset("2e")
CARDS, BOARD = RS.cards, RS.board
SAURON = NATIONS.index("sauron")
FP_STRONGHOLDS = {r.id for i, r in enumerate(BOARD.regions)
                  if BOARD.settlement[i] == STRONGHOLD and BOARD.region_side[i] == FREE_PEOPLES}


def ch(cid: str) -> int:
    return CARDS.character(cid)


def region(rid: str) -> int:
    return BOARD.region(rid)


def at_shadow(**spec: object):
    """The Shadow chooses a die (a Character and a Muster die; the FP keeps two dice)."""
    spec.setdefault("dice", {"shadow": ["character", "muster"],
                             "free_peoples": ["event", "muster"]})
    return build({"to_act": "shadow", **spec})


def ends(state) -> set[str]:
    return {BOARD.regions[a[1]].id for a in state.pending.options if a[0] == "region"}


def start(state) -> None:
    play(state, ("die", CHARACTER), ("action", "move-minions"))
    assert state.pending.kind == WD.MOVE_MINIONS


def test_a_nazgul_flies_anywhere_but_into_an_fp_stronghold():
    """spec §11.2, §20 #2, facts §7.3: a Nazgûl goes to any region, Towns and Cities included,
    except one with an FP-controlled Stronghold (unless a Shadow Army besieges it)."""
    state = at_shadow(armies={"dol-guldur": {"sauron": {"nazgul": 1}}})
    start(state)
    assert set(state.pending.options) == {DONE, ("region", region("dol-guldur"))}
    play(state, ("region", region("dol-guldur")))
    every = {r.id for r in BOARD.regions}
    assert ends(state) == every - FP_STRONGHOLDS - {"dol-guldur"}
    assert {"edoras", "the-shire"} <= ends(state)
    play(state, ("region", region("edoras")))
    assert state.army[region("edoras"), SAURON, NAZGUL] == 1
    assert state.army[region("dol-guldur"), SAURON, NAZGUL] == 0
    assert state.control[region("edoras")] == FREE_PEOPLES  # a Nazgûl alone captures nothing


def test_a_besieged_fp_stronghold_is_open_to_nazgul():
    """spec §20 #2: with a Shadow Army besieging Minas Tirith, a Nazgûl may fly in; one held by
    the Shadow is open too."""
    state = at_shadow(armies={"dol-guldur": {"sauron": {"nazgul": 1}},
                              "minas-tirith": {"sauron": {"regular": 3}}},
                      boxes={"minas-tirith": {"gondor": {"regular": 2}}},
                      control={"helms-deep": "shadow"})
    start(state)
    play(state, ("region", region("dol-guldur")))
    assert {"minas-tirith", "helms-deep"} <= ends(state) and "rivendell" not in ends(state)


def test_each_nazgul_moves_once_per_action():
    """facts §7.7, spec §20 #4: every Nazgûl may move, each once in the action."""
    state = at_shadow(armies={"dol-guldur": {"sauron": {"nazgul": 2}}})
    start(state)
    play(state, ("region", region("dol-guldur")), ("region", region("moria")))
    assert set(state.pending.options) == {DONE, ("region", region("dol-guldur"))}
    play(state, ("region", region("dol-guldur")), ("region", region("moria")))
    assert state.army[region("moria"), SAURON, NAZGUL] == 2
    assert state.pending.kind == WD.CHOOSE_DIE and state.pending.player == FREE_PEOPLES


def test_the_witch_king_flies_like_a_nazgul():
    """facts §3.4: the Witch-king moves like a Nazgûl, under the same limit."""
    state = at_shadow(characters={"witch-king": "minas-morgul"})
    start(state)
    play(state, ("character", ch("witch-king")))
    assert "the-shire" in ends(state) and "rivendell" not in ends(state)
    play(state, ("region", region("the-shire")))
    assert state.char_at[ch("witch-king")] == region("the-shire")


def test_the_mouth_of_sauron_moves_three_regions_alone():
    """facts §3.4, §7.7, spec §20 #34: the Mouth alone moves up to 3 regions, enemy Armies no
    obstacle."""
    state = at_shadow(characters={"mouth-of-sauron": "barad-dur"},
                      armies={"gorgoroth": {"gondor": {"regular": 1}}})
    start(state)
    play(state, ("character", ch("mouth-of-sauron")))
    assert ends(state) == {"gorgoroth", "minas-morgul", "morannon", "nurn", "north-ithilien",
                           "south-ithilien", "dagorlad"}


def test_the_mouth_does_not_enter_an_fp_stronghold():
    """facts §7.3: Minions moving without an Army may not enter an FP-controlled Stronghold."""
    state = at_shadow(characters={"mouth-of-sauron": "osgiliath"})
    start(state)
    play(state, ("character", ch("mouth-of-sauron")))
    assert "minas-tirith" not in ends(state) and "lossarnach" in ends(state)


def test_saruman_never_leaves_orthanc():
    """facts §3.4, §7.7, spec §20 #35: Saruman never moves: with only him, no WD-24."""
    state = at_shadow(characters={"saruman": "orthanc"})
    play(state, ("die", CHARACTER))
    assert ("action", "move-minions") not in state.pending.options


def test_besieged_nazgul_and_minions_stay_in_the_box():
    """facts §7.3 (reading): figures in a besieged Stronghold's box do not fly out."""
    state = at_shadow(boxes={"dol-guldur": {"sauron": {"regular": 1, "nazgul": 1}}},
                      armies={"dol-guldur": {"elves": {"regular": 3}}},
                      characters={"witch-king": "dol-guldur"})
    state.char_in_box[ch("witch-king")] = True
    play(state, ("die", CHARACTER))
    assert ("action", "move-minions") not in state.pending.options


def test_free_peoples_cannot_move_minions():
    """facts §7.1: moving Nazgûl and Minions is the Shadow's Character action."""
    state = build({"armies": {"dol-guldur": {"sauron": {"nazgul": 1}}},
                   "dice": {"free_peoples": ["character", "muster"], "shadow": ["event"]}})
    play(state, ("die", CHARACTER))
    assert ("action", "move-minions") not in state.pending.options
    assert state.pending.player == FREE_PEOPLES
