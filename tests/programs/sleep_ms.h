/* Sleeping a number of milliseconds in the test programs: the rest of the interval is
 * slept even when a signal interrupts it. */
#ifndef PZ_TEST_SLEEP_MS_H
#define PZ_TEST_SLEEP_MS_H

#include <time.h>

static inline void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

    while (nanosleep(&ts, &ts) != 0)
        ;
}

#endif
