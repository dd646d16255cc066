/* The per-peer lists of a synthesized run's v collectives (struct sp_lists).
 *
 * The replay moves a v collective's bytes pair by pair as the lists of its members'
 * records say (docs/trace-format.md, "Per-peer counts of v and w collectives"); without
 * them it splits each member's total evenly over its peers.  A list is a member's row
 * (what it sends to each) or column (what it receives from each) of the pairs
 * sp_vsizes_pairs makes from every member's sizes, computed once per communicator
 * instance when the synthesis starts.  At n members an Alltoallv has 2n lists of n
 * entries: like the recorder, each distinct text is kept once, numbered in the order
 * met, so that an event made in every iteration of a loop costs its lists once.  A
 * neighbourhood collective's lists are each member's sizes at its neighbours
 * (sp_nbrsizes_row), nothing elsewhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"

/* One v event's lists on the instances first .. first + count - 1 of its communicator,
 * n members each: member rank of instance c at [(c * n + rank) * 2 + w], w 0 sent, 1
 * received. */
struct on_event {
    uint32_t first, count, n;
    uint32_t *list;            /* the text's number, PZ_NONE32 none */
    uint64_t *total;
};

struct sp_lists {
    struct on_event **events;  /* [event]: NULL, no lists */
    uint32_t nevents;
    char **texts;
    uint32_t ntexts, cap;
    uint32_t *slots;           /* open addressing on the texts' hash: number + 1, 0 free */
    uint32_t nslots;
};

/* An event's lists on count instances of n members from instance first, its arrays
 * allocated; NULL when out of memory. */
static struct on_event *event_new(uint32_t first, uint32_t count, uint32_t n)
{
    struct on_event *o = malloc(sizeof(*o));

    if (!o)
        return NULL;
    *o = (struct on_event){ first, count, n, NULL, NULL };
    o->list = malloc((size_t)count * n * 2 * sizeof(*o->list));
    o->total = malloc((size_t)count * n * 2 * sizeof(*o->total));
    if (!o->list || !o->total) {
        free(o->list);
        free(o->total);
        free(o);
        return NULL;
    }
    return o;
}

static void event_free(struct on_event *o)
{
    if (!o)
        return;
    free(o->list);
    free(o->total);
    free(o);
}

struct sp_lists *sp_lists_new(uint32_t nevents)
{
    struct sp_lists *l = calloc(1, sizeof(*l));

    if (l && !(l->events = calloc(nevents ? nevents : 1, sizeof(*l->events)))) {
        free(l);
        return NULL;
    }
    if (l)
        l->nevents = nevents;
    return l;
}

void sp_lists_free(struct sp_lists *l)
{
    if (!l)
        return;
    for (uint32_t i = 0; i < l->nevents; i++)
        event_free(l->events[i]);
    for (uint32_t i = 0; i < l->ntexts; i++)
        free(l->texts[i]);
    free(l->events);
    free(l->texts);
    free(l->slots);
    free(l);
}

/* --- the distinct texts */

static uint64_t hash(const char *s)
{
    uint64_t h = 14695981039346656037ull;   /* FNV-1a */

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The slot of text, or of the free place where it goes. */
static uint32_t *slot_of(const struct sp_lists *l, const char *text)
{
    uint32_t at = (uint32_t)(hash(text) & (l->nslots - 1));

    while (l->slots[at] && strcmp(l->texts[l->slots[at] - 1], text) != 0)
        at = (at + 1) & (l->nslots - 1);
    return &l->slots[at];
}

/* Twice the slots, the texts placed anew. */
static int rehash(struct sp_lists *l)
{
    uint32_t n = l->nslots ? l->nslots * 2 : 64;
    uint32_t *slots = calloc(n, sizeof(*slots));

    if (!slots)
        return -1;
    free(l->slots);
    l->slots = slots;
    l->nslots = n;
    for (uint32_t i = 0; i < l->ntexts; i++)
        *slot_of(l, l->texts[i]) = i + 1;
    return 0;
}

/* The number of text, kept (copied) when new; PZ_NONE32 when memory runs out. */
static uint32_t intern(struct sp_lists *l, const char *text)
{
    uint32_t *slot;

    if (2 * (l->ntexts + 1) > l->nslots && rehash(l) != 0)
        return PZ_NONE32;
    if (*(slot = slot_of(l, text)))
        return *slot - 1;
    if (l->ntexts == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 64;
        char **texts = realloc(l->texts, cap * sizeof(*texts));

        if (!texts)
            return PZ_NONE32;
        l->texts = texts;
        l->cap = cap;
    }
    if (!(l->texts[l->ntexts] = strdup(text)))
        return PZ_NONE32;
    *slot = ++l->ntexts;
    return l->ntexts - 1;
}

/* --- one instance */

/* "a,b,c": n entries from v, step apart, into buf (21 bytes an entry). */
static void format(char *buf, const uint64_t *v, uint32_t n, size_t step)
{
    for (uint32_t j = 0; j < n; j++)
        buf += sprintf(buf, j ? ",%llu" : "%llu", (unsigned long long)v[j * step]);
}

/* The lists and totals of instance c of o (communicator comm), pairs its members'. */
static int add_instance(struct sp_lists *l, struct on_event *o, uint32_t c,
                        const struct sp_event *e, const uint64_t *pairs, char *buf)
{
    uint32_t n = o->n;

    for (uint32_t r = 0; r < n; r++) {
        size_t at = ((size_t)c * n + r) * 2;
        unsigned lists = sp_vsizes_lists(e, n, r);

        o->total[at] = o->total[at + 1] = 0;
        for (uint32_t j = 0; j < n; j++) {
            o->total[at] += j == r ? 0 : pairs[(size_t)r * n + j];
            o->total[at + 1] += j == r ? 0 : pairs[(size_t)j * n + r];
        }
        o->list[at] = o->list[at + 1] = PZ_NONE32;
        if (lists & SP_SEND_LIST) {
            format(buf, pairs + (size_t)r * n, n, 1);
            if ((o->list[at] = intern(l, buf)) == PZ_NONE32)
                return -1;
        }
        if (lists & SP_RECV_LIST) {
            format(buf, pairs + r, n, n);
            if ((o->list[at + 1] = intern(l, buf)) == PZ_NONE32)
                return -1;
        }
    }
    return 0;
}

/* Instance c's pairs, every member's sizes at P drawn as sp_vsizes_at does, into pairs
 * (n * n) with sent and received (n each). */
static void instance_pairs(const struct sp_vsizes *v, const struct sp_event *e,
                           const struct pz_scale_grid *g, const struct pz_synth_comm *comm,
                           const uint64_t *sizes, uint64_t *sent, uint64_t *received,
                           uint64_t *pairs)
{
    for (uint32_t r = 0; r < comm->size; r++) {
        uint64_t out[2];

        sp_vsizes_at(v, e, g, comm->members, comm->size, r, sizes, out);
        sent[r] = out[0];
        received[r] = out[1];
    }
    sp_vsizes_pairs(e, comm->size, sent, received, pairs);
}

int sp_lists_add(struct sp_lists *l, uint32_t ev, const struct sp_vsizes *v,
                 const struct sp_event *e, const struct pz_scale_grid *g,
                 const struct pz_synth_comm *comms, uint32_t first, uint32_t count,
                 const uint64_t *sizes)
{
    uint32_t n = count ? comms[0].size : 0;
    struct on_event *o;
    uint64_t *pairs;
    char *buf;
    int rc = -1;

    if (n < 2 || ev >= l->nevents)   /* alone, nothing moves */
        return 0;
    o = event_new(first, count, n);
    pairs = malloc(((size_t)n * n + 2 * (size_t)n) * sizeof(*pairs));
    buf = malloc(21 * (size_t)n + 1);
    if (!o || !pairs || !buf)
        goto out;
    for (uint32_t c = 0; c < count; c++) {
        if (comms[c].size != n)
            goto out;
        instance_pairs(v, e, g, &comms[c], sizes, pairs + (size_t)n * n,
                       pairs + (size_t)n * n + n, pairs);
        if (add_instance(l, o, c, e, pairs, buf) != 0)
            goto out;
    }
    l->events[ev] = o;
    o = NULL;
    rc = 0;
out:
    event_free(o);
    free(pairs);
    free(buf);
    return rc;
}

/* Member r of instance c of o gets the row and column `pairs` (2 n: what it sends to
 * and receives from each member, interleaved) as its lists, and their sums but its own
 * entry as its totals. */
static int add_member(struct sp_lists *l, struct on_event *o, uint32_t c, uint32_t r,
                      const uint64_t *pairs, char *buf)
{
    size_t at = ((size_t)c * o->n + r) * 2;

    for (int w = 0; w < 2; w++) {
        o->total[at + w] = 0;
        for (uint32_t j = 0; j < o->n; j++)
            o->total[at + w] += j == r ? 0 : pairs[j * 2 + w];
        format(buf, pairs + w, o->n, 2);
        if ((o->list[at + w] = intern(l, buf)) == PZ_NONE32)
            return -1;
    }
    return 0;
}

int sp_lists_add_neighbours(struct sp_lists *l, uint32_t ev, const struct sp_nbrsizes *z,
                            const struct pz_scale_comm *c, const struct pz_scale_grid *g,
                            const struct pz_synth_comm *comms, uint32_t first,
                            uint32_t count)
{
    uint32_t n = count ? comms[0].size : 0;
    struct on_event *o;
    uint64_t *pairs;
    char *buf;
    int rc = -1;

    if (n < 2 || ev >= l->nevents)   /* alone, nothing moves */
        return 0;
    o = event_new(first, count, n);
    pairs = malloc(2 * (size_t)n * sizeof(*pairs));
    buf = malloc(21 * (size_t)n + 1);
    if (!o || !pairs || !buf)
        goto out;
    for (uint32_t i = 0; i < count; i++) {
        if (comms[i].size != n)
            goto out;
        for (uint32_t r = 0; r < n; r++) {
            int coords[PZ_SCALE_MAX_DIMS];

            pz_scale_grid_coords(g, comms[i].members ? comms[i].members[r] : (int)r, coords);
            sp_nbrsizes_row(z, g, c, &comms[i], coords, pairs);
            if (add_member(l, o, i, r, pairs, buf) != 0)
                goto out;
        }
    }
    l->events[ev] = o;
    o = NULL;
    rc = 0;
out:
    event_free(o);
    free(pairs);
    free(buf);
    return rc;
}

int sp_lists_of(const struct sp_lists *l, uint32_t ev, uint32_t comm, uint32_t rank,
                uint32_t *list, uint64_t *out)
{
    const struct on_event *o = l && ev < l->nevents ? l->events[ev] : NULL;
    size_t at;

    if (!o || comm < o->first || comm - o->first >= o->count || rank >= o->n)
        return -1;
    at = ((size_t)(comm - o->first) * o->n + rank) * 2;
    list[0] = o->list[at];
    list[1] = o->list[at + 1];
    out[0] = o->total[at];
    out[1] = o->total[at + 1];
    return 0;
}

const char *const *sp_lists_texts(const struct sp_lists *l, uint32_t *n)
{
    *n = l ? l->ntexts : 0;
    return l ? (const char *const *)l->texts : NULL;
}
