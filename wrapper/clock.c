/* Choice of the tick clock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

int pz_clock_tsc;
int pz_record_cpu;

/* The time-stamp counter serves only if it ticks at a constant rate, also in sleep
 * states, and the same on every core: the kernel says so with these flags. */
static int tsc_is_invariant(void)
{
    char line[4096];
    int constant = 0, nonstop = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");

    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        constant = strstr(line, " constant_tsc") != NULL;
        nonstop = strstr(line, " nonstop_tsc") != NULL;
        break;
    }
    fclose(f);
    return constant && nonstop;
}

/* Before main: ticks must mean the same from the first call on. */
__attribute__((constructor)) static void choose_clock(void)
{
    const char *forced = getenv("PROGNOZ_CLOCK");

#if defined(__x86_64__) || defined(__i386__)
    pz_clock_tsc = !(forced && !strcmp(forced, "monotonic")) && tsc_is_invariant();
#else
    (void)forced;
    pz_clock_tsc = 0;
#endif
}
