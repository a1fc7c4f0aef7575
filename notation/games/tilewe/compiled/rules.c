/* Tilewe's rules over a game's moves in one call: the fast path's replay (``rules.py``
 * holds the definition, ``replay_words_python``; tests hold the two equal).
 *
 * ``set_tables(spellings, slots, placing)`` is given, once, what the Python tables say of
 * every move spelling: ``spellings`` maps each spelling's text (piece, rotation, "-",
 * contact, as ``events.read_move`` cuts it) to a slot, ``slots[i]`` is that slot's piece
 * and its tiles as (dx, dy) from the contact tile, and ``placing`` a move's fields
 * (piece, orientation or an alias of it, contact) to its slot. Nothing of the pieces'
 * geometry is written here.
 *
 * ``copy_board(board)`` copies a ``state.Board`` (see there).
 *
 * ``replay_body(board, body)`` does as much for a game's body in the usual layout ("1. X
 * 2. Y"), cut into its words here as ``fastpath._usual_words`` cuts it (its definition).
 *
 * ``replay(board, words)`` plays each word (a move's text, as the grammar's MOVE
 * terminal matched it) on ``board`` (the fields of ``state.Board``, in the order of
 * ``rules.FIELDS``), then finds who is to move, exactly as ``rules.play`` and
 * ``Board.to_move`` do, and gives the board's new fields (a triple's first); None at the
 * first word that is not a legal move it reads (the caller then takes the full path,
 * which says what is wrong). ``replay_moves(board, moves)`` does as much for moves read
 * already (``events.Move``), and gives each ply's player and tiles too (export's
 * columns, ``state.replayed_columns``).
 *
 * The board is kept as 20 ranks of 20 bits (bit x of rank y: tile x + 20*y, as the
 * Python ints' bits).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <structmember.h>

#include "tilewe.h"

#define SIZE 20
#define RANK ((uint32_t)0xFFFFF)
#define PLAYERS 4
#define CELLS 5

typedef uint32_t Ranks[SIZE];

typedef struct {
    int piece;
    int cells;
    int dx[CELLS], dy[CELLS];
    int low_x, high_x, low_y, high_y;
    /* The same tiles a rank at a time: rank ``row_dy[r]`` from the contact's holds the
     * tiles ``row_bits[r]``, bit 0 the column ``low_x`` (a fit is tested a rank at once). */
    int rows;
    int row_dy[CELLS];
    uint32_t row_bits[CELLS];
} Slot;

static Slot *SLOTS = NULL;
static Py_ssize_t SLOT_COUNT = 0;

/* The search for a fit at an anchor (``can_move``), as ``anchor_fits.any_fit`` searches:
 * the slots are the bits of a set of WORDS words. COVER[dy + REACH][w] is the set of slots
 * that cover a tile of ``w``, a 9-bit window of the rank ``dy`` from the contact (bit k:
 * column k - REACH from it); a slot's tiles lie within REACH steps of its contact. OFF
 * (made an anchor at a time, when first asked) is the set of slots whose box leaves the
 * board from that anchor; OF_PIECE[piece] the piece's slots. */
#define REACH 4
#define WINDOW (2 * REACH + 1)
#define MAX_WORDS 16  /* slots at most 1,024 (Tilewe has 309) */
/* a tile lies fewer than CELLS steps from its contact each way (set_tables checks): the
 * windows hold every one */
_Static_assert(REACH == CELLS - 1, "a window spans a piece's reach");
static Py_ssize_t WORDS = 0;
static uint64_t *COVER = NULL;  /* [WINDOW][1 << WINDOW][WORDS] */
static uint64_t *OFF = NULL;    /* [TILES][WORDS] */
static char OFF_MADE[TILES];
static uint64_t *OF_PIECE = NULL;  /* [PIECES][WORDS] */
static PyObject *SPELLINGS = NULL; /* dict: spelling text -> slot number */

/* The spellings of 6 or 7 characters (all a word's prefix can be) in an open-addressed
 * table, so that a word is looked up without a Python string made for it: the dict's
 * keys and values as they were given (one that is no slot is still no move). */
#define TABLE 8192
typedef struct {
    char text[8];
    int length;  /* 0: an empty entry */
    long number;
} Spelling;
static Spelling *TABLED = NULL;

static size_t spelling_hash(const char *text, Py_ssize_t length)
{
    size_t hash = 2166136261u;
    for (Py_ssize_t i = 0; i < length; i++)
        hash = (hash ^ (unsigned char)text[i]) * 16777619u;
    return hash;
}

/* The number given for a spelling, or -1 where none was. */
static long spelling_number(const char *text, Py_ssize_t length)
{
    for (size_t at = spelling_hash(text, length) % TABLE;; at = (at + 1) % TABLE) {
        const Spelling *entry = &TABLED[at];
        if (entry->length == 0)
            return -1;
        if (entry->length == length && memcmp(entry->text, text, (size_t)length) == 0)
            return entry->number;
    }
}

/* ``spellings``' keys of 6 or 7 ASCII characters with their numbers (-1 for a value that
 * is no int a slot could be: no move, as the dict's own reading said), in a new table;
 * NULL with an exception set for too many keys, or no memory. */
static Spelling *spelling_table(PyObject *spellings)
{
    Spelling *table = PyMem_Calloc(TABLE, sizeof *table);
    if (table == NULL)
        return (Spelling *)PyErr_NoMemory();
    Py_ssize_t at = 0, count = 0;
    PyObject *key, *value;
    while (PyDict_Next(spellings, &at, &key, &value)) {
        long number = PyLong_Check(value) ? PyLong_AsLong(value) : -1;
        if (number == -1 && PyErr_Occurred())
            PyErr_Clear();  /* (too large for a slot: no move, as the dict's reading says) */
        if (!PyUnicode_Check(key) || !PyUnicode_IS_ASCII(key))
            continue;
        Py_ssize_t length = PyUnicode_GET_LENGTH(key);
        if (length != 6 && length != 7)
            continue;
        if (++count > TABLE / 2) {
            PyMem_Free(table);
            PyErr_SetString(PyExc_ValueError, "spellings: too many");
            return NULL;
        }
        const char *text = (const char *)PyUnicode_DATA(key);
        size_t slot = spelling_hash(text, length) % TABLE;
        while (table[slot].length != 0)
            slot = (slot + 1) % TABLE;
        memcpy(table[slot].text, text, (size_t)length);
        table[slot].length = (int)length;
        table[slot].number = number;
    }
    return table;
}
/* A spelling's number (``tilewe.h``) -> its slot, or -1; aliases of an orientation too. */
static long PLACING[SPELLING_NUMBERS];

typedef struct {
    int players;
    Ranks occupied, own[PLAYERS], adj[PLAYERS], diag[PLAYERS], starts[PLAYERS], last;
    uint32_t used[PLAYERS];
    long last_piece[PLAYERS];
    int turn, turn_known, out, over;
    long ply;
    int last_mover; /* -1: None */
} Board;

/* -- masks: Python ints of 400 bits <-> ranks ------------------------------------------ */

/* The last mask (an exact int) read with its ranks, held (so its address is no other
 * int's while it is here): a board's starts are one int for every colour and every game,
 * and come back unchanged. Zero, every board's start, is told at once. */
static PyObject *LAST_MASK = NULL, *ZERO = NULL;
static Ranks LAST_RANKS;

static void remember(PyObject *mask, const Ranks ranks)
{
    if (!PyLong_CheckExact(mask))  /* (a subclass is given back as it came, never kept) */
        return;
    PyObject *old = LAST_MASK;  /* (the entry made whole before the old one is let go) */
    LAST_MASK = NULL;
    memcpy(LAST_RANKS, ranks, sizeof LAST_RANKS);
    LAST_MASK = Py_NewRef(mask);
    Py_XDECREF(old);
}

static int mask_ranks(PyObject *mask, Ranks out)
{
    if (mask == ZERO) {
        memset(out, 0, sizeof(Ranks));
        return 0;
    }
    if (mask == LAST_MASK) {
        memcpy(out, LAST_RANKS, sizeof(Ranks));
        return 0;
    }
    unsigned char bytes[MASK_BYTES + 8];
    memset(bytes, 0, sizeof bytes);
    if (mask_bytes(mask, bytes) < 0)
        return -1;
    for (int y = 0; y < SIZE; y++) {
        int bit = SIZE * y, at = bit >> 3;
        uint32_t word = (uint32_t)bytes[at] | (uint32_t)bytes[at + 1] << 8 |
                        (uint32_t)bytes[at + 2] << 16 | (uint32_t)bytes[at + 3] << 24;
        out[y] = (word >> (bit & 7)) & RANK;
    }
    remember(mask, out);
    return 0;
}

static PyObject *ranks_mask(const Ranks ranks)
{
    static const Ranks EMPTY;
    if (memcmp(ranks, EMPTY, sizeof EMPTY) == 0)
        return Py_NewRef(ZERO);
    if (LAST_MASK != NULL && memcmp(ranks, LAST_RANKS, sizeof LAST_RANKS) == 0)
        return Py_NewRef(LAST_MASK);
#if PY_VERSION_HEX < 0x030C0000
    /* The int made from its own digits (PyLong_SHIFT bits each, the lowest first), as
     * 3.11's ints are laid out, where a byte array read a byte at a time was: 2.6% of
     * validate's instructions, counted. */
    digit digits[(SIZE * SIZE + PyLong_SHIFT - 1) / PyLong_SHIFT];
    uint64_t pending = 0;
    int held = 0;
    Py_ssize_t count = 0;
    for (int y = 0; y < SIZE; y++) {
        pending |= (uint64_t)(ranks[y] & RANK) << held;
        held += SIZE;
        while (held >= PyLong_SHIFT) {
            digits[count++] = (digit)(pending & PyLong_MASK);
            pending >>= PyLong_SHIFT;
            held -= PyLong_SHIFT;
        }
    }
    if (held > 0)
        digits[count++] = (digit)pending;
    while (count > 0 && digits[count - 1] == 0)  /* an int holds no leading zero digit */
        count--;
    if (count == 0)
        return Py_NewRef(ZERO);
    PyLongObject *made = _PyLong_New(count);
    if (made == NULL)
        return NULL;
    memcpy(made->ob_digit, digits, (size_t)count * sizeof(digit));
    return (PyObject *)made;
#else
    unsigned char bytes[MASK_BYTES + 8];
    memset(bytes, 0, sizeof bytes);
    for (int y = 0; y < SIZE; y++) {
        int bit = SIZE * y, at = bit >> 3;
        uint32_t word = (ranks[y] & RANK) << (bit & 7);
        for (int k = 0; k < 4; k++)
            bytes[at + k] |= (unsigned char)(word >> (8 * k));
    }
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(bytes, MASK_BYTES, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(bytes, MASK_BYTES, 1, 0);
#endif
#endif
}

/* -- the rules ---------------------------------------------------------------------- */

static inline int has(const Ranks ranks, int x, int y)
{
    return (int)(ranks[y] >> x & 1);
}

/* Whether ``slot``'s box stays on the board with its contact on (x, y). */
static inline int on_board(const Slot *slot, int x, int y)
{
    return x + slot->low_x >= 0 && x + slot->high_x < SIZE && y + slot->low_y >= 0 &&
           y + slot->high_y < SIZE;
}

/* Whether ``slot`` placed with its contact on (x, y) stays on the board and covers no
 * tile of the board nor one beside ``p``'s (none is made whole). */
static int fits_for(const Board *b, int p, const Slot *slot, int x, int y)
{
    if (!on_board(slot, x, y))
        return 0;
    int left = x + slot->low_x;
    for (int r = 0; r < slot->rows; r++) {
        int row = y + slot->row_dy[r];
        if ((b->occupied[row] | b->adj[p][row]) >> left & slot->row_bits[r])
            return 0;
    }
    return 1;
}

static void blocked_of(const Board *b, int p, Ranks out)
{
    for (int y = 0; y < SIZE; y++)
        out[y] = b->occupied[y] | b->adj[p][y];
}

/* Where ``p``'s next contact tile may go (``Board.anchors``). */
static void anchors_of(const Board *b, int p, Ranks out)
{
    for (int y = 0; y < SIZE; y++)
        out[y] = b->used[p] ? b->diag[p][y] & ~(b->occupied[y] | b->adj[p][y])
                            : b->starts[p][y] & ~b->occupied[y];
}

/* The slots whose box leaves the board with the contact on ``anchor`` (made once). */
static const uint64_t *off_board(int anchor)
{
    uint64_t *off = OFF + (Py_ssize_t)anchor * WORDS;
    if (!OFF_MADE[anchor]) {
        int x = anchor % SIZE, y = anchor / SIZE;
        for (Py_ssize_t s = 0; s < SLOT_COUNT; s++)
            if (!on_board(&SLOTS[s], x, y))
                off[s / 64] |= (uint64_t)1 << (s % 64);
        OFF_MADE[anchor] = 1;
    }
    return off;
}

/* Whether ``p`` has a legal move (``Board.can_move``): a slot of a piece in hand that no
 * blocked tile near an anchor, nor the board's edge, rules out there. */
static int can_move(const Board *b, int p)
{
    if (b->out >> p & 1)
        return 0;
    Ranks blocked, anchors;
    blocked_of(b, p, blocked);
    anchors_of(b, p, anchors);
    int any = 0;
    for (int y = 0; y < SIZE; y++)
        any |= anchors[y] != 0;
    if (!any)
        return 0;
    if (!(b->used[p] & 1))  /* the monomino in hand fits on any anchor */
        return 1;
    uint64_t hand[MAX_WORDS], ruled[MAX_WORDS];
    memset(hand, 0, sizeof hand);
    for (int piece = 0; piece < PIECES; piece++)
        if (!(b->used[p] >> piece & 1))
            for (Py_ssize_t w = 0; w < WORDS; w++)
                hand[w] |= OF_PIECE[piece * WORDS + w];
    for (int y = 0; y < SIZE; y++) {
        /* any other piece covers a tile beside its contact: an anchor with none free is
         * dead (``bitboard.fits``) */
        uint32_t free_here = ~blocked[y] & RANK;
        uint32_t beside = (free_here << 1 | free_here >> 1) |
                          (y > 0 ? ~blocked[y - 1] & RANK : 0) |
                          (y + 1 < SIZE ? ~blocked[y + 1] & RANK : 0);
        uint32_t row = anchors[y] & beside & RANK;
        while (row) {
            int x = lowest_bit(row);
            row &= row - 1;
            memcpy(ruled, off_board(x + SIZE * y), (size_t)WORDS * sizeof *ruled);
            for (int dy = -REACH; dy <= REACH; dy++) {
                if (y + dy < 0 || y + dy >= SIZE)
                    continue;  /* (a slot reaching there is off the board) */
                uint32_t rank = blocked[y + dy];
                uint32_t window = (x >= REACH ? rank >> (x - REACH) : rank << (REACH - x)) &
                                  ((1u << WINDOW) - 1);
                if (window) {
                    const uint64_t *cover = COVER + ((Py_ssize_t)(dy + REACH) * (1 << WINDOW) +
                                                     window) * WORDS;
                    for (Py_ssize_t w = 0; w < WORDS; w++)
                        ruled[w] |= cover[w];
                }
            }
            for (Py_ssize_t w = 0; w < WORDS; w++)
                if (hand[w] & ~ruled[w])
                    return 1;
        }
    }
    return 0;
}

static void place(Board *b, int p, const Slot *slot, int x, int y)
{
    Ranks mask;
    memset(mask, 0, sizeof mask);
    for (int c = 0; c < slot->cells; c++)
        mask[y + slot->dy[c]] |= (uint32_t)1 << (x + slot->dx[c]);
    /* the rows the piece covers, and one each side of them: nothing changes elsewhere */
    int low = y + slot->low_y > 0 ? y + slot->low_y - 1 : 0;
    int high = y + slot->high_y + 1 < SIZE ? y + slot->high_y + 1 : SIZE - 1;
    for (int r = low; r <= high; r++) {
        uint32_t below = r > 0 ? mask[r - 1] : 0, above = r + 1 < SIZE ? mask[r + 1] : 0;
        uint32_t beside = (mask[r] << 1 | mask[r] >> 1) & RANK;
        b->adj[p][r] |= beside | below | above;
        b->diag[p][r] |= ((below << 1 | below >> 1) | (above << 1 | above >> 1)) & RANK;
        b->occupied[r] |= mask[r];
        b->own[p][r] |= mask[r];
    }
    memcpy(b->last, mask, sizeof mask);
    b->used[p] |= (uint32_t)1 << slot->piece;
    b->last_piece[p] = slot->piece;
    b->ply += 1;
    b->last_mover = p;
    b->turn = (p + 1) % b->players;
    b->turn_known = 0;
}

/* ``rules.play``: 0 when placed, -1 for a move that may not be played. */
static int play(Board *b, const Slot *slot, int x, int y)
{
    if (b->over)
        return -1;
    int n = b->players, p = b->turn;
    int on_board = x + slot->low_x >= 0 && x + slot->high_x < SIZE && y + slot->low_y >= 0 &&
                   y + slot->high_y < SIZE;
    for (int i = 0; i < n; i++) {
        if (!(b->out >> p & 1)) {
            if (on_board && !(b->used[p] >> slot->piece & 1)) {
                if (fits_for(b, p, slot, x, y) &&
                    has(b->used[p] ? b->diag[p] : b->starts[p], x, y)) {
                    place(b, p, slot, x, y);
                    return 0;
                }
            }
            if ((b->turn_known && p == b->turn) || can_move(b, p))
                return -1;
            b->out |= 1 << p;
        }
        p = (p + 1) % n;
    }
    b->over = 1;
    return -1;
}

/* ``Board.to_move``'s search, its findings kept. */
static void find_mover(Board *b)
{
    if (b->over || b->turn_known)
        return;
    int p = b->turn;
    for (int i = 0; i < b->players; i++) {
        if (!(b->out >> p & 1)) {
            if (can_move(b, p)) {
                b->turn = p;
                b->turn_known = 1;
                return;
            }
            b->out |= 1 << p;
        }
        p = (p + 1) % b->players;
    }
    b->over = 1;
}

/* -- a word --------------------------------------------------------------------------- */

/* The slot and target tile of a move's text, or -1 (no error set) where it is not a
 * plain move this reads. */
static int read_text(const char *text, Py_ssize_t length, const Slot **slot, int *x, int *y);

static int read_word(PyObject *word, const Slot **slot, int *x, int *y)
{
    if (!PyUnicode_Check(word) || !PyUnicode_IS_ASCII(word))
        return -1;
    return read_text((const char *)PyUnicode_DATA(word), PyUnicode_GET_LENGTH(word), slot, x,
                     y);
}

/* A move's text (ASCII) read as read_word reads a word: 0, -1 (no move), -2 (an error). */
static int read_text(const char *text, Py_ssize_t length, const Slot **slot, int *x, int *y)
{
    if (length < 8)
        return -1;
    Py_ssize_t split = text[3] == '-' ? 6 : 7;
    if (length < split + 2 || length > split + 3)
        return -1;
    long number = spelling_number(text, split);
    if (number < 0 || number >= SLOT_COUNT)
        return -1;
    const char *target = text + split;
    Py_ssize_t digits = length - split - 1;
    if (target[0] < 'a' || target[0] > 't' || target[1] < '1' || target[1] > '9')
        return -1;
    int rank = target[1] - '0';
    if (digits == 2) {
        if (target[2] < '0' || target[2] > '9')
            return -1;
        rank = rank * 10 + (target[2] - '0');
    }
    if (rank > SIZE)
        return -1;
    *slot = &SLOTS[number];
    *x = target[0] - 'a';
    *y = rank - 1;
    return 0;
}

/* The slot and target of a move (``events.Move``, a 4-tuple), or -1 where it is not a
 * move of the tables (a move made by hand: the caller plays it in Python). */
static int read_move(PyObject *move, const Slot **slot, int *x, int *y)
{
    long spelling, target;
    if (move_number(move, &spelling, &target) < 0)
        return -1;
    long number = PLACING[spelling];
    if (number < 0 || number >= SLOT_COUNT)
        return -1;
    *slot = &SLOTS[number];
    *x = (int)(target % SIZE);
    *y = (int)(target / SIZE);
    return 0;
}

/* -- the board's fields ----------------------------------------------------------------- */

#define FIELDS 15

static int list_ranks(PyObject *list, int players, Ranks *out)
{
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != players) {
        PyErr_SetString(PyExc_TypeError, "a list of masks, one a player");
        return -1;
    }
    for (int p = 0; p < players; p++)
        if (mask_ranks(PyList_GET_ITEM(list, p), out[p]) < 0)
            return -1;
    return 0;
}

static int small_int(PyObject *item, long low, long high, long *out)
{
    if (!PyLong_Check(item)) {
        PyErr_SetString(PyExc_TypeError, "a board field must be an int");
        return -1;
    }
    long value = PyLong_AsLong(item);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (value < low || value > high) {
        PyErr_SetString(PyExc_ValueError, "a board field out of range");
        return -1;
    }
    *out = value;
    return 0;
}

/* The board of ``rules.board_fields``' tuple. */
static int read_board(PyObject *fields, Board *b)
{
    memset(b, 0, sizeof *b);
    if (!PyTuple_Check(fields) || PyTuple_GET_SIZE(fields) != FIELDS) {
        PyErr_SetString(PyExc_TypeError, "the board's fields: a tuple of 15");
        return -1;
    }
    long value;
    if (small_int(PyTuple_GET_ITEM(fields, 0), 1, PLAYERS, &value) < 0)
        return -1;
    int n = b->players = (int)value;
    if (mask_ranks(PyTuple_GET_ITEM(fields, 1), b->occupied) < 0 ||
        list_ranks(PyTuple_GET_ITEM(fields, 2), n, b->own) < 0 ||
        list_ranks(PyTuple_GET_ITEM(fields, 3), n, b->adj) < 0 ||
        list_ranks(PyTuple_GET_ITEM(fields, 4), n, b->diag) < 0)
        return -1;
    PyObject *used = PyTuple_GET_ITEM(fields, 5), *last_piece = PyTuple_GET_ITEM(fields, 14);
    if (!PyList_Check(used) || PyList_GET_SIZE(used) != n || !PyList_Check(last_piece) ||
        PyList_GET_SIZE(last_piece) != n) {
        PyErr_SetString(PyExc_TypeError, "used and last pieces: a list, one a player");
        return -1;
    }
    for (int p = 0; p < n; p++) {
        if (small_int(PyList_GET_ITEM(used, p), 0, (1L << PIECES) - 1, &value) < 0)
            return -1;
        b->used[p] = (uint32_t)value;
        if (small_int(PyList_GET_ITEM(last_piece, p), -1, PIECES - 1, &b->last_piece[p]) < 0)
            return -1;
    }
    if (small_int(PyTuple_GET_ITEM(fields, 6), 0, n - 1, &value) < 0)
        return -1;
    b->turn = (int)value;
    PyObject *flag = PyTuple_GET_ITEM(fields, 7), *over = PyTuple_GET_ITEM(fields, 9);
    if (!PyBool_Check(flag) || !PyBool_Check(over)) {
        PyErr_SetString(PyExc_TypeError, "turn_known and over: bools");
        return -1;
    }
    b->turn_known = flag == Py_True;
    b->over = over == Py_True;
    if (small_int(PyTuple_GET_ITEM(fields, 8), 0, (1L << n) - 1, &value) < 0)
        return -1;
    b->out = (int)value;
    if (small_int(PyTuple_GET_ITEM(fields, 10), 0, LONG_MAX / 2, &b->ply) < 0)
        return -1;
    PyObject *mover = PyTuple_GET_ITEM(fields, 11);
    if (mover == Py_None)
        b->last_mover = -1;
    else if (small_int(mover, 0, n - 1, &value) < 0)
        return -1;
    else
        b->last_mover = (int)value;
    if (mask_ranks(PyTuple_GET_ITEM(fields, 12), b->last) < 0 ||
        list_ranks(PyTuple_GET_ITEM(fields, 13), n, b->starts) < 0)
        return -1;
    return 0;
}

static PyObject *masks_list(const Ranks *masks, int players)
{
    PyObject *list = PyList_New(players);
    if (list == NULL)
        return NULL;
    for (int p = 0; p < players; p++) {
        PyObject *mask = ranks_mask(masks[p]);
        if (mask == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, p, mask);
    }
    return list;
}

static PyObject *longs_list(const long *values, int players)
{
    PyObject *list = PyList_New(players);
    if (list == NULL)
        return NULL;
    for (int p = 0; p < players; p++) {
        PyObject *value = PyLong_FromLong(values[p]);
        if (value == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, p, value);
    }
    return list;
}

static PyObject *board_fields(const Board *b)
{
    long used[PLAYERS];
    for (int p = 0; p < b->players; p++)
        used[p] = (long)b->used[p];
    PyObject *mover = b->last_mover < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(b->last_mover);
    return Py_BuildValue("(iNNNNNiOiOlNNNN)", b->players, ranks_mask(b->occupied),
                         masks_list(b->own, b->players), masks_list(b->adj, b->players),
                         masks_list(b->diag, b->players), longs_list(used, b->players),
                         b->turn, b->turn_known ? Py_True : Py_False, b->out,
                         b->over ? Py_True : Py_False, b->ply, mover, ranks_mask(b->last),
                         masks_list(b->starts, b->players),
                         longs_list(b->last_piece, b->players));
}

/* -- the module's functions ------------------------------------------------------------- */

static PyObject *set_tables(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3 || !PyDict_Check(args[0]) || !PyList_Check(args[1]) ||
        !PyList_Check(args[2]) || PyList_GET_SIZE(args[2]) != SPELLING_NUMBERS) {
        PyErr_SetString(PyExc_TypeError,
                        "set_tables(spellings: dict[str, int], slots: list[tuple[int, "
                        "tuple[tuple[int, int], ...]]], placing: list[int]), placing of "
                        "4200 entries");
        return NULL;
    }
    long placing[SPELLING_NUMBERS];
    for (Py_ssize_t at = 0; at < SPELLING_NUMBERS; at++) {
        PyObject *item = PyList_GET_ITEM(args[2], at);
        placing[at] = PyLong_Check(item) ? PyLong_AsLong(item) : -2;
        if (placing[at] < -1 || placing[at] >= PyList_GET_SIZE(args[1])) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "placing: a slot number or -1 each");
            return NULL;
        }
    }
    Py_ssize_t count = PyList_GET_SIZE(args[1]);
    Slot *slots = PyMem_Calloc((size_t)count + 1, sizeof *slots);
    if (slots == NULL)
        return PyErr_NoMemory();
    for (Py_ssize_t s = 0; s < count; s++) {
        PyObject *item = PyList_GET_ITEM(args[1], s), *cells;
        int piece;
        if (!PyArg_ParseTuple(item, "iO!", &piece, &PyTuple_Type, &cells) || piece < 0 ||
            piece >= PIECES || PyTuple_GET_SIZE(cells) < 1 || PyTuple_GET_SIZE(cells) > CELLS) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a slot: a piece and 1 to 5 tiles");
            PyMem_Free(slots);
            return NULL;
        }
        Slot *slot = &slots[s];
        slot->piece = piece;
        slot->cells = (int)PyTuple_GET_SIZE(cells);
        for (int c = 0; c < slot->cells; c++) {
            int dx, dy;
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(cells, c), "ii", &dx, &dy) || dx <= -CELLS ||
                dx >= CELLS || dy <= -CELLS || dy >= CELLS) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a tile lies outside the piece's box");
                PyMem_Free(slots);
                return NULL;
            }
            slot->dx[c] = dx;
            slot->dy[c] = dy;
            if (c == 0 || dx < slot->low_x)
                slot->low_x = dx;
            if (c == 0 || dx > slot->high_x)
                slot->high_x = dx;
            if (c == 0 || dy < slot->low_y)
                slot->low_y = dy;
            if (c == 0 || dy > slot->high_y)
                slot->high_y = dy;
        }
        for (int c = 0; c < slot->cells; c++) {  /* the tiles by rank (see Slot) */
            int r = 0;
            while (r < slot->rows && slot->row_dy[r] != slot->dy[c])
                r++;
            if (r == slot->rows) {
                slot->row_dy[slot->rows++] = slot->dy[c];
                slot->row_bits[r] = 0;
            }
            slot->row_bits[r] |= (uint32_t)1 << (slot->dx[c] - slot->low_x);
        }
    }
    /* the fit tables (see COVER) */
    Py_ssize_t words = (count + 63) / 64;
    if (words > MAX_WORDS) {
        PyMem_Free(slots);
        PyErr_SetString(PyExc_ValueError, "set_tables: at most 1,024 slots");
        return NULL;
    }
    uint64_t *cover = PyMem_Calloc((size_t)(WINDOW << WINDOW) * (size_t)words, sizeof *cover);
    uint64_t *off = PyMem_Calloc((size_t)TILES * (size_t)words, sizeof *off);
    uint64_t *of_piece = PyMem_Calloc((size_t)PIECES * (size_t)words, sizeof *of_piece);
    if (cover == NULL || off == NULL || of_piece == NULL) {
        PyMem_Free(cover);
        PyMem_Free(off);
        PyMem_Free(of_piece);
        PyMem_Free(slots);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t s = 0; s < count; s++) {  /* each tile's slots: the one-bit windows */
        uint64_t bit = (uint64_t)1 << (s % 64);
        of_piece[slots[s].piece * words + s / 64] |= bit;
        for (int c = 0; c < slots[s].cells; c++) {
            int dx = slots[s].dx[c], dy = slots[s].dy[c];
            cover[((Py_ssize_t)(dy + REACH) * (1 << WINDOW) + (1 << (dx + REACH))) * words +
                  s / 64] |= bit;
        }
    }
    for (int r = 0; r < WINDOW; r++) {  /* every other window: a smaller one's, one tile more */
        uint64_t *rank = cover + (Py_ssize_t)r * (1 << WINDOW) * words;
        for (int window = 1; window < 1 << WINDOW; window++) {
            int low = window & -window;
            if (low == window)
                continue;
            for (Py_ssize_t w = 0; w < words; w++)
                rank[window * words + w] = rank[(window ^ low) * words + w] |
                                           rank[low * words + w];
        }
    }
    PyObject *spellings = PyDict_Copy(args[0]);
    Spelling *tabled = spellings == NULL ? NULL : spelling_table(spellings);
    if (tabled == NULL) {
        Py_XDECREF(spellings);
        PyMem_Free(slots);
        PyMem_Free(cover);
        PyMem_Free(off);
        PyMem_Free(of_piece);
        return NULL;
    }
    PyMem_Free(COVER);
    PyMem_Free(OFF);
    PyMem_Free(OF_PIECE);
    COVER = cover;
    OFF = off;
    OF_PIECE = of_piece;
    WORDS = words;
    memset(OFF_MADE, 0, sizeof OFF_MADE);
    PyMem_Free(SLOTS);
    PyMem_Free(TABLED);
    Py_XDECREF(SPELLINGS);
    memcpy(PLACING, placing, sizeof placing);
    SLOTS = slots;
    SLOT_COUNT = count;
    SPELLINGS = spellings;
    TABLED = tabled;
    Py_RETURN_NONE;
}

typedef int (*Reader)(PyObject *item, const Slot **slot, int *x, int *y);

/* Each item of ``items`` read by ``read`` and played on the board of ``fields``, then
 * the player to move found: the board's fields, and, with ``record``, each ply's player
 * (a list) and tiles (a list of masks), else None twice. None at the first item that is
 * not a legal move read here. */
static PyObject *replayed(PyObject *fields, PyObject *items, Reader read, int record)
{
    if (SPELLINGS == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "replay: set_tables was not called");
        return NULL;
    }
    Board board;
    if (read_board(fields, &board) < 0)
        return NULL;
    /* A copy holding its own references, as nothing below may change what is read. */
    PyObject *held = PyList_GetSlice(items, 0, PyList_GET_SIZE(items));
    if (held == NULL)
        return NULL;
    Py_ssize_t count = PyList_GET_SIZE(held);
    PyObject *result = NULL, *placed = NULL, *masks = NULL;
    if (record && ((placed = PyList_New(count)) == NULL || (masks = PyList_New(count)) == NULL))
        goto done;
    for (Py_ssize_t i = 0; i < count; i++) {
        const Slot *slot;
        int x, y;
        int found = read(PyList_GET_ITEM(held, i), &slot, &x, &y);
        if (found == -2)
            goto done;
        if (found < 0 || play(&board, slot, x, y) < 0) {
            result = Py_NewRef(Py_None);
            goto done;
        }
        if (record) {
            PyObject *player = PyLong_FromLong(board.last_mover), *mask = ranks_mask(board.last);
            if (player == NULL || mask == NULL) {
                Py_XDECREF(player);
                Py_XDECREF(mask);
                goto done;
            }
            PyList_SET_ITEM(placed, i, player);
            PyList_SET_ITEM(masks, i, mask);
        }
    }
    find_mover(&board);
    result = Py_BuildValue("(NOO)", board_fields(&board), record ? placed : Py_None,
                           record ? masks : Py_None);
done:
    Py_XDECREF(placed);
    Py_XDECREF(masks);
    Py_DECREF(held);
    return result;
}

static PyObject *replay(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "replay(board: tuple, words: list[str])");
        return NULL;
    }
    return replayed(args[0], args[1], read_word, 0);
}

/* The blanks ``str.split`` cuts at, of ASCII (the grammar's WS). */
static int blank(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
}

/* Whether an ASCII body is in the usual layout as ``fastpath._usual_words`` takes it (its
 * definition): words between blanks, in pairs of a number "N." (from 1, counting) and a
 * word, and no "." followed by spaces or tabs, then another blank (a number alone on its
 * line). The number of words, or -1. */
static Py_ssize_t usual_words(const char *text, Py_ssize_t size)
{
    for (Py_ssize_t i = 0; i < size; i++) {
        if (text[i] != '.')
            continue;
        Py_ssize_t j = i + 1;
        while (j < size && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (j < size && blank(text[j]))
            return -1;
    }
    Py_ssize_t tokens = 0, at = 0;
    while (1) {
        while (at < size && blank(text[at]))
            at++;
        if (at == size)
            break;
        Py_ssize_t start = at;
        while (at < size && !blank(text[at]))
            at++;
        if (tokens % 2 == 0) {  /* the number: "N." for the N-th word, written as Python does */
            Py_ssize_t length = at - start, value = 0;
            if (length < 2 || length > 19 || text[at - 1] != '.' || text[start] == '0')
                return -1;
            for (Py_ssize_t i = start; i < at - 1; i++) {
                if (text[i] < '0' || text[i] > '9')
                    return -1;
                value = value * 10 + (text[i] - '0');
            }
            if (value != tokens / 2 + 1)
                return -1;
        }
        tokens++;
    }
    return tokens % 2 == 0 ? tokens / 2 : -1;
}

/* replay_body(board, body): a body in the usual layout (``usual_words``) played on the board
 * of ``board`` as ``replay`` plays its words: (the board's fields, the words played); False
 * at a word that is not a legal move read here; None where the body is not ASCII or not
 * in that layout (the caller cuts it into words itself). */
static PyObject *replay_body(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "replay_body(board: tuple, body: str)");
        return NULL;
    }
    if (SPELLINGS == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "replay_body: set_tables was not called");
        return NULL;
    }
    PyObject *body = args[1];
    if (!PyUnicode_IS_ASCII(body))
        Py_RETURN_NONE;
    const char *text = (const char *)PyUnicode_DATA(body);
    Py_ssize_t size = PyUnicode_GET_LENGTH(body);
    Py_ssize_t words = usual_words(text, size);
    if (words < 0)
        Py_RETURN_NONE;
    Board board;
    if (read_board(args[0], &board) < 0)
        return NULL;
    Py_ssize_t at = 0;
    for (Py_ssize_t word = 0; word < words; word++) {
        for (int part = 0; part < 2; part++) {  /* the number, then the word */
            while (at < size && blank(text[at]))
                at++;
            Py_ssize_t start = at;
            while (at < size && !blank(text[at]))
                at++;
            if (part == 0)
                continue;
            const Slot *slot;
            int x, y;
            int found = read_text(text + start, at - start, &slot, &x, &y);
            if (found == -2)
                return NULL;
            if (found < 0 || play(&board, slot, x, y) < 0)
                Py_RETURN_FALSE;
        }
    }
    find_mover(&board);
    return Py_BuildValue("(Nn)", board_fields(&board), words);
}

static PyObject *replay_moves(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "replay_moves(board: tuple, moves: list[Move])");
        return NULL;
    }
    return replayed(args[0], args[1], read_move, 1);
}

static PyObject *move_of(PyObject *module, PyObject *word)
{
    (void)module;
    if (SPELLINGS == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "move_of: set_tables was not called");
        return NULL;
    }
    const Slot *slot;
    int x, y;
    int read = read_word(word, &slot, &x, &y);
    if (read == -2)
        return NULL;
    if (read < 0)
        Py_RETURN_NONE;
    return Py_BuildValue("(ni)", (Py_ssize_t)(slot - SLOTS), x + SIZE * y);
}

/* Whether ``type``'s objects hold nothing but object slots: it and each base below
 * ``object`` a heap class without ``__dict__`` whose members are object slots, and its
 * objects' size exactly those slots (and a weak reference list) over ``object``'s (a
 * class of C state, zlib's say, holds more). */
static int slots_alone(PyTypeObject *type)
{
    Py_ssize_t members = 0;
    if (!(type->tp_flags & Py_TPFLAGS_HEAPTYPE) || type->tp_itemsize != 0)
        return 0;
    for (PyTypeObject *t = type; t != &PyBaseObject_Type; t = t->tp_base) {
        if (t == NULL || !(t->tp_flags & Py_TPFLAGS_HEAPTYPE) || t->tp_dictoffset != 0)
            return 0;
#ifdef Py_TPFLAGS_MANAGED_DICT
        if (t->tp_flags & Py_TPFLAGS_MANAGED_DICT)
            return 0;
#endif
        for (PyMemberDef *m = t->tp_members; m != NULL && m->name != NULL; m++) {
            if (m->type != T_OBJECT_EX)
                return 0;
            members++;
        }
    }
    Py_ssize_t size = PyBaseObject_Type.tp_basicsize + members * (Py_ssize_t)sizeof(PyObject *);
    if (type->tp_weaklistoffset > 0)
        size += (Py_ssize_t)sizeof(PyObject *);
    return type->tp_basicsize == size;
}

/* ``copy_board(board)``: a new object of the board's class with each slot set to the
 * board's, a list as a new list of the same items (``state.Board.copied_slot_by_slot``,
 * its definition, in one call: ``Position.push`` copies the board at every move). Its
 * class must hold slots alone (:c:func:`slots_alone`; else TypeError). */
static PyObject *copy_board(PyObject *module, PyObject *board)
{
    PyTypeObject *type = Py_TYPE(board);
    if (!slots_alone(type)) {
        PyErr_SetString(PyExc_TypeError, "copy_board: a class of slots alone");
        return NULL;
    }
    PyObject *other = type->tp_alloc(type, 0);
    if (other == NULL)
        return NULL;
    for (PyTypeObject *t = type; t != &PyBaseObject_Type; t = t->tp_base)
        for (PyMemberDef *m = t->tp_members; m != NULL && m->name != NULL; m++) {
            PyObject *value = *(PyObject **)((char *)board + m->offset);
            if (value == NULL)  /* a slot never set stays unset */
                continue;
            if (PyList_Check(value))  /* (a list subclass too, as Python's [:] copies it) */
                value = PyList_GetSlice(value, 0, PyList_GET_SIZE(value));
            else
                Py_INCREF(value);
            if (value == NULL) {
                Py_DECREF(other);
                return NULL;
            }
            *(PyObject **)((char *)other + m->offset) = value;
        }
    return other;
}

static PyMethodDef METHODS[] = {
    {"copy_board", copy_board, METH_O,
     "copy_board(board) -> board: a new one of its class, each slot the board's, a list as "
     "a new list."},
    {"replay_moves", (PyCFunction)(void (*)(void))replay_moves, METH_FASTCALL,
     "replay_moves(board, moves) -> (tuple, list[int], list[int]) | None: as replay, for "
     "moves read already, with each ply's player and tiles."},
    {"move_of", move_of, METH_O,
     "move_of(word) -> (slot, target) | None: the move a word is, as replay reads it."},
    {"set_tables", (PyCFunction)(void (*)(void))set_tables, METH_FASTCALL,
     "set_tables(spellings, slots, placing) -> None: every move spelling's slot, each "
     "slot's piece and tiles, each move's fields' slot."},
    {"replay_body", (PyCFunction)(void (*)(void))replay_body, METH_FASTCALL,
     "replay_body(board, body) -> (tuple, int) | False | None: a body in the usual layout "
     "(\"1. X 2. Y\") played as replay plays its words, with the words played; False at "
     "a word that is no legal move read here; None for a body not ASCII or not so laid out."},
    {"replay", (PyCFunction)(void (*)(void))replay, METH_FASTCALL,
     "replay(board, words) -> (tuple, None, None) | None: the board's fields after every "
     "word played and the player to move found; None at a word that is no legal move "
     "read here."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "rules",
    "Tilewe's rules over a game's moves in one call (see rules.py).", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_rules(void)
{
    if (ZERO == NULL && (ZERO = PyLong_FromLong(0)) == NULL)
        return NULL;
    return PyModule_Create(&MODULE);
}
