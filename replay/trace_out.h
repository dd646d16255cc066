/* Writing a predicted run as an OTF2 archive that prognoz report, otf2-print, Vampir
 * and Scalasca open like a recorded one: the recorded archive's definitions, copied,
 * and each replayed thread's events with their predicted times. */
#ifndef PZ_TRACE_OUT_H
#define PZ_TRACE_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

struct pz_trace_out;

/* Creates the archive DIR/traces.otf2 (dir must not hold one yet) for the run recorded
 * in the archive `recorded` (DIR/traces.otf2 or its anchor file).  locations[p] is the
 * OTF2 location of replayed thread th, for nthreads threads; only these locations are
 * written.
 * Returns NULL with a one-line message naming the file in err. */
struct pz_trace_out *pz_trace_out_open(const char *recorded, const char *dir, int nthreads,
                                       const uint64_t *locations, char *err, size_t errlen);

struct pz_synth_comm;

/* Creates the archive DIR/traces.otf2 (dir must not hold one yet) for the predicted run
 * of a run synthesized on the recording `recorded` and never written (synth_out.h):
 * with the definitions its synthesized archive would have, the recording's program and
 * the run's nprocs processes (thread p at location p) and communicators comms, which
 * must stay valid until the archive is closed.  NULL with a one-line message naming the
 * file in err. */
struct pz_trace_out *pz_trace_out_open_synthesized(const char *recorded, const char *dir,
                                                   int nprocs,
                                                   const struct pz_synth_comm *comms,
                                                   uint32_t ncomms, char *err,
                                                   size_t errlen);

/* Gives a synthesized run's per-peer byte lists (pz_scale_synth_lists), defined as the
 * strings right after the recording's, which the records' send_list and recv_list
 * reference (scale_replay.c); they must stay valid until the archive is closed. */
void pz_trace_out_synthesized_lists(struct pz_trace_out *o, const char *const *lists,
                                    uint32_t n);

/* Writes rec as an event of thread th at time `time` (in the recorded archive's ticks,
 * non-decreasing per thread); rec->time is ignored.  Returns 0, or -1 if the write
 * failed. */
int pz_trace_out_event(struct pz_trace_out *o, int th, const struct pz_rec *rec,
                       uint64_t time);

/* Writes the definitions (the recorded ones, or the synthesized run's; clock properties spanning the predicted
 * times; each location's event count) and closes the archive.  Returns 0, or -1 with a
 * one-line message in err.  Frees o in both cases. */
int pz_trace_out_close(struct pz_trace_out *o, char *err, size_t errlen);

#endif
