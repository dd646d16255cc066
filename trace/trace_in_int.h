/* Inside the trace reader: the definitions (defs.h, and their accessors of trace_in.h in
 * trace_defs_in.c) and the streams (trace_in.c). */
#ifndef PZ_TRACE_IN_INT_H
#define PZ_TRACE_IN_INT_H

#include <otf2/otf2.h>

#include "defs.h"
#include "trace_in.h"

struct pz_spool;

/* One thread's stream; its ring of records read but not consumed is the thread's
 * struct pz_trace_ring (trace_in.h). */
struct stream {
    struct pz_trace_in *t;
    int thread;
    int ended;
};

struct pz_trace_in {
    struct pz_trace_in_head head;   /* first: pz_trace_in_peek reads it */
    char path[4096];
    OTF2_Reader *otf;
    struct pz_defs defs;
    struct stream *streams;    /* of each thread */
    struct pz_spool *spool;    /* every thread's records, read from the archive at open */
    struct pz_rec filling;     /* at open: the record the event callbacks fill, spooled
                                  when the next one begins or the location ends */
    int filled, spool_failed;
    uint64_t records;
    char error[4096 + 640];    /* the path, and a message of up to 512 bytes */
};

/* Records a one-line error naming the trace (the first only); what NULL: the
 * definitions' error. */
void pz_trace_in_fail(struct pz_trace_in *t, const char *what);

#endif
