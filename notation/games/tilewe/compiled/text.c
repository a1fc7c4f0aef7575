/* The Tilewe position as TPN text, compiled: the export's hot path.
 *
 * ``board_text(own)`` takes each colour's tiles as an int (bit ``x + 20*y`` is the
 * tile at column x, rank y+1), blue, yellow, red and green in turn, and returns the
 * board field of TPN: ranks from 20 down to 1, joined by "/", each a colour's letter
 * per tile and each run of empty tiles as its length. ``position_text(own, used,
 * mover)`` is the whole TPN: that board, the mover's letter, and each colour's hand
 * (the pieces not ``used``, 21 bits, in hex) joined by ",", each field after a space.
 * Colours never share a tile on a board the rules made; for one that has them, what
 * either definition writes is unspecified.
 * ``state.py`` holds the same definitions in Python (``Board.written_board_text``,
 * ``Board.position_of``), used when this module is not built; tests hold the two equal
 * on random boards and at every ply of random games.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SIZE 20
#define TILES (SIZE * SIZE)
#define MASK_BYTES (TILES / 8)
#define PIECES 21

static const char LETTERS[4] = {'b', 'y', 'r', 'g'};

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

/* Write ``run`` (1 to 20) in decimal at ``out``; return the characters written. */
static int write_run(char *out, int run)
{
    if (run >= 10) {
        out[0] = (char)('0' + run / 10);
        out[1] = (char)('0' + run % 10);
        return 2;
    }
    out[0] = (char)('0' + run);
    return 1;
}

/* A colour's tiles (a non-negative int below 2**400) as 50 little-endian bytes. */
static int mask_bytes(PyObject *mask, unsigned char out[MASK_BYTES])
{
    if (!PyLong_Check(mask)) {
        PyErr_SetString(PyExc_TypeError, "a colour's tiles must be an int");
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
        PyErr_SetString(PyExc_ValueError, "a colour's tiles lie off the board");
        return -1;
    }
    return 0;
#else
    if (_PyLong_Sign(mask) < 0) {
        PyErr_SetString(PyExc_ValueError, "a colour's tiles must not be negative");
        return -1;
    }
    if (_PyLong_AsByteArray((PyLongObject *)mask, out, MASK_BYTES, 1, 0) < 0) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "a colour's tiles lie off the board");
        return -1;
    }
    return 0;
#endif
}

/* Write the board field of the colours ``own`` (a list of 1 to 4 ints) at ``out``
 * (room for 419 characters); return the characters written, or -1 with an exception. */
static int write_board(PyObject *own, char *out)
{
    char cells[TILES];
    unsigned char mask[MASK_BYTES];
    /* Every colour's tiles OR-ed together, as 64-bit words (one spare for the last rank). */
    uint64_t taken[MASK_BYTES / 8 + 2] = {0};
    if (!PyList_Check(own) || PyList_GET_SIZE(own) < 1 || PyList_GET_SIZE(own) > 4) {
        PyErr_SetString(PyExc_TypeError, "expected a list of 1 to 4 colours' tiles");
        return -1;
    }
    Py_ssize_t colours = PyList_GET_SIZE(own);
    for (Py_ssize_t colour = 0; colour < colours; colour++) {
        if (mask_bytes(PyList_GET_ITEM(own, colour), mask) < 0)
            return -1;
        for (int at = 0; at < MASK_BYTES; at++) {
            unsigned int byte = mask[at];
            taken[at / 8] |= (uint64_t)byte << (8 * (at % 8));
            while (byte) {
                int bit = lowest_bit(byte);
                cells[at * 8 + bit] = LETTERS[colour];
                byte &= byte - 1;
            }
        }
    }
    int written = 0;
    for (int rank = SIZE - 1; rank >= 0; rank--) {
        /* The rank's 20 tiles, taken or not, as the low bits of ``row``. */
        int first = rank * SIZE, word = first / 64, shift = first % 64;
        uint64_t row = taken[word] >> shift;
        if (shift > 64 - SIZE)
            row |= taken[word + 1] << (64 - shift);
        row &= (UINT64_C(1) << SIZE) - 1;
        int file = 0;
        while (row) {
            int empty = lowest_bit(row);
            if (empty)
                written += write_run(out + written, empty);
            file += empty;
            out[written++] = cells[first + file];
            file += 1;
            row >>= empty + 1;
        }
        if (file < SIZE)
            written += write_run(out + written, SIZE - file);
        if (rank)
            out[written++] = '/';
    }
    return written;
}

static PyObject *board_text(PyObject *module, PyObject *own)
{
    /* At most 400 letters and 19 slashes. */
    char out[TILES + SIZE];
    (void)module;
    int written = write_board(own, out);
    if (written < 0)
        return NULL;
    return PyUnicode_DecodeASCII(out, written, NULL);
}

/* Write a hand (the pieces of ``used``'s 21 bits not set) in hex at ``out``. */
static int write_hand(unsigned long used, char *out)
{
    static const char HEX[] = "0123456789abcdef";
    unsigned long left = ~used & ((1UL << PIECES) - 1);
    char digits[8];
    int count = 0;
    do {
        digits[count++] = HEX[left & 15];
        left >>= 4;
    } while (left);
    for (int at = 0; at < count; at++)
        out[at] = digits[count - 1 - at];
    return count;
}

static PyObject *position_text(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    /* The board, a space, the mover, a space, four hands of at most 6 hex digits. */
    char out[TILES + SIZE + 40];
    (void)module;
    if (nargs != 3 || !PyList_Check(args[1]) || !PyUnicode_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError,
                        "position_text(own: list[int], used: list[int], mover: str)");
        return NULL;
    }
    int written = write_board(args[0], out);
    if (written < 0)
        return NULL;
    Py_ssize_t size;
    const char *mover = PyUnicode_AsUTF8AndSize(args[2], &size);
    if (mover == NULL)
        return NULL;
    Py_ssize_t hands = PyList_GET_SIZE(args[1]);
    if (size != 1 || hands != PyList_GET_SIZE(args[0])) {
        PyErr_SetString(PyExc_ValueError,
                        "position_text: a one-letter mover and a hand for each colour");
        return NULL;
    }
    out[written++] = ' ';
    out[written++] = mover[0];
    out[written++] = ' ';
    for (Py_ssize_t hand = 0; hand < hands; hand++) {
        /* Only the 21 low bits count, as Python's ``ALL_PIECES & ~used`` takes them. */
        PyObject *hand_used = PyList_GET_ITEM(args[1], hand);
        if (!PyLong_Check(hand_used)) {
            PyErr_SetString(PyExc_TypeError, "position_text: each hand's used pieces is an int");
            return NULL;
        }
        unsigned long used = PyLong_AsUnsignedLongMask(hand_used);
        if (used == (unsigned long)-1 && PyErr_Occurred())
            return NULL;
        if (hand)
            out[written++] = ',';
        written += write_hand(used, out + written);
    }
    return PyUnicode_DecodeASCII(out, written, NULL);
}

static PyMethodDef METHODS[] = {
    {"board_text", board_text, METH_O,
     "board_text(own: list[int]) -> str: the TPN board field from each colour's tiles."},
    {"position_text", (PyCFunction)(void (*)(void))position_text, METH_FASTCALL,
     "position_text(own: list[int], used: list[int], mover: str) -> str: the whole TPN."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "text",
    "The Tilewe board as TPN text, compiled (state.py holds the Python definition).",
    -1, METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_text(void)
{
    return PyModule_Create(&MODULE);
}
