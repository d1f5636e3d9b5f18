# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Typed twins of the engine's hottest loops over the units array (the compiled core's
engine part; the engine's modules themselves run as Python): army sizes, units in use, who
occupies each area, and the supply check. Each gives exactly what its pure-Python
reference gives (``board._army_size_list_of``, ``board._used_units_of``,
``GameState._occupants_scan``, ``board._fits_limits``; ``tests/test_engine_kernels.py``
compares them), and the engine calls it through ``got_env._compiled.engine_kernels`` (None
when this module was not built or ``GOT_ENV_PURE_PYTHON`` is set).

A function given a units array it does not expect (not a C-contiguous int8 array of three
dimensions) returns None, and the caller takes its reference path: no state can be read
wrong."""

from cpython.buffer cimport PyBUF_FORMAT, PyBUF_STRIDES, PyBuffer_Release, PyObject_GetBuffer

cdef enum:
    MAX_HOUSES = 16
    MAX_TYPES = 16
    MAX_ARMIES = 64


cdef bint _units_buffer(object units, Py_buffer* b) except -1:
    """Take ``units``' buffer; False (released) when it is not C-contiguous int8 [A, H, U]."""
    PyObject_GetBuffer(units, b, PyBUF_STRIDES | PyBUF_FORMAT)
    if (b.ndim != 3 or b.itemsize != 1 or b.format == NULL or b.format[0] != b"b"
            or b.format[1] != 0 or b.shape[1] > MAX_HOUSES or b.shape[2] > MAX_TYPES
            or b.strides[2] != 1 or b.strides[1] != b.shape[2]
            or b.strides[0] != b.shape[1] * b.shape[2]):
        PyBuffer_Release(b)
        return False
    return True


cdef bint _house_buffer(object units, Py_ssize_t house, Py_buffer* b) except -1:
    """:func:`_units_buffer`, and IndexError (released) for a house outside the array."""
    if not _units_buffer(units, b):
        return False
    if not 0 <= house < b.shape[1]:
        PyBuffer_Release(b)
        raise IndexError(f"house {house} outside 0..{b.shape[1] - 1}")
    return True


def army_sizes(units, Py_ssize_t house):
    """list[area]: ``units[:, house, :].sum(axis=1).tolist()``, or None (see the module)."""
    cdef Py_buffer b
    if not _house_buffer(units, house, &b):
        return None
    cdef Py_ssize_t A = b.shape[0], H = b.shape[1], U = b.shape[2], a, u, n
    cdef const signed char* p = <const signed char*> b.buf
    out = [0] * A
    try:
        for a in range(A):
            n = 0
            for u in range(U):
                n += p[(a * H + house) * U + u]
            if n:
                out[a] = n
    finally:
        PyBuffer_Release(&b)
    return out


def used_units(units, Py_ssize_t house):
    """list[type]: ``units[:, house, :].sum(axis=0).tolist()``, or None (see the module)."""
    cdef Py_buffer b
    if not _house_buffer(units, house, &b):
        return None
    cdef Py_ssize_t A = b.shape[0], H = b.shape[1], U = b.shape[2], a, u
    cdef const signed char* p = <const signed char*> b.buf
    cdef Py_ssize_t used[MAX_TYPES]
    try:
        for u in range(U):
            used[u] = 0
        for a in range(A):
            for u in range(U):
                used[u] += p[(a * H + house) * U + u]
        return [used[u] for u in range(U)]
    finally:
        PyBuffer_Release(&b)


def occupants(units, list fallback):
    """(occupant per area, control per area), as ``GameState._occupants_scan``: an area where
    one house has any unit is that house's; where several have (never at rest) it is the
    house with the most units, the first on a tie (``argmax``); else nobody's (-1), and its
    control stays ``fallback``'s. None (see the module)."""
    cdef Py_buffer b
    if not _units_buffer(units, &b):
        return None
    cdef Py_ssize_t A = b.shape[0], H = b.shape[1], U = b.shape[2], a, h, u, n, best, present
    cdef Py_ssize_t sums[MAX_HOUSES]
    cdef bint any_unit
    cdef const signed char* p = <const signed char*> b.buf
    if len(fallback) != A:
        PyBuffer_Release(&b)
        raise ValueError(f"fallback: expected {A} areas, got {len(fallback)}")
    occupant = [-1] * A
    ctrl = list(fallback)
    try:
        for a in range(A):
            present = 0
            best = -1
            for h in range(H):
                n = 0
                any_unit = False
                for u in range(U):
                    n += p[(a * H + h) * U + u]
                    any_unit = any_unit or p[(a * H + h) * U + u] != 0
                sums[h] = n
                if any_unit:
                    present += 1
                    if best < 0:
                        best = h
            if present > 1:  # argmax over every house: the first largest sum
                best = 0
                for h in range(1, H):
                    if sums[h] > sums[best]:
                        best = h
            if present:
                occupant[a] = best
                ctrl[a] = best
    finally:
        PyBuffer_Release(&b)
    return occupant, ctrl


def fits_limits(sizes, limits):
    """``board._fits_limits``: whether the armies (areas of 2+ units) among ``sizes`` (any
    sequence of ints), largest first, each fit the limit of the same rank in ``limits`` and
    are no more than them."""
    cdef list items = sizes if type(sizes) is list else list(sizes)
    cdef long long armies[MAX_ARMIES]
    cdef Py_ssize_t k = 0, i, j, n = len(limits)
    cdef long long s, t
    if n > MAX_ARMIES:
        raise ValueError(f"limits: at most {MAX_ARMIES} armies, got {n}")
    for x in items:
        s = x
        if s >= 2:
            if k >= n:
                return False  # more armies than the level allows
            armies[k] = s
            k += 1
    for i in range(1, k):  # largest first (an insertion sort: a handful of armies)
        t = armies[i]
        j = i - 1
        while j >= 0 and armies[j] < t:
            armies[j + 1] = armies[j]
            j -= 1
        armies[j + 1] = t
    for i in range(k):
        if armies[i] > <long long> limits[i]:
            return False
    return True
