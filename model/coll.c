/* Collective operations by name, the algorithm each MPI chooses for an instance, and
 * the block n recovered from a trace's bytes.  The cut-offs, and the MPICH sources they
 * were checked against, are listed in docs/collectives.md. */
#include <string.h>

#include "coll_algos.h"

/* The trace records bytes, not counts: where MPICH compares a count of elements
 * (Allreduce and Reduce: count < pof2), an element is taken as 8 bytes (a double). */
#define ELEMENT_BYTES 8.0

static const char *const op_names[PZ_COLL_NKINDS] = PZ_COLL_OP_NAMES;
static const enum pz_coll_op predicted_as[PZ_COLL_NKINDS - PZ_COLL_NOPS] =
    PZ_COLL_PREDICTED_AS;

static const struct pz_internal_algo *const families[] = {
    pz_internal_coll_tree, pz_internal_coll_linear, pz_internal_coll_exchange,
    pz_internal_coll_rabenseifner, pz_internal_coll_alltoall, pz_internal_coll_ompi_ring,
    pz_internal_coll_ompi_rooted, pz_internal_coll_ompi_exchange,
    pz_internal_coll_ompi_tree, pz_internal_coll_ompi_butterfly,
    pz_internal_coll_ompi_rabenseifner,
};

int pz_coll_op_named(const char *name)
{
    for (int op = 0; op < PZ_COLL_NKINDS; op++)
        if (strcmp(name, op_names[op]) == 0)
            return op < PZ_COLL_NOPS ? op : (int)predicted_as[op - PZ_COLL_NOPS];
    return -1;
}

const struct pz_coll_algo *pz_coll_named(enum pz_coll_op op, const char *name)
{
    for (size_t f = 0; f < sizeof families / sizeof *families; f++)
        for (const struct pz_internal_algo *e = families[f]; e->algo.name; e++)
            if (e->algo.op == op && strcmp(e->algo.name, name) == 0)
                return &e->algo;
    return NULL;
}

const struct pz_coll_algo *pz_coll_algorithm(enum pz_coll_op op, size_t i)
{
    for (size_t f = 0; f < sizeof families / sizeof *families; f++)
        for (const struct pz_internal_algo *e = families[f]; e->algo.name; e++)
            if (e->algo.op == op && i-- == 0)
                return &e->algo;
    return NULL;
}

pz_walk_fn *pz_internal_walk_of(const struct pz_coll_algo *a)
{
    for (size_t f = 0; f < sizeof families / sizeof *families; f++)
        for (const struct pz_internal_algo *e = families[f]; e->algo.name; e++)
            if (&e->algo == a)
                return e->walk;
    return NULL;
}

/* MPICH 1.2.x's intra_fns.c: one algorithm per operation. */
static const char *choose_mpich1(const struct pz_coll *c)
{
    static const char *const names[PZ_COLL_NOPS] = {
        [PZ_COLL_BARRIER] = "hypercube", [PZ_COLL_BCAST] = "binomial",
        [PZ_COLL_GATHER] = "linear", [PZ_COLL_GATHERV] = "linear",
        [PZ_COLL_SCATTER] = "linear", [PZ_COLL_SCATTERV] = "linear",
        [PZ_COLL_ALLGATHER] = "ring", [PZ_COLL_ALLGATHERV] = "ring",
        [PZ_COLL_ALLTOALL] = "linear", [PZ_COLL_ALLTOALLV] = "linear",
        [PZ_COLL_REDUCE] = "binomial", [PZ_COLL_ALLREDUCE] = "reduce_bcast",
        [PZ_COLL_REDUCE_SCATTER] = "reduce_scatterv",
        [PZ_COLL_REDUCE_SCATTER_BLOCK] = "reduce_scatterv",
        [PZ_COLL_SCAN] = "linear", [PZ_COLL_EXSCAN] = "linear",
    };

    return names[c->op];
}

/* MPICH 1.2.5's intra_fns_new.c. */
static const char *choose_mpich125(const struct pz_coll *c)
{
    double n = c->bytes;
    int p = c->size;

    switch (c->op) {
    case PZ_COLL_BARRIER:
        return "hypercube";
    case PZ_COLL_BCAST:
        return n < 12288 && p <= 8 ? "binomial" : "scatter_recursive_doubling_allgather";
    case PZ_COLL_GATHER: case PZ_COLL_SCATTER: case PZ_COLL_REDUCE:
        return "binomial";
    case PZ_COLL_ALLGATHER:
        return "recursive_doubling";
    case PZ_COLL_ALLGATHERV:
        return pz_internal_total(c) > 262144 ? "ring" : "recursive_doubling";
    case PZ_COLL_ALLTOALL:
        return n * p <= 128 ? "recursive_doubling" : n * p < 262144 ? "linear" : "pairwise_shift";
    case PZ_COLL_ALLREDUCE:
        return "recursive_doubling_fixup";
    case PZ_COLL_REDUCE_SCATTER: case PZ_COLL_REDUCE_SCATTER_BLOCK:
        return pz_internal_total(c) > 512 ? "pairwise" : "recursive_doubling";
    case PZ_COLL_SCAN: case PZ_COLL_EXSCAN:
        return "recursive_doubling";
    default:                     /* the v-variants */
        return "linear";
    }
}

static const char *choose_bcast4(const struct pz_coll *c)
{
    if (c->size < 8 || c->bytes <= 12288)
        return "binomial";
    if (pz_internal_is_pof2(c->size) && c->bytes <= 524288)
        return "scatter_recursive_doubling_allgather";
    return "scatter_ring_allgather";
}

static const char *choose_allgather4(const struct pz_coll *c)
{
    double total = pz_internal_total(c);

    if (pz_internal_is_pof2(c->size))
        return total < 524288 ? "recursive_doubling" : "ring";
    return total < 81920 ? "bruck" : "ring";
}

static const char *choose_alltoall4(const struct pz_coll *c)
{
    if (c->bytes <= 256 && c->size >= 8)
        return "bruck";
    return c->bytes <= 32768 ? "scattered" : "pairwise";
}

/* MPICH 4's reductions by Rabenseifner need a count >= pof2 of built-in ops. */
static int short_vector(const struct pz_coll *c, double limit)
{
    return c->bytes <= limit || c->bytes / ELEMENT_BYTES < pz_internal_pof2_floor(c->size);
}

/* MPICH 4.x's default selection (maint/tuning/coll/mpir/generic.json), for
 * intracommunicators, commutative built-in operations and buffers not in place. */
static const char *choose_mpich4(const struct pz_coll *c)
{
    switch (c->op) {
    case PZ_COLL_BARRIER:
        return "dissemination";
    case PZ_COLL_BCAST:
        return choose_bcast4(c);
    case PZ_COLL_GATHER: case PZ_COLL_SCATTER:
        return "binomial";
    case PZ_COLL_ALLGATHER: case PZ_COLL_ALLGATHERV:
        return choose_allgather4(c);
    case PZ_COLL_ALLTOALL:
        return choose_alltoall4(c);
    case PZ_COLL_ALLTOALLV:
        return "scattered";
    case PZ_COLL_REDUCE:
        return short_vector(c, 2048) ? "binomial" : "reduce_scatter_gather";
    case PZ_COLL_ALLREDUCE:
        return short_vector(c, 8) ? "recursive_doubling" : "rabenseifner";
    case PZ_COLL_REDUCE_SCATTER: case PZ_COLL_REDUCE_SCATTER_BLOCK:
        return pz_internal_total(c) < 524288 ? "recursive_halving" : "pairwise";
    case PZ_COLL_SCAN: case PZ_COLL_EXSCAN:
        return "recursive_doubling";
    default:                     /* Gatherv, Scatterv */
        return "linear";
    }
}

static int known_set(const char *mpi)
{
    return strcmp(mpi, "mpich4") == 0 || strcmp(mpi, "mpich-1.2.5") == 0 ||
           strcmp(mpi, "mpich1") == 0 || strcmp(mpi, "openmpi4") == 0;
}

const struct pz_coll_algo *pz_coll_choose(const char *mpi, const struct pz_coll *c)
{
    const char *name;

    if ((unsigned)c->op >= PZ_COLL_NOPS)
        return NULL;
    if (c->remote_size > 0)
        return known_set(mpi) ? pz_internal_inter_choose(c) : NULL;
    if (strcmp(mpi, "mpich4") == 0)
        name = choose_mpich4(c);
    else if (strcmp(mpi, "mpich-1.2.5") == 0)
        name = choose_mpich125(c);
    else if (strcmp(mpi, "mpich1") == 0)
        name = choose_mpich1(c);
    else if (strcmp(mpi, "openmpi4") == 0)
        name = pz_internal_choose_openmpi4(c);
    else
        return NULL;
    return pz_coll_named(c->op, name);
}

/* The table "Bytes of collectives" of docs/trace-format.md read backwards; for the
 * v-variants the mean block. */
double pz_coll_block(enum pz_coll_op op, int size, int root, int me, double sent,
                     double received)
{
    int others = size - 1;

    if (others <= 0)
        return 0;
    switch (op) {
    case PZ_COLL_BARRIER:
        return 0;
    case PZ_COLL_BCAST: case PZ_COLL_SCATTER: case PZ_COLL_SCATTERV:
        return me == root ? sent / others : received;
    case PZ_COLL_GATHER: case PZ_COLL_GATHERV: case PZ_COLL_REDUCE:
        return me == root ? received / others : sent;
    case PZ_COLL_REDUCE_SCATTER:
        return received / others;
    case PZ_COLL_ALLREDUCE: case PZ_COLL_SCAN: case PZ_COLL_EXSCAN:
        return sent > received ? sent : received;
    default:                     /* Allgather(v), Alltoall(v), Reduce_scatter_block */
        return sent / others;
    }
}
