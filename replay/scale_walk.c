/* Walking every recorded process through the template (scale_program_int.h).  The
 * membership walk matches a process's steps leniently (a template step that is not the
 * next recorded one is missing there, unless the process made it before: then a loop
 * stops repeating) to learn where each step is made, from which the guards are
 * chosen.  The checked walk then expects exactly the steps whose guards hold,
 * a loop repeating while its body matches whole, and fails at the first difference
 * naming the recording, the process, the interval and the call; on its way it gathers
 * the trip counts, the sizes and the computations of each class of processes, and
 * learns which step completes each posting event's request where a call over many
 * requests does (struct sp_done).  A last pass over every process then learns how many
 * requests each such step completes per call.  Also where the walks found each loop to
 * begin, kept for what is said of the loops after the build. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "scale_program_int.h"

#define MAX_NESTED_INTERVALS 16

int sp_loops_at(const struct pz_scale_program *m, struct sp_loops *l, uint32_t k)
{
    int changed = 0;

    while (l->depth && m->nodes[l->stack[l->depth - 1]].end <= k) {
        l->depth--;
        changed = 1;
    }
    if (m->nodes[k].kind != SP_LOOP)
        return changed;
    if (l->depth < sizeof(l->stack) / sizeof(l->stack[0]))
        l->stack[l->depth++] = k;
    return 1;
}

uint32_t sp_loops_innermost(const struct sp_loops *l)
{
    return l->depth ? l->stack[l->depth - 1] : SP_NONE;
}

int sp_first_made(const struct pz_scale_program *m, uint32_t from, uint32_t end,
                  uint32_t *node, size_t *run)
{
    for (uint32_t i = from; i < end; i++)
        for (size_t r = 0; m->nodes[i].kind == SP_STEP && r < m->nruns; r++)
            if (m->first_proc[(size_t)i * m->nruns + r] != SP_NONE) {
                *node = i;
                *run = r;
                return 1;
            }
    return 0;
}

void sp_loop_where(const struct pz_scale_program *m, uint32_t k, char *buf, size_t len)
{
    uint32_t i;
    size_t r, at;
    char where[160];

    if (!sp_first_made(m, k + 1, m->nodes[k].end, &i, &r)) {
        snprintf(buf, len, "a loop");
        return;
    }
    at = (size_t)i * m->nruns + r;
    sp_where(m, r, m->first_proc[at], m->first_step[at], where, sizeof(where));
    snprintf(buf, len, "%s (%s at process %u of %s)", sp_sym_name(&m->table, m->nodes[i].sym),
             where, m->first_proc[at], m->runs[r]->path);
}

int sp_keep_loop_places(struct pz_scale_program *m)
{
    char where[512];

    if (!(m->loop_where = calloc(m->nnodes ? m->nnodes : 1, sizeof(*m->loop_where))))
        return -1;
    for (uint32_t k = 0; k < m->nnodes; k++) {
        if (m->nodes[k].kind != SP_LOOP)
            continue;
        sp_loop_where(m, k, where, sizeof(where));
        if (!(m->loop_where[k] = strdup(where)))
            return -1;
    }
    return 0;
}

void sp_where(const struct pz_scale_program *m, size_t run, uint32_t proc, uint32_t step,
              char *buf, size_t len)
{
    const struct pz_scale_run *r = m->runs[run];
    const struct pz_scale_process *p = &r->procs[proc];
    uint32_t open[MAX_NESTED_INTERVALS], calls = 0, saved[MAX_NESTED_INTERVALS];
    int depth = 0;

    for (uint32_t i = 0; i < step && i < p->nsteps; i++) {
        const struct pz_scale_step *s = &p->steps[i];

        if (s->kind == PZ_SCALE_BEGIN && depth < MAX_NESTED_INTERVALS) {
            saved[depth] = calls;
            open[depth++] = s->region;
            calls = 0;
        } else if (s->kind == PZ_SCALE_END && depth > 0) {
            calls = saved[--depth];
        } else if (s->kind == PZ_SCALE_CALL) {
            calls++;
        }
    }
    if (depth && open[depth - 1] < r->nnames && r->names[open[depth - 1]])
        snprintf(buf, len, "interval '%s', call %u", r->names[open[depth - 1]], calls + 1);
    else
        snprintf(buf, len, "outside intervals, call %u", calls + 1);
}

struct sp_at sp_at_process(const struct pz_scale_program *m, size_t run, uint32_t proc)
{
    return (struct sp_at){&m->runs[run]->grid, m->runs[run]->procs[proc].coords,
                          m->ambiguous[run]};
}

int sp_matches(const struct pz_scale_program *m, size_t run, uint32_t proc, uint32_t rsym,
               uint32_t k, int *missing)
{
    struct sp_at at = sp_at_process(m, run, proc);

    if (missing)
        *missing = 0;
    return m->nodes[k].sym == rsym || sp_compatible(&m->table, m->nodes[k].sym, rsym, &at,
                                                    missing);
}

/* The loops directly in loop node k's body that ran no iteration the last time they
 * were walked (counted[]), as bits in their order (the first 64). */
static uint64_t idle_loops(const struct pz_scale_program *m, uint32_t k,
                           const uint32_t *counted)
{
    uint64_t idle = 0;
    uint32_t bit = 0;

    for (uint32_t j = k + 1; j < m->nodes[k].end && bit < 64;) {
        if (m->nodes[j].kind != SP_LOOP) {
            j++;
            continue;
        }
        idle |= (uint64_t)(counted[j] == 0) << bit++;
        j = m->nodes[j].end;
    }
    return idle;
}

/* Whether the iteration of loop node k just walked from step pos of process proc (run
 * r, raw[] of n steps), which would be its last (the caller tells), is what follows the
 * loop instead: a loop of its body that ran in the iteration before (ran: idle_loops's
 * bits clear then) runs none in it (idle: idle_loops's bits now), and the step after
 * the loop (the first in it, when it is a loop) is the one at pos.  A time step loop
 * with an MPI_Allreduce every 10 steps and an MPI_Gather every 25, in 100 steps, ends
 * each 50 with the Allreduce and the Gather of the same step: the 50 fold into 2 x (10
 * steps, Allreduce) ... 2 x (Allreduce, 10 steps), Allreduce, Gather, and a third
 * (Allreduce, no step) of the last loop is no iteration of it.  An inner loop that the
 * data leave idle in a pass before the last keeps that pass. */
static int follows_instead(const struct pz_scale_program *m, size_t r, uint32_t proc,
                           uint32_t k, uint64_t idle, uint64_t ran, const uint32_t *raw,
                           size_t pos, size_t n)
{
    uint32_t j = m->nodes[k].end;

    if (!(idle & ran) || pos >= n)
        return 0;
    while (j < m->nnodes && m->nodes[j].kind == SP_LOOP)
        j++;
    return j < m->nnodes && sp_matches(m, r, proc, raw[pos], j, NULL);
}

/* --- membership */

/* A process makes a template step in every pass through its place or in none: its
 * guard is of the process's position, which does not change.  So an iteration of a
 * loop that passes over a step the process has already made is no iteration (it is
 * what follows the loop, starting like the body: a V-cycle's halo exchange after the
 * smoothing loop's), and is undone: what it matched is matched further on. */
struct made_here {
    uint32_t node, first_pos;
    uint8_t missing;
};

struct lenient {
    struct pz_scale_program *m;
    const uint32_t *raw;
    size_t n, run;
    uint32_t proc;
    uint8_t *looped;            /* [pos]: the step is in a loop of the process's own
                                   folded steps */
    uint32_t in_loops;          /* the template's loops the walk is in */
    uint32_t *first_pos;        /* [node]: the first step made as it, SP_NONE */
    uint32_t *counted;          /* [node]: a loop's iterations the last time it ended */
    uint8_t *missing;           /* [node]: made without its peers' events */
    struct made_here *undo;     /* the values before each change, to undo an iteration */
    uint32_t nundo, capundo;
    int passed_made;            /* the current iteration passed over a step made before */
    uint32_t iter_first;        /* the symbol the current iteration began with, SP_NONE */
    int no_rebegin;             /* an iteration does not match that symbol again */
    int oom;
};

static void made_at(struct lenient *c, uint32_t k, size_t pos, int missing)
{
    if (c->first_pos[k] != SP_NONE && c->missing[k] >= missing)
        return;
    if (pz_grow((void **)&c->undo, &c->capundo, c->nundo, sizeof(*c->undo)) != 0) {
        c->oom = 1;
        return;
    }
    c->undo[c->nundo++] = (struct made_here){k, c->first_pos[k], c->missing[k]};
    if (c->first_pos[k] == SP_NONE)
        c->first_pos[k] = (uint32_t)pos;
    c->missing[k] |= (uint8_t)missing;
}

static void undo_to(struct lenient *c, uint32_t mark)
{
    while (c->nundo > mark) {
        const struct made_here *u = &c->undo[--c->nundo];

        c->first_pos[u->node] = u->first_pos;
        c->missing[u->node] = u->missing;
    }
}

static size_t lenient(struct lenient *c, uint32_t a, uint32_t b, size_t pos);

/* Whether loop node k, an iteration of which ended before step pos of process proc of
 * run r (n steps), repeats no more: a loop of a butterfly's stages makes one run of
 * them a pass, and pos begins the next (the stages of a reduction by recursive doubling
 * in a time step loop, with no other call between, are one loop per time step). */
static int run_ended(const struct pz_scale_program *m, size_t r, uint32_t proc, uint32_t k,
                     size_t pos, size_t n)
{
    return m->starts && m->nodes[k].stages && pos < n && m->starts[r][proc][pos];
}

/* One iteration of the body of loop node k from pos: the position after it. */
static size_t iteration(struct lenient *c, uint32_t k, size_t pos)
{
    c->passed_made = 0;
    c->iter_first = SP_NONE;
    return lenient(c, k + 1, c->m->nodes[k].end, pos);
}

/* The iteration of loop node k from pos, whose changes began at mark, walked again
 * without matching the symbol it begins with a second time, into *next: 1 when that
 * one matches something and passes over no step made before, else 0 with the
 * iteration as it was.  A body made by processes of two kinds in two orders (even
 * ranks send then receive, odd ones receive then send, with no other call between the
 * iterations) has the send on both sides of the receive: a process sending first
 * matched the next iteration's send as the one after the receive, and its next
 * iteration then passed over its first send. */
static int rebegun(struct lenient *c, uint32_t k, uint32_t mark, size_t pos, size_t *next)
{
    undo_to(c, mark);
    c->no_rebegin = 1;
    *next = iteration(c, k, pos);
    if (*next != pos && !c->passed_made)
        return 1;
    undo_to(c, mark);
    c->no_rebegin = 0;
    *next = iteration(c, k, pos);
    return 0;
}

/* Whether another iteration of loop node k from pos would match something and pass
 * over no step made before; what it learned undone. */
static int lenient_again(struct lenient *c, uint32_t k, size_t pos)
{
    uint32_t mark = c->nundo;
    size_t next = iteration(c, k, pos);
    int again = next != pos && !c->passed_made;

    undo_to(c, mark);
    return again;
}

/* Repeats the body of loop node k from pos while an iteration matches something and
 * passes over no step made before (the one before walked again, rebegun, where that
 * lets this one match): the position after the last iteration. */
static size_t lenient_loop(struct lenient *c, uint32_t k, size_t pos)
{
    int outer = c->passed_made, outer_rule = c->no_rebegin;
    uint32_t most = sp_pairs_bound(c->m, c->run, k), outer_first = c->iter_first;
    uint32_t before_mark = 0, count;
    size_t before = pos;
    uint64_t ran = 0, idle;

    c->in_loops++;
    c->no_rebegin = 0;
    for (count = 0; count < most; count++) {
        uint32_t mark = c->nundo;
        size_t next = iteration(c, k, pos);

        if (next == pos || c->passed_made) {
            undo_to(c, mark);
            if (!count || c->no_rebegin || !rebegun(c, k, before_mark, before, &pos))
                break;
            count--;
            continue;
        }
        idle = idle_loops(c->m, k, c->counted);
        if (count && follows_instead(c->m, c->run, c->proc, k, idle, ran, c->raw, pos, c->n) &&
            !lenient_again(c, k, next)) {
            undo_to(c, mark);
            break;
        }
        ran = ~idle;
        before_mark = mark;
        before = pos;
        pos = next;
        if (run_ended(c->m, c->run, c->proc, k, pos, c->n)) {
            count++;
            break;
        }
    }
    c->counted[k] = count;
    c->passed_made = outer;
    c->no_rebegin = outer_rule;
    c->iter_first = outer_first;
    c->in_loops--;
    return pos;
}

static size_t lenient(struct lenient *c, uint32_t a, uint32_t b, size_t pos)
{
    const struct sp_node *nodes = c->m->nodes;

    for (uint32_t k = a; k < b;) {
        int missing;

        if (nodes[k].kind == SP_LOOP) {
            pos = lenient_loop(c, k, pos);
            k = nodes[k].end;
            continue;
        }
        /* a step the process repeats in a loop of its own is the template's in a loop
           (sp_merge merged it there): the steps before a loop that other processes
           make once before theirs are not its first iteration */
        if (pos < c->n && (c->in_loops || !c->looped[pos]) &&
            !(c->no_rebegin && nodes[k].sym == c->iter_first) &&
            sp_matches(c->m, c->run, c->proc, c->raw[pos], k, &missing)) {
            if (c->iter_first == SP_NONE)
                c->iter_first = nodes[k].sym;
            made_at(c, k, pos++, missing);
        } else if (c->first_pos[k] != SP_NONE)
            c->passed_made = 1;
        k++;
    }
    return pos;
}

/* What the walk of process c->proc learned, into the model and made. */
static void keep_membership(const struct lenient *c, uint64_t **made)
{
    struct pz_scale_program *m = c->m;

    for (uint32_t k = 0; k < m->nnodes; k++) {
        size_t at = (size_t)k * m->nruns + c->run;

        if (c->first_pos[k] == SP_NONE)
            continue;
        m->nodes[k].proc_null |= c->missing[k];
        made[at][c->proc / 64] |= (uint64_t)1 << (c->proc % 64);
        if (m->first_proc[at] == SP_NONE) {
            m->first_proc[at] = c->proc;
            m->first_step[at] = c->first_pos[k];
        }
    }
}

/* A step's name for messages: an interval's beginning or end says which. */
static void step_phrase(const struct sp_table *t, uint32_t sym, char *buf, size_t len)
{
    const char *name = sp_sym_name(t, sym);
    uint8_t kind = sym < t->nsyms && t->syms[sym].kind == SP_STEP ? t->syms[sym].step_kind
                                                                 : PZ_SCALE_CALL;

    snprintf(buf, len, "%s%s", kind == PZ_SCALE_BEGIN ? "the beginning of "
                               : kind == PZ_SCALE_END ? "the end of " : "", name);
}

static size_t expands(const struct sp_table *t, const uint32_t *s, size_t n,
                      const uint32_t *raw, size_t pos, size_t nsteps);

uint32_t sp_repeats_at(const struct sp_table *t, uint32_t sym, const uint32_t *raw,
                       size_t pos, size_t nsteps)
{
    const struct sp_sym *y = &t->syms[sym];
    uint32_t count = 0;
    size_t next;

    if (y->count)
        return y->count;
    while ((next = expands(t, t->bodies + y->first, y->n, raw, pos, nsteps)) != SIZE_MAX &&
           next > pos) {
        pos = next;
        count++;
    }
    return count;
}

/* The position after the steps that folded symbols s[0..n-1] stand for when they are
 * raw[pos...], else SIZE_MAX. */
static size_t expands(const struct sp_table *t, const uint32_t *s, size_t n,
                      const uint32_t *raw, size_t pos, size_t nsteps)
{
    for (size_t i = 0; i < n; i++) {
        const struct sp_sym *y = &t->syms[s[i]];
        uint32_t count;

        if (y->kind != SP_LOOP) {
            if (pos >= nsteps || raw[pos] != s[i])
                return SIZE_MAX;
            pos++;
            continue;
        }
        count = sp_repeats_at(t, s[i], raw, pos, nsteps);
        for (uint32_t j = 0; j < count && pos != SIZE_MAX; j++)
            pos = expands(t, t->bodies + y->first, y->n, raw, pos, nsteps);
        if (pos == SIZE_MAX)
            return SIZE_MAX;
    }
    return pos;
}

/* Marks looped[] of the steps from pos that folded symbols s[0..n-1] stand for (raw[]
 * of nsteps), in a loop (in) or not: the position after them. */
static size_t mark_looped(const struct sp_table *t, const uint32_t *s, size_t n, int in,
                          const uint32_t *raw, uint8_t *looped, size_t pos, size_t nsteps)
{
    for (size_t i = 0; i < n && pos < nsteps; i++) {
        const struct sp_sym *y = &t->syms[s[i]];
        uint32_t count;

        if (y->kind != SP_LOOP) {
            looped[pos++] = (uint8_t)in;
            continue;
        }
        count = sp_repeats_at(t, s[i], raw, pos, nsteps);
        for (uint32_t j = 0; j < count; j++)
            pos = mark_looped(t, t->bodies + y->first, y->n, 1, raw, looped, pos, nsteps);
    }
    return pos;
}

static int membership_of(struct pz_scale_program *m, uint32_t *const *const *raw,
                         uint32_t *const *const *folded, const size_t *const *nfolded,
                         uint64_t **made, struct lenient *c, size_t r, int p, char *err,
                         size_t errlen)
{
    size_t end;
    char where[160], what[320];

    c->raw = raw[r][p];
    c->n = m->runs[r]->procs[p].nsteps;
    free(c->looped);
    if (!(c->looped = calloc(c->n ? c->n : 1, 1))) {
        snprintf(err, errlen, "out of memory merging the recordings' processes");
        return -1;
    }
    mark_looped(&m->table, folded[r][p], nfolded[r][p], 0, c->raw, c->looped, 0, c->n);
    c->run = r;
    c->proc = (uint32_t)p;
    c->nundo = 0;
    c->iter_first = SP_NONE;
    c->no_rebegin = 0;
    memset(c->first_pos, 0xff, m->nnodes * sizeof(*c->first_pos));
    memset(c->missing, 0, m->nnodes);
    end = lenient(c, 0, m->nnodes, 0);
    if (c->oom) {
        snprintf(err, errlen, "out of memory merging the recordings' processes");
        return -1;
    }
    if (end < c->n) {
        sp_where(m, r, (uint32_t)p, (uint32_t)end, where, sizeof(where));
        step_phrase(&m->table, c->raw[end], what, sizeof(what));
        snprintf(err, errlen, "recordings differ: %s: process %d, %s (%s): the steps "
                 "cannot be merged with the other processes'", m->runs[r]->path, p, where,
                 what);
        return -1;
    }
    keep_membership(c, made);
    return 0;
}

int sp_walk_membership(struct pz_scale_program *m, uint32_t *const *const *raw,
                       uint32_t *const *const *folded, const size_t *const *nfolded,
                       uint64_t **made, char *err, size_t errlen)
{
    size_t nodes = m->nnodes ? m->nnodes : 1;
    struct lenient c = {.m = m, .first_pos = malloc(nodes * sizeof(uint32_t)),
                        .counted = calloc(nodes, sizeof(uint32_t)), .missing = malloc(nodes)};
    int rc = -1;

    if (!c.first_pos || !c.counted || !c.missing) {
        snprintf(err, errlen, "out of memory merging the recordings' processes");
        goto out;
    }
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; p < m->runs[r]->nprocs; p++)
            if (membership_of(m, raw, folded, nfolded, made, &c, r, p, err, errlen) != 0)
                goto out;
    rc = 0;
out:
    free(c.first_pos);
    free(c.counted);
    free(c.missing);
    free(c.undo);
    free(c.looped);
    return rc;
}

/* --- the checked walk */

struct strict {
    struct pz_scale_program *m;
    struct sp_stats *st;
    const struct pz_scale_process *proc;
    const uint32_t *raw;
    size_t n, run;
    const uint32_t *poster;     /* sp_pair_requests's */
    uint32_t *node_of;          /* the node each step was made as */
    int fail_completion;        /* a completion at another step than elsewhere: at
                                   step completion_pos, of a request posted by node
                                   fail_poster */
    size_t completion_pos;
    uint32_t fail_poster;
    uint32_t cls;
    uint8_t flags[PZ_SCALE_MAX_DIMS];
    size_t fail_pos;
    uint32_t fail_node;
    int stopped;                /* a loop stopped repeating at step stop_pos, its body's
                                   iteration failing at stop_fail_pos (stop_fail_node):
                                   the furthest such failure of loops stopped there */
    size_t stop_pos, stop_fail_pos;
    uint32_t stop_fail_node;
    uint32_t *pass;             /* [node]: the loop's passes at this process so far, where
                                   st->passes is kept; else NULL */
    uint32_t *counted;          /* [node]: a loop's iterations the last time it ended */
    double in_interval[64];     /* the process's computation per interval */
    uint32_t last;              /* the last step node made (a loop of a butterfly's stages
                                   when a pass of it begins) */
    int oom;
    uint32_t open[MAX_NESTED_INTERVALS];
    int depth;
};

static uint32_t interval_of(const struct sp_stats *st, const char *name)
{
    for (uint32_t i = 0; i < st->nintervals; i++)
        if (st->intervals[i] == name)
            return i;
    return SP_NONE;
}

/* The first change of size w at the same process (proc + 1) from one pass to the next. */
static void track_change(struct sp_change *c, uint32_t proc, int w, uint64_t bytes)
{
    if (c->last_proc == proc && c->last[w] != bytes && !((c->changed >> w) & 1)) {
        c->from[w] = c->last[w];
        c->to[w] = bytes;
        c->changed |= (uint8_t)(1u << w);
    }
    c->last[w] = bytes;
}

uint64_t sp_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;

        a = b;
        b = t;
    }
    return a;
}

static void add_to_sums(struct sp_size_sums *s, const struct pz_scale_event *e)
{
    s->sum[0] += (double)e->bytes;
    s->sum[1] += (double)e->bytes2;
    s->gcd[0] = sp_gcd(s->gcd[0], e->bytes);
    s->gcd[1] = sp_gcd(s->gcd[1], e->bytes2);
    s->n++;
}

static void add_bytes(struct sp_stats *st, size_t at, uint32_t proc,
                      const struct pz_scale_event *e)
{
    add_to_sums(&st->sums[at], e);
    track_change(&st->change[at], proc + 1, 0, e->bytes);
    track_change(&st->change[at], proc + 1, 1, e->bytes2);
    st->change[at].last_proc = proc + 1;
    if (!st->has_bytes[at]) {
        st->bytes_min[at] = st->bytes_max[at] = e->bytes;
        st->bytes2_min[at] = st->bytes2_max[at] = e->bytes2;
        st->has_bytes[at] = 1;
        return;
    }
    st->bytes_min[at] = e->bytes < st->bytes_min[at] ? e->bytes : st->bytes_min[at];
    st->bytes_max[at] = e->bytes > st->bytes_max[at] ? e->bytes : st->bytes_max[at];
    st->bytes2_min[at] = e->bytes2 < st->bytes2_min[at] ? e->bytes2 : st->bytes2_min[at];
    st->bytes2_max[at] = e->bytes2 > st->bytes2_max[at] ? e->bytes2 : st->bytes2_max[at];
}

/* The sizes of v event te, or of a message to an offset, at this process (struct
 * sp_seen; a completion of slot s: te nevents + s): the first pass's kept, a change from
 * them marked; the run's array allocated when first met. */
static void see_v_sizes(struct strict *c, uint32_t te, const struct pz_scale_event *e)
{
    struct sp_stats *st = c->st;
    size_t runs = c->m->nruns, at = (size_t)te * runs + c->run;
    const struct pz_scale_nbr *nbr;
    struct sp_seen *s;

    if (!st->seen) {
        size_t n = ((size_t)c->m->nevents + c->m->nslots) * runs;

        if (!(st->seen = calloc(n, sizeof(*st->seen))))
            goto oom;
        st->nseen = n;
    }
    if (!st->seen[at] &&
        !(st->seen[at] = calloc((size_t)c->m->runs[c->run]->nprocs, sizeof(**st->seen))))
        goto oom;
    s = &st->seen[at][c->proc - c->m->runs[c->run]->procs];
    nbr = e->peer.kind == PZ_SCALE_PEER_NEIGHBOURS ? &c->proc->nbrs[e->peer.rank] : NULL;
    if (s->seen && (s->bytes != e->bytes || s->bytes2 != e->bytes2 ||
                    (nbr && memcmp(nbr, s->nbr, sizeof(*nbr)) != 0)))
        s->varies = 1;
    if (!s->seen)
        *s = (struct sp_seen){e->bytes, e->bytes2, 1, 0, nbr};
    return;
oom:
    c->oom = 1;
}

/* The template event of recorded event ev of step pos of process proc of recording run,
 * made as node k: the node's event its place among the step's events in the signature
 * maps to (sp_map_event: a call to MPI_PROC_NULL lacks some); SP_NONE if none. */
static uint32_t template_event(const struct pz_scale_program *m, size_t run, uint32_t proc,
                               const uint32_t *raw, const uint32_t *poster, uint32_t k,
                               size_t pos, uint32_t ev)
{
    const struct pz_scale_process *p = &m->runs[run]->procs[proc];
    const struct sp_node *nd = &m->nodes[k];
    const char *region = m->table.syms[nd->sym].region;
    struct sp_at at = sp_at_process(m, run, proc);
    uint32_t n = 0, i;

    for (i = p->steps[pos].first; i < ev; i++)
        n += !sp_reduced(region, p->events[i].kind, poster[i]);
    i = sp_map_event(&m->table, nd->sym, raw[pos], &at, n);
    return i == SP_NONE ? SP_NONE : nd->first_event + i;
}

static uint32_t proc_of(const struct strict *c)
{
    return (uint32_t)(c->proc - c->m->runs[c->run]->procs);
}

/* Completion ev of step pos, made as node k, left out of its signature: the step that
 * completes its request's slot is k, at every process (else fail_completion); its
 * sizes. */
static void learn_completion(struct strict *c, uint32_t k, size_t pos, uint32_t ev)
{
    struct pz_scale_program *m = c->m;
    const struct pz_scale_event *e = &c->proc->events[ev];
    size_t ps = pos - (size_t)e->posted_by;
    uint32_t te = template_event(m, c->run, proc_of(c), c->raw, c->poster, c->node_of[ps], ps,
                                 c->poster[ev]);
    int32_t slot = te == SP_NONE ? -1 : m->events[te].slot;

    if (slot < 0)
        return;
    if (m->done[slot].node == SP_NONE)
        m->done[slot].node = k;
    if ((m->done[slot].node != k || m->done[slot].by_signature) && !c->fail_completion) {
        c->fail_completion = 1;
        c->completion_pos = pos;
        c->fail_poster = c->node_of[ps];
    }
    add_bytes(c->st, ((size_t)m->nevents + (size_t)slot) * m->nruns + c->run, proc_of(c),
              e);
    /* a neighbourhood collective's sizes at its neighbours, a received message's size */
    if (m->done[slot].sig.peer.kind == PZ_SCALE_PEER_NEIGHBOURS ||
        sp_offset_message(&m->done[slot].sig))
        see_v_sizes(c, m->nevents + (uint32_t)slot, e);
}

static void gather_events(struct strict *c, uint32_t k, size_t pos)
{
    const struct sp_node *nd = &c->m->nodes[k];
    const struct pz_scale_step *s = &c->proc->steps[pos];
    const char *region = c->m->table.syms[nd->sym].region;

    c->node_of[pos] = k;
    for (uint32_t i = s->first; i < s->first + s->n; i++)
        if (sp_reduced(region, c->proc->events[i].kind, c->poster[i])) {
            learn_completion(c, k, pos, i);
        } else {
            uint32_t te = template_event(c->m, c->run, proc_of(c), c->raw, c->poster, k, pos,
                                         i);

            if (te == SP_NONE)
                continue;
            add_bytes(c->st, (size_t)te * c->m->nruns + c->run, proc_of(c),
                      &c->proc->events[i]);
            if (sp_v_collective(c->m->events[te].sig) ||
                sp_offset_message(c->m->events[te].sig))
                see_v_sizes(c, te, &c->proc->events[i]);
        }
}

/* The pred of node k after node prev, added when new; SP_NONE when memory runs out. */
static uint32_t pred_of(struct pz_scale_program *m, struct sp_stats *st, uint32_t k,
                        uint32_t prev)
{
    uint32_t i;

    for (i = m->pred_head[k]; i != SP_NONE; i = m->preds[i].next)
        if (m->preds[i].prev == prev)
            return i;
    if (m->npreds == m->cappreds) {
        uint32_t cap = m->cappreds ? m->cappreds * 2 : 64;
        struct sp_pred *v = realloc(m->preds, cap * sizeof(*v));
        struct sp_group *g;

        if (v)
            m->preds = v;
        g = realloc(st->pred, (size_t)cap * m->nruns * sizeof(*g));
        if (g)
            st->pred = g;
        if (!v || !g)
            return SP_NONE;
        m->cappreds = cap;
    }
    i = m->npreds++;
    m->preds[i] = (struct sp_pred){k, prev, m->pred_head[k], {.a_den = 1}, 0};
    m->pred_head[k] = i;
    memset(st->pred + (size_t)i * m->nruns, 0, m->nruns * sizeof(*st->pred));
    return i;
}

static void add_to(struct sp_group *g, double v)
{
    if (!g->n || v < g->min)
        g->min = v;
    if (!g->n || v > g->max)
        g->max = v;
    g->sum += v;
    g->n++;
}

/* The numbers of step pos, made as node k; missing: without the events of its peers (a
 * call to MPI_PROC_NULL). */
static void gather(struct strict *c, uint32_t k, size_t pos, int missing)
{
    struct pz_scale_program *m = c->m;
    const struct pz_scale_step *s = &c->proc->steps[pos];
    double gap = m->compute_cpu ? s->gap_cpu : s->gap_wall;
    size_t at = ((size_t)k * m->nclasses + c->cls) * m->nruns + c->run;
    struct sp_stats *st = c->st;

    uint32_t pred = pred_of(m, st, k, c->last);

    if (pred == SP_NONE) {
        c->oom = 1;
        return;
    }
    add_to(&st->pred[(size_t)pred * m->nruns + c->run], gap);
    add_to(&st->after[(c->last == SP_NONE ? 0 : (size_t)c->last + 1) * m->nruns + c->run], gap);
    add_to(&st->before[(size_t)k * m->nruns + c->run], gap);
    c->last = k;
    st->gap[at] += gap;
    st->ngap[at]++;
    if (sp_ratio_add(m, k, c->cls, c->run, c->proc, gap) != 0)
        c->oom = 1;
    /* The replay models a call with peers and replays one to MPI_PROC_NULL for its
       time: a step made both ways is timed by the latter alone, whose time holds no
       waiting for a partner (a pipeline's first stage receives from MPI_PROC_NULL). */
    if (!m->nodes[k].proc_null || missing) {
        st->duration[(size_t)k * m->nruns + c->run] += s->duration;
        st->nduration[(size_t)k * m->nruns + c->run]++;
    }
    gather_events(c, k, pos);
    /* the computation before an interval's end is inside it, before its beginning not */
    c->in_interval[0] += gap;
    for (int d = 0; d < c->depth; d++)
        if (c->open[d] < 64)
            c->in_interval[c->open[d]] += gap;
    if (s->kind == PZ_SCALE_END && c->depth > 0)
        c->depth--;
    if (s->kind == PZ_SCALE_BEGIN && c->depth < MAX_NESTED_INTERVALS)
        c->open[c->depth++] = interval_of(st, m->table.syms[m->nodes[k].sym].region);
}

/* The counts of loop k by class of position, allocated when first met; NULL when memory
 * runs out. */
static struct sp_key_counts *key_counts(struct strict *c, uint32_t k)
{
    struct sp_stats *st = c->st;
    size_t n = (size_t)SP_V_KEYS * c->m->nruns;

    if (!st->by_key) {
        if (!(st->by_key = calloc(c->m->nnodes, sizeof(*st->by_key))))
            return NULL;
        st->nby_key = c->m->nnodes;
    }
    if (!st->by_key[k] && (st->by_key[k] = calloc(1, sizeof(**st->by_key))) &&
        (!(st->by_key[k]->min = calloc(n, sizeof(uint32_t))) ||
         !(st->by_key[k]->max = calloc(n, sizeof(uint32_t))))) {
        free(st->by_key[k]->min);
        free(st->by_key[k]);
        st->by_key[k] = NULL;
    }
    return st->by_key[k];
}

static void min_max(uint32_t *lo, uint32_t *hi, uint32_t count)
{
    if (!*hi || count < *lo)
        *lo = count;
    if (count > *hi)
        *hi = count;
}

/* The pass of loop k this process has just made ran count times: the largest of the
 * processes at that pass, kept (struct sp_passes). */
static void gather_pass(struct strict *c, uint32_t k, uint32_t count)
{
    struct sp_passes *q = &c->st->passes[(size_t)k * c->m->nruns + c->run];
    uint32_t pass = c->pass[k]++;

    while (q->n <= pass) {
        if (pz_grow((void **)&q->count, &q->cap, q->n, sizeof(*q->count)) != 0) {
            c->oom = 1;
            return;
        }
        q->count[q->n++] = 0;
    }
    if (count > q->count[pass])
        q->count[pass] = count;
}

/* Loop k ran count times at this process: its run's and its class of position's. */
static void gather_count(struct strict *c, uint32_t k, uint32_t count)
{
    size_t at = (size_t)k * c->m->nruns + c->run;
    uint16_t key = sp_trips_key(c->m, &c->m->grid, c->flags, (int)proc_of(c));
    struct sp_key_counts *kc;
    uint32_t i;

    if (c->pass)
        gather_pass(c, k, count);
    if (!count)
        return;
    min_max(&c->st->count_min[at], &c->st->count_max[at], count);
    if (!(kc = key_counts(c, k))) {
        c->oom = 1;
        return;
    }
    for (i = 0; i < kc->nkeys && kc->keys[i] != key; i++)
        ;
    if (i == SP_V_KEYS)
        return;
    if (i == kc->nkeys)
        kc->keys[kc->nkeys++] = key;
    at = (size_t)i * c->m->nruns + c->run;
    min_max(&kc->min[at], &kc->max[at], count);
}

/* The loop that began an iteration at pos stopped because the iteration failed
 * further on (fail_pos): kept to explain a mismatch at pos. */
static void loop_stopped(struct strict *c, size_t pos)
{
    if (c->fail_pos <= pos ||
        (c->stopped && c->stop_pos == pos && c->stop_fail_pos >= c->fail_pos))
        return;
    c->stopped = 1;
    c->stop_pos = pos;
    c->stop_fail_pos = c->fail_pos;
    c->stop_fail_node = c->fail_node;
}

/* Matches nodes [a, b) from pos: the position after them, or -1 (fail_pos, fail_node
 * say where).  commit: gather the numbers. */
static long strict(struct strict *c, uint32_t a, uint32_t b, size_t pos, int commit)
{
    const struct sp_node *nodes = c->m->nodes;

    for (uint32_t k = a; k < b;) {
        if (nodes[k].kind == SP_LOOP) {
            uint32_t count = 0, most = sp_pairs_bound(c->m, c->run, k);
            long next = 0;
            uint64_t ran = 0;

            /* the computation before a butterfly's stages is not one between them */
            if (commit && nodes[k].stages)
                c->last = k;

            while (count < most && (next = strict(c, k + 1, nodes[k].end, pos, 0)) >= 0 &&
                   (size_t)next != pos) {
                uint64_t idle = idle_loops(c->m, k, c->counted);
                long again;

                if (count && follows_instead(c->m, c->run, proc_of(c), k, idle, ran, c->raw,
                                             pos, c->n) &&
                    ((again = strict(c, k + 1, nodes[k].end, (size_t)next, 0)) < 0 ||
                     again == next))
                    break;
                ran = ~idle;
                if (commit)
                    strict(c, k + 1, nodes[k].end, pos, 1);
                pos = (size_t)next;
                count++;
                if (run_ended(c->m, c->run, proc_of(c), k, pos, c->n))
                    break;
            }
            if (next < 0)
                loop_stopped(c, pos);
            c->counted[k] = count;
            if (commit)
                gather_count(c, k, count);
            k = nodes[k].end;
            continue;
        }
        if (sp_guard_holds(&nodes[k].guard, &c->m->runs[c->run]->grid, (int)proc_of(c),
                           c->flags)) {
            int missing;

            if (pos >= c->n ||
                !sp_matches(c->m, c->run, proc_of(c), c->raw[pos], k, &missing)) {
                c->fail_pos = pos;
                c->fail_node = k;
                return -1;
            }
            if (commit)
                gather(c, k, pos, missing);
            pos++;
        }
        k++;
    }
    return (long)pos;
}

/* "X where the other processes and recordings make Y" for recorded step pos and
 * node k (SP_NONE: the template's end). */
static void difference(const struct strict *c, size_t pos, uint32_t k, char *buf,
                       size_t len)
{
    const struct sp_table *t = &c->m->table;
    char made[320], expected[320];

    if (pos < c->n)
        step_phrase(t, c->raw[pos], made, sizeof(made));
    else
        snprintf(made, sizeof(made), "the end");
    if (k == SP_NONE)
        snprintf(expected, sizeof(expected), "the end");
    else
        step_phrase(t, c->m->nodes[k].sym, expected, sizeof(expected));
    snprintf(buf, len, "%s where the other processes and recordings make %s", made,
             expected);
}

/* The first difference: at fail_pos, or, when the template ended first, at end; and
 * when a loop stopped repeating there, why its next iteration did not match. */
static void mismatch(struct strict *c, long end, char *err, size_t errlen)
{
    const struct pz_scale_program *m = c->m;
    uint32_t p = (uint32_t)(c->proc - m->runs[c->run]->procs);
    char where[160], what[720], inner_where[160], inner[720];

    if (end >= 0) {
        c->fail_pos = (size_t)end;
        c->fail_node = SP_NONE;
    }
    sp_where(m, c->run, p, (uint32_t)c->fail_pos, where, sizeof(where));
    difference(c, c->fail_pos, c->fail_node, what, sizeof(what));
    if (!c->stopped || c->stop_pos != c->fail_pos) {
        snprintf(err, errlen, "recordings differ: %s: process %u, %s: %s",
                 m->runs[c->run]->path, p, where, what);
        return;
    }
    sp_where(m, c->run, p, (uint32_t)c->stop_fail_pos, inner_where, sizeof(inner_where));
    difference(c, c->stop_fail_pos, c->stop_fail_node, inner, sizeof(inner));
    snprintf(err, errlen, "recordings differ: %s: process %u, %s: %s, after a loop that "
             "stops repeating there because its next iteration differs at %s: %s",
             m->runs[c->run]->path, p, where, what, inner_where, inner);
}

static uint32_t class_of(const struct pz_scale_program *m, const struct pz_scale_run *run,
                         int p, const uint8_t *flags)
{
    uint64_t mask = sp_class_mask(m, &run->grid, p, flags);
    uint32_t i;

    for (i = 0; i + 1 < m->nclasses && m->classes[i].mask != mask; i++)
        ;
    return i;
}

static void finish_process(struct strict *c, int p)
{
    struct sp_stats *st = c->st;
    const struct pz_scale_process *proc = &c->m->runs[c->run]->procs[p];
    double tail = c->m->compute_cpu ? proc->tail_cpu : proc->tail_wall;
    size_t at = (size_t)c->cls * c->m->nruns + c->run;

    st->tail[at] += tail;
    st->ntail[at]++;
    c->in_interval[0] += tail;
    for (uint32_t i = 0; i < st->nintervals && i < 64; i++) {
        size_t k = ((size_t)i * c->m->nclasses + c->cls) * c->m->nruns + c->run;

        st->in_interval[k] += c->in_interval[i];
        st->nin_interval[k]++;
    }
}

static void completion_elsewhere(const struct strict *c, char *err, size_t errlen)
{
    const struct pz_scale_program *m = c->m;
    uint32_t p = (uint32_t)(c->proc - m->runs[c->run]->procs);
    char where[160];

    sp_where(m, c->run, p, (uint32_t)c->completion_pos, where, sizeof(where));
    snprintf(err, errlen, "recordings differ: %s: process %u, %s (%s): completes the request "
             "of %s that another call completes at other processes or recordings: which "
             "call completes it cannot be extrapolated", m->runs[c->run]->path, p,
             where, sp_sym_name(&m->table, c->raw[c->completion_pos]),
             sp_sym_name(&m->table, m->nodes[c->fail_poster].sym));
}

/* Checks one process and gathers its numbers; node_of (its steps' nodes) is kept. */
static int check_process(struct pz_scale_program *m, uint32_t *const *const *raw,
                         struct sp_stats *st, size_t r, int p, uint32_t *node_of,
                         char *err, size_t errlen)
{
    const struct pz_scale_process *proc = &m->runs[r]->procs[p];
    size_t nev = proc->nevents ? proc->nevents : 1;
    uint32_t *poster = malloc(nev * sizeof(*poster)), *done = malloc(nev * sizeof(*done));
    struct strict c = {.m = m, .st = st, .proc = proc, .raw = raw[r][p], .n = proc->nsteps,
                       .run = r, .poster = poster, .node_of = node_of, .last = SP_NONE};
    long end;
    int rc = -1;

    if (!poster || !done ||
        !(c.counted = calloc(m->nnodes ? m->nnodes : 1, sizeof(*c.counted))) ||
        (st->passes && !(c.pass = calloc(m->nnodes ? m->nnodes : 1, sizeof(*c.pass))))) {
        snprintf(err, errlen, "out of memory gathering the recordings' numbers");
        goto out;
    }
    sp_pair_requests(proc, poster, done);
    sp_positions(&m->runs[r]->grid, proc->coords, c.flags);
    c.cls = class_of(m, m->runs[r], p, c.flags);
    end = strict(&c, 0, m->nnodes, 0, 0);
    if (end < 0 || (size_t)end != c.n) {
        mismatch(&c, end, err, errlen);
        goto out;
    }
    strict(&c, 0, m->nnodes, 0, 1);
    if (c.oom) {
        snprintf(err, errlen, "out of memory gathering the recordings' numbers");
        goto out;
    }
    if (c.fail_completion) {
        completion_elsewhere(&c, err, errlen);
        goto out;
    }
    finish_process(&c, p);
    rc = 0;
out:
    free(poster);
    free(done);
    free(c.pass);
    free(c.counted);
    return rc;
}

/* --- how many requests a call over many completes */

/* Per completing node: of the calls that completed fewer requests than were posted for
 * it and not yet completed, how many (SP_NONE: no such call); of the others, the most;
 * whether these contradict one count per call, and where first. */
struct tally {
    uint32_t fewer, most;
    int varies;
    size_t run;
    uint32_t proc, pos;
};

static void tally_call(struct tally *t, uint32_t made, uint32_t pending, size_t r,
                       uint32_t p, uint32_t pos)
{
    int odd = 0;

    if (made < pending) {
        odd = (t->fewer != SP_NONE && t->fewer != made) || t->most > made;
        if (t->fewer == SP_NONE)
            t->fewer = made;
    } else if (made > t->most) {
        t->most = made;
        odd = t->fewer != SP_NONE && made > t->fewer;
    }
    if (odd && !t->varies) {
        t->varies = 1;
        t->run = r;
        t->proc = p;
        t->pos = pos;
    }
}

/* Replays process p's postings and completions against the learned completing steps. */
static int tally_process(const struct pz_scale_program *m, uint32_t *const *const *raw,
                         size_t r, int p, const uint32_t *node_of, uint32_t *pending,
                         struct tally *t)
{
    const struct pz_scale_process *proc = &m->runs[r]->procs[p];
    size_t nev = proc->nevents ? proc->nevents : 1;
    uint32_t *poster = malloc(nev * sizeof(*poster)), *done = malloc(nev * sizeof(*done));

    if (!poster || !done) {
        free(poster);
        free(done);
        return -1;
    }
    sp_pair_requests(proc, poster, done);
    memset(pending, 0, m->nnodes * sizeof(*pending));
    for (size_t pos = 0; pos < proc->nsteps; pos++) {
        const struct pz_scale_step *s = &proc->steps[pos];
        uint32_t k = node_of[pos], made = 0;
        const char *region = m->table.syms[m->nodes[k].sym].region;

        for (uint32_t i = s->first; i < s->first + s->n; i++) {
            uint32_t te;
            int32_t slot;

            if (sp_reduced(region, proc->events[i].kind, poster[i])) {
                made++;
                continue;
            }
            te = template_event(m, r, (uint32_t)p, raw[r][p], poster, k, pos, i);
            slot = te == SP_NONE ? -1 : m->events[te].slot;
            if (slot >= 0 && m->done[slot].node != SP_NONE)
                pending[m->done[slot].node]++;
        }
        if (made || pending[k]) {
            tally_call(&t[k], made, pending[k], r, (uint32_t)p, (uint32_t)pos);
            pending[k] -= made < pending[k] ? made : pending[k];
        }
    }
    free(poster);
    free(done);
    return 0;
}

/* Each completing node's count per call: all that are pending, or as many as the calls
 * that completed fewer did; else an error. */
static int choose_per_call(struct pz_scale_program *m, struct tally *t, char *err,
                           size_t errlen)
{
    for (uint32_t k = 0; k < m->nnodes; k++) {
        char where[160];

        if (!t[k].varies) {
            m->nodes[k].per_call = t[k].fewer == SP_NONE ? 0 : t[k].fewer;
            continue;
        }
        sp_where(m, t[k].run, t[k].proc, t[k].pos, where, sizeof(where));
        snprintf(err, errlen, "%s: process %u, %s (%s): the number of requests its calls "
                 "complete follows no pattern (neither all those posted before nor the "
                 "same number each time): cannot be extrapolated", m->runs[t[k].run]->path,
                 t[k].proc, where, sp_sym_name(&m->table, m->nodes[k].sym));
        return -1;
    }
    return 0;
}

static int learn_per_call(struct pz_scale_program *m, uint32_t *const *const *raw,
                          uint32_t *const *const *node_of, char *err, size_t errlen)
{
    struct tally *t = malloc((m->nnodes ? m->nnodes : 1) * sizeof(*t));
    uint32_t *pending = malloc((m->nnodes ? m->nnodes : 1) * sizeof(*pending));
    int rc = -1;

    if (!t || !pending) {
        snprintf(err, errlen, "out of memory gathering the recordings' numbers");
        goto out;
    }
    for (uint32_t k = 0; k < m->nnodes; k++)
        t[k] = (struct tally){.fewer = SP_NONE};
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; p < m->runs[r]->nprocs; p++)
            if (tally_process(m, raw, r, p, node_of[r][p], pending, t) != 0) {
                snprintf(err, errlen, "out of memory gathering the recordings' numbers");
                goto out;
            }
    rc = choose_per_call(m, t, err, errlen);
out:
    free(t);
    free(pending);
    return rc;
}

int sp_walk_check(struct pz_scale_program *m, uint32_t *const *const *raw,
                  struct sp_stats *st, char *err, size_t errlen)
{
    uint32_t ***node_of = calloc(m->nruns, sizeof(*node_of));
    int rc = -1;

    for (size_t r = 0; node_of && r < m->nruns; r++) {
        if (!(node_of[r] = calloc((size_t)m->runs[r]->nprocs, sizeof(**node_of))))
            goto oom;
        for (int p = 0; p < m->runs[r]->nprocs; p++) {
            size_t n = m->runs[r]->procs[p].nsteps;

            if (!(node_of[r][p] = malloc((n ? n : 1) * sizeof(uint32_t))))
                goto oom;
            if (check_process(m, raw, st, r, p, node_of[r][p], err, errlen) != 0)
                goto out;
        }
    }
    if (!node_of)
        goto oom;
    rc = learn_per_call(m, raw, (uint32_t *const *const *)node_of, err, errlen);
    goto out;
oom:
    snprintf(err, errlen, "out of memory gathering the recordings' numbers");
out:
    for (size_t r = 0; node_of && r < m->nruns; r++) {
        for (int p = 0; node_of[r] && p < m->runs[r]->nprocs; p++)
            free(node_of[r][p]);
        free(node_of[r]);
    }
    free(node_of);
    return rc;
}

void sp_stats_free(struct sp_stats *st)
{
    free(st->gap);
    free(st->ngap);
    free(st->tail);
    free(st->ntail);
    free(st->count_min);
    free(st->count_max);
    for (size_t i = 0; st->passes && i < st->npasses; i++)
        free(st->passes[i].count);
    free(st->passes);
    for (uint32_t k = 0; st->by_key && k < st->nby_key; k++)
        if (st->by_key[k]) {
            free(st->by_key[k]->min);
            free(st->by_key[k]->max);
            free(st->by_key[k]);
        }
    free(st->by_key);
    free(st->bytes_min);
    free(st->bytes_max);
    free(st->bytes2_min);
    free(st->bytes2_max);
    free(st->has_bytes);
    free(st->sums);
    free(st->change);
    for (size_t i = 0; st->seen && i < st->nseen; i++)
        free(st->seen[i]);
    free(st->seen);
    free(st->duration);
    free(st->nduration);
    free(st->intervals);
    free(st->in_interval);
    free(st->nin_interval);
    free(st->pred);
    free(st->after);
    free(st->before);
    memset(st, 0, sizeof(*st));
}
