/* Interval markers: a send to the process itself followed by a receive from itself,
 * with a tag that reads, as 32 unsigned bits, 0xAA id_hi id_lo 0xAA (the interval id
 * begins), 0xAA id_hi id_lo 0xCC (a sequential interval begins: a computation every
 * process that executes it duplicates) or 0xAA id_hi id_lo 0xBB (it ends).  Such tags
 * exceed every MPI_TAG_UB, so the recorder consumes marker calls itself and never passes
 * them to MPI.  An interval is identified by the call site of its begin marker, its id
 * and its kind; intervals nest on each thread.  Misuse is resolved deterministically
 * and reported at finalize. */
#ifndef PZ_MARKERS_H
#define PZ_MARKERS_H

#include <mpi.h>
#include <stdint.h>

#include "thread.h"

static inline int pz_is_marker_tag(int tag)
{
    uint32_t t = (uint32_t)tag;

    return t >> 24 == 0xAA && ((t & 0xFF) == 0xAA || (t & 0xFF) == 0xBB || (t & 0xFF) == 0xCC);
}

/* Whether a call to or from rank peer of comm with this tag is a marker half. */
int pz_is_marker(int peer, int tag, MPI_Comm comm);

/* Handles a marker half made at ticks when from call site site: the first half of a
 * pair marks the interval boundary, the second is swallowed. */
void pz_marker(struct pz_thread *t, int tag, uint64_t when, uintptr_t site);

/* Fills status as for a zero-length message from source with tag. */
void pz_marker_status(MPI_Status *status, int source, int tag);

/* Makes *request a completed request whose status is that of a zero-length message
 * from source with tag: what a marker's Isend or Irecv returns.  Returns an MPI code. */
int pz_marker_request(int source, int tag, MPI_Request *request);

/* Closes, at ticks when, the intervals still open on t (finalize); each is reported. */
void pz_markers_close_all(struct pz_thread *t, uint64_t when);

/* The intervals of this process: local number i was begun at sites[i] with ids[i], as
 * a sequential interval if sequential[i].  An interval is known by all three. */
uint32_t pz_markers_count(void);
/* pz_markers_site, pz_markers_id and pz_markers_sequential may run only once no thread
 * adds intervals. */
uintptr_t pz_markers_site(uint32_t i);
unsigned pz_markers_id(uint32_t i);
int pz_markers_sequential(uint32_t i);

/* A misuse of markers, to report at finalize. */
enum pz_misuse {
    PZ_MISUSE_END_UNOPENED,   /* end of an id no interval of which is open: ignored */
    PZ_MISUSE_END_SKIPS,      /* end of an interval with inner ones open: they end too */
    PZ_MISUSE_OPEN_AT_END,    /* interval still open at MPI_Finalize: ended there */
};

struct pz_misuse_note {
    enum pz_misuse kind;
    uintptr_t site;           /* the end marker's site, or the open interval's begin */
    unsigned id;
    uint32_t interval;        /* the interval ended because of it, for END_SKIPS */
};

/* The misuses seen so far. */
uint32_t pz_markers_misuses(const struct pz_misuse_note **notes);

#endif
