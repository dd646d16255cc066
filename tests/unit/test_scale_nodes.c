/* The communicators that follow the replaying machine's nodes in the scaling
 * (replay/scale_nodes.c): hand-built recordings, made on one machine, of a node-aware
 * reduction, read, classed across the counts, modelled and synthesized at 16 and 10
 * processes for nodes of 4 placed in blocks or cyclically, and of 16 or more (one node);
 * every process's communicators (members), calls, roots and bytes checked against what
 * the program does on such nodes, worked out by hand below.
 *
 * The program: node = MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), the processes of the
 * caller's node; leaders = MPI_Comm_split by (rank in node == 0), the others
 * MPI_UNDEFINED.  Each process reduces 16 doubles (128 bytes) to the first of its node
 * (MPI_Reduce, root 0 of node); the leaders sum theirs (MPI_Allreduce on leaders) inside
 * interval 4; the first of each node hands the total back (MPI_Bcast, root 0 of node).
 * Recorded on one machine at 2, 4 and 8 processes, node is every process and leaders
 * rank 0 alone.  Bytes as the recorder writes them (docs/trace-format.md, "Bytes of
 * collectives"): on a communicator of n, a Reduce's root receives (n - 1) 128 and sends
 * 0, the others send 128; a Bcast's root sends (n - 1) 128, the others receive 128 (at
 * 2, 4 and 8: 128, 384 and 896 at the root, which grow with the node's members, not
 * with P: on a node of 4 at 16, 384); a collective of one member moves nothing, so the
 * leaders' Allreduce is recorded with 0 bytes at every count (and synthesized so: no
 * recording shows what it moves among several). */
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
#define MAX_COMMS 40
#define MAX_PROCS 16
#define MAX_CALLS 4

TestSuite(scale_nodes, .init = setup, .fini = cleanup);

/* A whole collective call of process p from *t on (1 ms in, 1 ms after). */
static void collective(struct tb *b, int p, uint64_t *t, const char *name, OTF2_CollectiveOp op,
                       uint32_t comm, uint32_t root, uint64_t sent, uint64_t received)
{
    tb_collective_call_bytes(b, p, name, MS(*t), MS(*t + 1), op, comm, root, sent, received);
    *t += 2;
}

/* The program (above) recorded on one machine at n processes as NAME; without the
 * leaders' communicator and sum unless leaders is set.  The recorder names each
 * communicator the program creates after its id and constructor: the node's is the
 * first tb_comm defines (2), the leaders' the second (3). */
static void record(const char *name, int n, int leaders)
{
    char dir[4200];
    int all[MAX_PROCS], zero = 0;
    uint32_t node, lead = TB_WORLD, interval;
    struct tb *b;

    snprintf(dir, sizeof(dir), "%s/%s", top, name);
    cr_assert_not_null(b = tb_open(dir, n), "cannot open a trace in %s", dir);
    for (int p = 0; p < n; p++)
        all[p] = p;
    node = tb_comm(b, "Comm 2 (MPI_Comm_split_type)", n, all);
    cr_assert_eq(node, 2);
    if (leaders)
        cr_assert_eq(lead = tb_comm(b, "Comm 3 (MPI_Comm_split)", 1, &zero), 3);
    interval = tb_interval(b, 4, "node.c", 40);
    for (int p = 0; p < n; p++) {
        uint64_t t = 1;
        int first = p == 0, alone = n == 1;

        collective(b, p, &t, "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, node, 0,
                   first || alone ? 0 : BYTES, first ? (uint64_t)(n - 1) * BYTES : 0);
        if (first && leaders) {
            tb_enter(b, p, MS(t), interval);
            t++;
            collective(b, p, &t, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, lead,
                       TB_NO_ROOT, 0, 0);
            tb_leave(b, p, MS(t), interval);
            t++;
        }
        collective(b, p, &t, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, node, 0,
                   first ? (uint64_t)(n - 1) * BYTES : 0, first || alone ? 0 : BYTES);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

static struct pz_scale_run runs[3];

/* The runs at 2, 4 and 8, read, classed across them and modelled. */
static struct pz_scale_program *model(int leaders)
{
    static const int counts[3] = {2, 4, 8};
    const struct pz_scale_run *list[3] = { &runs[0], &runs[1], &runs[2] };
    struct pz_scale_program *m;

    for (int i = 0; i < 3; i++) {
        char name[32], dir[4200];

        snprintf(name, sizeof(name), "%s%d", leaders ? "leaders" : "node", counts[i]);
        record(name, counts[i], leaders);
        snprintf(dir, sizeof(dir), "%s/%s", top, name);
        cr_assert_eq(pz_scale_run_read(dir, &runs[i], err, sizeof(err)), 0, "%s", err);
    }
    pz_scale_runs_resolve_groups(runs, 3);
    m = pz_scale_program_build(list, 3, 0, err, sizeof(err));
    cr_assert_not_null(m, "%s", err);
    return m;
}

static void free_model(struct pz_scale_program *m)
{
    pz_scale_program_free(m);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
}

/* What a synthesized run gives: its communicators' members, and each process's
 * collectives (operation, communicator, root as a rank of it, bytes) and Enters. */
struct call {
    uint8_t op;
    uint32_t comm, root;
    uint64_t sent, received;
};

struct synthesized {
    int size[MAX_COMMS], members[MAX_COMMS][MAX_PROCS];
    uint32_t ncomms;
    struct call calls[MAX_PROCS][MAX_CALLS];
    int ncalls[MAX_PROCS], enters[MAX_PROCS];
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

    s->enters[proc] += r->kind == PZ_REC_ENTER;
    if (r->kind != PZ_REC_COLL_END)
        return 0;
    cr_assert_lt(s->ncalls[proc], MAX_CALLS, "process %d makes too many calls", proc);
    s->calls[proc][s->ncalls[proc]++] =
        (struct call){ r->coll_op, r->comm, r->peer, r->bytes, r->bytes2 };
    return 0;
}

/* The run of m at nprocs on nodes of procs_per_node placed cyclically or not. */
static void synthesize(struct pz_scale_program *m, int nprocs, int procs_per_node, int cyclic,
                       struct synthesized *s)
{
    struct pz_scale_sink sink = { keep_comms, keep_calls, s };
    struct pz_scale_nodes nodes;

    cr_assert_eq(pz_scale_nodes_at(m, procs_per_node, cyclic, nprocs, &nodes), 0);
    pz_scale_program_follow_nodes(m, &nodes);
    memset(s, 0, sizeof(*s));
    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
}

/* Communicator c of s has members[0..size-1]. */
static void expect_members(const struct synthesized *s, uint32_t c, const int *members,
                           int size, int proc)
{
    cr_assert_lt(c, s->ncomms, "process %d: communicator %u", proc, c);
    cr_expect_eq(s->size[c], size, "process %d: communicator of %d members, not %d", proc,
                 s->size[c], size);
    for (int j = 0; j < size && j < s->size[c]; j++)
        cr_expect_eq(s->members[c][j], members[j], "process %d: member %d is %d, not %d",
                     proc, j, s->members[c][j], members[j]);
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

/* The nodes by hand: node[p][0..size[p]-1] the world ranks of process p's node, in rank
 * order; leaders[0..nleaders-1] the first of each node. */
struct hand {
    int node[MAX_PROCS][MAX_PROCS], size[MAX_PROCS];
    int leaders[MAX_PROCS], nleaders;
};

/* Process p's calls: Reduce to the first of its node, the leaders' Allreduce (0 bytes,
 * as recorded) inside interval 4 where p leads its node, Bcast from the first of its
 * node, the root moving 128 from or to each other member of the node; Enters: its three
 * or two calls and the interval's. */
static void expect_run(const struct synthesized *s, int nprocs, const struct hand *h,
                       int leaders)
{
    for (int p = 0; p < nprocs; p++) {
        int root = h->node[p][0] == p, alone = h->size[p] == 1, leader = leaders && root;
        uint64_t others = (uint64_t)(h->size[p] - 1) * BYTES;
        const struct call *c = s->calls[p];

        cr_assert_eq(s->ncalls[p], 2 + leader, "process %d of %d: %d calls, not %d", p,
                     nprocs, s->ncalls[p], 2 + leader);
        cr_expect_eq(s->enters[p], 2 + 2 * leader, "process %d: %d Enters, not %d", p,
                     s->enters[p], 2 + 2 * leader);
        expect_members(s, c[0].comm, h->node[p], h->size[p], p);
        expect_call(&c[0], OTF2_COLLECTIVE_OP_REDUCE, 0, root || alone ? 0 : BYTES,
                    root ? others : 0, p);
        if (leader) {
            expect_members(s, c[1].comm, h->leaders, h->nleaders, p);
            expect_call(&c[1], OTF2_COLLECTIVE_OP_ALLREDUCE, PZ_NONE32, 0, 0, p);
        }
        cr_expect_eq(c[1 + leader].comm, c[0].comm, "process %d: Bcast on another node", p);
        expect_call(&c[1 + leader], OTF2_COLLECTIVE_OP_BCAST, 0, root ? others : 0,
                    root || alone ? 0 : BYTES, p);
    }
}

/* Nodes of k consecutive ranks at n: p's is p / k * k up to k ranks (fewer at the end);
 * their first ranks 0, k, 2k ... */
static void blocks(struct hand *h, int n, int k)
{
    memset(h, 0, sizeof(*h));
    for (int p = 0; p < n; p++) {
        int first = p / k * k;

        for (int r = first; r < n && r < first + k; r++)
            h->node[p][h->size[p]++] = r;
    }
    for (int r = 0; r < n; r += k)
        h->leaders[h->nleaders++] = r;
}

/* 16 on nodes of 4 in blocks: nodes {0..3} {4..7} {8..11} {12..15}, the leaders {0, 4,
 * 8, 12}: processes 0, 4, 8, 12 reduce into themselves (384 bytes from the 3 others of
 * their node), sum among the 4 in interval 4 and broadcast to the 3 others (384). */
Test(scale_nodes, nodes_of_4_in_blocks_at_16_and_their_leaders)
{
    struct pz_scale_program *m = model(1);
    static struct synthesized s;
    struct hand h;

    cr_expect_eq(pz_scale_program_nodes(m), PZ_SCALE_HAS_NODE | PZ_SCALE_HAS_LEADERS);
    synthesize(m, 16, 4, 0, &s);
    blocks(&h, 16, 4);
    expect_run(&s, 16, &h, 1);
    free_model(m);
}

/* 10 on nodes of 4 in blocks: 4 does not divide 10, the last node is {8, 9}, whose
 * root 8 receives and sends 128 (384 at 0 and 4); the leaders {0, 4, 8}. */
Test(scale_nodes, nodes_of_4_in_blocks_at_10_the_last_shorter)
{
    struct pz_scale_program *m = model(1);
    static struct synthesized s;
    struct hand h;

    synthesize(m, 10, 4, 0, &s);
    blocks(&h, 10, 4);
    expect_run(&s, 10, &h, 1);
    free_model(m);
}

/* Nodes of 16 or 32 at 16 (k >= P), cyclic or not: one node, every process, its root 0
 * moving 15 x 128 = 1920 bytes; the leaders rank 0 alone, as recorded; and again nodes
 * of 4 after them, the same model. */
Test(scale_nodes, one_node_of_every_process_where_a_node_holds_them_all)
{
    struct pz_scale_program *m = model(1);
    static struct synthesized s;
    struct hand h;

    synthesize(m, 16, 16, 0, &s);
    blocks(&h, 16, 16);
    cr_assert_eq(h.nleaders, 1);
    expect_run(&s, 16, &h, 1);
    synthesize(m, 16, 32, 1, &s);
    expect_run(&s, 16, &h, 1);
    synthesize(m, 16, 4, 0, &s);
    blocks(&h, 16, 4);
    expect_run(&s, 16, &h, 1);
    free_model(m);
}

/* 16 on nodes of 4 placed cyclically, rank r on node r mod 4 (4 nodes): p's node is
 * {p mod 4, p mod 4 + 4, p mod 4 + 8, p mod 4 + 12}, whose first, p mod 4, is the root
 * of its Reduce and Bcast (384 bytes); at 10 (3 nodes, r mod 3): {0, 3, 6, 9} (root 0:
 * 384), {1, 4, 7} and {2, 5, 8} (roots 1 and 2: 256).
 * The program without the leaders: with them, cyclic nodes are not followed (their
 * first processes, 0 to 3, are no class), one node of every process instead. */
Test(scale_nodes, nodes_of_4_placed_cyclically)
{
    struct pz_scale_program *m = model(0);
    static struct synthesized s;
    struct pz_scale_nodes one;
    struct hand h;
    int at[2][2] = { {16, 4}, {10, 3} };

    cr_expect_eq(pz_scale_program_nodes(m), PZ_SCALE_HAS_NODE);
    for (int i = 0; i < 2; i++) {
        int n = at[i][0], nodes = at[i][1];

        memset(&h, 0, sizeof(h));
        for (int p = 0; p < n; p++)
            for (int r = p % nodes; r < n; r += nodes)
                h.node[p][h.size[p]++] = r;
        synthesize(m, n, 4, 1, &s);
        expect_run(&s, n, &h, 0);
    }
    free_model(m);
    m = model(1);
    cr_expect_eq(pz_scale_nodes_at(m, 4, 1, 16, &one), -1);
    cr_expect(one.cyclic == 0 && one.k == 16, "one node of 16, not %s %u",
              one.cyclic ? "cyclic" : "blocks", one.k);
    free_model(m);
}

/* A process per node placed cyclically is a process per node in blocks: at 16, 16 nodes
 * {p}, each process its own leader, rank r on node r mod 16 = r either way; the leaders'
 * program is followed (with 4 per node cyclically it is not, above), one layout named
 * for both. */
Test(scale_nodes, a_process_per_node_placed_cyclically_is_nodes_of_1_in_blocks)
{
    struct pz_scale_program *m = model(1);
    static struct synthesized s;
    struct pz_scale_nodes one;
    struct hand h;

    cr_expect_eq(pz_scale_nodes_at(m, 1, 1, 16, &one), 0);
    cr_expect(one.cyclic == 0 && one.k == 1, "nodes of 1 in blocks, not %s %u",
              one.cyclic ? "cyclic" : "blocks", one.k);
    synthesize(m, 16, 1, 1, &s);
    blocks(&h, 16, 1);
    cr_assert_eq(h.nleaders, 16);
    expect_run(&s, 16, &h, 1);
    free_model(m);
}
