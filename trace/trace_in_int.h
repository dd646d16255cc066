/* Inside the trace reader: the definitions (defs.h, and their accessors of trace_in.h in
 * trace_defs_in.c) and the streams (trace_in.c). */
#ifndef PZ_TRACE_IN_INT_H
#define PZ_TRACE_IN_INT_H

#include <otf2/otf2.h>

#include "check.h"
#include "defs.h"
#include "open.h"
#include "trace_in.h"

struct pz_spool;

/* One thread's stream; its ring of records read but not consumed is the thread's
 * struct pz_trace_ring (trace_in.h). */
struct stream {
    struct pz_trace_in *t;
    int thread;
    int ended;
    struct pz_time_check time;   /* at open: its events' times do not go back */
};

struct pz_trace_in {
    struct pz_trace_in_head head;   /* first: pz_trace_in_peek reads it */
    struct pz_trace_file file;   /* open while the records are spooled; its error */
    struct pz_defs defs;
    struct stream *streams;    /* of each thread */
    struct pz_spool *spool;    /* every thread's records, read from the archive at open */
    const struct pz_trace_gen *gen;   /* or the generator that makes them (NULL if read) */
    struct pz_rec filling;     /* at open: the record the event callbacks fill, spooled
                                  when the next one begins or the location ends */
    int filled, spool_failed;
    int keep_io;               /* pz_trace_in_keep_io */
    int unread_events;         /* pz_trace_in_unread_events */
    uint64_t records;
    /* progress: events read into the spool of the threads' events, then records read
       back of those spooled */
    const struct pz_progress_hook *progress;
    const char *consumed;
    uint64_t events, events_read, spooled;
    struct pz_ahead *ahead;    /* completions indexed ahead, made at the first far search */
};

/* Records a one-line error naming the trace (the first only). */
void pz_trace_in_fail(struct pz_trace_in *t, const char *what);

#endif
