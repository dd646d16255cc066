/* How the analysis names its processes: the MPI process and thread of each. */
#include <stdio.h>

#include "analysis.h"

int pz_process_rank(const struct pz_analysis *a, int p)
{
    return p < 0 ? -1 : a->rank_of ? a->rank_of[p] : p;
}

int pz_process_thread(const struct pz_analysis *a, int p)
{
    return p < 0 ? -1 : a->thread_of ? a->thread_of[p] : 0;
}

struct pz_label pz_process_label(const struct pz_analysis *a, int p)
{
    struct pz_label l;

    if (a->threaded && p >= 0)
        snprintf(l.text, sizeof(l.text), "%d.%d", pz_process_rank(a, p), pz_process_thread(a, p));
    else
        snprintf(l.text, sizeof(l.text), "%d", pz_process_rank(a, p));
    return l;
}
