/* Binomial trees (scale_program_int.h, sp_tree_*): a broadcast or reduction written by
 * hand as MPICH's, root 0.  Process r's parent is r less its lowest set bit, 2^t (t its
 * trailing zeros), its children r + 2^i for 2^i below 2^t (every i for rank 0) while
 * below P: the broadcast receives from the parent and sends to the children from the
 * highest bit down, the reduction receives from them from bit 0 up and sends to the
 * parent.  Every partner is r XOR 2^i, as a butterfly's, but the number of stages
 * follows the rank's bits: at 8 processes rank 0 has 3 children, 4 has 2, 2 and 6 have
 * 1, the odd ranks none.  Each stage is taken as a butterfly's (scale_xor.c), the one of
 * the rank's lowest set bit as the parent (PZ_SCALE_PEER_TREE), the others' runs as a
 * loop whose trip count is the process's number of children, made 0 times where it has
 * none (struct sp_node.tree). */
#include <stdio.h>

#include "scale_program_int.h"

/* The trailing zeros of a rank above 0. */
static int low_bit(int rank)
{
    int t = 0;

    while (!(rank >> t & 1))
        t++;
    return t;
}

int sp_tree_children(int rank, int nprocs)
{
    int n = 0;

    while (n < 31 && (int64_t)rank + ((int64_t)1 << n) < nprocs &&
           (rank == 0 || n < low_bit(rank)))
        n++;
    return n;
}

int sp_tree_parent(int rank)
{
    return rank > 0 ? rank - (1 << low_bit(rank)) : -1;
}

int sp_tree_role(int rank, int nprocs, int bit)
{
    if (bit < 0 || bit > 30 || (int64_t)(rank ^ (1 << bit)) >= nprocs)
        return -1;
    if (rank > 0 && bit == low_bit(rank))
        return 1;
    return rank == 0 || bit < low_bit(rank) ? 0 : -1;
}

/* Whether every message of run with a peer in the grid goes to its process's parent or
 * to one of its children, into *some whether there is one. */
static int all_in_tree(const struct pz_scale_run *run, int *some)
{
    for (int p = 0; p < run->nprocs; p++)
        for (size_t i = 0; i < run->procs[p].nevents; i++) {
            const struct pz_scale_event *e = &run->procs[p].events[i];
            int q, bit = 0;

            if (e->peer.kind != PZ_SCALE_PEER_OFFSET)
                continue;
            if (e->comm >= run->ncomms || run->comms[e->comm].kind != PZ_SCALE_COMM_WORLD ||
                (q = sp_offset_rank(run, p, &run->comms[e->comm], &e->peer)) < 0 || q == p ||
                ((q ^ p) & ((q ^ p) - 1)))
                return 0;
            while ((1 << bit) != (q ^ p))
                bit++;
            if (sp_tree_role(p, run->nprocs, bit) < 0)
                return 0;
            *some = 1;
        }
    return 1;
}

int sp_tree_candidate(const struct pz_scale_run *const *runs, size_t n)
{
    int some = 0, four = 0;

    for (size_t r = 0; r < n; r++) {
        if (runs[r]->grid.from_topology || runs[r]->nprocs < 2 ||
            !all_in_tree(runs[r], &some))
            return 0;
        four |= runs[r]->nprocs >= 4;
    }
    /* at 2 processes a tree is also a butterfly of one stage */
    return some && four;
}

int sp_tree_inside(const struct pz_scale_program *m, uint32_t k)
{
    uint32_t l = sp_loop_around(m, k);

    return m->table.by_tree && l != SP_NONE && m->nodes[l].tree;
}

void sp_tree_mark_loops(struct pz_scale_program *m)
{
    for (uint32_t k = 0; m->table.by_tree && k < m->nnodes; k++) {
        uint32_t l;

        if (sp_peer_of(m, k, PZ_SCALE_PEER_XOR) && (l = sp_loop_around(m, k)) != SP_NONE)
            m->nodes[l].tree = 1;
    }
}

/* Whether every recording of m is of a power of two processes. */
static int powers_only(const struct pz_scale_program *m)
{
    for (size_t r = 0; r < m->nruns; r++)
        if (m->runs[r]->nprocs & (m->runs[r]->nprocs - 1))
            return 0;
    return 1;
}

/* The first step node with a child of the tree, SP_NONE. */
static uint32_t first_child_step(const struct pz_scale_program *m)
{
    for (uint32_t k = 0; k < m->nnodes; k++)
        if (sp_peer_of(m, k, PZ_SCALE_PEER_XOR))
            return k;
    return SP_NONE;
}

int sp_tree_law(struct pz_scale_program *m)
{
    uint32_t k = first_child_step(m);
    char at[128];

    if (k == SP_NONE || !sp_tree_inside(m, k))
        return 0;
    sp_recorded_counts(m, at, sizeof(at));
    if (sp_note(m, "the messages of %s go to a binomial tree's parent (rank less its lowest "
                "set bit 2^t) and children (rank + 2^i, 2^i below 2^t, every i at rank 0, "
                "while below P), as many stages at every process of every recorded count "
                "(%s) as it has children: a broadcast or reduction written by hand as "
                "MPICH's binomial tree (root 0) is taken%s",
                sp_sym_name(&m->table, m->nodes[k].sym), at,
                powers_only(m) ? "; counts that are not powers of two, where the recordings "
                                 "do not show which children a process has, are refused"
                               : "") != 0)
        return -1;
    return 1;
}

int sp_tree_check(const struct pz_scale_program *m, int nprocs, char *err, size_t errlen)
{
    uint32_t k;

    if (!m->table.by_tree || !(nprocs & (nprocs - 1)) || !powers_only(m) ||
        (k = first_child_step(m)) == SP_NONE)
        return 0;
    snprintf(err, errlen, "the partners of %s are a binomial tree's children (rank + 2^i), "
             "recorded at powers of two processes only, which do not show which children a "
             "process has at %d: recordings at counts that are not powers of two would tell",
             sp_sym_name(&m->table, m->nodes[k].sym), nprocs);
    return -1;
}
