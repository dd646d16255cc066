/* The recorder's warnings (runtime.h).  Needs no MPI: the assembly of partial traces
 * warns through it too. */
#include <stdarg.h>
#include <stdio.h>

#include "runtime.h"

void pz_runtime_warn(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "prognoz: warning: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
