/* The tag lines that open a game, read in C: the fast path's header (``scanner.py``'s
 * ``opening_tags`` and ``visitor.py``'s ``tag_parts`` hold the definition, from the
 * grammar's TAG terminal; a test holds the two equal on near-usual headers).
 *
 * ``opening_tags(text, first_line, Tag, Pos)`` reads the lines that open ``text`` as
 * ``opening_tags`` does: blank lines (spaces and tabs) and lines of one whole tag,
 * ``[ Key "value" ]`` with spaces or tabs around its parts, until the first other line.
 * It gives the tags, each a ``Tag(key, value, Pos(line, column))`` (its line counted
 * from ``first_line``, its column from 1), where that other line starts, and its line
 * from 0. It reads only what it can read as plainly as the grammar: None for anything
 * else (a text not of one byte a character, a value with a backslash, a broken tag
 * line), which the Python definition then reads and judges.
 *
 * A Tag is made as its dataclass's ``__init__`` would make it (its three slots set), and
 * a Pos as its named tuple's ``__new__`` would: made here, neither runs a Python frame,
 * which was most of a header's time.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static int blank(Py_UCS1 c)
{
    return c == ' ' || c == '\t';
}

static int key_start(Py_UCS1 c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int key_part(Py_UCS1 c)
{
    return key_start(c) || (c >= '0' && c <= '9') || c == '_';
}

/* One tag from text[at] (its "["), as the TAG terminal reads one with no backslash, then
 * blanks to the line's end: the ends of its key and value, and where its line ends (its
 * "\n" or the text's end); 0, or -1 where it is not such a tag. */
static int read_tag(const Py_UCS1 *text, Py_ssize_t size, Py_ssize_t at, Py_ssize_t key[2],
                    Py_ssize_t value[2], Py_ssize_t *line_end)
{
    Py_ssize_t i = at + 1;
    while (i < size && blank(text[i]))
        i++;
    if (i == size || !key_start(text[i]))
        return -1;
    key[0] = i;
    while (i < size && key_part(text[i]))
        i++;
    key[1] = i;
    if (i == size || !blank(text[i]))
        return -1;
    while (i < size && blank(text[i]))
        i++;
    if (i == size || text[i] != '"')
        return -1;
    value[0] = ++i;
    while (i < size && text[i] != '"' && text[i] != '\\' && text[i] != '\n')
        i++;
    if (i == size || text[i] != '"')
        return -1;
    value[1] = i++;
    while (i < size && blank(text[i]))
        i++;
    if (i == size || text[i] != ']')
        return -1;
    i++;
    while (i < size && blank(text[i]))
        i++;
    if (i < size && text[i] != '\n')
        return -1;
    *line_end = i;
    return 0;
}

static PyObject *KEY = NULL, *VALUE = NULL, *POS = NULL;  /* the Tag's slots, interned */

/* ``Pos(line, column)``: a tuple of ``pos_type``, made by ``tuple.__new__`` itself (which
 * sets up what a tuple of the running Python keeps, its hash's cache on 3.14). */
static PyObject *new_pos(PyTypeObject *pos_type, Py_ssize_t line, Py_ssize_t column)
{
    PyObject *items = Py_BuildValue("(nn)", line, column);
    PyObject *args = items ? PyTuple_Pack(1, items) : NULL;
    PyObject *pos = args ? PyTuple_Type.tp_new(pos_type, args, NULL) : NULL;
    Py_XDECREF(items);
    Py_XDECREF(args);
    return pos;
}

/* ``Tag(key, value, pos)``, its slots set as ``__init__`` sets them (the references are
 * the tag's: stolen, also on failure). */
static PyObject *new_tag(PyTypeObject *tag_type, PyObject *key, PyObject *value,
                         PyObject *pos)
{
    PyObject *tag = key && value && pos ? tag_type->tp_alloc(tag_type, 0) : NULL;
    if (tag == NULL || PyObject_GenericSetAttr(tag, KEY, key) < 0 ||
            PyObject_GenericSetAttr(tag, VALUE, value) < 0 ||
            PyObject_GenericSetAttr(tag, POS, pos) < 0)
        Py_CLEAR(tag);
    Py_XDECREF(key);
    Py_XDECREF(value);
    Py_XDECREF(pos);
    return tag;
}

static PyObject *opening_tags(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Py_ssize_t first_line;
    /* Tag: a class of its own, on object alone (its instances made here as object's are,
     * their slots set after); Pos: a tuple's subclass. */
    if (nargs != 4 || !PyUnicode_Check(args[0]) || !PyLong_Check(args[1]) ||
            !PyType_Check(args[2]) || !PyType_Check(args[3]) ||
            !PyType_HasFeature((PyTypeObject *)args[2], Py_TPFLAGS_HEAPTYPE) ||
            ((PyTypeObject *)args[2])->tp_base != &PyBaseObject_Type ||
            ((PyTypeObject *)args[2])->tp_itemsize != 0 ||
            !PyType_IsSubtype((PyTypeObject *)args[3], &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError,
                        "opening_tags(text: str, first_line: int, Tag: class, Pos: tuple class)");
        return NULL;
    }
    PyObject *arg = args[0];
    PyTypeObject *tag_type = (PyTypeObject *)args[2], *pos_type = (PyTypeObject *)args[3];
    first_line = PyLong_AsSsize_t(args[1]);
    if (first_line == -1 && PyErr_Occurred()) {  /* past a C size: Python reads it */
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    if (PyUnicode_KIND(arg) != PyUnicode_1BYTE_KIND ||
            first_line > PY_SSIZE_T_MAX - PyUnicode_GET_LENGTH(arg) || first_line < 0)
        Py_RETURN_NONE;  /* (a line number that could pass a C size too) */
    const Py_UCS1 *text = PyUnicode_1BYTE_DATA(arg);
    Py_ssize_t size = PyUnicode_GET_LENGTH(arg), at = 0, line = 0;
    PyObject *tags = PyList_New(0);
    if (tags == NULL)
        return NULL;
    while (at < size) {
        Py_ssize_t i = at;
        while (i < size && blank(text[i]))
            i++;
        if (i < size && text[i] == '[') {
            Py_ssize_t key[2], value[2], end;
            if (read_tag(text, size, i, key, value, &end) < 0) {  /* broken: Python says */
                Py_DECREF(tags);
                Py_RETURN_NONE;
            }
            /* (each made only once the one before it was: none with an error pending) */
            PyObject *k = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, text + key[0],
                                                    key[1] - key[0]);
            PyObject *v = k ? PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, text + value[0],
                                                        value[1] - value[0]) : NULL;
            PyObject *p = v ? new_pos(pos_type, first_line + line, i - at + 1) : NULL;
            PyObject *tag = new_tag(tag_type, k, v, p);
            if (tag == NULL || PyList_Append(tags, tag) < 0) {
                Py_XDECREF(tag);
                Py_DECREF(tags);
                return NULL;
            }
            Py_DECREF(tag);
            i = end;
        }
        else if (i < size && text[i] != '\n')  /* the body's first line */
            break;
        at = i + 1;
        line++;
    }
    return Py_BuildValue("(Nnn)", tags, at, line);
}

static PyMethodDef METHODS[] = {
    {"opening_tags", (PyCFunction)(void (*)(void))opening_tags, METH_FASTCALL,
     "opening_tags(text, first_line, Tag, Pos) -> (list[Tag], int, int) | None: the tag "
     "lines that open text, where the next line starts and its line; None: read it in "
     "Python."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "tags",
    "The tag lines that open a game, read in C (see scanner.opening_tags).", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_tags(void)
{
    if ((KEY == NULL && (KEY = PyUnicode_InternFromString("key")) == NULL) ||
            (VALUE == NULL && (VALUE = PyUnicode_InternFromString("value")) == NULL) ||
            (POS == NULL && (POS = PyUnicode_InternFromString("pos")) == NULL))
        return NULL;
    return PyModule_Create(&MODULE);
}
