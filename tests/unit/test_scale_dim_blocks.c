/* Point-to-point sizes that differ between processes as a block distribution along a
 * dimension of the grid (replay/scale_dim_blocks.c): a 2-D halo exchange over N = 11
 * cells a side split over each dimension's processes, recorded by hand (scale_runs.h) at
 * 2, 4 and 8 processes (grids 2 x 1, 2 x 2, 4 x 2), synthesized at 16 (4 x 4) and 64
 * (8 x 8) and checked message by message against sizes worked out by hand from the
 * definition; a halo whose size is the block of the dimension it crosses, which no such
 * law gives both its sender and its receiver, keeps the largest. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "scale_program_int.h"
#include "scale_runs.h"
#include "trace.h"
#include "model_notes.h"

#define C 0.004     /* s: the computation of one iteration on one process; C / P at P */
#define ITERS 3
#define CELLS 11    /* N, the cells of a side of the global grid */
#define ITEM 8      /* bytes of a cell */
#define TAG 5

/* The cells of dimension d at coordinate c of grid g: floor(N / dims[d]), one more
 * below N mod dims[d]. */
static uint64_t block(const struct pz_scale_grid *g, const int *c, int d)
{
    return (uint64_t)(CELLS / g->dims[d] + (c[d] < CELLS % g->dims[d]));
}

/* The four neighbours: up and down (along dimension 0), left and right (along 1). */
static const int dirs[4][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}};

/* The size of the message to or from the neighbour at dir: as the program computes it
 * at coordinates c, the block of the other dimension (own_dim 0), or of the dimension
 * the message crosses (own_dim 1). */
static uint64_t side_bytes(const struct sr_run *b, const int *c, const int *dir, int own_dim)
{
    int crossed = dir[0] ? 0 : 1;

    return ITEM * block(&b->run.grid, c, own_dim ? crossed : 1 - crossed);
}

static const struct sr_truth no_truth = {-1, 0, 0, 0, -1};

static struct pz_scale_event to(uint8_t kind, const int *dir, uint64_t bytes)
{
    struct pz_scale_event e = {.kind = kind, .comm = SR_WORLD, .posted_by = -1, .tag = TAG};

    e.peer.kind = PZ_SCALE_PEER_OFFSET;
    for (int d = 0; d < 3; d++)
        e.peer.off[d] = (int8_t)dir[d];
    e.bytes = bytes;
    return e;
}

/* One iteration: for each neighbour that exists an MPI_Irecv from it and an MPI_Isend
 * to it, then one MPI_Waitall completing them in the order posted (a receive's record
 * carries the sender and the size), then C / P of computation and an MPI_Allreduce. */
static void exchange(struct sr_run *b, int p, const int *c, int own_dim)
{
    int P = b->run.nprocs, recv_at[4], send_at[4], waitall;
    struct sr_truth all = {-1, 0, P, 1, -1};
    struct pz_scale_event e;

    for (int d = 0; d < 4; d++) {
        struct sr_truth t = {sr_rank_at(b, c, dirs[d]), 0, P, 1, -1};

        if (t.peer < 0)
            continue;
        e = (struct pz_scale_event){.kind = PZ_REC_IRECV_REQUEST, .comm = SR_WORLD,
                                    .posted_by = -1};
        sr_step(b, p, PZ_SCALE_CALL, SR_IRECV, 0);
        sr_event(b, p, &e, &no_truth);
        recv_at[d] = (int)b->run.procs[p].nsteps - 1;
        e = to(PZ_REC_ISEND, dirs[d], side_bytes(b, c, dirs[d], own_dim));
        sr_step(b, p, PZ_SCALE_CALL, SR_ISEND, 0);
        sr_event(b, p, &e, &t);
        send_at[d] = (int)b->run.procs[p].nsteps - 1;
    }
    sr_step(b, p, PZ_SCALE_CALL, SR_WAITALL, 0);
    waitall = (int)b->run.procs[p].nsteps - 1;
    for (int d = 0; d < 4; d++) {
        struct sr_truth t = {sr_rank_at(b, c, dirs[d]), 0, P, 1, -1};
        int back[3] = {-dirs[d][0], -dirs[d][1], 0}, from[3];

        if (t.peer < 0)
            continue;
        /* what the neighbour sent: its own side_bytes toward this process */
        for (int k = 0; k < 3; k++)
            from[k] = c[k] + dirs[d][k];
        e = to(PZ_REC_IRECV, dirs[d], side_bytes(b, from, back, own_dim));
        e.posted_by = t.posted_by = waitall - recv_at[d];
        sr_event(b, p, &e, &t);
        e = (struct pz_scale_event){.kind = PZ_REC_ISEND_COMPLETE, .comm = PZ_SCALE_NO_COMM};
        t = no_truth;
        e.posted_by = t.posted_by = waitall - send_at[d];
        sr_event(b, p, &e, &t);
    }
    sr_step(b, p, PZ_SCALE_CALL, SR_ALLREDUCE, C / P);
    e = (struct pz_scale_event){.kind = PZ_REC_COLL_BEGIN, .comm = SR_WORLD, .posted_by = -1};
    sr_event(b, p, &e, &all);
    e.kind = PZ_REC_COLL_END;
    e.bytes = e.bytes2 = 8;
    sr_event(b, p, &e, &all);
}

static void program(struct sr_run *b, int p, const int *c, int own_dim)
{
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++)
        exchange(b, p, c, own_dim);
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

/* Halos carrying the block of the other dimension, as a heat code's rows and columns. */
static void prog_other_dim(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    program(b, p, c, 0);
}

/* Halos carrying the block of the dimension they cross. */
static void prog_own_dim(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    program(b, p, c, 1);
}

static const int counts_2_4_8[3] = {2, 4, 8};

/* --- a sink keeping every message sent and received: its process, peer and size */

struct message {
    int proc, peer;
    uint64_t bytes;
};

struct messages {
    struct message *v;
    size_t n, cap;
};

static int keep_message(void *ctx, int proc, const struct pz_rec *rec)
{
    struct messages *s = ctx;

    if (rec->kind != PZ_REC_ISEND && rec->kind != PZ_REC_IRECV)
        return 0;
    if (s->n == s->cap) {
        s->cap = s->cap * 2 + 64;
        s->v = realloc(s->v, s->cap * sizeof(*s->v));
    }
    s->v[s->n++] = (struct message){proc, (int)rec->peer, rec->bytes};
    return 0;
}

/* Every message of the run at side x side processes, ranks row by row (rank = side c0 +
 * c1, so that a neighbour along dimension 0 is side ranks away, one along dimension 1
 * one rank away), sent or received, has the size bytes[c] of the coordinate c its two
 * processes share: c1 for one along dimension 0, c0 for one along dimension 1. */
static void check_at(const struct pz_scale_program *m, int side, const uint64_t *bytes)
{
    struct messages s = {NULL, 0, 0};
    struct pz_scale_sink sink = {sr_no_comms, keep_message, &s};
    char err[512] = "";
    int nprocs = side * side;

    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    /* 3 iterations of 4 neighbours each way inside, fewer at the edges */
    cr_assert_eq(s.n, (size_t)(ITERS * 2 * 4 * side * (side - 1)), "%zu messages", s.n);
    for (size_t i = 0; i < s.n; i++) {
        const struct message *x = &s.v[i];
        int along0 = abs(x->peer - x->proc) == side;
        uint64_t want = bytes[along0 ? x->proc % side : x->proc / side];

        cr_expect_eq(x->bytes, want, "at %d, process %d with %d: %llu bytes, expected %llu",
                     nprocs, x->proc, x->peer, (unsigned long long)x->bytes,
                     (unsigned long long)want);
    }
    free(s.v);
}

Test(scale_dim_blocks, halos_take_each_process_block)
{
    /* 11 cells over 4: 11 / 4 = 2, 11 mod 4 = 3, so coordinates 0, 1 and 2 hold 3 cells
     * (24 bytes), coordinate 3 holds 2 (16 bytes) */
    static const uint64_t at_16[4] = {24, 24, 24, 16};
    /* 11 cells over 8: 11 / 8 = 1, 11 mod 8 = 3: 2 cells (16 bytes) at 0, 1 and 2, 1
     * cell (8 bytes) at 3 to 7 */
    static const uint64_t at_64[8] = {16, 16, 16, 8, 8, 8, 8, 8};
    struct sr_recorded r;

    sr_record_at(&r, counts_2_4_8, 2, NULL, prog_other_dim, NULL);
    /* the up and down messages carry dimension 1's block, left and right dimension 0's:
     * each way's MPI_Isend (two steps: the edges make one without the other) and the
     * receives' completions in the MPI_Waitall (one note for both slots), noted */
    cr_expect_eq(scale_noted(r.m, "block distribution of N = 11 items of 8 bytes along "
                                  "dimension 1 of the grid"), 3);
    cr_expect_eq(scale_noted(r.m, "block distribution of N = 11 items of 8 bytes along "
                                  "dimension 0 of the grid"), 3);
    cr_expect_eq(scale_noted(r.m, "the largest is used"), 0);
    check_at(r.m, 4, at_16);
    check_at(r.m, 8, at_64);
    sr_recorded_free(&r);
}

Test(scale_dim_blocks, a_block_of_the_crossed_dimension_keeps_the_largest)
{
    struct sr_recorded r;

    /* a receiver's size is its neighbour's block along the dimension between them, not
     * its own: no law of its coordinates gives both ends */
    sr_record_at(&r, counts_2_4_8, 2, NULL, prog_own_dim, NULL);
    cr_expect_eq(scale_noted(r.m, "block distribution"), 0);
    cr_expect(scale_noted(r.m, "the largest is used") > 0);
    sr_recorded_free(&r);
}
