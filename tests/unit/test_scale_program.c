/* The program model (replay/scale_program.h): programs recorded by hand at 2, 4 and 8
 * processes (scale_runs.h), an iteration loop of ITERS trips and C / P s of computation
 * per iteration, synthesized at 16 and 64 processes and compared, process by process,
 * record by record, with what the same program does at that count: its calls, peers as
 * ranks, tags, sizes, communicators, requests and computation.  The programs compute
 * their peers with plain arithmetic on MPI_Dims_create's layout (scale_runs.c), and a
 * few peers are worked out by hand below.  Then what must fail fails, naming the place,
 * and what cannot be extrapolated is noted. */
#include <criterion/criterion.h>
#include <math.h>
#include <otf2/OTF2_Events.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program.h"
#include "scale_runs.h"
#include "trace.h"

#define C 0.004     /* s: the computation of one iteration on one process; C / P at P */
#define ITERS 3
#define TAG 7

/* --- a sink keeping everything */

struct collected_comm {
    uint32_t size;
    int *members;
    int self;
    char name[64];
};

struct collected {
    struct pz_rec **recs;
    size_t *n, *cap;
    int nprocs, last_proc;
    struct collected_comm *comms;
    uint32_t ncomms;
};

static int keep_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    struct collected *c = ctx;

    c->comms = calloc(n, sizeof(*c->comms));
    c->ncomms = n;
    for (uint32_t i = 0; i < n; i++) {
        c->comms[i].size = comms[i].size;
        c->comms[i].self = comms[i].self;
        snprintf(c->comms[i].name, sizeof(c->comms[i].name), "%s", comms[i].name);
        if (comms[i].members) {
            c->comms[i].members = malloc(comms[i].size * sizeof(int));
            memcpy(c->comms[i].members, comms[i].members, comms[i].size * sizeof(int));
        }
    }
    return 0;
}

static int keep_event(void *ctx, int proc, const struct pz_rec *rec)
{
    struct collected *c = ctx;

    cr_assert(proc >= c->last_proc && proc < c->nprocs, "process %d after %d", proc,
              c->last_proc);
    c->last_proc = proc;
    if (c->n[proc] == c->cap[proc]) {
        c->cap[proc] = c->cap[proc] * 2 + 16;
        c->recs[proc] = realloc(c->recs[proc], c->cap[proc] * sizeof(struct pz_rec));
    }
    c->recs[proc][c->n[proc]++] = *rec;
    return 0;
}

static struct collected *synthesize(const struct pz_scale_program *m, int nprocs)
{
    struct collected *c = calloc(1, sizeof(*c));
    struct pz_scale_sink sink = {keep_comms, keep_event, c};
    char err[512] = "";

    c->nprocs = nprocs;
    c->recs = calloc((size_t)nprocs, sizeof(*c->recs));
    c->n = calloc((size_t)nprocs, sizeof(size_t));
    c->cap = calloc((size_t)nprocs, sizeof(size_t));
    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    return c;
}

static void collected_free(struct collected *c)
{
    for (int p = 0; p < c->nprocs; p++)
        free(c->recs[p]);
    for (uint32_t i = 0; i < c->ncomms; i++)
        free(c->comms[i].members);
    free(c->comms);
    free(c->recs);
    free(c->n);
    free(c->cap);
    free(c);
}

/* --- building and checking */

static void record(struct sr_recorded *r, int ndims, const uint8_t *periodic, sr_program prog)
{
    static const int counts[3] = {2, 4, 8};

    sr_record_at(r, counts, ndims, periodic, prog, NULL);
}

static int posts(uint8_t kind)
{
    return kind == PZ_REC_ISEND || kind == PZ_REC_IRECV_REQUEST || kind == PZ_REC_NBC_REQUEST;
}

static void check_comm(const struct collected *c, uint32_t comm, const struct sr_truth *t,
                       int p, size_t at)
{
    const struct collected_comm *cm;

    cr_assert(comm < c->ncomms, "process %d record %zu: communicator %u", p, at, comm);
    cm = &c->comms[comm];
    cr_assert_eq(cm->size, (uint32_t)t->size, "process %d record %zu: %s of %u processes, "
                 "expected %d", p, at, cm->name, cm->size, t->size);
    if (t->size == c->nprocs && t->stride == 1) {
        cr_assert(!cm->members && !cm->self, "process %d record %zu: %s, not the world", p,
                  at, cm->name);
        return;
    }
    if (t->size == 1) {
        cr_assert(cm->self, "process %d record %zu: %s, not the process alone", p, at, cm->name);
        return;
    }
    for (int i = 0; i < t->size; i++)
        cr_assert_eq(cm->members[i], t->first + i * t->stride,
                     "process %d record %zu: member %d of %s is %d, expected %d", p, at, i,
                     cm->name, cm->members[i], t->first + i * t->stride);
}

/* Every record of every process of c against what the program does at c's count: the
 * calls in order, each event's kind, peer, tag, sizes, communicator and request, the
 * computation before each call within a nanosecond, on the clock and the CPU time
 * (timing). */
static void check_run(const struct collected *c, const struct sr_run *truth, int timing)
{
    for (int p = 0; p < c->nprocs; p++) {
        const struct pz_scale_process *tp = &truth->run.procs[p];
        const struct pz_rec *r = c->recs[p];
        uint64_t *req = calloc(tp->nevents + 1, sizeof(*req));
        uint32_t *step_of = calloc(tp->nevents + 1, sizeof(*step_of));
        size_t at = 0;
        double clock = 0, cpu = 0;

        for (size_t j = 0; j < tp->nsteps; j++) {
            const struct pz_scale_step *st = &tp->steps[j];

            clock += st->gap_wall;
            cpu += st->gap_wall;
            if (st->kind != PZ_SCALE_END) {
                cr_assert(at < c->n[p], "process %d: %zu records, expected more", p, c->n[p]);
                cr_assert_eq(r[at].kind, PZ_REC_ENTER, "process %d record %zu", p, at);
                cr_assert_eq(r[at].region, st->region, "process %d step %zu: region %u, "
                             "expected %u", p, j, r[at].region, st->region);
                cr_assert(!timing || llabs((long long)r[at].time - llround(clock * 1e9)) <= 1,
                          "process %d step %zu: at %llu ns, expected %.0f", p, j,
                          (unsigned long long)r[at].time, clock * 1e9);
                if (st->kind == PZ_SCALE_CALL && timing)
                    cr_assert(llabs((long long)r[at].cpu - llround(cpu * 1e9)) <= 1,
                              "process %d step %zu: cpu %llu ns, expected %.0f", p, j,
                              (unsigned long long)r[at].cpu, cpu * 1e9);
                at++;
            }
            clock += 1e-6;  /* the calls' recorded duration (scale_runs.c) */
            for (uint32_t i = 0; i < st->n; i++, at++) {
                const struct pz_scale_event *e = &tp->events[st->first + i];
                const struct sr_truth *t = &truth->truth[p][st->first + i];

                step_of[st->first + i] = (uint32_t)j;
                cr_assert(at < c->n[p], "process %d: %zu records, expected more", p, c->n[p]);
                cr_assert_eq(r[at].kind, e->kind, "process %d step %zu event %u: kind %d, "
                             "expected %d", p, j, i, r[at].kind, e->kind);
                cr_assert_eq(r[at].peer, t->peer < 0 ? PZ_NONE32 : (uint32_t)t->peer,
                             "process %d step %zu event %u: peer %u, expected %d", p, j, i,
                             r[at].peer, t->peer);
                if (e->kind != PZ_REC_IRECV_REQUEST) {
                    cr_assert_eq(r[at].tag, e->tag, "process %d step %zu: tag", p, j);
                    if (e->comm == PZ_SCALE_NO_COMM)
                        cr_assert_eq(r[at].comm, PZ_NONE32, "process %d record %zu: a "
                                     "communicator, expected none", p, at);
                    else
                        check_comm(c, r[at].comm, t, p, at);
                }
                cr_assert_eq(r[at].bytes, e->bytes, "process %d step %zu event %u: %llu "
                             "bytes, expected %llu", p, j, i,
                             (unsigned long long)r[at].bytes, (unsigned long long)e->bytes);
                cr_assert_eq(r[at].bytes2, e->bytes2, "process %d step %zu: bytes2", p, j);
                if (posts(e->kind))
                    req[st->first + i] = r[at].request;
                if (t->posted_by > 0) {
                    /* the posting event of the call posted_by steps back */
                    const struct pz_scale_step *ps = &tp->steps[j - (size_t)t->posted_by];

                    cr_assert_eq(r[at].request, req[ps->first], "process %d step %zu: "
                                 "completes request %llu, posted as %llu", p, j,
                                 (unsigned long long)r[at].request,
                                 (unsigned long long)req[ps->first]);
                }
            }
            if (st->kind != PZ_SCALE_BEGIN) {
                cr_assert(at < c->n[p], "process %d: %zu records, expected more", p, c->n[p]);
                cr_assert_eq(r[at].kind, PZ_REC_LEAVE, "process %d record %zu", p, at);
                at++;
            }
        }
        cr_assert_eq(at, c->n[p], "process %d: %zu records, expected %zu", p, c->n[p], at);
        free(req);
        free(step_of);
    }
}

/* The whole run's computation, over all processes: ITERS * C / P within 1e-9. */
static void check_compute(const struct pz_scale_program *m)
{
    size_t i, n = pz_scale_program_ncompute(m);

    for (i = 0; i < n; i++) {
        const struct pz_scale_compute *c = pz_scale_program_compute(m, i);

        if (!strcmp(c->interval, "") && !strcmp(c->class_name, "all")) {
            for (int p = 16; p <= 64; p *= 4) {
                double t = pz_scale_model_at(&c->time, p), want = ITERS * C / p;

                cr_expect(fabs(t - want) <= 1e-9 * want, "at %d: %g s, expected %g", p, t,
                          want);
            }
            return;
        }
    }
    cr_assert_fail("no model of the whole run's computation");
}

/* Records prog at the 3 counts given, synthesizes at 16 and 64 and checks every record;
 * the run at spot_count is returned. */
static struct collected *check_program_at(const int *counts, int ndims,
                                          const uint8_t *periodic, sr_program prog,
                                          int spot_count, struct sr_recorded *r)
{
    struct collected *spot = NULL;

    sr_record_at(r, counts, ndims, periodic, prog, NULL);
    check_compute(r->m);
    for (int p = 16; p <= 64; p *= 4) {
        struct collected *c = synthesize(r->m, p);
        struct sr_run *truth = sr_build("truth", p, ndims, periodic, prog, NULL);

        check_run(c, truth, 1);
        sr_free(truth);
        if (p == spot_count)
            spot = c;
        else
            collected_free(c);
    }
    return spot;
}

/* The same, recorded at 2, 4 and 8. */
static struct collected *check_program(int ndims, const uint8_t *periodic, sr_program prog,
                                       int spot_count, struct sr_recorded *r)
{
    static const int counts[3] = {2, 4, 8};

    return check_program_at(counts, ndims, periodic, prog, spot_count, r);
}

/* --- program pieces */

static const struct sr_truth no_truth = {-1, 0, 0, 0, -1};

static struct sr_truth world(const struct sr_run *b, int peer)
{
    return (struct sr_truth){peer, 0, b->run.nprocs, 1, -1};
}

static void call(struct sr_run *b, int p, uint32_t region, double gap)
{
    sr_step(b, p, PZ_SCALE_CALL, region, gap);
}

static struct pz_scale_event ev(uint8_t kind, uint16_t comm)
{
    return (struct pz_scale_event){.kind = kind, .comm = comm, .posted_by = -1};
}

static struct pz_scale_event to(uint8_t kind, const int *off, uint32_t tag, uint64_t bytes)
{
    struct pz_scale_event e = ev(kind, SR_WORLD);

    e.peer.kind = PZ_SCALE_PEER_OFFSET;
    for (int d = 0; d < 3; d++)
        e.peer.off[d] = (int8_t)off[d];
    e.tag = tag;
    e.bytes = bytes;
    return e;
}

/* A collective of world, or of a slice with the given truth, rooted at rank root (-1
 * none). */
static void collective(struct sr_run *b, int p, uint32_t region, double gap, uint16_t comm,
                       struct sr_truth t, int root, uint64_t sent, uint64_t received)
{
    struct pz_scale_event e = ev(PZ_REC_COLL_BEGIN, comm);

    call(b, p, region, gap);
    sr_event(b, p, &e, &t);
    e.kind = PZ_REC_COLL_END;
    e.bytes = sent;
    e.bytes2 = received;
    if (root >= 0) {
        e.peer.kind = PZ_SCALE_PEER_RANK;
        e.peer.rank = root;
    }
    t.peer = root;
    sr_event(b, p, &e, &t);
}

static int steps_of(const struct sr_run *b, int p)
{
    return (int)b->run.procs[p].nsteps;
}

/* The size of a message to the neighbour at dir in a halo exchange: the side of the
 * process's block that faces it, of a problem of 65536 bytes a side split as the grid
 * splits it (65536 / dims[1] across dimension 0 of a 2-D grid, 65536 / dims[0] across
 * dimension 1; 65536 / P in 1-D), as a real stencil's halo is. */
static uint64_t side_bytes(const struct sr_run *b, const int *dir)
{
    const struct pz_scale_grid *g = &b->run.grid;

    if (g->ndims == 1)
        return 65536 / (uint64_t)g->dims[0];
    return 65536 / (uint64_t)g->dims[dir[0] != 0 ? 1 : 0];
}

/* side_bytes in 1-D and 2-D; in 3-D (6 directions) 4096 bytes: the messages across
 * dimension 2 are recorded at 8 processes only (2 x 2 x 2; 2 x 1 x 1 and 2 x 2 x 1
 * before), so their size is a constant (weak scaling). */
static uint64_t halo_bytes(const struct sr_run *b, int ndirs, const int *dir)
{
    return ndirs == 6 ? 4096 : side_bytes(b, dir);
}

/* A halo exchange with the neighbours at dirs (those that exist): receives posted,
 * sends posted, each completed by its own MPI_Wait; then C / P of computation and an
 * MPI_Allreduce of the residual.  Message size side_bytes() in 1-D and 2-D. */
static void exchange(struct sr_run *b, int p, const int *c, const int (*dirs)[3], int ndirs)
{
    int P = b->run.nprocs, recv_at[6], send_at[6];

    for (int d = 0; d < ndirs; d++) {
        struct pz_scale_event e = ev(PZ_REC_IRECV_REQUEST, SR_WORLD);

        if (sr_rank_at(b, c, dirs[d]) < 0)
            continue;
        call(b, p, SR_IRECV, 0);
        sr_event(b, p, &e, &no_truth);
        recv_at[d] = steps_of(b, p) - 1;
    }
    for (int d = 0; d < ndirs; d++) {
        struct pz_scale_event e = to(PZ_REC_ISEND, dirs[d], TAG, halo_bytes(b, ndirs, dirs[d]));
        int peer = sr_rank_at(b, c, dirs[d]);
        struct sr_truth t = world(b, peer);

        if (peer < 0)
            continue;
        call(b, p, SR_ISEND, 0);
        sr_event(b, p, &e, &t);
        send_at[d] = steps_of(b, p) - 1;
    }
    for (int d = 0; d < ndirs; d++) {
        struct pz_scale_event e = to(PZ_REC_IRECV, dirs[d], TAG, halo_bytes(b, ndirs, dirs[d]));
        int peer = sr_rank_at(b, c, dirs[d]);
        struct sr_truth t = world(b, peer);

        if (peer < 0)
            continue;
        call(b, p, SR_WAIT, 0);
        e.posted_by = t.posted_by = steps_of(b, p) - 1 - recv_at[d];
        sr_event(b, p, &e, &t);
    }
    for (int d = 0; d < ndirs; d++) {
        struct pz_scale_event e = ev(PZ_REC_ISEND_COMPLETE, SR_WORLD);
        struct sr_truth t = world(b, -1);

        if (sr_rank_at(b, c, dirs[d]) < 0)
            continue;
        call(b, p, SR_WAIT, 0);
        e.posted_by = t.posted_by = steps_of(b, p) - 1 - send_at[d];
        sr_event(b, p, &e, &t);
    }
    collective(b, p, SR_ALLREDUCE, C / P, SR_WORLD, world(b, -1), -1, 8, 8);
}

static const int dirs1[2][3] = {{-1, 0, 0}, {1, 0, 0}};
static const int dirs2[4][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}};
static const int dirs3[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1},
                                {0, 0, 1}};

static void iterations(struct sr_run *b, int p, const int *c,
                       void (*body)(struct sr_run *, int, const int *))
{
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++)
        body(b, p, c);
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

static void stencil1(struct sr_run *b, int p, const int *c)
{
    exchange(b, p, c, dirs1, 2);
}

static void stencil2(struct sr_run *b, int p, const int *c)
{
    exchange(b, p, c, dirs2, 4);
}

static void stencil3(struct sr_run *b, int p, const int *c)
{
    exchange(b, p, c, dirs3, 6);
}

static void prog_stencil1(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, stencil1);
}

static void prog_stencil2(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, stencil2);
}

static void prog_stencil3(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, stencil3);
}

/* The peers of process p's sends (ISEND records) in order. */
static int sends_of(const struct collected *c, int p, uint32_t *peers, int max)
{
    int n = 0;

    for (size_t i = 0; i < c->n[p] && n < max; i++)
        if (c->recs[p][i].kind == PZ_REC_ISEND || c->recs[p][i].kind == PZ_REC_SEND)
            peers[n++] = c->recs[p][i].peer;
    return n;
}

/* --- the programs */

Test(scale_program, stencil_1d_not_periodic)
{
    struct sr_recorded r;
    struct collected *c = check_program(1, NULL, prog_stencil1, 16, &r);
    uint32_t peers[8];

    /* 16 in a row: process 0 sends east only (to 1), 15 west only (to 14), 5 to 4 and 6,
     * each iteration; 65536 / 16 = 4096 bytes */
    cr_expect_eq(sends_of(c, 0, peers, 8), ITERS);
    cr_expect_eq(peers[0], 1);
    cr_expect_eq(sends_of(c, 15, peers, 8), ITERS);
    cr_expect_eq(peers[0], 14);
    cr_expect_eq(sends_of(c, 5, peers, 8), 2 * ITERS);
    cr_expect(peers[0] == 4 && peers[1] == 6);
    /* the world and the process alone, nothing else */
    cr_expect_eq(c->ncomms, 2);
    collected_free(c);
    sr_recorded_free(&r);
}

static void ring(struct sr_run *b, int p, const int *c)
{
    sr_ring_iteration(b, p, c, TAG, 1024, C / b->run.nprocs);
}

static void prog_ring(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, ring);
}

Test(scale_program, ring_1d_periodic)
{
    static const uint8_t periodic[3] = {1, 0, 0};
    struct sr_recorded r;
    struct collected *c = check_program(1, periodic, prog_ring, 16, &r);
    uint32_t peers[8];

    /* the ring wraps: 15 sends to 0, and 0 receives from 15 (record 5: after the Enters
     * of the interval and of MPI_Isend, the ISEND, the Leave and the Enter of MPI_Recv) */
    cr_expect_eq(sends_of(c, 15, peers, 8), ITERS);
    cr_expect_eq(peers[0], 0);
    cr_expect_eq(c->recs[0][5].kind, PZ_REC_RECV);
    cr_expect_eq(c->recs[0][5].peer, 15);
    collected_free(c);
    sr_recorded_free(&r);
}

Test(scale_program, stencil_2d_not_periodic)
{
    struct sr_recorded r;
    struct collected *c = check_program(2, NULL, prog_stencil2, 16, &r);
    uint32_t peers[16];

    /* 4 x 4: process 5 at (1, 1) sends north to 1, south to 9, west to 4, east to 6;
     * corner 0 at (0, 0) south to 4 and east to 1; edge 7 at (1, 3) to 3, 11 and 6 */
    cr_expect_eq(sends_of(c, 5, peers, 16), 4 * ITERS);
    cr_expect(peers[0] == 1 && peers[1] == 9 && peers[2] == 4 && peers[3] == 6);
    cr_expect_eq(sends_of(c, 0, peers, 16), 2 * ITERS);
    cr_expect(peers[0] == 4 && peers[1] == 1);
    cr_expect_eq(sends_of(c, 7, peers, 16), 3 * ITERS);
    cr_expect(peers[0] == 3 && peers[1] == 11 && peers[2] == 6);
    collected_free(c);
    sr_recorded_free(&r);
}

/* A halo exchange by one MPI_Sendrecv per direction, peers by rank arithmetic, as
 * CloverLeaf-like codes trade halos: the call is made everywhere, its send only where
 * the neighbour it sends to exists, its receive only where the one it receives from
 * does (MPI_PROC_NULL records no message).  Then C / P of computation and an
 * MPI_Allreduce. */
static void sendrecv_pairs(struct sr_run *b, int p, const int *c)
{
    int P = b->run.nprocs;

    for (int d = 0; d < 4; d++) {
        const int *from = dirs2[d ^ 1];     /* sending at dirs2[d], receiving from opposite */
        int dest = sr_rank_at(b, c, dirs2[d]), source = sr_rank_at(b, c, from);

        call(b, p, SR_SENDRECV, 0);
        if (dest >= 0) {
            struct pz_scale_event e = to(PZ_REC_SEND, dirs2[d], TAG + (uint32_t)d, 1024);
            struct sr_truth t = world(b, dest);

            sr_event(b, p, &e, &t);
        }
        if (source >= 0) {
            struct pz_scale_event e = to(PZ_REC_RECV, from, TAG + (uint32_t)d, 1024);
            struct sr_truth t = world(b, source);

            sr_event(b, p, &e, &t);
        }
    }
    collective(b, p, SR_ALLREDUCE, C / P, SR_WORLD, world(b, -1), -1, 8, 8);
}

static void prog_sendrecv_pairs(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, sendrecv_pairs);
}

/* Recorded at 2 x 1, 2 x 2 and 4 x 2, no process has both neighbours along dimension 1:
 * every recorded Sendrecv along it sends only or receives only.  At 4 x 4 (rank 4 x +
 * y) the processes at y = 1 and 2 are in the middle of dimension 1 and make both halves
 * in one call (check_program compares every record): process 5 at (1, 1) sends to 1,
 * 9, 4 and 6 each iteration (dirs2 in order: north, south, west, east); process 1 at
 * (0, 1), with no north, sends to 5, 0 and 2. */
Test(scale_program, sendrecv_halves_recorded_apart_make_one_call_in_the_middle)
{
    struct sr_recorded r;
    struct collected *c = check_program(2, NULL, prog_sendrecv_pairs, 16, &r);
    uint32_t peers[16];

    cr_expect_eq(sends_of(c, 5, peers, 16), 4 * ITERS);
    cr_expect(peers[0] == 1 && peers[1] == 9 && peers[2] == 4 && peers[3] == 6);
    cr_expect_eq(sends_of(c, 1, peers, 16), 3 * ITERS);
    cr_expect(peers[0] == 5 && peers[1] == 0 && peers[2] == 2);
    collected_free(c);
    sr_recorded_free(&r);
}

/* A cursor's records, kept like the sink's (without its order check). */
static int keep_cursor_record(void *ctx, int proc, const struct pz_rec *rec)
{
    struct collected *c = ctx;

    if (c->n[proc] == c->cap[proc]) {
        c->cap[proc] = c->cap[proc] * 2 + 16;
        c->recs[proc] = realloc(c->recs[proc], c->cap[proc] * sizeof(struct pz_rec));
    }
    c->recs[proc][c->n[proc]++] = *rec;
    return 0;
}

/* The cursors of the 16 processes stepped in turn, the last process first, one step
 * each per round, as the replay interleaves them: each process's records are exactly
 * those the sink got, in the same order; and the communicators are the sink's. */
Test(scale_program, cursors_in_any_interleaving_give_the_sinks_records)
{
    enum { P = 16 };
    struct sr_recorded r;
    struct collected *sunk, cursed = { 0 };
    struct pz_scale_cursor *cur[P];
    struct pz_scale_synth *s;
    const struct pz_synth_comm *comms;
    size_t nrecs[P] = { 0 }, caps[P] = { 0 };
    struct pz_rec *recs[P] = { 0 };
    char err[512] = "";
    uint32_t ncomms;
    int live = P;

    record(&r, 2, NULL, prog_stencil2);
    sunk = synthesize(r.m, P);
    s = pz_scale_synth_new(r.m, P, err, sizeof(err));
    cr_assert(s, "%s", err);
    comms = pz_scale_synth_comms(s, &ncomms);
    cr_assert_eq(ncomms, sunk->ncomms);
    for (uint32_t i = 0; i < ncomms; i++) {
        cr_expect_eq(comms[i].size, sunk->comms[i].size, "communicator %u", i);
        cr_expect_str_eq(comms[i].name, sunk->comms[i].name);
    }
    cursed.recs = recs;
    cursed.n = nrecs;
    cursed.cap = caps;
    cursed.nprocs = P;
    for (int p = 0; p < P; p++)
        cr_assert(cur[p] = pz_scale_cursor_new(s, p));
    while (live > 0) {
        for (int p = P - 1; p >= 0; p--) {
            int rc;

            if (!cur[p])
                continue;
            rc = pz_scale_cursor_next(cur[p], keep_cursor_record, &cursed, err, sizeof(err));
            cr_assert(rc >= 0, "%s", err);
            if (rc == 0) {
                pz_scale_cursor_free(cur[p]);
                cur[p] = NULL;
                live--;
            }
        }
    }
    for (int p = 0; p < P; p++) {
        cr_assert_eq(nrecs[p], sunk->n[p], "process %d: %zu records, the sink's %zu", p,
                     nrecs[p], sunk->n[p]);
        /* blank() zeroes every record before filling it: the bytes compare */
        cr_expect(memcmp(recs[p], sunk->recs[p], nrecs[p] * sizeof(struct pz_rec)) == 0,
                  "process %d: a record differs", p);
        free(recs[p]);
    }
    pz_scale_synth_free(s);
    collected_free(sunk);
    sr_recorded_free(&r);
}

Test(scale_program, stencil_3d_periodic_in_one_dimension)
{
    /* 2 x 1 x 1, 2 x 2 x 1 and 3 x 2 x 2: the last tells the neighbours of dimension 0
     * apart (in the others, periodic and of 2 processes, they are one) */
    static const int counts[3] = {2, 4, 12};
    static const uint8_t periodic[3] = {1, 0, 0};
    struct sr_recorded r;
    struct collected *c = check_program_at(counts, 3, periodic, prog_stencil3, 64, &r);
    uint32_t peers[32];

    /* 64 = 4 x 4 x 4, rank 16 i + 4 j + k, dimension 0 periodic: process 0 at (0, 0, 0)
     * sends up to (3, 0, 0) = 48 round the ring, down to 16, and to 4 and 1 only in the
     * others; 21 at (1, 1, 1) to 5, 37, 17, 25, 20, 22 */
    cr_expect_eq(sends_of(c, 0, peers, 32), 4 * ITERS);
    cr_expect(peers[0] == 48 && peers[1] == 16 && peers[2] == 4 && peers[3] == 1);
    cr_expect_eq(sends_of(c, 21, peers, 32), 6 * ITERS);
    cr_expect(peers[0] == 5 && peers[1] == 37 && peers[2] == 17 && peers[3] == 25 &&
              peers[4] == 20 && peers[5] == 22);
    collected_free(c);
    sr_recorded_free(&r);
}

static void rows_and_columns(struct sr_run *b, int p, const int *c)
{
    int P = b->run.nprocs, rows = b->run.grid.dims[0], cols = b->run.grid.dims[1];
    struct sr_truth row = {-1, c[0] * cols, cols, 1, -1}, col = {-1, c[1], rows, cols, -1};

    collective(b, p, SR_ALLREDUCE, C / P, SR_ROW, row, -1, 8, 8);
    collective(b, p, SR_ALLREDUCE, 0, SR_COLUMN, col, -1, 8, 8);
}

static void prog_rows(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, rows_and_columns);
}

Test(scale_program, row_and_column_communicators)
{
    struct sr_recorded r;
    struct collected *c = check_program(2, NULL, prog_rows, 16, &r);

    /* 4 x 4: the world, the process alone, 4 rows, 4 columns; row 1 is 4..7, column 2 is
     * 2, 6, 10, 14 */
    cr_assert_eq(c->ncomms, 2 + 4 + 4);
    for (uint32_t i = 2; i < c->ncomms; i++) {
        if (!strcmp(c->comms[i].name, "row 1"))
            cr_expect(c->comms[i].members[0] == 4 && c->comms[i].members[3] == 7);
        if (!strcmp(c->comms[i].name, "column 2"))
            cr_expect(c->comms[i].members[0] == 2 && c->comms[i].members[1] == 6 &&
                      c->comms[i].members[3] == 14);
    }
    collected_free(c);
    sr_recorded_free(&r);
}

static void all_to_all(struct sr_run *b, int p, const int *c)
{
    int P = b->run.nprocs;

    (void)c;
    collective(b, p, SR_ALLTOALL, C / P, SR_WORLD, world(b, -1), -1, 8 * (uint64_t)P,
               8 * (uint64_t)P);
}

static void prog_alltoall(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, all_to_all);
}

Test(scale_program, all_to_all)
{
    struct sr_recorded r;
    struct collected *c = check_program(1, NULL, prog_alltoall, 64, &r);

    /* 8 bytes to each of 64 processes: 512 sent, 512 received (record 2: after the
     * interval's Enter and the call's Enter, the COLL_BEGIN; 3 the COLL_END) */
    cr_expect_eq(c->recs[9][3].kind, PZ_REC_COLL_END);
    cr_expect_eq(c->recs[9][3].bytes, 512);
    collected_free(c);
    sr_recorded_free(&r);
}

static void reduce_bcast(struct sr_run *b, int p, const int *c)
{
    int P = b->run.nprocs;

    (void)c;
    collective(b, p, SR_REDUCE, C / P, SR_WORLD, world(b, -1), 0, 8, 8);
    collective(b, p, SR_BCAST, 0, SR_WORLD, world(b, -1), 0, 8, 8);
}

static void prog_reduce(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, reduce_bcast);
}

Test(scale_program, reduce_and_broadcast_to_root_0)
{
    struct sr_recorded r;
    struct collected *c = check_program(1, NULL, prog_reduce, 16, &r);

    cr_expect_eq(c->recs[11][3].peer, 0);
    collected_free(c);
    sr_recorded_free(&r);
}

/* An iteration loop of MPI_Allreduce whose computation alternates between C / P / 2
 * and 3 C / (2 P) from process to process and from iteration to iteration: its mean is
 * C / P at every count, half of the processes computing each in every iteration. */
static void prog_uneven(struct sr_run *b, int p, const int *c, void *arg)
{
    int P = b->run.nprocs;

    (void)c;
    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++)
        collective(b, p, SR_ALLREDUCE, C / P * ((p + i) % 2 ? 1.5 : 0.5), SR_WORLD,
                   world(b, -1), -1, 8, 8);
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

Test(scale_program, computations_vary_as_recorded)
{
    /* The mean is C / P = 250 us at 16.  Every computation before an MPI_Allreduce was
     * recorded at 0.5 or 1.5 times its mean, so each synthesized one is 125 us or 375
     * us, not always the mean: the processes do not all reach the call at the same
     * instant.  The CPU time at each MPI_Allreduce's Enter is the computation so far (the
     * interval's begin and end compute nothing). */
    struct sr_recorded r;
    struct collected *c;
    int seen[2] = {0, 0};

    record(&r, 1, NULL, prog_uneven);
    c = synthesize(r.m, 16);
    for (int p = 0; p < 16; p++) {
        uint64_t before = 0;

        for (size_t i = 0; i < c->n[p]; i++) {
            const struct pz_rec *rec = &c->recs[p][i];
            long long gap;

            if (rec->kind != PZ_REC_ENTER || rec->region != SR_ALLREDUCE)
                continue;
            gap = (long long)(rec->cpu - before);
            cr_assert(llabs(gap - 125000) <= 1 || llabs(gap - 375000) <= 1,
                      "process %d: %lld ns of computation before MPI_Allreduce, expected "
                      "125000 or 375000", p, gap);
            seen[gap > 250000]++;
            before = rec->cpu;
        }
    }
    cr_expect_eq(seen[0] + seen[1], 16 * ITERS);
    cr_expect(seen[0] > 0 && seen[1] > 0, "%d short and %d long computations", seen[0],
              seen[1]);
    collected_free(c);
    sr_recorded_free(&r);
}

/* Whether a note of m contains text. */
static int has_note(const struct pz_scale_program *m, const char *text)
{
    for (size_t i = 0; i < pz_scale_program_nnotes(m); i++)
        if (strstr(pz_scale_program_note(m, i), text))
            return 1;
    return 0;
}

/* The 1-D stencil's iterations, each followed by an MPI_File_write_at_all (a call of no
 * messages, as the recorder writes MPI-IO: its I/O records are not the scaling's). */
static void prog_io(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    for (int i = 0; i < ITERS; i++) {
        stencil1(b, p, c);
        call(b, p, SR_FILE_WRITE_ALL, 0);
    }
}

/* How many times process p of c enters region. */
static int entered(const struct collected *c, int p, uint32_t region)
{
    int n = 0;

    for (size_t i = 0; i < c->n[p]; i++)
        n += c->recs[p][i].kind == PZ_REC_ENTER && c->recs[p][i].region == region;
    return n;
}

Test(scale_program, mpi_io_is_synthesized_at_its_recorded_time_and_noted)
{
    struct sr_recorded r, plain;
    struct collected *c;

    record(&r, 1, NULL, prog_io);
    cr_expect(has_note(r.m, "MPI-IO (MPI_File_write_at_all): synthesized as calls that "
                       "last their mean time"));
    c = synthesize(r.m, 16);
    for (int p = 0; p < 16; p++)
        cr_expect_eq(entered(c, p, SR_FILE_WRITE_ALL), ITERS, "process %d", p);
    collected_free(c);
    sr_recorded_free(&r);
    record(&plain, 1, NULL, prog_stencil1);
    cr_expect(!has_note(plain.m, "MPI-IO"));
    sr_recorded_free(&plain);
}

/* The same loop warming up: every process computes 2 C / P in the first iteration and
 * C / (2 P) in the others, a mean of C / P over the ITERS = 3 iterations. */
static void prog_warming_up(struct sr_run *b, int p, const int *c, void *arg)
{
    int P = b->run.nprocs;

    (void)c;
    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++)
        collective(b, p, SR_ALLREDUCE, C / P * (i == 0 ? 2 : 0.5), SR_WORLD, world(b, -1),
                   -1, 8, 8);
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

Test(scale_program, computations_vary_pass_by_pass_as_recorded)
{
    /* The mean is C / 16 = 250 us at 16; the first pass was recorded at twice the mean
     * everywhere, the others at half of it, so every process computes 500 us before its
     * first MPI_Allreduce and 125 us before the others: a warm-up stays where it was,
     * it is not spread over the iterations. */
    static const long long want[ITERS] = {500000, 125000, 125000};
    struct sr_recorded r;
    struct collected *c;

    record(&r, 1, NULL, prog_warming_up);
    c = synthesize(r.m, 16);
    for (int p = 0; p < 16; p++) {
        uint64_t before = 0;
        int pass = 0;

        for (size_t i = 0; i < c->n[p]; i++) {
            const struct pz_rec *rec = &c->recs[p][i];

            if (rec->kind != PZ_REC_ENTER || rec->region != SR_ALLREDUCE)
                continue;
            cr_assert(pass < ITERS, "process %d: more than %d MPI_Allreduce", p, ITERS);
            cr_expect(llabs((long long)(rec->cpu - before) - want[pass]) <= 1,
                      "process %d pass %d: %lld ns of computation, expected %lld", p, pass,
                      (long long)(rec->cpu - before), want[pass]);
            before = rec->cpu;
            pass++;
        }
    }
    collected_free(c);
    sr_recorded_free(&r);
}

/* A wavefront: receive from west and north, compute, send east and south. */
static void wave(struct sr_run *b, int p, const int *c)
{
    static const int west[3] = {0, -1, 0}, north[3] = {-1, 0, 0}, east[3] = {0, 1, 0},
                     south[3] = {1, 0, 0};
    const int *from[2] = {west, north}, *towards[2] = {east, south};
    int P = b->run.nprocs;
    double gap = C / P;

    for (int i = 0; i < 2; i++) {
        struct pz_scale_event e = to(PZ_REC_RECV, from[i], TAG, 512);
        struct sr_truth t = world(b, sr_rank_at(b, c, from[i]));

        if (t.peer < 0)
            continue;
        call(b, p, SR_RECV, 0);
        sr_event(b, p, &e, &t);
    }
    for (int i = 0; i < 2; i++) {
        struct pz_scale_event e = to(PZ_REC_SEND, towards[i], TAG, 512);
        struct sr_truth t = world(b, sr_rank_at(b, c, towards[i]));

        if (t.peer < 0)
            continue;
        call(b, p, SR_SEND, gap);
        gap = 0;
        sr_event(b, p, &e, &t);
    }
    /* the last process, which sends nothing, computes before the barrier */
    collective(b, p, SR_BARRIER, gap, SR_WORLD, world(b, -1), -1, 0, 0);
}

static void prog_wave(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, wave);
}

Test(scale_program, wavefront)
{
    struct sr_recorded r;
    struct collected *c = check_program(2, NULL, prog_wave, 16, &r);
    uint32_t peers[16];

    /* 4 x 4: 5 at (1, 1) sends east to 6 and south to 9; 15 at (3, 3) sends nothing */
    cr_expect_eq(sends_of(c, 5, peers, 16), 2 * ITERS);
    cr_expect(peers[0] == 6 && peers[1] == 9);
    cr_expect_eq(sends_of(c, 15, peers, 16), 0);
    collected_free(c);
    sr_recorded_free(&r);
}

/* A pipeline: every stage but the first receives a chunk from the previous one, every
 * stage filters it, every stage but the last sends it on.  The filtering takes C on
 * every process, but the recording at 8 was slower, and at 4 a little: C times 1.00,
 * 1.02 and 1.12 at 2, 4 and 8.  The last stage, which sends nothing, filters before the
 * barrier closing each iteration. */
static void prog_slow_stages(struct sr_run *b, int p, const int *c, void *arg)
{
    static const int prev[3] = {-1, 0, 0}, next[3] = {1, 0, 0};
    int P = b->run.nprocs;
    double gap = C * (P == 2 ? 1.00 : P == 4 ? 1.02 : 1.12);

    (void)arg;
    for (int i = 0; i < ITERS; i++) {
        struct pz_scale_event in = to(PZ_REC_RECV, prev, TAG, 512);
        struct pz_scale_event out = to(PZ_REC_SEND, next, TAG, 512);
        struct sr_truth from = world(b, sr_rank_at(b, c, prev));
        struct sr_truth towards = world(b, sr_rank_at(b, c, next));
        double before_barrier = gap;

        if (from.peer >= 0) {
            call(b, p, SR_RECV, 0);
            sr_event(b, p, &in, &from);
        }
        if (towards.peer >= 0) {
            call(b, p, SR_SEND, gap);
            sr_event(b, p, &out, &towards);
            before_barrier = 0;
        }
        collective(b, p, SR_BARRIER, before_barrier, SR_WORLD, world(b, -1), -1, 0, 0);
    }
}

Test(scale_program, a_constant_computation_of_a_class_absent_at_the_smallest_count)
{
    /* The interior stages (a receive, then the filtering before the send) exist at 4
     * and 8 only: 1.02 C and 1.12 C, two counts that no exact form joins, too few for
     * a fit of their own, and so is the pair of steps around their computation (a
     * receive, then the send).  They take the model of the computations after a
     * receive (interior and last stages: 1.00 C at 2, 1.02 C at 4, 1.12 C at 8, none
     * spread within a recording; before a send, first and interior stages, the same),
     * whose change from 2 to 4, 0.02 / 1.01 = 1.98%, is noise (scale_fit.h): the
     * constant, their mean 3.14 / 3 C, at every count, at the level of the pair's: the
     * mean ratio (1.02 + 1.12) / 2 / (3.14 / 3), so 1.07 C = 4280000 ns.  The growth
     * fitted to the 0.1 at 8 otherwise, the least squares c0 + c1 * P^2 (terms 4, 16,
     * 64; c1 = 4.08 / 2016 C, c0 = 0.99 C), gives 1.51 C at 16 and 9.28 C at 64. */
    struct sr_recorded r;

    record(&r, 1, NULL, prog_slow_stages);
    for (int P = 16; P <= 64; P *= 4) {
        struct collected *c = synthesize(r.m, P);

        for (int p = 1; p < P - 1; p++) {
            uint64_t before = 0;
            int sends = 0;

            for (size_t i = 0; i < c->n[p]; i++) {
                const struct pz_rec *rec = &c->recs[p][i];

                if (rec->kind != PZ_REC_ENTER || rec->region != SR_SEND) {
                    if (rec->kind == PZ_REC_ENTER)
                        before = rec->cpu;
                    continue;
                }
                cr_expect(llabs((long long)(rec->cpu - before) - 4280000) <= 1,
                          "at %d, process %d: %lld ns of computation before its send, "
                          "expected 4280000", P, p, (long long)(rec->cpu - before));
                before = rec->cpu;
                sends++;
            }
            cr_expect_eq(sends, ITERS, "at %d, process %d: %d sends", P, p, sends);
        }
        collected_free(c);
    }
    sr_recorded_free(&r);
}

/* --- what must fail, what is noted */

static void prog_extra(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, stencil1);
    if (b->run.nprocs == 4)
        collective(b, p, SR_BARRIER, 0, SR_WORLD, world(b, -1), -1, 0, 0);
}

Test(scale_program, a_call_one_recording_has_more_is_named)
{
    static const int counts[3] = {2, 4, 8};
    struct sr_run *runs[3];
    const struct pz_scale_run *list[3];
    char err[512] = "", path[32];

    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "run%d", counts[i]);
        runs[i] = sr_build(path, counts[i], 1, NULL, prog_extra, NULL);
        list[i] = &runs[i]->run;
    }
    cr_assert_null(pz_scale_program_build(list, 3, 0, err, sizeof(err)));
    /* the recording, the process, the interval (none: after it) and the call */
    cr_expect(strstr(err, "run4") && strstr(err, "process 0") && strstr(err, "MPI_Barrier") &&
              strstr(err, "call 1"), "%s", err);
    for (int i = 0; i < 3; i++)
        sr_free(runs[i]);
}

/* Two recordings at one count are refused, the count in words: "1 process", "2
 * processes". */
Test(scale_program, two_recordings_at_one_count_are_named)
{
    static const int counts[2][2] = {{1, 1}, {2, 2}};
    static const char *const said[2] = {"both recorded at 1 process", "both recorded at 2 processes"};

    for (int k = 0; k < 2; k++) {
        struct sr_run *runs[2];
        const struct pz_scale_run *list[2];
        char err[512] = "", path[32];

        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof(path), "run%c", 'a' + i);
            runs[i] = sr_build(path, counts[k][i], 1, NULL, prog_stencil1, NULL);
            list[i] = &runs[i]->run;
        }
        cr_assert_null(pz_scale_program_build(list, 2, 0, err, sizeof(err)));
        cr_expect(strstr(err, "runa and runb: ") && strstr(err, said[k]) &&
                  (k || !strstr(err, "processes")), "%s", err);
        for (int i = 0; i < 2; i++)
            sr_free(runs[i]);
    }
}

/* At 4 processes, process 2 makes an MPI_Barrier in the second iteration, after its
 * waits (its 11th call of the interval: 2 Irecv, 2 Isend, 4 Wait, the Allreduce of the
 * first iteration make 9, then 2 Irecv, 2 Isend, 4 Wait, so the 19th). */
static void prog_extra_inside(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++) {
        stencil1(b, p, c);
        if (b->run.nprocs == 4 && p == 2 && i == 1)
            collective(b, p, SR_BARRIER, 0, SR_WORLD, world(b, -1), -1, 0, 0);
    }
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

Test(scale_program, a_call_inside_an_interval_one_process_has_more_is_named)
{
    static const int counts[3] = {2, 4, 8};
    struct sr_run *runs[3];
    const struct pz_scale_run *list[3];
    char err[512] = "", path[32];

    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "run%d", counts[i]);
        runs[i] = sr_build(path, counts[i], 1, NULL, prog_extra_inside, NULL);
        list[i] = &runs[i]->run;
    }
    cr_assert_null(pz_scale_program_build(list, 3, 0, err, sizeof(err)));
    cr_expect(strstr(err, "run4") && strstr(err, "process 2") &&
              strstr(err, "interval 'interval 1 at app.c:10'") && strstr(err, "MPI_Barrier"),
              "%s", err);
    for (int i = 0; i < 3; i++)
        sr_free(runs[i]);
}

/* Master-worker: each worker sends one result per round to rank 0, which receives the
 * P - 1 of them from MPI_ANY_SOURCE. */
static void prog_master(struct sr_run *b, int p, const int *c, void *arg)
{
    int P = b->run.nprocs;

    (void)arg;
    (void)c;
    for (int round = 0; round < ITERS; round++) {
        if (p == 0) {
            for (int w = 1; w < P; w++) {
                struct pz_scale_event e = ev(PZ_REC_RECV, SR_WORLD);
                struct sr_truth t = world(b, w);

                e.peer.kind = PZ_SCALE_PEER_ANY;
                e.tag = TAG;
                e.bytes = 64;
                call(b, p, SR_RECV, w == 1 ? C / P : 0);
                sr_event(b, p, &e, &t);
            }
        } else {
            struct pz_scale_event e = ev(PZ_REC_SEND, SR_WORLD);
            struct sr_truth t = world(b, 0);

            e.peer.kind = PZ_SCALE_PEER_RANK;
            e.tag = TAG;
            e.bytes = 64;
            call(b, p, SR_SEND, C / P);
            sr_event(b, p, &e, &t);
        }
    }
}

Test(scale_program, any_source_receives_are_noted)
{
    struct sr_recorded r;
    struct collected *c;
    struct sr_run *truth;
    int noted = 0;

    record(&r, 1, NULL, prog_master);
    for (size_t i = 0; i < pz_scale_program_nnotes(r.m); i++)
        noted |= strstr(pz_scale_program_note(r.m, i), "MPI_ANY_SOURCE") != NULL;
    cr_expect(noted, "no note of the receives from any source");
    /* at 16: rank 0 receives 15 per round, from 1, 2, ... 15 in turn (the note's
     * treatment), and every worker sends to 0.  Not the times: the receives of all the
     * rounds fold into one loop of 3 (P - 1) trips, whose computation is the mean over
     * the trips (C / P once per round), a form of P that none of the exact ones is. */
    c = synthesize(r.m, 16);
    truth = sr_build("truth", 16, 1, NULL, prog_master, NULL);
    check_run(c, truth, 0);
    sr_free(truth);
    collected_free(c);
    sr_recorded_free(&r);
}

Test(scale_program, requests_match_their_posting_calls)
{
    struct sr_recorded r;
    struct collected *c;

    record(&r, 1, NULL, prog_stencil1);
    c = synthesize(r.m, 16);
    /* process 5: Irecv west (record 2 and 3: Enter, IrecvRequest), Irecv east, Isend
     * west, Isend east, then the four waits in the same order: requests 1, 2, 3, 4 as
     * posted, completed by records of the same ids */
    {
        uint64_t posted[4], done[4];
        int np = 0, nd = 0;

        for (size_t i = 0; i < c->n[5] && nd < 4; i++) {
            const struct pz_rec *x = &c->recs[5][i];

            if ((x->kind == PZ_REC_IRECV_REQUEST || x->kind == PZ_REC_ISEND) && np < 4)
                posted[np++] = x->request;
            if (x->kind == PZ_REC_IRECV || x->kind == PZ_REC_ISEND_COMPLETE)
                done[nd++] = x->request;
        }
        cr_assert(np == 4 && nd == 4);
        for (int i = 0; i < 4; i++) {
            cr_expect_eq(posted[i], (uint64_t)i + 1);
            cr_expect_eq(done[i], posted[i]);
        }
    }
    collected_free(c);
    sr_recorded_free(&r);
}

/* --- completions of calls over many requests */

/* A halo exchange as tests/programs/scale_grid.c makes it: for each neighbour at dirs that
 * exists, in order, an MPI_Irecv from it and an MPI_Isend to it; then ONE MPI_Waitall of
 * all the requests, which records their completions in the order they were posted (the
 * order of the request array): a receive's (MPI_IRECV, the sender, the size) and a
 * send's (ISEND_COMPLETE, no communicator).  Then C / P of computation and an
 * MPI_Allreduce.  Message size side_bytes(). */
static void exchange_waitall(struct sr_run *b, int p, const int *c, const int (*dirs)[3],
                             int ndirs)
{
    int P = b->run.nprocs, recv_at[6], send_at[6], waitall;

    for (int d = 0; d < ndirs; d++) {
        struct pz_scale_event e = ev(PZ_REC_IRECV_REQUEST, SR_WORLD);
        int peer = sr_rank_at(b, c, dirs[d]);
        struct sr_truth t = world(b, peer);

        if (peer < 0)
            continue;
        call(b, p, SR_IRECV, 0);
        sr_event(b, p, &e, &no_truth);
        recv_at[d] = steps_of(b, p) - 1;
        e = to(PZ_REC_ISEND, dirs[d], TAG, side_bytes(b, dirs[d]));
        call(b, p, SR_ISEND, 0);
        sr_event(b, p, &e, &t);
        send_at[d] = steps_of(b, p) - 1;
    }
    call(b, p, SR_WAITALL, 0);
    waitall = steps_of(b, p) - 1;
    for (int d = 0; d < ndirs; d++) {
        struct pz_scale_event e = to(PZ_REC_IRECV, dirs[d], TAG, side_bytes(b, dirs[d]));
        int peer = sr_rank_at(b, c, dirs[d]);
        struct sr_truth t = world(b, peer);

        if (peer < 0)
            continue;
        e.posted_by = t.posted_by = waitall - recv_at[d];
        sr_event(b, p, &e, &t);
        e = ev(PZ_REC_ISEND_COMPLETE, PZ_SCALE_NO_COMM);
        t = no_truth;
        e.posted_by = t.posted_by = waitall - send_at[d];
        sr_event(b, p, &e, &t);
    }
    collective(b, p, SR_ALLREDUCE, C / P, SR_WORLD, world(b, -1), -1, 8, 8);
}

static void waitall1(struct sr_run *b, int p, const int *c)
{
    exchange_waitall(b, p, c, dirs1, 2);
}

static void waitall2(struct sr_run *b, int p, const int *c)
{
    exchange_waitall(b, p, c, dirs2, 4);
}

static void prog_waitall1(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, waitall1);
}

static void prog_waitall2(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, waitall2);
}

/* The records of process p inside its n-th call (from 0) to region: up to max, their
 * number. */
static int inside_call(const struct collected *c, int p, uint32_t region, int n,
                       const struct pz_rec **out, int max)
{
    int seen = -1, k = 0;

    for (size_t i = 0; i < c->n[p]; i++) {
        const struct pz_rec *x = &c->recs[p][i];

        if (x->kind == PZ_REC_ENTER && x->region == region && ++seen == n) {
            for (i++; i < c->n[p] && c->recs[p][i].kind != PZ_REC_LEAVE && k < max; i++)
                out[k++] = &c->recs[p][i];
            return k;
        }
    }
    return -1;
}

/* The requests of process p's first iteration as posted, in order (IRECV_REQUEST and
 * ISEND records): their number. */
static int first_postings(const struct collected *c, int p, uint64_t *ids, int max)
{
    int n = 0;

    for (size_t i = 0; i < c->n[p] && n < max; i++) {
        const struct pz_rec *x = &c->recs[p][i];

        if (x->kind == PZ_REC_ENTER && x->region == SR_WAITALL)
            break;
        if (x->kind == PZ_REC_IRECV_REQUEST || x->kind == PZ_REC_ISEND)
            ids[n++] = x->request;
    }
    return n;
}

/* The first Waitall of process p completes, in order, a receive from each of senders
 * (n of them) and the send after it, with the ids of the requests posted before it, in
 * posting order. */
static void expect_waitall(const struct collected *c, int p, const uint32_t *senders, int n)
{
    const struct pz_rec *in[32];
    uint64_t posted[32];
    int k = inside_call(c, p, SR_WAITALL, 0, in, 32);

    cr_assert_eq(first_postings(c, p, posted, 32), 2 * n, "process %d: %d requests posted",
                 p, first_postings(c, p, posted, 32));
    cr_assert_eq(k, 2 * n, "process %d: a Waitall of %d completions, expected %d", p, k, 2 * n);
    for (int i = 0; i < n; i++) {
        cr_expect_eq(in[2 * i]->kind, PZ_REC_IRECV, "process %d completion %d", p, 2 * i);
        cr_expect_eq(in[2 * i]->peer, senders[i], "process %d completion %d: from %u, "
                     "expected %u", p, 2 * i, in[2 * i]->peer, senders[i]);
        cr_expect_eq(in[2 * i + 1]->kind, PZ_REC_ISEND_COMPLETE, "process %d completion %d",
                     p, 2 * i + 1);
    }
    for (int i = 0; i < 2 * n; i++) {
        cr_expect_eq(posted[i], (uint64_t)i + 1, "process %d: request %d posted as %llu", p,
                     i, (unsigned long long)posted[i]);
        cr_expect_eq(in[i]->request, posted[i], "process %d completion %d: request %llu, "
                     "posted as %llu", p, i, (unsigned long long)in[i]->request,
                     (unsigned long long)posted[i]);
    }
}

Test(scale_program, stencil_2d_one_waitall)
{
    struct sr_recorded r;
    struct collected *c = check_program(2, NULL, prog_waitall2, 16, &r);
    /* recorded at 2 x 1, 2 x 2 and 4 x 2: no process of any recording has 4 neighbours
     * (4 x 2 has 2 columns), so no recorded Waitall completes 8 requests.  At 16 (4 x 4,
     * rank 4 i + j, neighbours north, south, west, east as dirs2 orders them): process 5
     * at (1, 1) posts 4 Irecv and 4 Isend (requests 1 to 8, to and from 1, 9, 4, 6) and
     * its Waitall completes the 8, receives from 1, 9, 4, 6 each followed by the
     * completion of the send to the same neighbour; corner 0 at (0, 0) has south 4 and
     * east 1: 2 Irecv, 2 Isend and 4 completions; edge 7 at (1, 3) has 3, 11 and 6: 6. */
    static const uint32_t of5[4] = {1, 9, 4, 6}, of0[2] = {4, 1}, of7[3] = {3, 11, 6};

    expect_waitall(c, 5, of5, 4);
    expect_waitall(c, 0, of0, 2);
    expect_waitall(c, 7, of7, 3);
    collected_free(c);
    sr_recorded_free(&r);
}

/* The 1-D exchange of one MPI_Waitall recorded at counts, synthesized at 8 in a row: the
 * program's run; 0 has east 1 only (a Waitall of 2), 7 west 6 only, 3 both: receives
 * from 2 and 4, 4 completions. */
static void one_waitall_at_8(const int *counts)
{
    static const uint32_t of0[1] = {1}, of7[1] = {6}, of3[2] = {2, 4};
    struct sr_recorded r;
    struct collected *c;
    struct sr_run *truth;

    sr_record_at(&r, counts, 1, NULL, prog_waitall1, NULL);
    c = synthesize(r.m, 8);
    truth = sr_build("truth", 8, 1, NULL, prog_waitall1, NULL);
    check_run(c, truth, 1);
    expect_waitall(c, 0, of0, 1);
    expect_waitall(c, 7, of7, 1);
    expect_waitall(c, 3, of3, 2);
    sr_free(truth);
    collected_free(c);
    sr_recorded_free(&r);
}

Test(scale_program, stencil_1d_one_waitall_from_2_3_4)
{
    static const int counts[3] = {2, 3, 4};

    one_waitall_at_8(counts);
}

/* At 1 process the exchange has no neighbour: its MPI_Waitall is given no request and
 * completes none, yet it is the Waitall the others make (LULESH at 1, 8 and 27).  From
 * 1, 2 and 4 in a row the run at 8 is the one at 2, 3 and 4's. */
Test(scale_program, a_waitall_given_no_request_at_1_process_is_the_exchanges)
{
    static const int counts[3] = {1, 2, 4};

    one_waitall_at_8(counts);
}

/* The same exchange, its receives completed by one MPI_Waitall and its sends by another:
 * two steps, whatever the number of neighbours, each completing its own kind. */
static void two_waitalls(struct sr_run *b, int p, const int *c)
{
    int P = b->run.nprocs, posted_at[8], kinds[8], n = 0;

    for (int k = 0; k < 2; k++)
        for (int d = 0; d < 4; d++) {
            struct pz_scale_event e = k ? to(PZ_REC_ISEND, dirs2[d], TAG, side_bytes(b, dirs2[d]))
                                        : ev(PZ_REC_IRECV_REQUEST, SR_WORLD);
            int peer = sr_rank_at(b, c, dirs2[d]);
            struct sr_truth t = k ? world(b, peer) : no_truth;

            if (peer < 0)
                continue;
            call(b, p, k ? SR_ISEND : SR_IRECV, 0);
            sr_event(b, p, &e, &t);
            posted_at[n] = steps_of(b, p) - 1;
            kinds[n++] = d;
        }
    for (int k = 0, i = 0; k < 2; k++) {
        call(b, p, SR_WAITALL, 0);
        for (int j = 0; j < n / 2; j++, i++) {
            int peer = sr_rank_at(b, c, dirs2[kinds[i]]);
            struct pz_scale_event e = k ? ev(PZ_REC_ISEND_COMPLETE, PZ_SCALE_NO_COMM)
                                        : to(PZ_REC_IRECV, dirs2[kinds[i]], TAG,
                                               side_bytes(b, dirs2[kinds[i]]));
            struct sr_truth t = k ? no_truth : world(b, peer);

            e.posted_by = t.posted_by = steps_of(b, p) - 1 - posted_at[i];
            sr_event(b, p, &e, &t);
        }
    }
    collective(b, p, SR_ALLREDUCE, C / P, SR_WORLD, world(b, -1), -1, 8, 8);
}

static void prog_two_waitalls(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, two_waitalls);
}

Test(scale_program, waitall_of_receives_then_waitall_of_sends)
{
    struct sr_recorded r;
    struct collected *c = check_program(2, NULL, prog_two_waitalls, 16, &r);
    const struct pz_rec *in[16];

    /* 4 x 4: process 5 receives from 1, 9, 4 and 6 in its first Waitall (requests 1 to 4,
     * its receives), completes its 4 sends (requests 5 to 8) in the second */
    cr_assert_eq(inside_call(c, 5, SR_WAITALL, 0, in, 16), 4);
    cr_expect(in[0]->kind == PZ_REC_IRECV && in[0]->peer == 1 && in[0]->request == 1);
    cr_expect(in[3]->kind == PZ_REC_IRECV && in[3]->peer == 6 && in[3]->request == 4);
    cr_assert_eq(inside_call(c, 5, SR_WAITALL, 1, in, 16), 4);
    cr_expect(in[0]->kind == PZ_REC_ISEND_COMPLETE && in[0]->request == 5);
    cr_expect(in[3]->kind == PZ_REC_ISEND_COMPLETE && in[3]->request == 8);
    collected_free(c);
    sr_recorded_free(&r);
}

/* A periodic ring: receives from west and east, sends to both; `waitanys` receives
 * completed by MPI_Waitany calls, one each, in the order they arrive (east's first at
 * the odd processes when odd_east_first, and at process late_proc of the run at
 * late_count processes, whose first call completes both when both_late, as
 * MPI_Waitsome may, and the next none), then one MPI_Waitall completes the other
 * receives and the sends. */
struct waitany_args {
    int waitanys, odd_east_first, late_proc, late_count, both_late;
};

static void prog_waitany(struct sr_run *b, int p, const int *c, void *arg)
{
    const struct waitany_args *a = arg;
    int P = b->run.nprocs;

    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int it = 0; it < ITERS; it++) {
        int recv_at[2], send_at[2];
        int east_first = (a->odd_east_first && p % 2) ||
                         (P == a->late_count && p == a->late_proc);

        for (int d = 0; d < 2; d++) {
            struct pz_scale_event e = ev(PZ_REC_IRECV_REQUEST, SR_WORLD);

            call(b, p, SR_IRECV, d ? 0 : C / P);
            sr_event(b, p, &e, &no_truth);
            recv_at[d] = steps_of(b, p) - 1;
        }
        for (int d = 0; d < 2; d++) {
            struct pz_scale_event e = to(PZ_REC_ISEND, dirs1[d], TAG, 1024);
            struct sr_truth t = world(b, sr_rank_at(b, c, dirs1[d]));

            call(b, p, SR_ISEND, 0);
            sr_event(b, p, &e, &t);
            send_at[d] = steps_of(b, p) - 1;
        }
        for (int i = 0; i < a->waitanys; i++) {
            int d = east_first ? 1 - i : i;
            struct pz_scale_event e = to(PZ_REC_IRECV, dirs1[d], TAG, 1024);
            struct sr_truth t = world(b, sr_rank_at(b, c, dirs1[d]));

            call(b, p, SR_WAITANY, 0);
            if (east_first && a->both_late && i > 0)
                continue;   /* nothing left to complete */
            e.posted_by = t.posted_by = steps_of(b, p) - 1 - recv_at[d];
            sr_event(b, p, &e, &t);
            if (east_first && a->both_late) {
                e = to(PZ_REC_IRECV, dirs1[1 - d], TAG, 1024);
                t = world(b, sr_rank_at(b, c, dirs1[1 - d]));
                e.posted_by = t.posted_by = steps_of(b, p) - 1 - recv_at[1 - d];
                sr_event(b, p, &e, &t);
            }
        }
        call(b, p, SR_WAITALL, 0);
        for (int i = a->waitanys; i < 2; i++) {
            int d = east_first ? 1 - i : i;
            struct pz_scale_event e = to(PZ_REC_IRECV, dirs1[d], TAG, 1024);
            struct sr_truth t = world(b, sr_rank_at(b, c, dirs1[d]));

            e.posted_by = t.posted_by = steps_of(b, p) - 1 - recv_at[d];
            sr_event(b, p, &e, &t);
        }
        for (int d = 0; d < 2; d++) {
            struct pz_scale_event e = ev(PZ_REC_ISEND_COMPLETE, PZ_SCALE_NO_COMM);
            struct sr_truth t = no_truth;

            e.posted_by = t.posted_by = steps_of(b, p) - 1 - send_at[d];
            sr_event(b, p, &e, &t);
        }
    }
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

Test(scale_program, waitany_completes_one_request_per_call)
{
    static const uint8_t periodic[3] = {1, 0, 0};
    static const int counts[3] = {2, 4, 8};
    struct waitany_args a = {2, 1, -1, 0, 0};
    struct sr_recorded r;
    struct collected *c;
    const struct pz_rec *in[8];

    sr_record_at(&r, counts, 1, periodic, prog_waitany, &a);
    c = synthesize(r.m, 16);
    /* the order the receives arrived in is not a pattern: each MPI_Waitany completes one,
     * the first posted first.  Process 5 posts its receive from 4 (request 1), from 6
     * (2), its sends to 4 (3) and 6 (4): the Waitanys complete 1 then 2, from 4 then 6,
     * the Waitall the sends, 3 and 4 */
    cr_assert_eq(inside_call(c, 5, SR_WAITANY, 0, in, 8), 1);
    cr_expect(in[0]->kind == PZ_REC_IRECV && in[0]->peer == 4 && in[0]->request == 1);
    cr_assert_eq(inside_call(c, 5, SR_WAITANY, 1, in, 8), 1);
    cr_expect(in[0]->kind == PZ_REC_IRECV && in[0]->peer == 6 && in[0]->request == 2);
    cr_assert_eq(inside_call(c, 5, SR_WAITALL, 0, in, 8), 2);
    cr_expect(in[0]->kind == PZ_REC_ISEND_COMPLETE && in[0]->request == 3);
    cr_expect(in[1]->kind == PZ_REC_ISEND_COMPLETE && in[1]->request == 4);
    collected_free(c);
    sr_recorded_free(&r);
}

Test(scale_program, a_request_completed_by_different_calls_is_named)
{
    static const uint8_t periodic[3] = {1, 0, 0};
    static const int counts[3] = {2, 4, 8};
    /* one Waitany completes the receive from west, the Waitall the one from east; but at
     * 4 processes, process 1's Waitany completes east's */
    struct waitany_args a = {1, 0, 1, 4, 0};
    struct sr_run *runs[3];
    const struct pz_scale_run *list[3];
    char err[512] = "", path[32];

    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "run%d", counts[i]);
        runs[i] = sr_build(path, counts[i], 1, periodic, prog_waitany, &a);
        list[i] = &runs[i]->run;
    }
    cr_assert_null(pz_scale_program_build(list, 3, 0, err, sizeof(err)));
    cr_expect(strstr(err, "run4") && strstr(err, "process 1") &&
              strstr(err, "interval 'interval 1 at app.c:10'") && strstr(err, "MPI_Waitany"),
              "%s", err);
    for (int i = 0; i < 3; i++)
        sr_free(runs[i]);
}

Test(scale_program, a_call_completing_requests_in_no_pattern_is_named)
{
    static const uint8_t periodic[3] = {1, 0, 0};
    static const int counts[3] = {2, 4, 8};
    /* two MPI_Waitany complete one receive each; but at 4 processes, process 1's first
     * completes both: neither all those posted nor one per call */
    struct waitany_args a = {2, 0, 1, 4, 1};
    struct sr_run *runs[3];
    const struct pz_scale_run *list[3];
    char err[512] = "", path[32];

    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "run%d", counts[i]);
        runs[i] = sr_build(path, counts[i], 1, periodic, prog_waitany, &a);
        list[i] = &runs[i]->run;
    }
    cr_assert_null(pz_scale_program_build(list, 3, 0, err, sizeof(err)));
    cr_expect(strstr(err, "run4") && strstr(err, "process 1") &&
              strstr(err, "interval 'interval 1 at app.c:10'") && strstr(err, "MPI_Waitany") &&
              strstr(err, "no pattern"), "%s", err);
    for (int i = 0; i < 3; i++)
        sr_free(runs[i]);
}

/* --- calls to MPI_PROC_NULL, periodic dimensions of 1 or 2 processes */

/* A point-to-point event to the process at dir, its offset as a recording shows it. */
static struct pz_scale_event toward(const struct sr_run *b, const int *c, uint8_t kind,
                                    const int *dir, uint64_t bytes)
{
    int off[3];

    sr_recorded_offset(b, c, dir, off);
    return to(kind, off, TAG, bytes);
}

/* A halo exchange as share/validation/halo2d.c makes it: for each neighbour at dirs, in
 * order, an MPI_Irecv from it and an MPI_Isend to it, all with one tag, then one
 * MPI_Waitall of the requests.  Where the neighbour does not exist the program skips
 * both calls when bit d of `skipped` is set, else calls them with MPI_PROC_NULL: the
 * calls are recorded without events, and the Waitall completes nothing for them (as
 * the recorder writes them, tests/integration/p2p.sh).  Then C / P of computation and
 * an MPI_Allreduce.  Message size halo_bytes(). */
static void exchange_null(struct sr_run *b, int p, const int *c, const int (*dirs)[3],
                          int ndirs, unsigned skipped)
{
    int P = b->run.nprocs, recv_at[6], send_at[6], waitall;

    for (int d = 0; d < ndirs; d++) {
        int peer = sr_rank_at(b, c, dirs[d]);
        struct sr_truth t = world(b, peer);
        struct pz_scale_event e;

        if (peer < 0 && (skipped >> d) & 1)
            continue;
        call(b, p, SR_IRECV, 0);
        e = ev(PZ_REC_IRECV_REQUEST, SR_WORLD);
        if (peer >= 0)
            sr_event(b, p, &e, &no_truth);
        recv_at[d] = steps_of(b, p) - 1;
        call(b, p, SR_ISEND, 0);
        e = toward(b, c, PZ_REC_ISEND, dirs[d], halo_bytes(b, ndirs, dirs[d]));
        if (peer >= 0)
            sr_event(b, p, &e, &t);
        send_at[d] = steps_of(b, p) - 1;
    }
    call(b, p, SR_WAITALL, 0);
    waitall = steps_of(b, p) - 1;
    for (int d = 0; d < ndirs; d++) {
        int peer = sr_rank_at(b, c, dirs[d]);
        struct sr_truth t = world(b, peer);
        struct pz_scale_event e = toward(b, c, PZ_REC_IRECV, dirs[d],
                                                  halo_bytes(b, ndirs, dirs[d]));

        if (peer < 0)
            continue;
        e.posted_by = t.posted_by = waitall - recv_at[d];
        sr_event(b, p, &e, &t);
        e = ev(PZ_REC_ISEND_COMPLETE, PZ_SCALE_NO_COMM);
        t = no_truth;
        e.posted_by = t.posted_by = waitall - send_at[d];
        sr_event(b, p, &e, &t);
    }
    collective(b, p, SR_ALLREDUCE, C / P, SR_WORLD, world(b, -1), -1, 8, 8);
}

static void null2(struct sr_run *b, int p, const int *c)
{
    exchange_null(b, p, c, dirs2, 4, 0);
}

/* rows (north, south) to MPI_PROC_NULL, columns (west, east) skipped */
static void mixed2(struct sr_run *b, int p, const int *c)
{
    exchange_null(b, p, c, dirs2, 4, 4 | 8);
}

static void null3(struct sr_run *b, int p, const int *c)
{
    exchange_null(b, p, c, dirs3, 6, 0);
}

/* the ring: west and east, both periodic */
static void null1(struct sr_run *b, int p, const int *c)
{
    exchange_null(b, p, c, dirs1, 2, 0);
}

static void prog_null2(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, null2);
}

static void prog_mixed2(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, mixed2);
}

static void prog_null3(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, null3);
}

static void prog_null1(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, null1);
}

/* Process p's calls to region in its first iteration (before its first Waitall). */
static int first_calls(const struct collected *c, int p, uint32_t region)
{
    int n = 0;

    for (size_t i = 0; i < c->n[p]; i++) {
        const struct pz_rec *x = &c->recs[p][i];

        if (x->kind == PZ_REC_ENTER && x->region == SR_WAITALL)
            break;
        n += x->kind == PZ_REC_ENTER && x->region == region;
    }
    return n;
}

/* Process p's first iteration: `calls` MPI_Irecv and as many MPI_Isend, sends to the
 * receivers (n of them) in order, and a Waitall completing a receive from each, each
 * followed by its send's completion. */
static void expect_exchange(const struct collected *c, int p, int calls,
                            const uint32_t *receivers, int n)
{
    uint32_t peers[8];

    cr_expect_eq(first_calls(c, p, SR_IRECV), calls, "process %d: %d MPI_Irecv, expected %d",
                 p, first_calls(c, p, SR_IRECV), calls);
    cr_expect_eq(first_calls(c, p, SR_ISEND), calls, "process %d: %d MPI_Isend, expected %d",
                 p, first_calls(c, p, SR_ISEND), calls);
    cr_assert_eq(sends_of(c, p, peers, n), n);
    for (int i = 0; i < n; i++)
        cr_expect_eq(peers[i], receivers[i], "process %d send %d: to %u, expected %u", p, i,
                     peers[i], receivers[i]);
    expect_waitall(c, p, receivers, n);
}

Test(scale_program, stencil_2d_calling_proc_null_at_the_edges)
{
    struct sr_recorded r;
    struct collected *c = check_program(2, NULL, prog_null2, 16, &r);
    /* recorded at 2 x 1, 2 x 2 and 4 x 2, where every process has an edge.  At 16 (4 x 4,
     * rank 4 i + j; north, south, west, east): every process makes 4 MPI_Irecv and 4
     * MPI_Isend; corner 0 at (0, 0) exchanges with south 4 and east 1 only (its Waitall
     * completes 4 requests), edge 7 at (1, 3) with 3, 11 and 6, interior 5 at (1, 1)
     * with 1, 9, 4 and 6, corner 15 at (3, 3) with 11 and 14. */
    static const uint32_t of0[2] = {4, 1}, of7[3] = {3, 11, 6}, of5[4] = {1, 9, 4, 6},
                          of15[2] = {11, 14};

    expect_exchange(c, 0, 4, of0, 2);
    expect_exchange(c, 7, 4, of7, 3);
    expect_exchange(c, 5, 4, of5, 4);
    expect_exchange(c, 15, 4, of15, 2);
    /* the messages across dimension 1 (65536 / dims[0] bytes) exist only at 2 x 2 and
     * 4 x 2, where 131072 / P gives their sizes too: a note says so, the only kind */
    cr_expect_gt(pz_scale_program_nnotes(r.m), 0);
    for (size_t i = 0; i < pz_scale_program_nnotes(r.m); i++)
        cr_expect(strstr(pz_scale_program_note(r.m, i), "is 0 + 65536 / dims[0] or 0 + "
                                                        "131072 / P on the recordings"),
                  "%s", pz_scale_program_note(r.m, i));
    collected_free(c);
    sr_recorded_free(&r);
}

/* Every MPI_Irecv recorded to take 2 µs when it calls MPI_PROC_NULL (no event) and 3 ms
 * when it has a peer (as if it had waited for a core), as process p of run b does. */
static void time_receives(struct sr_run *b)
{
    for (int p = 0; p < b->run.nprocs; p++)
        for (size_t j = 0; j < b->run.procs[p].nsteps; j++) {
            struct pz_scale_step *st = &b->run.procs[p].steps[j];

            if (st->kind == PZ_SCALE_CALL && st->region == SR_IRECV)
                st->duration = st->n ? 3e-3 : 2e-6;
        }
}

Test(scale_program, a_call_to_proc_null_takes_the_time_of_such_calls)
{
    static const int counts[3] = {2, 4, 8};
    const struct pz_scale_run *list[3];
    struct sr_run *runs[3];
    struct pz_scale_program *m;
    struct collected *c;
    char err[512] = "", path[32];
    int null_calls = 0;

    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "run%d", counts[i]);
        runs[i] = sr_build(path, counts[i], 2, NULL, prog_null2, NULL);
        time_receives(runs[i]);
        list[i] = &runs[i]->run;
    }
    m = pz_scale_program_build(list, 3, 0, err, sizeof(err));
    cr_assert(m, "%s", err);
    /* The replay models the MPI_Irecv with a peer and replays the one to MPI_PROC_NULL
     * for its time: at 16 (4 x 4) each such call lasts 2 µs, the time of such calls in
     * the recordings, not a mean with the 3 ms of the calls with peers (at 2 x 1, 2 x 2
     * and 4 x 2 the receives from the north and the south are made both ways). */
    c = synthesize(m, 16);
    for (int p = 0; p < 16; p++)
        for (size_t i = 0; i + 1 < c->n[p]; i++) {
            const struct pz_rec *r = &c->recs[p][i];

            if (r->kind != PZ_REC_ENTER || r->region != SR_IRECV ||
                r[1].kind != PZ_REC_LEAVE)
                continue;
            cr_expect_eq(r[1].time - r->time, 2000, "process %d: MPI_Irecv to MPI_PROC_NULL "
                         "at %llu ns: %llu ns, expected 2000", p, (unsigned long long)r->time,
                         (unsigned long long)(r[1].time - r->time));
            null_calls++;
        }
    /* per iteration 2 calls to MPI_PROC_NULL at each of the 4 corners, 1 at each of the 8
     * other processes of the edges */
    cr_expect_eq(null_calls, 16 * ITERS);
    collected_free(c);
    pz_scale_program_free(m);
    for (int i = 0; i < 3; i++)
        sr_free(runs[i]);
}

Test(scale_program, stencil_2d_calling_proc_null_in_rows_and_skipping_columns)
{
    struct sr_recorded r;
    struct collected *c = check_program(2, NULL, prog_mixed2, 16, &r);
    /* at 16 (4 x 4): corner 0 calls north with MPI_PROC_NULL, south 4, skips west and
     * calls east 1: 3 MPI_Irecv; edge 7 at (1, 3): north 3, south 11, west 6, east
     * skipped: 3; edge 12 at (3, 0): north 8, south to MPI_PROC_NULL, east 13: 3; interior
     * 5: 4 */
    static const uint32_t of0[2] = {4, 1}, of7[3] = {3, 11, 6}, of12[2] = {8, 13},
                          of5[4] = {1, 9, 4, 6};

    expect_exchange(c, 0, 3, of0, 2);
    expect_exchange(c, 7, 3, of7, 3);
    expect_exchange(c, 12, 3, of12, 2);
    expect_exchange(c, 5, 4, of5, 4);
    collected_free(c);
    sr_recorded_free(&r);
}

Test(scale_program, ring_1d_periodic_recorded_at_2)
{
    static const uint8_t periodic[3] = {1, 0, 0};
    struct sr_recorded r;
    struct collected *c = check_program(1, periodic, prog_null1, 16, &r);
    /* at 2, both neighbours of process 0 are process 1, at +1, both of process 1 at -1:
     * the recordings at 4 and 8 say the first receive is from the west (-1).  At 16: 0
     * exchanges with 15 and 1, 9 with 8 and 10, 15 with 14 and 0. */
    static const uint32_t of0[2] = {15, 1}, of9[2] = {8, 10}, of15[2] = {14, 0};

    expect_exchange(c, 0, 2, of0, 2);
    expect_exchange(c, 9, 2, of9, 2);
    expect_exchange(c, 15, 2, of15, 2);
    collected_free(c);
    sr_recorded_free(&r);
}

Test(scale_program, stencil_3d_periodic_in_x_calling_proc_null)
{
    /* 2 x 1 x 1, 2 x 2 x 1 and 3 x 2 x 2: dimension 0 is periodic and of 2 processes in
     * the first two (and would be at 8, 2 x 2 x 2), of 3 in the third, which tells the
     * west from the east; dimensions 1 and 2 end, of 1 process in the first recording
     * (every call to MPI_PROC_NULL) */
    static const int counts[3] = {2, 4, 12};
    static const uint8_t periodic[3] = {1, 0, 0};
    struct sr_recorded r;
    struct collected *c;
    struct sr_run *truth;
    /* at 16 (4 x 2 x 2, rank 4 i + 2 j + k; -x, +x, -y, +y, -z, +z): 0 at (0, 0, 0)
     * exchanges with 12 round the ring, 4, then 2 and 1; 5 at (1, 0, 1) with 1, 9, 7 and
     * 4; every process makes 6 MPI_Irecv and 6 MPI_Isend */
    static const uint32_t of0[4] = {12, 4, 2, 1}, of5[4] = {1, 9, 7, 4};

    sr_record_at(&r, counts, 3, periodic, prog_null3, NULL);
    c = synthesize(r.m, 16);
    truth = sr_build("truth", 16, 3, periodic, prog_null3, NULL);
    check_run(c, truth, 0);
    expect_exchange(c, 0, 6, of0, 4);
    expect_exchange(c, 5, 6, of5, 4);
    sr_free(truth);
    collected_free(c);
    sr_recorded_free(&r);
}

Test(scale_program, a_periodic_dimension_never_longer_than_2_is_noted)
{
    static const uint8_t periodic[3] = {1, 0, 0};
    struct sr_recorded r;
    size_t i, n;

    /* 2 x 1 x 1, 2 x 2 x 1, 2 x 2 x 2: the offsets of dimension 0 cannot be told */
    record(&r, 3, periodic, prog_null3);
    n = pz_scale_program_nnotes(r.m);
    for (i = 0; i < n && !strstr(pz_scale_program_note(r.m, i), "dimension 0 is periodic");)
        i++;
    cr_expect(i < n, "no note on dimension 0");
    sr_recorded_free(&r);
}

/* --- the sizes of collectives as the recorder counts them (docs/trace-format.md): an
 * all-to-all the block to each other member, a rooted collective at the root and at the
 * others apart */

/* A collective of operation op (OTF2_CollectiveOp), as collective(). */
static void collective_op(struct sr_run *b, int p, uint32_t region, double gap, uint16_t comm,
                          struct sr_truth t, int root, uint8_t op, uint64_t sent,
                          uint64_t received)
{
    collective(b, p, region, gap, comm, t, root, sent, received);
    b->run.procs[p].events[b->run.procs[p].nevents - 1].coll_op = op;
}

/* The block to each other process of a fixed 1 MiB problem, 2^20 / P^2 bytes: a
 * transpose of a 512 x 256 grid of doubles. */
static uint64_t block_of(int nprocs)
{
    return (uint64_t)(1 << 20) / ((uint64_t)nprocs * (uint64_t)nprocs);
}

static void transpose_world(struct sr_run *b, int p, const int *c)
{
    int P = b->run.nprocs;
    uint64_t bytes = block_of(P) * (uint64_t)(P - 1);

    (void)c;
    collective_op(b, p, SR_ALLTOALL, C / P, SR_WORLD, world(b, -1), -1,
                  OTF2_COLLECTIVE_OP_ALLTOALL, bytes, bytes);
}

static void prog_transpose_world(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, transpose_world);
}

Test(scale_program, all_to_all_of_a_fixed_problem_moves_the_blocks_to_the_others)
{
    struct sr_recorded r;
    struct collected *c = check_program(1, NULL, prog_transpose_world, 64, &r);

    /* recorded: 2^20 / 4 * 1 = 262144 at 2, 2^20 / 16 * 3 = 196608 at 4, 2^20 / 64 * 7 =
     * 114688 at 8, which no exact form of P gives; per other process 262144, 65536 and
     * 16384 = 2^20 / P^2.  At 64: 2^20 / 4096 = 256 to each of 63 others, 16128 sent
     * and received by every process (record 3: the COLL_END of the first call) */
    for (int p = 0; p < 64; p += 21) {
        cr_expect_eq(c->recs[p][3].kind, PZ_REC_COLL_END);
        cr_expect_eq(c->recs[p][3].bytes, 16128, "process %d: %llu bytes", p,
                     (unsigned long long)c->recs[p][3].bytes);
        cr_expect_eq(c->recs[p][3].bytes2, 16128);
    }
    collected_free(c);
    sr_recorded_free(&r);
}

static void transpose_columns(struct sr_run *b, int p, const int *c)
{
    int P = b->run.nprocs, rows = b->run.grid.dims[0], cols = b->run.grid.dims[1];
    struct sr_truth col = {-1, c[1], rows, cols, -1};
    uint64_t bytes = block_of(P) * (uint64_t)(rows - 1);

    collective_op(b, p, SR_ALLTOALL, C / P, SR_COLUMN, col, -1, OTF2_COLLECTIVE_OP_ALLTOALL,
                  bytes, bytes);
}

static void prog_transpose_columns(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, transpose_columns);
}

Test(scale_program, all_to_all_in_columns_moves_the_blocks_to_the_column)
{
    struct sr_recorded r;
    struct collected *c = check_program(2, NULL, prog_transpose_columns, 16, &r);

    /* columns of 2 (2 x 1), 2 (2 x 2) and 4 (4 x 2) processes: 262144 * 1, 65536 * 1 and
     * 16384 * 3 = 49152 recorded, 2^20 / P^2 to each other member.  At 16, 4 x 4: 4096
     * to each of 3 others, 12288 */
    for (int p = 0; p < 16; p += 5)
        cr_expect_eq(c->recs[p][3].bytes, 12288, "process %d: %llu bytes", p,
                     (unsigned long long)c->recs[p][3].bytes);
    collected_free(c);
    sr_recorded_free(&r);
}

/* A reduction of 8 bytes and a broadcast of 16 to rank 0, counted as the recorder
 * does: the root of the reduction receives 8 from each other process and sends none,
 * the root of the broadcast sends 16 to each. */
static void reduce_bcast_counted(struct sr_run *b, int p, const int *c)
{
    uint64_t others = (uint64_t)b->run.nprocs - 1;

    (void)c;
    collective_op(b, p, SR_REDUCE, C / b->run.nprocs, SR_WORLD, world(b, -1), 0,
                  OTF2_COLLECTIVE_OP_REDUCE, p == 0 ? 0 : 8, p == 0 ? 8 * others : 0);
    collective_op(b, p, SR_BCAST, 0, SR_WORLD, world(b, -1), 0, OTF2_COLLECTIVE_OP_BCAST,
                  p == 0 ? 16 * others : 0, p == 0 ? 0 : 16);
}

static void prog_reduce_counted(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, reduce_bcast_counted);
}

Test(scale_program, rooted_collectives_move_the_root_s_bytes_at_the_root)
{
    struct sr_recorded r;
    struct collected *c = check_program(1, NULL, prog_reduce_counted, 16, &r);

    /* at 16, records 3 and 7: the COLL_END of the reduction and of the broadcast.  The
     * root: sends 0, receives 8 * 15 = 120; sends 16 * 15 = 240, receives 0.  Process
     * 11: sends 8, receives 0; sends 0, receives 16 */
    cr_expect(c->recs[0][3].bytes == 0 && c->recs[0][3].bytes2 == 120, "root: %llu, %llu",
              (unsigned long long)c->recs[0][3].bytes,
              (unsigned long long)c->recs[0][3].bytes2);
    cr_expect(c->recs[0][7].bytes == 240 && c->recs[0][7].bytes2 == 0);
    cr_expect(c->recs[11][3].bytes == 8 && c->recs[11][3].bytes2 == 0);
    cr_expect(c->recs[11][7].bytes == 0 && c->recs[11][7].bytes2 == 16);
    collected_free(c);
    sr_recorded_free(&r);
}

/* --- loops whose iterations differ by their tags */

/* A pipeline whose messages are tagged with the number of their chunk: 2 P + 4 chunks
 * flow from process 0 through each process to the last.  For each chunk c, a process
 * receives it from the one before (MPI_Recv, tag c, 1024 bytes; process 0 from
 * MPI_PROC_NULL, which records no message), filters it for C / P s and sends it on
 * (MPI_Send, tag c; the last process to MPI_PROC_NULL).  No two iterations have the
 * same tags, and the chunks grow with P: only a loop whose tags advance by 1 a chunk
 * can make them at a count never recorded. */
static void prog_pipeline(struct sr_run *b, int p, const int *c, void *arg)
{
    static const int prev[3] = {-1, 0, 0}, next[3] = {1, 0, 0};
    int P = b->run.nprocs;

    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int k = 0; k < 2 * P + 4; k++) {
        struct pz_scale_event e = to(PZ_REC_RECV, prev, (uint32_t)k, 1024);
        struct sr_truth t = world(b, sr_rank_at(b, c, prev));

        call(b, p, SR_RECV, 0);
        if (p > 0)
            sr_event(b, p, &e, &t);
        e = to(PZ_REC_SEND, next, (uint32_t)k, 1024);
        t = world(b, sr_rank_at(b, c, next));
        call(b, p, SR_SEND, C / P);
        if (p < P - 1)
            sr_event(b, p, &e, &t);
    }
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

/* The tags of the records of kind `kind` of process p, in order: up to max, their
 * number. */
static int tags_of(const struct collected *c, int p, uint8_t kind, uint32_t *tags, int max)
{
    int n = 0;

    for (size_t i = 0; i < c->n[p] && n < max; i++)
        if (c->recs[p][i].kind == kind)
            tags[n++] = c->recs[p][i].tag;
    return n;
}

/* Records the pipeline prog (record), synthesizes it at 16 and 64 processes, checks
 * every record of every process against prog's own run at that count, computations
 * within a nanosecond and each completion of the request its call completes
 * (check_run), then the hand-derived expectations check(c, P, N) with N = 2 P + 4
 * chunks (36 at 16, 132 at 64). */
static void pipeline_at_16_and_64(sr_program prog,
                                  void (*check)(const struct collected *c, int P, int N))
{
    struct sr_recorded r;

    record(&r, 1, NULL, prog);
    for (int P = 16; P <= 64; P *= 4) {
        struct collected *c = synthesize(r.m, P);
        struct sr_run *truth = sr_build("truth", P, 1, NULL, prog, NULL);

        check_run(c, truth, 1);
        check(c, P, 2 * P + 4);
        sr_free(truth);
        collected_free(c);
    }
    sr_recorded_free(&r);
}

static void check_tagged_chunks(const struct collected *c, int P, int N)
{
    uint32_t tags[160], peers[160];
    int n;

    /* by hand: N = 2 P + 4 chunks (36 at 16, 132 at 64; 8, 12 and 20 recorded,
     * which only 4 + 2 P gives among the trip counts' forms).  Process 0 sends
     * chunks 0 .. N - 1 to process 1 with tags 0 .. N - 1, 1024 bytes each, and
     * receives nothing; process 5 receives them from 4 and sends them to 6 with
     * the same tags; the last process receives them from P - 2 and sends nothing */
    cr_expect_eq(tags_of(c, 0, PZ_REC_SEND, tags, 160), N);
    cr_expect_eq(sends_of(c, 0, peers, 160), N);
    for (int k = 0; k < N; k++)
        cr_expect(tags[k] == (uint32_t)k && peers[k] == 1, "at %d: chunk %d sent with "
                  "tag %u to %u", P, k, tags[k], peers[k]);
    cr_expect_eq(tags_of(c, 0, PZ_REC_RECV, tags, 160), 0);
    cr_expect_eq(tags_of(c, 5, PZ_REC_RECV, tags, 160), N);
    cr_expect(tags[0] == 0 && tags[7] == 7 && tags[N - 1] == (uint32_t)N - 1);
    n = tags_of(c, 5, PZ_REC_SEND, tags, 160);
    cr_expect(n == N && tags[N - 1] == (uint32_t)N - 1);
    cr_expect_eq(sends_of(c, 5, peers, 160), N);
    cr_expect(peers[0] == 6 && peers[N - 1] == 6);
    cr_expect_eq(sends_of(c, P - 1, peers, 160), 0);
    cr_expect_eq(tags_of(c, P - 1, PZ_REC_RECV, tags, 160), N);
    cr_expect_eq(tags[N - 1], (uint32_t)N - 1);
    for (size_t i = 0; i < c->n[P - 1]; i++)
        if (c->recs[P - 1][i].kind == PZ_REC_RECV)
            cr_expect(c->recs[P - 1][i].peer == (uint32_t)P - 2 &&
                      c->recs[P - 1][i].bytes == 1024);
}

Test(scale_program, a_pipeline_tagging_each_chunk_with_its_number)
{
    pipeline_at_16_and_64(prog_pipeline, check_tagged_chunks);
}

/* A pipeline whose processes make different numbers of iterations of one loop: the
 * first process N = 2 P + 4, a middle one N - 2, the last N - 1.  Iteration k receives
 * chunk k from the process before (MPI_Recv, tag k, 1024 bytes; the first process from
 * MPI_PROC_NULL, which records no message), filters it for C / P s and sends it on
 * (MPI_Send, tag k; the last process to MPI_PROC_NULL).  Its trip count is one of each
 * class of processes, each a form of P. */
static void prog_dropping(struct sr_run *b, int p, const int *c, void *arg)
{
    static const int prev[3] = {-1, 0, 0}, next[3] = {1, 0, 0};
    int P = b->run.nprocs, N = 2 * P + 4;
    int trips = p == 0 ? N : p == P - 1 ? N - 1 : N - 2;

    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int k = 0; k < trips; k++) {
        struct pz_scale_event e = to(PZ_REC_RECV, prev, (uint32_t)k, 1024);
        struct sr_truth t = world(b, sr_rank_at(b, c, prev));

        call(b, p, SR_RECV, 0);
        if (p > 0)
            sr_event(b, p, &e, &t);
        e = to(PZ_REC_SEND, next, (uint32_t)k, 1024);
        t = world(b, sr_rank_at(b, c, next));
        call(b, p, SR_SEND, C / P);
        if (p < P - 1)
            sr_event(b, p, &e, &t);
    }
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

static void check_dropping(const struct collected *c, int P, int N)
{
    uint32_t tags[160], peers[160];

    /* by hand: N = 36 at 16, 132 at 64 (8, 12 and 20 recorded for the first
     * process, 6, 10, 18 for the middle ones, 7, 11, 19 for the last).  Process 0
     * sends N chunks to process 1, tags 0 .. N - 1, and receives nothing; process
     * 5 receives N - 2 from process 4 and sends them to 6, tags 0 .. N - 3; the
     * last process receives N - 1 from P - 2, tags 0 .. N - 2, and sends nothing */
    cr_expect_eq(tags_of(c, 0, PZ_REC_SEND, tags, 160), N);
    cr_expect_eq(tags[N - 1], (uint32_t)N - 1);
    cr_expect_eq(sends_of(c, 0, peers, 160), N);
    cr_expect(peers[0] == 1 && peers[N - 1] == 1);
    cr_expect_eq(tags_of(c, 0, PZ_REC_RECV, tags, 160), 0);
    cr_expect_eq(tags_of(c, 5, PZ_REC_RECV, tags, 160), N - 2);
    cr_expect_eq(tags[N - 3], (uint32_t)N - 3);
    cr_expect_eq(tags_of(c, 5, PZ_REC_SEND, tags, 160), N - 2);
    cr_expect_eq(tags[N - 3], (uint32_t)N - 3);
    cr_expect_eq(sends_of(c, 5, peers, 160), N - 2);
    cr_expect(peers[0] == 6 && peers[N - 3] == 6);
    cr_expect_eq(sends_of(c, P - 1, peers, 160), 0);
    cr_expect_eq(tags_of(c, P - 1, PZ_REC_RECV, tags, 160), N - 1);
    cr_expect_eq(tags[N - 2], (uint32_t)N - 2);
}

Test(scale_program, a_pipeline_whose_processes_loop_different_numbers_of_times)
{
    pipeline_at_16_and_64(prog_dropping, check_dropping);
}

/* A pipeline whose senders wait once on a null request before their first send (the
 * MPI_Wait of a double buffer's send before any was posted: a call that records no
 * event).  For each of N = 2 P + 4 chunks k, every process but the first polls for a
 * chunk (MPI_Waitany on no active request, which records no event), receives chunk k
 * from the process before (MPI_Recv, tag k), and every process but the last filters
 * it for C / P s and sends it on (MPI_Send, tag k).  The middle processes fold their
 * iterations from their first send on, making the poll and the receive of chunk 0 (a
 * tag of its own) before their loop; the last process loops from its first poll on:
 * the poll the middle processes make before their loop is not its first iteration's,
 * though it is the same call. */
static void prog_null_wait_first(struct sr_run *b, int p, const int *c, void *arg)
{
    static const int prev[3] = {-1, 0, 0}, next[3] = {1, 0, 0};
    int P = b->run.nprocs, N = 2 * P + 4;

    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int k = 0; k < N; k++) {
        struct pz_scale_event e = to(PZ_REC_RECV, prev, (uint32_t)k, 1024);
        struct sr_truth t = world(b, sr_rank_at(b, c, prev));

        if (p > 0) {
            call(b, p, SR_WAITANY, 0);
            call(b, p, SR_RECV, 0);
            sr_event(b, p, &e, &t);
        }
        if (k == 0 && p < P - 1)
            call(b, p, SR_WAIT, 0);
        if (p == P - 1)
            continue;
        e = to(PZ_REC_SEND, next, (uint32_t)k, 1024);
        t = world(b, sr_rank_at(b, c, next));
        call(b, p, SR_SEND, C / P);
        sr_event(b, p, &e, &t);
    }
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

static void check_null_wait_first(const struct collected *c, int P, int N)
{
    uint32_t tags[160], peers[160];

    /* by hand: N = 36 at 16, 132 at 64; process 0 and process 5 send N chunks to
     * the next process, the last process none; processes 5 and P - 1 poll N times
     * and receive chunks 0 .. N - 1 with their tags, process 0 neither; only the
     * first two call MPI_Wait, once */
    cr_expect_eq(sends_of(c, 0, peers, 160), N);
    cr_expect_eq(sends_of(c, 5, peers, 160), N);
    cr_expect(peers[0] == 6 && peers[N - 1] == 6);
    cr_expect_eq(sends_of(c, P - 1, peers, 160), 0);
    cr_expect_eq(first_calls(c, 0, SR_WAITANY), 0);
    cr_expect_eq(first_calls(c, 5, SR_WAITANY), N);
    cr_expect_eq(first_calls(c, P - 1, SR_WAITANY), N);
    cr_expect_eq(tags_of(c, 0, PZ_REC_RECV, tags, 160), 0);
    cr_expect_eq(tags_of(c, P - 1, PZ_REC_RECV, tags, 160), N);
    cr_expect(tags[0] == 0 && tags[N - 1] == (uint32_t)N - 1);
    cr_expect_eq(first_calls(c, 0, SR_WAIT), 1);
    cr_expect_eq(first_calls(c, 5, SR_WAIT), 1);
    cr_expect_eq(first_calls(c, P - 1, SR_WAIT), 0);
}

Test(scale_program, a_loop_entered_where_other_processes_make_a_first_iteration_apart)
{
    pipeline_at_16_and_64(prog_null_wait_first, check_null_wait_first);
}

/* A pipeline that receives one chunk ahead, as share/validation/pipeline.c does: of
 * N = 2 P + 4 chunks, every process but the first posts the receive of chunk 0
 * (MPI_Irecv) before its loop, and for each chunk k waits for chunk k (MPI_Wait, a
 * receive from the process before, tag k, 1024 bytes) and posts the receive of chunk
 * k + 1 but after the last; every process but the last waits for its previous send
 * (MPI_Wait, from chunk 1 on) and sends chunk k on (MPI_Isend, tag k), and waits for
 * its last send after the loop (the last process on a null request: no event).  The
 * computation, C / P, comes before each send, at the last process before each wait for
 * a chunk.  The wait for chunk 0 completes the receive posted before the loop, the
 * others the one posted in the iteration before. */
static void prog_prefetch(struct sr_run *b, int p, const int *c, void *arg)
{
    static const int prev[3] = {-1, 0, 0}, next[3] = {1, 0, 0};
    int P = b->run.nprocs, N = 2 * P + 4, recv_at = 0, send_at = -1;
    struct pz_scale_event e;
    struct sr_truth t;

    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    if (p > 0) {
        e = ev(PZ_REC_IRECV_REQUEST, SR_WORLD);
        call(b, p, SR_IRECV, 0);
        sr_event(b, p, &e, &no_truth);
        recv_at = steps_of(b, p) - 1;
    }
    for (int k = 0; k < N; k++) {
        if (p > 0) {
            e = to(PZ_REC_IRECV, prev, (uint32_t)k, 1024);
            t = world(b, sr_rank_at(b, c, prev));
            call(b, p, SR_WAIT, p == P - 1 ? C / P : 0);
            e.posted_by = t.posted_by = steps_of(b, p) - 1 - recv_at;
            sr_event(b, p, &e, &t);
            if (k + 1 < N) {
                e = ev(PZ_REC_IRECV_REQUEST, SR_WORLD);
                call(b, p, SR_IRECV, 0);
                sr_event(b, p, &e, &no_truth);
                recv_at = steps_of(b, p) - 1;
            }
        }
        if (p == P - 1)
            continue;
        if (send_at >= 0) {
            call(b, p, SR_WAIT, 0);
            e = ev(PZ_REC_ISEND_COMPLETE, SR_WORLD);
            t = world(b, -1);
            e.posted_by = t.posted_by = steps_of(b, p) - 1 - send_at;
            sr_event(b, p, &e, &t);
        }
        e = to(PZ_REC_ISEND, next, (uint32_t)k, 1024);
        t = world(b, sr_rank_at(b, c, next));
        call(b, p, SR_ISEND, C / P);
        sr_event(b, p, &e, &t);
        send_at = steps_of(b, p) - 1;
    }
    call(b, p, SR_WAIT, 0);
    if (p < P - 1) {
        e = ev(PZ_REC_ISEND_COMPLETE, SR_WORLD);
        t = world(b, -1);
        e.posted_by = t.posted_by = steps_of(b, p) - 1 - send_at;
        sr_event(b, p, &e, &t);
    }
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

static void check_prefetch(const struct collected *c, int P, int N)
{
    uint32_t tags[160];

    /* by hand: N = 36 at 16, 132 at 64; process 5 receives chunks 0 .. N - 1 from
     * process 4 with their tags and sends them to process 6; the last process
     * receives them from P - 2 and sends nothing; process 0 sends N */
    cr_expect_eq(tags_of(c, 5, PZ_REC_IRECV, tags, 160), N);
    cr_expect(tags[0] == 0 && tags[N - 1] == (uint32_t)N - 1);
    cr_expect_eq(tags_of(c, 5, PZ_REC_ISEND, tags, 160), N);
    cr_expect(tags[0] == 0 && tags[N - 1] == (uint32_t)N - 1);
    cr_expect_eq(tags_of(c, P - 1, PZ_REC_IRECV, tags, 160), N);
    cr_expect_eq(tags[N - 1], (uint32_t)N - 1);
    cr_expect_eq(tags_of(c, P - 1, PZ_REC_ISEND, tags, 160), 0);
    cr_expect_eq(tags_of(c, 0, PZ_REC_ISEND, tags, 160), N);
    cr_expect_eq(tags_of(c, 0, PZ_REC_IRECV, tags, 160), 0);
}

Test(scale_program, a_pipeline_receiving_one_chunk_ahead)
{
    pipeline_at_16_and_64(prog_prefetch, check_prefetch);
}

/* The model of prog in 1-D recorded at the n (up to 3) counts given. */
static struct pz_scale_program *program_at(const int *counts, size_t n, sr_program prog,
                                           struct sr_run **runs)
{
    const struct pz_scale_run *list[3];
    struct pz_scale_program *m;
    char err[512] = "", path[32];

    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "run%d", counts[i]);
        runs[i] = sr_build(path, counts[i], 1, NULL, prog, NULL);
        list[i] = &runs[i]->run;
    }
    m = pz_scale_program_build(list, n, 0, err, sizeof(err));
    cr_assert(m, "%s", err);
    return m;
}

/* The model of the 1-D stencil recorded at the n counts given. */
static struct pz_scale_program *stencil_at(const int *counts, size_t n, struct sr_run **runs)
{
    return program_at(counts, n, prog_stencil1, runs);
}

Test(scale_program, recordings_at_too_few_counts_are_noted)
{
    static const int two[2] = {4, 8}, one[1] = {1};
    struct sr_run *runs[3];
    struct pz_scale_program *m;
    struct sr_recorded r;

    /* 2 counts: every growing form fits both, so computations keep the time at 8 */
    m = stencil_at(two, 2, runs);
    cr_expect(has_note(m, "recordings at 2 process counts only"));
    cr_expect(has_note(m, "keeps its time at 8 processes"));
    cr_expect(!has_note(m, "every recording is of 1 process"));
    pz_scale_program_free(m);
    sr_free(runs[0]);
    sr_free(runs[1]);
    /* 1 process: no neighbour, so no peer of a send is known */
    m = stencil_at(one, 1, runs);
    cr_expect(has_note(m, "every recording is of 1 process"));
    cr_expect(has_note(m, "recordings at 1 process count only"));
    cr_expect(has_note(m, "keeps its time at 1 process, "));
    pz_scale_program_free(m);
    sr_free(runs[0]);
    /* 3 counts say neither */
    record(&r, 1, NULL, prog_stencil1);
    cr_expect(!has_note(r.m, "process count"));
    cr_expect(!has_note(r.m, "every recording is of 1 process"));
    sr_recorded_free(&r);
}

/* The pipeline receiving one chunk ahead recorded at 2 and 4 processes: its middle
 * processes (1 and 2 at 4) are in one recording only, where their loop over the chunks
 * runs one iteration fewer than the ends' (the receive of chunk 0 is posted before it,
 * the last chunk's not at all).  The run synthesized at 4 is the recording: by hand,
 * N = 2 * 4 + 4 = 12 chunks, process 1 receives chunks 0 .. 11 from process 0 and sends
 * them to process 2, tags 0 .. 11. */
Test(scale_program, a_class_in_one_recording_runs_its_loop_as_recorded_there)
{
    static const int counts[2] = {2, 4};
    struct sr_run *runs[2], *truth = sr_build("truth", 4, 1, NULL, prog_prefetch, NULL);
    struct pz_scale_program *m = program_at(counts, 2, prog_prefetch, runs);
    struct collected *c = synthesize(m, 4);
    uint32_t tags[16];

    check_run(c, truth, 1);
    cr_expect_eq(tags_of(c, 1, PZ_REC_IRECV, tags, 16), 12);
    cr_expect(tags[0] == 0 && tags[11] == 11);
    cr_expect_eq(tags_of(c, 1, PZ_REC_ISEND, tags, 16), 12);
    cr_expect(tags[0] == 0 && tags[11] == 11);
    collected_free(c);
    sr_free(truth);
    pz_scale_program_free(m);
    sr_free(runs[0]);
    sr_free(runs[1]);
}

/* --- collectives recorded at 1 process */

/* ITERS iterations of C / P s of computation and an MPI_Allreduce of 8 bytes over the
 * world, which a process alone records as moving nothing (no other member). */
static void prog_sum(struct sr_run *b, int p, const int *c, void *arg)
{
    uint64_t bytes = b->run.nprocs > 1 ? 8 : 0;

    (void)c;
    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++)
        collective(b, p, SR_ALLREDUCE, C / b->run.nprocs, SR_WORLD, world(b, -1), -1, bytes,
                   bytes);
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

/* The sizes sent and received of every collective end of processes 0 and P - 1 of prog_sum
 * recorded at the n counts given and synthesized at P, expected `bytes` each. */
static void expect_sums(const int *counts, size_t n, int P, uint64_t bytes)
{
    struct sr_run *runs[3];
    struct pz_scale_program *m = program_at(counts, n, prog_sum, runs);
    struct collected *c = synthesize(m, P);
    int ends = 0;

    for (int p = 0; p < P; p += P - 1)
        for (size_t i = 0; i < c->n[p]; i++)
            if (c->recs[p][i].kind == PZ_REC_COLL_END) {
                cr_expect(c->recs[p][i].bytes == bytes && c->recs[p][i].bytes2 == bytes,
                          "from %d counts up to %d, at %d process %d: %llu and %llu bytes",
                          (int)n, counts[n - 1], P, p,
                          (unsigned long long)c->recs[p][i].bytes,
                          (unsigned long long)c->recs[p][i].bytes2);
                ends++;
            }
    cr_expect_eq(ends, 2 * ITERS);
    collected_free(c);
    pz_scale_program_free(m);
    for (size_t i = 0; i < n; i++)
        sr_free(runs[i]);
}

Test(scale_program, a_collective_recorded_at_1_process_keeps_the_size_it_has_with_others)
{
    static const int eight[2] = {1, 8}, many[2] = {1, 27}, alone[1] = {1};

    /* by hand: 0 bytes at 1 process and 8 at 8; with the 0, 8 / 64 * P^2 gives both once
     * rounded (0.125 at 1) and 512 at 64, and from 1 and 27, 8 / 27 * P gives 19 at 64.
     * Without it, 8 recorded at 8 (or 27) only: 8 at 64 */
    expect_sums(eight, 2, 64, 8);
    expect_sums(many, 2, 64, 8);
    /* at 1 process only, nothing shows another size: the 0 recorded */
    expect_sums(alone, 1, 16, 0);
}

/* --- notes */

/* How many notes of m contain text. */
static size_t notes_with(const struct pz_scale_program *m, const char *text)
{
    size_t n = 0;

    for (size_t i = 0; i < pz_scale_program_nnotes(m); i++)
        n += strstr(pz_scale_program_note(m, i), text) != NULL;
    return n;
}

Test(scale_program, the_classes_in_too_few_recordings_are_named_in_one_note)
{
    struct sr_recorded r;
    const char *note = NULL;

    /* by hand: the 2-D stencil at 2 (2 x 1), 4 (2 x 2) and 8 (4 x 2) processes.  Only the
     * grid of 8 has processes in the middle of dimension 0, at the first and at the last
     * place of dimension 1: the classes 'edge (middle,first)' and 'edge (middle,last)',
     * each in 1 recording, too few for fits of their own; one note names both */
    record(&r, 2, NULL, prog_stencil2);
    cr_expect_eq(notes_with(r.m, "too few recordings for fits of their own"), 1);
    for (size_t i = 0; i < pz_scale_program_nnotes(r.m); i++)
        if (strstr(pz_scale_program_note(r.m, i), "too few recordings"))
            note = pz_scale_program_note(r.m, i);
    cr_assert(note);
    cr_expect(!strncmp(note, "the processes of classes ", 25), "%s", note);
    cr_expect(strstr(note, "'edge (middle,first)'") && strstr(note, "'edge (middle,last)'"),
              "%s", note);
    sr_recorded_free(&r);
}

/* --- blocks of a fixed problem split unevenly */

/* The rows of a block of process c in a 2-D grid (along dimension d = 0) or its columns
 * (d = 1): 1024 split over dims[d], the first 1024 mod dims[d] blocks a row more. */
static uint64_t block_side(const struct sr_run *b, const int *c, int d)
{
    int n = b->run.grid.dims[d];

    return (uint64_t)(1024 / n + (c[d] < 1024 % n));
}

/* ITERS iterations of a halo exchange of a 1024 x 1024 problem of 8-byte items on a 2-D
 * grid (MPI_Send to each neighbour, then MPI_Recv from each): the message across
 * dimension 0 is a row of the block (its columns, block_side(1)), across dimension 1 a
 * column (its rows, block_side(0)); then C / P s of computation and an MPI_Allreduce. */
static void prog_uneven_halo(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++) {
        for (int kind = 0; kind < 2; kind++)
            for (int d = 0; d < 4; d++) {
                uint64_t bytes = 8 * block_side(b, c, dirs2[d][0] != 0 ? 1 : 0);
                struct pz_scale_event e = to(kind ? PZ_REC_RECV : PZ_REC_SEND, dirs2[d], TAG,
                                             bytes);
                struct sr_truth t = world(b, sr_rank_at(b, c, dirs2[d]));

                if (t.peer < 0)
                    continue;
                call(b, p, kind ? SR_RECV : SR_SEND, 0);
                sr_event(b, p, &e, &t);
            }
        collective(b, p, SR_ALLREDUCE, C / b->run.nprocs, SR_WORLD, world(b, -1), -1, 8, 8);
    }
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

Test(scale_program, halos_of_blocks_split_unevenly_take_the_largest_block)
{
    static const int counts[3] = {3, 6, 12};
    struct sr_recorded r;
    struct collected *c;

    /* by hand: grids 3 x 1, 3 x 2 and 4 x 3.  The rows sent across dimension 0 are
     * 8 * ceil(1024 / dims[1]) bytes at most: 8192, 4096 and 2736 (342 items; 341 at the
     * last two blocks of the 3); the columns across dimension 1, at 6 and 12 only,
     * 8 * ceil(1024 / dims[0]): 2736 and 2048.  No exact form of P or of the grid gives
     * them (1024 / 3 is no whole number); unit * ceil(N / dims[d]) does, the smallest
     * unit 8 (the common divisor 16's 1, 2 and 4 give N = 8192, 4096 and 2048 and miss
     * 2736 by 5, 4 and 4 items), N = 1024.  At 16 (4 x 4) and 64 (8 x 8) the blocks are
     * even: every message 2048 and 1024 bytes, as check_program_at compares record by
     * record; the largest-block fallback fitted to 8192, 4096 and 2736 is not that */
    c = check_program_at(counts, 2, NULL, prog_uneven_halo, 16, &r);
    for (size_t i = 0; i < c->n[5]; i++)
        if (c->recs[5][i].kind == PZ_REC_SEND)
            cr_expect_eq(c->recs[5][i].bytes, 2048);
    collected_free(c);
    sr_recorded_free(&r);
}
