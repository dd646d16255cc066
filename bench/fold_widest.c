/* Folding the widest repeats first (replay/scale_fold.c) timed on made-up sequences of
 * steps, and a digest of the loops made, to compare two builds' folding:
 *
 *   fold_widest SHAPE M    prints "SHAPE m=M n=STEPS folded=LEN digest=HEX cpu=S s"
 *
 * SHAPE, M the size (each step an MPI_Barrier told apart by its tag):
 *   md      M time steps shaped like LAMMPS's: a forward communication of 6 steps and a
 *           reverse one of the same in the opposite order, every 20th step an exchange
 *           of 16 steps instead of the forward one, every 100th an output step
 *   pairs   M steps each made twice (1 1 2 2 3 3 ...): M bodies kept in one pass
 *   tagged  M steps each made 3 times after a step they share (a b1 a b1 a b1 a b2 ...)
 *   chain   squares sharing a step, 1 2 1 2 3 2 3 4 3 4 ...: each pass keeps one
 *   rand    a random sequence of repeats of random chunks, M the seed
 *
 * Not built by make: cc -O2 -I replay -I model -I trace -I BUILD -I BUILD/trace ... (see
 * bench/README.md, "Folding the widest repeats first, linear"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scale_program_int.h"

static struct sp_table table = {.widest = 1};
static uint32_t *steps;
static size_t nsteps, capsteps;

static void put(uint32_t tag)
{
    struct sp_sym proto = {.kind = SP_STEP, .region = "MPI_Barrier", .n = 1};
    struct sp_event ev = {.tag = tag, .poster_sym = SP_NONE};

    if (nsteps == capsteps &&
        !(steps = realloc(steps, (capsteps = capsteps ? 2 * capsteps : 1024) * sizeof(*steps)))) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    if ((steps[nsteps++] = sp_table_step(&table, &proto, &ev)) == SP_NONE) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
}

/* FNV-1a over the folded structure: tags, loop bodies and counts. */
static uint64_t digest(uint64_t h, uint32_t sym)
{
    const struct sp_sym *y = &table.syms[sym];

    if (y->kind != SP_LOOP)
        return (h ^ (table.events[y->first].tag + 1ull)) * 1099511628211u;
    h = (h ^ 0xabcdefu) * 1099511628211u;
    for (uint32_t i = 0; i < y->n; i++)
        h = digest(h, table.bodies[y->first + i]);
    return (h ^ y->count ^ 0x1234567u) * 1099511628211u;
}

static void make_md(long m)
{
    for (long k = 0; k < m; k++) {
        for (uint32_t i = 0; i < (k % 20 == 0 ? 16u : 6u); i++)
            put(k % 20 == 0 ? 100 + i : 1 + i);
        for (uint32_t i = 6; i-- > 0;)
            put(1 + i);
        if (k % 100 == 0)
            put(200);
    }
}

static void make_rand(long seed)
{
    srand((unsigned)seed);
    int alphabet = 2 + rand() % 6, len = 50 + rand() % 3000;

    while ((long)nsteps < len) {
        int n = 1 + rand() % 12, times = 1 + rand() % 5;
        uint32_t chunk[12];

        for (int i = 0; i < n; i++)
            chunk[i] = 1 + (uint32_t)(rand() % alphabet);
        for (int k = 0; k < times; k++)
            for (int i = 0; i < n; i++)
                put(rand() % 50 ? chunk[i] : 1 + (uint32_t)(rand() % alphabet));
    }
}

int main(int argc, char **argv)
{
    const char *shape = argc == 3 ? argv[1] : "";
    long m = argc == 3 ? atol(argv[2]) : 0;

    if (!strcmp(shape, "md")) {
        make_md(m);
    } else if (!strcmp(shape, "pairs")) {
        for (long k = 0; k < m; k++) {
            put(1000 + (uint32_t)k);
            put(1000 + (uint32_t)k);
        }
    } else if (!strcmp(shape, "tagged")) {
        for (long k = 0; k < m; k++)
            for (int j = 0; j < 3; j++) {
                put(1);
                put(5000 + (uint32_t)k);
            }
    } else if (!strcmp(shape, "chain")) {
        put(1000);
        for (long k = 0; k < m; k++) {
            put(1001 + (uint32_t)k);
            put(1000 + (uint32_t)k);
            put(1001 + (uint32_t)k);
        }
    } else if (!strcmp(shape, "rand")) {
        make_rand(m);
    } else {
        fprintf(stderr, "usage: fold_widest md|pairs|tagged|chain|rand M\n");
        return 2;
    }

    size_t made = nsteps;
    clock_t c0 = clock();

    if (sp_fold(&table, steps, &made, 0) != 0) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    uint64_t h = 1469598103934665603u;

    for (size_t i = 0; i < made; i++)
        h = digest(h, steps[i]);
    printf("%s m=%ld n=%zu folded=%zu digest=%016llx cpu=%.4f s\n", shape, m, nsteps, made,
           (unsigned long long)h, cpu);
    return 0;
}
