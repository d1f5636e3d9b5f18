# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled half of :class:`got_env.encoding.ObservationEncoder`: one observer's vector
written straight from the state's arrays, in C loops, all but the few pieces that read the
engine's stack (the pending decision's context, ``orders_placed``, the combat in progress).

Why: the pure-Python encoder needs a few dozen numpy calls per observation (about a microsecond
each, whatever the size), which made ``encode`` most of the AEC loop. Here every piece is a loop
over at most a few hundred bytes. The pure-Python path stays the definition of the observation:
``tests/test_compiled_core.py`` encodes the states of random and recorded games both ways
and requires equal vectors, and ``GOT_ENV_PURE_PYTHON=1`` turns this module off.

Only the buffer protocol is used, as raw ``Py_buffer`` views (a typed memoryview costs about
0.3 us to acquire, more than the loops here), not numpy's C API, so the build needs Cython
alone and the module works with any numpy. The state's int8 and bool arrays are read as bytes;
each one's byte length is checked, so a wrong dtype or shape is an error, never a stray read.
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from libc.string cimport memcpy

#: The state's arrays that ``BoardWriter.write`` takes, in this order.
ARRAYS = ("units", "routed", "control", "power_tokens", "garrisons", "neutral_forces",
          "impassable", "in_play", "tracks", "supply", "power", "card_place", "orders",
          "order_bans", "westeros_drawn", "westeros_decks", "wildling_deck",
          "wildling_known_top")
cdef enum:
    NUM_ARRAYS = 18
    MAX_HOUSES = 16


cdef class BoardWriter:
    """Built once per encoder: the offsets and sizes read from the observation's layout table,
    the observers' templates and house permutations, the card tables. ``write`` fills one
    observer's vector."""

    cdef Py_ssize_t A, H, U, T, N, C, K, S, B, D, W, P, KD, WC, size
    cdef Py_ssize_t o_units, o_routed, o_control, o_order, o_tokens, o_garrison, o_neutral
    cdef Py_ssize_t o_impassable, o_in_play, o_track, o_supply, o_power, o_vp, o_cards
    cdef Py_ssize_t o_westeros, o_bans, o_threat, o_wildling_top, o_round, o_phase, o_blade
    cdef Py_ssize_t o_raven, o_kind, o_player
    cdef const float[:, ::1] templates
    cdef const long long[:, ::1] to_rel
    cdef const long long[::1] card_owner, card_slot, place_code
    cdef const signed char[::1] fort
    cdef Py_ssize_t lengths[NUM_ARRAYS]

    def __init__(self, dict pieces, templates, to_rel, card_owner, card_slot, place_code, fort):
        """``pieces``: the observation's layout table, each piece's flat offset and shape by
        name (built by the encoder from ``observation.layout``). Every offset and size used
        here is read from it, so that the layout has one copy; each piece written is checked
        to have the shape the loops below assume (``_offset``), so that a layout edited
        without this writer is an error here, never a vector written askew. The sizes: areas
        A, houses H, unit types U, order tokens T, tracks N, cards per house K and the places
        a card is shown in S, order bans B, Westeros decks D and their cards W, phases P,
        decision kinds KD, wildling cards WC.

        ``templates[o]``: observer o's vector with the static pieces; ``to_rel[o, h]``: house
        h's slot for observer o; the card tables as in the encoder; ``fort[a]``: area a has a
        castle or stronghold."""
        cdef dict dims = {}
        self.o_units = _offset(pieces, "units", ("A", "H", "U"), dims)
        self.o_routed = _offset(pieces, "routed", ("A", "H", "U"), dims)
        self.o_control = _offset(pieces, "control", ("A", "H"), dims)
        self.o_order = _offset(pieces, "order", ("A", "T"), dims)
        self.o_tokens = _offset(pieces, "power_tokens", ("A", "H"), dims)
        self.o_garrison = _offset(pieces, "garrison", ("A",), dims)
        self.o_neutral = _offset(pieces, "neutral_force", ("A",), dims)
        self.o_impassable = _offset(pieces, "impassable", ("A",), dims)
        self.o_in_play = _offset(pieces, "in_play", ("H",), dims)
        self.o_track = _offset(pieces, "track_position", ("N", "H", "H"), dims)
        self.o_supply = _offset(pieces, "supply", ("H",), dims)
        self.o_power = _offset(pieces, "power", ("H",), dims)
        self.o_vp = _offset(pieces, "victory_points", ("H",), dims)
        self.o_cards = _offset(pieces, "cards", ("H", "K", "S"), dims)
        self.o_westeros = _offset(pieces, "westeros_revealed", ("D", "W"), dims)
        self.o_bans = _offset(pieces, "order_bans", ("B",), dims)
        self.o_threat = _offset(pieces, "wildling_threat", (1,), dims)
        self.o_wildling_top = _offset(pieces, "wildling_top_known", ("WC",), dims)
        self.o_round = _offset(pieces, "round", (1,), dims)
        self.o_phase = _offset(pieces, "phase", ("P",), dims)
        self.o_blade = _offset(pieces, "blade_used", (1,), dims)
        self.o_raven = _offset(pieces, "raven_used", (1,), dims)
        self.o_kind = _offset(pieces, "decision_kind", ("KD",), dims)
        self.o_player = _offset(pieces, "decision_player", ("H",), dims)
        self.A, self.H, self.U, self.T = dims["A"], dims["H"], dims["U"], dims["T"]
        self.N, self.K, self.S, self.B = dims["N"], dims["K"], dims["S"], dims["B"]
        self.D, self.W, self.P = dims["D"], dims["W"], dims["P"]
        self.KD, self.WC = dims["KD"], dims["WC"]
        if self.H > MAX_HOUSES:
            raise ValueError(f"at most {MAX_HOUSES} houses, got {self.H}")
        self.size = max(offset + _count(shape) for offset, shape in pieces.values())
        self.templates = templates
        self.to_rel = to_rel
        self.card_owner, self.card_slot, self.place_code = card_owner, card_slot, place_code
        self.C = card_owner.shape[0]
        self.fort = fort
        # the tables' values become indices into the vector: checked once here, against the
        # layout's sizes
        _check("templates", templates.shape == (self.H, self.size))
        _check("to_rel", to_rel.shape == (self.H, self.H)
               and all(0 <= r < self.H for r in to_rel.ravel().tolist()))
        _check("card_owner", all(0 <= h < self.H for h in card_owner.tolist()))
        _check("card_slot", card_slot.shape[0] == self.C
               and all(0 <= k < self.K for k in card_slot.tolist()))
        _check("place_code", all(-1 <= c < self.S for c in place_code.tolist()))
        _check("fort", fort.shape[0] == self.A)
        A, H, AHU = self.A, self.H, self.A * self.H * self.U
        # byte lengths of ARRAYS (-1: any: the Westeros decks' length is read from the buffer,
        # the wildling deck is empty in the 1st edition)
        for i, n in enumerate((AHU, AHU, A, A, A, A, A, H, self.N * H, H, H, self.C, A, self.B,
                               self.D, -1, -1, H)):
            self.lengths[i] = n

    def write(self, out, Py_ssize_t o, bint all_orders, Py_ssize_t observer, tuple arrays,
              Py_ssize_t phase, bint westeros, Py_ssize_t round_, Py_ssize_t threat,
              bint blade_used, bint raven_used, Py_ssize_t kind, Py_ssize_t player,
              bint looking):
        """Observer ``o``'s vector written into ``out`` (float32, the vector's size): its
        template, the board pieces, the visible orders (every order if ``all_orders``, else
        those in areas ``observer`` controls), the public scalars, and the pending decision's
        kind and player (``kind`` 0: none).

        ``arrays``: the state's arrays in ``ARRAYS`` order. ``westeros``: in the Westeros phase
        (its face-up cards shown); ``looking``: the observer is looking at the top wildling card
        with the Raven now; ``observer`` -1: the full-information view (no wildling card)."""
        cdef Py_buffer b[NUM_ARRAYS + 1]
        cdef const signed char* p[NUM_ARRAYS]
        cdef Py_ssize_t i, taken = 0
        cdef object bad
        if len(arrays) != NUM_ARRAYS:
            raise ValueError(f"arrays: expected the {NUM_ARRAYS} arrays of ARRAYS, got "
                             f"{len(arrays)}")
        try:
            PyObject_GetBuffer(out, &b[0], PyBUF_WRITABLE)
            taken = 1
            if b[0].len != self.size * 4:
                raise ValueError(f"out: expected {self.size * 4} bytes (float32 of the "
                                 f"observation's size), got {b[0].len}")
            for i in range(NUM_ARRAYS):
                PyObject_GetBuffer(arrays[i], &b[i + 1], PyBUF_SIMPLE)
                taken += 1
                if self.lengths[i] >= 0 and b[i + 1].len != self.lengths[i]:
                    raise ValueError(f"{ARRAYS[i]}: expected {self.lengths[i]} bytes (an int8 "
                                     f"or bool array of the ruleset's shape), got "
                                     f"{b[i + 1].len}")
                p[i] = <const signed char*> b[i + 1].buf
            bad = self._bad_index(o, observer, phase, kind, player, p, b[16].len, b[17].len)
            if bad is not None:
                raise ValueError(f"{bad}: a value outside its range (a corrupt state?); "
                                 f"nothing was written")
            self._board(<float*> b[0].buf, o, all_orders, observer, p)
            self._public(<float*> b[0].buf, o, observer, phase, westeros, round_, threat,
                         blade_used, raven_used, kind, player, looking, p, b[16].len, b[17].len)
        finally:
            for i in range(taken):
                PyBuffer_Release(&b[i])

    cdef object _bad_index(self, Py_ssize_t o, Py_ssize_t observer, Py_ssize_t phase,
                           Py_ssize_t kind, Py_ssize_t player, const signed char** p,
                           Py_ssize_t decks_size, Py_ssize_t deck_size):
        """The name of the first argument or array holding a value that ``_board`` or
        ``_public`` would use as an index out of its range, else None: a corrupt state gets an
        error, never a write outside the vector."""
        cdef Py_ssize_t i, v, deck_length = decks_size // self.D if self.D else 0
        if not 0 <= o < self.H:
            return "observer slot"
        if not -1 <= observer < self.H:
            return "observer"
        if not 0 <= phase < self.P:
            return "phase"
        if not 0 <= kind <= self.KD or (kind > 0 and not 0 <= player < self.H):
            return "pending decision"
        for i in range(self.A):
            if not -1 <= p[2][i] < self.H:
                return "control"
            if not -1 <= p[3][i] < self.H:
                return "power_tokens"
            if not -1 <= p[12][i] < self.T:
                return "orders"
        for i in range(self.N * self.H):
            if not -1 <= p[8][i] < self.H:
                return "tracks"
        for i in range(self.C):
            if not 0 <= p[11][i] + 1 < self.place_code.shape[0]:
                return "card_place"
        for i in range(self.D):
            v = p[14][i]
            if not 0 <= v <= deck_length:
                return "westeros_drawn"
            if v > 0 and not 0 <= p[15][i * deck_length + v - 1] < self.W:
                return "westeros_decks"
        if deck_size > 0 and not 0 <= p[16][0] < self.WC:
            return "wildling_deck"
        for i in range(self.H):
            if not -1 <= p[17][i] < self.WC:
                return "wildling_known_top"
        return None

    cdef void _board(self, float* out, Py_ssize_t o, bint all_orders, Py_ssize_t observer,
                     const signed char** p) noexcept:
        """The template, every piece up to "cards", and the visible orders."""
        cdef Py_ssize_t A = self.A, H = self.H, U = self.U
        cdef Py_ssize_t a, h, u, t, pos, c, code, r, held, i
        cdef const long long* rel = &self.to_rel[o, 0]
        cdef const signed char* units = p[0]
        cdef const signed char* routed = p[1]
        cdef const signed char* ctrl = p[2]
        cdef const signed char* tokens = p[3]
        cdef const signed char* in_play = p[7]
        cdef const signed char* tracks = p[8]
        cdef const signed char* orders = p[12]
        cdef long long vp[MAX_HOUSES]
        cdef signed char v
        memcpy(out, &self.templates[o, 0], self.size * sizeof(float))
        for h in range(H):
            vp[h] = 0
        for a in range(A):
            for h in range(H):
                r = rel[h]
                for u in range(U):
                    i = (a * H + h) * U + u
                    v = units[i]
                    if v:
                        out[self.o_units + (a * H + r) * U + u] = v
                    v = routed[i]
                    if v:
                        out[self.o_routed + (a * H + r) * U + u] = v
            held = ctrl[a]
            if held >= 0:
                out[self.o_control + a * H + rel[held]] = 1
                if self.fort[a]:
                    vp[held] += 1
            if tokens[a] >= 0:
                out[self.o_tokens + a * H + rel[tokens[a]]] = 1
            out[self.o_garrison + a] = p[4][a]
            out[self.o_neutral + a] = p[5][a]
            out[self.o_impassable + a] = p[6][a]
            if orders[a] >= 0 and (all_orders or held == observer):
                out[self.o_order + a * self.T + orders[a]] = 1
        for h in range(H):
            r = rel[h]
            out[self.o_in_play + r] = in_play[h]
            out[self.o_supply + r] = p[9][h]
            out[self.o_power + r] = p[10][h]
            out[self.o_vp + r] = vp[h] if in_play[h] else 0
        for t in range(self.N):
            for pos in range(H):
                h = tracks[t * H + pos]
                if h >= 0:
                    out[self.o_track + (t * H + rel[h]) * H + pos] = 1
        for c in range(self.C):
            code = self.place_code[p[11][c] + 1]
            if code >= 0:
                out[self.o_cards + (rel[self.card_owner[c]] * self.K + self.card_slot[c]) * self.S
                    + code] = 1

    cdef void _public(self, float* out, Py_ssize_t o, Py_ssize_t observer, Py_ssize_t phase,
                      bint westeros, Py_ssize_t round_, Py_ssize_t threat, bint blade_used,
                      bint raven_used, Py_ssize_t kind, Py_ssize_t player, bint looking,
                      const signed char** p, Py_ssize_t decks_size,
                      Py_ssize_t deck_size) noexcept:
        """The pieces from "westeros_revealed" to "decision_player"."""
        cdef const signed char* drawn = p[14]
        cdef const signed char* decks = p[15]
        cdef Py_ssize_t i, k, top, known
        cdef Py_ssize_t deck_length = decks_size // self.D if self.D else 0
        if westeros:
            for i in range(self.D):
                k = drawn[i]
                if k > 0:
                    out[self.o_westeros + i * self.W + decks[i * deck_length + k - 1]] = 1
        for i in range(self.B):
            out[self.o_bans + i] = p[13][i]
        out[self.o_threat] = threat
        if observer >= 0 and deck_size > 0:  # the 1st edition has no wildling deck
            top = p[16][0]
            known = p[17][observer]
            if looking or (known >= 0 and known == top):
                out[self.o_wildling_top + top] = 1  # 2e §10.4: he sees the card
        out[self.o_round] = round_
        out[self.o_phase + phase] = 1
        out[self.o_blade] = blade_used
        out[self.o_raven] = raven_used
        if kind > 0:
            out[self.o_kind + kind - 1] = 1
            out[self.o_player + self.to_rel[o, player]] = 1



cdef Py_ssize_t _count(tuple shape):
    """The number of values of a piece of ``shape``."""
    cdef Py_ssize_t n = 1
    for size in shape:
        n *= size
    return n


cdef Py_ssize_t _offset(dict pieces, str name, tuple axes, dict dims) except -1:
    """Piece ``name``'s offset in the layout table ``pieces``, once its shape is checked
    against ``axes``, the shape the writer assumes of it: an int is a fixed size, a name the
    size of that axis wherever it recurs (bound in ``dims`` where it first appears)."""
    if name not in pieces:
        raise ValueError(f"the observation's layout has no piece {name!r}, which the compiled "
                         f"writer fills")
    offset, shape = pieces[name]
    shape = tuple(shape)
    if len(shape) != len(axes) or any(
            size != (axis if isinstance(axis, int) else dims.setdefault(axis, size))
            for axis, size in zip(axes, shape)):
        raise ValueError(f"the observation's piece {name!r} has shape {shape}; the compiled "
                         f"writer fills it as {axes} with {dims} (change _board.pyx with the "
                         f"layout)")
    return offset


cdef void _check(str table, bint fits) except *:
    """A ``BoardWriter`` table that does not fit the layout's sizes is an error."""
    if not fits:
        raise ValueError(f"{table}: a shape or value that does not fit the observation's "
                         f"layout")
