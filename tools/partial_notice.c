/* The notice of a partial trace (partial_notice.h). */
#include "defs.h"
#include "open.h"
#include "partial_notice.h"

char *pz_partial_endings(const char *path)
{
    struct pz_trace_file f;
    struct pz_defs defs;
    char *endings = NULL;

    if (pz_trace_file_open(&f, path, &defs) == 0)
        endings = pz_trace_file_partial(&f);
    pz_trace_file_close(&f);
    pz_defs_release(&defs);
    return endings;
}

void pz_partial_notice(FILE *out, const char *prefix, const char *endings)
{
    fprintf(out, "%sPartial trace: the run ended without MPI_Finalize (%s); what was in "
            "progress then ends at the last event of its process\n", prefix, endings);
}
