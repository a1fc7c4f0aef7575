/* What Tilewe's compiled modules share (``text.c``, ``rules.c``): a board's 400 tiles as a
 * Python int's bits (bit x + 20*y) read into bytes, the lowest set bit of a word, and a
 * move's fields read into its spelling's number. Included by each module (static: each
 * its own copy, as Python's modules are loaded apart). */
#ifndef NOTATION_TILEWE_H
#define NOTATION_TILEWE_H

#include <Python.h>
#include <stdint.h>

#define MASK_BYTES (20 * 20 / 8)
#define TILES (20 * 20)
#define PIECES 21

/* Spellings (a move less its target) are numbered ``((piece * 8 + orientation) * 5 + x)
 * * 5 + y`` (a contact lies in a 5x5 box), as ``pieces.spelling_number`` numbers them. */
#define ORIENTATIONS 8
#define BOX 5
#define SPELLING_NUMBERS (PIECES * ORIENTATIONS * BOX * BOX)

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

/* ``item`` as a C long in [0, ``below``), or -1 (an exception set only for a non-int
 * past the C long's range: cleared, as any other misfit). */
static inline long index_in(PyObject *item, long below)
{
    if (!PyLong_Check(item))
        return -1;
    long value = PyLong_AsLong(item);
    if (value == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return value >= 0 && value < below ? value : -1;
}

/* The spelling number and target tile of a move (``events.Move``, a 4-tuple), or -1 when
 * a field is out of its range or of the wrong type (a move made by hand). */
static inline int move_number(PyObject *move, long *spelling, long *target)
{
    if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) != 4)
        return -1;
    PyObject *contact = PyTuple_GET_ITEM(move, 2);
    if (!PyTuple_Check(contact) || PyTuple_GET_SIZE(contact) != 2)
        return -1;
    long piece = index_in(PyTuple_GET_ITEM(move, 0), PIECES);
    long orientation = index_in(PyTuple_GET_ITEM(move, 1), ORIENTATIONS);
    long x = index_in(PyTuple_GET_ITEM(contact, 0), BOX);
    long y = index_in(PyTuple_GET_ITEM(contact, 1), BOX);
    *target = index_in(PyTuple_GET_ITEM(move, 3), TILES);
    if (piece < 0 || orientation < 0 || x < 0 || y < 0 || *target < 0)
        return -1;
    *spelling = ((piece * ORIENTATIONS + orientation) * BOX + x) * BOX + y;
    return 0;
}

#endif
