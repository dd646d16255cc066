/* Communicators as classes and peers as relative references (scale_run.h): the world,
 * the caller alone, a slice of the grid (every member tested against the grid), a group
 * of ranks (scale_groups.c), or another; a point-to-point peer as an offset in the communicator's grid, a root as a
 * rank from the first or the last. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "scale_run_int.h"
#include "trace_calls.h"

/* Whether communicator c's members are the processes of the slice keeping the
 * dimensions of `keep`, ranked row-major over them. */
static int is_slice(const struct pz_scale_grid *g, const struct pz_comm_def *c, unsigned keep)
{
    int base[PZ_SCALE_MAX_DIMS], want[PZ_SCALE_MAX_DIMS], got[PZ_SCALE_MAX_DIMS];
    uint32_t size = 1;

    for (int d = 0; d < g->ndims; d++)
        if (keep & 1u << d)
            size *= (uint32_t)g->dims[d];
    if (c->size != size || c->procs[0] < 0)
        return 0;
    pz_scale_grid_coords(g, c->procs[0], base);
    for (uint32_t i = 0; i < size; i++) {
        uint32_t rest = i;

        memcpy(want, base, sizeof(want));
        for (int d = g->ndims - 1; d >= 0; d--)
            if (keep & 1u << d) {
                want[d] = (int)(rest % (uint32_t)g->dims[d]);
                rest /= (uint32_t)g->dims[d];
            }
        if (c->procs[i] < 0)
            return 0;
        pz_scale_grid_coords(g, c->procs[i], got);
        if (memcmp(want, got, sizeof(want)) != 0)
            return 0;
    }
    return 1;
}

static int is_world(const struct pz_comm_def *c, int nprocs)
{
    if (c->size != (uint32_t)nprocs)
        return 0;
    for (int i = 0; i < nprocs; i++)
        if (c->procs[i] != i)
            return 0;
    return 1;
}

/* The slice of the grid that communicator comm, with a Cartesian topology of fewer
 * dimensions than the grid's own topology (MPI_Cart_sub's rows and columns), is: the
 * dimensions kept are those whose lengths are the topology's, in order, and whose
 * processes are its members.  So a row of one process (of a grid of 2 x 1) and a column
 * of every process (of the same grid) are the slices they are at larger counts, not the
 * process alone and the world.  0 if none. */
static unsigned topology_slice(struct pz_scale_reading *r, uint32_t comm,
                               const struct pz_comm_def *c)
{
    const struct pz_cart_def *t = pz_trace_in_cart(r->in, comm);
    const struct pz_scale_grid *g = &r->run->grid;
    unsigned all = (1u << g->ndims) - 1;

    if (!t || !g->from_topology || t->ndims >= (uint32_t)g->ndims)
        return 0;
    for (unsigned keep = 1; keep < all; keep++) {
        uint32_t kept = 0;
        int match = 1;

        for (int d = 0; match && d < g->ndims; d++)
            if (keep & 1u << d)
                match = kept < t->ndims && (uint32_t)g->dims[d] == t->dims[kept++];
        if (match && kept == t->ndims &&
            (c->size == 1 || (c->procs && is_slice(g, c, keep))))
            return keep;
    }
    return 0;
}

/* The classes found so far, the class of each communicator id (index + 1, 0: not
 * classified yet), every communicator the events use and the groups classes they
 * propose (scale_run_int.h). */
struct classes {
    uint16_t *of;
    uint32_t nof;
    const struct pz_comm_def **used;
    uint32_t nused, capused;
    uint8_t *seen;                          /* [comm]: in used */
    uint32_t nseen;
    struct pz_scale_group_candidate *cand;  /* the groups classes used proposes */
    int ncand;
    uint8_t *made_by;                       /* [comm]: enum made_by, from its name */
    uint32_t nmade;
};

/* Is communicator comm one the program created and that another recording may class
 * otherwise (struct pz_scale_comm.ref): neither MPI_COMM_WORLD (0) nor MPI_COMM_SELF (1)
 * nor a Cartesian one (a slice), of every process or of one alone. */
static int maybe_group(struct pz_scale_reading *r, uint32_t comm, const struct pz_comm_def *c,
                       const struct pz_scale_comm *k)
{
    return comm > 1 && !c->self && !pz_trace_in_cart(r->in, comm) &&
           (k->kind == PZ_SCALE_COMM_WORLD || (k->kind == PZ_SCALE_COMM_SELF && c->procs));
}

/* The calls that create the communicators a node's processes make (node_mark). */
enum made_by { MADE_OTHERWISE, MADE_BY_SPLIT_TYPE, MADE_BY_SPLIT };

/* The call that created each communicator, as the recorder names every one the
 * program creates ("Comm 5 (MPI_Comm_split_type)", docs/trace-format.md), into
 * cl->made_by, in one pass over the strings (numbered from 0 without gaps): a search of
 * them per communicator was quadratic in a program creating thousands.  -1 when memory
 * runs out. */
static int find_makers(struct pz_scale_reading *r, struct classes *cl)
{
    const char *s;

    for (uint32_t ref = 0; (s = pz_trace_in_string(r->in, ref)); ref++) {
        char call[32], name[96];
        unsigned comm;
        uint8_t by;

        if (sscanf(s, "Comm %u (%31[^)])", &comm, call) != 2)
            continue;
        snprintf(name, sizeof(name), "Comm %u (%s)", comm, call);
        by = !strcmp(call, "MPI_Comm_split_type") ? MADE_BY_SPLIT_TYPE
             : !strcmp(call, "MPI_Comm_split")    ? MADE_BY_SPLIT
                                                  : MADE_OTHERWISE;
        if (by == MADE_OTHERWISE || strcmp(s, name) != 0 || !pz_trace_in_comm_def(r->in, comm))
            continue;
        if (pz_grow((void **)&cl->made_by, &cl->nmade, comm, sizeof(*cl->made_by)) != 0)
            return -1;
        cl->made_by[comm] = by;
    }
    return 0;
}

/* Whether the recorder named communicator comm after the call `by`. */
static int created_by(const struct classes *cl, uint32_t comm, enum made_by by)
{
    return comm < cl->nmade && cl->made_by[comm] == by;
}

/* The mark of created communicator comm of class k (struct pz_scale_comm.node): a node's
 * processes, every process of a recording made on one machine; rank 0 alone of a split,
 * perhaps the first process of each node. */
static uint8_t node_mark(const struct classes *cl, uint32_t comm, const struct pz_comm_def *c,
                         const struct pz_scale_comm *k)
{
    if (k->kind == PZ_SCALE_COMM_WORLD && created_by(cl, comm, MADE_BY_SPLIT_TYPE))
        return PZ_SCALE_NODE_COMM;
    if (c->procs && c->size == 1 && c->procs[0] == 0 && created_by(cl, comm, MADE_BY_SPLIT))
        return PZ_SCALE_NODE_LEADERS;
    return PZ_SCALE_NODE_NONE;
}

/* The class of intracommunicator comm, whose definition is c. */
static struct pz_scale_comm class_of(struct pz_scale_reading *r, const struct classes *cl,
                                     uint32_t comm, const struct pz_comm_def *c)
{
    const struct pz_scale_run *run = r->run;
    struct pz_scale_comm k = { .kind = PZ_SCALE_COMM_OTHER };
    unsigned all = (1u << run->grid.ndims) - 1;
    int grid = comm <= 1 || c->inter || pz_trace_in_cart(r->in, comm);

    /* a slice of the grid before a group: rows are blocks too */
    if ((k.keep = (uint8_t)topology_slice(r, comm, c)) != 0) {
        k.kind = PZ_SCALE_COMM_SLICE;
    } else if (c->self || (c->size == 1 && run->nprocs > 1)) {
        k.kind = PZ_SCALE_COMM_SELF;
    } else if (is_world(c, run->nprocs)) {
        k.kind = PZ_SCALE_COMM_WORLD;
    } else {
        for (unsigned keep = 1; keep < all; keep++)
            if (is_slice(&run->grid, c, keep)) {
                k.kind = PZ_SCALE_COMM_SLICE;
                k.keep = (uint8_t)keep;
                break;
            }
    }
    if ((k.kind == PZ_SCALE_COMM_OTHER || (k.kind == PZ_SCALE_COMM_SELF && !c->self)) &&
        !grid && pz_scale_group_infer(run->nprocs, c, cl->cand, (uint32_t)cl->ncand, &k))
        return k;
    if (maybe_group(r, comm, c, &k)) {
        k.ref = comm;
        k.node = node_mark(cl, comm, c, &k);
    }
    return k;
}

/* Adds every communicator the events use to cl->used, each once, and the groups classes
 * they propose to cl->cand; -1 when memory runs out. */
static int collect_used(struct pz_scale_reading *r, struct classes *cl)
{
    for (int p = 0; p < r->run->nprocs; p++)
        for (size_t i = 0; i < r->run->procs[p].nevents; i++) {
            uint32_t comm = r->raw[p][i].comm;
            const struct pz_comm_def *c;

            if (comm == PZ_NONE32 || (comm < cl->nseen && cl->seen[comm]) ||
                !(c = pz_trace_in_comm_def(r->in, comm)))
                continue;
            if (pz_grow((void **)&cl->seen, &cl->nseen, comm, sizeof(*cl->seen)) != 0 ||
                pz_grow((void **)&cl->used, &cl->capused, cl->nused, sizeof(*cl->used)) != 0)
                return -1;
            cl->seen[comm] = 1;
            cl->used[cl->nused++] = c;
        }
    cl->ncand = pz_scale_group_candidates(r->run->nprocs, cl->used, cl->nused, &cl->cand);
    return cl->ncand < 0 ? -1 : 0;
}

/* The class index of communicator comm, adding its class to run->comms if new; -1 when
 * memory runs out. */
static int class_index(struct pz_scale_reading *r, struct classes *cl, uint32_t comm)
{
    struct pz_scale_run *run = r->run;
    struct pz_scale_comm k, *grown;
    uint32_t i;

    if (comm < cl->nof && cl->of[comm])
        return cl->of[comm] - 1;
    if (pz_grow((void **)&cl->of, &cl->nof, comm, sizeof(*cl->of)) != 0)
        return -1;
    k = class_of(r, cl, comm, pz_trace_in_comm_def(r->in, comm));
    for (i = 0; i < run->ncomms; i++)
        if (run->comms[i].kind == k.kind && run->comms[i].keep == k.keep &&
            run->comms[i].k == k.k && run->comms[i].ref == k.ref)
            break;
    if (i == run->ncomms) {
        if (!(grown = realloc(run->comms, (i + 1) * sizeof(*grown))))
            return -1;
        run->comms = grown;
        run->comms[run->ncomms++] = k;
    }
    cl->of[comm] = (uint16_t)(i + 1);
    return (int)i;
}

/* A collective's root: the first rank, the last, or another counted from the first. */
static struct pz_scale_peer root_of(uint32_t root, uint32_t size)
{
    struct pz_scale_peer peer = { .kind = PZ_SCALE_PEER_RANK, .rank = (int32_t)root };

    if (root > 0 && root + 1 == size) {
        peer.kind = PZ_SCALE_PEER_LAST;
        peer.rank = 0;
    }
    return peer;
}

/* Process p's peer q as an offset in the grid of class k: the world's dimensions, or
 * the kept ones of a slice in order. */
static int offset_of(struct pz_scale_reading *r, const struct pz_scale_comm *k, int p, int q,
                     struct pz_scale_peer *peer, const char *call)
{
    const struct pz_scale_grid *g = &r->run->grid;
    int a[PZ_SCALE_MAX_DIMS], b[PZ_SCALE_MAX_DIMS], n = 0;

    pz_scale_grid_coords(g, p, a);
    pz_scale_grid_coords(g, q, b);
    peer->kind = PZ_SCALE_PEER_OFFSET;
    for (int d = 0; d < g->ndims; d++) {
        int off;

        if (k->kind == PZ_SCALE_COMM_SLICE && !(k->keep & 1u << d))
            continue;
        off = pz_scale_grid_offset(g, d, a, b);
        if (off < INT8_MIN || off > INT8_MAX)
            return pz_scale_fail(r, "process %d, %s: the offset %d to process %d in dimension "
                                 "%d is beyond %d..%d", p, call, off, q, d, INT8_MIN, INT8_MAX);
        peer->off[n++] = (int8_t)off;
    }
    return 0;
}

int pz_scale_nbr_lists(struct pz_scale_reading *r, int p, const struct pz_scale_raw *e,
                       double **bytes, int **q)
{
    const struct pz_comm_def *c = pz_trace_in_comm_def(r->in, e->comm);
    uint32_t n = c ? c->size : 0;

    *bytes = NULL;
    *q = NULL;
    if (!n || e->send_list == PZ_NONE32 || e->recv_list == PZ_NONE32)
        return -1;
    *bytes = malloc(2 * (size_t)n * sizeof(**bytes));
    *q = malloc((size_t)n * sizeof(**q));
    if (!*bytes || !*q) {
        free(*bytes);
        free(*q);
        *bytes = NULL;
        *q = NULL;
        return -2;
    }
    if (pz_call_counts(pz_trace_in_string(r->in, e->send_list), *bytes, (int)n) != 0 ||
        pz_call_counts(pz_trace_in_string(r->in, e->recv_list), *bytes + n, (int)n) != 0) {
        free(*bytes);
        free(*q);
        *bytes = NULL;
        *q = NULL;
        return -1;
    }
    for (uint32_t j = 0; j < n; j++)
        (*q)[j] = pz_call_process(r->in, p, e->comm, j);
    return (int)n;
}

static int refuse_neighbourhood(struct pz_scale_reading *r, int p, const char *call,
                                const char *why)
{
    return pz_scale_fail(r, "process %d, %s: a neighbourhood collective, which exchanges "
                         "with its topology's neighbours only, cannot be extrapolated (%s)",
                         p, call, why);
}

/* The code of offset peer (PZ_SCALE_OFFSETS); -1 when it is beyond -1 .. +1. */
static int offset_code(const struct pz_scale_peer *peer)
{
    int code = 0;

    for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++) {
        if (peer->off[i] < -1 || peer->off[i] > 1)
            return -1;
        code = code * 3 + peer->off[i] + 1;
    }
    return code;
}

/* A new entry of process p's neighbour table, zeroed; NULL when memory runs out. */
static struct pz_scale_nbr *new_nbr(struct pz_scale_process *proc)
{
    size_t n = proc->nnbrs;

    if (!n || !(n & (n - 1))) {   /* 0 or a power of two: full */
        struct pz_scale_nbr *v = realloc(proc->nbrs, (n ? 2 * n : 1) * sizeof(*v));

        if (!v)
            return NULL;
        proc->nbrs = v;
    }
    memset(&proc->nbrs[n], 0, sizeof(proc->nbrs[n]));
    return &proc->nbrs[n];
}

/* The codes of the offsets at which the process at offset peer is a neighbour on
 * class k of recording grid g, into codes[] (at most 1 << PZ_SCALE_MAX_DIMS); how many.
 * Where a periodic dimension of 2 processes wraps, the process one step forward is the
 * one step back too (every sign of the steps along such dimensions); where one of 1
 * wraps, the process itself is both its neighbours along it (the steps forward and back
 * along each such dimension, MPI_Cart_create's neighbours being along one dimension at a
 * time).  Otherwise the one offset. */
static int offsets_of_entry(const struct pz_scale_grid *g, const struct pz_scale_comm *k,
                            const struct pz_scale_peer *peer, int *codes)
{
    int two[PZ_SCALE_MAX_DIMS], one[PZ_SCALE_MAX_DIMS], ntwo = 0, none = 0, n = 0, self = 1;

    for (int i = 0, d = 0; d < g->ndims; d++) {
        if (k->kind == PZ_SCALE_COMM_SLICE && !(k->keep & 1u << d))
            continue;
        self &= peer->off[i] == 0;
        if (g->periodic[d] && g->dims[d] == 2 && peer->off[i])
            two[ntwo++] = i;
        if (g->periodic[d] && g->dims[d] == 1)
            one[none++] = i;
        i++;
    }
    if (self && none) {
        for (int j = 0; j < none; j++)
            for (int way = -1; way <= 1; way += 2) {
                struct pz_scale_peer at = *peer;

                at.off[one[j]] = (int8_t)way;
                codes[n++] = offset_code(&at);
            }
        return n;
    }
    for (unsigned signs = 0; signs < 1u << ntwo; signs++) {
        struct pz_scale_peer at = *peer;

        for (int j = 0; j < ntwo; j++)
            if (signs >> j & 1)
                at.off[two[j]] = (int8_t)-at.off[two[j]];
        codes[n++] = offset_code(&at);
    }
    return n;
}

/* Adds a neighbourhood collective's list entry for the process at offset peer (sent,
 * received bytes) to t.  A process that is the neighbour at several offsets
 * (offsets_of_entry: the wrap of a periodic dimension of 1 or 2 processes) is listed at
 * each by the topology, and its entry holds them all: it is split evenly between them,
 * as a halo exchange moves the same amount each way, so that where no recording has 3
 * processes or more along that dimension, the synthesis at larger counts does not give
 * one neighbour both amounts and the other none. */
static void add_entry(struct pz_scale_nbr *t, const struct pz_scale_grid *g,
                      const struct pz_scale_comm *k, const struct pz_scale_peer *peer,
                      uint64_t sent, uint64_t received)
{
    int codes[1 << PZ_SCALE_MAX_DIMS], n = offsets_of_entry(g, k, peer, codes);

    for (int j = 0; j < n; j++) {
        t->sent[codes[j]] += sent / (uint64_t)n + (j ? 0 : sent % (uint64_t)n);
        t->received[codes[j]] += received / (uint64_t)n + (j ? 0 : received % (uint64_t)n);
    }
}

/* The end e of a neighbourhood collective of process p on class k: the bytes of each
 * nonzero entry of its lists at the offset of its process (add_entry), in a new entry
 * of p's neighbour table. */
static int relate_neighbours(struct pz_scale_reading *r, const struct pz_scale_comm *k, int p,
                             struct pz_scale_event *e, const struct pz_scale_raw *raw,
                             const char *call)
{
    struct pz_scale_process *proc = &r->run->procs[p];
    struct pz_scale_nbr *t;
    double *bytes;
    int *q, n, rc = 0;

    if (k->kind != PZ_SCALE_COMM_WORLD && k->kind != PZ_SCALE_COMM_SLICE)
        return refuse_neighbourhood(r, p, call, "its communicator is neither the world nor "
                                    "a slice of the process grid");
    if ((n = pz_scale_nbr_lists(r, p, raw, &bytes, &q)) == -2 || !(t = new_nbr(proc))) {
        free(bytes);
        free(q);
        return pz_scale_fail(r, "out of memory");
    }
    if (n < 0)
        return refuse_neighbourhood(r, p, call, "its per-peer lists, which name its "
                                    "neighbours, are missing or malformed");
    for (int j = 0; rc == 0 && j < n; j++) {
        struct pz_scale_peer peer = { 0 };

        if (bytes[j] == 0 && bytes[n + j] == 0)
            continue;
        if (q[j] < 0) {
            rc = pz_scale_fail(r, "process %d, %s: rank %d of communicator %u is not "
                               "defined", p, call, j, raw->comm);
        } else if ((rc = offset_of(r, k, p, q[j], &peer, call)) == 0 &&
                   offset_code(&peer) < 0) {
            char why[128];

            snprintf(why, sizeof(why), "its neighbour, process %d, is not next to it in the "
                     "process grid", q[j]);
            rc = refuse_neighbourhood(r, p, call, why);
        } else if (rc == 0) {
            add_entry(t, &r->run->grid, k, &peer, (uint64_t)bytes[j], (uint64_t)bytes[n + j]);
        }
    }
    free(bytes);
    free(q);
    if (rc == 0) {
        e->peer = (struct pz_scale_peer){ .kind = PZ_SCALE_PEER_NEIGHBOURS,
                                          .rank = (int32_t)proc->nnbrs++ };
    }
    return rc;
}

/* --- one-sided targets */

static int is_rma_target(const struct pz_scale_event *e, const struct pz_scale_raw *raw)
{
    return pz_rec_is_rma(e->kind) && pz_scale_has_target(e->kind) && raw->peer != PZ_NONE32;
}

/* The next one-sided event with a target of process p from *at on (p's nevents: none). */
static size_t next_target(const struct pz_scale_reading *r, int p, size_t at)
{
    const struct pz_scale_process *proc = &r->run->procs[p];

    while (at < proc->nevents && !is_rma_target(&proc->events[at], &r->raw[p][at]))
        at++;
    return at;
}

int pz_scale_mark_common(struct pz_scale_reading *r)
{
    int n = r->run->nprocs, same;
    size_t *at, count = 0;

    if (n < 2)
        return 0;
    if (!(at = calloc((size_t)n, sizeof(*at))))
        return -1;
    for (int p = 0; p < n; p++) {
        size_t c = 0;

        for (size_t i = next_target(r, p, 0); i < r->run->procs[p].nevents;
             i = next_target(r, p, i + 1))
            c++;
        if (p > 0 && c != count) {
            free(at);
            return 0;
        }
        count = c;
        at[p] = next_target(r, p, 0);
    }
    for (size_t k = 0; k < count; k++) {
        int q0 = pz_call_process(r->in, 0, r->raw[0][at[0]].comm, r->raw[0][at[0]].peer);

        same = q0 >= 0;
        for (int p = 1; same && p < n; p++)
            same = pz_call_process(r->in, p, r->raw[p][at[p]].comm, r->raw[p][at[p]].peer) == q0;
        for (int p = 0; p < n; p++) {
            r->raw[p][at[p]].common = (uint8_t)same;
            at[p] = next_target(r, p, at[p] + 1);
        }
    }
    free(at);
    return 0;
}

/* The code of offset peer (PZ_SCALE_OFFSETS); -1 when it is beyond -1 .. +1. */
static int offset_code(const struct pz_scale_peer *peer);

/* One-sided event e of process p whose target is process q at offset peer: a grid
 * neighbour (at most 1 away along every dimension) or the process itself, else
 * refused: a target further away has no receiving call that would tell the recordings
 * apart (a message's would), so that a target the program computes otherwise (the
 * middle process, rank 0 of some) would be an offset that follows the position at P. */
static int check_target(struct pz_scale_reading *r, int p, int q,
                        const struct pz_scale_peer *peer, const char *call)
{
    if (offset_code(peer) >= 0)
        return 0;
    return pz_scale_fail(r, "process %d, %s: its target, process %d, is neither next to it "
                         "in the process grid nor the same process for every process, which "
                         "the scaling cannot extrapolate for one-sided communication", p,
                         call, q);
}

/* Event e of process p's call `call`, whose raw communicator and peer are raw. */
static int relate_event(struct pz_scale_reading *r, struct classes *cl, int p,
                        struct pz_scale_event *e, const struct pz_scale_raw *raw,
                        const char *call)
{
    const struct pz_comm_def *c;
    const struct pz_scale_comm *k;
    int index, q;

    if (raw->comm == PZ_NONE32)
        return 0;
    if ((index = class_index(r, cl, raw->comm)) < 0)
        return pz_scale_fail(r, "out of memory");
    e->comm = (uint16_t)index;
    k = &r->run->comms[index];
    c = pz_trace_in_comm_def(r->in, raw->comm);
    if (raw->nbr)
        return relate_neighbours(r, k, p, e, raw, call);
    if (raw->peer == PZ_NONE32)
        return 0;
    if (raw->any) {
        /* the sender that happened to match: the synthesis takes the others in turn */
        e->peer.kind = PZ_SCALE_PEER_ANY;
        return 0;
    }
    if (!pz_scale_has_target(e->kind) || raw->common) {
        e->peer = root_of(raw->peer, c->self ? 1 : c->size);
        return 0;
    }
    if (k->kind != PZ_SCALE_COMM_WORLD && k->kind != PZ_SCALE_COMM_SLICE) {
        e->peer.kind = PZ_SCALE_PEER_RANK;
        e->peer.rank = (int32_t)raw->peer;
        return 0;
    }
    if ((q = pz_call_process(r->in, p, raw->comm, raw->peer)) < 0)
        return pz_scale_fail(r, "process %d, %s: rank %u of communicator %u is not defined",
                             p, call, raw->peer, raw->comm);
    if (offset_of(r, k, p, q, &e->peer, call) != 0)
        return -1;
    return pz_rec_is_rma(e->kind) ? check_target(r, p, q, &e->peer, call) : 0;
}

int pz_scale_relate(struct pz_scale_reading *r)
{
    struct classes cl = { 0 };
    int rc = 0;

    if (collect_used(r, &cl) != 0 || find_makers(r, &cl) != 0)
        rc = pz_scale_fail(r, "out of memory");
    for (int p = 0; rc == 0 && p < r->run->nprocs; p++) {
        struct pz_scale_process *proc = &r->run->procs[p];

        for (size_t s = 0; rc == 0 && s < proc->nsteps; s++) {
            const struct pz_scale_step *step = &proc->steps[s];
            const char *call = pz_trace_in_region(r->in, step->region)->name;

            for (uint32_t i = step->first; rc == 0 && i < step->first + step->n; i++)
                rc = relate_event(r, &cl, p, &proc->events[i], &r->raw[p][i], call);
        }
    }
    free(cl.of);
    free(cl.used);
    free(cl.seen);
    free(cl.cand);
    free(cl.made_by);
    return rc;
}
