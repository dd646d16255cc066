/* The notice of a partial trace (docs/record.md) for the commands that read a trace
 * without prognoz report's analysis of it: predict and export. */
#ifndef PZ_PARTIAL_NOTICE_H
#define PZ_PARTIAL_NOTICE_H

#include <stdio.h>

/* How each process of the trace at path ended ("0: HOW; 1: HOW"), the property of a
 * trace assembled after its run ended without MPI_Finalize; NULL when the trace is
 * whole, or cannot be read (the command's own reading of it then says why).  Free it. */
char *pz_partial_endings(const char *path);

/* Writes to out, after prefix, the line prognoz report begins with for such a trace. */
void pz_partial_notice(FILE *out, const char *prefix, const char *endings);

#endif
