/* bucketsort: a sample sort of KEYS x 1024 random 64-bit keys per rank (from a
 * deterministic generator), three rounds of fresh keys.  Each rank draws evenly spaced
 * samples of its keys; the samples of all ranks (MPI_Allgather) give the splitters that
 * cut the key range into one bucket per rank; each rank counts and packs its keys by
 * bucket, the counts go to their ranks (MPI_Alltoall), then the keys (MPI_Alltoallv:
 * with 2 ranks and the full size, 8 MiB to the other rank); each rank sorts what it
 * received and the result is checked: every rank sorted, its first key not below the
 * last key of the rank before (MPI_Sendrecv), no key lost (MPI_Allreduce).  Intervals:
 * the rounds (1), the splitters (2), the bucketing (3), the counts (4), the keys (5),
 * the local sort (6), the check (7).  Part of the validation harness (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o bucketsort bucketsort.c && mpiexec -n 2 ./bucketsort [KEYS]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 3
#define SAMPLES 64  /* per rank */

/* splitmix64: a deterministic stream of well mixed keys. */
static uint64_t next_key(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static int compare_keys(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The bucket of key: the number of splitters not above it. */
static int bucket_of(uint64_t key, const uint64_t *splitters, int n)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (splitters[mid] <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* splitters[0..size-2] from SAMPLES samples of every rank's keys. */
static void choose_splitters(const uint64_t *keys, size_t n, uint64_t *splitters, int size)
{
    uint64_t mine[SAMPLES], *all = malloc((size_t)SAMPLES * size * sizeof(uint64_t));

    for (int s = 0; s < SAMPLES; s++)
        mine[s] = keys[(size_t)s * (n / SAMPLES)];
    MPI_Allgather(mine, SAMPLES, MPI_UINT64_T, all, SAMPLES, MPI_UINT64_T, MPI_COMM_WORLD);
    qsort(all, (size_t)SAMPLES * size, sizeof(uint64_t), compare_keys);
    for (int r = 1; r < size; r++)
        splitters[r - 1] = all[(size_t)r * SAMPLES];
    free(all);
}

/* Packs keys by bucket into out; counts[r] and displs[r] are bucket r's. */
static void bucket(const uint64_t *keys, size_t n, const uint64_t *splitters, int size,
                   uint64_t *out, int *counts, int *displs)
{
    int *fill = calloc((size_t)size, sizeof(int));

    memset(counts, 0, (size_t)size * sizeof(int));
    for (size_t k = 0; k < n; k++)
        counts[bucket_of(keys[k], splitters, size - 1)]++;
    displs[0] = 0;
    for (int r = 1; r < size; r++)
        displs[r] = displs[r - 1] + counts[r - 1];
    for (size_t k = 0; k < n; k++) {
        int r = bucket_of(keys[k], splitters, size - 1);
        out[displs[r] + fill[r]++] = keys[k];
    }
    free(fill);
}

/* 1 when the n sorted keys follow the previous rank's and none was lost, else 0. */
static int check(const uint64_t *keys, int n, long long expected, int rank, int size)
{
    uint64_t last = n > 0 ? keys[n - 1] : 0, before = 0;
    long long total = n;
    int ok = 1;

    for (int k = 1; k < n; k++)
        ok &= keys[k - 1] <= keys[k];
    MPI_Sendrecv(&last, 1, MPI_UINT64_T, rank + 1 < size ? rank + 1 : MPI_PROC_NULL, 0,
                 &before, 1, MPI_UINT64_T, rank > 0 ? rank - 1 : MPI_PROC_NULL, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    ok &= n == 0 || before <= keys[0];
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return ok && total == expected;
}

int main(int argc, char **argv)
{
    int rank, size, ok = 1;
    size_t n = (size_t)(argc > 1 ? atoi(argv[1]) : 2048) * 1024;
    uint64_t sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    uint64_t *keys = malloc(n * sizeof(uint64_t)), *packed = malloc(n * sizeof(uint64_t));
    uint64_t *splitters = malloc((size_t)size * sizeof(uint64_t)), *got = NULL;
    int *scounts = malloc((size_t)size * sizeof(int)), *sdispls = malloc((size_t)size * sizeof(int));
    int *rcounts = malloc((size_t)size * sizeof(int)), *rdispls = malloc((size_t)size * sizeof(int));

    PROGNOZ_BEGIN(1);
    for (int round = 0; round < ROUNDS; round++) {
        uint64_t state = (uint64_t)round * 1000003u + (uint64_t)rank;
        for (size_t k = 0; k < n; k++)
            keys[k] = next_key(&state);
        PROGNOZ_BEGIN(2);
        choose_splitters(keys, n, splitters, size);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        bucket(keys, n, splitters, size, packed, scounts, sdispls);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        MPI_Alltoall(scounts, 1, MPI_INT, rcounts, 1, MPI_INT, MPI_COMM_WORLD);
        PROGNOZ_END(4);
        int received = 0;
        for (int r = 0; r < size; r++)
            rdispls[r] = received, received += rcounts[r];
        got = realloc(got, (size_t)(received > 0 ? received : 1) * sizeof(uint64_t));
        PROGNOZ_BEGIN(5);
        MPI_Alltoallv(packed, scounts, sdispls, MPI_UINT64_T, got, rcounts, rdispls,
                      MPI_UINT64_T, MPI_COMM_WORLD);
        PROGNOZ_END(5);
        PROGNOZ_BEGIN(6);
        qsort(got, (size_t)received, sizeof(uint64_t), compare_keys);
        PROGNOZ_END(6);
        PROGNOZ_BEGIN(7);
        ok &= check(got, received, (long long)n * size, rank, size);
        PROGNOZ_END(7);
        for (int k = 0; k < received; k += 4096)
            sum += got[k] >> 32;
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("bucketsort: %d ranks, %zu keys per rank, %d rounds, %s, checksum %llu\n", size, n,
               ROUNDS, ok ? "sorted" : "NOT SORTED", (unsigned long long)sum);
    free(keys);
    free(packed);
    free(splitters);
    free(got);
    free(scounts);
    free(sdispls);
    free(rcounts);
    free(rdispls);
    MPI_Finalize();
    return ok ? 0 : 1;
}
