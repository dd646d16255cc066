/* The set openmpi4: the algorithm Open MPI 4.1's coll/tuned component chooses by its
 * fixed decision rules (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, the switch
 * points measured with the ompi-collectives-tuning package), for intracommunicators,
 * commutative operations and buffers not in place.  The rules are kept as Open MPI
 * writes them, by its algorithm numbers; a table per operation names the model's
 * algorithm for each number.  docs/collectives.md says which are Open MPI's own
 * algorithms and which the nearest the model has. */
#include <math.h>
#include <stddef.h>

#include "coll_algos.h"

/* A rule applies below procs members and below bytes (the bytes Open MPI compares,
 * see bytes_compared); a table's first rule that applies is Open MPI's choice.  Each
 * band of process counts ends with a rule of bytes INFINITY. */
struct rule {
    double procs, bytes;
    int alg;
};

#define ANY INFINITY

/* ompi_coll_tuned_allreduce_intra_dec_fixed, commutative operations: 1 basic_linear,
 * 2 nonoverlapping, 3 recursive_doubling, 4 ring, 5 segmented_ring, 6 rabenseifner. */
static const struct rule allreduce_rules[] = {
    { 4, 8, 4 }, { 4, 4096, 3 }, { 4, 8192, 4 }, { 4, 16384, 3 }, { 4, 65536, 4 },
    { 4, 262144, 5 }, { 4, ANY, 6 },
    { 8, 16, 4 }, { 8, 8192, 3 }, { 8, ANY, 6 },
    { 16, 8192, 3 }, { 16, ANY, 6 },
    { 32, 64, 5 }, { 32, 4096, 3 }, { 32, ANY, 6 },
    { 64, 128, 5 }, { 64, ANY, 6 },
    { 128, 262144, 3 }, { 128, ANY, 6 },
    { 256, 131072, 2 }, { 256, 262144, 3 }, { 256, ANY, 6 },
    { 512, 4096, 2 }, { 512, ANY, 6 },
    { 2048, 2048, 2 }, { 2048, 16384, 3 }, { 2048, ANY, 6 },
    { 4096, 2048, 2 }, { 4096, 4096, 5 }, { 4096, 16384, 3 }, { 4096, ANY, 6 },
    { ANY, 2048, 2 }, { ANY, 16384, 5 }, { ANY, 32768, 3 }, { ANY, ANY, 4 },
};
static const char *const allreduce_names[] = {
    NULL, "basic_linear", "nonoverlapping", "recursive_doubling", "ring", "segmented_ring",
    "ompi_rabenseifner",
};

/* alltoall: 1 linear, 2 pairwise, 3 modified_bruck, 4 linear_sync, 5 two_proc. */
static const struct rule alltoall_rules[] = {
    { 3, 2, 2 }, { 3, 4, 5 }, { 3, 16, 2 }, { 3, 64, 5 }, { 3, 256, 2 }, { 3, 4096, 5 },
    { 3, 32768, 2 }, { 3, 262144, 4 }, { 3, 1048576, 5 }, { 3, ANY, 2 },
    { 8, 8192, 4 }, { 8, 16384, 1 }, { 8, 65536, 4 }, { 8, 524288, 1 }, { 8, 1048576, 2 },
    { 8, ANY, 1 },
    { 16, 262144, 4 }, { 16, ANY, 1 },
    { 32, 4, 4 }, { 32, 512, 3 }, { 32, 8192, 4 }, { 32, 32768, 1 }, { 32, 262144, 4 },
    { 32, 524288, 1 }, { 32, ANY, 4 },
    { 64, 512, 3 }, { 64, 524288, 1 }, { 64, ANY, 4 },
    { 128, 1024, 3 }, { 128, 2048, 1 }, { 128, 4096, 4 }, { 128, 262144, 1 }, { 128, ANY, 2 },
    { 256, 1024, 3 }, { 256, 2048, 4 }, { 256, 262144, 1 }, { 256, ANY, 2 },
    { 512, 1024, 3 }, { 512, 8192, 4 }, { 512, 32768, 1 }, { 512, ANY, 2 },
    { 1024, 512, 3 }, { 1024, 8192, 4 }, { 1024, 16384, 1 }, { 1024, 131072, 4 },
    { 1024, 262144, 1 }, { 1024, ANY, 2 },
    { 2048, 512, 3 }, { 2048, 1024, 4 }, { 2048, 2048, 1 }, { 2048, 16384, 4 },
    { 2048, 262144, 1 }, { 2048, ANY, 4 },
    { 4096, 1024, 3 }, { 4096, 4096, 4 }, { 4096, 8192, 1 }, { 4096, 131072, 4 },
    { 4096, ANY, 1 },
    { 8192, 2048, 3 }, { 8192, 8192, 4 }, { 8192, 16384, 1 }, { 8192, 32768, 4 },
    { 8192, 65536, 1 }, { 8192, ANY, 4 },
    { ANY, ANY, 2 },
};
static const char *const alltoall_names[] = {
    NULL, "ompi_linear", "ompi_pairwise", "bruck", "ompi_linear", "ompi_pairwise",
};

/* alltoallv, by the process count only: 1 basic_linear, 2 pairwise. */
static const struct rule alltoallv_rules[] = {
    { 4, ANY, 2 }, { 64, ANY, 1 }, { 128, ANY, 2 }, { 256, ANY, 1 }, { 1024, ANY, 2 },
    { 8192, ANY, 1 }, { ANY, ANY, 2 },
};
static const char *const alltoallv_names[] = { NULL, "ompi_linear", "ompi_pairwise" };

/* barrier: 1 linear, 2 double_ring, 3 recursive_doubling, 4 bruck, 5 two_proc, 6 tree. */
static const struct rule barrier_rules[] = {
    { 4, ANY, 3 }, { 8, ANY, 1 }, { 64, ANY, 3 }, { 256, ANY, 4 }, { 512, ANY, 6 },
    { 1024, ANY, 4 }, { 4096, ANY, 6 }, { ANY, ANY, 4 },
};
static const char *const barrier_names[] = {
    NULL, "linear", "double_ring", "hypercube", "dissemination", "dissemination", "tree",
};

/* bcast: 1 basic_linear, 2 chain, 3 pipeline, 4 split_binary_tree, 5 binary_tree,
 * 6 binomial, 7 knomial, 8 scatter_allgather, 9 scatter_allgather_ring. */
static const struct rule bcast_rules[] = {
    { 4, 32, 3 }, { 4, 256, 5 }, { 4, 512, 3 }, { 4, 1024, 7 }, { 4, 32768, 1 },
    { 4, 131072, 5 }, { 4, 262144, 2 }, { 4, 524288, 1 }, { 4, 1048576, 6 }, { 4, ANY, 5 },
    { 8, 64, 5 }, { 8, 128, 6 }, { 8, 2048, 5 }, { 8, 8192, 6 }, { 8, 1048576, 1 },
    { 8, ANY, 2 },
    { 16, 8, 7 }, { 16, 64, 5 }, { 16, 4096, 7 }, { 16, 16384, 5 }, { 16, 32768, 6 },
    { 16, ANY, 1 },
    { 32, 4096, 7 }, { 32, 1048576, 6 }, { 32, ANY, 8 },
    { 64, 2048, 6 }, { 64, ANY, 7 },
    { 128, ANY, 7 },
    { 256, 2, 6 }, { 256, 16384, 5 }, { 256, 32768, 1 }, { 256, 65536, 5 }, { 256, ANY, 7 },
    { 1024, 16384, 7 }, { 1024, 32768, 4 }, { 1024, ANY, 7 },
    { 2048, 524288, 7 }, { 2048, ANY, 8 },
    { 4096, 262144, 7 }, { 4096, ANY, 8 },
    { ANY, 8192, 7 }, { ANY, 16384, 5 }, { ANY, ANY, 7 },
};
/* chain: the rules' fan-out 0, which ompi_coll_base_topo_build_chain makes 1, a
 * pipeline. */
static const char *const bcast_names[] = {
    NULL, "linear", "pipeline", "pipeline", "split_binary_tree", "binary_tree",
    "ompi_binomial", "knomial", "scatter_allgather", "scatter_allgather_ring",
};

/* reduce, commutative operations: 1 linear, 2 chain, 3 pipeline, 4 binary,
 * 5 binomial, 6 in-order_binary, 7 rabenseifner. */
static const struct rule reduce_rules[] = {
    { 4, 8, 7 }, { 4, 16, 4 }, { 4, 32, 3 }, { 4, 262144, 1 }, { 4, 524288, 3 },
    { 4, 1048576, 2 }, { 4, ANY, 3 },
    { 8, 4096, 4 }, { 8, 65536, 2 }, { 8, 262144, 5 }, { 8, 524288, 1 }, { 8, 1048576, 5 },
    { 8, ANY, 1 },
    { 16, 8192, 4 }, { 16, ANY, 5 },
    { 32, 4096, 4 }, { 32, ANY, 5 },
    { 256, ANY, 5 },
    { 512, 8192, 5 }, { 512, 16384, 6 }, { 512, ANY, 5 },
    { 2048, ANY, 5 },
    { 4096, 512, 5 }, { 4096, 1024, 6 }, { 4096, 8192, 5 }, { 4096, 16384, 6 },
    { 4096, ANY, 5 },
    { ANY, 16, 5 }, { ANY, 32, 6 }, { ANY, 1024, 5 }, { ANY, 2048, 6 }, { ANY, 8192, 5 },
    { ANY, 16384, 6 }, { ANY, ANY, 5 },
};
/* chain: fan-out 0, a pipeline as Bcast's; binomial: Open MPI's in-order binomial tree
 * is MPICH's binomial tree. */
static const char *const reduce_names[] = {
    NULL, "linear", "pipeline", "pipeline", "binary", "binomial", "in_order_binary",
    "ompi_rabenseifner",
};

/* reduce_scatter, commutative, on the total: 1 non-overlapping, 2 recursive_halving,
 * 3 ring, 4 butterfly. */
static const struct rule reduce_scatter_rules[] = {
    { 4, 65536, 3 }, { 4, 131072, 4 }, { 4, ANY, 3 },
    { 8, 8, 1 }, { 8, 262144, 2 }, { 8, ANY, 3 },
    { 32, 262144, 2 }, { 32, ANY, 3 },
    { 64, 64, 1 }, { 64, 2048, 2 }, { 64, 524288, 4 }, { 64, ANY, 3 },
    { 128, 256, 1 }, { 128, 512, 2 }, { 128, 2048, 4 }, { 128, 4096, 2 }, { 128, ANY, 4 },
    { 256, 256, 1 }, { 256, 512, 2 }, { 256, ANY, 4 },
    { 512, 256, 1 }, { 512, 1024, 2 }, { 512, ANY, 4 },
    { 1024, 512, 1 }, { 1024, 2048, 2 }, { 1024, 8192, 4 }, { 1024, 16384, 2 },
    { 1024, ANY, 4 },
    { 2048, 512, 1 }, { 2048, 4096, 2 }, { 2048, 16384, 4 }, { 2048, 32768, 2 },
    { 2048, ANY, 4 },
    { 4096, 512, 1 }, { 4096, 4096, 2 }, { 4096, ANY, 4 },
    { 8192, 1024, 1 }, { 8192, 8192, 2 }, { 8192, ANY, 4 },
    { ANY, ANY, 2 },
};
/* recursive_halving: Open MPI's (coll/basic's) is MPICH's, but that it skips empty
 * messages. */
static const char *const reduce_scatter_names[] = {
    NULL, "nonoverlapping", "recursive_halving", "ring", "butterfly",
};

/* reduce_scatter_block, commutative, on one block: 1 basic_linear,
 * 2 recursive_doubling, 3 recursive_halving, 4 butterfly. */
static const struct rule reduce_scatter_block_rules[] = {
    { 4, 4, 2 }, { 4, 8, 4 }, { 4, 16, 3 }, { 4, 128, 4 }, { 4, 256, 3 }, { 4, 4096, 4 },
    { 4, 8192, 3 }, { 4, 131072, 4 }, { 4, ANY, 1 },
    { 8, 8, 3 }, { 8, 32, 2 }, { 8, 256, 4 }, { 8, 8192, 3 }, { 8, 16384, 4 },
    { 8, 1048576, 3 }, { 8, ANY, 1 },
    { 16, 4, 1 }, { 16, 32, 3 }, { 16, 128, 4 }, { 16, 524288, 3 }, { 16, 4194304, 1 },
    { 16, ANY, 4 },
    { 32, 32, 1 }, { 32, 524288, 3 }, { 32, 2097152, 1 }, { 32, 4194304, 3 }, { 32, ANY, 4 },
    { 8192, 4, 3 }, { 8192, 16, 1 }, { 8192, 65536, 4 }, { 8192, 262144, 1 },
    { 8192, ANY, 4 },
    { ANY, ANY, 3 },
};
/* recursive_doubling and recursive_halving: MPICH's (1.2.5's doubling, 2-4's halving). */
static const char *const reduce_scatter_block_names[] = {
    NULL, "basic_linear", "recursive_doubling", "recursive_halving", "butterfly",
};

/* allgather, on one block: 1 linear, 2 bruck, 3 recursive_doubling, 4 ring,
 * 5 neighbor, 6 two_proc. */
static const struct rule allgather_rules[] = {
    { 3, ANY, 6 },
    { 32, ANY, 3 },
    { 64, 1024, 3 }, { 64, 65536, 5 }, { 64, ANY, 4 },
    { 128, 512, 3 }, { 128, 65536, 5 }, { 128, ANY, 4 },
    { 256, 512, 3 }, { 256, 131072, 5 }, { 256, 524288, 4 }, { 256, 1048576, 5 },
    { 256, ANY, 4 },
    { 512, 32, 3 }, { 512, 128, 2 }, { 512, 1024, 3 }, { 512, 131072, 5 },
    { 512, 524288, 4 }, { 512, 1048576, 5 }, { 512, ANY, 4 },
    { 1024, 64, 3 }, { 1024, 256, 2 }, { 1024, 2048, 3 }, { 1024, ANY, 5 },
    { 2048, 4, 3 }, { 2048, 8, 2 }, { 2048, 16, 3 }, { 2048, 32, 2 }, { 2048, 256, 3 },
    { 2048, 512, 2 }, { 2048, 4096, 3 }, { 2048, ANY, 5 },
    { 4096, 32, 2 }, { 4096, 128, 3 }, { 4096, 512, 2 }, { 4096, 4096, 3 }, { 4096, ANY, 5 },
    { ANY, 2, 3 }, { ANY, 8, 2 }, { ANY, 16, 3 }, { ANY, 512, 2 }, { ANY, 4096, 3 },
    { ANY, ANY, 5 },
};
/* Recursive doubling on a non-power of two is Open MPI's Bruck (see
 * pz_internal_choose_openmpi4). */
static const char *const allgather_names[] = {
    NULL, "gather_bcast", "bruck", "recursive_doubling", "ring", "neighbor_exchange",
    "recursive_doubling",
};

/* allgatherv, on the mean block: 1 default, 2 bruck, 3 ring, 4 neighbor, 5 two_proc. */
static const struct rule allgatherv_rules[] = {
    { 3, 2048, 3 }, { 3, 4096, 5 }, { 3, 8192, 3 }, { 3, ANY, 5 },
    { 8, 256, 1 }, { 8, 4096, 4 }, { 8, 8192, 3 }, { 8, 16384, 4 }, { 8, 262144, 2 },
    { 8, ANY, 4 },
    { 16, 1024, 1 }, { 16, ANY, 2 },
    { 32, 128, 1 }, { 32, 262144, 2 }, { 32, ANY, 3 },
    { 64, 256, 1 }, { 64, 8192, 2 }, { 64, ANY, 3 },
    { 128, 256, 1 }, { 128, 4096, 2 }, { 128, ANY, 3 },
    { 256, 1024, 2 }, { 256, 65536, 4 }, { 256, ANY, 3 },
    { 512, 1024, 2 }, { 512, ANY, 3 },
    { 1024, 512, 2 }, { 1024, 1024, 1 }, { 1024, 4096, 2 }, { 1024, 1048576, 4 },
    { 1024, ANY, 3 },
    { ANY, 4096, 2 }, { ANY, ANY, 4 },
};
static const char *const allgatherv_names[] = {
    NULL, "gather_bcast", "bruck", "ring", "neighbor_exchange", "recursive_doubling",
};

/* gather, on one block: 1 basic_linear, 2 binomial, 3 linear_sync. */
static const struct rule gather_rules[] = {
    { 4, 2, 3 }, { 4, 4, 1 }, { 4, 32768, 2 }, { 4, 65536, 1 }, { 4, 131072, 2 },
    { 4, ANY, 3 },
    { 8, 1024, 2 }, { 8, 8192, 1 }, { 8, 32768, 2 }, { 8, 262144, 1 }, { 8, ANY, 3 },
    { 256, ANY, 2 },
    { 512, 2048, 2 }, { 512, 8192, 1 }, { 512, ANY, 2 },
    { ANY, ANY, 2 },
};
/* binomial: Open MPI's in-order binomial tree, MPICH's (children nearest first, each
 * sending its subtree's blocks); so Scatter's, which sends to the farthest first. */
static const char *const gather_names[] = { NULL, "ompi_linear", "binomial", "linear_sync" };

/* scatter, on one block: 1 basic_linear, 2 binomial, 3 linear_nb. */
static const struct rule scatter_rules[] = {
    { 4, 2, 3 }, { 4, 131072, 1 }, { 4, 262144, 3 }, { 4, ANY, 1 },
    { 8, 2048, 2 }, { 8, 4096, 1 }, { 8, 8192, 2 }, { 8, 32768, 1 }, { 8, 1048576, 3 },
    { 8, ANY, 1 },
    { 16, 16384, 2 }, { 16, 1048576, 3 }, { 16, ANY, 1 },
    { 32, 16384, 2 }, { 32, 32768, 1 }, { 32, ANY, 3 },
    { 64, 512, 2 }, { 64, 8192, 3 }, { 64, 16384, 2 }, { 64, ANY, 3 },
    { ANY, 512, 2 }, { ANY, ANY, 3 },
};
/* linear_nb: Isend to every rank, then Waitall: the one round of `linear`. */
static const char *const scatter_names[] = { NULL, "ompi_linear", "binomial", "linear" };

struct decision {
    const struct rule *rules;
    const char *const *names;
};

#define DECISION(op) { op##_rules, op##_names }

static const struct decision decisions[PZ_COLL_NOPS] = {
    [PZ_COLL_BARRIER] = DECISION(barrier),
    [PZ_COLL_BCAST] = DECISION(bcast),
    [PZ_COLL_GATHER] = DECISION(gather),
    [PZ_COLL_SCATTER] = DECISION(scatter),
    [PZ_COLL_ALLGATHER] = DECISION(allgather),
    [PZ_COLL_ALLGATHERV] = DECISION(allgatherv),
    [PZ_COLL_ALLTOALL] = DECISION(alltoall),
    [PZ_COLL_ALLTOALLV] = DECISION(alltoallv),
    [PZ_COLL_REDUCE] = DECISION(reduce),
    [PZ_COLL_ALLREDUCE] = DECISION(allreduce),
    [PZ_COLL_REDUCE_SCATTER] = DECISION(reduce_scatter),
    [PZ_COLL_REDUCE_SCATTER_BLOCK] = DECISION(reduce_scatter_block),
};

/* What Open MPI compares with the rules: the whole vector of Allreduce and Reduce
 * (count x type size), all blocks of Reduce_scatter, the mean block of Allgatherv,
 * else one process's block (Alltoall and Allgather: scount x type size). */
static double bytes_compared(const struct pz_coll *c)
{
    switch (c->op) {
    case PZ_COLL_REDUCE_SCATTER:
        return pz_internal_total(c);
    case PZ_COLL_ALLGATHERV:
        return pz_internal_total(c) / c->size;
    default:
        return c->bytes;
    }
}

static int decide(const struct rule *rules, double p, double n)
{
    while (!(p < rules->procs && n < rules->bytes))
        rules++;
    return rules->alg;
}

/* Gatherv, Scatterv, Scan and Exscan have no fixed rules in coll/tuned: coll/basic's
 * linear algorithms run them. */
const char *pz_internal_choose_openmpi4(const struct pz_coll *c)
{
    const struct decision *d = &decisions[c->op];
    int alg;

    if (!d->rules)
        return c->op == PZ_COLL_SCAN || c->op == PZ_COLL_EXSCAN ? "linear" : "ompi_linear";
    alg = decide(d->rules, c->size, bytes_compared(c));
    if (c->op == PZ_COLL_ALLGATHER && alg == 3 && !pz_internal_is_pof2(c->size))
        return "bruck";          /* Open MPI's recursive doubling falls back to Bruck */
    return d->names[alg];
}

void pz_internal_ompi_walk_chosen(const struct pz_coll *c, struct pz_walk *w,
                                  enum pz_coll_op op, double n)
{
    struct pz_coll sub = *c;

    sub.op = op, sub.root = 0, sub.bytes = n;
    sub.send_counts = sub.recv_counts = NULL;
    pz_internal_walk_of(pz_coll_named(op, pz_internal_choose_openmpi4(&sub)))(&sub, w);
}
