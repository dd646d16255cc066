/* The trace of a count whose prediction failed, removed (scale_job.h, scale_discard):
 * a synthesized run that cannot complete on a machine (a receive no send matches) is
 * not the program's, and left in --trace-out it reads like any other. */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scale_job.h"
#include "temporary.h"

/* What the archive of a synthesized run is made of (synth_out.c): nothing else of the
 * directory is removed. */
static const char *const archive_parts[] = { "traces.otf2", "traces.def", "traces" };

const char *scale_discard(struct job *j)
{
    char path[sizeof(j->written) + 16];
    struct stat st;

    /* a synthesis refused before writing made none */
    if (!j->written[0] || stat(j->written, &st) != 0) {
        j->written[0] = '\0';
        return "";
    }
    for (size_t i = 0; i < sizeof(archive_parts) / sizeof(archive_parts[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", j->written, archive_parts[i]);
        pz_temporary_clear(path);
    }
    /* kept when it holds files of the user's */
    rmdir(j->written);
    snprintf(j->discarded, sizeof(j->discarded), "; the trace synthesized into %s is "
             "removed, so that no run that failed is left to read", j->written);
    j->written[0] = '\0';
    return j->discarded;
}
