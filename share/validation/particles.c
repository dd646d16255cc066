/* particles: a 1-D particle-in-cell push shaped like particle codes: the processes own
 * consecutive unit slabs of a periodic line, neighbours computed from the rank (rank - 1
 * and rank + 1 around the ring), each starting with N particles (20000 by default; weak
 * scaling) of deterministic positions and velocities.  Every iteration pushes the
 * particles (a force, a move), then migrates those that left the slab: the leavers to
 * each side go in one MPI_Isend, and the arrivals from each side, whose number only the
 * data decide, are received by MPI_Probe, MPI_Get_count and MPI_Recv, the sends then
 * completed by MPI_Waitall.  Every 10th iteration writes a sample of the particles as a
 * parallel output would: each rank's first index in the global order (MPI_Exscan), the
 * numbers of samples (every 16th particle of the global order) to rank 0 (MPI_Gather),
 * then the samples (MPI_Gatherv).
 * Intervals: the iterations (1), the push (2), the migration (3), the output (4).
 * Part of the scaling validation (programs shaped like others' codes, docs/predict.md).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o particles particles.c -lm && mpiexec -n 4 ./particles [ITERATIONS [N]]
 */
#include <math.h>
#include <mpi.h>
#include <prognoz.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVERY 10   /* iterations between two outputs */
#define SAMPLE 16  /* one particle in SAMPLE is written */
#define LEFT 1     /* tag of particles moving to the left neighbour */
#define RIGHT 2    /* tag of particles moving to the right neighbour */

typedef struct {
    double x, v;
} particle;

typedef struct {
    particle *p;
    int n, cap;
} particles;

static void reserve(particles *s, int n)
{
    if (n <= s->cap)
        return;
    s->cap = 2 * n;
    s->p = realloc(s->p, (size_t)s->cap * sizeof(particle));
}

/* splitmix64 mapped to [0, 1): deterministic initial conditions. */
static double uniform(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

/* The force of a periodic potential, then the move, wrapped around the line of size slabs. */
static void push(particles *s, int size)
{
    for (int k = 0; k < s->n; k++) {
        particle *q = &s->p[k];
        for (int h = 1; h <= 4; h++)
            q->v -= 0.0005 * sin(2.0 * M_PI * h * q->x) / h;
        q->x += q->v;
        if (q->x < 0.0)
            q->x += size;
        if (q->x >= size)
            q->x -= size;
    }
}

/* Which side particle q left the slab [rank, rank + 1) by: -1, 0 or +1 (around the ring). */
static int side(const particle *q, int rank, int size)
{
    int owner = (int)floor(q->x);
    if (owner == rank)
        return 0;
    return owner == (rank + 1) % size ? 1 : -1;
}

/* Receives the particles a neighbour sent with tag, however many, at the end of s. */
static void receive(particles *s, int from, int tag, MPI_Datatype type)
{
    MPI_Status status;
    int count;
    MPI_Probe(from, tag, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, type, &count);
    reserve(s, s->n + count);
    MPI_Recv(&s->p[s->n], count, type, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    s->n += count;
}

/* Moves the particles that left the slab to the neighbours they entered. */
static void migrate(particles *s, particles out[2], int rank, int size, MPI_Datatype type)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size, kept = 0;
    MPI_Request sends[2];
    MPI_Status sent[2];
    out[0].n = out[1].n = 0;
    for (int k = 0; k < s->n; k++) {
        int d = side(&s->p[k], rank, size);
        particles *to = d < 0 ? &out[0] : d > 0 ? &out[1] : NULL;
        if (to) {
            reserve(to, to->n + 1);
            to->p[to->n++] = s->p[k];
        } else {
            s->p[kept++] = s->p[k];
        }
    }
    s->n = kept;
    MPI_Isend(out[0].p, out[0].n, type, left, LEFT, MPI_COMM_WORLD, &sends[0]);
    MPI_Isend(out[1].p, out[1].n, type, right, RIGHT, MPI_COMM_WORLD, &sends[1]);
    receive(s, right, LEFT, type);
    receive(s, left, RIGHT, type);
    MPI_Waitall(2, sends, sent);
}

/* A parallel output of the particles whose global index is a multiple of SAMPLE: the
 * index of the rank's first particle by MPI_Exscan, the counts, then the samples. */
static double output(const particles *s, int rank, int size, MPI_Datatype type)
{
    long long mine = s->n, first = 0;
    int *counts = NULL, *displs = NULL, all = 0, samples = 0;
    particle *sampled = malloc((size_t)(s->n / SAMPLE + 1) * sizeof(particle)), *gathered = NULL;
    double moment = 0.0;
    MPI_Exscan(&mine, &first, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        first = 0; /* MPI_Exscan leaves rank 0's result undefined */
    for (int k = (int)((SAMPLE - first % SAMPLE) % SAMPLE); k < s->n; k += SAMPLE)
        sampled[samples++] = s->p[k];
    if (rank == 0) {
        counts = malloc((size_t)size * sizeof(int));
        displs = malloc((size_t)size * sizeof(int));
    }
    MPI_Gather(&samples, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < size; r++)
            displs[r] = all, all += counts[r];
        gathered = malloc((size_t)(all > 0 ? all : 1) * sizeof(particle));
    }
    MPI_Gatherv(sampled, samples, type, gathered, counts, displs, type, 0, MPI_COMM_WORLD);
    for (int k = 0; k < all; k++)
        moment += gathered[k].v;
    free(sampled);
    free(gathered);
    free(counts);
    free(displs);
    return moment;
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 100, n = argc > 2 ? atoi(argv[2]) : 20000;
    MPI_Datatype type;
    double moment = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_contiguous(2, MPI_DOUBLE, &type);
    MPI_Type_commit(&type);
    particles s = {NULL, 0, 0}, out[2] = {{NULL, 0, 0}, {NULL, 0, 0}};
    uint64_t state = (uint64_t)rank * 7919u + 1u;
    reserve(&s, n);
    for (int k = 0; k < n; k++) {
        s.p[k].x = rank + uniform(&state) * 0.999999;
        s.p[k].v = 0.04 * (uniform(&state) - 0.5);
    }
    s.n = n;

    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        push(&s, size);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        migrate(&s, out, rank, size, type);
        PROGNOZ_END(3);
        if (it % EVERY == EVERY - 1) {
            PROGNOZ_BEGIN(4);
            moment = output(&s, rank, size, type);
            PROGNOZ_END(4);
        }
    }
    PROGNOZ_END(1);
    long long total = s.n;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("particles: %d ranks, %d per rank at start, %d iterations, %lld kept (%s), moment %.6g\n",
               size, n, iters, total, total == (long long)n * size ? "none lost" : "LOST", moment);
    free(s.p);
    free(out[0].p);
    free(out[1].p);
    MPI_Type_free(&type);
    MPI_Finalize();
    return total == (long long)n * size ? 0 : 1;
}
