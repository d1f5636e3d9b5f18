"""Recruiting by card (spec §7.5, facts §6 "card rules"; facts §6.3 #9 #14-#24, §6.5 #12-#24):
the card's figures come from the reinforcements into its region whatever the nation's
political status, not into an enemy Settlement or an enemy army's region, into a besieged
Stronghold's box, never over the stacking limit."""

from __future__ import annotations

import pytest

from wotr_env.data import FIGURES, NATIONS, load_ruleset
from wotr_env.engine import build, play
from wotr_env.engine.cards.fp_strategy import FIXED_RECRUITS as FP_RECRUITS
from wotr_env.engine.cards.shadow_strategy import FIXED_RECRUITS as SHADOW_RECRUITS
from wotr_env.engine.decision import EVENT, WD
from wotr_env.engine.events import playable

RS = load_ruleset("2e")
CARDS, BOARD = RS.cards, RS.board
ALL_AT_WAR = {n: {"steps": 0, "active": True} for n in NATIONS}


def position(side: str, cid: str, **spec: object):
    dice = {"free_peoples": ["event", "event"], "shadow": ["event", "event"]}
    return build({"hands": {side: [cid]}, "dice": dice, "to_act": side, **spec})


def play_card(state, cid: str, choose: object = None) -> None:
    """Play ``cid`` with an Event die; answer every card choice with ``choose(decision)`` (by
    default the first option: a Regular where a unit is chosen)."""
    c = CARDS.card(cid)
    for kind, action in ((WD.CHOOSE_DIE, ("die", EVENT)), (WD.DIE_ACTION, ("action", "play-event")),
                         (WD.PLAY_EVENT, ("card", c))):
        if state.pending.kind == kind:
            play(state, action)
    while state.pending is not None and state.pending.kind in (WD.EVENT_CHOICE, WD.DISCARD):
        d = state.pending
        play(state, choose(d) if choose is not None else d.options[0])


def expected(recruits) -> dict[tuple[int, int, int], int]:
    out: dict[tuple[int, int, int], int] = {}
    for where, who, figures in recruits:
        for f in figures:
            key = (BOARD.region(where), NATIONS.index(who), FIGURES.index(
                "regular" if f == "unit" else f))
            out[key] = out.get(key, 0) + 1
    return out


@pytest.mark.parametrize("cid", sorted(FP_RECRUITS) + sorted(SHADOW_RECRUITS))
def test_a_recruiting_card_places_its_figures_from_the_reinforcements(cid: str) -> None:
    """Every fixed-place recruiting card, on an empty board, whatever the political status
    (the nations are not At War here unless the card's precondition asks it): the figures
    appear where the card says, the reinforcements lose them (figures conserved)."""
    side = "free_peoples" if cid.startswith("fp") else "shadow"
    spec: dict = {"politics": ALL_AT_WAR} if side == "shadow" else {}
    if cid == "sh-strat-16-a-new-power-is-rising":
        spec["characters"] = {"saruman": "orthanc"}
    if cid == "sh-strat-18-the-king-is-revealed":
        spec["characters"] = {"aragorn": "minas-tirith"}
    s = position(side, cid, **spec)
    before_army, before_reserve = s.army.copy(), s.reserve.copy()
    play_card(s, cid)
    recruits = (FP_RECRUITS if side == "free_peoples" else SHADOW_RECRUITS)[cid]
    want = expected(recruits)
    got = {tuple(int(i) for i in k): int(v) for k, v in
           zip(zip(*((s.army - before_army).nonzero()), strict=True),
               (s.army - before_army)[(s.army - before_army).nonzero()], strict=True)}
    assert got == want
    assert (before_reserve - s.reserve).sum() == sum(want.values())


def test_a_card_recruits_nothing_into_an_enemy_settlement_or_an_enemy_army() -> None:
    """spec §7.5: "all other conditions still apply": Minas Tirith held by the Shadow takes no
    recruit; Dol Amroth with a Shadow army in its field takes none either."""
    s = position("free_peoples", "fp-strat-14-guards-of-the-citadel",
                 control={"minas-tirith": "shadow"})
    reserve = s.reserve.copy()
    play_card(s, "fp-strat-14-guards-of-the-citadel")
    assert (s.reserve == reserve).all()
    s = position("free_peoples", "fp-strat-18-imrahil-of-dol-amroth",
                 armies={"dol-amroth": {"sauron": {"regular": 2}}})
    reserve = s.reserve.copy()
    play_card(s, "fp-strat-18-imrahil-of-dol-amroth")
    assert (s.reserve == reserve).all()


def test_a_card_recruits_into_its_besieged_stronghold_box_up_to_five() -> None:
    """spec §7.5 (cards may reinforce a besieged Stronghold), facts §7.3 (5 units in a box)."""
    s = position("free_peoples", "fp-strat-14-guards-of-the-citadel",
                 armies={"minas-tirith": {"sauron": {"regular": 6}}},
                 boxes={"minas-tirith": {"gondor": {"regular": 4, "leader": 1}}})
    play_card(s, "fp-strat-14-guards-of-the-citadel")
    mt, gondor = BOARD.region("minas-tirith"), NATIONS.index("gondor")
    assert s.box[mt, gondor].tolist() == [5, 0, 2, 0]
    assert s.army[mt, gondor].sum() == 0


def test_a_card_never_stacks_over_ten_units() -> None:
    """spec §8, §20 #7: 10 units in Dale already: King Brand's Men recruits no Regular; its
    Strategy card is still drawn (a card does what it can, spec §7.3)."""
    s = position("free_peoples", "fp-strat-19-king-brands-men",
                 armies={"dale": {"the-north": {"regular": 6}, "dwarves": {"regular": 4}}})
    hand = len(s.hands[0])
    play_card(s, "fp-strat-19-king-brands-men")
    assert s.army[BOARD.region("dale")].sum() == 10
    assert len(s.hands[0]) == hand  # the card left, a Strategy card came


def test_a_unit_is_a_regular_or_an_elite_of_the_players_choice() -> None:
    """facts §6.3 #14 "1 Gondor unit (Regular or Elite)": choosing the Elite places an Elite."""
    s = position("free_peoples", "fp-strat-14-guards-of-the-citadel")
    play_card(s, "fp-strat-14-guards-of-the-citadel",
              choose=lambda d: ("figure", 1) if ("figure", 1) in d.options else d.options[0])
    assert s.army[BOARD.region("minas-tirith"), NATIONS.index("gondor")].tolist() == [0, 1, 1, 0]


@pytest.mark.parametrize("cid,spec,ok", [
    ("fp-strat-09-the-red-arrow", {}, False),
    ("fp-strat-09-the-red-arrow", {"politics": {"gondor": {"active": True}}}, True),
    ("sh-strat-18-the-king-is-revealed", {}, False),
    ("sh-strat-18-the-king-is-revealed", {"characters": {"aragorn": "pelargir"}}, True),
    ("sh-strat-14-olog-hai", {}, False),
    ("sh-strat-14-olog-hai", {"politics": {"sauron": {"steps": 0}}}, True),
])
def test_recruiting_cards_need_their_precondition(cid: str, spec: dict, ok: bool) -> None:
    """spec §7.3: an unmet precondition forbids the play (The Red Arrow: Gondor Active; The
    King is Revealed: Aragorn in play; Olog-hai: Sauron At War)."""
    side = "free_peoples" if cid.startswith("fp") else "shadow"
    s = position(side, cid, **spec)
    assert (CARDS.card(cid) in playable(s, 0 if side == "free_peoples" else 1, EVENT)) == ok


def test_the_red_arrow_advances_rohan_and_recruits_in_edoras() -> None:
    """facts §6.3 #9."""
    s = position("free_peoples", "fp-strat-09-the-red-arrow",
                 politics={"gondor": {"active": True}})
    play_card(s, "fp-strat-09-the-red-arrow")
    rohan = NATIONS.index("rohan")
    assert s.politics[rohan] == 2
    assert s.army[BOARD.region("edoras"), rohan].tolist() == [1, 0, 1, 0]  # a unit and a Leader


def test_pits_of_mordor_recruits_two_regulars_in_three_different_strongholds() -> None:
    """facts §6.5 #24: three different Sauron Strongholds, two Regulars each."""
    s = position("shadow", "sh-strat-24-pits-of-mordor", politics={"sauron": {"steps": 0}})
    chosen: list[int] = []

    def choose(d):
        regions = [a for a in d.options if a[0] == "region"]
        assert all(a[1] not in chosen for a in regions)
        chosen.append(regions[0][1])
        return regions[0]

    play_card(s, "sh-strat-24-pits-of-mordor", choose)
    sauron = NATIONS.index("sauron")
    assert len(chosen) == 3 and all(s.army[r, sauron, 0] == 2 for r in chosen)


def test_hill_trolls_swaps_two_regulars_for_elites() -> None:
    """facts §6.5 #15: figures conserved (the Regulars go back to the reinforcements)."""
    s = position("shadow", "sh-strat-15-hill-trolls", politics={"sauron": {"steps": 0}},
                 armies={"gorgoroth": {"sauron": {"regular": 3}}})
    sauron, g = NATIONS.index("sauron"), BOARD.region("gorgoroth")
    reserve = s.reserve[sauron].copy()
    play_card(s, "sh-strat-15-hill-trolls")
    assert s.army[g, sauron].tolist() == [1, 2, 0, 0]
    assert (s.reserve[sauron] - reserve).tolist() == [2, -2, 0, 0]
