/* The sizes of "v" collectives whose members move different amounts (struct sp_vsizes):
 * from the sizes each process recorded at each count, a block distribution of N(P) items
 * by communicator rank (ceil(N / n) for the first N mod n ranks, floor(N / n) for the
 * others), N an exact form of P (where every recording's members move even shares, items
 * of the largest of 8, 4, 2 and 1 bytes that divides them all), or else one size per
 * class of position in the grid, each an exact form.  A form is taken only when it gives
 * every process of every recording its sizes, the root's being the sum of the others'.
 * Sizes that differ between members of one class of position in a recording follow no
 * place: the data decide them (the keys a sample sort sends to each bucket).  Their mean
 * is fitted as a function of P (per pair of members in an Alltoallv, whose totals sent
 * and received all processes conserve; what a member other than the root sends into it
 * or gets out of it in a Gatherv or Scatterv), and each member moves it times a ratio
 * drawn, deterministically by its rank and the event, among the ratios of the recorded
 * sizes to their mean at the recording nearest P (the recorded spread, its shape kept,
 * as scale_vary.h draws computations); the largest, fitted as for any other event, would
 * also move the mean, and its form over a few counts is no trend.  Otherwise the largest
 * size stands for every member (scale_numbers.c).  From every member's sizes at P come
 * the bytes each sends each other (sp_vsizes_pairs), which the synthesized records'
 * per-peer lists give the replay (scale_lists.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "scale_vary.h"
#include "trace_calls.h"

/* Which way the data of a v collective goes: into the root (Gatherv), out of it
 * (Scatterv), or between all members (Allgatherv, Alltoallv). */
enum way { INTO_ROOT, OUT_OF_ROOT, ALL_MEMBERS, NOT_V };

static enum way way_of(const struct sp_event *e)
{
    enum pz_coll_op op;

    if ((e->kind != PZ_REC_COLL_END && e->kind != PZ_REC_NBC_COMPLETE) ||
        pz_call_coll_op(e->coll_op, &op) != 0)
        return NOT_V;
    switch (op) {
    case PZ_COLL_GATHERV:
        return INTO_ROOT;
    case PZ_COLL_SCATTERV:
        return OUT_OF_ROOT;
    case PZ_COLL_ALLGATHERV:
    case PZ_COLL_ALLTOALLV:
        return ALL_MEMBERS;
    default:
        return NOT_V;
    }
}

/* An Allgatherv, whose members each send their own block to every other. */
static int allgatherv(const struct sp_event *e)
{
    enum pz_coll_op op;

    return pz_call_coll_op(e->coll_op, &op) == 0 && op == PZ_COLL_ALLGATHERV;
}

int sp_v_collective(const struct sp_event *e)
{
    return way_of(e) != NOT_V;
}

uint16_t sp_position_key(const uint8_t *flags, int ndims)
{
    uint16_t key = 0;

    for (int d = 0; d < ndims; d++)
        key = (uint16_t)(key << 3 | flags[d]);
    return key;
}

/* The root's rank in a communicator of n, SP_NONE: none (or not a member). */
static uint32_t root_rank(const struct sp_event *e, uint32_t n)
{
    if (way_of(e) == ALL_MEMBERS || (uint32_t)e->peer.rank >= n)
        return SP_NONE;
    if (e->peer.kind == PZ_SCALE_PEER_RANK)
        return (uint32_t)e->peer.rank;
    if (e->peer.kind == PZ_SCALE_PEER_LAST)
        return n - 1 - (uint32_t)e->peer.rank;
    return SP_NONE;
}

/* The size of a member other than the root that tells its own amount: what it sends
 * into the root, or receives out of it (w, 0 sent, 1 received). */
static int own_size(enum way way)
{
    return way == OUT_OF_ROOT ? 1 : 0;
}

/* --- one recorded process as a member */

struct member {
    uint32_t rank, n, instance;   /* in its communicator, and which instance */
    uint16_t key;
    uint64_t size[2];             /* sent, received */
};

/* Process p of run as a member of e's communicator; 0 when it is one of a world or a
 * slice of several. */
static int member_of(const struct pz_scale_program *m, const struct pz_scale_run *run, int p,
                     const struct sp_event *e, const struct sp_seen *s, struct member *out)
{
    const struct pz_scale_grid *g = &run->grid;
    const int *c = run->procs[p].coords;
    uint8_t flags[PZ_SCALE_MAX_DIMS];

    out->rank = out->instance = 0;
    out->n = sp_comm_members(&e->comm, g, run->nprocs);
    if (e->comm.kind == PZ_SCALE_COMM_WORLD) {
        out->rank = (uint32_t)p;
    } else if (e->comm.kind == PZ_SCALE_COMM_SLICE) {
        for (int d = 0; d < g->ndims; d++) {
            if ((e->comm.keep >> d) & 1)
                out->rank = out->rank * (uint32_t)g->dims[d] + (uint32_t)c[d];
            else
                out->instance = out->instance * (uint32_t)g->dims[d] + (uint32_t)c[d];
        }
    } else {
        return -1;
    }
    sp_positions(g, c, flags);
    out->key = sp_position_key(flags, m->grid.ndims);
    out->size[0] = s->bytes;
    out->size[1] = s->bytes2;
    return out->n > 1 ? 0 : -1;
}

/* Calls fn on every process of every recording that made e (seen), as a member; stops
 * at fn's first nonzero return, which is returned; -1 when a process is no member or
 * its sizes changed from one pass to the next. */
typedef int member_fn(const struct member *mb, size_t run, void *arg);

static int each_member(const struct pz_scale_program *m, const struct sp_event *e,
                       struct sp_seen *const *seen, member_fn *fn, void *arg)
{
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; seen[r] && p < m->runs[r]->nprocs; p++) {
            struct member mb;
            int rc;

            if (!seen[r][p].seen)
                continue;
            if (seen[r][p].varies || member_of(m, m->runs[r], p, e, &seen[r][p], &mb) != 0)
                return -1;
            if ((rc = fn(&mb, r, arg)) != 0)
                return rc;
        }
    return 0;
}

/* Whether the members other than the root move different amounts in some recording. */
struct spread {
    const struct sp_event *e;
    int w;
    uint64_t first[64];
    uint8_t has[64];
};

static int differ(const struct member *mb, size_t run, void *arg)
{
    struct spread *s = arg;

    if (mb->rank == root_rank(s->e, mb->n) || run >= 64)
        return 0;
    if (!s->has[run]) {
        s->has[run] = 1;
        s->first[run] = mb->size[s->w];
        return 0;
    }
    return s->first[run] != mb->size[s->w];
}

/* --- sums at the root */

/* The sum of what the members other than the root of the root's instance move (own
 * size), and the root's recorded total, compared. */
struct root_sums {
    const struct sp_event *e;
    struct sp_seen *const *seen;
    const struct pz_scale_program *m;
    int w;
    struct member root;
    uint64_t sum;
};

static int add_other(const struct member *mb, size_t run, void *arg)
{
    struct root_sums *s = arg;

    (void)run;
    if (mb->instance == s->root.instance && mb->rank != s->root.rank)
        s->sum += mb->size[s->w];
    return 0;
}

static int root_total_holds(const struct member *mb, size_t run, void *arg)
{
    struct root_sums *s = arg;
    struct sp_seen *one[64] = {NULL};

    if (mb->rank != root_rank(s->e, mb->n) || run >= 64)
        return 0;
    s->root = *mb;
    s->sum = 0;
    one[run] = s->seen[run];
    each_member(s->m, s->e, one, add_other, s);
    return s->sum != mb->size[1 - s->w];
}

/* Whether the root of every recording moves what the others do in all (the recorder's
 * count, docs/trace-format.md). */
static int roots_hold(const struct pz_scale_program *m, const struct sp_event *e,
                      struct sp_seen *const *seen)
{
    struct root_sums s = {e, seen, m, own_size(way_of(e)), {0}, 0};

    return way_of(e) == ALL_MEMBERS || each_member(m, e, seen, root_total_holds, &s) == 0;
}

/* --- a block distribution */

struct block {
    const struct pz_scale_program *m;
    const struct sp_event *e;
    uint64_t lo[64], hi[64];
    uint32_t last_hi[64], n[64];
    uint8_t has[64];
    uint64_t unit;
    const struct sp_vsizes *v;
};

/* The items a member holds of its own: what it sends to the root or gets from it, or in
 * an Allgatherv what it sends to each other member; 0 when that is no whole number. */
static int own_block(const struct sp_event *e, const struct member *mb, uint64_t *out)
{
    enum way way = way_of(e);

    if (way == ALL_MEMBERS) {
        if (mb->size[0] % (mb->n - 1))
            return -1;
        *out = mb->size[0] / (mb->n - 1);
        return 0;
    }
    *out = mb->size[own_size(way)];
    return 0;
}

static int block_bounds(const struct member *mb, size_t run, void *arg)
{
    struct block *b = arg;
    uint64_t own;

    if (mb->rank == root_rank(b->e, mb->n) || run >= 64)
        return 0;
    if (own_block(b->e, mb, &own) != 0)
        return -1;
    if (!b->has[run] || own < b->lo[run])
        b->lo[run] = own;
    if (!b->has[run] || own > b->hi[run])
        b->hi[run] = own;
    b->has[run] = 1;
    b->n[run] = mb->n;
    return 0;
}

static int block_last_hi(const struct member *mb, size_t run, void *arg)
{
    struct block *b = arg;
    uint64_t own;

    if (mb->rank != root_rank(b->e, mb->n) && run < 64 && own_block(b->e, mb, &own) == 0 &&
        own == b->hi[run] && mb->rank + 1 > b->last_hi[run])
        b->last_hi[run] = mb->rank + 1;
    return 0;
}

static uint64_t items_at(const struct sp_vsizes *v, int nprocs)
{
    double x = pz_scale_model_at(&v->items, nprocs);

    return x > 0 ? (uint64_t)llround(x) : 0;
}

/* Whether the fitted distribution gives member mb the sizes it recorded. */
static int block_holds(const struct member *mb, size_t run, void *arg)
{
    struct block *b = arg;
    enum way way = way_of(b->e);
    uint64_t items = items_at(b->v, b->m->runs[run]->nprocs);
    uint64_t own = sp_block_share(b->v->unit, mb->n, mb->rank, items);
    uint64_t all = b->v->unit * items;
    int w = own_size(way);

    if (way == ALL_MEMBERS)
        return mb->size[0] != (mb->n - 1) * own || mb->size[1] != all - own;
    if (mb->rank == root_rank(b->e, mb->n))
        return mb->size[1 - w] != all - own;
    return mb->size[w] != own;
}

/* Where every recording's blocks are even: the largest of 8, 4, 2 and 1 bytes that
 * divides them all (a double's, an int's), as an item's size, and each recording's N
 * (b->lo / unit items each) into p; the number of points. */
static size_t even_blocks(struct block *b, struct pz_scale_point *p)
{
    size_t np = 0;

    for (b->unit = 8; b->unit > 1; b->unit /= 2) {
        size_t r = 0;

        while (r < b->m->nruns && r < 64 && (!b->has[r] || b->lo[r] % b->unit == 0))
            r++;
        if (r == b->m->nruns || r == 64)
            break;
    }
    for (size_t r = 0; r < b->m->nruns && r < 64; r++) {
        if (!b->has[r])
            continue;
        p[np] = (struct pz_scale_point){.procs = b->m->runs[r]->nprocs,
                                         .time = (double)(b->lo[r] / b->unit * b->n[r])};
        memcpy(p[np++].dims, b->m->runs[r]->grid.dims, sizeof(p[0].dims));
    }
    return np;
}

/* The distribution's N at each recording where two amounts are moved: lo / unit items
 * each, and one more for the ranks up to the last that moves hi; where none does (the
 * members move even blocks in every recording: 1000 doubles over 2, 4 and 8), that of
 * even_blocks, so that a count that does not divide N gets the blocks a program gives
 * its members there (at 16, 63 doubles at ranks 0 to 7 and 62 at the others, not 62.5
 * each). */
static int fit_block(const struct pz_scale_program *m, const struct sp_event *e,
                     struct sp_seen *const *seen, struct sp_vsizes *v)
{
    struct block b = {.m = m, .e = e, .v = v};
    struct pz_scale_point p[64];
    size_t np = 0;

    if (way_of(e) == ALL_MEMBERS && !allgatherv(e))
        return -1;
    if (each_member(m, e, seen, block_bounds, &b) != 0 ||
        each_member(m, e, seen, block_last_hi, &b) != 0)
        return -1;
    for (size_t r = 0; r < m->nruns && r < 64; r++) {
        if (!b.has[r] || b.hi[r] == b.lo[r])
            continue;
        if (b.unit && b.hi[r] - b.lo[r] != b.unit)
            return -1;
        b.unit = b.hi[r] - b.lo[r];
        if (b.lo[r] % b.unit)
            return -1;
        p[np] = (struct pz_scale_point){.procs = m->runs[r]->nprocs,
                                         .time = (double)(b.lo[r] / b.unit * b.n[r] +
                                                          b.last_hi[r])};
        memcpy(p[np++].dims, m->runs[r]->grid.dims, sizeof(p[0].dims));
    }
    if (!np) {
        np = even_blocks(&b, p);
        v->unit_guessed = 1;
    }
    v->unit = b.unit;
    v->form = SP_V_BLOCK;
    if (!np || sp_fit(p, np, SP_WHOLE, NULL, &v->items) != 1)
        return -1;
    return each_member(m, e, seen, block_holds, &b) == 0 ? 0 : -1;
}

/* --- one size per class of position */

struct classes {
    const struct sp_event *e;
    struct sp_vsizes *v;
    const struct pz_scale_program *m;
    struct pz_scale_point p[SP_V_KEYS][2][64];
    size_t n[SP_V_KEYS];
    int8_t at_run[SP_V_KEYS][64];   /* the point of the key at a run, -1 */
    uint8_t at_root[SP_V_KEYS];
    uint16_t root_keys[SP_V_KEYS];
    uint32_t nroot_keys;
};

/* The index of class key in v, added when add; -1 none (or no room). */
static int key_index(struct sp_vsizes *v, uint16_t key, int add)
{
    for (int i = 0; i < v->nkeys; i++)
        if (v->keys[i] == key)
            return i;
    if (!add || v->nkeys == SP_V_KEYS)
        return -1;
    v->keys[v->nkeys] = key;
    return v->nkeys++;
}

static int class_points(const struct member *mb, size_t run, void *arg)
{
    struct classes *c = arg;
    const struct pz_scale_run *rec = c->m->runs[run];
    int k;

    if (run >= 64)
        return -1;
    if (mb->rank == root_rank(c->e, mb->n)) {
        if (c->nroot_keys < SP_V_KEYS)
            c->root_keys[c->nroot_keys++] = mb->key;
        return 0;
    }
    if ((k = key_index(c->v, mb->key, 1)) < 0)
        return -1;
    if (c->n[k] && c->at_run[k][run] >= 0) {
        const struct pz_scale_point *p = c->p[k][0] + c->at_run[k][run];

        return p[0].time != (double)mb->size[0] ||
               c->p[k][1][c->at_run[k][run]].time != (double)mb->size[1];
    }
    for (int w = 0; w < 2; w++) {
        struct pz_scale_point *p = &c->p[k][w][c->n[k]];

        *p = (struct pz_scale_point){.procs = rec->nprocs, .time = (double)mb->size[w]};
        memcpy(p->dims, rec->grid.dims, sizeof(p->dims));
    }
    c->at_run[k][run] = (int8_t)c->n[k]++;
    return 0;
}

/* Whether every class a grid of m's dimensions has where each is longer than 2 (first,
 * middle, last in each) was recorded at members other than the root, or only at the
 * root. */
static int classes_cover(const struct classes *c, int ndims)
{
    int total = 1;

    for (int d = 0; d < ndims; d++)
        total *= 3;
    for (int i = 0; i < total; i++) {
        uint8_t flags[PZ_SCALE_MAX_DIMS];
        uint16_t key;
        int rest = i, root_only = 0;

        for (int d = 0; d < ndims; d++, rest /= 3)
            flags[d] = (uint8_t)(1u << (rest % 3));
        key = sp_position_key(flags, ndims);
        for (uint32_t j = 0; j < c->nroot_keys; j++)
            root_only |= c->root_keys[j] == key;
        if (key_index(c->v, key, 0) < 0 && !root_only)
            return 0;
    }
    return 1;
}

/* 0 when one size per class of position gives the sizes; else 1 when two members of a
 * class move different amounts in one recording (their place does not tell them), or
 * -1. */
static int fit_classes(const struct pz_scale_program *m, const struct sp_event *e,
                       struct sp_seen *const *seen, struct sp_vsizes *v)
{
    struct classes *c = calloc(1, sizeof(*c));
    const struct sp_grid_use grid = {m->grid.ndims, 0, m->grid.ascending};
    int rc = -1, kept = 0;

    if (!c)
        return -1;
    *c = (struct classes){.e = e, .v = v, .m = m};
    memset(c->at_run, -1, sizeof(c->at_run));
    v->form = SP_V_CLASS;
    v->nkeys = 0;
    if ((rc = each_member(m, e, seen, class_points, c)) != 0)
        goto out;
    rc = -1;
    /* a class recorded at one count of several (a dimension of 1 process) tells no form:
       left out, its processes fall back on the largest size */
    for (int k = 0, nkeys = v->nkeys; k < nkeys; k++) {
        if (c->n[k] < 2 && m->nruns > 1)
            continue;
        v->keys[kept] = v->keys[k];
        for (int w = 0; w < 2; w++)
            if (sp_fit(c->p[k][w], c->n[k], SP_WHOLE, &grid, &v->of[kept][w]) != 1)
                goto out;
        kept++;
    }
    v->nkeys = (uint8_t)kept;
    rc = classes_cover(c, m->grid.ndims) ? 0 : -1;
out:
    free(c);
    return rc;
}

/* --- sizes the data decide: a mean and the recorded spread around it */

/* The sizes each member other than the root moved in each recording, sent then
 * received, a run's members by rank: counted first, then kept (struct sp_vsizes). */
struct spread_gather {
    const struct sp_event *e;
    struct sp_vsizes *v;
    int counting;
    uint32_t filled[64];
    double sum[64][2];
};

static int spread_member(const struct member *mb, size_t run, void *arg)
{
    struct spread_gather *g = arg;
    struct sp_vsizes *v = g->v;

    if (run >= 64 || mb->rank == root_rank(g->e, mb->n))
        return 0;
    if (g->counting) {
        v->members[run]++;
        return 0;
    }
    for (int w = 0; w < 2; w++) {
        v->ratio[v->at[run] + (size_t)w * v->members[run] + g->filled[run]] =
            (double)mb->size[w];
        g->sum[run][w] += (double)mb->size[w];
    }
    g->filled[run]++;
    return 0;
}

/* The n values from v to their ratios to their mean (1 where the mean is 0). */
static void to_ratios(double *v, uint32_t n)
{
    double sum = 0;

    for (uint32_t i = 0; i < n; i++)
        sum += v[i];
    for (uint32_t i = 0; i < n; i++)
        v[i] = sum > 0 ? v[i] * n / sum : 1;
}

/* The mean a member moves of its own in recording r of g: per other member, both ways,
 * in an Alltoallv (what all send all receive); what it sends into the root or gets out
 * of it in a rooted one; -1 when there is none. */
static double spread_mean(const struct pz_scale_program *m, const struct spread_gather *g,
                          size_t r)
{
    uint32_t n = g->v->members[r];
    uint32_t members = sp_comm_members(&g->e->comm, &m->runs[r]->grid, m->runs[r]->nprocs);

    if (!n || members < 2)
        return -1;
    if (way_of(g->e) == ALL_MEMBERS)
        return (g->sum[r][0] + g->sum[r][1]) / (2.0 * n * (members - 1));
    return g->sum[r][own_size(way_of(g->e))] / n;
}

/* The mean fitted as a function of P (a mean: not whole), and each recording's ratios,
 * into *vp (grown to hold them); -2 when memory runs out. */
static int fit_spread(const struct pz_scale_program *m, const struct sp_event *e,
                      struct sp_seen *const *seen, struct sp_vsizes **vp)
{
    struct spread_gather g = {.e = e, .v = *vp, .counting = 1};
    struct pz_scale_point p[64];
    struct sp_vsizes *v = *vp;
    size_t total = 0, np = 0;

    if (allgatherv(e))
        return -1;
    memset(v->members, 0, sizeof(v->members));
    if (each_member(m, e, seen, spread_member, &g) != 0)
        return -1;
    for (size_t r = 0; r < m->nruns; r++) {
        v->at[r] = (uint32_t)total;
        total += 2 * (size_t)v->members[r];
    }
    if (total > UINT32_MAX || !(v = realloc(v, sizeof(*v) + (total ? total : 1) * sizeof(double))))
        return -2;
    *vp = g.v = v;
    g.counting = 0;
    if (each_member(m, e, seen, spread_member, &g) != 0)
        return -1;
    v->nruns = (uint32_t)m->nruns;
    for (size_t r = 0; r < m->nruns; r++) {
        double mean = spread_mean(m, &g, r);

        v->procs[r] = m->runs[r]->nprocs;
        if (mean < 0)
            continue;
        p[np] = (struct pz_scale_point){.procs = m->runs[r]->nprocs, .time = mean};
        memcpy(p[np++].dims, m->runs[r]->grid.dims, sizeof(p[0].dims));
        to_ratios(v->ratio + v->at[r], v->members[r]);
        to_ratios(v->ratio + v->at[r] + v->members[r], v->members[r]);
    }
    v->form = SP_V_SPREAD;
    return np && sp_fit(p, np, SP_AMOUNT, NULL, &v->items) >= 0 ? 0 : -1;
}

int sp_vsizes_fit(const struct pz_scale_program *m, const struct sp_event *e,
                  struct sp_seen *const *seen, struct sp_vsizes **out)
{
    struct spread s0 = {.e = e, .w = 0}, s1 = {.e = e, .w = 1};
    struct sp_vsizes *v;
    int rc;

    *out = NULL;
    if (!sp_v_collective(e) || m->nruns > 64 || !roots_hold(m, e, seen))
        return 0;
    if (!(v = calloc(1, sizeof(*v))))
        return -1;
    if (each_member(m, e, seen, differ, &s0) != 1 &&
        each_member(m, e, seen, differ, &s1) != 1) {
        if (fit_block(m, e, seen, v) == 0)
            *out = v;
        else
            free(v);
        return 0;
    }
    if (fit_block(m, e, seen, v) == 0 || (rc = fit_classes(m, e, seen, v)) == 0 ||
        (rc == 1 && (rc = fit_spread(m, e, seen, &v)) == 0)) {
        *out = v;
        return 0;
    }
    free(v);
    return rc == -2 ? -1 : 1;
}

/* --- at P */

static uint64_t whole_at(const struct pz_scale_model *f, const struct pz_scale_grid *g)
{
    int nprocs = 1;
    double x;

    for (int d = 0; d < g->ndims; d++)
        nprocs *= g->dims[d];
    x = pz_scale_model_at(f, nprocs);
    return x > 0 ? (uint64_t)llround(x) : 0;
}

/* The sizes of each class at grid g, into at[key][0..1]. */
static void classes_at(const struct sp_vsizes *v, const struct pz_scale_grid *g,
                       uint64_t (*at)[2])
{
    for (int k = 0; k < v->nkeys; k++)
        for (int w = 0; w < 2; w++)
            at[k][w] = whole_at(&v->of[k][w], g);
}

/* A member's class sizes, out[0..1], when its class was fitted (else out is kept). */
static void class_sizes(const struct sp_vsizes *v, const struct pz_scale_grid *g,
                        uint64_t (*at)[2], int world_rank, uint64_t *out)
{
    int c[PZ_SCALE_MAX_DIMS];
    uint8_t flags[PZ_SCALE_MAX_DIMS];
    uint16_t key;

    pz_scale_grid_coords(g, world_rank, c);
    sp_positions(g, c, flags);
    key = sp_position_key(flags, g->ndims);
    for (int k = 0; k < v->nkeys; k++)
        if (v->keys[k] == key) {
            out[0] = at[k][0];
            out[1] = at[k][1];
            return;
        }
}

/* The recording whose ratios stand for nprocs processes: the nearest by the ratio of the
 * counts, the larger of two as near. */
static uint32_t nearest_run(const struct sp_vsizes *v, int nprocs)
{
    double best = HUGE_VAL;
    uint32_t at = 0;

    for (uint32_t r = 0; r < v->nruns; r++) {
        double distance = fabs(log((double)v->procs[r] / nprocs));

        if (v->members[r] && (distance < best - 1e-12 ||
                              (distance < best + 1e-12 && v->procs[r] > v->procs[at]))) {
            best = distance;
            at = r;
        }
    }
    return at;
}

/* What member rank moves of its own at grid g, way w (0 sent, 1 received): the mean at P
 * (times n - 1 in an Alltoallv) times a ratio drawn for the rank and the event among
 * those of the recording nearest P. */
static uint64_t spread_size(const struct sp_vsizes *v, const struct sp_event *e,
                            const struct pz_scale_grid *g, uint32_t n, uint32_t rank, int w)
{
    int nprocs = 1;
    uint32_t r;
    double x;

    for (int d = 0; d < g->ndims; d++)
        nprocs *= g->dims[d];
    r = nearest_run(v, nprocs);
    x = pz_scale_model_at(&v->items, nprocs) * (way_of(e) == ALL_MEMBERS ? n - 1 : 1) *
        pz_scale_draw(v->ratio + v->at[r] + (size_t)w * v->members[r], v->members[r], rank,
                      (uint64_t)v->seed << 1 | (uint64_t)w);
    return x > 0 ? (uint64_t)llround(x) : 0;
}

/* Member rank's sizes (out[0..1], kept where they say nothing): both drawn in an
 * Alltoallv; a member's own of a rooted one, the root's the sum of the others'. */
static void spread_at(const struct sp_vsizes *v, const struct sp_event *e,
                      const struct pz_scale_grid *g, uint32_t n, uint32_t rank, uint64_t *out)
{
    uint32_t root = root_rank(e, n);
    int w = own_size(way_of(e));

    if (way_of(e) == ALL_MEMBERS) {
        out[0] = spread_size(v, e, g, n, rank, 0);
        out[1] = spread_size(v, e, g, n, rank, 1);
    } else if (rank != root) {
        out[w] = spread_size(v, e, g, n, rank, w);
    } else {
        out[1 - w] = 0;
        for (uint32_t j = 0; j < n; j++)
            out[1 - w] += j == root ? 0 : spread_size(v, e, g, n, j, w);
    }
}

void sp_vsizes_at(const struct sp_vsizes *v, const struct sp_event *e,
                  const struct pz_scale_grid *g, const int *members, uint32_t n,
                  uint32_t rank, const uint64_t *sizes, uint64_t *out)
{
    enum way way = way_of(e);
    uint32_t root = root_rank(e, n);
    int w = own_size(way);
    uint64_t items = v->form == SP_V_BLOCK ? whole_at(&v->items, g) : 0, at[SP_V_KEYS][2];

    memcpy(out, sizes + (rank == root ? SP_ROOT_SENT : SP_SENT), 2 * sizeof(*out));
    if (v->form == SP_V_SPREAD) {
        spread_at(v, e, g, n, rank, out);
        return;
    }
    if (v->form == SP_V_BLOCK) {
        uint64_t own = sp_block_share(v->unit, n, rank, items), all = v->unit * items;

        if (way == ALL_MEMBERS) {
            out[0] = (n - 1) * own;
            out[1] = all - own;
        } else if (rank == root) {
            out[1 - w] = all - own;
        } else {
            out[w] = own;
        }
        return;
    }
    classes_at(v, g, at);
    if (rank != root) {
        class_sizes(v, g, at, members ? members[rank] : (int)rank, out);
        return;
    }
    out[1 - w] = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint64_t other[2] = {sizes[SP_SENT], sizes[SP_RECEIVED]};

        if (j == root)
            continue;
        class_sizes(v, g, at, members ? members[j] : (int)j, other);
        out[1 - w] += other[w];
    }
}

/* --- between pairs of members */

/* Row i of an Alltoallv: member i's total sent over the other members in proportion to
 * what each receives in all (their margins: what i sends to j does not depend on what
 * others send to j), a pair's share rounded so that the row's running total is rounded
 * and the row sums to exactly sent[i], the running total taken from member i + 1 on
 * round the communicator so that no rank gets the rounded-up bytes of every row.  With
 * nobody else receiving, the total goes evenly. */
static void alltoallv_row(const uint64_t *sent, const uint64_t *received, uint32_t n,
                          uint32_t i, uint64_t *row)
{
    double weight = 0, so_far = 0;
    uint64_t given = 0;

    for (uint32_t j = 0; j < n; j++)
        weight += j == i ? 0 : (double)received[j];
    row[i] = 0;
    for (uint32_t k = 1; k < n; k++) {
        uint32_t j = (i + k) % n;
        uint64_t upto;

        so_far += weight > 0 ? (double)received[j] : 1;
        upto = k == n - 1 ? sent[i]
                          : (uint64_t)llround((double)sent[i] * so_far /
                                              (weight > 0 ? weight : n - 1));
        upto = upto < given ? given : upto > sent[i] ? sent[i] : upto;
        row[j] = upto - given;
        given = upto;
    }
}

void sp_alltoallv_pairs(const uint64_t *sent, const uint64_t *received, uint32_t n,
                        uint64_t *pairs)
{
    for (uint32_t i = 0; i < n; i++)
        alltoallv_row(sent, received, n, i, pairs + (size_t)i * n);
}

/* An Allgatherv member's block: what it sends to each other member. */
static uint64_t block_of(uint64_t sent, uint32_t n)
{
    return n > 1 ? (sent + (n - 1) / 2) / (n - 1) : sent;
}

void sp_vsizes_pairs(const struct sp_event *e, uint32_t n, const uint64_t *sent,
                     const uint64_t *received, uint64_t *pairs)
{
    uint32_t root = root_rank(e, n);

    memset(pairs, 0, (size_t)n * n * sizeof(*pairs));
    switch (way_of(e)) {
    case INTO_ROOT:
        for (uint32_t r = 0; root != SP_NONE && r < n; r++)
            pairs[(size_t)r * n + root] = r == root ? 0 : sent[r];
        break;
    case OUT_OF_ROOT:
        for (uint32_t r = 0; root != SP_NONE && r < n; r++)
            pairs[(size_t)root * n + r] = r == root ? 0 : received[r];
        break;
    case ALL_MEMBERS:
        if (!allgatherv(e)) {
            sp_alltoallv_pairs(sent, received, n, pairs);
            break;
        }
        for (uint32_t r = 0; r < n; r++)
            for (uint32_t j = 0; j < n; j++)
                pairs[(size_t)r * n + j] = block_of(sent[r], n);
        break;
    case NOT_V:
        break;
    }
}

unsigned sp_vsizes_lists(const struct sp_event *e, uint32_t n, uint32_t rank)
{
    uint32_t root = root_rank(e, n);

    switch (way_of(e)) {
    case INTO_ROOT:
        return rank == root ? SP_RECV_LIST : 0;
    case OUT_OF_ROOT:
        return rank == root ? SP_SEND_LIST : 0;
    case ALL_MEMBERS:
        return allgatherv(e) ? SP_RECV_LIST : SP_SEND_LIST | SP_RECV_LIST;
    case NOT_V:
        break;
    }
    return 0;
}
