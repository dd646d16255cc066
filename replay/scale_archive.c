/* The synthesis's sink that writes the archive (scale_archive.h). */
#include <stdio.h>

#include "scale_archive.h"
#include "synth_out.h"

/* Synthesizes the run of m at nprocs processes and writes it into dir: the
 * communicators and the lists of its v collectives given to the archive first, then
 * every process's records. */
struct archive {
    struct pz_synth_out *out;
    const char *dir;
    char *err;
    size_t errlen;
};

static int put_event(void *ctx, int proc, const struct pz_rec *rec)
{
    struct archive *a = ctx;

    if (pz_synth_out_event(a->out, proc, rec) == 0)
        return 0;
    snprintf(a->err, a->errlen, "%s/traces.otf2: cannot write the events of process %d",
             a->dir, proc);
    return -1;
}

int pz_scale_synthesize_archive(const struct pz_scale_program *m, int nprocs, const char *dir,
                                char *err, size_t errlen)
{
    struct pz_scale_synth *s = pz_scale_synth_new(m, nprocs, err, errlen);
    const struct pz_synth_comm *comms;
    const char *const *lists;
    struct archive a = { NULL, dir, err, errlen };
    char close_err[1024];
    uint32_t ncomms, nlists;
    int rc;

    if (!s)
        return -1;
    comms = pz_scale_synth_comms(s, &ncomms);
    lists = pz_scale_synth_lists(s, &nlists);
    if (!(a.out = pz_synth_out_open(dir, pz_scale_program_recording(m), nprocs, comms, ncomms,
                                    err, errlen))) {
        pz_scale_synth_free(s);
        return -1;
    }
    pz_synth_out_lists(a.out, lists, nlists);
    rc = pz_scale_synth_all(s, put_event, &a, err, errlen);
    if (pz_synth_out_close(a.out, close_err, sizeof(close_err)) != 0) {
        if (rc == 0)
            snprintf(err, errlen, "%s", close_err);
        rc = -1;
    }
    pz_scale_synth_free(s);
    return rc;
}
