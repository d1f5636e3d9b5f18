# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled half of AGoT's :meth:`boardkit.codec.SegmentCodec.mask` (handed to the kit's
codec as its ``mask_writer``): an action's index computed from its kind's segment (offset and
argument ranges, a mixed radix), not looked up in the codec's table of every action.

Why: the mask is built at every step, and right after the engine has run, the codec's table of
1,700 tuples is cold in the cache: a look-up per option cost more than the rest of the mask.
The pure-Python path (``SegmentCodec.indices``) stays the reference and gives the error
messages: whenever an option is not an action of the space, ``write`` says so and the codec
falls back to it. ``tests/test_compiled_core.py`` compares the two on every decision of random games.
"""

from cpython.buffer cimport PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from libc.string cimport memset

cdef enum:
    MAX_KINDS = 32
    MAX_ARGS = 4


cdef class MaskWriter:
    """Built once per codec from its segments: ``(kind, offset, shape)`` in order."""

    cdef dict kinds
    cdef Py_ssize_t size
    cdef Py_ssize_t offset[MAX_KINDS]
    cdef Py_ssize_t nargs[MAX_KINDS]
    cdef Py_ssize_t radix[MAX_KINDS][MAX_ARGS]

    def __init__(self, segments, Py_ssize_t size):
        cdef Py_ssize_t k, j
        if len(segments) > MAX_KINDS:
            raise ValueError(f"at most {MAX_KINDS} action kinds, got {len(segments)}")
        self.kinds = {}
        self.size = size
        for k, (kind, offset, shape) in enumerate(segments):
            if len(shape) > MAX_ARGS:
                raise ValueError(f"{kind}: at most {MAX_ARGS} arguments, got {len(shape)}")
            self.kinds[kind] = k
            self.offset[k] = offset
            self.nargs[k] = len(shape)
            for j, n in enumerate(shape):
                self.radix[k][j] = n

    def write(self, out, options) -> bool:
        """Zero ``out`` (int8, the action space's size) and set 1 at every option's index.
        False, with ``out`` left half-written, when an option is not an action of this space
        (the caller then takes the reference path, which names it)."""
        cdef Py_buffer b
        cdef signed char* m
        cdef Py_ssize_t k, j, n, v, index
        cdef object kind_index
        cdef tuple action
        PyObject_GetBuffer(out, &b, PyBUF_WRITABLE)
        try:
            if b.len != self.size:
                raise ValueError(f"out: expected {self.size} bytes (int8 of the action space's "
                                 f"size), got {b.len}")
            m = <signed char*> b.buf
            memset(m, 0, self.size)
            for option in options:
                if type(option) is not tuple or len(<tuple> option) == 0:
                    return False
                action = <tuple> option
                kind_index = self.kinds.get(action[0])
                if kind_index is None:
                    return False
                k = kind_index
                n = self.nargs[k]
                if len(action) != n + 1:
                    return False
                index = 0
                for j in range(n):
                    try:
                        v = action[j + 1]
                    except (TypeError, OverflowError):  # not an integer
                        return False
                    if v < 0 or v >= self.radix[k][j]:
                        return False
                    index = index * self.radix[k][j] + v
                m[self.offset[k] + index] = 1
            return True
        finally:
            PyBuffer_Release(&b)
