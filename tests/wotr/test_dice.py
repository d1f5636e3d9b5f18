"""Action dice and the decks (spec §6.1, §6.2, §6.5, §7.1; facts §5, §7.1)."""

from __future__ import annotations

from wotr_env.data import load_ruleset
from wotr_env.engine import WD, build, new_state, play
from wotr_env.engine.decision import ARMY, ARMY_MUSTER, CHARACTER, EVENT, EYE, MUSTER, WILL
from wotr_env.engine.turn.phases import dice_pool_size

CARDS = load_ruleset("2e").cards


def test_the_pools_start_at_four_and_seven_and_grow_with_the_characters_in_play() -> None:
    """spec §6.1, facts §5: the Free Peoples 4 (+1 Aragorn, +1 Gandalf the White: 6), the
    Shadow 7 (+1 per Minion: 10)."""
    s = new_state(0)
    assert s.dice_pool.tolist() == [4, 7]
    s = build({"characters": {"aragorn": "minas-tirith", "gandalf-the-white": "fangorn",
                              "saruman": "orthanc", "witch-king": "morannon",
                              "mouth-of-sauron": "barad-dur"},
               "dice": {"free_peoples": ["event"], "shadow": ["event"]}})
    assert (dice_pool_size(s, 0), dice_pool_size(s, 1)) == (6, 10)
    s = build({"characters": {"saruman": "orthanc"},
               "dice": {"free_peoples": ["event"], "shadow": ["event"]}})
    assert (dice_pool_size(s, 0), dice_pool_size(s, 1)) == (4, 8)


def test_a_roll_of_each_value_shows_the_faces_of_each_sides_die() -> None:
    """spec §6.2, facts §5: the FP die shows Character twice, Muster, Army/Muster, Event and
    Will of the West; the Shadow die Character, Army, Muster, Army/Muster, Event and the Eye;
    an Eye goes to the Hunt Box at the roll (spec §6.3)."""
    assert CARDS.die_faces[0].tolist() == [CHARACTER, CHARACTER, MUSTER, ARMY_MUSTER, EVENT, WILL]
    assert CARDS.die_faces[1].tolist() == [CHARACTER, ARMY, MUSTER, ARMY_MUSTER, EVENT, EYE]
    s = build({"start": "turn", "rolls": {"free_peoples": [1, 3, 5, 6],
                                          "shadow": [1, 2, 3, 4, 5, 6, 6]}})
    while s.pending.kind != WD.CHOOSE_DIE:
        d = s.pending
        play(s, ("count", 0) if d.kind == WD.HUNT_ALLOCATION else d.options[0])
    assert sorted(f for f in s.dice[0] if f >= 0) == [CHARACTER, MUSTER, EVENT, WILL]
    assert sorted(f for f in s.dice[1] if f >= 0) == [CHARACTER, ARMY, MUSTER, ARMY_MUSTER,
                                                       EVENT]
    assert s.hunt_box.tolist() == [0, 2, 0]


def die_actions(face: str, side: str = "free_peoples", **spec: object) -> set[str]:
    other = "shadow" if side == "free_peoples" else "free_peoples"
    s = build({"dice": {side: [face, face], other: ["event", "event"]}, "to_act": side,
               **spec})
    face_code = {"character": CHARACTER, "army": ARMY, "muster": MUSTER,
                 "army_muster": ARMY_MUSTER, "event": EVENT, "will_of_the_west": WILL}[face]
    if s.pending.kind == WD.CHOOSE_DIE:  # (one option, no Ring: played without asking)
        play(s, ("die", face_code))
    assert s.pending.kind == WD.DIE_ACTION
    return {a[1] for a in s.pending.options}


def test_each_result_allows_its_actions() -> None:
    """spec §6.5, facts §7.1: on the starting board (facts §2), an Event die draws a card
    (none in hand to play); a Muster die makes a diplomatic action (and a muster where a
    nation is At War); an Army die moves or attacks; a Character die moves the Fellowship and
    the Companions' or Nazgûl's side; Will of the West any of them; a die may be skipped
    (2e)."""
    start = new_state(0, run=False)
    board = {"armies": {}}
    for r in range(len(start.ruleset.board.regions)):
        for n in range(8):
            kinds = {k: int(v) for k, v in zip(("regular", "elite", "leader", "nazgul"),
                                                 start.army[r, n], strict=True) if v}
            if kinds:
                board["armies"].setdefault(start.ruleset.board.regions[r].id, {})[
                    ("dwarves", "elves", "gondor", "the-north", "rohan", "isengard", "sauron",
                     "southrons")[n]] = kinds
    assert die_actions("event", **board) == {"draw-event", "skip"}
    assert {"diplomacy", "skip"} <= die_actions("muster", **board)
    assert {"move-fellowship", "leader-move", "skip"} <= die_actions("character", **board)
    assert "move-armies" in die_actions("army", "shadow", **board)
    assert "attack" in die_actions(
        "army", "shadow", politics={"sauron": {"steps": 0}},
        armies={"osgiliath": {"gondor": {"regular": 2}}, "north-ithilien": {"sauron": {
            "regular": 3}}})
    assert "move-minions" in die_actions("character", "shadow", **board)
    will = die_actions("will_of_the_west", **board)
    assert {"draw-event", "diplomacy", "move-fellowship", "move-armies"} <= will


def test_each_side_draws_from_its_own_two_decks_of_24() -> None:
    """spec §7.1, §7.2: four decks of 24; at the start of a turn each side draws one card from
    each of its two decks (facts §2.3: none before turn 1)."""
    decks = [CARDS.deck(d) for d in ("fp-character", "fp-strategy", "shadow-character",
                                      "shadow-strategy")]
    assert [len(d) for d in decks] == [24, 24, 24, 24]
    s = new_state(0)
    assert s.turn == 1
    for side in (0, 1):
        hand_decks = sorted(int(CARDS.event_deck[c]) for c in s.hands[side])
        assert hand_decks == [2 * side, 2 * side + 1]
    assert [len(d) for d in s.decks] == [23, 23, 23, 23]
