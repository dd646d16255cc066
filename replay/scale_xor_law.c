/* Whether a model built from butterfly stages (scale_xor.c) is a butterfly, and the
 * counts it can be synthesized at (scale_program_int.h: sp_xor_candidate, sp_xor_law,
 * sp_xor_check).  The messages of a butterfly recorded at 2, 4 and 8 processes are also
 * those of a halo exchange on MPI_Dims_create's 2 x 1 x 1, 2 x 2 x 1 and 2 x 2 x 2
 * grids, and the two differ from 16 on.  The butterfly is taken when no recording has a
 * grid the program made (MPI_Cart_create) and every stage is made by every process in a
 * loop whose trip count is log2(P) at every recorded count: a loop whose trip count
 * follows the rank's bits is a butterfly's, where a halo exchange has at most 2
 * neighbours per dimension of a grid of at most 3.  A loop of ceil(log2(P) / 2) stages
 * (1, 1 and 2 at 2, 4 and 8), from bit 0 up or from the row's highest bit down, is taken
 * too: NPB CG's sums within a row of its grid of 2^ceil(log2(P) / 2) columns, over the
 * rank's column bits.  Messages to NPB
 * CG's transpose partner (scale_transpose.c) are taken among the stages where, at every
 * recorded count, every message of their step at every process goes to that partner:
 * the candidate then has no message but those and the stages'. */
#include <math.h>
#include <stdio.h>

#include "scale_program_int.h"

/* Is the peer of message event e of process p of run the world's rank p XOR 2^i. */
static int to_partner(const struct pz_scale_run *run, int p, const struct pz_scale_event *e)
{
    int q;

    if (e->comm >= run->ncomms || run->comms[e->comm].kind != PZ_SCALE_COMM_WORLD)
        return 0;
    q = sp_offset_rank(run, p, &run->comms[e->comm], &e->peer);
    return q >= 0 && q != p && !((q ^ p) & ((q ^ p) - 1));
}

/* Whether every message of run with a peer in the grid goes to a partner rank XOR 2^i,
 * or is in a step whose every message goes to the transpose partner, into *some whether
 * there is one to rank XOR 2^i. */
static int all_to_partners(const struct pz_scale_run *run, int *some)
{
    for (int p = 0; p < run->nprocs; p++)
        for (size_t s = 0; s < run->procs[p].nsteps; s++) {
            const struct pz_scale_step *st = &run->procs[p].steps[s];
            int transposed = -1;   /* not yet asked */

            for (uint32_t i = 0; i < st->n; i++) {
                const struct pz_scale_event *e = &run->procs[p].events[st->first + i];

                if (e->peer.kind != PZ_SCALE_PEER_OFFSET)
                    continue;
                if (to_partner(run, p, e)) {
                    *some = 1;
                    continue;
                }
                if (transposed < 0)
                    transposed = sp_transpose_step(run, s);
                if (!transposed)
                    return 0;
            }
        }
    return 1;
}

int sp_xor_candidate(const struct pz_scale_run *const *runs, size_t n)
{
    int some = 0;

    for (size_t r = 0; r < n; r++) {
        int p = runs[r]->nprocs;

        if (runs[r]->grid.from_topology || p < 2 || (p & (p - 1)))
            return 0;
    }
    for (size_t r = 0; r < n; r++)
        if (!all_to_partners(runs[r], &some))
            return 0;
    return some;
}

/* Whether step node k has a stage, its first's rank (struct pz_scale_peer: the bit it
 * begins at going up, -1 less the bit it ends at going down) into *rank. */
static int stage_of(const struct pz_scale_program *m, uint32_t k, int *rank)
{
    const struct sp_event *e = sp_peer_of(m, k, PZ_SCALE_PEER_XOR);

    if (e)
        *rank = e->peer.rank;
    return e != NULL;
}

void sp_xor_mark_loops(struct pz_scale_program *m)
{
    for (uint32_t k = 0; k < m->nnodes; k++) {
        uint32_t l;
        int rank;

        if (stage_of(m, k, &rank) && (l = sp_loop_around(m, k)) != SP_NONE)
            m->nodes[l].stages = 1;
    }
}

/* log2(P), or with cols log2(Q), Q = 2^ceil(log2(P) / 2): the columns of NPB CG's grid,
 * whose rows it sums by a butterfly over the rank's lowest log2(Q) bits. */
static long long bits_of(int procs, int cols)
{
    long long l = (long long)log2(procs);

    return cols ? (l + 1) / 2 : l;
}

/* Does the trip count of loop node l give bits_of(P, cols) + off at P, once rounded, as
 * the synthesis rounds it (an exact form of whole values gives them so: 1, 2 and 3
 * iterations at 2, 4 and 8 processes are also 0.375 * P rounded). */
static int trips_at(const struct pz_scale_program *m, uint32_t l, int off, int cols, int procs)
{
    return llround(pz_scale_model_at(&m->nodes[l].count, procs)) == bits_of(procs, cols) + off;
}

/* Whether loop node l has the trip count bits_of(P, cols) + off at every recorded count. */
static int law_holds(const struct pz_scale_program *m, uint32_t l, int off, int cols)
{
    for (size_t r = 0; r < m->nruns; r++)
        if (!trips_at(m, l, off, cols, m->runs[r]->nprocs))
            return 0;
    return 1;
}

/* The trip count log2(P) + off, or log2(Q) + off with cols, the law's, into loop node
 * l's model. */
static void take_law(struct pz_scale_program *m, uint32_t l, int off, int cols)
{
    struct pz_scale_model *c = &m->nodes[l].count;

    *c = (struct pz_scale_model){.c0 = off, .c1 = 1, .origin = off == 0, .a_den = 1, .b = 1,
                                 .cols = cols, .npoints = c->npoints};
}

int sp_xor_short_grids(const struct pz_scale_program *m)
{
    for (size_t r = 0; r < m->nruns; r++)
        for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
            if (m->runs[r]->grid.dims[d] > 2)
                return 0;
    return 1;
}

/* The law of loop node l around a stage of rank `rank`, its trip count bits_of(P, cols)
 * + *off at every recorded count: cols 0 (log2(P)) or 1 (log2(Q)), -1 when neither
 * holds.  Going up from bit b, the stages end at the highest bit: off is -b.  Going down,
 * to bit 0 only (rank -1), they begin at the bit the trip count gives, bits + off - 1, no
 * higher than the highest (off <= 0): off is what the first recording shows (0 for a
 * butterfly from the highest bit of the rank, or of a row of NPB CG's grid: 1, 2, 3
 * stages at 2, 4, 8 are log2(P), 1, 1, 2 are log2(Q)). */
static int law_of(const struct pz_scale_program *m, uint32_t l, int rank, int *off)
{
    int first = m->runs[0]->nprocs;

    if (rank < -1)
        return -1;
    for (int cols = 0; cols <= 1; cols++) {
        *off = rank >= 0 ? -rank
                         : (int)(llround(pz_scale_model_at(&m->nodes[l].count, first)) -
                                 bits_of(first, cols));
        if (*off <= 0 && law_holds(m, l, *off, cols))
            return cols;
    }
    return -1;
}

/* What the butterfly's note says of the grid the recordings also fit, where every
 * dimension has at most 2 processes in each (sp_xor_short_grids), and of the evidence,
 * the direction of the stages of step node first: from bit 0 up, no loop over the
 * dimensions of MPI_Dims_create's grid, ranks in row-major order, whose first
 * dimension is the highest bit; from the highest bit down, as such a loop. */
static const char *grid_clause(const struct pz_scale_program *m, uint32_t first)
{
    int rank = 0;

    if (!sp_xor_short_grids(m))
        return "";
    stage_of(m, first, &rank);
    return rank >= 0 ? ", not the neighbours of the process grid that the recordings also "
                       "fit (every dimension of at most 2 processes), which differ from "
                       "twice the largest count on: a grid's neighbours stay 2 per "
                       "dimension where the stages grow with log2(P); its stages go from "
                       "bit 0 up, which no loop over the dimensions of that grid does "
                       "(MPI_Dims_create's layout, ranks in row-major order: the first "
                       "dimension is the highest bit)"
                     : ", not the neighbours of the process grid that the recordings also "
                       "fit (every dimension of at most 2 processes), which differ from "
                       "twice the largest count on: a grid's neighbours stay 2 per "
                       "dimension where the stages grow with log2(P); its stages go from "
                       "the highest bit down, as a loop over the dimensions of that grid "
                       "from the first would, and the loop of log2(P) stages decides";
}

int sp_xor_law(struct pz_scale_program *m)
{
    uint32_t first = SP_NONE, transposed = SP_NONE;
    int cols = 0;
    char at[128];

    for (uint32_t k = 0; k < m->nnodes; k++) {
        uint32_t l;
        int rank, off;

        if (sp_peer_of(m, k, PZ_SCALE_PEER_TRANSPOSE)) {
            if (!sp_everywhere(m, k))
                return 0;
            if (transposed == SP_NONE)
                transposed = k;
        }
        if (!stage_of(m, k, &rank))
            continue;
        if ((l = sp_law_loop(m, k)) == SP_NONE || law_of(m, l, rank, &off) < 0)
            return 0;
        if (first == SP_NONE)
            first = k;
    }
    if (first == SP_NONE)
        return 0;
    for (uint32_t k = 0; k < m->nnodes; k++) {
        int rank, law, off;

        if (!stage_of(m, k, &rank))
            continue;
        law = law_of(m, sp_loop_around(m, k), rank, &off);
        cols |= law;
        take_law(m, sp_loop_around(m, k), off, law);
    }
    sp_recorded_counts(m, at, sizeof(at));
    if (sp_note(m, "the messages of %s go to partners rank XOR 2^i, i going up or down by "
                "one in a loop of %s iterations at every recorded count (%s), and no "
                "recording has a grid made by MPI_Cart_create: a butterfly (recursive "
                "doubling, hypercube exchange) is taken%s; counts that are not powers of "
                "two are refused", sp_sym_name(&m->table, m->nodes[first].sym),
                cols ? "log2(P) or ceil(log2(P) / 2) (NPB CG's sums within a row of its grid)"
                     : "log2(P)", at,
                grid_clause(m, first)) != 0)
        return -1;
    if (transposed != SP_NONE &&
        sp_note(m, "the messages of %s go to NPB CG's transpose partner at every process "
                "and every recorded count (%s): the rank written from the highest bit as A "
                "B C, A and B of floor(log2(P) / 2) bits, C of log2(P) mod 2, exchanges with "
                "B A C", sp_sym_name(&m->table, m->nodes[transposed].sym), at) != 0)
        return -1;
    return 1;
}

int sp_xor_check(const struct pz_scale_program *m, int nprocs, char *err, size_t errlen)
{
    /* a binomial tree's children are those below P (sp_tree_check) */
    if (!(nprocs & (nprocs - 1)) || m->table.by_tree)
        return 0;
    for (uint32_t k = 0; k < m->nnodes; k++) {
        int rank;

        if (sp_peer_of(m, k, PZ_SCALE_PEER_TRANSPOSE)) {
            snprintf(err, errlen, "the partner of %s is NPB CG's transpose partner, the "
                     "rank's two halves swapped, which takes a power of two processes, "
                     "not %d", sp_sym_name(&m->table, m->nodes[k].sym), nprocs);
            return -1;
        }
        if (stage_of(m, k, &rank)) {
            uint32_t l = sp_loop_around(m, k);
            int cols = l != SP_NONE && m->nodes[l].count.cols;

            snprintf(err, errlen, "the partners of %s are rank XOR 2^i over %s stages (a "
                     "butterfly%s), which takes a power of two processes, not %d",
                     sp_sym_name(&m->table, m->nodes[k].sym),
                     cols ? "ceil(log2(P) / 2)" : "log2(P)",
                     cols ? " within a row of NPB CG's grid" : "", nprocs);
            return -1;
        }
    }
    return 0;
}
