/* The figures of a program's run at a count that its memory estimate reads from the
 * model (replay/scale_memory_model.c): a periodic ring with an Alltoallv on the world,
 * recorded by hand (scale_runs.h) at 2, 4 and 8 processes, counted at 64, every figure
 * worked out by hand from the program. */
#include <criterion/criterion.h>
#include <otf2/OTF2_Events.h>
#include <stdint.h>

#include "scale_memory.h"
#include "scale_runs.h"
#include "trace.h"

#define C 0.004     /* s: the computation of one iteration on one process; C / P at P */
#define ITERS 3
#define TAG 7
#define K 65536     /* bytes an Alltoallv's member sends in all, about: K / P a pair */

static const int counts_2_4_8[3] = {2, 4, 8};

static struct pz_scale_event event(uint8_t kind)
{
    return (struct pz_scale_event){.kind = kind, .comm = SR_WORLD, .posted_by = -1};
}

/* MPI_Isend to the east, MPI_Recv from the west, MPI_Wait for the send. */
static void ring(struct sr_run *b, int p, const int *c)
{
    sr_ring_iteration(b, p, c, TAG, 1024, C / b->run.nprocs);
}

/* An Alltoallv on the world whose even members send half the mean and receive one and
 * a half times it, the odd ones the other way round: sizes that differ, per-peer
 * lists. */
static void alltoallv(struct sr_run *b, int p)
{
    int P = b->run.nprocs;
    struct pz_scale_event e = event(PZ_REC_COLL_BEGIN);
    struct sr_truth t = {-1, 0, P, 1, -1};
    uint64_t pairs = (uint64_t)(P - 1) * (K / P);

    sr_step(b, p, PZ_SCALE_CALL, SR_ALLTOALL, 0);
    sr_event(b, p, &e, &t);
    e.kind = PZ_REC_COLL_END;
    e.coll_op = OTF2_COLLECTIVE_OP_ALLTOALLV;
    e.bytes = p % 2 ? pairs * 3 / 2 : pairs / 2;
    e.bytes2 = p % 2 ? pairs / 2 : pairs * 3 / 2;
    sr_event(b, p, &e, &t);
}

static void prog(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++) {
        ring(b, p, c);
        alltoallv(b, p);
    }
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

Test(scale_memory_model, a_ring_with_an_alltoallv_counted_at_64)
{
    static const uint8_t periodic[3] = {1, 0, 0};
    struct sr_recorded r;
    struct pz_scale_memory_figures f;

    sr_record_at(&r, counts_2_4_8, 1, periodic, prog, NULL);
    pz_scale_memory_figures_of(r.m, 64, &f);
    cr_expect_eq(f.nprocs, 64);
    cr_expect_eq(f.held, 0, "the caller's");
    cr_expect_eq(f.kept, 0, "the caller's");
    /* the interval's beginning, the loop, its 4 steps, the interval's end; one request
     * slot, the Isend's */
    cr_expect_eq(f.nodes, 7);
    cr_expect_eq(f.slots, 1);
    /* the Alltoallv: Enter, its begin and end, Leave (MPI_Wait's completion is its one
     * event, not counted again as its slot's) */
    cr_expect_eq(f.step_records, 4);
    /* the interval's Enter and Leave, and 3 x (3 + 3 + 3 + 4) */
    cr_expect_eq(f.records, 2 + 3 * 13);
    /* between two Alltoallv, from one (4 records) to the end of the next (the next
     * iteration, 13): 17 */
    cr_expect_eq(f.stretch, 17);
    /* before the first: the interval's Enter and the first iteration, 1 + 13; after the
     * last, its Alltoallv and the interval's Leave, 4 + 1 */
    cr_expect_eq(f.loose, 14);
    /* the whole run and the interval */
    cr_expect_eq(f.intervals, 2);
    /* the messages to the east, one tag */
    cr_expect_eq(f.channels, 1);
    /* the world and the process alone; a collective on the world: 64 ranks */
    cr_expect_eq(f.comms, 2);
    cr_expect_eq(f.members, 0);
    cr_expect_eq(f.coll_members, 64);
    cr_expect_eq(f.coll_classes, 1);
    /* a send list and a receive list a member: 128 texts of 64 numbers; the mean per
     * pair at 64, K / 64 = 1024 bytes, 4 digits and a comma */
    cr_expect_eq(f.list_texts, 128);
    cr_expect_eq(f.list_bytes, 128 * 64 * 5);
    /* every member's 2 x 64 counts */
    cr_expect_eq(f.v_counts, 64 * 128);
    /* 64 messages of each member in flight (32 receives and 32 sends: 2 x 63 is more) */
    cr_expect_eq(f.in_flight, 64 * 64);
    sr_recorded_free(&r);
}
