/* Hooks of communicator constructors and destructors. */
#include "comms.h"
#include "hooks.h"

void pz_post_comm_new(struct pz_call *c, MPI_Comm comm, MPI_Comm *newcomm)
{
    (void)comm;
    pz_comms_created(*newcomm, (uint16_t)c->id);
}

void pz_post_comm_idup(struct pz_call *c, MPI_Comm comm, MPI_Comm *newcomm)
{
    pz_comms_duplicating(comm, *newcomm, (uint16_t)c->id);
}

int pz_pre_comm_free(struct pz_call *c, MPI_Comm *comm)
{
    (void)c;
    pz_comms_freed(*comm);
    return 0;
}
