/* Internal to writing a predicted or synthesized archive (trace_out.c, synth_out.c):
 * what it needs from the recorded archive's global definitions, their copy into the new
 * archive (trace_defs.c), and a record written as an event (trace_out.c). */
#ifndef PZ_TRACE_DEFS_H
#define PZ_TRACE_DEFS_H

#include <stddef.h>
#include <stdint.h>
#include <otf2/otf2.h>

struct pz_rec;

/* A location written in the predicted archive. */
struct pz_out_location {
    uint64_t id;
    uint64_t events;           /* events written so far */
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

/* Reads the global definitions of the archive at anchor through cb with data.  Returns
 * 0, or -1 if OTF2 could not read them or a callback interrupted the reading. */
int pz_out_defs_read(const char *anchor, OTF2_GlobalDefReaderCallbacks *cb, void *data);

/* Writes the recorded archive's global definitions to w with their references
 * unchanged, except: clock properties spanning from the global offset to `end`, and of
 * the locations only locs (sorted by id) with their event counts.  Returns 0, or -1
 * with a one-line message in err. */
int pz_out_defs_copy(const char *anchor, OTF2_GlobalDefWriter *w,
                     const struct pz_out_location *locs, size_t n, uint64_t end, char *err,
                     size_t errlen);

/* Writes rec (not a flush) to w at `time` (rec->time is ignored), with the attributes
 * among the recorded archive's `attributes` that rec carries, through list.  Returns 0,
 * or -1 if OTF2 refused it. */
int pz_out_write_record(OTF2_EvtWriter *w, OTF2_AttributeList *list,
                        const OTF2_AttributeRef attributes[PZ_OUT_NATTRIBUTES],
                        const struct pz_rec *rec, uint64_t time);

/* The location id among locs (sorted by id), or NULL. */
const struct pz_out_location *pz_out_location_find(const struct pz_out_location *locs,
                                                   size_t n, uint64_t id);

#endif
