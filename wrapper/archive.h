/* The OTF2 archive of a run: DIR/traces.otf2 with DIR/traces/ holding one event and one
 * local definition file per location.  Every function marked collective must be called
 * by all processes, whatever happened to each of them before, so that a failure on one
 * process never leaves the others waiting. */
#ifndef PZ_ARCHIVE_H
#define PZ_ARCHIVE_H

#include <mpi.h>
#include <stdint.h>
#include <otf2/otf2.h>

/* A clock offset measured against rank 0 at local time time (ns). */
struct pz_clock_offset {
    uint64_t time;
    int64_t offset;
    double deviation;
};

/* Collective over comm: opens the archive in dir and its event files.  Returns 0, or -1
 * on this process (then every later call is a harmless no-op here). */
int pz_archive_open(const char *dir, MPI_Comm comm);

/* Whether OTF2 reported an error on this process (a write failed: the disk is full).
 * From then on no OTF2 writer is touched again: OTF2 3.0.2 writes from a buffer it has
 * freed when a writer is closed after a failed write.  The functions below are then
 * no-ops, and the archive is given up (pz_archive_close). */
int pz_archive_failed(void);

/* The event writer of a location; NULL if the archive is not open or failed. */
OTF2_EvtWriter *pz_archive_evt_writer(uint64_t location);

/* Closes the event writer of a location. */
void pz_archive_close_evt_writer(OTF2_EvtWriter *writer);

/* Collective: closes the event files and opens the definition files. */
void pz_archive_begin_definitions(void);

/* A mapping of local ids 0..n-1 to global ones. */
struct pz_id_map {
    const uint32_t *global;
    uint32_t n;
};

/* What a process's local ids mean globally. */
struct pz_local_maps {
    struct pz_id_map comms;    /* communicators (comms.h) */
    struct pz_id_map strings;  /* count lists (vcounts.h) */
    struct pz_id_map regions;  /* MPI functions, then intervals (markers.h) */
    struct pz_id_map sites;    /* call sites (sites.h) */
    struct pz_id_map io_handles;   /* MPI-IO file handles (handles.h) */
    struct pz_id_map rma_windows;  /* one-sided windows (handles.h) */
    struct pz_id_map rma_groups;   /* groups of one-sided epochs (rma_groups.h) */
};

/* Writes the local definitions of a location: its mappings to global ids and its clock
 * offsets. */
void pz_archive_local_definitions(uint64_t location, const struct pz_local_maps *maps,
                                  const struct pz_clock_offset *offsets, int noffsets);

/* What pz_archive_local_definitions writes, into w (localdefs.c; needs no MPI). */
void pz_write_local_definitions(OTF2_DefWriter *w, const struct pz_local_maps *maps,
                                const struct pz_clock_offset *offsets, int noffsets);

/* Rank 0 only: the writer of the global definitions. */
OTF2_GlobalDefWriter *pz_archive_global_writer(void);

/* Collective: closes the definition files and the archive, or when failed is nonzero
 * (some process saw pz_archive_failed) forgets it without touching OTF2 again, its
 * memory not released.  An error while closing shows in pz_archive_failed. */
void pz_archive_close(int failed);

/* Sets an archive property (rank 0, before pz_archive_close); a no-op if the archive
 * is not usable. */
void pz_archive_set_property(const char *name, const char *value);

/* Location id of thread number index of a rank: the rank itself for the first thread. */
static inline uint64_t pz_location_id(int rank, uint32_t index)
{
    return (uint64_t)index << 32 | (uint32_t)rank;
}

#endif
