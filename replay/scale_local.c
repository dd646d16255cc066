/* Leaving local calls out of a recorded run (scale_local.h). */
#include <stdlib.h>
#include <string.h>

#include "calls_gen.h"
#include "large_count.h"
#include "scale_local.h"

/* Whether region name is a function of the plain category that waits for nothing:
 * MPI_Buffer_detach waits for the buffered messages to leave. */
static int plain(const char *name)
{
    int id = pz_call_named(name);

    return id >= 0 && strncmp(name, "MPI_Buffer_detach", 17) &&
           pz_calls[id].category == PZ_CAT_PLAIN;
}

/* Appends name to names unless it is there. */
static void add_name(char *names, size_t len, const char *name)
{
    size_t used = strlen(names), n = strlen(name);
    const char *at = names;

    while ((at = strstr(at, name)))
        if ((at == names || at[-1] == ' ') && (at[n] == ',' || at[n] == '\0'))
            return;
        else
            at += n;
    if (used + n + 3 < len) {
        strcpy(names + used, used ? ", " : "");
        strcat(names, name);
    }
}

/* Whether step s is a call left out: local[region] for the nnames regions. */
static int left_out(const struct pz_scale_step *s, const uint8_t *local, uint32_t nnames)
{
    return s->kind == PZ_SCALE_CALL && s->n == 0 && s->region < nnames && local[s->region];
}

/* Leaves p's local calls out; kept[i] the index step i takes, or SIZE_MAX when left out.
 * Returns how many it left out. */
static size_t fold_process(struct pz_scale_process *p, const uint8_t *local, uint32_t nnames,
                           size_t *kept)
{
    double wall = 0, cpu = 0;
    size_t w = 0;

    for (size_t i = 0; i < p->nsteps; i++) {
        struct pz_scale_step s = p->steps[i];

        if (left_out(&s, local, nnames)) {
            wall += s.gap_wall + s.duration;
            cpu += (s.gap_cpu > 0 ? s.gap_cpu : 0) + s.duration;
            kept[i] = SIZE_MAX;
            continue;
        }
        s.gap_wall += wall;
        if (s.gap_cpu >= 0)
            s.gap_cpu += cpu;
        wall = cpu = 0;
        kept[i] = w;
        p->steps[w++] = s;
    }
    p->tail_wall += wall;
    if (p->tail_cpu >= 0)
        p->tail_cpu += cpu;
    w = p->nsteps - w;
    p->nsteps -= w;
    return w;
}

/* The events' distances to their posting steps, in the steps kept. */
static void repost(struct pz_scale_process *p, const size_t *kept, size_t nsteps)
{
    for (size_t i = 0; i < nsteps; i++) {
        if (kept[i] == SIZE_MAX)
            continue;
        const struct pz_scale_step *s = &p->steps[kept[i]];

        for (uint32_t e = s->first; e < s->first + s->n; e++) {
            int32_t *back = &p->events[e].posted_by;

            if (*back > 0 && (size_t)*back <= i && kept[i - (size_t)*back] != SIZE_MAX)
                *back = (int32_t)(kept[i] - kept[i - (size_t)*back]);
        }
    }
}

size_t pz_scale_run_fold_local(struct pz_scale_run *r, char *names, size_t len)
{
    uint8_t *local = calloc(r->nnames ? r->nnames : 1, 1);
    size_t folded = 0;

    if (!local)
        return 0;
    for (uint32_t k = 0; k < r->nnames; k++)
        local[k] = (uint8_t)plain(r->names[k]);
    for (int p = 0; p < r->nprocs; p++) {
        struct pz_scale_process *q = &r->procs[p];
        size_t *kept = malloc((q->nsteps ? q->nsteps : 1) * sizeof(*kept)), n = q->nsteps;

        if (!kept)
            break;
        for (size_t i = 0; i < n; i++)
            if (left_out(&q->steps[i], local, r->nnames))
                add_name(names, len, r->names[q->steps[i].region]);
        folded += fold_process(q, local, r->nnames, kept);
        repost(q, kept, n);
        free(kept);
    }
    free(local);
    return folded;
}
