/* Export's columns, compiled: position keys and the offsets of texts in one buffer.
 *
 * Keys are BLAKE2b with an 8-byte digest (RFC 7693), unkeyed, as
 * ``hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()`` gives it.
 * ``hex_digests(texts)`` takes a list of str and returns the list of their keys, 16
 * hex digits each: export writes one for every position, and the Python call that
 * makes a hash object for each cost more than the hashing. ``hex_digest_texts(data,
 * lengths)`` does the same for texts held as one buffer (``notation.core.texts.Texts``),
 * and returns the keys as one buffer of 16 bytes each. ``keys.py`` holds the
 * definition in Python (``hashlib``), used when this module is not built; a test holds
 * the two equal on random texts.
 *
 * ``text_offsets(lengths)`` turns the lengths of such texts (native 32-bit ints) into
 * where each starts, and where the last ends: Arrow's offsets of a string array.
 * ``parquet.py`` holds the definition in Python (``itertools.accumulate``).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define BLOCK 128
#define DIGEST 8

static const uint64_t IV[8] = {
    UINT64_C(0x6a09e667f3bcc908), UINT64_C(0xbb67ae8584caa73b),
    UINT64_C(0x3c6ef372fe94f82b), UINT64_C(0xa54ff53a5f1d36f1),
    UINT64_C(0x510e527fade682d1), UINT64_C(0x9b05688c2b3e6c1f),
    UINT64_C(0x1f83d9abfb41bd6b), UINT64_C(0x5be0cd19137e2179),
};

/* The message schedule: which word of the block each round's mixing takes. */
static const unsigned char SIGMA[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

static inline uint64_t rotate_right(uint64_t word, int bits)
{
    return (word >> bits) | (word << (64 - bits));
}

static inline uint64_t little_endian(const unsigned char *bytes)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t word;
    memcpy(&word, bytes, sizeof word);
    return word;
#else
    uint64_t word = 0;
    for (int at = 7; at >= 0; at--)
        word = (word << 8) | bytes[at];
    return word;
#endif
}

#define MIX(a, b, c, d, x, y)                          \
    do {                                               \
        v[a] = v[a] + v[b] + (x);                      \
        v[d] = rotate_right(v[d] ^ v[a], 32);          \
        v[c] = v[c] + v[d];                            \
        v[b] = rotate_right(v[b] ^ v[c], 24);          \
        v[a] = v[a] + v[b] + (y);                      \
        v[d] = rotate_right(v[d] ^ v[a], 16);          \
        v[c] = v[c] + v[d];                            \
        v[b] = rotate_right(v[b] ^ v[c], 63);          \
    } while (0)

/* Round ``r`` of the twelve (the message's order repeats after ten). */
#define ROUND(r)                                                          \
    do {                                                                  \
        MIX(0, 4, 8, 12, m[SIGMA[(r) % 10][0]], m[SIGMA[(r) % 10][1]]);   \
        MIX(1, 5, 9, 13, m[SIGMA[(r) % 10][2]], m[SIGMA[(r) % 10][3]]);   \
        MIX(2, 6, 10, 14, m[SIGMA[(r) % 10][4]], m[SIGMA[(r) % 10][5]]);  \
        MIX(3, 7, 11, 15, m[SIGMA[(r) % 10][6]], m[SIGMA[(r) % 10][7]]);  \
        MIX(0, 5, 10, 15, m[SIGMA[(r) % 10][8]], m[SIGMA[(r) % 10][9]]);  \
        MIX(1, 6, 11, 12, m[SIGMA[(r) % 10][10]], m[SIGMA[(r) % 10][11]]); \
        MIX(2, 7, 8, 13, m[SIGMA[(r) % 10][12]], m[SIGMA[(r) % 10][13]]);  \
        MIX(3, 4, 9, 14, m[SIGMA[(r) % 10][14]], m[SIGMA[(r) % 10][15]]);  \
    } while (0)

/* One block into the state ``h``; ``counted``: the bytes taken so far, this block's
 * included; ``last``: whether it is the final block. */
static void compress(uint64_t h[8], const unsigned char block[BLOCK], uint64_t counted,
                     int last)
{
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; i++)
        m[i] = little_endian(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[i + 8] = IV[i];
    }
    v[12] ^= counted; /* (texts are far below 2**64 bytes: the high word stays 0) */
    if (last)
        v[14] = ~v[14];
    /* The twelve rounds written out, so that every word's index is a constant and the
     * compiler keeps the words in registers (a loop over the rounds hashes at half the
     * speed). */
    ROUND(0); ROUND(1); ROUND(2); ROUND(3); ROUND(4); ROUND(5);
    ROUND(6); ROUND(7); ROUND(8); ROUND(9); ROUND(10); ROUND(11);
    for (int i = 0; i < 8; i++)
        h[i] ^= v[i] ^ v[i + 8];
}

/* The 16 hex digits of the 8-byte BLAKE2b digest of ``size`` bytes at ``data``. */
static void hex_digest(const unsigned char *data, Py_ssize_t size, char out[2 * DIGEST])
{
    static const char HEX[] = "0123456789abcdef";
    uint64_t h[8];
    unsigned char block[BLOCK];
    memcpy(h, IV, sizeof h);
    h[0] ^= UINT64_C(0x01010000) ^ DIGEST; /* no key, 8 bytes out */
    uint64_t counted = 0;
    while (size > BLOCK) {
        counted += BLOCK;
        compress(h, data, counted, 0);
        data += BLOCK;
        size -= BLOCK;
    }
    memset(block, 0, sizeof block);
    memcpy(block, data, (size_t)size);
    counted += (uint64_t)size;
    compress(h, block, counted, 1);
    for (int i = 0; i < DIGEST; i++) {
        unsigned int byte = (unsigned int)(h[i / 8] >> (8 * (i % 8))) & 0xff;
        out[2 * i] = HEX[byte >> 4];
        out[2 * i + 1] = HEX[byte & 15];
    }
}

static PyObject *hex_digests(PyObject *module, PyObject *texts)
{
    (void)module;
    if (!PyList_Check(texts)) {
        PyErr_SetString(PyExc_TypeError, "hex_digests(texts: list[str])");
        return NULL;
    }
    /* A copy holding its own references: nothing done while the keys are made (an
     * allocation may run a finalizer) can change or free what is being read. */
    PyObject *held = PyList_GetSlice(texts, 0, PyList_GET_SIZE(texts));
    if (held == NULL)
        return NULL;
    Py_ssize_t count = PyList_GET_SIZE(held);
    PyObject *keys = PyList_New(count);
    if (keys == NULL) {
        Py_DECREF(held);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *text = PyList_GET_ITEM(held, i);
        Py_ssize_t size;
        const char *bytes;
        char out[2 * DIGEST];
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "hex_digests: every text must be a str");
            Py_DECREF(keys);
            Py_DECREF(held);
            return NULL;
        }
        bytes = PyUnicode_AsUTF8AndSize(text, &size);
        if (bytes == NULL) {
            Py_DECREF(keys);
            Py_DECREF(held);
            return NULL;
        }
        hex_digest((const unsigned char *)bytes, size, out);
        PyObject *key = PyUnicode_DecodeASCII(out, 2 * DIGEST, NULL);
        if (key == NULL) {
            Py_DECREF(keys);
            Py_DECREF(held);
            return NULL;
        }
        PyList_SET_ITEM(keys, i, key);
    }
    Py_DECREF(held);
    return keys;
}

/* The keys of texts held as one buffer and their lengths (``notation.core.texts.Texts``):
 * each one's 16 hex digits, one after another, as bytes. */
static PyObject *hex_digest_texts(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyBytes_Check(args[0]) || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "hex_digest_texts(data: bytes, lengths: bytes)");
        return NULL;
    }
    const unsigned char *data = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    Py_ssize_t size = PyBytes_GET_SIZE(args[0]), lengths_size = PyBytes_GET_SIZE(args[1]);
    if (lengths_size % (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "hex_digest_texts: lengths of 4 bytes each");
        return NULL;
    }
    Py_ssize_t count = lengths_size / (Py_ssize_t)sizeof(int32_t);
    if (count > PY_SSIZE_T_MAX / (2 * DIGEST))
        return PyErr_NoMemory();
    PyObject *keys = PyBytes_FromStringAndSize(NULL, count * 2 * DIGEST);
    if (keys == NULL)
        return NULL;
    char *out = PyBytes_AS_STRING(keys);
    const char *lengths = PyBytes_AS_STRING(args[1]);
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        int32_t length;
        memcpy(&length, lengths + i * (Py_ssize_t)sizeof length, sizeof length);
        if (length < 0 || length > size - at) {
            Py_DECREF(keys);
            PyErr_SetString(PyExc_ValueError, "hex_digest_texts: lengths past the data");
            return NULL;
        }
        hex_digest(data + at, length, out + i * 2 * DIGEST);
        at += length;
    }
    if (at != size) {
        Py_DECREF(keys);
        PyErr_SetString(PyExc_ValueError, "hex_digest_texts: data past the lengths");
        return NULL;
    }
    return keys;
}

/* The offsets of texts of ``lengths`` (native 32-bit ints): 0, then each one's end. */
static PyObject *text_offsets(PyObject *module, PyObject *lengths)
{
    (void)module;
    if (!PyBytes_Check(lengths)) {
        PyErr_SetString(PyExc_TypeError, "text_offsets(lengths: bytes)");
        return NULL;
    }
    Py_ssize_t size = PyBytes_GET_SIZE(lengths);
    if (size % (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "text_offsets: lengths of 4 bytes each");
        return NULL;
    }
    Py_ssize_t count = size / (Py_ssize_t)sizeof(int32_t);
    PyObject *offsets = PyBytes_FromStringAndSize(NULL, size + (Py_ssize_t)sizeof(int32_t));
    if (offsets == NULL)
        return NULL;
    const char *in = PyBytes_AS_STRING(lengths);
    char *out = PyBytes_AS_STRING(offsets);
    int64_t end = 0;
    int32_t written = 0;
    memcpy(out, &written, sizeof written);
    for (Py_ssize_t i = 0; i < count; i++) {
        int32_t length;
        memcpy(&length, in + i * (Py_ssize_t)sizeof length, sizeof length);
        end += length;
        if (length < 0 || end > INT32_MAX) {
            Py_DECREF(offsets);
            PyErr_SetString(PyExc_ValueError,
                            "text_offsets: a length below 0, or texts past 32-bit offsets");
            return NULL;
        }
        written = (int32_t)end;
        memcpy(out + (i + 1) * (Py_ssize_t)sizeof written, &written, sizeof written);
    }
    return offsets;
}

static PyMethodDef METHODS[] = {
    {"hex_digests", hex_digests, METH_O,
     "hex_digests(texts: list[str]) -> list[str]: each text's 8-byte BLAKE2b digest of its "
     "UTF-8, in hex."},
    {"hex_digest_texts", (PyCFunction)(void (*)(void))hex_digest_texts, METH_FASTCALL,
     "hex_digest_texts(data: bytes, lengths: bytes) -> bytes: hex_digests of texts held "
     "as one buffer and their lengths (native 32-bit ints), one after another."},
    {"text_offsets", text_offsets, METH_O,
     "text_offsets(lengths: bytes) -> bytes: 0, then where each text of those lengths ends "
     "(native 32-bit ints)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "columns",
    "Export's columns, compiled: position keys (keys.py holds their Python definition) and "
    "text offsets (parquet.py holds theirs).",
    -1, METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_columns(void)
{
    return PyModule_Create(&MODULE);
}
