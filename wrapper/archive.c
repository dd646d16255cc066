/* OTF2 archive lifecycle.  OTF2's collective operations run over a private duplicate
 * of MPI_COMM_WORLD through PMPI, so they are never recorded. */
#define OTF2_MPI_USE_PMPI
#include <otf2/OTF2_MPI_Collectives.h>
#include <otf2/OTF2_Pthread_Locks.h>
#include <stdarg.h>

#include "archive.h"
#include "clock.h"
#include "evt_file.h"

static OTF2_Archive *archive;
static int errors;

/* OTF2 reports errors through this instead of printing them: the summary at finalize
 * says whether the trace is complete. */
static OTF2_ErrorCode count_error(void *data, const char *file, uint64_t line,
                                  const char *function, OTF2_ErrorCode code,
                                  const char *format, va_list va)
{
    (void)data, (void)file, (void)line, (void)function, (void)format, (void)va;
    errors++;
    return code;
}

static OTF2_FlushType always_flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                                   void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

/* No post-flush callback: OTF2 flushes its chunks while the wrapper converts records
 * of the past, so OTF2's own flush marks would break time order; the wrapper marks its
 * flushes itself. */
static const OTF2_FlushCallbacks flush_callbacks = { always_flush, NULL };

int pz_archive_open(const char *dir, MPI_Comm comm)
{
    int ok;

    OTF2_Error_RegisterCallback(count_error, NULL);
    archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, PZ_EVT_CHUNK,
                                4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    ok = archive != NULL;
    ok = ok && OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL) == OTF2_SUCCESS;
    ok = ok && OTF2_MPI_Archive_SetCollectiveCallbacks(archive, comm, MPI_COMM_NULL)
                   == OTF2_SUCCESS;
    ok = ok && OTF2_Pthread_Archive_SetLockingCallbacks(archive, NULL) == OTF2_SUCCESS;
    PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
    if (ok)
        ok = OTF2_Archive_OpenEvtFiles(archive) == OTF2_SUCCESS;
    PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
    if (!ok && archive) {
        OTF2_Archive_Close(archive);
        archive = NULL;
    }
    return ok ? 0 : -1;
}

int pz_archive_failed(void)
{
    return errors > 0;
}

/* The archive while it can be written to. */
static OTF2_Archive *usable(void)
{
    return errors ? NULL : archive;
}

OTF2_EvtWriter *pz_archive_evt_writer(uint64_t location)
{
    return usable() ? OTF2_Archive_GetEvtWriter(archive, location) : NULL;
}

void pz_archive_close_evt_writer(OTF2_EvtWriter *writer)
{
    if (usable() && writer)
        OTF2_Archive_CloseEvtWriter(archive, writer);
}

void pz_archive_begin_definitions(void)
{
    if (!usable())
        return;
    OTF2_Archive_CloseEvtFiles(archive);
    OTF2_Archive_OpenDefFiles(archive);
}

void pz_archive_local_definitions(uint64_t location, const struct pz_local_maps *maps,
                                  const struct pz_clock_offset *offsets, int noffsets)
{
    OTF2_DefWriter *w;

    if (!usable() || !(w = OTF2_Archive_GetDefWriter(archive, location)))
        return;
    pz_write_local_definitions(w, maps, offsets, noffsets);
    OTF2_Archive_CloseDefWriter(archive, w);
}

OTF2_GlobalDefWriter *pz_archive_global_writer(void)
{
    return usable() ? OTF2_Archive_GetGlobalDefWriter(archive) : NULL;
}

void pz_archive_set_property(const char *name, const char *value)
{
    if (usable())
        OTF2_Archive_SetProperty(archive, name, value, false);
}

void pz_archive_close(int failed)
{
    if (archive && !failed) {
        OTF2_Archive_CloseDefFiles(archive);
        OTF2_Archive_Close(archive);
    }
    archive = NULL;
}
