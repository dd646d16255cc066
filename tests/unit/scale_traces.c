/* Hand-built traces read for the scaling and their model (scale_traces.h). */
#include <criterion/criterion.h>
#include <string.h>

#include "scale_traces.h"

void st_model_read(struct st_model *md, const char *const dirs[3], int ndims,
                   int first_fastest, char *err, size_t errlen)
{
    memset(md, 0, sizeof(*md));
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(pz_scale_run_read_layout(dirs[i], ndims, first_fastest, &md->runs[i], err,
                                              errlen), 0, "%s", err);
        md->list[i] = &md->runs[i];
    }
    md->m = pz_scale_program_build(md->list, 3, 0, err, errlen);
}

void st_model_free(struct st_model *md)
{
    pz_scale_program_free(md->m);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&md->runs[i]);
}
