/* A run made in memory on the definitions of a recording (defs.h, pz_defs_set_run). */
#include <stdlib.h>

#include "defs_int.h"

/* Drops what described the recorded run's processes. */
static void drop_run(struct pz_defs *d)
{
    free(d->locations);
    free(d->location_slots);
    d->locations = NULL;
    d->location_slots = NULL;
    d->nlocations = d->location_cap = d->nlocation_slots = 0;
    for (uint32_t i = 0; i < d->ncomms; i++)
        free(d->comms[i].procs);
    free(d->comms);
    d->comms = NULL;
    d->ncomms = 0;
    pz_defs_release_carts(d);
    d->carts = NULL;
    d->cart_dims = NULL;
    d->ncarts = d->ncart_dims = 0;
    free(d->thread_location);
    free(d->thread_rank);
    free(d->first_thread);
    d->thread_location = NULL;
    d->thread_rank = d->first_thread = NULL;
    d->nprocs = d->nthreads = d->threaded = 0;
}

int pz_defs_set_run(struct pz_defs *d, int nprocs, struct pz_comm_def *comms, uint32_t ncomms)
{
    size_t n = nprocs > 0 ? (size_t)nprocs : 1;

    drop_run(d);
    d->comms = comms;
    d->ncomms = ncomms;
    if (!(d->locations = calloc(n, sizeof(*d->locations))))
        return -1;
    for (int p = 0; p < nprocs; p++)
        d->locations[p] = (struct pz_location_def){ (OTF2_LocationRef)p,
                                                    (OTF2_LocationGroupRef)p,
                                                    OTF2_LOCATION_TYPE_CPU_THREAD, -1, 0 };
    d->nlocations = d->location_cap = (uint32_t)nprocs;
    return pz_defs_number(d);
}
