/* The Tilewe position as TPN text, compiled: the export's hot path.
 *
 * ``board_text(own)`` takes each colour's tiles as an int (bit ``x + 20*y`` is the
 * tile at column x, rank y+1), blue, yellow, red and green in turn, and returns the
 * board field of TPN: ranks from 20 down to 1, joined by "/", each a colour's letter
 * per tile and each run of empty tiles as its length.
 * ``line_texts(own, used, placed, masks, pieces, last)`` writes every position of a
 * line at once, for export, each the whole TPN: the board, the mover's letter, and each
 * colour's hand (the pieces not ``used``, 21 bits, in hex) joined by ",", each field
 * after a space. The first position is the board ``own`` with the hands ``used``; after
 * each ply's move (its colour ``placed``, its tiles ``masks``, its piece) comes the
 * next. Each position's mover is the colour of the next ply, and ``last`` (a letter, or
 * "-" when the game is over) for the last position. Only the ranks a move covers are
 * written again. It returns the texts one after another as bytes, and their lengths as
 * native 32-bit ints (``notation.core.texts.Texts``).
 * ``move_columns(moves, columns)`` writes export's columns of moves (``columns.py``):
 * each column is a table of parts per spelling (piece, orientation, contact, numbered
 * as ``SPELLING_NUMBERS`` says, ``tilewe.h``) and one per target, and a move's value is its spelling's part
 * then its target's (its text: the spelling, then the target's name; a field: its value
 * on one side, nothing on the other); each column as bytes and lengths, or None when a
 * move has no part in some table (the caller then writes them in Python).
 * Colours never share a tile on a board the rules made; for one that has them, what
 * either definition writes is unspecified.
 * ``state.py`` holds the same definitions in Python (``Board.written_board_text``,
 * ``written_positions``), used when this module is not built; tests hold the two equal
 * on random boards and at every ply of random games.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "tilewe.h"

#define SIZE 20

static const char LETTERS[4] = {'b', 'y', 'r', 'g'};

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

/* A board being written: each tile's letter, and each rank's taken tiles as bits. */
typedef struct {
    char cells[TILES];
    uint32_t taken[SIZE];
} Cells;

/* Put ``letter`` on the tiles of ``mask`` (50 little-endian bytes); widen ``low`` and
 * ``high`` to the ranks they lie on. */
static void place(Cells *board, const unsigned char mask[MASK_BYTES], char letter, int *low,
                  int *high)
{
    uint64_t words[(MASK_BYTES + 7) / 8] = {0};
    memcpy(words, mask, MASK_BYTES);
    for (int word = 0; word < (MASK_BYTES + 7) / 8; word++) {
        uint64_t bits = words[word];
        while (bits) {
            int tile = word * 64 + lowest_bit(bits), rank = tile / SIZE;
            board->cells[tile] = letter;
            board->taken[rank] |= UINT32_C(1) << (tile % SIZE);
            if (rank < *low)
                *low = rank;
            if (rank > *high)
                *high = rank;
            bits &= bits - 1;
        }
    }
}

/* Rank ``rank`` as TPN writes it at ``out``: each run of empty tiles found from the
 * taken bits; return the characters written. */
static int write_rank(const Cells *board, int rank, char *out)
{
    const char *cells = board->cells + rank * SIZE;
    uint32_t row = board->taken[rank];
    int written = 0, file = 0;
    while (row) {
        int empty = lowest_bit(row);
        if (empty)
            written += write_run(out + written, empty);
        file += empty;
        out[written++] = cells[file];
        file += 1;
        row >>= empty + 1;
    }
    if (file < SIZE)
        written += write_run(out + written, SIZE - file);
    return written;
}

/* Ranks ``top`` down to ``bottom`` joined by "/" at ``out``, each rank's size kept in
 * ``sizes``; return the characters written. */
static int write_ranks(const Cells *board, int top, int bottom, char *out, int sizes[SIZE])
{
    int written = 0;
    for (int rank = top; rank >= bottom; rank--) {
        sizes[rank] = write_rank(board, rank, out + written);
        written += sizes[rank];
        if (rank > bottom)
            out[written++] = '/';
    }
    return written;
}

/* Put each colour of ``own`` (a list of 1 to 4 ints) on ``board``; return how many there
 * are, or -1 with an exception. */
static Py_ssize_t read_colours(PyObject *own, Cells *board)
{
    if (!PyList_Check(own) || PyList_GET_SIZE(own) < 1 || PyList_GET_SIZE(own) > 4) {
        PyErr_SetString(PyExc_TypeError, "expected a list of 1 to 4 colours' tiles");
        return -1;
    }
    unsigned char mask[MASK_BYTES];
    int low = SIZE, high = -1;
    Py_ssize_t colours = PyList_GET_SIZE(own);
    for (Py_ssize_t colour = 0; colour < colours; colour++) {
        if (mask_bytes(PyList_GET_ITEM(own, colour), mask) < 0)
            return -1;
        place(board, mask, LETTERS[colour], &low, &high);
    }
    return colours;
}

static PyObject *board_text(PyObject *module, PyObject *own)
{
    /* At most 400 letters and 19 slashes. */
    char out[TILES + SIZE];
    int sizes[SIZE];
    Cells board = {{0}, {0}};
    (void)module;
    if (read_colours(own, &board) < 0)
        return NULL;
    return PyUnicode_DecodeASCII(out, write_ranks(&board, SIZE - 1, 0, out, sizes), NULL);
}

/* The hands of ``colours`` colours joined by "," at ``out``; return the characters. */
static int write_hands(const unsigned long used[4], Py_ssize_t colours, char *out)
{
    int written = 0;
    for (Py_ssize_t hand = 0; hand < colours; hand++) {
        if (hand)
            out[written++] = ',';
        written += write_hand(used[hand], out + written);
    }
    return written;
}

/* ``list``'s item ``at`` as a C long in [0, ``below``), or -1 with an exception. */
static long small_item(PyObject *list, Py_ssize_t at, long below, const char *what)
{
    /* An int only: any other object's __index__ is Python code, which could change the
     * lists being read. */
    PyObject *item = PyList_GET_ITEM(list, at);
    if (!PyLong_Check(item)) {
        PyErr_Format(PyExc_TypeError, "line_texts: each %s must be an int", what);
        return -1;
    }
    long value = PyLong_AsLong(item);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (value < 0 || value >= below) {
        PyErr_Format(PyExc_ValueError, "line_texts: %s %ld out of range", what, value);
        return -1;
    }
    return value;
}

/* The TPN of every position of a line, as one buffer and the lengths (see the .pyi). */
static PyObject *line_texts(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6 || !PyList_Check(args[0]) || !PyList_Check(args[1]) ||
        !PyList_Check(args[2]) || !PyList_Check(args[3]) || !PyList_Check(args[4]) ||
        !PyUnicode_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "line_texts(own: list[int], used: list[int], placed: list[int], "
                        "masks: list[int], pieces: list[int], last: str)");
        return NULL;
    }
    PyObject *own = args[0], *used_list = args[1], *placed = args[2], *masks = args[3],
             *pieces = args[4];
    Py_ssize_t colours = PyList_GET_SIZE(own), plies = PyList_GET_SIZE(placed);
    Py_ssize_t size;
    const char *last = PyUnicode_AsUTF8AndSize(args[5], &size);
    if (last == NULL)
        return NULL;
    if (colours < 1 || colours > 4 || PyList_GET_SIZE(used_list) != colours || size != 1 ||
        PyList_GET_SIZE(masks) != plies || PyList_GET_SIZE(pieces) != plies) {
        PyErr_SetString(PyExc_ValueError,
                        "line_texts: 1 to 4 colours with a hand each, a colour, tiles and a "
                        "piece for each ply, and a one-letter last mover");
        return NULL;
    }
    Cells cells = {{0}, {0}};
    unsigned char mask[MASK_BYTES];
    unsigned long used[4];
    if (read_colours(own, &cells) < 0)
        return NULL;
    for (Py_ssize_t colour = 0; colour < colours; colour++) {
        PyObject *hand = PyList_GET_ITEM(used_list, colour);
        if (!PyLong_Check(hand)) {  /* (as above: no __index__ run) */
            PyErr_SetString(PyExc_TypeError, "line_texts: each hand's used pieces is an int");
            return NULL;
        }
        used[colour] = PyLong_AsUnsignedLongMask(hand);
        if (used[colour] == (unsigned long)-1 && PyErr_Occurred())
            return NULL;
    }
    /* The board field and the hands field, kept written: a move writes again only the
     * ranks it covers (those after them move along) and the hands. */
    char board[TILES + SIZE], hands[4 * 8];
    int rank_sizes[SIZE];
    int board_size = write_ranks(&cells, SIZE - 1, 0, board, rank_sizes);
    int hands_size = write_hands(used, colours, hands);
    /* At most 400 letters, 19 slashes, 2 spaces, a mover, 4 hands of 6 digits, 3 commas. */
    enum { LONGEST = TILES + SIZE + 40 };
    if (plies >= (PY_SSIZE_T_MAX / LONGEST) - 1 || plies >= INT32_MAX - 1)
        return PyErr_NoMemory();
    char *out = PyMem_Malloc((size_t)(plies + 1) * LONGEST);
    PyObject *lengths = PyBytes_FromStringAndSize(NULL, (plies + 1) * (Py_ssize_t)sizeof(int32_t));
    if (out == NULL || lengths == NULL) {
        PyMem_Free(out);
        Py_XDECREF(lengths);
        return PyErr_NoMemory();
    }
    int32_t *sizes = (int32_t *)PyBytes_AS_STRING(lengths);
    Py_ssize_t total = 0;
    for (Py_ssize_t ply = 0; ply <= plies; ply++) {
        long player = 0;
        if (ply < plies && (player = small_item(placed, ply, colours, "colour")) < 0)
            goto fail;
        char *text = out + total;
        memcpy(text, board, (size_t)board_size);
        int written = board_size;
        text[written++] = ' ';
        text[written++] = ply < plies ? LETTERS[player] : last[0];
        text[written++] = ' ';
        memcpy(text + written, hands, (size_t)hands_size);
        written += hands_size;
        sizes[ply] = written;
        total += written;
        if (ply == plies)
            break;
        /* The move: its tiles take the player's letter, its piece leaves the hand. */
        long piece = small_item(pieces, ply, PIECES, "piece");
        if (piece < 0 || mask_bytes(PyList_GET_ITEM(masks, ply), mask) < 0)
            goto fail;
        used[player] |= 1UL << piece;
        hands_size = write_hands(used, colours, hands);
        int low = SIZE, high = -1;
        place(&cells, mask, LETTERS[player], &low, &high);
        if (high < 0)
            continue;
        /* Ranks ``high`` down to ``low`` (text order) are written again in their place. */
        int start = 0;
        for (int rank = SIZE - 1; rank > high; rank--)
            start += rank_sizes[rank] + 1;
        int end = start;
        for (int rank = high; rank >= low; rank--)
            end += rank_sizes[rank] + (rank > low);
        char segment[TILES + SIZE];
        int segment_size = write_ranks(&cells, high, low, segment, rank_sizes);
        memmove(board + start + segment_size, board + end, (size_t)(board_size - end));
        memcpy(board + start, segment, (size_t)segment_size);
        board_size += segment_size - (end - start);
    }
    PyObject *data = PyBytes_FromStringAndSize(out, total);
    PyMem_Free(out);
    if (data == NULL) {
        Py_DECREF(lengths);
        return NULL;
    }
    return Py_BuildValue("(NN)", data, lengths);
fail:
    PyMem_Free(out);
    Py_DECREF(lengths);
    return NULL;
}

/* ``table``'s (a tuple's) bytes at ``at``, or NULL when there are none (None, or not
 * bytes). */
static PyObject *entry(PyObject *table, long at)
{
    PyObject *found = PyTuple_GET_ITEM(table, at);
    return PyBytes_Check(found) ? found : NULL;
}

/* One column of ``move_columns``: a part per spelling and a part per target. */
static int column_tables(PyObject *column, PyObject **spellings, PyObject **targets)
{
    if (!PyTuple_Check(column) || PyTuple_GET_SIZE(column) != 2)
        return -1;
    *spellings = PyTuple_GET_ITEM(column, 0);
    *targets = PyTuple_GET_ITEM(column, 1);
    if (!PyTuple_Check(*spellings) || !PyTuple_Check(*targets) ||
        PyTuple_GET_SIZE(*spellings) != SPELLING_NUMBERS || PyTuple_GET_SIZE(*targets) != TILES)
        return -1;
    return 0;
}

/* Each move's value in each column, a spelling's part then a target's part (see the
 * .pyi); None where a move has no part in a column's tables. */
static PyObject *move_columns(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    static const char USAGE[] =
        "move_columns(moves: list[Move], columns: list[tuple[tuple[bytes | None, ...], "
        "tuple[bytes | None, ...]]]), each column a spelling table of 4200 entries and a "
        "target table of 400";
    if (nargs != 2 || !PyList_Check(args[0]) || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, USAGE);
        return NULL;
    }
    /* Copies holding their own references, as nothing below may change what is read. */
    PyObject *held = PyList_GetSlice(args[0], 0, PyList_GET_SIZE(args[0]));
    PyObject *tables = PyList_GetSlice(args[1], 0, PyList_GET_SIZE(args[1]));
    Py_ssize_t count = held == NULL ? 0 : PyList_GET_SIZE(held);
    Py_ssize_t columns = tables == NULL ? 0 : PyList_GET_SIZE(tables);
    PyObject *result = NULL, **data = NULL, **lengths = NULL;
    PyObject **spellings = NULL, **targets = NULL;
    Py_ssize_t *sizes = NULL, *at = NULL;
    long *slots = NULL;
    if (held == NULL || tables == NULL)
        goto done;
    data = PyMem_Calloc((size_t)columns + 1, sizeof *data);
    lengths = PyMem_Calloc((size_t)columns + 1, sizeof *lengths);
    spellings = PyMem_Calloc((size_t)columns + 1, sizeof *spellings);
    targets = PyMem_Calloc((size_t)columns + 1, sizeof *targets);
    sizes = PyMem_Calloc((size_t)columns + 1, sizeof *sizes);
    at = PyMem_Calloc((size_t)columns + 1, sizeof *at);
    slots = PyMem_Calloc((size_t)count * 2 + 1, sizeof *slots);
    if (!data || !lengths || !spellings || !targets || !sizes || !at || !slots) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t column = 0; column < columns; column++) {
        if (column_tables(PyList_GET_ITEM(tables, column), &spellings[column],
                          &targets[column]) < 0) {
            PyErr_SetString(PyExc_TypeError, USAGE);
            goto done;
        }
    }
    /* Each move's slots, and each column's size: None at the first part missing. */
    for (Py_ssize_t i = 0; i < count; i++) {
        if (move_number(PyList_GET_ITEM(held, i), &slots[2 * i], &slots[2 * i + 1]) < 0) {
            if (!PyErr_Occurred())
                result = Py_NewRef(Py_None);
            goto done;
        }
        for (Py_ssize_t column = 0; column < columns; column++) {
            PyObject *head = entry(spellings[column], slots[2 * i]);
            PyObject *tail = entry(targets[column], slots[2 * i + 1]);
            if (head == NULL || tail == NULL) {
                result = Py_NewRef(Py_None);
                goto done;
            }
            Py_ssize_t both = PyBytes_GET_SIZE(head) + PyBytes_GET_SIZE(tail);
            if (both > INT32_MAX || sizes[column] > PY_SSIZE_T_MAX - INT32_MAX) {
                PyErr_NoMemory();
                goto done;
            }
            sizes[column] += both;
        }
    }
    for (Py_ssize_t column = 0; column < columns; column++) {
        data[column] = PyBytes_FromStringAndSize(NULL, sizes[column]);
        lengths[column] = PyBytes_FromStringAndSize(NULL, count * (Py_ssize_t)sizeof(int32_t));
        if (data[column] == NULL || lengths[column] == NULL)
            goto done;
    }
    /* (the tables are tuples of bytes, which cannot change, held by ``tables``) */
    for (Py_ssize_t i = 0; i < count; i++) {
        for (Py_ssize_t column = 0; column < columns; column++) {
            PyObject *head = entry(spellings[column], slots[2 * i]);
            PyObject *tail = entry(targets[column], slots[2 * i + 1]);
            Py_ssize_t first = PyBytes_GET_SIZE(head), second = PyBytes_GET_SIZE(tail);
            char *out = PyBytes_AS_STRING(data[column]) + at[column];
            memcpy(out, PyBytes_AS_STRING(head), (size_t)first);
            memcpy(out + first, PyBytes_AS_STRING(tail), (size_t)second);
            at[column] += first + second;
            int32_t length = (int32_t)(first + second);
            memcpy(PyBytes_AS_STRING(lengths[column]) + i * (Py_ssize_t)sizeof length,
                   &length, sizeof length);
        }
    }
    result = PyList_New(columns);
    if (result == NULL)
        goto done;
    for (Py_ssize_t column = 0; column < columns; column++) {
        PyObject *pair = PyTuple_Pack(2, data[column], lengths[column]);
        if (pair == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, column, pair);
    }
done:
    for (Py_ssize_t column = 0; data != NULL && column < columns; column++) {
        Py_XDECREF(data[column]);
        Py_XDECREF(lengths[column]);
    }
    PyMem_Free(data);
    PyMem_Free(lengths);
    PyMem_Free(spellings);
    PyMem_Free(targets);
    PyMem_Free(sizes);
    PyMem_Free(at);
    PyMem_Free(slots);
    Py_XDECREF(held);
    Py_XDECREF(tables);
    return result;
}

static PyMethodDef METHODS[] = {
    {"board_text", board_text, METH_O,
     "board_text(own: list[int]) -> str: the TPN board field from each colour's tiles."},
    {"line_texts", (PyCFunction)(void (*)(void))line_texts, METH_FASTCALL,
     "line_texts(own, used, placed, masks, pieces, last) -> (bytes, bytes): every TPN of a "
     "line as one buffer and each one's length."},
    {"move_columns", (PyCFunction)(void (*)(void))move_columns, METH_FASTCALL,
     "move_columns(moves, columns) -> list[(bytes, bytes)] | None: each move's value in "
     "each column, from the column's spelling and target tables."},
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
