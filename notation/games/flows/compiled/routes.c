/* Flows' search for a route still open, compiled: ``routes.open_route`` (its definition is
 * ``routes.open_route_python``; tests hold the two equal, route for route).
 *
 * ``set_tables(through, onward, to_goal, side_starts, partner)`` is given, once, the
 * Python module's tables (``THROUGH``, ``_ONWARD``, ``_TO_GOAL``, ``SIDE_STARTS``,
 * ``PARTNER``): nothing of the board's geometry is written here. ``open_route(tiles,
 * side)`` searches exactly as the Python does (the same depth-first order, so the same
 * route): a node is "entering hex h through its edge d", ``h * 6 + d``; an empty hex
 * joins all its edges; the walk back gives the route's (hex, entry edge, exit edge) steps.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define HEXES 37
#define NODES (HEXES * 6)
#define TILES 4
#define TURNS 6
#define STARTS_MAX 16
/* What the search pushes, at most: the side's starts, the onward nodes of each empty hex
 * (six at most, each hex once) and the next node of each tiled node (each node once). */
#define STACK_MAX (2 * NODES + HEXES * 6 + STARTS_MAX)

static int READY = 0;
static int THROUGH[TILES][TURNS][NODES];
static int ONWARD[6][HEXES][6];
static int ONWARD_N[6][HEXES];
static int TO_GOAL[6][HEXES];
static int STARTS[6][STARTS_MAX];
static int STARTS_N[6];
static int PARTNER[TILES][TURNS][6];

/* Each item of a sequence of exactly ``count`` (at most, with ``up_to``) whole numbers in
 * [low, high], into ``out``; the count read into ``*read``. -1 and an exception if not. */
static int numbers(PyObject *seq, Py_ssize_t count, int up_to, long low, long high, int *out,
                   int *read)
{
    PyObject *fast = PySequence_Fast(seq, "a table's row must be a sequence");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (up_to ? n > count : n != count) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "a table's row has %zd items, not %s%zd", n,
                     up_to ? "at most " : "", count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < low || v > high) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "a table holds %ld, outside [%ld, %ld]", v, low, high);
            return -1;
        }
        out[i] = (int)v;
    }
    if (read != NULL)
        *read = (int)n;
    Py_DECREF(fast);
    return 0;
}

/* The rows of a table of ``count`` rows, each given to ``row(i, item)``. */
static int rows(PyObject *seq, Py_ssize_t count, int (*row)(Py_ssize_t, PyObject *, void *),
                void *context)
{
    PyObject *fast = PySequence_Fast(seq, "a table must be a sequence");
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        PyErr_Format(PyExc_ValueError, "a table has %zd rows, not %zd",
                     PySequence_Fast_GET_SIZE(fast), count);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (row(i, PySequence_Fast_GET_ITEM(fast, i), context) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return 0;
}

static int through_turn(Py_ssize_t r, PyObject *item, void *tile)
{
    return numbers(item, NODES, 0, -6, NODES - 1, THROUGH[*(Py_ssize_t *)tile][r], NULL);
}

static int through_tile(Py_ssize_t t, PyObject *item, void *unused)
{
    (void)unused;
    return rows(item, TURNS, through_turn, &t);
}

static int partner_turn(Py_ssize_t r, PyObject *item, void *tile)
{
    return numbers(item, 6, 0, 0, 5, PARTNER[*(Py_ssize_t *)tile][r], NULL);
}

static int partner_tile(Py_ssize_t t, PyObject *item, void *unused)
{
    (void)unused;
    return rows(item, TURNS, partner_turn, &t);
}

static int onward_hex(Py_ssize_t h, PyObject *item, void *side)
{
    Py_ssize_t k = *(Py_ssize_t *)side;
    return numbers(item, 6, 1, 0, NODES - 1, ONWARD[k][h], &ONWARD_N[k][h]);
}

static int onward_side(Py_ssize_t k, PyObject *item, void *unused)
{
    (void)unused;
    return rows(item, HEXES, onward_hex, &k);
}

static int to_goal_side(Py_ssize_t k, PyObject *item, void *unused)
{
    (void)unused;
    return numbers(item, HEXES, 0, -1, 5, TO_GOAL[k], NULL);
}

static int starts_side(Py_ssize_t k, PyObject *item, void *unused)
{
    (void)unused;
    return numbers(item, STARTS_MAX, 1, 0, NODES - 1, STARTS[k], &STARTS_N[k]);
}

static PyObject *set_tables(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *through, *onward, *to_goal, *starts, *partner;
    if (!PyArg_ParseTuple(args, "OOOOO:set_tables", &through, &onward, &to_goal, &starts,
                          &partner))
        return NULL;
    READY = 0;
    if (rows(through, TILES, through_tile, NULL) < 0 || rows(onward, 6, onward_side, NULL) < 0 ||
        rows(to_goal, 6, to_goal_side, NULL) < 0 || rows(starts, 6, starts_side, NULL) < 0 ||
        rows(partner, TILES, partner_tile, NULL) < 0)
        return NULL;
    READY = 1;
    Py_RETURN_NONE;
}

/* The tiles as t * TURNS + r, or -1 for an empty hex. */
static int read_tiles(PyObject *tiles, int *out)
{
    PyObject *fast = PySequence_Fast(tiles, "tiles must be a sequence");
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != HEXES) {
        PyErr_Format(PyExc_ValueError, "%d hexes expected, not %zd", HEXES,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t h = 0; h < HEXES; h++) {
        PyObject *tile = PySequence_Fast_GET_ITEM(fast, h);
        if (tile == Py_None) {
            out[h] = -1;
            continue;
        }
        if (!PyTuple_Check(tile) || PyTuple_GET_SIZE(tile) != 2) {
            PyErr_SetString(PyExc_TypeError, "a tile is a (type, rotation) tuple or None");
            Py_DECREF(fast);
            return -1;
        }
        long t = PyLong_AsLong(PyTuple_GET_ITEM(tile, 0));
        long r = t == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(PyTuple_GET_ITEM(tile, 1));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (t < 0 || t >= TILES || r < 0 || r >= TURNS) {
            PyErr_Format(PyExc_ValueError, "tile (%ld, %ld) is not a type 0-3 at a rotation 0-5",
                         t, r);
            Py_DECREF(fast);
            return -1;
        }
        out[h] = (int)(t * TURNS + r);
    }
    Py_DECREF(fast);
    return 0;
}

/* The route ending by leaving ``node``'s hex through ``exit_edge`` (``_walk_back``). */
static PyObject *walk_back(const int *came, int node, int exit_edge)
{
    int steps[NODES][3], n = 0;
    while (node >= 0 && n < NODES) {
        int h = node / 6, d = node % 6;
        steps[n][0] = h, steps[n][1] = d, steps[n][2] = exit_edge;
        n++;
        node = came[node];
        exit_edge = (d + 3) % 6;
    }
    PyObject *route = PyTuple_New(n);
    if (route == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        const int *s = steps[n - 1 - i];
        PyObject *step = Py_BuildValue("(iii)", s[0], s[1], s[2]);
        if (step == NULL) {
            Py_DECREF(route);
            return NULL;
        }
        PyTuple_SET_ITEM(route, i, step);
    }
    return route;
}

static PyObject *open_route(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *tiles_given;
    int side;
    if (!PyArg_ParseTuple(args, "Oi:open_route", &tiles_given, &side))
        return NULL;
    if (!READY) {
        PyErr_SetString(PyExc_RuntimeError, "set_tables was not called");
        return NULL;
    }
    if (side < 0 || side > 5) {
        PyErr_Format(PyExc_ValueError, "side %d is not 0-5", side);
        return NULL;
    }
    int tiles[HEXES];
    if (read_tiles(tiles_given, tiles) < 0)
        return NULL;
    int goal = -1 - (side + 3) % 6;
    unsigned long long seen_hexes = 0;
    char seen[NODES];
    int came[NODES];
    memset(seen, 0, sizeof seen);
    int stack[STACK_MAX], parents[STACK_MAX], top = 0;
    for (int i = 0; i < STARTS_N[side]; i++) {
        stack[top] = STARTS[side][i];
        parents[top++] = -1;
    }
    while (top > 0) {
        top--;
        int node = stack[top], parent = parents[top];
        int h = node / 6, tile = tiles[h];
        if (tile < 0) {
            if (seen_hexes >> h & 1)
                continue;
            seen_hexes |= 1ULL << h;
            came[node] = parent;
            int e = TO_GOAL[side][h];
            if (e >= 0)
                return walk_back(came, node, e);
            for (int i = 0; i < ONWARD_N[side][h]; i++) {
                if (top >= STACK_MAX)
                    return PyErr_Format(PyExc_RuntimeError, "route search overflow");
                stack[top] = ONWARD[side][h][i];
                parents[top++] = node;
            }
        } else if (!seen[node]) {
            seen[node] = 1;
            came[node] = parent;
            int t = tile / TURNS, r = tile % TURNS;
            int next = THROUGH[t][r][node];
            if (next >= 0) {
                if (top >= STACK_MAX)
                    return PyErr_Format(PyExc_RuntimeError, "route search overflow");
                stack[top] = next;
                parents[top++] = node;
            } else if (next == goal) {
                return walk_back(came, node, PARTNER[t][r][node - h * 6]);
            }
        }
    }
    Py_RETURN_NONE;
}

static PyMethodDef METHODS[] = {
    {"set_tables", set_tables, METH_VARARGS, "The route search's tables, from the Python's."},
    {"open_route", open_route, METH_VARARGS,
     "A route from a side to the opposite side, empty hexes as wildcards, or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "routes", "Flows' route search, compiled (see routes.c).", -1,
    METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_routes(void)
{
    return PyModule_Create(&MODULE);
}
