/* The resume overhead (docs/machines.md, "Overheads"): a process that computed out of
 * MPI pays it on its next message, in proportion to how long it computed
 * (pz_resume_overhead), as MPI's and the kernel's code and data went cold meanwhile.
 * The caller says when each process enters and leaves an MPI call (pz_comsys_enter,
 * pz_comsys_leave); a process never told about computes never.  Kept only on a machine
 * with a resume overhead. */
#include <stdlib.h>

#include "comsys_int.h"
#include "cost.h"

struct resume {
    double left;       /* when its last call left; -1 while a call is open, or never */
    double computed;   /* out of MPI since its last message */
    int open;          /* calls open (its threads') */
};

int pz_cs_resume_init(struct pz_comsys *cs)
{
    if (!(cs->machine->resume_overhead > 0) && !(cs->machine->shm_resume_overhead > 0))
        return 0;
    cs->resume = malloc((size_t)(cs->nprocs > 0 ? cs->nprocs : 1) * sizeof(*cs->resume));
    if (!cs->resume)
        return -1;
    for (int p = 0; p < cs->nprocs; p++)
        cs->resume[p] = (struct resume){ -1, 0, 0 };
    return 0;
}

void pz_cs_resume_free(struct pz_comsys *cs)
{
    free(cs->resume);
}

void pz_cs_resume_enter(struct pz_comsys *cs, int p, double at)
{
    struct resume *r;

    if (!cs->resume)
        return;
    r = &cs->resume[p];
    if (r->open++ == 0 && r->left >= 0 && at > r->left)
        r->computed += at - r->left;
    r->left = -1;
}

void pz_cs_resume_leave(struct pz_comsys *cs, int p, double at)
{
    struct resume *r;

    if (!cs->resume)
        return;
    r = &cs->resume[p];
    if (r->open > 0 && --r->open == 0)
        r->left = at;
}

double pz_cs_resume_occupy(struct pz_comsys *cs, int p, int peer, double at, double o)
{
    struct resume *r;
    double due;

    if (!cs->resume)
        return pz_cs_occupy(cs, p, at, o);
    r = &cs->resume[p];
    due = pz_resume_overhead(cs->machine, r->computed, pz_cs_same_node(cs, p, peer));
    r->computed = 0;
    if (cs->cpu_free[p] < at)
        cs->cpu_free[p] = at;
    cs->cpu_free[p] += due + o;
    return cs->cpu_free[p];
}
