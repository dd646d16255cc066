/* The resume overhead of prognoz calibrate (docs/calibrate.md, "Resume"): both ranks
 * compute, then exchange a message both ways; the time the exchange takes beyond the
 * same exchange right after an MPI call is what the process pays for having computed
 * (machine keys resume_overhead, resume_after). */
#ifndef PZ_CALIBRATE_RESUME_H
#define PZ_CALIBRATE_RESUME_H

#include "machine.h"

/* The computation from which the exchange's extra time counts as the full overhead. */
#define PZ_RESUME_PLATEAU 100e-6

struct pz_resume_fit {
    double overhead;   /* s: resume_overhead, the full cost; 0 if none was measured */
    double spread;     /* s: half the range of the passes' overheads, its error */
    double after;      /* s: resume_after, the end of the ramp up to the full cost */
    double shortest;   /* s: the ramp's shortest end allowed (pz_fit_resume) */
    int points;        /* computations of at least PZ_RESUME_PLATEAU */
};

/* Fits the extra times of the exchanges after n computations (seconds, increasing, the
 * first 0) measured in `passes` passes: extra[p * n + i] is pass p's exchange time
 * after computed[i].  A pass's overhead is the median, over the computations of at least
 * PZ_RESUME_PLATEAU, of its exchange time less its time after computing 0; the overhead
 * is the median of the passes' (not below 0), the spread half their range.  after is the
 * computation c among those of computed[1..] not below shortest_after (the last if none
 * is) for which overhead x min(1, computed / c) is nearest (least squares) the passes'
 * median extra times less their time after 0: a computation that cannot have pushed
 * the cache's contents out does not end the ramp, whatever the noise of the passes. */
void pz_fit_resume(const double *computed, const double *extra, int n, int passes,
                   double shortest_after, struct pz_resume_fit *out);

/* Writes a fitted overhead into m: resume_overhead and resume_after, and when both ranks
 * ran on one node shm_resume_overhead too (as the other shm_ keys take the network's);
 * nothing when the overhead is 0. */
void pz_resume_to_machine(const struct pz_resume_fit *fit, int same_node,
                          struct pz_machine *m);

#endif
