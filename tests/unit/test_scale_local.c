/* Calls that neither move data nor wait left out of a recorded run
 * (replay/scale_local.h): a run of one process made by hand, its steps and times
 * worked out in the comments. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scale_local.h"

enum { RANK, SIZE, ISEND, WAIT, BEGIN, DETACH, NREGIONS };

static struct pz_scale_run run;

static void step_at(int proc, uint8_t kind, uint32_t region, double gap, double cpu,
                    double duration, uint32_t events)
{
    struct pz_scale_process *p = &run.procs[proc];

    p->steps[p->nsteps++] = (struct pz_scale_step){
        .kind = kind, .region = region, .gap_wall = gap, .gap_cpu = cpu,
        .duration = duration, .first = (uint32_t)p->nevents, .n = events};
    p->nevents += events;
}

static void step(uint8_t kind, uint32_t region, double gap, double cpu, double duration,
                 uint32_t events)
{
    step_at(0, kind, region, gap, cpu, duration, events);
}

/* Process 0: an interval's beginning; MPI_Comm_rank; MPI_Isend (one event); MPI_Comm_size;
 * MPI_Comm_rank; MPI_Wait of the send (one event, posted 3 steps before); MPI_Comm_size;
 * then 0.5 s of computation to the end.  Each step after 1 s of computation (0.5 s of
 * CPU), each call 0.1 s long.  Process 1, without CPU times: MPI_Isend, MPI_Wait of it
 * (posted 1 step before), MPI_Buffer_detach (which waits for buffered messages). */
static void make(void)
{
    static const char *const names[NREGIONS] = { "MPI_Comm_rank", "MPI_Comm_size", "MPI_Isend",
                                                  "MPI_Wait", "interval 1 at x.c:3",
                                                  "MPI_Buffer_detach" };
    struct pz_scale_process *p;

    memset(&run, 0, sizeof(run));
    run.nprocs = 2;
    cr_assert_not_null(run.procs = calloc(2, sizeof(*run.procs)));
    cr_assert_not_null(run.names = calloc(NREGIONS, sizeof(*run.names)));
    run.nnames = NREGIONS;
    for (int i = 0; i < NREGIONS; i++)
        cr_assert_not_null(run.names[i] = strdup(names[i]));
    p = &run.procs[0];
    cr_assert_not_null(p->steps = calloc(8, sizeof(*p->steps)));
    cr_assert_not_null(p->events = calloc(2, sizeof(*p->events)));
    step(PZ_SCALE_BEGIN, BEGIN, 1, 0.5, 0, 0);
    step(PZ_SCALE_CALL, RANK, 1, 0.5, 0.1, 0);
    step(PZ_SCALE_CALL, ISEND, 1, 0.5, 0.1, 1);
    p->events[0].posted_by = -1;
    step(PZ_SCALE_CALL, SIZE, 1, 0.5, 0.1, 0);
    step(PZ_SCALE_CALL, RANK, 1, 0.5, 0.1, 0);
    step(PZ_SCALE_CALL, WAIT, 1, 0.5, 0.1, 1);
    p->events[1].posted_by = 3;
    step(PZ_SCALE_CALL, SIZE, 1, 0.5, 0.1, 0);
    p->tail_wall = 0.5;
    p->tail_cpu = 0.25;
    p = &run.procs[1];
    cr_assert_not_null(p->steps = calloc(3, sizeof(*p->steps)));
    cr_assert_not_null(p->events = calloc(2, sizeof(*p->events)));
    step_at(1, PZ_SCALE_CALL, ISEND, 1, -1, 0.1, 1);
    p->events[0].posted_by = -1;
    step_at(1, PZ_SCALE_CALL, WAIT, 1, -1, 0.1, 1);
    p->events[1].posted_by = 1;
    step_at(1, PZ_SCALE_CALL, DETACH, 1, -1, 0.1, 0);
    p->tail_cpu = -1;
}

static void release(void)
{
    pz_scale_run_free(&run);
}

TestSuite(scale_local, .init = make, .fini = release);

#define NEAR(x, y) (fabs((x) - (y)) < 1e-12)

Test(scale_local, local_calls_become_the_computation_before_the_next_step)
{
    const struct pz_scale_process *p = &run.procs[0];
    char names[64] = "";

    cr_expect_eq(pz_scale_run_fold_local(&run, names, sizeof(names)), 4);
    cr_expect_str_eq(names, "MPI_Comm_rank, MPI_Comm_size");
    /* left: the beginning, MPI_Isend, MPI_Wait */
    cr_assert_eq(p->nsteps, 3);
    cr_expect_eq(p->steps[0].region, BEGIN);
    cr_expect_eq(p->steps[1].region, ISEND);
    cr_expect_eq(p->steps[2].region, WAIT);
    /* MPI_Isend after MPI_Comm_rank's 1 + 0.1 s and its own 1 s: 2.1 s, 0.5 + 0.1 + 0.5
       = 1.1 s of CPU; MPI_Wait after two calls': 3.2 s, 1.7 s of CPU; the end after
       MPI_Comm_size's 1.1 s, 0.6 s of CPU */
    cr_expect(NEAR(p->steps[1].gap_wall, 2.1), "%g", p->steps[1].gap_wall);
    cr_expect(NEAR(p->steps[1].gap_cpu, 1.1), "%g", p->steps[1].gap_cpu);
    cr_expect(NEAR(p->steps[2].gap_wall, 3.2), "%g", p->steps[2].gap_wall);
    cr_expect(NEAR(p->steps[2].gap_cpu, 1.7), "%g", p->steps[2].gap_cpu);
    cr_expect(NEAR(p->tail_wall, 1.6), "%g", p->tail_wall);
    cr_expect(NEAR(p->tail_cpu, 0.85), "%g", p->tail_cpu);
    /* the wait's request now posted 1 step before; the events stay in place */
    cr_expect_eq(p->events[1].posted_by, 1);
    cr_expect_eq(p->steps[2].first, 1);
    cr_expect_eq(p->steps[2].n, 1);
}

Test(scale_local, a_run_without_local_calls_stays)
{
    char names[64] = "";

    cr_expect_eq(pz_scale_run_fold_local(&run, names, sizeof(names)), 4);
    names[0] = '\0';
    cr_expect_eq(pz_scale_run_fold_local(&run, names, sizeof(names)), 0);
    cr_expect_str_eq(names, "");
    cr_expect_eq(run.procs[0].nsteps, 3);
    cr_expect_eq(run.procs[0].events[1].posted_by, 1);
}

Test(scale_local, a_detach_and_a_process_without_local_calls_stay)
{
    const struct pz_scale_process *p = &run.procs[1];
    char names[64] = "";

    /* process 1's MPI_Buffer_detach waits: kept, its steps and requests as they were, its
       CPU times still unknown */
    cr_expect_eq(pz_scale_run_fold_local(&run, names, sizeof(names)), 4);
    cr_expect_str_eq(names, "MPI_Comm_rank, MPI_Comm_size");
    cr_assert_eq(p->nsteps, 3);
    cr_expect_eq(p->steps[2].region, DETACH);
    cr_expect_eq(p->events[1].posted_by, 1);
    cr_expect(NEAR(p->steps[2].gap_wall, 1));
    cr_expect(p->steps[2].gap_cpu < 0 && p->tail_cpu < 0);
}
