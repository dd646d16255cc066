/* MPI-IO and window definitions (io_defs.h).  Needs no MPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_defs.h"

/* The communicator's global id and the file's name in a handle's identity; -1 if it is
 * malformed. */
static int parse(const char *key, uint64_t *gid, const char **name)
{
    unsigned long long g;
    unsigned seq;
    int leader, consumed = 0;

    if (sscanf(key, "%llu %d %u %n", &g, &leader, &seq, &consumed) != 3 || !consumed)
        return -1;
    *gid = g;
    *name = key + consumed;
    return 0;
}

static OTF2_CommRef comm_of(const struct pz_run_info *run, uint64_t gid)
{
    for (uint32_t i = 0; i < run->ncomms; i++)
        if (run->comms[i].gid == gid)
            return i;
    return OTF2_UNDEFINED_COMM;
}

static OTF2_StringRef string(OTF2_GlobalDefWriter *w, OTF2_StringRef *next, const char *text)
{
    OTF2_GlobalDefWriter_WriteString(w, *next, text);
    return (*next)++;
}

/* The file of name: written when first seen; names[] holds those written so far. */
static OTF2_IoFileRef file_of(OTF2_GlobalDefWriter *w, OTF2_StringRef *next, const char *name,
                              const char **names, uint32_t *nfiles, OTF2_StringRef *ref)
{
    for (uint32_t f = 0; f < *nfiles; f++) {
        if (strcmp(names[f], name) == 0) {
            *ref = OTF2_UNDEFINED_STRING;
            return f;
        }
    }
    *ref = string(w, next, name);
    OTF2_GlobalDefWriter_WriteIoRegularFile(w, *nfiles, *ref, 0);
    names[*nfiles] = name;
    return (*nfiles)++;
}

void pz_write_io_definitions(OTF2_GlobalDefWriter *w, OTF2_StringRef *next_string,
                             const struct pz_run_info *run)
{
    const char **names;
    uint32_t nfiles = 0;
    OTF2_StringRef paradigm;

    if (run->nio_handles == 0 || !(names = malloc(run->nio_handles * sizeof(*names))))
        return;
    paradigm = string(w, next_string, PZ_IO_PARADIGM_MPI_IO);
    OTF2_GlobalDefWriter_WriteIoParadigm(w, 0, paradigm, paradigm,
                                         OTF2_IO_PARADIGM_CLASS_PARALLEL,
                                         OTF2_IO_PARADIGM_FLAG_NONE, 0, NULL, NULL, NULL);
    for (uint32_t h = 0; h < run->nio_handles; h++) {
        uint64_t gid = 0;
        const char *name = "??";
        OTF2_StringRef name_ref;
        OTF2_IoFileRef file;

        parse(run->io_handles[h], &gid, &name);
        file = file_of(w, next_string, name, names, &nfiles, &name_ref);
        if (name_ref == OTF2_UNDEFINED_STRING)
            name_ref = string(w, next_string, name);
        OTF2_GlobalDefWriter_WriteIoHandle(w, h, name_ref, file, 0, OTF2_IO_HANDLE_FLAG_NONE,
                                           comm_of(run, gid), OTF2_UNDEFINED_IO_HANDLE);
    }
    free(names);
}

void pz_write_rma_definitions(OTF2_GlobalDefWriter *w, OTF2_StringRef *next_string,
                              const struct pz_run_info *run)
{
    char name[48];

    for (uint32_t i = 0; i < run->nrma_windows; i++) {
        uint64_t gid = 0;
        const char *ignored;

        parse(run->rma_windows[i], &gid, &ignored);
        snprintf(name, sizeof(name), "MPI window %u", i);
        OTF2_GlobalDefWriter_WriteRmaWin(w, i, string(w, next_string, name), comm_of(run, gid),
                                         OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
    }
}
