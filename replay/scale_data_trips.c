/* Naming, in a refusal of the recordings, a loop whose trip count depends on the data
 * (scale_program_int.h, sp_name_data_trips): a process that runs one loop, the same
 * body, a different number of times from one pass to the next (a solver's iterations
 * until it converges, the pulses of a load balancer) folds its time steps into
 * different loops at each process, which no merge, guard or walk reconciles; the
 * difference they find is far from its cause.  The same process at the same position
 * of the same recording: neither the process count nor the position explains it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "scale_fit.h"
#include "scale_program_int.h"

/* The trip counts listed of one loop at one process; more are said with "...". */
#define LISTED 4
/* The steps before and after a loop that tell its place in the program: passes of one
 * loop of the program come after the same steps and before the same steps, whatever
 * their counts (a solver's iterations between the same calls of every time step), where
 * loops of one body elsewhere mostly do not (MPB's setup makes 2 and then 5
 * MPI_Allreduce calls, each between two runs of MPI_Comm_rank, the latter followed by
 * MPI_Comm_dup 2 calls after it: 2 steps around told them apart from neither). */
#define AROUND 4

/* A loop made at a process: its body's hash and place's (AROUND), its symbol, its trip
 * count, the position of its first step among the process's steps. */
struct made_loop {
    uint64_t body, place;
    uint32_t sym, count;
    size_t pos;
};

struct made_loops {
    const uint32_t *raw;       /* the process's steps */
    size_t nraw;
    struct made_loop *v;
    uint32_t n, cap;
    int oom;
};

static uint64_t hash_body(const struct sp_table *t, const struct sp_sym *y)
{
    uint64_t h = sp_hash_mix(SP_HASH_START, y->n);

    for (uint32_t i = 0; i < y->n; i++)
        h = sp_hash_mix(h, t->bodies[y->first + i]);
    return h;
}

/* The hash of the AROUND steps before step `from` and after step `to` - 1. */
static uint64_t hash_place(const struct made_loops *l, size_t from, size_t to)
{
    uint64_t h = SP_HASH_START;

    for (size_t i = 1; i <= AROUND; i++)
        h = sp_hash_mix(sp_hash_mix(h, from >= i ? l->raw[from - i] : SP_NONE),
                        to + i - 1 < l->nraw ? l->raw[to + i - 1] : SP_NONE);
    return h;
}

static int same_body(const struct sp_table *t, uint32_t a, uint32_t b)
{
    const struct sp_sym *x = &t->syms[a], *y = &t->syms[b];

    return x->n == y->n &&
           !memcmp(t->bodies + x->first, t->bodies + y->first, x->n * sizeof(*t->bodies));
}

/* Adds the loops of folded symbols s[0..n-1], whose first step is step pos of the
 * process, each loop's body walked once (its iterations are alike), or, where loops
 * whose trip count the data decide are one symbol whatever their count
 * (sp_table.data_trips), every iteration (they are not): the position after them. */
static size_t add_loops(const struct sp_table *t, const uint32_t *s, size_t n, size_t pos,
                        struct made_loops *l)
{
    for (size_t i = 0; i < n && !l->oom; i++) {
        const struct sp_sym *y = &t->syms[s[i]];
        uint32_t k, count, walked;
        size_t after;

        if (y->kind != SP_LOOP) {
            pos++;
            continue;
        }
        if (pz_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v)) != 0) {
            l->oom = 1;
            return pos;
        }
        count = sp_repeats_at(t, s[i], l->raw, pos, l->nraw);
        k = l->n++;
        l->v[k] = (struct made_loop){hash_body(t, y), 0, s[i], count, pos};
        walked = t->data_trips ? count : count != 0;
        for (uint32_t j = 0; j < walked; j++) {
            after = add_loops(t, t->bodies + y->first, y->n, pos, l);
            pos = t->data_trips ? after : pos + (after - pos) * count;
        }
        l->v[k].place = hash_place(l, l->v[k].pos, pos);
    }
    return pos;
}

/* Passes of one loop of the program: the same body, between the same steps. */
static int same_loop(const struct sp_table *t, const struct made_loop *a,
                     const struct made_loop *b)
{
    return a->body == b->body && a->place == b->place && same_body(t, a->sym, b->sym);
}

static int by_loop(const void *a, const void *b)
{
    const struct made_loop *x = a, *y = b;

    if (x->body != y->body)
        return x->body < y->body ? -1 : 1;
    if (x->place != y->place)
        return x->place < y->place ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* The loops of process p of recording r (its steps raw[r][p], folded[r][p]) by body,
 * place and position, into l.  -1 when memory runs out. */
static int loops_of(const struct pz_scale_program *m, uint32_t *const *const *raw,
                    uint32_t *const *const *folded, const size_t *const *nfolded,
                    size_t r, int p, struct made_loops *l)
{
    l->raw = raw[r][p];
    l->nraw = m->runs[r]->procs[p].nsteps;
    l->n = 0;
    add_loops(&m->table, folded[r][p], nfolded[r][p], 0, l);
    if (l->oom)
        return -1;
    qsort(l->v, l->n, sizeof(*l->v), by_loop);
    return 0;
}

/* In l (loops_of), the loop of the program (like `like`, or any when NULL) whose trip
 * count differs from one of its passes to another, the first such by position: the
 * index of its first pass, or UINT32_MAX. */
static uint32_t varying(const struct sp_table *t, const struct made_loops *l,
                        const struct made_loop *like)
{
    uint32_t best = UINT32_MAX;

    for (uint32_t i = 0, j; i < l->n; i = j) {
        int varies = 0;

        for (j = i + 1; j < l->n && l->v[j].body == l->v[i].body &&
                        l->v[j].place == l->v[i].place; j++)
            varies |= l->v[j].count != l->v[i].count && same_loop(t, &l->v[i], &l->v[j]);
        if (varies && (like ? same_loop(t, &l->v[i], like)
                            : best == UINT32_MAX || l->v[i].pos < l->v[best].pos))
            best = i;
    }
    return best;
}

/* "3, 5 and 4": the different trip counts of the passes of the loop whose first pass
 * is l->v[first], in the order they come. */
static void list_counts(const struct sp_table *t, const struct made_loops *l,
                        uint32_t first, char *buf, size_t len)
{
    uint32_t seen[LISTED + 1], n = 0;
    size_t at = 0;

    for (uint32_t j = first; j < l->n && n <= LISTED; j++) {
        uint32_t k = 0;

        if (!same_loop(t, &l->v[first], &l->v[j]))
            continue;
        while (k < n && seen[k] != l->v[j].count)
            k++;
        if (k == n)
            seen[n++] = l->v[j].count;
    }
    buf[0] = '\0';
    for (uint32_t k = 0; k < n && k < LISTED && at < len; k++)
        at += (size_t)snprintf(buf + at, len - at, "%s%u",
                               k == 0 ? "" : k + 1 == n ? " and " : ", ", seen[k]);
    if (n > LISTED && at < len)
        snprintf(buf + at, len - at, ", ...");
}

/* The first step symbol that folded symbol sym stands for. */
static uint32_t first_step(const struct sp_table *t, uint32_t sym)
{
    while (t->syms[sym].kind == SP_LOOP && t->syms[sym].n)
        sym = t->bodies[t->syms[sym].first];
    return sym;
}

/* Whether symbol sym (a step, or a loop with its bodies) receives from MPI_ANY_SOURCE. */
static int receives_any(const struct sp_table *t, uint32_t sym)
{
    const struct sp_sym *y = &t->syms[sym];

    for (uint32_t i = 0; i < y->n; i++)
        if (y->kind == SP_LOOP ? receives_any(t, t->bodies[y->first + i])
                               : t->events[y->first + i].peer.kind == PZ_SCALE_PEER_ANY)
            return 1;
    return 0;
}

/* Why a loop's trip count varies: receives from MPI_ANY_SOURCE in its body tell the
 * cause, the timing of the run; else the data, as a rule. */
static const char *trips_cause(const struct sp_table *t, uint32_t sym)
{
    return receives_any(t, sym)
               ? "as when it receives from MPI_ANY_SOURCE (which process is served, and "
                 "how often, depends on the timing of the run: a master and its workers)"
               : SP_DATA_TRIPS;
}

/* Into buf, " (2 and 3 times at process 0 of PATH; ...)": for each recording but run,
 * the first process whose passes of loop `like` run it different numbers of times; ""
 * when none does.  -1 when memory runs out. */
static int elsewhere(const struct pz_scale_program *m, uint32_t *const *const *raw,
                     uint32_t *const *const *folded, const size_t *const *nfolded,
                     size_t run, const struct made_loop *like, struct made_loops *l,
                     char *buf, size_t len)
{
    size_t at = 0;

    buf[0] = '\0';
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; r != run && p < m->runs[r]->nprocs && at < len; p++) {
            uint32_t i;
            char counts[96];

            if (loops_of(m, raw, folded, nfolded, r, p, l) != 0)
                return -1;
            if ((i = varying(&m->table, l, like)) == UINT32_MAX)
                continue;
            list_counts(&m->table, l, i, counts, sizeof(counts));
            at += (size_t)snprintf(buf + at, len - at, "%s%s times at process %d of %s",
                                   at ? "; " : " (", counts, p, m->runs[r]->path);
            break;
        }
    if (at && at < len)
        snprintf(buf + at, len - at, ")");
    return 0;
}

/* Marks the body of loop symbol sym as one whose trip count the data decide: its loop
 * symbol of count 0.  1 when newly marked, 0 when it was, -1 when memory runs out. */
static int mark_body(struct sp_table *t, uint32_t sym)
{
    uint32_t n = t->syms[sym].n, *body = malloc((n ? n : 1) * sizeof(*body)), before;
    int rc = -1;

    if (!body)
        return -1;
    /* sp_table_loop appends to the bodies this one is in: copied first */
    memcpy(body, t->bodies + t->syms[sym].first, n * sizeof(*body));
    before = t->nsyms;
    if (sp_table_loop(t, body, n, 0) != SP_NONE)
        rc = t->nsyms != before;
    free(body);
    return rc;
}

int sp_data_loops_mark(struct pz_scale_program *m, uint32_t *const *const *raw,
                       uint32_t *const *const *folded, const size_t *const *nfolded)
{
    struct made_loops l = {0};
    int marked = 0, rc;

    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; p < m->runs[r]->nprocs; p++) {
            if (loops_of(m, raw, folded, nfolded, r, p, &l) != 0)
                goto oom;
            for (uint32_t i = 0, j; i < l.n; i = j) {
                int varies = 0;

                for (j = i + 1; j < l.n && l.v[j].body == l.v[i].body &&
                                l.v[j].place == l.v[i].place; j++)
                    varies |= l.v[j].count != l.v[i].count &&
                              same_loop(&m->table, &l.v[i], &l.v[j]);
                if (varies && (rc = mark_body(&m->table, l.v[i].sym)) < 0)
                    goto oom;
                marked += varies && rc;
            }
        }
    free(l.v);
    return marked;
oom:
    free(l.v);
    return -1;
}

int sp_name_data_trips(const struct pz_scale_program *m, uint32_t *const *const *raw,
                       uint32_t *const *const *folded, const size_t *const *nfolded,
                       char *err, size_t errlen)
{
    static const char differ[] = "recordings differ: ";
    struct made_loops l = {0};
    int rc = 0;

    if (strncmp(err, differ, sizeof(differ) - 1))
        return 0;
    for (size_t r = 0; r < m->nruns && !rc; r++)
        for (int p = 0; p < m->runs[r]->nprocs && !rc; p++) {
            struct made_loop like;
            uint32_t i;
            char where[160], counts[96], others[640], was[1024];

            if (loops_of(m, raw, folded, nfolded, r, p, &l) != 0) {
                rc = -1;
                break;
            }
            if ((i = varying(&m->table, &l, NULL)) == UINT32_MAX)
                continue;
            like = l.v[i];
            sp_where(m, r, (uint32_t)p, (uint32_t)like.pos, where, sizeof(where));
            list_counts(&m->table, &l, i, counts, sizeof(counts));
            if (elsewhere(m, raw, folded, nfolded, r, &like, &l, others, sizeof(others)) != 0) {
                rc = -1;
                break;
            }
            snprintf(was, sizeof(was), "%s", err + sizeof(differ) - 1);
            snprintf(err, errlen, "%s%s: process %d, %s (%s): the loop beginning there "
                     "runs %s times from one pass to the next%s: a trip count that neither "
                     "the process count nor the position explains, %s, "
                     "cannot be extrapolated (the first difference: %s)", differ,
                     m->runs[r]->path, p, where,
                     sp_sym_name(&m->table, first_step(&m->table, like.sym)), counts,
                     others, trips_cause(&m->table, like.sym), was);
            rc = 1;
        }
    free(l.v);
    return rc;
}

/* Whether a recording's passes of loop k run it different numbers of times: the first
 * such recording, or SIZE_MAX. */
static size_t varying_run(const struct pz_scale_program *m, const struct sp_stats *st,
                          uint32_t k)
{
    for (size_t r = 0; r < m->nruns; r++) {
        const struct sp_passes *q = &st->passes[(size_t)k * m->nruns + r];

        for (uint32_t i = 1; i < q->n; i++)
            if (q->count[i] != q->count[0])
                return r;
    }
    return SIZE_MAX;
}

/* Into buf, "3, 5, 2, 4, ... at 8 processes": the trip counts of the passes of a loop in
 * one recording, in their order. */
static void pass_counts(const struct sp_passes *q, int procs, char *buf, size_t len)
{
    size_t at = 0;

    buf[0] = '\0';
    for (uint32_t i = 0; i < q->n && i < LISTED && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%u", i ? ", " : "", q->count[i]);
    if (at < len)
        snprintf(buf + at, len - at, "%s at %d processes", q->n > LISTED ? ", ..." : "",
                 procs);
}

int sp_data_trips_note(struct pz_scale_program *m, struct sp_stats *st)
{
    for (uint32_t k = 0; k < m->nnodes; k++) {
        struct sp_passes *q = &st->passes[(size_t)k * m->nruns];
        char where[512], counts[128];
        size_t r;

        if (m->nodes[k].kind != SP_LOOP || (r = varying_run(m, st, k)) == SIZE_MAX)
            continue;
        if (!(m->nodes[k].passes = malloc(m->nruns * sizeof(*q))))
            return -1;
        memcpy(m->nodes[k].passes, q, m->nruns * sizeof(*q));
        memset(q, 0, m->nruns * sizeof(*q));
        sp_loop_where(m, k, where, sizeof(where));
        pass_counts(&m->nodes[k].passes[r], m->runs[r]->nprocs, counts, sizeof(counts));
        if (sp_note(m, "%s: the loop beginning there runs %s from one pass to the next: "
                    "a trip count that neither the process count nor the position "
                    "explains, as when it depends on the data (convergence, load "
                    "balancing); each pass is synthesized with the count of the same pass "
                    "in the recording nearest the count (the largest of its processes), "
                    "the first pass again after its last", where, counts) != 0)
            return -1;
    }
    return 0;
}

uint64_t sp_data_trips_at(const struct pz_scale_program *m, uint32_t k, int nprocs,
                          uint32_t pass)
{
    const struct sp_passes *best = NULL;
    double best_distance = HUGE_VAL;
    int best_procs = 0;

    for (size_t r = 0; r < m->nruns; r++) {
        const struct sp_passes *q = &m->nodes[k].passes[r];
        int procs = m->runs[r]->nprocs;
        double distance = q->n ? fabs(log((double)procs / nprocs)) : HUGE_VAL;

        if (q->n && (distance < best_distance - 1e-12 ||
                     (distance < best_distance + 1e-12 && procs > best_procs))) {
            best = q;
            best_distance = distance;
            best_procs = procs;
        }
    }
    return best ? best->count[pass % best->n] : 0;
}
