/* Hand-built traces (trace_builder.h) of one program at three counts read for the
 * scaling and their model built, as prognoz scale reads recordings. */
#ifndef PZ_TEST_SCALE_TRACES_H
#define PZ_TEST_SCALE_TRACES_H

#include <stddef.h>

#include "scale_program.h"
#include "scale_run.h"

struct st_model {
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3];
    struct pz_scale_program *m;   /* NULL when the model cannot be built */
};

/* Reads the traces in dirs[0..2] as pz_scale_run_read_layout does with ndims and
 * first_fastest (a Criterion assertion fails when one cannot be read) and builds their
 * model into md->m; NULL, with err saying why, when it cannot be built. */
void st_model_read(struct st_model *md, const char *const dirs[3], int ndims,
                   int first_fastest, char *err, size_t errlen);
void st_model_free(struct st_model *md);

#endif
