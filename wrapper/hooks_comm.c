/* Hooks of communicator constructors and destructors. */
#include "comms.h"
#include "constructor.h"
#include "hooks.h"

/* The collective a constructor is on the communicator ref its members agree over:
 * CREATE_HANDLE, no root, with the bytes of MPICH's context-id Allreduce (and of the
 * (color, key) Allgather of a split) that this process sends and receives.  None on an
 * intercommunicator or a communicator the wrapper does not know: what MPICH exchanges
 * there between the groups' leaders is no collective of the members. */
static void record_agreement(struct pz_call *c, uint32_t ref)
{
    const struct pz_comm_info *parent;
    struct pz_item *it;

    if (ref == PZ_COMM_UNKNOWN || (parent = pz_comm_get(ref))->remote_size > 0)
        return;
    if (!(it = pz_call_item(c, PZ_ITEM_COLL)))
        return;
    it->flags = PZ_ITEM_CREATES_HANDLE;
    it->collective = PZ_COLL_ALLREDUCE;   /* what MPICH runs; written as CREATE_HANDLE */
    it->comm = ref;
    it->peer = -1;
    it->tag = 0;
    it->request = 0;
    it->bytes = it->bytes_received = PZ_CONTEXT_MASK_BYTES;
    if (pz_constructor_splits((int)c->id)) {
        it->bytes += PZ_SPLIT_PAIR_BYTES;
        it->bytes_received += (uint64_t)PZ_SPLIT_PAIR_BYTES * (uint64_t)parent->size;
    }
}

/* Only the members of the new communicator call MPI_Comm_create_group, and MPICH agrees
 * on its context id among them: its collective is on the new communicator.  Every other
 * constructor's is on the parent, whose members all call it. */
void pz_post_comm_new(struct pz_call *c, MPI_Comm comm, MPI_Comm *newcomm)
{
    uint32_t parent = pz_comm_ref(comm);

    pz_comms_created(*newcomm, (uint16_t)c->id);
    record_agreement(c, c->id == PZ_CALL_MPI_Comm_create_group ? pz_comm_ref(*newcomm)
                                                                : parent);
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
