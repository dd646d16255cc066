/* A synthesized run (scale_program.h) written as an archive (synth_out.h), for the
 * replay and for users who want to read it like a recording. */
#ifndef PZ_SCALE_ARCHIVE_H
#define PZ_SCALE_ARCHIVE_H

#include <stddef.h>

#include "scale_program.h"

/* Synthesizes the run of m at nprocs processes into DIR/traces.otf2.  Returns 0, or -1
 * with a one-line message in err. */
int pz_scale_synthesize_archive(const struct pz_scale_program *m, int nprocs, const char *dir,
                                char *err, size_t errlen);

#endif
