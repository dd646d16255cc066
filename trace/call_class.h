/* The classes of MPI calls the timelines colour them by, as the seed 003's appendix 2
 * gives them: collectives; blocking sends; nonblocking sends; blocking receives, waits,
 * probes and sendrecv; nonblocking receives and tests; the other calls.  Shared by the
 * Perfetto export (export/perfetto*.c) and the HTML report's timeline
 * (analyzer/report_html_timeline.c). */
#ifndef PZ_CALL_CLASS_H
#define PZ_CALL_CLASS_H

#include <stddef.h>

#include "defs.h"
#include "trace_in.h"

enum pz_call_class {
    PZ_CLASS_COLLECTIVE,     /* every collective, blocking or not */
    PZ_CLASS_SEND,           /* blocking sends (Send, Bsend, Ssend, Rsend) */
    PZ_CLASS_ISEND,          /* nonblocking sends; a Start of a persistent send */
    PZ_CLASS_RECV,           /* blocking receives, waits, probes, Sendrecv */
    PZ_CLASS_IRECV,          /* nonblocking receives, tests, Iprobe; a Start of a
                                persistent receive */
    PZ_CLASS_OTHER,          /* the rest: Init, communicators, request handling */
    PZ_NCLASSES
};

/* The class of MPI function region; PZ_CLASS_OTHER for functions prognoz's table does
 * not have.  MPI_Start and MPI_Startall are PZ_CLASS_OTHER here: only their records
 * tell what they start (pz_call_class_of). */
enum pz_call_class pz_call_class(const struct pz_region_info *region);

/* The class of the call of len records (pz_call_length) that is thread th's next in
 * `in`, entered in region: MPI_Start and MPI_Startall take the class of the first
 * operation they start. */
enum pz_call_class pz_call_class_of(struct pz_trace_in *in, int th, size_t len,
                                    const struct pz_region_info *region);

#endif
