/* What every part of reading a trace shares (reader.h): its one-line error. */
#include <stdarg.h>
#include <stdio.h>

#include "reader.h"

void pz_reader_fail(struct reader *r, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (r->failed)
        return;
    r->failed = 1;
    n = snprintf(r->err, r->errlen, "%s: ", r->path);
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}
