/* The collective overhead's measurement fitted, printed and noted (calibrate_coll_note.h). */
#include <math.h>

#include "calibrate_coll.h"
#include "calibrate_coll_note.h"

void pz_cal_collective_fit(struct pz_calibration_run *run, const struct pz_machine *m)
{
    struct pz_cal_collective *c = &run->collective;
    struct pz_machine without = *m;

    without.collective_overhead = 0;
    c->model = pz_allreduce_time(&without, PZ_CAL_ALLREDUCE_BYTES);
    c->overhead = fmax(0, c->time - c->model);
    c->measured = c->calls > 0 && !isnan(c->time) && !isnan(c->model);
}

/* What the measurement was: "N calls of MPI_Allreduce of 8 B ... took T, the machine
 * without it M". */
static void describe(char *buf, size_t len, const struct pz_cal_collective *c,
                     const char *between)
{
    snprintf(buf, len,
             "%d calls of MPI_Allreduce of %d B (MPI_SUM) back to back took%s%.3f us each\n"
             "on rank 0 (the trimmed mean; the median of the rounds in the calibration's\n"
             "state), the machine without it %.3f us",
             c->calls, PZ_CAL_ALLREDUCE_BYTES, between, c->time * 1e6, c->model * 1e6);
}

void pz_cal_print_collective(FILE *out, const struct pz_calibration_run *run)
{
    const struct pz_cal_collective *c = &run->collective;
    char what[512];

    if (!c->measured) {
        fprintf(out, "collective_overhead: not measured: 0\n");
        return;
    }
    describe(what, sizeof(what), c, " ");
    fprintf(out, "collective_overhead %.3f us: %s: the excess (at least 0)\n", c->overhead * 1e6,
            what);
}

const char *pz_cal_collective_note(char *buf, size_t len, const struct pz_calibration_run *run)
{
    const struct pz_cal_collective *c = &run->collective;
    char what[512];

    if (!c->measured) {
        snprintf(buf, len, "collective_overhead: not measured, the default");
        return buf;
    }
    describe(what, sizeof(what), c, "\n");
    snprintf(buf, len,
             "collective_overhead: %.3f us, the CPU time a collective call costs besides its\n"
             "messages: %s; the excess, at least 0",
             c->overhead * 1e6, what);
    return buf;
}
