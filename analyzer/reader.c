/* What every part of reading a trace shares (reader.h): its one-line error. */
#include <stdarg.h>

#include "reader.h"

void pz_reader_fail(struct reader *r, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    pz_trace_file_vfail(&r->file, fmt, ap);
    va_end(ap);
}
