/* The Perfetto export's JSON: every byte goes through here, so that the size limit
 * knows how much is written. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>

#include "perfetto_int.h"

void pz_pf_printf(struct pz_pf_out *o, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vfprintf(o->f, fmt, ap);
    va_end(ap);
    if (n < 0)
        o->failed = 1;
    else
        o->bytes += (uint64_t)n;
}

void pz_pf_string(struct pz_pf_out *o, const char *s)
{
    uint64_t n = 2;

    fputc('"', o->f);
    for (; *s; s++, n++) {
        unsigned char c = (unsigned char)*s;

        if (c == '"' || c == '\\') {
            fputc('\\', o->f);
            fputc(c, o->f);
            n++;
        } else if (c < 0x20) {
            fprintf(o->f, "\\u%04x", c);
            n += 5;
        } else {
            fputc(c, o->f);
        }
    }
    fputc('"', o->f);
    o->bytes += n;
}

int64_t pz_pf_ns(const struct pz_pf_out *o, uint64_t t)
{
    int64_t ticks = t >= o->offset ? (int64_t)(t - o->offset) : -(int64_t)(o->offset - t);

    if (o->resolution == 1e9)
        return ticks;
    return llround((double)ticks * 1e9 / o->resolution);
}

void pz_pf_us(struct pz_pf_out *o, int64_t ns)
{
    uint64_t magnitude = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

    pz_pf_printf(o, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", magnitude / 1000,
                 magnitude % 1000);
}

void pz_pf_event(struct pz_pf_out *o, const char *ph, int pid, int tid, int64_t ns)
{
    pz_pf_printf(o, "%s{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":", o->events++ ? ",\n" : "",
                 ph, pid, tid);
    pz_pf_us(o, ns);
}
