/* Internal to writing a predicted archive (trace_out.c): what it needs from the recorded
 * archive's global definitions, and their copy into the new archive (trace_defs.c). */
#ifndef PZ_TRACE_DEFS_H
#define PZ_TRACE_DEFS_H

#include <stddef.h>
#include <stdint.h>
#include <otf2/otf2.h>

/* A location written in the predicted archive. */
struct pz_out_location {
    uint64_t id;
    uint64_t events;           /* events written so far */
    OTF2_EvtWriter *writer;
    int defined;               /* the recorded archive defines it */
};

/* The attributes the recorder puts on events, by their names and types. */
enum pz_out_attribute {
    PZ_OUT_CALLSITE,           /* prognoz:callsite, a source code location */
    PZ_OUT_SEND_BYTES,         /* prognoz:send_bytes, a string */
    PZ_OUT_RECV_BYTES,         /* prognoz:recv_bytes, a string */
    PZ_OUT_CPU_TIME,           /* prognoz:cpu_time, a uint64 */
    PZ_OUT_NATTRIBUTES
};

/* Reads the global definitions of the recorded archive at anchor: the reference of
 * each attribute of enum pz_out_attribute (OTF2_UNDEFINED_ATTRIBUTE when the archive
 * does not define it with its type), and which of the n locations it defines (locs
 * sorted by id).  Returns 0, or -1 with a one-line message in err. */
int pz_out_defs_scan(const char *anchor, struct pz_out_location *locs, size_t n,
                     OTF2_AttributeRef attributes[PZ_OUT_NATTRIBUTES], char *err,
                     size_t errlen);

/* Writes the recorded archive's global definitions to w with their references
 * unchanged, except: clock properties spanning from the global offset to `end`, and of
 * the locations only locs (sorted by id) with their event counts.  Returns 0, or -1
 * with a one-line message in err. */
int pz_out_defs_copy(const char *anchor, OTF2_GlobalDefWriter *w,
                     const struct pz_out_location *locs, size_t n, uint64_t end, char *err,
                     size_t errlen);

/* The location id among locs (sorted by id), or NULL. */
const struct pz_out_location *pz_out_location_find(const struct pz_out_location *locs,
                                                   size_t n, uint64_t id);

#endif
