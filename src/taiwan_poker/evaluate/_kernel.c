/* Batch hand evaluator kernel: rank-count keys looked up in the shared hash
 * table built by tables.py.  Works on a range of rows with the GIL released,
 * so Python threads can split a batch across cores. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define HASH_BITS 17
#define HASH_MASK ((1u << HASH_BITS) - 1u)
#define HASH_MULT 0x9E3779B97F4A7C15ULL
#define MAX_INDEX 416

static inline uint32_t lookup(const uint64_t *keys, const uint32_t *vals, uint64_t key) {
    uint32_t slot = (uint32_t)((key * HASH_MULT) >> (64 - HASH_BITS));
    for (;;) {
        uint64_t k = keys[slot];
        if (k == key) return vals[slot];
        if (k == 0) return 0;
        slot = (slot + 1u) & HASH_MASK;
    }
}

#define EVAL_LOOP(T)                                                          \
    for (Py_ssize_t i = start; i < stop; i++) {                               \
        const T *row = (const T *)cards + i * k;                              \
        uint64_t key = 0, sk[4] = {0, 0, 0, 0};                               \
        int sc[4] = {0, 0, 0, 0};                                             \
        for (Py_ssize_t j = 0; j < k; j++) {                                  \
            int64_t c = (int64_t)row[j];                                      \
            if (c < 0 || c >= MAX_INDEX) { bad = i; goto done; }              \
            uint64_t b = bits[c];                                             \
            uint8_t s = suits[c];                                             \
            key += b; sk[s] += b; sc[s]++;                                    \
        }                                                                     \
        uint32_t v = lookup(keys, nonflush, key);                             \
        for (int s = 0; s < 4; s++) {                                         \
            if (sc[s] >= 5) {                                                 \
                uint32_t f = lookup(keys, flush, sk[s]);                      \
                if (f > v) v = f;                                             \
                break;                                                        \
            }                                                                 \
        }                                                                     \
        out[i] = v;                                                           \
    }

static PyObject *eval_rows(PyObject *self, PyObject *args) {
    Py_buffer bc, bb, bs, bk, bn, bf, bo;
    Py_ssize_t k, itemsize, start, stop;
    if (!PyArg_ParseTuple(args, "y*nny*y*y*y*y*w*nn", &bc, &k, &itemsize, &bb, &bs, &bk, &bn, &bf, &bo,
                          &start, &stop))
        return NULL;
    const void *cards = bc.buf;
    const uint64_t *bits = (const uint64_t *)bb.buf;
    const uint8_t *suits = (const uint8_t *)bs.buf;
    const uint64_t *keys = (const uint64_t *)bk.buf;
    const uint32_t *nonflush = (const uint32_t *)bn.buf;
    const uint32_t *flush = (const uint32_t *)bf.buf;
    uint32_t *out = (uint32_t *)bo.buf;
    Py_ssize_t bad = -1;
    int ok = (bb.len >= MAX_INDEX * 8 && bs.len >= MAX_INDEX && bk.len >= (8 << HASH_BITS) &&
              bn.len >= (4 << HASH_BITS) && bf.len >= (4 << HASH_BITS) && k >= 1 && start >= 0 &&
              stop >= start && bc.len >= stop * k * itemsize && bo.len >= stop * 4);
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        switch (itemsize) {
        case 1: EVAL_LOOP(uint8_t) break;
        case 2: EVAL_LOOP(int16_t) break;
        case 4: EVAL_LOOP(int32_t) break;
        case 8: EVAL_LOOP(int64_t) break;
        default: ok = 0;
        }
    done:;
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&bc); PyBuffer_Release(&bb); PyBuffer_Release(&bs); PyBuffer_Release(&bk);
    PyBuffer_Release(&bn); PyBuffer_Release(&bf); PyBuffer_Release(&bo);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "eval_rows: inconsistent buffer sizes or item size");
        return NULL;
    }
    return PyLong_FromSsize_t(bad);
}

static PyMethodDef methods[] = {
    {"eval_rows", eval_rows, METH_VARARGS,
     "eval_rows(cards, k, itemsize, card_bits, card_suit, keys, nonflush, flush, out, start, stop) -> "
     "first bad row or -1"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "Batch hand evaluator kernel.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
