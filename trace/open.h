/* Opening a recorded trace, as every reader of one does it: the anchor file of the
 * user's path (anchor.h), the check that it is a trace, the OTF2 reader, the global
 * definitions (defs.h), each location's local definitions and its files.  While a trace
 * is open, OTF2's errors are not printed: the first one becomes the trace's one-line
 * error "PATH: description: message", like every other error of reading it. */
#ifndef PZ_OPEN_H
#define PZ_OPEN_H

#include <stdarg.h>
#include <otf2/otf2.h>

#include "defs.h"

struct pz_trace_file {
    char path[4096];          /* the anchor file */
    OTF2_Reader *otf;         /* NULL once closed */
    char error[4096 + 640];   /* the first error: the path and a message; "" if none */
    const struct pz_defs *defs;   /* once the locations' files are open */
    int otf2_failed;          /* the error is OTF2's, met while reading those files */
};

/* Opens the trace at path (DIR or DIR/traces.otf2) into f, reads its global
 * definitions into defs and opens the files of the locations of defs's threads.
 * 0, or -1 with f->error set.  Close f and release defs even when it fails. */
int pz_trace_file_open(struct pz_trace_file *f, const char *path, struct pz_defs *defs);

/* Reads the global definitions of the trace at path into defs, and closes it again.
 * 0, or -1 with f->error's one-line message in err; release defs in both cases. */
int pz_trace_defs_read(const char *path, struct pz_defs *defs, char *err, size_t errlen);

/* Reads the local definitions of thread th's location (mapping tables, clock offsets):
 * after its event reader exists, for them to apply to it.  0, or -1 with f->error set.
 * A location whose file holds no definitions (pz_local_defs_empty) is not read: OTF2
 * would fill a whole definitions chunk, up to 16 MiB, to find nothing there. */
int pz_trace_file_local_defs(struct pz_trace_file *f, const struct pz_defs *defs, int th);

/* Whether file (a location's DIR/traces/LOC.def) holds exactly the 20 bytes OTF2 writes
 * for a location without local definitions, as the predicted and synthesized archives'
 * are: a chunk header (byte 0x03, byte 0x42: OTF2's mark of a little-endian writer, the
 * numbers of the chunk's first and last events, 1 and 0, as 8 little-endian bytes
 * each), the end of the file (0x02) and the end of its buffer (0x01).  0 for any other
 * file, a missing or unreadable one too (one a big-endian host wrote goes through OTF2,
 * as before). */
int pz_local_defs_empty(const char *file);

/* The number of the event of location loc read last (1: its first), 0 if unknown: for
 * errors of readers whose OTF2 callbacks do not get it. */
uint64_t pz_trace_file_event(struct pz_trace_file *f, uint64_t loc);

/* The partial trace's endings (the property PZ_PARTIAL_PROPERTY, names.h, that the
 * assembly of a run that ended without MPI_Finalize writes): a copy to free, NULL if
 * the archive has none or memory ran out.  OTF2 reports a missing property as an
 * error, so it is asked only when the archive lists it. */
char *pz_trace_file_partial(const struct pz_trace_file *f);

/* Closes the archive; OTF2's errors are printed again.  f->error stays, but when it is
 * an error OTF2 met while reading the locations' files and does not name the file, it
 * names the first of them that OTF2 cannot read alone ("DIR/traces/1.evt: ..." rather
 * than the anchor file), found then by reading each location's local definitions and
 * events again. */
void pz_trace_file_close(struct pz_trace_file *f);

/* Records a one-line error naming the trace: "PATH: " and the message (the first error
 * only; later ones are consequences of it). */
void pz_trace_file_fail(struct pz_trace_file *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void pz_trace_file_vfail(struct pz_trace_file *f, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

#endif
