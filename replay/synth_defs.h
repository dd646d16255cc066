/* Internal to writing a synthesized run (synth_out.c): the global definitions of the
 * synthesized archive (synth_defs.c), the program's copied from the recording it was
 * modelled on, the run's (processes, locations, communicators) written new. */
#ifndef PZ_SYNTH_DEFS_H
#define PZ_SYNTH_DEFS_H

#include <stddef.h>
#include <stdint.h>
#include <otf2/otf2.h>

#include "synth_out.h"
#include "trace_defs.h"

/* What the synthesized archive needs of the recording before its events. */
struct pz_synth_recorded {
    OTF2_AttributeRef attributes[PZ_OUT_NATTRIBUTES];  /* as pz_out_defs_scan finds them */
    OTF2_StringRef next_string;     /* the first string reference after the recording's */
};

/* Reads the global definitions of the recording at anchor.  Returns 0, or -1 with a
 * one-line message naming it in err (among others when it has no clock properties). */
int pz_synth_defs_scan(const char *anchor, struct pz_synth_recorded *r, char *err,
                       size_t errlen);

/* The synthesized run, as its definitions describe it. */
struct pz_synth_run {
    int nprocs;                      /* process p: location group p, location p */
    const uint64_t *events;          /* of each location */
    const struct pz_synth_comm *comms;   /* communicator i: Comm reference i */
    uint32_t ncomms;
    uint64_t end;                    /* the latest time written */
    const char *const *lists;        /* per-peer byte lists: list i is string
                                        next_string + i */
    uint32_t nlists;
};

/* Writes to w, of the archive at path, the recording's definitions of the program
 * (strings, paradigms, attributes, regions, call sites...) with their references, its
 * clock properties spanning from its offset to run->end, and with new strings from
 * r->next_string on the run's lists, then its processes, locations and
 * communicators.  Returns 0, or
 * -1 with a one-line message in err. */
int pz_synth_defs_write(const char *anchor, const char *path, OTF2_GlobalDefWriter *w,
                        const struct pz_synth_recorded *r, const struct pz_synth_run *run,
                        char *err, size_t errlen);

#endif
