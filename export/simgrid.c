/* A recorded run as SimGrid SMPI time-independent traces, with a platform and a
 * hostfile for a machine file (simgrid.h; docs/simgrid.md).  Each process's records
 * (its first thread's: SMPI replays no threads) are turned into actions the way the
 * replay engine turns them into operations (engine_call.c): the same calls
 * communicate, the same gaps compute, wildcard receives get what they matched,
 * collectives have the block of "Bytes of collectives". */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calibrate_fit.h"
#include "coll.h"
#include "constructor.h"
#include "cost.h"
#include "simgrid.h"
#include "trace_calls.h"

/* --- the platform and the hostfile */

static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* The latency and bandwidth of one message between nodes: the machine's, or for the
 * packet model the line it tends to for large messages (every packet of V_max bytes
 * carries V_max - V_c of payload; the first packet's preparation is latency). */
static void link_values(const struct pz_machine *m, double *latency, double *bandwidth)
{
    double payload = m->packet_size - m->packet_header;

    *latency = m->latency;
    *bandwidth = m->bandwidth;
    if (m->cost_model == PZ_COST_PACKET && payload > 0) {
        *latency += payload * m->latency_per_byte;
        *bandwidth *= payload / m->packet_size;
    }
}

/* The most processes one node holds. */
static int cores_per_node(const struct pz_machine *m, int nprocs, int nnodes)
{
    int *count = calloc((size_t)nnodes, sizeof(int)), most = 1;

    if (!count)
        return m->procs_per_node > 0 ? m->procs_per_node : 1;
    for (int r = 0; r < nprocs; r++) {
        int n = pz_node_of(m, r, nprocs);

        if (n >= 0 && n < nnodes && ++count[n] > most)
            most = count[n];
    }
    free(count);
    return most;
}

static void put_prop(FILE *f, const char *id, const char *value)
{
    fprintf(f, "    <prop id=\"%s\" value=\"%s\"/>\n", id, value);
}

/* SMPI's factors of latency (or of bandwidth) by message size for the machine's
 * segments between nodes: "SIZE:FACTOR;..." where an entry holds for messages of more
 * than SIZE bytes (SimGrid's FactorSet; 0 bytes take the default, 1).  Segment i holds
 * above the bound before it (whole bytes) and its factor is its latency (bandwidth)
 * over the link's; beyond the last bound, 1.  A segment's latency over a latency of 0
 * cannot be a factor: 1 (docs/simgrid.md). */
static void put_factors(FILE *f, const char *id, const struct pz_machine *m, double link,
                        int of_latency)
{
    const struct pz_segments *s = &m->segments;
    double from = 0;

    fprintf(f, "    <prop id=\"%s\" value=\"", id);
    for (int i = 0; i < s->n; i++) {
        double value = of_latency ? s->seg[i].latency : s->seg[i].bandwidth;

        fprintf(f, "%.15g:%.15g;", from, link > 0 ? value / link : 1);
        from = floor(s->seg[i].upto);
    }
    fprintf(f, "%.15g:1\"/>\n", from);
}

/* An overhead as SMPI's "SIZE:OFFSET:PER_BYTE" sections (s and s/B; each holds for
 * messages of more than SIZE bytes, as put_factors's) into value: the model's max(0,
 * offset + per_byte * bytes) for an eager message (its per-byte part is an eager
 * message's copies, cost.h) and max(0, offset) beyond the eager threshold.  Where
 * offset + per_byte * bytes changes sign below the threshold (a hand-written tail beyond
 * the send's overhead at some sizes only), a section begins past the change's whole
 * size.  A message of 0 bytes takes SMPI's default, 0. */
static void overhead_sections(char *value, size_t len, const struct pz_machine *m,
                              double offset, double per_byte)
{
    double eager = floor(m->eager_threshold), change = per_byte != 0 ? -offset / per_byte : -1;
    int used;

    if (per_byte == 0) {
        snprintf(value, len, "0:%.15g:0", fmax(0, offset));
        return;
    }
    if (change > 0 && change < eager) {
        double from = floor(change);

        used = offset > 0 ? snprintf(value, len, "0:%.15g:%.15g;%.0f:0:0", offset, per_byte, from)
                          : snprintf(value, len, "0:0:0;%.0f:%.15g:%.15g", from, offset, per_byte);
    } else if (offset + fmax(0, eager) * per_byte >= 0 && offset >= 0) {
        used = snprintf(value, len, "0:%.15g:%.15g", offset, per_byte);
    } else {
        used = snprintf(value, len, "0:0:0");
    }
    if (used > 0 && (size_t)used < len)
        snprintf(value + used, len - (size_t)used, ";%.0f:%.15g:0", eager, fmax(0, offset));
}

/* SMPI's overheads of sends (smpi/os: MPI_Send, smpi/ois: MPI_Isend) and receives
 * (smpi/or): the machine's between nodes, the send's less its tail (send_tail and, per
 * byte, send_tail_per_byte; never below 0 at a size, as the model's message leaves at
 * most the overhead early): SMPI's message leaves after smpi/os, so that its one way
 * stays the machine's; written only when the machine has them. */
static void put_overheads(FILE *f, const struct pz_machine *m)
{
    const struct pz_overhead *o = &m->overhead;
    char value[160];

    if (o->send > 0 || o->send_per_byte > 0) {
        overhead_sections(value, sizeof(value), m, o->send - m->send_tail,
                          o->send_per_byte - m->send_tail_per_byte);
        put_prop(f, "smpi/os", value);
        put_prop(f, "smpi/ois", value);
    }
    if (o->recv > 0 || o->recv_per_byte > 0) {
        overhead_sections(value, sizeof(value), m, o->recv, o->recv_per_byte);
        put_prop(f, "smpi/or", value);
    }
}

/* SMPI's algorithms for the operations whose MPICH choice in SMPI's "mpich" selector
 * fails in SMPI 3.32's replay: the one MPICH 3 takes for the run's largest block n
 * among P processes (docs/collectives.md, MPICH 3). */
static void put_algorithms(FILE *f, const struct pz_simgrid_run *run)
{
    double bcast = run->largest[PZ_COLL_BCAST];
    int p = run->nprocs, pof2 = p > 0 && (p & (p - 1)) == 0;

    put_prop(f, "smpi/bcast", bcast < 12288 || p < 8 ? "binomial_tree"
                              : bcast < 524288 && pof2 ? "scatter_rdb_allgather"
                                                       : "scatter_LR_allgather");
    put_prop(f, "smpi/reduce", run->largest[PZ_COLL_REDUCE] <= 2048 ? "binomial"
                                                                     : "scatter_gather");
    put_prop(f, "smpi/allreduce", run->largest[PZ_COLL_ALLREDUCE] <= 2048 ? "rdb" : "rab_rdb");
}

/* How much m's two directions share a link, for SimGrid's one choice per link: its
 * duplex_factor, or the median of its duplex factors by size when it has them (SimGrid
 * has no factor by size). */
static double duplex_of(const struct pz_machine *m)
{
    double f[PZ_MAX_SEGMENTS];
    int n = m->duplex_factors.n;

    if (n == 0)
        return m->duplex_factor;
    for (int i = 0; i < n; i++)
        f[i] = m->duplex_factors.step[i].factor;
    return pz_fit_median(f, n);
}

int pz_simgrid_platform(FILE *f, const struct pz_machine *m, const struct pz_simgrid_run *run)
{
    int nprocs = run->nprocs > 0 ? run->nprocs : 1, nnodes = pz_nodes_for(m, nprocs);
    double latency, bandwidth;
    char thresh[32];

    link_values(m, &latency, &bandwidth);
    snprintf(thresh, sizeof(thresh), "%lld", llround(m->eager_threshold) + 1);
    fputs("<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<!-- machine '", f);
    put_escaped(f, m->name);
    fprintf(f, "' (network = %s) for SimGrid SMPI, by prognoz export: docs/simgrid.md -->\n"
            "<platform version=\"4.1\">\n"
            "  <config>\n", pz_machine_word(m, PZ_KEY_NETWORK));
    put_prop(f, "smpi/host-speed", "1Gf");
    put_factors(f, "smpi/bw-factor", m, bandwidth, 0);
    put_factors(f, "smpi/lat-factor", m, latency, 1);
    put_overheads(f, m);
    put_prop(f, "network/crosstraffic", "0");
    put_prop(f, "smpi/send-is-detached-thresh", thresh);
    put_prop(f, "smpi/async-small-thresh", thresh);
    put_prop(f, "smpi/coll-selector", "mpich");
    put_algorithms(f, run);
    fputs("  </config>\n  <cluster id=\"", f);
    put_escaped(f, m->name);
    fprintf(f, "\" prefix=\"node\" suffix=\"\" radical=\"0-%d\" speed=\"1Gf\" core=\"%d\"\n"
            "           bw=\"%.15gBps\" lat=\"%.15gus\"", nnodes - 1,
            cores_per_node(m, nprocs, nnodes), bandwidth, latency / 2 * 1e6);
    if (m->network == PZ_NET_SWITCH)   /* SimGrid has full or half duplex: the nearer */
        fprintf(f, " sharing_policy=\"%s\"\n", duplex_of(m) < 1.5 ? "SPLITDUPLEX" : "SHARED");
    else
        fprintf(f, " sharing_policy=\"FATPIPE\"\n"
                "           bb_bw=\"%.15gBps\" bb_lat=\"0us\" bb_sharing_policy=\"SHARED\"\n",
                bandwidth * (m->network == PZ_NET_CHANNELS ? m->channels : 1));
    fprintf(f, "           loopback_bw=\"%.15gBps\" loopback_lat=\"%.15gus\"/>\n"
            "</platform>\n", m->shm_bandwidth, m->shm_latency * 1e6);
    return ferror(f) ? -1 : 0;
}

int pz_simgrid_hostfile(FILE *f, const struct pz_machine *m, int nprocs)
{
    for (int r = 0; r < nprocs; r++)
        fprintf(f, "node%d\n", pz_node_of(m, r, nprocs));
    return ferror(f) ? -1 : 0;
}

/* --- one process's actions */

/* A nonblocking operation in flight, by the trace's request id, and what `wait` names
 * it by. */
struct req {
    uint64_t id;
    int src, dst;
    long long tag;
};

struct reqs {
    struct req *v;
    int n, cap;
};

struct proc {
    FILE *f;
    struct pz_trace_in *in;
    const struct pz_machine *m;
    int p, nprocs;
    int th;                  /* p's first thread, whose records are exported */
    double resolution;
    double seconds;          /* computation not written yet */
    uint64_t last;           /* recorded time accounted up to */
    struct reqs pending;     /* Isend/Irecv posted, not completed */
    struct reqs ends;        /* waits at the end of the current call */
    struct pz_simgrid_run *run;
    char *err;
    size_t errlen;
    int failed;
};

static void fail(struct proc *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(struct proc *o, const char *fmt, ...)
{
    va_list ap;

    if (o->failed++)
        return;
    va_start(ap, fmt);
    vsnprintf(o->err, o->errlen, fmt, ap);
    va_end(ap);
}

static void remember(struct proc *o, struct reqs *l, struct req r)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        struct req *grown = realloc(l->v, (size_t)cap * sizeof(*grown));

        if (!grown) {
            fail(o, "out of memory");
            return;
        }
        l->v = grown;
        l->cap = cap;
    }
    l->v[l->n++] = r;
}

/* The request with id removed from l (the oldest of that id); 0, or -1 if none. */
static int take(struct reqs *l, uint64_t id, struct req *out)
{
    for (int i = 0; i < l->n; i++) {
        if (l->v[i].id == id) {
            *out = l->v[i];
            memmove(&l->v[i], &l->v[i + 1], (size_t)(l->n - i - 1) * sizeof(*l->v));
            l->n--;
            return 0;
        }
    }
    return -1;
}

/* Starts an action line, after the computation that precedes it. */
static void begin(struct proc *o, const char *action)
{
    long long flops = llround(o->seconds * PZ_SIMGRID_SPEED);

    o->seconds = 0;
    if (flops > 0)
        fprintf(o->f, "%d compute %lld\n", o->p, flops);
    fprintf(o->f, "%d %s", o->p, action);
}

static void put(struct proc *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct proc *o, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(o->f, fmt, ap);
    va_end(ap);
}

static void end(struct proc *o)
{
    fputc('\n', o->f);
}

static void wait_for(struct proc *o, const struct req *r)
{
    begin(o, "wait");
    put(o, " %d %d %lld", r->src, r->dst, r->tag);
    end(o);
}

/* Computation of the recorded span [from, to), times cpu_scale. */
static void compute(struct proc *o, uint64_t from, uint64_t to)
{
    if (to > from)
        o->seconds += (double)(to - from) / o->resolution * o->m->cpu_scale;
}

/* --- point-to-point */

/* The process of rank `rank` of communicator comm; -1 (reported) if unknown. */
static int process_of(struct proc *o, uint32_t comm, uint32_t rank)
{
    int q = pz_call_process(o->in, o->p, comm, rank);

    if (q < 0)
        fail(o, "process %d: rank %u of communicator %u is not defined", o->p, rank, comm);
    return q;
}

/* A send or receive: blocking as `send`/`recv` when it is the call's only message, else
 * nonblocking with its wait at the call's end (MPI_Sendrecv).  One with MPI_PROC_NULL
 * (no peer) completes at once and moves nothing: it has no action. */
static void blocking(struct proc *o, const struct pz_rec *r, int alone)
{
    int send = r->kind == PZ_REC_SEND, peer;
    struct req q;

    if (r->peer == PZ_NONE32 || (peer = process_of(o, r->comm, r->peer)) < 0)
        return;
    q = (struct req){ 0, send ? o->p : peer, send ? peer : o->p, r->tag };
    begin(o, alone ? (send ? "send" : "recv") : (send ? "isend" : "irecv"));
    put(o, " %d %u %llu", peer, r->tag, (unsigned long long)r->bytes);
    end(o);
    if (!alone)
        remember(o, &o->ends, q);
}

/* MPI_Isend, MPI_Irecv: posted with what the completion records (a wildcard receive
 * gets the source and tag it matched); not at all if the program cancelled it, for a
 * receive, never completed it, or it was with MPI_PROC_NULL (a receive of the message
 * MPI_Improbe found there): its completion then finds no request, and waits for none. */
static void nonblocking(struct proc *o, const struct pz_rec *r, size_t call_len)
{
    int send = r->kind == PZ_REC_ISEND;
    const struct pz_rec *c = pz_call_completion(o->in, o->th, call_len, r->request,
                                        send ? PZ_REC_ISEND_COMPLETE : PZ_REC_IRECV,
                                        PZ_REC_REQUEST_CANCELLED);
    struct pz_rec done;
    int peer;

    if ((c && c->kind == PZ_REC_REQUEST_CANCELLED) || (!c && !send))
        return;
    done = send ? *r : *c;
    if (done.peer == PZ_NONE32 || (peer = process_of(o, done.comm, done.peer)) < 0)
        return;
    begin(o, send ? "isend" : "irecv");
    put(o, " %d %u %llu", peer, done.tag, (unsigned long long)done.bytes);
    end(o);
    remember(o, &o->pending, (struct req){ r->request, send ? o->p : peer,
                                           send ? peer : o->p, done.tag });
}

/* --- collectives */

/* " c0 c1 ...": counts, or the block n for every rank where they were not recorded. */
static void put_counts(struct proc *o, const double *counts, double n, int size)
{
    for (int i = 0; i < size; i++)
        put(o, " %lld", llround(counts ? counts[i] : n));
}

static long long sum(const double *counts, double n, int size)
{
    long long s = 0;

    for (int i = 0; i < size; i++)
        s += llround(counts ? counts[i] : n);
    return s;
}

/* The flops of combining n bytes at the machine's reduce_byte_time. */
static long long reduce_flops(const struct proc *o, double n)
{
    return llround(n * o->m->reduce_byte_time * PZ_SIMGRID_SPEED);
}

/* A collective on MPI_COMM_WORLD (or a communicator with its processes in its order):
 * SMPI's own action. */
static void native(struct proc *o, const struct pz_coll *c)
{
    static const char *const names[PZ_COLL_NOPS] = {
        [PZ_COLL_BARRIER] = "barrier", [PZ_COLL_BCAST] = "bcast",
        [PZ_COLL_GATHER] = "gather", [PZ_COLL_GATHERV] = "gatherv",
        [PZ_COLL_SCATTER] = "scatter", [PZ_COLL_SCATTERV] = "scatterv",
        [PZ_COLL_ALLGATHER] = "allgather", [PZ_COLL_ALLGATHERV] = "allgatherv",
        [PZ_COLL_ALLTOALL] = "alltoall", [PZ_COLL_ALLTOALLV] = "alltoallv",
        [PZ_COLL_REDUCE] = "reduce", [PZ_COLL_ALLREDUCE] = "allreduce",
        [PZ_COLL_REDUCE_SCATTER] = "reducescatter",
        [PZ_COLL_REDUCE_SCATTER_BLOCK] = "reducescatter",
        [PZ_COLL_SCAN] = "scan", [PZ_COLL_EXSCAN] = "exscan",
    };
    long long n = llround(c->bytes), flops = reduce_flops(o, c->bytes);

    if (c->bytes > o->run->largest[c->op])
        o->run->largest[c->op] = c->bytes;
    begin(o, names[c->op]);
    switch (c->op) {
    case PZ_COLL_BARRIER:
        break;
    case PZ_COLL_BCAST:
        put(o, " %lld %d", n, c->root);
        break;
    case PZ_COLL_GATHER: case PZ_COLL_SCATTER:
        put(o, " %lld %lld %d", n, n, c->root);
        break;
    case PZ_COLL_GATHERV:
        put(o, " %lld", n);
        put_counts(o, c->me == c->root ? c->recv_counts : NULL, c->bytes, c->size);
        put(o, " %d", c->root);
        break;
    case PZ_COLL_SCATTERV:
        put_counts(o, c->me == c->root ? c->send_counts : NULL, c->bytes, c->size);
        put(o, " %lld %d", n, c->root);
        break;
    case PZ_COLL_ALLGATHER: case PZ_COLL_ALLTOALL:
        put(o, " %lld %lld", n, n);
        break;
    case PZ_COLL_ALLGATHERV:
        put(o, " %lld", n);
        put_counts(o, c->recv_counts, c->bytes, c->size);
        break;
    case PZ_COLL_ALLTOALLV:
        put(o, " %lld", sum(c->send_counts, c->bytes, c->size));
        put_counts(o, c->send_counts, c->bytes, c->size);
        put(o, " %lld", sum(c->recv_counts, c->bytes, c->size));
        put_counts(o, c->recv_counts, c->bytes, c->size);
        break;
    case PZ_COLL_REDUCE:
        put(o, " %lld %lld %d", n, flops, c->root);
        break;
    case PZ_COLL_REDUCE_SCATTER:
        put_counts(o, c->recv_counts, c->bytes, c->size);
        put(o, " %lld", flops);
        break;
    case PZ_COLL_REDUCE_SCATTER_BLOCK:
        put_counts(o, NULL, c->bytes, c->size);
        put(o, " %lld", flops);
        break;
    default:                     /* Allreduce, Scan, Exscan */
        put(o, " %lld %lld", n, flops);
        break;
    }
    end(o);
}

/* The messages of one round of an algorithm. */
struct round_msgs {
    struct proc *o;
    struct { int peer, is_send; double bytes; } *v;
    int n, cap;
};

static void on_message(void *ud, int peer, int is_send, double bytes)
{
    struct round_msgs *rm = ud;

    if (rm->n == rm->cap) {
        int cap = rm->cap ? 2 * rm->cap : 8;
        void *grown = realloc(rm->v, (size_t)cap * sizeof(*rm->v));

        if (!grown) {
            fail(rm->o, "out of memory");
            return;
        }
        rm->v = grown;
        rm->cap = cap;
    }
    rm->v[rm->n].peer = peer;
    rm->v[rm->n].is_send = is_send;
    rm->v[rm->n++].bytes = bytes;
}

/* A collective on a sub-communicator, which SMPI's TI replay cannot express: the
 * point-to-point messages of the algorithm prognoz chooses for it, round by round
 * (every message of a round posted, then waited for), among its members only. */
static void expanded(struct proc *o, const struct pz_coll *c, const int *procs,
                     uint32_t comm)
{
    const struct pz_coll_algo *algo = pz_coll_choose(o->m->mpi, c);
    long long tag = -(PZ_SIMGRID_COLL_TAG + (long long)(comm % PZ_SIMGRID_COLL_TAG));
    struct round_msgs rm = { .o = o };
    struct pz_coll_round out = { on_message, &rm, 0, NULL };

    if (!algo) {
        fail(o, "no collective algorithm for mpi = %s", o->m->mpi);
        return;
    }
    for (int round = 0; !o->failed && algo->round(c, round, &out); round++) {
        for (int i = 0; i < rm.n; i++) {
            begin(o, rm.v[i].is_send ? "isend" : "irecv");
            put(o, " %d %lld %lld", procs[rm.v[i].peer], tag, llround(rm.v[i].bytes));
            end(o);
        }
        for (int i = 0; i < rm.n; i++) {
            int other = procs[rm.v[i].peer];
            struct req q = { 0, rm.v[i].is_send ? o->p : other,
                             rm.v[i].is_send ? other : o->p, tag };

            wait_for(o, &q);
        }
        if (out.reduce_bytes > 0)
            o->seconds += out.reduce_bytes * o->m->reduce_byte_time;
        rm.n = 0;
        out.reduce_bytes = 0;
    }
    free(rm.v);
}

/* Whether communicator procs (size members) is MPI_COMM_WORLD's processes in order. */
static int world_like(const struct proc *o, const int *procs, int size)
{
    if (size != o->nprocs)
        return 0;
    for (int i = 0; i < size; i++)
        if (procs[i] != i)
            return 0;
    return 1;
}

/* Operation c->op of c->bytes per process (c->bytes < 0: the bytes of rec) over the
 * communicator of rec, the end of a collective (MpiCollectiveEnd,
 * NonBlockingCollectiveComplete); nothing with a single member.  One on an
 * intercommunicator is refused: SMPI's replay has no such collectives, and written as
 * one on the processes of both groups it would be another operation. */
static void collective_as(struct proc *o, const struct pz_rec *rec, struct pz_coll *c)
{
    const int *procs = NULL;
    int size = pz_trace_in_comm(o->in, rec->comm, &procs), me = -1;
    double *counts;

    if (pz_trace_in_comm_local(o->in, rec->comm) > 0) {
        fail(o, "process %d: a collective on intercommunicator %u cannot be exported: "
             "SimGrid's replay has no collectives on intercommunicators", o->p, rec->comm);
        return;
    }

    if (size <= 1)
        return;
    for (int i = 0; i < size; i++)
        if (procs[i] == o->p)
            me = i;
    if (me < 0) {
        fail(o, "process %d: not a member of communicator %u of its collective", o->p,
             rec->comm);
        return;
    }
    c->size = size;
    c->me = me;
    c->root = rec->peer == PZ_NONE32 ? 0 : (int)rec->peer;
    if (c->bytes < 0)
        c->bytes = pz_coll_block(c->op, size, c->root, me, (double)rec->bytes,
                                 (double)rec->bytes2);
    if (!(counts = malloc(2 * (size_t)size * sizeof(double)))) {
        fail(o, "out of memory");
        return;
    }
    if (pz_call_counts(pz_trace_in_string(o->in, rec->send_list), counts, size) == 0)
        c->send_counts = counts;
    if (pz_call_counts(pz_trace_in_string(o->in, rec->recv_list), counts + size, size) == 0)
        c->recv_counts = counts + size;
    if (world_like(o, procs, size)) {
        native(o, c);
    } else {
        expanded(o, c, procs, rec->comm);
    }
    free(counts);
}

/* The collective whose end is rec; nothing for one of an unknown kind. */
static void collective(struct proc *o, const struct pz_rec *rec)
{
    struct pz_coll c = { .bytes = -1 };

    if (pz_call_coll_op(rec->coll_op, &c.op) == 0)
        collective_as(o, rec, &c);
}

/* A communicator constructor's CREATE_HANDLE on its parent (rec) as MPICH runs it, as
 * the predictor does (trace/constructor.h): SMPI's own comm_split and comm_dup actions
 * cost nothing, so the split's Allgather of (color, key) pairs and the Allreduce of the
 * context-id mask are written as those collectives. */
static void constructor(struct proc *o, const struct pz_rec *rec, int call)
{
    struct pz_coll gather = { .op = PZ_COLL_ALLGATHER, .bytes = PZ_SPLIT_PAIR_BYTES };
    struct pz_coll mask = { .op = PZ_COLL_ALLREDUCE, .bytes = PZ_CONTEXT_MASK_BYTES };

    if (pz_constructor_splits(call))
        collective_as(o, rec, &gather);
    if (!o->failed)
        collective_as(o, rec, &mask);
}

/* --- the calls */

static int communicates(uint8_t kind)
{
    switch ((enum pz_rec_kind)kind) {
    case PZ_REC_SEND: case PZ_REC_RECV: case PZ_REC_ISEND: case PZ_REC_IRECV_REQUEST:
    case PZ_REC_NBC_REQUEST: case PZ_REC_COLL_END: case PZ_REC_ISEND_COMPLETE:
    case PZ_REC_IRECV: case PZ_REC_NBC_COMPLETE: case PZ_REC_REQUEST_CANCELLED:
        return 1;
    default:
        return 0;
    }
}

/* One event of a call to function call (enum pz_call_id, or -1). */
static void event(struct proc *o, const struct pz_rec *r, size_t call_len, int messages,
                  int call)
{
    const struct pz_rec *c;
    struct pz_rec done;
    struct req q;

    switch ((enum pz_rec_kind)r->kind) {
    case PZ_REC_SEND: case PZ_REC_RECV:
        blocking(o, r, messages == 1);
        break;
    case PZ_REC_ISEND: case PZ_REC_IRECV_REQUEST:
        nonblocking(o, r, call_len);
        break;
    case PZ_REC_COLL_END:
        if (r->coll_op == OTF2_COLLECTIVE_OP_CREATE_HANDLE && pz_constructor(call))
            constructor(o, r, call);
        else
            collective(o, r);
        break;
    case PZ_REC_NBC_REQUEST:     /* replayed whole where it starts */
        if ((c = pz_call_completion(o->in, o->th, call_len, r->request, PZ_REC_NBC_COMPLETE,
                                    PZ_REC_NBC_COMPLETE))) {
            done = *c;
            collective(o, &done);
        }
        break;
    case PZ_REC_ISEND_COMPLETE: case PZ_REC_IRECV:
        if (take(&o->pending, r->request, &q) == 0)
            wait_for(o, &q);
        break;
    case PZ_REC_REQUEST_CANCELLED:
        take(&o->pending, r->request, &q);
        break;
    default:
        break;
    }
}

/* The MPI call whose Enter is the next record: its actions, or its recorded length as
 * computation if it does not communicate.  What it needs of the Enter is taken before
 * the call's end is looked for: reading further may move the records read before (the
 * ring of the thread's records grows, trace_in.c). */
static void call(struct proc *o)
{
    const struct pz_rec *enter = pz_trace_in_peek(o->in, o->th, 0), *r;
    uint64_t start = enter->time, stop = start;
    const struct pz_region_info *region = pz_trace_in_region(o->in, enter->region);
    int fn = region->call;
    size_t len = pz_call_length(o->in, o->th, enter->region);
    int any = 0, messages = 0;

    for (size_t i = 1; i < len && (r = pz_trace_in_peek(o->in, o->th, i)); i++) {
        any |= communicates(r->kind);
        messages += r->kind == PZ_REC_SEND || r->kind == PZ_REC_RECV;
        stop = r->time;
    }
    for (size_t i = 1; any && i < len && !o->failed; i++) {
        struct pz_rec rec = *pz_trace_in_peek(o->in, o->th, i);

        event(o, &rec, len, messages, fn);
    }
    for (int i = 0; i < o->ends.n; i++)
        wait_for(o, &o->ends.v[i]);
    o->ends.n = 0;
    if (!any && !pz_call_starts_mpi(region))
        compute(o, start, stop);
    pz_trace_in_consume(o->in, o->th, len);
    o->last = stop > o->last ? stop : o->last;
}

int pz_simgrid_actions(FILE *f, struct pz_trace_in *in, const struct pz_machine *m, int p,
                       struct pz_simgrid_run *run, char *err, size_t errlen)
{
    struct proc o = { .f = f, .in = in, .m = m, .p = p, .run = run, .err = err,
                      .errlen = errlen };
    const struct pz_rec *r;
    uint64_t offset = pz_trace_in_offset(in);

    o.th = pz_trace_in_first(in, p);
    r = pz_trace_in_peek(in, o.th, 0);
    o.nprocs = pz_trace_in_nprocs(in);
    o.resolution = pz_trace_in_resolution(in);
    o.last = r ? r->time : offset;
    if (r && r->kind == PZ_REC_ENTER && pz_call_starts_mpi(pz_trace_in_region(in, r->region)))
        o.last = run->init_start;   /* every process leaves MPI_Init then, at once */
    fprintf(f, "%d init\n", p);
    if (o.last > offset)         /* it started when it started in the recording */
        fprintf(f, "%d sleep %.9f\n", p, (double)(o.last - offset) / o.resolution);
    while (!o.failed && (r = pz_trace_in_peek(in, o.th, 0))) {
        if (r->kind == PZ_REC_ENTER &&
            pz_trace_in_region(in, r->region)->kind == PZ_REGION_MPI) {
            compute(&o, o.last, r->time);
            o.last = r->time > o.last ? r->time : o.last;
            call(&o);
            continue;
        }
        if (r->kind == PZ_REC_FLUSH) {   /* the recorder's own time is not the program's */
            compute(&o, o.last, r->time);
            o.last = r->bytes2 > r->time ? r->bytes2 : r->time;
        } else {
            compute(&o, o.last, r->time);
            o.last = r->time > o.last ? r->time : o.last;
        }
        pz_trace_in_consume(in, o.th, 1);
    }
    if (!o.failed && pz_trace_in_error(in))
        fail(&o, "%s", pz_trace_in_error(in));
    if (!o.failed) {
        begin(&o, "finalize");
        end(&o);
    }
    free(o.pending.v);
    free(o.ends.v);
    if (!o.failed && ferror(f))
        fail(&o, "cannot write the actions of process %d", p);
    return o.failed ? -1 : 0;
}

/* --- the files */

/* Writes dir/name with write(f, ...); 0, or -1 with the message in err. */
static int write_file(const char *dir, const char *name, int (*write)(FILE *, void *),
                      void *arg, char *err, size_t errlen)
{
    char path[PATH_MAX];
    FILE *f;
    int rc;

    if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
        snprintf(err, errlen, "%s/%s: the path is too long", dir, name);
        return -1;
    }
    if (!(f = fopen(path, "w"))) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    err[0] = '\0';
    rc = write(f, arg);
    if (fclose(f) != 0)
        rc = -1;
    if (rc != 0 && !err[0])
        snprintf(err, errlen, "cannot write '%s'", path);
    return rc;
}

struct job {
    struct pz_trace_in *in;
    const struct pz_machine *m;
    const char *dir;
    struct pz_simgrid_run run;
    int p;
    char *err;
    size_t errlen;
};

static int write_platform(FILE *f, void *arg)
{
    struct job *j = arg;

    return pz_simgrid_platform(f, j->m, &j->run);
}

static int write_hostfile(FILE *f, void *arg)
{
    struct job *j = arg;

    return pz_simgrid_hostfile(f, j->m, j->run.nprocs);
}

static int write_actions(FILE *f, void *arg)
{
    struct job *j = arg;

    return pz_simgrid_actions(f, j->in, j->m, j->p, &j->run, j->err, j->errlen);
}

static int write_list(FILE *f, void *arg)
{
    struct job *j = arg;

    for (int p = 0; p < j->run.nprocs; p++)
        fprintf(f, "%s/rank-%d.txt\n", j->dir, p);
    return ferror(f) ? -1 : 0;
}

/* Makes out if missing; refuses one holding an export.  Its absolute path into dir. */
static int prepare(const char *out, char *dir, char *err, size_t errlen)
{
    char list[PATH_MAX];
    struct stat st;

    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot make '%s': %s", out, strerror(errno));
        return -1;
    }
    if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "'%s' is not a directory", out);
        return -1;
    }
    if (snprintf(list, sizeof(list), "%s/traces.txt", out) >= (int)sizeof(list) ||
        !realpath(out, dir)) {
        snprintf(err, errlen, "'%s': cannot resolve its path", out);
        return -1;
    }
    if (access(list, F_OK) == 0) {
        snprintf(err, errlen, "'%s' holds an export already (traces.txt)", out);
        return -1;
    }
    return 0;
}

int pz_simgrid_export(const char *trace, const struct pz_machine *m, const char *out,
                      int *nprocs, char *err, size_t errlen)
{
    return pz_simgrid_export_with_progress(trace, m, out, nprocs, NULL, err, errlen);
}

int pz_simgrid_export_with_progress(const char *trace, const struct pz_machine *m,
                                    const char *out, int *nprocs,
                                    const struct pz_progress_hook *progress, char *err,
                                    size_t errlen)
{
    char dir[PATH_MAX], name[64], why[1024];
    struct job j = { .m = m, .dir = dir, .err = why, .errlen = sizeof(why) };
    int rc = -1;

    if (!(j.in = pz_trace_in_open_with_progress(trace, progress, "records written", err,
                                                errlen)))
        return -1;
    j.run.nprocs = pz_trace_in_nprocs(j.in);
    j.run.init_start = pz_call_init_start(j.in);
    if (nprocs)
        *nprocs = j.run.nprocs;
    if (prepare(out, dir, err, errlen) != 0)
        goto out_close;
    for (j.p = 0; j.p < j.run.nprocs; j.p++) {
        why[0] = '\0';
        snprintf(name, sizeof(name), "rank-%d.txt", j.p);
        if (write_file(dir, name, write_actions, &j, err, errlen) != 0) {
            if (why[0])
                snprintf(err, errlen, "%s: %s", trace, why);
            goto out_close;
        }
    }
    if (write_file(dir, "platform.xml", write_platform, &j, err, errlen) == 0 &&
        write_file(dir, "hostfile", write_hostfile, &j, err, errlen) == 0)
        rc = write_file(dir, "traces.txt", write_list, &j, err, errlen);
out_close:
    pz_trace_in_close(j.in);
    return rc;
}
