/* Every stream's records of a trace (a thread's: one location's) in one temporary file,
 * compactly, so that the replay can read each stream with a small buffer instead of
 * keeping an OTF2 event reader (a whole chunk, 256 KiB to 16 MiB) open per location.
 * The file is written stream after stream (trace_in.c reads the archive one location
 * at a time), or in any interleaving (the predicted trace, trace_out.c), and removed as
 * soon as it is created, so nothing is left behind. */
#ifndef PZ_SPOOL_H
#define PZ_SPOOL_H

#include <stddef.h>

#include "trace.h"

struct pz_spool;

/* A record without any of the attributes: every field at the value the spool stores
 * without writing it. */
extern const struct pz_rec pz_rec_blank;

/* A spool for nstreams streams in $TMPDIR (or /tmp); NULL with a one-line message in err. */
struct pz_spool *pz_spool_new(int nstreams, char *err, size_t errlen);

/* Appends record r of stream p; streams come in increasing order, each once.
 * Returns 0, or -1 if writing failed. */
int pz_spool_append(struct pz_spool *s, int p, const struct pz_rec *r);

/* Appends record r of stream p, the streams in any interleaving: each stream's records
 * are kept in a small buffer of its own (4 KiB), written to the file when it is full.
 * A spool is written by pz_spool_append or by pz_spool_add, not both.  Returns 0, or
 * -1 if writing failed or memory ran out. */
int pz_spool_add(struct pz_spool *s, int p, const struct pz_rec *r);

/* Ends the writing; 0, or -1 if writing failed. */
int pz_spool_finish(struct pz_spool *s);

/* The next record of stream p into *out: 1, 0 at the end of p's records, -1 if reading
 * failed. */
int pz_spool_next(struct pz_spool *s, int p, struct pz_rec *out);

/* Bytes written, for the curious. */
size_t pz_spool_bytes(const struct pz_spool *s);

void pz_spool_free(struct pz_spool *s);

#endif
