/* Compiled kernel of the evaluator and of the equity engine.
 *
 * eval_rows      batch evaluator: rank-count keys looked up in the shared hash
 *                table built by tables.py, over a range of rows with the GIL
 *                released (Python threads split a batch across cores).
 * prepare        packs one ranking's columns of that table into a compact
 *                table of its own (a "Lookup"): one 64-bit word a slot holding
 *                the key (rank counts, 3 bits a rank) and the value.
 * hand_value     one hand of 5-7 Card objects (reads .rank and .suit).
 * exact_tally    exact showdown tallies over every deal, enumerated as face
 *                patterns weighted by their physical counts.
 * mc_tally       Monte Carlo showdown tallies: deals drawn with a seeded
 *                xoshiro256** generator, one stream per chunk of deals.
 *
 * A tally is a P x P int64 matrix: counts[i * P + k - 1] = deals (exact:
 * physical deals) in which player i holds one of exactly k best hands. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#define HASH_BITS 17
#define HASH_MASK ((1u << HASH_BITS) - 1u)
#define HASH_MULT 0x9E3779B97F4A7C15ULL
#define MAX_INDEX 416
#define MAX_PLAYERS 10
#define MC_CHUNK 16384
#define MAX_REJECT_STREAK 1000000

/* ------------------------------------------------------------------------------------------ eval_rows */

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

/* ------------------------------------------------------------------------------- dense lookup tables */

/* prepare() turns one ranking's columns of the shared hash table into dense arrays indexed by the rank
 * multiset itself, so a lookup needs no probing and touches one small array.
 *
 * A multiset of at most 7 cards is its rank counts three bits a rank (RANK_BIT): "key8".  Multiplying
 * key8 by sum_j 8^j puts in field j the number P_j of cards of rank <= j (no carries: P_j <= 7).  The
 * stars-and-bars word of a multiset has its bars at P_j + j, so its colex number is
 * sum_j C(P_j + j, j + 1):
 *   - over the 12 bars j < 12 for exactly 7 cards: 0 .. C(19, 7) - 1 (seven_index);
 *   - over the 13 bars j < 13 for at most 7 cards (a 14th, absent rank fills up to 7): 0 .. C(20, 7) - 1
 *     (upto7_index).
 * The tables *_PART add three fields at a time. */
#define SEVEN_COUNT 50388
#define UPTO7_COUNT 77520
#define PREFIX_MULT 0x0000249249249249ULL /* sum_{j<13} 8^j (fields above 13 are never read) */

static uint64_t RANK_BIT[13];           /* 1 << 3 * rank */
static uint64_t CARD_BIT[MAX_INDEX];    /* RANK_BIT of the card's rank, by physical index (faces: 0..51) */
static uint8_t CARD_SUIT[MAX_INDEX];
static uint32_t SUIT_ONE[MAX_INDEX];    /* 1 << 8 * suit: suit counts a byte each */
static uint16_t SEVEN_PART[4][512];
static uint32_t UPTO7_PART[5][512];

static inline uint32_t seven_index(uint64_t key8) {
    uint64_t p = key8 * PREFIX_MULT;
    return (uint32_t)SEVEN_PART[0][p & 511] + SEVEN_PART[1][(p >> 9) & 511] + SEVEN_PART[2][(p >> 18) & 511] +
           SEVEN_PART[3][(p >> 27) & 511];
}

static inline uint32_t upto7_index(uint64_t key8) {
    uint64_t p = key8 * PREFIX_MULT;
    return UPTO7_PART[0][p & 511] + UPTO7_PART[1][(p >> 9) & 511] + UPTO7_PART[2][(p >> 18) & 511] +
           UPTO7_PART[3][(p >> 27) & 511] + UPTO7_PART[4][(p >> 36) & 511];
}

static void init_index_parts(void) {
    uint32_t binom[21][14] = {{0}};
    for (int n = 0; n < 21; n++) {
        binom[n][0] = 1;
        for (int k = 1; k < 14 && k <= n; k++) binom[n][k] = binom[n - 1][k - 1] + binom[n - 1][k];
    }
    for (int g = 0; g < 5; g++)
        for (int idx = 0; idx < 512; idx++) {
            uint32_t seven = 0, upto7 = 0;
            for (int t = 0; t < 3; t++) {
                int j = 3 * g + t, pj = (idx >> (3 * t)) & 7;
                if (j < 12) seven += binom[pj + j][j + 1];
                if (j < 13) upto7 += binom[pj + j][j + 1];
            }
            if (g < 4) SEVEN_PART[g][idx] = (uint16_t)seven;
            UPTO7_PART[g][idx] = upto7;
        }
}

/* Showdowns only compare values, so the equity code works on "classes": the rank of a value among the
 * distinct values of the table (1..12,376), which fit 16 bits and halve the arrays it reads. */
typedef struct {
    PyObject_HEAD
    uint32_t *value;       /* by upto7_index: best non-flush value of the multiset (5-7 cards) */
    uint32_t *flush_value; /* by upto7_index: best flush value of the multiset as one suit's cards */
    uint16_t *flush_class; /* by upto7_index: the class of flush_value */
    uint16_t *seven;       /* by seven_index: the class of the non-flush value of a 7-card multiset */
} LookupObject;

static void lookup_dealloc(LookupObject *self) {
    PyMem_Free(self->value);
    PyMem_Free(self->flush_value);
    PyMem_Free(self->flush_class);
    PyMem_Free(self->seven);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject LookupType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "taiwan_poker.evaluate._kernel.Lookup",
    .tp_doc = "One ranking's hand values, in the kernel's dense arrays (made by prepare()).",
    .tp_basicsize = sizeof(LookupObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)lookup_dealloc,
};

/* Classes of values below 2^24: a bit set of the values present and, per 64-bit word, how many come before. */
#define VALUE_BITS 24
#define VALUE_WORDS ((1u << VALUE_BITS) / 64u)

static inline uint32_t popcount64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_popcountll(x);
#else
    uint32_t n = 0;
    for (; x; x &= x - 1) n++;
    return n;
#endif
}

static uint32_t class_of(const uint64_t *present, const uint32_t *before, uint32_t v) {
    return before[v >> 6] + popcount64(present[v >> 6] & ((1ULL << (v & 63)) - 1ULL)) + 1;
}

static PyObject *prepare(PyObject *self, PyObject *args) {
    Py_buffer bk, bn, bf;
    if (!PyArg_ParseTuple(args, "y*y*y*", &bk, &bn, &bf)) return NULL;
    PyObject *result = NULL;
    LookupObject *lk = NULL;
    uint64_t *present = NULL, *key8 = NULL;
    uint32_t *before = NULL;
    Py_ssize_t size = (Py_ssize_t)1 << HASH_BITS;
    if (bk.len < size * 8 || bn.len < size * 4 || bf.len < size * 4) {
        PyErr_SetString(PyExc_ValueError, "prepare: the table columns are too short");
        goto out;
    }
    lk = PyObject_New(LookupObject, &LookupType);
    if (lk == NULL) goto out;
    lk->value = PyMem_Calloc(UPTO7_COUNT, sizeof(uint32_t));
    lk->flush_value = PyMem_Calloc(UPTO7_COUNT, sizeof(uint32_t));
    lk->flush_class = PyMem_Calloc(UPTO7_COUNT, sizeof(uint16_t));
    lk->seven = PyMem_Calloc(SEVEN_COUNT, sizeof(uint16_t));
    present = PyMem_Calloc(VALUE_WORDS, sizeof(uint64_t));
    before = PyMem_Malloc(VALUE_WORDS * sizeof(uint32_t));
    key8 = PyMem_Malloc((size_t)size * sizeof(uint64_t));
    if (lk->value == NULL || lk->flush_value == NULL || lk->flush_class == NULL || lk->seven == NULL ||
        present == NULL || before == NULL || key8 == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    const uint64_t *keys = bk.buf;
    const uint32_t *nf = bn.buf, *fl = bf.buf;
    for (Py_ssize_t i = 0; i < size; i++) {
        uint64_t k16 = keys[i], k = 0;
        int total = 0;
        key8[i] = 0;
        if (k16 == 0) continue;
        for (int r = 0; r < 13; r++) {
            uint64_t c = (k16 >> (4 * r)) & 15u;
            total += (int)c;
            k += c * RANK_BIT[r];
        }
        if (total > 7 || (nf[i] | fl[i]) >> VALUE_BITS) {
            PyErr_SetString(PyExc_ValueError, "prepare: not a table of 5- to 7-card hands");
            goto out;
        }
        key8[i] = k;
        present[nf[i] >> 6] |= 1ULL << (nf[i] & 63);
        present[fl[i] >> 6] |= 1ULL << (fl[i] & 63);
    }
    uint32_t count = 0;
    for (uint32_t w = 0; w < VALUE_WORDS; w++) {
        before[w] = count;
        count += popcount64(present[w]);
    }
    if (count >= 65535) {
        PyErr_SetString(PyExc_ValueError, "prepare: too many distinct hand values for 16-bit classes");
        goto out;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        uint64_t k = key8[i];
        if (k == 0) continue;
        uint32_t at = upto7_index(k);
        lk->value[at] = nf[i];
        lk->flush_value[at] = fl[i];
        lk->flush_class[at] = (uint16_t)class_of(present, before, fl[i]);
        if (((k * PREFIX_MULT) >> 36 & 7) == 7) lk->seven[seven_index(k)] = (uint16_t)class_of(present, before, nf[i]);
    }
    result = (PyObject *)lk;
    lk = NULL;
out:
    Py_XDECREF(lk);
    PyMem_Free(present);
    PyMem_Free(before);
    PyMem_Free(key8);
    PyBuffer_Release(&bk); PyBuffer_Release(&bn); PyBuffer_Release(&bf);
    return result;
}

/* The board's running sums: rank-count key, per-suit rank keys and per-suit counts. */
typedef struct {
    uint64_t key;
    uint64_t sk[4];
    int sc[4];
} Sums;

static inline void sums_add(Sums *s, int c) {
    uint64_t b = CARD_BIT[c];
    int u = CARD_SUIT[c];
    s->key += b; s->sk[u] += b; s->sc[u]++;
}

static inline void sums_remove(Sums *s, int c) {
    uint64_t b = CARD_BIT[c];
    int u = CARD_SUIT[c];
    s->key -= b; s->sk[u] -= b; s->sc[u]--;
}

/* The suit holding three or more of the five board cards, or -1: only it can make a flush. */
static inline int flush_suit(const Sums *s) {
    for (int u = 0; u < 4; u++)
        if (s->sc[u] >= 3) return u;
    return -1;
}

/* Class of a five-card board plus two hole cards (physical indices or faces). */
static inline uint32_t value7(const LookupObject *lk, const Sums *b, int fs, int h0, int h1) {
    uint64_t b0 = CARD_BIT[h0], b1 = CARD_BIT[h1];
    uint32_t v = lk->seven[seven_index(b->key + b0 + b1)];
    if (fs >= 0) {
        int s0 = CARD_SUIT[h0] == fs, s1 = CARD_SUIT[h1] == fs;
        if (b->sc[fs] + s0 + s1 >= 5) {
            uint32_t f = lk->flush_class[upto7_index(b->sk[fs] + (s0 ? b0 : 0) + (s1 ? b1 : 0))];
            if (f > v) v = f;
        }
    }
    return v;
}

/* Adds one showdown of weight w to the tally. */
static inline void tally(int64_t *counts, const uint32_t *val, int P, int64_t w) {
    uint32_t best = val[0];
    for (int i = 1; i < P; i++)
        if (val[i] > best) best = val[i];
    int nb = 0;
    for (int i = 0; i < P; i++) nb += val[i] == best;
    for (int i = 0; i < P; i++)
        if (val[i] == best) counts[i * P + nb - 1] += w;
}

/* --------------------------------------------------------------------------------------- hand_value */

static PyObject *STR_RANK, *STR_SUIT;

/* The last card class seen and where its instances keep .rank and .suit when those are plain slots (as in
 * a dataclass with slots=True): then they are read straight from the object, much faster than getattr. */
static PyTypeObject *slot_type = NULL;
static Py_ssize_t rank_offset = -1, suit_offset = -1;

static Py_ssize_t slot_offset(PyTypeObject *type, PyObject *name) {
    PyObject *d = _PyType_Lookup(type, name); /* borrowed */
    if (d == NULL || !Py_IS_TYPE(d, &PyMemberDescr_Type)) return -1;
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    return m->type == T_OBJECT_EX ? m->offset : -1;
}

static void learn_type(PyTypeObject *type) {
    Py_INCREF(type);
    Py_XSETREF(slot_type, type);
    rank_offset = slot_offset(type, STR_RANK);
    suit_offset = slot_offset(type, STR_SUIT);
    if (rank_offset < 0 || suit_offset < 0) rank_offset = suit_offset = -1;
}

static int as_small(PyObject *v, PyObject *name, int limit, long *out) {
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (x < 0 || x >= limit) {
        PyErr_Format(PyExc_IndexError, "card %U %ld out of range 0..%d", name, x, limit - 1);
        return -1;
    }
    *out = x;
    return 0;
}

static int read_card(PyObject *card, long *rank, long *suit) {
    if (Py_TYPE(card) != slot_type) learn_type(Py_TYPE(card));
    if (rank_offset >= 0) {
        PyObject *r = *(PyObject **)((char *)card + rank_offset);
        PyObject *s = *(PyObject **)((char *)card + suit_offset);
        if (r != NULL && s != NULL) return as_small(r, STR_RANK, 13, rank) < 0 ? -1 : as_small(s, STR_SUIT, 4, suit);
    }
    PyObject *r = PyObject_GetAttr(card, STR_RANK);
    if (r == NULL) return -1;
    int bad = as_small(r, STR_RANK, 13, rank);
    Py_DECREF(r);
    if (bad) return -1;
    PyObject *s = PyObject_GetAttr(card, STR_SUIT);
    if (s == NULL) return -1;
    bad = as_small(s, STR_SUIT, 4, suit);
    Py_DECREF(s);
    return bad ? -1 : 0;
}

static PyObject *hand_value(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !Py_IS_TYPE(args[1], &LookupType)) {
        PyErr_SetString(PyExc_TypeError, "hand_value(cards, lookup)");
        return NULL;
    }
    const LookupObject *lk = (const LookupObject *)args[1];
    PyObject *seq = PySequence_Fast(args[0], "hand_value: cards must be a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 5 || n > 7) {
        Py_DECREF(seq);
        return PyLong_FromLong(-1); /* the caller raises its own error */
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    Sums s = {0, {0, 0, 0, 0}, {0, 0, 0, 0}};
    for (Py_ssize_t i = 0; i < n; i++) {
        long rank, suit;
        if (read_card(items[i], &rank, &suit) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
        sums_add(&s, (int)(rank * 4 + suit));
    }
    Py_DECREF(seq);
    uint32_t v = lk->value[upto7_index(s.key)];
    for (int u = 0; u < 4; u++) {
        if (s.sc[u] >= 5) {
            uint32_t f = lk->flush_value[upto7_index(s.sk[u])];
            if (f > v) v = f;
            break;
        }
    }
    return PyLong_FromUnsignedLong(v);
}

/* -------------------------------------------------------------------------------------- exact_tally */

typedef struct {
    const LookupObject *lk;
    int P, nrange;
    int rem[52];                      /* unseen copies of each face, less the ones placed so far */
    Sums board;
    int fs;                           /* flush_suit(board) at a complete board */
    int fixed[MAX_PLAYERS][2];        /* faces of exact holdings, -1 for a range */
    const int16_t *combos[MAX_PLAYERS];
    Py_ssize_t ncombos[MAX_PLAYERS];
    int order[MAX_PLAYERS];           /* the range players, in order */
    uint32_t val[MAX_PLAYERS];
    int64_t counts[MAX_PLAYERS * MAX_PLAYERS];
    int64_t total;
} Exact;

static void exact_ranges(Exact *e, int ri, int64_t w) {
    int p = e->order[ri];
    const int16_t *c = e->combos[p];
    int last = ri + 1 == e->nrange;
    for (Py_ssize_t j = 0; j < e->ncombos[p]; j++) {
        int a = c[2 * j], b = c[2 * j + 1];
        int64_t f;
        if (a == b) {
            int r = e->rem[a];
            if (r < 2) continue;
            f = (int64_t)r * (r - 1) / 2;
        } else {
            int ra = e->rem[a], rb = e->rem[b];
            if (ra == 0 || rb == 0) continue;
            f = (int64_t)ra * rb;
        }
        e->val[p] = value7(e->lk, &e->board, e->fs, a, b);
        if (last) {
            tally(e->counts, e->val, e->P, w * f);
            e->total += w * f;
        } else {
            e->rem[a]--; e->rem[b]--;
            exact_ranges(e, ri + 1, w * f);
            e->rem[a]++; e->rem[b]++;
        }
    }
}

static void exact_board(Exact *e, int f0, int left, int64_t w) {
    if (left == 0) {
        e->fs = flush_suit(&e->board);
        for (int p = 0; p < e->P; p++)
            if (e->fixed[p][0] >= 0) e->val[p] = value7(e->lk, &e->board, e->fs, e->fixed[p][0], e->fixed[p][1]);
        if (e->nrange) {
            exact_ranges(e, 0, w);
        } else {
            tally(e->counts, e->val, e->P, w);
            e->total += w;
        }
        return;
    }
    for (int f = f0; f < 52; f++) {
        int r = e->rem[f];
        if (r == 0) continue;
        int64_t ww = w;
        int m = 1;
        for (; m <= left && m <= r; m++) {
            ww = ww * (r - m + 1) / m; /* w * C(r, m): exact at each step */
            sums_add(&e->board, f);
            e->rem[f] = r - m;
            exact_board(e, f + 1, left - m, ww);
        }
        for (m--; m > 0; m--) sums_remove(&e->board, f);
        e->rem[f] = r;
    }
}

static PyObject *exact_tally(PyObject *self, PyObject *args) {
    PyObject *lk_obj, *combos;
    Py_buffer brem, bboard, bfixed, bout;
    if (!PyArg_ParseTuple(args, "O!y*y*y*Ow*", &LookupType, &lk_obj, &brem, &bboard, &bfixed, &combos, &bout))
        return NULL;
    Py_buffer bcombo[MAX_PLAYERS];
    int held = 0;
    PyObject *result = NULL;
    Exact *e = PyMem_Calloc(1, sizeof(Exact));
    if (e == NULL) { PyErr_NoMemory(); goto out; }
    Py_ssize_t P = bfixed.len / (2 * (Py_ssize_t)sizeof(int16_t));
    Py_ssize_t nboard = bboard.len / (Py_ssize_t)sizeof(int16_t);
    if (P < 1 || P > MAX_PLAYERS || brem.len != 52 * (Py_ssize_t)sizeof(int32_t) || nboard > 5 ||
        !PyTuple_Check(combos) || PyTuple_GET_SIZE(combos) != P || bout.len < P * P * 8) {
        PyErr_SetString(PyExc_ValueError, "exact_tally: inconsistent arguments");
        goto out;
    }
    e->lk = (const LookupObject *)lk_obj;
    e->P = (int)P;
    const int32_t *rem = brem.buf;
    const int16_t *board = bboard.buf, *fixed = bfixed.buf;
    for (int f = 0; f < 52; f++) {
        if (rem[f] < 0 || rem[f] > 8) { PyErr_SetString(PyExc_ValueError, "exact_tally: bad counts"); goto out; }
        e->rem[f] = rem[f];
    }
    for (Py_ssize_t i = 0; i < nboard; i++) {
        if (board[i] < 0 || board[i] >= 52) { PyErr_SetString(PyExc_ValueError, "exact_tally: bad face"); goto out; }
        sums_add(&e->board, board[i]);
    }
    for (int p = 0; p < e->P; p++) {
        PyObject *item = PyTuple_GET_ITEM(combos, p);
        int a = fixed[2 * p], b = fixed[2 * p + 1];
        if (item == Py_None) {
            if (a < 0 || a >= 52 || b < 0 || b >= 52) {
                PyErr_SetString(PyExc_ValueError, "exact_tally: an exact holding needs two faces");
                goto out;
            }
            e->fixed[p][0] = a; e->fixed[p][1] = b;
            continue;
        }
        e->fixed[p][0] = e->fixed[p][1] = -1;
        if (PyObject_GetBuffer(item, &bcombo[held], PyBUF_SIMPLE) < 0) goto out;
        const int16_t *c = bcombo[held].buf;
        Py_ssize_t n = bcombo[held].len / (2 * (Py_ssize_t)sizeof(int16_t));
        held++;
        for (Py_ssize_t j = 0; j < 2 * n; j++) {
            if (c[j] < 0 || c[j] >= 52) { PyErr_SetString(PyExc_ValueError, "exact_tally: bad face"); goto out; }
        }
        e->combos[p] = c;
        e->ncombos[p] = n;
        e->order[e->nrange++] = p;
    }
    int need = 5 - (int)nboard;
    Py_BEGIN_ALLOW_THREADS
    exact_board(e, 0, need, 1);
    Py_END_ALLOW_THREADS
    memcpy(bout.buf, e->counts, (size_t)(P * P) * sizeof(int64_t));
    result = PyLong_FromLongLong(e->total);
out:
    for (int i = 0; i < held; i++) PyBuffer_Release(&bcombo[i]);
    PyMem_Free(e);
    PyBuffer_Release(&brem); PyBuffer_Release(&bboard); PyBuffer_Release(&bfixed); PyBuffer_Release(&bout);
    return result;
}

/* ----------------------------------------------------------------------------------------- mc_tally */

typedef struct {
    uint64_t s[4];
    uint64_t spare; /* the high half of the last output, when have_spare */
    int have_spare;
} Rng;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* xoshiro256** seeded by splitmix64 from (seed, stream): one independent-looking stream per chunk. */
static void rng_seed(Rng *r, uint64_t seed, uint64_t stream) {
    uint64_t x = seed;
    uint64_t mix = splitmix64(&x) ^ stream;
    x = mix * 0xD1B54A32D192ED03ULL + stream;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
    r->have_spare = 0;
}

static inline uint64_t rng_next(Rng *r) {
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return out;
}

static inline uint32_t rng_next32(Rng *r) {
    if (r->have_spare) {
        r->have_spare = 0;
        return (uint32_t)(r->spare >> 32);
    }
    uint64_t x = rng_next(r);
    r->spare = x;
    r->have_spare = 1;
    return (uint32_t)x;
}

/* Uniform integer in 0..n-1, 1 <= n < 2^32 (Lemire's multiply-and-reject: no bias). */
static inline uint32_t bounded(Rng *r, uint32_t n) {
    uint64_t m = (uint64_t)rng_next32(r) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t floor = -n % n;
        while (low < floor) {
            m = (uint64_t)rng_next32(r) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

typedef struct {
    const LookupObject *lk;
    int P;
    const int16_t *unseen;
    Py_ssize_t nunseen;
    int known[5], nknown;              /* the known board cards */
    int need;                          /* board cards to draw */
    int kind[MAX_PLAYERS];             /* 0 exact, 1 random, 2 range */
    int hole[MAX_PLAYERS][2];
    const int16_t *pairs[MAX_PLAYERS];
    Py_ssize_t npairs[MAX_PLAYERS];
    int nrange;
} Deal;

/* Index of the lowest byte of x holding a set bit (x != 0). */
static inline int lowest_byte(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x) >> 3;
#else
    int i = 0;
    while (!(x & 0xFFu)) { x >>= 8; i++; }
    return i;
#endif
}

/* Classes of every player's seven cards: the board (rank key, suit counts a byte each, its cards) plus each
 * player's hole cards. */
static inline void deal_values(const LookupObject *lk, int P, uint64_t key, uint32_t counts, const int *board,
                               int hole[][2], uint32_t *val) {
    for (int p = 0; p < P; p++) val[p] = lk->seven[seven_index(key + CARD_BIT[hole[p][0]] + CARD_BIT[hole[p][1]])];
    uint32_t three = (counts + 0x7D7D7D7Du) & 0x80808080u; /* the byte of a suit with 3+ board cards (at most 5) */
    if (three == 0) return;                                   /* no flush possible */
    int fs = lowest_byte(three);
    int on_board = (int)((counts >> (8 * fs)) & 255u);
    uint64_t fkey = 0;
    for (int j = 0; j < 5; j++) fkey += CARD_BIT[board[j]] & (0 - (uint64_t)(CARD_SUIT[board[j]] == fs));
    for (int p = 0; p < P; p++) {
        int h0 = hole[p][0], h1 = hole[p][1];
        int s0 = CARD_SUIT[h0] == fs, s1 = CARD_SUIT[h1] == fs;
        if (on_board + s0 + s1 >= 5) {
            uint32_t f = lk->flush_class[upto7_index(fkey + (s0 ? CARD_BIT[h0] : 0) + (s1 ? CARD_BIT[h1] : 0))];
            if (f > val[p]) val[p] = f;
        }
    }
}

/* Deals of chunks first, first + 1, ... (MC_CHUNK each, the last one short) added to counts; returns the
 * deals rejected, or -1 after MAX_REJECT_STREAK rejections in a row (the ranges leave no consistent deal).
 *
 * A deal: each range player a uniform physical hand of its range (all of them drawn again when two share
 * a card: rejection), then the board and the random players' cards one by one uniformly among the unseen
 * cards left (a partial Fisher-Yates shuffle of a private copy of the unseen cards, passing over the
 * range players' cards): uniform over the consistent deals. */
static int64_t mc_run(const Deal *d, Py_ssize_t deals, uint64_t seed, uint64_t first, int64_t *counts,
                      int16_t *deck) {
    const int P = d->P;
    const Py_ssize_t U = d->nunseen;
    int64_t rejected = 0, local[MAX_PLAYERS * MAX_PLAYERS] = {0};
    int64_t win0 = 0, win1 = 0, split = 0; /* heads-up */
    int hole[MAX_PLAYERS][2];
    uint32_t val[MAX_PLAYERS];
    uint32_t mark[MAX_INDEX] = {0}, stamp = 0; /* mark[c] == stamp: c is a range player's card in this deal */
    memcpy(hole, d->hole, sizeof(hole));
    uint64_t known_key = 0;
    uint32_t known_counts = 0;
    for (int j = 0; j < d->nknown; j++) {
        known_key += CARD_BIT[d->known[j]];
        known_counts += SUIT_ONE[d->known[j]];
    }
    for (uint64_t chunk = first; deals > 0; chunk++) {
        Py_ssize_t n = deals < MC_CHUNK ? deals : MC_CHUNK;
        deals -= n;
        Rng rng;
        rng_seed(&rng, seed, chunk);
        memcpy(deck, d->unseen, (size_t)U * sizeof(int16_t)); /* each chunk from the same start: split-proof */
        int64_t streak = 0;
        while (n > 0) {
            if (d->nrange) {
                int ok = 1;
                if (++stamp == 0) { /* wrapped round: start the marks afresh */
                    memset(mark, 0, sizeof(mark));
                    stamp = 1;
                }
                for (int p = 0; p < P && ok; p++) {
                    if (d->kind[p] != 2) continue;
                    const int16_t *pr = d->pairs[p] + 2 * bounded(&rng, (uint32_t)d->npairs[p]);
                    for (int j = 0; j < 2; j++) {
                        int c = pr[j];
                        ok &= mark[c] != stamp;
                        mark[c] = stamp;
                        hole[p][j] = c;
                    }
                }
                if (!ok) {
                    rejected++;
                    if (++streak >= MAX_REJECT_STREAK) return -1;
                    continue;
                }
                streak = 0;
            }
            Py_ssize_t top = 0; /* deck[0..top) is drawn */
#define NEXT_CARD(c)                                                                   \
    do {                                                                               \
        Py_ssize_t k_ = top + (Py_ssize_t)bounded(&rng, (uint32_t)(U - top));          \
        int16_t t_ = deck[k_];                                                         \
        deck[k_] = deck[top];                                                          \
        deck[top++] = t_;                                                              \
        (c) = t_;                                                                      \
    } while (d->nrange && mark[(c)] == stamp)
            int bc[5];
            uint64_t key = known_key;
            uint32_t scount = known_counts;
            memcpy(bc, d->known, sizeof(int) * (size_t)d->nknown);
            for (int j = d->nknown; j < 5; j++) {
                int c;
                NEXT_CARD(c);
                bc[j] = c;
                key += CARD_BIT[c];
                scount += SUIT_ONE[c];
            }
            for (int p = 0; p < P; p++) {
                if (d->kind[p] == 1) {
                    NEXT_CARD(hole[p][0]);
                    NEXT_CARD(hole[p][1]);
                }
            }
#undef NEXT_CARD
            deal_values(d->lk, P, key, scount, bc, hole, val);
            if (P == 2) {
                win0 += val[0] > val[1];
                win1 += val[1] > val[0];
                split += val[0] == val[1];
            } else {
                tally(local, val, P, 1);
            }
            n--;
        }
    }
    if (P == 2) {
        local[0] = win0; local[1] = split; local[2] = win1; local[3] = split;
    }
    for (int i = 0; i < P * P; i++) counts[i] += local[i];
    return rejected;
}

static PyObject *mc_tally(PyObject *self, PyObject *args) {
    PyObject *lk_obj, *pairs;
    Py_buffer bunseen, bboard, bfixed, bout;
    Py_ssize_t deals, first;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "O!y*y*y*OnKnw*", &LookupType, &lk_obj, &bunseen, &bboard, &bfixed, &pairs,
                          &deals, &seed, &first, &bout))
        return NULL;
    Py_buffer bpair[MAX_PLAYERS];
    int held = 0;
    PyObject *result = NULL;
    Deal *d = PyMem_Calloc(1, sizeof(Deal));
    int64_t *counts = NULL;
    int16_t *deck = NULL;
    if (d == NULL) { PyErr_NoMemory(); goto out; }
    Py_ssize_t P = bfixed.len / (2 * (Py_ssize_t)sizeof(int16_t));
    Py_ssize_t nboard = bboard.len / (Py_ssize_t)sizeof(int16_t);
    if (P < 1 || P > MAX_PLAYERS || nboard > 5 || !PyTuple_Check(pairs) || PyTuple_GET_SIZE(pairs) != P ||
        bout.len < P * P * 8 || deals < 0 || first < 0) {
        PyErr_SetString(PyExc_ValueError, "mc_tally: inconsistent arguments");
        goto out;
    }
    d->lk = (const LookupObject *)lk_obj;
    d->P = (int)P;
    d->unseen = bunseen.buf;
    d->nunseen = bunseen.len / (Py_ssize_t)sizeof(int16_t);
    const int16_t *board = bboard.buf, *fixed = bfixed.buf;
    for (Py_ssize_t i = 0; i < d->nunseen; i++) {
        if (d->unseen[i] < 0 || d->unseen[i] >= MAX_INDEX) {
            PyErr_SetString(PyExc_ValueError, "mc_tally: bad card index");
            goto out;
        }
    }
    for (Py_ssize_t i = 0; i < nboard; i++) {
        if (board[i] < 0 || board[i] >= MAX_INDEX) {
            PyErr_SetString(PyExc_ValueError, "mc_tally: bad card index");
            goto out;
        }
        d->known[i] = board[i];
    }
    d->nknown = (int)nboard;
    d->need = 5 - (int)nboard;
    int drawn = d->need;
    for (int p = 0; p < d->P; p++) {
        PyObject *item = PyTuple_GET_ITEM(pairs, p);
        int a = fixed[2 * p], b = fixed[2 * p + 1];
        if (a >= 0) {
            if (a >= MAX_INDEX || b < 0 || b >= MAX_INDEX) {
                PyErr_SetString(PyExc_ValueError, "mc_tally: bad card index");
                goto out;
            }
            d->kind[p] = 0; d->hole[p][0] = a; d->hole[p][1] = b;
        } else if (item == Py_None) {
            d->kind[p] = 1;
            drawn += 2;
        } else {
            if (PyObject_GetBuffer(item, &bpair[held], PyBUF_SIMPLE) < 0) goto out;
            const int16_t *c = bpair[held].buf;
            Py_ssize_t n = bpair[held].len / (2 * (Py_ssize_t)sizeof(int16_t));
            held++;
            if (n == 0) { PyErr_SetString(PyExc_ValueError, "mc_tally: an empty range"); goto out; }
            for (Py_ssize_t j = 0; j < 2 * n; j++) {
                if (c[j] < 0 || c[j] >= MAX_INDEX) {
                    PyErr_SetString(PyExc_ValueError, "mc_tally: bad card index");
                    goto out;
                }
            }
            d->kind[p] = 2; d->pairs[p] = c; d->npairs[p] = n;
            d->nrange++;
            drawn += 2;
        }
    }
    if (drawn > d->nunseen) {
        PyErr_SetString(PyExc_ValueError, "mc_tally: more cards to deal than unseen cards");
        goto out;
    }
    counts = PyMem_Calloc((size_t)(P * P), sizeof(int64_t));
    deck = PyMem_Malloc((size_t)(d->nunseen + 1) * sizeof(int16_t));
    if (counts == NULL || deck == NULL) { PyErr_NoMemory(); goto out; }
    int64_t rejected;
    Py_BEGIN_ALLOW_THREADS
    rejected = mc_run(d, deals, (uint64_t)seed, (uint64_t)first, counts, deck);
    Py_END_ALLOW_THREADS
    if (rejected < 0) {
        PyErr_SetString(PyExc_ValueError, "mc_tally: the ranges leave no consistent deal");
        goto out;
    }
    memcpy(bout.buf, counts, (size_t)(P * P) * sizeof(int64_t));
    result = PyLong_FromLongLong(rejected);
out:
    for (int i = 0; i < held; i++) PyBuffer_Release(&bpair[i]);
    PyMem_Free(counts);
    PyMem_Free(deck);
    PyMem_Free(d);
    PyBuffer_Release(&bunseen); PyBuffer_Release(&bboard); PyBuffer_Release(&bfixed); PyBuffer_Release(&bout);
    return result;
}

/* ------------------------------------------------------------------------------------------- module */

static PyMethodDef methods[] = {
    {"eval_rows", eval_rows, METH_VARARGS,
     "eval_rows(cards, k, itemsize, card_bits, card_suit, keys, nonflush, flush, out, start, stop) -> "
     "first bad row or -1"},
    {"prepare", prepare, METH_VARARGS, "prepare(keys, nonflush, flush) -> Lookup: one ranking's packed table"},
    {"hand_value", (PyCFunction)(void (*)(void))hand_value, METH_FASTCALL,
     "hand_value(cards, lookup) -> value of 5-7 objects with .rank and .suit, or -1 for another count"},
    {"exact_tally", exact_tally, METH_VARARGS,
     "exact_tally(lookup, remaining, board, fixed, combos, out) -> total: every deal, by face patterns"},
    {"mc_tally", mc_tally, METH_VARARGS,
     "mc_tally(lookup, unseen, board, fixed, pairs, deals, seed, first_chunk, out) -> rejected deals"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "Evaluator and equity kernel.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    for (int r = 0; r < 13; r++) RANK_BIT[r] = 1ULL << (3 * r);
    for (int c = 0; c < MAX_INDEX; c++) {
        int face = c % 52;
        CARD_BIT[c] = RANK_BIT[face >> 2];
        CARD_SUIT[c] = (uint8_t)(face & 3);
        SUIT_ONE[c] = 1u << (8 * (face & 3));
    }
    init_index_parts();
    STR_RANK = PyUnicode_InternFromString("rank");
    STR_SUIT = PyUnicode_InternFromString("suit");
    if (STR_RANK == NULL || STR_SUIT == NULL || PyType_Ready(&LookupType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "MC_CHUNK", MC_CHUNK) < 0 || PyModule_AddIntConstant(m, "MAX_PLAYERS", MAX_PLAYERS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&LookupType);
    if (PyModule_AddObject(m, "Lookup", (PyObject *)&LookupType) < 0) {
        Py_DECREF(&LookupType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
