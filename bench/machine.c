/* Machine reference for make bench (bench/run.sh): costs under every traced call that do
 * not depend on the wrapper's code.
 *   tsc_ns         one read of the time-stamp counter (rdtsc), 0 where there is none:
 *                  the wrapper reads it twice per call where it is invariant
 *   clock_ns       one clock_gettime(CLOCK_MONOTONIC), read twice per call instead
 *                  otherwise, or with PROGNOZ_CLOCK=monotonic
 *   page_fault_ns  the first write to a 4 KiB page of freshly malloc'd memory; the record
 *                  buffer takes one per 4096 bytes of records until it first fills
 * Prints: tsc_ns=R clock_ns=T page_fault_ns=P */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#define CLOCK_READS 10000000L
#define TOUCHED (64L << 20)
#define PAGE 4096L

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
    volatile long sink = 0;
    struct timespec t;
    double t0, tsc_ns = 0.0, clock_ns, fault_ns;
    char *p;

#if defined(__x86_64__) || defined(__i386__)
    t0 = now();
    for (long i = 0; i < CLOCK_READS; i++)
        sink += (long)__rdtsc();
    tsc_ns = 1e9 * (now() - t0) / (double)CLOCK_READS;
#endif

    t0 = now();
    for (long i = 0; i < CLOCK_READS; i++) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        sink += t.tv_nsec;
    }
    clock_ns = 1e9 * (now() - t0) / (double)CLOCK_READS;

    if (!(p = malloc(TOUCHED)))
        return 1;
    t0 = now();
    for (long i = 0; i < TOUCHED; i += PAGE)
        ((volatile char *)p)[i] = 1;
    fault_ns = 1e9 * (now() - t0) / (double)(TOUCHED / PAGE);
    free(p);

    printf("tsc_ns=%.1f clock_ns=%.1f page_fault_ns=%.0f\n", tsc_ns, clock_ns, fault_ns);
    return 0;
}
