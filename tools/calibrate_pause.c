/* Both ranks pause (calibrate_pause.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <time.h>

#include "calibrate_cpu.h"
#include "calibrate_pause.h"

/* Sleeps nanoseconds, again after an interruption. */
static void sleep_for(long nanoseconds)
{
    struct timespec left = { nanoseconds / 1000000000L, nanoseconds % 1000000000L };

    while (nanosleep(&left, &left) != 0 && errno == EINTR)
        ;
}

void pz_cal_lead_pause(double seconds)
{
    long ns = (long)(seconds * 1e9);

    if (ns <= 0)
        return;
    pz_cal_order(PZ_CAL_PAUSE, 0, 0, ns);
    sleep_for(ns);
}

void pz_cal_answer_pause(long nanoseconds)
{
    sleep_for(nanoseconds);
}
