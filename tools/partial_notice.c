/* The notice of a partial trace (partial_notice.h). */
#include <stdlib.h>
#include <string.h>

#include "defs.h"
#include "names.h"
#include "open.h"
#include "partial_notice.h"

/* The property asked only when the archive has it: OTF2 reports a missing one as an
 * error. */
static char *partial_property(OTF2_Reader *otf)
{
    uint32_t n = 0;
    char **names = NULL, *value = NULL, *endings = NULL;

    if (OTF2_Reader_GetPropertyNames(otf, &n, &names) != OTF2_SUCCESS)
        return NULL;
    for (uint32_t i = 0; i < n && !endings; i++)
        if (!strcmp(names[i], PZ_PARTIAL_PROPERTY) &&
            OTF2_Reader_GetProperty(otf, PZ_PARTIAL_PROPERTY, &value) == OTF2_SUCCESS) {
            endings = strdup(value);
            free(value);
        }
    free(names);
    return endings;
}

char *pz_partial_endings(const char *path)
{
    struct pz_trace_file f;
    struct pz_defs defs;
    char *endings = NULL;

    if (pz_trace_file_open(&f, path, &defs) == 0)
        endings = partial_property(f.otf);
    pz_trace_file_close(&f);
    pz_defs_release(&defs);
    return endings;
}

void pz_partial_notice(FILE *out, const char *prefix, const char *endings)
{
    fprintf(out, "%sPartial trace: the run ended without MPI_Finalize (%s); what was in "
            "progress then ends at the last event of its process\n", prefix, endings);
}
