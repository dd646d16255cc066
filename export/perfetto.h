/* A recorded (or predicted) run as a timeline that ui.perfetto.dev and chrome://tracing
 * open: the Chrome trace event format's JSON (docs/perfetto.md documents every event
 * written).  One process per MPI rank ("rank N"), one track of MPI calls per thread and
 * one of intervals beside it; each MPI call a complete event named by its function, its
 * class (below) as category and its messages and requests as arguments; every
 * point-to-point message a flow from its send to its receive.
 *
 * The trace is read and written in one pass, in time order, holding only the calls
 * being written and the messages whose receive is not read yet: a trace of any size
 * exports in bounded memory.  A limit on the file's size cuts the timeline at the call
 * where it is reached; the file says what it left out.
 *
 * Errors: functions returning int return 0, or -1 with a one-line message in err
 * (what is wrong first, lower case, no full stop). */
#ifndef PZ_PERFETTO_H
#define PZ_PERFETTO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "call_class.h"
#include "defs.h"
#include "trace_in.h"

/* The classes of MPI calls (trace/call_class.h), coloured as the seed 003's appendix 2
 * colours them: the category of a call's event. */
enum pz_perfetto_class {
    PZ_PERFETTO_COLLECTIVE = PZ_CLASS_COLLECTIVE,
    PZ_PERFETTO_SEND = PZ_CLASS_SEND,
    PZ_PERFETTO_ISEND = PZ_CLASS_ISEND,
    PZ_PERFETTO_RECV = PZ_CLASS_RECV,
    PZ_PERFETTO_IRECV = PZ_CLASS_IRECV,
    PZ_PERFETTO_OTHER = PZ_CLASS_OTHER,
    PZ_PERFETTO_NCLASSES = PZ_NCLASSES
};

/* pz_call_class of region. */
enum pz_perfetto_class pz_perfetto_class(const struct pz_region_info *region);

/* The category of class c ("collective", "blocking send"...) and the name of the
 * chrome://tracing colour drawing it ("cname"). */
const char *pz_perfetto_category(enum pz_perfetto_class c);
const char *pz_perfetto_colour(enum pz_perfetto_class c);

struct pz_progress_hook;   /* trace/progress.h */

struct pz_perfetto_options {
    const char *source;      /* the trace's path, written in the file's metadata */
    uint64_t limit;          /* bytes: stop writing events there (0: no limit) */
    const struct pz_progress_hook *progress;   /* told the events read, then the records
                                                  written (trace_in.h); or NULL */
};

/* What a file holds, and what the limit left out. */
struct pz_perfetto_summary {
    int processes, threads;
    uint64_t calls, messages;                 /* written */
    uint64_t calls_left_out, messages_left_out;
    int cut;                                  /* the limit was reached */
    double cut_us;                            /* where: microseconds of the timeline */
};

/* Writes the run read from `in` (consumed) to f, whose name (for messages) is name.
 * s (unless NULL) gets the summary. */
int pz_perfetto_write(FILE *f, const char *name, struct pz_trace_in *in,
                      const struct pz_perfetto_options *o, struct pz_perfetto_summary *s,
                      char *err, size_t errlen);

/* Writes the run recorded at trace (DIR or DIR/traces.otf2) to the file `file` ("-":
 * the standard output); a file it could not finish is removed. */
int pz_perfetto_export(const char *trace, const char *file,
                       const struct pz_perfetto_options *o, struct pz_perfetto_summary *s,
                       char *err, size_t errlen);

#endif
