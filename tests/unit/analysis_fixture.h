/* What the analyzer's tests on hand-built traces share: the trace's directory, the
 * analysis and its error message, and the clean-up that removes both after each test.
 * Each test file including it gets its own copy. */
#ifndef PZ_TEST_ANALYSIS_FIXTURE_H
#define PZ_TEST_ANALYSIS_FIXTURE_H

#include <stdlib.h>

#include "analysis.h"
#include "trace_builder.h"

static char *dir;
static struct pz_analysis an;
static char err[1024];

static void cleanup(void)
{
    pz_analysis_free(&an);
    if (dir) {
        tb_remove(dir);
        free(dir);
        dir = NULL;
    }
}

#endif
