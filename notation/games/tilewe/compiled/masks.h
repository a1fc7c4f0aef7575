/* What Tilewe's compiled modules share (``text.c``, ``rules.c``): a board's 400 tiles as a
 * Python int's bits (bit x + 20*y) read into bytes, and the lowest set bit of a word.
 * Included by each module (static: each its own copy, as Python's modules are loaded
 * apart). */
#ifndef NOTATION_TILEWE_MASKS_H
#define NOTATION_TILEWE_MASKS_H

#include <Python.h>
#include <stdint.h>

#define MASK_BYTES (20 * 20 / 8)

/* The number of the lowest set bit of ``word`` (not 0). */
static inline int lowest_bit(uint64_t word)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(word);
#else
    int bit = 0;
    while (!(word & 1)) {
        word >>= 1;
        bit++;
    }
    return bit;
#endif
}

/* A mask of tiles (a non-negative int below 2**400) as 50 little-endian bytes. */
static inline int mask_bytes(PyObject *mask, unsigned char out[MASK_BYTES])
{
    if (!PyLong_Check(mask)) {
        PyErr_SetString(PyExc_TypeError, "a mask of tiles must be an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t needed = PyLong_AsNativeBytes(
        mask, out, MASK_BYTES,
        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (needed < 0)
        return -1;
    if (needed > MASK_BYTES) {
        PyErr_SetString(PyExc_ValueError, "a mask of tiles lies off the board");
        return -1;
    }
    return 0;
#else
    if (_PyLong_Sign(mask) < 0) {
        PyErr_SetString(PyExc_ValueError, "a mask of tiles must not be negative");
        return -1;
    }
    if (_PyLong_AsByteArray((PyLongObject *)mask, out, MASK_BYTES, 1, 0) < 0) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "a mask of tiles lies off the board");
        return -1;
    }
    return 0;
#endif
}

#endif
