/* The resume overhead's fit (calibrate_resume.h). */
#include <math.h>

#include "calibrate_fit.h"
#include "calibrate_resume.h"

#define MAX_POINTS 64
#define MAX_PASSES 16

/* Pass p's extra time after computed[i] beyond its time after computing 0. */
static double beyond(const double *extra, int n, int p, int i)
{
    return extra[p * n + i] - extra[p * n];
}

/* The median over the passes of their extra time after computed[i]. */
static double median_beyond(const double *extra, int n, int passes, int i)
{
    double v[MAX_PASSES];

    for (int p = 0; p < passes; p++)
        v[p] = beyond(extra, n, p, i);
    return pz_fit_median(v, passes);
}

/* The computation the ramp ends at: the one of least squared error not below
 * shortest. */
static double ramp_end(const double *computed, const double *extra, int n, int passes,
                       double overhead, double shortest)
{
    double best = computed[n - 1], best_error = INFINITY;

    for (int k = 1; k < n; k++) {
        double error = 0;

        if (computed[k] < shortest)
            continue;

        for (int i = 1; i < n; i++) {
            double d = overhead * fmin(1, computed[i] / computed[k]) -
                       median_beyond(extra, n, passes, i);

            error += d * d;
        }
        if (error < best_error) {
            best_error = error;
            best = computed[k];
        }
    }
    return best;
}

void pz_fit_resume(const double *computed, const double *extra, int n, int passes,
                   double shortest_after, struct pz_resume_fit *out)
{
    double of_pass[MAX_PASSES], lowest = INFINITY, highest = -INFINITY;

    *out = (struct pz_resume_fit){ .shortest = shortest_after };
    if (n < 2 || n > MAX_POINTS || passes < 1 || passes > MAX_PASSES)
        return;
    for (int p = 0; p < passes; p++) {
        double v[MAX_POINTS];
        int k = 0;

        for (int i = 1; i < n; i++)
            if (computed[i] >= PZ_RESUME_PLATEAU)
                v[k++] = beyond(extra, n, p, i);
        if (k == 0)
            return;
        out->points = k;
        of_pass[p] = pz_fit_median(v, k);
        lowest = fmin(lowest, of_pass[p]);
        highest = fmax(highest, of_pass[p]);
    }
    out->overhead = fmax(0, pz_fit_median(of_pass, passes));
    out->spread = (highest - lowest) / 2;
    if (out->overhead > 0)
        out->after = ramp_end(computed, extra, n, passes, out->overhead, shortest_after);
}

void pz_resume_to_machine(const struct pz_resume_fit *fit, int same_node,
                          struct pz_machine *m)
{
    if (!(fit->overhead > 0))
        return;
    m->resume_overhead = fit->overhead;
    m->resume_after = fit->after;
    if (same_node)
        m->shm_resume_overhead = fit->overhead;
}
