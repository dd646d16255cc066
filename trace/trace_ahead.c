/* The index of completions ahead (trace_ahead.h).  Per thread: positions count the
 * records consumed since the index began, so that they survive the ring's moves; the
 * records from the first position looked up to the frontier are indexed, each request
 * id with the positions of its completions in order (a persistent request completes
 * once per start).  A lookup takes the first position at or past where it starts and
 * drops the ones before, which no later lookup can want: lookups start past the
 * caller's current call, and the calls only move forward. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "trace_ahead.h"

/* More positions than this held by one thread: the index starts again. */
#define MAX_NODES (1 << 22)

struct slot {
    uint64_t id;
    int32_t head, tail;   /* its positions' nodes, -1: none (the slot stays for the id) */
};

struct node {
    uint64_t pos;
    int32_t next;
};

struct thread_index {
    uint64_t consumed, frontier;
    int a, b;                   /* the kinds indexed; -1: none yet */
    struct slot *slots;         /* open addressing by id, a power of two */
    uint32_t cap, used;
    struct node *nodes;
    uint32_t capnodes;
    int32_t nnodes, free_node;
};

struct pz_ahead {
    struct thread_index *th;
    int nthreads;
};

struct pz_ahead *pz_ahead_new(int nthreads)
{
    struct pz_ahead *x = calloc(1, sizeof(*x));

    if (!x || !(x->th = calloc((size_t)(nthreads > 0 ? nthreads : 1), sizeof(*x->th)))) {
        free(x);
        return NULL;
    }
    x->nthreads = nthreads;
    for (int i = 0; i < nthreads; i++)
        x->th[i].a = x->th[i].b = -1;
    return x;
}

static void clear(struct thread_index *i)
{
    free(i->slots);
    free(i->nodes);
    i->slots = NULL;
    i->nodes = NULL;
    i->cap = i->used = 0;
    i->capnodes = 0;
    i->nnodes = 0;
    i->free_node = -1;
}

void pz_ahead_free(struct pz_ahead *x)
{
    if (!x)
        return;
    for (int i = 0; i < x->nthreads; i++)
        clear(&x->th[i]);
    free(x->th);
    free(x);
}

void pz_ahead_consumed(struct pz_ahead *x, int th, size_t n)
{
    x->th[th].consumed += n;
}

static uint32_t hash(uint64_t id, uint32_t cap)
{
    return (uint32_t)((id * 0x9e3779b97f4a7c15u) >> 32) & (cap - 1);
}

/* The slot of id, or the empty one where it would go. */
static struct slot *slot_of(struct thread_index *i, uint64_t id)
{
    uint32_t h = hash(id, i->cap);

    while (i->slots[h].id != id && (i->slots[h].head >= 0 || i->slots[h].id != UINT64_MAX))
        h = (h + 1) & (i->cap - 1);
    return &i->slots[h];
}

/* The table with room for one more id, its empty chains dropped; -1 without memory. */
static int make_room(struct thread_index *i)
{
    struct slot *old = i->slots;
    uint32_t oldcap = i->cap, live = 0;

    if (i->slots && 4 * (i->used + 1) <= 3 * i->cap)
        return 0;
    for (uint32_t k = 0; k < oldcap; k++)
        live += old[k].head >= 0;
    i->cap = oldcap && 2 * (live + 1) <= oldcap ? oldcap : (oldcap ? 2 * oldcap : 64);
    if (!(i->slots = malloc((size_t)i->cap * sizeof(*i->slots)))) {
        i->slots = old;
        i->cap = oldcap;
        return -1;
    }
    for (uint32_t k = 0; k < i->cap; k++)
        i->slots[k] = (struct slot){ UINT64_MAX, -1, -1 };
    i->used = 0;
    for (uint32_t k = 0; k < oldcap; k++)
        if (old[k].head >= 0) {
            *slot_of(i, old[k].id) = old[k];
            i->used++;
        }
    free(old);
    return 0;
}

static int32_t new_node(struct thread_index *i, uint64_t pos)
{
    int32_t n = i->free_node;

    if (n >= 0) {
        i->free_node = i->nodes[n].next;
    } else {
        if (pz_grow((void **)&i->nodes, &i->capnodes, (uint32_t)i->nnodes, sizeof(*i->nodes)) != 0)
            return -1;
        n = i->nnodes++;
    }
    i->nodes[n] = (struct node){ pos, -1 };
    return n;
}

/* Indexes id's completion at pos; -1 without memory. */
static int add(struct thread_index *i, uint64_t id, uint64_t pos)
{
    struct slot *s;
    int32_t n;

    if (make_room(i) != 0 || (n = new_node(i, pos)) < 0)
        return -1;
    s = slot_of(i, id);
    if (s->id != id) {
        *s = (struct slot){ id, n, n };
        i->used++;
    } else if (s->head < 0) {
        s->head = s->tail = n;
    } else {
        i->nodes[s->tail].next = n;
        s->tail = n;
    }
    return 0;
}

/* The first indexed position of id at or past from, taken out, and those before it
 * dropped; UINT64_MAX if there is none. */
static uint64_t take(struct thread_index *i, uint64_t id, uint64_t from)
{
    struct slot *s;

    if (!i->slots || (s = slot_of(i, id))->id != id)
        return UINT64_MAX;
    while (s->head >= 0) {
        int32_t n = s->head;
        uint64_t pos = i->nodes[n].pos;

        s->head = i->nodes[n].next;
        i->nodes[n].next = i->free_node;
        i->free_node = n;
        if (s->head < 0)
            s->tail = -1;
        if (pos >= from)
            return pos;
    }
    return UINT64_MAX;
}

/* Starts thread i's index again at position from, for kinds a and b. */
static void restart(struct thread_index *i, uint64_t from, int a, int b)
{
    clear(i);
    i->frontier = from;
    i->a = a;
    i->b = b;
}

const struct pz_rec *pz_ahead_find(struct pz_ahead *x, struct pz_trace_in *t, int th,
                                   size_t from, uint64_t id, uint8_t a, uint8_t b,
                                   int *failed)
{
    struct thread_index *i = &x->th[th];
    uint64_t start = i->consumed + from, pos;
    const struct pz_rec *r;

    /* below the frontier every position past start is indexed; else none is */
    if (i->a != a || i->b != b || i->frontier < start || i->nnodes > MAX_NODES)
        restart(i, start, a, b);
    if ((pos = take(i, id, start)) != UINT64_MAX)
        return pz_trace_in_peek(t, th, (size_t)(pos - i->consumed));
    for (; (r = pz_trace_in_peek(t, th, (size_t)(i->frontier - i->consumed))); i->frontier++) {
        if (r->kind != a && r->kind != b)
            continue;
        if (r->request == id) {
            i->frontier++;
            return r;
        }
        if (add(i, r->request, i->frontier) != 0) {
            restart(i, start, a, b);
            *failed = 1;
            return NULL;
        }
    }
    return NULL;
}
