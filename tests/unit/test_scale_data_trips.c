/* A loop whose trip count the data decide (replay/scale_data_trips.c): a solver that
 * iterates until it converges, inside each time step.  Recorded by hand
 * (trace_builder.h) at 2, 4 and 8 processes on a ring (1-D, periodic), 6 time steps in
 * one interval; at each, every process runs its solver loop `trips` times (an MPI_Send
 * to its successor, an MPI_Recv from its predecessor, 800 bytes, tag 7), then an
 * MPI_Allreduce of 8 bytes; the recording at `barrier_at` processes (0: none) ends with
 * an MPI_Barrier the others lack.  Expected messages and calls are worked out in the
 * comments from that definition. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scale_program.h"
#include "scale_run.h"
#include "scale_traces.h"
#include "trace.h"
#include "tempdir_fixture.h"
#include "trace_builder.h"

#define MS TB_MS
#define STEPS 6

TestSuite(scale_data_trips, .init = setup, .fini = cleanup);

/* The solver's iterations at each time step of process p: 3 everywhere but at process
 * 1, whose are given by step; the count whose recording ends with an MPI_Barrier. */
struct solver {
    int at_1[STEPS];
    int barrier_at;
    int at_1_of_8[STEPS];   /* not all 0: process 1's counts in the recording at 8 */
};

/* Each synthesized process's records as letters: S a send, R a receive, A a
 * collective's end of 8 bytes (an MPI_Allreduce). */
#define SYNTH_PROCS 16
struct letters {
    char v[SYNTH_PROCS][256];
    size_t n[SYNTH_PROCS];
};

static int as_letters(void *ctx, int proc, const struct pz_rec *r)
{
    struct letters *l = ctx;
    char c = r->kind == PZ_REC_SEND ? 'S' : r->kind == PZ_REC_RECV ? 'R'
           : r->kind == PZ_REC_COLL_END && r->bytes == 8 ? 'A' : 0;

    if (c && proc >= 0 && proc < SYNTH_PROCS && l->n[proc] + 1 < sizeof(l->v[proc]))
        l->v[proc][l->n[proc]++] = c;
    return 0;
}

static void program(struct tb *b, int nprocs, int p, uint32_t interval,
                    const struct solver *sv)
{
    uint32_t send = tb_mpi(b, "MPI_Send"), recv = tb_mpi(b, "MPI_Recv"),
             reduce = tb_mpi(b, "MPI_Allreduce"), barrier = tb_mpi(b, "MPI_Barrier");
    uint32_t succ = (uint32_t)((p + 1) % nprocs), pred = (uint32_t)((p + nprocs - 1) % nprocs);
    uint64_t t = MS(1);

    tb_enter(b, p, t, interval);
    for (int s = 0; s < STEPS; s++) {
        const int *at_1 = nprocs == 8 && sv->at_1_of_8[0] ? sv->at_1_of_8 : sv->at_1;

        for (int i = 0; i < (p == 1 ? at_1[s] : 3); i++) {
            tb_enter(b, p, t + MS(1), send);
            tb_mpi_send(b, p, t + MS(1), TB_WORLD, succ, 7, 800);
            tb_leave(b, p, t + MS(2), send);
            tb_enter(b, p, t + MS(3), recv);
            tb_mpi_recv(b, p, t + MS(4), TB_WORLD, pred, 7, 800);
            tb_leave(b, p, t + MS(4), recv);
            t += MS(4);
        }
        tb_enter(b, p, t + MS(1), reduce);
        tb_collective_begin(b, p, t + MS(1));
        tb_collective_end(b, p, t + MS(2), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, 0, 8, 8);
        tb_leave(b, p, t + MS(2), reduce);
        t += MS(2);
    }
    tb_leave(b, p, t + MS(1), interval);
    if (nprocs == sv->barrier_at) {
        tb_enter(b, p, t + MS(2), barrier);
        tb_collective_begin(b, p, t + MS(2));
        tb_collective_end(b, p, t + MS(3), OTF2_COLLECTIVE_OP_BARRIER, TB_WORLD, 0, 0, 0);
        tb_leave(b, p, t + MS(3), barrier);
    }
}

/* The program recorded at 2, 4 and 8 processes into dirs (top/dd2 ...), its model built
 * into md (md->m NULL, err saying why, when it is refused). */
static void record(struct st_model *md, const struct solver *sv, char dirs[3][4200])
{
    static const int counts[3] = { 2, 4, 8 };
    const char *const list[3] = { dirs[0], dirs[1], dirs[2] };

    for (int i = 0; i < 3; i++) {
        struct tb *b;
        uint32_t interval;

        snprintf(dirs[i], sizeof(dirs[i]), "%s/dd%d", top, counts[i]);
        cr_assert_not_null(b = tb_open(dirs[i], counts[i]), "cannot open a trace in %s",
                           dirs[i]);
        interval = tb_interval(b, 4, "solve.c", 40);
        for (int p = 0; p < counts[i]; p++)
            program(b, counts[i], p, interval, sv);
        cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    }
    st_model_read(md, list, 1, 0, err, sizeof(err));
}

/* Process 1 iterates 3, 5, 3, 3, 3, 5 times: at the same process of the same recording,
 * no law of P or of the position; and the recording at 4 ends with an MPI_Barrier the
 * others lack, which no model gives.  At 2 processes the successor and the predecessor are
 * one process, the one neighbour along a periodic dimension of 2: the steps are open
 * there (sp_open), their repeats no loop, and no loop of dd2 is named.  At 4, process 0
 * runs 3 at every step; process 1's loop runs at each time step between the same steps
 * (two before, the MPI_Recv and MPI_Allreduce of the step before; two after, the
 * MPI_Allreduce and the MPI_Send of the next), except at the first (after the interval's
 * beginning) and the last (before its end), so that its passes are those of time steps
 * 2 to 5, 5, 3, 3 and 3 times: "5 and 3", the first beginning at call 8 of the interval
 * (the first step's 3 iterations of 2 calls and its MPI_Allreduce are calls 1 to 7).  At
 * 8, process 1 likewise.  The refusal names the loop there, keeping the first difference
 * the model found after it, in one line. */
Test(scale_data_trips, a_loop_run_3_and_5_times_by_one_process_is_named)
{
    static const struct solver sv = {{3, 5, 3, 3, 3, 5}, 4, {0}};
    struct st_model md;
    char dirs[3][4200], expected[16384];

    record(&md, &sv, dirs);
    cr_assert_null(md.m, "the model was built");
    snprintf(expected, sizeof(expected),
             "recordings differ: %s: process 1, interval 'interval 4 at solve.c:40', call 8 "
             "(MPI_Send): the loop beginning there runs 5 and 3 times from one pass to the "
             "next (5 and 3 times at process 1 of %s): a trip count that neither the process "
             "count nor the position explains, as when it depends on the data (convergence, "
             "load balancing), cannot be extrapolated (the first difference: ",
             dirs[1], dirs[2]);
    cr_assert_eq(strncmp(err, expected, strlen(expected)), 0, "%s", err);
    cr_assert_null(strchr(err, '\n'), "%s", err);
    cr_assert_eq(err[strlen(err) - 1], ')', "%s", err);
    st_model_free(&md);
}

/* Process 1 iterates 5 times at every step, the others 3: the counts differ between
 * processes of a recording, each process's the same at every step.  As before, the
 * model is built, the largest count used, a note saying so (no refusal: a class of
 * position may not explain it, but nothing is left that the walks cannot place). */
Test(scale_data_trips, a_loop_run_5_times_by_one_process_and_3_by_the_others_is_kept)
{
    static const struct solver sv = {{5, 5, 5, 5, 5, 5}, 0, {0}};
    struct st_model md;
    char dirs[3][4200];
    int noted = 0;

    record(&md, &sv, dirs);
    cr_assert_not_null(md.m, "%s", err);
    for (size_t i = 0; i < pz_scale_program_nnotes(md.m); i++)
        noted |= strstr(pz_scale_program_note(md.m, i),
                        "the trip count differs between processes of a recording: the "
                        "largest is used, 5") != NULL;
    cr_assert(noted, "no note of the loop's counts");
    st_model_free(&md);
}

/* The same loop without the MPI_Barrier: the shortest repeats folded first make process
 * 1's passes loops of 3 and 5 iterations at 4 and 8 processes, and its time steps no
 * loop, where the other processes' fold into one loop of 6; the widest first, no
 * better (the refusal above).  Folded as one loop whatever its count (its body an
 * MPI_Send and an MPI_Recv), every process's time steps are a loop of 6 around it, at 4
 * and 8.  At 2, where the send and the receive name the one neighbour and are no loop
 * (sp_open), the walks check the processes against that template.  Each pass's count
 * is the largest of the processes at that pass: 3, 5, 3, 3, 3 and 5 in every recording
 * (process 1's; the others run 3).  At 16 the nearest recording is at 8 (a ratio of 2;
 * 4 and 2 are 4 and 8 away): every process makes 6 time steps of that pass's count of
 * sends and receives, then an MPI_Allreduce: "SR" 3, 5, 3, 3, 3 and 5 times, each
 * followed by "A".  A note names the loop where it first begins (the interval's call 1,
 * an MPI_Send, at process 0 of the recording at 2), the passes there (3, 5, 3, 3, then
 * more), that the data decide them, and what is synthesized. */
Test(scale_data_trips, a_loop_run_3_and_5_times_by_one_process_is_extrapolated)
{
    static const struct solver sv = {{3, 5, 3, 3, 3, 5}, 0, {0}};
    struct st_model md;
    struct letters l = {0};
    struct pz_scale_synth *s;
    char dirs[3][4200], expected[256] = "", note[8192];
    int noted = 0;

    record(&md, &sv, dirs);
    cr_assert_not_null(md.m, "%s", err);
    snprintf(note, sizeof(note), "MPI_Send (interval 'interval 4 at solve.c:40', call 1 at "
             "process 0 of %s): the loop beginning there runs 3, 5, 3, 3, ... at 2 "
             "processes from one pass to the next: a trip count that neither the process "
             "count nor the position explains, as when it depends on the data (convergence, "
             "load balancing); each pass is synthesized with the count of the same pass in "
             "the recording nearest the count (the largest of its processes), the first "
             "pass again after its last", dirs[0]);
    for (size_t i = 0; i < pz_scale_program_nnotes(md.m); i++)
        noted |= !strcmp(pz_scale_program_note(md.m, i), note);
    cr_assert(noted, "no note: %s", note);
    cr_assert_not_null(s = pz_scale_synth_new(md.m, SYNTH_PROCS, err, sizeof(err)), "%s", err);
    cr_assert_eq(pz_scale_synth_all(s, as_letters, &l, err, sizeof(err)), 0, "%s", err);
    for (int step = 0; step < STEPS; step++) {
        for (int i = 0; i < sv.at_1[step]; i++)
            strcat(expected, "SR");
        strcat(expected, "A");
    }
    for (int p = 0; p < SYNTH_PROCS; p++)
        cr_assert_str_eq(l.v[p], expected, "process %d", p);
    pz_scale_synth_free(s);
    st_model_free(&md);
}

/* The same, process 1 running its loop 4, 6, 4, 4, 4 and 6 times in the recording at 8
 * (3, 5, 3, 3, 3, 5 at 2 and 4): at 16 the recording nearest is at 8 (a ratio of 2),
 * whose passes every process makes, "SR" 4, 6, 4, 4, 4 and 6 times; at 5 it is at 4 (a
 * ratio of 1.25 against 1.6 for 8), whose passes are 3, 5, 3, 3, 3 and 5. */
Test(scale_data_trips, each_pass_takes_the_count_of_the_recording_nearest)
{
    static const struct solver sv = {{3, 5, 3, 3, 3, 5}, 0, {4, 6, 4, 4, 4, 6}};
    static const int at[2] = { SYNTH_PROCS, 5 };
    struct st_model md;
    char dirs[3][4200];

    record(&md, &sv, dirs);
    cr_assert_not_null(md.m, "%s", err);
    for (int k = 0; k < 2; k++) {
        const int *counts = at[k] == SYNTH_PROCS ? sv.at_1_of_8 : sv.at_1;
        struct letters l = {0};
        struct pz_scale_synth *s;
        char expected[256] = "";

        cr_assert_not_null(s = pz_scale_synth_new(md.m, at[k], err, sizeof(err)), "%s", err);
        cr_assert_eq(pz_scale_synth_all(s, as_letters, &l, err, sizeof(err)), 0, "%s", err);
        for (int step = 0; step < STEPS; step++) {
            for (int i = 0; i < counts[step]; i++)
                strcat(expected, "SR");
            strcat(expected, "A");
        }
        for (int p = 0; p < at[k]; p++)
            cr_assert_str_eq(l.v[p], expected, "process %d of %d", p, at[k]);
        pz_scale_synth_free(s);
    }
    st_model_free(&md);
}
