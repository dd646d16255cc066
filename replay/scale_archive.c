/* The synthesis's sink that writes the archive (scale_archive.h). */
#include <stdio.h>

#include "scale_archive.h"
#include "synth_out.h"

struct archive_sink {
    const struct pz_scale_program *m;
    const char *dir;
    int nprocs;
    struct pz_synth_out *out;
    char *err;
    size_t errlen;
};

static int open_archive(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    struct archive_sink *s = ctx;

    s->out = pz_synth_out_open(s->dir, pz_scale_program_recording(s->m), s->nprocs, comms, n,
                               s->err, s->errlen);
    return s->out ? 0 : -1;
}

static int write_event(void *ctx, int proc, const struct pz_rec *rec)
{
    struct archive_sink *s = ctx;

    if (pz_synth_out_event(s->out, proc, rec) == 0)
        return 0;
    snprintf(s->err, s->errlen, "%s/traces.otf2: cannot write the events of process %d",
             s->dir, proc);
    return -1;
}

int pz_scale_synthesize_archive(const struct pz_scale_program *m, int nprocs, const char *dir,
                                char *err, size_t errlen)
{
    struct archive_sink s = { .m = m, .dir = dir, .nprocs = nprocs, .err = err,
                              .errlen = errlen };
    struct pz_scale_sink sink = { open_archive, write_event, &s };
    char close_err[1024];
    int rc;

    err[0] = '\0';
    rc = pz_scale_synthesize(m, nprocs, &sink, err, errlen);
    if (!s.out)
        return -1;
    if (pz_synth_out_close(s.out, close_err, sizeof(close_err)) != 0) {
        if (rc == 0)
            snprintf(err, errlen, "%s", close_err);
        return -1;
    }
    return rc;
}
