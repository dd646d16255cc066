/* The one clock of the wrapper: CLOCK_MONOTONIC in nanoseconds, one clock per node. */
#ifndef PZ_CLOCK_H
#define PZ_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t pz_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
