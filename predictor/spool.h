/* Every process's records of a trace in one temporary file, compactly, so that the
 * replay can stream each process's records with a small buffer per process instead of
 * keeping an OTF2 event reader (a whole chunk, 256 KiB to 16 MiB) open per process.
 * The file is written process after process (trace_in.c reads the archive one location
 * at a time) and removed as soon as it is created, so nothing is left behind. */
#ifndef PZ_SPOOL_H
#define PZ_SPOOL_H

#include <stddef.h>

#include "trace.h"

struct pz_spool;

/* A spool for nprocs processes in $TMPDIR (or /tmp); NULL with a one-line message in err. */
struct pz_spool *pz_spool_new(int nprocs, char *err, size_t errlen);

/* Appends record r of process p; processes come in increasing order, each once.
 * Returns 0, or -1 if writing failed. */
int pz_spool_append(struct pz_spool *s, int p, const struct pz_rec *r);

/* Ends the writing; 0, or -1 if writing failed. */
int pz_spool_finish(struct pz_spool *s);

/* The next record of process p into *out: 1, 0 at the end of p's records, -1 if reading
 * failed. */
int pz_spool_next(struct pz_spool *s, int p, struct pz_rec *out);

/* Bytes written, for the curious. */
size_t pz_spool_bytes(const struct pz_spool *s);

void pz_spool_free(struct pz_spool *s);

#endif
