/* The duplex overhead's measurement fitted, printed and noted (calibrate_duplex_note.h). */
#include <math.h>

#include "calibrate_duplex_note.h"

void pz_cal_duplex_sends_fit(struct pz_calibration_run *run)
{
    struct pz_cal_duplex_sends *d = &run->duplex_sends;

    d->overhead = pz_duplex_overhead_of_sends(d->isend[0], d->isend[1], d->lone);
    d->measured = d->exchanges > 0 && !isnan(d->overhead);
}

/* A time in microseconds, to the nanosecond. */
static const char *us(char *buf, size_t len, double s)
{
    snprintf(buf, len, "%.3f us", s * 1e6);
    return buf;
}

void pz_cal_print_duplex_sends(FILE *out, const struct pz_calibration_run *run)
{
    const struct pz_cal_duplex_sends *d = &run->duplex_sends;
    char a[32], b[32], c[32], e[32], s[32];

    if (!d->measured) {
        fprintf(out, "duplex_overhead: not measured: 0\n");
        return;
    }
    fprintf(out, "duplex_overhead %s: in %d exchanges of %s both ways back to back MPI_Isend "
                 "took %s on rank 0 and %s on rank 1, in %d sends whose receiver waits %s "
                 "(trimmed means): the later sender pays the sum less twice the lone one "
                 "(at least 0)\n",
            us(a, sizeof(a), d->overhead), d->exchanges, pz_cal_size(s, sizeof(s), d->bytes),
            us(b, sizeof(b), d->isend[0]), us(c, sizeof(c), d->isend[1]), d->sends,
            us(e, sizeof(e), d->lone));
}

const char *pz_cal_duplex_sends_note(char *buf, size_t len,
                                     const struct pz_calibration_run *run)
{
    const struct pz_cal_duplex_sends *d = &run->duplex_sends;
    char a[32], b[32], c[32], e[32], s[32];

    if (!d->measured) {
        snprintf(buf, len, "duplex_overhead: not measured, the default");
        return buf;
    }
    snprintf(buf, len,
             "duplex_overhead: %s, the CPU time the later of two sends pays while its\n"
             "receiver's message is on its way: in %d exchanges of %s both ways back to\n"
             "back MPI_Isend took %s on rank 0 and %s on rank 1, in %d sends whose\n"
             "receiver waits %s (trimmed means); the sum of the two less twice the lone\n"
             "one, at least 0",
             us(a, sizeof(a), d->overhead), d->exchanges, pz_cal_size(s, sizeof(s), d->bytes),
             us(b, sizeof(b), d->isend[0]), us(c, sizeof(c), d->isend[1]), d->sends,
             us(e, sizeof(e), d->lone));
    return buf;
}
