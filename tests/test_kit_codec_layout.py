"""The kit's one action codec (``boardkit.codec.SegmentCodec``) and one observation layout
(``boardkit.layout.Layout``) on a small game declared here: what each gives, and declarations
or input they refuse with an error naming what was wrong."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

from boardkit.codec import Arg, Segment, SegmentCodec
from boardkit.layout import Layout, Piece

COLOURS = ("red", "blue", "green")


def toy_segments() -> list[Segment]:
    return [
        Segment("done"),
        Segment("pick", (Arg.named(COLOURS),)),
        Segment("say", (Arg.named(("yes", "no"), values=("yes", "no")),)),
        Segment("move", (Arg(2), Arg.named(COLOURS)), sep=">"),
        Segment("pair", (Arg.named(("a-b", "b-a"), values=((0, 1), (1, 0))),)),
    ]


def toy(**kwargs) -> SegmentCodec:
    return SegmentCodec("Toy", toy_segments(), **kwargs)


def test_segments_are_laid_out_in_order_first_argument_slowest():
    codec = toy()
    assert [(s.kind, s.offset, s.size) for s in codec.segments] == [
        ("done", 0, 1), ("pick", 1, 3), ("say", 4, 2), ("move", 6, 6), ("pair", 12, 2)]
    assert codec.size == 14
    assert codec.actions[6:9] == (("move", 0, 0), ("move", 0, 1), ("move", 0, 2))
    assert codec.decode(4) == ("say", "yes")  # a word in the engine's tuple
    assert codec.decode(13) == ("pair", 1, 0)  # a tuple value is spliced in
    for i in range(codec.size):
        assert codec.encode(codec.decode(i)) == i
    assert codec.encode(("move", np.int64(1), 2)) == 11  # numpy integers are the same action


def test_names():
    codec = toy()
    assert [codec.name(i) for i in (0, 2, 5, 11, 12)] == [
        "DONE", "PICK[blue]", "SAY[no]", "MOVE[1>green]", "PAIR[a-b]"]
    assert toy(bare="[]").name(0) == "DONE[]"


def test_mask_is_exact_and_written_into_a_given_row():
    codec = toy()
    mask = codec.mask([("pick", 2), ("pair", 0, 1)])
    assert mask.dtype == np.int8 and np.flatnonzero(mask).tolist() == [3, 12]
    row = np.ones(codec.size, np.int8)
    assert codec.mask([("done",)], row) is row and np.flatnonzero(row).tolist() == [0]
    assert not codec.mask([]).any()


@pytest.mark.parametrize("bad,message", [
    (("nope",), r"not an action of Toy's action space: \('nope',\)$"),
    (("pick", 3), r"\('pick', 3\) \(argument 3 outside 0..2\)$"),
    (("pick",), r"\('pick',\)$"),
    (("say", "maybe"), r"\('say', 'maybe'\)$"),
    ("pick", r"'pick'$"),
    ((), r"\(\)$")])
def test_a_bad_action_is_named(bad, message):
    codec = toy()
    with pytest.raises(ValueError, match=message):
        codec.encode(bad)
    with pytest.raises(ValueError, match=message):
        codec.mask([("done",), bad])


def test_an_index_outside_the_space_is_refused():
    codec = toy()
    for i in (-1, codec.size):
        with pytest.raises(ValueError, match=f"action index {i} is outside 0..13"):
            codec.decode(i)
        with pytest.raises(ValueError, match="outside"):
            codec.name(i)


def test_bad_declarations_are_refused():
    with pytest.raises(ValueError, match="two segments of one kind"):
        SegmentCodec("Toy", [Segment("done"), Segment("done")])
    with pytest.raises(ValueError, match="two indices decode to one action"):
        SegmentCodec("Toy", [Segment("x", (Arg(2, values=(1, 1)),))])
    with pytest.raises(ValueError, match="an argument of 3 values has 2 labels"):
        Arg(3, labels=("a", "b"))
    with pytest.raises(ValueError, match="size must be >= 0"):
        Arg(-1)


class Writer:
    """A stand-in for a game's compiled mask writer: sets plain indices, gives up on words."""

    def __init__(self, segments, size):
        self.offsets = {s.kind: s.offset for s in segments}

    def write(self, out, options):
        out[...] = 0
        for o in options:
            if o[0] != "pick":
                return False
            out[self.offsets["pick"] + o[1]] = 1
        return True


def writer(segments, size):
    return Writer(segments, size)


def test_a_mask_writer_is_used_falls_back_and_is_rebuilt_after_pickling():
    codec = toy(mask_writer=writer)
    assert codec.compiled and not toy().compiled
    for options in ([("pick", 0)], [("pick", 0), ("say", "no")]):
        assert np.array_equal(codec.mask(options), toy().mask(options))
    with pytest.raises(ValueError, match=r"\('pick', 7\)"):
        codec.mask([("say", "no"), ("pick", 7)])
    again = pickle.loads(pickle.dumps(codec))
    assert again.compiled and again._writer is not codec._writer
    assert np.array_equal(again.mask([("pick", 1)]), codec.mask([("pick", 1)]))


def test_the_codec_describes_itself():
    assert toy().describe().splitlines()[:4] == [
        "| segment | offset | size | first name |", "|---|---|---|---|",
        "| DONE | 0 | 1 | DONE |", "| PICK | 1 | 3 | PICK[red] |"]


def toy_layout() -> Layout:
    return Layout([Piece("board", (2, 3), 4.0, "stones"), Piece("nothing", (0,)),
                   Piece("turn", (1,), 9.0), Piece("flags", (2,), doc="two flags")])


def test_a_layout_places_its_pieces_in_one_buffer():
    layout = toy_layout()
    assert layout.size == 9 and len(layout) == 4
    assert layout.offsets == {"board": 0, "nothing": 6, "turn": 6, "flags": 7}
    assert layout.slices["flags"] == slice(7, 9)
    assert layout.high.tolist() == [4.0] * 6 + [9.0, 1.0, 1.0]
    assert not layout.high.flags.writeable
    vector = np.arange(9, dtype=np.float32)
    views = layout.views(vector)
    assert views["board"].shape == (2, 3) and views["board"][1, 0] == 3
    views["turn"][0] = 42
    assert vector[6] == 42  # a view, not a copy
    assert [layout.piece_at(i).name for i in range(9)] == ["board"] * 6 + ["turn"] + ["flags"] * 2
    assert layout["turn"].high == 9.0


def test_a_layout_refuses_bad_pieces_and_vectors():
    with pytest.raises(ValueError, match="two pieces named 'a'"):
        Layout([Piece("a", (1,)), Piece("a", (2,))])
    with pytest.raises(ValueError, match=r"piece 'a': a shape of sizes >= 0, got \(-1,\)"):
        Piece("a", (-1,))
    for high in (math.nan, math.inf, -1.0):
        with pytest.raises(ValueError, match="piece 'a': high must be finite and >= 0"):
            Piece("a", (1,), high)
    layout = toy_layout()
    with pytest.raises(ValueError, match=r"a vector of 9 values expected, got shape \(8,\)"):
        layout.views(np.zeros(8, np.float32))
    with pytest.raises(IndexError, match="index 9 outside the layout's 0..8"):
        layout.piece_at(9)
    with pytest.raises(KeyError, match="no piece 'x'"):
        layout["x"]


def test_the_layout_describes_itself():
    assert toy_layout().describe().splitlines() == [
        "| piece | offset | shape | high | holds |", "|---|---|---|---|---|",
        "| board | 0 | (2, 3) | 4 | stones |", "| nothing | 6 | (0,) | 1 |  |",
        "| turn | 6 | (1,) | 9 |  |", "| flags | 7 | (2,) | 1 | two flags |"]
