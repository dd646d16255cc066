/* Analyses made by hand for the tests of a run cut to some passes of its loop
 * (analyzer/extrapolate.h, tools/scale_passes.h): one interval, the whole run, at each
 * process. */
#ifndef PZ_TEST_CUT_RUNS_H
#define PZ_TEST_CUT_RUNS_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

/* An analysis of nprocs processes with the whole run only, every sum 0, and one
 * function, "MPI_Send". */
static inline void cut_run(struct pz_analysis *a, int nprocs)
{
    memset(a, 0, sizeof(*a));
    a->nprocs = a->nranks = nprocs;
    a->nnodes = 1;
    cr_assert_not_null(a->nodes = calloc(1, sizeof(*a->nodes)));
    cr_assert_not_null(a->nodes[0].file = strdup(""));
    a->nodes[0].parent = -1;
    cr_assert_not_null(a->nodes[0].procs = calloc((size_t)nprocs, sizeof(struct pz_stats)));
    a->nfunctions = 1;
    cr_assert_not_null(a->functions = calloc(1, sizeof(*a->functions)));
    cr_assert_not_null(a->functions[0].name = strdup("MPI_Send"));
}

#endif
