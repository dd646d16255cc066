/* Generated from wrapper/mpi_calls.tbl by wrapper/gen_calls.py: do not edit. */
/* The collective operations of MPI.  The model predicts the first PZ_COLL_NOPS;
 * each one after them is recorded as itself and predicted as another. */
#ifndef PZ_COLL_OPS_H
#define PZ_COLL_OPS_H

enum pz_coll_op {
    PZ_COLL_BARRIER,
    PZ_COLL_BCAST,
    PZ_COLL_GATHER,
    PZ_COLL_GATHERV,
    PZ_COLL_SCATTER,
    PZ_COLL_SCATTERV,
    PZ_COLL_ALLGATHER,
    PZ_COLL_ALLGATHERV,
    PZ_COLL_ALLTOALL,
    PZ_COLL_ALLTOALLV,
    PZ_COLL_REDUCE,
    PZ_COLL_ALLREDUCE,
    PZ_COLL_REDUCE_SCATTER,
    PZ_COLL_REDUCE_SCATTER_BLOCK,
    PZ_COLL_SCAN,
    PZ_COLL_EXSCAN,
    PZ_COLL_NOPS,
    PZ_COLL_ALLTOALLW = PZ_COLL_NOPS,    /* predicted as PZ_COLL_ALLTOALLV */
    PZ_COLL_NKINDS    /* every operation a trace records */
};

/* Initializers: the operations' names in the order of the enum (as --coll
 * names them), and the operation each one after PZ_COLL_NOPS is predicted as. */
#define PZ_COLL_OP_NAMES { \
    "barrier", \
    "bcast", \
    "gather", \
    "gatherv", \
    "scatter", \
    "scatterv", \
    "allgather", \
    "allgatherv", \
    "alltoall", \
    "alltoallv", \
    "reduce", \
    "allreduce", \
    "reduce_scatter", \
    "reduce_scatter_block", \
    "scan", \
    "exscan", \
    "alltoallw", \
}
#define PZ_COLL_PREDICTED_AS { PZ_COLL_ALLTOALLV }

#endif
