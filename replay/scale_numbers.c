/* The numbers of the program model as functions of P (scale_program_int.h): each loop's
 * trip count, each event's sizes and those of the completions a call over many requests
 * makes (struct sp_done), from the recordings where they were made (whole numbers,
 * exact forms expected: when none gives them, a note), and the computation
 * before each step per class of processes, fitted over the recordings where the class
 * exists, or over all processes when it exists in too few of them (a note). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include <otf2/OTF2_Events.h>

#include "scale_faces.h"
#include "scale_program_int.h"
#include "trace_calls.h"

/* The first recorded place of node k or of a step of its body, for notes. */
static void node_where(const struct pz_scale_program *m, uint32_t k, char *buf, size_t len)
{
    uint32_t end = m->nodes[k].kind == SP_LOOP ? m->nodes[k].end : k + 1, i;
    size_t r, at;
    char where[160];

    if (!sp_first_made(m, k, end, &i, &r)) {
        snprintf(buf, len, "a step never made");
        return;
    }
    at = (size_t)i * m->nruns + r;
    sp_where(m, r, m->first_proc[at], m->first_step[at], where, sizeof(where));
    snprintf(buf, len, "%s%s (%s process %u)",
             m->nodes[k].kind == SP_LOOP ? "the loop around " : "",
             sp_sym_name(&m->table, m->nodes[i].sym), where, m->first_proc[at]);
}

/* " per other member" after the formula of a size per other member of its
 * communicator. */
static const char *per_member_text(int per_peer)
{
    return per_peer ? " per other member" : "";
}

/* The formula of f, or (unit not 0) of unit * ceil(f) with f = N / P or N / dims[d]
 * (sp_fit_blocks). */
static void formula_of(const struct pz_scale_model *f, uint64_t unit, char *buf, size_t len)
{
    int d = 0;

    if (!unit) {
        pz_scale_model_format(f, buf, len);
        return;
    }
    while (f->grid_ndims && d < PZ_SCALE_FIT_DIMS - 1 && !f->grid[d])
        d++;
    if (f->grid_ndims)
        snprintf(buf, len, "%llu * ceil(%.0f / dims[%d])", (unsigned long long)unit, f->c1, d);
    else
        snprintf(buf, len, "%llu * ceil(%.0f / P)", (unsigned long long)unit, f->c1);
}

static void describe(const struct pz_scale_model *f, uint64_t unit, int per_peer, char *buf,
                     size_t len)
{
    char formula[96];

    formula_of(f, unit, formula, sizeof(formula));
    snprintf(buf, len, "%s%s (largest error %.3g%%)", formula, per_member_text(per_peer),
             f->max_error);
}

/* Whether a form of P, alt, gives the whole values p as exactly as the grid's form f
 * does but other values at some larger count: the recordings cannot tell them apart. */
static int also_of_p(const struct pz_scale_point *p, size_t n, const struct pz_scale_model *f,
                     struct pz_scale_model *alt)
{
    if (f->grid_ndims == 0 || sp_fit(p, n, SP_WHOLE, NULL, alt) != 1)
        return 0;
    for (int procs = 16; procs <= 65536; procs *= 4)
        if (llround(pz_scale_model_at(f, procs)) != llround(pz_scale_model_at(alt, procs)))
            return 1;
    return 0;
}

#define MAX_POINTS 64

/* The whole values recorded per run, the members of the communicator they were recorded
 * on (0: unknown), how many runs recorded different values at different processes or
 * passes, and the first change from one pass to the next at a process (change_procs: the
 * processes of its recording, 0: none seen). */
struct whole_values {
    struct pz_scale_point p[MAX_POINTS];
    uint32_t members[MAX_POINTS];
    size_t n, differ;
    uint64_t change_from, change_to;
    int change_procs;
    uint8_t node;          /* sizes (size_values): on a node's communicator (enum
                              pz_scale_node), every process in every recording but the
                              machine's node at P */
};

/* Whether v's sizes, recorded on a node's communicator, change from one count to the
 * next: they change with its members, which at P are a node's, not P's (a root's
 * n - 1 blocks), so they are fitted per other member first. */
static int by_node_members(const struct whole_values *v)
{
    for (size_t i = 1; v->node && i < v->n; i++)
        if (v->p[i].time != v->p[0].time)
            return 1;
    return 0;
}

/* The sizes per other member of the communicator, v's values / (members - 1), into q:
 * the runs where the communicator is the process alone, which move nothing, left out.
 * How many, 0 when a value is no such multiple or a communicator is unknown. */
static size_t per_other_member(const struct whole_values *v, struct pz_scale_point *q)
{
    size_t n = 0;

    for (size_t i = 0; i < v->n; i++) {
        double others = v->members[i] ? v->members[i] - 1.0 : -1;

        if (others < 0 || (others == 0 && v->p[i].time != 0) ||
            (others > 0 && fmod(v->p[i].time, others) != 0))
            return 0;
        if (others == 0)
            continue;
        q[n] = v->p[i];
        q[n++].time = v->p[i].time / others;
    }
    return n;
}

/* sp_fit of whole values p, a form that gives them without rounding first: over three
 * counts, rounding lets a simpler form pass that only comes near them (trip counts 1, 2
 * and 3 at 4, 9 and 16 processes, those of a loop over the sqrt(P) cells of a row, round
 * from P / 6 + 1 / 3, which gives 5 instead of 4 at 25 processes; sqrt(P) - 1 gives
 * them exactly). */
static int fit_whole_numbers(const struct pz_scale_point *p, size_t n,
                             const struct sp_grid_use *grid, struct pz_scale_model *out)
{
    if (n > 0 && sp_fit_exact(p, n, 0, grid, out))
        return 1;
    return sp_fit(p, n, SP_WHOLE, grid, out);
}

/* The terms of form f: its constant and its term of P or of the grid, those not 0. */
static int terms(const struct pz_scale_model *f)
{
    return (f->c0 != 0) + (f->c1 != 0);
}

/* Fits v into out: the values, else (per_peer not NULL) the sizes per other member,
 * which *per_peer then says, else (unit not NULL) the largest blocks of a block
 * distribution, out the items of unit bytes each (*unit, 0 when not); a note says what
 * is wrong with them, unless quiet (a v collective whose members' sizes struct
 * sp_vsizes gives: these fits stand in only for a class of processes no recording
 * has). */
static int fit_whole(struct pz_scale_program *m, uint32_t k, const char *what,
                     const struct whole_values *v, const struct sp_grid_use *grid,
                     struct pz_scale_model *out, int *per_peer, uint64_t *unit, int quiet)
{
    struct pz_scale_point q[MAX_POINTS];
    const struct pz_scale_point *p = v->p;
    struct pz_scale_model alt, per;
    size_t n = v->n, nq;
    char where[256], model[160], other[128], around[256];
    int rc, ambiguous, by_member = 0;
    uint32_t loop;

    rc = fit_whole_numbers(p, n, grid, out);
    /* one run of a communicator of several among more runs tells no form; a node's
     * communicator's sizes that change are per other member first; and so are sizes
     * whose form needs two terms where their share per other member needs one: over
     * three counts two terms always find a form through the smallest and the largest
     * that the middle one may meet by chance (NAS FT's transposes on a column of the
     * process grid: 65536, 32768, 24576 bytes at 4, 8, 16 processes, columns of 2, 2, 4,
     * are 21845 + 699051 / P^2, but 524288 / (dims[0] * dims[1]^2) per other member) */
    if (per_peer && (rc != 1 || by_node_members(v) || terms(out) > 1) &&
        (nq = per_other_member(v, q)) > 0 && (nq > 1 || nq == n) &&
        fit_whole_numbers(q, nq, grid, &per) == 1 && (rc != 1 || terms(&per) < terms(out) ||
                                                      by_node_members(v))) {
        *out = per;
        rc = by_member = 1;
        p = q;
        n = nq;
    }
    if (per_peer)
        *per_peer = by_member;
    if (unit)
        *unit = 0;
    if (rc != 1 && unit && v->n > 1 && sp_fit_blocks(v->p, v->n, grid, out, unit))
        rc = 1;
    ambiguous = rc == 1 && !(unit && *unit) && also_of_p(p, n, out, &alt);
    if (!v->n || quiet || (rc == 1 && !v->differ && !ambiguous && (v->n > 1 || m->nruns == 1)))
        return 0;
    node_where(m, k, where, sizeof(where));
    describe(out, unit ? *unit : 0, by_member, model, sizeof(model));
    if (v->n == 1 && m->nruns > 1 &&
        sp_note(m, "%s: the %s is recorded at %d processes only: kept constant", where,
                what, v->p[0].procs) != 0)
        return -1;
    if (v->differ && v->change_procs && (loop = sp_loop_around(m, k)) != SP_NONE) {
        node_where(m, loop, around, sizeof(around));
        if (sp_note(m, "%s: the %s changes from one iteration of %s to the next (from %llu "
                    "to %llu bytes at %d processes): the largest is used, %s", where, what,
                    around, (unsigned long long)v->change_from,
                    (unsigned long long)v->change_to, v->change_procs, model) != 0)
            return -1;
    } else if (v->differ && sp_note(m, "%s: the %s differs between processes of a "
                                    "recording: the largest is used, %s", where, what,
                                    model) != 0) {
        return -1;
    }
    if (rc != 1 && v->n > 1 && sp_note(m, "%s: the %s follows no exact form of P: %s", where,
                                       what, model) != 0)
        return -1;
    if (ambiguous) {
        pz_scale_model_format(out, model, sizeof(model));
        pz_scale_model_format(&alt, other, sizeof(other));
        if (sp_note(m, "%s: the %s is %s%s or %s%s on the recordings: the process grid's "
                    "form is taken (recordings at more counts would tell)", where, what,
                    model, per_member_text(by_member), other,
                    per_member_text(by_member)) != 0)
            return -1;
    }
    return 0;
}

/* The grid forms of the sizes of an event: first for messages between neighbours of the
 * grid (a halo's size is the block's side), and for completions of point-to-point
 * requests (their record may not name the peer); after the forms of P for the others,
 * and for exchanges with every member in turn (a block of an all-to-all, whose grid at
 * 2, 4 and 8, 2 x 2 x 2 at most, is that of no halo). */
static struct sp_grid_use grid_use(const struct pz_scale_program *m, const struct sp_event *e,
                                   int completion)
{
    int first = e && e->peer.kind != PZ_SCALE_PEER_PAIR &&
                (e->peer.kind == PZ_SCALE_PEER_OFFSET ||
                 (completion && e->kind != PZ_REC_NBC_COMPLETE));

    return (struct sp_grid_use){m->grid.ndims, first, m->grid.ascending};
}

/* The trip counts recorded per run (count_max; count_min differs: a note). */
static void loop_values(const struct pz_scale_program *m, const uint32_t *lo,
                        const uint32_t *hi, struct whole_values *v)
{
    v->n = v->differ = 0;
    v->change_procs = 0;
    for (size_t r = 0; r < m->nruns && v->n < MAX_POINTS; r++) {
        if (!hi[r])
            continue;
        v->p[v->n] = (struct pz_scale_point){.procs = m->runs[r]->nprocs,
                                             .time = (double)hi[r]};
        memcpy(v->p[v->n].dims, m->runs[r]->grid.dims, sizeof(v->p[v->n].dims));
        v->members[v->n++] = 0;
        v->differ += lo[r] != hi[r];
    }
}

/* Whether a communicator of class comm is the process alone in every run that has the
 * event (has). */
static int alone_everywhere(const struct pz_scale_program *m, const struct pz_scale_comm *comm,
                            const uint8_t *has)
{
    for (size_t r = 0; r < m->nruns; r++)
        if (has[r] && sp_comm_members(comm, &m->runs[r]->grid, m->runs[r]->nprocs) != 1)
            return 0;
    return 1;
}

/* The sizes recorded per run (has: recorded) of an event on communicators of class comm:
 * take's, the largest or the smallest over the processes; compared with other's (NULL:
 * not) for v->differ; with besides_root, only the runs where the communicator has
 * members besides its root.  A collective (collective) on the process alone moves
 * nothing, whatever it moves with others (an MPI_Allreduce at 1 process records 0
 * bytes): its runs on a communicator of 1 member are left out, unless it has 1 member
 * in every run. */
static void size_values(const struct pz_scale_program *m, const struct pz_scale_comm *comm,
                        const uint64_t *take, const uint64_t *other, const uint8_t *has,
                        const struct sp_change *change, int w, int besides_root,
                        int collective, struct whole_values *v)
{
    int skip_alone = collective && !alone_everywhere(m, comm, has);

    v->n = v->differ = 0;
    v->change_procs = 0;
    v->node = comm->node == PZ_SCALE_NODE_COMM;
    for (size_t r = 0; r < m->nruns && v->n < MAX_POINTS; r++) {
        const struct pz_scale_run *run = m->runs[r];
        uint32_t members = sp_comm_members(comm, &run->grid, run->nprocs);

        if (!has[r] || (besides_root && members < 2) || (skip_alone && members == 1))
            continue;
        v->p[v->n] = (struct pz_scale_point){.procs = run->nprocs, .time = (double)take[r]};
        memcpy(v->p[v->n].dims, run->grid.dims, sizeof(v->p[v->n].dims));
        v->members[v->n++] = members;
        v->differ += other && take[r] != other[r];
        if (!v->change_procs && (change[r].changed >> w) & 1) {
            v->change_from = change[r].from[w];
            v->change_to = change[r].to[w];
            v->change_procs = run->nprocs;
        }
    }
}

/* For a rooted collective e, whether its root moves the data out (Bcast, Scatter(v): 1)
 * or in (Gather(v), Reduce: 0); -1 for the other events. */
static int root_sends(const struct sp_event *e)
{
    enum pz_coll_op op;

    if ((e->kind != PZ_REC_COLL_END && e->kind != PZ_REC_NBC_COMPLETE) ||
        (e->peer.kind != PZ_SCALE_PEER_RANK && e->peer.kind != PZ_SCALE_PEER_LAST &&
         e->peer.kind != PZ_SCALE_PEER_TURN) ||
        pz_call_coll_op(e->coll_op, &op) != 0)
        return -1;
    if (op == PZ_COLL_BCAST || op == PZ_COLL_SCATTER || op == PZ_COLL_SCATTERV)
        return 1;
    if (op == PZ_COLL_GATHER || op == PZ_COLL_GATHERV || op == PZ_COLL_REDUCE)
        return 0;
    return -1;
}

/* Whether the sizes of e may be fitted per other member of its communicator: the end of
 * a collective. */
static int collective_end(const struct sp_event *e)
{
    return e->kind == PZ_REC_COLL_END || e->kind == PZ_REC_NBC_COMPLETE;
}

/* Whether e ends a prefix reduction (MPI_Scan, MPI_Exscan, their nonblocking and
 * persistent forms).  MPI asks every member for the same count, so its sizes differ
 * only at the ends, which move nothing on one side and which the synthesis gives that
 * role (scale_synth.c, prefix_ends): no difference to note. */
static int prefix_reduction(const struct sp_event *e)
{
    return collective_end(e) &&
           (e->coll_op == OTF2_COLLECTIVE_OP_SCAN || e->coll_op == OTF2_COLLECTIVE_OP_EXSCAN);
}

/* Whether size `which` of event e at index at of the stats is one the data decide: a
 * point-to-point size that changes from one pass of its step to the next at a process of
 * some recording (a particle code's migration, an adaptive code's halo). */
static int decided_by_data(const struct pz_scale_program *m, const struct sp_event *e,
                           const struct sp_stats *st, size_t at, int which)
{
    if (collective_end(e))
        return 0;
    for (size_t r = 0; r < m->nruns; r++)
        if (st->has_bytes[at + r] && (st->change[at + r].changed >> which) & 1)
            return 1;
    return 0;
}

/* The note of size `which` of the event of node k that the data decide, fitted as
 * z->of[w]: the first change seen from one pass to the next, in the loop around k if
 * any. */
static int note_mean(struct pz_scale_program *m, uint32_t k, const struct sp_stats *st,
                     size_t at, int which, const char *what, const struct sp_sizes *z, int w)
{
    char where[256], model[160], loop_where[256], around[288] = "pass of its step";
    const struct sp_change *c = NULL;
    uint32_t loop = sp_loop_around(m, k);
    size_t r;

    for (r = 0; r < m->nruns && !c; r++)
        if (st->has_bytes[at + r] && (st->change[at + r].changed >> which) & 1)
            c = &st->change[at + r];
    node_where(m, k, where, sizeof(where));
    if (loop != SP_NONE) {
        node_where(m, loop, loop_where, sizeof(loop_where));
        snprintf(around, sizeof(around), "iteration of %s", loop_where);
    }
    describe(&z->of[w], 0, 0, model, sizeof(model));
    return sp_note(m, "%s: the %s changes from one %s to the next as the data decide "
                   "(from %llu to %llu bytes at %d processes): every pass is given the "
                   "mean over the passes and processes, %s bytes, in whole "
                   "multiples of %llu bytes", where, what, around,
                   (unsigned long long)c->from[which], (unsigned long long)c->to[which],
                   m->runs[r - 1]->nprocs, model, (unsigned long long)z->item[w]);
}

/* Whether size `which` of point-to-point event e at index at of the stats differs
 * between the processes of some recording by more than one step of that recording's
 * common divisor of the sizes: not two neighbouring multiples of it, the blocks of an
 * uneven split (ceil(N / d) and floor(N / d) items, whose largest sp_fit_blocks gives),
 * but a spread the data decide (a particle code's halos, as many atoms as a process
 * holds near its faces).  Its size is then no stable largest (*r_spread: the run with
 * the most processes that shows it). */
static int spread_by_data(const struct pz_scale_program *m, const struct sp_event *e,
                          const struct sp_stats *st, size_t at, int which, size_t *r_spread)
{
    const uint64_t *lo = (which ? st->bytes2_min : st->bytes_min) + at;
    const uint64_t *hi = (which ? st->bytes2_max : st->bytes_max) + at;
    int found = 0;

    if (collective_end(e))
        return 0;
    for (size_t r = 0; r < m->nruns; r++)
        if (st->has_bytes[at + r] && hi[r] - lo[r] > st->sums[at + r].gcd[which] &&
            (!found || m->runs[r]->nprocs > m->runs[*r_spread]->nprocs)) {
            *r_spread = r;
            found = 1;
        }
    return found;
}

/* The note of size `which` of the event of node k whose processes move amounts the data
 * decide (spread_by_data: the spread at recording r), fitted as z->of[w]. */
static int note_spread_mean(struct pz_scale_program *m, uint32_t k, const struct sp_stats *st,
                            size_t at, int which, size_t r, const char *what,
                            const struct sp_sizes *z, int w)
{
    const uint64_t *lo = (which ? st->bytes2_min : st->bytes_min) + at;
    const uint64_t *hi = (which ? st->bytes2_max : st->bytes_max) + at;
    char where[256], model[160];

    node_where(m, k, where, sizeof(where));
    describe(&z->of[w], 0, 0, model, sizeof(model));
    return sp_note(m, "%s: the %s differs between processes of a recording as the data "
                   "decide (from %llu to %llu bytes at %d processes): the mean is used, %s "
                   "bytes", where, what, (unsigned long long)lo[r],
                   (unsigned long long)hi[r], m->runs[r]->nprocs, model);
}

/* Fits size w of point-to-point event e that the data decide (decided_by_data: from one
 * pass to the next; spread_by_data: from one process to another) into z: the mean per
 * run over its passes and processes, fitted over P, which every pass of every process
 * is then given.  Sizes that change from one pass to the next are rounded to whole
 * multiples of the recorded sizes' common divisor (in_items: the datatype's size is not
 * recorded, and the divisor of every size of a pass stands for it); the others to whole
 * bytes, their divisor often a block of many items where a few sizes are recorded per
 * pass (sizes of 512 and 1024 bytes would round a mean of 640 to 512). */
static void fit_mean_size(const struct pz_scale_program *m, const struct sp_stats *st,
                          size_t at, int w, const struct sp_grid_use *grid, int in_items,
                          struct sp_sizes *z)
{
    const struct sp_size_sums *s = st->sums + at;
    struct pz_scale_point p[MAX_POINTS];
    int which = w == SP_SENT ? 0 : 1;
    uint64_t item = 0;
    size_t n = 0;

    for (size_t r = 0; r < m->nruns && n < MAX_POINTS; r++) {
        if (!st->has_bytes[at + r] || !s[r].n)
            continue;
        p[n] = (struct pz_scale_point){.procs = m->runs[r]->nprocs,
                                       .time = s[r].sum[which] / (double)s[r].n};
        memcpy(p[n++].dims, m->runs[r]->grid.dims, sizeof(p[0].dims));
        item = sp_gcd(item, s[r].gcd[which]);
    }
    /* a fit from too few counts is a constant, which is what they tell */
    (void)sp_fit(p, n, SP_AMOUNT, grid, &z->of[w]);
    z->of[w + SP_ROOT_SENT] = z->of[w];
    z->unit[w] = z->unit[w + SP_ROOT_SENT] = 0;
    z->item[w] = z->item[w + SP_ROOT_SENT] = in_items ? item : 0;
}

/* Fits size w (SP_SENT or SP_RECEIVED, and its root's) of event e, gathered at index at
 * of the stats, into z.  In a rooted collective one role moves the data each way, the
 * root or its other members (docs/trace-format.md): it records the largest size and the
 * other role the smallest, fitted apart, the others' over the runs that have others. */
static int fit_size(struct pz_scale_program *m, uint32_t k, const struct sp_event *e,
                    const struct sp_stats *st, size_t at, int w, const char *what,
                    const struct sp_grid_use *grid, int quiet, struct sp_sizes *z)
{
    const uint64_t *lo = (w == SP_SENT ? st->bytes_min : st->bytes2_min) + at;
    const uint64_t *hi = (w == SP_SENT ? st->bytes_max : st->bytes2_max) + at;
    const uint8_t *has = st->has_bytes + at;
    const struct sp_change *change = st->change + at;
    int which = w == SP_SENT ? 0 : 1;
    int rooted = root_sends(e), root = w + SP_ROOT_SENT, root_moves = rooted == (w == SP_SENT);
    int per_peer = 0, root_per_peer = 0, *per = collective_end(e) ? &per_peer : NULL;
    struct whole_values v;
    char root_what[96];
    size_t r_spread = 0;

    if (decided_by_data(m, e, st, at, which)) {
        fit_mean_size(m, st, at, w, grid, 1, z);
        return quiet ? 0 : note_mean(m, k, st, at, which, what, z, w);
    }
    if (spread_by_data(m, e, st, at, which, &r_spread)) {
        fit_mean_size(m, st, at, w, grid, 0, z);
        return quiet ? 0 : note_spread_mean(m, k, st, at, which, r_spread, what, z, w);
    }
    z->item[w] = z->item[root] = 0;
    if (rooted < 0) {
        size_values(m, &e->comm, hi, prefix_reduction(e) ? NULL : lo, has, change, which, 0,
                    collective_end(e), &v);
        if (fit_whole(m, k, what, &v, grid, &z->of[w], per, &z->unit[w], quiet) != 0)
            return -1;
        z->of[root] = z->of[w];
        z->unit[root] = z->unit[w];
        root_per_peer = per_peer;
    } else {
        snprintf(root_what, sizeof(root_what), "%s at the root", what);
        size_values(m, &e->comm, root_moves ? hi : lo, NULL, has, change, which, 0, 1,
                    &v);
        if (fit_whole(m, k, root_what, &v, grid, &z->of[root], per, &z->unit[root],
                      quiet) != 0)
            return -1;
        root_per_peer = per_peer;
        size_values(m, &e->comm, root_moves ? lo : hi, NULL, has, change, which, 1, 1,
                    &v);
        if (fit_whole(m, k, what, &v, grid, &z->of[w], per, &z->unit[w], quiet) != 0)
            return -1;
    }
    z->per_peer |= (uint8_t)(per_peer << w | root_per_peer << root);
    return 0;
}

/* Fits both sizes of event e (sent, received; whats their names for notes; quiet:
 * without notes). */
static int fit_sizes(struct pz_scale_program *m, uint32_t k, const struct sp_event *e,
                     const struct sp_stats *st, size_t at, const char *const *whats,
                     int completion, int quiet, struct sp_sizes *z)
{
    const struct sp_grid_use grid = grid_use(m, e, completion);

    z->per_peer = 0;
    return fit_size(m, k, e, st, at, SP_SENT, whats[0], &grid, quiet, z) != 0 ||
                   fit_size(m, k, e, st, at, SP_RECEIVED, whats[1], &grid, quiet, z) != 0
               ? -1 : 0;
}

/* The largest of n ratios over the smallest, 1 when none is above 0. */
static double range_of(const double *ratio, uint32_t n)
{
    double lo = HUGE_VAL, hi = 0;

    for (uint32_t i = 0; i < n; i++) {
        lo = ratio[i] < lo ? ratio[i] : lo;
        hi = ratio[i] > hi ? ratio[i] : hi;
    }
    return lo > 0 && hi > 0 ? hi / lo : 1;
}

/* The note of a v collective whose sizes the data decide (SP_V_SPREAD), with the spread
 * of the largest recording: both ways in an Alltoallv, else the others' own (root_sends:
 * the way out of the root, 1, or into it, 0). */
static int note_spread(struct pz_scale_program *m, const char *where,
                       const struct sp_vsizes *v, int root_sends)
{
    const struct pz_scale_run *largest = m->runs[m->largest];
    const double *ratio = v->ratio + v->at[m->largest];
    uint32_t n = v->members[m->largest];
    char mean[96];

    pz_scale_model_format(&v->items, mean, sizeof(mean));
    if (root_sends >= 0)
        return sp_note(m, "%s: the sizes differ between processes as the data decide: each "
                       "member other than the root %s the mean, %s bytes (largest error "
                       "%.3g%%), times a ratio drawn among the recorded sizes' ratios to "
                       "their mean at the count nearest P (at %d processes the largest is "
                       "%.3g times the smallest), the root the sum of the others'", where,
                       root_sends ? "receives" : "sends", mean, v->items.max_error,
                       largest->nprocs, range_of(ratio + (size_t)root_sends * n, n));
    return sp_note(m, "%s: the sizes differ between processes as the data decide: each "
                   "process sends and receives the mean per pair, %s bytes (largest error "
                   "%.3g%%), times the other members, times a ratio drawn among the recorded "
                   "totals' ratios to their mean at the count nearest P (at %d processes the "
                   "largest total is %.3g times the smallest sent, %.3g received)", where,
                   mean, v->items.max_error, largest->nprocs, range_of(ratio, n),
                   range_of(ratio + n, n));
}

/* The note of v collective e whose members' sizes its struct sp_vsizes gives. */
/* Whether the block distribution v's N divides by P at every count from 2 to 64 (a
 * share per process that weak scaling keeps): its blocks are then even at any count. */
static int even_everywhere(const struct sp_vsizes *v)
{
    for (int p = 2; p <= 64; p++) {
        double n = pz_scale_model_at(&v->items, p);

        if (!(n > 0) || fmod(llround(n), p) != 0)
            return 0;
    }
    return 1;
}

static int note_v(struct pz_scale_program *m, uint32_t k, const struct sp_tevent *e)
{
    const struct sp_vsizes *v = e->v;
    const char *root = root_sends(e->sig) >= 0 ? ", and the root moves the sum of the "
                                                 "others'" : "";
    char where[256], items[96];

    node_where(m, k, where, sizeof(where));
    if (v->form == SP_V_SPREAD)
        return note_spread(m, where, v, root_sends(e->sig));
    if (v->form == SP_V_CLASS)
        return sp_note(m, "%s: the sizes differ between processes by their position in the "
                       "grid: each of %u classes (first, middle or last in each dimension) "
                       "has its own%s", where, (unsigned)v->nkeys, root);
    pz_scale_model_format(&v->items, items, sizeof(items));
    if (v->unit_guessed && even_everywhere(v))
        return 0;
    if (v->unit_guessed)
        return sp_note(m, "%s: every member moves an even share in every recording, taken as "
                       "a block distribution of N = %s items of %llu bytes (the largest of 8, "
                       "4, 2 and 1 that divides every share: an item's size, which the "
                       "recordings do not show) over the n members: where n does not divide "
                       "N, ceil(N / n) at the first N mod n ranks, floor(N / n) at the "
                       "others%s", where, items, (unsigned long long)v->unit, root);
    return sp_note(m, "%s: the sizes differ between processes as a block distribution of N "
                   "= %s items of %llu bytes over the n members: ceil(N / n) at the first N "
                   "mod n ranks, floor(N / n) at the others%s", where, items,
                   (unsigned long long)v->unit, root);
}

/* The note of a rooted v collective whose members other than the root move amounts no
 * form gives: the largest stands for them all (the one each role's fit takes). */
static int note_largest(struct pz_scale_program *m, uint32_t k, const struct sp_tevent *e)
{
    int w = root_sends(e->sig) ? SP_RECEIVED : SP_SENT;
    char where[256], model[160];

    node_where(m, k, where, sizeof(where));
    describe(&e->sizes.of[w], e->sizes.unit[w], (e->sizes.per_peer >> w) & 1, model,
             sizeof(model));
    return sp_note(m, "%s: the %s differs between processes of a recording: the largest "
                   "is used, %s", where, w == SP_SENT ? "message size" : "size received",
                   model);
}

/* The note of a neighbourhood collective of node k whose processes moved different
 * amounts to the neighbours at an offset in a recording, which no class of position
 * explains (nbr). */
static int note_neighbours(struct pz_scale_program *m, uint32_t k,
                           const struct sp_nbrsizes *nbr)
{
    char where[256];

    if (!nbr || !nbr->differ)
        return 0;
    node_where(m, k, where, sizeof(where));
    if (!nbr->procs)
        return sp_note(m, "%s: the sizes to the neighbours at %d offsets in the grid change "
                       "from one pass to the next: the mean over the processes of their "
                       "first pass is used at each", where, __builtin_popcount(nbr->differ));
    return sp_note(m, "%s: the sizes to the neighbours at %d offsets in the grid differ "
                   "between processes of a recording, which no position in the grid "
                   "explains (from %llu to %llu bytes at %d processes): the mean over the "
                   "processes is used at each", where, __builtin_popcount(nbr->differ),
                   (unsigned long long)nbr->low, (unsigned long long)nbr->high, nbr->procs);
}

/* The note of a message whose size (what) is each process's block along a dimension of
 * the grid (b). */
static int note_dim_blocks(struct pz_scale_program *m, uint32_t k, const char *what,
                           const struct sp_dim_blocks *b)
{
    char where[256], items[96];

    node_where(m, k, where, sizeof(where));
    pz_scale_model_format(&b->items, items, sizeof(items));
    return sp_note(m, "%s: the %s differs between processes as a block distribution of N = "
                   "%s items of %llu bytes along dimension %d of the grid: ceil(N / dims[%d]) "
                   "at the first N mod dims[%d] coordinates, floor(N / dims[%d]) at the "
                   "others", where, what, items, (unsigned long long)b->unit, b->dim, b->dim,
                   b->dim, b->dim);
}

/* Fits the sizes of event e of node k gathered at index at of the stats into z, and
 * into *blocks a message's blocks along a dimension of the grid when they give each
 * process its size (sp_dim_blocks_fit), noted instead of z's fit; quiet: without
 * notes, as fit_sizes. */
static int fit_sizes_or_blocks(struct pz_scale_program *m, uint32_t k, const struct sp_event *e,
                               const struct sp_stats *st, size_t at, const char *const *whats,
                               int completion, int quiet, struct sp_sizes *z,
                               struct sp_dim_blocks **blocks)
{
    *blocks = NULL;
    if (st->seen && sp_dim_blocks_fit(m, e, st->seen + at, blocks) != 0)
        return -1;
    if (fit_sizes(m, k, e, st, at, whats, completion, quiet || *blocks, z) != 0)
        return -1;
    return *blocks && !quiet ? note_dim_blocks(m, k, whats[0], *blocks) : 0;
}

/* The sizes of template event i of node k: a v collective's each member's when they
 * differ and a form gives them (struct sp_vsizes), a message's each process's block
 * (struct sp_dim_blocks), its sizes as functions of P. */
static int fit_event_sizes(struct pz_scale_program *m, uint32_t k, uint32_t i,
                           const struct sp_stats *st)
{
    static const char *const of_event[] = {"message size", "size received"};
    struct sp_tevent *e = &m->events[i];
    size_t at = (size_t)i * m->nruns;
    int unexplained = 0;

    /* a nonblocking one's request moves nothing */
    if (e->sig->peer.kind == PZ_SCALE_PEER_NEIGHBOURS && e->sig->kind != PZ_REC_NBC_REQUEST)
        return st->seen && sp_nbrsizes_fit(m, e->sig, st->seen + at, &e->nbr) != 0 ? -1
               : note_neighbours(m, k, e->nbr);
    if (st->seen && (unexplained = sp_vsizes_fit(m, e->sig, st->seen + at, &e->v)) < 0)
        return -1;
    if (e->v)
        e->v->seed = i;
    if (fit_sizes_or_blocks(m, k, e->sig, st, at, of_event, 0, e->v != NULL, &e->sizes,
                            &e->blocks) != 0)
        return -1;
    if (e->v)
        return note_v(m, k, e);
    /* the others' sizes of a rooted one are fitted over their largest without a word */
    return unexplained && root_sends(e->sig) >= 0 ? note_largest(m, k, e) : 0;
}

/* The runs a class must exist in for its own fit. */
static size_t runs_needed(const struct pz_scale_program *m)
{
    return m->nruns < 3 ? m->nruns : 3;
}

/* Enough recordings for a fit: as many as needed, or two that an exact form of P joins
 * (fit: sp_fit's return). */
static int enough(const struct pz_scale_program *m, size_t n, int fit)
{
    return n && (n >= runs_needed(m) || (n >= 2 && fit == 1));
}

/* Whether a loop ran the same number of times at every process of a class of position
 * in each recording (kc), and different numbers in different classes of one. */
static int differs_by_key(const struct pz_scale_program *m, const struct sp_key_counts *kc)
{
    int differs = 0;

    for (size_t r = 0; r < m->nruns; r++) {
        uint32_t first = 0;

        for (uint32_t i = 0; i < kc->nkeys; i++) {
            size_t at = (size_t)i * m->nruns + r;

            if (!kc->max[at])
                continue;
            if (kc->min[at] != kc->max[at])
                return 0;
            differs |= first && kc->max[at] != first;
            first = first ? first : kc->max[at];
        }
    }
    return differs;
}

/* The trip counts of the processes of class i of kc in each recording where they ran
 * the loop, or (hi: the most per recording, struct sp_stats.count_max) how many fewer
 * times than the most they ran it. */
static void key_values(const struct pz_scale_program *m, const struct sp_key_counts *kc,
                       uint32_t i, const uint32_t *hi, struct whole_values *v)
{
    v->n = v->differ = 0;
    v->change_procs = 0;
    for (size_t r = 0; r < m->nruns && v->n < MAX_POINTS; r++) {
        uint32_t count = kc->max[(size_t)i * m->nruns + r];

        if (!count)
            continue;
        v->p[v->n] = (struct pz_scale_point){.procs = m->runs[r]->nprocs,
                                             .time = hi ? (double)(hi[r] - count) : count};
        memcpy(v->p[v->n].dims, m->runs[r]->grid.dims, sizeof(v->p[v->n].dims));
        v->members[v->n++] = 0;
    }
}

/* How complex a form is: a constant, a term of P, or both. */
static int complexity(const struct pz_scale_model *f)
{
    return (f->c1 != 0) * 2 + (f->c0 != 0);
}

/* Whether one class of kc ran the loop the most times (hi) in every recording: the most
 * is then that class's count, a form of P the others may drop a constant number of
 * iterations from.  Where the class with the most changes from one recording to
 * another (a chain of 2 has no middle, whose processes run the most at 3 and 4), the
 * most is no class's count, and what a class drops from it no form of its own. */
static int one_class_runs_most(const struct pz_scale_program *m,
                               const struct sp_key_counts *kc, const uint32_t *hi)
{
    for (uint32_t i = 0; i < kc->nkeys; i++) {
        size_t r;

        for (r = 0; r < m->nruns && (!hi[r] || kc->max[(size_t)i * m->nruns + r] == hi[r]);
             r++)
            ;
        if (r == m->nruns)
            return 1;
    }
    return 0;
}

/* Whether a class in one recording only (n) ran the loop fewer times there than the
 * most (fewer: fitted, the iterations it drops): it keeps dropping as many, the form a
 * class in the middle of a grid often follows (below); left to the loop's count, its
 * processes would run the loop more times than they did at the very count recorded. */
static int dropped_once(size_t n, int fit_fewer, const struct pz_scale_model *fewer)
{
    return n == 1 && fit_fewer && complexity(fewer) == 1 && fewer->c0 > 0;
}

/* Fits class i of kc into t's next class: the simpler exact form of its counts or, where
 * one class runs the most (relative), of the iterations it drops from the most (hi), the
 * former on a tie.  1 when fitted, 0 when it is in too few recordings, -1 when neither
 * follows an exact form of P. */
static int fit_key(const struct pz_scale_program *m, const struct sp_key_counts *kc,
                   uint32_t i, const uint32_t *hi, const struct sp_grid_use *grid,
                   int relative, struct sp_trips *t)
{
    struct pz_scale_model own, fewer;
    struct whole_values v;
    int fit_own, fit_fewer;
    size_t n;

    key_values(m, kc, i, NULL, &v);
    n = v.n;
    fit_own = fit_whole_numbers(v.p, v.n, grid, &own) == 1;
    key_values(m, kc, i, hi, &v);
    fit_fewer = relative && fit_whole_numbers(v.p, v.n, grid, &fewer) == 1;
    if (!enough(m, n, fit_own || fit_fewer) && !dropped_once(n, fit_fewer, &fewer))
        return 0;
    if (!fit_own && !fit_fewer)
        return -1;
    t->fewer[t->nkeys] = !fit_own || (fit_fewer && complexity(&fewer) < complexity(&own));
    t->count[t->nkeys] = t->fewer[t->nkeys] ? fewer : own;
    t->keys[t->nkeys++] = kc->keys[i];
    return 1;
}

/* The trip counts of a loop by class of position (kc, NULL: none gathered; hi: the most
 * per recording) into *out (allocated; NULL: they do not differ between classes, or one
 * follows no exact form of P), each class's over the recordings it ran the loop in,
 * enough of them (a class in too few is left to the loop's count).  A class's count,
 * or the iterations it drops from the most, whichever a simpler form gives: a class in
 * the middle of a grid is in fewer recordings than one at its edges, and often drops a
 * constant number of iterations; a class that runs a loop once where the others run it
 * P times is given by its count.  0, or -1 when memory runs out. */
static int fit_by_key(const struct pz_scale_program *m, const struct sp_key_counts *kc,
                      const uint32_t *hi, const struct sp_grid_use *grid,
                      struct sp_trips **out)
{
    struct sp_trips *t;
    int relative;

    *out = NULL;
    if (!kc || !differs_by_key(m, kc))
        return 0;
    if (!(t = calloc(1, sizeof(*t))))
        return -1;
    relative = one_class_runs_most(m, kc, hi);
    for (uint32_t i = 0; i < kc->nkeys; i++)
        if (fit_key(m, kc, i, hi, grid, relative, t) < 0) {
            free(t);
            return 0;
        }
    if (t->nkeys)
        *out = t;
    else
        free(t);
    return 0;
}

static int fit_loops_and_sizes(struct pz_scale_program *m, const struct sp_stats *st)
{
    static const char *const of_completion[] = {"size of a completion",
                                                "size received by a completion"};
    const struct sp_grid_use counts = grid_use(m, NULL, 0);
    struct whole_values v;

    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_node *nd = &m->nodes[k];
        size_t at = (size_t)k * m->nruns;

        if (nd->kind == SP_LOOP) {
            /* a binomial tree's children are the process's own (sp_tree_children) */
            if (!nd->tree &&
                fit_by_key(m, st->by_key ? st->by_key[k] : NULL, st->count_max + at,
                           &counts, &m->nodes[k].trips) != 0)
                return -1;
            loop_values(m, st->count_min + at, st->count_max + at, &v);
            /* the classes' counts explain the processes' differences */
            if (m->nodes[k].trips || nd->tree)
                v.differ = 0;
            if (fit_whole(m, k, "trip count", &v, &counts, &m->nodes[k].count, NULL,
                          NULL, 0) != 0)
                return -1;
            continue;
        }
        for (uint32_t i = 0; i < m->table.syms[nd->sym].n; i++)
            if (fit_event_sizes(m, k, nd->first_event + i, st) != 0)
                return -1;
    }
    for (uint32_t i = 0; i < m->nslots; i++) {
        struct sp_done *d = &m->done[i];
        size_t at = ((size_t)m->nevents + i) * m->nruns;

        if (d->node == SP_NONE)
            continue;
        if (d->sig.peer.kind == PZ_SCALE_PEER_NEIGHBOURS) {
            if ((st->seen && sp_nbrsizes_fit(m, &d->sig, st->seen + at, &d->nbr) != 0) ||
                note_neighbours(m, d->node, d->nbr) != 0)
                return -1;
        } else if (fit_sizes_or_blocks(m, d->node, &d->sig, st, at, of_completion, 1, 0,
                                       &d->sizes, &d->blocks) != 0) {
            return -1;
        }
    }
    return 0;
}

uint32_t sp_comm_members(const struct pz_scale_comm *c, const struct pz_scale_grid *g,
                         int nprocs)
{
    uint32_t n = 1;

    switch (c->kind) {
    case PZ_SCALE_COMM_WORLD:
        return (uint32_t)nprocs;
    case PZ_SCALE_COMM_SELF:
        return 1;
    case PZ_SCALE_COMM_SLICE:
        for (int d = 0; d < g->ndims; d++)
            if ((c->keep >> d) & 1)
                n *= (uint32_t)g->dims[d];
        return n;
    case PZ_SCALE_COMM_BLOCKS:
    case PZ_SCALE_COMM_STRIDE:
    case PZ_SCALE_COMM_LEADERS:
    case PZ_SCALE_COMM_PARTS: {
        uint32_t in;

        /* rank 0's: the largest instance */
        pz_scale_group_of(c, nprocs, 0, &n, &in);
        return n;
    }
    default:
        return 0;
    }
}

/* A mean size f at nprocs, to the nearest whole multiple of item bytes, 0 below 0. */
static uint64_t mean_at(const struct pz_scale_model *f, uint64_t item, int nprocs)
{
    double items = pz_scale_model_at(f, nprocs) / (double)item;

    return items > 0 ? (uint64_t)llround(items) * item : 0;
}

void sp_sizes_at(const struct sp_sizes *z, int nprocs, uint32_t members, uint64_t *out)
{
    for (int w = 0; w < SP_NSIZES; w++) {
        uint64_t v = z->unit[w]   ? sp_block_at(&z->of[w], z->unit[w], nprocs)
                     : z->item[w] ? mean_at(&z->of[w], z->item[w], nprocs)
                                  : (uint64_t)llround(pz_scale_model_at(&z->of[w], nprocs));

        out[w] = (z->per_peer >> w) & 1 ? v * (members > 1 ? members - 1 : 0) : v;
    }
}

/* The growth of the trip counts of the loops around pair pr's computation
 * (sp_loops_growth): those around its step, or around the step before, whichever grow
 * more.  After a loop's last step, before a step outside it (SUMMA's multiplication of
 * the last step before the reduction of a pass), it is the rest of the loop's last
 * iteration. */
static double pair_loops(const struct pz_scale_program *m, const struct sp_pred *pr)
{
    double node = sp_loops_growth(m, pr->node);

    return pr->prev == SP_NONE ? node : fmax(node, sp_loops_growth(m, pr->prev));
}

/* The growth of the trip counts of the loops around the computations before step node
 * k (sp_loops_growth): the most of those of its pairs (pair_loops), of k's own loops
 * when it has none. */
static double gap_loops(const struct pz_scale_program *m, uint32_t k)
{
    double most = sp_loops_growth(m, k);

    for (uint32_t i = m->pred_head[k]; i != SP_NONE; i = m->preds[i].next)
        most = fmax(most, pair_loops(m, &m->preds[i]));
    return most;
}

/* Fits the per-run means sums[c * nruns + r] / counts[...] for each class and over all
 * (column nclasses of out), computations made in loops whose trip counts grow as
 * P^loops (sp_loops_growth); own[c] when class c had enough runs for a model of its own,
 * its fit or the one over all at its level (pz_scale_fit_class), lacking[c] when it had
 * some but too few. */
static void fit_classes(const struct pz_scale_program *m, const double *sums,
                        const uint32_t *counts, double loops, struct pz_scale_model *out,
                        uint8_t *own, uint8_t *lacking)
{
    struct pz_scale_point all[64] = {{.procs = 0}}, p[64] = {{.procs = 0}},
                          at[64] = {{.procs = 0}};
    double mean[64];
    size_t nall = 0;

    for (size_t r = 0; r < m->nruns && r < 64; r++) {
        double sum = 0;
        uint32_t n = 0;

        for (uint32_t c = 0; c < m->nclasses; c++) {
            sum += sums[c * m->nruns + r];
            n += counts[c * m->nruns + r];
        }
        mean[r] = n ? sum / n : 0;
        if (n)
            all[nall++] = (struct pz_scale_point){.procs = m->runs[r]->nprocs,
                                                    .time = sum / n};
    }
    sp_fit_time(all, nall, loops, &out[m->nclasses]);
    for (uint32_t c = 0; c < m->nclasses; c++) {
        size_t n = 0;

        for (size_t r = 0; r < m->nruns && r < 64; r++)
            if (counts[c * m->nruns + r]) {
                at[n] = (struct pz_scale_point){.procs = m->runs[r]->nprocs,
                                                .time = mean[r]};
                p[n++] = (struct pz_scale_point){
                    .procs = m->runs[r]->nprocs,
                    .time = sums[c * m->nruns + r] / counts[c * m->nruns + r]};
            }
        own[c] = enough(m, n, sp_fit_time(p, n, loops, &out[c]));
        if (own[c]) {
            out[c] = pz_scale_fit_class(p, at, n, &out[c], &out[m->nclasses]);
        } else {
            out[c] = out[m->nclasses];
            if (n)
                lacking[c] = 1;
        }
    }
}

static int fit_intervals(struct pz_scale_program *m, const struct sp_stats *st)
{
    uint32_t cols = m->nclasses + 1;
    struct pz_scale_model *models = malloc(cols * sizeof(*models));
    uint8_t *lacking = calloc(cols, 1), *own = calloc(cols, 1);
    int rc = -1;

    if (!models || !lacking || !own ||
        !(m->compute = calloc((size_t)st->nintervals * cols, sizeof(*m->compute))))
        goto out;
    for (uint32_t i = 0; i < st->nintervals && i < 64; i++) {
        size_t at = (size_t)i * m->nclasses * m->nruns;

        memset(lacking, 0, cols);
        fit_classes(m, st->in_interval + at, st->nin_interval + at, 0, models, own, lacking);
        m->compute[m->ncompute++] = (struct pz_scale_compute){st->intervals[i], "all",
                                                              models[m->nclasses]};
        for (uint32_t c = 0; c < m->nclasses && m->nclasses > 1; c++)
            if (own[c] && memcmp(&models[c], &models[m->nclasses], sizeof(*models)))
                m->compute[m->ncompute++] = (struct pz_scale_compute){
                    st->intervals[i], m->classes[c].name, models[c]};
    }
    rc = 0;
out:
    free(models);
    free(lacking);
    free(own);
    return rc;
}

/* The time inside step k: the shortest of the recordings' means.  A call whose time the
 * replay does not model (MPI_Comm_split recorded without its collective...) is replayed
 * for that time, and a recording with more processes than cores stretches it,
 * busy-polling MPI most of all.  MPI_Init's stays in the synthesized recording, which
 * the replay makes instantaneous (pz_call_starts_mpi). */
static double shortest_duration(const struct pz_scale_program *m, const struct sp_stats *st,
                                uint32_t k)
{
    double best = 0;
    int found = 0;

    for (size_t r = 0; r < m->nruns; r++) {
        size_t at = (size_t)k * m->nruns + r;
        double mean = st->nduration[at] ? st->duration[at] / st->nduration[at] : 0;

        if (st->nduration[at] && (!found || mean < best)) {
            best = mean;
            found = 1;
        }
    }
    return best;
}

/* The model of one grouping's computations, made in loops whose trip counts grow as
 * P^loops (sp_loops_growth), and their spread: the largest over the
 * recordings of (max - min) / mean; HUGE_VAL when the grouping is in too few of them. */
static double fit_group(const struct pz_scale_program *m, const struct sp_group *g,
                        double loops, struct pz_scale_model *out)
{
    struct pz_scale_point p[64] = {{.procs = 0}};
    double spread = 0;
    size_t n = 0;

    for (size_t r = 0; r < m->nruns && n < 64; r++) {
        double mean;

        if (!g[r].n)
            continue;
        mean = g[r].sum / g[r].n;
        p[n++] = (struct pz_scale_point){.procs = m->runs[r]->nprocs, .time = mean};
        if (g[r].max > g[r].min && (g[r].max - g[r].min) / fabs(mean) > spread)
            spread = (g[r].max - g[r].min) / fabs(mean);
    }
    return enough(m, n, sp_fit_time(p, n, loops, out)) ? spread : HUGE_VAL;
}

/* The model m times the mean ratio of the computations g recorded to what m gives at
 * their counts: a model of other computations at the level of these.  m as it is when g
 * has no recording, 0 where they computed nothing. */
static struct pz_scale_model at_level_of(const struct pz_scale_program *m,
                                         const struct sp_group *g, struct pz_scale_model f)
{
    double sum = 0;
    size_t n = 0;

    for (size_t r = 0; r < m->nruns; r++) {
        double model = pz_scale_model_at(&f, m->runs[r]->nprocs);

        if (g[r].n && model > 0) {
            sum += g[r].sum / g[r].n / model;
            n++;
        }
    }
    if (n) {
        f.c0 *= sum / n;
        f.c1 *= sum / n;
    }
    return f;
}

/* Each pair's computation: the grouping by the pair, by the step before, or by the step
 * after, whichever spreads least (scale_program_int.h); a pair in too few recordings
 * for a model of its own takes another grouping's at its own level. */
static int fit_preds(struct pz_scale_program *m, const struct sp_stats *st)
{
    uint32_t cols = m->nclasses + 1;
    struct pz_scale_model before;

    if (!(m->after = calloc((size_t)m->nnodes + 1, sizeof(*m->after))) ||
        !(m->after_spread = calloc((size_t)m->nnodes + 1, sizeof(double))) ||
        !(m->before_spread = calloc(m->nnodes ? m->nnodes : 1, sizeof(double))))
        return -1;
    for (uint32_t k = 0; k <= m->nnodes; k++)
        m->after_spread[k] = fit_group(m, st->after + (size_t)k * m->nruns,
                                       k ? sp_loops_growth(m, k - 1) : 0, &m->after[k]);
    for (uint32_t k = 0; k < m->nnodes; k++)
        m->before_spread[k] = fit_group(m, st->before + (size_t)k * m->nruns,
                                        sp_loops_growth(m, k), &before);
    for (uint32_t i = 0; i < m->npreds; i++) {
        struct sp_pred *pr = &m->preds[i];
        uint32_t after = pr->prev == SP_NONE ? 0 : pr->prev + 1;
        double own = fit_group(m, st->pred + (size_t)i * m->nruns, pair_loops(m, pr),
                               &pr->gap),
               spread = own;

        if (m->after_spread[after] < spread) {
            spread = m->after_spread[after];
            pr->gap = m->after[after];
            pr->by_prev = 1;
        }
        if (m->before_spread[pr->node] < spread || spread == HUGE_VAL) {
            pr->gap = m->gap[(size_t)pr->node * cols + m->nclasses];
            pr->by_prev = 0;
        }
        if (own == HUGE_VAL)
            pr->gap = at_level_of(m, st->pred + (size_t)i * m->nruns, pr->gap);
    }
    return 0;
}

/* Whether class c of those lacking recordings (lacking) has the name of one before it:
 * classes of different guards may share a name of position. */
static int named_before(const struct pz_scale_program *m, const uint8_t *lacking, uint32_t c)
{
    for (uint32_t i = 0; i < c; i++)
        if (lacking[i] && !strcmp(m->classes[i].name, m->classes[c].name))
            return 1;
    return 0;
}

/* The note of the classes in too few recordings for fits of their own (lacking[c]): one
 * note naming them all once, "'a', 'b' and 'c'", which a grid's many classes of
 * position would otherwise repeat line after line. */
static int note_lacking(struct pz_scale_program *m, const uint8_t *lacking)
{
    size_t len = 1, at = 0;
    uint32_t n = 0, done = 0;
    char *names;
    int rc;

    for (uint32_t c = 0; c < m->nclasses; c++)
        if (lacking[c] && !named_before(m, lacking, c)) {
            len += strlen(m->classes[c].name) + sizeof("'' and ");
            n++;
        }
    if (!n)
        return 0;
    if (!(names = malloc(len)))
        return -1;
    for (uint32_t c = 0; c < m->nclasses; c++)
        if (lacking[c] && !named_before(m, lacking, c))
            at += (size_t)snprintf(names + at, len - at, "%s'%s'",
                                   !done++ ? "" : done == n ? " and " : ", ",
                                   m->classes[c].name);
    rc = sp_note(m, "the processes of class%s %s are in too few recordings for fits of their "
                 "own: the computation before each of their steps is fitted over the "
                 "processes with the same steps around it", n > 1 ? "es" : "", names);
    free(names);
    return rc;
}

int sp_fit_all(struct pz_scale_program *m, const struct sp_stats *st)
{
    uint32_t cols = m->nclasses + 1;
    uint8_t *lacking = calloc(cols, 1), *tail_own = calloc(cols, 1);
    size_t first_note = m->nnotes;
    int rc = -1;

    if (!lacking || !tail_own || fit_loops_and_sizes(m, st) != 0 ||
        sp_face_laws(m, first_note) != 0 || sp_slice_laws(m, &first_note) != 0 ||
        !(m->gap = calloc((size_t)m->nnodes * cols, sizeof(*m->gap))) ||
        !(m->gap_own = calloc((size_t)m->nnodes * cols, 1)) ||
        !(m->tail = calloc(cols, sizeof(*m->tail))))
        goto out;
    for (uint32_t k = 0; k < m->nnodes; k++)
        if (m->nodes[k].kind == SP_STEP) {
            size_t at = (size_t)k * m->nclasses * m->nruns;

            fit_classes(m, st->gap + at, st->ngap + at, gap_loops(m, k),
                        m->gap + (size_t)k * cols,
                        m->gap_own + (size_t)k * cols, lacking);
            m->nodes[k].duration = shortest_duration(m, st, k);
        }
    if (fit_preds(m, st) != 0)
        goto out;
    fit_classes(m, st->tail, st->ntail, 0, m->tail, tail_own, lacking);
    if (note_lacking(m, lacking) != 0)
        goto out;
    rc = fit_intervals(m, st);
out:
    free(lacking);
    free(tail_own);
    return rc;
}
