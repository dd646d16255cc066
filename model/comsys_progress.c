/* Progress only inside MPI calls (the machine's progress = in_calls): the steps of a
 * rendezvous that are a process's to take, the receiver's clear-to-send and the
 * sender's data, happen only while that process is inside an MPI call, or at the start
 * of its next one.  The caller says when each process is in a call (pz_comsys_enter,
 * pz_comsys_leave); a process never told about counts as always inside one.  Each
 * process keeps the spans of its calls the simulation has not passed yet, and the steps
 * waiting for its next call. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "comsys_int.h"

struct span {
    double from, to;           /* to = INFINITY while the call is open */
    int call;                  /* the number pz_comsys_enter gave it */
};

struct pending_step {
    enum cs_event kind;        /* EV_CTS_GO or EV_DATA_GO */
    int request;
};

struct in_calls {
    struct span *spans;        /* in the order of entering */
    int n, cap, calls;
    struct pending_step *steps;
    int nsteps, capsteps;
    int told;
};

static int grow(void **v, int *cap, int need, size_t size)
{
    int c = *cap ? *cap : 8;
    void *grown;

    if (need <= *cap)
        return 0;
    while (c < need)
        c *= 2;
    if (!(grown = realloc(*v, (size_t)c * size)))
        return -1;
    *v = grown;
    *cap = c;
    return 0;
}

int pz_cs_progress_init(struct pz_comsys *cs)
{
    if (cs->machine->progress != PZ_PROGRESS_IN_CALLS)
        return 0;
    cs->progress = calloc((size_t)(cs->nprocs > 0 ? cs->nprocs : 1), sizeof(*cs->progress));
    return cs->progress ? 0 : -1;
}

void pz_cs_progress_free(struct pz_comsys *cs)
{
    for (int p = 0; cs->progress && p < cs->nprocs; p++) {
        free(cs->progress[p].spans);
        free(cs->progress[p].steps);
    }
    free(cs->progress);
}

/* Drops the spans over before the simulation's time: no event can fall in them. */
static void prune(struct pz_comsys *cs, struct in_calls *g)
{
    int kept = 0;

    for (int i = 0; i < g->n; i++)
        if (g->spans[i].to >= cs->now)
            g->spans[kept++] = g->spans[i];
    g->n = kept;
}

/* The start of the first call of process p that contains time t or begins after it;
 * -1 if none is known yet. */
static double next_call(struct pz_comsys *cs, int p, double t)
{
    struct in_calls *g = &cs->progress[p];
    double best = -1;

    prune(cs, g);
    for (int i = 0; i < g->n; i++) {
        double at = g->spans[i].to >= t ? (g->spans[i].from > t ? g->spans[i].from : t) : -1;

        if (at >= 0 && (best < 0 || at < best))
            best = at;
    }
    return best;
}

int pz_cs_progress_now(struct pz_comsys *cs, int p, enum cs_event kind, int request)
{
    struct in_calls *g;
    double at;

    if (!cs->progress || !cs->progress[p].told)
        return 1;
    g = &cs->progress[p];
    if ((at = next_call(cs, p, cs->now)) >= 0) {
        if (at <= cs->now)
            return 1;
        pz_cs_push(cs, at, kind, request);
        return 0;
    }
    if (grow((void **)&g->steps, &g->capsteps, g->nsteps + 1, sizeof(*g->steps)) != 0) {
        cs->failed = 1;
        return 0;
    }
    g->steps[g->nsteps++] = (struct pending_step){ kind, request };
    return 0;
}

int pz_comsys_enter(struct pz_comsys *cs, int proc, double at)
{
    struct in_calls *g;

    if (proc < 0 || proc >= cs->nprocs)
        return -1;
    if (at < cs->now)
        at = cs->now;
    pz_cs_resume_enter(cs, proc, at);
    if (!cs->progress)
        return -1;
    g = &cs->progress[proc];
    if (grow((void **)&g->spans, &g->cap, g->n + 1, sizeof(*g->spans)) != 0) {
        cs->failed = 1;
        return -1;
    }
    g->told = 1;
    g->spans[g->n++] = (struct span){ at, INFINITY, g->calls };
    for (int i = 0; i < g->nsteps; i++)
        pz_cs_push(cs, at, g->steps[i].kind, g->steps[i].request);
    g->nsteps = 0;
    if (g->calls == INT_MAX)
        g->calls = 0;
    return g->calls++;
}

void pz_comsys_leave(struct pz_comsys *cs, int proc, int call, double at)
{
    struct in_calls *g;

    if (proc < 0 || proc >= cs->nprocs)
        return;
    pz_cs_resume_leave(cs, proc, at);
    if (!cs->progress || call < 0)
        return;
    g = &cs->progress[proc];
    for (int i = g->n; i-- > 0;) {     /* the latest calls come last */
        struct span *s = &g->spans[i];

        if (s->call == call && s->to == INFINITY) {
            s->to = at > s->from ? at : s->from;
            return;
        }
    }
}
