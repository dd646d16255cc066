/* Writing a synthesized run (a run at a process count never recorded, scale_program.h)
 * as an OTF2 archive that prognoz report, prognoz predict and otf2-print read like a
 * recording: the strings, regions, call sites and attributes of the recording it was
 * modelled on, copied with their references; new location groups and locations (one
 * process, one thread each, world rank p is location p), the COMM_LOCATIONS group, and
 * the communicators of the synthesized run as COMM_GROUP groups of world ranks. */
#ifndef PZ_SYNTH_OUT_H
#define PZ_SYNTH_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* A communicator of the synthesized run. */
struct pz_synth_comm {
    uint32_t size;         /* its processes */
    const int *members;    /* world ranks in rank order; NULL for the world (0..P-1) */
    int self;              /* MPI_COMM_SELF-like: each process alone (size 1, no members) */
    const char *name;      /* e.g. "MPI_COMM_WORLD", "row 3" */
    uint32_t windows;      /* the one-sided windows made on it: the run's windows are
                              numbered communicator after communicator, these in order
                              (0: none, and no window is defined) */
};

struct pz_synth_out;

/* Creates DIR/traces.otf2 (dir must not hold one yet; it is created if missing) for a
 * run of nprocs processes modelled on the recording `recorded` (DIR or DIR/traces.otf2),
 * whose clock resolution and offset it keeps, with the communicators comms[0..ncomms-1]
 * (an event's comm is an index in comms).  Returns NULL with a one-line message naming
 * the file in err. */
struct pz_synth_out *pz_synth_out_open(const char *dir, const char *recorded, int nprocs,
                                       const struct pz_synth_comm *comms, uint32_t ncomms,
                                       char *err, size_t errlen);

/* Gives the per-peer byte lists of the run's v collectives (pz_scale_synth_lists), which
 * must outlive o: an event's send_list and recv_list are numbers among them, written as
 * references to their strings (defined after the recording's) where the recording
 * defines the attributes that carry them, else left out.  Before the first event. */
void pz_synth_out_lists(struct pz_synth_out *o, const char *const *lists, uint32_t n);

/* Writes rec as an event of process proc: rec->time in the recording's ticks,
 * non-decreasing per process; regions, call sites and attributes as the recording
 * references them; rec->comm an index in comms, its lists numbers among those given.  Processes come one after the other
 * (all events of one before any of the next, in any order of processes); a flush is
 * not written.  Returns 0, or -1 if writing failed. */
int pz_synth_out_event(struct pz_synth_out *o, int proc, const struct pz_rec *rec);

/* Writes the definitions and closes the archive.  Returns 0, or -1 with a one-line
 * message in err.  Frees o in both cases. */
int pz_synth_out_close(struct pz_synth_out *o, char *err, size_t errlen);

#endif
