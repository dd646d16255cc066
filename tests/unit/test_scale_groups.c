/* Groups of processes in the scaling (replay/scale_run.h's BLOCKS, STRIDE and LEADERS
 * classes): hand-built recordings of a two-level reduction, as hierarchical codes sum
 * (share/validation/hier.c), read, classed across the counts, modelled and synthesized
 * at counts not recorded; every process's communicators (members), calls, roots and
 * bytes checked against what the program does there, worked out by hand below.
 *
 * The program at P processes with groups of k: MPI_Comm_split by rank / k (blocks of k
 * consecutive ranks, the last one shorter when k does not divide P) and by rank % k == 0
 * (the leaders 0, k, 2k ...; the others get MPI_COMM_NULL).  Each process reduces 16
 * doubles (128 bytes) to the first of its block (MPI_Reduce, root 0), the leaders sum
 * theirs (MPI_Allreduce), and the first of each block hands the total back (MPI_Bcast,
 * root 0).  Bytes as the recorder writes them (docs/trace-format.md, "Bytes of
 * collectives"): a Reduce's root receives 128 and sends 0, the others send 128; a
 * Bcast's root sends 128, the others receive 128; an Allreduce sends and receives 128;
 * a collective of one member moves nothing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program.h"
#include "scale_run.h"
#include "trace.h"
#include "tempdir_fixture.h"
#include "trace_builder.h"

#define MS TB_MS
#define BYTES 128
#define MAX_COMMS 80
#define MAX_PROCS 64
#define MAX_CALLS 4

TestSuite(scale_groups, .init = setup, .fini = cleanup);

/* A whole collective call of process p from *t on (1 ms in, 1 ms after). */
static void collective(struct tb *b, int p, uint64_t *t, const char *name, OTF2_CollectiveOp op,
                       uint32_t comm, uint32_t root, uint64_t sent, uint64_t received)
{
    tb_collective_call_bytes(b, p, name, MS(*t), MS(*t + 1), op, comm, root, sent, received);
    *t += 2;
}

/* The communicator ids of a run: every block's (by its index) and the leaders'. */
struct comms {
    uint32_t block[MAX_PROCS], leaders;
};

/* Defines them at n processes with groups of k as MPI_Comm_split does (the leaders' only
 * when leaders is set). */
static void define_groups(struct tb *b, int n, int k, int leaders, struct comms *c)
{
    int members[MAX_PROCS], m = 0;

    for (int first = 0; first < n; first += k) {
        char name[48];
        int size = n - first < k ? n - first : k;

        for (int j = 0; j < size; j++)
            members[j] = first + j;
        snprintf(name, sizeof(name), "Comm %d (MPI_Comm_split)", 2 + first / k);
        c->block[first / k] = tb_comm(b, name, size, members);
    }
    for (int r = 0; r < n; r += k)
        members[m++] = r;
    if (leaders)
        c->leaders = tb_comm(b, "Comm leaders (MPI_Comm_split)", m, members);
}

/* The two-level reduction (above) at n processes in groups of k, recorded as NAME;
 * without the leaders' sum unless leaders is set. */
static void record_groups(const char *name, int n, int k, int leaders)
{
    char dir[4200];
    struct tb *b;
    struct comms c = { .leaders = TB_WORLD };

    snprintf(dir, sizeof(dir), "%s/%s", top, name);
    cr_assert_not_null(b = tb_open(dir, n), "cannot open a trace in %s", dir);
    define_groups(b, n, k, leaders, &c);
    for (int p = 0; p < n; p++) {
        uint32_t block = c.block[p / k];
        int size = n - p / k * k < k ? n - p / k * k : k, first = p % k == 0;
        int nleaders = (n + k - 1) / k;
        uint64_t t = 1, alone = size == 1;

        collective(b, p, &t, "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, block, 0,
                   first || alone ? 0 : BYTES, first && !alone ? BYTES : 0);
        if (first && leaders)
            collective(b, p, &t, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, c.leaders,
                       TB_NO_ROOT, nleaders > 1 ? BYTES : 0, nleaders > 1 ? BYTES : 0);
        collective(b, p, &t, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, block, 0,
                   first && !alone ? BYTES : 0, first || alone ? 0 : BYTES);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

static void record_hier(const char *name, int n, int k)
{
    record_groups(name, n, k, 1);
}

/* Only the blocks' Reduce and Bcast, in `parts` blocks of ceil(n / parts) whatever n. */
static void record_parts(const char *name, int n, int parts)
{
    record_groups(name, n, (n + parts - 1) / parts, 0);
}

/* The runs at counts[0..2] with groups of k, read, classed across them and modelled;
 * NULL with err when the model cannot be built. */
static struct pz_scale_program *model(const char *prefix, const int *counts, int k,
                                      void (*record)(const char *, int, int),
                                      struct pz_scale_run *runs)
{
    const struct pz_scale_run *list[3] = { &runs[0], &runs[1], &runs[2] };

    for (int i = 0; i < 3; i++) {
        char name[32], dir[4200];

        snprintf(name, sizeof(name), "%s%d", prefix, counts[i]);
        record(name, counts[i], k);
        snprintf(dir, sizeof(dir), "%s/%s", top, name);
        cr_assert_eq(pz_scale_run_read(dir, &runs[i], err, sizeof(err)), 0, "%s", err);
    }
    pz_scale_runs_resolve_groups(runs, 3);
    return pz_scale_program_build(list, 3, 0, err, sizeof(err));
}

/* What a synthesized run gives: its communicators' members, and each process's
 * collectives (operation, communicator, root as a rank of it, bytes). */
struct call {
    uint8_t op;
    uint32_t comm, root;
    uint64_t sent, received;
};

struct synthesized {
    int size[MAX_COMMS], members[MAX_COMMS][MAX_PROCS];
    uint32_t ncomms;
    struct call calls[MAX_PROCS][MAX_CALLS];
    int ncalls[MAX_PROCS];
};

static int keep_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    struct synthesized *s = ctx;

    cr_assert_leq(n, MAX_COMMS);
    s->ncomms = n;
    for (uint32_t i = 0; i < n; i++) {
        s->size[i] = (int)comms[i].size;
        for (uint32_t j = 0; j < comms[i].size && j < MAX_PROCS; j++)
            s->members[i][j] = comms[i].members ? comms[i].members[j] : (int)j;
    }
    return 0;
}

static int keep_calls(void *ctx, int proc, const struct pz_rec *r)
{
    struct synthesized *s = ctx;

    if (r->kind != PZ_REC_COLL_END)
        return 0;
    cr_assert_lt(s->ncalls[proc], MAX_CALLS, "process %d makes too many calls", proc);
    s->calls[proc][s->ncalls[proc]++] =
        (struct call){ r->coll_op, r->comm, r->peer, r->bytes, r->bytes2 };
    return 0;
}

static void synthesize(const struct pz_scale_program *m, int nprocs, struct synthesized *s)
{
    struct pz_scale_sink sink = { keep_comms, keep_calls, s };

    memset(s, 0, sizeof(*s));
    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
}

/* Communicator c of s has members first, first + step ... (size of them). */
static void expect_members(const struct synthesized *s, uint32_t c, int first, int step,
                           int size, int proc)
{
    cr_assert_lt(c, s->ncomms, "process %d: communicator %u", proc, c);
    cr_expect_eq(s->size[c], size, "process %d: communicator of %d members, not %d", proc,
                 s->size[c], size);
    for (int j = 0; j < size && j < s->size[c]; j++)
        cr_expect_eq(s->members[c][j], first + j * step, "process %d: member %d is %d, not %d",
                     proc, j, s->members[c][j], first + j * step);
}

static void expect_call(const struct call *c, uint8_t op, uint32_t root, uint64_t sent,
                        uint64_t received, int proc)
{
    cr_expect_eq(c->op, op, "process %d: operation %u, not %u", proc, c->op, op);
    cr_expect_eq(c->root, root, "process %d: root %u, not %u", proc, c->root, root);
    cr_expect_eq(c->sent, sent, "process %d: sent %llu, not %llu", proc,
                 (unsigned long long)c->sent, (unsigned long long)sent);
    cr_expect_eq(c->received, received, "process %d: received %llu, not %llu", proc,
                 (unsigned long long)c->received, (unsigned long long)received);
}

/* The run at P with groups of k, as the program makes it: process p's block is the k
 * consecutive ranks from p / k * k (fewer when they reach P), the root of its Reduce and
 * Bcast its first member (rank 0 of it); with_leaders, the leaders, p % k == 0, make the
 * Allreduce on 0, k, 2k ... below P, the others no third call. */
static void expect_groups(const struct synthesized *s, int nprocs, int k, int with_leaders)
{
    int nleaders = (nprocs + k - 1) / k;

    for (int p = 0; p < nprocs; p++) {
        int first = p / k * k, size = nprocs - first < k ? nprocs - first : k;
        int root = p == first, alone = size == 1, leader = with_leaders && p % k == 0;
        const struct call *c = s->calls[p];

        cr_assert_eq(s->ncalls[p], 2 + leader, "process %d of %d: %d calls, not %d", p,
                     nprocs, s->ncalls[p], 2 + leader);
        expect_members(s, c[0].comm, first, 1, size, p);
        expect_call(&c[0], OTF2_COLLECTIVE_OP_REDUCE, 0, root || alone ? 0 : BYTES,
                    root && !alone ? BYTES : 0, p);
        if (leader) {
            expect_members(s, c[1].comm, 0, k, nleaders, p);
            expect_call(&c[1], OTF2_COLLECTIVE_OP_ALLREDUCE, PZ_NONE32, BYTES, BYTES, p);
        }
        expect_members(s, c[1 + leader].comm, first, 1, size, p);
        cr_expect_eq(c[1 + leader].comm, c[0].comm, "process %d: Bcast on another block",
                     p);
        expect_call(&c[1 + leader], OTF2_COLLECTIVE_OP_BCAST, 0, root && !alone ? BYTES : 0,
                    root || alone ? 0 : BYTES, p);
    }
}

static void expect_hier(const struct synthesized *s, int nprocs, int k)
{
    expect_groups(s, nprocs, k, 1);
}

static void free_runs(struct pz_scale_program *m, struct pz_scale_run *runs)
{
    pz_scale_program_free(m);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
}

/* Groups of 2 recorded at 2, 4 and 8.  At 2 the block is the world and the leaders are
 * rank 0 alone: the recordings at 4 and 8 ({0, 1}, {2, 3} ...; {0, 2} and {0, 2, 4, 6})
 * class them, blocks of 2 and every 2nd rank.  At 16: blocks {0, 1} ... {14, 15}, the
 * leaders {0, 2 ... 14} (8), processes 0, 2 ... 14 making 3 calls and the others 2; at
 * 64, 32 blocks and 32 leaders {0, 2 ... 62}. */
Test(scale_groups, blocks_of_2_and_their_leaders_from_2_4_8)
{
    static const int counts[3] = {2, 4, 8};
    struct pz_scale_run runs[3] = { 0 };
    struct pz_scale_program *m = model("two", counts, 2, record_hier, runs);
    static struct synthesized s;

    cr_assert_not_null(m, "%s", err);
    synthesize(m, 16, &s);
    expect_hier(&s, 16, 2);
    synthesize(m, 64, &s);
    expect_hier(&s, 64, 2);
    free_runs(m, runs);
}

/* Groups of 4 recorded at 3, 6 and 12.  At 3 the block is the world and the leaders
 * rank 0 alone; at 6 the blocks are {0 .. 3} and {4, 5}, shorter (its class is the
 * others' block of 4, not a block of 2), the leaders {0, 4}; at 12 three blocks of 4,
 * the leaders {0, 4, 8}.  At 16: 4 blocks, leaders {0, 4, 8, 12}; at 64: 16 blocks, 16
 * leaders.  At 10, where 4 does not divide P: blocks {0 .. 3}, {4 .. 7}, {8, 9}, leaders
 * {0, 4, 8}; at 13 the last block is process 12 alone, which reduces and broadcasts
 * nothing and is a leader (12 = 3 * 4). */
Test(scale_groups, blocks_of_4_from_3_6_12_also_where_4_does_not_divide_p)
{
    static const int counts[3] = {3, 6, 12};
    struct pz_scale_run runs[3] = { 0 };
    struct pz_scale_program *m = model("four", counts, 4, record_hier, runs);
    static struct synthesized s;

    cr_assert_not_null(m, "%s", err);
    synthesize(m, 16, &s);
    expect_hier(&s, 16, 4);
    synthesize(m, 64, &s);
    expect_hier(&s, 64, 4);
    synthesize(m, 10, &s);
    expect_hier(&s, 10, 4);
    synthesize(m, 13, &s);
    expect_hier(&s, 13, 4);
    free_runs(m, runs);
}

/* Two blocks whatever P (MPI_Comm_split by rank / ceil(P / 2)), recorded at 4, 6 and 8:
 * blocks of 2, 3 and 4, P / 2 each, so 2 blocks.  At 16: {0 .. 7} and {8 .. 15}; at 64
 * {0 .. 31} and {32 .. 63}; at 9, blocks of ceil(9 / 2) = 5: {0 .. 4} and {5 .. 8},
 * shorter.  Each process makes its Reduce and Bcast on its block, rooted at its
 * first. */
Test(scale_groups, two_blocks_whatever_p_from_4_6_8)
{
    static const int counts[3] = {4, 6, 8};
    struct pz_scale_run runs[3] = { 0 };
    struct pz_scale_program *m = model("parts", counts, 2, record_parts, runs);
    static struct synthesized s;

    cr_assert_not_null(m, "%s", err);
    synthesize(m, 16, &s);
    expect_groups(&s, 16, 8, 0);
    synthesize(m, 64, &s);
    expect_groups(&s, 64, 32, 0);
    synthesize(m, 9, &s);
    expect_groups(&s, 9, 5, 0);
    free_runs(m, runs);
}

/* A split by rank % 2 (the even ranks and the odd ones), each process summing over its
 * own (MPI_Allreduce of 128 bytes), recorded at 2, 4 and 8.  At 2 each process is alone
 * ({0}, {1}, moving nothing); at 4 {0, 2} and {1, 3}: the ranks equal modulo 2.  At 16:
 * process p's communicator is p % 2, p % 2 + 2 ... (8 members), 128 bytes each way. */
static void record_stride(const char *name, int n, int k)
{
    char dir[4200];
    struct tb *b;
    uint32_t comm[2];

    snprintf(dir, sizeof(dir), "%s/%s", top, name);
    cr_assert_not_null(b = tb_open(dir, n), "cannot open a trace in %s", dir);
    for (int i = 0; i < k; i++) {
        int members[MAX_PROCS], m = 0;

        for (int r = i; r < n; r += k)
            members[m++] = r;
        comm[i] = tb_comm(b, i ? "Comm 3 (MPI_Comm_split)" : "Comm 2 (MPI_Comm_split)", m,
                          members);
    }
    for (int p = 0; p < n; p++) {
        uint64_t t = 1, moved = n > k ? BYTES : 0;

        collective(b, p, &t, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, comm[p % k],
                   TB_NO_ROOT, moved, moved);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

Test(scale_groups, the_ranks_equal_modulo_2_from_2_4_8)
{
    static const int counts[3] = {2, 4, 8};
    struct pz_scale_run runs[3] = { 0 };
    struct pz_scale_program *m = model("stride", counts, 2, record_stride, runs);
    static struct synthesized s;

    cr_assert_not_null(m, "%s", err);
    synthesize(m, 16, &s);
    for (int p = 0; p < 16; p++) {
        cr_assert_eq(s.ncalls[p], 1, "process %d: %d calls", p, s.ncalls[p]);
        expect_members(&s, s.calls[p][0].comm, p % 2, 2, 8, p);
        expect_call(&s.calls[p][0], OTF2_COLLECTIVE_OP_ALLREDUCE, PZ_NONE32, BYTES, BYTES,
                    p);
    }
    free_runs(m, runs);
}

/* Groups the data decide: at 4 processes {0, 1, 3} and {2}, at 8 {0, 5, 6} and {1, 2,
 * 3, 4, 7} (at 2 the world): neither consecutive ranks nor ranks a step apart, and {2}
 * alone is no class the others show.  Refused in one line naming the call and the
 * communicators' classes (at 4 process 2's call is on itself alone, at 2 on the world;
 * at 8 on communicators of no class). */
static const int irregular[3][2][6] = {
    { { 2, 0, 1 } },                                   /* size, then members */
    { { 3, 0, 1, 3 }, { 1, 2 } },
    { { 3, 0, 5, 6 }, { 5, 1, 2, 3, 4, 7 } },
};

static void record_irregular(const char *name, int n, int k)
{
    const int (*groups)[6] = irregular[n == 2 ? 0 : n == 4 ? 1 : 2];
    char dir[4200];
    struct tb *b;
    uint32_t comm[2];
    int of[MAX_PROCS];

    (void)k;
    snprintf(dir, sizeof(dir), "%s/%s", top, name);
    cr_assert_not_null(b = tb_open(dir, n), "cannot open a trace in %s", dir);
    for (int i = 0; i < 2 && groups[i][0]; i++) {
        comm[i] = tb_comm(b, i ? "Comm 3 (MPI_Comm_split)" : "Comm 2 (MPI_Comm_split)",
                          groups[i][0], &groups[i][1]);
        for (int j = 0; j < groups[i][0]; j++)
            of[groups[i][1 + j]] = i;
    }
    for (int p = 0; p < n; p++) {
        uint64_t t = 1;

        collective(b, p, &t, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, comm[of[p]],
                   TB_NO_ROOT, BYTES, BYTES);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

Test(scale_groups, groups_the_data_decide_are_refused)
{
    static const int counts[3] = {2, 4, 8};
    struct pz_scale_run runs[3] = { 0 };
    struct pz_scale_program *m = model("irregular", counts, 0, record_irregular, runs);

    cr_expect_null(m);
    cr_expect(strstr(err, "recordings differ") && strstr(err, "MPI_Allreduce") &&
              strstr(err, "instead of") && !strchr(err, '\n'), "error '%s'", err);
    free_runs(m, runs);
}
