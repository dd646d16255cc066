/* Timestamps.  The hot path reads ticks of the cheapest clock that runs steadily on a
 * node: the x86 time-stamp counter when the processor says it is invariant, otherwise
 * CLOCK_MONOTONIC in nanoseconds.  Records keep ticks; when a buffer is written out its
 * ticks become CLOCK_MONOTONIC nanoseconds by interpolation between two anchors, moments
 * at which both clocks were read, taken before and after every record of the buffer. */
#ifndef PZ_CLOCK_H
#define PZ_CLOCK_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* Nonzero when ticks are time-stamp counter cycles; set once by pz_clock_init. */
extern int pz_clock_tsc;

/* Which clock gives ticks is decided when the library is loaded (clock.c);
 * PROGNOZ_CLOCK=monotonic forces CLOCK_MONOTONIC. */

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t pz_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t pz_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_expect(pz_clock_tsc, 1))
        return __rdtsc();
#endif
    return pz_now();
}

/* Nonzero when every call also records the calling thread's CPU time
 * (PROGNOZ_CPU_TIME=1; set once at start, runtime.c). */
extern int pz_record_cpu;

/* CPU time of the calling thread in nanoseconds since it started.  A system call on
 * Linux (the vDSO does not serve CLOCK_THREAD_CPUTIME_ID), about 250 ns: read only when
 * pz_record_cpu is set. */
static inline uint64_t pz_cpu_now(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct pz_anchor {
    uint64_t ticks, ns;
};

/* Reads both clocks at one moment: CLOCK_MONOTONIC between two tick reads, placed at
 * their middle.  An interrupt or a preemption between the reads would misplace it by up
 * to half their distance, and the threads of a process, each with its own anchors,
 * would disagree by that much (a receive seen ending before its send began): of a few
 * tries, the one whose tick reads lie closest together is kept. */
static inline struct pz_anchor pz_anchor_now(void)
{
    struct pz_anchor best = { 0, 0 };
    uint64_t window = UINT64_MAX;

    for (int try = 0; try < 8; try++) {
        uint64_t before = pz_ticks(), ns = pz_now(), after = pz_ticks();

        if (after - before < window) {
            window = after - before;
            best = (struct pz_anchor){ before + (after - before) / 2, ns };
        }
    }
    return best;
}

/* Nanoseconds of ticks t on the line through anchors a and b (a before b). */
static inline uint64_t pz_ticks_to_ns(uint64_t t, struct pz_anchor a, struct pz_anchor b)
{
    __int128 dt = (__int128)t - (__int128)a.ticks;

    if (!pz_clock_tsc)
        return t;
    if (b.ticks == a.ticks)
        return a.ns + (uint64_t)(dt > 0 ? dt : 0);
    return (uint64_t)((__int128)a.ns + dt * (__int128)(b.ns - a.ns) /
                                           (__int128)(b.ticks - a.ticks));
}

#endif
