/* Internal to writing a predicted or synthesized archive (trace_out.c, trace_defs.c,
 * synth_out.c): OTF2's first
 * complaint, kept to end their error messages (trace_complaints.c). */
#ifndef PZ_TRACE_COMPLAINTS_H
#define PZ_TRACE_COMPLAINTS_H

#include <stddef.h>
#include <otf2/otf2.h>

/* Writes "path: what" into err, followed by OTF2's first complaint since the last
 * pz_out_listen() if it made one. */
void pz_out_fail(char *err, size_t errlen, const char *path, const char *what);

/* OTF2 reports errors through a global callback; between pz_out_listen() and
 * pz_out_unlisten() its first complaint is kept for pz_out_fail rather than printed.
 * pz_out_heard() says whether it complained. */
OTF2_ErrorCallback pz_out_listen(void);
void pz_out_unlisten(OTF2_ErrorCallback previous);
int pz_out_heard(void);

/* Closes archive, the last step of writing it (at path), where OTF2 writes most of it
 * and reports failures (a full disk) only through its callback: returns rc, the
 * writing so far, or -1 with the message in err when closing failed or OTF2
 * complained. */
int pz_out_close_archive(OTF2_Archive *archive, const char *path, int rc, char *err,
                         size_t errlen);

#endif
