/* Building the program model from recordings (scale_program.h): the recordings checked
 * for what can be compared, every process's steps interned and folded, merged into the
 * template, the guards chosen from where each step was made, every process checked
 * against the template while its numbers are gathered, and the numbers fitted. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call_family.h"
#include "large_count.h"
#include "scale_program_int.h"
#include "trace.h"

/* A note of any length: one naming many classes of processes is long. */
int sp_note(struct pz_scale_program *m, const char *fmt, ...)
{
    char *line, **v;
    va_list ap;
    int len;

    va_start(ap, fmt);
    len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (len < 0 || !(line = malloc((size_t)len + 1)))
        return -1;
    va_start(ap, fmt);
    vsnprintf(line, (size_t)len + 1, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < m->nnotes; i++)
        if (!strcmp(m->notes[i], line)) {
            free(line);
            return 0;
        }
    if (!(v = realloc(m->notes, (m->nnotes + 1) * sizeof(*v)))) {
        free(line);
        return -1;
    }
    v[m->nnotes++] = line;
    m->notes = v;
    return 0;
}

static int check_runs(struct pz_scale_program *m, int compute_cpu, char *err, size_t errlen)
{
    for (size_t r = 0; r < m->nruns; r++) {
        const struct pz_scale_run *a = m->runs[r];

        if (!a || a->nprocs < 1 || !a->procs) {
            snprintf(err, errlen, "recording %zu has no processes", r + 1);
            return -1;
        }
        if (a->grid.ndims < 1 || a->grid.ndims > PZ_SCALE_MAX_DIMS) {
            snprintf(err, errlen, "%s: a process grid of %d dimensions", a->path,
                     a->grid.ndims);
            return -1;
        }
        if (compute_cpu && !a->cpu_times) {
            snprintf(err, errlen, "%s: no CPU times recorded (PROGNOZ_CPU_TIME=1)", a->path);
            return -1;
        }
        if (a->nprocs > m->runs[m->largest]->nprocs)
            m->largest = r;
        for (size_t q = 0; q < r; q++)
            if (m->runs[q]->nprocs == a->nprocs) {
                snprintf(err, errlen, "%s and %s: both recorded at %d process%s",
                         m->runs[q]->path, a->path, a->nprocs, a->nprocs == 1 ? "" : "es");
                return -1;
            }
    }
    for (size_t r = 0; r < m->nruns; r++)
        if (m->runs[r]->grid.ndims != m->runs[m->largest]->grid.ndims) {
            snprintf(err, errlen, "recordings differ: %s has a %d-D process grid, %s a %d-D "
                     "one", m->runs[r]->path, m->runs[r]->grid.ndims,
                     m->runs[m->largest]->path, m->runs[m->largest]->grid.ndims);
            return -1;
        }
    m->grid = m->runs[m->largest]->grid;
    m->grid.ascending = (uint8_t)pz_scale_grid_ascending(m->runs, m->nruns);
    /* a binomial tree's partners are ranks, whichever way the grids its offsets were read
       in wrap (rank 4's parent 0 wraps around 3 x 2, not 4 x 4) */
    if (m->table.by_tree)
        return 0;
    return pz_scale_grid_periodicity(m->runs, m->nruns, m->largest, m->grid.periodic, err,
                                     errlen);
}

int sp_note_at(struct pz_scale_program *m, size_t *at, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    size_t n = m->nnotes;

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (sp_note(m, "%s", line) != 0)
        return -1;
    if (m->nnotes > n && *at < n) {
        char *mine = m->notes[n];

        memmove(m->notes + *at + 1, m->notes + *at, (n - *at) * sizeof(*m->notes));
        m->notes[*at] = mine;
        ++*at;
    }
    return 0;
}

/* --- the template's events: posting slots, completions matched to them, regions */

static int posts_request(const struct sp_event *e)
{
    return e->kind == PZ_REC_ISEND || e->kind == PZ_REC_IRECV_REQUEST ||
           e->kind == PZ_REC_NBC_REQUEST ||
           (pz_scale_is_transfer(e->kind) && (e->tag & PZ_SCALE_RMA_REQUEST));
}

/* The node that posted the request of a completion in node k: the nearest before it
 * with the poster's symbol, else the nearest after (a request posted at the end of a
 * loop's iteration and completed in the next). */
static uint32_t poster_node(const struct pz_scale_program *m, uint32_t k, uint32_t sym)
{
    for (uint32_t i = k; i-- > 0;)
        if (m->nodes[i].kind == SP_STEP && m->nodes[i].sym == sym)
            return i;
    for (uint32_t i = k; i < m->nnodes; i++)
        if (m->nodes[i].kind == SP_STEP && m->nodes[i].sym == sym)
            return i;
    return SP_NONE;
}

static int region_ref(const struct pz_scale_run *run, const char *name, uint32_t *ref)
{
    for (uint32_t i = 0; i < run->nnames; i++)
        if (run->names[i] && !strcmp(run->names[i], name)) {
            *ref = i;
            return 0;
        }
    return -1;
}

/* The region of a wait a recording that only tests never defines: the template's
 * completing test is the wait of its form (scale_sig.c), and where the program never
 * calls that wait, the synthesized call is the test, completing its requests at its
 * first call (a test whose requests are done completes them as the wait would). */
static int completing_test_ref(const struct pz_scale_run *run, const char *wait,
                               uint32_t *ref)
{
    const char *test = sp_test_of_wait(wait);

    return test ? region_ref(run, test, ref) : -1;
}

/* The completion record of each slot's request, from its posting event: a send's and a
 * cancel's name no communicator, peer or tag. */
static void make_done(struct pz_scale_program *m)
{
    for (uint32_t i = 0; i < m->nevents; i++) {
        struct sp_done *d;

        if (m->events[i].slot < 0)
            continue;
        d = &m->done[m->events[i].slot];
        d->node = SP_NONE;
        d->sig = *m->events[i].sig;
        d->sig.kind = m->events[i].sig->done_kind;
        d->sig.done_kind = PZ_REC_ENTER;
        if (d->sig.kind == PZ_REC_ISEND_COMPLETE || d->sig.kind == PZ_REC_REQUEST_CANCELLED) {
            memset(&d->sig.comm, 0, sizeof(d->sig.comm));
            memset(&d->sig.peer, 0, sizeof(d->sig.peer));
            d->sig.comm.kind = PZ_SCALE_COMM_NONE;
            d->sig.peer.kind = PZ_SCALE_PEER_NONE;
            d->sig.tag = 0;
            d->sig.coll_op = 0;
        }
        if (d->sig.kind == PZ_REC_RMA_OP_COMPLETE) {   /* its window, no target */
            memset(&d->sig.peer, 0, sizeof(d->sig.peer));
            d->sig.peer.kind = PZ_SCALE_PEER_NONE;
            d->sig.coll_op = 0;
        }
    }
}

static int make_events(struct pz_scale_program *m, char *err, size_t errlen)
{
    uint32_t n = 0;

    for (uint32_t k = 0; k < m->nnodes; k++)
        if (m->nodes[k].kind == SP_STEP)
            n += m->table.syms[m->nodes[k].sym].n;
    if (!(m->events = calloc(n ? n : 1, sizeof(*m->events)))) {
        snprintf(err, errlen, "out of memory making the program's events");
        return -1;
    }
    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_sym *s;

        if (m->nodes[k].kind != SP_STEP)
            continue;
        s = &m->table.syms[m->nodes[k].sym];
        if (region_ref(m->runs[m->largest], s->region, &m->nodes[k].region) != 0 &&
            completing_test_ref(m->runs[m->largest], s->region, &m->nodes[k].region) != 0) {
            snprintf(err, errlen, "%s: no region '%s', which smaller recordings call",
                     m->runs[m->largest]->path, s->region);
            return -1;
        }
        m->nodes[k].first_event = m->nevents;
        for (uint32_t i = 0; i < s->n; i++) {
            struct sp_tevent *e = &m->events[m->nevents++];

            e->sig = &m->table.events[s->first + i];
            e->slot = posts_request(e->sig) ? (int32_t)m->nslots++ : -1;
            e->completes = -1;
            e->guarded = m->nodes[k].proc_null;
            sp_event_guard(m, e->sig, &e->peers);
        }
    }
    if (!(m->done = calloc(m->nslots ? m->nslots : 1, sizeof(*m->done)))) {
        snprintf(err, errlen, "out of memory making the program's events");
        return -1;
    }
    make_done(m);
    for (uint32_t k = 0; k < m->nnodes; k++)
        for (uint32_t i = 0; m->nodes[k].kind == SP_STEP &&
                             i < m->table.syms[m->nodes[k].sym].n; i++) {
            struct sp_tevent *e = &m->events[m->nodes[k].first_event + i];
            uint32_t p;

            if (e->sig->poster_sym == SP_NONE ||
                (p = poster_node(m, k, e->sig->poster_sym)) == SP_NONE)
                continue;
            e->completes = m->events[m->nodes[p].first_event + e->sig->poster_event].slot;
            if (e->completes >= 0 && e->sig->kind != PZ_REC_REQUEST_TEST)
                m->done[e->completes].by_signature = 1;
        }
    return 0;
}

/* What recordings at fewer than 3 process counts cannot tell, said once for the whole
 * model: a computation's growth (sp_fit keeps the time recorded at the largest count
 * where 2 counts fit every form exactly), and, when no recording has 2 processes, the
 * peers of point-to-point messages. */
static int note_few_counts(struct pz_scale_program *m)
{
    int distinct = 0, largest = 0;

    for (size_t r = 0; r < m->nruns; r++) {
        size_t q = 0;

        while (q < r && m->runs[q]->nprocs != m->runs[r]->nprocs)
            q++;
        distinct += q == r;
        if (m->runs[r]->nprocs > largest)
            largest = m->runs[r]->nprocs;
    }
    if (largest == 1 && sp_note(m, "every recording is of 1 process: none shows whom a "
                                "process sends to, so the synthesized runs make no "
                                "point-to-point message (their collectives run); record at "
                                "2 processes or more") != 0)
        return -1;
    if (distinct < 3 && sp_note(m, "recordings at %d process count%s only: how a "
                                "computation grows takes 3 (2 fit every form exactly), so "
                                "each keeps its time at %d process%s, the largest count "
                                "recorded", distinct, distinct == 1 ? "" : "s", largest,
                                largest == 1 ? "" : "es") != 0)
        return -1;
    return 0;
}

/* The notes on the calls that completed nothing (struct pz_scale_run.polls,
 * polls_many, probes): how many a process makes is the timing's, not the program's, so
 * none is synthesized. */
static int note_polls(struct pz_scale_program *m)
{
    uint64_t polls = 0, many = 0, probes = 0;

    for (size_t r = 0; r < m->nruns; r++) {
        polls += m->runs[r]->polls;
        many += m->runs[r]->polls_many;
        probes += m->runs[r]->probes;
    }
    if (polls && sp_note(m, "%" PRIu64 " calls of MPI_Test finding their request incomplete, "
                         "or of MPI_Wait on the request a test completed, as many as the "
                         "timing decides: not synthesized, their time counted as the "
                         "computation around them, each request completed by one MPI_Wait",
                         polls) != 0)
        return -1;
    if (many && sp_note(m, "%" PRIu64 " calls of MPI_Testall, MPI_Testany or MPI_Testsome "
                        "finding their requests incomplete, or of a wait on the requests a "
                        "test completed, as many as the timing decides: not synthesized, "
                        "their time counted as the computation around them, the requests "
                        "completed where a test completed them, by MPI_Waitall, MPI_Waitany "
                        "or MPI_Waitsome", many) != 0)
        return -1;
    return probes && sp_note(m, "%" PRIu64 " calls of MPI_Iprobe or MPI_Improbe, as many as "
                             "the timing decides and not recorded with what they found: not "
                             "synthesized, their time counted as the computation around "
                             "them, the message waited for by the receive that follows",
                             probes) != 0 ? -1 : 0;
}

/* The note on MPI-IO calls (MPI_File_*): no file system is modelled, so each keeps the
 * time it took where it was shortest (shortest_duration), whatever P. */
static int note_io(struct pz_scale_program *m)
{
    const char *first = NULL;
    size_t steps = 0;

    for (uint32_t k = 0; k < m->nnodes; k++) {
        const char *name;

        if (m->nodes[k].kind != SP_STEP)
            continue;
        name = sp_sym_name(&m->table, m->nodes[k].sym);
        if (pz_call_family(pz_call_named(name)) != PZ_FAMILY_IO)
            continue;
        first = first ? first : name;
        steps++;
    }
    if (!steps)
        return 0;
    return sp_note(m, "MPI-IO (%s%s): synthesized as calls that last their mean time in the "
                   "recording where it is shortest, whatever P: no file system is modelled "
                   "(its bandwidth, and the contention between processes that grows with "
                   "P, are not)", first, steps > 1 ? " and the other MPI_File_ calls" : "") != 0
               ? -1 : 0;
}

/* Does rank 0 of some recording split a communicator (MPI_Comm_split, _split_type):
 * a communicator the program created of every process may then be a group larger than
 * recorded, or one node's processes. */
static int splits(const struct pz_scale_program *m)
{
    for (size_t r = 0; r < m->nruns; r++) {
        const struct pz_scale_run *run = m->runs[r];

        for (size_t s = 0; s < run->procs[0].nsteps; s++) {
            const char *name = run->names[run->procs[0].steps[s].region];

            if (name && (!strcmp(name, "MPI_Comm_split") || !strcmp(name, "MPI_Comm_split_type")))
                return 1;
        }
    }
    return 0;
}

/* Notes on what cannot be extrapolated: receives from any source, communicators of no
 * class, calls to MPI_PROC_NULL at every recorded process (whose peer is unknown), a
 * communicator of a split that has every process in every recording. */
static int note_patternless(struct pz_scale_program *m)
{
    int split = splits(m);

    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_sym *s = &m->table.syms[m->nodes[k].sym];
        char where[160];
        size_t r;

        if (m->nodes[k].kind != SP_STEP)
            continue;
        for (r = 0; r < m->nruns && m->first_proc[(size_t)k * m->nruns + r] == SP_NONE; r++)
            ;
        if (r == m->nruns)
            continue;
        sp_where(m, r, m->first_proc[(size_t)k * m->nruns + r],
                 m->first_step[(size_t)k * m->nruns + r], where, sizeof(where));
        if (sp_open(&m->table, m->nodes[k].sym, 0) &&
            sp_note(m, "%s (%s): calls MPI_PROC_NULL at every recorded process: its peer is "
                    "unknown, synthesized without messages", s->region, where) != 0)
            return -1;
        for (uint32_t i = 0; i < s->n; i++) {
            const struct sp_event *e = &m->table.events[s->first + i];

            if (e->peer.kind == PZ_SCALE_PEER_ANY &&
                sp_note(m, "%s (%s): receives from MPI_ANY_SOURCE, whose senders follow no "
                        "pattern of the grid: synthesized as receives from the other "
                        "processes of the communicator in turn (rank + 1, rank + 2, ...)",
                        s->region, where) != 0)
                return -1;
            if (e->comm.kind == PZ_SCALE_COMM_OTHER &&
                sp_note(m, "%s (%s): a communicator that is neither the world, the process "
                        "alone nor a slice of the grid: synthesized on the world",
                        s->region, where) != 0)
                return -1;
            if (split && e->comm.kind == PZ_SCALE_COMM_WORLD && e->comm.ref &&
                sp_note(m, "%s (%s): a communicator the program created has every process in "
                        "every recording, and it splits communicators (a split into groups of "
                        "more processes than recorded, which no recording tells apart): "
                        "synthesized as the world",
                        s->region, where) != 0)
                return -1;
        }
    }
    return 0;
}

/* --- the build's working arrays */

struct work {
    uint32_t ***raw, ***folded;
    size_t **nfolded;
    uint64_t **made;
    size_t nmade;
    struct sp_stats st;
    struct sp_xor *bfly;       /* the table takes messages as butterfly stages */
    struct sp_pairs *pairs;    /* the table takes runs of exchanges with every member */
    struct sp_tag_learned tags;   /* the loops whose tags advance (sp_tag_loops) */
    struct sp_turns *turns;    /* the runs of collectives whose root turns */
    uint8_t not_tree;          /* a process's stages are not as many as a binomial tree's
                                  children there (sp_tree_enclose) */
};

static void free_starts(struct pz_scale_program *m)
{
    for (size_t r = 0; m->starts && r < m->nruns; r++) {
        for (int p = 0; m->starts[r] && p < m->runs[r]->nprocs; p++)
            free(m->starts[r][p]);
        free(m->starts[r]);
    }
    free(m->starts);
    m->starts = NULL;
}

/* m->starts of every process, none set.  0 or -1 (memory). */
static int alloc_starts(struct pz_scale_program *m)
{
    if (!(m->starts = calloc(m->nruns, sizeof(*m->starts))))
        return -1;
    for (size_t r = 0; r < m->nruns; r++) {
        const struct pz_scale_run *run = m->runs[r];

        if (!(m->starts[r] = calloc((size_t)run->nprocs, sizeof(**m->starts))))
            return -1;
        for (int p = 0; p < run->nprocs; p++) {
            size_t n = run->procs[p].nsteps;

            if (!(m->starts[r][p] = calloc(n ? n : 1, 1)))
                return -1;
        }
    }
    return 0;
}

static void work_free(struct pz_scale_program *m, struct work *w)
{
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; p < m->runs[r]->nprocs; p++) {
            if (w->raw && w->raw[r])
                free(w->raw[r][p]);
            if (w->folded && w->folded[r])
                free(w->folded[r][p]);
        }
    for (size_t r = 0; r < m->nruns; r++) {
        if (w->raw)
            free(w->raw[r]);
        if (w->folded)
            free(w->folded[r]);
        if (w->nfolded)
            free(w->nfolded[r]);
    }
    free(w->raw);
    free(w->folded);
    free(w->nfolded);
    for (size_t i = 0; i < w->nmade; i++)
        free(w->made[i]);
    free(w->made);
    sp_stats_free(&w->st);
    sp_xor_free(w->bfly);
    w->bfly = NULL;
    sp_pairs_free(w->pairs);
    w->pairs = NULL;
    sp_tag_learned_free(&w->tags);
    sp_turns_free(w->turns);
    w->turns = NULL;
    free(m->first_proc);
    free(m->first_step);
    free(m->ambiguous);
    m->first_proc = m->first_step = NULL;
    m->ambiguous = NULL;
    free_starts(m);
}

/* Each process's steps as symbols of the table (w->raw). */
static int intern_steps(struct pz_scale_program *m, struct work *w)
{
    if (!(m->ambiguous = calloc(m->nruns, sizeof(*m->ambiguous))) ||
        !(w->raw = calloc(m->nruns, sizeof(*w->raw))) ||
        !(w->folded = calloc(m->nruns, sizeof(*w->folded))) ||
        !(w->nfolded = calloc(m->nruns, sizeof(*w->nfolded))))
        return -1;
    for (size_t r = 0; r < m->nruns; r++) {
        const struct pz_scale_run *run = m->runs[r];
        size_t np = (size_t)run->nprocs;

        m->ambiguous[r] = sp_ambiguous_dims(m, run);
        if (!(w->raw[r] = calloc(np, sizeof(**w->raw))) ||
            !(w->folded[r] = calloc(np, sizeof(**w->folded))) ||
            !(w->nfolded[r] = calloc(np, sizeof(**w->nfolded))))
            return -1;
        for (size_t p = 0; p < np; p++)
            if (sp_table_steps(&m->table, run, &run->procs[p], &w->raw[r][p]) != 0)
                return -1;
    }
    return 0;
}

/* Every message whose partner follows a skew at every process of every recording taken
 * as one (scale_skew.c), with a note; not in a model of butterflies or of exchanges with
 * every member in turn, whose own partners are offsets recorded.  0 or -1 (memory). */
static int skew_steps(struct pz_scale_program *m, struct work *w)
{
    struct sp_skews *x;
    int rc = 0;

    if (m->table.by_xor || m->table.by_pairs)
        return 0;
    if (!(x = sp_skews_new(&m->table, m->grid.periodic)))
        return -1;
    for (size_t r = 0; rc == 0 && r < m->nruns; r++)
        rc = sp_skews_learn(x, m->runs[r], w->raw[r]);
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; rc == 0 && p < m->runs[r]->nprocs; p++)
            rc = sp_skews_convert(x, w->raw[r][p], m->runs[r]->procs[p].nsteps);
    if (rc == 0)
        rc = sp_skews_note(x, m);
    sp_skews_free(x);
    return rc;
}

/* In a model of butterflies (struct sp_table.by_xor), every message on the world taken as
 * a stage, and the tags of the stages learned: 0, 1 when some message is not rank XOR
 * 2^i, -1 when memory runs out. */
static int xor_steps(struct pz_scale_program *m, struct work *w)
{
    int rc;

    if (!m->table.by_xor)
        return 0;
    if (!(w->bfly = sp_xor_new(&m->table)) || alloc_starts(m) != 0)
        return -1;
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; p < m->runs[r]->nprocs; p++)
            if ((rc = sp_xor_convert(&m->table, m->runs[r], p, w->raw[r][p],
                                     m->runs[r]->procs[p].nsteps)) != 0)
                return rc;
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; p < m->runs[r]->nprocs; p++)
            if (sp_xor_learn(w->bfly, w->raw[r][p], m->runs[r]->procs[p].nsteps) != 0)
                return -1;
    return 0;
}

/* In a model of exchanges with every member in turn (struct sp_table.by_pairs), the
 * bodies, partners' forms and tag steps of their runs learned from every process.  0, 1
 * when no run reaches every member (no such model can be taken), -1 (memory). */
static int pairs_steps(struct pz_scale_program *m, struct work *w)
{
    if (!m->table.by_pairs)
        return 0;
    if (!(w->pairs = sp_pairs_new(&m->table, sp_pairs_grid_too(m->runs, m->nruns))))
        return -1;
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; p < m->runs[r]->nprocs; p++)
            if (sp_pairs_learn(w->pairs, m->runs[r], p, w->raw[r][p],
                               m->runs[r]->procs[p].nsteps) != 0)
                return -1;
    return !sp_pairs_whole(w->pairs);
}

/* The steps of runs of collectives whose root turns with the iteration, learned from
 * every process (sp_turns_learn).  0 or -1 (memory). */
static int turns_steps(struct pz_scale_program *m, struct work *w)
{
    if (!(w->turns = sp_turns_new(&m->table)))
        return -1;
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; p < m->runs[r]->nprocs; p++)
            if (sp_turns_learn(w->turns, m->runs[r], p, w->raw[r][p],
                               m->runs[r]->procs[p].nsteps) != 0)
                return -1;
    return 0;
}

/* A process's steps as given to fold_all, kept to find processes of the same recording
 * with the same steps (every process of a periodic grid, a grid's interior), which
 * fold as it did: the rewriting and folding are functions of the steps and the table,
 * which only grows. */
struct same_steps {
    uint64_t hash;
    size_t proc;
    uint32_t *steps;
};

static uint64_t hash_steps(const uint32_t *s, size_t n)
{
    uint64_t h = SP_HASH_START;

    for (size_t i = 0; i < n; i++)
        h = sp_hash_mix(h, s[i]);
    return h;
}

/* The process of run, among seen[0..nseen-1], whose steps were steps[0..n-1] (hash
 * theirs), or SIZE_MAX. */
static size_t folded_before(const struct pz_scale_run *run, const struct same_steps *seen,
                            size_t nseen, const uint32_t *steps, size_t n, uint64_t hash)
{
    for (size_t i = 0; i < nseen; i++)
        if (seen[i].hash == hash && run->procs[seen[i].proc].nsteps == n &&
            !memcmp(seen[i].steps, steps, n * sizeof(*steps)))
            return seen[i].proc;
    return SIZE_MAX;
}

/* Process p of run r folded (w->folded), its steps rewritten first (map: the calls over
 * many requests given none made the steps of those given some, sp_table_given_none;
 * then the butterflies' stages, the exchanges with every member, the collectives whose
 * root turns and the loops whose tags advance).  0 or -1. */
static int fold_one(struct pz_scale_program *m, struct work *w, const uint32_t *map,
                    size_t r, size_t p)
{
    size_t n = m->runs[r]->procs[p].nsteps;

    for (size_t i = 0; i < n; i++)
        w->raw[r][p][i] = map[w->raw[r][p][i]];
    if ((w->bfly && sp_xor_rewrite(w->bfly, w->raw[r][p], n) != 0) ||
        (w->pairs && sp_pairs_rewrite(w->pairs, m->runs[r], (int)p, w->raw[r][p], n) != 0) ||
        sp_turns_rewrite(w->turns, m->runs[r], (int)p, w->raw[r][p], n, m->ambiguous[r]) != 0 ||
        sp_tag_loops(&m->table, w->raw[r][p], n, m->ambiguous[r], &w->tags) != 0 ||
        !(w->folded[r][p] = malloc((n ? n : 1) * sizeof(uint32_t))))
        return -1;
    memcpy(w->folded[r][p], w->raw[r][p], n * sizeof(uint32_t));
    w->nfolded[r][p] = n;
    if (w->bfly) {
        int rc = m->table.by_tree ? sp_tree_enclose(w->bfly, (int)p, m->runs[r]->nprocs,
                                                    w->folded[r][p], &w->nfolded[r][p])
                                  : sp_xor_enclose(w->bfly, w->folded[r][p],
                                                   &w->nfolded[r][p]);

        if (rc < 0)
            return -1;
        w->not_tree |= rc > 0;
        sp_xor_starts(w->bfly, m->starts[r][p]);
    }
    if (w->pairs && sp_pairs_fold_runs(w->pairs, w->folded[r][p], &w->nfolded[r][p]) != 0)
        return -1;
    return sp_fold(&m->table, w->folded[r][p], &w->nfolded[r][p], m->ambiguous[r]);
}

/* Process p of run r as process q, which had the same steps, was rewritten and
 * folded.  0 or -1. */
static int fold_as(struct pz_scale_program *m, struct work *w, size_t r, size_t p, size_t q)
{
    size_t n = m->runs[r]->procs[p].nsteps;

    memcpy(w->raw[r][p], w->raw[r][q], n * sizeof(uint32_t));
    if (m->starts)
        memcpy(m->starts[r][p], m->starts[r][q], n);
    if (!(w->folded[r][p] = malloc((w->nfolded[r][q] ? w->nfolded[r][q] : 1) *
                                   sizeof(uint32_t))))
        return -1;
    memcpy(w->folded[r][p], w->folded[r][q], w->nfolded[r][q] * sizeof(uint32_t));
    w->nfolded[r][p] = w->nfolded[r][q];
    return 0;
}

/* The processes of run r folded, each whose steps another had folded as that one. */
static int fold_run(struct pz_scale_program *m, struct work *w, const uint32_t *map, size_t r)
{
    const struct pz_scale_run *run = m->runs[r];
    struct same_steps *seen = calloc((size_t)run->nprocs, sizeof(*seen));
    size_t nseen = 0;
    int rc = -1;

    if (!seen)
        return -1;
    for (size_t p = 0; p < (size_t)run->nprocs; p++) {
        size_t n = run->procs[p].nsteps, q;
        uint64_t hash = hash_steps(w->raw[r][p], n);

        /* an exchange with every member's partners are the process's own rank's, and so
           are a binomial tree's children */
        if (!w->pairs && !m->table.by_tree &&
            (q = folded_before(run, seen, nseen, w->raw[r][p], n, hash)) != SIZE_MAX) {
            if (fold_as(m, w, r, p, q) != 0)
                goto out;
            continue;
        }
        seen[nseen] = (struct same_steps){hash, p, malloc((n ? n : 1) * sizeof(uint32_t))};
        if (!seen[nseen].steps)
            goto out;
        memcpy(seen[nseen++].steps, w->raw[r][p], n * sizeof(uint32_t));
        if (fold_one(m, w, map, r, p) != 0)
            goto out;
    }
    rc = 0;
out:
    for (size_t i = 0; i < nseen; i++)
        free(seen[i].steps);
    free(seen);
    return rc;
}

/* Frees the copy of run r's steps (steps_copy). */
static void steps_free(const struct pz_scale_program *m, size_t r, uint32_t **copy)
{
    for (int p = 0; copy && p < m->runs[r]->nprocs; p++)
        free(copy[p]);
    free(copy);
}

/* A copy of the steps of run r's processes (w->raw), NULL when memory runs out. */
static uint32_t **steps_copy(const struct pz_scale_program *m, const struct work *w, size_t r)
{
    uint32_t **copy = calloc((size_t)m->runs[r]->nprocs, sizeof(*copy));

    for (int p = 0; copy && p < m->runs[r]->nprocs; p++) {
        size_t n = m->runs[r]->procs[p].nsteps;

        if (!(copy[p] = malloc((n ? n : 1) * sizeof(uint32_t)))) {
            steps_free(m, r, copy);
            return NULL;
        }
        memcpy(copy[p], w->raw[r][p], n * sizeof(uint32_t));
    }
    return copy;
}

/* Run r folded again from its steps as interned (copy), runs of 2 iterations of a loop
 * whose tags advance rewritten where another process's longer run taught its body
 * (struct sp_tag_learned).  0 or -1. */
static int fold_again(struct pz_scale_program *m, struct work *w, const uint32_t *map,
                      size_t r, uint32_t *const *copy)
{
    for (int p = 0; p < m->runs[r]->nprocs; p++) {
        memcpy(w->raw[r][p], copy[p], m->runs[r]->procs[p].nsteps * sizeof(uint32_t));
        free(w->folded[r][p]);
        w->folded[r][p] = NULL;
    }
    return fold_run(m, w, map, r);
}

/* Each process's steps folded into loops (w->folded), the calls over many requests given
 * none first made the steps of those given some (sp_table_given_none); then the runs
 * where loops whose tags advance ran twice (struct sp_tag_learned) folded again, once
 * every run has taught its loops. */
static int fold_all(struct pz_scale_program *m, struct work *w)
{
    uint32_t *map, ***before = calloc(m->nruns, sizeof(*before));
    int rc = 0;

    if (!before || sp_table_given_none(&m->table, &map) != 0) {
        free(before);
        return -1;
    }
    for (size_t r = 0; r < m->nruns && rc == 0; r++) {
        w->tags.pending = 0;
        if (m->table.tag_loops && !(before[r] = steps_copy(m, w, r)))
            rc = -1;
        else if ((rc = fold_run(m, w, map, r)) == 0 && !w->tags.pending) {
            steps_free(m, r, before[r]);
            before[r] = NULL;
        }
    }
    w->tags.pairs = 1;
    for (size_t r = 0; r < m->nruns && rc == 0; r++)
        if (before[r] && w->tags.n)
            rc = fold_again(m, w, map, r, before[r]);
    for (size_t r = 0; r < m->nruns; r++)
        steps_free(m, r, before[r]);
    free(before);
    free(map);
    return rc;
}

/* Each process's steps folded again, loops whose trip count the data decide one symbol
 * whatever their count (struct sp_table.data_trips), so that the passes around them fold
 * into one loop.  0 or -1. */
static int refold_all(struct pz_scale_program *m, struct work *w)
{
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; p < m->runs[r]->nprocs; p++) {
            size_t n = m->runs[r]->procs[p].nsteps;
            uint32_t *v = realloc(w->folded[r][p], (n ? n : 1) * sizeof(uint32_t));

            /* a process folded as another (fold_as) has room for its folded steps only */
            if (!v)
                return -1;
            w->folded[r][p] = v;
            memcpy(w->folded[r][p], w->raw[r][p], n * sizeof(uint32_t));
            w->nfolded[r][p] = n;
            if (sp_fold(&m->table, w->folded[r][p], &w->nfolded[r][p], m->ambiguous[r]) != 0)
                return -1;
        }
    return 0;
}

/* The most times loops whose trip count the data decide are looked for again, in the
 * passes the last ones folded into (a solver's iterations in a time step, the time
 * steps, whose counts then differ too, in a run). */
#define DATA_ROUNDS 4

/* Where the model is of loops whose trip count the data decide (data), those loops
 * marked and every process folded again, until no other loop is so: 0; 1 when no loop
 * is so (err says it), -1 when memory runs out. */
static int fold_data_trips(struct pz_scale_program *m, struct work *w, int data, char *err,
                           size_t errlen)
{
    int marked = 1;

    for (int round = 0; data && marked && round < DATA_ROUNDS; round++) {
        if ((marked = sp_data_loops_mark(m, (uint32_t *const *const *)w->raw,
                                         (uint32_t *const *const *)w->folded,
                                         (const size_t *const *)w->nfolded)) < 0)
            return -1;
        if (!marked && !round) {
            snprintf(err, errlen, "no loop runs a different number of times from one "
                     "pass to the next");
            return 1;
        }
        m->table.data_trips = 1;
        if (marked && refold_all(m, w) != 0)
            return -1;
    }
    return 0;
}

static int alloc_membership(struct pz_scale_program *m, struct work *w)
{
    size_t n = (size_t)m->nnodes * m->nruns;

    if (!(m->first_proc = malloc((n ? n : 1) * sizeof(uint32_t))) ||
        !(m->first_step = malloc((n ? n : 1) * sizeof(uint32_t))) ||
        !(w->made = calloc(n ? n : 1, sizeof(*w->made))))
        return -1;
    memset(m->first_proc, 0xff, n * sizeof(uint32_t));
    memset(m->first_step, 0xff, n * sizeof(uint32_t));
    for (w->nmade = 0; w->nmade < n; w->nmade++)
        if (!(w->made[w->nmade] = calloc((size_t)m->runs[w->nmade % m->nruns]->nprocs / 64 + 1,
                                         sizeof(uint64_t))))
            return -1;
    return 0;
}

static int add_interval(struct sp_stats *st, const char *name)
{
    const char **v;

    for (uint32_t i = 0; i < st->nintervals; i++)
        if (st->intervals[i] == name)
            return 0;
    if (st->nintervals == 64)
        return 0;
    if (!(v = realloc(st->intervals, (st->nintervals + 1) * sizeof(*v))))
        return -1;
    st->intervals = v;
    v[st->nintervals++] = name;
    return 0;
}

/* Zeroed n elements of *p (at least one); true when memory ran out. */
#define ALLOC(p, n) (!((p) = calloc(at_least_one(n), sizeof(*(p)))))

static size_t at_least_one(size_t n)
{
    return n ? n : 1;
}

static int alloc_stats(struct pz_scale_program *m, struct sp_stats *st)
{
    size_t runs = m->nruns, nodes = m->nnodes;
    size_t ev = ((size_t)m->nevents + m->nslots) * runs;   /* completions after the events */
    size_t gaps = nodes * m->nclasses * runs;

    if (add_interval(st, "") != 0)
        return -1;
    for (uint32_t k = 0; k < m->nnodes; k++)
        if (m->nodes[k].kind == SP_STEP &&
            m->table.syms[m->nodes[k].sym].step_kind == PZ_SCALE_BEGIN &&
            add_interval(st, m->table.syms[m->nodes[k].sym].region) != 0)
            return -1;
    if (ALLOC(st->gap, gaps) || ALLOC(st->ngap, gaps) ||
        ALLOC(st->tail, (size_t)m->nclasses * runs) ||
        ALLOC(st->ntail, (size_t)m->nclasses * runs) ||
        ALLOC(st->count_min, nodes * runs) || ALLOC(st->count_max, nodes * runs) ||
        ALLOC(st->bytes_min, ev) || ALLOC(st->bytes_max, ev) || ALLOC(st->bytes2_min, ev) ||
        ALLOC(st->bytes2_max, ev) || ALLOC(st->has_bytes, ev) || ALLOC(st->change, ev) ||
        ALLOC(st->sums, ev) ||
        ALLOC(st->duration, nodes * runs) || ALLOC(st->nduration, nodes * runs) ||
        ALLOC(st->after, (nodes + 1) * runs) || ALLOC(st->before, nodes * runs) ||
        ALLOC(st->in_interval, (size_t)st->nintervals * m->nclasses * runs) ||
        ALLOC(st->nin_interval, (size_t)st->nintervals * m->nclasses * runs))
        return -1;
    if (m->table.data_trips) {
        if (ALLOC(st->passes, nodes * runs))
            return -1;
        st->npasses = nodes * runs;
    }
    return 0;
}

/* The loops whose trip count differs within a recording (from one pass to the next or
 * between processes), which no class of position explains (struct sp_node.trips): the
 * largest is synthesized, a note says so. */
static uint32_t uneven_loops(const struct pz_scale_program *m, const struct sp_stats *st)
{
    uint32_t n = 0;

    for (uint32_t k = 0; k < m->nnodes; k++) {
        size_t r = 0, at = (size_t)k * m->nruns;

        if (m->nodes[k].kind != SP_LOOP || m->nodes[k].trips || m->nodes[k].tree)
            continue;
        while (r < m->nruns && st->count_min[at + r] == st->count_max[at + r])
            r++;
        n += r < m->nruns;
    }
    return n;
}

/* A refusal of the recordings, err named by a loop whose trip count depends on the data
 * where some process's is so (sp_name_data_trips; as it was when memory runs out
 * there): -1. */
static int refused(const struct pz_scale_program *m, const struct work *w, char *err,
                   size_t errlen)
{
    sp_name_data_trips(m, (uint32_t *const *const *)w->raw,
                       (uint32_t *const *const *)w->folded,
                       (const size_t *const *)w->nfolded, err, errlen);
    return -1;
}

static int build(struct pz_scale_program *m, struct work *w, int data, char *err,
                 size_t errlen)
{
    int rc;

    if (intern_steps(m, w) != 0 || skew_steps(m, w) != 0 || (rc = xor_steps(m, w)) < 0)
        goto oom;
    if (rc) {
        snprintf(err, errlen, "a message is to no partner rank XOR 2^i");
        return -1;
    }
    if ((rc = pairs_steps(m, w)) < 0)
        goto oom;
    if (rc) {
        snprintf(err, errlen, "no run of steps exchanges with every member in turn");
        return -1;
    }
    if (turns_steps(m, w) != 0 || fold_all(m, w) != 0)
        goto oom;
    if (w->not_tree) {
        snprintf(err, errlen, "the stages are not a binomial tree's children");
        return -1;
    }
    if ((rc = fold_data_trips(m, w, data, err, errlen)) < 0)
        goto oom;
    if (rc)
        return -1;
    if (sp_merge(m, (uint32_t *const *const *)w->folded, (const size_t *const *)w->nfolded,
                 err, errlen) != 0)
        return refused(m, w, err, errlen);
    if (m->starts) {
        sp_xor_mark_loops(m);
        sp_tree_mark_loops(m);
    }
    if (alloc_membership(m, w) != 0 ||
        !(m->pred_head = malloc((m->nnodes ? m->nnodes : 1) * sizeof(uint32_t))))
        goto oom;
    memset(m->pred_head, 0xff, m->nnodes * sizeof(uint32_t));
    if (sp_walk_membership(m, (uint32_t *const *const *)w->raw,
                           (uint32_t *const *const *)w->folded,
                           (const size_t *const *)w->nfolded, w->made, err, errlen) != 0 ||
        sp_guards_infer(m, w->made, err, errlen) != 0 || make_events(m, err, errlen) != 0)
        return refused(m, w, err, errlen);
    if (note_few_counts(m) != 0 || note_polls(m) != 0 || note_io(m) != 0 ||
        note_patternless(m) != 0 ||
        sp_untold_find(m) != 0 || sp_untold_hypercube(m) != 0 || sp_turns_note(m) != 0 ||
        alloc_stats(m, &w->st) != 0)
        goto oom;
    if (sp_walk_check(m, (uint32_t *const *const *)w->raw, &w->st, err, errlen) != 0)
        return refused(m, w, err, errlen);
    if (sp_fit_all(m, &w->st) != 0 || sp_ratios_finish(m) != 0 ||
        (m->table.data_trips && sp_data_trips_note(m, &w->st) != 0))
        goto oom;
    m->uneven = uneven_loops(m, &w->st);
    return 0;
oom:
    snprintf(err, errlen, "out of memory building the program model");
    return -1;
}

/* Puts the runs v in increasing process counts, so that the model, built recording by
 * recording, is the same in whatever order the recordings are given.  Runs missing
 * (NULL) leave v as it is, for check_runs to name. */
static void sort_by_count(const struct pz_scale_run **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!v[i])
            return;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && v[j - 1]->nprocs > v[j]->nprocs; j--) {
            const struct pz_scale_run *t = v[j];

            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

/* What build_model takes messages as, besides offsets in the grid (its `by`: 0, none). */
#define BY_XOR 1     /* butterfly stages (scale_xor.c) */
#define BY_PAIRS 2   /* exchanges with every member in turn (scale_pairs.c) */
#define BY_TREE 3    /* butterfly stages of a binomial tree (scale_tree.c) */

/* The model of runs, its calls told apart by their sizes or not, loops whose tags
 * advance rewritten or not, messages taken as by says, the widest repeats folded first
 * or the shortest (struct sp_table); *tagged set when some were. */
static struct pz_scale_program *build_model(const struct pz_scale_run *const *runs, size_t n,
                                            int compute_cpu, int by_sizes, int tag_loops,
                                            int by, int widest, int data, int *tagged,
                                            char *err, size_t errlen)
{
    struct pz_scale_program *m;
    struct work w = {0};
    int rc;

    if (!(m = calloc(1, sizeof(*m)))) {
        snprintf(err, errlen, "out of memory building the program model");
        return NULL;
    }
    /* The caller's array of pointers may be its own local one: the model keeps a copy. */
    const struct pz_scale_run **own = malloc(n * sizeof(*own));
    if (!own) {
        free(m);
        snprintf(err, errlen, "out of memory building the program model");
        return NULL;
    }
    memcpy(own, runs, n * sizeof(*own));
    sort_by_count(own, n);
    m->runs = own;
    m->nruns = n;
    m->compute_cpu = compute_cpu;
    m->table.by_sizes = (uint8_t)by_sizes;
    m->table.tag_loops = (uint8_t)tag_loops;
    m->table.by_xor = by == BY_XOR || by == BY_TREE;
    m->table.by_tree = by == BY_TREE;
    m->table.by_pairs = by == BY_PAIRS;
    m->table.widest = (uint8_t)widest;
    rc = check_runs(m, compute_cpu, err, errlen);
    if (rc == 0)
        rc = build(m, &w, data, err, errlen);
    if (rc == 0 && sp_keep_loop_places(m) != 0) {
        snprintf(err, errlen, "out of memory building the program model");
        rc = -1;
    }
    *tagged |= m->table.tagged;
    work_free(m, &w);
    if (rc != 0) {
        pz_scale_program_free(m);
        return NULL;
    }
    return m;
}

/* The model of runs, calls told apart by their sizes or not, the widest repeats folded
 * first or the shortest: a loop whose tags advance folded where the model then
 * describes every process, else its iterations stay steps of their own, as they are
 * recorded. */
static struct pz_scale_program *folded(const struct pz_scale_run *const *runs, size_t n,
                                       int compute_cpu, int by_sizes, int widest, char *err,
                                       size_t errlen)
{
    struct pz_scale_program *m;
    int tagged = 0;

    if ((m = build_model(runs, n, compute_cpu, by_sizes, 1, 0, widest, 0, &tagged, err,
                         errlen)) || !tagged)
        return m;
    return build_model(runs, n, compute_cpu, by_sizes, 0, 0, widest, 0, &tagged, err,
                       errlen);
}

/* The shortest repeats folded first may fold a repeat across the iterations of a longer
 * loop, in a phase that differs where that loop ends (scale_fold.c): its trip count
 * then differs from one pass to the next (m->uneven), where the widest repeats folded
 * first may give every loop one count.  Of m and that model, the one with fewer such
 * loops, m in a tie. */
static struct pz_scale_program *widest_if_even(struct pz_scale_program *m,
                                               const struct pz_scale_run *const *runs,
                                               size_t n, int compute_cpu, int by_sizes)
{
    struct pz_scale_program *w;
    char err[512];

    if (!m->uneven ||
        !(w = folded(runs, n, compute_cpu, by_sizes, 1, err, sizeof(err))))
        return m;
    if (w->uneven < m->uneven) {
        pz_scale_program_free(m);
        return w;
    }
    pz_scale_program_free(w);
    return m;
}

/* The model of runs as exchanges with every member in turn, when it is one
 * (sp_pairs_law); NULL otherwise, err untouched but when memory runs out. */
static struct pz_scale_program *pairs_model(const struct pz_scale_run *const *runs, size_t n,
                                            int compute_cpu, char *err, size_t errlen)
{
    struct pz_scale_program *m;
    char none[512];
    int tagged = 0, law;

    for (int by_sizes = 1; by_sizes >= 0; by_sizes--) {
        if (!(m = build_model(runs, n, compute_cpu, by_sizes, 1, BY_PAIRS, 0, 0, &tagged,
                              none, sizeof(none))))
            continue;
        if ((law = sp_pairs_law(m)) > 0)
            return m;
        pz_scale_program_free(m);
        if (law < 0) {
            snprintf(err, errlen, "out of memory building the program model");
            return NULL;
        }
    }
    return NULL;
}

/* The model of runs with messages taken as `by` says (BY_XOR: a butterfly's stages,
 * BY_TREE: a binomial tree's), when law (sp_xor_law, sp_tree_law) takes it; NULL
 * otherwise, *oom set when memory ran out. */
static struct pz_scale_program *stages_model(const struct pz_scale_run *const *runs,
                                             size_t n, int compute_cpu, int by,
                                             int (*law_of)(struct pz_scale_program *),
                                             int *oom)
{
    struct pz_scale_program *m;
    char none[512];
    int tagged = 0, law;

    if (!(m = build_model(runs, n, compute_cpu, 1, 1, by, 0, 0, &tagged, none,
                          sizeof(none))))
        return NULL;
    if ((law = law_of(m)) > 0)
        return m;
    pz_scale_program_free(m);
    *oom = law < 0;
    return NULL;
}

/* The model of runs as a butterfly, when it is one (sp_xor_law); NULL otherwise, *oom
 * set when memory ran out. */
static struct pz_scale_program *butterfly_model(const struct pz_scale_run *const *runs,
                                                size_t n, int compute_cpu, int *oom)
{
    return stages_model(runs, n, compute_cpu, BY_XOR, sp_xor_law, oom);
}

/* The model of runs as a butterfly whose blocking sends and receives are ordered by the
 * partner's bit, built from copies of them that it owns (sp_order_copy), when the
 * evidence takes it (sp_order_taken: else the note for the grid's model into kept);
 * NULL otherwise, *oom set when memory ran out. */
static struct pz_scale_program *ordered_model(const struct pz_scale_run *const *runs,
                                              size_t n, int compute_cpu, int *oom,
                                              char *kept, size_t keptlen)
{
    const struct pz_scale_run **list = malloc(n * sizeof(*list));
    struct pz_scale_run *copies = NULL;
    struct pz_scale_program *m = NULL;
    int rc;

    if (!list || (rc = sp_order_copy(runs, n, &copies)) < 0) {
        free(list);
        *oom = 1;
        return NULL;
    }
    for (size_t r = 0; rc && r < n; r++)
        list[r] = &copies[r];
    if (rc && (m = butterfly_model(list, n, compute_cpu, oom)))
        m->copies = copies;
    else
        sp_order_free(copies, n);
    free(list);
    if (m && (rc = sp_order_taken(m, kept, keptlen)) <= 0) {
        pz_scale_program_free(m);
        *oom = rc < 0;
        return NULL;
    }
    return m;
}

/* The model of runs that are no butterfly's.  A call made with other sizes at a
 * process is first taken for another step, so that the levels of a loop whose messages
 * shrink level by level stay steps of their own; where the recordings then disagree
 * (sizes that change from one time step to the next as the data does), the calls are
 * told apart by their signatures alone.  Where folding the shortest repeats first gives
 * no model, or one with loops whose trip count differs within a recording, the widest
 * are folded first (widest_if_even).
 * Where neither gives a model and the refusal names a loop whose trip count the data
 * decide (sp_name_data_trips), such loops are folded as one whatever their counts; the
 * refusal names the difference found with the shortest first, as it always has. */
static struct pz_scale_program *grid_model(const struct pz_scale_run *const *runs, size_t n,
                                           int compute_cpu, char *err, size_t errlen)
{
    struct pz_scale_program *m;

    /* partners every other member in turn, the distance growing with the iteration of a
       loop as long as the members, are an all-to-all written by hand (sp_pairs_law) */
    if (sp_pairs_candidate(runs, n) && (m = pairs_model(runs, n, compute_cpu, err, errlen)))
        return m;
    /* calls told apart by their sizes first, then by their signatures alone; the
       shortest repeats folded first, then the widest (folded) */
    for (int by_sizes = 1; by_sizes >= 0; by_sizes--)
        if ((m = folded(runs, n, compute_cpu, by_sizes, 0, err, errlen)))
            return widest_if_even(m, runs, n, compute_cpu, by_sizes);
    for (int by_sizes = 1; by_sizes >= 0; by_sizes--) {
        char other[512];

        if ((m = folded(runs, n, compute_cpu, by_sizes, 1, other, sizeof(other))))
            return m;
    }
    /* the transpose's call is told by the steps of the same index at every process,
       which a loop run as many times as the data says misaligns */
    if (!strstr(err, SP_DATA_TRIPS)) {
        sp_transpose_name(runs, n, err, errlen);
        return NULL;
    }
    /* a loop run as many times as the data says: its passes one loop whatever their
       counts (sp_table.data_trips), the shortest repeats folded first; where that gives
       no model either, the refusal above names the loop */
    for (int by_sizes = 1; by_sizes >= 0; by_sizes--) {
        char other[512];
        int tagged = 0;

        if ((m = build_model(runs, n, compute_cpu, by_sizes, 0, 0, 0, 1, &tagged, other,
                             sizeof(other))))
            return m;
    }
    return NULL;
}

struct pz_scale_program *pz_scale_program_build(const struct pz_scale_run *const *runs, size_t n,
                                            int compute_cpu, char *err, size_t errlen)
{
    struct pz_scale_program *m;
    char kept[1024] = "";
    int oom = 0;

    if (!runs || n == 0) {
        snprintf(err, errlen, "no recording to model");
        return NULL;
    }
    /* partners by rank XOR 2^i, in stages as many as the rank's bits, without a grid
       the program made, are a butterfly, whatever grid they also fit (sp_xor_law), and
       so are those whose send and receive the partner's bit orders where the evidence
       says so (sp_order_taken) */
    if (sp_xor_candidate(runs, n) && (m = butterfly_model(runs, n, compute_cpu, &oom)))
        return m;
    /* partners by rank XOR 2^i, as many as the rank's trailing zeros, are a binomial
       tree (sp_tree_law) */
    if (!oom && sp_tree_candidate(runs, n) &&
        (m = stages_model(runs, n, compute_cpu, BY_TREE, sp_tree_law, &oom)))
        return m;
    if (!oom && sp_xor_candidate(runs, n) &&
        (m = ordered_model(runs, n, compute_cpu, &oom, kept, sizeof(kept))))
        return m;
    if (oom) {
        snprintf(err, errlen, "out of memory building the program model");
        return NULL;
    }
    if ((m = grid_model(runs, n, compute_cpu, err, errlen)) && kept[0] &&
        sp_note(m, "%s", kept) != 0) {
        pz_scale_program_free(m);
        snprintf(err, errlen, "out of memory building the program model");
        return NULL;
    }
    return m;
}

void pz_scale_program_free(struct pz_scale_program *m)
{
    if (!m)
        return;
    sp_table_free(&m->table);
    for (uint32_t k = 0; m->nodes && k < m->nnodes; k++) {
        free(m->nodes[k].trips);
        for (size_t r = 0; m->nodes[k].passes && r < m->nruns; r++)
            free(m->nodes[k].passes[r].count);
        free(m->nodes[k].passes);
    }
    free(m->nodes);
    for (uint32_t i = 0; m->events && i < m->nevents; i++) {
        free(m->events[i].v);
        free(m->events[i].nbr);
        free(m->events[i].blocks);
    }
    free(m->events);
    for (uint32_t i = 0; m->done && i < m->nslots; i++) {
        free(m->done[i].nbr);
        free(m->done[i].blocks);
    }
    free(m->done);
    free(m->conds);
    free(m->roots);
    free(m->classes);
    free(m->gap);
    free(m->tail);
    free(m->gap_own);
    sp_ratios_free(m);
    free(m->preds);
    free(m->pred_head);
    free(m->after);
    free(m->after_spread);
    free(m->before_spread);
    free(m->compute);
    for (size_t i = 0; i < m->nnotes; i++)
        free(m->notes[i]);
    free(m->notes);
    for (uint32_t k = 0; m->loop_where && k < m->nnodes; k++)
        free(m->loop_where[k]);
    free(m->loop_where);
    free(m->first_proc);
    free(m->first_step);
    free(m->ambiguous);
    sp_order_free(m->copies, m->nruns);
    free((void *)m->runs);
    free(m);
}

const char *pz_scale_program_recording(const struct pz_scale_program *m)
{
    return m->runs[m->largest]->path;
}

size_t pz_scale_program_nnotes(const struct pz_scale_program *m)
{
    return m->nnotes;
}

const char *pz_scale_program_note(const struct pz_scale_program *m, size_t i)
{
    return i < m->nnotes ? m->notes[i] : NULL;
}

size_t pz_scale_program_ncompute(const struct pz_scale_program *m)
{
    return m->ncompute;
}

const struct pz_scale_compute *pz_scale_program_compute(const struct pz_scale_program *m,
                                                      size_t i)
{
    return i < m->ncompute ? &m->compute[i] : NULL;
}
