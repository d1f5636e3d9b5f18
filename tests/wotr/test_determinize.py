"""Hidden information: ``determinize`` draws again what a side cannot know, ``text`` shows only
what it may know, ``digest`` tells games apart (issue 27, "Scope and shape": hidden are both
hands, whose sizes per deck are public, deck orders, the Hunt Pool's order, face-down discards,
combat cards chosen and not yet revealed)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from boardkit.frames import Frame
from wotr_env.engine import FREE_PEOPLES, SHADOW, WD, Decision, WotrState, build, new_state, play
from wotr_env.engine.battle.round import Round
from wotr_env.engine.chance import Chance
from wotr_env.engine.decision import ARMY, DONE, choice
from wotr_env.engine.determinize import determinize
from wotr_env.engine.digest import digest
from wotr_env.engine.invariants import check
from wotr_env.engine.text import text

ROOT = Path(__file__).parents[2]
FP_HAND = ["fp-char-09-athelas", "fp-strat-09-the-red-arrow"]
SH_HAND = ["sh-char-05-orc-patrol", "sh-strat-06-stormcrow", "sh-strat-03-denethors-folly"]
BOARD = ("army", "box", "reserve", "casualties", "control", "politics", "active", "char_at",
         "char_in_box", "hunt_box", "dice", "dice_pool", "rings", "ring_used")


def hidden_game() -> WotrState:
    """Hands of both sides, face-down discards of both, drawn tiles: every hidden kind."""
    s = build({"hands": {"free_peoples": FP_HAND, "shadow": SH_HAND},
               "dice": {"free_peoples": ["character", "event"], "shadow": ["army", "muster"]},
               "hunt": {"drawn": ["std-3-1"]}, "seed": 4})
    for side in (FREE_PEOPLES, SHADOW):  # one face-down discard from each deck of each side
        for deck in (2 * side, 2 * side + 1):
            s.face_down[side].append(s.decks[deck].pop(0))
    assert check(s) == []
    return s


def random_game(seed: int, decisions: int, ruleset: str = "2e") -> WotrState:
    s = new_state(seed, ruleset)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        if s.over:
            break
        opts = s.pending.options
        play(s, opts[int(rng.integers(len(opts)))])
    return s


def per_deck(state: WotrState, cards: list[int]) -> list[int]:
    return [int(x) for x in np.bincount(state.ruleset.cards.event_deck[cards], minlength=4)] \
        if cards else [0, 0, 0, 0]


def deck_of(state: WotrState, cards: list[int]) -> list[int]:
    return [int(state.ruleset.cards.event_deck[c]) for c in cards]


def name(state: WotrState, cid: str) -> str:
    return state.ruleset.cards.events[state.ruleset.cards.card(cid)].name


# -- determinize ----------------------------------------------------------------------------------


@pytest.mark.parametrize("observer", [FREE_PEOPLES, SHADOW])
def test_a_sample_keeps_what_the_observer_sees(observer: int) -> None:
    """The observer's hand and face-down cards, the board, the Fellowship, the Hunt Box, dice,
    rings, discards, table and log are kept; the opponent's hand keeps its size per deck, its
    face-down cards their decks, every deck its size, the pool its contents; the observer's
    view in words is the same (issue 27: sizes per deck are public)."""
    for seed in range(6):
        s = random_game(seed, 25 + 7 * seed)
        s.face_down[1 - observer].append(s.decks[2 * (1 - observer)].pop())
        s.face_down[observer].append(s.decks[2 * observer + 1].pop())
        before = digest(s)
        d = determinize(s, observer, np.random.default_rng(seed))
        assert digest(s) == before  # the true state is untouched
        assert check(d) == []
        opp = 1 - observer
        assert d.hands[observer] == s.hands[observer]
        assert d.face_down[observer] == s.face_down[observer]
        assert per_deck(d, d.hands[opp]) == per_deck(s, s.hands[opp])
        assert deck_of(d, d.face_down[opp]) == deck_of(s, s.face_down[opp])
        assert [len(x) for x in d.decks] == [len(x) for x in s.decks]
        for deck in (2 * observer, 2 * observer + 1):
            assert sorted(d.decks[deck]) == sorted(s.decks[deck])
        assert sorted(d.hunt_pool) == sorted(s.hunt_pool)
        for field in BOARD:
            assert (getattr(d, field) == getattr(s, field)).all(), field
        assert (d.discards, d.table, d.log, d.hunt_drawn) == (
            s.discards, s.table, s.log, s.hunt_drawn)
        assert (d.fellowship_region, d.progress, d.revealed, d.corruption, d.guide) == (
            s.fellowship_region, s.progress, s.revealed, s.corruption, s.guide)
        assert text(d, observer) == text(s, observer)


@pytest.mark.parametrize("observer", [FREE_PEOPLES, SHADOW])
def test_a_sample_is_a_function_of_the_observers_view(observer: int) -> None:
    """Two states that differ only in what the observer cannot see (the opponent's cards in hand
    and face down, every deck's order, the pool's order, the generator) give equal samples from
    equal generators; a difference the observer sees gives different samples."""
    a = hidden_game()
    b = a.clone()
    opp = 1 - observer
    for deck in (2 * opp, 2 * opp + 1):  # swap a card of each hidden place with the draw pile
        i = next(i for i, c in enumerate(b.hands[opp]) if b.ruleset.cards.event_deck[c] == deck)
        b.hands[opp][i], b.decks[deck][0] = b.decks[deck][0], b.hands[opp][i]
        j = next(j for j, c in enumerate(b.face_down[opp])
                 if b.ruleset.cards.event_deck[c] == deck)
        b.face_down[opp][j], b.decks[deck][1] = b.decks[deck][1], b.face_down[opp][j]
    for deck in b.decks:
        deck.reverse()
    b.hunt_pool.reverse()
    b.chance = Chance(np.random.default_rng(99))
    b.chance.script(rolls=([6], [6]))
    assert check(b) == [] and digest(a) != digest(b)
    assert text(a, observer) == text(b, observer)
    assert digest(determinize(a, observer, 7)) == digest(determinize(b, observer, 7))
    seen = a.clone()
    seen.hands[observer][0], seen.decks[2 * observer][0] = \
        seen.decks[2 * observer][0], seen.hands[observer][0]
    assert digest(determinize(seen, observer, 7)) != digest(determinize(a, observer, 7))


def test_the_hidden_parts_are_drawn_again() -> None:
    """Samples differ in the opponent's hand and face-down cards, the deck orders (the
    observer's own too) and the pool's order; chance gets a new generator and no script; the
    same generator gives the same sample."""
    s = hidden_game()
    s.chance.script(rolls=([1, 1], [2]))
    samples = [determinize(s, FREE_PEOPLES, seed) for seed in range(12)]
    assert len({tuple(d.hands[SHADOW]) for d in samples}) > 1
    assert len({tuple(d.face_down[SHADOW]) for d in samples}) > 1
    assert len({tuple(d.decks[0]) for d in samples}) > 1  # the observer's own deck order
    assert len({tuple(d.hunt_pool) for d in samples}) > 1
    for d in samples:
        assert not any(d.chance.rolls)
        assert not d.chance.tiles and not d.chance.companions
    assert len({repr(d.chance.rng.bit_generator.state) for d in samples}) == 12
    assert digest(determinize(s, FREE_PEOPLES, 3)) == digest(determinize(s, FREE_PEOPLES, 3))


SH_BATTLE_HAND = ["sh-strat-02-the-fighting-uruk-hai", "sh-strat-22-monsters-roused"]


def at_combat_card(ruleset: str, shadow_says: str = "yes") -> WotrState:
    """The Shadow attacks Osgiliath from North Ithilien; play runs to the first WD-15 pick of
    the Shadow (1e: after the attacker, then the defender, said whether they play a card)."""
    s = build({"ruleset": ruleset, "to_act": "shadow", "seed": 6,
               "armies": {"north-ithilien": {"sauron": {"regular": 5}},
                          "osgiliath": {"gondor": {"regular": 2}}},
               "politics": {"sauron": {"steps": 0}},
               "dice": {"shadow": ["army", "muster"], "free_peoples": ["event"]},
               "hands": {"shadow": SH_BATTLE_HAND,
                         "free_peoples": ["fp-strat-07-fear-fire-foes", "fp-char-09-athelas"]}})
    play(s, ("die", ARMY), ("action", "attack"))
    while s.pending.kind != WD.COMBAT_CARD:
        play(s, DONE if DONE in s.pending.options else s.pending.options[0])
    if not s.pending.secret:  # 1e: the attacker, then the defender, say yes or no (public)
        play(s, choice(shadow_says), choice("yes"))
    assert (s.pending.kind, s.pending.player, s.pending.secret) == (WD.COMBAT_CARD, SHADOW, True)
    return s


def round_frame(s: WotrState) -> Round:
    return next(f for f in reversed(s.stack) if isinstance(f, Round))


@pytest.mark.parametrize("ruleset", ["2e", "1e"])
def test_a_combat_card_not_yet_revealed_is_chosen_again(ruleset: str) -> None:
    """WD-15: the Shadow's secret combat card is hidden from the Free Peoples until the reveal;
    a Free Peoples sample makes the Shadow's choice again from its sampled hand, "none" included
    in 2e (whether a card was chosen is hidden too); the Shadow's own sample keeps it (spec §7.6,
    facts §7.2; issue 27)."""
    s = at_combat_card(ruleset)
    chosen = s.ruleset.cards.card(SH_BATTLE_HAND[0])
    play(s, ("card", chosen))
    assert (s.pending.player, round_frame(s).held) == (FREE_PEOPLES, (chosen,))
    picks = set()
    for seed in range(40):
        d = determinize(s, FREE_PEOPLES, seed)
        assert check(d) == []
        rnd = round_frame(d)
        assert rnd.held == ((rnd.cards[SHADOW],) if rnd.cards[SHADOW] >= 0 else ())
        assert rnd.cards[SHADOW] not in d.hands[SHADOW]
        assert len(d.hands[SHADOW]) + len(rnd.held) == len(SH_BATTLE_HAND)
        assert d.pending == s.pending  # the observer's own question
        picks.add(rnd.cards[SHADOW])
    assert len(picks) > 2
    assert (-1 in picks) is (ruleset == "2e")  # 1e: the Shadow said it plays a card
    assert round_frame(s).held == (chosen,)  # the true state is untouched
    own = determinize(s, SHADOW, 0)
    assert round_frame(own).held == (chosen,) and own.hands[SHADOW] == s.hands[SHADOW]


def test_which_combat_card_was_chosen_does_not_show_in_a_sample() -> None:
    """Two games that differ only in the Shadow's secret combat card (a card or none) give the
    Free Peoples equal samples (issue 27: combat cards chosen and not yet revealed are hidden)."""
    games = []
    for pick in (("card", 0), ("card", 1), choice("none")):
        s = at_combat_card("2e")
        if pick[0] == "card":
            pick = ("card", s.ruleset.cards.card(SH_BATTLE_HAND[pick[1]]))
        play(s, pick)
        games.append(s)
    assert len({digest(g) for g in games}) == 3
    assert len({digest(determinize(g, FREE_PEOPLES, 5)) for g in games}) == 1
    assert len({text(g, FREE_PEOPLES) for g in games}) == 1  # the hand sizes count it in hand
    assert len({text(g, SHADOW) for g in games}) == 3


def test_the_opponents_pending_decision_is_asked_of_the_sample() -> None:
    """WD-01 pending for the Shadow: its options (the cards in its hand) are those of the sampled
    hand, so they tell the observer nothing (spec §7.2)."""
    s = build({"start": "turn", "seed": 2,
               "hands": {"shadow": SH_HAND + ["sh-char-06-isildurs-bane",
                                              "sh-strat-01-return-to-valinor"]}})
    assert s.pending.kind == WD.DISCARD and s.pending.player == SHADOW
    for seed in range(4):
        d = determinize(s, FREE_PEOPLES, seed)
        assert d.pending.kind == WD.DISCARD and d.pending.player == SHADOW
        assert set(d.pending.options) == {("card", c) for c in d.hands[SHADOW]}
    own = determinize(s, SHADOW, 0)
    assert own.pending == s.pending


def test_samples_along_random_games_are_sound() -> None:
    """Every 5th decision of random games in both editions: each side's sample holds the
    invariants and shows that side the same position in words."""
    for ruleset in ("2e", "1e"):
        s = new_state(21, ruleset, max_turns=4)
        rng = np.random.default_rng(21)
        n = 0
        while not s.over:
            if n % 5 == 0:
                for side in (FREE_PEOPLES, SHADOW):
                    d = determinize(s, side, rng)
                    assert check(d) == [] and text(d, side) == text(s, side)
            opts = s.pending.options
            play(s, opts[int(rng.integers(len(opts)))])
            n += 1


# -- digest ---------------------------------------------------------------------------------------


def test_digest_tells_apart_every_part_of_a_game() -> None:
    """Equal games, equal digests; a change to any part (an array, a pile's order, a frame's
    field, the pending decision, the turn, the Fellowship, the generator) changes it."""
    s = hidden_game()
    assert digest(s) == digest(s.clone())
    changes = [
        lambda x: x.army.__setitem__((0, 0, 0), 1),
        lambda x: x.decks[0].reverse(),
        lambda x: x.hands[0].reverse(),
        lambda x: setattr(x.stack[-1], "side", 1 - x.stack[-1].side),
        lambda x: setattr(x, "pending", Decision(x.pending.player, x.pending.kind,
                                                 x.pending.options[:-1])),
        lambda x: setattr(x, "turn", x.turn + 1),
        lambda x: setattr(x, "phase", 6),
        lambda x: setattr(x, "winner", SHADOW),
        lambda x: setattr(x, "progress", 2),
        lambda x: setattr(x, "revealed", True),
        lambda x: x.chance.roll(SHADOW),
        lambda x: x.chance.script(tiles=[3]),
        lambda x: x.hunt_pool.reverse(),
        lambda x: x.log.append((1, "test")),
    ]
    seen = {digest(s)}
    for change in changes:
        other = s.clone()
        change(other)
        seen.add(digest(other))
    assert len(seen) == len(changes) + 1


def test_digest_refuses_a_value_without_a_stable_form() -> None:
    """A frame field of an unknown type raises TypeError naming the field, rather than hashing
    an address."""

    @dataclass
    class Odd(Frame):
        thing: object

    s = hidden_game()
    s.stack.append(Odd(object()))
    with pytest.raises(TypeError, match=r"stack\[\d+\]\.thing holds a object"):
        digest(s)


def test_the_same_seed_and_choices_give_the_same_digest_in_another_process() -> None:
    """Issue 27, item 4: a game replayed in another process (another hash seed) ends with the same
    digest."""
    script = textwrap.dedent("""
        import numpy as np
        from wotr_env.engine import new_state, play
        from wotr_env.engine.digest import digest
        s = new_state(8, "RULESET", max_turns=3)
        rng = np.random.default_rng(8)
        while not s.over:
            opts = s.pending.options
            play(s, opts[int(rng.integers(len(opts)))])
        print(digest(s))
    """)
    for ruleset in ("2e", "1e"):
        code = script.replace("RULESET", ruleset)
        outs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, text=True,
                               capture_output=True, env={"PYTHONHASHSEED": str(h),
                                                         "PATH": "/usr/bin:/bin"}).stdout.strip()
                for h in (1, 2)]
        local: dict = {}
        exec(compile(code.replace("print(digest(s))", "out = digest(s)"), "<replay>", "exec"),
             local)
        assert outs[0] == outs[1] == local["out"]
        assert len(local["out"]) == 64


# -- text -----------------------------------------------------------------------------------------


def test_text_shows_the_own_hand_and_never_the_others() -> None:
    """The observer sees its hand; never the other side's cards, in hand or face down, nor a
    deck's order; the referee (observer None) sees both hands (issue 27)."""
    s = hidden_game()
    fp, sh = [name(s, c) for c in FP_HAND], [name(s, c) for c in SH_HAND]
    fp_view, sh_view, referee = text(s, FREE_PEOPLES), text(s, SHADOW), text(s)
    assert all(n in fp_view for n in fp) and not any(n in fp_view for n in sh)
    assert all(n in sh_view for n in sh) and not any(n in sh_view for n in fp)
    assert all(n in referee for n in fp + sh)
    cards = s.ruleset.cards
    for c in s.face_down[SHADOW]:
        assert cards.events[c].name not in fp_view
    for c in s.face_down[FREE_PEOPLES]:
        assert cards.events[c].name not in sh_view
    assert "hand 1 character + 2 strategy" in fp_view  # the Shadow's sizes per deck are public


def test_text_does_not_change_with_what_the_observer_cannot_see() -> None:
    """The text for a side is the same whatever the other side's hand holds (sizes per deck
    kept), whatever the deck orders and the pool's order."""
    a = hidden_game()
    b = a.clone()
    shadow_deck = b.ruleset.cards.event_deck[b.hands[SHADOW][0]]
    b.hands[SHADOW][0], b.decks[shadow_deck][0] = b.decks[shadow_deck][0], b.hands[SHADOW][0]
    for deck in b.decks:
        deck.reverse()
    b.hunt_pool.reverse()
    assert text(a, FREE_PEOPLES) == text(b, FREE_PEOPLES)
    assert text(a, SHADOW) != text(b, SHADOW)
    assert text(a) != text(b)


def test_text_describes_the_position() -> None:
    """Turn and phase, politics, armies with settlements and control, characters, the
    Fellowship, the Hunt, dice, rings, hand sizes, table cards and victory points."""
    s = build({"turn": 3, "control": {"dale": "shadow", "minas-morgul": "free_peoples"},
               "armies": {"osgiliath": {"gondor": {"regular": 2, "leader": 1}}},
               "boxes": {"minas-tirith": {"gondor": {"elite": 1}}},
               "characters": {"strider": "minas-tirith", "saruman": "orthanc"},
               "fellowship": {"region": "moria", "progress": 2, "revealed": True,
                              "corruption": 4, "guide": "gandalf-the-grey"},
               "politics": {"gondor": {"steps": 1, "active": True}},
               "hunt": {"box": {"shadow": 2, "eyes": 1}, "drawn": ["std-eye-1"]},
               "dice": {"free_peoples": ["character", "will_of_the_west"],
                        "shadow": ["eye" if False else "army", "event"]},
               "rings": ["free_peoples", "shadow", "gone"],
               "table": ["fp-strat-06-faramirs-rangers"]})
    t = text(s, FREE_PEOPLES)
    for line in ("turn 3, phase 5 (action resolution)",
                 "gondor active, 1 to war",
                 "Osgiliath: fortification; gondor 2r 1l",
                 "Minas Tirith: stronghold of free_peoples; in the Stronghold: gondor 1e; "
                 "characters: Strider",
                 "Dale: city of shadow",
                 "Minas Morgul: stronghold of free_peoples",
                 "Saruman: Orthanc",
                 "fellowship: Moria, progress 2, revealed, corruption 4, guide Gandalf the Grey",
                 "hunt box: 2 shadow dice, 1 eyes, 0 free peoples dice",
                 "hunt pool (15 tiles)", "hunt drawn: eye",
                 "free_peoples dice (4 in pool): character, will_of_the_west; elven rings 1",
                 "shadow dice (7 in pool): army, event; elven rings 1",
                 "table: Faramir's Rangers",
                 "victory points: free_peoples 2, shadow 1",
                 "to play: free_peoples, WD-07 CHOOSE_DIE"):
        assert line in t, line
    mordor = build({"fellowship": {"mordor_step": 3}, "dice": {"free_peoples": ["event"],
                                                               "shadow": ["army", "event"]}})
    assert "fellowship: Mordor Track step 3" in text(mordor)
    over = build({"control": {"minas-morgul": "free_peoples", "morannon": "free_peoples"}})
    assert "free_peoples won by free-peoples-points" in text(over, SHADOW)
