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

/* Whether only the members of the new communicator call constructor call, so that
 * MPICH agrees on its context id among them: MPI_Comm_create_group, and MPI 4.0's
 * constructors from groups, which have no parent (MPI_Comm_create_from_group; MPICH's
 * MPI_Intercomm_create_from_groups, whose new communicator is an intercommunicator,
 * on which no collective is recorded).  Every other constructor's collective is on the
 * parent, whose members all call it. */
static int agreed_among_members(enum pz_call_id call)
{
    return call == PZ_CALL_MPI_Comm_create_group ||
           call == PZ_CALL_MPI_Comm_create_from_group ||
           call == PZ_CALL_MPI_Intercomm_create_from_groups;
}

void pz_post_comm_new(struct pz_call *c, MPI_Comm comm, MPI_Comm *newcomm)
{
    pz_comms_created(*newcomm, (uint16_t)c->id);
    record_agreement(c, agreed_among_members(c->id) ? pz_comm_ref(*newcomm)
                                                    : pz_comm_ref(comm));
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
