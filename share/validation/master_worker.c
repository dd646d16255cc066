/* master_worker: rank 0 hands out TASKS tasks to the other ranks and collects their
 * results with receives from MPI_ANY_SOURCE, giving the next task to whichever worker
 * answered.  A task is a 4 KiB block of input ending with its number; its cost varies
 * with the number (1 to 7 units of work, a deterministic mix); its result is a 32 KiB
 * block the master folds into its total.  Intervals: the whole distribution (1), and on
 * the workers the computation of a task (2) and the exchange with the master (3); on
 * the master the folding of a result (4).  Part of the validation harness
 * (scripts/validate.sh).  Needs at least 2 ranks.
 *
 *   mpicc -g -O2 -I$PREFIX/include -o master_worker master_worker.c && mpiexec -n 2 ./master_worker [TASKS]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#define IN 512     /* doubles of a task's input */
#define OUT 4096   /* doubles of a result */
#define UNIT 24    /* passes over the result per unit of work */
#define TAG_TASK 1
#define TAG_STOP 2
#define TAG_RESULT 3

/* The input of a task; its last value is the task's number. */
static void make_input(double *in, int task)
{
    for (int i = 0; i < IN - 1; i++)
        in[i] = (double)((task * 13 + i * 7) % 29) / 29.0;
    in[IN - 1] = task;
}

/* The result of a task: OUT values from the input, refined (1 + task % 7) * UNIT times. */
static void work(const double *in, double *out, int task)
{
    for (int i = 0; i < OUT; i++)
        out[i] = in[i % IN];
    for (int pass = 0; pass < (1 + task % 7) * UNIT; pass++)
        for (int i = 1; i < OUT - 1; i++)
            out[i] = 0.5 * out[i] + 0.25 * (out[i - 1] + out[i + 1]) + 1e-3 * in[(i + pass) % IN];
}

static double master(int tasks, int workers)
{
    double in[IN], *out = malloc(OUT * sizeof(double)), total = 0.0;
    int next = 0, busy = 0;
    MPI_Status st;

    for (int w = 1; w <= workers; w++) {  /* one task each, or stop if none is left */
        make_input(in, next);
        if (next < tasks)
            MPI_Send(in, IN, MPI_DOUBLE, w, TAG_TASK, MPI_COMM_WORLD), next++, busy++;
        else
            MPI_Send(in, 0, MPI_DOUBLE, w, TAG_STOP, MPI_COMM_WORLD);
    }
    while (busy > 0) {
        MPI_Recv(out, OUT, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
        busy--;
        if (next < tasks) {
            make_input(in, next);
            MPI_Send(in, IN, MPI_DOUBLE, st.MPI_SOURCE, TAG_TASK, MPI_COMM_WORLD);
            next++, busy++;
        } else {
            MPI_Send(in, 0, MPI_DOUBLE, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
        }
        PROGNOZ_BEGIN(4);
        for (int i = 0; i < OUT; i++)
            total += out[i] * (double)(i % 3 + 1);
        PROGNOZ_END(4);
    }
    free(out);
    return total;
}

static void worker(void)
{
    double in[IN], *out = malloc(OUT * sizeof(double));
    MPI_Status st;

    for (;;) {
        PROGNOZ_BEGIN(3);
        MPI_Recv(in, IN, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        PROGNOZ_END(3);
        if (st.MPI_TAG == TAG_STOP)
            break;
        PROGNOZ_BEGIN(2);
        work(in, out, (int)in[IN - 1]);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        MPI_Send(out, OUT, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
        PROGNOZ_END(3);
    }
    free(out);
}

int main(int argc, char **argv)
{
    int rank, size, tasks = argc > 1 ? atoi(argv[1]) : 400;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "master_worker: needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    PROGNOZ_BEGIN(1);
    double total = rank == 0 ? master(tasks, size - 1) : (worker(), 0.0);
    PROGNOZ_END(1);
    if (rank == 0)
        printf("master_worker: %d ranks, %d tasks, total %.6f\n", size, tasks, total);
    MPI_Finalize();
    return 0;
}
