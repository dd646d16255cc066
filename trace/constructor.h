/* What MPICH's communicator constructors communicate over their parent communicator,
 * which the recorder writes as a collective of operation CREATE_HANDLE on the parent
 * and the predictor replays (docs/trace-format.md, docs/predict.md). */
#ifndef PZ_CONSTRUCTOR_H
#define PZ_CONSTRUCTOR_H

#include "calls_gen.h"

/* The context-id mask every constructor ANDs over the parent with one MPI_Allreduce
 * (MPICH's MPIR_Get_contextid_sparse_group, src/mpi/comm/contextid.c): MPIR_MAX_CONTEXT_MASK
 * = 2^(16 - 5) / 32 = 64 ints of 32 bits, one bit per context-id prefix. */
#define PZ_CONTEXT_MASK_BYTES 256u

/* The (color, key) pair of two ints that each process contributes to the MPI_Allgather
 * over the parent with which MPICH's MPIR_Comm_split_impl begins. */
#define PZ_SPLIT_PAIR_BYTES 8u

/* Whether call (an enum pz_call_id, or -1) makes a communicator collectively over a
 * parent: the category comm_new of the MPI table. */
static inline int pz_constructor(int call)
{
    return call >= 0 && call < PZ_NCALLS && pz_calls[call].category == PZ_CAT_COMM_NEW;
}

/* Whether MPICH makes it with MPIR_Comm_split_impl: MPI_Comm_split, MPI_Comm_split_type
 * (by node, the split type prognoz sees) and MPI_Cart_sub. */
static inline int pz_constructor_splits(int call)
{
    return call == PZ_CALL_MPI_Comm_split || call == PZ_CALL_MPI_Comm_split_type ||
           call == PZ_CALL_MPI_Cart_sub;
}

#endif
