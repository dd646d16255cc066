/* Bytes of collectives by their definitions (docs/trace-format.md), computed by hand:
 * 4 processes, blocks of 8 bytes (one MPI_DOUBLE) unless said otherwise. */
#include <criterion/criterion.h>
#include <limits.h>

#include "coll_bytes.h"
#include "singleton.h"

/* Datatype sizes need MPI: a singleton MPI, with the recorder linked in but off. */
TestSuite(coll_bytes, .init = singleton_up, .fini = singleton_down);

static struct pz_coll_args args(enum pz_coll_op op, int rank)
{
    return (struct pz_coll_args){ .op = op, .rank = rank, .size = 4, .s = 8, .r = 8,
                                  .stype = MPI_DOUBLE, .rtype = MPI_DOUBLE };
}

static void rooted(enum pz_coll_op op, int rank, int root, uint64_t sent, uint64_t recv)
{
    struct pz_coll_args a = args(op, rank);
    uint64_t s = 99, r = 99;

    pz_coll_rooted_bytes(&a, rank == root, 1, &s, &r);
    cr_assert_eq(s, sent, "op %d rank %d sent %lu", op, rank, (unsigned long)s);
    cr_assert_eq(r, recv, "op %d rank %d received %lu", op, rank, (unsigned long)r);
}

static void unrooted(const struct pz_coll_args *a, uint64_t sent, uint64_t recv)
{
    uint64_t s = 99, r = 99;

    pz_coll_bytes(a, &s, &r);
    cr_assert_eq(s, sent, "op %d rank %d sent %lu", a->op, a->rank, (unsigned long)s);
    cr_assert_eq(r, recv, "op %d rank %d received %lu", a->op, a->rank, (unsigned long)r);
}

Test(coll_bytes, bcast_root_sends_to_three)
{
    rooted(PZ_COLL_BCAST, 1, 1, 24, 0);
    rooted(PZ_COLL_BCAST, 0, 1, 0, 8);
}

Test(coll_bytes, gather_and_reduce_flow_to_the_root)
{
    rooted(PZ_COLL_GATHER, 0, 0, 0, 24);
    rooted(PZ_COLL_GATHER, 3, 0, 8, 0);
    rooted(PZ_COLL_REDUCE, 0, 0, 0, 24);
    rooted(PZ_COLL_REDUCE, 2, 0, 8, 0);
}

Test(coll_bytes, scatter_flows_from_the_root)
{
    rooted(PZ_COLL_SCATTER, 2, 2, 24, 0);
    rooted(PZ_COLL_SCATTER, 1, 2, 0, 8);
}

Test(coll_bytes, gatherv_and_scatterv_count_the_others_blocks)
{
    const int counts[4] = { 1, 2, 3, 4 };
    struct pz_coll_args a = args(PZ_COLL_GATHERV, 1);
    uint64_t s, r;

    a.rcounts = pz_int_counts(counts);
    pz_coll_rooted_bytes(&a, 1, 1, &s, &r);
    cr_assert_eq(r, (1 + 3 + 4) * 8u, "root 1 keeps its own 2 elements");
    a.op = PZ_COLL_SCATTERV;
    a.scounts = pz_int_counts(counts);
    pz_coll_rooted_bytes(&a, 1, 1, &s, &r);
    cr_assert_eq(s, (1 + 3 + 4) * 8u);
    cr_assert_eq(r, 0);
}

Test(coll_bytes, intercommunicator_root_sends_to_every_remote_process)
{
    struct pz_coll_args a = args(PZ_COLL_BCAST, 0);
    uint64_t s, r;

    a.inter = 1;
    a.size = 3;  /* remote group */
    pz_coll_rooted_bytes(&a, 1, 1, &s, &r);
    cr_assert_eq(s, 24);
    pz_coll_rooted_bytes(&a, 0, 0, &s, &r);
    cr_assert_eq(s + r, 0, "the root's group partners do nothing");
}

/* On an intercommunicator data moves between the groups even when the other has one
 * process: an Allreduce of 8 B sends and receives 8 B; a Reduce_scatter whose block here
 * is 2 doubles receives them reduced from each of the 3 remote processes, 3 x 16 B. */
Test(coll_bytes, intercommunicator_allreduce_and_reduce_scatter)
{
    static const int counts[4] = { 1, 2, 1, 1 };
    struct pz_coll_args a = args(PZ_COLL_ALLREDUCE, 0);
    uint64_t s, r;

    a.inter = 1;
    a.size = 1;  /* remote group */
    unrooted(&a, 8, 8);
    a = args(PZ_COLL_REDUCE_SCATTER, 1);
    a.inter = 1;
    a.size = 3;
    a.rcounts = pz_int_counts(counts);
    pz_coll_bytes(&a, &s, &r);
    cr_assert_eq(r, 48, "received %lu", (unsigned long)r);
}

Test(coll_bytes, symmetric_operations)
{
    struct pz_coll_args a = args(PZ_COLL_ALLGATHER, 2);

    unrooted(&a, 24, 24);
    a.op = PZ_COLL_ALLTOALL;
    unrooted(&a, 24, 24);
    a.op = PZ_COLL_ALLREDUCE;
    unrooted(&a, 8, 8);
    a.op = PZ_COLL_BARRIER;
    unrooted(&a, 0, 0);
    a.op = PZ_COLL_REDUCE_SCATTER_BLOCK;
    unrooted(&a, 24, 24);
}

Test(coll_bytes, in_place_allgather_sends_its_receive_block)
{
    struct pz_coll_args a = args(PZ_COLL_ALLGATHER, 0);

    a.in_place = 1;
    a.s = 0;  /* sendcount is ignored with MPI_IN_PLACE */
    a.r = 16;
    unrooted(&a, 48, 48);
}

Test(coll_bytes, v_variants_skip_the_own_block)
{
    const int counts[4] = { 1, 2, 3, 4 };
    struct pz_coll_args a = args(PZ_COLL_ALLTOALLV, 3);

    a.scounts = pz_int_counts(counts);
    a.rcounts = pz_int_counts(counts);
    unrooted(&a, (1 + 2 + 3) * 8u, (1 + 2 + 3) * 8u);
    a.op = PZ_COLL_ALLGATHERV;
    unrooted(&a, 3 * 8u, (1 + 2 + 3) * 8u);
    a.op = PZ_COLL_REDUCE_SCATTER;
    a.rank = 1;
    unrooted(&a, (1 + 3 + 4) * 8u, 3 * 2 * 8u);
}

Test(coll_bytes, alltoallw_uses_each_peers_type)
{
    const int counts[4] = { 1, 1, 1, 1 };
    const MPI_Datatype types[4] = { MPI_CHAR, MPI_INT, MPI_DOUBLE, MPI_SHORT };
    struct pz_coll_args a = args(PZ_COLL_ALLTOALLW, 0);

    a.scounts = a.rcounts = pz_int_counts(counts);
    a.stypes = a.rtypes = types;
    unrooted(&a, 4 + 8 + 2, 4 + 8 + 2);
}

Test(coll_bytes, scans_pass_along_a_chain)
{
    struct pz_coll_args a = args(PZ_COLL_SCAN, 0);

    unrooted(&a, 8, 0);
    a.rank = 3;
    unrooted(&a, 0, 8);
    a.rank = 1;
    a.op = PZ_COLL_EXSCAN;
    unrooted(&a, 8, 8);
}

/* The large-count functions (MPI_Send_c...): counts are MPI_Count and the bytes are
 * 64-bit.  3 000 000 000 doubles (a count above 2^31 = 2 147 483 648) are
 * 3e9 × 8 = 24 000 000 000 bytes, which neither an int count nor a 32-bit product holds. */
Test(coll_bytes, a_count_above_2_31_gives_its_64_bit_bytes)
{
    cr_assert_eq(pz_bytes((MPI_Count)3000000000, MPI_DOUBLE), UINT64_C(24000000000));
    cr_assert_eq(pz_bytes(INT_MAX, MPI_INT), UINT64_C(8589934588), "(2^31 - 1) × 4");
    cr_assert_eq(pz_bytes((MPI_Count)-1, MPI_INT), 0, "no elements");
}

/* 2^62 doubles would be 2^65 bytes: more than 64 bits hold, and more than any memory;
 * the product saturates rather than wrapping to 0 (2^65 mod 2^64). */
Test(coll_bytes, a_product_beyond_64_bits_saturates)
{
    cr_assert_eq(pz_bytes((MPI_Count)1 << 62, MPI_DOUBLE), UINT64_MAX);
    cr_assert_eq(pz_bytes((MPI_Count)1 << 60, MPI_DOUBLE), UINT64_C(1) << 63, "2^60 × 8 fits");
}

/* MPI_Alltoallv_c: MPI_Count arrays read through the same code as int ones.  Rank 1 of
 * 4, MPI_INT (4 bytes): the others' counts are 2^31 + 1 = 2 147 483 649, 3 000 000 000
 * and 7, so (2 147 483 649 + 3 000 000 000 + 7) × 4 = 5 147 483 656 × 4
 * = 20 589 934 624 bytes each way. */
Test(coll_bytes, wide_count_arrays_of_the_large_count_forms)
{
    const MPI_Count counts[4] = { (MPI_Count)2147483649, 5, (MPI_Count)3000000000, 7 };
    struct pz_coll_args a = args(PZ_COLL_ALLTOALLV, 1);

    a.stype = a.rtype = MPI_INT;
    a.scounts = a.rcounts = pz_wide_counts(counts);
    unrooted(&a, UINT64_C(20589934624), UINT64_C(20589934624));
    cr_assert_eq(pz_count_at(a.rcounts, 2), (MPI_Count)3000000000);
}
